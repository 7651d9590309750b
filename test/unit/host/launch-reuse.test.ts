// A launch that repeats an earlier one exactly is not simulated again: its result is put
// back. The property: a run with reuse prints, returns and reports what the same run with every
// launch simulated does; only launches that could not differ are skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '../../../sims/frontend/index';
import { runProgram, type RunOptions, type RunResult } from '../../../sims/host/run';
import { ScordDetector } from '../../../sims/detect/scord';
import { PreciseDetector } from '../../../sims/detect/precise';
import { Memory } from '../../../sims/gpu/memory';
import { MemoryAccount } from '../../../sims/gpu/memoryAccount';
import { load, store } from '../../../sims/gpu/access';
import { CudaRuntime } from '../../../sims/runtime/runtime';
import { LaunchReuse, runsOf, TOUCHED } from '../../../sims/host/launchReuse';
import type { LaunchRequest } from '../../../sims/ir/ir';

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

test('a kernel that has never repeated is watched on ever rarer launches: a timing loop after ten different launches is still caught', () => {
  const r = both(`
__global__ void scale(float *out, float k) { out[threadIdx.x] = threadIdx.x * k; }
int main() {
  float *out; cudaMalloc(&out, 64 * sizeof(float));
  for (int it = 0; it < 10; it++) scale<<<1, 64>>>(out, it + 10.0f);
  for (int it = 0; it < 20; it++) scale<<<1, 64>>>(out, 3.0f);
  float h[64]; cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("%f\\n", h[63]);
  return 0;
}`);
  sameOutcome(r);
  assert.match(r.reused.stdout, /^189\.0+\n$/);
  // Simulated launches 1-4 are watched, then the 8th and the 16th: launch 16 (the loop's sixth)
  // is remembered and the loop's last 14 repeat it. Watching every launch would reuse 19.
  assert.equal(r.reused.repeatedLaunches, 14);
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
  // Launches 2 and 3 read new input, 4 has a new argument; 5 meets a byte the host changed
  // that launch 4 never touched, so 5 and 6 repeat 4.
  assert.equal(r.reused.repeatedLaunches, 2);
});

test('a kernel that writes its output before reading it back is reused from its second launch, byte by byte', () => {
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
  // The first launch wrote every byte of \`out\` it read: the other five repeat it.
  assert.equal(r.reused.repeatedLaunches, 5);
});

test('kernels launched in turn are each reused, and a changed byte that a launch read first makes it run again', () => {
  const r = both(`
__global__ void fill(int *x, int v) { x[threadIdx.x] = v + threadIdx.x; }
__global__ void total(const int *x, int *s) {
  if (threadIdx.x == 0) { int t = 0; for (int i = 0; i < 32; i++) t += x[i]; s[0] = t; }
}
__global__ void window(int *out) {
  out[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x == 0) out[32] = out[40] + out[0];
}
int main() {
  int *x, *s, *out; cudaMalloc(&x, 32 * sizeof(int)); cudaMalloc(&s, sizeof(int)); cudaMalloc(&out, 64 * sizeof(int));
  cudaMemset(out, 0, 64 * sizeof(int));
  int seven = 7, nine = 9, h[64], sum = 0;
  for (int it = 0; it < 4; it++) {
    // Before the third turn the host writes a byte \`window\` reads before writing it, and one
    // of \`x\`, which \`fill\` writes before anything reads it; before the fourth, a byte nothing touches.
    if (it == 2) { cudaMemcpy(out + 40, &seven, sizeof(int), cudaMemcpyHostToDevice); cudaMemcpy(x + 3, &nine, sizeof(int), cudaMemcpyHostToDevice); }
    if (it == 3) cudaMemcpy(out + 50, &nine, sizeof(int), cudaMemcpyHostToDevice);
    fill<<<1, 32>>>(x, 5);
    total<<<1, 32>>>(x, s);
    window<<<1, 32>>>(out);
  }
  cudaMemcpy(&sum, s, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %d %d\\n", sum, h[32], h[40], h[50]);
  return 0;
}`);
  sameOutcome(r);
  assert.equal(r.reused.stdout, '656 8 7 9\n');
  // fill and total repeat in turns 2 to 4 (6 launches); window repeats in turn 2, runs again in
  // turn 3 (it read the changed byte) and repeats that in turn 4.
  assert.equal(r.reused.repeatedLaunches, 8);
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
  // Two racy kernels in turn, and a clean one between them: each repeat counts its own launch's races.
  const inTurn = `
__global__ void racy(const int *a, int *sum) {
  if (threadIdx.x % 32 == 0) sum[0] = sum[0] + a[threadIdx.x];
}
__global__ void clean(int *out) { out[threadIdx.x] = threadIdx.x; }
__global__ void other(int *flag) {
  if (blockIdx.x == 0) flag[0] = 1;
  else flag[1] = flag[0];
}
int main() {
  int *a, *sum, *out, *flag; cudaMalloc(&a, 128 * sizeof(int)); cudaMalloc(&sum, sizeof(int));
  cudaMalloc(&out, 64 * sizeof(int)); cudaMalloc(&flag, 2 * sizeof(int));
  cudaMemset(a, 1, 128 * sizeof(int));
  for (int it = 0; it < 5; it++) {
    cudaMemset(sum, 0, sizeof(int)); cudaMemset(flag, 0, 2 * sizeof(int));
    racy<<<1, 128>>>(a, sum);
    clean<<<2, 32>>>(out);
    if (it % 2 == 0) other<<<2, 32>>>(flag);
  }
  cudaDeviceSynchronize();
  return 0;
}`;
  for (const [source, repeated] of [[racy, 5], [inTurn, 10]] as const) {
    const parsed = parse(source, { fileName: 'racy.cu' });
    for (const make of [(m: never) => new ScordDetector(m, {}), (m: never) => new PreciseDetector(m)]) {
      const counts = [true, false].map((reuse) => {
        let d: ScordDetector | PreciseDetector | undefined;
        const run = runProgram(parsed, { listen: (m) => (d = make(m as never)).listener, reuseLaunches: reuse });
        return { repeated: run.repeatedLaunches, findings: d!.findings().map((f) => `${f.category} ${f.range.start.line}/${f.previous.start.line} x${f.count}`).sort() };
      });
      // The memsets put back the input the launches read: every launch after a kernel's first repeats it.
      assert.equal(counts[0].repeated, repeated);
      assert.ok(counts[0].findings.length > 1);
      assert.deepEqual(counts[0].findings, counts[1].findings);
    }
  }
});

