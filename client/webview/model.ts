// What the inspector remembers across reloads (vscode.getState/setState): the last message with
// data, the trace on screen, what is selected, and each table's sort and filter.
import type { ToWebview } from './messages';

export type StateMessage = Extract<ToWebview, { type: 'state' }>;
export type TraceMessage = Extract<ToWebview, { type: 'trace' }>;
export type TabId = 'races' | 'metadata' | 'fences' | 'locks' | 'barriers';
export const TABS: readonly TabId[] = ['races', 'metadata', 'fences', 'locks', 'barriers'];

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
}

export function initialState(): Persisted {
  return { schema: 1, view: null, file: null, trace: null, traceVersion: null, selectedAddress: null, selectedFinding: null, tab: 'races', tables: {} };
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
    case 'select':
      return typeof (data as { finding?: unknown }).finding === 'number';
    case 'empty':
      return typeof (data as { reason?: unknown }).reason === 'string';
    default:
      return false;
  }
}
