// Weak GPU memory: the operational model of Sorensen's thesis (ch. 4) made executable, beside the
// sequentially consistent memory the simulator otherwise runs on.
//
// The thesis gives every thread its own copy of memory; we keep that sparse. `Memory` holds
// the value every thread sees unless it has something newer of its own, and each address
// with unpropagated state keeps:
//   - thread entries: a thread's own store that has not been shared (flags LS = GS = 0 in the
//     thesis), or a value it borrowed from another thread (B = 1);
//   - block entries: a value shared within one block but not yet across blocks (LS = 1,
//     GS = 0), kept for global memory only, since shared memory never leaves its block.
// The memory system moves values outwards nondeterministically (a thread entry to everyone,
// a block entry to the other blocks). When it does so matters only to a thread that then
// accesses the address, so the decision is taken lazily, just before such an access (and
// before the owner overwrites an unpropagated value): the same outcomes as propagating at
// any moment, with far fewer interleavings to explore. Fences move only the issuing thread's own values
// (`__threadfence_block` within the block, `__threadfence` everywhere); loads may borrow a
// value another thread has not shared yet, and, with the load pool on, two loads of one
// address may be satisfied out of program order (a load may return any value the thread's
// view held since its last fence).
//
// `gpu-strong` is the thesis's alternative model: one view per block (thread entries are
// private store buffers that drain into their block, and a share from elsewhere does not
// overwrite them), no borrowing, no load pool.
//
// Beyond the thesis: atomics have scopes (a block-scope atomic reads and writes its block's
// view, so two blocks' atomicAdd_block on one word can lose an update); volatile accesses
// read and write through to the level every thread shares; `__syncthreads` is a block fence
// for every thread of the block before the barrier opens.
import type { Range } from '../frontend/source';
import { isAcquire, isRelease, type MemoryOrder, type Scope } from './memoryOrder';
import type { AccessContext } from './access';
import { nameAddress } from './lvalue';
import { DeviceFault, readResolved, writeResolved } from './access';
import { pointerOffset, scalarSize, type Allocation, type Memory, type ScalarKind } from './memory';
import { AddressTable } from './addressTable';
import { SmallMap } from './smallMap';
import type { WeakModelSwitches } from './memoryModels';

/** What the model needs of the warp a thread runs in: which warp of which block, and its context. */
export interface ThreadWarp {
  warp: number;
  ctx: AccessContext & { blockLinear: number };
}

/** Where every nondeterministic decision comes from: seeded random draws, or an explorer. */
export interface Chooser {
  /** A number in [0, n). */
  choose(n: number): number;
}

export function randomChooser(random: () => number): Chooser {
  return { choose: (n) => (n <= 1 ? 0 : Math.floor(random() * n)) };
}

export interface WeakModelConfig {
  /** `sc` runs through here only to trace each access (litmus witnesses): stores write through. */
  model: 'sc' | 'gpu-weak' | 'gpu-strong';
  /** Loads may borrow values other threads have not shared (weak only). */
  borrowing: boolean;
  /** Same-address loads may be satisfied out of program order: the load pool (weak only). */
  loadReordering: boolean;
  /** A fence also pushes values its thread borrowed (cumulative fences). */
  cumulativeFences: boolean;
}

export function weakModelConfig(model: WeakModelConfig['model'], switches: WeakModelSwitches = {}): WeakModelConfig {
  const weak = model === 'gpu-weak';
  return { model, borrowing: weak, loadReordering: weak && (switches.loadReordering ?? true), cumulativeFences: switches.cumulativeFences ?? false };
}

/** A step of the execution, for witness traces. */
export interface WeakStep {
  actor: string;
  action: string;
  range?: Range;
}

/** What a run under weak memory did that sequential consistency would not have. */
export interface WeakObservation {
  kind: 'stale-read' | 'lost-update';
  range: Range;
  /** The address as the program names it. */
  address: string;
  /** stale-read: the value read; lost-update: the value the atomic wrote. */
  value: number;
  /** stale-read: the value the last write had stored; lost-update: the value that replaced it. */
  latest: number;
  /** The write the stale read missed, or the write that overwrote the lost update. */
  other?: Range;
  count: number;
}

interface ThreadEntry {
  readonly level: 'thread';
  readonly state: AddressState;
  /** The thread. */
  readonly who: number;
  value: number;
  /** An own store not yet shared (false: a value borrowed from another thread). */
  own: boolean;
  block: number;
  range: Range;
  /** The thread's entries, oldest first, linked through themselves (see ThreadEntries). */
  list: ThreadEntries | undefined;
  older: ThreadEntry | undefined;
  newer: ThreadEntry | undefined;
}

