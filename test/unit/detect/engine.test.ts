// `--engine scord|precise|both`: the happens-before engine against ScoRD on the whole labelled
// race suite (every difference listed with its reason, so a new one fails), the merged report of
// `both`, the command line and the editor setting.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkSource, type CheckFinding } from '../../../sims/check';
import { scord } from '../../../sims/cli';
import { PreciseDetector, type NoRaceReason } from '../../../sims/detect/precise';
import { ScordDetector } from '../../../sims/detect/scord';
import { type RaceFinding } from '../../../sims/detect/findings';
import { parse } from '../../../sims/frontend/index';
import { runProgram } from '../../../sims/host/run';
import { DEFAULT_SETTINGS } from '../../../server/protocol';
import { normalizeSettings } from '../../../server/settings';
import { analysisRequest } from '../../../server/analysis/scheduler';
import { applyEdits } from '../../../sims/fixes/apply';
import { judgeFix } from '../../../sims/fixes/verify';
import { loadRaceCases, RACES_DIR } from '../../support/raceCases';

const ROOT = path.resolve(__dirname, '..', '..', '..');
process.chdir(ROOT);

/**
 * `category a-b`, the lines of the pair smaller first (the engines may see it from either side).
 * A broken-lock finding sits at the lock's fence or unlock: its pair is the two data accesses.
 */
function key(f: RaceFinding): string {
  const [x, y] = f.lockFaults ? [f.current.range, f.earlier.range] : [f.range, f.previous];
  const a = x.start.line + 1;
  const b = y.start.line + 1;
  return `${f.category} ${Math.min(a, b)}-${Math.max(a, b)}`;
}

const pairOf = (k: string) => k.split(' ')[1];

interface Differences {
  /** ScoRD's races the PTX model does not call races, with the reason the engine gives. */
  scordOnly?: Record<string, NoRaceReason>;
  /** Races only the happens-before engine finds. */
  preciseOnly?: string[];
  /** The same pair, reported under another category: ScoRD's → the engine's. */
  category?: Record<string, string[]>;
}

/** A pair the happens-before engine has no reason for: it never compared the two accesses. */
const UNEXPLAINED = 'unexplained' as NoRaceReason;

