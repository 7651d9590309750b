// Exact mode's entries of global memory words, in numbers. Most written words of most kernels are
// touched with plain accesses only, by one thread (each thread writes its own output element,
// maybe reads it back) or by a few in turn (neighbouring threads writing the bytes of one word).
// An entry of such a word is one row of integers here: its last access, and its last write when
// that is another access, each the handful of numbers a comparison needs. That is 48 bytes a
// word (60 for a word read back after its write) where two records and an entry object cost
// about 350, which decides whether a grid of millions of threads fits in memory at all. What a
// row cannot hold — another thread's read kept beside the last read for the next write to check,
// or an access that is more than plain (an atomic, an ordered access, one made holding a lock) —
// turns it into the detector's objects (`promote`); the row then only says so.
//
// Rows live in pages of typed arrays per allocation, made as words are first written and charged
// to the run's memory account (the JavaScript heap's growth does not show them). Pages of an
// allocation the last launch did not touch are given back when the next launch starts.
import type { Range } from '../frontend/source';
import type { MemoryAccount } from '../gpu/memoryAccount';
import type { AccessRecord, FenceFile } from './scordRecords';
import { BARRIER, BLK_FENCE, BLOCK, COUNTERS, DEV_FENCE, DIVERGENCE, loadCounters, REL, SYNC, WHO } from './accessNumbers';
import { setDense } from './denseArray';

const PAGE_BITS = 10;
const PAGE_WORDS = 1 << PAGE_BITS;

// A row: the entry's generation and state (GENERATION_SHIFT), then its last access.
const HEAD = 0;
const LAST = 1;
// An access: its thread and the thread's counters when it was made (./accessNumbers.ts), the
// value it left, its flags and its source range (an index into PlainWords' table of ranges).
const VALUE = COUNTERS;
const FLAGS = COUNTERS + 1;
const RANGE = COUNTERS + 2;
const ACCESS = COUNTERS + 3;
const ROW = LAST + ACCESS;
/**
 * The last write kept apart in short (`Page.short`): a read after the thread's own write, with
 * no fence, barrier, __syncwarp or divergence between, differs from the write only here.
 */
const SHORT_VALUE = 0;
const SHORT_FLAGS = 1;
const SHORT_RANGE = 2;
const SHORT = 3;

// HEAD: the generation above, the state below.
const GENERATION_SHIFT = 2;
const STATE = 3;
/** The last access is the last write. */
const WRITE_LAST = 0;
/** The last write is apart in short: the last access's thread and counters are its own. */
const WRITE_SHORT = 1;
/** The last write is apart in full (`Page.full`). */
const WRITE_FULL = 2;
/** The entry is the detector's objects now (ScordDetector's MetaTable). */
const PROMOTED = 3;

// FLAGS of an access.
const WRITE = 1;
const STRONG = 2;
const RELEASE = 4;
const SILENT = 8;
/** The access left a value (a write at 4-byte granularity); without it the value is NaN. */
const HAS_VALUE = 16;
const BYTES_SHIFT = 5;

interface Page {
  rows: Int32Array;
  /** Last writes apart, in short and in full: made when first needed. */
  short?: Int32Array;
  full?: Int32Array;
  /** Bytes held for it, `short` and `full` included. */
  bytes: number;
}

interface AllocationPages {
  pages: (Page | undefined)[];
  /** Words in the allocation (a small one gets one page of its size). */
  words: number;
  /** The generation that last touched it. */
  touched: number;
}

export class PlainWords {
  private generation = 1;
  private readonly byAllocation: (AllocationPages | undefined)[] = [];
  /** Rows of the current generation that are not promoted. */
  private plain = 0;
  /** Source ranges by index (an access's RANGE), and the index of each. */
  private readonly ranges: Range[] = [];
  private readonly rangeIndex = new Map<Range, number>();
  /** The range last indexed: one instruction's accesses come in runs. */
  private lastRange: Range | undefined;
  private lastRangeId = 0;
  /** The allocation `find` last looked in (consecutive accesses are mostly to one). */
  private lastId = -1;
  private last: AllocationPages | undefined;
  // The page `find` last found, and the row's offset in it.
  private page: Page | undefined;
  private at = 0;

  constructor(private readonly account: MemoryAccount) {}

