// Races on __shared__ memory between threads of one block, by barrier intervals (HAccRG,
// seed 002 §6.2): two accesses to a word by different threads with no __syncthreads() between
// them, at least one a write and not both synchronisation accesses (atomics, and loads and
// stores that name a memory order), race — read-after-write, write-after-read and
// write-after-write alike. Each word keeps its last write and the reads since, so a write is
// compared with every reader of the interval, not only the last one.
//
// Explicit release/acquire within the block (libcu++ `atomic_ref<T, thread_scope_block>`, PTX
// `st.release.cta`/`ld.acquire.cta`, `atomic_thread_fence`), as the global detector has it: once
// a program orders an access or fences, every shared access takes a sequence number. A release
// — an ordered store or RMW with release semantics, or an ordered store after a release fence —
// leaves on its word who released and the sequence number below which the releaser's accesses
// are released; an acquire — an ordered read with acquire semantics, or a strong read of a
// released word followed by an acquire fence — joins that into the acquiring warp's table of
// what it is synchronised with. Lanes of a diverged warp are told apart by the lane rule of
// lanes.ts on both sides. A strong store (volatile or atomic) after a fence releases too, as
// the global detector's flag does: `data = v; __threadfence_block(); flag = 1;` in one warp and
// `while (flag == 0); __threadfence_block(); use(data);` in another are ordered, and so are
// critical sections under a lock word in shared memory (atomicCAS, a fence ... a fence,
// atomicExch); the flag's own strong store and strong reads are the synchronisation.
import { offsetIn } from '../gpu/memory';
import { isAcquire, isRelease, type MemoryOrder, type Scope, type SimEvent } from '../ir/ir';
import { unorderedLanes, warpKey } from './lanes';
import { wordBytes } from './accessNumbers';
import type { AccessSummary, Accessor } from './findings';

type Access = Extract<SimEvent, { kind: 'access' }>;
type Fence = Extract<SimEvent, { kind: 'fence' }>;

interface SharedAccess {
  /** `summary.order` (one constant object per order and scope) names an ordered access. */
  summary: AccessSummary;
  who: Accessor;
  /** The warp's divergence epoch at the access, -1 if converged. */
  divergence: number;
  /** The access's sequence number once the launch orders anything, else 0. */
  seq: number;
  /** The warp's __syncwarp count at the access. */
  sync: number;
  /** The word after the access, and (writes) whether it held that value before. */
  value: number;
  silent: boolean;
  /** The bytes of the word it touched (0b1111 for all): neighbouring `char`s do not conflict. */
  bytes: number;
  /** A strong store after a fence of its lane: it raises a flag that strong reads may poll. */
  publish: boolean;
}

/** The last release of a word: accesses of `warp` before `upTo` (lane rule permitting) are released. */
interface Release {
  warp: number;
  lane: number;
  divergence: number;
  upTo: number;
  /** What the releaser had acquired, passed on (happens-before is transitive). */
  passOn?: Sync[];
}

/**
 * One line of a warp's "synchronised with" table: the accesses of `warp` made before `upTo`
 * and ordered with the releasing lane are ordered before the accesses of the acquiring warp
 * that are ordered after the acquiring lane.
 */
interface Sync {
  warp: number;
  /** The releasing lane and its divergence epoch (lane -1 when converged: every lane). */
  lane: number;
  divergence: number;
  upTo: number;
  /**
   * The acquiring lanes (a bit each) and their divergence epoch; converged (epoch -1), every
   * lane. One line for all the lanes that acquired the same release: a diverged warp whose 32
   * lanes each acquire what 32 lanes released (a cuda::barrier's arrive and wait) would
   * otherwise need 32 × 32 lines.
   */
  acquireLanes: number;
  acquireDivergence: number;
}

/** Whether `lane` at `divergence` is ordered after an acquire of `s` (some acquiring lane is it, or the warp was converged). */
function acquiredBy(s: Sync, lane: number, divergence: number): boolean {
  return s.acquireDivergence < 0 || divergence < 0 || divergence !== s.acquireDivergence || ((s.acquireLanes >>> lane) & 1) === 1;
}

