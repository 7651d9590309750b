// Exact mode's reads of words nothing has written yet in this launch. Most accesses of most
// programs are such reads (input data that nothing writes), so they are kept in numbers, not
// objects: a slot of a direct-mapped table is one row of integers (its key and two reads, so
// that a read touches one or two cache lines), and only the rare read that is more than a plain
// read (an atomic, an ordered load, one made holding a lock) keeps its whole record. A write
// materialises the reads it is compared with, one at a time.
import type { Range } from '../frontend/source';
import type { AccessRecord, FenceFile } from './scordRecords';
import { BARRIER, BLK_FENCE, BLOCK, COUNTERS, DEV_FENCE, DIVERGENCE, loadCounters, REL, SYNC, THREAD_BITS, WHO } from './accessNumbers';

/** Slots the table grows to at most. */
const READ_SLOTS = 1 << 14;

// A slot's row: its key, which half holds the last read, then the two halves.
const GENERATION = 0;
const ALLOCATION = 1;
const WORD = 2;
/** Bit 0: the half holding the last read; bit 1: the other half holds another thread's read before it. */
const HALVES = 3;
const HEADER = 4;

// A half: one read, its thread and counters (./accessNumbers.ts), the flags in WHO's high bits.
const HALF = COUNTERS;
const ROW = HEADER + 2 * HALF;

const STRONG = 1 << 16;
const RELEASE = 1 << 17;
/** The whole record is kept. */
const FULL = 1 << 18;
/** The bytes of the word the read touched (4 bits). */
const BYTES_SHIFT = 19;

/** Who made a read and how (the access event's fields a read keeps). */
interface Reader {
  block: number;
  warp: number;
  lane: number;
  strong: boolean;
  range: Range;
}

/** The table a finished detector of this thread gave back. */
let spare: ReadsBeforeWrite | undefined;

/**
 * A direct-mapped table whose slot keeps the last read of its word and another thread's read
 * before it. It starts small (a small program pays for a small table) and grows up to
 * READ_SLOTS as slots fill. A "half" names one read: slot * 2 + 0 or 1.
 */
export class ReadsBeforeWrite {
  // Set by replaceRows, from the constructor on.
  private rows!: Int32Array;
  /** By half: the read's range, and the record of a read kept whole. */
  private ranges!: (Range | undefined)[];
  private records: (AccessRecord | undefined)[] | undefined;
  private mask = 0;
  /** Slots with a read. */
  private used = 0;
  /**
   * Added to the generations of the detector that holds the table: a table given back and
   * taken again holds no read its new holder could take for its own.
   */
  private offset = 0;
  /** The highest generation stored. */
  private highest = 0;

  constructor(size = 1 << 10) {
    this.replaceRows(size);
  }

  /**
   * A table for a new detector: the one a finished detector gave back, if any (its rows cost
   * more to allocate and zero than a short run costs to simulate), else a new one.
   */
  static take(): ReadsBeforeWrite {
    const t = spare ?? new ReadsBeforeWrite();
    spare = undefined;
    t.offset = t.highest;
    return t;
  }

  /** Its detector is done with it: the next one may take it (records of the run are let go). */
  giveBack(): void {
    this.records = undefined;
    spare = this;
  }

  /** Rows of `size` empty slots in place of the current ones, which are returned. */
  private replaceRows(size: number): { rows: Int32Array; ranges: (Range | undefined)[]; records: (AccessRecord | undefined)[] | undefined } {
    const old = { rows: this.rows, ranges: this.ranges, records: this.records };
    this.mask = size - 1;
    this.rows = new Int32Array(size * ROW);
    this.ranges = new Array<Range | undefined>(size * 2);
    this.records = undefined;
    return old;
  }

  private slot(allocation: number, word: number): number {
    return (Math.imul(allocation, 0x9e3779b1) ^ word) & this.mask;
  }

  /** The slot holding reads of the word in this generation, or -1. */
  find(allocation: number, word: number, generation: number): number {
    const slot = this.slot(allocation, word);
    const at = slot * ROW;
    const rows = this.rows;
    return rows[at + GENERATION] === generation + this.offset && rows[at + WORD] === word && rows[at + ALLOCATION] === allocation ? slot : -1;
  }

  /** The half of `slot` holding its last read, and (or -1) the half holding another thread's before it. */
  last(slot: number): number {
    return slot * 2 + (this.rows[slot * ROW + HALVES] & 1);
  }
  other(slot: number): number {
    const halves = this.rows[slot * ROW + HALVES];
    return halves & 2 ? slot * 2 + ((halves & 1) ^ 1) : -1;
  }

  /** The read in `half` was made by this thread. */
  byThread(half: number, block: number, warp: number, lane: number): boolean {
    const at = halfAt(half);
    return this.rows[at + BLOCK] === block && (this.rows[at + WHO] & THREAD_BITS) === warp * 32 + lane;
  }

