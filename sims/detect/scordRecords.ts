// What the ScoRD detector remembers: an access as its metadata keeps it, a metadata entry,
// a thread's fence file and its inferred locks. Shared by the detector (./scord.ts) and its
// reporting (./scordReport.ts).
import type { Range } from '../frontend/source';
import type { MemoryOrder, Scope } from '../gpu/memoryOrder';
import type { WarpOrder } from './releaseFile';

/** One access as the metadata remembers it. */
export interface AccessRecord {
  block: number;
  warp: number;
  lane: number;
  /** The warp's divergence epoch when the access was made while diverged, else -1. */
  divergence: number;
  barrier: number;
  blkFence: number;
  devFence: number;
  isAtom: boolean;
  atomic: { op: string; scope: Scope } | undefined;
  strong: boolean;
  /** Exact: the lock keys held; hardware-faithful: a 16-bit Bloom filter of them. */
  locks: Set<string> | number;
  range: Range;
  write: boolean;
  /** A strong write right after a fence: publishing a flag (`__threadfence(); flag = 1;`). */
  release: boolean;
  /** The warp's release counter at the access: releases after it have higher values. */
  rel: number;
  /** The memory order the access named, if any, and its scope. */
  order: MemoryOrder | undefined;
  orderScope: Scope | undefined;
  /** A lock held at the access that was released with no fence after it (it protected nothing). */
  lostLock: LockEntry | undefined;
  /** A lock the thread had taken with atomicCAS but no fence of its scope had completed yet. */
  pendingLock: LockEntry | undefined;
  /** Exact mode: the locks held (their entries), for fixes that take the same lock elsewhere. */
  heldBy: readonly LockEntry[] | undefined;
  /** The warp's __syncwarp count at the access: lanes of one warp are ordered only by one. */
  sync: number;
  /** The word's value after the access, and (writes) whether it was the value before. */
  value: number;
  silent: boolean;
  /** Exact mode with 4-byte entries: the bytes of the word the access touched (0b1111 for all). */
  bytes: number;
}

/**
 * A metadata entry. Exact mode compares an access with the last write (a load) or the last
 * access (a store), so reads never race with reads. Hardware-faithful mode keeps the paper's
 * 8-byte entry: the last accessor and the Modified, BlkShared, DevShared and Strong flags.
 */
export interface Meta {
  /** Hardware-faithful: which of the entry's 16 words it describes. */
  tag: number;
  last: AccessRecord;
  lastWrite?: AccessRecord;
  /** Exact mode: a record no longer in use, for the next read to fill. */
  spare?: AccessRecord;
  /**
   * Exact mode: since the last write, the read of another thread that `last` (a read too)
   * replaced. A write is checked against it as well as against `last`: when the writer itself
   * read the word just before (`x += …`), `last` is its own read, and the other thread's read
   * would otherwise go unchecked.
   */
  otherRead?: AccessRecord;
  /**
   * Exact mode: a plain write made under no lock that the same thread's atomic, or its write
   * under a lock, then replaced as the last write (`*c = 0; atomicAdd(c, 1);`, `total = 0;
   * lock(); total += x;`). Other threads' accesses are checked against it as well: beside the
   * atomic or the lock they would pass, so the plain write would go unchecked when it ran first
   * and be found when it ran last. A plain unguarded write, checked against both, ends it.
   */
  hiddenWrite?: AccessRecord;
  modified: boolean;
  blkShared: boolean;
  devShared: boolean;
  strong: boolean;
  /** The launch (MetaTable generation) it belongs to: an entry of an earlier one is no entry. */
  generation: number;
}

export interface FenceFile {
  blk: number;
  dev: number;
  /** The last block-scope fence, for "__threadfence_block() at line N orders it only…". */
  lastBlockFence?: Range;
  /** No global access since the last fence: the next strong write publishes (a release). */
  fencedLast: boolean;
  /** The same for fences of device scope or wider (what a device-scope unlock needs). */
  fencedLastDev: boolean;
  /** Hardware-faithful: a warp's lanes report one fence each; count it once. */
  lastRange?: Range;
  lastLane: number;
  /** The release state of the thread's warp (shared by the lanes' files in exact mode). */
  order: WarpOrder;
}

export interface LockEntry {
  key: string;
  word: number;
  scope: Scope;
  active: boolean;
  acquire: Range;
  /**
   * How it was taken: atomicCAS (the paper's inferred lock), or atomicExch storing a non-zero
   * value (a test-and-set spin lock, exact mode). An atomicExch of non-zero is also how flags
   * are raised and values swapped, so such a lock is no lockset member: it orders an earlier
   * holder's accesses before a later holder's only once the earlier one released it after a
   * fence (see ScordDetector.exchangeHandover).
   */
  takenBy: 'CAS' | 'Exch';
  /** When it was taken and released, in the detector's count of lock events (a handover needs this order). */
  takenAt: number;
  releasedAt?: number;
  /** A fence narrower than the lock that followed the atomicCAS (it did not complete the acquire). */
  narrowFence?: Range;
  /** The atomicExch that released it, and whether a fence of the lock's scope came just before. */
  release?: Range;
  releaseFenced?: boolean;
  /**
   * Released by a plain store (`lock = 0;`): not volatile or atomic, so no fence orders it and it
   * publishes nothing; `fenceBeforeRelease` says whether a fence of the lock's scope came before.
   */
  weakRelease?: boolean;
  fenceBeforeRelease?: boolean;
}

/** A thread's inferred locks, and the set of those it holds (cached until the table changes). */
export interface LockTable {
  entries: LockEntry[];
  held?: Set<string> | number;
  /** With `held`: the entries held, and the first taken but not yet completed by a fence. */
  heldEntries?: readonly LockEntry[];
  pending?: LockEntry;
  /**
   * Accesses made holding a lock, until it is released: an unlock with no fence before it
   * (the release pattern is a fence, then the atomicExch) publishes none of them, so they lose
   * the lock, and whoever takes it next races with them.
   */
  section?: SectionAccess[];
}

/** One access in a critical section: the entry whose record it is. */
export interface SectionAccess {
  md: Meta;
  range: Range;
}
