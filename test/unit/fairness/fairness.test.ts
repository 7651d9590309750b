// Scheduler fairness (Sorensen, Evrard and Donaldson, "GPU schedulers: how fair is fair
// enough?", CONCUR 2018): Table 2 and Figure 1 reproduced on CUDA versions of the idioms in
// test/fixtures/fairness. Each program runs under each scheduler; the search must find a
// schedule that never ends exactly where the paper says the idiom may starve, and report
// who spins where, on what, and why the scheduler need not run the block that would end it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkSource, type CheckFinding } from '../../../sims/check';
import { scord } from '../../../sims/cli';
import { guaranteedBlocks, mayStart } from '../../../sims/fairness/fairness';
import { atLeastAsFair, joinFairness, type Fairness } from '../../../sims/idioms/schedulers';
import { normalizeSettings } from '../../../server/settings';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const FIXTURES = 'test/fixtures/fairness';
const SCHEDULERS: Fairness[] = ['fair', 'hsa', 'obe', 'hsa+obe', 'lobe', 'unfair'];

/**
 * Where each idiom is guaranteed to terminate: Table 2 (barrier, mutex, PC; "occupancy-limited"
 * and "one-way" read as the paper's §1.1 explains them) and Figure 1 (HSA+OBE and LOBE, the
 * discovery-protocol barriers, one-way PC with a mutex). Written out, not derived.
 */
const TERMINATES: Record<string, Fairness[]> = {
  spin_lock: ['fair', 'obe', 'hsa+obe', 'lobe'],
  one_way_pc: ['fair', 'hsa', 'hsa+obe', 'lobe'],
  two_way_pc: ['fair'],
  grid_barrier: ['fair'],
  discovery_barrier: ['fair', 'obe', 'hsa+obe', 'lobe'],
  lobe_discovery_barrier: ['fair', 'lobe'],
  mutex_one_way_pc: ['fair', 'hsa+obe', 'lobe'],
};

/** The lines of each fixture's wait loops (where a starving block can spin). */
const SPIN_LINES: Record<string, number[]> = {
  spin_lock: [13],
  one_way_pc: [16],
  two_way_pc: [15],
  grid_barrier: [14],
  discovery_barrier: [16, 53],
  lobe_discovery_barrier: [16, 51],
  mutex_one_way_pc: [14, 21],
};

/** Why the scheduler need not run the block that would end the wait, per scheduler. */
const REASONS: Record<Exclude<Fairness, 'fair'>, RegExp> = {
  hsa: /under HSA only the lowest-id unfinished block, \d+, is guaranteed to run$/,
  obe: /(has|have) not started, and under OBE only blocks that have started are guaranteed to run$/,
  'hsa+obe': /under HSA\+OBE only blocks that have started and the lowest-id unfinished block, \d+, are guaranteed to run$/,
  lobe: /under LOBE only blocks up to the highest started id, \d+, are guaranteed to run$/,
  unfair: /but an unfair scheduler need not run any other block$/,
};

const NAMES: Record<Fairness, string> = { fair: 'fair', hsa: 'an HSA', obe: 'an OBE', 'hsa+obe': 'an HSA+OBE', lobe: 'a LOBE', unfair: 'an unfair' };

function fixture(name: string): { fileName: string; text: string } {
  const fileName = `${FIXTURES}/${name}.cu`;
  return { fileName, text: fs.readFileSync(path.join(ROOT, fileName), 'utf8') };
}

function check(name: string, fairness: Fairness, seed?: number): { deadlocks: CheckFinding[]; others: CheckFinding[]; output: string; steps: number } {
  const r = checkSource({ ...fixture(name), fairness, detect: false, ...(seed !== undefined ? { seed } : {}) });
  assert.equal(r.analysed, true, `${name} is analysed`);
  return { deadlocks: r.findings.filter((f) => f.kind === 'deadlock'), others: r.findings.filter((f) => f.kind !== 'deadlock'), output: r.output, steps: r.stats.steps };
}

for (const [name, terminates] of Object.entries(TERMINATES)) {
  test(`Table 2 / Figure 1: ${name} terminates under ${terminates.join(', ')} and may hang under the others`, () => {
    const kernel = /__global__ void (\w+)/.exec(fixture(name).text)![1];
    const fair = check(name, 'fair');
    assert.deepEqual(fair.deadlocks, [], 'the fair run finishes');
    assert.deepEqual(fair.others, [], 'the fixture is otherwise clean');
    for (const s of SCHEDULERS) {
      const r = check(name, s);
      if (terminates.includes(s)) {
        assert.deepEqual(r.deadlocks.map((f) => f.message), [], `${name} under ${s}: no schedule may hang`);
        continue;
      }
      assert.equal(r.deadlocks.length, 1, `${name} under ${s}: a schedule that never ends`);
      const f = r.deadlocks[0];
      assert.equal(f.severity, 'error');
      assert.equal(f.category, 'deadlock');
      assert.ok(SPIN_LINES[name].includes(f.location.line), `${name} under ${s}: at a wait loop, not line ${f.location.line}`);
      assert.match(f.message, new RegExp(`^under ${NAMES[s].replace('+', '\\+')} scheduler the launch of ${kernel} can hang: blocks? [\\d, and]+ spins? at line ${f.location.line} waiting for `));
      assert.match(f.message, REASONS[s as Exclude<Fairness, 'fair'>], `${name} under ${s}: the reason`);
      // The search leaves memory as it found it: the program's own run is the fair one.
      assert.equal(r.output, fair.output, `${name} under ${s}: same output`);
      assert.equal(r.steps, fair.steps, `${name} under ${s}: same run`);
    }
  });
}

