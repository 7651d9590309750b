// The simulator runs whole CUDA programs: every program in test/fixtures/sim must print exactly
// what its independently computed reference says, and faults, runaway loops and misuse are
// reported as findings at the code responsible.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import type { SimEvent } from '../../../sims/ir/ir';
import { functionsOf } from '../../../sims/frontend/index';
import { VOID } from '../../../sims/frontend/types';
import { Memory } from '../../../sims/gpu/memory';
import { runProgram } from '../../../sims/host/run';
import type { BlockExecution } from '../../../sims/machine/executor';
import { DEFAULT_DEVICE, devicePreset } from '../../../sims/gpu/devices';
import { DEFAULT_MEMORY_LIMIT } from '../../../sims/gpu/memory';
import { deviceAttribute, deviceProperties } from '../../../sims/runtime/deviceProperties';
import { FunctionLowerer } from '../../../sims/ir/lower';
import { immediatePostDominators } from '../../../sims/ir/postdominators';
import { FIXTURES, parseFixture, parseVirtual } from '../../support/parseFile';
import { SIM_PROGRAMS } from '../../support/simReference';

describe('programs print what the reference computes', () => {
  for (const p of SIM_PROGRAMS) {
    test(`${p.file}: ${p.description}`, () => {
      assert.ok(fs.existsSync(path.join(FIXTURES, 'sim', p.file)));
      const r = runProgram(parseFixture(path.join('sim', p.file)));
      assert.deepEqual(r.findings, []);
      assert.equal(r.exitCode, 0);
      assert.equal(r.stdout, p.expectedStdout());
    });
  }
});

function run(source: string, stepBudget?: number) {
  const parsed = parseVirtual({ 'main.cu': source });
  assert.deepEqual(parsed.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message), []);
  return runProgram(parsed, stepBudget ? { stepBudget } : {});
}

