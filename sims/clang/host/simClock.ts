// The time a simulated program sees. A run must be reproducible, so nothing here reads the
// machine's clock: time starts at a fixed instant and moves only when the program does
// something — each clock read, each kernel, each copy — by fixed amounts. Timings a program
// prints (cudaEventElapsedTime, std::chrono) are therefore the same on every run and grow
// with the work done, but say nothing about a real GPU.

/** 2024-01-01T00:00:00Z in nanoseconds: the wall clock's reading when a run starts. */
const EPOCH_NS = 1_704_067_200_000_000_000n;

/** Each read of the clock by host code moves it this far (a loop that waits on it ends). */
export const CLOCK_READ_NS = 1_000n;
/** A kernel launch costs this much before its first thread runs. */
export const LAUNCH_OVERHEAD_NS = 5_000n;
/** A copy costs this much, plus a nanosecond per COPY_BYTES_PER_NS bytes. */
export const COPY_OVERHEAD_NS = 1_000n;
export const COPY_BYTES_PER_NS = 16;

export class SimClock {
  /** Nanoseconds since the run started. */
  private elapsed = 0n;

  /** Monotonic time (CLOCK_MONOTONIC and the like), in nanoseconds since the run started. */
  monotonic(): bigint {
    return this.elapsed;
  }

  /** Wall-clock time (CLOCK_REALTIME), in nanoseconds since 1970. */
  realtime(): bigint {
    return EPOCH_NS + this.elapsed;
  }

  advance(ns: bigint): void {
    if (ns > 0n) this.elapsed += ns;
  }

  /**
   * A kernel ran `threadSteps` steps on a device of `sms` multiprocessors: one nanosecond per
   * step, spread over the multiprocessors, plus the launch overhead.
   */
  kernel(threadSteps: number, sms: number): void {
    this.advance(LAUNCH_OVERHEAD_NS + BigInt(Math.ceil(threadSteps / Math.max(1, sms))));
  }

  copy(bytes: number): void {
    this.advance(COPY_OVERHEAD_NS + BigInt(Math.ceil(bytes / COPY_BYTES_PER_NS)));
  }
}
