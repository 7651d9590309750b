// A sortable, filterable table. Headers are buttons (click or Enter/Space sorts; again reverses),
// the filter keeps rows whose text has every word typed. Tables whose rows do something
// (`activate`) are ARIA grids with one row in the tab order: arrows, Home/End and
// PageUp/PageDown move between rows, Enter/Space or a click activates one, and the buttons in
// a row (a source line to reveal) are reachable with Tab from that row only. Big tables (fence
// files of a large launch) render their first rows and a button for more.
import { h, uid, type Child } from './dom';
import type { SortPref, TablePrefs } from './model';

export interface Column<T> {
  id: string;
  label: string;
  /** Header tooltip: what the column means. */
  description?: string;
  /** What the column sorts by, and its text unless `text` or `render` say otherwise. */
  value: (row: T) => string | number | boolean;
  text?: (row: T) => string;
  /** A cell with more than text (a button); its text for filtering still comes from `text`/`value`. */
  render?: (row: T) => Child;
  numeric?: boolean;
}

export interface TableOptions<T> {
  /** Names the table's saved preferences and its element ids. */
  id: string;
  /** Accessible name of the table; also the filter's label. */
  label: string;
  columns: Column<T>[];
  rows: T[];
  key: (row: T) => string;
  prefs: TablePrefs;
  onPrefs: (prefs: TablePrefs) => void;
  /** Enter, Space or a click on a row. */
  activate?: (row: T) => void;
  selected?: string | null;
  /** Shown when there are no rows at all. */
  empty: string;
  /** Said after the count, e.g. that only some of the tracked addresses are shown. */
  note?: string;
  filterPlaceholder?: string;
  /** A default sort when none is saved. */
  defaultSort?: SortPref;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
/** Rows rendered at first, and added by each "Show more". */
export const PAGE_ROWS = 500;

export function compareValues(a: string | number | boolean, b: string | number | boolean): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return collator.compare(String(a), String(b));
}

export class DataTable<T> {
  readonly element: HTMLElement;
  private readonly table: HTMLTableElement;
  private readonly body: HTMLTableSectionElement;
  private readonly count: HTMLElement;
  private readonly filter: HTMLInputElement;
  private readonly headers = new Map<string, HTMLTableCellElement>();
  private readonly texts: string[];
  private prefs: TablePrefs;
  /** The rows that pass the filter, sorted. */
  private visible: T[] = [];
  /** How many of them are rendered. */
  private limit = PAGE_ROWS;
  private readonly more: HTMLButtonElement;
  private rowByKey = new Map<string, HTMLTableRowElement>();
  /** The row in the tab order (interactive tables). */
  private current: string | null = null;
  private selected: string | null;

  constructor(private readonly options: TableOptions<T>) {
    this.prefs = { sort: options.prefs.sort ?? options.defaultSort ?? null, filter: options.prefs.filter ?? '' };
    this.selected = options.selected ?? null;
    this.texts = options.rows.map((row) => options.columns.map((c) => cellText(c, row)).join(' ').toLowerCase());
    const tableId = uid(`table-${options.id}`);
    const interactive = !!options.activate;

    this.filter = h('input', {
      type: 'search',
      class: 'filter',
      placeholder: options.filterPlaceholder ?? 'Filter',
      'aria-label': `Filter ${options.label}`,
      'aria-controls': tableId,
      spellcheck: 'false',
      onInput: () => this.setPrefs({ ...this.prefs, filter: this.filter.value }),
      onKeydown: (e: KeyboardEvent) => {
        if (e.key === 'Escape' && this.filter.value) {
          this.filter.value = '';
          this.setPrefs({ ...this.prefs, filter: '' });
          e.stopPropagation();
        }
      },
    });
    this.filter.value = this.prefs.filter;
    this.count = h('span', { class: 'count', role: 'status', 'aria-live': 'polite' });

    const headRow = h('tr');
    for (const column of options.columns) {
      const indicator = h('span', { class: 'sort-indicator', 'aria-hidden': 'true' });
      const button = h('button', { type: 'button', class: 'sort', title: column.description, onClick: () => this.sortBy(column.id) }, column.label, indicator);
      const th = h('th', { scope: 'col', class: column.numeric ? 'numeric' : undefined, 'data-column': column.id }, button);
      this.headers.set(column.id, th);
      headRow.append(th);
    }
    this.body = h('tbody');
    this.table = h(
      'table',
      { id: tableId, class: interactive ? 'data interactive' : 'data', role: interactive ? 'grid' : undefined, 'aria-label': options.label, 'aria-readonly': interactive ? 'true' : undefined },
      h('thead', null, headRow),
      this.body,
    );
    if (interactive) {
      this.body.addEventListener('keydown', (e) => this.onKey(e));
      this.body.addEventListener('click', (e) => this.onClick(e));
      this.body.addEventListener('focusin', (e) => {
        const row = (e.target as Element).closest('tr');
        if (row?.dataset.key !== undefined) this.setCurrent(row.dataset.key);
      });
    }
    const scroll = h('div', { class: 'table-scroll' }, this.table);
    this.more = h('button', {
      type: 'button',
      class: 'secondary more',
      onClick: () => {
        const first = this.rendered().length;
        this.limit += PAGE_ROWS;
        this.renderBody();
        const k = this.visible[first] && this.options.key(this.visible[first]);
        if (k !== undefined && interactive) this.focusRow(k);
      },
    });
    this.element = h(
      'div',
      { class: 'table-view', 'data-table': options.id },
      h('div', { class: 'table-toolbar' }, this.filter, this.count),
      options.rows.length ? scroll : h('p', { class: 'muted empty-table' }, options.empty),
      this.more,
    );
    this.renderBody();
  }