/**
 * A thread's entries at every address, for its fences and its exit: a list through the entries,
 * oldest first, so that a store joins it and a propagation leaves it with no hashing (a set of
 * addresses per thread cost a fifth of a plain store's time under gpu-weak).
 */
interface ThreadEntries {
  oldest: ThreadEntry | undefined;
  newest: ThreadEntry | undefined;
}

interface BlockEntry {
  readonly level: 'block';
  readonly state: AddressState;
  /** The block. */
  readonly who: number;
  value: number;
  /** The thread whose fence or atomic put it there: its __threadfence shares it further. */
  owner: number;
  range: Range;
  /** Written by a block-scope atomic: losing it loses an update. */
  atomic: boolean;
}

interface AddressState {
  readonly address: number;
  allocation: Allocation;
  offset: number;
  kind: ScalarKind;
  shared: boolean;
  threads: SmallMap<ThreadEntry>;
  /** NO_BLOCKS until a block holds a value here. */
  blocks: Map<number, BlockEntry>;
  /** Threads that loaded this address: their views are followed for the load pool. */
  readers?: Set<number>;
  /**
   * The last value written in real time, and where (what an SC memory would hold); two fields
   * rather than an object, as every store sets them.
   */
  latestValue: number;
  latestRange?: Range;
}

/**
 * A thread entry to share, or a block entry to push to the other blocks, queued as itself when
 * it was made (one object per held-back value: a store allocates nothing else). A later value
 * of the same thread (or block) at the address updates the entry in place, so an entry is
 * queued once; an entry that is gone (propagated by a fence, a barrier or another thread's
 * access) is dead and skipped.
 */
type Pending = ThreadEntry | BlockEntry;

/**
 * The block entries of an address no block holds a value of (most addresses, under gpu-weak):
 * shared and never written, so a plain store costs no map of its own. setBlockEntry replaces it.
 */
const NO_BLOCKS = new Map<number, BlockEntry>();

const STALE_LIMIT = 4;
/**
 * Values the memory system holds back at most (a GPU's caches and buffers are finite too): past
 * this, the oldest half propagates, which is always an allowed behaviour. What the bound rules
 * out is a value still unshared after thousands of later stores; the patterns weak memory
 * breaks (message passing, a flag over its data, a lost block-scope update) hold a handful. A
 * held value costs a few small objects that live until it propagates: at 65,536 they outlived
 * V8's young generation, and their collection doubled what gpu-weak costs over sc on a
 * grid-stride loop (measured on the bench's SAXPY: 2.4-2.7 -> 1.6-2.0).
 */
const PENDING_LIMIT = 1 << 12;

export class WeakMemory {
  /** The state of each address with something unpropagated (or whose readers are followed). */
  private readonly addresses = new AddressTable<Allocation, AddressState>();
  /** Each thread's entries (a thread is here while it has one), and the block entries each thread owns. */
  private readonly threadEntries = new Map<number, ThreadEntries>();
  private readonly ownedBlockAddresses = new Map<number, Set<AddressState>>();
  private pending: Pending[] = [];
  /** Per thread and address: values its view held since its last fence (the load pool). */
  private readonly stale = new Map<number, Map<number, number[]>>();
  private threadsPerBlock = 1;
  readonly observations = new Map<string, WeakObservation>();
  /** The first thread to access each address in this run (privacy, below). */
  private readonly firstAccessor = new Map<number, number>();
  /**
   * Whether the last access touched an address no other thread has touched (in this run, nor
   * in any run `sharedAddresses` remembers). Such an access is invisible to other threads, so
   * an explorer need not interleave it.
   */
  lastAccessPrivate = false;

  constructor(
    private readonly memory: Memory,
    readonly config: WeakModelConfig,
    private readonly chooser: Chooser,
    /** When given, every step is appended (witness traces of litmus runs). */
    private readonly trace?: WeakStep[],
    /** Addresses seen shared by two threads in some run; grows as runs find more. */
    private readonly sharedAddresses?: Set<number>,
  ) {}

  private touch(p: number, t: number): void {
    const shared = this.sharedAddresses;
    if (!shared) return;
    if (shared.has(p)) {
      this.lastAccessPrivate = false;
      return;
    }
    const first = this.firstAccessor.get(p);
    if (first === undefined) this.firstAccessor.set(p, t);
    else if (first !== t) {
      shared.add(p);
      this.lastAccessPrivate = false;
      return;
    }
    this.lastAccessPrivate = true;
  }

