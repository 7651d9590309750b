// The inspector's Litmus tab in headless chromium under the host's strict CSP, fed with the
// histograms the real litmus runner gives for a library test: one bar per outcome with its
// count, the allowed/forbidden badges, the declared outcome marked, a witness per outcome
// whose steps reveal their lines, theme colours, and what survives a reload.
//
//   node --import tsx --test test/webview/litmus.test.ts
//
// Needs Debian's chromium at /usr/bin/chromium (apt-get install -y chromium) or CHROMIUM_PATH.
import { after, before, describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkSource, publicReport } from '../../sims/check';
import { runLitmusSource } from '../../sims/litmus/run';
import type { MemoryModelName } from '../../sims/gpu/memoryModels';
import type { ToWebview } from '../../client/webview/messages';
import { CHROMIUM, Harness, ROOT } from './harness';
import { THEMES } from './themes';

type LitmusMessage = Extract<ToWebview, { type: 'litmus' }>;

const ARTIFACTS = path.join(ROOT, 'test/webview/artifacts');
const FILE = path.join(ROOT, 'examples/litmus/visibility-global-inter-nofence.cu');
const TEXT = readFileSync(FILE, 'utf8');
const DECLARED = 'r1=2 r2=0';

function litmus(model: MemoryModelName, id: number): LitmusMessage {
  const t0 = performance.now();
  const report = runLitmusSource(TEXT, { fileName: FILE }, { model, exhaustive: true });
  return { type: 'litmus', file: FILE, id, report: { ...report, elapsedMs: performance.now() - t0 } };
}

const weak = litmus('gpu-weak', 1);
const sc = litmus('sc', 2);

const h = new Harness();
const page = () => h.page;

async function rowTexts(selector: string): Promise<string[]> {
  return page().$$eval(selector, (els) => els.map((e) => (e.textContent ?? '').trim()));
}

test('chromium is installed for the webview tests', () => {
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM}. Install it with \`apt-get update && apt-get install -y chromium\` (or set CHROMIUM_PATH).`);
});

