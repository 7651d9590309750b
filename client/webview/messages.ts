// What the extension and the metadata inspector webview say to each other (postMessage only).
import type { InspectorState, InspectorTraceAccess, LaunchDescription, LitmusReport, PublicFinding } from '../../server/wire';

/** A place in a file to reveal, 0-based like LSP. */
export interface RevealTarget {
  file: string;
  line: number;
  character: number;
}

export type ToWebview =
  /** The detector's state after the last run of `file` (null: no run yet). */
  | { type: 'state'; file: string; version: number | null; state: InspectorState | null; findings: PublicFinding[]; elapsedMs: number | null; finishedAt: number | null; launched?: LaunchDescription[] }
  /** The accesses to one address, in order (the answer to `inspectAddress`). */
  | { type: 'trace'; file: string; address: string; accesses: InspectorTraceAccess[]; truncated: boolean }
  /**
   * The histogram of a litmus run of `file` (ScoRD: Run Litmus Test). `id` is new for each run,
   * so a message sent again (after a reload) does not take the reader back to the Litmus tab.
   */
  | { type: 'litmus'; file: string; id: number; report: LitmusReport & { elapsedMs: number } }
  /** Bring one race into view (from "Show in metadata inspector"). */
  | { type: 'select'; finding: number }
  /** The run failed or there is nothing to inspect: say why. */
  | { type: 'empty'; reason: string };

export type FromWebview =
  | { type: 'ready' }
  | { type: 'reveal'; target: RevealTarget }
  | { type: 'inspectAddress'; address: string }
  | { type: 'refresh' };