  /**
   * `decide`, when the executor gives one, takes every decision instead of the chooser, so an
   * explorer sees them with the launch's state (`what` tells apart decisions in one state).
   */
  beginLaunch(threadsPerBlock: number, decide?: (n: number, what: number) => number): void {
    this.threadsPerBlock = threadsPerBlock;
    this.decide = decide;
  }

  private decide?: (n: number, what: number) => number;

  /** A decision among n options, of kind `kind` (0–7) by thread `t`. */
  private pick(n: number, kind: number, t: number): number {
    if (n <= 1) return 0;
    return this.decide ? this.decide(n, 8 + kind + 8 * t) : this.chooser.choose(n);
  }

  /** After a launch (every value has propagated: the executor drains what is pending first). */
  endLaunch(): void {
    this.drain((n) => this.chooser.choose(n));
    this.addresses.clear();
    this.firstAccessor.clear();
    this.threadEntries.clear();
    this.ownedBlockAddresses.clear();
    this.stale.clear();
    this.pending = [];
  }

  // -------------------------------------------------------------------------------------------
  // Thread operations

  load(w: ThreadWarp, l: number, p: number, kind: ScalarKind, strong: boolean, range: Range, order?: MemoryOrder, orderScope?: Scope): number {
    const a = this.resolve(w, p, kind, false, range);
    this.lastAccessPrivate = true;
    if (!this.weakSpace(a)) return readResolved(a, pointerOffset(p), kind);
    const t = this.thread(w, l);
    const b = w.ctx.blockLinear;
    this.touch(p, t);
    const existing = this.addresses.get(a, pointerOffset(p));
    if (!existing) {
      // Nothing unpropagated here: every view is memory. (Its views are followed for the load
      // pool only from the first load that finds something pending: bounded state for the
      // many addresses big programs only read.)
      const value = readResolved(a, pointerOffset(p), kind);
      if (isAcquire(order)) this.fence(w, l, orderScope ?? 'system', range, true);
      if (this.trace) this.step(w, l, `reads ${this.name(p)} → ${show(value)}`, range);
      return value;
    }
    const st = existing;
    if (this.config.loadReordering) (st.readers ??= new Set()).add(t);
    // Values this load's own propagation replaces are not older values for it: reading one is
    // the same as not propagating (they stay in the window for the thread's later loads).
    const earlier = this.config.loadReordering ? [...(this.stale.get(t)?.get(p) ?? [])] : [];
    this.settle(st, t, b);
    const own = st.threads.get(t);
    const view = this.view(st, t, b);
    let value = view;
    let how = '';
    if (!strong && !order) {
      // Borrowing (thesis: a load may take another thread's unshared value, unless it has
      // borrowed this address already), then the load pool's stale values.
      const sources: { value: number; from: string; block?: number }[] = [];
      if (this.config.borrowing && !(own && !own.own)) {
        for (const [u, e] of st.threads) if (u !== t && e.own) sources.push({ value: e.value, from: this.actorOfThread(u), block: e.block });
        if (!st.shared) for (const [ob, e] of st.blocks) if (ob !== b) sources.push({ value: e.value, from: `block ${ob}` });
      }
      const stale = earlier.filter((v) => v !== view);
      const k = sources.length + stale.length > 0 ? this.pick(1 + sources.length + stale.length, 0, t) : 0;
      if (k > 0 && k <= sources.length) {
        const s = sources[k - 1];
        value = s.value;
        how = ` (borrowed from ${s.from}, which has not shared it)`;
        const views = this.viewsBefore(st);
        this.putThreadEntry(st, threadEntry(st, t, value, false, b, range));
        this.followViews(st, views);
      } else if (k > sources.length) {
        value = stale[k - 1 - sources.length];
        how = ' (an older value: the load pool let it pass the thread’s earlier load)';
      }
    }
    if (isAcquire(order)) this.fence(w, l, orderScope ?? 'system', range, true);
    if (st.latestRange && st.latestValue !== value) this.observe('stale-read', range, p, value, st.latestValue, st.latestRange);
    if (this.trace) this.step(w, l, `reads ${this.name(p)} → ${show(value)}${how}`, range);
    return value;
  }

