// A launch that repeats an earlier one is not simulated again when its result is already known.
// Programs time kernels by launching them tens or hundreds of times over the same data
// (cuda-samples' matrixMul: a warm-up and 300 timed launches of a 200-block grid), often a few
// kernels in turn (eigenvalues: three per timed iteration); simulating every repeat would spend
// the run's whole budget and show nothing new.
//
// Under a deterministic schedule a launch is a function of its kernel, configuration, arguments
// and the memory it reads, provided it does nothing else that is seen (output, clock reads,
// errors, findings: the runtime's `sideEffects`) and leaves no device memory made or freed. So
// while a launch runs, every device-visible allocation is watched (Allocation.read, .watch,
// .firstAccess): which it read, which it wrote and what they held before the first write, and,
// for one written before any of it was read, how each byte was first touched. A later launch of
// the same kernel, configuration and arguments does exactly what that one did when every byte
// whose value mattered to it holds what it held then:
//   - all of an allocation it read before writing any of it (or only read), and
//   - of one it wrote first, the bytes it read before writing them.
// Bytes it never touched do not matter. Its result is then put back (only the bytes it wrote),
// and detectors are told ('launch-repeat') so that they count its races as a run would have.
// The last few distinct launches are remembered, so kernels launched in turn are each reused.
// Copies are made only of what a launch touched, when it touches it, and charged to the run's
// memory account, within a quarter of its limit (the oldest launches are forgotten first): the
// rest is the program's and the detector's.
//
// A kernel that never repeats (launched with other arguments each time, or over data each launch
// changes: an iterative algorithm's levels) would pay for the copies at every launch and never
// gain from them; over a program's 50 MB arrays they cost a tenth of its run. So a kernel none of
// whose launches has been reused yet is watched on its first launches and then on ever rarer
// ones (its 1st, 2nd, 3rd, 4th, 8th, 16th, … simulated launch), and every launch once one of
// its launches has been reused: a timing loop is still caught, at most twice as late.
import { Buffer } from 'node:buffer';
import { FIRST_READ, isDeviceVisible, type Allocation, type Memory, type WriteWatch } from '../gpu/memory';
import type { MemoryAccount } from '../gpu/memoryAccount';
import { REPEATABLE_LAUNCHES_BACK, type LaunchRequest } from '../ir/ir';
import type { CudaRuntime } from '../runtime/runtime';

/** Distinct launches remembered: a timing loop runs a few kernels in turn. */
const REMEMBERED_LAUNCHES = 8;
/** Simulated launches of a kernel that are all watched before any has been reused (then the 2^k-th ones). */
const WATCHED_BEFORE_BACKING_OFF = 4;
const WHAT = 'the copy of device memory kept to recognise a repeated launch';
/** The share of the run's memory limit the copies may take: the rest is the program's and the detector's. */
const SHARE_OF_LIMIT = 1 / 4;

/** What identifies a launch apart from memory. */
type LaunchKey = Pick<LaunchRequest, 'kernel' | 'grid' | 'block' | 'dynamicShared' | 'args'>;

/** Of an allocation a launch wrote before reading any of it, as [from, to) byte runs. */
interface PartialUse {
  /** The bytes it read before writing them: their values mattered. */
  readFirst: Int32Array;
  /** The bytes it read or wrote: only these are put back. */
  touched: Int32Array;
}

interface LaunchRecord {
  key: LaunchKey;
  /** Its place among the run's grids ('launch' events), which a repeat names. */
  grid: number;
  /** Each allocation the launch read or wrote, with its bytes before the launch. */
  before: Map<Allocation, Uint8Array>;
  /** Each allocation the launch wrote, with its bytes after it. */
  after: Map<Allocation, Uint8Array>;
  /** Of those, the ones it wrote before reading any of it: the bytes that mattered, and the bytes it touched. */
  partial: Map<Allocation, PartialUse>;
  /** Thread-steps the launch took (the simulated clock moves by as much on a repeat). */
  steps: number;
  /** What was charged to the memory account for the copies, charge by charge. */
  charged: number[];
}

