// The release file of ScoRD's §VI sketch, for explicit acquire/release (libcu++ memory orders,
// PTX .acquire/.release, fences before a flag): a release writes the releasing warp's state
// into an entry keyed by the location; an acquire reads it, and the acquiring warp's later
// accesses are ordered after the releaser's earlier ones, weak or strong, provided each side's
// scope includes the other. A barrier passes what any warp of the block acquired to all of them.
// The detector (./scord.ts) asks it whether a release/acquire chain ordered two accesses, and
// why one nearly did.
import type { Range } from '../frontend/source';
import { isAcquire, isRelease, type Scope } from '../gpu/memoryOrder';
import type { SimEvent } from '../ir/ir';
import type { OrderHint } from './findings';
import { warpKey, WARPS_PER_BLOCK } from './lanes';

type Access = Extract<SimEvent, { kind: 'access' }>;
type Fence = Extract<SimEvent, { kind: 'fence' }>;

/** Hardware-faithful: entries of a warp's table of synchronized warps. */
const SYNC_TABLE = 4;
/** Exact: a release passes on what its warp acquired only up to this many entries (cost bound). */
const TRANSITIVE_LIMIT = 4096;
/** Strong reads of released locations a warp keeps for its next acquire fence. */
export const PENDING_LIMIT = 8;

/** What the release file needs of an access the detector recorded. */
export interface OrderedAccess {
  block: number;
  warp: number;
  /** The warp's release counter at the access. */
  rel: number;
  barrier: number;
}

/**
 * A warp's side of explicit acquire/release (§VI): its release counter, the releases it has
 * acquired — the "synchronized warps" — and the reads still waiting for an acquire fence.
 * Kept per warp, as the paper keeps its fence file: a lane's acquire orders its warp.
 */
export interface WarpOrder {
  /** warpKey(block, warp): the key releases and `seen` use. */
  key: number;
  /** __syncwarp() calls of the warp so far (its lanes' accesses before one are ordered before those after). */
  sync: number;
  /** Bumped by every release and release fence; accesses record it (AccessRecord.rel). */
  rel: number;
  /** `rel` and the barrier ID at the last release fence, and at the last one of device scope or wider. */
  fenceRel: number;
  fenceBar: number;
  fenceRelDev: number;
  fenceBarDev: number;
  /** The last release fence, named when it had block scope and a consumer is in another block. */
  relFence?: Range;
  /**
   * What this warp has acquired: per releasing warp, the release counter below which its
   * accesses are ordered before this warp's next ones; per block b (key -1 - b), the barrier
   * ID below which all of b's accesses are. Shared with release entries and block-mates until
   * changed (copy on write). Exact: transitive and unbounded; hardware-faithful: 4 entries.
   */
  seen?: Map<number, number>;
  shared: boolean;
  /** Releases acquired with a scope too narrow for the releaser's block, for the message. */
  near?: Map<number, NearRelease>;
  /** Strong reads of released locations, waiting for an acquire fence. */
  pending?: { entry: ReleaseEntry; scope: Scope; range: Range }[];
  /** The entry last acquired in full: spinning on an acquire load merges it once. */
  lastMerged?: ReleaseEntry;
}

/** One entry of the release file: the last release of a location. */
export interface ReleaseEntry {
  /** The releasing warp (WarpOrder.key) and its block. */
  key: number;
  block: number;
  /** Accesses of the releasing warp with rel below these, or of its block with a barrier ID below these, are released: to the block, and to the device. */
  blkUpTo: number;
  blkBar: number;
  devUpTo: number;
  devBar: number;
  /** The block-scope release or release fence that kept devUpTo below blkUpTo. */
  narrow?: Range;
  /** The releasing access. */
  range: Range;
  /** Exact: what the releaser had acquired, passed on (happens-before is transitive). */
  seen?: Map<number, number>;
}

interface NearRelease {
  upTo: number;
  bar: number;
  /** The block-scope release and/or acquire. */
  release?: Range;
  acquire?: Range;
}

export class ReleaseFile {
  /** The last release of each 4-byte location. */
  private releases = new Map<number, ReleaseEntry>();
  private warpOrders: WarpOrder[][] = [];
  /** Per block, what its warps had acquired at its last barrier. */
  private blockSeen: (Map<number, number> | undefined)[] = [];
  /** Some release happened: accesses are checked against what warps acquired. */
  ordering = false;

  constructor(
    private readonly faithful: boolean,
    /** The block's barrier ID now (the detector counts barriers). */
    private readonly barrierId: (block: number) => number,
    /** Bits of a hardware-faithful barrier ID. */
    private readonly barrierBits: number,
  ) {}

  /** Nothing is released (a new launch, or a grid barrier); a launch also starts every warp afresh. */
  reset(launch: boolean): void {
    if (launch) this.warpOrders = [];
    this.releases = new Map();
    this.blockSeen = [];
    this.ordering = false;
  }

  /** No location holds a release: unordered accesses need no look. */
  get empty(): boolean {
    return this.releases.size === 0;
  }