  store(w: ThreadWarp, l: number, p: number, kind: ScalarKind, value: number, strong: boolean, range: Range, order?: MemoryOrder, orderScope?: Scope): void {
    const a = this.resolve(w, p, kind, true, range);
    this.lastAccessPrivate = true;
    if (!this.weakSpace(a)) {
      writeResolved(this.memory, a, pointerOffset(p), kind, value);
      return;
    }
    const t = this.thread(w, l);
    const b = w.ctx.blockLinear;
    this.touch(p, t);
    const st = this.state(p, a, kind);
    st.latestValue = value;
    st.latestRange = range;
    this.stale.get(t)?.delete(p);
    if (isRelease(order)) this.fence(w, l, orderScope ?? 'system', range, true);
    this.settle(st, t, b);
    if (strong || order || this.config.model === 'sc') {
      // Volatile and ordered stores write through to the level the scope names.
      const scope = order && this.config.model !== 'sc' ? (orderScope ?? 'system') : 'system';
      if (this.trace) this.step(w, l, `writes ${this.name(p)} = ${show(value)} through to ${scope === 'block' && !st.shared ? 'its block' : 'memory'}`, range);
      const views = this.viewsBefore(st);
      this.dropThreadEntry(st, t);
      if (scope === 'block' && !st.shared) this.setBlockEntry(st, b, value, t, range, false);
      else this.writeEverywhere(st, value, range);
      this.followViews(st, views);
      return;
    }
    if (this.trace) this.step(w, l, `writes ${this.name(p)} = ${show(value)}`, range);
    // The value this store replaces may have propagated first.
    const previous = st.threads.get(t);
    if (previous?.own && previous.value !== value && this.pick(2, 1, t) === 1) this.propagateThreadEntry(st, previous);
    const views = this.viewsBefore(st);
    const current = st.threads.get(t);
    if (current?.own) {
      // Still held back: the queued entry takes the new value.
      current.value = value;
      current.range = range;
    } else {
      const entry = threadEntry(st, t, value, true, b, range);
      this.putThreadEntry(st, entry);
      this.addPending(entry);
    }
    this.followViews(st, views);
  }

  /** A read-modify-write at the atomic's scope; returns [old, new]. */
  atomic(w: ThreadWarp, l: number, p: number, kind: ScalarKind, scope: Scope, rmw: (old: number) => number, range: Range, order?: MemoryOrder): [number, number] {
    const a = this.resolve(w, p, kind, true, range);
    const off = pointerOffset(p);
    this.lastAccessPrivate = true;
    if (!this.weakSpace(a)) {
      const old = readResolved(a, off, kind);
      const next = rmw(old);
      writeResolved(this.memory, a, off, kind, next);
      return [old, next];
    }
    if (isRelease(order)) this.fence(w, l, scope, range, true);
    const t = this.thread(w, l);
    const b = w.ctx.blockLinear;
    this.touch(p, t);
    const st = this.state(p, a, kind);
    this.stale.get(t)?.delete(p);
    this.settle(st, t, b);
    let old = 0;
    let next = 0;
    const views = this.viewsBefore(st);
    // The thread's own earlier store to the address comes first (program order).
    const own = st.threads.get(t);
    if (own?.own) {
      if (scope === 'block' && !st.shared) this.setBlockEntry(st, b, own.value, t, own.range, false);
      else this.writeEverywhere(st, own.value, own.range);
    }
    this.dropThreadEntry(st, t);
    // An RMW that leaves the value as it was (a failed CAS) only reads: it writes nothing
    // that could later overwrite a newer value.
    if (scope === 'block' && !st.shared && this.config.model !== 'sc') {
      // At the block's level (L1): other blocks neither see it nor are seen.
      old = st.blocks.get(b)?.value ?? readResolved(a, off, kind);
      next = rmw(old);
      if (next !== old) this.setBlockEntry(st, b, next, t, range, true);
    } else {
      old = readResolved(a, off, kind);
      next = rmw(old);
      if (next !== old) this.writeEverywhere(st, next, range);
    }
    this.followViews(st, views);
    st.latestValue = next;
    st.latestRange = range;
    if (this.trace) this.step(w, l, `${scope === 'block' ? 'block-scope ' : ''}atomic on ${this.name(p)}: ${show(old)} → ${show(next)}`, range);
    if (isAcquire(order)) this.fence(w, l, scope, range, true);
    return [old, next];
  }