describe('inspector Litmus tab', () => {
  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    await h.start();
  });
  after(async () => {
    await h.stop();
  });

  it('the runner gave a real histogram: the violation and the sequential outcomes, with witnesses', () => {
    const reached = weak.report.outcomes.filter((o) => o.count > 0);
    assert.ok(reached.length >= 3 && reached.some((o) => o.outcome === DECLARED && o.declared));
    assert.ok(reached.every((o) => o.witness.length > 0));
    const never = sc.report.outcomes.find((o) => o.outcome === DECLARED);
    assert.deepEqual([never?.count, never?.allowed, never?.declared], [0, false, true]);
  });

  it('a litmus run with no detector state shows the Litmus tab alone, with one bar per outcome', async () => {
    await h.send(weak);
    assert.equal(await page().getAttribute('#tab-litmus', 'aria-selected'), 'true');
    assert.deepEqual(await rowTexts('.tablist [role=tab] .tab-label'), ['Litmus']);
    const outcomes = [...weak.report.outcomes].sort((a, b) => b.count - a.count);
    assert.equal(await page().textContent('#tab-litmus .badge'), String(outcomes.filter((o) => o.count > 0).length));
    // Most frequent first, each with its count, its badge and its share in words.
    assert.deepEqual(await page().$$eval('.histogram .outcome-row', (b) => b.map((x) => x.getAttribute('data-outcome'))), outcomes.map((o) => o.outcome));
    assert.deepEqual(await rowTexts('.histogram .outcome-count'), outcomes.map((o) => String(o.count)));
    assert.deepEqual(await rowTexts('.histogram .badge.verdict'), outcomes.map((o) => (o.allowed ? 'allowed' : 'forbidden')));
    const labels = await page().$$eval('.histogram .outcome-row', (b) => b.map((x) => x.getAttribute('aria-label') ?? ''));
    for (const [i, o] of outcomes.entries()) assert.ok(labels[i]!.startsWith(`${o.outcome}: ${o.count} of ${weak.report.runs} (`), labels[i]);
    // Bars: the tallest fills its track, the others in proportion; hidden from screen readers.
    const widths = await page().$$eval('.histogram rect.bar-fill', (r) => r.map((x) => Number(x.getAttribute('width'))));
    const max = outcomes[0]!.count;
    assert.deepEqual(widths, outcomes.filter((o) => o.count > 0).map((o) => Number(Math.max((100 * o.count) / max, 0.5).toFixed(2))));
    assert.equal(widths[0], 100);
    assert.ok(await page().$$eval('.histogram svg.bar', (s) => s.every((x) => x.getAttribute('aria-hidden') === 'true')));
    // The declared outcome is marked, and its witness is shown first.
    assert.deepEqual(await page().$$eval('.histogram li.declared .outcome-row', (b) => b.map((x) => x.getAttribute('data-outcome'))), [DECLARED]);
    assert.equal(await page().textContent('.histogram li.declared .badge.declared'), 'declared');
    assert.equal(await page().getAttribute(`.outcome-row[data-outcome="${DECLARED}"]`, 'aria-pressed'), 'true');
    assert.match((await page().textContent('.litmus-summary')) ?? '', new RegExp(`^${weak.report.runs} executions of visibility-global-inter-nofence\\.cu under gpu-weak · every execution explored · ${outcomes.filter((o) => o.count > 0).length} distinct outcomes`));
  });

  it('the witness lists each step, and a step reveals its line', async () => {
    const declared = weak.report.outcomes.find((o) => o.outcome === DECLARED)!;
    assert.match((await page().textContent('#litmus-witness h2')) ?? '', /^Witness of r1=2 r2=0$/);
    assert.deepEqual(await rowTexts('.witness-steps .step-action'), declared.witness.map((s) => s.action));
    assert.deepEqual(await rowTexts('.witness-steps .step-actor'), declared.witness.map((s) => s.actor));
    const i = declared.witness.findIndex((s) => s.range);
    const step = declared.witness[i]!;
    await h.clearPosted();
    await page().click(`.witness-steps li:nth-child(${i + 1}) button.step-reveal`);
    assert.deepEqual(await h.lastPosted(), { type: 'reveal', target: { file: FILE, line: step.range!.start.line, character: step.range!.start.character } });
  });

  it('clicking an outcome shows its witness; clicking it again keeps it', async () => {
    const other = weak.report.outcomes.find((o) => o.count > 0 && o.outcome !== DECLARED)!;
    await page().click(`.outcome-row[data-outcome="${other.outcome}"]`);
    assert.equal(await page().getAttribute(`.outcome-row[data-outcome="${other.outcome}"]`, 'aria-pressed'), 'true');
    assert.equal(await page().getAttribute(`.outcome-row[data-outcome="${DECLARED}"]`, 'aria-pressed'), 'false');
    assert.equal(await page().textContent('#litmus-witness h2'), `Witness of ${other.outcome}`);
    assert.equal(await page().$$eval('.witness-steps li', (l) => l.length), other.witness.length);
    await page().click(`.outcome-row[data-outcome="${other.outcome}"]`);
    assert.equal(await page().getAttribute(`.outcome-row[data-outcome="${other.outcome}"]`, 'aria-pressed'), 'true');
    assert.equal(await page().textContent('#litmus-witness h2'), `Witness of ${other.outcome}`);
  });

  it('a reload restores the histogram and the selected outcome', async () => {
    const other = weak.report.outcomes.find((o) => o.count > 0 && o.outcome !== DECLARED)!;
    h.saved = await h.state();
    await h.load();
    assert.equal(await page().getAttribute('#tab-litmus', 'aria-selected'), 'true');
    assert.equal(await page().getAttribute(`.outcome-row[data-outcome="${other.outcome}"]`, 'aria-pressed'), 'true');
    // The host sends the same run again after a reload: the reader's choice stays.
    await h.send(weak);
    assert.equal(await page().getAttribute(`.outcome-row[data-outcome="${other.outcome}"]`, 'aria-pressed'), 'true');
  });

  it('an outcome never reached is forbidden, has no bar, and says why it has no witness', async () => {
    await h.send(sc);
    const row = `.outcome-row[data-outcome="${DECLARED}"]`;
    assert.equal(await page().textContent(`${row} .outcome-count`), '0');
    assert.equal(await page().textContent(`${row} .badge.verdict`), 'forbidden');
    assert.equal(await page().$$eval(`${row} rect.bar-fill`, (r) => r.length), 0);
    assert.equal(await page().getAttribute(row, 'aria-pressed'), 'false', 'a new run selects the declared outcome only when it was reached');
    await page().click(row);
    assert.equal((await page().textContent('#litmus-witness .no-witness'))?.trim(), 'No execution ended in this outcome: it is forbidden under sc.');
    // Only the runner's outcomes are listed, so the last one drawn is the declared one.
    assert.equal(await page().$$eval('.histogram li', (l) => l.length), sc.report.outcomes.length);
  });

  it('beside the detector’s state it is one more tab; another file’s state drops it', async () => {
    const report = checkSource({ fileName: FILE, text: TEXT, inspect: {} });
    const { trace: _trace, ...state } = report.state!;
    await h.send({ type: 'state', file: FILE, version: 3, state, findings: publicReport(report).findings, elapsedMs: 5, finishedAt: null });
    assert.deepEqual(await rowTexts('.tablist [role=tab] .tab-label'), ['Races', 'Metadata', 'Fences', 'Locks', 'Barriers', 'Litmus']);
    assert.equal(await page().getAttribute('#tab-litmus', 'aria-selected'), 'true', 'the tab the reader was on stays');
    await page().click('#tab-races');
    await h.send(sc);
    assert.equal(await page().getAttribute('#tab-races', 'aria-selected'), 'true', 'the same run sent again does not take the reader away');
    await h.send({ ...weak, id: 9 });
    assert.equal(await page().getAttribute('#tab-litmus', 'aria-selected'), 'true', 'a new run comes to the front');
    await h.send({ type: 'state', file: path.join(ROOT, 'examples/scoped-counter.cu'), version: 1, state, findings: [], elapsedMs: 1, finishedAt: null });
    assert.equal(await page().$$eval('#tab-litmus', (t) => t.length), 0);
  });

  it('colours come from the theme: bars, badges and the declared mark', async () => {
    await h.send({ ...sc, id: 10 });
    await h.send({ ...weak, id: 11 });
    for (const theme of ['light', 'dark', 'high-contrast'] as const) {
      await h.applyTheme(theme);
      const v = THEMES[theme];
      const css = (selector: string, property: string) => page().$eval(selector, (el, p) => getComputedStyle(el).getPropertyValue(p), property);
      assert.equal(await css('rect.bar-fill.allowed', 'fill'), v['--vscode-charts-blue'], `${theme}: bar`);
      assert.equal(await css('.bar-track', 'fill'), v['--vscode-textBlockQuote-background'], `${theme}: track`);
      assert.equal(await css('li.declared .outcome-row', 'border-left-color'), v['--vscode-charts-orange'], `${theme}: declared`);
      assert.equal(await css('.badge.verdict.allowed', 'border-top-color'), v['--vscode-charts-blue'], `${theme}: allowed badge`);
      assert.equal(await css('.outcome-row[aria-pressed=true]', 'background-color'), v['--vscode-list-activeSelectionBackground'], `${theme}: selected row`);
      if (theme === 'high-contrast') assert.equal(await css('rect.bar-fill.allowed', 'stroke'), v['--vscode-contrastBorder']);
      await page().screenshot({ path: path.join(ARTIFACTS, `litmus-${theme}.png`), fullPage: true });
    }
    await h.applyTheme('light');
  });

  it('ran under the strict CSP with no violations or errors', async () => {
    assert.deepEqual(await h.violations(), []);
    assert.deepEqual(h.errors, []);
  });
});
