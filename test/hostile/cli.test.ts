// Hostile files given to `scord check` and `scord run`: each ends in a located error or
// finding with the documented exit status (2: not analysed, 1: found something), quickly and
// within memory; nothing crashes, hangs or echoes what it should not.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { preprocess } from '../../sims/frontend/preprocessor';
import { builtCli, cli, scratch, write } from './support';

const dir = scratch('cli');
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const MAIN = 'int main() { return 0; }\n';

/** `check --frontend builtin` of `text` written as `name`. */
async function check(name: string, text: string | Buffer, ...extra: string[]) {
  return cli(['check', '--frontend', 'builtin', write(dir, name, text), ...extra]);
}

test('includes of kernel files, devices, pipes and huge files are refused at the #include, saying why', async () => {
  const cases: { include: string; reason: RegExp }[] = [
    { include: '/proc/self/pagemap', reason: /system folder of devices and kernel files/ },
    { include: '/proc/self/environ', reason: /system folder of devices and kernel files/ },
    { include: '/dev/zero', reason: /system folder of devices and kernel files/ },
  ];
  if (process.platform !== 'win32') {
    execFileSync('mkfifo', [path.join(dir, 'pipe.h')]);
    cases.push({ include: 'pipe.h', reason: /it is a pipe/ });
  }
  // Generated here: one byte over the 8 MB default.
  write(dir, 'huge.h', Buffer.alloc(8 * 1024 * 1024 + 1, 0x20));
  cases.push({ include: 'huge.h', reason: /larger than 8 MB/ });
  for (const [i, c] of cases.entries()) {
    const r = await check(`refused${i}.cu`, `// reads ${c.include}\n#include "${c.include}"\n${MAIN}`);
    assert.equal(r.status, 2, `${c.include}: ${r.stdout}${r.stderr}`);
    assert.match(r.stdout, new RegExp(`refused${i}\\.cu:2:10: error: '${c.include.replace(/[/.]/g, '\\$&')}' is not read: `), r.stdout);
    assert.match(r.stdout, c.reason);
    assert.match(r.stdout, /\[scord\/include-refused\]/);
    assert.doesNotMatch(r.stdout, /not found/);
    assert.ok(r.ms < 10_000, `${c.include} took ${r.ms} ms`);
  }
  // Nothing of the environment reaches the report (a variable set for this test).
  process.env.SCORD_HOSTILE_SECRET = 'hunter2-do-not-print';
  const env = await check('environ.cu', `#include "/proc/self/environ"\n${MAIN}`, '--format', 'sarif');
  delete process.env.SCORD_HOSTILE_SECRET;
  assert.equal(env.status, 2);
  assert.doesNotMatch(env.stdout, /hunter2/);
  // A file that really is missing is still "not found".
  const missing = await check('missing.cu', `#include "no-such-header.h"\n${MAIN}`);
  assert.equal(missing.status, 2);
  assert.match(missing.stdout, /'no-such-header\.h' file not found .*\[scord\/include-not-found\]/);
});

test('--max-file-mb sets the per-file cap', async () => {
  write(dir, 'two-mb.h', Buffer.alloc(2 * 1024 * 1024, 0x20));
  const file = write(dir, 'capped.cu', `#include "two-mb.h"\n${MAIN}`);
  const refused = await cli(['check', '--frontend', 'builtin', file, '--max-file-mb', '1']);
  assert.equal(refused.status, 2);
  assert.match(refused.stdout, /capped\.cu:1:10: error: 'two-mb\.h' is not read: it is larger than 1 MB/);
  const read = await cli(['check', '--frontend', 'builtin', file]);
  assert.equal(read.status, 0, read.stdout);
});