  /**
   * A fence pushes the issuing thread's own values: within its block (`block` scope) or to
   * every thread. It also ends the thread's load-pool window.
   */
  fence(w: ThreadWarp, l: number, scope: Scope, range: Range, implied = false): void {
    const t = this.thread(w, l);
    if (!implied && this.trace) this.step(w, l, scope === 'block' ? '__threadfence_block()' : scope === 'system' ? '__threadfence_system()' : '__threadfence()', range);
    // A fence with nothing of its own to push changes only its thread's load-pool window.
    const pushes = this.threadEntries.has(t) || (scope !== 'block' && this.ownedBlockAddresses.has(t));
    if (!implied) this.lastAccessPrivate = !pushes;
    this.fenceThread(t, w.ctx.blockLinear, scope);
  }

  /**
   * A thread exits: what only it could use goes (its load-pool window, values it borrowed);
   * its own unshared stores stay, to propagate.
   */
  exit(w: ThreadWarp, l: number): void {
    const t = this.thread(w, l);
    this.stale.delete(t);
    for (let e = this.threadEntries.get(t)?.oldest; e; ) {
      const newer = e.newer;
      if (!e.own) this.dropThreadEntry(e.state, t);
      e.state.readers?.delete(t);
      e = newer;
    }
  }

  /** __syncthreads: every thread of the block fences at block scope before the barrier opens. */
  barrier(block: number): void {
    for (const t of [...this.threadEntries.keys()]) if (this.blockOf(t) === block) this.fenceThread(t, block, 'block');
    for (const t of [...this.stale.keys()]) if (this.blockOf(t) === block) this.stale.delete(t);
  }

  // -------------------------------------------------------------------------------------------
  // The memory system's own steps

  /**
   * Propagates everything pending (the end of a launch). Only the order of values for one
   * address can matter (the last one stays), so only that order is a decision.
   */
  drain(choose: (n: number) => number): void {
    // Propagating may queue more (a store buffer drains into its block's view first).
    while (this.pending.length > 0) {
      const groups = new Map<number, Pending[]>();
      for (const x of this.pending) {
        const g = groups.get(x.state.address);
        if (g) g.push(x);
        else groups.set(x.state.address, [x]);
      }
      this.pending = [];
      for (const items of groups.values()) {
        let live = items.filter((x) => this.isLive(x));
        while (live.length > 0) {
          const k = live.length > 1 ? choose(live.length) : 0;
          this.propagateItem(live[k]);
          live = live.filter((x, i) => i !== k && this.isLive(x));
        }
      }
    }
  }

  private propagateItem(x: Pending): void {
    const st = x.state;
    if (this.isLive(x)) {
      if (x.level === 'thread') this.propagateThreadEntry(st, x);
      else this.propagateBlockEntry(st, x);
    }
    this.forgetIfIdle(st);
  }

  private propagateThreadEntry(st: AddressState, e: ThreadEntry): void {
    const t = e.who;
    const views = this.viewsBefore(st);
    if (this.config.model === 'gpu-strong') {
      // A store buffer drains into its block's view (shared memory: the block's memory).
      this.dropThreadEntry(st, t);
      if (st.shared) writeResolved(this.memory, st.allocation, st.offset, st.kind, e.value);
      else this.setBlockEntry(st, e.block, e.value, t, e.range, false);
    } else if (st.shared) this.writeWithinBlock(st, e.value);
    else this.writeEverywhere(st, e.value, e.range);
    this.followViews(st, views);
    if (this.trace) this.memoryStep(`${this.name(st.address)} = ${show(e.value)} from ${this.actorOfThread(t)} ${this.config.model === 'gpu-strong' ? (st.shared ? 'reaches its block' : 'reaches its block’s view') : st.shared ? 'reaches the block' : 'reaches every thread'}`, e.range);
  }

  private propagateBlockEntry(st: AddressState, e: BlockEntry): void {
    const views = this.viewsBefore(st);
    this.shareBlockEntry(st, e.who, e);
    this.followViews(st, views);
    if (this.trace) this.memoryStep(`${this.name(st.address)} = ${show(e.value)} from block ${e.who} reaches the other blocks`, e.range);
  }

  /**
   * Before thread `t` of block `b` touches the address: values other threads have not propagated
   * may propagate now, one at a time, in an order the chooser picks (or none).
   */
  private settle(st: AddressState, t: number, b: number): void {
    // Nothing of another thread or block held back here (the common case): no decision.
    if (st.blocks.size === 0 && (st.threads.size === 0 || (st.threads.size === 1 && st.threads.has(t)))) return;
    for (;;) {
      const threads: number[] = [];
      for (const [u, e] of st.threads) if (u !== t && e.own) threads.push(u);
      const blocks: number[] = [];
      if (!st.shared) for (const ob of st.blocks.keys()) if (ob !== b) blocks.push(ob);
      const n = threads.length + blocks.length;
      if (n === 0) return;
      const k = this.pick(n + 1, 3, t);
      if (k === 0) return;
      if (k <= threads.length) this.propagateThreadEntry(st, st.threads.get(threads[k - 1])!);
      else this.propagateBlockEntry(st, st.blocks.get(blocks[k - 1 - threads.length])!);
    }
  }