/** The launch now running: its allocations' bytes from before it wrote them. */
class LaunchWatch implements WriteWatch {
  readonly before = new Map<Allocation, Uint8Array>();
  readonly firstAccess = new Map<Allocation, Uint8Array>();
  readonly charged: number[] = [];
  /** A copy did not fit: the launch will not be remembered. */
  abandoned = false;

  constructor(
    readonly key: LaunchKey,
    readonly grid: number,
    /** The device-visible allocations when it started. */
    readonly allocations: Allocation[],
    readonly sideEffects: number,
    readonly allocationCount: number,
    /** Makes room for `bytes` more of copies besides this launch's `held`, and charges them; false when they do not fit. */
    private readonly charge: (bytes: number, held: number) => boolean,
    private readonly account: MemoryAccount,
  ) {
    for (const a of allocations) {
      a.read = false;
      a.watch = this;
      a.firstAccess = undefined;
    }
  }

  firstWrite(a: Allocation): void {
    a.watch = undefined;
    // Read before any of it was written: which bytes were read is not known, so all of it counts.
    const marks = !a.read;
    const bytes = a.size * (marks ? 2 : 1);
    if (!this.charge(bytes, this.total())) return this.abandon();
    this.charged.push(bytes);
    this.before.set(a, a.bytes.slice());
    if (marks) {
      this.firstAccess.set(a, (a.firstAccess = new Uint8Array(a.size)));
      a.firstUntouched = a.size;
    }
  }

  /** Bytes of copies it holds. */
  total(): number {
    let n = 0;
    for (const bytes of this.charged) n += bytes;
    return n;
  }

  /** Stops watching; the marks are the caller's until it is given the copies back. */
  unwatch(): void {
    for (const a of this.allocations) {
      a.watch = undefined;
      a.firstAccess = undefined;
    }
  }

  abandon(): void {
    this.abandoned = true;
    this.unwatch();
    for (const bytes of this.charged) this.account.release(bytes);
    this.charged.length = 0;
    this.before.clear();
    this.firstAccess.clear();
  }
}

export class LaunchReuse {
  /** Launches a repeat of which may be reused, the most recently used first. */
  private readonly records: LaunchRecord[] = [];
  /** The launch now running, when it may be remembered. */
  private running?: LaunchWatch;
  /** By kernel: its launches simulated so far, and whether one of its launches has been reused. */
  private readonly kernels = new Map<LaunchRequest['kernel'], { simulated: number; reused: boolean }>();

  constructor(
    private readonly memory: Memory,
    private readonly runtime: CudaRuntime,
  ) {}

  /**
   * Before a launch (`grids` run so far): when it repeats a remembered one, puts that launch's
   * result in memory and returns the steps it took and its place; otherwise undefined, and the
   * launch is to be run.
   */
  repeat(req: LaunchRequest, grids: number): { steps: number; grid: number } | undefined {
    const at = this.records.findIndex((r) => sameLaunch(r.key, req));
    const r = this.records[at];
    // Detectors keep what a launch found for so many launches only.
    if (!r || grids - r.grid > REPEATABLE_LAUNCHES_BACK || !holdsWhatMattered(r)) return undefined;
    for (const [a, after] of r.after) {
      const used = r.partial.get(a);
      if (!used) a.bytes.set(after);
      else for (let k = 0; k < used.touched.length; k += 2) a.bytes.set(after.subarray(used.touched[k], used.touched[k + 1]), used.touched[k]);
    }
    if (r.after.size) this.memory.version++;
    this.records.splice(at, 1);
    this.records.unshift(r);
    this.kernelOf(req).reused = true;
    return { steps: r.steps, grid: r.grid };
  }