  /**
   * Every entry is gone (a launch or a grid barrier); with `launch`, the pages of allocations the
   * ending launch did not touch are given back.
   */
  reset(launch: boolean): void {
    if (launch) {
      for (let id = 0; id < this.byAllocation.length; id++) {
        const a = this.byAllocation[id];
        if (!a || a.touched === this.generation) continue;
        for (const p of a.pages) if (p) this.account.releaseExternal(p.bytes);
        this.byAllocation[id] = undefined;
      }
    }
    this.generation++;
    this.plain = 0;
    this.page = undefined;
    this.lastId = -1;
    this.last = undefined;
  }

  /** Entries kept in numbers now. */
  size(): number {
    return this.plain;
  }

  /**
   * Finds the row of `word` of an allocation of `words` words (making its page when `make`; only then is `words` read):
   * true when it holds an entry of this generation, which the accessors below then read and write.
   */
  find(allocation: number, word: number, words: number, make: boolean): boolean {
    let a = allocation === this.lastId ? this.last : this.byAllocation[allocation];
    if (!a) {
      if (!make) return false;
      a = setDense(this.byAllocation, allocation, { pages: [], words, touched: this.generation });
    }
    this.lastId = allocation;
    this.last = a;
    a.touched = this.generation;
    const key = word >> PAGE_BITS;
    let page = a.pages[key];
    if (!page) {
      if (!make) return false;
      page = setDense(a.pages, key, this.newPage(Math.max(1, Math.min(PAGE_WORDS, a.words - (key << PAGE_BITS)))));
    }
    this.page = page;
    this.at = (word & (PAGE_WORDS - 1)) * ROW;
    return page.rows[this.at + HEAD] >>> GENERATION_SHIFT === this.generation;
  }

  private newPage(words: number): Page {
    const bytes = words * ROW * 4;
    this.account.holdExternal(bytes);
    return { rows: new Int32Array(words * ROW), bytes };
  }

  private get state(): number {
    return this.page!.rows[this.at + HEAD] & STATE;
  }

  private setState(state: number): void {
    this.page!.rows[this.at + HEAD] = (this.generation << GENERATION_SHIFT) | state;
  }

  /** The found row is the detector's objects now. */
  get promoted(): boolean {
    return this.state === PROMOTED;
  }

  /** Marks the found row (made now if it was not) as the detector's objects. */
  promote(): void {
    if (this.page!.rows[this.at + HEAD] >>> GENERATION_SHIFT === this.generation && this.state !== PROMOTED) this.plain--;
    this.setState(PROMOTED);
  }

  /**
   * A new entry in the found row: a plain write (no atomic, order or lock) by `e`'s thread, made
   * with these counters, leaving `value` — the numbers `put` keeps of a record, written without
   * one: nearly every entry starts so, and most are never compared with anything.
   */
  createPlain(e: { block: number; warp: number; lane: number; strong: boolean; range: Range }, divergence: number, barrier: number, fence: FenceFile, release: boolean, value: number, bytes: number): void {
    this.setState(WRITE_LAST);
    const flags = WRITE | (e.strong ? STRONG : 0) | (release ? RELEASE : 0) | (bytes << BYTES_SHIFT);
    this.putAccess(this.page!.rows, this.at + LAST, e.block, e.warp * 32 + e.lane, divergence, barrier, fence.blk, fence.dev, fence.order.rel, fence.order.sync, value, flags, e.range);
    this.plain++;
  }

  /** The found row's last access is a write (then it is the last write too). */
  get lastIsWrite(): boolean {
    return (this.page!.rows[this.at + LAST + FLAGS] & WRITE) !== 0;
  }

  /** The found row's last access was made by this thread. */
  lastBy(block: number, warp: number, lane: number): boolean {
    const rows = this.page!.rows;
    return rows[this.at + LAST + BLOCK] === block && rows[this.at + LAST + WHO] === warp * 32 + lane;
  }

  /** The found row's last write was made by this thread. */
  lastWriteBy(block: number, warp: number, lane: number): boolean {
    if (this.state !== WRITE_FULL) return this.lastBy(block, warp, lane);
    const full = this.page!.full!;
    const at = (this.at / ROW) * ACCESS;
    return full[at + BLOCK] === block && full[at + WHO] === warp * 32 + lane;
  }

