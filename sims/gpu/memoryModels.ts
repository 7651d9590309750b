// The memory models a run can use, by name, and the switches of the weak ones: shared by the
// simulator, the litmus runner, the CLI and the editor's settings.

/**
 * `sc`: every access reaches memory at once, in program order (the simulator's default).
 * `gpu-weak`: the operational model of Sorensen's thesis ch. 4 — per-thread views, stores that
 * propagate per address, loads that borrow unpropagated values, fences that push only their
 * own thread's values. `gpu-strong`: the thesis's alternative — one view per block, no load pool.
 */
export type MemoryModelName = 'sc' | 'gpu-weak' | 'gpu-strong';

export const MEMORY_MODELS: readonly MemoryModelName[] = ['sc', 'gpu-weak', 'gpu-strong'];

/** The points the thesis leaves open, as separate switches (defaults follow the chosen model). */
export interface WeakModelSwitches {
  /** Loads of one address may be satisfied out of program order (the load pool). */
  loadReordering?: boolean;
  /** A fence also pushes values its thread has borrowed from others (cumulativity). */
  cumulativeFences?: boolean;
}
