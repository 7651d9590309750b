// A second race detector on the simulator's event stream: happens-before over the
// synchronises-with edges of the scoped PTX memory model (PTX ISA 6.0 and later), checked the
// FastTrack way. Where ScoRD (scord.ts) asks "has the writer fenced since its write?", this
// engine asks "is the earlier access ordered before this one?". Its edges:
//
// - program order; __syncthreads joins the block, __syncwarp the warp; kernels of a program run
//   one after another, so each launch starts with nothing to compare;
// - release → acquire on one location, when the acquire reads from the release or from a later
//   read-modify-write of its release sequence, and each side's scope includes the other thread;
// - fence patterns: a fence with release semantics (release, acq_rel, seq_cst — every
//   __threadfence*) followed by a strong store or RMW of a flag; a strong load or RMW of the flag
//   followed by a fence with acquire semantics. A pattern's scope is the narrower of the
//   fence's and the flag access's;
// - transitivity: clocks are joined, so a chain through a third thread orders too.
//
// Two conflicting accesses (one a write) race unless happens-before orders them, or they are
// synchronisation: morally strong — both strong (volatile, atomic or ordered) with scopes that
// include each other's thread — and each write among them an atomic, an ordered (libcu++ or PTX)
// access or a publication (a strong store that is its thread's first access after a release
// fence that did not follow a lock's atomicCAS). That is what flag and lock words are. A
// volatile store that publishes nothing is data, as for ScoRD: the PTX model would call it
// morally strong with a volatile read, but a reader that has not even observed a release
// covering it (read the flag, or the flag was read before a barrier of its block) may see the
// old value, which is the bug a missing fence makes. Strong data needs only that observation;
// plain data needs happens-before, an acquire. So plain data published with a fence and a flag
// is no race (unlike ScoRD's rule (c)); a block-scope atomic that meets another block unordered
// is; and a fence the writer executes for some other reason orders nothing by itself.
//
// Clocks have one component per warp (its index in the grid) while the warp is converged, so a
// 1024-thread block's __syncthreads joins 32 clocks. Once a warp diverges (independent thread
// scheduling), each lane that acts is a thread with its own lane component until the next
// __syncwarp or __syncthreads (the rule of lanes.ts). Shadow memory keeps the last write as an
// epoch and the reads as one epoch while they are ordered, a set (one read a warp) only while
// they are concurrent; release sequences are kept only for words that strong accesses write.
//
// Reads-from: under sequential consistency (the simulator's default) a read reads the last write
// before it in the event stream, and the engine assumes so under the weak models too. Among
// concurrent, morally strong writes to a word (atomics of a counter) only the last is remembered.
import type { Range } from '../frontend/source';
import type { Memory } from '../gpu/memory';
import { pointerAllocation, pointerOffset } from '../gpu/memory';
import { isAcquire, isRelease, type EventListener, type SimEvent } from '../ir/ir';
import { Clock } from './clock';
import { unorderedLanes } from './lanes';
import { nameAddress } from '../gpu/lvalue';
import { accessName, accessorName, atomicName, PairIndex, type AccessSummary, type Accessor, type RaceCategory, type RaceFinding } from './findings';
import { detectorListener, type ControlEvent, type Detector } from './detector';

type Access = Extract<SimEvent, { kind: 'access' }>;
type Fence = Extract<SimEvent, { kind: 'fence' }>;

export interface PreciseOptions {
  /** Independent thread scheduling: diverged lanes of a warp are separate threads (ScoRD §VI). */
  perThreadWhenDiverged?: boolean;
  /** Remember why conflicting pairs of instructions did not race (`--engine both` says so). */
  explain?: boolean;
}

/** Why two conflicting accesses of different threads were no race. */
export type NoRaceReason = 'ordered' | 'morally-strong';

/** A release: the releasing thread's clock when it released, and the fence or access that did. */
interface Release {
  clock: Clock;
  range: Range;
}

/** Synchronisation that a narrow scope kept from happening: what a report tells to widen. */
interface Blocked {
  /** The block of the releasing thread. */
  block: number;
  /** A `__threadfence_block()` (releaser's or acquirer's) where a device-scope fence was needed. */
  fence?: Range;
  /** Block-scope atomicCAS calls that took the lock word involved. */
  locks?: Range[];
}

/** One head of a location's release sequence. */
interface Head {
  clock: Clock;
  block: number;
  /** Of device or system scope: acquirers in every block may use it; else only its own block. */
  wide: boolean;
  /** For a narrow head: what an acquirer in another block was kept from. */
  blocked?: Blocked;
}

/** One access as the shadow memory remembers it. */
interface Rec {
  /** The clock component of the thread, and its value at the access (the epoch). */
  comp: number;
  clock: number;
  /** Global warp index and divergence epoch (odd while diverged, -1 converged: lanes.ts). */
  gw: number;
  div: number;
  block: number;
  warp: number;
  lane: number;
  range: Range;
  write: boolean;
  strong: boolean;
  /** A strong access of device or system scope (its scope includes every thread). */
  wide: boolean;
  /** Synchronisation: an atomic, an ordered access, or a strong store right after a release fence. */
  sync: boolean;
  atomic: { op: string; scope: 'block' | 'device' | 'system' } | undefined;
}

