// The block compiler: pure steps fuse into one loop over the lanes with registers in locals,
// other steps are called as the interpreter calls them, and the result is the interpreter's
// to the bit: registers, faults at the right lane, findings and every event. The whole
// repository's programs are compared in test/slow/differential.test.ts; here, the compiler's
// own cases.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { blockBody, blockSource, compileBlock, compileConverged } from '../../../sims/ir/compile';
import { pureStep, WARP, type Block, type BlockBody, type CompiledFunction, type Lanes, type Step } from '../../../sims/ir/ir';
import { runProgram, type RunOptions } from '../../../sims/host/run';
import type { BlockExecution } from '../../../sims/machine/executor';
import { box } from '../../../sims/values/wide';
import { lowerKernel } from '../../support/lowerKernel';
import { parseVirtual } from '../../support/parseFile';

const R = (r: number): number => r * WARP;

function lanes(regs: number): Lanes {
  return { regs: new Float64Array(regs * WARP), frame: new Float64Array(WARP), tid: [new Int32Array(WARP), new Int32Array(WARP), new Int32Array(WARP)], warp: 0, ctx: {} as Lanes['ctx'] };
}

/** Runs `steps` as one block for lanes 0..n-1, compiled and step by step; returns both register files. */
function bothWays(steps: Step[], regs: number, n: number, init: (w: Lanes) => void): { compiled: Float64Array; interpreted: Float64Array } {
  const block: Block = { id: 0, steps, ranges: [], term: { kind: 'exit' } };
  const group = Int32Array.from({ length: n }, (_, i) => i);
  const a = lanes(regs);
  const b = lanes(regs);
  init(a);
  init(b);
  compileBlock(block)(a, group, n);
  for (const s of steps) for (let l = 0; l < n; l++) s(b, l);
  return { compiled: a.regs, interpreted: b.regs };
}

/** A function of the given blocks and nothing else, for blockBody. */
function functionOf(blocks: Block[], numRegs = 8): CompiledFunction {
  return { name: 'f', decl: undefined as never, blocks, numRegs, paramRegs: [], paramTypes: [], frameSize: 0, sharedSize: 0, sharedLayout: [] };
}

