// A third valuation for a kernel run on its own: the one that makes two threads' accesses meet.
//
// A kernel-only file stands for every value of the integer scalars nobody gave (GPUVerify checks
// them all). Two runs try two valuations (0 and 1, or what the preconditions ask), but a race
// may need one particular value: `if (tid == 15) A[tid + x] = …; if (tid == 200) A[tid] = …`
// races only at x = 185. Addresses are usually affine in the scalars, so the two runs give each
// access (by its place in the source, its thread and how many times that thread made it there)
// two addresses, and so a line: address(s) = first + s · (second − first), where s = 0 is the
// first valuation and s = 1 the second. Two accesses of different threads, one of them a
// write, whose lines cross at a whole s other than 0 and 1 would touch the same address in the
// run whose scalars are first + s · (second − first). The s that most such pairs agree on is
// run as a third valuation, and the detectors decide whether those accesses race: a wrong guess
// (addresses not affine, accesses ordered) finds nothing, and a valuation the preconditions
// refuse stops at them.
import type { EventListener, SimEvent } from '../ir/ir';

/** Accesses recorded per run at most (kernels run on their own are small; a big one gives up). */
const MAX_ACCESSES = 50_000;
/** Pairs of accesses compared at most. */
const MAX_PAIRS = 4_000_000;
/** The largest |s| tried: beyond it the scalars would be far outside any array a run makes up. */
const MAX_STEP = 1 << 20;

interface Recorded {
  address: number;
  write: boolean;
  thread: string;
}

type AccessEvent = Extract<SimEvent, { kind: 'access' }>;

/** The device accesses of one run, by site, thread and occurrence. */
export class AccessTrail {
  readonly accesses = new Map<string, Recorded>();
  private readonly occurrences = new Map<string, number>();
  /** More accesses than MAX_ACCESSES: the trail is incomplete and proposes nothing. */
  overflowed = false;
  private taken = false;

  /** The listener, for the first run that asks (of several schedules, the first); undefined after. */
  take(): EventListener | undefined {
    if (this.taken) return undefined;
    this.taken = true;
    return this.listener;
  }

  readonly listener: EventListener = (e) => {
    if (e.kind === 'access' && e.space === 'device') this.record(e);
  };

  private record(e: AccessEvent): void {
    if (this.overflowed) return;
    if (this.accesses.size >= MAX_ACCESSES) {
      this.overflowed = true;
      return;
    }
    const thread = `${e.block}.${e.warp}.${e.lane}`;
    const at = `${e.range.start.line}:${e.range.start.character}-${e.range.end.line}:${e.range.end.character}|${thread}`;
    const n = this.occurrences.get(at) ?? 0;
    this.occurrences.set(at, n + 1);
    this.accesses.set(`${at}|${n}`, { address: e.address, write: e.write || !!e.atomic, thread });
  }
}

interface Line {
  start: number;
  slope: number;
  write: boolean;
  thread: string;
}

/**
 * The step s (see the top of this file) at which the most pairs of accesses of different
 * threads, one a write, meet, other than 0 and 1 and the steps `allowed` refuses (whose scalars
 * break the kernel's preconditions); ties go to the smallest |s|. Undefined when
 * none do, or when a trail is incomplete.
 */
export function collidingStep(first: AccessTrail, second: AccessTrail, allowed: (s: number) => boolean = () => true): number | undefined {
  if (first.overflowed || second.overflowed) return undefined;
  const lines: Line[] = [];
  for (const [key, a] of first.accesses) {
    const b = second.accesses.get(key);
    if (b) lines.push({ start: a.address, slope: b.address - a.address, write: a.write || b.write, thread: a.thread });
  }
  // Only a moving access can meet another one somewhere new.
  const moving = lines.filter((l) => l.slope !== 0);
  const votes = new Map<number, number>();
  let pairs = 0;
  outer: for (const m of moving) {
    for (const o of lines) {
      if (++pairs > MAX_PAIRS) break outer;
      if (o === m || o.thread === m.thread || (!o.write && !m.write) || o.slope === m.slope) continue;
      // Each pair of moving accesses is seen twice; count it once.
      if (o.slope !== 0 && o.thread < m.thread) continue;
      const s = (o.start - m.start) / (m.slope - o.slope);
      if (!Number.isInteger(s) || s === 0 || s === 1 || Math.abs(s) > MAX_STEP) continue;
      votes.set(s, (votes.get(s) ?? 0) + 1);
    }
  }
  let best: number | undefined;
  for (const [s, n] of votes) {
    if (!allowed(s)) continue;
    const bestVotes = best === undefined ? 0 : votes.get(best)!;
    if (n > bestVotes || (n === bestVotes && Math.abs(s) < Math.abs(best!))) best = s;
  }
  return best;
}

/** The scalars at step s from `first` (step 0) towards `second` (step 1): first + s · (second − first). */
export function valuationAt(first: Record<string, number>, second: Record<string, number>, s: number): Record<string, number> {
  const names = new Set([...Object.keys(first), ...Object.keys(second)]);
  return Object.fromEntries([...names].map((name) => {
    const a = first[name] ?? 0;
    const b = second[name] ?? 0;
    return [name, a + s * (b - a)];
  }));
}