/** A warp's side of release/acquire in its block's shared memory. */
interface WarpSync {
  /** Per lane: the sequence number of its last release fence, and its divergence epoch then. */
  fenceSeq?: number[];
  fenceDivergence?: number[];
  /** Per lane: the lines it had acquired at its last release fence, which a store after it passes on. */
  fencePassOn?: (Sync[] | undefined)[];
  /** Per lane: the sequence number of its last shared access (a store right after a fence publishes). */
  accessSeq?: number[];
  synced?: SyncTable;
  /** Strong reads of released words, waiting for an acquire fence. */
  pending?: { release: Release; lane: number; divergence: number }[];
  /** The release last joined, and by which lane: spinning on an acquire load joins it once. */
  lastJoined?: Release;
  lastLane: number;
  lastDivergence: number;
}

/**
 * A word's accesses in its block's current barrier interval. A barrier starts the word over in
 * the same objects: its records are refilled, not allocated, interval after interval.
 */
interface Word {
  interval: number;
  write: SharedAccess | undefined;
  /** A write record of an earlier interval, for the next write to refill. */
  spare: SharedAccess | undefined;
  /** The interval's readers are the first `readCount`; the records past them are for reuse. */
  reads: SharedAccess[];
  readCount: number;
  /** What the last write in the interval stored. */
  written: number | undefined;
}

/** What a shared-memory race is: threads of different warps (or diverged lanes), or lanes of one warp. */
export type SharedRace = 'shared-memory' | 'intra-warp' | 'benign-same-value';

/** Readers kept per word and interval: enough to name one conflicting reader per warp. */
const MAX_READERS = 8;
/**
 * Lines of a warp's table of synchronised warps; the oldest go first (more races, never fewer).
 * A line per releasing lane: the diverged warps of a block of 1,024 threads meeting at a barrier
 * made of ordered atomics (cuda::barrier: every lane's arrive releases) need 1,024, and the
 * release that ends it one more.
 */
const SYNC_LIMIT = 32 * 32 + 64;
/** Strong reads of released words a warp keeps for its next acquire fence. */
const PENDING_LIMIT = 8;

export class ShadowSharedMemory {
  /** Words by allocation (each block's shared memory is one), then by word offset. */
  private words = new Map<number, (Word | undefined)[]>();
  private lastAllocation = -1;
  private lastWords: (Word | undefined)[] | undefined;
  /** By block: its barrier interval (barriers passed in this launch). */
  private intervals: number[] = [];
  /** The launch has ordered an access or fenced: accesses take sequence numbers from here. */
  private seq = 0;
  /** Per block, per warp: release fences, acquired releases and pending reads. */
  private syncs = new Map<number, WarpSync[]>();
  private lastSyncBlock = -1;
  private lastSyncWarp = -1;
  private lastSync: WarpSync | undefined;
  /**
   * The last release of each word that still heads a release sequence, by the word's record
   * for its interval: a barrier starts new records, and with them no releases.
   */
  private releases = new WeakMap<Word, Release>();
  private released = false;

  /** __syncwarp() calls per warp (warpKey(block, warp)). */
  private warpSyncs = new Map<number, number>();

  /**
   * `lockstep` assumes the lanes of a warp that has not diverged run together, so conflicts
   * between them are not reported.
   */
  constructor(
    private readonly report: (e: Access, write: boolean, earlier: { summary: AccessSummary; who: Accessor }, category: SharedRace, value: number) => void,
    private readonly lockstep = false,
  ) {}

  /** __syncwarp(): the warp's lanes are ordered. */
  syncWarp(block: number, warp: number): void {
    const k = warpKey(block, warp);
    this.warpSyncs.set(k, (this.warpSyncs.get(k) ?? 0) + 1);
  }

  barrier(block: number): void {
    // What the block's warps released, fenced and acquired before the barrier is kept: it
    // covers only accesses before the barrier, which the new interval orders anyway.
    this.intervals[block] = (this.intervals[block] ?? 0) + 1;
  }

  /**
   * A fence (`__threadfence*` are seq_cst): an acquire fence completes the acquires of the strong
   * reads of released words before it; a release fence lets the lane's next ordered store
   * release what came before the fence, and what the lane had acquired by then (happens-before
   * is transitive: a warp that waited for one flag and then raised another hands the first
   * writer's accesses on).
   */
  fence(e: Fence, divergence: number): void {
    const order = e.order;
    if (order === 'relaxed') return;
    const w = this.warpSync(e.block, e.warp);
    if (order !== 'release' && w.pending) {
      const waiting = w.pending;
      w.pending = undefined;
      for (const p of waiting) {
        if (unorderedLanes(p.lane, p.divergence, e.lane, divergence)) (w.pending ??= []).push(p);
        else this.join(w, e.lane, divergence, p.release);
      }
    }
    if (order === 'acquire') return;
    if (!w.fenceSeq) {
      w.fenceSeq = [];
      w.fenceDivergence = [];
      w.fencePassOn = [];
    }
    w.fenceSeq[e.lane] = ++this.seq;
    w.fenceDivergence![e.lane] = divergence;
    w.fencePassOn![e.lane] = w.synced ? this.acquiredLines(w.synced, e.lane, divergence) : undefined;
  }