interface Word {
  write?: Rec;
  /** The last read, while the reads since the last write are ordered one after another. */
  read?: Rec;
  /**
   * The reads by warp, once two were concurrent: the last read of each warp (of any of its
   * lanes), so that a word read by every lane of diverged warps keeps one entry a warp.
   */
  reads?: Map<number, Rec>;
  /** The release sequence the word's last write belongs to (strong writes only). */
  heads?: Head[];
  /** atomicCAS_block calls that changed the word: a block-scope lock. */
  blockCas?: Range[];
  /**
   * A plain write its own thread's atomic then replaced as the last write (`*c = 0;
   * atomicAdd(c, 1);`): other threads' atomics are compared with it too, since they are
   * morally strong with the atomic and so would leave the plain write unchecked in this order.
   */
  hidden?: Rec;
}

/** A thread as clocks see it: a converged warp, or one lane of a diverged warp. */
class Thread {
  /** The latest release fence, and the latest one of device or system scope. */
  fence?: Release;
  fenceWide?: Release;
  /** Release clocks read from flags by strong loads, waiting for an acquire fence: of this block, of others. */
  pendingNear?: Pending;
  pendingFar?: Pending;
  pendingFarBlock = -1;
  /** The release clock joined last (a spin loop reads the same release over and over). */
  lastJoined?: Clock;
  /** The release sequences acquired, and made pending, last: a spin loop reads one over and over. */
  acquiredHeads?: Head[];
  pendingHeads?: Head[];
  /**
   * Releases its block read before a barrier without acquiring them. With its clock and pending
   * acquires, what it has observed: enough for strong data, not for plain.
   */
  seen?: Clock;
  /** The strong read that saw the latest release not acquired yet (a report says to fence after it). */
  unacquired?: Range;
  blocked?: Blocked;
  /** The lanes of a converged warp each report a fence: it is one fence. */
  lastFence?: Range;
  accessed = false;
  /** A release fence and no access since: the next strong store publishes (ScoRD's flag rule). */
  fencedLast = false;
  /** The last access was an atomicCAS that changed memory: a fence now takes a lock, it publishes nothing. */
  tookLock = false;
  /** The store that published, whose other lanes (converged warp) publish too. */
  publishing?: Range;
  /** Heads a strong write makes from the current fences (most writes make the same). */
  headsFor?: [Release | undefined, Release | undefined, boolean, Head[]];

  constructor(
    readonly comp: number,
    readonly gw: number,
    readonly block: number,
    readonly warp: number,
    /** -1 for a converged warp. */
    readonly lane: number,
    readonly div: number,
    public clock: Clock,
    public now: number,
  ) {}
}

interface WarpState {
  thread: Thread;
  /** While diverged: the lanes that acted. */
  lanes?: (Thread | undefined)[];
  /** Odd while diverged (the k-th divergence is 2k+1), -1 while converged. */
  epoch: number;
  /** joins[k]: the warp's clock value once its k-th divergence ended. */
  joins: number[];
  /** Each lane's last lane-component value, so that values grow across divergences. */
  laneNow?: Int32Array;
}

const NO_HEADS: Head[] = [];
/** Words per page of shadow memory: 2^8. */
const PAGE_BITS = 8;
const WORD = 4;

export class PreciseDetector implements Detector {
  private warps: (WarpState | undefined)[] = [];
  /** Warps per block of the running launch (32 until a launch says: the most a block has). */
  private warpsPerBlock = 32;
  /** Lane components come after every warp component. */
  private laneBase = 2 ** 31;
  private words = new Map<number, ShadowWords>();
  private lastId = -1;
  private lastWords: ShadowWords | undefined;
  private lastShared = false;
  private readonly found = new PairIndex();
  private readonly perThread: boolean;
  private readonly reasons?: Map<Range, Map<Range, NoRaceReason>>;

  constructor(
    private readonly memory: Memory,
    options: PreciseOptions = {},
  ) {
    this.perThread = options.perThreadWhenDiverged ?? true;
    if (options.explain) this.reasons = new Map();
  }

  readonly listener: EventListener = detectorListener(
    (e) => this.onAccess(e),
    (of) => this.found.repeatLaunch(of),
    (e) => this.onControl(e),
  );

  private onControl(e: ControlEvent): void {
    switch (e.kind) {
      case 'launch': {
        // Kernels run to completion one after another: nothing races across launches.
        this.found.beginLaunch();
        const threads = e.block[0] * e.block[1] * e.block[2];
        const blocks = e.grid[0] * e.grid[1] * e.grid[2];
        this.warpsPerBlock = Math.max(1, Math.ceil(threads / 32));
        this.laneBase = blocks * this.warpsPerBlock;
        this.warps = [];
        this.words = new Map();
        this.lastId = -1;
        this.lastWords = undefined;
        return;
      }
      case 'grid-barrier':
        // grid.sync(): every access before it is ordered before every access after it.
        this.words = new Map();
        this.lastId = -1;
        this.lastWords = undefined;
        return;
      case 'barrier':
        this.barrier(e.block);
        return;
      case 'warp-sync': {
        const w = this.warps[e.block * this.warpsPerBlock + e.warp];
        if (w) this.reconverge(w);
        return;
      }
      case 'diverge':
        if (this.perThread) {
          const w = this.warp(e.block, e.warp);
          if (w.epoch < 0) w.epoch = 2 * w.joins.length + 1;
        }
        return;
      case 'fence':
        this.fence(e);
        return;
      case 'block-end':
        this.endBlock(e.block);
        return;
    }
  }

