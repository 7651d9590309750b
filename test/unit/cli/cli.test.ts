// The `scord` command line: output format, exit codes, and no stack traces on bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { builtCli } from '../../support/builtCli';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const CLI = builtCli();

function scord(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('parse lists kernels, functions and launches as written', () => {
  const r = scord('parse', 'test/fixtures/programs/atomic_add_block_scope.cu', '-DRACEY');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^kernels: +kmain\(volatile unsigned int \*data\)$/m);
  assert.match(r.stdout, /^host functions: +errCheck, main$/m);
  assert.match(r.stdout, /line \d+ +kmain<<<NBLOCKS, TPERBLK>>>/);
  assert.match(r.stdout, /^0 errors, 0 warnings$/m);
});

test('errors are printed as file:line:col and exit with 1', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-'));
  const file = path.join(dir, 'bad.cu');
  fs.writeFileSync(file, '__global__ void k(int *p) {\n  p[0] = countr;\n}\n');
  const r = scord('parse', file);
  assert.equal(r.status, 1);
  assert.ok(r.stdout.includes(`${file}:2:10: error: use of undeclared identifier 'countr' [undeclared-identifier]`), r.stdout);
  const json = scord('parse', file, '--json');
  assert.equal(json.status, 1);
  const data = JSON.parse(json.stdout);
  assert.deepEqual(data.kernels.map((k: { name: string }) => k.name), ['k']);
  assert.equal(data.diagnostics[0].range.start.line, 1);
});

test('include paths and defines come from the command line', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-'));
  fs.mkdirSync(path.join(dir, 'inc'));
  fs.writeFileSync(path.join(dir, 'inc', 'sizes.cuh'), '#define THREADS 64\n');
  const file = path.join(dir, 'main.cu');
  fs.writeFileSync(file, '#include "sizes.cuh"\n__global__ void k() {}\nint main() { k<<<BLOCKS, THREADS>>>(); return 0; }\n');
  assert.equal(scord('parse', file).status, 1, 'without -I the header is missing');
  const r = scord('parse', file, '-I', path.join(dir, 'inc'), '-DBLOCKS=2');
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const pp = scord('preprocess', file, `-I${path.join(dir, 'inc')}`, '-D', 'BLOCKS=2');
  assert.match(pp.stdout, /k<<<2, 64>>>\(\)/);
});

test('bad usage and unreadable files exit with 2 and a message, never a stack trace', () => {
  for (const args of [[], ['frobnicate'], ['parse'], ['parse', 'no/such/file.cu'], ['parse', 'a.cu', '--bogus'], ['parse', '-I']]) {
    const r = scord(...args);
    assert.equal(r.status, 2, `scord ${args.join(' ')}`);
    assert.match(r.stderr, /^scord: /);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  }
});

test('run executes the program on the simulated GPU and reports findings', () => {
  const ok = scord('run', 'examples/message-passing.cu');
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(ok.stdout, 'consumer read data = 42 (expected 42)\n');
  assert.match(ok.stderr, /exited with status 0 after 1 launch and \d+ thread-steps on scord-paper; no run-time errors \(races are checked by scord check\)/);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-'));
  const file = path.join(dir, 'oob.cu');
  fs.writeFileSync(file, '__global__ void k(int *a) { a[threadIdx.x] = 1; }\nint main() { int *a; cudaMalloc(&a, 16); k<<<1, 8>>>(a); return 0; }\n');
  const bad = scord('run', file, '--device-preset', 'volta');
  assert.equal(bad.status, 1);
  assert.ok(bad.stderr.includes(`${file}:1:29: error: out-of-bounds: write of 4 bytes at offset 16, past the end of 'a' (16 bytes, global memory from line 2) [block (0, 0, 0), thread (4, 0, 0)]`), bad.stderr);
  assert.equal(scord('run', file, '--device-preset', 'nonesuch').status, 2);
});

test('run takes a scheduler, a seed and a number of schedules', () => {
  const r = scord('run', 'examples/scoped-counter.cu', '--scheduler', 'random', '--seed', '4');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'counted 171 events, expected 171\n');
  assert.equal(scord('run', 'examples/scoped-counter.cu', '--schedules', '3').status, 0);
  for (const bad of [['--scheduler', 'fifo'], ['--seed', '-1'], ['--schedules', '0'], ['--max-steps', '0']]) assert.equal(scord('run', 'examples/scoped-counter.cu', ...bad).status, 2, bad.join(' '));
});

test('run takes a step budget', () => {
  const r = scord('run', 'examples/scoped-counter.cu', '--max-steps', '50');
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /error: step-budget: the program did not finish within 50 steps/);
});

test('a kernel launched again over the same memory is simulated once, and run and check say so', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-'));
  const file = path.join(dir, 'timed.cu');
  fs.writeFileSync(file, '__global__ void k(const int *a, int *b) { b[threadIdx.x] = a[threadIdx.x] + 1; }\nint main() { int *a, *b; cudaMalloc(&a, 128); cudaMalloc(&b, 128); cudaMemset(a, 0, 128); for (int i = 0; i < 20; i++) k<<<1, 32>>>(a, b); cudaDeviceSynchronize(); return 0; }\n');
  const r = scord('run', file);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /exited with status 0 after 20 launches \(19 repeating an earlier one, not simulated again\) and \d+ thread-steps/);
  const c = scord('check', file);
  assert.equal(c.status, 0, c.stderr);
  assert.equal(c.stdout, `0 findings in ${file} (20 launches; 19 repeated an earlier one and were not simulated again)\n`);
});

// `scord check` has its own file: test/unit/cli/cli-check.test.ts.
