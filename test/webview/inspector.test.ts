// The metadata inspector webview on its own, in headless chromium under the host's strict CSP,
// driven by the messages the extension sends (made by running the real engine on CUDA files)
// and checked through what it renders and what it posts back.
//
//   node --import tsx --test test/webview/*.test.ts
//
// Needs Debian's chromium at /usr/bin/chromium (apt-get install -y chromium) or CHROMIUM_PATH.
import { after, before, describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkSource, publicReport, type PublicFinding } from '../../sims/check';
import type { ToWebview } from '../../client/webview/messages';
import { CHROMIUM, Harness, ROOT } from './harness';
import { THEMES } from './themes';

type StateMessage = Extract<ToWebview, { type: 'state' }>;
type TraceMessage = Extract<ToWebview, { type: 'trace' }>;

const ARTIFACTS = path.join(ROOT, 'test/webview/artifacts');

/** What the host sends after a run of `file` with the inspector open: state, then the trace. */
/** When the runs below "ended", in the page's time zone (the header says "run of 21:04:13"). */
const RUN_ENDED = new Date(2026, 10, 24, 21, 4, 13).getTime();

function run(relative: string, opts: { hardwareFaithful?: boolean; version: number; trace?: string }): { state: StateMessage; trace: TraceMessage | null } {
  const file = path.join(ROOT, relative);
  const t0 = performance.now();
  const report = checkSource({ fileName: file, text: readFileSync(file, 'utf8'), hardwareFaithful: !!opts.hardwareFaithful, inspect: opts.trace ? { trace: opts.trace } : {} });
  const elapsedMs = performance.now() - t0;
  assert.ok(report.state, `${relative}: the run kept no detector state`);
  const { trace, ...state } = report.state;
  return {
    state: { type: 'state', file, version: opts.version, state, findings: publicReport(report).findings, elapsedMs, finishedAt: RUN_ENDED },
    trace: trace ? { type: 'trace', file, address: trace.address, accesses: trace.accesses, truncated: trace.truncated } : null,
  };
}

const demo = run('test/webview/fixtures/inspector-demo.cu', { version: 7, trace: 'counter' });
const demoFaithful = run('test/webview/fixtures/inspector-demo.cu', { version: 8, hardwareFaithful: true });
const counter = run('examples/scoped-counter.cu', { version: 1, trace: 'counter' });

const h = new Harness();
const page = () => h.page;

async function keys(selector: string): Promise<string[]> {
  return page().$$eval(selector, (rows) => rows.map((r) => (r as HTMLElement).dataset.key ?? ''));
}

async function count(selector: string): Promise<number> {
  return page().$$eval(selector, (els) => els.length);
}

async function computed(selector: string, property: string): Promise<string> {
  return page().$eval(selector, (el, p) => getComputedStyle(el).getPropertyValue(p), property);
}

async function activeElementMatches(selector: string): Promise<boolean> {
  return page().evaluate((s) => !!document.activeElement?.matches(s), selector);
}

function raceIndices(findings: PublicFinding[]): number[] {
  return findings.flatMap((f, i) => (f.kind === 'race' ? [i] : []));
}

// Said first and on its own, so a missing browser is not buried under the cancelled tests.
test('chromium is installed for the webview tests', () => {
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM}. Install it with \`apt-get update && apt-get install -y chromium\` (or set CHROMIUM_PATH).`);
});

