// The ScoRD scoped race detector (Kamath, George and Basu; seed 000, §IV) on the simulator's
// event stream: metadata per word of global memory, a fence file, barrier IDs, locks inferred
// from atomicCAS + fence and released by atomicExch, the preliminary checks of Table III and
// the race conditions (a)–(f) of Table IV. Two precisions:
//
// - exact (default): unbounded counters, exact locksets, one entry per word, and fence files
//   and lock tables per thread, so the diverged lanes of a warp are told apart (§VI);
// - hardware-faithful: the paper's bounded structures — 6-bit fence IDs and 8-bit barrier IDs
//   that wrap, a fence file per warp, a 4-entry lock table, a 16-bit lock Bloom filter and one
//   metadata entry per 16 words with a 4-bit tag — so its figures can be reproduced.
//
// Beyond the paper: a CAS that does not change memory is an atomic read, not an acquire, a
// test-and-set lock (atomicExch of non-zero, a fence ... a fence, atomicExch of zero) orders
// its critical sections in exact mode, and __shared__ memory is checked with barrier intervals
// (HAccRG, seed 002 §6.2).
//
// Explicit acquire/release (libcu++ memory orders, PTX .acquire/.release, §VI's sketch) is the
// release file's (./releaseFile.ts); fence-based code with volatile or legacy atomic flags keeps
// the paper's rules (fences order only strong accesses). What the detector remembers is in
// ./scordRecords.ts, how it reports in ./scordReport.ts and ./scordMessages.ts.
import type { Range } from '../frontend/source';
import type { Allocation, Memory } from '../gpu/memory';
import { makePointer, offsetIn, pointerAllocation, pointerOffset } from '../gpu/memory';
import { isRelease, type EventListener, type SimEvent } from '../ir/ir';
import { sameThread, unorderedLanes, warpKey, WARPS_PER_BLOCK } from './lanes';
import { nameAddress } from '../gpu/lvalue';
import { ShadowSharedMemory } from './sharedMemory';
import { accessName, type AccessSummary, type LockSites, type RaceCategory, type RaceFinding } from './findings';
import { detectorListener, type AccessView, type ControlEvent, type Detector, type DetectorState } from './detector';
import { ScordReporter } from './scordReport';
import type { AccessRecord, FenceFile, LockEntry, LockTable, Meta } from './scordRecords';
import { ReleaseFile, scopeRank } from './releaseFile';
import { ReadsBeforeWrite } from './readsBeforeWrite';
import { PlainWords } from './plainWords';
import { setDense } from './denseArray';
import { LockstepStores } from './lockstepStores';
import { wordBytes } from './accessNumbers';

export interface DetectorOptions {
  /** Bytes per metadata entry: 4 is one word (the paper's design); 8–64 for its Table VII. */
  granularity?: number;
  hardwareFaithful?: boolean;
  /** Independent thread scheduling: diverged lanes of a warp are separate accessors (§VI). */
  perThreadWhenDiverged?: boolean;
  /** Count the words accessed, for metadataBytesPerTrackedByte (costs a set insertion per access). */
  measureMetadata?: boolean;
  /** Record every access to this address (`data[3]`), in order, for the inspector. */
  trace?: string;
  /**
   * Assume the lanes of a warp that has not diverged run in lockstep (pre-Volta, GPUVerify's
   * --warp-sync): they are one accessor, and the only conflicts between them reported are
   * lanes of one store writing one word (lockstepStores.ts).
   */
  warpSync?: boolean;
}

type Access = Extract<SimEvent, { kind: 'access' }>;

/** The lockset of an access made holding no lock (the common case; never modified). */
const NO_LOCKS: Set<string> = new Set();

const FENCE_BITS = 6;
const BARRIER_BITS = 8;
const LOCK_TABLE = 4;
const WORDS_PER_ENTRY = 16;
/** Distinct (allocation, word) keys for the touched-word count: words per allocation. */
const TOUCHED_STRIDE = 2 ** 30;
/** Accesses kept by a trace. */
const TRACE_LIMIT = 10_000;
/** Accesses of one critical section an unfenced unlock can still take the lock from. */
const SECTION_LIMIT = 64;

/** Where a call of `range` is made on lock `word`, once per place. */
function addSite(sites: Map<number, Range[]>, word: number, range: Range): void {
  const known = sites.get(word);
  if (!known) sites.set(word, [range]);
  else if (!known.includes(range)) known.push(range);
}

/** A lock word's atomics that decide whether its scopes reach across blocks. */
interface LockWordAtomics {
  /** The last device-scope atomicCAS that took it, and the last one before it from another block. */
  take?: AccessRecord;
  takeOther?: AccessRecord;
  /** The last block-scope atomicExch that released it. */
  narrowRelease?: AccessRecord;
  /** The last block-scope atomicCAS that changed it, and its thread's lock entry for it. */
  narrowTake?: { rec: AccessRecord; entry: LockEntry | undefined };
}

export class ScordDetector implements Detector {
  /** Metadata by allocation, then by entry within it (small integer keys hash fast). */
  private meta = new MetaTable();
  /** Exact mode: entries of words written by one thread only, in numbers (the rest are promoted to `meta`). */
  private readonly plain: PlainWords | undefined;
  /**
   * Fence files by block, then by thread in the block (exact) or warp (hardware-faithful). In
   * exact mode a thread that has not fenced yet holds its warp's file in `unfenced` (all zero:
   * a launch of 16 M threads that mostly never fence would otherwise hold 16 M objects) and
   * gets one of its own at its first fence.
   */
  private fences: FenceFile[][] = [];
  /** Exact mode: by block, then warp, the file of the warp's threads that have not fenced. */
  private unfenced: FenceFile[][] = [];
  private barriers: number[] = [];
  /**
   * Exact mode, by block: the barrier interval of its last device-scope fence (any thread's).
   * An access of an earlier interval is ordered before that fence by the barrier between them:
   * a block's writes published by one thread's `__syncthreads(); __threadfence();` (a software
   * grid barrier, the last-block reduction) are fenced for the other blocks.
   */
  private deviceFenceInterval: number[] = [];
  private locks = new Map<number, LockTable>();
  /**
   * By warp: the locks its lanes held at its last __syncwarp(), with the entry that holds each.
   * A leader lane that takes a lock and then meets its warp at __syncwarp() has taken it for the
   * warp (the warp-level lock of ScoR's uts): until the leader releases it, every lane of the
   * warp holds it.
   */
  private warpLocks = new Map<number, { table: LockTable; entry: LockEntry }[]>();
  /** Lock keys by word (device scope) and by word and block: a CAS names its lock without building a string. */
  private readonly deviceLockKeys = new Map<number, string>();
  private readonly blockLockKeys = new Map<number, Map<number, string>>();
  /** The lockset of a thread holding just that lock. */
  private readonly singleLocks = new Map<string, Set<string>>();
  /** Per lock word: where it is taken with a block-scope atomicCAS in this launch (a lock-scope race names them). */
  private blockLockSites = new Map<number, Range[]>();
  /** Per lock word: where a test-and-set lock is taken with atomicExch_block in this launch. */
  private blockExchangeSites = new Map<number, Range[]>();
  /** Per lock word: where a lock taken at block scope is released with a block-scope atomicExch (named beside those). */
  private blockUnlockSites = new Map<number, Range[]>();
  /** Per lock word: its atomics as they bear on scope across blocks (see lockWordScope). */
  private lockWordAtomics = new Map<number, LockWordAtomics>();
  /** Lock words some thread has released in this launch: a lock protocol is in use on them. */
  private releasedLockWords = new Set<number>();
  /** Locks taken and released so far (never reset: entries of every launch compare by it). */
  private lockEvents = 0;
  /** Lock-table entries held now, by all threads (no critical section to note while there are none). */
  private held = 0;
  /** Per warp (`warpKey(block, warp)`): its divergence epoch (odd while diverged). */
  private divergence: number[] = [];
  /** Some warp has diverged in this launch: until then every access is of a converged warp. */
  private anyDivergence = false;
  private shared: ShadowSharedMemory;
  /** Explicit acquire/release (§VI): the release file and what each warp has acquired. */
  private readonly ordering: ReleaseFile;
  private readonly reporter: ScordReporter;
  /**
   * Exact mode: reads of words not yet written in this launch (or since its last grid
   * barrier), direct-mapped by word so that input data costs no metadata entry; a read whose
   * slot another word took is forgotten, as the paper's metadata cache forgets entries.
   */
  private readsBeforeWrite: ReadsBeforeWrite | undefined;
  /** Bumped by launches and grid barriers: older reads are ordered before every later access. */
  private readGeneration = 1;
  private readonly trace?: string;
  private readonly traced: NonNullable<DetectorState['trace']>['accesses'] = [];
  /** Launches seen so far; a trace says which launch each access belongs to. */
  private launches = 0;
  private readonly granularity: number;
  private readonly faithful: boolean;
  private readonly perThread: boolean;
  private readonly warpSync: boolean;
  /** Lockstep warps only: the lanes of each warp's current store, which nothing orders (lockstepStores.ts). */
  private lockstepStores?: LockstepStores;
  /** Words of global memory accessed, counted only for the metadata-size benchmark. */
  private readonly touched?: Set<number>;
  private entries = 0;
  /** A read kept in numbers, as a record while a write is compared with it. */
  private readonly readScratch: AccessRecord = blankRecord();
  /** The access being checked, before it is stored (reused: most accesses store nothing new). */
  private scratch: AccessRecord = blankRecord();