  /** A digest of the model's state, for exhaustive exploration. */
  digest(mix: (x: number) => void): void {
    for (const st of this.addresses.values()) {
      if (!st.threads.size && !st.blocks.size) continue;
      mix(st.address % 4294967296);
      for (const [t, e] of st.threads) {
        mix(t);
        mix(e.value);
        mix(e.own ? 1 : 2);
      }
      for (const [b, e] of st.blocks) {
        mix(b);
        mix(e.value);
        mix(e.owner);
      }
    }
    // A load-pool window is a set of values: the order they came in changes no future.
    for (const [t, m] of this.stale) for (const [p, vs] of m) {
      mix(t);
      mix(p % 4294967296);
      for (const v of [...vs].sort((x, y) => x - y)) mix(v);
    }
    // What is pending is a set: the order it was queued in changes no future.
    let set = 0;
    for (const x of this.pending) set = (set + Math.imul((x.state.address % 4294967296) ^ Math.imul(x.who + 1, 0x85ebca6b) ^ (x.level === 'thread' ? 0x1b873593 : 0x3c6ef372), 0x27d4eb2f)) | 0;
    mix(set);
  }

  // -------------------------------------------------------------------------------------------
  // Internals

  private fenceThread(t: number, b: number, scope: Scope): void {
    this.stale.delete(t);
    const list = this.threadEntries.get(t);
    if (list) {
      const states: AddressState[] = [];
      for (let e = list.oldest; e; e = e.newer) states.push(e.state);
      for (const st of states) {
        const e = st.threads.get(t);
        if (!e || (!e.own && !this.config.cumulativeFences)) continue;
        const views = this.viewsBefore(st);
        if (st.shared) {
          if (this.config.model === 'gpu-strong') {
            this.dropThreadEntry(st, t);
            writeResolved(this.memory, st.allocation, st.offset, st.kind, e.value);
          } else this.writeWithinBlock(st, e.value);
        } else if (scope === 'block') {
          // Shared within the block only: other blocks still need it (LS = 1, GS = 0).
          if (this.config.model === 'gpu-weak') for (const [u, o] of st.threads) if (u !== t && o.block === b) this.dropThreadEntry(st, u);
          this.dropThreadEntry(st, t);
          this.setBlockEntry(st, b, e.value, t, e.range, false);
        } else this.writeEverywhere(st, e.value, e.range);
        this.followViews(st, views);
      }
    }
    if (scope === 'block') return;
    const owned = this.ownedBlockAddresses.get(t);
    if (!owned) return;
    for (const st of [...owned]) {
      const e = st.blocks.get(b);
      if (e && e.owner === t) {
        const views = this.viewsBefore(st);
        this.shareBlockEntry(st, b, e);
        this.followViews(st, views);
      } else this.unindex(this.ownedBlockAddresses, t, st);
    }
  }

  /** Block `b`'s value reaches the other blocks: theirs are overwritten (coherence order). */
  private shareBlockEntry(st: AddressState, b: number, e: BlockEntry): void {
    writeResolved(this.memory, st.allocation, st.offset, st.kind, e.value);
    for (const [ob, o] of st.blocks) {
      if (ob !== b) this.lose(st, o, e.value, e.range);
      this.dropBlockEntry(st, ob);
    }
    if (this.config.model === 'gpu-weak') for (const [u, o] of st.threads) if (o.block !== b) this.dropThreadEntry(st, u);
  }

  /** A value every thread now sees: memory takes it, and every other copy is overwritten. */
  private writeEverywhere(st: AddressState, value: number, range: Range): void {
    writeResolved(this.memory, st.allocation, st.offset, st.kind, value);
    if (st.blocks.size)
      for (const [ob, o] of st.blocks) {
        this.lose(st, o, value, range);
        this.dropBlockEntry(st, ob);
      }
    // gpu-strong's store buffers are not views: others' shares do not overwrite them. One
    // entry (a plain store's, the common case) is dropped without iterating.
    const sole = st.threads.sole();
    if (sole) {
      if (this.config.model === 'gpu-weak' || !sole.own) this.dropThreadEntry(st, sole.who);
    } else for (const [u, o] of st.threads) if (this.config.model === 'gpu-weak' || !o.own) this.dropThreadEntry(st, u);
  }

