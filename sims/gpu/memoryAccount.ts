// One memory account per run: the program's memory, charged before its bytes exist — global,
// constant, managed, shared per block, local per thread, the host heap — each allocation with
// the cost of its record. Past the limit the allocation is refused: cudaMalloc and malloc fail
// as on a full machine, and a launch or variable that cannot fit stops the run with a located
// finding that says what was asked for and what the limit is.
//
// What the run keeps on the JavaScript heap instead (the detector's metadata, the weak model's
// held values, the simulator's own state) is counted as the heap's growth since the run began,
// plus what it says it holds in typed arrays off the heap (the detector's pages of entries),
// looked at every so many steps; past the limit, with the allocations, the launch stops with a
// finding too.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Range } from '../frontend/source';

/** Bytes each allocation costs beyond its contents (its record, its slot in the address space). */
export const ALLOCATION_OVERHEAD = 768;

export class MemoryLimitExceeded extends Error {
  constructor(
    message: string,
    readonly range?: Range,
  ) {
    super(message);
  }
}

export function formatBytes(n: number): string {
  if (n >= 2 ** 30) return `${+(n / 2 ** 30).toFixed(n % 2 ** 30 === 0 ? 0 : 1)} GB`;
  if (n >= 2 ** 20) return `${+(n / 2 ** 20).toFixed(n % 2 ** 20 === 0 ? 0 : 1)} MB`;
  if (n >= 2 ** 10) return `${+(n / 2 ** 10).toFixed(n % 2 ** 10 === 0 ? 0 : 1)} KB`;
  return `${n} bytes`;
}

export class MemoryAccount {
  /** Bytes of allocations held now. */
  private allocated = 0;
  /** Bytes of the run's own state kept off the JavaScript heap (typed arrays), which its growth does not show. */
  private external = 0;
  private readonly heapAtStart = getHeapStatistics().used_heap_size;

  constructor(readonly limit: number) {}

  /** Allocations held now. */
  get allocatedBytes(): number {
    return this.allocated;
  }

  /** Whether `bytes` more would fit (without counting them). */
  fits(bytes: number): boolean {
    return Number.isFinite(bytes) && bytes >= 0 && this.allocated + bytes + ALLOCATION_OVERHEAD <= this.limit;
  }

  /** Counts an allocation of `bytes` for `what`, or says why it does not fit. */
  charge(bytes: number, what: string): string | undefined {
    if (!this.fits(bytes)) {
      return `${what} needs ${formatBytes(bytes)}, and the run already holds ${formatBytes(this.allocated)}; the memory limit is ${formatBytes(this.limit)}`;
    }
    this.allocated += bytes + ALLOCATION_OVERHEAD;
    return undefined;
  }

  release(bytes: number): void {
    this.allocated = Math.max(0, this.allocated - bytes - ALLOCATION_OVERHEAD);
  }

  /** Bytes the run's state holds off the heap now. */
  get externalBytes(): number {
    return this.external;
  }

  /** The run's state holds `bytes` more off the heap (counted with the heap's growth, never refused: overLimit stops the run). */
  holdExternal(bytes: number): void {
    this.external += bytes;
  }

  releaseExternal(bytes: number): void {
    this.external = Math.max(0, this.external - bytes);
  }

  /** Why the run as a whole (allocations and the heap's growth) is over the limit now, if it is. */
  overLimit(): string | undefined {
    const grown = (): number => Math.max(0, getHeapStatistics().used_heap_size - this.heapAtStart) + this.external;
    let heap = grown();
    if (this.allocated + heap <= this.limit) return undefined;
    // The heap holds garbage too (a compile's output, finished launches): collect it before
    // stopping a run for memory it no longer holds.
    const collect = fullCollection();
    if (collect) {
      collect();
      heap = grown();
      if (this.allocated + heap <= this.limit) return undefined;
    }
    return `the run holds ${formatBytes(this.allocated + heap)} (${formatBytes(this.allocated)} of the program's memory, ${formatBytes(heap)} of detector and simulator state); the memory limit is ${formatBytes(this.limit)}`;
  }
}

let collector: (() => void) | null | undefined;
/**
 * A full garbage collection, asked of V8 the way `--expose-gc` allows (a context made after the
 * flag is set sees `gc`); null where the engine refuses. Used only once a run looks over its limit.
 */
function fullCollection(): (() => void) | null {
  if (collector === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      const gc: unknown = runInNewContext('gc');
      collector = typeof gc === 'function' ? (gc as () => void) : null;
    } catch {
      collector = null;
    }
  }
  return collector;
}