  constructor(
    private readonly memory: Memory,
    options: DetectorOptions = {},
  ) {
    this.granularity = options.granularity ?? 4;
    this.faithful = !!options.hardwareFaithful;
    if (!this.faithful) this.plain = new PlainWords(memory.account);
    this.perThread = options.perThreadWhenDiverged ?? true;
    // Lockstep scheduling (pre-Volta) runs an undiverged warp's lanes together.
    this.warpSync = !!options.warpSync || !this.perThread;
    if (this.warpSync) this.lockstepStores = new LockstepStores();
    if (options.measureMetadata) this.touched = new Set();
    if (options.trace) this.trace = options.trace;
    this.reporter = new ScordReporter(memory, this.granularity, (block, warp, lane) => this.fenceFile(block, warp, lane), (block) => this.barrierId(block));
    this.shared = this.newShadow();
    this.ordering = new ReleaseFile(this.faithful, (block) => this.barrierId(block), BARRIER_BITS);
  }

  readonly listener: EventListener = detectorListener(
    (e) => this.onAccess(e),
    (of) => this.reporter.found.repeatLaunch(of),
    (e) => this.onControl(e),
  );

  private onControl(e: ControlEvent): void {
    switch (e.kind) {
      case 'launch':
        // Kernels run to completion one after another: nothing races across launches. The
        // entries' objects are reused by the next launch (no lock section refers to them now).
        this.reporter.found.beginLaunch();
        if (this.lockstepStores) this.lockstepStores = new LockstepStores();
        this.meta.reset();
        this.plain?.reset(true);
        this.fences = [];
        this.unfenced = [];
        this.barriers = [];
        this.deviceFenceInterval = [];
        this.locks = new Map();
        this.warpLocks = new Map();
        this.blockLockSites = new Map();
        this.blockUnlockSites = new Map();
        this.blockExchangeSites = new Map();
        this.releasedLockWords = new Set();
        this.lockWordAtomics = new Map();
        this.held = 0;
        this.divergence = [];
        this.anyDivergence = false;
        this.shared = this.newShadow();
        this.ordering.reset(true);
        this.launches++;
        this.readGeneration++;
        return;
      case 'grid-barrier':
        // grid.sync(): every access before it is ordered before every access after it, as
        // between launches; locks held and fence counters carry on.
        this.meta = new MetaTable();
        this.plain?.reset(false);
        this.shared = this.newShadow();
        this.ordering.reset(false);
        this.readGeneration++;
        return;
      case 'barrier': {
        this.lockstepStores?.endBlock(e.block);
        setDense(this.barriers, e.block, (this.barriers[e.block] ?? 0) + 1);
        if (this.ordering.ordering) this.ordering.publishAtBarrier(e.block);
        // A barrier reconverges every warp of the block.
        if (this.anyDivergence) for (let w = 0; w < WARPS_PER_BLOCK; w++) this.endDivergence(e.block, w);
        this.shared.barrier(e.block);
        return;
      }
      case 'warp-sync':
        this.lockstepStores?.end(e.block, e.warp);
        if (this.locks.size > 0) this.shareWarpLocks(e.block, e.warp);
        this.endDivergence(e.block, e.warp);
        this.ordering.warpOrder(e.block, e.warp).sync++;
        this.shared.syncWarp(e.block, e.warp);
        return;
      case 'reconverge':
        this.lockstepStores?.end(e.block, e.warp);
        return;
      case 'diverge':
        this.lockstepStores?.end(e.block, e.warp);
        if (!this.perThread) return;
        {
          const k = warpKey(e.block, e.warp);
          const v = this.divergence[k] ?? 0;
          if (v % 2 === 0) setDense(this.divergence, k, v + 1);
          this.anyDivergence = true;
        }
        return;
      case 'fence':
        this.shared.fence(e, this.epoch(e.block, e.warp));
        this.fence(e);
        return;
    }
  }

  private onAccess(e: Access): void {
    if (e.space !== 'device') return;
    const a = this.memory.allocation(pointerAllocation(e.address));
    if (!a) return;
    const space = a.space;
    if (space === 'global' || space === 'managed') {
      if (this.trace) this.traceAccess(e);
      if (this.lockstepStores?.access(e)) this.lanesOfOneStore(e, a);
      this.access(e, a);
    } else if (space === 'shared') {
      if (this.trace) this.traceAccess(e);
      if (this.lockstepStores?.access(e)) this.lanesOfOneStore(e, a);
      this.shared.access(e, this.epoch(e.block, e.warp), a);
    }
  }

  /**
   * A plain store of a lockstep warp: a word an earlier lane of the same store wrote is an
   * intra-warp race (benign when both left one value), which lockstep does not order.
   */
  private lanesOfOneStore(e: Access, a: Allocation): void {
    const stores = this.lockstepStores!;
    const offset = offsetIn(e.address, a.id);
    const bytes = wordBytes(offset, e.size);
    const last = (offset + Math.max(1, e.size) - 1) >> 2;
    for (let w = offset >> 2; w <= last; w++) {
      const value = (w << 2) + 4 <= a.size ? a.view.getInt32(w << 2, true) : NaN;
      const earlier = stores.written(e.lane, a.id * 2 ** 32 + w, bytes, value);
      if (!earlier) continue;
      const summary: AccessSummary = { range: e.range, write: true, strong: e.strong };
      const category = earlier.value === value ? 'benign-same-value' : 'intra-warp';
      this.reporter.reportPair(e, true, { summary, who: { block: e.block, warp: e.warp, lane: earlier.lane } }, category, value, a.space === 'shared' ? 'shared' : 'global');
      return;
    }
  }

  /** Whether the thread of `e` holds a lock now. */
  private holdsLock(e: Access): boolean {
    return this.locks.size !== 0 && !isEmpty(this.heldLocks(this.locks.get(this.lockTableKey(e.block, e.warp, e.lane))));
  }

  /** The races found. The run is over: the table of reads goes back for the next detector of this thread. */
  findings(): RaceFinding[] {
    this.readsBeforeWrite?.giveBack();
    this.readsBeforeWrite = undefined;
    return this.reporter.found.all();
  }

  /**
   * What the detector holds now (after a run: for its last launch) — the metadata inspector's
   * view: entries of tracked words (at most `limit`), fence files, lock tables, barrier IDs
   * and, when a trace was asked for, every access to that address in order.
   */
  state(limit = 2000): DetectorState {
    const view = (r: AccessRecord): AccessView => ({
      accessor: { block: r.block, warp: r.warp, lane: r.lane },
      access: accessName({ range: r.range, write: r.write, strong: r.strong, ...(r.isAtom && r.atomic ? { atomic: r.atomic } : {}), ...(r.order !== undefined ? { order: { order: r.order, scope: r.orderScope ?? 'device' } } : {}) }),
      range: r.range,
      barrierId: r.barrier,
      blockFenceId: r.blkFence,
      deviceFenceId: r.devFence,
      strong: r.strong,
      locks: this.reporter.lockNames(r.locks),
    });
    const entries: DetectorState['entries'] = [];
    const entry = (allocation: number, word: number, last: AccessRecord, lastWrite: AccessRecord | undefined, md?: Meta) => ({
      address: nameAddress(this.memory, makePointer(allocation, word * this.granularity)) ?? `word ${word} of allocation ${allocation}`,
      last: view(last),
      ...(lastWrite && lastWrite !== last ? { lastWrite: view(lastWrite) } : {}),
      ...(md && this.faithful ? { flags: { modified: md.modified, blkShared: md.blkShared, devShared: md.devShared, strong: md.strong } } : {}),
    });
    for (const [allocation, key, md] of this.meta.all()) {
      if (entries.length >= limit) break;
      entries.push(entry(allocation, this.faithful ? key * WORDS_PER_ENTRY + md.tag : key, md.last, md.lastWrite, md));
    }
    for (const [allocation, word, last, lastWrite] of this.plain?.entries(this.noLocks(), blankRecord) ?? []) {
      if (entries.length >= limit) break;
      entries.push(entry(allocation, word, last, lastWrite));
    }
    return {
      precision: this.faithful ? 'hardware-faithful' : 'exact',
      granularity: this.granularity,
      entries,
      entriesTotal: this.meta.size() + (this.plain?.size() ?? 0),
      fenceFiles: this.fences.flatMap((files, block) =>
        files.flatMap((f, i) => (f ? [{ block, warp: this.faithful ? i : i >> 5, ...(this.faithful ? {} : { lane: i & 31 }), blockFenceId: f.blk, deviceFenceId: f.dev }] : [])),
      ),
      lockTables: [...this.locks]
        .filter(([, t]) => t.entries.length)
        .map(([k, t]) => ({ block: Math.floor(k / (WARPS_PER_BLOCK * 32)), warp: Math.floor(k / 32) % WARPS_PER_BLOCK, lane: k % 32, locks: t.entries.map((l) => ({ name: this.reporter.lockName(l.key), scope: l.scope, held: l.active, acquire: l.acquire })) })),
      barriers: [...this.barriers.keys()].filter((block) => this.barriers[block] !== undefined).map((block) => ({ block, barrierId: this.barrierId(block) })),
      ...(this.trace ? { trace: { address: this.trace, accesses: this.traced, truncated: this.traced.length >= TRACE_LIMIT } } : {}),
    };
  }

