// The metadata table: one row per tracked address with its last access (kind, block, warp,
// lane), barrier ID, block/device fence IDs, strong, lockset and, hardware-faithful, its flags.
// Selecting a row asks the host for every access to that address (the timeline below).
import { h } from '../dom';
import { rangeLabel, rangeTarget, threadLabel, yesNo } from '../format';
import type { RevealTarget } from '../messages';
import type { TablePrefs } from '../model';
import { DataTable, type Column } from '../table';
import type { InspectorEntry, InspectorState } from '../../../server/wire';

type Entry = InspectorEntry;

export interface MetadataContext {
  prefs: TablePrefs;
  onPrefs: (prefs: TablePrefs) => void;
  selected: string | null;
  inspect: (address: string) => void;
  reveal: (target: RevealTarget) => void;
}

const FLAG_NAMES: [keyof NonNullable<Entry['flags']>, string][] = [
  ['modified', 'modified'],
  ['blkShared', 'block-shared'],
  ['devShared', 'device-shared'],
  ['strong', 'strong'],
];

function flagText(e: Entry): string {
  return e.flags ? FLAG_NAMES.filter(([k]) => e.flags![k]).map(([, name]) => name).join(' ') || '—' : '—';
}

export function metadataTable(state: InspectorState, ctx: MetadataContext): DataTable<Entry> {
  const columns: Column<Entry>[] = [
    { id: 'address', label: 'Address', description: 'The word as the program names it', value: (e) => e.address, render: (e) => h('code', null, e.address) },
    { id: 'access', label: 'Last access', description: 'read, write or the atomic', value: (e) => e.last.access },
    { id: 'block', label: 'Block', value: (e) => e.last.accessor.block, numeric: true },
    { id: 'warp', label: 'Warp', value: (e) => e.last.accessor.warp, numeric: true },
    { id: 'lane', label: 'Lane', value: (e) => e.last.accessor.lane, numeric: true },
    { id: 'barrier', label: 'Barrier ID', description: 'The block’s barrier count at the access', value: (e) => e.last.barrierId, numeric: true },
    { id: 'blockFence', label: 'Block fence', description: 'The accessor’s block-scope fence ID at the access', value: (e) => e.last.blockFenceId, numeric: true },
    { id: 'deviceFence', label: 'Device fence', description: 'The accessor’s device-scope fence ID at the access', value: (e) => e.last.deviceFenceId, numeric: true },
    { id: 'strong', label: 'Strong', description: 'volatile or atomic: seen by other threads', value: (e) => e.last.strong, text: (e) => yesNo(e.last.strong) },
    { id: 'locks', label: 'Lockset', description: 'Locks held at the access', value: (e) => e.last.locks.join(', ') || '—' },
  ];
  if (state.entries.some((e) => e.flags)) {
    columns.push({ id: 'flags', label: 'Flags', description: 'The hardware entry’s flag bits', value: flagText });
  }
  if (state.entries.some((e) => e.lastWrite)) {
    columns.push({
      id: 'lastWrite',
      label: 'Last write',
      description: 'The last write (block, warp, lane), when a later read replaced it as the last access',
      value: (e) => (e.lastWrite ? `b${e.lastWrite.accessor.block} w${e.lastWrite.accessor.warp} l${e.lastWrite.accessor.lane}` : '—'),
      render: (e) => (e.lastWrite ? h('span', { title: `${e.lastWrite.access} by ${threadLabel(e.lastWrite.accessor)}, ${rangeLabel(e.lastWrite.range)}` }, `b${e.lastWrite.accessor.block} w${e.lastWrite.accessor.warp} l${e.lastWrite.accessor.lane}`) : '—'),
    });
  }
  columns.push({
    id: 'line',
    label: 'Line',
    description: 'Where the last access is: reveal it',
    value: (e) => e.last.range.start.line,
    text: (e) => String(e.last.range.start.line + 1),
    numeric: true,
    render: (e) =>
      h(
        'button',
        { type: 'button', class: 'link reveal', 'aria-label': `Reveal the last access to ${e.address}, ${rangeLabel(e.last.range)}`, onClick: () => ctx.reveal(rangeTarget(e.last.range)) },
        String(e.last.range.start.line + 1),
      ),
  });
  const shown = state.entries.length;
  return new DataTable<Entry>({
    id: 'metadata',
    label: 'Metadata of tracked addresses',
    columns,
    rows: state.entries,
    key: (e) => e.address,
    prefs: ctx.prefs,
    onPrefs: ctx.onPrefs,
    activate: (e) => ctx.inspect(e.address),
    selected: ctx.selected,
    empty: 'No global memory was tracked in the last launch.',
    ...(state.entriesTotal > shown ? { note: `${shown} of ${state.entriesTotal} tracked addresses shown` } : {}),
    filterPlaceholder: 'Filter addresses, threads, locks…',
  });
}
