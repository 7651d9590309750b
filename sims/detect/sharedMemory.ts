// Races on __shared__ memory between threads of one block, by barrier intervals (HAccRG,
// seed 002 §6.2): two accesses to a word by different threads with no __syncthreads() between
// them, at least one a write and not both atomic, race — read-after-write, write-after-read
// and write-after-write alike. Each word keeps its last write and the reads since, so a write
// is compared with every reader of the interval, not only the last one.
import type { Scope, SimEvent } from '../ir/ir';
import type { AccessSummary, Accessor, SharedConflict } from './scord';

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
  private words = new Map<number, Word>();
  private intervals = new Map<number, number>();

  constructor(private readonly report: (c: SharedConflict) => void) {}

  barrier(block: number): void {
    this.intervals.set(block, (this.intervals.get(block) ?? 0) + 1);
  }

  access(e: Access, divergence: number): void {
    const interval = this.intervals.get(e.block) ?? 0;
    const write = e.write && (!e.atomic || e.atomic.changed);
    const first = Math.floor(e.address / 4);
    const last = Math.floor((e.address + Math.max(1, e.size) - 1) / 4);
    for (let w = first; w <= last; w++) this.check(w, e, write, interval, divergence);
  }

  private check(key: number, e: Access, write: boolean, interval: number, divergence: number): void {
    let word = this.words.get(key);
    if (!word || word.interval !== interval) {
      // A barrier since the last access orders everything before it.
      word = { interval, reads: [] };
      this.words.set(key, word);
    }
    const atomic = !!e.atomic;
    if (write) {
      let earlier = word.write && conflicts(word.write, e, atomic, divergence) ? word.write : undefined;
      for (let i = 0; !earlier && i < word.reads.length; i++) if (conflicts(word.reads[i], e, atomic, divergence)) earlier = word.reads[i];
      const mine = record(e, write, divergence);
      if (earlier) this.report({ address: e.address, current: mine.summary, earlier: earlier.summary, accessor: mine.who, previousAccessor: earlier.who });
      word.write = mine;
      word.reads = [];
      return;
    }
    if (word.write && conflicts(word.write, e, atomic, divergence)) {
      const mine = record(e, write, divergence);
      this.report({ address: e.address, current: mine.summary, earlier: word.write.summary, accessor: mine.who, previousAccessor: word.write.who });
    }
    if (word.reads.length >= MAX_READERS) return;
    for (const r of word.reads) if (r.who.warp === e.warp && (r.who.lane === e.lane || r.divergence < 0)) return;
    word.reads.push(record(e, write, divergence));
  }
}

function record(e: Access, write: boolean, divergence: number): SharedAccess {
  const atomic: { op: string; scope: Scope } | undefined = e.atomic ? { op: e.atomic.op, scope: e.atomic.scope } : undefined;
  return { summary: { range: e.range, write, strong: e.strong, ...(atomic ? { atomic } : {}) }, who: { block: e.block, warp: e.warp, lane: e.lane }, divergence };
}

/** Whether `other` and the access `e` are by different threads and not both atomic. */
function conflicts(other: SharedAccess, e: Access, atomic: boolean, divergence: number): boolean {
  if (other.summary.atomic && atomic) return false;
  if (other.who.warp !== e.warp) return true;
  // Lanes of one warp: ordered unless both were diverged in the same divergence.
  return other.who.lane !== e.lane && other.divergence >= 0 && other.divergence === divergence;
}