// Every place where the two engines part on the labelled suite, and why.
const DIFFERENCES: Record<string, Differences> = {
  // The RACEY tree's lock word itself: atomicCAS_block and atomicExch_block of two blocks are
  // not morally strong, so the lock word races too (ScoRD takes lock words for synchronisation).
  'app_tree_insert.cu -DRACEY': { preciseOnly: ['lock-scope 26-26', 'lock-scope 26-40'] },
  'lock_block_scope_interblock.cu': { preciseOnly: ['lock-scope 10-18'] },
  'lock_block_scope_devfence_interblock.cu': { preciseOnly: ['lock-scope 11-19'] },
  'lock_block_scope_reader_interblock.cu': { preciseOnly: ['lock-scope 13-21'] },
  // Two blocks' atomicCAS_block that are no lock (no fence completes them): the engine names
  // any race on a word a block-scope CAS changed after the lock it usually is.
  'atomic_cas_block_rmw_interblock.cu': { category: { 'scoped-atomic 9-9': ['lock-scope'] } },
  // The clearing store outside the lock: when its block runs first, its own lock's release is
  // acquired by the other block's lock, which orders the store in this run (a lockset, ScoRD's
  // rule, does not depend on the run); when it runs last, the engine names the missing fence.
  'lock_unguarded_store_then_locked_block0_interblock.cu': { scordOnly: { 'missing-lock 15-19': UNEXPLAINED } },
  'lock_unguarded_store_then_locked_block1_interblock.cu': { category: { 'missing-lock 14-18': ['missing-device-fence'] } },
  // The flag is raised with a block-scope atomic, so the payload read in the other block is not
  // ordered after its write either; ScoRD reports only the flag.
  'atomic_block_flag_interblock.cu': { preciseOnly: ['missing-device-fence 12-19'] },
  // The flag is polled with a plain load, which acquires nothing in the PTX model, so the payload
  // read is unordered too; ScoRD's counters see the writer's fence and both payload accesses
  // strong, and report the poll.
  'atomic_flag_plain_poll_interblock.cu': { preciseOnly: ['missing-device-fence 15-22'] },
  'hrf_chain_block_flag_interblock.cu': { preciseOnly: ['missing-device-fence 14-28'] },
  // A __threadfence() and the flag order the block-scope atomic before the read in block 1:
  // the atomic's own scope then does not matter.
  'atomic_block_then_plain_interblock.cu': { scordOnly: { 'scoped-atomic 12-19': 'ordered' } },
  // ScoRD's rule (c): fences order only volatile or atomic accesses. Since PTX 6.0 the fence and
  // flag order the plain payload too.
  'fence_nonvolatile_interblock.cu': { scordOnly: { 'non-strong-access 12-20': 'ordered' } },
  'fence_nonvolatile_interwarp.cu': { scordOnly: { 'non-strong-access 12-20': 'ordered' } },
  'warp_diverged_nonstrong_racy.cu': { scordOnly: { 'non-strong-access 24-31': 'ordered' } },
  'intra_warp_neighbour_flag_nonstrong.cu': { scordOnly: { 'non-strong-access 11-18': 'ordered' } },
  // Block 1 reads the volatile data after it observed block 0's release through `go`: outside
  // the lock, but ordered for strong data; ScoRD's lockset check wants the lock around it.
  'lock_read_outside_interblock.cu': { scordOnly: { 'missing-lock 30-32': 'morally-strong' } },
  // No locksets: an unprotected critical section is a race for want of synchronisation of the
  // scope that spans the two threads.
  'lock_different_locks_interblock.cu': { category: { 'missing-lock 27-27': ['missing-device-fence'] } },
  'lock_one_side_interblock.cu': { category: { 'missing-lock 27-27': ['missing-device-fence'] } },
  'lock_different_locks_interwarp.cu': { category: { 'missing-lock 27-27': ['missing-block-fence'] } },
  'lock_one_side_interwarp.cu': { category: { 'missing-lock 27-27': ['missing-block-fence'] } },
  'lock_missing_one_side_interwarp.cu': { category: { 'missing-lock 15-21': ['missing-block-fence'] } },
  // An unlock with no fence before its atomicExch publishes nothing, and an atomicCAS no fence
  // of the lock's scope follows takes nothing: ScoRD names the lock's missing or narrow fence
  // (lock-release-fence, lock-fence-scope), the PTX model sees plain unordered accesses.
  'lock_unfenced_unlock_interblock.cu': { category: { 'lock-release-fence 26-26': ['missing-device-fence'] } },
  'lock_unfenced_unlock_first_interblock.cu': { category: { 'lock-release-fence 18-26': ['missing-device-fence'] } },
  'lock_unfenced_unlock_interwarp.cu': { category: { 'lock-release-fence 28-28': ['missing-block-fence'] } },
  'lock_nofence_interblock.cu': { category: { 'lock-fence-scope 27-27': ['missing-device-fence'] } },
  'lock_nofence_interwarp.cu': { category: { 'lock-fence-scope 27-27': ['missing-block-fence'] } },
  'lock_blockfence_devcas_interblock.cu': { category: { 'lock-fence-scope 28-28': ['missing-device-fence'] } },
  'lock_acquire_nofence_one_side_interblock.cu': { category: { 'lock-fence-scope 16-23': ['missing-device-fence'] } },
  'lock_exchange_unfenced_unlock_interblock.cu': { category: { 'lock-release-fence 16-16': ['missing-device-fence'] } },
  // Unlocked by a plain store: ScoRD names the unlock (lock-release-fence); the PTX model sees
  // the critical sections unordered, and the plain store racing with the next atomicCAS too.
  'lock_plain_store_unlock_interblock.cu': { category: { 'lock-release-fence 27-27': ['missing-device-fence'] }, preciseOnly: ['missing-device-fence 13-21'] },
  // A device-scope and a block-scope lock on one word in two blocks: the lock word's atomics are
  // not morally strong across blocks, and the critical sections are unordered plain accesses.
  'lock_device_and_block_interblock.cu': { category: { 'lock-scope 15-22': ['missing-device-fence'] }, preciseOnly: ['scoped-atomic 17-19'] },
  // A device-scope lock released with atomicExch_block: both engines report the release's scope
  // on the lock word; in the PTX model the narrow release also synchronises with no other
  // block, so the critical sections are unordered, where ScoRD's lockset holds the lock by
  // its device-scope acquire.
  'lock_block_scope_unlock_interblock.cu': { preciseOnly: ['missing-device-fence 26-26'] },
  // A test-and-set lock taken and released with atomicExch_block in four blocks: ScoRD names the
  // block-scope lock on the data (lock-scope) and pairs the blocks' acquiring exchanges on the
  // lock word; the PTX model sees unordered plain accesses, and pairs an acquiring exchange with
  // the other block's releasing one (the word's last write before it).
  'lock_exchange_block_scope_interblock.cu': { category: { 'lock-scope 17-17': ['missing-device-fence'] }, preciseOnly: ['scoped-atomic 14-19'], scordOnly: { 'scoped-atomic 14-14': UNEXPLAINED } },
  // HRF-indirect: block 1 polls the flag with an atomic and has no fence after it, so in the PTX
  // model nothing orders block 0's atomicExch before block 1's atomicExch_block (not morally
  // strong across blocks). ScoRD, like ScoR's norace_interwarp-block_fence-atom_hrd-indirect,
  // takes the device fence before the flag as ordering it.
  'atomic_block_after_device_chain_ok.cu': { preciseOnly: ['scoped-atomic 19-25'] },
  // The happens-before engine keeps one clock per warp until the warp diverges, so lanes of an
  // undiverged warp are in program order for it: intra-warp races are ScoRD's alone.
  'intra_warp_global_shift.cu': { scordOnly: { 'intra-warp 10-11': UNEXPLAINED } },
  'intra_warp_global_waw.cu': { scordOnly: { 'intra-warp 9-9': UNEXPLAINED } },
  'intra_warp_shared_shift.cu': { scordOnly: { 'intra-warp 12-13': UNEXPLAINED } },
  'intra_warp_shared_waw.cu': { scordOnly: { 'intra-warp 10-10': UNEXPLAINED } },
  // The happens-before engine does not look at values: a race of writes that store the value
  // already there keeps its category there.
  'benign_same_value_global.cu': { category: { 'benign-same-value 8-8': ['missing-block-fence', 'missing-device-fence'] } },
  'benign_same_value_hidden_ok.cu': { category: { 'benign-same-value 9-9': ['missing-block-fence', 'missing-device-fence'] } },
  // The lanes of warp 0 storing one value at once are in program order for the happens-before
  // engine (one clock per undiverged warp); the read of block 1 races with their write as above.
  'benign_same_value_read.cu': { scordOnly: { 'benign-same-value 15-15': UNEXPLAINED }, category: { 'benign-same-value 15-16': ['missing-device-fence'] } },
  'benign_same_value_shared.cu': { category: { 'benign-same-value 11-11': ['shared-memory'], 'benign-same-value 11-12': ['shared-memory'] } },
};