  /** Copies of the lines of `synced` the lane has acquired: the releaser's own lines go on rising after a release. */
  private acquiredLines(synced: SyncTable, lane: number, divergence: number): Sync[] | undefined {
    let lines: Sync[] | undefined;
    for (const s of synced.lines()) if (acquiredBy(s, lane, divergence)) (lines ??= []).push({ ...s });
    return lines;
  }

  /** An access to `memory`, the block's shared memory (its words read after the access). */
  access(e: Access, divergence: number, memory: SharedAllocation): void {
    const interval = this.intervals[e.block] ?? 0;
    const write = e.write && (!e.atomic || e.atomic.changed);
    const sync = e.atomic !== undefined || e.order !== undefined;
    // Programs that order nothing pay no sequence numbers.
    const seq = this.seq !== 0 || e.order !== undefined ? ++this.seq : 0;
    const allocation = memory.id;
    if (allocation !== this.lastAllocation) {
      this.lastAllocation = allocation;
      this.lastWords = this.words.get(allocation);
      if (!this.lastWords) this.words.set(allocation, (this.lastWords = []));
    }
    const offset = offsetIn(e.address, allocation);
    const first = offset >> 2;
    const last = (offset + Math.max(1, e.size) - 1) >> 2;
    const epoch = this.warpSyncs.size === 0 ? 0 : (this.warpSyncs.get(warpKey(e.block, e.warp)) ?? 0);
    // Only what writes stored is compared (benign same-value races).
    const bytes = wordBytes(offset, e.size);
    // A strong store right after a fence of its lane (no shared access of the lane between)
    // publishes: a flag, as the global detector's. Volatile stores without one (a warp-synchronous
    // reduction) conflict as any others do.
    let publish = false;
    if (seq !== 0) {
      const w = this.warpSync(e.block, e.warp);
      const fenceSeq = w.fenceSeq?.[e.lane];
      publish = write && e.strong && !sync && fenceSeq !== undefined && fenceSeq > (w.accessSeq?.[e.lane] ?? 0);
      (w.accessSeq ??= [])[e.lane] = seq;
    }
    const view = memory.view;
    for (let w = first; w <= last; w++) this.check(this.lastWords!, w, e, write, interval, divergence, sync, seq, epoch, write ? wordOf(view, w) : NaN, bytes, publish);
  }

  private check(words: (Word | undefined)[], key: number, e: Access, write: boolean, interval: number, divergence: number, sync: boolean, seq: number, epoch: number, value: number, bytes: number, publish: boolean): void {
    let word = words[key];
    if (!word) {
      word = { interval, write: undefined, spare: undefined, reads: [], readCount: 0, written: undefined };
      words[key] = word;
    } else if (word.interval !== interval) {
      // A barrier since the last access orders everything before it (releases included).
      word.interval = interval;
      if (word.write) word.spare = word.write;
      word.write = undefined;
      word.readCount = 0;
      word.written = undefined;
      if (this.released) this.releases.delete(word);
    }
    // A read (or RMW) of a released word acquires it before anything is compared.
    const release = this.released ? this.releases.get(word) : undefined;
    if (release && (!e.write || e.atomic)) this.acquire(release, e, divergence);
    // A write of what the last write stored (zeroed memory would make any copy of a zero look harmless).
    const silent = write && word.written === value;
    if (write) {
      let earlier: SharedAccess | undefined;
      let category = word.write && this.races(word.write, e, sync, divergence, epoch, bytes, publish);
      if (category) earlier = word.write;
      for (let i = 0; !earlier && i < word.readCount; i++) if ((category = this.races(word.reads[i], e, sync, divergence, epoch, bytes, publish))) earlier = word.reads[i];
      if (earlier && category) this.report(e, write, earlier, benign(earlier, e, write, value, silent) ? 'benign-same-value' : category, value);
      word.write = stamp(record(e, write, divergence, seq, word.write ?? word.spare), epoch, value, silent, bytes, publish);
      word.spare = undefined;
      word.readCount = 0;
    } else {
      const category = word.write && this.races(word.write, e, sync, divergence, epoch, bytes, false);
      // A read has no value of its own: a benign race is named by what the write left.
      if (category) this.report(e, write, word.write!, benign(word.write!, e, write, value, silent) ? 'benign-same-value' : category, word.write!.value);
      this.addReader(word, e, divergence, seq, epoch, value, bytes);
    }
    if (write) word.written = value;
    // Only strong writes release (ordered, or volatile or atomic after a fence), and only stores
    // end a release: a plain write to an unreleased word changes nothing.
    if (seq !== 0 && e.write && (e.order !== undefined || e.strong || release)) this.release(word, release, e, divergence, seq);
  }