  /** Mark one row selected (or none), keeping it in the tab order. */
  setSelected(key: string | null, opts: { scroll?: boolean } = {}): void {
    if (this.selected !== null) this.rowByKey.get(this.selected)?.setAttribute('aria-selected', 'false');
    this.selected = key;
    if (key !== null && !this.rowByKey.has(key)) {
      // A row past the rendered ones (a timeline mark far along): render up to it.
      const at = this.visible.findIndex((r) => this.options.key(r) === key);
      if (at >= this.limit) {
        this.limit = (Math.floor(at / PAGE_ROWS) + 1) * PAGE_ROWS;
        this.renderBody();
      }
    }
    const row = key === null ? undefined : this.rowByKey.get(key);
    if (row && key !== null) {
      row.setAttribute('aria-selected', 'true');
      this.setCurrent(key);
      if (opts.scroll) row.scrollIntoView({ block: 'nearest' });
    }
  }

  focusRow(key: string): void {
    const row = this.rowByKey.get(key);
    if (!row) return;
    this.setCurrent(key);
    row.focus();
  }

  private setPrefs(prefs: TablePrefs): void {
    this.prefs = prefs;
    this.options.onPrefs(prefs);
    this.limit = PAGE_ROWS;
    this.renderBody();
  }

  private sortBy(column: string): void {
    const dir = this.prefs.sort?.column === column && this.prefs.sort.dir === 'asc' ? 'desc' : 'asc';
    this.setPrefs({ ...this.prefs, sort: { column, dir } });
  }

