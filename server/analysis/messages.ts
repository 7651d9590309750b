// What the server and its analysis worker say to each other.
import type { CheckOptions, CheckReport } from '../../sims/check';

export interface AnalysisRequest {
  id: number;
  fileName: string;
  text: string;
  /** Open documents by path: they win over the disk for #include. */
  openFiles: Record<string, string>;
  options: Omit<CheckOptions, 'fileName' | 'text' | 'readFile' | 'parsed'>;
  /** Re-run each preferred fix and keep it preferred only if it removes its race. */
  verifyFixes: boolean;
}

export type AnalysisResponse =
  | { id: number; kind: 'report'; report: CheckReport; elapsedMs: number; includes: string[] }
  | { id: number; kind: 'failed'; message: string };
