// Lock tables per thread: the locks each thread took (atomicCAS + fence) and whether it still
// holds them; the acquire line can be revealed.
import { h } from '../dom';
import { rangeLabel, rangeTarget } from '../format';
import type { RevealTarget } from '../messages';
import type { TablePrefs } from '../model';
import { DataTable, type Column } from '../table';
import type { InspectorLockTable, InspectorState } from '../../../server/wire';

type LockTable = InspectorLockTable;
interface LockRow {
  table: LockTable;
  lock: LockTable['locks'][number];
  index: number;
}

export function locksView(state: InspectorState, prefs: TablePrefs, onPrefs: (p: TablePrefs) => void, reveal: (t: RevealTarget) => void): HTMLElement {
  const rows: LockRow[] = state.lockTables.flatMap((table) => table.locks.map((lock, index) => ({ table, lock, index })));
  const columns: Column<LockRow>[] = [
    { id: 'block', label: 'Block', value: (r) => r.table.block, numeric: true },
    { id: 'warp', label: 'Warp', value: (r) => r.table.warp, numeric: true },
    { id: 'lane', label: 'Lane', value: (r) => r.table.lane, numeric: true },
    { id: 'lock', label: 'Lock', value: (r) => r.lock.name, render: (r) => h('code', null, r.lock.name) },
    { id: 'scope', label: 'Scope', value: (r) => r.lock.scope },
    { id: 'held', label: 'State', value: (r) => (r.lock.held ? 'held' : 'released') },
    {
      id: 'acquire',
      label: 'Acquired at',
      value: (r) => r.lock.acquire.start.line,
      text: (r) => String(r.lock.acquire.start.line + 1),
      numeric: true,
      render: (r) =>
        h(
          'button',
          { type: 'button', class: 'link reveal', 'aria-label': `Reveal where ${r.lock.name} was acquired, ${rangeLabel(r.lock.acquire)}`, onClick: () => reveal(rangeTarget(r.lock.acquire)) },
          String(r.lock.acquire.start.line + 1),
        ),
    },
  ];
  const table = new DataTable<LockRow>({
    id: 'locks',
    label: 'Lock tables per thread',
    columns,
    rows,
    key: (r) => `${r.table.block}:${r.table.warp}:${r.table.lane}:${r.index}`,
    prefs,
    onPrefs,
    activate: (r) => reveal(rangeTarget(r.lock.acquire)),
    empty: 'No thread holds a lock table entry at the end of the run.',
    filterPlaceholder: 'Filter threads, locks…',
  });
  return h('div', { class: 'view locks' }, table.element);
}