/** Both engines on one run of a labelled program. */
function bothEngines(text: string, file: string, defines: string[], model?: 'independent' | 'lockstep', warpSync?: boolean): { scord: ScordDetector; precise: PreciseDetector } {
  const parsed = parse(text, { fileName: file, defines });
  let s: ScordDetector | undefined;
  let p: PreciseDetector | undefined;
  const run = runProgram(parsed, {
    ...(model ? { model } : {}),
    listen: (memory) => {
      s = new ScordDetector(memory, { perThreadWhenDiverged: model !== 'lockstep', warpSync: !!warpSync });
      p = new PreciseDetector(memory, { perThreadWhenDiverged: model !== 'lockstep', explain: true });
      return (e) => {
        s!.listener(e);
        p!.listener(e);
      };
    },
  });
  assert.deepEqual(run.findings.map((f) => f.message), [], `${file} runs without faults`);
  return { scord: s!, precise: p! };
}

describe('the happens-before engine against ScoRD on the labelled race suite', () => {
  const variants = loadRaceCases().flatMap((c) => [{ c, defines: [] as string[] }, ...(c.expectRacey ? [{ c, defines: ['RACEY'] }] : [])]);
  const names = new Set(variants.map(({ c, defines }) => `${c.file}${defines.length ? ' -DRACEY' : ''}`));
  test('every listed difference names a program of the suite', () => {
    for (const name of Object.keys(DIFFERENCES)) assert.ok(names.has(name), name);
  });
  for (const { c, defines } of variants) {
    const name = `${c.file}${defines.length ? ' -DRACEY' : ''}`;
    test(name, () => {
      const { scord: s, precise: p } = bothEngines(c.text, path.join(RACES_DIR, c.file), defines, c.options.model, c.options.warpSync);
      const scordRaces = s.findings();
      const preciseRaces = p.findings();
      const preciseKeys = new Set(preciseRaces.map(key));
      const precisePairs = new Set(preciseRaces.map((f) => pairOf(key(f))));
      const found: Differences = {};
      for (const r of scordRaces) {
        const k = key(r);
        if (preciseKeys.has(k)) continue;
        if (!precisePairs.has(pairOf(k))) {
          (found.scordOnly ??= {})[k] = p.whyNoRace(r.range, r.previous) ?? UNEXPLAINED;
        } else {
          (found.category ??= {})[k] = [...new Set(preciseRaces.filter((f) => pairOf(key(f)) === pairOf(k)).map((f) => f.category))].sort();
        }
      }
      const scordPairs = new Set(scordRaces.map((f) => pairOf(key(f))));
      const extra = [...new Set(preciseRaces.map(key).filter((k) => !scordPairs.has(pairOf(k))))].sort();
      if (extra.length) found.preciseOnly = extra;
      assert.deepEqual(found, DIFFERENCES[name] ?? {});
    });
  }
});

