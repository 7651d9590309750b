// What both race engines report, and the words they report it in: the categories, the two
// sides of a race, the finding itself, and the index that keeps one finding per pair of
// instructions. The ScoRD detector (./scord.ts) and the happens-before engine (./precise.ts)
// both fill these; the checker, the fixes and the editor read them.
import type { Range } from '../frontend/source';
import type { Scope, MemoryOrder } from '../gpu/memoryOrder';
import { REPEATABLE_LAUNCHES_BACK } from '../ir/ir';

export type RaceCategory =
  | 'missing-block-fence'
  | 'missing-device-fence'
  | 'non-strong-access'
  | 'scoped-atomic'
  | 'missing-lock'
  | 'lock-scope'
  | 'lock-fence-scope'
  | 'lock-release-fence'
  | 'shared-memory'
  | 'intra-warp'
  | 'benign-same-value';

export interface Accessor {
  block: number;
  warp: number;
  lane: number;
}

/** What one side of a race did, as much as fixes need. */
export interface AccessSummary {
  range: Range;
  write: boolean;
  /** `atomicAdd_block`, … for atomics. */
  atomic?: { op: string; scope: Scope };
  /** An access that names a memory order (libcu++ atomic_ref, PTX ld.acquire/st.release, …). */
  order?: { order: MemoryOrder; scope: Scope };
  strong: boolean;
  /** The word's value after the access (benign same-value races name it). */
  value?: number;
}

/**
 * Why an explicit release/acquire pair did not order two accesses: one side had block scope
 * across blocks, or the reader read the released flag relaxed and no acquire fence followed.
 */
export interface OrderHint {
  kind: 'narrow-scope' | 'relaxed-read';
  /** narrow-scope: the block-scope release (or release fence), if it was; relaxed-read: the release read. */
  release?: Range;
  /** narrow-scope: the block-scope acquire (or acquire fence), if it was. */
  acquire?: Range;
  /** relaxed-read: the relaxed read that no acquire fence followed. */
  read?: Range;
}

export interface RaceFinding {
  kind: 'race';
  category: RaceCategory;
  /** The scope the conflict spans: threads of one block, or two blocks. */
  scope: 'block' | 'device';
  message: string;
  /** What the related location (the earlier access) says. */
  previousMessage: string;
  range: Range;
  previous: Range;
  current: AccessSummary;
  earlier: AccessSummary;
  accessor: Accessor;
  previousAccessor: Accessor;
  /** The address as the program names it (`data[3]`, `stack.top`). */
  address?: string;
  space: 'global' | 'shared';
  /** A __threadfence_block() the writer executed after its access: widening it fixes the race. */
  narrowFence?: Range;
  /** An explicit release or acquire that would have ordered the pair, and why it did not. */
  orderHint?: OrderHint;
  /** The atomicCAS calls that took a block-scope lock used across blocks. */
  lockAcquires?: Range[];
  /** The block-scope atomicExch calls that released it. */
  lockReleases?: Range[];
  /**
   * lock-fence-scope / lock-release-fence: what broke the lock both sides take (the finding's
   * range is the first one's fence, atomicCAS or atomicExch); the fixes mend every one.
   */
  lockFaults?: LockFault[];
  /** missing-lock: the locks each side held (their atomicCAS), for "take the same lock". */
  heldLocks?: { current: HeldLock[]; earlier: HeldLock[] };
  /** More related locations, with what each is (the racing accesses of a lock finding). */
  also?: { range: Range; message: string }[];
  /** Global memory: the metadata entry as it was when the race was found. */
  metadata?: MetadataSnapshot;
  /** How often this pair raced. */
  count: number;
}

/**
 * A lock that did not protect an access: the atomicCAS that took it was not followed by a fence
 * of the lock's scope before the access ('acquire'), or the atomicExch that released it had no
 * such fence before it ('release').
 */
export interface LockFault {
  kind: 'acquire' | 'release';
  /** The atomicCAS that took the lock. */
  acquire: Range;
  /** The lock's scope (`atomicCAS_block`: block): the fence it needs. */
  scope: Scope;
  /** acquire: the narrower fence that followed the atomicCAS, if there was one. */
  fence?: Range;
  /** release: the atomicExch. */
  release?: Range;
  /** The lock was taken with atomicExch (a test-and-set lock), not atomicCAS. */
  exchange?: boolean;
  /** release: made by a plain store, which no fence orders; and whether a fence came before it. */
  plainStore?: { fenced: boolean };
}

/** A lock one side of a race held: where it was taken, and where released (if it was by then). */
export interface HeldLock {
  acquire: Range;
  scope: Scope;
  release?: Range;
}

