// Barrier IDs per block: how many __syncthreads() each block has passed.
import { h } from '../dom';
import type { TablePrefs } from '../model';
import { DataTable } from '../table';
import type { InspectorState } from '../../../server/wire';

type Barrier = InspectorState['barriers'][number];

export function barriersView(state: InspectorState, prefs: TablePrefs, onPrefs: (p: TablePrefs) => void): HTMLElement {
  const table = new DataTable<Barrier>({
    id: 'barriers',
    label: 'Barrier IDs per block',
    columns: [
      { id: 'block', label: 'Block', value: (b) => b.block, numeric: true },
      { id: 'barrierId', label: 'Barrier ID', description: state.precision === 'hardware-faithful' ? '8 bits: wraps at 256' : '__syncthreads() passed', value: (b) => b.barrierId, numeric: true },
    ],
    rows: state.barriers,
    key: (b) => String(b.block),
    prefs,
    onPrefs,
    empty: 'No block has passed a __syncthreads() (every barrier ID is 0).',
    filterPlaceholder: 'Filter blocks…',
  });
  return h('div', { class: 'view barriers' }, state.barriers.length ? h('p', { class: 'muted intro' }, 'Blocks not listed have barrier ID 0.') : null, table.element);
}