test('an include cycle is reported in the main file too, at the #include that leads into it', async () => {
  write(dir, 'cyc-a.h', '#include "cyc-b.h"\n');
  write(dir, 'cyc-b.h', '#include "cyc-a.h"\n');
  const r = await check('cycle.cu', `int x;\n#include "cyc-a.h"\n${MAIN}`);
  assert.equal(r.status, 2);
  assert.match(r.stdout, /cyc-b\.h:1:10: error: #include cycle: /);
  assert.match(r.stdout, /cycle\.cu:2:10: error: headers included here include each other in a cycle: .*cyc-a\.h -> .*cyc-b\.h -> .*cyc-a\.h \[scord\/include-cycle\]/);
});

test('deep nesting and long chains end in a located error, not a stack overflow', async () => {
  const cases: { name: string; text: string; at: RegExp }[] = [
    { name: 'parens', text: `int main() { int x = ${'('.repeat(2000)}1${')'.repeat(2000)}; return x; }\n`, at: /parens\.cu:1:\d+: error: the code nests more than 256 levels/ },
    { name: 'blocks', text: `int main() {\n${'{'.repeat(2000)}${'}'.repeat(2000)}\nreturn 0; }\n`, at: /blocks\.cu:2:\d+: error: the code nests more than 256 levels/ },
    { name: 'sum', text: `int main() {\n  int x = ${Array(100_002).fill('1').join(' + ')};\n  return x; }\n`, at: /sum\.cu:2:\d+: error: an expression chains more than 100,000 operators/ },
    { name: 'minus', text: `int main() {\n  int x = ${'- '.repeat(10_000)}1;\n  return x; }\n`, at: /minus\.cu:2:\d+: error: the code nests more than 256 levels/ },
    { name: 'elseif', text: `int main(int argc, char **) {\n  int x = 0;\n  if (argc == 0) x = 0;\n${Array.from({ length: 5000 }, (_, i) => `  else if (argc == ${i + 1}) x = ${i};\n`).join('')}  return x;\n}\n`, at: /elseif\.cu:\d+:\d+: error: the code nests more than 256 levels/ },
  ];
  for (const c of cases) {
    const r = await check(`${c.name}.cu`, c.text);
    assert.equal(r.status, 2, `${c.name}: ${r.stdout}${r.stderr}`);
    assert.match(r.stdout, c.at);
    assert.match(r.stdout, /\[scord\/nesting-too-deep\]/);
    assert.doesNotMatch(r.stdout + r.stderr, /internal error|call stack/);
  }
  // Long sums run, in host and device code alike (generated code has them): every pass handles
  // 100,000 operators on the analysis stack, which the command runs on (this test's thread has
  // a smaller one).
  const terms = (n: number) => Array(n).fill('v').join(' + ');
  const sum = await builtCli(['run', '--frontend', 'builtin', write(dir, 'sum100k.cu', `#include <cstdio>\n__global__ void k(int *out, int v) { *out = ${terms(50_000)}; }\nint main() {\n  int v = 1, h = 0, *d;\n  int x = ${terms(100_000)};\n  cudaMalloc(&d, sizeof(int));\n  k<<<1, 1>>>(d, v);\n  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);\n  printf("%d %d\\n", x, h);\n  return 0;\n}\n`)]);
  assert.equal(sum.status, 0, sum.stderr);
  assert.equal(sum.stdout, '100000 50000\n');
});

test('macro expansion that doubles 30 times stops in time, naming the macro', () => {
  let text = '#define A0 x\n';
  for (let i = 1; i <= 30; i++) text += `#define A${i} A${i - 1} A${i - 1}\n`;
  text += 'int y = A30;\n';
  const t0 = performance.now();
  const r = preprocess({ fileName: '/m.cu', text, readFile: () => undefined, maxMillis: 300, maxOutputTokens: 50_000_000 });
  const ms = performance.now() - t0;
  const d = r.diagnostics.find((x) => x.code === 'expansion-limit');
  assert.ok(d, JSON.stringify(r.diagnostics));
  assert.match(d.message, /macro expansion of 'A\d+' stopped: preprocessing took more than 0.3 s/);
  assert.match(d.message, /in expansion of macro 'A30'/);
  assert.equal(d.range.start.line, 31);
  assert.ok(ms < 5_000, `took ${ms} ms`);
});

test('local memory beyond the limit is a finding at the launch, before anything is allocated', async () => {
  const text = `__global__ void k(int *out) {\n  char a[1 << 28];\n  a[threadIdx.x] = 1;\n  out[threadIdx.x] = a[threadIdx.x];\n}\nint main() {\n  int *d;\n  cudaMalloc(&d, 1024 * sizeof(int));\n  k<<<1, 1024>>>(d);\n  return 0;\n}\n`;
  const r = await check('local.cu', text);
  assert.equal(r.status, 1, r.stdout);
  assert.match(r.stdout, /local\.cu:9:3: error: this launch of k needs 256 MB of local memory per thread × 1024 threads = 256 GB.*; the memory limit is 2 GB \[scord\/memory-limit\]/);
  const small = await check('local.cu', text, '--memory-limit', '512M');
  assert.match(small.stdout, /the memory limit is 512 MB/);
  assert.ok(r.ms < 10_000);
});

test('host allocations past the limit fail as on a full machine, or are located findings', async () => {
  const mallocs = await cli(['run', '--frontend', 'builtin', '--memory-limit', '64M', write(dir, 'mallocs.cu', `#include <cstdio>\nint main() {\n  int n = 0;\n  for (int i = 0; i < 10000000; i++) { int *d; if (cudaMalloc(&d, 16) != cudaSuccess) break; n++; }\n  printf("allocated %d\\n", n);\n  return 0;\n}\n`)]);
  const n = Number(/allocated (\d+)/.exec(mallocs.stdout)?.[1]);
  assert.ok(n > 10_000 && n < 200_000, mallocs.stdout + mallocs.stderr);
  const heap = await cli(['run', '--frontend', 'builtin', '--memory-limit', '64M', write(dir, 'heap.cu', `#include <cstdio>\n#include <cstdlib>\nint main() {\n  int n = 0;\n  while (malloc(1 << 20)) n++;\n  void *huge = malloc(1ull << 40);\n  printf("%d %p\\n", n, huge);\n  return 0;\n}\n`)]);
  assert.match(heap.stdout, /^6[0-3] \(nil\)\n$/, heap.stdout + heap.stderr);
  const array = await cli(['run', '--frontend', 'builtin', write(dir, 'array.cu', `#include <cstdio>\nchar big[8ull << 30];\nint main() { big[5] = 1; printf("%d\\n", big[5]); return 0; }\n`)]);
  assert.equal(array.status, 1);
  assert.match(array.stderr, /array\.cu:2:6: error: memory-limit: host big needs 8 GB.*the memory limit is 2 GB/);
});

test('cudaMemcpy and cudaMemset refuse negative and overflowing counts, naming the call', async () => {
  const r = await cli(['run', '--frontend', 'builtin', write(dir, 'counts.cu', `#include <cstdio>\nint main() {\n  int *d;\n  cudaMalloc(&d, 64);\n  int n = -4;\n  printf("%d %d %d\\n", (int)cudaMemcpy(d, d, n, cudaMemcpyDeviceToDevice), (int)cudaMemset(d, 0, n), (int)cudaMemset(d, 0, (size_t)-1));\n  return 0;\n}\n`)]);
  // cudaErrorInvalidValue is 1.
  assert.match(r.stdout, /^1 1 1\n$/);
  assert.match(r.stderr, /counts\.cu:6:\d+: error: memcpy-out-of-bounds: cudaMemcpy: a count of -4 is negative/);
  assert.match(r.stderr, /counts\.cu:6:\d+: error: memcpy-out-of-bounds: cudaMemset: a count of -4 is negative/);
  assert.match(r.stderr, /cudaMemset: 18446744073709551615 bytes is more than any allocation holds/);
});

test('printf field widths are capped', async () => {
  const r = await cli(['run', '--frontend', 'builtin', write(dir, 'width.cu', `#include <cstdio>\nint main() { printf("[%999999999d]\\n", 1); printf("[%.999999999f]\\n", 1.0); return 0; }\n`)]);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.stdout.length < 10_000, `${r.stdout.length} characters`);
  assert.match(r.stdout, /^\[ +1\]\n\[1\.0+\]\n$/);
});