  /** The engine keeps clocks, not entries the metadata inspector shows. */
  state(): undefined {
    return undefined;
  }

  findings(): RaceFinding[] {
    return this.found.all();
  }

  /** Why the two instructions' conflicting accesses did not race, if they ever met (with `explain`). */
  whyNoRace(a: Range, b: Range): NoRaceReason | undefined {
    return this.reasons?.get(a)?.get(b) ?? this.reasons?.get(b)?.get(a);
  }

  private warp(block: number, warp: number): WarpState {
    const gw = block * this.warpsPerBlock + warp;
    let w = this.warps[gw];
    if (!w) {
      const clock = this.emptyClock(block);
      clock.set(gw, 1);
      w = { thread: new Thread(gw, gw, block, warp, -1, -1, clock, 1), epoch: -1, joins: [] };
      this.warps[gw] = w;
    }
    return w;
  }

  /** A clock for a thread of `block`: dense over its block's warps. */
  private emptyClock(block: number): Clock {
    return Clock.empty(block * this.warpsPerBlock, this.warpsPerBlock);
  }

  private thread(block: number, warp: number, lane: number): Thread {
    const w = this.warps[block * this.warpsPerBlock + warp] ?? this.warp(block, warp);
    if (w.epoch < 0) return w.thread;
    const lanes = w.lanes ?? (w.lanes = []);
    return lanes[lane] ?? (lanes[lane] = this.laneThread(w, lane));
  }

  /** A lane of a diverged warp starts from what the warp knew and did. */
  private laneThread(w: WarpState, lane: number): Thread {
    const t = w.thread;
    const laneNow = w.laneNow ?? (w.laneNow = new Int32Array(32));
    const comp = this.laneBase + t.gw * 32 + lane;
    const now = laneNow[lane] + 1;
    laneNow[lane] = now;
    const clock = t.clock.copy();
    clock.own(comp, now);
    const l = new Thread(comp, t.gw, t.block, t.warp, lane, w.epoch, clock, now);
    l.fence = t.fence;
    l.fenceWide = t.fenceWide;
    if (t.pendingNear) l.pendingNear = t.pendingNear.copy();
    if (t.pendingFar) {
      l.pendingFar = t.pendingFar.copy();
      l.pendingFarBlock = t.pendingFarBlock;
    }
    l.blocked = t.blocked;
    if (t.seen) l.seen = t.seen.copy();
    l.unacquired = t.unacquired;
    return l;
  }

  /** The next epoch of the thread: what it does from now on is not covered by what it released. */
  private tick(t: Thread): void {
    t.now++;
    t.clock.set(t.comp, t.now);
  }

  /** __syncwarp, or a barrier: the lanes of a diverged warp meet and are one thread again. */
  private reconverge(w: WarpState): void {
    if (w.epoch < 0) return;
    const t = w.thread;
    const from = this.laneBase + t.gw * 32;
    let fence: Release | undefined;
    let fenceWide: Release | undefined;
    for (const l of w.lanes ?? []) {
      if (!l) continue;
      // The warp's own lane components are left out: joins[] stands for all of them.
      t.clock.join(l.clock, from, from + 32);
      w.laneNow![l.lane] = Math.max(w.laneNow![l.lane], l.now);
      if (l.pendingNear) (t.pendingNear ??= new Pending()).addAll(l.pendingNear);
      if (l.pendingFar) {
        (t.pendingFar ??= new Pending()).addAll(l.pendingFar);
        t.pendingFarBlock = l.pendingFarBlock;
      }
      if (l.blocked) t.blocked = l.blocked;
      if (l.seen) t.seen = joined(t.seen, l.seen);
      if (l.unacquired) t.unacquired = l.unacquired;
      fence = joinRelease(fence, l.fence);
      fenceWide = joinRelease(fenceWide, l.fenceWide);
    }
    // The lanes' fences, together: a strong write of the warp releases what each lane fenced.
    if (fence) t.fence = fence;
    if (fenceWide) t.fenceWide = fenceWide;
    t.pendingHeads = t.acquiredHeads = undefined;
    this.tick(t);
    w.joins.push(t.now);
    w.epoch = -1;
    w.lanes = undefined;
  }