  private kernelOf(req: LaunchRequest): { simulated: number; reused: boolean } {
    let k = this.kernels.get(req.kernel);
    if (!k) this.kernels.set(req.kernel, (k = { simulated: 0, reused: false }));
    return k;
  }

  /** Whether the launch about to be simulated is worth watching (see the top of this file). */
  private worthWatching(req: LaunchRequest): boolean {
    const k = this.kernelOf(req);
    const n = ++k.simulated;
    return k.reused || n <= WATCHED_BEFORE_BACKING_OFF || (n & (n - 1)) === 0;
  }

  /** Before running a launch that `repeat` did not answer, the run's grid number `grid`: starts watching memory. */
  begin(req: LaunchRequest, grid: number): void {
    // A launch that ended in an exception never reached `end`.
    this.running?.abandon();
    // A remembered launch of the same kind did not hold: this one takes its place.
    const same = this.records.findIndex((r) => sameLaunch(r.key, req));
    if (same >= 0) this.forget(this.records.splice(same, 1)[0]);
    this.running = undefined;
    if (!this.worthWatching(req)) return;
    // Copies: a caller may fill the same arrays for its next launch.
    const key = { kernel: req.kernel, grid: [...req.grid], block: [...req.block], dynamicShared: req.dynamicShared, args: [...req.args] } as LaunchKey;
    const charge = (bytes: number, running: number) => this.charge(bytes, running);
    this.running = new LaunchWatch(key, grid, [...this.memory.deviceVisible()], this.runtime.sideEffects, this.memory.allocationCount, charge, this.memory.account);
  }

  /** After the launch `begin` saw: `clean` when it completed with no finding and ran every block. */
  end(clean: boolean, steps: number): void {
    const run = this.running;
    this.running = undefined;
    if (!run) return;
    if (run.abandoned || !clean || this.runtime.sideEffects !== run.sideEffects || !this.sameAllocations(run)) return run.abandon();
    run.unwatch();
    const partial = new Map<Allocation, PartialUse>();
    for (const [a, marks] of run.firstAccess) partial.set(a, { readFirst: runsOf(marks, FIRST_READ), touched: runsOf(marks, TOUCHED) });
    const record: LaunchRecord = { key: run.key, grid: run.grid, before: run.before, after: new Map(), partial, steps, charged: run.charged };
    // Copies still to make: what the launch wrote, after it, and what it only read.
    const onlyRead = run.allocations.filter((a) => a.read && !run.before.has(a));
    let more = 0;
    for (const a of run.before.keys()) more += a.size;
    for (const a of onlyRead) more += a.size;
    if (!this.charge(more, run.total())) return run.abandon();
    record.charged.push(more);
    for (const a of run.before.keys()) record.after.set(a, a.bytes.slice());
    for (const a of onlyRead) record.before.set(a, a.bytes.slice());
    this.records.unshift(record);
    if (this.records.length > REMEMBERED_LAUNCHES) this.forget(this.records.pop()!);
  }

  /** No device memory made (and kept) or freed by the launch: the same allocations before and after. */
  private sameAllocations(run: LaunchWatch): boolean {
    for (const a of run.allocations) if (a.freed) return false;
    for (let id = run.allocationCount; id < this.memory.allocationCount; id++) {
      const a = this.memory.allocation(id);
      if (a && !a.freed && isDeviceVisible(a)) return false;
    }
    return true;
  }

  /**
   * Charges `bytes` more of copies (besides the running launch's `running`), within the share of
   * the memory limit the copies may take: the oldest launches are forgotten to make room. False
   * when even forgetting them all is not enough (nothing is charged then).
   */
  private charge(bytes: number, running: number): boolean {
    const share = this.memory.account.limit * SHARE_OF_LIMIT;
    while (this.held() + running + bytes > share || this.memory.account.charge(bytes, WHAT)) {
      const oldest = this.records.pop();
      if (!oldest) return false;
      this.forget(oldest);
    }
    return true;
  }