  private traceAccess(e: Access): void {
    if (this.traced.length >= TRACE_LIMIT || nameAddress(this.memory, e.address, e.size) !== this.trace) return;
    this.traced.push({
      launch: this.launches,
      accessor: { block: e.block, warp: e.warp, lane: e.lane },
      access: accessName({ range: e.range, write: e.write, strong: e.strong, ...(e.atomic ? { atomic: e.atomic } : {}), ...(e.order !== undefined ? { order: { order: e.order, scope: e.orderScope ?? 'device' } } : {}) }),
      range: e.range,
      strong: e.strong,
    });
  }

  /** Modelled metadata size per byte of global memory it tracks (the paper's overhead measure). */
  metadataBytesPerTrackedByte(): number {
    if (!this.touched?.size) return 0;
    // Exact: two access records (last access, last write) of block, warp, lane, barrier and
    // two fence IDs at 32 bits, flags and scope: 40 bytes; hardware-faithful: the paper's
    // 8-byte entry per 16 words.
    const bytes = this.faithful ? this.entries * 8 : this.entries * 40;
    return bytes / (this.touched.size * this.granularity);
  }

  private endDivergence(block: number, warp: number): void {
    const k = warpKey(block, warp);
    const v = this.divergence[k];
    if (v !== undefined && v % 2 === 1) this.divergence[k] = v + 1;
  }

  /** The warp's divergence epoch while it is diverged, -1 while converged. */
  private epoch(block: number, warp: number): number {
    // Until some warp diverges in the launch (most launches), every access is of a converged warp: no lookup.
    if (!this.anyDivergence) return -1;
    const v = this.divergence[warpKey(block, warp)];
    return v !== undefined && v % 2 === 1 ? v : -1;
  }

  /** The fence file an access reads (exact: the thread's, or its warp's unfenced one; hardware-faithful: the warp's). */
  private fenceFile(block: number, warp: number, lane: number): FenceFile {
    const files = this.fences[block] ?? setDense(this.fences, block, []);
    if (this.faithful) return files[warp] ?? (files[warp] = this.newFenceFile(block, warp));
    const i = warp * 32 + lane;
    return files[i] ?? (files[i] = this.unfencedFile(block, warp));
  }

  private unfencedFile(block: number, warp: number): FenceFile {
    const files = this.unfenced[block] ?? setDense(this.unfenced, block, []);
    return files[warp] ?? (files[warp] = this.newFenceFile(block, warp));
  }

  private newFenceFile(block: number, warp: number): FenceFile {
    return { blk: 0, dev: 0, lastLane: -1, fencedLast: false, fencedLastDev: false, order: this.ordering.warpOrder(block, warp) };
  }

  /** The fence file a fence changes: the thread's own (made at its first fence) or, hardware-faithful, the warp's. */
  private ownFenceFile(block: number, warp: number, lane: number): FenceFile {
    const f = this.fenceFile(block, warp, lane);
    if (this.faithful || f !== this.unfenced[block]?.[warp]) return f;
    return (this.fences[block][warp * 32 + lane] = this.newFenceFile(block, warp));
  }

  private fence(e: Extract<SimEvent, { kind: 'fence' }>): void {
    const f = this.ownFenceFile(e.block, e.warp, e.lane);
    if (this.faithful) {
      // The lanes of a warp each report the fence; it is one fence instruction.
      const again = f.lastRange === e.range && e.lane > f.lastLane;
      f.lastRange = e.range;
      f.lastLane = e.lane;
      if (again) return;
    }
    // __threadfence* carry no order or seq_cst: both halves. A relaxed fence orders nothing; an
    // acquire fence orders nothing before it, so it is no fence for the paper's fence IDs.
    const order = e.order;
    if (order === 'relaxed') return;
    if (order !== 'acquire') {
      f.fencedLast = true;
      if (e.scope !== 'block') f.fencedLastDev = true;
      // Exact IDs wrap only past 2^30 fences of one thread, never within a step budget (and stay
      // small integers: `% Infinity` would make them doubles).
      const wrap = this.faithful ? 1 << FENCE_BITS : 0x40000000;
      if (e.scope === 'block') {
        f.blk = (f.blk + 1) % wrap;
        f.lastBlockFence = e.range;
      } else {
        f.dev = (f.dev + 1) % wrap;
        // Exact mode: a barrier orders every access of the block before it ahead of this fence.
        if (!this.faithful) this.deviceFenceInterval[e.block] = this.barrierId(e.block);
      }
      // A release fence: an ordered strong store after it releases what came before it.
      const w = f.order;
      w.fenceRel = ++w.rel;
      w.fenceBar = this.barrierId(e.block);
      w.relFence = e.range;
      if (e.scope !== 'block') {
        w.fenceRelDev = w.rel;
        w.fenceBarDev = w.fenceBar;
      }
      if (order === 'release') return;
    }
    // An acquire fence completes the acquires of the strong reads of released locations before it.
    if (f.order.pending) this.ordering.acquirePending(f.order, e);
    // A fence after atomicCAS makes the inferred lock held (entries of its scope or less).
    const table = this.locks.size === 0 ? undefined : this.locks.get(this.lockTableKey(e.block, e.warp, e.lane));
    if (!table) return;
    for (const entry of table.entries) {
      if (entry.active) continue;
      if (scopeRank(entry.scope) <= scopeRank(e.scope)) {
        entry.active = true;
        this.held++;
        table.held = undefined;
      } else entry.narrowFence ??= e.range;
    }
  }

  /** `word`, or `word@block` for a lock of block scope (block -1: device scope). */
  private lockKey(word: number, block: number): string {
    if (block < 0) {
      let key = this.deviceLockKeys.get(word);
      if (key === undefined) this.deviceLockKeys.set(word, (key = `${word}`));
      return key;
    }
    let byBlock = this.blockLockKeys.get(word);
    if (!byBlock) this.blockLockKeys.set(word, (byBlock = new Map()));
    let key = byBlock.get(block);
    if (key === undefined) byBlock.set(block, (key = `${word}@${block}`));
    return key;
  }

  /**
   * Whose lock table an access uses: its thread's; with lockstep warps (`warpSync`), its warp's,
   * as ScoRD keeps locks per warp: a lock one lane takes is held by the warp that moves with it.
   */
  private lockTableKey(block: number, warp: number, lane: number): number {
    return warpKey(block, warp) * 32 + (this.warpSync ? 0 : lane);
  }

  /** At __syncwarp(): the locks the warp's lanes hold become the warp's (see warpLocks). */
  private shareWarpLocks(block: number, warp: number): void {
    const k = warpKey(block, warp);
    const shared: { table: LockTable; entry: LockEntry }[] = [];
    for (let lane = 0; lane < 32; lane++) {
      const table = this.locks.get(k * 32 + lane);
      if (table) for (const entry of table.entries) if (entry.active) shared.push({ table, entry });
    }
    if (shared.length) this.warpLocks.set(k, shared);
    else this.warpLocks.delete(k);
  }

  /** The thread's locks with those its warp shares, while their holders still hold them. */
  private withWarpLocks(e: Access, own: Set<string> | number): Set<string> | number {
    const shared = this.warpLocks.get(warpKey(e.block, e.warp));
    if (!shared) return own;
    let locks = own;
    for (const { table, entry } of shared) {
      if (!entry.active || entry.takenBy !== 'CAS' || !table.entries.includes(entry)) continue;
      if (typeof locks === 'number') locks = (locks | lockBits(entry.key)) >>> 0;
      else if (!locks.has(entry.key)) locks = new Set([...locks, entry.key]);
    }
    return locks;
  }

  private barrierId(block: number): number {
    const b = this.barriers[block] ?? 0;
    return this.faithful ? b % (1 << BARRIER_BITS) : b;
  }

  /**
   * `r` has been fenced at device scope since it was made: by its own thread (the paper's fence
   * IDs) or, exact mode, by any thread of its block after a barrier that followed it.
   */
  private deviceFencedSince(r: AccessRecord): boolean {
    if (r.devFence !== this.fenceFile(r.block, r.warp, r.lane).dev) return true;
    return r.barrier < (this.deviceFenceInterval[r.block] ?? -1);
  }

