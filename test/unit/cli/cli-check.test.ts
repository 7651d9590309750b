// `scord check` on the command line: exit codes, options, the three formats (text like a
// compiler, JSON, SARIF 2.1.0 checked against its schema) and kernel-only files with a
// GPUVerify-style launch header. Most cases run the CLI's entry point in this process (a
// child process per case would take a minute); the first test runs the real thing.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { scord } from '../../../sims/cli';
import { builtCli } from '../../support/builtCli';
import { sarifErrors } from '../../support/sarifSchema';

const ROOT = path.resolve(__dirname, '..', '..', '..');
// Relative paths in the reports are relative to the repository, as for a user there.
process.chdir(ROOT);

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `scord check …` in this process. */
async function check1(args: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const status = await scord(['check', ...args], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { status, stdout, stderr };
}

/** `scord check …` for each argument list. */
async function checks(...lists: string[][]): Promise<Run[]> {
  const runs: Run[] = [];
  for (const l of lists) runs.push(await check1(l));
  return runs;
}

/** The installed command, as a child process. */
function spawnScord(...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [builtCli(), ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function json(r: Run): any {
  try {
    return JSON.parse(r.stdout);
  } catch {
    assert.fail(`not JSON (status ${r.status}): ${r.stdout}\n${r.stderr}`);
  }
}

function noStackTrace(r: Run): void {
  assert.doesNotMatch(r.stderr + r.stdout, /\n\s+at .*\(.*:\d+:\d+\)/, 'no stack trace');
}

const DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-check-'));
after(() => fs.rmSync(DIR, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const p = path.join(DIR, name);
  fs.writeFileSync(p, text);
  return p;
}

const CLEAN = file('clean.cu', '__device__ int c;\n__global__ void k() { atomicAdd(&c, 1); }\nint main() { k<<<2, 32>>>(); return 0; }\n');
const SYNTAX = file('syntax.cu', 'int main() { return 0 }\n');
const SEMANTIC = file('semantic.cu', 'int main() { return undefinedThing; }\n');
const NAMESPACE = file('namespace.cu', 'namespace a { int x; }\nint main() { return 0; }\n');
const TEMPLATE = file('template.cu', '//--blockDim=32 --gridDim=1\ntemplate <typename T> __global__ void k(T *p) { p[threadIdx.x] = 1; }\n');
// A kernel-only file: every thread of both blocks writes p[0].
const RACE = file('race.cu', '//pass\n//--blockDim=64 --gridDim=2 --no-inline\n\n__global__ void race(int *p) {\n  p[0] = threadIdx.x;\n}\n');
// Prints its launch shape and scalar arguments, once.
const SHAPE = file(
  'shape.cu',
  [
    '//pass',
    '//--blockDim=[8,8] --gridDim=[2,2,1]',
    '#include <stdio.h>',
    '__global__ void shape(int n, float f, unsigned char c, int *p) {',
    '  if (threadIdx.x + threadIdx.y + threadIdx.z + blockIdx.x + blockIdx.y + blockIdx.z == 0)',
    '    printf("block %d %d %d grid %d %d %d n=%d f=%g c=%d\\n", blockDim.x, blockDim.y, blockDim.z, gridDim.x, gridDim.y, gridDim.z, n, f, c);',
    '  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);',
    '  unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);',
    '  p[t + blockDim.x * blockDim.y * blockDim.z * b] = n;',
    '}',
    '',
  ].join('\n'),
);
// GPUVerify's ctimesgid test: each thread writes a WIDTH-long row of its own.
const WIDTH = file(
  'width.cu',
  '//pass\n//--blockDim=64 --gridDim=16 -DWIDTH=256\n__global__ void k(unsigned int *A) {\n  unsigned gid = threadIdx.x + (blockIdx.x * blockDim.x);\n  for (unsigned int i = 0; i < WIDTH; i++) {\n    A[i + gid * WIDTH] = gid;\n  }\n}\n',
);
const TWO = file('two.cu', '//--blockDim=32 --gridDim=2\n__global__ void first(int *p) { p[threadIdx.x + blockIdx.x * blockDim.x] = 1; }\n__global__ void second(int *p) { p[0] = blockIdx.x + 1; }\n');
const MALFORMED = file('malformed.cu', '//pass\n//--blockDim=[8,x] --gridDim=2\n__global__ void k(int *p) { p[0] = 1; }\n');
const NO_VALUE = file('novalue.cu', '//--gridDim=2   --blockDim\n__global__ void k(int *p) { p[0] = 1; }\n');
const NO_HEADER = file('noheader.cu', '__global__ void k(int *p) {\n  p[0] = threadIdx.x;\n}\n//--blockDim=[oops]\n');

test('the scord process exits 0, 1 and 2, and prints no stack trace', async () => {
  const [clean, racy, broken, usage] = await Promise.all([spawnScord('check', CLEAN), spawnScord('check', 'examples/scoped-counter.cu', '--format', 'sarif'), spawnScord('check', SYNTAX, '--format', 'json'), spawnScord('check', CLEAN, '--granularity', '5')]);
  assert.equal(clean.status, 0, clean.stderr);
  assert.equal(clean.stdout, `0 findings in ${CLEAN}\n`);
  assert.equal(racy.status, 1, racy.stderr);
  assert.equal(JSON.parse(racy.stdout).runs[0].results[0].ruleId, 'scoped-atomic');
  assert.equal(broken.status, 2);
  assert.equal(JSON.parse(broken.stdout).diagnostics[0].code, 'expected-token');
  assert.equal(usage.status, 2);
  assert.equal(usage.stderr, "scord: --granularity must be one of 4, 8, 16, 32, 64 (bytes per metadata entry), not '5'\n");
  for (const r of [clean, racy, broken, usage]) noStackTrace(r);
});

test('__CUDA_ARCH__ is the architecture --arch names, or the --device preset\'s GPU', async () => {
  const arch = file('arch.cu', '#include <stdio.h>\n__global__ void k(int *o) {\n#ifdef __CUDA_ARCH__\n  o[0] = __CUDA_ARCH__;\n#endif\n}\nint main() { int *d, h = 0; cudaMalloc(&d, 4); k<<<1, 1>>>(d); cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost); printf("%d\\n", h); return 0; }\n');
  const [plain, ampere, hopper, sm60] = await Promise.all([spawnScord('run', arch), spawnScord('run', arch, '--device', 'ampere'), spawnScord('run', arch, '--device', 'hopper'), spawnScord('run', arch, '--arch', 'sm_60')]);
  assert.deepEqual([plain, ampere, hopper, sm60].map((r) => r.stdout.split('\n')[0]), ['700', '800', '900', '600']);
});

test("check's last line says when the program exited with a status other than 0 (a self-check that failed), and exits 0 for it", async () => {
  const failing = file('failing.cu', '#include <stdio.h>\n__global__ void k(int *p) { p[threadIdx.x] = 1; }\nint main() { int *d; cudaMalloc(&d, 128); k<<<1, 32>>>(d); cudaDeviceSynchronize(); printf("FAIL\\n"); return 3; }\n');
  const [r] = await checks([failing]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.equal(r.stdout, `0 findings in ${failing} (the program exited with status 3)\n`);
});

test('check exits 0 when the run found nothing, 1 when it found something, 2 when it could not analyse', async () => {
  const [clean, racy, syntax, semantic, namespace, template, builtinNamespace] = await checks([CLEAN], ['examples/scoped-counter.cu'], [SYNTAX], [SEMANTIC], [NAMESPACE], [TEMPLATE], [NAMESPACE, '--frontend', 'builtin']);
  assert.equal(clean.status, 0, clean.stdout + clean.stderr);
  assert.equal(clean.stdout, `0 findings in ${CLEAN}\n`);
  assert.equal(racy.status, 1, racy.stdout + racy.stderr);
  assert.match(racy.stdout, /^1 finding in examples\/scoped-counter\.cu$/m);
  assert.equal(syntax.status, 2);
  assert.equal(syntax.stdout, `${SYNTAX}:1:22: error: expected ';' after the return statement [scord/expected-token]\n${SYNTAX} was not analysed: 1 error\n`);
  assert.equal(semantic.status, 2);
  // A name the built-in front end does not know may come from a header it lacks: clang judges.
  assert.match(semantic.stdout, new RegExp(`^${escape(SEMANTIC)}:1:21: error: use of undeclared identifier 'undefinedThing' \\[scord/clang\\]$`, 'm'));
  // What the built-in front end does not know, clang reads: the program runs.
  assert.equal(namespace.status, 0, namespace.stdout);
  assert.equal(namespace.stdout, `0 findings in ${NAMESPACE}\n`);
  assert.equal(builtinNamespace.status, 2, 'an unsupported construct: not analysed by the built-in front end alone');
  assert.match(builtinNamespace.stdout, new RegExp(`^${escape(NAMESPACE)}:1:1: error: not supported yet: namespace 'a' \\[scord/not-supported\\]$`, 'm'));
  assert.equal(template.status, 2, 'a template kernel cannot be run without its arguments: clang makes no kernel of it');
  assert.match(template.stdout, new RegExp(`^${escape(TEMPLATE)}:1:1: error: the program has neither a main function nor a kernel to run \\[scord/launch\\]$`, 'm'));
  for (const r of [clean, racy, syntax, semantic, namespace, template, builtinNamespace]) {
    assert.equal(r.stderr, '');
    noStackTrace(r);
  }
});

test('bad usage exits 2 with a message on stderr and nothing on stdout', async () => {
  const cases: [string[], RegExp][] = [
    [[CLEAN, '--granularity', '5'], /--granularity must be one of 4, 8, 16, 32, 64 .*'5'/],
    [[CLEAN, '--granularity=3'], /--granularity must be one of/],
    [[CLEAN, '--granularity', 'four'], /--granularity must be one of/],
    [[CLEAN, '--format', 'xml'], /unknown format 'xml'; choose text, json or sarif/],
    [[CLEAN, '--scheduling', 'warp'], /unknown scheduling model 'warp'/],
    [[CLEAN, '--seed', '-1'], /--seed needs a non-negative integer/],
    [[CLEAN, '--schedules', '0'], /--schedules needs a positive integer/],
    [[CLEAN, '--max-steps', '1.5'], /--max-steps needs a positive integer/],
    [[CLEAN, '--device', 'nonesuch'], /unknown device preset 'nonesuch'/],
    [[RACE, '--grid', '0'], /--grid: '0' has a zero dimension/],
    [[RACE, '--block', '[8,x]'], /--block: '\[8,x\]' is not a dimension/],
    [[RACE, '--block', '1,2,3,4'], /--block: too many dimensions/],
    [[RACE, '--kernel'], /--kernel needs a value/],
    [[RACE, '--arg', 'n'], /--arg needs NAME=VALUE/],
    [[RACE, '--arg', 'n=many'], /--arg needs NAME=VALUE with a number/],
    [[RACE, '--arg', 'q=1'], /--arg q: kernel 'race' has no parameter named 'q' \(its parameters: p\)/],
    [[RACE, '--arg', 'p=1'], /--arg p: parameter 'p' of kernel 'race' has type 'int \*'; only scalar parameters take values/],
    [['examples/scoped-counter.cu', '--arg', 'n=1'], /--arg sets parameters of a kernel run directly, but the file has a main function/],
    [[CLEAN, '--bogus'], /unknown option '--bogus'/],
  ];
  const runs = await checks(...cases.map(([a]) => a));
  runs.forEach((r, i) => {
    const [args, message] = cases[i];
    assert.equal(r.status, 2, `scord check ${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /^scord: /);
    assert.match(r.stderr, message);
    assert.equal(r.stdout, '');
    noStackTrace(r);
  });
});

test('detector and run options reach the report', async () => {
  const [coarse, faithful, off, model] = await checks(
    ['examples/scoped-counter.cu', '--format', 'json', '--granularity', '64'],
    ['examples/scoped-counter.cu', '--format=json', '--hardware-faithful', '--device', 'volta'],
    ['examples/scoped-counter.cu', '--format', 'json', '--no-detect'],
    [RACE, '--format', 'json', '--scheduling', 'lockstep', '--seed', '3', '--schedules', '2', '--max-steps', '1000000', '-DUNUSED=1', '-I', DIR],
  );
  assert.equal(coarse.status, 1);
  assert.deepEqual(json(coarse).stats, { launches: 1, launched: [{ kernel: 'countEvents', grid: [4, 1, 1], block: [128, 1, 1], args: ['values: int[512]', 'n = 512'] }], steps: json(coarse).stats.steps, device: 'scord-paper', detection: 'exact', granularity: 64, schedules: 1, exitCode: 0 });
  assert.ok(json(coarse).stats.steps > 0);
  assert.equal(faithful.status, 1);
  assert.equal(json(faithful).stats.detection, 'hardware-faithful');
  assert.equal(json(faithful).stats.device, 'volta');
  assert.equal(off.status, 0, '--no-detect: the run alone finds nothing wrong');
  assert.equal(json(off).stats.detection, 'off');
  assert.deepEqual(json(off).findings, []);
  assert.equal(json(off).output, 'counted 171 events, expected 171\n');
  assert.equal(model.status, 1);
  assert.equal(json(model).stats.schedules, 2);
  const limited = (await checks(['examples/scoped-counter.cu', '--format', 'json', '--max-steps', '50']))[0];
  assert.ok(json(limited).findings.some((f: { kind: string }) => f.kind === 'step-budget'), '--max-steps bounds the run');
});

test('the JSON report: every field, 1-based locations, no internal offsets', async () => {
  const [mp, broken] = await checks(['examples/message-passing.cu', '--format', 'json'], [SEMANTIC, '--format', 'json', '--frontend', 'builtin']);
  assert.equal(mp.status, 1);
  const data = json(mp);
  assert.deepEqual(Object.keys(data).sort(), ['diagnostics', 'file', 'findings', 'output', 'stats']);
  assert.equal(data.file, 'examples/message-passing.cu');
  assert.equal(data.output, 'consumer read data = 42 (expected 42)\n');
  assert.deepEqual(data.diagnostics, []);
  assert.deepEqual(Object.keys(data.stats).sort(), ['detection', 'device', 'exitCode', 'granularity', 'launched', 'launches', 'schedules', 'steps']);
  const race = data.findings.find((f: { category: string; location: { line: number } }) => f.category === 'missing-device-fence' && f.location.line === 37);
  assert.ok(race, JSON.stringify(data.findings));
  for (const key of ['kind', 'category', 'scope', 'severity', 'message', 'location', 'related', 'count', 'fixes']) assert.ok(key in race, `finding has ${key}`);
  assert.ok(!('range' in race) && !('relatedRanges' in race), 'no internal ranges');
  assert.equal(race.kind, 'race');
  assert.equal(race.scope, 'device');
  assert.equal(race.severity, 'warning');
  assert.equal(typeof race.message, 'string');
  assert.deepEqual(race.location, { file: 'examples/message-passing.cu', line: 37, column: 19, endLine: 37, endColumn: 23 });
  // The other access, then the block-scope fence the message names (widening it is the fix).
  assert.equal(race.related.length, 2);
  assert.deepEqual(Object.keys(race.related[0]).sort(), ['location', 'message']);
  assert.deepEqual(race.related[0].location, { file: 'examples/message-passing.cu', line: 29, column: 9, endLine: 29, endColumn: 18 });
  assert.equal(race.related[1].location.line, 30);
  assert.match(race.related[1].message, /__threadfence_block\(\)` orders memory only for its own block/);
  assert.ok(race.count >= 1);
  for (const fix of race.fixes) {
    assert.deepEqual(Object.keys(fix).sort(), ['edits', 'preferred', 'title']);
    for (const e of fix.edits) {
      assert.deepEqual(Object.keys(e).sort(), ['location', 'newText']);
      assert.deepEqual(Object.keys(e.location).sort(), ['column', 'endColumn', 'endLine', 'file', 'line']);
      assert.ok(e.location.line >= 1 && e.location.column >= 1);
    }
  }
  assert.equal(broken.status, 2);
  const b = json(broken);
  assert.deepEqual(b.findings, []);
  assert.deepEqual(b.diagnostics, [
    { severity: 'error', code: 'undeclared-identifier', message: "use of undeclared identifier 'undefinedThing'", location: { file: SEMANTIC, line: 1, column: 21, endLine: 1, endColumn: 35 } },
  ]);
  assert.equal(b.stats.launches, 0);
});

test('the text report reads like a compiler: warning, then a note at the other access', async () => {
  const [r] = await checks(['examples/scoped-counter.cu']);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 3, r.stdout);
  assert.match(lines[0], /^examples\/scoped-counter\.cu:28:9: warning: .*atomicAdd_block.* races with .* \[scord\/scoped-atomic\]$/);
  assert.match(lines[1], /^examples\/scoped-counter\.cu:28:9: note: \S.*$/);
  assert.equal(lines[2], '1 finding in examples/scoped-counter.cu');
});

test('SARIF: valid 2.1.0, with rules, locations, related locations and fixes', async () => {
  const [counter, mp, mpJson, clean] = await checks(
    ['examples/scoped-counter.cu', '--format', 'sarif'],
    ['examples/message-passing.cu', '--format', 'sarif'],
    ['examples/message-passing.cu', '--format', 'json'],
    [CLEAN, '--format', 'sarif'],
  );
  assert.equal(counter.status, 1);
  const log = json(counter);
  assert.deepEqual(sarifErrors(log), []);
  assert.equal(log.version, '2.1.0');
  assert.equal(log.runs.length, 1);
  const run = log.runs[0];
  assert.equal(run.tool.driver.name, 'scord');
  assert.deepEqual(run.tool.driver.rules.map((r: { id: string }) => r.id), ['scoped-atomic']);
  assert.equal(run.tool.driver.rules[0].helpUri, undefined);
  assert.ok(run.tool.driver.rules[0].shortDescription.text.length > 10);
  assert.deepEqual(run.invocations, [{ executionSuccessful: true, exitCode: 1 }]);
  assert.equal(run.originalUriBaseIds['%SRCROOT%'].uri, `file://${ROOT}/`);
  assert.equal(run.results.length, 1);
  const result = run.results[0];
  assert.equal(result.ruleId, 'scoped-atomic');
  assert.equal(result.ruleIndex, 0);
  assert.equal(result.level, 'warning');
  assert.match(result.message.text, /atomicAdd_block/);
  assert.deepEqual(result.locations[0].physicalLocation.artifactLocation, { uri: 'examples/scoped-counter.cu', uriBaseId: '%SRCROOT%' });
  assert.deepEqual(result.locations[0].physicalLocation.region, { startLine: 28, startColumn: 9, endLine: 28, endColumn: 38 });
  assert.equal(result.relatedLocations[0].id, 1);
  assert.deepEqual(result.relatedLocations[0].physicalLocation.region, { startLine: 28, startColumn: 9, endLine: 28, endColumn: 38 });
  assert.match(result.relatedLocations[0].message.text, /\S/);
  assert.equal(result.properties.kind, 'race');
  assert.equal(result.properties.scope, 'device');

  // The fixes are the JSON report's, edit for edit.
  assert.equal(mp.status, 1);
  const mpLog = json(mp);
  assert.deepEqual(sarifErrors(mpLog), []);
  const findings = json(mpJson).findings as { message: string; fixes: { title: string; preferred: boolean; edits: { location: any; newText: string }[] }[] }[];
  assert.equal(mpLog.runs[0].results.length, findings.length);
  let fixes = 0;
  mpLog.runs[0].results.forEach((res: any, i: number) => {
    assert.equal(res.message.text, findings[i].message);
    assert.equal((res.fixes ?? []).length, findings[i].fixes.length);
    findings[i].fixes.forEach((fix, j) => {
      fixes++;
      const s = res.fixes[j];
      assert.equal(s.description.text, fix.title);
      assert.equal(s.properties?.preferred ?? false, fix.preferred);
      const replacements = s.artifactChanges.flatMap((c: any) => c.replacements);
      assert.deepEqual(
        replacements,
        fix.edits.map((e) => ({ deletedRegion: { startLine: e.location.line, startColumn: e.location.column, endLine: e.location.endLine, endColumn: e.location.endColumn }, insertedContent: { text: e.newText } })),
      );
      for (const c of s.artifactChanges) assert.equal(c.artifactLocation.uri, 'examples/message-passing.cu');
    });
  });
  assert.ok(fixes > 0, 'message-passing.cu has fixes to map');

  assert.equal(clean.status, 0);
  const cleanLog = json(clean);
  assert.deepEqual(sarifErrors(cleanLog), []);
  assert.deepEqual(cleanLog.runs[0].results, []);
  assert.deepEqual(cleanLog.runs[0].tool.driver.rules, []);
  assert.equal(cleanLog.runs[0].invocations[0].exitCode, 0);
  // An absolute path is a file URI.
  assert.equal(cleanLog.runs[0].invocations[0].executionSuccessful, true);
});

test('SARIF: a file that cannot be analysed gives tool notifications, not results', async () => {
  const [broken, header] = await checks([SEMANTIC, '--format', 'sarif', '--frontend', 'builtin'], [MALFORMED, '--format', 'sarif']);
  assert.equal(broken.status, 2);
  const log = json(broken);
  assert.deepEqual(sarifErrors(log), []);
  const run = log.runs[0];
  assert.deepEqual(run.results, []);
  assert.equal(run.invocations[0].executionSuccessful, false);
  assert.equal(run.invocations[0].exitCode, 2);
  const [n] = run.invocations[0].toolExecutionNotifications;
  assert.equal(n.level, 'error');
  assert.equal(n.message.text, "use of undeclared identifier 'undefinedThing'");
  assert.deepEqual(n.descriptor, { id: 'undeclared-identifier', index: 0 });
  assert.deepEqual(n.locations[0].physicalLocation, { artifactLocation: { uri: `file://${SEMANTIC}` }, region: { startLine: 1, startColumn: 21, endLine: 1, endColumn: 35 } });
  assert.equal(run.tool.driver.notifications[0].id, 'undeclared-identifier');
  assert.equal(run.tool.driver.notifications[0].helpUri, undefined);
  assert.equal(header.status, 2);
  const h = json(header);
  assert.deepEqual(sarifErrors(h), []);
  assert.deepEqual(h.runs[0].invocations[0].toolExecutionNotifications[0].locations[0].physicalLocation.region, { startLine: 2, startColumn: 14, endLine: 2, endColumn: 19 });
});

test('the schema check can fail', () => {
  const log = { version: '2.1.0', runs: [{ tool: { driver: { name: 'scord' } }, results: [{ ruleId: 'x', locations: [{ physicalLocation: { region: { startLine: 0 } } }] }] }] };
  const errors = sarifErrors(log);
  assert.ok(errors.some((e) => /must have required property 'message'/.test(e)), errors.join('\n'));
  assert.ok(errors.some((e) => /startLine must be >= 1/.test(e)), errors.join('\n'));
});

test('a kernel-only file runs the launch its //--blockDim --gridDim header gives', async () => {
  const [text, data] = await checks([RACE], [RACE, '--format', 'json']);
  assert.equal(text.status, 1, text.stdout + text.stderr);
  assert.match(text.stdout, new RegExp(`^${escape(RACE)}:5:3: warning: .* \\[scord/missing-block-fence\\]$`, 'm'));
  assert.match(text.stdout, new RegExp(`^${escape(RACE)}:5:3: warning: .* \\[scord/missing-device-fence\\]$`, 'm'));
  const report = json(data);
  assert.equal(report.stats.launches, 1);
  // 64 threads in each of 2 blocks: warps 0 and 1 of a block race, and block 1 with block 0.
  const block = report.findings.find((f: { category: string }) => f.category === 'missing-block-fence');
  assert.equal(block.address, 'p[0]', 'the pointer argument is an allocation named after its parameter');
  assert.equal(block.accessor.block, block.previousAccessor.block);
  assert.notEqual(block.accessor.warp, block.previousAccessor.warp);
  const device = report.findings.find((f: { category: string }) => f.category === 'missing-device-fence');
  assert.deepEqual([device.accessor.block, device.previousAccessor.block].sort(), [0, 1]);
});

test('the [x,y,z] header form, and --grid, --block and --arg over the header', async () => {
  const [header, options, bracket] = await checks(
    [SHAPE, '--format', 'json'],
    [SHAPE, '--format', 'json', '--grid', '3', '--block', '4,2', '--arg', 'n=-7', '--arg', 'f=2.5', '--arg', 'c=300'],
    [SHAPE, '--format', 'json', '--grid=[1,2]', '--block=[2,2,2]', '--kernel', 'shape', '--arg=n=0x10'],
  );
  for (const r of [header, options, bracket]) assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.equal(json(header).output, 'block 8 8 1 grid 2 2 1 n=0 f=0 c=0\n');
  // Scalars are converted to the parameter's type: 300 in an unsigned char is 44.
  assert.equal(json(options).output, 'block 4 2 1 grid 3 1 1 n=-7 f=2.5 c=44\n');
  assert.equal(json(bracket).output, 'block 2 2 2 grid 1 2 1 n=16 f=0 c=0\n');
});

test('header -D definitions, the command line over them, and room for strided pointer arguments', async () => {
  const [header, overridden] = await checks([WIDTH, '--format', 'json'], [WIDTH, '--format', 'json', '-DWIDTH=512']);
  // 1024 threads each write a 256-element row: 1 MiB, which the pointer argument has room for.
  assert.equal(header.status, 0, header.stdout + header.stderr);
  assert.deepEqual(json(header).findings, []);
  // Twice as wide, the rows overrun the allocation: the command line's -D won.
  assert.equal(overridden.status, 1);
  const oob = json(overridden).findings.find((f: { kind: string }) => f.kind === 'out-of-bounds');
  assert.ok(oob, overridden.stdout);
  assert.match(oob.message, /past the end of 'A' \(1048576 bytes/);
});

test('choosing the kernel: the only one, --kernel, or an error that lists them', async () => {
  const [ambiguous, second, missing, direct] = await checks(
    [TWO],
    [TWO, '--kernel', 'second', '--format', 'json'],
    [TWO, '--kernel', 'nope'],
    ['examples/scoped-counter.cu', '--kernel', 'countEvents', '--grid', '2', '--block', '64', '--arg', 'n=128', '--format', 'json'],
  );
  assert.equal(ambiguous.status, 2);
  assert.match(ambiguous.stdout, /error: the program has 2 kernels \(first, second\); choose one with --kernel \[scord\/launch\]/);
  assert.equal(second.status, 1);
  assert.deepEqual(json(second).findings.map((f: { category: string; location: { line: number } }) => `${f.category}@${f.location.line}`), ['missing-device-fence@3']);
  assert.equal(missing.status, 2);
  assert.match(missing.stdout, /error: the program has no kernel named 'nope' \(its kernels: first, second\)/);
  // --kernel runs a kernel directly even when the file has main (main's printf never runs).
  assert.equal(direct.status, 1, direct.stdout + direct.stderr);
  const d = json(direct);
  assert.equal(d.output, '');
  assert.equal(d.stats.launches, 1);
  assert.deepEqual(d.findings.map((f: { category: string }) => f.category), ['scoped-atomic']);
});

test('a malformed header, a missing launch, or a launch over the limits exits 2 with the place', async () => {
  const [text, data, novalue, none, big, huge, late] = await checks(
    [MALFORMED],
    [MALFORMED, '--format', 'json'],
    [NO_VALUE],
    [NO_HEADER],
    [RACE, '--block', '2048'],
    [RACE, '--block', '4096'],
    [NO_HEADER, '--grid', '2', '--block', '32'],
  );
  assert.equal(text.status, 2);
  assert.equal(
    text.stdout,
    `${MALFORMED}:2:14: error: malformed --blockDim: '[8,x]' is not a dimension: expected a positive integer or [x,y,z] with one to three of them [scord/launch-header]\n${MALFORMED} was not analysed: 1 error\n`,
  );
  assert.equal(data.status, 2);
  assert.deepEqual(json(data).diagnostics[0].location, { file: MALFORMED, line: 2, column: 14, endLine: 2, endColumn: 19 });
  assert.equal(novalue.status, 2);
  assert.match(novalue.stdout, new RegExp(`^${escape(NO_VALUE)}:1:17: error: --blockDim needs a value`, 'm'));
  // A //--blockDim after code is a comment like any other: this file has no header.
  assert.equal(none.status, 2);
  assert.match(none.stdout, /1:17: error: no grid and block size to launch kernel 'k' with: give --grid and --block, or a header line such as \/\/--blockDim=64 --gridDim=2/);
  // The device refuses the shape asked for: a kernel run on its own is a verifier's launch,
  // simulated as asked (its races found) with a note; past the simulator's own block size it is refused.
  assert.equal(big.status, 1, big.stdout + big.stderr);
  assert.match(big.stdout, /^\S+:4:17: info: block size 2048 in x exceeds the 1024 that scord-paper allows: a GPU refuses this launch \(cudaErrorInvalidConfiguration\); kernel 'race' run on its own is simulated with the shape asked for, one block per SM \[scord\/beyond-device\]$/m);
  assert.match(big.stdout, /\[scord\/missing-block-fence\]/);
  assert.equal(huge.status, 1, huge.stdout + huge.stderr);
  assert.match(huge.stdout, /error: block size 4096 in x exceeds the 1024 that scord-paper allows; a kernel run on its own may have blocks of up to 2048 threads in the simulator \[scord\/launch-configuration\]/);
  assert.equal(late.status, 1, late.stdout + late.stderr);
  for (const r of [text, data, novalue, none, big, huge]) noStackTrace(r);
});

test('package.json installs the CLI as `scord`, built with a #! line', async () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  assert.deepEqual(pkg.bin, { scord: 'dist/cli.js' });
  const build = fs.readFileSync(path.join(ROOT, 'esbuild.mjs'), 'utf8');
  const cli = build.split('\n').find((l) => l.includes("entryPoints: ['sims/cli.ts']"));
  assert.ok(cli?.includes("banner: { js: '#!/usr/bin/env node' }"), 'the cli bundle starts with #!/usr/bin/env node');
  assert.equal(build.split('\n').filter((l) => l.includes('#!/usr/bin/env node')).length, 1, 'only the cli bundle gets it');
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `scord fix …` in this process. */
async function fix(args: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const status = await scord(['fix', ...args], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { status, stdout, stderr };
}

test('fix applies the preferred fixes, writes the file and checks it again', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-fix-'));
  const file = path.join(dir, 'message-passing.cu');
  const original = fs.readFileSync(path.join(ROOT, 'examples', 'message-passing.cu'), 'utf8');
  fs.writeFileSync(file, original);
  const r = await fix([file]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /fixed: Widen the fence at line 30 to __threadfence\(\), and declare data volatile/);
  assert.match(r.stdout, /1 fix applied to .*; 0 findings in /);
  const fixed = fs.readFileSync(file, 'utf8');
  assert.equal(fixed, original.replace('__device__ int data = 0;', '__device__ volatile int data = 0;').replace('__threadfence_block();      // BUG', '__threadfence();      // BUG'));
  assert.equal((await check1([file])).status, 0);
});

test('fix --dry-run prints a unified diff and leaves the file alone', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-fix-'));
  const file = path.join(dir, 'scoped-counter.cu');
  const original = fs.readFileSync(path.join(ROOT, 'examples', 'scoped-counter.cu'), 'utf8');
  fs.writeFileSync(file, original);
  const r = await fix([file, '--dry-run']);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /^-\s+atomicAdd_block\(&counter, 1u\);$/m);
  assert.match(r.stdout, /^\+\s+atomicAdd\(&counter, 1u\);$/m);
  assert.match(r.stderr, /1 fix would be applied/);
  assert.equal(fs.readFileSync(file, 'utf8'), original);
});

test('fix on a file that cannot be analysed changes nothing and exits 2', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-fix-'));
  const file = path.join(dir, 'broken.cu');
  fs.writeFileSync(file, '__global__ void k(int *p) { p[0] = ; }\nint main() { return 0; }\n');
  const r = await fix([file]);
  assert.equal(r.status, 2);
  assert.match(r.stdout, /broken\.cu:1:\d+: error: /);
  assert.equal(fs.readFileSync(file, 'utf8'), '__global__ void k(int *p) { p[0] = ; }\nint main() { return 0; }\n');
});

test('-arch before sm_70 runs warps in lockstep, as those GPUs do; --scheduling still decides when given', async () => {
  const shift = 'test/fixtures/races/intra_warp_global_shift.cu';
  const [pascal, volta, asked, text, bad] = await checks(
    [shift, '--format', 'json', '-arch=sm_60'],
    [shift, '--format', 'json', '--arch', 'sm_70'],
    [shift, '--format', 'json', '--gpu-architecture=compute_61', '--scheduling', 'independent'],
    [shift, '-arch', 'sm_60'],
    [shift, '-arch=native'],
  );
  assert.equal(pascal.status, 0);
  assert.deepEqual(json(pascal).findings, []);
  assert.equal(json(pascal).stats.warps, 'lockstep');
  assert.deepEqual(json(volta).findings.map((f: { category: string }) => f.category), ['intra-warp']);
  assert.equal(json(volta).stats.warps, undefined);
  assert.deepEqual(json(asked).findings.map((f: { category: string }) => f.category), ['intra-warp']);
  assert.match(text.stdout, /0 findings in .*intra_warp_global_shift\.cu \(warps in lockstep, as before sm_70\)/);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /-arch: 'native' names no GPU architecture/);
});

test('a benign race of a read names the value the write left, not the read\'s', async () => {
  const [r] = await checks(['test/fixtures/races/benign_same_value_read.cu', '--format', 'json']);
  const read = json(r).findings.find((f: { message: string }) => f.message.startsWith('read of'));
  assert.match(read.message, /holding 5,/);
});

test('--warp-sync assumes lockstep lanes; benign same-value races are information and --no-benign hides them', async () => {
  const shift = 'test/fixtures/races/intra_warp_global_shift.cu';
  const flag = 'test/fixtures/races/benign_same_value_global.cu';
  const [its, lockstep, benign, hidden, sarif] = await checks(
    [shift, '--format', 'json'],
    [shift, '--format', 'json', '--warp-sync'],
    [flag, '--format', 'json'],
    [flag, '--format', 'json', '--no-benign'],
    [flag, '--format', 'sarif'],
  );
  assert.equal(its.status, 1);
  assert.deepEqual(json(its).findings.map((f: { category: string; severity: string }) => `${f.category} ${f.severity}`), ['intra-warp warning']);
  assert.equal(lockstep.status, 0);
  assert.deepEqual(json(lockstep).findings, []);
  // Information alone does not fail the check.
  assert.equal(benign.status, 0);
  assert.deepEqual(json(benign).findings.map((f: { category: string; severity: string }) => `${f.category} ${f.severity}`), ['benign-same-value information']);
  assert.deepEqual(json(hidden).findings, []);
  assert.equal(JSON.parse(sarif.stdout).runs[0].results[0].level, 'note');
});