describe('findings', () => {
  test('an out-of-bounds write names the allocation, the offset, the thread and the neighbour it hits', () => {
    const r = run(`#include <stdio.h>
__global__ void k(int *a) { a[threadIdx.x + 60] = 1; }
int main() {
  int *a, *b;
  cudaMalloc(&a, 64 * sizeof(int));
  cudaMalloc(&b, 64 * sizeof(int));
  k<<<1, 8>>>(a);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%d %s\\n", (int)e, cudaGetErrorString(cudaGetLastError()));
  printf("%s\\n", cudaGetErrorString(cudaMemcpy(b, a, 4, cudaMemcpyDeviceToDevice)));
  return 0;
}`);
    assert.equal(r.findings.length, 1);
    const f = r.findings[0];
    assert.equal(f.kind, 'out-of-bounds');
    assert.match(f.message, /write of 4 bytes at offset 256, past the end of 'a' \(256 bytes, global memory from line 5\); the address lies inside 'b'/);
    assert.deepEqual([f.range?.start.line, f.block, f.thread], [1, [0, 0, 0], [4, 0, 0]]);
    // The fault is sticky: the program sees it from every later call.
    assert.equal(r.stdout, '700 an illegal memory access was encountered\nan illegal memory access was encountered\n');
  });

  test('an endless loop that keeps writing ends on the step budget, naming the loop', () => {
    const r = run(`__device__ int counter;
__global__ void forever() { while (true) counter = counter + 1; }
int main() { forever<<<1, 1>>>(); return 0; }`, 100_000);
    assert.deepEqual(r.findings.map((f) => f.kind), ['step-budget']);
    assert.match(r.findings[0].message, /the hottest code is at line 2/);
  });

  test('spinning on a flag nobody sets is a deadlock, however busy it looks', () => {
    const r = run(`__device__ volatile int flag;
__global__ void spin() { while (flag == 0) {} }
int main() { spin<<<1, 1>>>(); return 0; }`, 100_000);
    assert.deepEqual(r.findings.map((f) => f.kind), ['deadlock']);
    assert.match(r.findings[0].message, /spin at line 2 .* while no memory changes: every thread of the launch that could write what they wait for is itself waiting/);
  });

  test('a kernel that waits for the host to write managed memory after the launch deadlocks here, and the message says why', () => {
    // cuda-samples' UnifiedMemoryPerf: the host sets the latch only after the launch returns.
    const r = run(`__global__ void spin(volatile unsigned int *latch) { while (latch[0] < 1) {} }
int main() {
  unsigned int *latch;
  cudaMallocManaged(&latch, sizeof(unsigned int));
  *latch = 0;
  spin<<<1, 1>>>(latch);
  *latch = 1;
  cudaDeviceSynchronize();
  return 0;
}`, 100_000);
    assert.deepEqual(r.findings.map((f) => f.kind), ['deadlock']);
    assert.match(r.findings[0].message, /the host program does not run while a launch runs here, so a kernel that waits for the host to write pinned or managed memory waits forever/);
  });

  test('integer division by zero is a finding and the run goes on', () => {
    const r = run(`#include <stdio.h>
__global__ void k(int *p, int d) { p[0] = 10 / d; p[1] = 7; }
int main() { int *p; int h[2]; cudaMalloc(&p, 8); k<<<1, 1>>>(p, 0); cudaMemcpy(h, p, 8, cudaMemcpyDeviceToHost); printf("%d %d\\n", h[0], h[1]); return 0; }`);
    assert.deepEqual(r.findings.map((f) => `${f.severity}:${f.kind}@${f.range?.start.line}`), ['warning:division-by-zero@1']);
    assert.equal(r.stdout, '0 7\n');
  });

  test('a shift by the width or more is a finding, and the value is what the GPU gives', () => {
    const r = run(`#include <stdio.h>
__global__ void k(int *p, int n) { p[0] = 1 << n; p[1] = -8 >> n; p[2] = 5 << 3; }
int main() { int *p; int h[3]; cudaMalloc(&p, 12); k<<<1, 1>>>(p, 32); cudaMemcpy(h, p, 12, cudaMemcpyDeviceToHost); printf("%d %d %d\\n", h[0], h[1], h[2]); return 0; }`);
    assert.deepEqual(r.findings.map((f) => f.kind), ['invalid-shift', 'invalid-shift']);
    assert.equal(r.stdout, '0 -1 40\n');
  });

  test('a grid too big for the step budget is said to be making progress, not to starve', () => {
    const r = run(`__global__ void k(int *p) { int s = 0; for (int i = 0; i < 200; i++) s += i; p[blockIdx.x] = s; }
int main() { int *p; cudaMalloc(&p, 600 * sizeof(int)); k<<<600, 32>>>(p); cudaDeviceSynchronize(); return 0; }`, 8_000_000);
    assert.deepEqual(r.findings.map((f) => f.kind), ['step-budget']);
    assert.match(r.findings[0].message, /\d+ of 600 blocks finished and \d+ never started: the grid was still making progress/);
    assert.doesNotMatch(r.findings[0].message, /can never complete/);
  });

  test('a kernel timing itself with clock() sees time pass between two different reads', () => {
    const r = run(`#include <stdio.h>
__global__ void k(long long *t, int *x) { long long a = clock64(); for (int i = 0; i < 8; i++) x[threadIdx.x] += i; long long b = clock64(); if (threadIdx.x == 0) { t[0] = a; t[1] = b; } }
int main() { long long *t, h[2]; int *x; cudaMalloc(&t, 16); cudaMalloc(&x, 128); cudaMemset(x, 0, 128); k<<<1, 32>>>(t, x); cudaMemcpy(h, t, 16, cudaMemcpyDeviceToHost); printf("%d\\n", h[1] > h[0]); return 0; }`);
    assert.deepEqual(r.findings, []);
    assert.equal(r.stdout, '1\n');
  });

  test('an undefined operation every thread meets is one finding at the operation, with its count', () => {
    const r = run(`__global__ void k(unsigned *p) { atomicOr(p, 1u << threadIdx.x); if (threadIdx.x > 40) p[1] = 1 / (threadIdx.x - threadIdx.x); }
int main() { unsigned *p; cudaMalloc(&p, 8); k<<<2, 64>>>(p); cudaDeviceSynchronize(); return 0; }`);
    // Threads 32..63 of both blocks shift by 32 or more; threads 41..63 of both blocks divide by zero.
    assert.deepEqual(r.findings.map((f) => f.kind), ['invalid-shift', 'division-by-zero']);
    assert.match(r.findings[0].message, /shift by 32, .*; met 64 times here/);
    assert.match(r.findings[1].message, /; met 46 times here/);
  });

  test('host code dereferencing a device pointer is a fault at the access', () => {
    const r = run(`int main() { int *d; cudaMalloc(&d, 4); return d[0]; }`);
    assert.equal(r.findings[0].kind, 'host-dereferences-device');
    assert.equal(r.findings[0].range?.start.line, 0);
  });

  test('a thread spinning on a flag that only threads behind a barrier would set is a deadlock', () => {
    const r = run(`__device__ volatile int go;
__global__ void k() { if (threadIdx.x == 0) { while (go == 0) {} } else { __syncthreads(); go = 1; } }
int main() { k<<<1, 64>>>(); return 0; }`, 1_000_000);
    assert.deepEqual(r.findings.map((f) => f.kind), ['deadlock']);
  });

  test('threads waiting for each other at a barrier and a warp shuffle are a deadlock', () => {
    const r = run(`__global__ void k(int *p) {
  if (threadIdx.x == 0) __syncthreads();
  else p[threadIdx.x] = __shfl_sync(0xffffffff, 1, 0);
}
int main() { int *p; cudaMalloc(&p, 128); k<<<1, 32>>>(p); return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1; }`);
    assert.deepEqual(r.findings.map((f) => f.kind), ['deadlock']);
    assert.equal(r.findings[0].message, 'no thread can move: block (0, 0, 0): 1 thread waits at the __syncthreads on line 2 for the rest of the block; 31 lanes wait in the warp operation on line 3 for lane 0 of its mask, which never arrives there');
    assert.equal(r.findings[0].range?.start.line, 1);
    assert.equal(r.exitCode, 1, 'the launch failed');
  });

  test('exit() ends the program with its status, main returns its value', () => {
    assert.equal(run('#include <stdlib.h>\nint main() { exit(3); return 0; }').exitCode, 3);
    assert.equal(run('int main() { return 42; }').exitCode, 42);
  });
});