  /** The lockset of an access made holding no lock. */
  private noLocks(): Set<string> | number {
    return this.faithful ? 0 : NO_LOCKS;
  }

  /**
   * The locks the thread holds: a set (or Bloom filter) built once per change of its table,
   * with their entries and the lock it has taken but not yet completed with a fence.
   */
  private heldLocks(table: LockTable | undefined): Set<string> | number {
    if (!table) return this.noLocks();
    if (table.held !== undefined) return table.held;
    if (!table.entries.length) {
      table.heldEntries = table.pending = undefined;
      return (table.held = this.noLocks());
    }
    table.heldEntries = table.entries.filter((l) => l.active);
    table.pending = table.entries.find((l) => !l.active && l.takenBy === 'CAS');
    // Test-and-set locks order accesses only through exchangeHandover: not in the lockset.
    const entries = table.heldEntries.filter((l) => l.takenBy === 'CAS');
    if (this.faithful) {
      let bloom = 0;
      for (const l of entries) bloom = (bloom | lockBits(l.key)) >>> 0;
      return (table.held = bloom);
    }
    if (entries.length === 1) {
      // One lock held, the common case: one shared set per lock (locksets are never changed in place).
      const key = entries[0].key;
      let one = this.singleLocks.get(key);
      if (!one) this.singleLocks.set(key, (one = new Set([key])));
      return (table.held = one);
    }
    return (table.held = entries.length ? new Set(entries.map((l) => l.key)) : NO_LOCKS);
  }

  private access(e: Access, a: Allocation): void {
    if (e.order !== undefined || !this.ordering.empty) this.ordering.access(e, this.fenceFile(e.block, e.warp, e.lane).order);
    const atomic = e.atomic;
    // Plain loads, and stores while no thread holds a lock, nearly every access: straight to the entries.
    if (!atomic && (this.locks.size === 0 || !e.write)) {
      this.checkAll(e, e.write, a);
      return;
    }
    if (atomic && !atomic.changed) {
      // A CAS that failed, or an atomic that wrote back what was there: an atomic read.
      this.checkAll(e, false, a);
      return;
    }
    const word = Math.floor(e.address / this.granularity);
    // An ordered CAS (compare_exchange) is not inferred as a lock: its acquire and release
    // order the critical section through the release file. Lock words are not data either way.
    if (e.atomic?.op === 'CAS' && e.order !== undefined) return;
    if (e.atomic?.op === 'CAS') {
      // A CAS that changed memory takes a candidate lock; a fence of its scope makes it held.
      const table = this.lockTableOf(e);
      // A CAS that changes a word its thread holds a lock on swaps the lock back: an unlock.
      const held = table.entries.findIndex((t) => t.word === word && t.active);
      if (held >= 0) {
        this.unlock(table, held, e, word);
        return;
      }
      // One thread's table: the same key is the same word at block scope or not.
      const block = e.atomic.scope === 'block';
      if (!table.entries.some((t) => t.word === word && (t.scope === 'block') === block)) {
        table.entries.push({ key: this.lockKey(word, block ? e.block : -1), word, scope: e.atomic.scope, active: false, acquire: e.range, takenBy: 'CAS', takenAt: ++this.lockEvents });
        if (block) addSite(this.blockLockSites, word, e.range);
        if (this.faithful && table.entries.length > LOCK_TABLE && table.entries.shift()!.active) this.held--;
        table.held = undefined;
      }
      this.lockWordScope(word, e, 'take', table.entries.find((t) => t.word === word && (t.scope === 'block') === block));
      // The CAS is an atomic write of the word all the same: a plain access of it is no lock.
      this.checkAll(e, true, a);
      return;
    }
    // atomicExch, or a store (release, volatile or — a broken unlock — plain), on a held lock word unlocks it.
    if (e.atomic?.op === 'Exch' || !e.atomic) {
      const table = this.locks.get(this.lockTableKey(e.block, e.warp, e.lane));
      // Exact mode: an atomicExch that stores non-zero may take a test-and-set lock (below); over
      // one the thread took that way it is data, not the unlock (which exchanges zero back).
      const nonZero = e.atomic?.op === 'Exch' && !this.faithful && storesNonZero(a, e);
      // A store of a thread that holds no lock (most stores of a program with locks) unlocks nothing.
      if (table !== undefined) {
        const releases = (t: LockEntry): boolean => t.word === word && (t.takenBy === 'CAS' || !nonZero);
        const i = table.entries.findIndex((t) => releases(t) && t.active);
        // Released by address: the unlock's own scope does not have to match the lock's. A lock
        // taken but never completed by a fence is released too (and remembers how).
        const j = i >= 0 ? i : e.atomic ? table.entries.findIndex(releases) : -1;
        if (j >= 0) {
          this.unlock(table, j, e, word);
          return;
        }
      }
      // An atomicExch that stored non-zero into a word the thread holds nothing on: maybe a
      // test-and-set lock taken (exact mode; the paper infers locks from atomicCAS only). The
      // word stays data: a `_block` exchange used across blocks is a scoped-atomic race as before.
      if (nonZero && !table?.entries.some((t) => t.word === word)) this.exchangeAcquire(table ?? this.lockTableOf(e), e, word);
    }
    this.checkAll(e, e.write, a);
  }

  /**
   * The thread's lock entry `j` of `table`, on `word`, released by the access `e`: an atomicExch,
   * a CAS that swaps the held value back, or a store.
   */
  private unlock(table: LockTable, j: number, e: Access, word: number): void {
    const [lock] = table.entries.splice(j, 1);
    if (lock.active) this.held--;
    table.held = undefined;
    // An atomic or a volatile store is relaxed: without a fence of the lock's scope after the
    // critical section's last access, that access may become visible after the unlock. A
    // release store orders it itself; a plain store is ordered by no fence.
    const f = this.fenceFile(e.block, e.warp, e.lane);
    const fenced = lock.scope === 'block' ? f.fencedLast : f.fencedLastDev;
    lock.release = e.range;
    lock.releasedAt = ++this.lockEvents;
    this.releasedLockWords.add(word);
    if (!e.atomic && !e.strong) {
      lock.weakRelease = true;
      lock.fenceBeforeRelease = fenced;
    }
    lock.releaseFenced = !e.atomic && isRelease(e.order) ? true : e.strong && fenced;
    if (lock.active && !lock.releaseFenced) this.unfencedUnlock(table, lock, e);
    if (!table.entries.some((t) => t.active)) table.section = undefined;
    if (e.atomic?.scope === 'block') {
      if (lock.scope === 'block') addSite(this.blockUnlockSites, word, e.range);
      else this.lockWordScope(word, e, 'release');
    }
  }

  /** The lock table of the access's thread (lockTableKey), made at its first lock. */
  private lockTableOf(e: Access): LockTable {
    const key = this.lockTableKey(e.block, e.warp, e.lane);
    let table = this.locks.get(key);
    if (!table) this.locks.set(key, (table = { entries: [] }));
    return table;
  }

  /** A candidate test-and-set lock: held once a fence of its scope follows, as a CAS's is. */
  private exchangeAcquire(table: LockTable, e: Access, word: number): void {
    const scope = e.atomic!.scope;
    table.entries.push({ key: this.lockKey(word, scope === 'block' ? e.block : -1), word, scope, active: false, acquire: e.range, takenBy: 'Exch', takenAt: ++this.lockEvents });
    if (scope === 'block') addSite(this.blockExchangeSites, word, e.range);
    table.held = undefined;
  }

  /**
   * `prev` was made holding a test-and-set lock (atomicExch) that its thread has since released
   * after a fence of the lock's scope, and `rec` holding a lock on the same word taken since:
   * the lock handed the word over, whatever else they hold. A value swapped into a word and
   * never swapped back is no lock, and orders nothing.
   */
  private exchangeHandover(prev: AccessRecord, rec: AccessRecord, sameBlock: boolean): boolean {
    // A block-scope lock is one lock within a block only.
    return exchangeReleasedTo(prev, rec, (p, r) => r.key === p.key || sameBlock) !== undefined;
  }

  /**
   * Both made holding a test-and-set lock on one word taken with atomicExch_block in two blocks,
   * the earlier one released after its fence: the handover a device-scope lock would have made,
   * but a block-scope lock is a different lock in each block (the sites that take and release it).
   */
  private exchangeLockScope(prev: AccessRecord, rec: AccessRecord): LockSites | undefined {
    const p = exchangeReleasedTo(prev, rec, (p, r) => p.scope === 'block' && r.key !== p.key);
    return p && { acquires: [...(this.blockExchangeSites.get(p.word) ?? [])], releases: [...(this.blockUnlockSites.get(p.word) ?? [])], exchange: true };
  }