describe('generated code', () => {
  test('a block is compiled once it is hot, or on its first run when eager; the same text is generated once', () => {
    const steps = [pureStep(R(1), [R(0)], ([x]) => `${x} + 1`)];
    const cold: Block = { id: 0, steps, ranges: [], term: { kind: 'exit' } };
    const runs: (BlockBody | undefined)[] = Array.from({ length: 40 }, () => blockBody(functionOf([cold]), cold));
    const first = runs.findIndex((b) => b !== undefined);
    assert.ok(first > 0 && first < 40, `compiled after ${first} runs`);
    assert.ok(runs.slice(first).every((b) => b === runs[first]), 'compiled once, then kept');
    const eager: Block = { id: 1, steps, ranges: [], term: { kind: 'exit' } };
    const f = functionOf([eager]);
    assert.ok(blockBody(f, eager, 'eager'));
    assert.equal(blockBody(f, eager, 'eager')!.toString(), runs[first]!.toString(), 'one generated function for one text');
  });

  test('consecutive pure steps become one loop over the lanes, each register written back once', () => {
    const steps = [
      pureStep(R(1), [R(0)], ([x]) => `${x} + 1`),
      pureStep(R(1), [R(1)], ([x]) => `${x} * 2`),
      pureStep(R(2), [R(1), R(0)], ([x, y]) => `${x} - ${y}`),
    ];
    const { text } = blockSource(steps);
    assert.equal(text.match(/for \(i = 0; i < n; i\+\+\)/g)?.length, 1);
    assert.equal(text.match(/R\[32 \+ l\] =/g)?.length, 1, 'register 1 is stored once, after its last write');
    const { compiled, interpreted } = bothWays(steps, 3, 32, (w) => w.regs.forEach((_, i) => (w.regs[i] = i < WARP ? i * 3 - 40 : 0)));
    assert.deepEqual(compiled, interpreted);
    assert.equal(compiled[R(2) + 5], (5 * 3 - 40 + 1) * 2 - (5 * 3 - 40));
  });

  test('a step that is not pure splits the run and sees the registers written before it', () => {
    const seen: number[] = [];
    const opaque: Step = (w, l) => {
      seen.push(w.regs[R(1) + l]);
      w.regs[R(0) + l] = 100 + l;
    };
    const steps = [pureStep(R(1), [R(0)], ([x]) => `${x} + 1`), opaque, pureStep(R(2), [R(0)], ([x]) => `${x} * 2`)];
    assert.equal(blockSource(steps).text.match(/for \(i = 0; i < n; i\+\+\)/g)?.length, 3);
    const { compiled, interpreted } = bothWays(steps, 3, 4, (w) => w.regs.fill(7));
    assert.deepEqual(compiled, interpreted);
    assert.deepEqual(seen, [8, 8, 8, 8, 8, 8, 8, 8], 'each lane saw the value the pure step wrote, both ways');
    assert.equal(compiled[R(2) + 3], 206);
  });

  test('constants keep their exact value: -0, NaN, infinities, boxed 64-bit values, fractions', () => {
    const values = [-0, NaN, Infinity, -Infinity, box(2n ** 63n - 1n), 0.1, -5, 2 ** 53 - 1];
    const steps = values.map((v, i) => pureStep(R(i), [], (_, lit) => lit(v)));
    const { compiled, interpreted } = bothWays(steps, values.length, 1, () => {});
    values.forEach((v, i) => {
      assert.ok(Object.is(compiled[R(i)], v), `constant ${i}: ${compiled[R(i)]} for ${v}`);
      assert.ok(Object.is(interpreted[R(i)], v));
    });
    assert.ok(!/K\[/.test(blockSource([pureStep(R(0), [], (_, lit) => lit(0.1))]).text), 'a finite number is a literal');
    assert.ok(/K\[0\]/.test(blockSource([pureStep(R(0), [], (_, lit) => lit(-0))]).text), '-0 is not written as 0');
  });

  test('no text of the program reaches generated code: strings are constants', () => {
    const hostile = "'); process.exit(1); ('";
    const steps = [pureStep(R(0), [], (_, lit) => `${lit(hostile)}.length`)];
    assert.ok(!blockSource(steps).text.includes('process'));
    const { compiled } = bothWays(steps, 1, 1, () => {});
    assert.equal(compiled[0], hostile.length);
  });
});

function run(source: string, execution: BlockExecution, options: RunOptions = {}) {
  const parsed = parseVirtual({ 'main.cu': source });
  return runProgram(parsed, { ...options, execution });
}

/** The run compiled at once, after checking that the interpreter gives the same output, findings and steps. */
function runBothWays(source: string, options: RunOptions = {}) {
  const c = run(source, 'eager', options);
  const i = run(source, 'interpreted', options);
  assert.equal(c.stdout, i.stdout);
  assert.deepEqual(c.findings, i.findings);
  assert.equal(c.steps, i.steps);
  return c;
}

describe('runs', () => {
  test('a fault in a compiled block names the lane that faulted', () => {
    const source = `
__global__ void k(int *p) {
  int t = threadIdx.x;
  int i = t * 3 + 1;
  int j = i - 16;
  p[j * 100] = t;
}
int main() { int *p; cudaMalloc(&p, 64 * sizeof(int)); k<<<1, 32>>>(p); cudaDeviceSynchronize(); return 0; }`;
    const compiled = runBothWays(source);
    assert.equal(compiled.findings[0]?.kind, 'out-of-bounds');
    // Lane 0 writes p[-1500]: the first lane of the group faults first.
    assert.deepEqual(compiled.findings[0].thread, [0, 0, 0]);
  });

  test('a warp that stays converged through a loop takes the same steps and gives the same result', () => {
    const source = `
#include <cstdio>
__global__ void k(int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int a = t, b = 3;
  for (int i = 0; i < 50; i++) { a = a * 7 + b; b ^= a >> 3; if (t % 3 == 0) b += i; }
  out[t] = a ^ b;
}
int main() {
  int *out; cudaMallocManaged(&out, 256 * sizeof(int));
  k<<<2, 128>>>(out); cudaDeviceSynchronize();
  long s = 0; for (int i = 0; i < 256; i++) s += out[i] * (i + 1);
  printf("%ld\\n", s);
  return 0;
}`;
    for (const options of [{}, { model: 'lockstep' as const }, { scheduler: 'random' as const, seed: 5 }]) {
      const c = runBothWays(source, options);
      assert.deepEqual(c.findings, []);
      assert.match(c.stdout, /^-?\d+\n$/);
    }
  });

  test('a run stopped by its step budget inside a converged loop stops at the same step, with the same hottest line', () => {
    const source = `
__global__ void k(int *out) {
  int a = threadIdx.x;
  while (a != -7) a = a * 3 + 1;
  out[threadIdx.x] = a;
}
int main() { int *p; cudaMalloc(&p, 64 * sizeof(int)); k<<<2, 64>>>(p); cudaDeviceSynchronize(); return 0; }`;
    assert.equal(runBothWays(source, { stepBudget: 100_000 }).findings[0]?.kind, 'step-budget');
  });

  test('a fault in the middle of a converged loop names the thread and keeps the steps taken before it', () => {
    const source = `
__global__ void k(int *p) {
  int t = threadIdx.x;
  for (int i = 0; i < 40; i++) { int j = t * 2 + i; if (j > 0) p[j] = i; }
}
int main() { int *p; cudaMalloc(&p, 64 * sizeof(int)); k<<<1, 64>>>(p); cudaDeviceSynchronize(); return 0; }`;
    assert.equal(runBothWays(source).findings[0]?.kind, 'out-of-bounds');
  });

  test('division, remainder and shifts by a constant give what the closures give at the edges of int and unsigned', () => {
    const source = `
#include <cstdio>
__global__ void k(int *out, unsigned *uout) {
  int t = threadIdx.x;
  int x = (t - 16) * 134217727;
  unsigned u = (unsigned)x;
  out[t * 6 + 0] = x / 7;
  out[t * 6 + 1] = x % -7;
  out[t * 6 + 2] = x >> 31;
  out[t * 6 + 3] = x << 5;
  out[t * 6 + 4] = x / -1;
  out[t * 6 + 5] = x % 1;
  uout[t * 4 + 0] = u / 10u;
  uout[t * 4 + 1] = u % 3u;
  uout[t * 4 + 2] = u >> 31;
  uout[t * 4 + 3] = u << 31;
}
int main() {
  int *out; unsigned *uout;
  cudaMallocManaged(&out, 32 * 6 * sizeof(int));
  cudaMallocManaged(&uout, 32 * 4 * sizeof(unsigned));
  k<<<1, 32>>>(out, uout);
  cudaDeviceSynchronize();
  for (int i = 0; i < 32 * 6; i++) printf("%d ", out[i]);
  for (int i = 0; i < 32 * 4; i++) printf("%u ", uout[i]);
  printf("\\n");
  return 0;
}`;
    const c = runBothWays(source);
    assert.deepEqual(c.findings, []);
    const values = c.stdout.trim().split(' ').map(Number);
    assert.equal(values.length, 32 * 10);
    // Thread 0: x = -16 * 134217727 = -2147483632 = 0x80000010, a multiple of 7 (C truncates toward
    // zero); as unsigned, 2147483664, a multiple of 3.
    assert.deepEqual(values.slice(0, 6), [-306783376, 0, -1, 512, 2147483632, 0]);
    assert.deepEqual(values.slice(32 * 6, 32 * 6 + 4), [214748366, 0, 1, 0]);
  });

  test('loads and stores inline in compiled blocks give what the closures give for every scalar width', () => {
    const source = `
#include <cstdio>
__global__ void k(signed char *c, unsigned short *h, int *i, unsigned *u, float *f, double *d, long long *ll) {
  int t = threadIdx.x;
  c[t] = (signed char)(t * 37 - 600);
  h[t] = (unsigned short)(t * 4099);
  i[t] = t * -134217727;
  u[t] = 4294967295u - t;
  f[t] = t * 0.1f;
  d[t] = t / 3.0;
  ll[t] = (long long)t * 4000000000LL;
  i[t] += c[t] + h[t];
  d[t] += f[t] + ll[t];
}
int main() {
  signed char *c; unsigned short *h; int *i; unsigned *u; float *f; double *d; long long *ll;
  cudaMallocManaged(&c, 64); cudaMallocManaged(&h, 128); cudaMallocManaged(&i, 256); cudaMallocManaged(&u, 256);
  cudaMallocManaged(&f, 256); cudaMallocManaged(&d, 512); cudaMallocManaged(&ll, 512);
  k<<<1, 64>>>(c, h, i, u, f, d, ll);
  cudaDeviceSynchronize();
  for (int t = 0; t < 64; t++) printf("%d %u %d %u %.9g %.17g %lld\\n", c[t], h[t], i[t], u[t], f[t], d[t], ll[t]);
  return 0;
}`;
    const c = runBothWays(source);
    assert.deepEqual(c.findings, []);
    const lines = c.stdout.trim().split('\n');
    assert.equal(lines.length, 64);
    // Thread 63: the char wraps (63 * 37 - 600 = 1731 = 0x6c3), the short too (63 * 4099 = 258237 = 0x3f0bd).
    assert.equal(lines[63].split(' ')[0], String(0xc3 - 256));
    assert.equal(lines[63].split(' ')[1], String(258237 & 0xffff));
  });

  test('what the inline access leaves to the step still happens: faults, constant memory, reads of unwritten bytes, a spin that changes nothing', () => {
    const outOfBounds = `
__global__ void k(float *p) {
  for (int i = 0; i < 40; i++) p[threadIdx.x * 40 + i] = p[threadIdx.x * 40 + i] + 1.0f;
}
int main() { float *p; cudaMalloc(&p, 63 * 40 * sizeof(float)); cudaMemset(p, 0, 63 * 40 * sizeof(float)); k<<<1, 64>>>(p); cudaDeviceSynchronize(); return 0; }`;
    const oob = runBothWays(outOfBounds);
    assert.equal(oob.findings[0]?.kind, 'out-of-bounds');
    assert.deepEqual(oob.findings[0].thread, [63, 0, 0]);

    const unwritten = `
__global__ void k(int *p, int *q) {
  for (int i = 0; i < 40; i++) { if (threadIdx.x != 5 || i != 30) p[threadIdx.x * 40 + i] = i; }
  for (int i = 0; i < 40; i++) q[threadIdx.x] += p[threadIdx.x * 40 + i];
}
int main() { int *p, *q; cudaMalloc(&p, 32 * 40 * sizeof(int)); cudaMalloc(&q, 32 * sizeof(int)); cudaMemset(q, 0, 32 * sizeof(int)); k<<<1, 32>>>(p, q); cudaDeviceSynchronize(); return 0; }`;
    const init = runBothWays(unwritten, { initCheck: true });
    assert.equal(init.findings.filter((f) => f.kind === 'uninitialized-read').length, 1, JSON.stringify(init.findings));
    // Thread 5 skipped p[5 * 40 + 30]: byte offset 920.
    assert.match(init.findings.find((f) => f.kind === 'uninitialized-read')!.message, /offset 920\b/);

    const constant = `
__constant__ int c[64];
__global__ void k(int *p) {
  int *q = (int *)c;
  for (int i = 0; i < 40; i++) p[i] = q[i];
  q[threadIdx.x] = 1;
}
int main() { int *p; cudaMalloc(&p, 64 * sizeof(int)); k<<<1, 32>>>(p); cudaDeviceSynchronize(); return 0; }`;
    assert.equal(runBothWays(constant).findings[0]?.kind, 'write-to-constant');

    // Every lane stores the value the word already holds, forever: memory never changes, so the
    // progress monitor must call it a hang (the inline store counts only changing writes).
    const spin = `
__global__ void k(int *flag) {
  while (flag[0] == 0) flag[0] = 0;
}
int main() { int *f; cudaMalloc(&f, sizeof(int)); cudaMemset(f, 0, sizeof(int)); k<<<1, 32>>>(f); cudaDeviceSynchronize(); return 0; }`;
    assert.equal(runBothWays(spin, { stepBudget: 20_000_000 }).findings[0]?.kind, 'deadlock');
  });

  test('atomics inline in compiled blocks give what the closures give: every operation, int, unsigned and float, old values included', () => {
    const source = `
#include <cstdio>
__global__ void k(int *i, unsigned *u, float *f, int *olds) {
  int t = threadIdx.x;
  for (int r = 0; r < 3; r++) {
    int o = atomicAdd(&i[0], t - 20) + atomicSub(&i[1], t * 7) + atomicExch(&i[2], t) + atomicMin(&i[3], t - 40) + atomicMax(&i[4], t * 3);
    o ^= atomicCAS(&i[5], t - 1, t) + atomicAnd(&i[6], ~(1 << (t % 31))) + atomicOr(&i[7], 1 << (t % 31)) + atomicXor(&i[8], t * 977);
    unsigned p = atomicAdd(&u[0], 4000000000u) + atomicSub(&u[1], (unsigned)t) + atomicInc(&u[2], 37u) + atomicDec(&u[3], 11u) + atomicMax(&u[4], 4294967000u + t);
    p ^= atomicCAS(&u[5], (unsigned)t, (unsigned)t + 1u) + atomicXor(&u[6], 2147483648u + t);
    float q = atomicAdd(&f[0], t * 0.1f) + atomicExch(&f[1], t * 0.5f);
    olds[(r * 64 + t) * 3] = o;
    olds[(r * 64 + t) * 3 + 1] = (int)p;
    olds[(r * 64 + t) * 3 + 2] = (int)(q * 1000.0f);
  }
}
int main() {
  int *i; unsigned *u; float *f; int *olds;
  cudaMallocManaged(&i, 9 * sizeof(int)); cudaMallocManaged(&u, 7 * sizeof(unsigned)); cudaMallocManaged(&f, 2 * sizeof(float));
  cudaMallocManaged(&olds, 3 * 64 * 3 * sizeof(int));
  for (int j = 0; j < 9; j++) i[j] = j * 1000 - 3000;
  for (int j = 0; j < 7; j++) u[j] = 4294967290u - j;
  k<<<1, 64>>>(i, u, f, olds);
  cudaDeviceSynchronize();
  for (int j = 0; j < 9; j++) printf("%d ", i[j]);
  for (int j = 0; j < 7; j++) printf("%u ", u[j]);
  printf("%.9g %.9g\\n", f[0], f[1]);
  for (int j = 0; j < 3 * 64 * 3; j++) printf("%d ", olds[j]);
  printf("\\n");
  return 0;
}`;
    const c = runBothWays(source);
    assert.deepEqual(c.findings, []);
    const [finals] = c.stdout.split('\n');
    const values = finals.trim().split(' ').map(Number);
    assert.equal(values.length, 18);
    // Three rounds of 64 threads adding t - 20: 3 * (2016 - 1280) more than the start.
    assert.equal(values[0], -3000 + 3 * (2016 - 1280));
    assert.equal(values[3], -40, 'i[3] starts at 0: the smallest t - 40 is thread 0\'s');
    // atomicInc wraps at 37: 192 increments from 4294967288 (above the limit: the first gives 0).
    assert.equal(values[11], (192 - 1) % 38);
    const kernel = lowerKernel(source);
    const text = kernel.blocks.map((b) => blockSource(b.steps).text).join('\n');
    assert.equal(text.match(/plainTarget\(p, 4, acc, true, true\)/g)?.length, 18, 'every 32-bit atomic inline');
  });

  test('lanes of one access that reach different allocations, or leave one, are each checked: the values and the fault are the closures\'', () => {
    const source = `
#include <cstdio>
__global__ void k(int *a, int *b, int n) {
  int t = threadIdx.x;
  for (int r = 0; r < 20; r++) {
    int *p = (t & 1) ? a : b;
    p[t >> 1] += r * t;
    if (r == 19 && t == 45) p[n] = 1;
  }
}
int main() {
  int *a, *b;
  cudaMallocManaged(&a, 32 * sizeof(int)); cudaMallocManaged(&b, 32 * sizeof(int));
  k<<<1, 64>>>(a, b, 32);
  cudaDeviceSynchronize();
  for (int i = 0; i < 32; i++) printf("%d %d\\n", a[i], b[i]);
  return 0;
}`;
    const c = runBothWays(source);
    assert.equal(c.findings[0]?.kind, 'out-of-bounds');
    assert.deepEqual(c.findings[0].thread, [45, 0, 0]);
    assert.equal(c.stdout.trim().split('\n').length, 32, 'the host goes on after the fault and prints both arrays as they were left');
  });

  test('a block of plain accesses compiles them inline, with the step called for the rest; 64-bit integers go through the step', () => {
    const source = `__global__ void k(float *f, long long *ll) { f[threadIdx.x] = f[threadIdx.x] * 2.0f; ll[threadIdx.x] = ll[threadIdx.x] + 1; }`;
    const kernel = lowerKernel(source);
    const text = kernel.blocks.map((b) => blockSource(b.steps).text).join('\n');
    assert.equal(text.match(/plainTarget\(p, 4/g)?.length, 2, 'the float load and store inline');
    assert.equal(text.match(/plainTarget\(p, 8/g), null, 'no 64-bit integer access inline');
    assert.equal(text.match(/L\(e\)/g), null, 'no listener call where the lowering made no events');
    const heard = lowerKernel(source, 'k', true).blocks.map((b) => blockSource(b.steps).text).join('\n');
    assert.equal(heard.match(/plainTarget\(p, 4/g)?.length, 2, 'inline with events too');
    assert.equal(heard.match(/L\(e\)/g)?.length, 2, 'each inline access gives its event to the listener');
  });

  test("a loop's branch is counted in the loop over the lanes that computes its condition; an integer store sees its change without reading back", () => {
    const kernel = lowerKernel(`__global__ void k(int *out, float *f) {
  int a = threadIdx.x;
  for (int i = 0; i < 40; i++) a = a * 3 + (a >> 4);
  out[threadIdx.x] = a;
  f[threadIdx.x] = a;
}`);
    const text = compileConverged(kernel)!.toString();
    assert.match(text, /if \(v\d+\) t\+\+;/, 'the condition counted where it is computed');
    assert.doesNotMatch(text, /if \(R\[\d+ \+ g\[i\]\]\) t\+\+/, 'no second loop to count it');
    const stores = kernel.blocks.map((b) => blockSource(b.steps).text).join('\n');
    assert.match(stores, /z = R\[\d+ \+ l\] >>> 0;[\s\S]*if \(z !== x\) M\.version\+\+/, 'the int store compares what it stored');
    assert.match(stores, /setFloat32[\s\S]*if \(a\.view\.getUint32\(o, true\) !== x\) M\.version\+\+/, 'a float store reads its bits back');
  });

  test('a block too long for V8 to optimise with its accesses written out calls them instead, and runs the same', () => {
    const stores = Array.from({ length: 400 }, (_, i) => `p[(threadIdx.x + ${i}) % 64] += ${i};`).join('\n  ');
    const source = `
#include <cstdio>
__global__ void k(int *p) {
  ${stores}
}
int main() { int *p; cudaMallocManaged(&p, 64 * sizeof(int)); k<<<1, 32>>>(p); cudaDeviceSynchronize(); printf("%d %d\\n", p[0], p[63]); return 0; }`;
    const text = lowerKernel(source).blocks.map((b) => blockSource(b.steps).text).join('\n');
    assert.equal(text.match(/plainTarget/g), null, 'no access written out');
    assert.ok(text.match(/S\[\d+\]\(w, l\)/g)!.length >= 800, 'every load and store called');
    const c = runBothWays(source);
    assert.deepEqual(c.findings, []);
    assert.match(c.stdout, /^-?\d+ -?\d+\n$/);
  });
});