  /** The value the word's last write left (NaN for none). */
  get lastWriteValue(): number {
    const page = this.page!;
    const state = this.state;
    const i = this.at / ROW;
    let value: number;
    let flags: number;
    if (state === WRITE_SHORT) {
      value = page.short![i * SHORT + SHORT_VALUE];
      flags = page.short![i * SHORT + SHORT_FLAGS];
    } else if (state === WRITE_FULL) {
      value = page.full![i * ACCESS + VALUE];
      flags = page.full![i * ACCESS + FLAGS];
    } else {
      value = page.rows[this.at + LAST + VALUE];
      flags = page.rows[this.at + LAST + FLAGS];
    }
    return (flags & HAS_VALUE) !== 0 ? value >>> 0 : NaN;
  }

  /**
   * The bytes of the last access to carry into this thread's next one when nothing came between
   * them (ScordDetector.check's byte-wise copies): 0 when something did, or another thread made it.
   */
  carryBytes(block: number, warp: number, lane: number, write: boolean, blkFence: number, devFence: number, barrier: number): number {
    const rows = this.page!.rows;
    const at = this.at + LAST;
    const flags = rows[at + FLAGS];
    const bytes = (flags >> BYTES_SHIFT) & 0b1111;
    if (bytes === 0b1111 || ((flags & WRITE) !== 0) !== write || !this.lastBy(block, warp, lane)) return 0;
    return rows[at + BLK_FENCE] === blkFence && rows[at + DEV_FENCE] === devFence && rows[at + BARRIER] === barrier ? bytes : 0;
  }

  /**
   * The next plain access `rec` (its value, silent flag and bytes already set): a write is the
   * last access and the last write; a read after the last write keeps that write apart. Not a
   * read after another thread's read (that needs the objects: `promote`).
   */
  update(rec: AccessRecord): void {
    const page = this.page!;
    const rows = page.rows;
    const last = this.at + LAST;
    const i = this.at / ROW;
    const state = this.state;
    if (rec.write) this.setState(WRITE_LAST);
    else if (state === WRITE_LAST || (state === WRITE_SHORT && !sameCounters(rows, last, rec))) {
      // The last write goes apart: in short while the read only differs from it in what it is.
      if (state === WRITE_LAST && sameCounters(rows, last, rec)) {
        const short = page.short ?? (page.short = this.more(page, SHORT));
        short[i * SHORT + SHORT_VALUE] = rows[last + VALUE];
        short[i * SHORT + SHORT_FLAGS] = rows[last + FLAGS];
        short[i * SHORT + SHORT_RANGE] = rows[last + RANGE];
        this.setState(WRITE_SHORT);
      } else {
        const full = page.full ?? (page.full = this.more(page, ACCESS));
        full.set(rows.subarray(last, last + ACCESS), i * ACCESS);
        if (state === WRITE_SHORT) {
          full[i * ACCESS + VALUE] = page.short![i * SHORT + SHORT_VALUE];
          full[i * ACCESS + FLAGS] = page.short![i * SHORT + SHORT_FLAGS];
          full[i * ACCESS + RANGE] = page.short![i * SHORT + SHORT_RANGE];
        }
        this.setState(WRITE_FULL);
      }
    }
    this.put(rows, last, rec);
  }

  /** A page's array of `ints` per word, charged. */
  private more(page: Page, ints: number): Int32Array {
    const words = page.rows.length / ROW;
    const bytes = words * ints * 4;
    this.account.holdExternal(bytes);
    page.bytes += bytes;
    return new Int32Array(words * ints);
  }

  private put(rows: Int32Array, at: number, rec: AccessRecord): void {
    const flags = (rec.write ? WRITE : 0) | (rec.strong ? STRONG : 0) | (rec.release ? RELEASE : 0) | (rec.silent ? SILENT : 0) | (rec.bytes << BYTES_SHIFT);
    this.putAccess(rows, at, rec.block, rec.warp * 32 + rec.lane, rec.divergence, rec.barrier, rec.blkFence, rec.devFence, rec.rel, rec.sync, rec.value, flags, rec.range);
  }

  /** An access's numbers into a row; `flags` without HAS_VALUE, which `value` decides. */
  private putAccess(rows: Int32Array, at: number, block: number, who: number, divergence: number, barrier: number, blkFence: number, devFence: number, rel: number, sync: number, value: number, flags: number, range: Range): void {
    rows[at + BLOCK] = block;
    rows[at + WHO] = who;
    rows[at + DIVERGENCE] = divergence;
    rows[at + BARRIER] = barrier;
    rows[at + BLK_FENCE] = blkFence;
    rows[at + DEV_FENCE] = devFence;
    rows[at + REL] = rel;
    rows[at + SYNC] = sync;
    const hasValue = value === value;
    rows[at + VALUE] = hasValue ? value | 0 : 0;
    rows[at + FLAGS] = flags | (hasValue ? HAS_VALUE : 0);
    rows[at + RANGE] = this.rangeId(range);
  }