  /**
   * A lock word's own atomics are synchronisation, but scoped: a block-scope atomicExch that
   * releases a lock taken with a device-scope atomicCAS, which another block takes too, is not
   * atomic for that block (Table IV (d), as for any word), in either order unless a
   * device-scope fence of the earlier one's thread hands the word over. A lock taken with
   * atomicCAS_block is a different lock in each block: that is reported on the data it fails to
   * protect (lock-scope), not here; but an atomicCAS_block that changed the word after another
   * block's changed it while that one was no lock (no fence of its scope completed it, nothing
   * released it: a read-modify-write, as atomicAdd_block is) is a scoped-atomic race.
   * `release`: such a narrow release. `entry`: the lock entry a take made or found.
   */
  private lockWordScope(word: number, e: Access, kind: 'take' | 'release', entry?: LockEntry): void {
    let seen = this.lockWordAtomics.get(word);
    if (!seen) this.lockWordAtomics.set(word, (seen = {}));
    const rec = this.record(undefined, e, true, this.fenceFile(e.block, e.warp, e.lane), false);
    // As for any block-scope atomic (Table IV (d) in check): an atomic of another block whose
    // thread has fenced at device scope since is handed over, ordered before this one.
    const unordered = (r: AccessRecord | undefined): r is AccessRecord => r !== undefined && r.block !== e.block && !this.deviceFencedSince(r);
    if (kind === 'take' && e.atomic?.scope === 'block') {
      const earlier = seen.narrowTake;
      if (earlier && unordered(earlier.rec) && earlier.entry && !earlier.entry.active && earlier.entry.release === undefined) this.reporter.report('scoped-atomic', 'device', earlier.rec, rec, e);
      seen.narrowTake = { rec, entry };
      return;
    }
    if (kind === 'take') {
      if (unordered(seen.narrowRelease)) this.reporter.report('scoped-atomic', 'device', seen.narrowRelease, rec, e);
      if (seen.take && seen.take.block !== e.block) seen.takeOther = seen.take;
      seen.take = rec;
      return;
    }
    const taken = unordered(seen.take) ? seen.take : unordered(seen.takeOther) ? seen.takeOther : undefined;
    if (taken) this.reporter.report('scoped-atomic', 'device', taken, rec, e);
    seen.narrowRelease = rec;
  }

  /** Checks each entry the access covers (one, unless it is wider than the granularity). */
  private checkAll(e: Access, write: boolean, a: Allocation): void {
    // Small integers (`| 0`), not doubles: they are passed on and stored on every access, and a
    // double would be boxed each time.
    const allocation = a.id | 0;
    const table = this.meta.of(allocation);
    const offset = offsetIn(e.address, allocation);
    const word = this.granularity === 4 ? offset >> 2 : (offset / this.granularity) | 0;
    // One access, one decision whether it publishes a flag, whatever number of entries it covers.
    const fence = this.fenceFile(e.block, e.warp, e.lane);
    let release = false;
    // Nearly every access comes after no fence (a thread that never fenced shares its warp's file): nothing to clear.
    if (fence.fencedLast || fence.fencedLastDev) {
      release = write && e.strong && fence.fencedLast;
      fence.fencedLast = false;
      fence.fencedLastDev = false;
    }
    const span = e.size <= this.granularity ? 1 : Math.ceil(e.size / this.granularity);
    // What a write stored (the simulator reports an access once it is done); only writes'
    // values are compared, and only a 4-byte entry is one word (NaN equals nothing).
    const view = write && this.granularity === 4 ? a.view : undefined;
    // The allocation's size in entries, which only a write that makes an entry needs.
    const words = write && !this.faithful ? Math.ceil(a.size / this.granularity) : 0;
    for (let k = 0; k < span; k++) {
      this.touched?.add(allocation * TOUCHED_STRIDE + word + k);
      if (this.faithful) this.checkFaithful(table, word + k, e, write, fence, release, view);
      else this.check(table, allocation, word + k, words, e, write, fence, release, view);
    }
  }

  private check(table: MetaRow, allocation: number, word: number, words: number, e: Access, write: boolean, fence: FenceFile, release: boolean, view: DataView | undefined): void {
    const value = storedValue(view, word);
    const plain = this.plain!;
    // No atomic, no memory order, no lock held or being taken: what an entry in numbers keeps.
    const plainAccess = e.atomic === undefined && e.order === undefined && this.locks.size === 0 && this.warpLocks.size === 0;
    let md: Meta | undefined;
    if (plain.find(allocation, word, words, write)) {
      if (plain.promoted) md = this.meta.current(table, word);
      // What the objects below do, in numbers: a write is checked against the last access, a
      // read against the last write (the same thread's are program order, the common case), and
      // the access takes their place. A read after another thread's read needs the objects.
      else if (plainAccess && (write || plain.lastIsWrite || plain.lastBy(e.block, e.warp, e.lane))) {
        const rec = this.record(this.scratch, e, write, fence, release);
        rec.value = value;
        rec.silent = write && plain.lastWriteValue === value;
        if (write ? !plain.lastBy(e.block, e.warp, e.lane) : !plain.lastWriteBy(e.block, e.warp, e.lane)) {
          const prev = write ? plain.loadLast(this.readScratch, this.noLocks()) : plain.loadLastWrite(this.readScratch, this.noLocks());
          this.compare(prev, rec, e);
        }
        rec.bytes |= plain.carryBytes(e.block, e.warp, e.lane, write, fence.blk, fence.dev, this.barrierId(e.block));
        plain.update(rec);
        return;
      } else md = this.promote(plain, table, word);
    }
    // Table III (a): the first access after initialization cannot race. Reads before a word's
    // first write are kept apart (most are of input data that nothing writes), so the first
    // write from another thread is checked against the last of them: a write after an
    // unordered read races whichever of the two ran first.
    if (!md) {
      if (!write) {
        this.rememberRead(allocation, word, e, fence, release);
        return;
      }
      this.entries++;
      // A plain write goes into its row as numbers; its record is made only to be compared.
      let rec: AccessRecord | undefined;
      if (plainAccess) plain.createPlain(e, this.epoch(e.block, e.warp), this.barrierId(e.block), fence, release, value, this.bytesOf(e));
      else {
        // An earlier launch's entry lends its object and records.
        const old = table[word];
        const spare = old && old.lastWrite !== old.last ? old.lastWrite : old?.spare;
        rec = this.record(old?.last, e, write, fence, release);
        rec.value = value;
        rec.silent = false;
        const created = this.meta.put(table, word, old, 0, rec, write, e.strong);
        created.lastWrite = rec;
        created.spare = spare;
        plain.promote();
        if (this.held !== 0) this.inSection(created, e);
      }
      const reads = this.readsBeforeWrite;
      const slot = reads?.find(allocation, word, this.readGeneration) ?? -1;
      if (slot >= 0) {
        // Reads made before the word's first write, another thread's checked against it.
        const last = reads!.last(slot);
        const other = reads!.other(slot);
        const againstLast = !reads!.byThread(last, e.block, e.warp, e.lane);
        const againstOther = other >= 0 && !reads!.byThread(other, e.block, e.warp, e.lane);
        if (againstLast || againstOther) {
          if (rec === undefined) {
            rec = this.record(this.scratch, e, write, fence, release);
            rec.value = value;
            rec.silent = false;
          }
          if (againstLast) this.compare(reads!.load(last, this.readScratch, this.noLocks()), rec, e);
          if (againstOther) this.compare(reads!.load(other, this.readScratch, this.noLocks()), rec, e);
        }
      }
      return;
    }
    const prev = write ? md.last : md.lastWrite;
    if (this.held !== 0) this.inSection(md, e);
    // A write that stores what the last write stored (not merely what the memory held: zeroed
    // inputs would make every copy of a zero look harmless).
    const silent = write && md.lastWrite !== undefined && md.lastWrite.value === value;
    // The same thread again is program order (the common case: no comparison to make).
    const other = write ? md.otherRead : undefined;
    const hidden = md.hiddenWrite;
    const againstPrev = prev !== undefined && !sameThread(prev, e);
    const againstOther = other !== undefined && !sameThread(other, e);
    const againstHidden = hidden !== undefined && !sameThread(hidden, e);
    // The record an access compared with another was filled in `scratch`: it becomes the
    // entry's, and the object it replaces the next scratch (one fill per access, not two).
    let filled: AccessRecord | undefined;
    if (againstPrev || againstOther || againstHidden) {
      filled = this.record(this.scratch, e, write, fence, release);
      filled.value = value;
      filled.silent = silent;
      if (againstPrev) this.compare(prev!, filled, e);
      if (againstOther) this.compare(other!, filled, e);
      if (againstHidden) this.compare(hidden!, filled, e);
    }
    if (write) {
      // The same thread's write that other threads' accesses would be checked against in vain
      // in its place: an atomic, or one under a lock, after a plain write made under none.
      const replaced = md.lastWrite;
      const unguarded = replaced !== undefined && !replaced.isAtom && isEmpty(replaced.locks) && sameThread(replaced, e);
      if (unguarded && (e.atomic !== undefined || this.holdsLock(e))) md.hiddenWrite = Object.assign(blankRecord(), replaced);
      else if (e.atomic === undefined) md.hiddenWrite = undefined;
    }
    // Sub-word accesses of one thread to one word with nothing between them (no fence or
    // barrier) count as one access to all their bytes: a byte-wise copy keeps every byte it wrote.
    const last = md.last;
    const carry = last.bytes !== 0b1111 && last.write === write && sameThread(last, e) && last.blkFence === fence.blk && last.devFence === fence.dev && last.barrier === this.barrierId(e.block) ? last.bytes : 0;
    // The last access and the last write, updated in place; a record a write frees is kept
    // for the next read, so alternating writes and reads allocate nothing.
    if (write) {
      md.otherRead = undefined;
      if (md.last !== md.lastWrite) {
        const freed = md.lastWrite;
        md.lastWrite = md.last = this.fillOrSwap(md.last, filled, e, write, fence, release);
        md.spare = freed;
      } else md.lastWrite = md.last = this.fillOrSwap(md.lastWrite, filled, e, write, fence, release);
    } else if (md.last !== md.lastWrite && !sameThread(last, e)) {
      // A read after another thread's read: that one is kept for the next write to check.
      const replaced = md.otherRead;
      md.otherRead = last;
      md.last = this.fillOrSwap(replaced ?? md.spare, filled, e, write, fence, release);
      if (!replaced) md.spare = undefined;
    } else {
      const into = md.last !== md.lastWrite ? md.last : md.spare;
      md.spare = undefined;
      md.last = this.fillOrSwap(into, filled, e, write, fence, release);
    }
    md.last.value = value;
    md.last.silent = silent;
    md.last.bytes |= carry;
  }