  private addReader(word: Word, e: Access, divergence: number, seq: number, epoch: number, value: number, bytes: number): void {
    if (word.readCount >= MAX_READERS) return;
    for (let i = 0; i < word.readCount; i++) {
      const r = word.reads[i];
      if (r.who.warp === e.warp && (r.who.lane === e.lane || r.divergence < 0) && r.bytes === bytes) {
        // The warp's latest read (of the same bytes) stands for its earlier ones: whatever
        // orders it orders them. Its sequence number matters once something was released, its
        // epoch and __syncwarp count whenever they change.
        if ((seq !== 0 && (this.released || r.divergence !== divergence)) || r.sync !== epoch) stamp(record(e, false, divergence, seq, r), epoch, value, false, bytes, false);
        return;
      }
    }
    const into = word.reads[word.readCount];
    word.reads[word.readCount++] = stamp(record(e, false, divergence, seq, into), epoch, value, false, bytes, false);
  }

  /** How the earlier access `other` and `e` race, if they conflict and no acquired release orders them. */
  private races(other: SharedAccess, e: Access, sync: boolean, divergence: number, epoch: number, bytes: number, publish: boolean): SharedRace | undefined {
    if ((other.bytes & bytes) === 0) return undefined; // different bytes of the word
    // A flag raised by a strong store after a fence, polled by strong reads: the synchronisation.
    if (e.strong && other.summary.strong && (publish ? !other.summary.write : other.publish && !e.write)) return undefined;
    const category = conflicts(other, e, sync, divergence, epoch, this.lockstep);
    if (!category) return undefined;
    // Only acquired releases order anything: none before the first release.
    return !this.released || !this.orderedBefore(other, e, divergence) ? category : undefined;
  }

  /** `other` is ordered before `e` by a release that `e`'s warp acquired. */
  private orderedBefore(other: SharedAccess, e: Access, divergence: number): boolean {
    const lines = this.syncs.get(e.block)?.[e.warp]?.synced?.ofWarp(other.who.warp);
    if (!lines) return false;
    for (const s of lines) {
      if (other.seq >= s.upTo) continue;
      if (unorderedLanes(other.who.lane, other.divergence, s.lane, s.divergence)) continue;
      if (acquiredBy(s, e.lane, divergence)) return true;
    }
    return false;
  }

  /** An acquire of `release`, or, for a strong read without one, a read the next acquire fence completes. */
  private acquire(release: Release, e: Access, divergence: number): void {
    if (isAcquire(e.order)) this.join(this.warpSync(e.block, e.warp), e.lane, divergence, release);
    else if (e.strong) {
      const w = this.warpSync(e.block, e.warp);
      const pending = (w.pending ??= []);
      const last = pending[pending.length - 1];
      if (last && last.release === release && last.lane === e.lane && last.divergence === divergence) return;
      pending.push({ release, lane: e.lane, divergence });
      if (pending.length > PENDING_LIMIT) pending.shift();
    }
  }

  /** The lane of `w` at `divergence` has acquired `release` (and what its releaser had). */
  private join(w: WarpSync, lane: number, divergence: number, release: Release): void {
    if (w.lastJoined === release && w.lastLane === lane && w.lastDivergence === divergence) return;
    w.lastJoined = release;
    w.lastLane = lane;
    w.lastDivergence = divergence;
    const synced = (w.synced ??= new SyncTable());
    synced.add(release.warp, release.lane, release.divergence, release.upTo, lane, divergence);
    if (release.passOn) for (const s of release.passOn) synced.add(s.warp, s.lane, s.divergence, s.upTo, lane, divergence);
  }

