// The inspector page: a header (file, run facts, Refresh), then either an empty state or tabs
// for races, metadata (with the timeline of the selected address), fence files, lock tables
// and barrier IDs, and the histogram of the last litmus run when there is one. Everything it
// shows comes from ToWebview messages; everything it asks goes out as FromWebview messages;
// what it shows and how survives a reload via setState.
import { h } from './dom';
import { basename, clockTime } from './format';
import { launchText, type InspectorEntry, type InspectorState, type PublicFinding } from '../../server/wire';
import type { FromWebview, RevealTarget, ToWebview } from './messages';
import { isToWebview, restore, type Persisted, type StateMessage, type TabId, type TablePrefs } from './model';
import { Tabs, type TabSpec } from './tabs';
import type { HostApi } from './vscode';
import { barriersView } from './views/barriers';
import { fencedFiles, fencesView } from './views/fences';
import { LitmusView } from './views/litmus';
import { locksView } from './views/locks';
import { metadataTable } from './views/metadata';
import { RacesView } from './views/races';
import { timelineView } from './views/timeline';
import type { DataTable } from './table';

/** Filter typing is saved this long after the last key (a saved state can be large). */
const SAVE_DELAY_MS = 250;

export class InspectorApp {
  private ui: Persisted;
  private readonly header = h('header', { class: 'toolbar' });
  private readonly main = h('main', { class: 'content' });
  private tabs: Tabs<TabId> | null = null;
  private races: RacesView | null = null;
  private metadata: DataTable<InspectorEntry> | null = null;
  private timelineHost: HTMLElement | null = null;
  /** The address an inspectAddress was posted for and not yet answered. */
  private pending: string | null = null;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    root: HTMLElement,
    private readonly host: HostApi<Persisted>,
  ) {
    this.ui = restore(host.getState());
    root.replaceChildren(this.header, this.main);
    this.render();
    window.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (isToWebview(event.data)) this.receive(event.data);
    });
    // A filter typed just before the webview is torn down is still saved.
    window.addEventListener('pagehide', () => {
      if (this.saveTimer !== undefined) this.save(true);
    });
    this.post({ type: 'ready' });
  }

  receive(msg: ToWebview): void {
    switch (msg.type) {
      case 'state': {
        const sameFile = this.ui.file === msg.file;
        const { trace, ...state } = msg.state ?? ({} as InspectorState);
        const message: StateMessage = { ...msg, state: msg.state ? (state as InspectorState) : null };
        if (!sameFile) {
          this.ui.selectedAddress = null;
          this.ui.selectedFinding = null;
          this.ui.trace = null;
          this.ui.traceVersion = null;
          this.pending = null;
          if (this.ui.litmus?.file !== msg.file) {
            this.ui.litmus = null;
            this.ui.selectedOutcome = null;
          }
        }
        this.ui.view = { kind: 'state', message };
        this.ui.file = msg.file;
        // A run made with a trace carries it: that is the freshest trace there is.
        if (trace && (this.ui.selectedAddress === null || this.ui.selectedAddress === trace.address)) {
          this.ui.trace = { type: 'trace', file: msg.file, address: trace.address, accesses: trace.accesses, truncated: trace.truncated };
          this.ui.traceVersion = msg.version;
          this.ui.selectedAddress = trace.address;
          if (this.pending === trace.address) this.pending = null;
        }
        if (this.ui.selectedFinding !== null && this.ui.selectedFinding >= msg.findings.length) this.ui.selectedFinding = null;
        this.save(true);
        this.render();
        return;
      }
      case 'trace': {
        if (this.ui.file !== null && msg.file !== this.ui.file) return;
        this.ui.trace = msg;
        this.ui.traceVersion = this.currentVersion();
        this.ui.selectedAddress = msg.address;
        if (this.pending === msg.address) this.pending = null;
        this.metadata?.setSelected(msg.address);
        this.save(true);
        this.renderTimeline();
        return;
      }
      case 'litmus': {
        const fresh = this.ui.litmus?.id !== msg.id;
        if (this.ui.file !== msg.file) {
          this.ui.file = msg.file;
          this.ui.selectedAddress = null;
          this.ui.selectedFinding = null;
          this.ui.trace = null;
          this.ui.traceVersion = null;
          this.pending = null;
          // The detector's state on screen is another file's: it goes, the histogram stays.
          if (this.ui.view?.kind === 'state') this.ui.view = null;
        }
        this.ui.litmus = msg;
        if (fresh) {
          // A new run: its tab comes to the front with the declared outcome's witness, if seen.
          this.ui.tab = 'litmus';
          this.ui.selectedOutcome = msg.report.outcomes.find((o) => o.declared && o.count > 0)?.outcome ?? null;
        } else if (!msg.report.outcomes.some((o) => o.outcome === this.ui.selectedOutcome)) this.ui.selectedOutcome = null;
        this.save(true);
        this.render();
        return;
      }
      case 'select': {
        this.ui.selectedFinding = msg.finding;
        this.ui.tab = 'races';
        this.save(true);
        this.tabs?.select('races');
        this.races?.highlight(msg.finding, true);
        return;
      }
      case 'empty': {
        this.ui.view = { kind: 'empty', reason: msg.reason };
        this.pending = null;
        this.save(true);
        this.render();
        return;
      }
    }
  }

  private post(msg: FromWebview): void {
    this.host.postMessage(msg);
  }

  private save(now = false): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (now) this.host.setState(this.ui);
    else this.saveTimer = setTimeout(() => this.save(true), SAVE_DELAY_MS);
  }

  private currentVersion(): number | null {
    return this.ui.view?.kind === 'state' ? this.ui.view.message.version : null;
  }

  private prefs(id: string): TablePrefs {
    return this.ui.tables[id] ?? { sort: null, filter: '' };
  }

  private setPrefs(id: string, prefs: TablePrefs): void {
    const old = this.ui.tables[id];
    this.ui.tables[id] = prefs;
    // Sorting is saved at once; typing in a filter after a pause.
    this.save(old?.sort?.column !== prefs.sort?.column || old?.sort?.dir !== prefs.sort?.dir);
  }

  private reveal = (target: RevealTarget): void => this.post({ type: 'reveal', target });

  private inspect = (address: string): void => {
    this.ui.selectedAddress = address;
    this.metadata?.setSelected(address);
    this.pending = address;
    this.save(true);
    this.post({ type: 'inspectAddress', address });
    this.renderTimeline();
  };

  /** Render everything again, keeping scroll positions and the focused row or control. */
  private render(): void {
    const kept = captureView(this.main);
    this.renderPage();
    restoreView(this.main, kept);
  }

  private renderPage(): void {
    this.renderHeader();
    this.tabs = null;
    this.races = null;
    this.metadata = null;
    this.timelineHost = null;
    const view = this.ui.view;
    const hasState = view?.kind === 'state' && !!view.message.state;
    if (!hasState && this.ui.litmus) {
      // A litmus run needs no detector state: its histogram shows on its own.
      const note = view?.kind === 'empty' ? view.reason : 'The race detector has not run this file yet.';
      this.tabs = new Tabs<TabId>([this.litmusTab()], 'litmus', () => undefined);
      this.main.replaceChildren(h('p', { class: 'muted intro' }, note), this.tabs.element);
      return;
    }
    if (!view) {
      this.main.replaceChildren(emptyView('No run yet', 'Open a CUDA file and let ScoRD check it (or press Refresh) to see its races and the detector’s metadata here.'));
      return;
    }
    if (view.kind === 'empty') {
      this.main.replaceChildren(emptyView('Nothing to inspect', view.reason));
      return;
    }
    const { message } = view;
    if (!message.state) {
      this.main.replaceChildren(emptyView('No run yet', `ScoRD has not run ${basename(message.file)} yet. Press Refresh to run it.`));
      return;
    }
    this.renderState(message.state, message.findings);
  }

  private renderHeader(): void {
    const view = this.ui.view;
    const message = view?.kind === 'state' ? view.message : null;
    const facts: string[] = [];
    if (message) {
      // "run of 21:04:13, 15 ms": when the shown run ended and how long it took (a document
      // version number means nothing to a reader).
      const when = message.finishedAt !== null ? `run of ${clockTime(message.finishedAt)}` : message.version !== null ? 'last run' : null;
      const took = message.elapsedMs !== null ? `${Math.round(message.elapsedMs)} ms` : null;
      if (when || took) facts.push([when, took].filter(Boolean).join(', '));
      // The launch the state comes from, with its arguments (and how many others the run made).
      const launched = message.launched ?? [];
      if (launched.length) facts.push(`${launchText(launched[0])}${launched.length > 1 ? ` and ${launched.length - 1} more launch${launched.length === 2 ? '' : 'es'}` : ''}`);
      if (message.state) {
        facts.push(message.state.precision === 'hardware-faithful' ? 'hardware-faithful' : 'exact metadata');
        facts.push(`${message.state.granularity}-byte entries`);
      }
    }
    this.header.replaceChildren(
      h(
        'div',
        { class: 'title' },
        h('h1', null, 'ScoRD metadata', message ? h('span', { class: 'file', title: message.file }, ` — ${basename(message.file)}`) : null),
        facts.length ? h('p', { class: 'facts muted' }, facts.join(' · ')) : null,
      ),
      h('button', { type: 'button', class: 'primary refresh', title: 'Run the analysis again', onClick: () => this.post({ type: 'refresh' }) }, 'Refresh'),
    );
  }

  private renderState(state: InspectorState, findings: PublicFinding[]): void {
    const races = new RacesView(findings, {
      reveal: this.reveal,
      inspect: (address) => {
        this.tabs?.select('metadata', true);
        this.inspect(address);
        this.timelineHost?.scrollIntoView({ block: 'start' });
      },
      select: (index) => {
        this.ui.selectedFinding = index;
        this.save(true);
        races.highlight(index);
      },
    });
    this.races = races;
    const metadata = metadataTable(state, {
      prefs: this.prefs('metadata'),
      onPrefs: (p) => this.setPrefs('metadata', p),
      selected: this.ui.selectedAddress,
      inspect: this.inspect,
      reveal: this.reveal,
    });
    this.metadata = metadata;
    this.timelineHost = h('div', { class: 'timeline-host' });
    const metadataPanel = h(
      'div',
      { class: 'view metadata' },
      state.precision === 'hardware-faithful' ? h('p', { class: 'muted intro' }, 'Hardware-faithful: one entry per 16 words, 6-bit fence IDs, 8-bit barrier IDs and a Bloom-filter lockset.') : null,
      metadata.element,
      this.timelineHost,
    );
    const raceCount = findings.filter((f) => f.kind === 'race').length;
    const lockCount = state.lockTables.reduce((n, t) => n + t.locks.length, 0);
    this.tabs = new Tabs<TabId>(
      [
        { id: 'races', label: 'Races', count: raceCount, panel: h('div', null, races.element) },
        { id: 'metadata', label: 'Metadata', count: state.entriesTotal, panel: metadataPanel },
        { id: 'fences', label: 'Fences', count: fencedFiles(state).length, panel: h('div', null, fencesView(state, this.prefs('fences'), (p) => this.setPrefs('fences', p))) },
        { id: 'locks', label: 'Locks', count: lockCount, panel: h('div', null, locksView(state, this.prefs('locks'), (p) => this.setPrefs('locks', p), this.reveal)) },
        { id: 'barriers', label: 'Barriers', count: state.barriers.length, panel: h('div', null, barriersView(state, this.prefs('barriers'), (p) => this.setPrefs('barriers', p))) },
        ...(this.ui.litmus ? [this.litmusTab()] : []),
      ],
      this.ui.tab,
      (id) => {
        this.ui.tab = id;
        this.save(true);
      },
    );
    this.main.replaceChildren(this.tabs.element);
    this.renderTimeline();
    if (this.ui.selectedFinding !== null) races.highlight(this.ui.selectedFinding);
  }

  private litmusTab(): TabSpec<TabId> {
    const message = this.ui.litmus!;
    const view = new LitmusView(message, this.ui.selectedOutcome, {
      reveal: this.reveal,
      select: (outcome) => {
        this.ui.selectedOutcome = outcome;
        this.save(true);
      },
    });
    return { id: 'litmus', label: 'Litmus', count: message.report.outcomes.filter((o) => o.count > 0).length, panel: h('div', null, view.element) };
  }

  private renderTimeline(): void {
    if (!this.timelineHost) return;
    const address = this.ui.selectedAddress;
    const version = this.currentVersion();
    this.timelineHost.replaceChildren(
      timelineView({
        address,
        trace: this.ui.trace,
        stale: this.ui.trace !== null && this.ui.traceVersion !== version,
        pending: address !== null && this.pending === address,
        prefs: this.prefs('trace'),
        onPrefs: (p) => this.setPrefs('trace', p),
        reveal: this.reveal,
        load: this.inspect,
      }),
    );
  }
}