  /**
   * The entry in numbers at `plain`'s found row as the detector's objects (an earlier launch's
   * entry at `word` lends its object), for an access that needs them: another thread's, or one
   * that is more than plain.
   */
  private promote(plain: PlainWords, table: MetaRow, word: number): Meta {
    const last = blankRecord();
    const write = blankRecord();
    const apart = plain.load(last, write, this.noLocks());
    const md = this.meta.put(table, word, table[word], 0, last, last.write, last.strong);
    md.lastWrite = apart ? write : last;
    if (!apart) md.spare = write;
    plain.promote();
    return md;
  }

  /**
   * The access's record for an entry: `filled` (the scratch record it was compared as), with
   * `into` taking its place as the next scratch, or else `into` (or a new record) filled.
   */
  private fillOrSwap(into: AccessRecord | undefined, filled: AccessRecord | undefined, e: Access, write: boolean, fence: FenceFile, release: boolean): AccessRecord {
    if (filled === undefined) return this.record(into, e, write, fence, release);
    this.scratch = into ?? blankRecord();
    return filled;
  }

  /**
   * The bytes of its 4-byte word an access touches, in exact mode with 4-byte entries (the
   * paper's word granularity and coarser ones report false sharing on purpose): lanes that
   * write neighbouring `char`s of one word do not conflict.
   */
  private bytesOf(e: Access): number {
    return this.faithful || this.granularity !== 4 ? 0b1111 : wordBytes(pointerOffset(e.address), e.size);
  }

  /** An earlier access of another thread and this one: Table III (b) and (c), then Table IV or the intra-warp check. */
  private compare(prev: AccessRecord, rec: AccessRecord, e: Access): void {
    if ((prev.bytes & rec.bytes) === 0) return; // different bytes of the word
    if (!sameAccessor(prev, rec)) {
      if (!(prev.block === rec.block && prev.barrier !== rec.barrier)) this.races(prev, rec, e, true, prev.strong);
    } else if (!this.warpSync && prev.sync === rec.sync && prev.barrier === rec.barrier) this.intraWarp(prev, rec, e);
  }

  /** Keeps a read of a word nothing has written yet: one per slot of a direct-mapped table. */
  private rememberRead(allocation: number, word: number, e: Access, fence: FenceFile, release: boolean): void {
    const t = (this.readsBeforeWrite ??= ReadsBeforeWrite.take());
    const half = t.note(allocation, word, this.readGeneration, e.block, e.warp, e.lane);
    // Nearly every read: its numbers, no object. One that is synchronisation or made under a lock keeps its record.
    if (e.atomic === undefined && e.order === undefined && this.locks.size === 0 && this.warpLocks.size === 0) {
      t.putPlain(half, e, this.epoch(e.block, e.warp), this.barrierId(e.block), fence, release, this.bytesOf(e));
    } else t.putRecord(half, this.record(t.spareRecord(half), e, false, fence, release));
  }

  /** The paper's entry: one per 16 words with a tag, Table III's flags, then Table IV. */
  private checkFaithful(table: MetaRow, word: number, e: Access, write: boolean, fence: FenceFile, release: boolean, view: DataView | undefined): void {
    const value = storedValue(view, word);
    const key = Math.floor(word / WORDS_PER_ENTRY);
    const tag = word % WORDS_PER_ENTRY;
    const md = this.meta.current(table, key);
    const rec = this.record(undefined, e, write, fence, release);
    rec.value = value;
    if (!md || md.tag !== tag) {
      // A new entry, or one that described another of its 16 words: this access is the first
      // since (re-)initialization. It leaves the initial state, so the next access by another
      // warp is checked against it (a write after an unordered read is a race too).
      if (!md) this.entries++;
      const created = this.meta.put(table, key, table[key], tag, rec, write, e.strong);
      if (this.held !== 0) this.inSection(created, e);
      return;
    }
    const prev = md.last;
    const sameBlock = prev.block === rec.block;
    const initial = md.modified && md.blkShared && md.devShared;
    const ordered = initial || (sameAccessor(prev, rec) && !md.blkShared && !md.devShared) || (sameBlock && rec.barrier !== prev.barrier && !md.devShared);
    if (this.held !== 0) this.inSection(md, e);
    rec.silent = write && prev.write && prev.value === value;
    if (!ordered && !sameAccessor(prev, rec)) this.races(prev, rec, e, md.modified, md.strong && rec.strong);
    else if (!this.warpSync && sameAccessor(prev, rec) && prev.lane !== rec.lane && prev.sync === rec.sync && prev.barrier === rec.barrier) this.intraWarp(prev, rec, e);
    if (!rec.write) {
      if (!sameBlock) md.devShared = true;
      else if (!sameAccessor(prev, rec)) md.blkShared = true;
    } else {
      md.modified = true;
      md.blkShared = false;
      md.devShared = false;
    }
    md.strong = md.strong && rec.strong;
    md.last = rec;
  }

  /** Fills `into` (or a new record) with the access; records are reused to spare the collector. */
  private record(into: AccessRecord | undefined, e: Access, write: boolean, fence: FenceFile, release: boolean): AccessRecord {
    const table = this.locks.size === 0 ? undefined : this.locks.get(this.lockTableKey(e.block, e.warp, e.lane));
    const locks = this.warpLocks.size === 0 ? this.heldLocks(table) : this.withWarpLocks(e, this.heldLocks(table));
    const pendingLock = table?.pending;
    const heldBy = table?.heldEntries;
    const divergence = this.epoch(e.block, e.warp);
    const order = e.order;
    const orderScope = order === undefined ? undefined : (e.orderScope ?? e.atomic?.scope ?? 'device');
    if (!into) {
      return {
        block: e.block, warp: e.warp, lane: e.lane, divergence, barrier: this.barrierId(e.block), blkFence: fence.blk, devFence: fence.dev,
        isAtom: !!e.atomic, atomic: e.atomic, strong: e.strong, locks, range: e.range, write, release, rel: fence.order.rel, order, orderScope, lostLock: undefined, pendingLock, heldBy,
        sync: fence.order.sync, value: 0, silent: false, bytes: this.bytesOf(e),
      };
    }
    into.block = e.block;
    into.warp = e.warp;
    into.lane = e.lane;
    into.divergence = divergence;
    into.barrier = this.barrierId(e.block);
    into.blkFence = fence.blk;
    into.devFence = fence.dev;
    into.isAtom = !!e.atomic;
    into.atomic = e.atomic;
    into.strong = e.strong;
    into.locks = locks;
    into.range = e.range;
    into.write = write;
    into.release = release;
    into.rel = fence.order.rel;
    into.order = order;
    into.orderScope = orderScope;
    into.lostLock = undefined;
    into.pendingLock = pendingLock;
    into.heldBy = heldBy;
    into.sync = fence.order.sync;
    into.bytes = this.bytesOf(e);
    return into;
  }

