// What a litmus run reports: the histogram of a small program's final outcomes under a memory
// model, each outcome with one witness execution. Shared by the CLI (`scord litmus`), the
// language server (`scord/litmus`) and the inspector's histogram.
import type { Range } from '../frontend/source';
import type { MemoryModelName, WeakModelSwitches } from '../gpu/memoryModels';

/** One step of a witness execution: what a thread did, or what the memory system did. */
export interface WitnessStep {
  /** `block 1 warp 0 lane 0` or `memory` for propagation steps. */
  actor: string;
  /** `x = 1`, `r1 = y → 0 (borrowed from block 0)`, `x = 1 reaches block 1`, `__threadfence()`. */
  action: string;
  range?: Range;
}

export interface LitmusOutcome {
  /** The program's printed output, trimmed (or `name=value …` of the observed variables). */
  outcome: string;
  count: number;
  /** Whether the model can produce this outcome (observed, or named in the file and reached). */
  allowed: boolean;
  /** Named in the file by a `// outcome:` line. */
  declared?: boolean;
  /** The steps of one execution that ended in this outcome (empty when none was observed). */
  witness: WitnessStep[];
}

export interface LitmusOptions {
  model: MemoryModelName;
  /** Random executions to run (ignored with `exhaustive`). */
  runs?: number;
  /** Explore every execution, merging repeated states; stops at `maxExecutions`. */
  exhaustive?: boolean;
  maxExecutions?: number;
  seed?: number;
  /** `__device__` variables whose final values form the outcome, instead of the printed output. */
  observe?: string[];
  switches?: WeakModelSwitches;
  /** Outcomes to list even when never reached (a file's `// outcome:` lines). */
  declared?: string[];
}

export interface LitmusReport {
  model: MemoryModelName;
  /** Executions that reached the end of the program. */
  runs: number;
  exhaustive: boolean;
  /** Exhaustive only: every execution was explored (false when `maxExecutions` cut it short). */
  complete: boolean;
  /** Exhaustive only: executions started, including those cut at a state already explored. */
  executions?: number;
  outcomes: LitmusOutcome[];
  /** Errors that stopped the program from running at all (parse errors, unsupported code). */
  errors: { message: string; range?: Range }[];
}
