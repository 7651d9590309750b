// Scopes and memory orders: the vocabulary of atomics and fences that the memory models, the
// simulator's events and the detectors share.

/** Which threads an atomic or fence orders with. */
export type Scope = 'block' | 'device' | 'system';

/**
 * The C++/PTX memory order of an operation that names one (libcu++ `cuda::atomic`,
 * `cuda::atomic_thread_fence`, inline PTX `ld.acquire`/`st.release`/`fence.*`). Legacy CUDA
 * atomics carry none (they are relaxed); `__threadfence*` are `seq_cst` fences of their scope.
 */
export type MemoryOrder = 'relaxed' | 'acquire' | 'release' | 'acq_rel' | 'seq_cst';

/** Release semantics: a release, acq_rel or seq_cst operation. */
export function isRelease(o: MemoryOrder | undefined): boolean {
  return o === 'release' || o === 'acq_rel' || o === 'seq_cst';
}

/** Acquire semantics: an acquire, acq_rel or seq_cst operation. */
export function isAcquire(o: MemoryOrder | undefined): boolean {
  return o === 'acquire' || o === 'acq_rel' || o === 'seq_cst';
}