  warpOrder(block: number, warp: number): WarpOrder {
    const row = this.warpOrders[block] ?? (this.warpOrders[block] = []);
    return row[warp] ?? (row[warp] = { key: warpKey(block, warp), sync: 0, rel: 0, fenceRel: 0, fenceBar: -1, fenceRelDev: 0, fenceBarDev: -1, shared: false });
  }

  /**
   * The release file (§VI) for one access: a read of a released location acquires it (an
   * acquire, or a strong read that the next acquire fence completes); an ordered write with
   * release semantics, or one after a release fence, releases; any other store overwrites the
   * released value, while RMWs continue its release sequence.
   */
  access(e: Access, w: WarpOrder): void {
    const loc = Math.floor(e.address / 4);
    const entry = this.releases.size === 0 ? undefined : this.releases.get(loc);
    const order = e.order;
    // Most accesses of a program that releases somewhere: unordered, to unreleased words.
    if (!entry && order === undefined) return;
    // Ordered accesses name their scope; legacy atomics have theirs; volatile is system-wide.
    const scope: Scope = order !== undefined ? (e.orderScope ?? e.atomic?.scope ?? 'device') : (e.atomic?.scope ?? 'system');
    if (entry && entry.key !== w.key && (!e.write || e.atomic)) {
      if (isAcquire(order)) this.acquire(w, e.block, entry, scope, e.range);
      else if (e.strong) this.pend(w, entry, scope, e.range);
    }
    if (!e.write || (e.atomic && e.atomic.op === 'CAS' && !e.atomic.changed)) return;
    if (isRelease(order)) this.release(e, loc, w, scope, true);
    else if (order !== undefined && w.fenceRel > 0) this.release(e, loc, w, scope, false);
    else if (entry && !e.atomic) this.releases.delete(loc);
  }

  /**
   * Writes the release file entry of `loc`. An explicit release orders everything its warp did
   * before it; a relaxed store after a release fence orders what came before the fence (the
   * fence-based release pattern). A block-scope store publishes only within its block.
   */
  private release(e: Access, loc: number, w: WarpOrder, scope: Scope, explicit: boolean): void {
    const wide = scope !== 'block';
    let entry: ReleaseEntry;
    if (explicit) {
      const rel = ++w.rel;
      const bar = this.barrierId(e.block);
      entry = { key: w.key, block: e.block, blkUpTo: rel, blkBar: bar, devUpTo: wide ? rel : 0, devBar: wide ? bar : -1, range: e.range };
      if (!wide) entry.narrow = e.range;
    } else {
      entry = { key: w.key, block: e.block, blkUpTo: w.fenceRel, blkBar: w.fenceBar, devUpTo: wide ? w.fenceRelDev : 0, devBar: wide ? w.fenceBarDev : -1, range: e.range };
      if (!wide) entry.narrow = e.range;
      else if (entry.devUpTo < entry.blkUpTo) entry.narrow = w.relFence;
    }
    if (!this.faithful && w.seen) {
      entry.seen = w.seen;
      w.shared = true;
    }
    this.releases.set(loc, entry);
    this.ordering = true;
  }

  /**
   * The warp `w` of `block` acquires `entry` at `scope`: the releaser's earlier accesses (and,
   * exact, whatever the releaser had acquired) are ordered before w's next ones, if the release
   * reaches w's block and the acquire reaches the releaser's. A scope too narrow for the
   * releaser's block is remembered for the message of the race it lets through.
   */
  private acquire(w: WarpOrder, block: number, entry: ReleaseEntry, scope: Scope, range: Range): void {
    if (entry.key === w.key || w.lastMerged === entry) return;
    const sameBlock = entry.block === block;
    const wide = sameBlock || scope !== 'block';
    const upTo = sameBlock ? entry.blkUpTo : wide ? entry.devUpTo : 0;
    if (upTo > 0) this.raise(w, block, entry.key, upTo);
    // Block-mates of the releaser: ordered by the barriers it passed before releasing.
    if (!sameBlock && wide && entry.devBar > 0) this.raise(w, block, -1 - entry.block, entry.devBar);
    if (!sameBlock && upTo < entry.blkUpTo) {
      const near = w.near ?? (w.near = new Map());
      near.delete(entry.key);
      const n: NearRelease = { upTo: entry.blkUpTo, bar: entry.blkBar };
      if (entry.devUpTo < entry.blkUpTo) n.release = entry.narrow ?? entry.range;
      if (!wide) n.acquire = range;
      near.set(entry.key, n);
      if (near.size > PENDING_LIMIT) near.delete(near.keys().next().value!);
    }
    if (upTo > 0 && entry.seen && entry.seen !== w.seen && entry.seen.size <= TRANSITIVE_LIMIT) for (const [k, v] of entry.seen) this.raise(w, block, k, v);
    if (upTo === entry.blkUpTo) w.lastMerged = entry;
  }

