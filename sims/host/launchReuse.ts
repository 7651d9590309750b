// A launch that repeats the one before it is not simulated again when its result is already
// known. Programs time a kernel by launching it tens or hundreds of times over the same data
// (cuda-samples' matrixMul: a warm-up and 300 timed launches of a 200-block grid); simulating
// every repeat would spend the run's whole budget and show nothing new.
//
// Under a deterministic schedule a launch is a function of its kernel, configuration, arguments
// and the memory it reads, provided it does nothing else that is seen (output, clock reads,
// errors, findings: the runtime's `sideEffects`) and leaves no device memory made or freed. So
// for the last launch the launcher keeps device memory before and after it and which
// allocations it read (`Allocation.read`). The next launch of the same kernel, configuration and
// arguments does exactly what that one did when
//   - every allocation the launch read holds what it held then, and
//   - every other allocation holds what it held then wherever the launch left it unchanged (where
//     it changed it, the launch wrote, and what it wrote did not depend on what was there).
// Its result, the memory after the last launch, is then put back, and detectors are told
// ('launch-repeat') so that they count its races as a run would have.
//
// An allocation the launch both read and changed (a reduction writes its partial sums, then
// adds them up) would never pass the first test. When the same launch comes again, such
// allocations are watched byte by byte (`Allocation.firstAccess`): what matters is only the
// bytes the launch read before writing them, and only the bytes it touched are put back.
import { Buffer } from 'node:buffer';
import { FIRST_READ, isDeviceVisible, type Allocation, type Memory } from '../gpu/memory';
import type { LaunchRequest } from '../ir/ir';
import type { CudaRuntime } from '../runtime/runtime';

/** Device memory up to this size is copied before every launch; more only before a repeat. */
const ALWAYS_COPIED_BYTES = 16 << 20;
/** Past this much device memory, launches are always run (two copies would cost too much). */
const MAX_COPIED_BYTES = 256 << 20;

/** What identifies a launch apart from memory. */
type LaunchKey = Pick<LaunchRequest, 'kernel' | 'grid' | 'block' | 'dynamicShared' | 'args'>;

interface Before {
  key: LaunchKey;
  /** Each device-visible allocation's bytes before the launch. */
  bytes: Map<Allocation, Uint8Array>;
  /** The allocations watched byte by byte (their `firstAccess` set). */
  watched: Allocation[];
  sideEffects: number;
  allocations: number;
  /** Bytes charged for `bytes` and the watched allocations' marks. */
  charged: number;
}

interface LaunchRecord extends Before {
  /** The allocations the launch read. */
  read: Set<Allocation>;
  /** The bytes after the launch of the allocations it changed. */
  after: Map<Allocation, Uint8Array>;
  /** How the launch first touched each byte of the watched allocations (Allocation.firstAccess). */
  firstAccess: Map<Allocation, Uint8Array>;
  /** Thread-steps the launch took (the simulated clock moves by as much on a repeat). */
  steps: number;
  /** Bytes of `after`, charged on their own. */
  afterBytes: number;
}

export class LaunchReuse {
  /** The last launch, when a repeat of it may be reused. */
  private last?: LaunchRecord;
  /** The launch now running, when it may become `last`. */
  private running?: Before;
  private lastKey?: LaunchKey;

  constructor(
    private readonly memory: Memory,
    private readonly runtime: CudaRuntime,
  ) {}

  /**
   * Before a launch: when it repeats the last one, puts that launch's result in memory and
   * returns the steps it took; otherwise undefined, and the launch is to be run.
   */
  repeat(req: LaunchRequest): number | undefined {
    const last = this.last;
    if (!last || !sameLaunch(last.key, req)) return undefined;
    for (const [a, before] of last.bytes) {
      if (a.freed || a.bytes.length !== before.length) return undefined;
      const after = last.after.get(a);
      const first = last.firstAccess.get(a);
      if (first) {
        if (!sameWhereRead(a.bytes, before, first)) return undefined;
      } else if (after && !last.read.has(a)) {
        // Most often nothing touched it since: it holds what the last launch left.
        if (!sameBytes(a.bytes, after) && !sameWhereUnchanged(a.bytes, before, after)) return undefined;
      } else if (!sameBytes(a.bytes, before)) return undefined;
    }
    for (const [a, after] of last.after) {
      const first = last.firstAccess.get(a);
      if (!first) a.bytes.set(after);
      else for (let i = 0; i < after.length; i++) if (first[i] !== 0) a.bytes[i] = after[i];
    }
    if (last.after.size) this.memory.version++;
    return last.steps;
  }