  /** __syncthreads: every thread of the block knows what every other did before it. */
  private barrier(block: number): void {
    const first = block * this.warpsPerBlock;
    const all = this.emptyClock(block);
    let seen: Clock | undefined;
    let unacquired: Range | undefined;
    for (let i = 0; i < this.warpsPerBlock; i++) {
      const w = this.warps[first + i];
      if (!w) continue;
      this.reconverge(w);
      all.join(w.thread.clock);
      if (w.thread.seen) seen = joined(seen, w.thread.seen);
      if (w.thread.pendingFar) seen = w.thread.pendingFar.joinInto(seen ?? this.emptyClock(block));
      unacquired ??= w.thread.unacquired;
    }
    for (let i = 0; i < this.warpsPerBlock; i++) {
      // A warp that has not acted yet starts after the barrier too.
      const t = (this.warps[first + i] ?? this.warp(block, i)).thread;
      t.clock = all.copy();
      t.now = all.get(t.comp);
      this.tick(t);
      t.pendingNear = t.pendingHeads = undefined;
      if (seen) t.seen = seen.copy();
      if (unacquired) t.unacquired = unacquired;
    }
  }

  private endBlock(block: number): void {
    const first = block * this.warpsPerBlock;
    for (let i = 0; i < this.warpsPerBlock; i++) {
      const w = this.warps[first + i];
      if (!w) continue;
      // Its records stay in shadow memory; what it would release or acquire next is gone.
      w.lanes = undefined;
      const t = w.thread;
      t.fence = t.fenceWide = undefined;
      t.pendingNear = t.pendingFar = undefined;
      t.headsFor = undefined;
    }
  }

  private fence(e: Fence): void {
    const t = this.thread(e.block, e.warp, e.lane);
    if (t.lastFence === e.range && !t.accessed) return;
    t.lastFence = e.range;
    t.accessed = false;
    // `__threadfence*` carry no order: they are fence.sc of their scope.
    const order = e.order ?? 'seq_cst';
    if (order === 'relaxed') return;
    const wide = e.scope !== 'block';
    if (order !== 'release') {
      t.pendingHeads = undefined;
      if (t.pendingNear) {
        t.pendingNear.joinInto(t.clock);
        t.pendingNear = undefined;
      }
      if (t.pendingFar) {
        if (wide) {
          t.pendingFar.joinInto(t.clock);
          t.pendingFar = undefined;
        } else if (!t.blocked?.locks) t.blocked = { block: t.pendingFarBlock, fence: e.range };
      }
    }
    if (order !== 'acquire') {
      const r: Release = { clock: t.clock.copy(), range: e.range };
      t.fence = r;
      if (wide) t.fenceWide = r;
      t.fencedLast = !t.tookLock;
      this.tick(t);
    }
  }

  private onAccess(e: Access): void {
    if (e.space !== 'device') return;
    const id = pointerAllocation(e.address);
    if (id !== this.lastId) {
      const a = this.memory.allocation(id);
      if (!a) return;
      this.lastId = id;
      const tracked = a.space === 'global' || a.space === 'managed' || a.space === 'shared';
      this.lastShared = a.space === 'shared';
      let words = this.words.get(id);
      if (words === undefined && tracked) this.words.set(id, (words = new ShadowWords()));
      this.lastWords = tracked ? words : undefined;
    }
    const words = this.lastWords;
    if (!words) return;
    const t = this.thread(e.block, e.warp, e.lane);
    t.accessed = true;
    const atomic = e.atomic;
    if (!e.strong && atomic === undefined) {
      this.plainAccess(t, e, words);
      return;
    }
    // A CAS that failed only reads; any other RMW is a write for release sequences.
    const failedCas = atomic !== undefined && atomic.op === 'CAS' && !atomic.changed;
    // For races, an atomic that left memory as it was only read it (as ScoRD and racecheck count).
    const write = e.write && (atomic === undefined || atomic.changed);
    const reads = !e.write || atomic !== undefined;
    const strong = e.strong;
    const wide = strong && (atomic?.scope ?? e.orderScope ?? 'system') !== 'block';
    const order = e.order;
    const acquire = reads && isAcquire(order);
    const release = e.write && !failedCas && isRelease(order);
    const heads = strong && e.write && !failedCas ? this.releaseHeads(t, wide, release) : undefined;
    let published = false;
    if (t.fencedLast) {
      t.fencedLast = false;
      published = strong && e.write;
      t.publishing = published ? e.range : undefined;
    } else if (t.publishing !== undefined) {
      if (t.publishing === e.range) published = true;
      else t.publishing = undefined;
    }
    const sync = strong && (atomic !== undefined || order !== undefined || published);
    t.tookLock = atomic !== undefined && atomic.op === 'CAS' && atomic.changed;
    const offset = pointerOffset(e.address);
    const first = Math.floor(offset / WORD);
    const last = Math.floor((offset + Math.max(1, e.size) - 1) / WORD);
    for (let k = first; k <= last; k++) {
      const s = words.at(k);
      if (strong && reads && s.heads) this.acquire(t, s, s.heads, wide, acquire, e.range);
      this.check(t, e, s, write, strong, wide, sync);
      if (e.write && !failedCas) {
        if (!strong) s.heads = undefined; // a weak write ends the release sequence
        else if (atomic) s.heads = mergeHeads(s.heads, heads!);
        else s.heads = heads!.length ? heads : undefined;
      }
      if (atomic && atomic.op === 'CAS' && atomic.changed && atomic.scope === 'block') {
        const list = s.blockCas ?? (s.blockCas = []);
        if (!list.includes(e.range) && list.length < 8) list.push(e.range);
      }
    }
    if (release) this.tick(t);
  }