test('a spin lock under HSA: block 0 waits for the lock that block 1 holds', () => {
  const [f] = check('spin_lock', 'hsa').deadlocks;
  assert.equal(f.message, 'under an HSA scheduler the launch of critical can hang: block 0 spins at line 13 waiting for lock == 0; block 1 holds the lock (it last wrote lock at line 13) but under HSA only the lowest-id unfinished block, 0, is guaranteed to run');
  assert.deepEqual([f.location.line, f.location.column], [13, 16], 'at the atomicCAS of the acquire loop');
});

test('a grid barrier under LOBE: only block 0 has started, so block 1 need never run', () => {
  const [f] = check('grid_barrier', 'lobe').deadlocks;
  assert.equal(f.message, 'under a LOBE scheduler the launch of phases can hang: block 0 spins at line 14 waiting for arrived >= gridDim.x (it keeps reading 1); block 1 could change arrived but under LOBE only blocks up to the highest started id, 0, are guaranteed to run');
});

test('the LOBE-optimised discovery barrier under HSA+OBE: blocks 0 and 2 wait for block 1, which never starts (Example 6)', () => {
  const [f] = check('lobe_discovery_barrier', 'hsa+obe').deadlocks;
  assert.equal(f.message, 'under an HSA+OBE scheduler the launch of persistent can hang: blocks 0 and 2 spin at line 51 waiting for arrived >= n (it keeps reading 2); block 1 could change arrived but has not started, and under HSA+OBE only blocks that have started and the lowest-id unfinished block, 0, are guaranteed to run');
});

test('a one-way chain under OBE: a consumer spins on the flag of a producer that has not started', () => {
  const [f] = check('one_way_pc', 'obe').deadlocks;
  const m = /block (\d) spins at line 16 waiting for flags\[(\d)\] != 0; (.*)$/.exec(f.message);
  assert.ok(m, f.message);
  assert.equal(Number(m[2]), Number(m[1]) - 1, 'it waits on the block before it');
  const starved = /^blocks? ([\d, and]+) could change flags\[\d\] but (has|have) not started/.exec(m[3]);
  assert.ok(starved, m[3]);
  assert.ok(starved[1].split(/, | and /).includes(m[2]), 'the producer is among the blocks that never ran');
  assert.deepEqual(f.location, { file: `${FIXTURES}/one_way_pc.cu`, line: 16, column: 20, endLine: 16, endColumn: 32 });
});

test('the same seed gives the same schedule and report; each seed finds every hang of the table', () => {
  const a = check('mutex_one_way_pc', 'obe', 7).deadlocks.map((f) => f.message);
  const b = check('mutex_one_way_pc', 'obe', 7).deadlocks.map((f) => f.message);
  assert.deepEqual(a, b);
  for (const seed of [2, 3, 4]) {
    for (const [name, s] of [['spin_lock', 'hsa'], ['one_way_pc', 'unfair'], ['mutex_one_way_pc', 'hsa'], ['lobe_discovery_barrier', 'hsa+obe']] as const) {
      assert.equal(check(name, s, seed).deadlocks.length, 1, `${name} under ${s}, seed ${seed}`);
    }
  }
});

test('a wait whose state never repeats proves nothing: no finding, and the search stops at its budget', () => {
  // Block 1 counts its polls, so no two states of its wait are alike; under OBE the search
  // cannot close a cycle and must not claim a hang.
  const text = `__device__ volatile int flag = 0;
__device__ int polls[2];
__global__ void counted()
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        flag = 1;
    } else {
        int n = 0;
        while (flag == 0)
            n++;
        polls[1] = n;
    }
}
int main() { counted<<<2, 1>>>(); cudaDeviceSynchronize(); return 0; }
`;
  const r = checkSource({ fileName: 'counted.cu', text, fairness: 'obe', detect: false });
  assert.deepEqual(r.findings, []);
  // Without the counter the same wait repeats its state, and the hang is proven.
  const plain = checkSource({ fileName: 'plain.cu', text: text.replace('n++;', ';'), fairness: 'obe', detect: false });
  assert.deepEqual(plain.findings.map((f) => f.kind), ['deadlock']);
  assert.match(plain.findings[0].message, /block 1 spins at line 10 waiting for flag != 0; block 0 could change flag but has not started/);
});

test('kernels that never wait on memory are not searched, and the fair default searches nothing', () => {
  const text = `__global__ void saxpy(float *y, const float *x, float a, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = a * x[i] + y[i];
}
int main() { float *x, *y; cudaMalloc(&x, 4096); cudaMalloc(&y, 4096); saxpy<<<4, 64>>>(y, x, 2.0f, 1024); cudaDeviceSynchronize(); return 0; }
`;
  for (const s of SCHEDULERS) assert.deepEqual(checkSource({ fileName: 'saxpy.cu', text, fairness: s, detect: false }).findings, [], s);
});