describe('metadata inspector webview', () => {
  const started = performance.now();
  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    await h.start();
  });
  after(async () => {
    await h.stop();
    console.log(`# webview test: ${((performance.now() - started) / 1000).toFixed(1)} s in all`);
  });

  it('the engine gave realistic data: several races, entries, fence files, locks, barriers and a trace', () => {
    assert.ok(raceIndices(demo.state.findings).length >= 3);
    const s = demo.state.state!;
    assert.ok(s.entries.length >= 5 && s.fenceFiles.length > 10 && s.lockTables.length >= 1 && s.barriers.length === 4);
    assert.ok(demo.trace && demo.trace.accesses.length > 20);
    assert.ok(demoFaithful.state.state!.entries.every((e) => e.flags));
  });

  it('before any run it shows the empty state and says it is ready', async () => {
    assert.match(await page().textContent('.empty-state') ?? '', /No run yet/);
    assert.deepEqual(await h.posted(), [{ type: 'ready' }]);
    await page().click('button.refresh');
    assert.deepEqual(await h.lastPosted(), { type: 'refresh' });
  });

  it('renders the races with category, scope, message and both accesses with their threads', async () => {
    await h.clearPosted();
    await h.send(demo.state);
    assert.match((await page().textContent('header h1')) ?? '', /inspector-demo\.cu/);
    assert.match((await page().textContent('header .facts')) ?? '', /^run of 21:04:13, \d+ ms · exact metadata · 4-byte entries$/);
    const races = raceIndices(demo.state.findings);
    assert.equal(await page().textContent('#tab-races .badge'), String(races.length));
    assert.equal(await page().textContent('#tab-metadata .badge'), String(demo.state.state!.entriesTotal));
    assert.equal((await count('.race-list > li.race')), races.length);
    for (const i of races) {
      const f = demo.state.findings[i]!;
      const card = `#finding-${i}`;
      const text = (await page().textContent(card)) ?? '';
      assert.ok(text.includes(f.message.replace(/`/g, '')), `card ${i} shows the message`);
      assert.equal(await page().textContent(`${card} .badge.scope`), `${f.scope} scope`);
      const current = (await page().textContent(`${card} [data-access=current]`)) ?? '';
      assert.ok(current.includes(`line ${f.location.line}, col ${f.location.column}`) && current.includes(`block ${f.accessor!.block} · warp ${f.accessor!.warp} · lane ${f.accessor!.lane}`), current);
      const earlier = (await page().textContent(`${card} [data-access=earlier]`)) ?? '';
      const p = f.previousAccessor!;
      assert.ok(earlier.includes(`line ${f.related[0]!.location.line}`) && earlier.includes(`block ${p.block} · warp ${p.warp} · lane ${p.lane}`), earlier);
    }
    const categories = await page().$$eval('.race .badge.category', (b) => b.map((x) => x.textContent));
    assert.deepEqual(categories.sort(), ['Lock scope', 'Missing device fence', 'Scoped atomic']);
    // The lock-scope race also points at the block-scope atomicCAS and atomicExch, the
    // missing-device-fence one at its block-scope fence.
    assert.equal((await count('.race [data-access=related]')), 3);
    const related = await page().$$eval('.race [data-access=related]', (r) => r.map((x) => x.textContent ?? ''));
    assert.ok(related.some((t) => t.includes('lock is taken')) && related.some((t) => t.includes('lock is released')) && related.some((t) => t.includes('__threadfence_block()')), related.join(' | '));
  });

  it('clicking an access posts reveal with its 0-based place', async () => {
    const i = raceIndices(demo.state.findings)[0]!;
    const f = demo.state.findings[i]!;
    await h.clearPosted();
    await page().click(`#finding-${i} [data-access=current]`);
    assert.deepEqual(await h.lastPosted(), { type: 'reveal', target: { file: f.location.file, line: f.location.line - 1, character: f.location.column - 1 } });
    await page().click(`#finding-${i} [data-access=earlier]`);
    const e = f.related[0]!.location;
    assert.deepEqual(await h.lastPosted(), { type: 'reveal', target: { file: e.file, line: e.line - 1, character: e.column - 1 } });
  });

  it('the metadata table has a row per tracked address with the last access and its IDs', async () => {
    await page().click('#tab-metadata');
    assert.equal(await page().getAttribute('#tab-metadata', 'aria-selected'), 'true');
    assert.equal(await page().isVisible('#panel-races'), false);
    const entries = demo.state.state!.entries;
    assert.deepEqual(await keys('[data-table=metadata] tbody tr'), entries.map((e) => e.address));
    assert.equal(await page().textContent('[data-table=metadata] .count'), `${entries.length} rows`);
    const headers = await page().$$eval('[data-table=metadata] th', (t) => t.map((x) => x.textContent!.trim()));
    assert.deepEqual(headers, ['Address', 'Last access', 'Block', 'Warp', 'Lane', 'Barrier ID', 'Block fence', 'Device fence', 'Strong', 'Lockset', 'Last write', 'Line']);
    const total = entries.find((e) => e.address === 'total')!;
    const cells = await page().$$eval('[data-table=metadata] tr[data-key="total"] td', (t) => t.map((x) => x.textContent));
    assert.deepEqual(cells.slice(0, 10), [
      'total',
      total.last.access,
      String(total.last.accessor.block),
      String(total.last.accessor.warp),
      String(total.last.accessor.lane),
      String(total.last.barrierId),
      String(total.last.blockFenceId),
      String(total.last.deviceFenceId),
      'yes',
      total.last.locks.join(', '),
    ]);
    assert.match(total.last.locks.join(), /^L \(block \d\)$/);
    assert.equal(await page().getAttribute('[data-table=metadata] table', 'role'), 'grid');
  });

  it('sorts by any column: a header click sorts, a second reverses', async () => {
    const addresses = demo.state.state!.entries.map((e) => e.address);
    const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
    await page().click('[data-table=metadata] th[data-column=address] button');
    assert.equal(await page().getAttribute('[data-table=metadata] th[data-column=address]', 'aria-sort'), 'ascending');
    assert.deepEqual(await keys('[data-table=metadata] tbody tr'), [...addresses].sort(collator.compare));
    await page().click('[data-table=metadata] th[data-column=address] button');
    assert.equal(await page().getAttribute('[data-table=metadata] th[data-column=address]', 'aria-sort'), 'descending');
    assert.deepEqual(await keys('[data-table=metadata] tbody tr'), [...addresses].sort(collator.compare).reverse());
    // A numeric column sorts as numbers; the other headers say they are not the sort.
    await page().click('[data-table=metadata] th[data-column=blockFence] button');
    const fences = await page().$$eval('[data-table=metadata] tbody tr', (rows) => rows.map((r) => Number(r.children[6]!.textContent)));
    assert.deepEqual(fences, [...fences].sort((a, b) => a - b));
    assert.equal(await page().getAttribute('[data-table=metadata] th[data-column=address]', 'aria-sort'), 'none');
    await page().click('[data-table=metadata] th[data-column=address] button');
  });

  it('filters rows by text', async () => {
    await page().fill('[data-table=metadata] input.filter', 'total');
    assert.deepEqual(await keys('[data-table=metadata] tbody tr'), ['total']);
    assert.equal(await page().textContent('[data-table=metadata] .count'), `1 of ${demo.state.state!.entries.length}`);
    await page().fill('[data-table=metadata] input.filter', 'read strong:no');
    assert.equal((await page().textContent('[data-table=metadata] tbody')) ?? '', 'No rows match the filter.');
    await page().fill('[data-table=metadata] input.filter', 'ATOMICADD');
    assert.deepEqual(await keys('[data-table=metadata] tbody tr'), ['counter'], 'case does not matter');
    // Every word must match, in any column: written, under a block-scope lock.
    await page().fill('[data-table=metadata] input.filter', 'write block');
    const entries = demo.state.state!.entries;
    const expected = entries.filter((e) => e.last.access === 'write' && e.last.locks.some((l) => l.includes('block'))).map((e) => e.address);
    assert.deepEqual(expected, ['total']);
    assert.deepEqual(await keys('[data-table=metadata] tbody tr'), expected);
    await page().fill('[data-table=metadata] input.filter', '');
    assert.equal((await keys('[data-table=metadata] tbody tr')).length, demo.state.state!.entries.length);
  });

  it('selecting an address posts inspectAddress, and the trace renders as a timeline and a list', async () => {
    await h.clearPosted();
    await page().click('[data-table=metadata] tr[data-key="counter"] td:first-child');
    assert.deepEqual(await h.posted(), [{ type: 'inspectAddress', address: 'counter' }]);
    assert.equal(await page().getAttribute('[data-table=metadata] tr[data-key="counter"]', 'aria-selected'), 'true');
    assert.match((await page().textContent('.timeline')) ?? '', /Tracing the accesses to counter/);

    const trace = demo.trace!;
    await h.send(trace);
    const n = trace.accesses.length;
    assert.equal((await count('.tl-svg .tl-mark')), n);
    assert.equal((await count('.tl-svg .tl-mark.atomic')), n, 'atomicAdd_block is drawn as atomic');
    const rows = new Set(trace.accesses.map((a) => `block ${a.accessor.block} · warp ${a.accessor.warp}`));
    const labels = await page().$$eval('.tl-labels .tl-label:not(.tl-axis-label)', (l) => l.map((x) => x.textContent));
    assert.deepEqual(new Set(labels), rows);
    assert.match((await page().textContent('.timeline .summary')) ?? '', new RegExp(`^${n} accesses by 4 blocks in ${rows.size} warps`));
    assert.equal((await count('[data-table=trace] tbody tr')), n);
    // Marks are placed in order: x grows with the access's position.
    const xs = await page().$$eval('.tl-mark', (m) => m.map((r) => Number(r.getAttribute('x'))));
    assert.deepEqual(xs, [...xs].sort((a, b) => a - b));
    // Clicking a mark selects its row in the list and reveals the access.
    await h.clearPosted();
    await page().click('.tl-mark[data-index="5"]');
    assert.equal(await page().getAttribute('[data-table=trace] tr[data-key="5"]', 'aria-selected'), 'true');
    const a = trace.accesses[5]!;
    assert.deepEqual(await h.lastPosted(), { type: 'reveal', target: { file: a.range.file, line: a.range.start.line, character: a.range.start.character } });
  });

  it('select scrolls to and highlights a race', async () => {
    await page().setViewportSize({ width: 1100, height: 420 });
    const last = raceIndices(demo.state.findings).at(-1)!;
    await h.send({ type: 'select', finding: last });
    assert.equal(await page().getAttribute('#tab-races', 'aria-selected'), 'true');
    assert.equal(await page().getAttribute(`#finding-${last}`, 'aria-current'), 'true');
    assert.ok(await page().$eval(`#finding-${last}`, (e) => e.classList.contains('highlighted')));
    assert.ok(await activeElementMatches(`#finding-${last}`), 'the race has focus');
    const inView = await page().$eval(`#finding-${last}`, (e) => {
      const r = e.getBoundingClientRect();
      return r.top >= 0 && r.top < window.innerHeight;
    });
    assert.ok(inView, 'the race is scrolled into view');
    assert.equal(await page().$$eval('.race.highlighted', (e) => e.length), 1);
    await page().setViewportSize({ width: 1100, height: 720 });
  });

  it('in a narrow panel the tabs stay on one row and a wide table scrolls sideways, its first column in view', async () => {
    await h.send(demo.state);
    await page().setViewportSize({ width: 420, height: 720 });
    try {
      const tops = await page().$$eval('.tablist .tab', (t) => t.map((x) => Math.round(x.getBoundingClientRect().top)));
      assert.ok(tops.length >= 5, String(tops.length));
      assert.equal(new Set(tops).size, 1, `tabs on ${new Set(tops).size} rows`);
      await page().click('#tab-metadata');
      const scroller = '[data-table=metadata] .table-scroll';
      const widths = await page().$eval(scroller, (e) => [e.scrollWidth, e.clientWidth]);
      assert.ok(widths[0] > widths[1], `the table (${widths[0]} px) is wider than its frame (${widths[1]} px)`);
      await page().$eval(scroller, (e) => (e.scrollLeft = 150));
      const [frameLeft, cellLeft] = await page().$eval(scroller, (e) => [e.getBoundingClientRect().left, e.querySelector('tbody tr td')!.getBoundingClientRect().left]);
      assert.ok(Math.abs(cellLeft - frameLeft) <= 2, `the first column stays at the frame's edge (${cellLeft} vs ${frameLeft})`);
    } finally {
      await page().setViewportSize({ width: 1100, height: 720 });
    }
  });

  it('colours come from the theme variables, with high-contrast borders', async () => {
    for (const theme of ['light', 'dark', 'high-contrast'] as const) {
      await h.applyTheme(theme);
      const v = THEMES[theme];
      assert.equal(await computed('body', 'background-color'), v['--vscode-editor-background'], `${theme}: body background`);
      assert.equal(await computed('body', 'color'), v['--vscode-foreground'], `${theme}: body text`);
      assert.equal(await computed('button.refresh', 'background-color'), v['--vscode-button-background'], `${theme}: button`);
      assert.equal(await computed('.race.card:not(.highlighted)', 'background-color'), v['--vscode-editorWidget-background'], `${theme}: card`);
      assert.equal(await computed('.tab[aria-selected=true]', 'border-bottom-color'), v['--vscode-panelTitle-activeBorder'], `${theme}: active tab`);
      assert.equal(await computed('.tl-mark.atomic', 'fill'), v['--vscode-charts-purple'], `${theme}: atomic mark`);
      assert.equal(await computed('.race.card:not(.highlighted)', 'border-top-color'), theme === 'high-contrast' ? v['--vscode-contrastBorder'] : v['--vscode-panel-border'], `${theme}: card border`);
      assert.equal(await computed('.tab[aria-selected=true]', 'outline-style'), theme === 'high-contrast' ? 'solid' : 'none', `${theme}: active tab outline`);
      if (theme === 'high-contrast') {
        assert.equal(await computed('.tab[aria-selected=true]', 'outline-color'), v['--vscode-contrastActiveBorder']);
        assert.equal(await computed('.tl-mark.atomic', 'stroke'), v['--vscode-contrastBorder']);
      }
    }
    // The stylesheet names no colour of its own.
    const css = readFileSync(path.join(ROOT, 'client/webview/inspector.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    const decls = [...css.matchAll(/([\w-]+)\s*:\s*([^;{}]+);/g)].filter(([, p]) => /^(color|background(-color)?|border(-(top|right|bottom|left))?(-color)?|outline(-color)?|fill|stroke)$/.test(p!));
    assert.ok(decls.length > 50);
    for (const [, prop, value] of decls) {
      const rest = value!.replace(/var\(--vscode-[\w-]+(?:,\s*(?:transparent|var\(--vscode-[\w-]+\)))?\)/g, '').trim();
      for (const word of rest.split(/\s+/).filter(Boolean)) {
        assert.match(word, /^(-?[\d.]+(px|em|%)?|solid|dashed|none|transparent|inherit|currentColor)$/, `${prop}: ${value} uses a colour that is not a theme variable`);
      }
    }
    const used = new Set([...css.matchAll(/var\((--vscode-[\w-]+)/g)].map((m) => m[1]!));
    const defined = new Set(Object.keys(THEMES['high-contrast']));
    assert.deepEqual([...used].filter((u) => !defined.has(u)), [], 'every variable the CSS uses is one VS Code defines (in the high-contrast theme at least)');
  });

  it('saves a screenshot of each theme', async () => {
    await h.applyTheme('dark');
    await page().click('#tab-metadata');
    await page().click('[data-table=trace] tr[data-key="12"] td:first-child');
    await page().evaluate(() => window.scrollTo(0, 0));
    await page().screenshot({ path: path.join(ARTIFACTS, 'inspector-dark-metadata.png'), fullPage: true });
    await h.applyTheme('light');
    await page().click('#tab-races');
    await page().click('.race details summary');
    await page().evaluate(() => window.scrollTo(0, 0));
    await page().screenshot({ path: path.join(ARTIFACTS, 'inspector-light-races.png'), fullPage: true });
    await h.applyTheme('high-contrast');
    await page().click('#tab-metadata');
    await page().evaluate(() => window.scrollTo(0, 0));
    await page().screenshot({ path: path.join(ARTIFACTS, 'inspector-high-contrast-metadata.png'), fullPage: true });
    await h.applyTheme('light');
  });

  it('a reload restores the last state, selected address, tab, sort and filter from setState', async () => {
    await page().click('#tab-metadata');
    await page().click('[data-table=metadata] th[data-column=block] button');
    await page().click('[data-table=metadata] th[data-column=block] button');
    await page().fill('[data-table=trace] input.filter', 'warp 1');
    await page().waitForTimeout(400); // filter typing is saved after a pause
    const before = {
      metadata: await keys('[data-table=metadata] tbody tr'),
      trace: await keys('[data-table=trace] tbody tr'),
      marks: (await count('.tl-mark')),
    };
    const saved = (await h.state()) as { selectedAddress: string; tab: string; tables: Record<string, { sort: unknown; filter: string }> };
    assert.equal(saved.selectedAddress, 'counter');
    assert.equal(saved.tab, 'metadata');
    assert.deepEqual(saved.tables.metadata!.sort, { column: 'block', dir: 'desc' });
    assert.equal(saved.tables.trace!.filter, 'warp 1');

    h.saved = saved;
    await h.load();
    assert.deepEqual(await h.posted(), [{ type: 'ready' }], 'a restored page asks for nothing but the next state');
    assert.equal(await page().getAttribute('#tab-metadata', 'aria-selected'), 'true');
    assert.match((await page().textContent('header h1')) ?? '', /inspector-demo\.cu/);
    assert.equal(await page().getAttribute('[data-table=metadata] th[data-column=block]', 'aria-sort'), 'descending');
    assert.equal(await page().getAttribute('[data-table=metadata] tr[data-key="counter"]', 'aria-selected'), 'true');
    assert.equal(await page().inputValue('[data-table=trace] input.filter'), 'warp 1');
    assert.deepEqual(await keys('[data-table=metadata] tbody tr'), before.metadata);
    assert.deepEqual(await keys('[data-table=trace] tbody tr'), before.trace);
    assert.equal((await count('.tl-mark')), before.marks);
    await page().fill('[data-table=trace] input.filter', '');
  });

  it('is keyboard accessible: Tab to an access and Enter reveals it; rows, headers and tabs work by key', async () => {
    await h.clearPosted();
    // Tabs: arrows move between them.
    await page().focus('#tab-metadata');
    await page().keyboard.press('ArrowLeft');
    assert.ok(await activeElementMatches('#tab-races'));
    assert.equal(await page().getAttribute('#tab-races', 'aria-selected'), 'true');
    // Tab from the tab list reaches the first race's racing access.
    const i = raceIndices(demo.state.findings)[0]!;
    let presses = 0;
    while (!(await activeElementMatches(`#finding-${i} [data-access=current]`)) && presses < 10) {
      await page().keyboard.press('Tab');
      presses++;
    }
    assert.ok(await activeElementMatches(`#finding-${i} [data-access=current]`), 'Tab reaches the access button');
    assert.equal(presses, 1, 'the access is the first stop after the tabs');
    assert.equal(await computed(':focus', 'outline-style'), 'solid', 'focus is visible');
    assert.equal(await computed(':focus', 'outline-color'), THEMES.light['--vscode-focusBorder']);
    await page().keyboard.press('Enter');
    const f = demo.state.findings[i]!;
    assert.deepEqual(await h.lastPosted(), { type: 'reveal', target: { file: f.location.file, line: f.location.line - 1, character: f.location.column - 1 } });
    await page().keyboard.press('Tab');
    await page().keyboard.press('Space');
    const e = f.related[0]!.location;
    assert.deepEqual(await h.lastPosted(), { type: 'reveal', target: { file: e.file, line: e.line - 1, character: e.column - 1 } });

    // Metadata rows: one tab stop, arrows move, Enter/Space select.
    await page().focus('#tab-races');
    await page().keyboard.press('ArrowRight');
    assert.equal(await page().getAttribute('#tab-metadata', 'aria-selected'), 'true');
    await page().focus('[data-table=metadata] th[data-column=address] button');
    await page().keyboard.press('Enter');
    assert.equal(await page().getAttribute('[data-table=metadata] th[data-column=address]', 'aria-sort'), 'ascending');
    const order = await keys('[data-table=metadata] tbody tr');
    await page().keyboard.press('Tab');
    // (past the remaining header buttons)
    for (let k = 0; k < 20 && !(await activeElementMatches('[data-table=metadata] tbody tr')); k++) await page().keyboard.press('Tab');
    assert.ok(await activeElementMatches('[data-table=metadata] tbody tr[data-key="counter"]'), 'the selected row is the tab stop');
    await page().keyboard.press('Home');
    assert.ok(await activeElementMatches(`[data-table=metadata] tbody tr[data-key="${order[0]}"]`));
    await page().keyboard.press('ArrowDown');
    assert.ok(await activeElementMatches(`[data-table=metadata] tbody tr[data-key="${order[1]}"]`));
    assert.equal(await computed(':focus', 'outline-style'), 'solid');
    await h.clearPosted();
    await page().keyboard.press('Enter');
    assert.deepEqual(await h.lastPosted(), { type: 'inspectAddress', address: order[1] });
    await page().keyboard.press('ArrowDown');
    await page().keyboard.press(' ');
    assert.deepEqual(await h.lastPosted(), { type: 'inspectAddress', address: order[2] });
    assert.equal(await page().getAttribute(`[data-table=metadata] tr[data-key="${order[2]}"]`, 'aria-selected'), 'true');
    // Tab from the row reaches its Line button (and only its own), which reveals.
    await page().keyboard.press('Tab');
    assert.ok(await activeElementMatches(`[data-table=metadata] tr[data-key="${order[2]}"] button.reveal`));
    await page().keyboard.press('Enter');
    const entry = demo.state.state!.entries.find((x) => x.address === order[2])!;
    assert.deepEqual(await h.lastPosted(), { type: 'reveal', target: { file: entry.last.range.file, line: entry.last.range.start.line, character: entry.last.range.start.character } });
  });

  it('a new run of the same file keeps the focused row, the scroll and the selection', async () => {
    await page().click('#tab-metadata');
    await page().focus('[data-table=metadata] tr[data-key="flag"]');
    await h.send({ ...demo.state, version: 9, finishedAt: RUN_ENDED + 47_000 });
    assert.match((await page().textContent('header .facts')) ?? '', /^run of 21:05:00, /);
    assert.ok(await activeElementMatches('[data-table=metadata] tr[data-key="flag"]'), 'focus stays on the row');
    assert.equal(await page().getAttribute('[data-table=metadata] tr[data-key="flag"]', 'tabindex'), '0');
    assert.equal(await count('[data-table=metadata] tbody tr[tabindex="0"]'), 1, 'one tab stop in the table');
  });

  it('shows flags for hardware-faithful metadata, and per-warp fence files', async () => {
    await h.send(demoFaithful.state);
    assert.match((await page().textContent('header .facts')) ?? '', /hardware-faithful/);
    const headers = await page().$$eval('[data-table=metadata] th', (t) => t.map((x) => x.textContent!.trim()));
    assert.ok(headers.includes('Flags'));
    const flag = demoFaithful.state.state!.entries.find((x) => x.address === 'flag')!;
    assert.ok(flag.flags!.devShared);
    const flagsCell = await page().$eval('[data-table=metadata] tr[data-key="flag"]', (r) => Array.from(r.children, (c) => c.textContent));
    assert.ok(flagsCell.includes('modified device-shared strong'), flagsCell.join(' | '));
    await page().click('#tab-fences');
    const fenceHeaders = await page().$$eval('[data-table=fences] th', (t) => t.map((x) => x.textContent!.trim()));
    assert.deepEqual(fenceHeaders, ['Block', 'Warp', 'Block fence ID', 'Device fence ID']);
    // Only the warps that fenced.
    const fenced = demoFaithful.state.state!.fenceFiles.filter((f) => f.blockFenceId || f.deviceFenceId);
    assert.ok(fenced.length > 0 && fenced.length < demoFaithful.state.state!.fenceFiles.length);
    assert.equal((await count('[data-table=fences] tbody tr')), fenced.length);
  });

  it('a program with no fences: the Fences tab says so in a sentence, with no table of zeros', async () => {
    await h.send(counter.state);
    assert.ok(counter.state.state!.fenceFiles.length > 0 && counter.state.state!.fenceFiles.every((f) => !f.blockFenceId && !f.deviceFenceId));
    await page().click('#tab-fences');
    assert.match((await page().textContent('.view.fences')) ?? '', /^No thread has executed a fence \(__threadfence_block\(\) or __threadfence\(\)\) in this run: every fence ID is 0\.$/);
    assert.equal(await count('[data-table=fences]'), 0);
    assert.equal(await page().textContent('#tab-fences .badge'), '0');
  });

  it('shows fence files per thread, lock tables and barrier IDs', async () => {
    await h.send(demo.state);
    const s = demo.state.state!;
    await page().click('#tab-fences');
    assert.deepEqual(
      await page().$$eval('[data-table=fences] th', (t) => t.map((x) => x.textContent!.trim())),
      ['Block', 'Warp', 'Lane', 'Block fence ID', 'Device fence ID'],
    );
    const fenced = s.fenceFiles.filter((f) => f.blockFenceId || f.deviceFenceId);
    assert.equal((await count('[data-table=fences] tbody tr')), fenced.length);
    assert.match((await page().textContent('[data-table=fences] .count')) ?? '', new RegExp(`${s.fenceFiles.length - fenced.length} threads that never fenced are left out`));
    const producer = s.fenceFiles.find((f) => f.block === 0 && f.warp === 0 && f.lane === 0)!;
    assert.deepEqual(await page().$$eval('[data-table=fences] tr[data-key="0:0:0"] td', (t) => t.map((x) => x.textContent)), ['0', '0', '0', String(producer.blockFenceId), String(producer.deviceFenceId)]);
    await page().fill('[data-table=fences] input.filter', '3');
    assert.ok((await count('[data-table=fences] tbody tr')) < fenced.length);
    await page().fill('[data-table=fences] input.filter', '');

    await page().click('#tab-locks');
    const lock = s.lockTables[0]!;
    assert.equal(await page().textContent('#tab-locks .badge'), String(s.lockTables.reduce((n, t) => n + t.locks.length, 0)));
    const cells = await page().$$eval('[data-table=locks] tbody tr:first-child td', (t) => t.map((x) => x.textContent));
    assert.deepEqual(cells, [String(lock.block), String(lock.warp), String(lock.lane), lock.locks[0]!.name, lock.locks[0]!.scope, 'held', String(lock.locks[0]!.acquire.start.line + 1)]);
    await h.clearPosted();
    await page().click('[data-table=locks] tbody tr:first-child button.reveal');
    assert.deepEqual(await h.lastPosted(), { type: 'reveal', target: { file: lock.locks[0]!.acquire.file, line: lock.locks[0]!.acquire.start.line, character: lock.locks[0]!.acquire.start.character } });

    await page().click('#tab-barriers');
    assert.deepEqual(await keys('[data-table=barriers] tbody tr'), s.barriers.map((b) => String(b.block)));
    assert.deepEqual(await page().$$eval('[data-table=barriers] tbody td.numeric:last-child', (t) => t.map((x) => x.textContent)), s.barriers.map((b) => String(b.barrierId)));
  });

  it('a new file clears the selection; a race’s address opens its timeline', async () => {
    await h.send(counter.state);
    assert.match((await page().textContent('header h1')) ?? '', /scoped-counter\.cu/);
    // 4 blocks of 128 threads: more fence files than a table renders at first (made to have
    // fenced here, as the program itself never fences).
    const fenceFiles = counter.state.state!.fenceFiles.length;
    assert.equal(fenceFiles, 512);
    await h.send({ ...counter.state, state: { ...counter.state.state!, fenceFiles: counter.state.state!.fenceFiles.map((f) => ({ ...f, blockFenceId: 1 })) } });
    await page().click('#tab-fences');
    assert.equal((await count('[data-table=fences] tbody tr')), 500);
    assert.equal(await page().textContent('[data-table=fences] .count'), '512 rows (first 500 shown)');
    assert.equal(await page().textContent('[data-table=fences] button.more'), 'Show the other 12 rows');
    await page().click('[data-table=fences] button.more');
    assert.equal((await count('[data-table=fences] tbody tr')), 512);
    assert.equal(await page().isVisible('[data-table=fences] button.more'), false);
    await page().click('#tab-metadata');
    assert.match((await page().textContent('.timeline')) ?? '', /Select an address/);
    assert.equal(await page().$$eval('[data-table=metadata] tr[aria-selected=true]', (r) => r.length), 0);
    await page().click('#tab-races');
    await h.clearPosted();
    await page().click('.race button.inspect');
    assert.deepEqual(await h.posted(), [{ type: 'inspectAddress', address: 'counter' }]);
    assert.equal(await page().getAttribute('#tab-metadata', 'aria-selected'), 'true');
    await h.send(counter.trace!);
    assert.equal((await count('.tl-mark')), counter.trace!.accesses.length);
    // A trace for another file is not this one's.
    await h.send({ ...demo.trace!, address: 'flag' });
    assert.match((await page().textContent('#timeline-title')) ?? '', /counter/);
    // A later run of the same file keeps the selection and marks the trace as older.
    await h.send({ ...counter.state, version: 2 });
    assert.match((await page().textContent('.timeline .notice')) ?? '', /earlier run/);
    await h.clearPosted();
    await page().click('.timeline .notice button');
    assert.deepEqual(await h.posted(), [{ type: 'inspectAddress', address: 'counter' }]);
  });

  it('an empty message says why, and Refresh asks for a run', async () => {
    await h.send({ type: 'empty', reason: 'inspector-demo.cu has errors: fix them and ScoRD runs it again.' });
    assert.match((await page().textContent('.empty-state')) ?? '', /has errors: fix them/);
    assert.equal(await page().$('.tabs'), null);
    await h.clearPosted();
    await page().click('button.refresh');
    assert.deepEqual(await h.posted(), [{ type: 'refresh' }]);
    await h.send(demo.state);
    assert.ok(await page().$('.tabs'));
  });

  it('ran under the strict CSP with no violations or errors', async () => {
    assert.deepEqual(await h.violations(), []);
    assert.deepEqual(h.errors, []);
    // The check is live: an inline style attribute is refused and reported.
    await page().evaluate(() => document.body.setAttribute('style', 'color: red'));
    await page().waitForFunction(() => window.__violations.length > 0);
    assert.match((await h.violations())[0]!, /style-src/);
  });
});
