// A launch that repeats the previous one exactly is not simulated again: its result is put
// back. The property: a run with reuse prints, returns and reports what the same run with every
// launch simulated does; only launches that could not differ are skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '../../../sims/frontend/index';
import { runProgram, type RunOptions, type RunResult } from '../../../sims/host/run';
import { ScordDetector } from '../../../sims/detect/scord';
import { PreciseDetector } from '../../../sims/detect/precise';

function both(source: string, options: RunOptions = {}): { reused: RunResult; simulated: RunResult } {
  const parsed = parse(source, { fileName: 'reuse.cu' });
  assert.deepEqual(parsed.diagnostics.filter((d) => d.severity === 'error'), []);
  return { reused: runProgram(parsed, options), simulated: runProgram(parsed, { ...options, reuseLaunches: false }) };
}

function sameOutcome(r: { reused: RunResult; simulated: RunResult }): void {
  assert.equal(r.reused.stdout, r.simulated.stdout);
  assert.equal(r.reused.exitCode, r.simulated.exitCode);
  assert.equal(r.reused.launches, r.simulated.launches);
  assert.deepEqual(r.reused.findings, r.simulated.findings);
  assert.equal(r.simulated.repeatedLaunches, undefined);
}

const TIMED = `
__global__ void scale(const float *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] * 2.0f + 1.0f;
}
int main() {
  const int n = 256;
  float h[n];
  for (int i = 0; i < n; i++) h[i] = i;
  float *a, *out;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(a, h, n * sizeof(float), cudaMemcpyHostToDevice);
  for (int it = 0; it < 10; it++) scale<<<4, 64>>>(a, out, n);
  cudaMemcpy(h, out, n * sizeof(float), cudaMemcpyDeviceToHost);
  float sum = 0;
  for (int i = 0; i < n; i++) sum += h[i];
  printf("sum %f\\n", sum);
  return 0;
}`;

test('a kernel launched again over the same inputs is simulated once and its result put back', () => {
  const r = both(TIMED);
  sameOutcome(r);
  assert.match(r.reused.stdout, /sum 65536\.0+/);
  assert.equal(r.reused.repeatedLaunches, 9, 'the nine launches after the first repeat it');
  // Host code's steps count too; the nine launches not simulated took at least a step per thread.
  assert.ok(r.simulated.steps - r.reused.steps >= 9 * 256, `${r.reused.steps} steps against ${r.simulated.steps}`);
});

test('a kernel that reads what it writes is run every time', () => {
  const r = both(`
__global__ void bump(int *x) { x[threadIdx.x] += threadIdx.x + 1; }
int main() {
  int *x; cudaMalloc(&x, 32 * sizeof(int)); cudaMemset(x, 0, 32 * sizeof(int));
  for (int it = 0; it < 5; it++) bump<<<1, 32>>>(x);
  int h[32]; cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d\\n", h[0], h[31]);
  return 0;
}`);
  sameOutcome(r);
  assert.equal(r.reused.stdout, '5 160\n');
  assert.equal(r.reused.repeatedLaunches, undefined);
});

test('new input between launches, a different argument, or other bytes changed by the host: the launch runs again', () => {
  const r = both(`
__global__ void copy(const int *a, int *out, int k) { out[threadIdx.x] = a[threadIdx.x] * k; }
int main() {
  int *a, *out; cudaMalloc(&a, 32 * sizeof(int)); cudaMalloc(&out, 64 * sizeof(int));
  cudaMemset(a, 0, 32 * sizeof(int)); cudaMemset(out, 0, 64 * sizeof(int));
  int h[64];
  for (int it = 0; it < 3; it++) {
    cudaMemcpy(a, &it, sizeof(int), cudaMemcpyHostToDevice);
    copy<<<1, 32>>>(a, out, 2);
  }
  copy<<<1, 32>>>(a, out, 3);
  int seven = 7;
  cudaMemcpy(out + 40, &seven, sizeof(int), cudaMemcpyHostToDevice);
  copy<<<1, 32>>>(a, out, 3);
  copy<<<1, 32>>>(a, out, 3);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %d\\n", h[0], h[1], h[40]);
  return 0;
}`);
  sameOutcome(r);
  assert.equal(r.reused.stdout, '6 0 7\n', "the host's 7 outside what the kernel writes survives the repeat");
  // Launches 2 and 3 read new input, 4 has a new argument, 5 meets a byte the host changed
  // where launch 4 left memory as it was; only 6 repeats 5.
  assert.equal(r.reused.repeatedLaunches, 1);
});