  /** Race conditions (a)–(f) of Table IV between the earlier access `prev` and `rec`. */
  private races(prev: AccessRecord, rec: AccessRecord, e: Access, modified: boolean, prevStrong: boolean): void {
    const sameBlock = prev.block === rec.block;
    const scope = sameBlock ? 'block' : 'device';
    const held = rec.locks;
    const write = rec.write;
    // An explicit release/acquire pair of sufficient scope ordered them (§VI): weak or strong,
    // locked or not, they cannot race.
    if (this.ordering.ordering && this.ordering.orderedBefore(prev, rec)) return;
    if (this.exchangeHandover(prev, rec, sameBlock)) return;
    if (!sameBlock && !(prev.isAtom && rec.isAtom) && (rec.write || modified)) {
      const narrow = this.exchangeLockScope(prev, rec);
      if (narrow) {
        this.reporter.report('lock-scope', 'device', prev, rec, e, narrow);
        return;
      }
    }
    // Two threads that take one lock, one of them with no fence of its scope after its
    // atomicCAS yet: the lock is the synchronisation they meant, and the lockset rule decides.
    const meantLock = (prev.pendingLock !== undefined || rec.pendingLock !== undefined) && meanSameLock(prev, rec);
    // Atomics among themselves are synchronisation, a lock or none (their scope is checked
    // below); a plain access beside a locked one needs the lock.
    // A read pairs with an atomic only when it is strong itself (volatile, atomic): a plain read
    // of what an atomic wrote synchronises with nothing (and a poll of it may never see it).
    const atomicPair = prev.isAtom ? rec.isAtom || (!write && rec.strong) : rec.isAtom && !prev.write && prev.strong;
    if (!(prev.isAtom && rec.isAtom) && (!isEmpty(prev.locks) || !isEmpty(held) || meantLock)) {
      // (e) and (f): conflicting accesses need a common lock. For two threads of one block, a
      // block-scope and a device-scope lock on the same word are one lock.
      if (hasCommonLock(prev.locks, held, sameBlock)) return;
      // A lock word nobody has released yet in this launch may be no lock at all (a once-flag:
      // `if (atomicCAS(&started, 0, 1) == 0) init();`, then a fence): the fence rules decide.
      if (meantLock || this.lockInUse(prev.locks) || this.lockInUse(held)) {
        if (!write && !modified) return;
        // The places a lock-scope race names are gathered only for a race reported anew.
        if (!sameBlock && sharesLockWord(prev.locks, held)) this.reporter.report('lock-scope', 'device', prev, rec, e, () => this.lockScopeSites(prev.locks as Set<string>, held as Set<string>));
        else this.reporter.report('missing-lock', scope, prev, rec, e);
        return;
      }
    }
    const f = this.fenceFile(prev.block, prev.warp, prev.lane);
    // (d) scoped atomics: an atomic of block scope orders nothing for another block. A
    // block-scope atomic after another block's access that was fenced at device scope since
    // (a hand-over through device-scope flags) is ordered after it.
    if (!sameBlock && ((prev.isAtom && prev.atomic?.scope === 'block') || (e.atomic?.scope === 'block' && (prev.isAtom || modified) && !this.deviceFencedSince(prev)))) {
      // Two atomicCAS of one word are lock takes, whose scope lockWordScope judges (a block-scope
      // lock fails on the data it guards); only a scope that fails on other atomics shows here.
      if (!(prev.atomic?.op === 'CAS' && e.atomic?.op === 'CAS')) this.reporter.report('scoped-atomic', 'device', prev, rec, e);
      return;
    }
    // Ordered loads and stores (atomic_ref, ld.relaxed/acquire, st.release) are synchronisation,
    // as atomics are: with each other they do not race. A scope too narrow shows on the data
    // they fail to order, with the narrow release or acquire named.
    if ((prev.orderScope !== undefined && (rec.orderScope !== undefined || rec.isAtom)) || (rec.orderScope !== undefined && prev.isAtom)) return;
    // Atomics are synchronisation: with each other they do not race, and what an atomic wrote
    // may be read by a strong read (a read followed by an atomic is the same pair the other way
    // round). A store that is not atomic, or a plain read, conflicts with an atomic whichever
    // runs first: the checks below.
    if (atomicPair) return;
    // A flag published by a strong write after a fence, polled by strong reads: the flag is
    // the synchronisation (the data it guards is checked on its own words).
    if (prev.strong && rec.strong && (prev.release || rec.release) && prev.write !== rec.write) return;
    if (!write && !modified) return;
    // (a) a writer in the block, not fenced since; (b) a writer in another block, no device fence since.
    let category: RaceCategory;
    if (sameBlock && prev.blkFence === f.blk && prev.devFence === f.dev) category = 'missing-block-fence';
    else if (!sameBlock && !this.deviceFencedSince(prev)) category = 'missing-device-fence';
    // (c) fences order only strong accesses.
    else if (!prevStrong || !rec.strong) category = 'non-strong-access';
    else return;
    // A release/acquire pair that nearly ordered them says what to change. A release of block
    // scope is a block fence to another block (missing-device-fence); an acquire of block scope,
    // a block-scope atomic used across blocks (scoped-atomic).
    const hint = this.ordering.ordering ? this.ordering.orderHint(prev, rec) : undefined;
    if (hint) this.reporter.report(sameBlock ? 'missing-block-fence' : hint.kind === 'narrow-scope' && !hint.release ? 'scoped-atomic' : 'missing-device-fence', scope, prev, rec, e, undefined, undefined, hint);
    else if (category === 'missing-device-fence') this.reporter.report(category, 'device', prev, rec, e, undefined, prev.blkFence !== f.blk ? f.lastBlockFence : undefined);
    else this.reporter.report(category, scope, prev, rec, e);
  }

  /**
   * Two lanes of one warp that has not diverged, with no __syncwarp() between: under
   * independent thread scheduling (Volta and later) nothing orders them, whatever order the
   * simulator ran them in. Atomics among themselves, and reads of what an atomic wrote, are
   * synchronisation; a lock both hold orders them, and so does a release/acquire pair. A lane
   * that fenced after its access handed the word over as a warp of the block does (a flag the
   * other lane waited for, the warp diverging in the wait): the rules between warps apply —
   * strong accesses are ordered, other ones are not (Table IV (c)).
   */
  private intraWarp(prev: AccessRecord, rec: AccessRecord, e: Access): void {
    if (!prev.write && !rec.write) return;
    if (prev.isAtom ? rec.isAtom || !rec.write : rec.isAtom && !prev.write) return;
    if ((!isEmpty(prev.locks) || !isEmpty(rec.locks)) && hasCommonLock(prev.locks, rec.locks, true)) return;
    if (this.exchangeHandover(prev, rec, true)) return;
    if (this.ordering.ordering && this.ordering.orderedBefore(prev, rec)) return;
    const f = this.fenceFile(prev.block, prev.warp, prev.lane);
    if (prev.blkFence !== f.blk || prev.devFence !== f.dev) {
      if (!prev.strong || !rec.strong) this.reporter.report('non-strong-access', 'block', prev, rec, e);
      return;
    }
    this.reporter.report('intra-warp', 'block', prev, rec, e);
  }

  /** Notes an access to `md` in the thread's critical section, while it holds a lock. */
  private inSection(md: Meta, e: Access): void {
    const table = this.locks.get(this.lockTableKey(e.block, e.warp, e.lane));
    if (!table || !table.entries.some((t) => t.active)) return;
    const section = table.section ?? (table.section = []);
    const last = section[section.length - 1];
    if (last?.md === md && last.range === e.range) return;
    section.push({ md, range: e.range });
    if (section.length > SECTION_LIMIT) section.shift();
  }

  /**
   * `lock` was released at `release` with no fence after the critical section's last access:
   * the section's accesses lose the lock, so whoever takes it next races with them. (Sections
   * that held it before are ordered before this one by their own release.)
   */
  private unfencedUnlock(table: LockTable, lock: LockEntry, e: Access): void {
    const holds = (locks: Set<string> | number) => (typeof locks === 'number' ? (locks & lockBits(lock.key)) === lockBits(lock.key) : locks.has(lock.key));
    const without = (locks: Set<string> | number) => (typeof locks === 'number' ? (locks & ~lockBits(lock.key)) >>> 0 : new Set([...locks].filter((k) => k !== lock.key)));
    // A test-and-set lock is no lockset member (exchangeHandover): its records name it in heldBy.
    const byExchange = lock.takenBy === 'Exch';
    for (const s of table.section ?? []) {
      for (const r of [s.md.last, s.md.lastWrite, s.md.otherRead]) {
        if (!r || r.range !== s.range || !sameThread(r, e) || !(byExchange ? r.heldBy?.includes(lock) : holds(r.locks))) continue;
        if (!byExchange) r.locks = without(r.locks);
        r.lostLock = lock;
      }
    }
  }

  /**
   * One of the locks (a lockset) is on a word some thread has released in this launch; a
   * hardware-faithful Bloom filter cannot say which words it holds, and counts as in use.
   */
  private lockInUse(locks: Set<string> | number): boolean {
    if (typeof locks === 'number') return locks !== 0;
    for (const key of locks) if (this.releasedLockWords.has(lockWord(key))) return true;
    return false;
  }