test('CR, LF and CRLF all end lines', async () => {
  for (const [name, nl] of [['cr', '\r'], ['lf', '\n'], ['crlf', '\r\n']]) {
    const r = await check(`${name}-endings.cu`, ['// first line', 'int main() {', '  int x = ;', '  return 0;', '}', ''].join(nl));
    assert.equal(r.status, 2, name);
    assert.match(r.stdout, new RegExp(`${name}-endings\\.cu:3:11: error: expected an expression`), `${name}: ${r.stdout}`);
  }
});

test('control characters in echoed source are escaped; files outside the workspace echo 40 characters at most', async () => {
  const r = await check('ctrl.cu', Buffer.from(`#error hello \u001b[2K\u001b[1Ahidden\n${MAIN}\u0000\n`));
  assert.equal(r.status, 2);
  assert.match(r.stdout, /ctrl\.cu:1:2: error: hello \\x1b\[2K\\x1b\[1Ahidden \[scord\/error-directive\]/);
  assert.match(r.stdout, /stray '\\x00'/);
  assert.doesNotMatch(r.stdout, /[\u0000\u001b]/);
  // A header outside the working folder, the checked file's folder and -I.
  const outside = scratch('outside');
  try {
    const secret = 'S'.repeat(200);
    write(outside, 'secret.h', `${secret} x;\n#error ${'T'.repeat(100)}\n`);
    const inc = await check('outside.cu', `#include "${path.join(outside, 'secret.h')}"\n${MAIN}`);
    assert.equal(inc.status, 2);
    assert.match(inc.stdout, /error: T{40}… \[scord\/error-directive\]/);
    assert.match(inc.stdout, /unknown type name 'S{39}…/);
    assert.doesNotMatch(inc.stdout, /S{41}|T{41}/);
    // The same header inside the workspace is the user's own: shown whole.
    write(dir, 'own.h', `${secret} x;\n`);
    const own = await check('own.cu', `#include "own.h"\n${MAIN}`);
    assert.match(own.stdout, /S{200}/);
  } finally {
    fs.rmSync(outside, { recursive: true, force: true });
  }
});

test('--initcheck: a device read of cudaMalloc\'d memory nothing wrote is a warning at the read', async () => {
  const text = `#include <cstdio>\n__global__ void k(int *in, int *out) {\n  out[threadIdx.x] = in[threadIdx.x] + 1;\n}\nint main() {\n  int *in, *out, h[4];\n  cudaMalloc(&in, 4 * sizeof(int));\n  cudaMalloc(&out, 4 * sizeof(int));\n  cudaMemset(in, 0, 2 * sizeof(int));\n  k<<<1, 4>>>(in, out);\n  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);\n  printf("%d %d %d %d\\n", h[0], h[1], h[2], h[3]);\n  return 0;\n}\n`;
  const checked = await check('uninit.cu', text, '--initcheck');
  assert.equal(checked.status, 1, checked.stdout);
  assert.match(checked.stdout, /uninit\.cu:3:22: warning: read of 'in' .* at offset 8, which nothing has written .*met 2 times here.*\[scord\/uninitialized-read\]/);
  // Off by default; and memory that was set is never reported.
  assert.equal((await check('uninit.cu', text)).status, 0);
  assert.equal((await check('uninit-set.cu', text.replace('2 * sizeof(int));', '4 * sizeof(int));'), '--initcheck')).status, 0);
});

test('the detector\'s metadata counts against the memory limit: past it the launch stops with a finding at the launch', async () => {
  // 256K threads each write two words: a metadata entry per word for the detector.
  const text = `__global__ void k(int *a) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  a[i] = i;\n  a[(i + 1) % (gridDim.x * blockDim.x)] += 1;\n}\nint main() {\n  int *a;\n  cudaMalloc(&a, 256 * 1024 * sizeof(int));\n  k<<<256, 1024>>>(a);\n  cudaDeviceSynchronize();\n  return 0;\n}\n`;
  const r = await check('metadata.cu', text, '--memory-limit', '16M');
  assert.equal(r.status, 1, r.stdout);
  assert.match(r.stdout, /metadata\.cu:9:3: error: this launch of k was stopped: the run holds [\d.]+ MB \([\d.]+ (MB|KB) of the program's memory, [\d.]+ MB of detector and simulator state\); the memory limit is 16 MB \[scord\/memory-limit\]/);
});

test('a fence fix inserts its line after the statement and leaves the statement\'s trailing comment where it was', async () => {
  const text = `__global__ void k(int *data, volatile int *flag, int *out) {\n  if (blockIdx.x == 0 && threadIdx.x == 0) {\n    *data = 42; // the payload\n    *flag = 1;\n  }\n  if (blockIdx.x == 1 && threadIdx.x == 0) {\n    while (*flag == 0) {}\n    *out = *data;\n  }\n}\nint main() {\n  int *d, *f, *o;\n  cudaMalloc(&d, 4); cudaMalloc(&f, 4); cudaMalloc(&o, 4);\n  cudaMemset(f, 0, 4);\n  k<<<2, 32>>>(d, f, o);\n  cudaDeviceSynchronize();\n  return 0;\n}\n`;
  const file = write(dir, 'comment-fix.cu', text);
  const r = await cli(['fix', '--frontend', 'builtin', file]);
  assert.match(r.stdout, /fix(es)? applied/, r.stdout + r.stderr);
  assert.match(fs.readFileSync(file, 'utf8'), /\n {4}\*data = 42; \/\/ the payload\n {4}__threadfence\(\);\n {4}\*flag = 1;\n/);
});