  /** Shared memory: the block's memory takes the value, the block's threads see it. */
  private writeWithinBlock(st: AddressState, value: number): void {
    writeResolved(this.memory, st.allocation, st.offset, st.kind, value);
    for (const u of st.threads.keys()) this.dropThreadEntry(st, u);
  }

  private lose(st: AddressState, lost: BlockEntry, by: number, range: Range): void {
    if (lost.atomic && lost.value !== by) this.observe('lost-update', lost.range, st.address, lost.value, by, range);
  }

  /** Block `b`'s view of the address takes `value`, which `owner`'s fence or atomic put there. */
  private setBlockEntry(st: AddressState, b: number, value: number, owner: number, range: Range, atomic: boolean): void {
    // The value this one replaces may have reached the other blocks first.
    const replaced = st.blocks.get(b);
    if (replaced && replaced.value !== value && this.pick(2, 2, owner) === 1) this.shareBlockEntry(st, b, replaced);
    const old = st.blocks.get(b);
    if (old && old.owner !== owner) this.unindex(this.ownedBlockAddresses, old.owner, st);
    this.index(this.ownedBlockAddresses, owner, st);
    if (old) {
      // Still held back: the queued entry takes the new value.
      old.value = value;
      old.owner = owner;
      old.range = range;
      old.atomic = atomic;
      return;
    }
    if (st.blocks === NO_BLOCKS) st.blocks = new Map();
    const entry: BlockEntry = { level: 'block', state: st, who: b, value, owner, range, atomic };
    st.blocks.set(b, entry);
    this.addPending(entry);
  }

  private dropBlockEntry(st: AddressState, b: number): void {
    const e = st.blocks.get(b);
    if (!e) return;
    st.blocks.delete(b);
    this.unindex(this.ownedBlockAddresses, e.owner, st);
  }

  private dropThreadEntry(st: AddressState, t: number): void {
    const e = st.threads.get(t);
    if (!e) return;
    st.threads.delete(t);
    this.unlink(e);
  }

  /** Thread `e.who`'s entry at the address; one it replaces keeps its place in the thread's list. */
  private putThreadEntry(st: AddressState, e: ThreadEntry): void {
    const old = st.threads.get(e.who);
    st.threads.set(e.who, e);
    if (old) {
      const list = old.list!;
      e.list = list;
      e.older = old.older;
      e.newer = old.newer;
      if (e.older) e.older.newer = e;
      else list.oldest = e;
      if (e.newer) e.newer.older = e;
      else list.newest = e;
      old.list = old.older = old.newer = undefined;
      return;
    }
    let list = this.threadEntries.get(e.who);
    if (!list) this.threadEntries.set(e.who, (list = { oldest: undefined, newest: undefined }));
    e.list = list;
    e.older = list.newest;
    if (list.newest) list.newest.newer = e;
    else list.oldest = e;
    list.newest = e;
  }

  private unlink(e: ThreadEntry): void {
    const list = e.list!;
    if (e.older) e.older.newer = e.newer;
    else list.oldest = e.newer;
    if (e.newer) e.newer.older = e.older;
    else list.newest = e.older;
    e.list = e.older = e.newer = undefined;
    if (!list.oldest) this.threadEntries.delete(e.who);
  }

  /**
   * Before a change to an address: the views of the readers the load pool follows there
   * (undefined when it follows nobody, the common case: nothing to allocate). The change is
   * written out between this and `followViews` rather than passed as a function, so a plain
   * store allocates no closure.
   */
  private viewsBefore(st: AddressState): Map<number, number> | undefined {
    this.memory.version++;
    const readers = this.config.loadReordering ? st.readers : undefined;
    if (!readers?.size) return undefined;
    const before = new Map<number, number>();
    for (const r of readers) before.set(r, this.view(st, r, this.blockOf(r)));
    return before;
  }

  /** After a change to the address: a reader whose view changed keeps the old value in its load pool. */
  private followViews(st: AddressState, before: Map<number, number> | undefined): void {
    if (!before) return;
    for (const [r, old] of before) {
      if (this.view(st, r, this.blockOf(r)) === old) continue;
      let m = this.stale.get(r);
      if (!m) this.stale.set(r, (m = new Map()));
      const list = m.get(st.address) ?? [];
      if (!list.includes(old)) list.push(old);
      if (list.length > STALE_LIMIT) list.shift();
      m.set(st.address, list);
    }
  }