  /** A strong read of a released location: acquired if an acquire fence follows. */
  private pend(w: WarpOrder, entry: ReleaseEntry, scope: Scope, range: Range): void {
    const pending = w.pending ?? (w.pending = []);
    const last = pending[pending.length - 1];
    if (last && last.entry === entry && last.scope === scope) return;
    pending.push({ entry, scope, range });
    if (pending.length > PENDING_LIMIT) pending.shift();
  }

  /** An acquire fence: each pending read acquires at the narrower of its scope and the fence's. */
  acquirePending(w: WarpOrder, e: Fence): void {
    const pending = w.pending!;
    w.pending = undefined;
    for (const p of pending) {
      const fenceNarrower = scopeRank(e.scope) < scopeRank(p.scope);
      this.acquire(w, e.block, p.entry, fenceNarrower ? e.scope : p.scope, fenceNarrower ? e.range : p.range);
    }
  }

  /** Records that w's next accesses follow `key`'s below `value` (copying a shared table first). */
  private raise(w: WarpOrder, block: number, key: number, value: number): void {
    let seen = w.seen;
    if (!seen) {
      const inherited = this.blockSeen[block];
      seen = w.seen = inherited ? new Map(inherited) : new Map();
      w.shared = false;
    }
    const now = seen.get(key);
    // Hardware-faithful barrier IDs (keys below 0) wrap: the latest value is the one to keep.
    if (now !== undefined && (this.faithful && key < 0 ? now === value : now >= value)) return;
    if (w.shared) {
      seen = w.seen = new Map(seen);
      w.shared = false;
    }
    if (this.faithful) {
      // The paper's table of synchronized warps: a few entries, the oldest dropped.
      seen.delete(key);
      seen.set(key, value);
      if (seen.size > SYNC_TABLE) seen.delete(seen.keys().next().value!);
    } else seen.set(key, value);
  }

  /** A barrier: what any warp of the block acquired before it, every warp of the block has after it. */
  publishAtBarrier(block: number): void {
    const row = this.warpOrders[block];
    if (!row) return;
    const before = this.blockSeen[block];
    let union: Map<number, number> | undefined;
    for (const w of row) {
      if (!w?.seen || w.seen === before) continue;
      union ??= new Map(before);
      for (const [k, v] of w.seen) {
        const now = union.get(k);
        if (now === undefined || (this.faithful && k < 0) || v > now) union.set(k, v);
      }
    }
    if (!union) return;
    if (this.faithful) while (union.size > SYNC_TABLE) union.delete(union.keys().next().value!);
    for (const w of row) {
      if (!w) continue;
      w.seen = union;
      w.shared = true;
      w.lastMerged = undefined;
    }
    this.blockSeen[block] = union;
  }

  /** `prev` is ordered before `rec` by releases `rec`'s warp (or block, at a barrier) acquired. */
  orderedBefore(prev: OrderedAccess, rec: OrderedAccess): boolean {
    const seen = this.warpOrders[rec.block]?.[rec.warp]?.seen ?? this.blockSeen[rec.block];
    if (!seen) return false;
    return this.covered(prev, seen.get(warpKey(prev.block, prev.warp)), seen.get(-1 - prev.block));
  }

  /** `prev` was made before its warp's release counter reached `upTo`, or before its block's barrier `bar`. */
  private covered(prev: OrderedAccess, upTo: number | undefined, bar: number | undefined): boolean {
    if (upTo !== undefined && prev.rel < upTo) return true;
    if (bar === undefined || bar < 0) return false;
    if (!this.faithful) return prev.barrier < bar;
    const d = (bar - prev.barrier) & ((1 << this.barrierBits) - 1);
    return d > 0 && d < 1 << (this.barrierBits - 1);
  }

  /** Why a release of `prev`'s warp that `rec`'s warp (or block) read did not order them. */
  orderHint(prev: OrderedAccess, rec: OrderedAccess): OrderHint | undefined {
    const row = this.warpOrders[rec.block];
    if (!row) return undefined;
    const key = warpKey(prev.block, prev.warp);
    // The reader's own warp first, then its block-mates (a barrier may have passed the acquire on).
    for (const w of [row[rec.warp], ...row.filter((o, i) => o && i !== rec.warp)]) {
      if (!w) continue;
      if (w.near) {
        for (const [releaser, n] of w.near) {
          if (Math.floor(releaser / WARPS_PER_BLOCK) !== prev.block || !this.covered(prev, releaser === key ? n.upTo : undefined, n.bar)) continue;
          const hint: OrderHint = { kind: 'narrow-scope' };
          if (n.release) hint.release = n.release;
          if (n.acquire) hint.acquire = n.acquire;
          return hint;
        }
      }
      if (w.pending) for (const p of w.pending) if (p.entry.block === prev.block && this.covered(prev, p.entry.key === key ? p.entry.blkUpTo : undefined, p.entry.blkBar)) return { kind: 'relaxed-read', read: p.range, release: p.entry.range };
    }
    return undefined;
  }
}

export function scopeRank(s: Scope): number {
  return s === 'block' ? 0 : s === 'device' ? 1 : 2;
}
