// UI end to end: the packaged extension (dist/scord-vscode.vsix, installed into code-server)
// driven as a user drives it, through the workbench in chromium with playwright-core: open
// scoped-counter.cu from the Explorer, see the squiggle and the Problems entry, read the race
// in the metadata inspector's webview, fix it from the quick-fix menu, see the problem go, and
// run "ScoRD: Run Kernel" from the command palette answering its questions by keyboard. Every
// wait is on an element; screenshots of each step go to test/e2e/artifacts/.
//
//   node --import tsx --test test/e2e/ui.test.ts      (after scripts/e2e/setup.sh and npm run package)
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { ARTIFACTS, openBrowser, startCodeServer, workbenchUrl, type BrowserSession, type CodeServer } from './codeServer';

const STEP_MS = 60_000;
/** Where the racing call is in examples/scoped-counter.cu (1-based). */
const RACE = ((): { line: number; column: number } => {
  const lines = fs.readFileSync(path.join(__dirname, '..', '..', 'examples', 'scoped-counter.cu'), 'utf8').split('\n');
  const line = lines.findIndex((l) => l.includes('atomicAdd_block(&counter'));
  assert.ok(line >= 0, 'examples/scoped-counter.cu calls atomicAdd_block(&counter, …)');
  return { line: line + 1, column: lines[line].indexOf('atomicAdd_block') + 1 };
})();
const isMac = process.platform === 'darwin';
const mod = isMac ? 'Meta' : 'Control';