  private view(st: AddressState, t: number, b: number): number {
    const own = st.threads.get(t);
    if (own) return own.value;
    const blk = st.shared ? undefined : st.blocks.get(b);
    if (blk) return blk.value;
    return readResolved(st.allocation, st.offset, st.kind);
  }

  private state(p: number, a: Allocation, kind: ScalarKind): AddressState {
    const offset = pointerOffset(p);
    let st = this.addresses.get(a, offset);
    if (!st) {
      st = { address: p, allocation: a, offset, kind, shared: a.space === 'shared', threads: new SmallMap(), blocks: NO_BLOCKS, latestValue: 0 };
      this.addresses.set(a, offset, st);
    }
    return st;
  }

  private resolve(w: ThreadWarp, p: number, kind: ScalarKind, write: boolean, range: Range): Allocation {
    const a = w.ctx.memory.resolve(p, scalarSize(kind), w.ctx.accessor, write);
    if (!('bytes' in a)) throw new DeviceFault(a, range);
    return a;
  }

  /** Global and shared memory are weak; a thread's local memory and the host's are not. */
  private weakSpace(a: Allocation): boolean {
    return a.space === 'global' || a.space === 'shared' || a.space === 'managed';
  }

  private thread(w: ThreadWarp, l: number): number {
    return w.ctx.blockLinear * this.threadsPerBlock + w.warp * 32 + l;
  }

  private blockOf(t: number): number {
    return Math.floor(t / this.threadsPerBlock);
  }

  private addPending(x: Pending): void {
    this.pending.push(x);
    if (this.pending.length > PENDING_LIMIT) this.propagateOldest();
  }

  /** The oldest half of what is pending propagates, in order (the capacity limit). */
  private propagateOldest(): void {
    const oldest = this.pending.slice(0, this.pending.length >> 1);
    this.pending = this.pending.slice(oldest.length);
    for (const x of oldest) this.propagateItem(x);
  }

  /** An address with nothing unpropagated and nobody's view followed needs no state. */
  private forgetIfIdle(st: AddressState): void {
    if (st.threads.size || st.blocks.size || st.readers?.size) return;
    // An entry queued before the address was last forgotten names a state the address no longer has.
    this.addresses.delete(st.allocation, st.offset, st);
  }

  /** The queued entry still holds its value back (not propagated, dropped nor replaced). */
  private isLive(x: Pending): boolean {
    return x.level === 'thread' ? x.state.threads.get(x.who) === x && x.own : x.state.blocks.get(x.who) === x;
  }

  private index(m: Map<number, Set<AddressState>>, who: number, st: AddressState): void {
    let s = m.get(who);
    if (!s) m.set(who, (s = new Set()));
    s.add(st);
  }

  private unindex(m: Map<number, Set<AddressState>>, who: number, st: AddressState): void {
    const s = m.get(who);
    if (!s) return;
    s.delete(st);
    if (!s.size) m.delete(who);
  }

  private observe(kind: WeakObservation['kind'], range: Range, p: number, value: number, latest: number, other: Range): void {
    const key = `${kind}:${range.start.offset}`;
    const o = this.observations.get(key);
    if (o) o.count++;
    else this.observations.set(key, { kind, range, address: this.name(p), value, latest, other, count: 1 });
  }

  private name(p: number): string {
    return nameAddress(this.memory, p) ?? `${this.memory.allocation(Math.floor(p / 4294967296))?.label ?? 'memory'}+${pointerOffset(p)}`;
  }

  private actorOfThread(t: number): string {
    const b = this.blockOf(t);
    return `block ${b} thread ${t - b * this.threadsPerBlock}`;
  }

  // Callers test `this.trace` before describing a step: naming an address costs a lookup in
  // the program's variables, which a run without a trace must not pay on every access.
  private step(w: ThreadWarp, l: number, action: string, range: Range): void {
    this.trace?.push({ actor: `block ${w.ctx.blockLinear} thread ${w.warp * 32 + l}`, action, range });
  }

  private memoryStep(action: string, range: Range): void {
    this.trace?.push({ actor: 'memory', action, range });
  }
}

/** A thread entry, made in one place so that every entry has one shape. */
function threadEntry(state: AddressState, who: number, value: number, own: boolean, block: number, range: Range): ThreadEntry {
  return { level: 'thread', state, who, value, own, block, range, list: undefined, older: undefined, newer: undefined };
}

function show(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toPrecision(6);
}
