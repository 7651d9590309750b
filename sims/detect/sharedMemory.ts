// Races on __shared__ memory between threads of one block, by barrier intervals (HAccRG,
// seed 002 §6.2): two accesses to a word by different threads with no __syncthreads() between
// them, at least one a write and not both atomic, race — read-after-write, write-after-read
// and write-after-write alike. Each word keeps its last write and the reads since, so a write
// is compared with every reader of the interval, not only the last one.
import { pointerAllocation, pointerOffset } from '../gpu/memory';
import type { SimEvent } from '../ir/ir';
import { unorderedLanes } from './lanes';
import type { AccessSummary, Accessor } from './scord';

type Access = Extract<SimEvent, { kind: 'access' }>;

interface SharedAccess {
  summary: AccessSummary;
  who: Accessor;
  /** The warp's divergence epoch at the access, -1 if converged. */
  divergence: number;
}

interface Word {
  interval: number;
  write?: SharedAccess;
  reads: SharedAccess[];
}

/** Readers kept per word and interval: enough to name one conflicting reader per warp. */
const MAX_READERS = 8;

export class ShadowSharedMemory {
  /** Words by allocation (each block's shared memory is one), then by word offset. */
  private words = new Map<number, Map<number, Word>>();
  private lastAllocation = -1;
  private lastWords: Map<number, Word> | undefined;
  private intervals = new Map<number, number>();

  constructor(private readonly report: (e: Access, write: boolean, earlier: SharedAccess) => void) {}

  barrier(block: number): void {
    this.intervals.set(block, (this.intervals.get(block) ?? 0) + 1);
  }

  access(e: Access, divergence: number): void {
    const interval = this.intervals.get(e.block) ?? 0;
    const write = e.write && (!e.atomic || e.atomic.changed);
    const allocation = pointerAllocation(e.address);
    if (allocation !== this.lastAllocation) {
      this.lastAllocation = allocation;
      this.lastWords = this.words.get(allocation);
      if (!this.lastWords) this.words.set(allocation, (this.lastWords = new Map()));
    }
    const offset = pointerOffset(e.address);
    const first = offset >> 2;
    const last = (offset + Math.max(1, e.size) - 1) >> 2;
    for (let w = first; w <= last; w++) this.check(this.lastWords!, w, e, write, interval, divergence);
  }

  private check(words: Map<number, Word>, key: number, e: Access, write: boolean, interval: number, divergence: number): void {
    let word = words.get(key);
    if (!word || word.interval !== interval) {
      // A barrier since the last access orders everything before it.
      word = { interval, reads: [] };
      words.set(key, word);
    }
    const atomic = !!e.atomic;
    if (write) {
      let earlier = word.write && conflicts(word.write, e, atomic, divergence) ? word.write : undefined;
      for (let i = 0; !earlier && i < word.reads.length; i++) if (conflicts(word.reads[i], e, atomic, divergence)) earlier = word.reads[i];
      if (earlier) this.report(e, write, earlier);
      word.write = record(e, write, divergence, word.write);
      if (word.reads.length) word.reads = [];
      return;
    }
    if (word.write && conflicts(word.write, e, atomic, divergence)) this.report(e, write, word.write);
    if (word.reads.length >= MAX_READERS) return;
    for (const r of word.reads) if (r.who.warp === e.warp && (r.who.lane === e.lane || r.divergence < 0)) return;
    word.reads.push(record(e, write, divergence));
  }
}

/** The access as the shadow memory keeps it, refilling `into` when given (no allocation). */
function record(e: Access, write: boolean, divergence: number, into?: SharedAccess): SharedAccess {
  // The event's atomic is its site's own constant: kept as it is, not copied.
  const atomic = e.atomic;
  // One object shape whether or not the access is atomic (`atomic: undefined`).
  if (!into) return { summary: { range: e.range, write, strong: e.strong, atomic }, who: { block: e.block, warp: e.warp, lane: e.lane }, divergence };
  const s = into.summary;
  s.range = e.range;
  s.write = write;
  s.strong = e.strong;
  s.atomic = atomic;
  into.who.block = e.block;
  into.who.warp = e.warp;
  into.who.lane = e.lane;
  into.divergence = divergence;
  return into;
}

/** Whether `other` and the access `e` are by different threads and not both atomic. */
function conflicts(other: SharedAccess, e: Access, atomic: boolean, divergence: number): boolean {
  if (other.summary.atomic && atomic) return false;
  return other.who.warp !== e.warp || unorderedLanes(other.who.lane, other.divergence, e.lane, divergence);
}
