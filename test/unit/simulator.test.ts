// The simulator runs whole CUDA programs: every program in test/fixtures/sim must print exactly
// what its independently computed reference says, and faults, runaway loops and misuse are
// reported as findings at the code responsible.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runProgram } from '../../sims/host/run';
import { FIXTURES, parseFixture, parseVirtual } from '../support/parseFile';
import { SIM_PROGRAMS } from '../support/simReference';

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

  test('an endless loop ends on the step budget', () => {
    const r = run(`__device__ volatile int flag;
__global__ void spin() { while (flag == 0) {} }
int main() { spin<<<1, 1>>>(); return 0; }`, 100_000);
    assert.deepEqual(r.findings.map((f) => f.kind), ['step-budget']);
  });

  test('integer division by zero is a finding and the run goes on', () => {
    const r = run(`#include <stdio.h>
__global__ void k(int *p, int d) { p[0] = 10 / d; p[1] = 7; }
int main() { int *p; int h[2]; cudaMalloc(&p, 8); k<<<1, 1>>>(p, 0); cudaMemcpy(h, p, 8, cudaMemcpyDeviceToHost); printf("%d %d\\n", h[0], h[1]); return 0; }`);
    assert.deepEqual(r.findings.map((f) => `${f.kind}@${f.range?.start.line}`), ['division-by-zero@1']);
    assert.equal(r.stdout, '0 7\n');
  });

  test('host code dereferencing a device pointer is a fault at the access', () => {
    const r = run(`int main() { int *d; cudaMalloc(&d, 4); return d[0]; }`);
    assert.equal(r.findings[0].kind, 'host-dereferences-device');
    assert.equal(r.findings[0].range?.start.line, 0);
  });

  test('a thread spinning on a flag that only threads behind a barrier would set runs out of steps', () => {
    const r = run(`__device__ volatile int go;
__global__ void k() { if (threadIdx.x == 0) { while (go == 0) {} } else { __syncthreads(); go = 1; } }
int main() { k<<<1, 64>>>(); return 0; }`, 1_000_000);
    assert.deepEqual(r.findings.map((f) => f.kind), ['step-budget']);
  });

  test('threads waiting for each other at a barrier and a warp shuffle are a deadlock', () => {
    const r = run(`__global__ void k(int *p) {
  if (threadIdx.x == 0) __syncthreads();
  else p[threadIdx.x] = __shfl_sync(0xffffffff, 1, 0);
}
int main() { int *p; cudaMalloc(&p, 128); k<<<1, 32>>>(p); return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1; }`);
    assert.deepEqual(r.findings.map((f) => f.kind), ['deadlock']);
    assert.equal(r.exitCode, 1, 'the launch failed');
  });

  test('exit() ends the program with its status, main returns its value', () => {
    assert.equal(run('#include <stdlib.h>\nint main() { exit(3); return 0; }').exitCode, 3);
    assert.equal(run('int main() { return 42; }').exitCode, 42);
  });
});