test('the copies are counted once: two launches that fit in the copies\' share of the memory limit are both remembered', () => {
  // Each launch reads 1 MB and writes 1 MB it never read: its copies are the written megabyte
  // before (with its first-access marks) and after, and the read one — 4 MB. The limit's quarter
  // holds two such launches but not three.
  const memory = new Memory(new MemoryAccount(36 << 20));
  const runtime = new CudaRuntime(memory);
  const ctx = { memory, accessor: 'device' as const, runtime };
  const range = { file: 'k.cu', start: { line: 0, character: 0, offset: 0 }, end: { line: 0, character: 1, offset: 1 } };
  const input = memory.allocate('global', 1 << 20, { label: 'in' });
  const outputs = [memory.allocate('global', 1 << 20, { label: 'a' }), memory.allocate('global', 1 << 20, { label: 'b' })];
  const kernel = { name: 'k' } as LaunchRequest['kernel'];
  const launch = (out: number): LaunchRequest => ({ kernel, grid: [1, 1, 1], block: [1, 1, 1], dynamicShared: 0, args: [input, out], range });
  const reuse = new LaunchReuse(memory, runtime);
  const run = (out: number, grid: number): void => {
    reuse.begin(launch(out), grid);
    for (let i = 0; i < 1 << 20; i += 4) store(ctx, out + i, 'u32', load(ctx, input + i, 'u32', range) + 1, range);
    reuse.end(true, 100);
  };
  const before = memory.account.allocatedBytes;
  run(outputs[0], 0);
  const one = memory.account.allocatedBytes - before;
  assert.ok(one >= 4 << 20 && one < (4 << 20) + 8192, `${one} bytes for the first launch's copies`);
  run(outputs[1], 1);
  assert.deepEqual(reuse.repeat(launch(outputs[0]), 2), { steps: 100, grid: 0 }, 'the first launch is still remembered');
  assert.deepEqual(reuse.repeat(launch(outputs[1]), 2), { steps: 100, grid: 1 });
});

test('the runs of first-access marks: the same runs as a byte-by-byte scan, for any lengths, values and alignment', () => {
  // A byte-by-byte scan, the definition: maximal runs of bytes whose mark is `mark` (TOUCHED: not 0).
  const naive = (marks: Uint8Array, mark: number): number[] => {
    const runs: number[] = [];
    let from = -1;
    for (let i = 0; i <= marks.length; i++) {
      const inRun = i < marks.length && (mark === TOUCHED ? marks[i] !== 0 : marks[i] === mark);
      if (inRun && from < 0) from = i;
      else if (!inRun && from >= 0) {
        runs.push(from, i);
        from = -1;
      }
    }
    return runs;
  };
  let seed = 7;
  const random = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  for (let trial = 0; trial < 400; trial++) {
    const buffer = new Uint8Array(80);
    // Runs of one value of random lengths, so that long runs cross several aligned words.
    for (let i = 0; i < buffer.length; ) {
      const value = random(3);
      const length = 1 + random(trial % 2 ? 12 : 3);
      buffer.fill(value, i, Math.min(buffer.length, i + length));
      i += length;
    }
    const offset = random(4);
    const marks = buffer.subarray(offset, offset + random(buffer.length - offset + 1));
    for (const mark of [1, 2, TOUCHED]) assert.deepEqual([...runsOf(marks, mark)], naive(marks, mark), `marks ${[...marks].join('')} at offset ${offset}, mark ${mark}`);
  }
  assert.deepEqual([...runsOf(new Uint8Array([2, 2, 2, 2, 2, 2, 2, 2, 0, 1]), 2)], [0, 8]);
  assert.deepEqual([...runsOf(new Uint8Array([0, 0, 0, 0, 0, 1, 2, 0]), TOUCHED)], [5, 7]);
});