  /**
   * A store or RMW to a word: with release semantics it releases everything its warp did before
   * it (lane rule permitting); an ordered or strong store after a release fence, what came before the
   * fence; any other store overwrites the released value, while RMWs continue its sequence.
   */
  private release(word: Word, released: Release | undefined, e: Access, divergence: number, seq: number): void {
    if (e.atomic && e.atomic.op === 'CAS' && !e.atomic.changed) return; // a failed CAS only reads
    const order = e.order;
    if (isRelease(order)) {
      const w = this.syncs.get(e.block)?.[e.warp];
      const passOn = w?.synced ? this.acquiredLines(w.synced, e.lane, divergence) : undefined;
      this.setRelease(word, { warp: e.warp, lane: e.lane, divergence, upTo: seq, ...(passOn ? { passOn } : {}) });
      return;
    }
    const fenced = order === undefined && !e.strong ? undefined : this.syncs.get(e.block)?.[e.warp];
    const fenceSeq = fenced?.fenceSeq?.[e.lane];
    // What the lane had acquired by the fence is passed on; what it acquired between the fence and the store is not released.
    if (fenceSeq !== undefined) {
      const passOn = fenced!.fencePassOn![e.lane];
      this.setRelease(word, { warp: e.warp, lane: e.lane, divergence: fenced!.fenceDivergence![e.lane], upTo: fenceSeq, ...(passOn ? { passOn } : {}) });
    }
    else if (released && !e.atomic) this.releases.delete(word);
  }

  private setRelease(word: Word, release: Release): void {
    this.releases.set(word, release);
    this.released = true;
  }

  private warpSync(block: number, warp: number): WarpSync {
    // Every lane of a warp reports its fence: the warp asked for last is most often asked for again.
    if (block === this.lastSyncBlock && warp === this.lastSyncWarp) return this.lastSync!;
    let row = this.syncs.get(block);
    if (!row) this.syncs.set(block, (row = []));
    this.lastSyncBlock = block;
    this.lastSyncWarp = warp;
    return (this.lastSync = row[warp] ?? (row[warp] = { lastLane: -1, lastDivergence: -1 }));
  }
}

/** What the shadow needs of the block's shared-memory allocation. */
export interface SharedAllocation {
  id: number;
  view: DataView;
}

/** The 4-byte word `w` of the allocation (0 past its end). */
function wordOf(view: DataView, w: number): number {
  const at = w * 4;
  return at + 4 <= view.byteLength ? view.getUint32(at, true) : 0;
}

/**
 * A warp's table of synchronised warps: its lines by releasing warp (what orderedBefore looks
 * at), indexed by what makes lines the same (releasing lane and epoch, acquiring epoch), and in
 * the order they came, for the oldest to go first past SYNC_LIMIT.
 */
class SyncTable {
  private readonly byWarp: Sync[][] = [];
  /** By releasing warp and lane (warp * 33 + lane + 1), then releasing epoch, then acquiring epoch. */
  private readonly index = new Map<number, Map<number, Map<number, Sync[]>>>();
  private readonly order: Sync[] = [];
  /** Lines evicted from `order`'s front, not yet removed from it (a shift per line would cost its length). */
  private head = 0;

  ofWarp(warp: number): readonly Sync[] | undefined {
    return this.byWarp[warp];
  }

  *lines(): Generator<Sync> {
    for (let i = this.head; i < this.order.length; i++) yield this.order[i];
  }

  /** Adds a line, raising the line it extends if there is one. */
  add(warp: number, lane: number, divergence: number, upTo: number, acquireLane: number, acquireDivergence: number): void {
    // Converged, the lane does not matter: one line for the warp.
    if (divergence < 0) lane = -1;
    const bit = acquireDivergence < 0 ? -1 : 1 << acquireLane;
    const same = this.same(warp, lane, divergence, acquireDivergence);
    for (const s of same) {
      // The same release seen by another lane: one more acquirer. A later release to the same
      // lanes: it orders more.
      if (s.upTo === upTo) {
        s.acquireLanes |= bit;
        return;
      }
      if (s.acquireLanes === bit && upTo > s.upTo) {
        s.upTo = upTo;
        return;
      }
      if ((s.acquireLanes & bit) === bit && upTo <= s.upTo) return;
    }
    const line: Sync = { warp, lane, divergence, upTo, acquireLanes: bit, acquireDivergence };
    same.push(line);
    (this.byWarp[warp] ??= []).push(line);
    this.order.push(line);
    if (this.order.length - this.head > SYNC_LIMIT) this.evict(this.order[this.head++]);
    if (this.head > SYNC_LIMIT) {
      this.order.splice(0, this.head);
      this.head = 0;
    }
  }

