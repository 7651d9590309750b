// What the inspector remembers across reloads (vscode.getState/setState): the last message with
// data, the trace on screen, what is selected, and each table's sort and filter.
import type { ToWebview } from './messages';

export type StateMessage = Extract<ToWebview, { type: 'state' }>;
export type TraceMessage = Extract<ToWebview, { type: 'trace' }>;
export type LitmusMessage = Extract<ToWebview, { type: 'litmus' }>;
export type TabId = 'races' | 'metadata' | 'fences' | 'locks' | 'barriers' | 'litmus';
export const TABS: readonly TabId[] = ['races', 'metadata', 'fences', 'locks', 'barriers', 'litmus'];

export interface SortPref {
  column: string;
  dir: 'asc' | 'desc';
}

export interface TablePrefs {
  sort: SortPref | null;
  filter: string;
}

export interface Persisted {
  /** Bumped when the shape changes: an older saved state is dropped. */
  schema: 1;
  /** What is on screen: the last `state` or `empty` message (null: nothing received yet). */
  view: { kind: 'state'; message: StateMessage } | { kind: 'empty'; reason: string } | null;
  /** The file of the last `state` (kept through `empty`, so the selection survives a failed run). */
  file: string | null;
  /** The last trace and the document version it was taken at. */
  trace: TraceMessage | null;
  traceVersion: number | null;
  /** The address whose accesses the timeline shows (or is waiting for). */
  selectedAddress: string | null;
  /** The highlighted finding, an index into the state message's `findings`. */
  selectedFinding: number | null;
  tab: TabId;
  tables: Record<string, TablePrefs>;
  /** The last litmus run of `file` (dropped when another file's state arrives). */
  litmus: LitmusMessage | null;
  /** The outcome whose witness the Litmus tab shows. */
  selectedOutcome: string | null;
}

export function initialState(): Persisted {
  return { schema: 1, view: null, file: null, trace: null, traceVersion: null, selectedAddress: null, selectedFinding: null, tab: 'races', tables: {}, litmus: null, selectedOutcome: null };
}

/** A saved state if it is one this version wrote, else a fresh one. */
export function restore(saved: unknown): Persisted {
  const s = saved as Partial<Persisted> | undefined;
  if (!s || typeof s !== 'object' || s.schema !== 1) return initialState();
  const fresh = initialState();
  return {
    ...fresh,
    ...s,
    tab: TABS.includes(s.tab as TabId) ? (s.tab as TabId) : fresh.tab,
    tables: s.tables && typeof s.tables === 'object' ? s.tables : {},
    litmus: isToWebview(s.litmus) && s.litmus.type === 'litmus' ? s.litmus : null,
    selectedOutcome: typeof s.selectedOutcome === 'string' ? s.selectedOutcome : null,
  };
}

/** Messages from the host, checked enough that a malformed one is ignored, not thrown on. */
export function isToWebview(data: unknown): data is ToWebview {
  if (!data || typeof data !== 'object') return false;
  const m = data as { type?: unknown };
  switch (m.type) {
    case 'state': {
      const s = data as Partial<StateMessage>;
      return typeof s.file === 'string' && Array.isArray(s.findings) && (s.state === null || typeof s.state === 'object');
    }
    case 'trace': {
      const t = data as Partial<TraceMessage>;
      return typeof t.address === 'string' && Array.isArray(t.accesses);
    }
    case 'litmus': {
      const l = data as Partial<LitmusMessage>;
      const r = l.report as Partial<LitmusMessage['report']> | undefined;
      return typeof l.file === 'string' && typeof l.id === 'number' && !!r && typeof r === 'object' && typeof r.model === 'string' && typeof r.runs === 'number' && Array.isArray(r.outcomes) && Array.isArray(r.errors);
    }
    case 'select':
      return typeof (data as { finding?: unknown }).finding === 'number';
    case 'empty':
      return typeof (data as { reason?: unknown }).reason === 'string';
    default:
      return false;
  }
}