  /** Bytes the remembered launches' copies hold (a few launches: summed when asked, never out of step). */
  private held(): number {
    let n = 0;
    for (const r of this.records) for (const bytes of r.charged) n += bytes;
    return n;
  }

  private forget(r: LaunchRecord): void {
    for (const bytes of r.charged) this.memory.account.release(bytes);
  }
}

/** Memory holds, wherever it mattered to the remembered launch, what it held before that launch. */
function holdsWhatMattered(r: LaunchRecord): boolean {
  for (const [a, before] of r.before) {
    if (a.freed || a.bytes.length !== before.length) return false;
    const used = r.partial.get(a);
    if (used ? !sameInRuns(a.bytes, before, used.readFirst) : !sameBytes(a.bytes, before)) return false;
  }
  return true;
}

function sameLaunch(k: LaunchKey, req: LaunchRequest): boolean {
  if (k.kernel !== req.kernel || k.dynamicShared !== req.dynamicShared || k.args.length !== req.args.length) return false;
  for (let i = 0; i < 3; i++) if (k.grid[i] !== req.grid[i] || k.block[i] !== req.block[i]) return false;
  for (let i = 0; i < k.args.length; i++) if (!Object.is(k.args[i], req.args[i])) return false;
  return true;
}

/** Device memory is compared at every launch: the runtime's memcmp, not a loop in JS. */
function sameBytes(x: Uint8Array, y: Uint8Array): boolean {
  return x.length === y.length && Buffer.from(x.buffer, x.byteOffset, x.length).equals(Buffer.from(y.buffer, y.byteOffset, y.length));
}

/** `now` equals `before` in every run of `runs`. */
function sameInRuns(now: Uint8Array, before: Uint8Array, runs: Int32Array): boolean {
  for (let k = 0; k < runs.length; k += 2) {
    const from = runs[k];
    const to = runs[k + 1];
    // Short runs byte by byte: a Buffer per run would cost more than the comparison.
    if (to - from < 64) {
      for (let i = from; i < to; i++) if (now[i] !== before[i]) return false;
    } else if (!sameBytes(now.subarray(from, to), before.subarray(from, to))) return false;
  }
  return true;
}

/** Marks of a byte the launch touched, first reading or first writing it. */
export const TOUCHED = -1;

/**
 * The runs of bytes whose mark is `mark` (TOUCHED: any but 0), as [from, to) pairs. A launch's
 * marks cover every byte of the allocations it touched (50 MB arrays in NVIDIA's samples), and
 * this is made at the end of every launch: the scan is the runtime's `indexOf` where it can be,
 * and four bytes at a time where it cannot.
 */
export function runsOf(marks: Uint8Array, mark: number): Int32Array {
  const n = marks.length;
  const words = marks.byteOffset % 4 === 0 ? new Uint32Array(marks.buffer, marks.byteOffset, n >>> 2) : undefined;
  const runs: number[] = [];
  let i = 0;
  while (i < n) {
    const from = mark === TOUCHED ? skipWhile(marks, words, i, 0) : orEnd(marks.indexOf(mark, i), n);
    if (from >= n) break;
    const to = mark === TOUCHED ? orEnd(marks.indexOf(0, from), n) : skipWhile(marks, words, from, mark);
    runs.push(from, to);
    i = to;
  }
  return Int32Array.from(runs);
}

function orEnd(at: number, n: number): number {
  return at < 0 ? n : at;
}

/** The first byte from `i` on that is not `value` (or the end); `words` is the same bytes, four at a time. */
function skipWhile(marks: Uint8Array, words: Uint32Array | undefined, i: number, value: number): number {
  const n = marks.length;
  if (words !== undefined) {
    while (i < n && (i & 3) !== 0 && marks[i] === value) i++;
    if ((i & 3) === 0) {
      const four = value * 0x01010101;
      let k = i >>> 2;
      while (k < words.length && words[k] === four) k++;
      i = k << 2;
    }
  }
  while (i < n && marks[i] === value) i++;
  return i;
}
