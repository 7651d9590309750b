// An access kept as numbers instead of a record (exact mode's tables of plain accesses: reads
// before a word's first write, ./readsBeforeWrite.ts, and entries of plain words, ./plainWords.ts):
// who made it and the counters of its thread when it was made — what the race rules compare.
// Each table adds what else it keeps after these.
import type { AccessRecord } from './scordRecords';

export const BLOCK = 0;
/** The thread in its block, warp * 32 + lane, in the low 16 bits (a table may put flags above). */
export const WHO = 1;
export const DIVERGENCE = 2;
export const BARRIER = 3;
export const BLK_FENCE = 4;
export const DEV_FENCE = 5;
export const REL = 6;
export const SYNC = 7;
/** The numbers of an access's thread and counters. */
export const COUNTERS = 8;

export const THREAD_BITS = 0xffff;

/**
 * The bytes of its 4-byte word an aligned access of `size` bytes at byte `offset` touches, a bit
 * each (0b1111 for all): lanes that write neighbouring `char`s of one word do not conflict.
 */
export function wordBytes(offset: number, size: number): number {
  return size >= 4 ? 0b1111 : (((1 << size) - 1) << (offset & 3)) & 0b1111;
}

/** The thread and counters at `at` into `into`, and the fields a plain access has (no atomic, order or lock). */
export function loadCounters(into: AccessRecord, rows: Int32Array, at: number, noLocks: AccessRecord['locks']): void {
  const who = rows[at + WHO] & THREAD_BITS;
  into.block = rows[at + BLOCK];
  into.warp = who >> 5;
  into.lane = who & 31;
  into.divergence = rows[at + DIVERGENCE];
  into.barrier = rows[at + BARRIER];
  into.blkFence = rows[at + BLK_FENCE];
  into.devFence = rows[at + DEV_FENCE];
  into.rel = rows[at + REL];
  into.sync = rows[at + SYNC];
  into.isAtom = false;
  into.atomic = undefined;
  into.locks = noLocks;
  into.order = undefined;
  into.orderScope = undefined;
  into.lostLock = undefined;
  into.pendingLock = undefined;
  into.heldBy = undefined;
}
