// The accesses to one address in the order they happened: a chart (x = order, one row per
// block and warp, marks coloured by read/write/atomic from the theme's chart colours) and the
// same accesses as a list, which is also the keyboard and screen-reader way through them.
import { h, svg } from '../dom';
import { accessKind, rangeLabel, rangeTarget, yesNo } from '../format';
import type { RevealTarget } from '../messages';
import type { TablePrefs, TraceMessage } from '../model';
import { DataTable, type Column } from '../table';

type TracedAccess = TraceMessage['accesses'][number];
interface Row {
  access: TracedAccess;
  index: number;
}

export interface TimelineContext {
  address: string | null;
  trace: TraceMessage | null;
  /** The trace is from an earlier run than the state on screen. */
  stale: boolean;
  /** An inspectAddress for `address` is under way. */
  pending: boolean;
  prefs: TablePrefs;
  onPrefs: (prefs: TablePrefs) => void;
  reveal: (target: RevealTarget) => void;
  load: (address: string) => void;
}

/** Chart geometry, in CSS pixels (the label column is sized from the same numbers). */
const STEP = 9;
const MARK = 6;
const ROW = 20;
const AXIS = 20;
const PAD = 8;

export function timelineView(ctx: TimelineContext): HTMLElement {
  const section = h('section', { class: 'timeline', 'aria-labelledby': 'timeline-title' });
  const title = h('h2', { id: 'timeline-title', class: 'section-title' });
  section.append(title);
  if (ctx.address === null) {
    title.textContent = 'Timeline';
    section.append(h('p', { class: 'muted' }, 'Select an address in the table (click it, or Enter) to see every access to it in order, by block and warp.'));
    return section;
  }
  title.append('Accesses to ', h('code', null, ctx.address));
  const trace = ctx.trace && ctx.trace.address === ctx.address ? ctx.trace : null;
  if (!trace) {
    section.append(
      h(
        'p',
        { class: 'muted', role: 'status' },
        ctx.pending ? `Tracing the accesses to ${ctx.address}…` : 'Its accesses have not been traced in this run. ',
        ctx.pending ? null : h('button', { type: 'button', class: 'secondary', onClick: () => ctx.load(ctx.address!) }, 'Trace accesses'),
      ),
    );
    return section;
  }
  if (ctx.stale) {
    section.append(
      h(
        'p',
        { class: 'notice', role: 'status' },
        'This trace is from an earlier run. ',
        h('button', { type: 'button', class: 'secondary', onClick: () => ctx.load(trace.address) }, ctx.pending ? 'Tracing…' : 'Trace again'),
      ),
    );
  }
  const accesses = trace.accesses;
  if (!accesses.length) {
    section.append(h('p', { class: 'muted' }, 'No thread accessed this address in the last run.'));
    return section;
  }

  const launches = new Set(accesses.map((a) => a.launch));
  const many = launches.size > 1;
  const rowKey = (a: TracedAccess) => `${many ? a.launch : 0}:${a.accessor.block}:${a.accessor.warp}`;
  const rowKeys = [...new Set(accesses.map(rowKey))].sort((x, y) => {
    const [a, b] = [x, y].map((k) => k.split(':').map(Number)) as [number[], number[]];
    return a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;
  });
  const rowOf = new Map(rowKeys.map((k, i) => [k, i]));
  const blocks = new Set(accesses.map((a) => a.accessor.block)).size;
  const counts = { read: 0, write: 0, atomic: 0 };
  for (const a of accesses) counts[accessKind(a.access)]++;

  section.append(
    h(
      'p',
      { class: 'summary' },
      `${accesses.length} ${accesses.length === 1 ? 'access' : 'accesses'} by ${blocks} ${blocks === 1 ? 'block' : 'blocks'} in ${rowKeys.length} ${rowKeys.length === 1 ? 'warp' : 'warps'}`,
      many ? ` over ${launches.size} launches` : '',
      trace.truncated ? ' — only the first accesses were recorded' : '',
    ),
    h(
      'ul',
      { class: 'legend', 'aria-label': 'Legend' },
      (['read', 'write', 'atomic'] as const).map((k) => h('li', null, h('span', { class: `swatch ${k}`, 'aria-hidden': 'true' }), `${k} (${counts[k]})`)),
      accesses.some((a) => !a.strong) ? h('li', null, h('span', { class: 'swatch weak', 'aria-hidden': 'true' }), 'hollow: not strong') : null,
    ),
  );

  // The chart.
  const width = PAD * 2 + accesses.length * STEP;
  const height = AXIS + rowKeys.length * ROW;
  const chart = svg('svg', {
    class: 'tl-svg',
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': `Timeline of ${accesses.length} accesses to ${trace.address}: ${counts.read} reads, ${counts.write} writes, ${counts.atomic} atomics. The list below has each access.`,
  });
  rowKeys.forEach((_, i) => chart.append(svg('rect', { class: `tl-band ${i % 2 ? 'odd' : 'even'}`, x: 0, y: AXIS + i * ROW, width, height: ROW })));
  const tick = niceStep(60 / STEP);
  for (let k = 0; k < accesses.length; k += tick) {
    const x = PAD + k * STEP + MARK / 2;
    chart.append(svg('line', { class: 'tl-grid', x1: x, x2: x, y1: AXIS - 4, y2: height }), svg('text', { class: 'tl-tick', x, y: AXIS - 7 }, String(k + 1)));
  }
  accesses.forEach((a, i) => {
    if (i > 0 && a.launch !== accesses[i - 1]!.launch) {
      const x = PAD + i * STEP - (STEP - MARK) / 2;
      chart.append(svg('line', { class: 'tl-launch', x1: x, x2: x, y1: 0, y2: height }, svg('title', null, `launch ${a.launch}`)));
    }
  });
  const marks: SVGRectElement[] = accesses.map((a, i) => {
    const row = rowOf.get(rowKey(a))!;
    const kind = accessKind(a.access);
    return svg(
      'rect',
      { class: `tl-mark ${kind}${a.strong ? '' : ' weak'}`, 'data-index': i, x: PAD + i * STEP, y: AXIS + row * ROW + 4, width: MARK, height: ROW - 8, rx: 1 },
      svg('title', null, `#${i + 1} ${a.access}${a.strong ? '' : ' (not strong)'} · block ${a.accessor.block} · warp ${a.accessor.warp} · lane ${a.accessor.lane} · ${rangeLabel(a.range)}`),
    );
  });
  chart.append(...marks);

  const labels = h('div', { class: 'tl-labels', 'aria-hidden': 'true' });
  const spacer = h('div', { class: 'tl-label tl-axis-label' }, 'order →');
  spacer.style.height = `${AXIS}px`;
  labels.append(spacer);
  for (const k of rowKeys) {
    const [launch, block, warp] = k.split(':');
    const label = h('div', { class: 'tl-label' }, many ? `L${launch} · ` : '', `block ${block} · warp ${warp}`);
    label.style.height = `${ROW}px`;
    labels.append(label);
  }
  const scroller = h('div', { class: 'tl-scroll', tabindex: 0, 'aria-label': 'Timeline chart (scrolls sideways)' }, chart);
  section.append(h('div', { class: 'tl-chart' }, labels, scroller));

  // The list.
  let selected: number | null = null;
  const columns: Column<Row>[] = [
    { id: 'order', label: '#', description: 'Order of the access', value: (r) => r.index + 1, numeric: true },
    ...(many ? [{ id: 'launch', label: 'Launch', value: (r: Row) => r.access.launch, numeric: true }] : []),
    { id: 'block', label: 'Block', value: (r) => r.access.accessor.block, numeric: true },
    { id: 'warp', label: 'Warp', value: (r) => r.access.accessor.warp, numeric: true },
    { id: 'lane', label: 'Lane', value: (r) => r.access.accessor.lane, numeric: true },
    { id: 'access', label: 'Access', value: (r) => r.access.access, render: (r) => h('span', { class: `kind ${accessKind(r.access.access)}` }, r.access.access) },
    { id: 'strong', label: 'Strong', value: (r) => r.access.strong, text: (r) => yesNo(r.access.strong) },
    {
      id: 'line',
      label: 'Line',
      value: (r) => r.access.range.start.line,
      text: (r) => String(r.access.range.start.line + 1),
      numeric: true,
      render: (r) =>
        h(
          'button',
          { type: 'button', class: 'link reveal', 'aria-label': `Reveal access ${r.index + 1}, ${rangeLabel(r.access.range)}`, onClick: () => choose(r.index, true) },
          String(r.access.range.start.line + 1),
        ),
    },
  ];
  const list = new DataTable<Row>({
    id: 'trace',
    label: `Accesses to ${trace.address}`,
    columns,
    rows: accesses.map((access, index) => ({ access, index })),
    key: (r) => String(r.index),
    prefs: ctx.prefs,
    onPrefs: ctx.onPrefs,
    activate: (r) => choose(r.index, true),
    empty: 'No accesses.',
    filterPlaceholder: 'Filter accesses…',
  });
  const choose = (i: number, reveal: boolean) => {
    if (selected !== null) marks[selected]?.classList.remove('selected');
    selected = i;
    const mark = marks[i];
    if (mark) {
      mark.classList.add('selected');
      // Draw it last so its outline is on top.
      chart.append(mark);
    }
    list.setSelected(String(i), { scroll: true });
    if (reveal) ctx.reveal(rangeTarget(accesses[i]!.range));
  };
  chart.addEventListener('click', (e) => {
    const mark = (e.target as Element).closest('.tl-mark');
    if (mark) choose(Number(mark.getAttribute('data-index')), true);
  });
  section.append(h('h3', { class: 'subsection-title' }, 'In order'), list.element);
  return section;
}

/** 1, 2, 5, 10, 20, 50, … at least `min`. */
function niceStep(min: number): number {
  for (let p = 1; ; p *= 10) for (const m of [1, 2, 5]) if (m * p >= min) return m * p;
}