/** What the detector knew about the word at the race (the hover and the inspector show it). */
export interface MetadataSnapshot {
  /** The earlier access the entry recorded. */
  accessor: Accessor;
  barrierId: number;
  blockFenceId: number;
  deviceFenceId: number;
  write: boolean;
  atomic: string | null;
  strong: boolean;
  /** The locks held at the earlier access, by name (`mutex`, `mutex (block 0)` for block scope). */
  locks: string[];
  /** The earlier accessor's fence file when the race was found: equal IDs mean no fence since. */
  fenceFileNow: { blockFenceId: number; deviceFenceId: number };
  /** The racing access's barrier ID. */
  barrierIdNow: number;
}

/** How far apart two threads are: 0 in one warp, 1 in two warps of a block, 2 in two blocks. */
function spread(a: Accessor, b: Accessor): number {
  return a.block !== b.block ? 2 : a.warp !== b.warp ? 1 : 0;
}

/**
 * How much a race says about a pair of instructions: a benign same-value race least, then one
 * between lanes of a warp; a pair that races in a more serious way is reported only that way.
 */
function seriousness(c: RaceCategory): number {
  return c === 'benign-same-value' ? 0 : c === 'intra-warp' ? 1 : 2;
}

/**
 * The findings, one per pair of instructions and category whichever of the two ran first (a
 * read-after-write and the write-after-read of the same two instructions are one race); a
 * benign or intra-warp race of a pair that also races in a more serious way counts toward that
 * finding instead. Indexed by the instructions' range objects, which are shared: a race that
 * recurs in a loop is found again without building a key (runs of one parse share them too).
 */
export class PairIndex {
  private readonly byRange = new Map<Range, Map<Range, RaceFinding[]>>();
  private list: RaceFinding[] = [];
  /**
   * The last question and its answer: a racy instruction asks the same one for each of its
   * lanes (and loop iterations), and only `add` changes the answer.
   */
  private lastCategory: RaceCategory | undefined;
  private lastA: Range | undefined;
  private lastB: Range | undefined;
  private lastFound: RaceFinding | undefined;

  /** The finding a race of `category` between `a` and `b` counts toward, if there is one. */
  get(category: RaceCategory, a: Range, b: Range): RaceFinding | undefined {
    if (category === this.lastCategory && a === this.lastA && b === this.lastB) return this.lastFound;
    this.lastCategory = category;
    this.lastA = a;
    this.lastB = b;
    return (this.lastFound = this.lookUp(category, a, b));
  }

  private lookUp(category: RaceCategory, a: Range, b: Range): RaceFinding | undefined {
    const ab = this.byRange.get(a)?.get(b);
    const ba = this.byRange.get(b)?.get(a);
    const own = ab?.find((f) => f.category === category) ?? ba?.find((f) => f.category === category);
    const rank = seriousness(category);
    if (own || rank === 2) return own;
    const above = (f: RaceFinding) => seriousness(f.category) > rank;
    return ab?.find(above) ?? ba?.find(above);
  }

  /**
   * A race of `category` between `a` and `b`, by `me` and `them`, seen before: counted toward
   * its finding (true). Not seen (false): the caller `add`s it. Seen, but this instance is
   * wider than the one the finding describes — its threads in two warps where those were in
   * one, in two blocks where those were in one — also false: the caller describes this
   * instance and `add` puts it in the finding's place, count included. Whichever instance a
   * schedule meets first, the finding ends with the widest, which is the one a fix must cover.
   */
  recount(category: RaceCategory, a: Range, b: Range, me: Accessor, them: Accessor): boolean {
    const f = this.get(category, a, b);
    if (!f) return false;
    if (f.category !== category || spread(me, them) <= spread(f.accessor, f.previousAccessor)) {
      f.count++;
      return true;
    }
    this.widened = f;
    return false;
  }

  /** The finding the next `add` describes more widely (recount). */
  private widened: RaceFinding | undefined;

  add(f: RaceFinding): void {
    const old = this.widened;
    this.widened = undefined;
    // Only the same race described anew takes the old one's place.
    if (old && old.category === f.category && this.lookUp(f.category, f.range, f.previous) === old) {
      this.replace(old, f);
      return;
    }
    this.lastCategory = undefined;
    const rank = seriousness(f.category);
    if (rank > 0) this.dropBelow(rank, f.range, f.previous);
    let inner = this.byRange.get(f.range);
    if (!inner) this.byRange.set(f.range, (inner = new Map()));
    const list = inner.get(f.previous);
    if (list) list.push(f);
    else inner.set(f.previous, [f]);
    this.list.push(f);
  }