/** A check of a snippet with the given engine. */
function check(text: string, engine: 'scord' | 'precise' | 'both'): CheckFinding[] {
  const report = checkSource({ fileName: '/virtual/main.cu', text, engine });
  assert.deepEqual(report.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message), []);
  return report.findings;
}

// Plain payload, __threadfence() on both sides: ScoRD's rule (c) reports it, the PTX model orders it.
const FENCED_PLAIN = `
__device__ int data;
__device__ volatile int flag;
__global__ void mp() {
  if (blockIdx.x == 0) {
    data = 42;
    __threadfence();
    atomicExch((int *)&flag, 1);
  } else {
    while (flag == 0) {}
    __threadfence();
    int v = data;
    (void)v;
  }
}
int main() { mp<<<2, 1>>>(); cudaDeviceSynchronize(); return 0; }`;

// Two readers in other blocks; block 2 hands over to block 0, which then writes x: block 1's
// read is unordered, and ScoRD, which compares a write with the last access only, misses it.
// Blocks 1, 2 and 3 read x one after another; block 3 then hands over to block 0, which writes
// x: ordered after block 3's read, not after block 1's. ScoRD keeps the last two readers of a
// word (the last read and another thread's before it), so block 1's read is one it no longer has.
const CONCURRENT_READS = `
__device__ int x;
__device__ volatile int flag;
__device__ volatile int started;
__global__ void k(int *out) {
  if (blockIdx.x == 1) {
    out[1] = x;
    atomicAdd((int *)&started, 1);
  } else if (blockIdx.x == 2) {
    while (started == 0) {}
    out[2] = x;
    atomicAdd((int *)&started, 1);
  } else if (blockIdx.x == 3) {
    while (started < 2) {}
    out[3] = x;
    __threadfence();
    atomicExch((int *)&flag, 1);
  } else {
    while (flag == 0) {}
    __threadfence();
    x = 7;
  }
}
int main() { int *d; cudaMalloc(&d, 16); k<<<4, 1>>>(d); cudaDeviceSynchronize(); return 0; }`;