describe('scheduling', () => {
  const racy = `#include <stdio.h>
__global__ void bump(int *c) { int old = *c; *c = old + 1; }
int main() { int *c; int h = 0; cudaMalloc(&c, 4); cudaMemset(c, 0, 4); bump<<<4, 64>>>(c); cudaMemcpy(&h, c, 4, cudaMemcpyDeviceToHost); printf("%d\\n", h); return 0; }`;

  test('the random scheduler is reproducible from its seed, and seeds change the interleaving', () => {
    const parsed = parseVirtual({ 'main.cu': racy });
    const out = (seed: number) => runProgram(parsed, { scheduler: 'random', seed }).stdout;
    assert.equal(out(7), out(7));
    const outputs = new Set([1, 2, 3, 4, 5, 6].map(out));
    assert.ok(outputs.size > 1, `six seeds gave one outcome: ${[...outputs].join(', ')}`);
    // Lost updates: no interleaving of 256 unsynchronised increments reaches 256 here.
    for (const o of outputs) assert.ok(Number(o) < 256, o);
  });

  test('round-robin and greedy-then-oldest both run correct programs to the same result', () => {
    const p = SIM_PROGRAMS.find((x) => x.file === 'histogram_shared.cu')!;
    const parsed = parseFixture(path.join('sim', p.file));
    for (const scheduler of ['round-robin', 'greedy-then-oldest', 'random'] as const) {
      assert.equal(runProgram(parsed, { scheduler, seed: 3 }).stdout, p.expectedStdout(), scheduler);
    }
  });

  test('a launch beyond the thread limit is refused up front, naming the limit', () => {
    const r = run('__global__ void k() {}\nint main() { k<<<40000, 1024>>>(); return cudaGetLastError() == cudaErrorInvalidConfiguration ? 0 : 1; }');
    assert.deepEqual(r.findings.map((f) => f.kind), ['launch-configuration']);
    assert.match(r.findings[0].message, /40960000 threads; the simulator's limit is 33554432/);
    assert.equal(r.exitCode, 0);
  });

  test('a grid barrier with more blocks than can be resident never completes, and says why', () => {
    const r = run(`__device__ unsigned int arrived;
__global__ void gridBarrier(int *out) {
  if (threadIdx.x == 0) {
    atomicAdd(&arrived, 1);
    while (atomicAdd(&arrived, 0) < gridDim.x) {}
  }
  __syncthreads();
  out[blockIdx.x] = 1;
}
int main() { int *o; cudaMalloc(&o, 64 * 4); gridBarrier<<<64, 1024>>>(o); return 0; }`, 2_000_000);
    assert.equal(r.findings.length, 1);
    const f = r.findings[0];
    assert.equal(f.kind, 'deadlock');
    assert.equal(f.range?.start.line, 4, 'the threads spin in the barrier loop');
    assert.match(f.message, /49 of 64 blocks never started, because only 15 can be resident on scord-paper \(1 per SM on 15 SMs, limited by warps\) and the resident ones wait for them/);
    // With 15 blocks (all resident) the same barrier completes.
    const ok = run(`__device__ unsigned int arrived;
__global__ void gridBarrier(int *out) {
  if (threadIdx.x == 0) { atomicAdd(&arrived, 1); while (atomicAdd(&arrived, 0) < gridDim.x) {} }
  __syncthreads();
  out[blockIdx.x] = 1;
}
int main() { int *o; cudaMalloc(&o, 64 * 4); gridBarrier<<<15, 1024>>>(o); return 0; }`, 20_000_000);
    assert.deepEqual(ok.findings, []);
  });

  test('round-robin: a warp that only computes keeps the SM for up to 1024 blocks beyond its turn, compiled or interpreted', () => {
    // Warp 0 computes, then raises the flag; warp 1 reads it at once. A loop of n iterations
    // is about 3n register-only blocks: within the free blocks warp 0 raises the flag in its
    // first turn, so warp 1 sees it; a longer loop gives the SM up and warp 1 reads first.
    const seen = (n: number, execution: BlockExecution) =>
      runProgram(
        parseVirtual({
          'main.cu': `#include <cstdio>
__global__ void k(volatile int *flag, int *seen, int n) {
  if (threadIdx.x / 32 == 0) {
    int a = threadIdx.x;
    for (int i = 0; i < n; i++) a = a * 3 + i;
    if (threadIdx.x == 0) *flag = 1 + (a & 0);
  } else if (threadIdx.x == 32) {
    *seen = *flag;
  }
}
int main() {
  int *flag, *seen;
  cudaMallocManaged(&flag, sizeof(int));
  cudaMallocManaged(&seen, sizeof(int));
  *flag = 0;
  k<<<1, 64>>>(flag, seen, ${n});
  cudaDeviceSynchronize();
  printf("%d", *seen);
  return 0;
}`,
        }),
        { execution },
      ).stdout;
    for (const execution of ['interpreted', 'compiled', 'eager'] as const) {
      assert.equal(seen(300, execution), '1', `${execution}: 900 blocks of arithmetic fit in the turn`);
      assert.equal(seen(400, execution), '0', `${execution}: 1200 do not`);
    }
  });

  test('threadIdx of a 3-D block numbers threads x fastest, across warps that straddle rows and planes', () => {
    const r = runProgram(
      parseVirtual({
        'main.cu': `#include <cstdio>
__global__ void k(int *o) {
  int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  o[t] = threadIdx.x * 100 + threadIdx.y * 10 + threadIdx.z;
}
int main() {
  int *o; cudaMallocManaged(&o, 60 * sizeof(int));
  k<<<2, dim3(5, 3, 4)>>>(o); cudaDeviceSynchronize();
  for (int i = 0; i < 60; i++) printf("%d ", o[i]);
  return 0;
}`,
      }),
    );
    const expected: number[] = [];
    for (let z = 0; z < 4; z++) for (let y = 0; y < 3; y++) for (let x = 0; x < 5; x++) expected.push(x * 100 + y * 10 + z);
    assert.deepEqual(r.stdout.trim().split(' ').map(Number), expected);
  });

  test('__syncthreads in divergent code is reported at the call', () => {
    const r = run(`__global__ void k(int *p) {
  if (threadIdx.x < 16) { p[threadIdx.x] = 1; __syncthreads(); }
  else { __syncthreads(); p[threadIdx.x] = 2; }
}
int main() { int *p; cudaMalloc(&p, 256); k<<<1, 64>>>(p); return 0; }`);
    assert.deepEqual(r.findings.map((f) => `${f.kind}@${(f.range?.start.line ?? -1) + 1}`), ['barrier-divergence@3']);
  });
});

describe('scheduling models', () => {
  const spinLock = `#include <stdio.h>
__device__ int lock = 0;
__device__ int counter = 0;
__global__ void everyLaneTakesTheLock() {
  while (atomicCAS(&lock, 0, 1) != 0) {}
  counter = counter + 1;
  __threadfence();
  atomicExch(&lock, 0);
}
int main() {
  everyLaneTakesTheLock<<<1, 32>>>();
  int h = 0;
  cudaMemcpyFromSymbol(&h, counter, sizeof(int));
  printf("%d\\n", h);
  return 0;
}`;

  test('a spin lock taken by every lane of one warp finishes under independent scheduling', () => {
    const r = runProgram(parseVirtual({ 'main.cu': spinLock }), { model: 'independent' });
    assert.deepEqual(r.findings, []);
    assert.equal(r.stdout, '32\n');
  });

  test('lanes spinning on both sides of the lane that holds their lock do not keep it from running (independent scheduling)', () => {
    // Four locks shared by 15 warps: a warp's spinners are often the lanes around the holder's
    // (0-4 and 6-31 around lane 5), whose turn ended at lane 31 and began again at lane 0.
    const buckets = `__global__ void count(const int *keys, int n, int *lock, int *counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int b = keys[i] % 4;
  bool done = false;
  while (!done) {
    if (atomicCAS(&lock[b], 0, 1) == 0) {
      __threadfence();
      counts[b] = counts[b] + 1;
      __threadfence();
      atomicExch(&lock[b], 0);
      done = true;
    }
  }
}
int main() {
  int *keys, *lock, *counts;
  cudaMallocManaged(&keys, 480 * sizeof(int));
  cudaMallocManaged(&lock, 4 * sizeof(int));
  cudaMallocManaged(&counts, 4 * sizeof(int));
  for (int i = 0; i < 480; i++) keys[i] = (i * 7) % 13;
  for (int b = 0; b < 4; b++) lock[b] = counts[b] = 0;
  count<<<15, 32>>>(keys, 480, lock, counts);
  cudaDeviceSynchronize();
  printf("%d\\n", counts[0] + counts[1] + counts[2] + counts[3]);
  return 0;
}`;
    const r = runProgram(parseVirtual({ 'main.cu': buckets }), { model: 'independent' });
    assert.deepEqual(r.findings, []);
    assert.equal(r.stdout, '480\n');
  });

  test('the same spin lock hangs under lockstep SIMT: the holder waits at the reconvergence point', () => {
    const r = runProgram(parseVirtual({ 'main.cu': spinLock }), { model: 'lockstep', stepBudget: 200_000 });
    // The spinners' failed CAS changes nothing: a deadlock, not just a slow loop.
    assert.deepEqual(r.findings.map((f) => f.kind), ['deadlock']);
    assert.equal(r.findings[0].range?.start.line, 4, 'the hot loop is the spin');
  });

  test('lockstep runs divergent but correct code to the same results', () => {
    for (const file of ['bitonic_sort.cu', 'warp_scan_shfl.cu', 'reduce_warp_shuffle.cu']) {
      const p = SIM_PROGRAMS.find((x) => x.file === file)!;
      assert.equal(runProgram(parseFixture(path.join('sim', file)), { model: 'lockstep' }).stdout, p.expectedStdout(), file);
    }
  });
});

describe('events for the detector', () => {
  const program = `__device__ volatile int flag;
__device__ int data;
__global__ void k() {
  if (blockIdx.x == 0 && threadIdx.x == 0) { data = 42; __threadfence_block(); flag = 1; atomicAdd_block(&data, 1); }
  __syncthreads();
  if (blockIdx.x == 1 && threadIdx.x == 0) { while (flag == 0) {} int v = data; (void)v; }
}
int main() { k<<<2, 32>>>(); cudaDeviceSynchronize(); return 0; }`;

  test('accesses carry size, strength and scope; fences and barriers are seen', () => {
    const events: SimEvent[] = [];
    const r = runProgram(parseVirtual({ 'main.cu': program }), { events: (e) => events.push({ ...e }) });
    assert.deepEqual(r.findings, []);
    assert.equal(events[0].kind, 'launch');
    const block0 = events.filter((e) => e.kind === 'access' && e.block === 0) as Extract<SimEvent, { kind: 'access' }>[];
    assert.deepEqual(block0.map((e) => `${e.write ? 'W' : 'R'}${e.size}:${e.type}${e.strong ? ' strong' : ''}${e.atomic ? ` ${e.atomic.op}/${e.atomic.scope}` : ''}@${e.range.start.line}`), ['W4:i32@3', 'W4:i32 strong@3', 'W4:i32 strong Add/block@3']);
    assert.deepEqual(events.filter((e) => e.kind === 'fence').map((e) => (e as { scope: string }).scope), ['block']);
    assert.equal(events.filter((e) => e.kind === 'barrier').length, 2, 'one barrier per block');
    const reads = events.filter((e) => e.kind === 'access' && e.block === 1 && !e.write) as Extract<SimEvent, { kind: 'access' }>[];
    assert.ok(reads.length >= 2 && reads[0].strong && !reads[reads.length - 1].strong, 'the flag read is volatile, the data read is not');
    assert.deepEqual([reads[0].warp, reads[0].lane], [0, 0]);
  });

  test('the same seed replays the same event trace; other seeds interleave differently', () => {
    const racy = parseVirtual({ 'main.cu': `__global__ void bump(int *c) { int old = *c; *c = old + 1; }
int main() { int *c; cudaMalloc(&c, 4); cudaMemset(c, 0, 4); bump<<<4, 64>>>(c); return 0; }` });
    const hash = (seed: number): string => {
      const h = createHash('sha256');
      runProgram(racy, { scheduler: 'random', seed, events: (e) => h.update(JSON.stringify({ ...e, range: 'range' in e ? e.range?.start.offset : undefined })) });
      return h.digest('hex');
    };
    assert.equal(hash(11), hash(11));
    assert.notEqual(hash(11), hash(12));
  });
});

test('divergence, reconvergence, __syncwarp and warp lifetimes are events too', () => {
  const events: SimEvent[] = [];
  const r = runProgram(parseVirtual({ 'main.cu': `__global__ void k(int *p) {
  if (threadIdx.x % 2) p[threadIdx.x] = 1; else p[threadIdx.x] = 2;
  __syncwarp();
  p[threadIdx.x] += 1;
}
int main() { int *p; cudaMalloc(&p, 256); k<<<1, 64>>>(p); return 0; }` }), { events: (e) => events.push({ ...e }) });
  assert.deepEqual(r.findings, []);
  const warp0 = events.filter((e) => 'warp' in e && e.warp === 0 && e.kind !== 'access').map((e) => e.kind + ('paths' in e ? `:${e.paths}` : ''));
  assert.deepEqual(warp0, ['warp-start', 'diverge:2', 'reconverge:1', 'warp-sync', 'warp-end']);
  assert.equal(events.filter((e) => e.kind === 'warp-start').length, 2);
});

test('reconvergence points are immediate post-dominators', () => {
  const parsed = parseVirtual({ 'main.cu': `__global__ void k(int *p) {
  int v = 0;
  if (threadIdx.x % 2) v = 1; else v = 2;
  for (int i = 0; i < 3; i++) v += i;
  p[threadIdx.x] = v;
}
int main() { return 0; }` });
  const decl = functionsOf(parsed.deviceAst).find((f) => f.name === 'k')!;
  const fn = new FunctionLowerer(
    { memory: new Memory(), instantiations: parsed.instantiations, kernel: () => assert.fail('no launches'), stringLiteral: () => 0, events: false },
    decl,
    'device',
  ).compile(decl.body!, decl.params.map((p) => p.resolvedType!), undefined, VOID);
  const ipdom = immediatePostDominators(fn);
  for (const b of fn.blocks) {
    if (b.term.kind !== 'branch') continue;
    const join = ipdom[b.id];
    assert.ok(join >= 0, 'a branch inside the kernel reconverges before the exit');
    // Every path from both successors reaches the join: walk the CFG and check.
    const reaches = (from: number, seen = new Set<number>()): boolean => {
      if (from === join) return true;
      if (seen.has(from)) return true; // a loop back edge: the loop's exit is checked on its own path
      seen.add(from);
      const t = fn.blocks[from].term;
      if (t.kind === 'exit') return false;
      const next = t.kind === 'branch' ? [t.then, t.else] : [t.to];
      return next.every((n) => reaches(n, seen));
    };
    assert.ok(reaches(b.term.then) && reaches(b.term.else), `block ${b.id}'s paths meet at ${join}`);
  }
});

test('kernels that touch freed or misaligned memory fault at the access', () => {
  const freed = run(`__global__ void k(int *p) { p[0] = 1; }
int main() { int *p; cudaMalloc(&p, 8); cudaFree(p); k<<<1, 1>>>(p); return 0; }`);
  assert.deepEqual(freed.findings.map((f) => f.kind), ['use-after-free']);
  const misaligned = run(`__global__ void k(char *p) { *(int *)(p + 2) = 1; }
int main() { char *p; cudaMalloc(&p, 8); k<<<1, 1>>>(p); return 0; }`);
  assert.deepEqual(misaligned.findings.map((f) => f.kind), ['misaligned']);
});

test('64-bit integers are exact: LCGs, xorshift, multiplies and atomics past 2^53', () => {
  const r = run(`#include <stdio.h>
__global__ void hash(unsigned long long *out, unsigned long long *sum) {
  unsigned long long x = 88172645463325252ULL + threadIdx.x;
  for (int i = 0; i < 20; i++) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
  }
  out[threadIdx.x] = x;
  atomicAdd(sum, x);
}
int main() {
  unsigned long long *d, *s, h[4], total = 0;
  cudaMalloc(&d, sizeof(h)); cudaMalloc(&s, 8); cudaMemset(s, 0, 8);
  hash<<<1, 4>>>(d, s);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  cudaMemcpy(&total, s, 8, cudaMemcpyDeviceToHost);
  long long neg = -9223372036854775807LL - 1;
  for (int i = 0; i < 4; i++) printf("%llu %llx\\n", h[i], h[i]);
  printf("%llu %lld %d\\n", total, neg + 1, (int)(h[0] >> 40) == (int)(h[0] / 1099511627776ULL));
  return 0;
}`);
  assert.deepEqual(r.findings, []);
  const M = (1n << 64n) - 1n;
  const lines: string[] = [];
  let total = 0n;
  for (let t = 0n; t < 4n; t++) {
    let x = 88172645463325252n + t;
    for (let i = 0; i < 20; i++) {
      x = (x * 6364136223846793005n + 1442695040888963407n) & M;
      x ^= (x << 13n) & M;
      x ^= x >> 7n;
      x ^= (x << 17n) & M;
    }
    lines.push(`${x} ${x.toString(16)}`);
    total = (total + x) & M;
  }
  lines.push(`${total} ${-9223372036854775807n} 1`);
  assert.equal(r.stdout, lines.join('\n') + '\n');
});

test('floats as large as a 64-bit box stay floats: FLT_MAX, 1e30f, infinity, and with 64-bit integers beside them', () => {
  // A 64-bit integer past 2^53 is kept as a box, a double above 2^62; floats there are not boxes.
  const r = run(`#include <stdio.h>
#include <float.h>
#include <math.h>
__global__ void k(float *f, double *d, unsigned long long *u) {
  float best = FLT_MAX, big = 1e30f, inf = INFINITY;
  unsigned long long x = 0xFFFFFFFFFFFFFFFFULL - threadIdx.x;
  best = fminf(best, big);
  f[0] = best; f[1] = inf; f[2] = sqrtf(1e20f); f[3] = (float)x; f[4] = big * big;
  d[0] = DBL_MAX; d[1] = 4611686018427387904.0 * 3.0; d[2] = (double)x;
  u[0] = x; u[1] = (unsigned long long)1e19f;
}
int main() {
  float *f; double *d; unsigned long long *u;
  cudaMalloc(&f, 5 * sizeof(float)); cudaMalloc(&d, 3 * sizeof(double)); cudaMalloc(&u, 2 * 8);
  k<<<1, 1>>>(f, d, u);
  float hf[5]; double hd[3]; unsigned long long hu[2];
  cudaMemcpy(hf, f, sizeof(hf), cudaMemcpyDeviceToHost);
  cudaMemcpy(hd, d, sizeof(hd), cudaMemcpyDeviceToHost);
  cudaMemcpy(hu, u, sizeof(hu), cudaMemcpyDeviceToHost);
  printf("%g %g %g %g %g\\n", hf[0], hf[1], hf[2], hf[3], hf[4]);
  printf("%g %.0f %g\\n", hd[0], hd[1], hd[2]);
  printf("%llu %llu %g\\n", hu[0], hu[1], 3e38f * 10.0f);
  return 0;
}`);
  assert.deepEqual(r.findings, []);
  assert.equal(r.stdout, '1e+30 inf 1e+10 1.84467e+19 inf\n1.79769e+308 13835058055282163712 1.84467e+19\n18446744073709551615 9999999980506447872 inf\n');
});

test('the runtime API and C library the front end knows also run', () => {
  const r = run(`#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
__global__ void k(float *p, unsigned int *u) {
  p[0] = sqrtf(2.0f) * 0 + fmaxf(1.5f, 2.5f) + expm1f(0.0f) + cbrtf(27.0f);
  u[0] = __brev(1u) + __popc(255u) + umin(7u, 3u);
}
int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int count = 0, sms = 0;
  cudaGetDeviceCount(&count);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  printf("%s: sm_%d%d, %d SMs (%d), %d device(s), %d threads/block\\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount, sms, count, prop.maxThreadsPerBlock);
  cudaStream_t s; cudaEvent_t a, b; float ms = -1;
  cudaStreamCreate(&s); cudaEventCreate(&a); cudaEventCreate(&b);
  float *d, *h; unsigned int *du, hu = 0;
  cudaMallocHost(&h, 4 * sizeof(float));
  cudaMalloc(&d, 4 * sizeof(float)); cudaMalloc(&du, sizeof(unsigned int));
  cudaEventRecord(a, s);
  k<<<1, 1, 0, s>>>(d, du);
  cudaEventRecord(b, s);
  cudaMemcpyAsync(h, d, 4 * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaMemcpy(&hu, du, sizeof(hu), cudaMemcpyDeviceToHost);
  cudaStreamSynchronize(s); cudaEventElapsedTime(&ms, a, b);
  char buf[32];
  snprintf(buf, sizeof(buf), "%.2f|%u", h[0], hu);
  printf("%s %d %d %d %.1f\\n", buf, (int)strlen(buf), atoi("42") + strcmp("abc", "abd"), (int)sizeof(prop.name), ms);
  cudaFreeHost(h); cudaStreamDestroy(s); cudaEventDestroy(a); cudaEventDestroy(b);
  return 0;
}`);
  assert.deepEqual(r.findings, []);
  assert.equal(r.stdout, 'ScoRD simulated GPU (scord-paper): sm_70, 15 SMs (15), 1 device(s), 1024 threads/block\n5.50|2147483659 15 41 256 0.0\n');
});

test('runtime queries answer through their pointer arguments', () => {
  const r = run(`#include <stdio.h>
__global__ void k(int *p) { p[0] = 1; }
int main() {
  size_t freeB = 0, totalB = 0; int blocks = -1, version = 0; cudaFuncAttributes attr; int *h, *d = 0;
  char *held; cudaMalloc(&held, 1 << 20);
  cudaMemGetInfo(&freeB, &totalB);
  size_t heap = 0, stack = 0; cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 22);
  cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize); cudaDeviceGetLimit(&stack, cudaLimitStackSize);
  int unknown = (int)cudaDeviceSetLimit((cudaLimit)99, 1);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, 256, 0);
  cudaFuncGetAttributes(&attr, k);
  cudaDriverGetVersion(&version);
  cudaHostAlloc(&h, 16, cudaHostAllocMapped);
  cudaHostGetDevicePointer(&d, h, 0);
  k<<<1, 1>>>(d);
  cudaDeviceSynchronize();
  printf("%zu %zu %d %d %d %d %d %zu %zu %d\\n", freeB, totalB, blocks, attr.maxThreadsPerBlock, version, d == h, h[0], heap, stack, unknown);
  return 0;
}`);
  assert.deepEqual(r.findings, []);
  // The runtime's own account: the whole memory limit, less the MiB the program holds; the heap
  // limit as set, the stack limit's default, and cudaErrorInvalidValue (1) for a limit nobody knows.
  assert.equal(r.stdout, `${DEFAULT_MEMORY_LIMIT - (1 << 20)} ${DEFAULT_MEMORY_LIMIT} 4 1024 12000 1 1 ${1 << 22} 1024 1\n`);
});

test('global initializers are constant expressions, evaluated as the front end does', () => {
  const r = run(`#include <stdio.h>
enum { BASE = 5 };
__device__ int table[4] = {1 << 4, sizeof(double), (int)2.7, BASE * 2 + 1};
__constant__ float scale = 1.5f;
int hostValue = -(3 + 4);
__global__ void k(int *out) { out[threadIdx.x] = table[threadIdx.x] * (int)scale; }
int main() { int *d; int h[4]; cudaMalloc(&d, 16); k<<<1, 4>>>(d); cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost);
  printf("%d %d %d %d %d\\n", h[0], h[1], h[2], h[3], hostValue); return 0; }`);
  assert.deepEqual(r.findings, []);
  assert.equal(r.stdout, '16 8 2 11 -7\n');
});

test('cudaDeviceGetAttribute and cudaGetDeviceProperties answer as the runtime does on the clang path', () => {
  // Attributes 1, 8, 10, 13, 16, 75, 76, 81 (shared memory per SM) and 999, which no runtime knows.
  const r = run(`#include <stdio.h>
int main() {
  int attrs[9] = {1, 8, 10, 13, 16, 75, 76, 81, 999};
  for (int i = 0; i < 9; i++) {
    int v = -1;
    cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)attrs[i], 0);
    printf("%d=%d/%d ", attrs[i], v, (int)e);
  }
  int v = -1;
  printf("dev1=%d ", (int)cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 1));
  cudaDeviceProp prop;
  prop.pciBusID = 77; prop.ECCEnabled = 5;
  cudaGetDeviceProperties(&prop, 0);
  printf("%s %zu %zu %d %d %d\\n", prop.name, prop.totalGlobalMem, prop.sharedMemPerBlock, prop.clockRate, prop.pciBusID, prop.ECCEnabled);
  return 0;
}`);
  assert.deepEqual(r.findings, []);
  const device = devicePreset(DEFAULT_DEVICE)!;
  const expected = [1, 8, 10, 13, 16, 75, 76, 81].map((a) => `${a}=${deviceAttribute(device, DEFAULT_MEMORY_LIMIT, a)}/0 `).join('');
  const props = deviceProperties(device, DEFAULT_MEMORY_LIMIT);
  // 1: cudaErrorInvalidValue for the unknown attribute, 101: cudaErrorInvalidDevice for device 1.
  // Fields the runtime does not name (the PCI bus, ECC) read 0, as on the clang path.
  assert.equal(r.stdout, `${expected}999=-1/1 dev1=101 ${props.name} ${props.totalGlobalMem} ${props.sharedMemPerBlock} ${props.clockRate} 0 0\n`);
});