test('the thread fairness criteria of §3 and §5, on one state', () => {
  // Four blocks: 0 finished, 2 started, 1 and 3 not started.
  const started = Uint8Array.from([1, 0, 1, 0]);
  const finished = Uint8Array.from([1, 0, 0, 0]);
  const g = (s: Fairness): number[] => guaranteedBlocks(s, 4, started, finished);
  assert.deepEqual(g('fair'), [1, 2, 3]);
  assert.deepEqual(g('obe'), [2], 'OBE: the blocks that executed a step');
  assert.deepEqual(g('hsa'), [1], 'HSA: the lowest-id unfinished block');
  assert.deepEqual(g('hsa+obe'), [1, 2]);
  assert.deepEqual(g('lobe'), [1, 2], 'LOBE: every block up to the highest started id');
  assert.deepEqual(g('unfair'), []);
  // LOBE starts blocks in id order; the others in any order.
  assert.equal(mayStart('lobe', 3, started), false);
  assert.equal(mayStart('lobe', 1, started), true);
  assert.equal(mayStart('obe', 3, started), true);
  assert.equal(mayStart('hsa', 3, started), true);
});

test('Figure 1: HSA and OBE are incomparable, their join is HSA+OBE, below LOBE and fair', async () => {
  assert.equal(atLeastAsFair('hsa', 'obe'), false);
  assert.equal(atLeastAsFair('obe', 'hsa'), false);
  assert.equal(joinFairness('hsa', 'obe'), 'hsa+obe');
  assert.equal(joinFairness('obe', 'lobe'), 'lobe');
  assert.equal(joinFairness('unfair', 'hsa'), 'hsa');
  for (const s of SCHEDULERS) {
    assert.ok(atLeastAsFair('fair', s), `fair ≥ ${s}`);
    assert.ok(atLeastAsFair(s, 'unfair'), `${s} ≥ unfair`);
  }
  assert.ok(atLeastAsFair('lobe', 'hsa+obe') && !atLeastAsFair('hsa+obe', 'lobe'));
  assert.ok(atLeastAsFair('hsa+obe', 'hsa') && atLeastAsFair('hsa+obe', 'obe'));
});

async function cli(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    const status = await scord(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
    return { status, stdout, stderr };
  } finally {
    process.chdir(cwd);
  }
}

test('scord check --fairness: exit 1 with the deadlock like a compiler error; a bad value exits 2', async () => {
  const file = `${FIXTURES}/spin_lock.cu`;
  const hsa = (await cli('check', file, '--fairness', 'hsa'));
  assert.equal(hsa.status, 1, hsa.stderr);
  assert.equal(
    hsa.stdout,
    `${file}:13:16: error: under an HSA scheduler the launch of critical can hang: block 0 spins at line 13 waiting for lock == 0; block 1 holds the lock (it last wrote lock at line 13) but under HSA only the lowest-id unfinished block, 0, is guaranteed to run [scord/deadlock]\n1 finding in ${file}\n`,
  );
  const obe = (await cli('check', file, '--fairness=obe'));
  assert.equal(obe.status, 0, obe.stdout);
  assert.equal(obe.stdout, `0 findings in ${file}\n`);
  const json = (await cli('check', `${FIXTURES}/two_way_pc.cu`, '--fairness', 'hsa+obe', '--format', 'json'));
  assert.equal(json.status, 1);
  const report = JSON.parse(json.stdout);
  assert.deepEqual(report.findings.map((f: CheckFinding) => [f.kind, f.severity, f.location.line]), [['deadlock', 'error', 15]]);
  const bad = (await cli('check', file, '--fairness', 'sideways'));
  assert.equal(bad.status, 2);
  assert.equal(bad.stdout, '');
  assert.equal(bad.stderr, "scord: unknown fairness 'sideways'; choose fair, obe, hsa, hsa+obe, lobe, unfair\n");
  const missing = (await cli('check', file, '--fairness'));
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /^scord: --fairness needs a value/);
  // `scord run` takes it too: the program's output, then the deadlock with the spinning thread.
  const run = (await cli('run', `${FIXTURES}/one_way_pc.cu`, '--fairness', 'unfair'));
  assert.equal(run.status, 1);
  assert.equal(run.stdout, 'sums = 0 1 3\n');
  assert.match(run.stderr, /one_way_pc\.cu:16:20: error: deadlock: under an unfair scheduler the launch of chain can hang: .* \[block \(\d, 0, 0\), thread \(0, 0, 0\)\]\n/);
});

test('the editor setting scord.fairness is read and checked like the others', () => {
  assert.equal(normalizeSettings({ fairness: 'hsa+obe' }).fairness, 'hsa+obe');
  assert.equal(normalizeSettings({ fairness: 'mostly' }).fairness, 'fair');
  assert.equal(normalizeSettings({}).fairness, 'fair');
});
