// Blocks that start after others finished take their warps' arrays and their threads' local
// memory (as a GPU reuses an SM's slots). Property: what a thread sees is what a fresh block
// would give it — a zeroed frame, its own thread and block indices — and the frames are freed
// when the launch ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '../../../sims/frontend/index';
import { runProgram } from '../../../sims/host/run';

test('a block started after others finished sees zeroed local memory and its own indices', () => {
  // 240 blocks of 96 threads: far more than are resident at once, so most blocks reuse.
  const source = `
__global__ void k(int *out, int n) {
  int local[8];
  int i = threadIdx.x % 8;
  int before = local[(i + n) % 8];
  for (int j = 0; j < 8; j++) local[j] = blockIdx.x + 1;
  out[blockIdx.x * blockDim.x + threadIdx.x] = before * 1000 + local[i] + (threadIdx.x == (blockIdx.x % 96) ? 100000 : 0);
}
int main() {
  const int blocks = 240, threads = 96, n = blocks * threads;
  int *out; cudaMalloc(&out, n * sizeof(int));
  k<<<blocks, threads>>>(out, 3);
  int *h = (int *)malloc(n * sizeof(int));
  cudaMemcpy(h, out, n * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < n; t++) {
    int b = t / threads, x = t % threads;
    if (h[t] != b + 1 + (x == b % threads ? 100000 : 0)) bad++;
  }
  printf("%d wrong\\n", bad);
  return 0;
}`;
  const parsed = parse(source, { fileName: 'pool.cu' });
  assert.deepEqual(parsed.diagnostics.filter((d) => d.severity === 'error'), []);
  for (const execution of ['compiled', 'interpreted'] as const) {
    const r = runProgram(parsed, { execution });
    assert.deepEqual(r.findings, [], execution);
    assert.equal(r.stdout, '0 wrong\n', execution);
  }
});

test("a pointer to a thread's local memory kept past the launch is a use after free", () => {
  const source = `
__device__ int *kept;
__global__ void k() { int local[4]; local[threadIdx.x % 4] = 1; if (blockIdx.x == 7 && threadIdx.x == 0) kept = &local[0]; }
__global__ void reader(int *out) { *out = *kept; }
int main() {
  int *out; cudaMalloc(&out, sizeof(int));
  k<<<16, 64>>>();
  reader<<<1, 1>>>(out);
  cudaDeviceSynchronize();
  return 0;
}`;
  const r = runProgram(parse(source, { fileName: 'kept.cu' }));
  assert.deepEqual(r.findings.map((f) => f.kind), ['use-after-free']);
});
