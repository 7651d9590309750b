// The command behaves as command-line tools do: help and version are answers (exit 0, stdout),
// main starts with argc and argv as a shell gives them, --args splits as a shell splits, and a
// reader that stops reading (`| head`) ends the output quietly. Runs the built dist/cli.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { shellWords } from '../../../sims/cli';

const CLI = path.resolve(__dirname, '..', '..', '..', 'dist', 'cli.js');
const scord = (...argv: string[]) => spawnSync(process.execPath, [CLI, ...argv], { encoding: 'utf8' });

test('--help, -h and COMMAND --help print the usage on stdout and exit 0; --version says the package version', () => {
  for (const argv of [['--help'], ['-h'], ['check', '--help'], ['run', 'x.cu', '-h']]) {
    const r = scord(...argv);
    assert.equal(r.status, 0, argv.join(' '));
    assert.match(r.stdout, /^usage: scord check FILE/);
    assert.equal(r.stderr, '');
  }
  const { version } = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string };
  const v = scord('--version');
  assert.equal(v.status, 0);
  assert.equal(v.stdout, `scord ${version}\n`);
  // No command at all is still a usage error.
  const none = scord();
  assert.equal(none.status, 2);
  assert.match(none.stderr, /^scord: usage:/);
});

test('main gets argc 1 and argv[0] the program name (the arguments after it go through clang: test/slow/cli-args.test.ts)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-argv-'));
  try {
    const file = path.join(dir, 'show-args.cu');
    fs.writeFileSync(file, '#include <cstdio>\nint main(int argc, char **argv) {\n  printf("%d", argc);\n  for (int i = 0; argv[i]; i++) printf(" [%s]", argv[i]);\n  printf("\\n");\n  return 0;\n}\n');
    for (const frontend of ['builtin', 'auto']) {
      const r = scord('run', '--frontend', frontend, file);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, '1 [show-args]\n', frontend);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('shellWords: blanks separate, quotes and backslashes keep together, an open quote is an error', () => {
  assert.deepEqual(shellWords(`  one  "two three"  four\\ five 'six"'seven `, '--args'), ['one', 'two three', 'four five', 'six"seven']);
  assert.deepEqual(shellWords('', '--args'), []);
  assert.deepEqual(shellWords(`""`, '--args'), ['']);
  assert.throws(() => shellWords(`a "b`, '--args'), /--args: the quote " at character 3 is not closed/);
});

test('a reader that stops reading ends the output without an error or a stack trace, and the status is the command\'s own', async () => {
  // `scord preprocess` of a long file writes far more than a pipe holds; the reader closes after
  // the first chunk. The file ends in an #error, so the command's status is 1, not 0.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-epipe-'));
  try {
    const file = path.join(dir, 'long.cu');
    fs.writeFileSync(file, `${Array.from({ length: 20_000 }, (_, i) => `int v${i} = ${i};`).join('\n')}\n#error the end\n`);
    const child = spawn(process.execPath, [CLI, 'preprocess', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    assert.doesNotMatch(stderr, /EPIPE|Error|at /);
    assert.equal(code, 1, 'the status of the preprocessing, which met the #error');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  // And through a real shell pipe into head.
  const piped = execFileSync('bash', ['-c', `node ${JSON.stringify(CLI)} --help | head -1; echo "status \${PIPESTATUS[0]}"`], { encoding: 'utf8' });
  assert.match(piped, /^usage: scord check FILE.*\nstatus 0\n$/s);
});

test('--sample-blocks N: a big grid runs N of its blocks, said at the launch and on every finding; fewer than 2 is a usage error', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-sample-'));
  try {
    const file = path.join(dir, 'flags.cu');
    fs.writeFileSync(file, '__global__ void mark(int *flag) {\n  if (threadIdx.x == 0) flag[blockIdx.x % 8] = blockIdx.x;\n}\nint main() {\n  int *flag;\n  cudaMalloc(&flag, 8 * sizeof(int));\n  mark<<<4096, 64>>>(flag);\n  cudaDeviceSynchronize();\n  return 0;\n}\n');
    const r = scord('check', file, '--sample-blocks', '16');
    assert.equal(r.status, 1, r.stderr);
    const lines = r.stdout.split('\n');
    assert.equal(lines[0], `${file}:7:3: info: simulated 16 of 4,096 blocks of mark: a race that needs one of the other blocks is not seen [scord/sampled-blocks]`);
    assert.match(r.stdout, /\[scord\/missing-device-fence\]\n.*\n.*note: simulated 16 of 4,096 blocks of mark: races with the blocks left out are not seen\n/);
    const json = JSON.parse(scord('check', file, '--sample-blocks=16', '--format', 'json').stdout) as { stats: { sampled?: unknown } };
    assert.deepEqual(json.stats.sampled, [{ kernel: 'mark', simulated: 16, blocks: 4096, launches: 1 }]);
    // Without the flag the CLI runs every block.
    assert.doesNotMatch(scord('check', file).stdout, /simulated/);
    const bad = scord('check', file, '--sample-blocks', '1');
    assert.equal(bad.status, 2);
    assert.equal(bad.stderr, 'scord: --sample-blocks needs at least 2 blocks (the first and the last), not 1\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('check --schedules N on --jobs threads: the same report from one thread, two and three, each schedule a seed of its own', () => {
  const racy = path.resolve(__dirname, '..', '..', 'fixtures', 'races', 'app_graphcolor.cu');
  const one = scord('check', racy, '-DRACEY', '--schedules', '4', '--jobs', '1', '--format', 'json');
  const two = scord('check', racy, '-DRACEY', '--schedules', '4', '--jobs', '2', '--format', 'json');
  const three = scord('check', racy, '-DRACEY', '--schedules', '4', '--jobs', '3', '--format', 'json');
  assert.equal(one.status, 1, one.stderr);
  assert.equal(two.status, 1, two.stderr);
  assert.equal(two.stdout, one.stdout);
  assert.equal(three.stdout, one.stdout, three.stderr);
  const report = JSON.parse(one.stdout) as { findings: { kind: string }[]; stats: { schedules: number; steps: number } };
  assert.equal(report.stats.schedules, 4);
  assert.ok(report.findings.some((f) => f.kind === 'race'));
  // The steps are every schedule's: more than one schedule's alone.
  const single = JSON.parse(scord('check', racy, '-DRACEY', '--seed', '1', '--scheduling', 'independent', '--format', 'json').stdout) as { stats: { steps: number } };
  assert.ok(report.stats.steps > single.stats.steps, `${report.stats.steps} > ${single.stats.steps}`);
  const bad = scord('check', racy, '--schedules', '2', '--jobs', '0');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^scord: --jobs needs a positive integer/);
  const missing = scord('check', path.join(os.tmpdir(), 'scord-no-such-file.cu'), '--schedules', '4', '--jobs', '2');
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /^scord: cannot read '.*scord-no-such-file\.cu': no such file\n$/);
});