test('a kernel that writes its output before reading it back is reused from its third launch, byte by byte', () => {
  const r = both(`
__global__ void twice(const int *a, int *out) {
  int t = threadIdx.x;
  out[t] = a[t] + 1;
  __syncthreads();
  out[t] = out[t] + out[(t + 1) % 32];
}
int main() {
  int *a, *out; cudaMalloc(&a, 32 * sizeof(int)); cudaMalloc(&out, 64 * sizeof(int));
  cudaMemset(a, 0, 32 * sizeof(int)); cudaMemset(out, 0, 64 * sizeof(int));
  int seven = 7, nine = 9;
  for (int it = 0; it < 6; it++) {
    // Before the fifth launch the host changes a byte the kernel never touches and one it
    // writes before reading: neither decides what the launch does.
    if (it == 4) { cudaMemcpy(out + 40, &seven, sizeof(int), cudaMemcpyHostToDevice); cudaMemcpy(out + 3, &nine, sizeof(int), cudaMemcpyHostToDevice); }
    twice<<<1, 32>>>(a, out);
  }
  int h[64]; cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %d\\n", h[0], h[3], h[40]);
  return 0;
}`);
  sameOutcome(r);
  assert.equal(r.reused.stdout, '2 2 7\n');
  // The first launch reads what it changed; the second is watched byte by byte and shows that
  // it wrote every byte it read; the other four repeat it.
  assert.equal(r.reused.repeatedLaunches, 4);
});

test('launches that read the clock or print are run every time', () => {
  for (const body of ['out[threadIdx.x] = (int)(clock64() & 1);', 'if (threadIdx.x == 0) printf("hi\\n"); out[threadIdx.x] = 1;']) {
    const r = both(`
__global__ void k(int *out) { ${body} }
int main() {
  int *out; cudaMalloc(&out, 32 * sizeof(int));
  for (int it = 0; it < 4; it++) k<<<1, 32>>>(out);
  cudaDeviceSynchronize();
  return 0;
}`);
    sameOutcome(r);
    assert.equal(r.reused.repeatedLaunches, undefined, body);
  }
});

test('under a random schedule every launch is its own interleaving, and a sampled launch left blocks out: none is reused', () => {
  for (const options of [{ scheduler: 'random', seed: 3 }, { sampleBlocks: { blocks: 2 } }] as RunOptions[]) {
    const r = both(TIMED, options);
    sameOutcome(r);
    assert.equal(r.reused.repeatedLaunches, undefined, JSON.stringify(options));
  }
});

test('both detectors count the races of a repeated launch as if it had run', () => {
  const racy = `
__global__ void racy(const int *a, int *sum) {
  if (threadIdx.x % 32 == 0) sum[0] = sum[0] + a[threadIdx.x];
  __syncthreads();
  sum[1] = a[0];
}
int main() {
  int *a, *sum; cudaMalloc(&a, 128 * sizeof(int)); cudaMalloc(&sum, 2 * sizeof(int));
  cudaMemset(a, 1, 128 * sizeof(int));
  for (int it = 0; it < 6; it++) { cudaMemset(sum, 0, 2 * sizeof(int)); racy<<<2, 128>>>(a, sum); }
  cudaDeviceSynchronize();
  return 0;
}`;
  const parsed = parse(racy, { fileName: 'racy.cu' });
  for (const make of [(m: never) => new ScordDetector(m, {}), (m: never) => new PreciseDetector(m)]) {
    const counts = [true, false].map((reuse) => {
      let d: ScordDetector | PreciseDetector | undefined;
      const run = runProgram(parsed, { listen: (m) => (d = make(m as never)).listener, reuseLaunches: reuse });
      return { repeated: run.repeatedLaunches, findings: d!.findings().map((f) => `${f.category} ${f.range.start.line}/${f.previous.start.line} x${f.count}`).sort() };
    });
    assert.equal(counts[0].repeated, 5, 'the memset puts back the input the launch read: launches 2 to 6 repeat the first');
    assert.ok(counts[0].findings.length > 0);
    assert.deepEqual(counts[0].findings, counts[1].findings);
  }
});