interface ViewMemory {
  y: number;
  scrolls: Map<string, [number, number]>;
  focus: { id: string } | { table: string; key: string } | null;
}

/** Where the reader was: each table's scroll, the page's, and what had focus. */
function captureView(root: HTMLElement): ViewMemory {
  const scrolls = new Map<string, [number, number]>();
  root.querySelectorAll<HTMLElement>('[data-table]').forEach((t) => {
    const s = t.querySelector<HTMLElement>('.table-scroll');
    if (s && t.dataset.table) scrolls.set(t.dataset.table, [s.scrollTop, s.scrollLeft]);
  });
  const active = document.activeElement as HTMLElement | null;
  let focus: ViewMemory['focus'] = null;
  if (active && root.contains(active)) {
    const table = active.closest<HTMLElement>('[data-table]')?.dataset.table;
    if (active.id) focus = { id: active.id };
    else if (table && active.tagName === 'TR' && active.dataset.key !== undefined) focus = { table, key: active.dataset.key };
  }
  return { y: window.scrollY, scrolls, focus };
}

function restoreView(root: HTMLElement, m: ViewMemory): void {
  for (const [id, [top, left]] of m.scrolls) {
    const s = root.querySelector<HTMLElement>(`[data-table="${CSS.escape(id)}"] .table-scroll`);
    if (s) {
      s.scrollTop = top;
      s.scrollLeft = left;
    }
  }
  window.scrollTo(0, m.y);
  if (!m.focus) return;
  const el =
    'id' in m.focus
      ? document.getElementById(m.focus.id)
      : root.querySelector<HTMLElement>(`[data-table="${CSS.escape(m.focus.table)}"] tr[data-key="${CSS.escape(m.focus.key)}"]`);
  if (el && !el.closest('[hidden]')) {
    // The row becomes its table's tab stop through the table's focusin handler.
    el.focus({ preventScroll: true });
  }
}

function emptyView(title: string, reason: string): HTMLElement {
  return h('div', { class: 'empty-state', role: 'status' }, h('h2', null, title), h('p', { class: 'reason' }, reason));
}