  private renderBody(): void {
    const { columns, rows, key } = this.options;
    const terms = this.prefs.filter.toLowerCase().split(/\s+/).filter(Boolean);
    let indices = rows.map((_, i) => i).filter((i) => terms.every((t) => this.texts[i]!.includes(t)));
    const sort = this.prefs.sort;
    const column = sort && columns.find((c) => c.id === sort.column);
    if (sort && column) {
      const sign = sort.dir === 'asc' ? 1 : -1;
      indices = indices.sort((a, b) => sign * compareValues(column.value(rows[a]!), column.value(rows[b]!)) || a - b);
    }
    for (const [id, th] of this.headers) {
      const on = sort?.column === id;
      th.setAttribute('aria-sort', on ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none');
      th.querySelector('.sort-indicator')!.textContent = on ? (sort.dir === 'asc' ? '▲' : '▼') : '';
    }

    this.visible = indices.map((i) => rows[i]!);
    this.rowByKey = new Map();
    const interactive = !!this.options.activate;
    const fragment = document.createDocumentFragment();
    for (const row of this.rendered()) {
      const k = key(row);
      const tr = h('tr', { 'data-key': k });
      if (interactive) {
        tr.tabIndex = -1;
        tr.setAttribute('aria-selected', String(k === this.selected));
      }
      for (const c of columns) tr.append(h('td', { class: c.numeric ? 'numeric' : undefined }, c.render ? c.render(row) : cellText(c, row)));
      // Buttons in rows other than the current one stay out of the tab order.
      if (interactive) tr.querySelectorAll<HTMLElement>('button, a').forEach((b) => (b.tabIndex = -1));
      this.rowByKey.set(k, tr);
      fragment.append(tr);
    }
    this.body.replaceChildren(fragment);
    if (!this.visible.length && rows.length) {
      this.body.append(h('tr', { class: 'no-match' }, h('td', { colspan: columns.length, class: 'muted' }, 'No rows match the filter.')));
    }
    if (interactive) {
      const keep = [this.current, this.selected].find((k): k is string => k !== null && this.rowByKey.has(k)) ?? (this.visible[0] ? key(this.visible[0]) : null);
      this.current = null;
      if (keep !== null) this.setCurrent(keep);
    }
    const rendered = this.rendered().length;
    let shown = this.visible.length === rows.length ? `${rows.length} ${rows.length === 1 ? 'row' : 'rows'}` : `${this.visible.length} of ${rows.length}`;
    if (rendered < this.visible.length) shown += ` (first ${rendered} shown)`;
    const hidden = this.visible.length - rendered;
    this.more.hidden = hidden <= 0;
    this.more.textContent = hidden <= PAGE_ROWS ? `Show the other ${hidden} ${hidden === 1 ? 'row' : 'rows'}` : `Show ${PAGE_ROWS} more (${hidden} not shown)`;
    this.count.textContent = this.options.note ? `${shown} · ${this.options.note}` : shown;
  }

  private rendered(): T[] {
    return this.visible.length > this.limit ? this.visible.slice(0, this.limit) : this.visible;
  }

  private setCurrent(key: string): void {
    if (this.current === key) return;
    const old = this.current === null ? undefined : this.rowByKey.get(this.current);
    if (old) {
      old.tabIndex = -1;
      old.querySelectorAll<HTMLElement>('button, a').forEach((b) => (b.tabIndex = -1));
    }
    const row = this.rowByKey.get(key);
    this.current = row ? key : null;
    if (row) {
      row.tabIndex = 0;
      row.querySelectorAll<HTMLElement>('button, a').forEach((b) => (b.tabIndex = 0));
    }
  }

  private onClick(e: MouseEvent): void {
    const target = e.target as Element;
    if (target.closest('button, a, input')) return;
    const row = target.closest('tr');
    const k = row?.dataset.key;
    if (k === undefined) return;
    this.setCurrent(k);
    const item = this.rendered().find((r) => this.options.key(r) === k);
    if (item) this.options.activate?.(item);
  }

  private onKey(e: KeyboardEvent): void {
    const row = e.target as HTMLElement;
    // Keys on a button inside a row are the button's.
    if (row.tagName !== 'TR' || row.dataset.key === undefined) return;
    const shown = this.rendered();
    const keys = shown.map((r) => this.options.key(r));
    const at = keys.indexOf(row.dataset.key);
    const page = Math.max(1, Math.floor(((row.closest('.table-scroll') as HTMLElement | null)?.clientHeight ?? 300) / Math.max(1, row.offsetHeight)) - 1);
    let to: number | undefined;
    switch (e.key) {
      case 'ArrowDown':
        to = Math.min(keys.length - 1, at + 1);
        break;
      case 'ArrowUp':
        to = Math.max(0, at - 1);
        break;
      case 'Home':
        to = 0;
        break;
      case 'End':
        to = keys.length - 1;
        break;
      case 'PageDown':
        to = Math.min(keys.length - 1, at + page);
        break;
      case 'PageUp':
        to = Math.max(0, at - page);
        break;
      case 'Enter':
      case ' ': {
        e.preventDefault();
        const item = shown[at];
        if (item) this.options.activate?.(item);
        return;
      }
      default:
        return;
    }
    e.preventDefault();
    const k = keys[to];
    if (k !== undefined) this.focusRow(k);
  }
}

function cellText<T>(c: Column<T>, row: T): string {
  if (c.text) return c.text(row);
  const v = c.value(row);
  return typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v);
}