  /** The common case, a plain load or store: no synchronisation to make or take. */
  private plainAccess(t: Thread, e: Access, words: ShadowWords): void {
    if (t.fencedLast) t.fencedLast = false;
    if (t.publishing !== undefined) t.publishing = undefined;
    t.tookLock = false;
    const write = e.write;
    const offset = pointerOffset(e.address);
    const first = Math.floor(offset / WORD);
    const last = Math.floor((offset + Math.max(1, e.size) - 1) / WORD);
    for (let k = first; k <= last; k++) {
      const s = words.at(k);
      this.check(t, e, s, write, false, false, false);
      if (write) s.heads = undefined; // a weak write ends the release sequence
    }
  }

  /** What a strong write by `t` releases: its own clock (a release access), or its fences'. */
  private releaseHeads(t: Thread, wide: boolean, release: boolean): Head[] {
    if (release) return [{ clock: t.clock.copy(), block: t.block, wide, ...(wide ? {} : { blocked: { block: t.block } }) }];
    const f = t.fence;
    if (!f) return NO_HEADS;
    const cached = t.headsFor;
    if (cached && cached[0] === f && cached[1] === t.fenceWide && cached[2] === wide) return cached[3];
    let heads: Head[];
    if (wide && t.fenceWide) {
      heads = t.fenceWide === f ? [{ clock: f.clock, block: t.block, wide: true }] : [{ clock: f.clock, block: t.block, wide: false, blocked: { block: t.block, fence: f.range } }, { clock: t.fenceWide.clock, block: t.block, wide: true }];
    } else {
      // A block-scope fence before a wide flag, or any fence before a block-scope flag access.
      heads = [{ clock: f.clock, block: t.block, wide: false, blocked: wide ? { block: t.block, fence: f.range } : { block: t.block } }];
    }
    t.headsFor = [f, t.fenceWide, wide, heads];
    return heads;
  }

  /** A strong read of a flag: joins the releases it reads from now (acquire) or at the next acquire fence. */
  private acquire(t: Thread, s: Word, heads: Head[], wide: boolean, acquire: boolean, at: Range): void {
    if (acquire ? t.acquiredHeads === heads : t.pendingHeads === heads) return;
    if (acquire) t.acquiredHeads = heads;
    else t.pendingHeads = heads;
    for (const h of heads) {
      if (h.block !== t.block) {
        if (!h.wide || !wide) {
          // The release or this read has block scope: it orders nothing for another block.
          const b: Blocked = h.blocked && !s.blockCas ? h.blocked : { block: h.block, ...(h.blocked?.fence ? { fence: h.blocked.fence } : {}), ...(s.blockCas ? { locks: s.blockCas } : {}) };
          // A block-scope lock explains more than a narrow fence: keep it.
          if (!t.blocked?.locks || b.locks) t.blocked = b;
          continue;
        }
      }
      if (acquire) {
        if (t.lastJoined !== h.clock) {
          t.clock.join(h.clock);
          t.lastJoined = h.clock;
        }
      } else if (h.block === t.block) {
        (t.pendingNear ??= new Pending()).add(h.clock);
        t.unacquired = at;
      } else {
        (t.pendingFar ??= new Pending()).add(h.clock);
        t.pendingFarBlock = h.block;
        t.unacquired = at;
      }
    }
  }

  private check(t: Thread, e: Access, s: Word, write: boolean, strong: boolean, wide: boolean, sync: boolean): void {
    const w = s.write;
    if (w && w.comp !== t.comp) this.compare(w, t, e, s, write, strong, wide, sync);
    const hidden = e.atomic ? s.hidden : undefined;
    if (hidden && hidden.comp !== t.comp) this.compare(hidden, t, e, s, write, strong, wide, sync);
    if (write) {
      if (!e.atomic) s.hidden = undefined;
      else if (w && !w.atomic && w.comp === t.comp) s.hidden = { ...w };
      const r = s.read;
      if (r && r.comp !== t.comp) this.compare(r, t, e, s, write, strong, wide, sync);
      if (s.reads) for (const x of s.reads.values()) if (x.comp !== t.comp) this.compare(x, t, e, s, write, strong, wide, sync);
      s.write = record(w, t, e, write, strong, wide, sync);
      // Reads ordered before this write are covered by it; concurrent ones (morally strong, or
      // reported) stay for the next write.
      if (r && (r.comp === t.comp || this.ordered(r, t))) s.read = undefined;
      if (s.reads) {
        for (const [c, x] of s.reads) if (x.comp === t.comp || this.ordered(x, t)) s.reads.delete(c);
        if (s.reads.size === 0) s.reads = undefined;
      }
      return;
    }
    if (s.reads) {
      const mine = s.reads.get(t.gw);
      if (mine) record(mine, t, e, write, strong, wide, sync);
      else s.reads.set(t.gw, record(undefined, t, e, write, strong, wide, sync));
      return;
    }
    const r = s.read;
    if (!r) s.read = record(undefined, t, e, write, strong, wide, sync);
    // Ordered after the last read, or another lane of its warp: this read stands for both.
    else if (r.gw === t.gw || this.ordered(r, t)) record(r, t, e, write, strong, wide, sync);
    else {
      s.reads = new Map([[r.gw, r], [t.gw, record(undefined, t, e, write, strong, wide, sync)]]);
      s.read = undefined;
    }
  }

