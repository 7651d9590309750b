// A check of several schedules is its schedules' checks merged in seed order: the first
// schedule's report, then each later one's new races (one pair of accesses is one race in
// either order) and new other findings, with every schedule's steps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSource, type CheckFinding, type CheckReport } from '../../../sims/check';
import { mergeScheduleReports, scheduleOptions } from '../../../sims/checkSchedules';

const loc = (line: number) => ({ file: 'a.cu', line, column: 1, endLine: line, endColumn: 2 });
const race = (category: string, line: number, other: number, count = 1): CheckFinding => ({
  kind: 'race', category, scope: null, severity: 'warning', message: `${category} ${line}/${other}`, location: loc(line), related: [{ location: loc(other), message: 'other' }], count, fixes: [],
});
const fault = (line: number): CheckFinding => ({ kind: 'out-of-bounds', category: 'out-of-bounds', scope: null, severity: 'error', message: `fault ${line}`, location: loc(line), related: [], count: 1, fixes: [] });
const report = (findings: CheckFinding[], steps: number, output: string): CheckReport => ({
  file: 'a.cu', analysed: true, findings, diagnostics: [], output,
  stats: { launches: 1, steps, device: 'scord-paper', detection: 'exact', granularity: 4, schedules: 1, exitCode: 0 },
});

test('schedule k runs the random scheduler with seed first + k, one schedule at a time', () => {
  assert.deepEqual(scheduleOptions({ seed: 5, schedules: 8, scheduler: 'round-robin' as const }, 3), { seed: 8, schedules: 1, scheduler: 'random' });
  assert.equal(scheduleOptions<{ schedules: number; seed?: number }>({ schedules: 2 }, 0).seed, 1);
});

test('merged in seed order: the first report, then new races (either order of the pair) and new other findings', () => {
  const merged = mergeScheduleReports([
    report([race('missing-device-fence', 3, 7, 5)], 100, 'first\n'),
    report([race('missing-device-fence', 7, 3, 9), race('scoped-atomic', 4, 4), fault(9)], 200, 'second\n'),
    report([race('scoped-atomic', 4, 4, 2), fault(9), fault(10)], 300, 'third\n'),
  ]);
  assert.deepEqual(merged.findings.map((f) => f.message), ['missing-device-fence 3/7', 'scoped-atomic 4/4', 'fault 9', 'fault 10']);
  assert.equal(merged.findings[0].count, 5, 'a race keeps the report of the first schedule that found it');
  assert.equal(merged.output, 'first\n');
  assert.equal(merged.stats.schedules, 3);
  assert.equal(merged.stats.steps, 600);
});

test('real schedules merge to their races, and merge alike after crossing a thread (structured clones)', () => {
  const text = `__global__ void k(int *x) { if (threadIdx.x == 0) x[blockIdx.x % 2] = blockIdx.x; }
int main() { int *x; cudaMalloc(&x, 8); k<<<4, 32>>>(x); cudaDeviceSynchronize(); return 0; }`;
  const options = { fileName: 'k.cu', text, readFile: () => undefined, schedules: 3, seed: 2 };
  const reports = [0, 1, 2].map((k) => checkSource(scheduleOptions(options, k)));
  const merged = mergeScheduleReports(reports);
  assert.ok(merged.findings.some((f) => f.category === 'missing-device-fence'));
  assert.deepEqual(mergeScheduleReports(reports.map((r) => structuredClone(r))), merged, 'the reports as threads post them (structured clones) merge alike');
});