  all(): RaceFinding[] {
    return [...this.list];
  }

  /** 'launch' events so far; the one running, if any, is launches − 1. */
  private launches = 0;
  /** Each finding's count when the running launch began (what it added is the difference); undefined between launches. */
  private countsAtLaunch: Map<RaceFinding, number> | undefined;
  /** What each recent launch that found races added to their counts, by the launch's place (a repeat adds it again). */
  private readonly addedBy = new Map<number, Map<RaceFinding, number>>();

  /** A launch begins (its 'launch' event). */
  beginLaunch(): void {
    this.endLaunch();
    this.countsAtLaunch = new Map(this.list.map((f) => [f, f.count]));
    this.launches++;
  }

  /**
   * Launch `of` is repeated without being run ('launch-repeat'): every race it counted is
   * counted again.
   */
  repeatLaunch(of: number): void {
    this.endLaunch();
    for (const [f, added] of this.addedBy.get(of) ?? []) f.count += added;
  }

  /** Keeps what the running launch added, for its repeats. */
  private endLaunch(): void {
    const before = this.countsAtLaunch;
    if (!before) return;
    this.countsAtLaunch = undefined;
    const added = new Map<RaceFinding, number>();
    for (const f of this.list) if (f.count > (before.get(f) ?? 0)) added.set(f, f.count - (before.get(f) ?? 0));
    if (added.size) this.addedBy.set(this.launches - 1, added);
    this.addedBy.delete(this.launches - 1 - REPEATABLE_LAUNCHES_BACK);
  }

  /** `f` in `old`'s place: in the list, the index and the counts, with `old`'s count and this instance. */
  private replace(old: RaceFinding, f: RaceFinding): void {
    this.lastCategory = undefined;
    f.count = old.count + 1;
    this.list[this.list.indexOf(old)] = f;
    for (const [x, y] of [[old.range, old.previous], [old.previous, old.range]] as const) {
      const list = this.byRange.get(x)?.get(y);
      const at = list?.indexOf(old) ?? -1;
      if (at >= 0) list![at] = f;
    }
    const atLaunch = this.countsAtLaunch?.get(old);
    if (atLaunch !== undefined) this.countsAtLaunch!.set(f, atLaunch);
    for (const added of this.addedBy.values()) {
      const n = added.get(old);
      if (n === undefined) continue;
      added.delete(old);
      added.set(f, n);
    }
  }

  /** Drops the pair's findings less serious than `rank` (a more serious one replaces them). */
  private dropBelow(rank: number, a: Range, b: Range): void {
    for (const [x, y] of [[a, b], [b, a]] as const) {
      const list = this.byRange.get(x)?.get(y);
      if (!list?.some((f) => seriousness(f.category) < rank)) continue;
      const dropped = list.filter((f) => seriousness(f.category) < rank);
      this.byRange.get(x)!.set(y, list.filter((f) => seriousness(f.category) >= rank));
      this.list = this.list.filter((f) => !dropped.includes(f));
    }
  }
}

/** `atomicAdd_block`, `atomicCAS`, … as the program wrote it. */
export function atomicName(a: { op: string; scope: Scope }): string {
  return `atomic${a.op}${a.scope === 'block' ? '_block' : a.scope === 'system' ? '_system' : ''}`;
}

/** An RMW that names a memory order, as libcu++ spells it (`fetch_add`, `compare_exchange`). */
function orderedRmwName(op: string): string {
  return op === 'CAS' ? 'compare_exchange' : op === 'Exch' ? 'exchange' : `fetch_${op.toLowerCase()}`;
}

export function accessName(a: AccessSummary): string {
  // libcu++ and PTX accesses by their order: `release store`, `acquire load`, `acq_rel fetch_add`.
  if (a.order) return `${a.order.order} ${a.atomic ? orderedRmwName(a.atomic.op) : a.write ? 'store' : 'load'}`;
  return a.atomic ? atomicName(a.atomic) : a.write ? 'write' : 'read';
}

/** "in block 1", "in warp 1 of block 0" or "by thread 3 of block 0": as far as needed to tell them apart. */
export function accessorName(a: Accessor, other: Accessor): string {
  if (a.block !== other.block) return `in block ${a.block}`;
  if (a.warp !== other.warp) return `in warp ${a.warp} of block ${a.block}`;
  return `by thread ${a.warp * 32 + a.lane} of block ${a.block}`;
}

/** Where a block-scope lock used across blocks is taken and released (a lock-scope race names them). */
export interface LockSites {
  acquires: Range[];
  releases: Range[];
  /** The lock was taken with atomicExch_block (a test-and-set lock), not atomicCAS_block. */
  exchange?: boolean;
}