  /** Whether the earlier access `p` happens before what `t` does now. */
  private ordered(p: Rec, t: Thread): boolean {
    if (p.gw === t.gw && !unorderedLanes(p.lane, p.div, t.lane, t.div)) return true;
    return this.covers(t.clock, p);
  }

  /** Whether `t` has read a release that covers `p`, acquired or not (or its block had, before a barrier). */
  private observed(p: Rec, t: Thread): boolean {
    const covers = (c: Clock) => this.covers(c, p);
    return (t.pendingFar !== undefined && t.pendingFar.some(covers)) || (t.pendingNear !== undefined && t.pendingNear.some(covers)) || (t.seen !== undefined && covers(t.seen));
  }

  /** Whether the clock knows the access: its own epoch, or (a diverged lane's) the warp's join after it. */
  private covers(c: Clock, p: Rec): boolean {
    if (c.get(p.comp) >= p.clock) return true;
    if (p.div >= 0) {
      const j = this.warps[p.gw]?.joins[(p.div - 1) >> 1];
      return j !== undefined && c.get(p.gw) >= j;
    }
    return false;
  }

  private compare(p: Rec, t: Thread, e: Access, s: Word, write: boolean, strong: boolean, wide: boolean, sync: boolean): void {
    if (!write && !p.write) return;
    if (this.ordered(p, t)) {
      this.remember(p.range, e.range, 'ordered');
      return;
    }
    // Morally strong: both strong, and each one's scope includes the other's thread; and
    // synchronisation, not a volatile store of data that publishes nothing.
    const inclusive = (p.wide || p.block === t.block) && (wide || t.block === p.block);
    if (strong && p.strong && inclusive && (!p.write || p.sync || this.observed(p, t)) && (!write || sync)) {
      this.remember(p.range, e.range, 'morally-strong');
      return;
    }
    this.report(p, t, e, s, write, strong && p.strong && !inclusive, wide);
  }

  private remember(a: Range, b: Range, why: NoRaceReason): void {
    if (!this.reasons) return;
    let inner = this.reasons.get(a);
    if (!inner) this.reasons.set(a, (inner = new Map()));
    if (!inner.has(b)) inner.set(b, why);
  }