  /** Before running a launch that `repeat` did not answer. */
  begin(req: LaunchRequest): void {
    // The same launch again, and it failed `repeat`: watch what it read and changed.
    const last = this.last;
    const watch = last && sameLaunch(last.key, req) ? [...last.read].filter((a) => last.after.has(a) && !a.freed) : [];
    this.forget();
    // A launch that ended in an exception never reached `end`.
    if (this.running) this.drop(this.running);
    this.running = undefined;
    const previous = this.lastKey;
    // Copies: a caller may fill the same arrays for its next launch.
    this.lastKey = { kernel: req.kernel, grid: [...req.grid], block: [...req.block], dynamicShared: req.dynamicShared, args: [...req.args] };
    const visible = [...this.memory.deviceVisible()];
    let total = 0;
    for (const a of visible) total += a.size;
    if (total > MAX_COPIED_BYTES || (total > ALWAYS_COPIED_BYTES && !(previous && sameLaunch(previous, req)))) return;
    let marks = 0;
    for (const a of watch) marks += a.size;
    if (this.memory.account.charge(total + marks, 'the copy of device memory kept to recognise a repeated launch')) return;
    const bytes = new Map<Allocation, Uint8Array>();
    for (const a of visible) {
      bytes.set(a, a.bytes.slice());
      a.read = false;
    }
    for (const a of watch) a.firstAccess = new Uint8Array(a.size);
    this.running = { key: this.lastKey, bytes, watched: watch, sideEffects: this.runtime.sideEffects, allocations: this.memory.allocationCount, charged: total + marks };
  }

  /** After the launch `begin` saw: `clean` when it completed with no finding and ran every block. */
  end(clean: boolean, steps: number): void {
    const run = this.running;
    this.running = undefined;
    if (!run) return;
    const firstAccess = new Map<Allocation, Uint8Array>();
    for (const a of run.watched) {
      if (a.firstAccess) firstAccess.set(a, a.firstAccess);
      a.firstAccess = undefined;
    }
    if (!clean || this.runtime.sideEffects !== run.sideEffects || !this.sameAllocations(run)) {
      this.memory.account.release(run.charged);
      return;
    }
    const read = new Set<Allocation>();
    const after = new Map<Allocation, Uint8Array>();
    let changed = 0;
    for (const [a, before] of run.bytes) {
      if (a.read) read.add(a);
      // A watched allocation keeps its bytes either way: the bytes it wrote are put back even
      // where they held that value before (the host may have changed them since).
      if (firstAccess.has(a) || !sameBytes(a.bytes, before)) {
        after.set(a, a.bytes.slice());
        changed += a.size;
      }
    }
    if (changed && this.memory.account.charge(changed, 'the copy of device memory kept to recognise a repeated launch')) {
      this.memory.account.release(run.charged);
      return;
    }
    this.last = { ...run, read, after, firstAccess, steps, afterBytes: changed };
  }

  /** A launch that will not reach `end`: its marks are taken off and its copies given back. */
  private drop(run: Before): void {
    for (const a of run.watched) a.firstAccess = undefined;
    this.memory.account.release(run.charged);
  }

  /** No device memory made (and kept) or freed by the launch: the same allocations before and after. */
  private sameAllocations(run: Before): boolean {
    for (const a of run.bytes.keys()) if (a.freed) return false;
    for (let id = run.allocations; id < this.memory.allocationCount; id++) {
      const a = this.memory.allocation(id);
      if (a && !a.freed && isDeviceVisible(a)) return false;
    }
    return true;
  }

  private forget(): void {
    const last = this.last;
    if (!last) return;
    this.memory.account.release(last.charged);
    if (last.afterBytes) this.memory.account.release(last.afterBytes);
    this.last = undefined;
  }
}

function sameLaunch(k: LaunchKey, req: LaunchRequest): boolean {
  if (k.kernel !== req.kernel || k.dynamicShared !== req.dynamicShared || k.args.length !== req.args.length) return false;
  for (let i = 0; i < 3; i++) if (k.grid[i] !== req.grid[i] || k.block[i] !== req.block[i]) return false;
  for (let i = 0; i < k.args.length; i++) if (!Object.is(k.args[i], req.args[i])) return false;
  return true;
}

/** Whole words where both arrays allow it (the bytes of a WebAssembly program's memory may not). */
function words(a: Uint8Array): Int32Array | undefined {
  return a.byteOffset % 4 === 0 ? new Int32Array(a.buffer, a.byteOffset, a.length >> 2) : undefined;
}

/** Device memory is compared at every launch: the runtime's memcmp, not a loop in JS. */
function sameBytes(x: Uint8Array, y: Uint8Array): boolean {
  return x.length === y.length && Buffer.from(x.buffer, x.byteOffset, x.length).equals(Buffer.from(y.buffer, y.byteOffset, y.length));
}

/** `now` equals `before` at every byte the launch read before writing it. */
function sameWhereRead(now: Uint8Array, before: Uint8Array, first: Uint8Array): boolean {
  for (let i = 0; i < first.length; i++) if (first[i] === FIRST_READ && now[i] !== before[i]) return false;
  return true;
}

/**
 * `now` equals `before` wherever `after` does (the bits the launch left as they were). Bit by
 * bit, which is stricter than byte by byte: it can only send a launch to be run again.
 */
function sameWhereUnchanged(now: Uint8Array, before: Uint8Array, after: Uint8Array): boolean {
  const wn = words(now);
  const wb = words(before);
  const wa = words(after);
  let from = 0;
  if (wn && wb && wa) {
    for (let i = 0; i < wn.length; i++) if (((wn[i] ^ wb[i]) & ~(wa[i] ^ wb[i])) !== 0) return false;
    from = wn.length * 4;
  }
  for (let i = from; i < now.length; i++) if (((now[i] ^ before[i]) & ~(after[i] ^ before[i]) & 0xff) !== 0) return false;
  return true;
}
