// What the server and its analysis worker say to each other.
import type { CheckOptions, CheckReport } from '../../sims/check';

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
}

export type AnalysisResponse =
  | { id: number; kind: 'report'; report: CheckReport; elapsedMs: number; includes: string[] }
  | { id: number; kind: 'verified'; preferred: boolean[][] }
  | { id: number; kind: 'failed'; message: string };