describe('checks with --engine', () => {
  test('scord is the default and leaves the report as it was', () => {
    const report = checkSource({ fileName: '/virtual/main.cu', text: FENCED_PLAIN });
    assert.deepEqual(report.findings.map((f) => f.category), ['non-strong-access']);
    assert.equal(report.findings[0].engine, undefined);
    assert.equal(report.findings[0].note, undefined);
    assert.equal(report.stats.engine, undefined);
  });

  test('precise: no race where the fences order the plain payload', () => {
    assert.deepEqual(check(FENCED_PLAIN, 'precise'), []);
    assert.equal(checkSource({ fileName: '/virtual/main.cu', text: FENCED_PLAIN, engine: 'precise' }).stats.engine, 'precise');
  });

  test('both: a ScoRD-only race carries the PTX model\'s reason', () => {
    const [f] = check(FENCED_PLAIN, 'both');
    assert.equal(f.category, 'non-strong-access');
    assert.equal(f.engine, 'scord');
    assert.match(f.note!, /the PTX memory model orders these accesses/);
    assert.match(f.note!, /ScoRD still reports it because its rule \(c\) lets a fence order only volatile or atomic accesses/);
  });

  test('both: a race only the happens-before engine finds says so, and has fixes', () => {
    const scordOnly = check(CONCURRENT_READS, 'scord').map((f) => `${f.location.line}/${f.related[0].location.line}`);
    assert.ok(!scordOnly.includes('21/7') && !scordOnly.includes('7/21'), scordOnly.join(', '));
    const both = check(CONCURRENT_READS, 'both');
    const f = both.find((x) => x.location.line === 21 && x.related[0].location.line === 7);
    assert.ok(f, both.map((x) => `${x.category} ${x.location.line}/${x.related[0].location.line} ${x.engine}`).join('\n'));
    assert.equal(f.engine, 'precise');
    assert.equal(f.category, 'missing-device-fence');
    assert.match(f.message, /no release\/acquire or fence pair of device scope orders the read at line 7 before this write in another block/);
    assert.match(f.message, /— not detected by ScoRD's fence counters$/);
    assert.ok(f.fixes.length > 0, 'a fix is offered');
  });

  test('both: a pair both engines report is given once', async () => {
    const text = `
__device__ volatile int data;
__device__ volatile int flag;
__global__ void mp() {
  if (blockIdx.x == 0) { data = 42; __threadfence_block(); atomicExch((int *)&flag, 1); }
  else { while (flag == 0) {} __threadfence(); int v = data; (void)v; }
}
int main() { mp<<<2, 1>>>(); cudaDeviceSynchronize(); return 0; }`;
    const scordOnly = check(text, 'scord');
    const both = check(text, 'both');
    assert.deepEqual(both.map((f) => [f.category, f.location.line, f.engine]), scordOnly.map((f) => [f.category, f.location.line, 'both']));
    assert.deepEqual(both.map((f) => f.message), scordOnly.map((f) => f.message));
    // The engine alone says which fence is too narrow, and the fix widens it.
    const [p] = check(text, 'precise');
    assert.match(p.message, /the `__threadfence_block\(\)` at line 5 orders only within its block; use `__threadfence\(\)`/);
    assert.ok(p.fixes.some((x) => x.edits.some((e) => e.newText === '__threadfence')), p.fixes.map((x) => x.title).join('; '));
  });
});

interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

async function cli(...args: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const status = await scord(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { status, stdout, stderr };
}

describe('fixes for the engine\'s findings', () => {
  // A fix the engine's own re-run accepts: the race is gone and nothing new appears.
  const fixedUnderPrecise = (file: string) => {
    const text = readRace(file);
    const run = (t: string) => checkSource({ fileName: file, text: t, engine: 'precise' });
    const before = run(text);
    assert.ok(before.findings.length > 0, `${file} has races`);
    return before.findings.map((f) => {
      const fix = f.fixes.find((x) => x.preferred);
      assert.ok(fix, `${f.category} at line ${f.location.line} has a preferred fix`);
      return judgeFix(before, f, fix.edits, run(applyEdits(text, fix.edits))).ok;
    });
  };

  test('widening a block-scope atomic removes the scoped race', () => {
    assert.deepEqual(fixedUnderPrecise('atomic_block_counter_interblock.cu'), [true]);
  });

  test('widening the narrow fence the message names removes the race', () => {
    assert.deepEqual(fixedUnderPrecise('hrf_chain_block_fence_interblock.cu'), [true]);
  });
});

function readRace(file: string): string {
  return fs.readFileSync(path.join(RACES_DIR, file), 'utf8');
}

describe('scord check --engine', () => {
  const fixture = path.join('test', 'fixtures', 'races', 'fence_nonvolatile_interblock.cu');

  test('an unknown engine is a usage error (exit 2)', async () => {
    const r = (await cli('check', fixture, '--engine', 'hb'));
    assert.equal(r.status, 2);
    assert.match(r.stderr, /unknown engine 'hb'; choose scord, precise or both/);
    assert.equal((await cli('check', fixture, '--engine')).status, 2);
  });

  test('the usage text names the option', async () => {
    assert.match((await cli('--help')).stdout, /--engine scord\|precise\|both/);
  });

  test('precise: exit 0 where only ScoRD\'s rule (c) fires; scord: exit 1', async () => {
    assert.equal((await cli('check', fixture)).status, 1);
    const r = (await cli('check', fixture, '--engine=precise'));
    assert.equal(r.status, 0, r.stdout);
    assert.match(r.stdout, /0 findings in/);
  });

  test('both, text: the note follows the finding', async () => {
    const r = (await cli('check', fixture, '--engine', 'both'));
    assert.equal(r.status, 1);
    assert.match(r.stdout, /fence_nonvolatile_interblock\.cu:20:\d+: warning: .*\[scord\/non-strong-access\]\n.*note: the .* that it races with\n.*fence_nonvolatile_interblock\.cu:20:\d+: note: the PTX memory model orders these accesses/);
  });

  test('both, JSON: engine and note fields, stats name the engine', async () => {
    const r = (await cli('check', fixture, '--engine', 'both', '--format', 'json'));
    const data = JSON.parse(r.stdout);
    assert.equal(data.stats.engine, 'both');
    assert.equal(data.findings[0].engine, 'scord');
    assert.match(data.findings[0].note, /PTX memory model/);
    // The default keeps the JSON as it was.
    assert.equal(JSON.parse((await cli('check', fixture, '--format', 'json')).stdout).stats.engine, undefined);
  });

  test('precise finds the masking-fence race ScoRD misses', async () => {
    const file = path.join('test', 'fixtures', 'ordered', 'late_fence_masks_interblock.cu');
    assert.equal((await cli('check', file)).status, 0);
    const r = (await cli('check', file, '--engine', 'precise'));
    assert.equal(r.status, 1);
    assert.match(r.stdout, /late_fence_masks_interblock\.cu:29:\d+: warning: read of `data` in block 1 races with the write at line 14 in block 0/);
  });
});

describe('the scord.engine setting', () => {
  test('is read from the client, a wrong value falling back to scord', () => {
    assert.equal(DEFAULT_SETTINGS.engine, 'scord');
    assert.equal(normalizeSettings({ engine: 'both' }).engine, 'both');
    assert.equal(normalizeSettings({ engine: 'fast' }).engine, 'scord');
  });

  test('reaches the analysis worker with the run options', () => {
    const req = analysisRequest('file:///w/a.cu', 'int main() { return 0; }', normalizeSettings({ engine: 'precise' }), [], {}, false);
    assert.equal(req.options.engine, 'precise');
  });
});
