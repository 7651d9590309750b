// What the server and its analysis worker say to each other.
import type { CheckOptions, CheckReport } from '../../sims/check';
import type { LitmusOptions, LitmusReport } from '../../sims/litmus/types';

/**
 * Preprocessor output at most, for the server's parse and the worker's run alike: a runaway
 * macro stops here (5,000 real lines are ~50,000 tokens).
 */
export const MAX_EXPANDED_TOKENS = 1_000_000;

export interface AnalysisRequest {
  id: number;
  fileName: string;
  text: string;
  /** Open documents by path: they win over the disk for #include. */
  openFiles: Record<string, string>;
  options: Omit<CheckOptions, 'fileName' | 'text' | 'readFile' | 'parsed'>;
  /**
   * Check preferred fixes by re-running the fixed text. The report is sent first with no fix
   * preferred; a `verified` message follows with the fixes that removed their race.
   */
  verifyFixes: boolean;
  /** Explore the program's outcomes under a memory model (`scord/litmus`) instead of checking it. */
  litmus?: LitmusOptions;
}

export type AnalysisResponse =
  /** The worker has the engine loaded and begins the run: its time budget starts now. */
  | { id: number; kind: 'started' }
  | { id: number; kind: 'report'; report: CheckReport; elapsedMs: number; includes: string[] }
  | { id: number; kind: 'verified'; preferred: boolean[][] }
  /** The answer to a request with `litmus`. */
  | { id: number; kind: 'litmus'; report: LitmusReport; elapsedMs: number }
  | { id: number; kind: 'failed'; message: string };
