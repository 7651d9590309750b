// The ScoRD detector on two-thread microbenchmarks in the categories of the ScoR suite: each
// racy variant must be reported with its category, scope and both lines; each correct one not.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ScordDetector } from '../../sims/detect/scord';
import { Memory } from '../../sims/gpu/memory';
import { runProgram } from '../../sims/host/run';
import { parseVirtual } from '../support/parseFile';

/** Runs a program with the detector attached; returns `category@line/previousLine` per race. */
function races(source: string): string[] {
  const parsed = parseVirtual({ 'main.cu': source });
  assert.deepEqual(parsed.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message), []);
  let detector: ScordDetector | undefined;
  const result = runProgram(parsed, {
    events: (e) => detector!.listener(e),
    attach: (memory: Memory) => {
      detector = new ScordDetector(memory);
    },
  });
  assert.deepEqual(result.findings, []);
  return detector!.findings().map((f) => `${f.category}/${f.scope}@${f.range.start.line + 1}/${f.previous.start.line + 1}`);
}

const messagePassing = (fence: string, data: string) => `
__device__ ${data} int data;
__device__ volatile int flag;
__global__ void mp() {
  if (blockIdx.x == 0) {
    data = 42;
    ${fence};
    atomicExch((int *)&flag, 1);
  } else {
    while (flag == 0) {}
    int v = data;
    (void)v;
  }
}
int main() { mp<<<2, 1>>>(); cudaDeviceSynchronize(); return 0; }`;

describe('fences', () => {
  test('a block-scope fence does not order a consumer in another block', () => {
    assert.deepEqual(races(messagePassing('__threadfence_block()', 'volatile')), ['missing-device-fence/device@11/6']);
  });
  test('a device-scope fence does', () => {
    assert.deepEqual(races(messagePassing('__threadfence()', 'volatile')), []);
  });
  test('no fence at all', () => {
    assert.deepEqual(races(messagePassing('(void)0', 'volatile')), ['missing-device-fence/device@11/6']);
  });
  test('fences order only strong accesses', () => {
    assert.deepEqual(races(messagePassing('__threadfence()', '')), ['non-strong-access/device@11/6']);
  });
  test('warps of one block: lanes 0 and 32 need a block fence', () => {
    const src = (fence: string) => `
__device__ volatile int data;
__device__ volatile int flag;
__global__ void k() {
  if (threadIdx.x == 0) { data = 1; ${fence}; atomicExch((int *)&flag, 1); }
  if (threadIdx.x == 32) { while (flag == 0) {} int v = data; (void)v; }
}
int main() { k<<<1, 33>>>(); return 0; }`;
    assert.deepEqual(races(src('(void)0')), ['missing-block-fence/block@6/5']);
    assert.deepEqual(races(src('__threadfence_block()')), []);
  });
});

describe('atomics', () => {
  const counter = (op: string) => `
__device__ int counter;
__global__ void k() { ${op}(&counter, 1); }
int main() { k<<<2, 1>>>(); return 0; }`;
  test('a block-scope atomic shared by two blocks is a scoped race', () => {
    assert.deepEqual(races(counter('atomicAdd_block')), ['scoped-atomic/device@3/3']);
  });
  test('device and system scope atomics are fine', () => {
    assert.deepEqual(races(counter('atomicAdd')), []);
    assert.deepEqual(races(counter('atomicAdd_system')), []);
  });
  test('a block-scope atomic inside one block is fine', () => {
    assert.deepEqual(races(`__device__ int counter;
__global__ void k() { atomicAdd_block(&counter, 1); }
int main() { k<<<1, 64>>>(); return 0; }`), []);
  });
});

describe('locks', () => {
  const locked = (cas: string, fence: string) => `
__device__ int lock;
__device__ volatile int shared;
__global__ void k() {
  while (${cas}(&lock, 0, 1) != 0) {}
  ${fence};
  shared = shared + 1;
  ${fence};
  atomicExch(&lock, 0);
}
int main() { k<<<2, 1>>>(); return 0; }`;
  test('a device-scope lock protects data shared by blocks', () => {
    assert.deepEqual(races(locked('atomicCAS', '__threadfence()')), []);
  });
  test('a block-scope lock is a different lock in each block', () => {
    assert.deepEqual(races(locked('atomicCAS_block', '__threadfence_block()')), ['missing-lock/device@7/7']);
  });
});
