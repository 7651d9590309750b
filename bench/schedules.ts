// Schedules on worker threads: `scord check --schedules 8` with --jobs 2 beside --jobs 1, the
// built CLI run as a user runs it, interleaved so that the machine's drift falls on both. The
// two reports must be the same (the merge does not depend on the threads); the ratio is the
// median of the runs' ratios. The program is a kernel of register arithmetic with a race, sized
// so that each schedule costs a few hundred milliseconds of simulation on compiled blocks: a
// schedule much cheaper than starting a worker thread would measure the start, not the work.
import { performance } from 'node:perf_hooks';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Metric } from './simulator';

const PROGRAM = `__global__ void work(int *out, int *flag) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int a = t, b = 7;
  for (int i = 0; i < 20000; i++) { a = a * 3 + b; b = (b ^ a) + i; }
  out[t] = a + b;
  if (threadIdx.x == 0) flag[blockIdx.x % 4] = a;
}
int main() {
  int *out, *flag;
  cudaMalloc(&out, 4096 * sizeof(int));
  cudaMalloc(&flag, 4 * sizeof(int));
  work<<<16, 256>>>(out, flag);
  cudaDeviceSynchronize();
  return 0;
}
`;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

export function scheduleMetrics(runs: number): Metric[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-bench-schedules-'));
  const file = path.join(dir, 'work.cu');
  fs.writeFileSync(file, PROGRAM);
  const cli = path.resolve(process.cwd(), 'dist', 'cli.js');
  const check = (jobs: number): { ms: number; report: string } => {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [cli, 'check', file, '--schedules', '8', '--jobs', String(jobs), '--format', 'json'], { encoding: 'utf8', maxBuffer: 16 << 20 });
    const ms = performance.now() - t0;
    // Exit 1 is also what Node gives a script that crashed: the report must name the race.
    const found = r.status === 1 && (JSON.parse(r.stdout || '{}') as { findings?: { kind: string }[] }).findings?.some((f) => f.kind === 'race');
    if (!found) throw new Error(`bench schedules: scord check --jobs ${jobs} exited ${r.status} without reporting the race: ${r.stderr}`);
    return { ms, report: r.stdout };
  };
  try {
    const one: number[] = [];
    const two: number[] = [];
    const ratios: number[] = [];
    for (let i = 0; i < runs; i++) {
      const a = check(1);
      const b = check(2);
      if (a.report !== b.report) throw new Error('bench schedules: --jobs 2 reported otherwise than --jobs 1');
      one.push(a.ms);
      two.push(b.ms);
      ratios.push(b.ms / a.ms);
    }
    return [
      { name: 'check.schedules8_ms.jobs1', value: +median(one).toFixed(0), unit: 'ms' },
      { name: 'check.schedules8_ms.jobs2', value: +median(two).toFixed(0), unit: 'ms' },
      { name: 'check.schedules8.jobs2_over_jobs1', value: +median(ratios).toFixed(2), unit: 'ratio' },
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