  private rangeId(range: Range): number {
    if (range === this.lastRange) return this.lastRangeId;
    let id = this.rangeIndex.get(range);
    if (id === undefined) {
      id = this.ranges.length;
      this.ranges.push(range);
      this.rangeIndex.set(range, id);
    }
    this.lastRange = range;
    this.lastRangeId = id;
    return id;
  }

  /** The found row's last access into `into`, with `noLocks` as its lockset. */
  loadLast(into: AccessRecord, noLocks: AccessRecord['locks']): AccessRecord {
    this.fill(into, this.page!.rows, this.at + LAST, noLocks);
    return into;
  }

  /** The found row's last write into `into`. */
  loadLastWrite(into: AccessRecord, noLocks: AccessRecord['locks']): AccessRecord {
    const page = this.page!;
    const state = this.state;
    const i = this.at / ROW;
    if (state === WRITE_FULL) this.fill(into, page.full!, i * ACCESS, noLocks);
    else {
      this.loadLast(into, noLocks);
      if (state === WRITE_SHORT) {
        const short = page.short!;
        this.fillWhat(into, short[i * SHORT + SHORT_VALUE], short[i * SHORT + SHORT_FLAGS], short[i * SHORT + SHORT_RANGE]);
      }
    }
    return into;
  }

  /**
   * The found row's records: its last access into `last`, and its last write into `write` when
   * that is another access (returned: true), with `noLocks` as their locksets.
   */
  load(last: AccessRecord, write: AccessRecord, noLocks: AccessRecord['locks']): boolean {
    this.loadLast(last, noLocks);
    if (this.state === WRITE_LAST) return false;
    this.loadLastWrite(write, noLocks);
    return true;
  }

  private fill(into: AccessRecord, rows: Int32Array, at: number, noLocks: AccessRecord['locks']): void {
    loadCounters(into, rows, at, noLocks);
    this.fillWhat(into, rows[at + VALUE], rows[at + FLAGS], rows[at + RANGE]);
  }

  /** What an access was, apart from who made it and when: its value, flags and range. */
  private fillWhat(into: AccessRecord, value: number, flags: number, range: number): void {
    into.strong = (flags & STRONG) !== 0;
    into.range = this.ranges[range];
    into.write = (flags & WRITE) !== 0;
    into.release = (flags & RELEASE) !== 0;
    into.value = (flags & HAS_VALUE) !== 0 ? value >>> 0 : NaN;
    into.silent = (flags & SILENT) !== 0;
    into.bytes = (flags >> BYTES_SHIFT) & 0b1111;
  }

  /** Every plain entry of this generation: allocation, word, and its records (for the inspector). */
  *entries(noLocks: AccessRecord['locks'], blank: () => AccessRecord): Generator<[number, number, AccessRecord, AccessRecord | undefined]> {
    for (let id = 0; id < this.byAllocation.length; id++) {
      const a = this.byAllocation[id];
      if (!a) continue;
      for (let key = 0; key < a.pages.length; key++) {
        const page = a.pages[key];
        if (!page) continue;
        for (let i = 0; i * ROW < page.rows.length; i++) {
          this.page = page;
          this.at = i * ROW;
          if (page.rows[this.at + HEAD] >>> GENERATION_SHIFT !== this.generation || this.state === PROMOTED) continue;
          const last = blank();
          const write = blank();
          yield [id, (key << PAGE_BITS) + i, last, this.load(last, write, noLocks) ? write : undefined];
        }
      }
    }
  }
}

/** The access at `at` and `rec` were made by one thread with the same counters (fences, barrier, __syncwarp, divergence, releases). */
function sameCounters(rows: Int32Array, at: number, rec: AccessRecord): boolean {
  return (
    rows[at + BLOCK] === rec.block &&
    rows[at + WHO] === rec.warp * 32 + rec.lane &&
    rows[at + DIVERGENCE] === rec.divergence &&
    rows[at + BARRIER] === rec.barrier &&
    rows[at + BLK_FENCE] === rec.blkFence &&
    rows[at + DEV_FENCE] === rec.devFence &&
    rows[at + REL] === rec.rel &&
    rows[at + SYNC] === rec.sync
  );
}