  /**
   * Locksets that hold locks on the same words, taken at block scope in different blocks: where
   * those are taken, and released, at block scope.
   */
  private lockScopeSites(a: Set<string>, b: Set<string>): LockSites {
    const sites: LockSites = { acquires: [], releases: [] };
    for (const ka of a) {
      const word = lockWord(ka);
      let shared = false;
      for (const kb of b) {
        if (lockWord(kb) !== word) continue;
        shared = true;
        break;
      }
      if (!shared) continue;
      for (const r of this.blockLockSites.get(word) ?? []) if (!sites.acquires.includes(r)) sites.acquires.push(r);
      for (const r of this.blockUnlockSites.get(word) ?? []) if (!sites.releases.includes(r)) sites.releases.push(r);
    }
    return sites;
  }

  private newShadow(): ShadowSharedMemory {
    return new ShadowSharedMemory((e, write, earlier, category, value) => this.reporter.reportPair(e, write, earlier, category, value, 'shared'), this.warpSync);
  }


}

/**
 * One row of entries per allocation, indexed by word (or by group of 16 words,
 * hardware-faithful). A holey array, not a Map: the per-access lookup is the detector's
 * hottest line, and words of one allocation are small dense integers.
 */
type MetaRow = (Meta | undefined)[];

/** Metadata entries by allocation and entry index; the last allocation's row is cached. */
class MetaTable {
  /** By allocation id (small integers, handed out in order). */
  private readonly rows: (MetaRow | undefined)[] = [];
  private lastId = -1;
  private last: MetaRow = [];
  private count = 0;
  private generation = 0;

  of(allocation: number): MetaRow {
    if (allocation === this.lastId) return this.last;
    let row = this.rows[allocation];
    if (!row) row = setDense(this.rows, allocation, []);
    this.lastId = allocation;
    this.last = row;
    return row;
  }

  /** Every entry is gone; their objects stay, for the next launch to fill without allocating. */
  reset(): void {
    this.generation++;
    this.count = 0;
  }

  /** The entry at `key`, if it belongs to this generation. */
  current(row: MetaRow, key: number): Meta | undefined {
    const md = row[key];
    return md !== undefined && md.generation === this.generation ? md : undefined;
  }

  /**
   * A new entry at `key` whose last access is `rec`, in `old`'s object when there is one (left
   * by an earlier generation, or replaced: the hardware-faithful tag moved on).
   */
  put(row: MetaRow, key: number, old: Meta | undefined, tag: number, rec: AccessRecord, modified: boolean, strong: boolean): Meta {
    if (old === undefined || old.generation !== this.generation) this.count++;
    if (old === undefined) {
      const md: Meta = { tag, last: rec, lastWrite: undefined, spare: undefined, otherRead: undefined, hiddenWrite: undefined, modified, blkShared: false, devShared: false, strong, generation: this.generation };
      row[key] = md;
      return md;
    }
    old.tag = tag;
    old.last = rec;
    old.lastWrite = undefined;
    old.spare = undefined;
    old.otherRead = undefined;
    old.hiddenWrite = undefined;
    old.modified = modified;
    old.blkShared = false;
    old.devShared = false;
    old.strong = strong;
    old.generation = this.generation;
    return old;
  }

  *all(): Generator<[number, number, Meta]> {
    for (let allocation = 0; allocation < this.rows.length; allocation++) {
      const row = this.rows[allocation];
      if (!row) continue;
      for (const k in row) {
        const md = row[k as unknown as number]!;
        if (md.generation === this.generation) yield [allocation, Number(k), md];
      }
    }
  }

  size(): number {
    return this.count;
  }
}

/** A record to be filled (record() sets every field of an access). */
function blankRecord(): AccessRecord {
  return {
    block: 0, warp: 0, lane: 0, divergence: -1, barrier: 0, blkFence: 0, devFence: 0, isAtom: false, atomic: undefined, strong: false, locks: NO_LOCKS, range: undefined as never, write: false, release: false,
    rel: 0, order: undefined, orderScope: undefined, lostLock: undefined, pendingLock: undefined, heldBy: undefined, sync: 0, value: 0, silent: false, bytes: 0b1111,
  };
}

/**
 * What a write left in the 4-byte word `word` of its allocation (`view`), NaN for none (a read:
 * NaN equals nothing). Read where it is used: a double passed as an argument is boxed.
 */
function storedValue(view: DataView | undefined, word: number): number {
  const at = word * 4;
  return view !== undefined && at + 4 <= view.byteLength ? view.getUint32(at, true) : NaN;
}

/**
 * A test-and-set lock `prev` was made holding, released since after a fence of its scope, that
 * `rec` holds a lock on the same word taken after (`match` permitting): its exchange read the
 * zero the release stored, or a later value of the same chain of atomics.
 */
function exchangeReleasedTo(prev: AccessRecord, rec: AccessRecord, match: (p: LockEntry, r: LockEntry) => boolean): LockEntry | undefined {
  const earlier = prev.heldBy;
  const later = rec.heldBy;
  if (earlier === undefined || later === undefined) return undefined;
  for (const p of earlier) {
    if (p.takenBy !== 'Exch' || p.releasedAt === undefined || !p.releaseFenced) continue;
    for (const r of later) if (r.word === p.word && r.takenAt > p.releasedAt && match(p, r)) return p;
  }
  return undefined;
}

/** The access left a non-zero value in the bytes it wrote (atomicExch(&lock, 1): the lock taken). */
function storesNonZero(a: Allocation, e: Access): boolean {
  const at = pointerOffset(e.address);
  const bytes = a.bytes;
  for (let i = 0; i < e.size && at + i < bytes.length; i++) if (bytes[at + i] !== 0) return true;
  return false;
}

/**
 * The same accessor as far as ordering goes: one warp, unless both accesses were made by
 * different lanes while the warp was diverged (independent thread scheduling, §VI).
 */
function sameAccessor(a: AccessRecord, b: AccessRecord): boolean {
  return a.block === b.block && a.warp === b.warp && !unorderedLanes(a.lane, a.divergence, b.lane, b.divergence);
}


function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * Both accesses were made under one lock word, held or taken without its fence, and it is a
 * lock: one side's was released with atomicExch (an atomicCAS loop that computes an atomic
 * maximum is never released, and is no lock).
 */
function meanSameLock(a: AccessRecord, b: AccessRecord): boolean {
  const released = (a.pendingLock?.release ?? b.pendingLock?.release) !== undefined;
  if (!released) return false;
  const words = (r: AccessRecord) => [r.pendingLock?.word, ...(r.heldBy ?? []).map((l) => l.word)];
  const wa = words(a);
  return words(b).some((w) => w !== undefined && wa.includes(w));
}

function isEmpty(l: Set<string> | number): boolean {
  return typeof l === 'number' ? l === 0 : l.size === 0;
}

/**
 * Two locksets share a lock. A block-scope lock is keyed `word@block`; between threads of one
 * block it is the same lock as the device-scope one on that word, so there words are compared.
 * Hardware-faithful Bloom filters keep the words in the low 16 bits and the keys in the high 16.
 */
function hasCommonLock(a: Set<string> | number, b: Set<string> | number, sameBlock: boolean): boolean {
  if (typeof a === 'number' || typeof b === 'number') {
    const both = (typeof a === 'number' ? a : 0) & (typeof b === 'number' ? b : 0);
    return (sameBlock ? both & 0xffff : both >>> 16) !== 0;
  }
  if (a === b) return a.size > 0;
  for (const l of a) if (b.has(l)) return true;
  if (!sameBlock || !a.size || !b.size) return false;
  return sharesLockWord(a, b);
}

/** Two exact locksets hold locks on one word (at any scopes). Every racing access of a lock-scope race asks: no set is built. */
function sharesLockWord(a: Set<string> | number, b: Set<string> | number): boolean {
  if (typeof a === 'number' || typeof b === 'number') return false;
  for (const ka of a) {
    const word = lockWord(ka);
    for (const kb of b) if (lockWord(kb) === word) return true;
  }
  return false;
}

/** Lock words by key, parsed once (race checks ask again and again). */
const LOCK_WORDS = new Map<string, number>();
const LOCK_WORDS_LIMIT = 1 << 16;

/** The lock word of a lock key (12 of `12@3`). */
function lockWord(key: string): number {
  let word = LOCK_WORDS.get(key);
  if (word === undefined) {
    if (LOCK_WORDS.size >= LOCK_WORDS_LIMIT) LOCK_WORDS.clear();
    const at = key.indexOf('@');
    word = Number(at < 0 ? key : key.slice(0, at));
    LOCK_WORDS.set(key, word);
  }
  return word;
}

/** A lock's bits in a hardware-faithful lockset: its word's (low half) and its key's (high half). */
function lockBits(key: string): number {
  return ((1 << (hash(String(lockWord(key))) & 15)) | (1 << (16 + (hash(key) & 15)))) >>> 0;
}

