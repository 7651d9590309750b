// How the ScoRD detector reports: one finding per pair of instructions and category (counted
// when it recurs), a benign same-value race or a broken lock named for what it is, the metadata
// entry as it was at the race, and locks and addresses by the names the program gives them.
import type { Range } from '../frontend/source';
import { nameAddress } from '../gpu/lvalue';
import type { Memory } from '../gpu/memory';
import type { SimEvent } from '../ir/ir';
import { accessName, accessorName, atomicName, PairIndex, type AccessSummary, type Accessor, type HeldLock, type LockFault, type LockSites, type MetadataSnapshot, type OrderHint, type RaceCategory, type RaceFinding } from './findings';
import { brokenLockMessage, raceMessage } from './scordMessages';
import type { AccessRecord, LockEntry } from './scordRecords';

type Access = Extract<SimEvent, { kind: 'access' }>;

/**
 * Races that a lock both sides take would have prevented had its fences been right: a missing
 * lock, or the fence rules the accesses fell back to because neither held it.
 */
const BROKEN_LOCK_CAN_REPLACE: ReadonlySet<RaceCategory> = new Set(['missing-lock', 'missing-block-fence', 'missing-device-fence', 'non-strong-access']);

/**
 * Races whose writes leave the word as it was become `benign-same-value` (every thread storing
 * the same value): the race categories of unordered plain accesses, not those of scopes.
 */
const BENIGN_CAN_REPLACE: ReadonlySet<RaceCategory> = new Set(['missing-block-fence', 'missing-device-fence', 'non-strong-access', 'missing-lock', 'shared-memory', 'intra-warp']);

export class ScordReporter {
  readonly found = new PairIndex();

  constructor(
    private readonly memory: Memory,
    /** Bytes per metadata entry: a lock key names a word of this size. */
    private readonly granularity: number,
    /** A thread's fence IDs now. */
    private readonly fenceIds: (block: number, warp: number, lane: number) => { blk: number; dev: number },
    /** A block's barrier ID now. */
    private readonly barrierId: (block: number) => number,
  ) {}

  report(category: RaceCategory, scope: 'block' | 'device', md: AccessRecord, rec: AccessRecord, e: Access, lockPlaces?: LockSites | (() => LockSites), narrowFence?: Range, orderHint?: OrderHint): void {
    if (BENIGN_CAN_REPLACE.has(category) && !md.isAtom && !rec.isAtom && sameValue(md, rec)) category = 'benign-same-value';
    // Both sides take one lock, but a fence it needs is missing or too narrow on one of them:
    // the fault is that fence (or its absence), not the data access.
    if (BROKEN_LOCK_CAN_REPLACE.has(category) && (md.pendingLock || rec.pendingLock || md.lostLock || rec.lostLock)) {
      const faults = lockFaults(md, rec);
      if (faults) {
        this.reportBrokenLock(faults, scope, md, rec, e);
        return;
      }
    }
    if (this.found.recount(category, e.range, md.range, e, md)) return;
    const blockLock = typeof lockPlaces === 'function' ? lockPlaces() : lockPlaces;
    const write = rec.write;
    const earlier: AccessSummary = {
      range: md.range, write: md.write, strong: md.strong,
      ...(md.isAtom && md.atomic ? { atomic: md.atomic } : {}),
      ...(md.order !== undefined ? { order: { order: md.order, scope: md.orderScope ?? 'device' } } : {}),
    };
    this.add(category, scope, e, write, earlier, { block: md.block, warp: md.warp, lane: md.lane }, 'global', category === 'benign-same-value' ? (rec.write ? rec.value : md.value) : undefined, !!blockLock?.exchange, {
      ...(narrowFence ? { narrowFence } : {}),
      ...(orderHint ? { orderHint } : {}),
      ...(blockLock ? { lockAcquires: blockLock.acquires, ...(blockLock.releases.length ? { lockReleases: blockLock.releases } : {}) } : {}),
      ...(category === 'missing-lock' && (md.heldBy?.length || rec.heldBy?.length) ? { heldLocks: { current: lockSites(rec), earlier: lockSites(md) } } : {}),
      metadata: this.snapshot(md, e),
    });
  }