  /** The lines of one releasing lane and epoch acquired at one epoch (made empty if none). */
  private same(warp: number, lane: number, divergence: number, acquireDivergence: number): Sync[] {
    const k = warp * 33 + lane + 1;
    let byDivergence = this.index.get(k);
    if (!byDivergence) this.index.set(k, (byDivergence = new Map()));
    let byAcquire = byDivergence.get(divergence);
    if (!byAcquire) byDivergence.set(divergence, (byAcquire = new Map()));
    let lines = byAcquire.get(acquireDivergence);
    if (!lines) byAcquire.set(acquireDivergence, (lines = []));
    return lines;
  }

  /** Takes a line out of the warp's list and the index; emptied parts of the index go too (epochs only grow). */
  private evict(line: Sync): void {
    const ofWarp = this.byWarp[line.warp];
    ofWarp.splice(ofWarp.indexOf(line), 1);
    const k = line.warp * 33 + line.lane + 1;
    const byDivergence = this.index.get(k)!;
    const byAcquire = byDivergence.get(line.divergence)!;
    const lines = byAcquire.get(line.acquireDivergence)!;
    lines.splice(lines.indexOf(line), 1);
    if (lines.length) return;
    byAcquire.delete(line.acquireDivergence);
    if (byAcquire.size) return;
    byDivergence.delete(line.divergence);
    if (!byDivergence.size) this.index.delete(k);
  }
}

/** The access as the shadow memory keeps it, refilling `into` when given (no allocation). */
function record(e: Access, write: boolean, divergence: number, seq: number, into?: SharedAccess): SharedAccess {
  // The event's atomic is its site's own constant: kept as it is, not copied.
  const atomic = e.atomic;
  const order = e.order === undefined ? undefined : orderOf(e.order, e.orderScope ?? atomic?.scope ?? 'device');
  // One object shape whether or not the access is atomic or ordered (`atomic: undefined`).
  if (!into) return { summary: { range: e.range, write, strong: e.strong, atomic, order }, who: { block: e.block, warp: e.warp, lane: e.lane }, divergence, seq, sync: 0, value: 0, silent: false, bytes: 0b1111, publish: false };
  const s = into.summary;
  s.range = e.range;
  s.write = write;
  s.strong = e.strong;
  s.atomic = atomic;
  s.order = order;
  into.who.block = e.block;
  into.who.warp = e.warp;
  into.who.lane = e.lane;
  into.divergence = divergence;
  into.seq = seq;
  return into;
}

type OrderTag = NonNullable<AccessSummary['order']>;
const MEMORY_ORDERS: MemoryOrder[] = ['relaxed', 'acquire', 'release', 'acq_rel', 'seq_cst'];
const SCOPES: Scope[] = ['block', 'device', 'system'];
/** One frozen `{ order, scope }` per pair: ordered records share them instead of allocating. */
const ORDERS = Object.fromEntries(MEMORY_ORDERS.map((order) => [order, Object.fromEntries(SCOPES.map((scope) => [scope, Object.freeze({ order, scope })]))])) as Record<MemoryOrder, Record<Scope, OrderTag>>;
function orderOf(order: MemoryOrder, scope: Scope): OrderTag {
  return ORDERS[order][scope];
}

/**
 * Whether `other` and the access `e` are by different threads and not both synchronisation
 * (atomic or ordered): threads of different warps or diverged lanes, or (unless `lockstep`)
 * two lanes of one warp with no __syncwarp() between them.
 */
function conflicts(other: SharedAccess, e: Access, sync: boolean, divergence: number, epoch: number, lockstep: boolean): SharedRace | undefined {
  if (sync && (other.summary.atomic !== undefined || other.summary.order !== undefined)) return undefined;
  if (other.who.warp !== e.warp || unorderedLanes(other.who.lane, other.divergence, e.lane, divergence)) return 'shared-memory';
  return !lockstep && other.who.lane !== e.lane && other.sync === epoch ? 'intra-warp' : undefined;
}

/** The race leaves the word as either order would (as scord.ts's sameValue); atomics are never benign. */
function benign(earlier: SharedAccess, e: Access, write: boolean, value: number, silent: boolean): boolean {
  if (earlier.summary.atomic || e.atomic) return false;
  if (earlier.summary.write && write) return earlier.value === value;
  return earlier.summary.write ? earlier.silent : silent;
}

/** Sets the fields `record` leaves alone: the warp's __syncwarp count and the word's value. */
function stamp(a: SharedAccess, sync: number, value: number, silent: boolean, bytes: number, publish: boolean): SharedAccess {
  a.sync = sync;
  a.value = value;
  a.silent = silent;
  a.bytes = bytes;
  a.publish = publish;
  return a;
}
