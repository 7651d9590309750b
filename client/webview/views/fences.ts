// The fence file: per thread (exact) or per warp (hardware-faithful), its block- and
// device-scope fence IDs — only the threads or warps that have fenced (an ID of 0 everywhere is
// what a program without fences has, and hundreds of such rows said nothing).
import { h } from '../dom';
import type { TablePrefs } from '../model';
import { DataTable, type Column } from '../table';
import type { InspectorFenceFile, InspectorState } from '../../../server/wire';

type FenceFile = InspectorFenceFile;

/** The threads or warps that have executed a fence: the rows the Fences tab lists (and counts). */
export function fencedFiles(state: InspectorState): FenceFile[] {
  return state.fenceFiles.filter((f) => f.blockFenceId !== 0 || f.deviceFenceId !== 0);
}

export function fencesView(state: InspectorState, prefs: TablePrefs, onPrefs: (p: TablePrefs) => void): HTMLElement {
  const perThread = state.fenceFiles.some((f) => f.lane !== undefined);
  const columns: Column<FenceFile>[] = [
    { id: 'block', label: 'Block', value: (f) => f.block, numeric: true },
    { id: 'warp', label: 'Warp', value: (f) => f.warp, numeric: true },
    ...(perThread ? [{ id: 'lane', label: 'Lane', value: (f: FenceFile) => f.lane ?? -1, text: (f: FenceFile) => (f.lane === undefined ? '—' : String(f.lane)), numeric: true }] : []),
    { id: 'blockFence', label: 'Block fence ID', description: '__threadfence_block() calls so far', value: (f) => f.blockFenceId, numeric: true },
    { id: 'deviceFence', label: 'Device fence ID', description: '__threadfence() calls so far', value: (f) => f.deviceFenceId, numeric: true },
  ];
  const fenced = fencedFiles(state);
  const who = perThread ? 'thread' : 'warp';
  if (!fenced.length) {
    return h('div', { class: 'view fences' }, h('p', { class: 'muted intro empty-fences' }, `No ${who} has executed a fence (__threadfence_block() or __threadfence()) in this run: every fence ID is 0.`));
  }
  const table = new DataTable<FenceFile>({
    id: 'fences',
    label: perThread ? 'Fence file per thread' : 'Fence file per warp',
    columns,
    rows: fenced,
    ...(fenced.length < state.fenceFiles.length ? { note: `${state.fenceFiles.length - fenced.length} ${who}s that never fenced are left out` } : {}),
    key: (f) => `${f.block}:${f.warp}:${f.lane ?? ''}`,
    prefs,
    onPrefs,
    empty: 'No thread has a fence file yet.',
    filterPlaceholder: 'Filter blocks, warps, IDs…',
  });
  return h(
    'div',
    { class: 'view fences' },
    h('p', { class: 'muted intro' }, perThread ? 'Per thread (exact metadata: diverged lanes are told apart).' : 'Per warp (hardware-faithful: 6-bit IDs that wrap).'),
    table.element,
  );
}