  /**
   * A race between accesses that both meant to hold one lock: reported once per broken lock,
   * at the fence (or the atomicCAS that no fence followed) or at the unlock, with the atomicCAS
   * and the two accesses as related locations.
   */
  private reportBrokenLock(faults: LockFault[], scope: 'block' | 'device', md: AccessRecord, rec: AccessRecord, e: Access): void {
    const first = faults[0];
    const category: RaceCategory = first.kind === 'acquire' ? 'lock-fence-scope' : 'lock-release-fence';
    const at = first.kind === 'acquire' ? (first.fence ?? first.acquire) : first.release!;
    if (this.found.recount(category, at, first.acquire, e, md)) return;
    const earlier: AccessSummary = {
      range: md.range, write: md.write, strong: md.strong,
      ...(md.isAtom && md.atomic ? { atomic: md.atomic } : {}),
    };
    const current: AccessSummary = { range: e.range, write: rec.write, strong: e.strong, ...(e.atomic ? { atomic: e.atomic } : {}) };
    const me: Accessor = { block: e.block, warp: e.warp, lane: e.lane };
    const them: Accessor = { block: md.block, warp: md.warp, lane: md.lane };
    const address = nameAddress(this.memory, e.address, e.size);
    const of = address ? ` of \`${address}\`` : '';
    this.found.add({
      kind: 'race',
      category,
      scope,
      message: brokenLockMessage(faults, current, earlier, me, them, address),
      previousMessage: `the lock is taken here (\`${atomicName({ op: first.exchange ? 'Exch' : 'CAS', scope: first.scope })}\`, ${first.scope} scope)`,
      range: at,
      previous: first.acquire,
      current,
      earlier,
      accessor: me,
      previousAccessor: them,
      ...(address ? { address } : {}),
      space: 'global',
      lockFaults: faults,
      also: [
        { range: e.range, message: `the ${accessName(current)}${of} ${accessorName(me, them)}` },
        { range: md.range, message: `the ${accessName(earlier)}${of} ${accessorName(them, me)} that it races with` },
        ...faults.slice(1).map((f) => ({ range: f.kind === 'acquire' ? (f.fence ?? f.acquire) : f.release!, message: f.kind === 'acquire' ? 'this acquire needs a fence of the lock\'s scope too' : 'this unlock needs a fence of the lock\'s scope before it too' })),
      ],
      metadata: this.snapshot(md, e),
      count: 1,
    });
  }

