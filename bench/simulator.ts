// Simulator speed: thread-instructions per second (a thread-step is one IR step or terminator
// run for one thread) on four kernels of different shape, each beside the same algorithm as
// plain JS, measured in the same run. Medians of several runs.
import { performance } from 'node:perf_hooks';
import { parse } from '../sims/frontend/index';
import { runProgram } from '../sims/host/run';
import type { MemoryModelName } from '../sims/gpu/memoryModels';

export interface Metric {
  name: string;
  value: number;
  unit: string;
}

const THREADS = 4096;

interface Kernel {
  name: string;
  source: string;
  /** The same computation, sequentially in plain JS. */
  js: () => number;
}

const host = (kernel: string, args: string) => `
int main() {
  int *out; float *x; unsigned int *counters;
  cudaMalloc(&out, ${THREADS} * sizeof(int));
  cudaMalloc(&x, ${THREADS} * sizeof(float));
  cudaMalloc(&counters, 64 * sizeof(unsigned int));
  cudaMemset(x, 0, ${THREADS} * sizeof(float));
  ${kernel}<<<${THREADS / 256}, 256>>>(${args});
  cudaDeviceSynchronize();
  return 0;
}`;

const KERNELS: Kernel[] = [
  {
    name: 'converged',
    source: `__global__ void converged(int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int a = t, b = 7;
  for (int i = 0; i < 200; i++) { a = a * 3 + b; b = (b ^ a) + i; }
  out[t] = a + b;
}` + host('converged', 'out'),
    js: () => {
      let s = 0;
      for (let t = 0; t < THREADS; t++) {
        let a = t;
        let b = 7;
        for (let i = 0; i < 200; i++) {
          a = (Math.imul(a, 3) + b) | 0;
          b = ((b ^ a) + i) | 0;
        }
        s += a + b;
      }
      return s;
    },
  },
  {
    name: 'divergent',
    source: `__global__ void divergent(int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int a = t;
  if (t % 4 == 0) { for (int i = 0; i < 300; i++) a = a * 5 + 1; }
  else if (t % 4 == 1) { for (int i = 0; i < 100; i++) a = a ^ (a >> 3); }
  else { for (int i = 0; i < 50 + t % 32; i++) a += i; }
  out[t] = a;
}` + host('divergent', 'out'),
    js: () => {
      let s = 0;
      for (let t = 0; t < THREADS; t++) {
        let a = t;
        if (t % 4 === 0) for (let i = 0; i < 300; i++) a = (Math.imul(a, 5) + 1) | 0;
        else if (t % 4 === 1) for (let i = 0; i < 100; i++) a = a ^ (a >> 3);
        else for (let i = 0; i < 50 + (t % 32); i++) a = (a + i) | 0;
        s += a;
      }
      return s;
    },
  },
  {
    name: 'memory',
    source: `__global__ void memory(float *x, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < 64; i++) { int j = (t + i * 64) % ${THREADS}; x[j] = x[j] * 0.5f + 1.0f; out[t] = j; }
}` + host('memory', 'x, out'),
    js: () => {
      const x = new Float32Array(THREADS);
      const out = new Int32Array(THREADS);
      for (let t = 0; t < THREADS; t++) {
        for (let i = 0; i < 64; i++) {
          const j = (t + i * 64) % THREADS;
          x[j] = Math.fround(x[j] * 0.5 + 1);
          out[t] = j;
        }
      }
      return x[0] + out[0];
    },
  },
  {
    name: 'atomic',
    source: `__global__ void atomic(unsigned int *counters) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < 32; i++) atomicAdd(&counters[(t + i) % 64], 1u);
}` + host('atomic', 'counters'),
    js: () => {
      const c = new Uint32Array(64);
      for (let t = 0; t < THREADS; t++) for (let i = 0; i < 32; i++) c[(t + i) % 64]++;
      return c[0];
    },
  },
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/**
 * V8 optimises a kernel's generated code after it has run for a while: a kernel of a few
 * milliseconds needs dozens of runs (measured: the median of runs 1-15 of the divergent kernel
 * 5.9 ms, of runs 31-100 4.1 ms, and about twice both after the front end's figures have filled
 * the heap). The slowdown compares throughput, so both sides run warm: at least this many
 * runs and this long before the timed ones. The first run, cold, is reported beside them.
 */
const WARMUP_RUNS = 40;
const WARMUP_MS = 400;

export function simulatorMetrics(runs: number): Metric[] {
  const out: Metric[] = [];
  for (const k of KERNELS) {
    const parsed = parse(k.source, { fileName: `/bench/${k.name}.cu` });
    const errors = parsed.diagnostics.filter((d) => d.severity === 'error');
    if (errors.length) throw new Error(`bench kernel ${k.name}: ${errors[0].message}`);
    const simTimes: number[] = [];
    const jsTimes: number[] = [];
    let steps = 0;
    let firstRun = 0;
    const warmUntil = performance.now() + WARMUP_MS;
    for (let r = 0; r < WARMUP_RUNS + runs || simTimes.length < runs; r++) {
      const t0 = performance.now();
      const result = runProgram(parsed);
      const t1 = performance.now();
      if (result.findings.length) throw new Error(`bench kernel ${k.name}: ${result.findings[0].message}`);
      steps = result.steps;
      const t2 = performance.now();
      k.js();
      const t3 = performance.now();
      if (r === 0) firstRun = t1 - t0;
      if (r >= WARMUP_RUNS && t0 >= warmUntil) {
        simTimes.push(t1 - t0);
        jsTimes.push(t3 - t2);
      }
    }
    const sim = median(simTimes);
    const js = median(jsTimes);
    out.push({ name: `sim.thread_instr_per_s.${k.name}`, value: Math.round(steps / (sim / 1000)), unit: 'thread-instructions/s' });
    out.push({ name: `sim.ms.first_run.${k.name}`, value: +firstRun.toFixed(2), unit: 'ms' });
    out.push({ name: `sim.ms.${k.name}`, value: +sim.toFixed(2), unit: 'ms' });
    out.push({ name: `js.ms.${k.name}`, value: +js.toFixed(3), unit: 'ms' });
    out.push({ name: `sim.slowdown_vs_js.${k.name}`, value: +(sim / js).toFixed(1), unit: 'ratio' });
  }
  return out;
}

/**
 * What the weak memory model costs: a grid-stride SAXPY (every thread stores values nobody else
 * reads, 64 times more than the model holds back at once) under gpu-weak beside sc, the two
 * runs interleaved so that the machine's drift falls on both. The ratio is the median of the
 * runs' ratios.
 */
const SAXPY_N = 1 << 18;
const SAXPY = `__global__ void saxpy(int n, float a, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}
int main() {
  float *x, *y;
  cudaMallocManaged(&x, ${SAXPY_N} * sizeof(float));
  cudaMallocManaged(&y, ${SAXPY_N} * sizeof(float));
  for (int i = 0; i < ${SAXPY_N}; i++) { x[i] = 1.0f; y[i] = 2.0f; }
  saxpy<<<32, 256>>>(${SAXPY_N}, 2.0f, x, y);
  cudaDeviceSynchronize();
  for (int i = 0; i < ${SAXPY_N}; i++) if (y[i] != 4.0f) return 1;
  return 0;
}`;

export function weakMemoryMetrics(runs: number): Metric[] {
  const parsed = parse(SAXPY, { fileName: '/bench/saxpy.cu' });
  const time = (memoryModel: MemoryModelName): number => {
    const t0 = performance.now();
    const result = runProgram(parsed, { memoryModel });
    const ms = performance.now() - t0;
    if (result.findings.length || result.exitCode !== 0) throw new Error(`bench saxpy under ${memoryModel}: ${result.findings[0]?.message ?? `exit ${result.exitCode}`}`);
    return ms;
  };
  time('sc');
  time('gpu-weak');
  const sc: number[] = [];
  const weak: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < runs; r++) {
    sc.push(time('sc'));
    weak.push(time('gpu-weak'));
    ratios.push(weak[r] / sc[r]);
  }
  return [
    { name: 'sim.ms.saxpy.sc', value: +median(sc).toFixed(1), unit: 'ms' },
    { name: 'sim.ms.saxpy.gpu_weak', value: +median(weak).toFixed(1), unit: 'ms' },
    { name: 'sim.weak_over_sc.saxpy', value: +median(ratios).toFixed(2), unit: 'ratio' },
  ];
}