  /**
   * Where a read of `word` by this thread goes: the slot's last read becomes its other read when
   * it is another thread's of the same word and generation; otherwise the slot starts again.
   * The half is returned for `putPlain` or `putRecord` to fill.
   */
  note(allocation: number, word: number, holderGeneration: number, block: number, warp: number, lane: number): number {
    const generation = holderGeneration + this.offset;
    if (generation > this.highest) this.highest = generation;
    let slot = this.slot(allocation, word);
    if (this.rows[slot * ROW + GENERATION] === 0 && ++this.used * 2 > this.mask + 1 && this.mask + 1 < READ_SLOTS) {
      this.grow();
      slot = this.slot(allocation, word);
      if (this.rows[slot * ROW + GENERATION] === 0) this.used++;
    }
    const rows = this.rows;
    const at = slot * ROW;
    const same = rows[at + GENERATION] === generation && rows[at + WORD] === word && rows[at + ALLOCATION] === allocation;
    let halves = rows[at + HALVES];
    if (same && !this.byThread(slot * 2 + (halves & 1), block, warp, lane)) {
      // Another thread's read of the same word: kept too, for the first write to check.
      halves = ((halves & 1) ^ 1) | 2;
    } else if (!same) {
      halves &= 1;
      rows[at + GENERATION] = generation;
      rows[at + ALLOCATION] = allocation;
      rows[at + WORD] = word;
    }
    rows[at + HALVES] = halves;
    return slot * 2 + (halves & 1);
  }

  /** A plain read (no atomic, no memory order, no lock held or being taken) of `e`'s thread, with the state it was made in. */
  putPlain(half: number, e: Reader, divergence: number, barrier: number, fence: FenceFile, release: boolean, bytes: number): void {
    const at = halfAt(half);
    const rows = this.rows;
    rows[at + BLOCK] = e.block;
    rows[at + WHO] = (e.warp * 32 + e.lane) | (e.strong ? STRONG : 0) | (release ? RELEASE : 0) | (bytes << BYTES_SHIFT);
    rows[at + DIVERGENCE] = divergence;
    rows[at + BARRIER] = barrier;
    rows[at + BLK_FENCE] = fence.blk;
    rows[at + DEV_FENCE] = fence.dev;
    rows[at + REL] = fence.order.rel;
    rows[at + SYNC] = fence.order.sync;
    this.ranges[half] = e.range;
  }

  /** The record kept in `half` (for `putRecord` to refill), if it keeps one. */
  spareRecord(half: number): AccessRecord | undefined {
    return this.records?.[half];
  }

  putRecord(half: number, rec: AccessRecord): void {
    const at = halfAt(half);
    this.rows[at + BLOCK] = rec.block;
    this.rows[at + WHO] = (rec.warp * 32 + rec.lane) | FULL;
    (this.records ??= new Array<AccessRecord | undefined>(this.ranges.length))[half] = rec;
  }

  /** The read in `half` as a record: its own, or `into` filled with a plain read's numbers. */
  load(half: number, into: AccessRecord, noLocks: AccessRecord['locks']): AccessRecord {
    const at = halfAt(half);
    const rows = this.rows;
    const who = rows[at + WHO];
    if (who & FULL) return this.records![half]!;
    loadCounters(into, rows, at, noLocks);
    into.strong = (who & STRONG) !== 0;
    into.range = this.ranges[half]!;
    into.write = false;
    into.release = (who & RELEASE) !== 0;
    into.value = 0;
    into.silent = false;
    into.bytes = (who >> BYTES_SHIFT) & 0b1111;
    return into;
  }

  /** Past half full, the table grows fourfold; two keys that now share a slot keep the one moved later. */
  private grow(): void {
    const old = this.replaceRows(Math.min(READ_SLOTS, (this.mask + 1) * 4));
    this.used = 0;
    for (let s = 0; s * ROW < old.rows.length; s++) {
      const from = s * ROW;
      if (old.rows[from + GENERATION] === 0) continue;
      const slot = this.slot(old.rows[from + ALLOCATION], old.rows[from + WORD]);
      if (this.rows[slot * ROW + GENERATION] === 0) this.used++;
      this.rows.set(old.rows.subarray(from, from + ROW), slot * ROW);
      for (const h of [0, 1]) {
        this.ranges[slot * 2 + h] = old.ranges[s * 2 + h];
        if (old.records?.[s * 2 + h] !== undefined) (this.records ??= new Array<AccessRecord | undefined>(this.ranges.length))[slot * 2 + h] = old.records[s * 2 + h];
      }
    }
  }
}

/** Where a half's integers start in the rows. */
function halfAt(half: number): number {
  return (half >> 1) * ROW + HEADER + (half & 1) * HALF;
}