  /** A new finding: the racing access `e` and the earlier access it races with. */
  private add(category: RaceCategory, scope: 'block' | 'device', e: Access, write: boolean, earlier: AccessSummary, them: Accessor, space: RaceFinding['space'], value: number | undefined, lockByExchange: boolean, extra: Partial<RaceFinding>): void {
    const address = nameAddress(this.memory, e.address, e.size);
    const current: AccessSummary = {
      range: e.range, write, strong: e.strong,
      ...(e.atomic ? { atomic: e.atomic } : {}),
      ...(e.order !== undefined ? { order: { order: e.order, scope: e.orderScope ?? e.atomic?.scope ?? 'device' } } : {}),
      ...(value !== undefined ? { value } : {}),
    };
    const me: Accessor = { block: e.block, warp: e.warp, lane: e.lane };
    this.found.add({
      kind: 'race',
      category,
      scope,
      message: raceMessage(category, current, earlier, me, them, address, extra.narrowFence, extra.orderHint, extra.heldLocks, lockByExchange),
      previousMessage: `the ${accessName(earlier)}${address ? ` of \`${address}\`` : ''} ${accessorName(them, me)} that it races with`,
      range: e.range,
      previous: earlier.range,
      current,
      earlier,
      accessor: me,
      previousAccessor: them,
      ...(address ? { address } : {}),
      space,
      ...extra,
      count: 1,
    });
  }

  private snapshot(md: AccessRecord, e: Access): MetadataSnapshot {
    const f = this.fenceIds(md.block, md.warp, md.lane);
    return {
      accessor: { block: md.block, warp: md.warp, lane: md.lane },
      barrierId: md.barrier,
      blockFenceId: md.blkFence,
      deviceFenceId: md.devFence,
      write: md.write,
      atomic: md.atomic && md.isAtom ? atomicName(md.atomic) : null,
      strong: md.strong,
      locks: this.lockNames(md.locks),
      fenceFileNow: { blockFenceId: f.blk, deviceFenceId: f.dev },
      barrierIdNow: this.barrierId(e.block),
    };
  }

  /** A lockset as names; a hardware-faithful Bloom filter as its bits. */
  lockNames(locks: Set<string> | number): string[] {
    if (typeof locks === 'number') return locks ? [`bloom 0x${locks.toString(16).padStart(8, '0')}`] : [];
    return [...locks].map((k) => this.lockName(k));
  }

  /** `mutex`, or `mutex (block 0)` for a block-scope lock. */
  lockName(key: string): string {
    const [word, block] = key.split('@');
    const name = nameAddress(this.memory, Number(word) * this.granularity) ?? `the lock at word ${word}`;
    return block === undefined ? name : `${name} (block ${block})`;
  }

  /** A race of the access `e` with an earlier one of block scope, given by its summary (shared memory, lanes of one store). */
  reportPair(e: Access, write: boolean, earlier: { summary: AccessSummary; who: Accessor }, category: RaceCategory, value: number, space: 'shared' | 'global'): void {
    if (this.found.recount(category, e.range, earlier.summary.range, e, earlier.who)) return;
    // The shadow memory reuses its records: keep copies (an atomic or order only where there is one).
    const { range, write: earlierWrite, strong, atomic, order } = earlier.summary;
    const summary: AccessSummary = { range, write: earlierWrite, strong, ...(atomic ? { atomic } : {}), ...(order ? { order } : {}) };
    this.add(category, 'block', e, write, summary, { ...earlier.who }, space, category === 'benign-same-value' ? value : undefined, false, {});
  }
}

/**
 * The two accesses leave the word as it would be in either order: two writes of one value, or
 * a read and a write that stored what an earlier write had stored.
 */
function sameValue(a: AccessRecord, b: AccessRecord): boolean {
  if (a.write && b.write) return a.value === b.value;
  return a.write ? a.silent : b.silent;
}

/**
 * What kept a lock from protecting `a` and `b`: an atomicCAS that no fence of the lock's scope
 * completed before the access, an unlock with no such fence before it. Only when both sides
 * meant the same lock word — each held it, or took it with one of these faults.
 */
function lockFaults(a: AccessRecord, b: AccessRecord): LockFault[] | undefined {
  const faults: LockFault[] = [];
  const words = new Set<number>();
  const add = (f: LockFault) => {
    const site = (x: LockFault) => (x.kind === 'acquire' ? (x.fence ?? x.acquire) : x.release);
    if (!faults.some((x) => x.kind === f.kind && site(x) === site(f))) faults.push(f);
  };
  for (const s of [a, b]) {
    const p = s.pendingLock;
    if (p) {
      words.add(p.word);
      add({ kind: 'acquire', acquire: p.acquire, scope: p.scope, ...(p.narrowFence ? { fence: p.narrowFence } : {}) });
      if (p.release && !p.releaseFenced) add({ kind: 'release', acquire: p.acquire, scope: p.scope, release: p.release, ...takenAndReleasedBy(p) });
    }
    const l = s.lostLock;
    if (l?.release) {
      words.add(l.word);
      add({ kind: 'release', acquire: l.acquire, scope: l.scope, release: l.release, ...takenAndReleasedBy(l) });
    }
  }
  if (!faults.length) return undefined;
  for (const s of [a, b]) if (!s.pendingLock && !s.lostLock && !s.heldBy?.some((l) => words.has(l.word))) return undefined;
  return faults.sort((x, y) => (x.kind === y.kind ? 0 : x.kind === 'acquire' ? -1 : 1));
}

/** What a release fault says of how its lock was taken (test-and-set) and released (plain store). */
function takenAndReleasedBy(l: LockEntry): Pick<LockFault, 'exchange' | 'plainStore'> {
  return { ...(l.takenBy === 'Exch' ? { exchange: true } : {}), ...(l.weakRelease ? { plainStore: { fenced: !!l.fenceBeforeRelease } } : {}) };
}

/** The locks an access was made holding, as fixes need them. */
function lockSites(r: AccessRecord): HeldLock[] {
  return (r.heldBy ?? []).map((l) => ({ acquire: l.acquire, scope: l.scope, ...(l.release ? { release: l.release } : {}) }));
}