describe('ScoRD in the VS Code workbench (code-server + chromium)', { timeout: 10 * 60_000 }, () => {
  let server: CodeServer;
  let session: BrowserSession;
  let page: Page;
  let shots = 0;
  let broken: string | undefined;
  const t0 = Date.now();

  const shot = async (name: string): Promise<void> => {
    const file = path.join(ARTIFACTS, `ui-${String(++shots).padStart(2, '0')}-${name}.png`);
    await page.screenshot({ path: file }).catch(() => undefined);
  };

  /** A step of the story: later steps need the earlier ones, so after a failure they fail at once (saying why). */
  const step = (name: string, body: () => Promise<void>): void => {
    it(name, { timeout: 3 * STEP_MS }, async () => {
      if (broken) throw new Error(`not run: the earlier step "${broken}" failed`);
      const t = Date.now();
      try {
        await body();
        await shot(name.replace(/[^a-z0-9]+/gi, '-').toLowerCase());
      } catch (e) {
        broken = name;
        await shot(`FAILED-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`);
        throw e;
      } finally {
        console.log(`  ui: ${name}: ${((Date.now() - t) / 1000).toFixed(1)} s`);
      }
    });
  };

  /** Focuses the first editor group (the CUDA file) by keyboard. */
  const focusEditor = async (): Promise<void> => {
    await page.keyboard.press(`${mod}+1`);
    await page.locator('.editor-group-container.active .monaco-editor.focused[data-uri$="scoped-counter.cu"]').waitFor({ timeout: STEP_MS });
  };

  /** Moves the cursor with Go to Line (Ctrl+G), 1-based. */
  const goTo = async (line: number, column: number): Promise<void> => {
    await focusEditor();
    await page.keyboard.press(`${mod}+G`);
    const input = quickInput().locator('input.input');
    await input.waitFor({ state: 'visible', timeout: STEP_MS });
    await input.fill(`:${line}:${column}`);
    await page.keyboard.press('Enter');
    await page.locator('.statusbar-item[id="status.editor.selection"]', { hasText: `Ln ${line}, Col ${column}` }).waitFor({ timeout: STEP_MS });
  };

  const editor = (): Locator => page.locator('.editor-group-container .monaco-editor[data-uri$="scoped-counter.cu"]').first();
  const quickInput = (): Locator => page.locator('.quick-input-widget');
  const inspectorFrame = (): FrameLocator => page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');

  /** Runs a command from the command palette (F1), by its title. */
  const runCommand = async (title: string): Promise<void> => {
    await page.keyboard.press('F1');
    const input = quickInput().locator('input.input');
    await input.waitFor({ state: 'visible', timeout: STEP_MS });
    await input.fill(`>${title}`);
    const row = quickInput().locator('.monaco-list-row', { hasText: title }).first();
    await row.waitFor({ state: 'visible', timeout: STEP_MS });
    // Enter runs the focused (first) entry: make sure that is ours.
    await quickInput().locator('.monaco-list-row.focused', { hasText: title }).waitFor({ state: 'visible', timeout: STEP_MS });
    await page.keyboard.press('Enter');
  };

  /** Answers the input box whose prompt contains `prompt`, by keyboard. */
  const answer = async (prompt: string, value: string): Promise<void> => {
    await quickInput().locator('.quick-input-message, .quick-input-header, .quick-input-description', { hasText: prompt }).first().waitFor({ state: 'visible', timeout: STEP_MS });
    const input = quickInput().locator('input.input');
    await input.press(`${mod}+A`);
    await input.pressSequentially(value);
    assert.equal(await input.inputValue(), value);
    await page.keyboard.press('Enter');
  };

  before(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    for (const f of fs.readdirSync(ARTIFACTS)) if (/^ui-.*\.png$/.test(f)) fs.rmSync(path.join(ARTIFACTS, f));
    server = await startCodeServer('ui');
    session = await openBrowser('ui');
    page = session.page;
  });

  after(async () => {
    const t = Date.now();
    await session?.close();
    await server?.stop();
    console.log(`  ui: stopped browser and code-server in ${((Date.now() - t) / 1000).toFixed(1)} s; ${((Date.now() - t0) / 1000).toFixed(1)} s in all`);
  });

  step('the workbench loads with the ScoRD extension installed', async () => {
    await page.goto(workbenchUrl(server));
    await page.locator('.monaco-workbench').waitFor({ timeout: 2 * STEP_MS });
    await page.locator('.explorer-folders-view').waitFor({ timeout: STEP_MS });
  });

  step('opening scoped-counter.cu from the Explorer underlines the racing atomicAdd_block', async () => {
    const item = page.getByRole('treeitem', { name: 'scoped-counter.cu' });
    await item.waitFor({ timeout: STEP_MS });
    await item.click();
    await editor().waitFor({ timeout: STEP_MS });
    // The language mode says it is CUDA, and the status bar item appears once the extension runs.
    await page.locator('.statusbar-item[id="status.editor.mode"]', { hasText: 'CUDA' }).waitFor({ timeout: STEP_MS });
    const squiggle = editor().locator('.squiggly-warning');
    await squiggle.first().waitFor({ state: 'visible', timeout: 2 * STEP_MS });
    await page.locator('.statusbar-item', { hasText: 'ScoRD: 1 race' }).waitFor({ timeout: STEP_MS });
    // The squiggle lies on the line of the atomicAdd_block call.
    const line = editor().locator('.view-line', { hasText: 'atomicAdd_block(&counter, 1u);' });
    const [sq, ln] = [await squiggle.first().boundingBox(), await line.boundingBox()];
    assert.ok(sq && ln, 'the squiggle and the line are on screen');
    assert.ok(Math.abs(sq.y + sq.height / 2 - (ln.y + ln.height / 2)) < ln.height, `the squiggle (y ${sq.y}) is on the atomicAdd_block line (y ${ln.y})`);
  });

  step('the Problems panel lists the scoped race', async () => {
    await focusEditor();
    await page.keyboard.press(`${mod}+Shift+M`);
    const problems = page.locator('.markers-panel');
    await problems.waitFor({ state: 'visible', timeout: STEP_MS });
    const row = problems.locator('.monaco-list-row', { hasText: 'atomicAdd_block of `counter`' });
    await row.first().waitFor({ timeout: STEP_MS });
    await problems.locator('.monaco-list-row', { hasText: 'scoped-atomic' }).first().waitFor({ timeout: STEP_MS });
  });

  step('hovering the race: its sentence once (VS Code\'s part), then a compact metadata table that fits', async () => {
    await goTo(RACE.line, RACE.column + 2);
    // Show Hover (Ctrl+K Ctrl+I) at the cursor, on the squiggle.
    await page.keyboard.press(`${mod}+K`);
    await page.keyboard.press(`${mod}+I`);
    const hover = page.locator('.monaco-hover', { hasText: 'metadata when it was found' }).first();
    await hover.waitFor({ state: 'visible', timeout: STEP_MS });
    const text = (await hover.innerText()).replace(/\s+/g, ' ');
    assert.equal(text.split('races with the atomicAdd_block at line').length - 1, 1, `the sentence once: ${text}`);
    assert.match(text, /last access .*locks held/);
    // Nothing cut off: the hover's content is no taller than what it shows.
    const clipped = await hover.evaluate((e) => Array.from(e.querySelectorAll('.monaco-scrollable-element')).some((x) => x.scrollHeight > x.clientHeight + 1));
    assert.equal(clipped, false, 'the hover scrolls: its table is cut off');
    await page.keyboard.press('Escape');
  });

  step('the "▶ Run" lens above countEvents runs it as main launches it, and reports the race with the launch\'s real arguments', async () => {
    const lens = editor().locator('.codelens-decoration a', { hasText: /Run · 1 race/ }).first();
    await lens.waitFor({ timeout: STEP_MS });
    await lens.click();
    // The defaults are the program's own launch: <<<NBLOCKS, THREADS>>> = 4, 128.
    for (const [prompt, value] of [['Grid size', '4'], ['Block size', '128']]) {
      await quickInput().locator('.quick-input-message, .quick-input-header, .quick-input-description', { hasText: prompt }).first().waitFor({ state: 'visible', timeout: STEP_MS });
      assert.equal(await quickInput().locator('input.input').inputValue(), value, `${prompt} starts from the launch in main`);
      await page.keyboard.press('Enter');
    }
    await answer('Seed', '1');
    await quickInput().locator('.monaco-list-row.focused', { hasText: 'independent' }).waitFor({ timeout: STEP_MS });
    await page.keyboard.press('Enter');
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'Run countEvents<<<4,128>>>(values: int[512], n = 512)' });
    await toast.first().waitFor({ timeout: 2 * STEP_MS });
    assert.match((await toast.first().innerText()).replace(/\s+/g, ' '), /Run countEvents<<<4,128>>>\(values: int\[512\], n = 512\): 1 race/);
  });

  step('"ScoRD: Show Metadata Inspector" lists the race in the webview', async () => {
    await focusEditor();
    await runCommand('ScoRD: Show Metadata Inspector');
    const frame = inspectorFrame();
    const card = frame.locator('ol.race-list li.race.card', { hasText: 'counter' });
    await card.first().waitFor({ timeout: 2 * STEP_MS });
    await card.locator('.badge.category', { hasText: 'Scoped atomic' }).first().waitFor({ timeout: STEP_MS });
    await frame.locator('.races > p.summary', { hasText: /^1 race/ }).waitFor({ timeout: STEP_MS });
    await frame.locator('h1', { hasText: 'scoped-counter.cu' }).waitFor({ timeout: STEP_MS });
    // The program has no fences: the Fences tab says so, with no table of zeros.
    await frame.locator('#tab-fences').click();
    await frame.locator('.view.fences', { hasText: 'No thread has executed a fence' }).waitFor({ timeout: STEP_MS });
    assert.equal(await frame.locator('[data-table=fences]').count(), 0);
    await frame.locator('#tab-races').click();
  });

  step('the preferred quick fix from Ctrl+. removes the race', async () => {
    // Back to the editor, the cursor on the racing call.
    await goTo(RACE.line, RACE.column);
    const menu = page.locator('.action-widget');
    const fix = 'Use atomicAdd (device scope)';
    // The menu lists the preferred fix once the server has checked it; until then ask again.
    await retry(STEP_MS, async () => {
      await page.keyboard.press(`${mod}+Period`);
      await menu.locator('.monaco-list-row', { hasText: fix }).first().waitFor({ state: 'visible', timeout: 5_000 });
    }, async () => {
      await page.keyboard.press('Escape');
    });
    // Enter on the preferred fix: move the focus there by keyboard.
    const focusedFix = menu.locator('.monaco-list-row.focused', { hasText: fix });
    for (let i = 0; i < 10 && !(await focusedFix.isVisible()); i++) await page.keyboard.press('ArrowDown');
    await focusedFix.waitFor({ state: 'visible', timeout: 5_000 });
    await page.keyboard.press('Enter');
    await editor().locator('.view-line', { hasText: 'atomicAdd(&counter, 1u);' }).waitFor({ timeout: STEP_MS });
    await editor().locator('.squiggly-warning').first().waitFor({ state: 'detached', timeout: 2 * STEP_MS });
    await page.locator('.statusbar-item', { hasText: 'no races' }).waitFor({ timeout: STEP_MS });
    await page.locator('.markers-panel .monaco-list-row', { hasText: 'atomicAdd_block of `counter`' }).first().waitFor({ state: 'detached', timeout: STEP_MS });
  });

  step('the inspector follows: no race in the fixed file', async () => {
    await inspectorFrame().locator('.races > p.summary', { hasText: 'No races found in the last run.' }).waitFor({ timeout: STEP_MS });
    assert.equal(await inspectorFrame().locator('ol.race-list li.race.card').count(), 0);
  });

  step('a syntax error: the status bar says "not analysed", not a stale "no races"', async () => {
    await goTo(1, 1);
    await page.keyboard.type('int broken = ;');
    await page.keyboard.press('Enter');
    await page.locator('.statusbar-item', { hasText: 'ScoRD: not analysed' }).waitFor({ timeout: 2 * STEP_MS });
    // The line taken out again: analysed, and clean.
    await goTo(1, 1);
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Delete');
    await page.locator('.statusbar-item', { hasText: 'ScoRD: no races' }).waitFor({ timeout: 2 * STEP_MS });
  });

  step('"ScoRD: Run Kernel" from the command palette asks for the launch and runs it', async () => {
    await focusEditor();
    await runCommand('ScoRD: Run Kernel');
    // One kernel: no kernel pick; then grid, block, seed and scheduling.
    await answer('Grid size', '4');
    await answer('Block size', '128');
    await answer('Seed', '7');
    await quickInput().locator('.monaco-list-row.focused', { hasText: 'independent' }).waitFor({ timeout: STEP_MS });
    await page.keyboard.press('Enter');
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'Run countEvents<<<4,128>>>(values: int[512], n = 512): no races' });
    await toast.first().waitFor({ timeout: 2 * STEP_MS });
    // The run's summary is in the program output channel, which the command shows (the editor
    // there writes spaces as no-break spaces: hence \s in the patterns).
    await page.locator('.part.panel .monaco-editor .view-lines', { hasText: /countEvents<<<4,128>>>\(values:\s+int\[512\],\s+n\s+=\s+512\)/ }).first().waitFor({ timeout: STEP_MS });
    await page.locator('.part.panel .monaco-editor .view-lines', { hasText: /0\s+races,\s+0\s+other\s+findings;\s+exit\s+status\s+0,\s+1\s+launch/ }).first().waitFor({ timeout: STEP_MS });
  });
});

/** Runs `attempt` until it succeeds or `ms` pass, with `between` after each failure. */
async function retry(ms: number, attempt: () => Promise<void>, between: () => Promise<void>): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      await attempt();
      return;
    } catch (e) {
      if (Date.now() > until) throw e;
      await between();
    }
  }
}