  /** `narrow`: both accesses strong, but a scope does not include the other thread. */
  private report(p: Rec, t: Thread, e: Access, s: Word, write: boolean, narrow: boolean, wide: boolean): void {
    const shared = this.lastShared;
    const sameBlock = p.block === t.block;
    let category: RaceCategory;
    let blocked: Blocked | undefined;
    if (shared) category = 'shared-memory';
    else if (narrow) category = s.blockCas ? 'lock-scope' : 'scoped-atomic';
    else if (sameBlock) category = 'missing-block-fence';
    else {
      // Did one side try to synchronise with the other's block with too narrow a scope? A
      // block-scope lock explains a race with any other block; a narrow fence, with its own.
      const mine = t.blocked;
      const theirs = this.warps[p.gw]?.thread.blocked;
      blocked = mine?.locks ? mine : theirs?.locks ? theirs : mine?.block === p.block ? mine : theirs?.block === t.block ? theirs : undefined;
      category = blocked?.locks ? 'lock-scope' : 'missing-device-fence';
    }
    if (this.found.recount(category, e.range, p.range, e, p)) return;
    const locks = category === 'lock-scope' ? (blocked?.locks ?? s.blockCas) : undefined;
    const narrowFence = category === 'missing-device-fence' ? blocked?.fence : undefined;
    // The reader saw a release that covers the write, and only the acquire is missing.
    const unacquired = (category === 'missing-device-fence' || category === 'missing-block-fence') && !narrowFence && this.observed(p, t) ? t.unacquired : undefined;
    const address = nameAddress(this.memory, e.address, e.size);
    const current: AccessSummary = { range: e.range, write, strong: e.strong, ...(e.atomic ? { atomic: e.atomic } : {}) };
    const earlier: AccessSummary = { range: p.range, write: p.write, strong: p.strong, ...(p.atomic ? { atomic: p.atomic } : {}) };
    const me: Accessor = { block: e.block, warp: e.warp, lane: e.lane };
    const them: Accessor = { block: p.block, warp: p.warp, lane: p.lane };
    this.found.add({
      kind: 'race',
      category,
      scope: sameBlock ? 'block' : 'device',
      message: raceMessage(category, current, earlier, me, them, address, { narrowFence, locks, currentWide: wide, unacquired }),
      previousMessage: `the ${accessName(earlier)}${address ? ` of \`${address}\`` : ''} ${accessorName(them, me)} that it races with`,
      range: e.range,
      previous: p.range,
      current,
      earlier,
      accessor: me,
      previousAccessor: them,
      ...(address ? { address } : {}),
      space: shared ? 'shared' : 'global',
      ...(narrowFence ? { narrowFence } : {}),
      ...(locks ? { lockAcquires: [...locks] } : {}),
      count: 1,
    });
  }
}

function record(into: Rec | undefined, t: Thread, e: Access, write: boolean, strong: boolean, wide: boolean, sync: boolean): Rec {
  // The event's atomic is its site's own constant: kept as it is, not copied.
  const atomic = e.atomic;
  if (!into) {
    return { comp: t.comp, clock: t.now, gw: t.gw, div: t.div, block: e.block, warp: e.warp, lane: e.lane, range: e.range, write, strong, wide, sync, atomic };
  }
  into.comp = t.comp;
  into.clock = t.now;
  into.gw = t.gw;
  into.div = t.div;
  into.block = e.block;
  into.warp = e.warp;
  into.lane = e.lane;
  into.range = e.range;
  into.write = write;
  into.strong = strong;
  into.wide = wide;
  into.sync = sync;
  into.atomic = atomic;
  return into;
}

/** The shadow words of one allocation, in pages: an array index per access, a map lookup per page. */
class ShadowWords {
  private readonly pages = new Map<number, (Word | undefined)[]>();
  private lastKey = -1;
  private last: (Word | undefined)[] = [];

  at(k: number): Word {
    const key = k >> PAGE_BITS;
    let page = this.last;
    if (key !== this.lastKey) {
      const found = this.pages.get(key);
      if (found) page = found;
      else this.pages.set(key, (page = new Array<Word | undefined>(1 << PAGE_BITS)));
      this.lastKey = key;
      this.last = page;
    }
    const i = k & ((1 << PAGE_BITS) - 1);
    // Every field from the start: one object shape for all words.
    return page[i] ?? (page[i] = { write: undefined, read: undefined, reads: undefined, heads: undefined, blockCas: undefined, hidden: undefined });
  }
}

/**
 * Release clocks a thread has read but not yet acquired, kept by reference (they never change)
 * and joined into its clock only at the acquire fence: a thread that polls several flags, or a
 * lock word over and over, costs a comparison per read, not a join.
 */
class Pending {
  private clocks: Clock[] = [];

  add(c: Clock): void {
    if (this.clocks.includes(c)) return;
    if (this.clocks.length >= 8) {
      // Many releases: one clock of their join stands for them.
      const all = this.clocks[0].copy();
      for (let i = 1; i < this.clocks.length; i++) all.join(this.clocks[i]);
      this.clocks = [all];
    }
    this.clocks.push(c);
  }

  addAll(o: Pending): void {
    for (const c of o.clocks) this.add(c);
  }

  copy(): Pending {
    const p = new Pending();
    p.clocks = [...this.clocks];
    return p;
  }

  joinInto(c: Clock): Clock {
    for (const x of this.clocks) c.join(x);
    return c;
  }

  some(f: (c: Clock) => boolean): boolean {
    return this.clocks.some(f);
  }
}

/** `into` ⊔ `c`, as a clock of its own (`into` is one already, or absent). */
function joined(into: Clock | undefined, c: Clock): Clock {
  if (!into) return c.copy();
  into.join(c);
  return into;
}

function joinRelease(a: Release | undefined, b: Release | undefined): Release | undefined {
  if (!a || a === b) return b;
  if (!b) return a;
  const clock = a.clock.copy();
  clock.join(b.clock);
  return { clock, range: b.range };
}

/**
 * An RMW continues the release sequence it reads from, and heads a new one if it releases too.
 * Heads of one block and width are joined into one, so the list stays short.
 */
function mergeHeads(old: Head[] | undefined, add: Head[]): Head[] | undefined {
  if (!add.length) return old;
  if (!old?.length) return add;
  const out = [...old];
  for (const h of add) {
    const i = out.findIndex((o) => o.block === h.block && o.wide === h.wide);
    if (i < 0) out.push(h);
    else if (out[i].clock !== h.clock) {
      const clock = out[i].clock.copy();
      clock.join(h.clock);
      out[i] = { ...h, clock };
    }
  }
  return out;
}

/** Where the other access is, from this one's side: "in another block", "in another warp", … */
function otherSide(me: Accessor, them: Accessor): string {
  if (me.block !== them.block) return 'in another block';
  if (me.warp !== them.warp) return 'in another warp';
  return 'in another lane of this diverged warp';
}

function raceMessage(
  category: RaceCategory,
  current: AccessSummary,
  earlier: AccessSummary,
  me: Accessor,
  them: Accessor,
  address: string | undefined,
  extra: { narrowFence?: Range; locks?: Range[]; currentWide: boolean; unacquired?: Range },
): string {
  const what = `${accessName(current)}${address ? ` of \`${address}\`` : ''} ${accessorName(me, them)}`;
  const line = (r: Range) => r.start.line + 1;
  const other = `the ${accessName(earlier)} at line ${line(earlier.range)} ${accessorName(them, me)}`;
  const before = `the ${accessName(earlier)} at line ${line(earlier.range)} before this ${accessName(current)} ${otherSide(me, them)}`;
  const producer = earlier.write || !current.write ? 'the write' : 'this write';
  let why: string;
  if (extra.unacquired && (category === 'missing-device-fence' || category === 'missing-block-fence')) {
    const fence = category === 'missing-device-fence' ? '__threadfence()' : '__threadfence_block()';
    const scope = category === 'missing-device-fence' ? 'device' : 'block';
    return `${what} races with ${other}: no release/acquire or fence pair of ${scope} scope orders ${before}: the read at line ${line(extra.unacquired)} sees a release that covers the write, but no fence after it acquires it; add \`${fence}\` after that read`;
  }
  switch (category) {
    case 'shared-memory':
      why = `nothing orders ${before}: no \`__syncthreads()\` separates them`;
      break;
    case 'missing-block-fence':
      why =
        me.warp === them.warp
          ? `nothing orders ${before}; add \`__syncwarp()\` between them`
          : `no \`__syncthreads()\`, release/acquire or fence pair of block scope orders ${before}; add \`__syncthreads()\` between them, or publish ${producer} with \`__threadfence_block()\` and a flag the reader polls before its own \`__threadfence_block()\``;
      break;
    case 'missing-device-fence':
      why = extra.narrowFence
        ? `no release/acquire or fence pair of device scope orders ${before}: the \`__threadfence_block()\` at line ${line(extra.narrowFence)} orders only within its block; use \`__threadfence()\``
        : `no release/acquire or fence pair of device scope orders ${before}; publish ${producer} with \`__threadfence()\` and a flag the reader polls before its own \`__threadfence()\` (or use release/acquire atomics)`;
      break;
    case 'lock-scope':
      why = `the lock${extra.locks?.length ? ` taken at line ${line(extra.locks[0])}` : ''} is taken with a block-scope compare-and-swap (\`atomicCAS_block\`, or \`cuda::thread_scope_block\`), which makes it a different lock in each block, so it orders nothing between blocks; give the lock's atomics and fences device scope (\`atomicCAS\`, \`atomicExch\`, \`__threadfence()\`)`;
      break;
    case 'scoped-atomic': {
      const narrow = current.atomic?.scope === 'block' ? current : earlier.atomic?.scope === 'block' ? earlier : !extra.currentWide ? current : earlier;
      why = narrow.atomic
        ? `they are neither ordered nor atomic with respect to each other: \`${atomicName(narrow.atomic)}\` at line ${line(narrow.range)} is atomic only within its own block; use the device-scope \`${atomicName({ ...narrow.atomic, scope: 'device' })}\``
        : `they are neither ordered nor morally strong: the access at line ${line(narrow.range)} has block scope, which does not include the other block; use device (or system) scope`;
      break;
    }
    default:
      why = `nothing orders ${before}`;
  }
  return `${what} races with ${other}: ${why}`;
}

/**
 * For `--engine both`: why ScoRD reports a pair that the PTX model does not call a race, in the
 * words of ScoRD's category and the reason the happens-before engine found.
 */
export function scordOnlyNote(category: RaceCategory, reason: NoRaceReason | undefined): string {
  // Why ScoRD reports it: its rule for the category, against what orders or excuses the pair.
  const scordRule: Record<RaceCategory, string> = {
    'non-strong-access': 'its rule (c) lets a fence order only volatile or atomic accesses, while PTX 6.0 and later order plain accesses by release/acquire and fence patterns too',
    'scoped-atomic': 'it reports every block-scope atomic that another block touches, while synchronisation of device scope that orders the two accesses makes their own scopes irrelevant',
    'missing-block-fence': 'its fence counters saw no block-scope fence by the first thread between its access and this one',
    'missing-device-fence': 'its fence counters saw no device-scope fence by the first thread between its access and this one',
    'missing-lock': 'its lockset check wants a common lock around both accesses',
    'lock-scope': 'it compares the locks held by the two accesses',
    'lock-fence-scope': 'it holds a lock taken with atomicCAS only once a fence of the lock\'s scope follows',
    'lock-release-fence': 'it drops the lock from accesses whose unlock had no fence of the lock\'s scope before it',
    'shared-memory': 'it looks only for a __syncthreads() between them',
    'intra-warp': 'under independent thread scheduling the lanes of a warp are ordered only by __syncwarp(), while the PTX-model engine keeps one clock for a warp until it diverges',
    'benign-same-value': 'it reports races whose writes store the value already there, as benign',
  };
  if (reason === 'morally-strong') {
    return `the PTX memory model does not call this a data race: both accesses are strong (volatile or atomic) with scopes that include each other, and the write is synchronisation (an atomic, or a flag stored right after a fence) or its reader had read a release that covers it; ScoRD reports it because ${scordRule[category]}`;
  }
  if (reason === 'ordered') return `the PTX memory model orders these accesses (happens-before through barriers, release/acquire or fence-and-flag synchronisation, possibly through other threads), so it is not a data race; ScoRD still reports it because ${scordRule[category]}`;
  return `the PTX-model engine found nothing unordered between these two accesses; ScoRD reports it because ${scordRule[category]}`;
}
