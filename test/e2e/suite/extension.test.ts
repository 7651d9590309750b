/// <reference types="mocha" />
// Extension-host tests: the packaged extension's client, server and commands inside a real
// VS Code (desktop through @vscode/test-electron, or code-server in a browser). The tests run
// in order on one copy of examples/scoped-counter.cu in the test workspace: they see the race,
// run the kernel and the program, open the inspector, then fix the race and see it go.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ScordApi } from '../../../client/extension';
import type { LitmusResult, RunResult } from '../../../server/protocol';

const EXTENSION_ID = 'scord.scord-vscode';
const LAUNCH = { grid: '2', block: '32', seed: '1', scheduling: 'independent' as const };

/**
 * Waits until `probe` gives a value other than undefined/false, checking again on `events` and
 * every 100 ms (an async probe is not re-entered while it runs).
 */
async function waitFor<T>(what: string | (() => string), probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000, events: vscode.Event<unknown>[] = []): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const subs: vscode.Disposable[] = [];
    let busy = false;
    let settled = false;
    const done = (): void => {
      settled = true;
      clearInterval(timer);
      clearTimeout(timeout);
      for (const s of subs) s.dispose();
    };
    const check = async (): Promise<void> => {
      if (busy || settled) return;
      busy = true;
      try {
        const v = await probe();
        if (!settled && v !== undefined && v !== false) {
          done();
          resolve(v);
        }
      } catch (e) {
        if (!settled) {
          done();
          reject(e);
        }
      } finally {
        busy = false;
      }
    };
    const timer = setInterval(() => void check(), 100);
    const timeout = setTimeout(() => {
      done();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`));
    }, timeoutMs);
    for (const e of events) subs.push(e(() => void check()));
    void check();
  });
}

/** A remark for the results file (the launcher prints it): something that passed only on a retry. */
function note(text: string): void {
  const g = globalThis as { scordE2eNotes?: string[] };
  (g.scordE2eNotes ??= []).push(text);
}

function codeOf(d: vscode.Diagnostic): string | number | undefined {
  return typeof d.code === 'object' ? d.code.value : d.code;
}

const scordDiagnostics = (uri: vscode.Uri): vscode.Diagnostic[] => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'scord');
const scopedAtomic = (uri: vscode.Uri): vscode.Diagnostic | undefined => scordDiagnostics(uri).find((d) => codeOf(d) === 'scoped-atomic');
const describeDiagnostics = (uri: vscode.Uri): string => JSON.stringify(vscode.languages.getDiagnostics(uri).map((d) => ({ source: d.source, code: codeOf(d), line: d.range.start.line, message: d.message })));

describe('ScoRD in VS Code', () => {
  let uri: vscode.Uri;
  let doc: vscode.TextDocument;
  let api: ScordApi;

  before(() => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the tests need a workspace folder holding a copy of examples/');
    uri = vscode.Uri.joinPath(folder.uri, 'scoped-counter.cu');
  });

  it('activates when a .cu file is opened', async () => {
    const ext = vscode.extensions.getExtension<ScordApi>(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} is not installed`);
    assert.equal(ext.isActive, false, 'the extension was active before any CUDA file was opened');
    doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    assert.equal(doc.languageId, 'cuda-cpp');
    await waitFor('the extension to activate', () => ext.isActive, 30_000);
    api = await ext.activate();
    assert.ok(api?.client, 'activate() returns the language client');
    assert.ok(api.inspector, 'activate() returns the inspector');
    assert.equal(api.client.isRunning(), true, 'the language server is running');
    const commands = await vscode.commands.getCommands(true);
    for (const c of ['scord.runKernel', 'scord.runProgram', 'scord.exploreSchedules', 'scord.showInspector', 'scord.fixAll', 'scord.restartServer', 'scord.showServerLog', 'scord.openExample', 'scord.runLitmus']) {
      assert.ok(commands.includes(c), `command ${c} is registered`);
    }
  });

  it('reports the scoped race at the atomicAdd_block call', async () => {
    const d = await waitFor(() => `a scoped-atomic diagnostic (have ${describeDiagnostics(uri)})`, () => scopedAtomic(uri), 60_000, [vscode.languages.onDidChangeDiagnostics]);
    const text = doc.getText();
    const at = doc.positionAt(text.indexOf('atomicAdd_block(&counter'));
    assert.equal(d.source, 'scord');
    assert.equal(d.severity, vscode.DiagnosticSeverity.Warning, 'races are warnings by default (scord.diagnostics.raceSeverity)');
    assert.equal(d.range.start.line, at.line, `the race is reported on the atomicAdd_block line, not line ${d.range.start.line + 1}`);
    assert.equal(d.range.start.character, at.character);
    assert.match(doc.getText(d.range), /^atomicAdd_block/);
    assert.match(d.message, /counter/, 'the message names the racing variable');
    assert.equal(scordDiagnostics(uri).filter((x) => codeOf(x) === 'scoped-atomic').length, 1, 'one diagnostic for the race');
  });

  it('Run Kernel runs one kernel with the launch given and returns its result', async () => {
    // message-passing.cu's main launches the kernel: it runs as main launches it (the program
    // stops after that launch), with the grid and block given.
    const mp = vscode.Uri.joinPath(uri, '..', 'message-passing.cu');
    const result = await vscode.commands.executeCommand<RunResult | undefined>('scord.runKernel', { uri: mp.toString(), entry: 'messagePassing', launch: LAUNCH });
    assert.ok(result, 'scord.runKernel returns the run result');
    assert.equal(result.uri, mp.toString());
    assert.equal(result.analysed, true, `the kernel was analysed (diagnostics: ${JSON.stringify(result.diagnostics)})`);
    assert.equal(result.stats.launches, 1, 'one launch: main stops after it');
    assert.deepEqual([result.stats.launched?.[0]?.kernel, result.stats.launched?.[0]?.grid, result.stats.launched?.[0]?.block], ['messagePassing', [2, 1, 1], [32, 1, 1]]);
    assert.ok(result.stats.steps > 0, 'the kernel ran');
    assert.equal(result.output, '', 'nothing is printed before the launch, and the program ends after it');
    assert.deepEqual(
      result.findings.map((f) => `${f.category} at line ${f.location.line}`),
      ['missing-device-fence at line 37'],
      'the consumer’s read of `data` races with the producer’s write',
    );
  });

  it('Run Program runs main and returns what it printed', async () => {
    const result = await vscode.commands.executeCommand<RunResult | undefined>('scord.runProgram', { uri: uri.toString() });
    assert.ok(result, 'scord.runProgram returns the run result');
    assert.equal(result.analysed, true);
    assert.match(result.output, /counted \d+ events, expected 171/);
    assert.equal(result.stats.exitCode, 0);
    assert.ok(result.findings.some((f) => f.category === 'scoped-atomic'));
  });

  it('Run Litmus Test explores a litmus file under gpu-weak and shows the histogram', async () => {
    const file = vscode.Uri.joinPath(uri, '..', 'litmus', 'visibility-global-inter-tfb.cu');
    const text = Buffer.from(await vscode.workspace.fs.readFile(file)).toString('utf8');
    const declared = /^\/\/ outcome: (.+)$/m.exec(text)?.[1];
    assert.ok(declared, 'the library file names its outcome');
    const result = await vscode.commands.executeCommand<LitmusResult | undefined>('scord.runLitmus', { uri: file.toString(), model: 'gpu-weak', exhaustive: true });
    assert.ok(result, 'scord.runLitmus returns the histogram');
    assert.deepEqual(result.errors, []);
    assert.equal(result.model, 'gpu-weak');
    assert.equal(result.complete, true, 'every execution was explored');
    const o = result.outcomes.find((x) => x.outcome === declared);
    assert.ok(o && o.count > 0 && o.allowed, `__threadfence_block() does not order across blocks under gpu-weak: "${declared}" is reached (outcomes: ${result.outcomes.map((x) => `${x.outcome} ×${x.count}`).join(', ')})`);
    assert.ok(o.witness.length > 0, 'with a witness execution');
    await waitFor('the inspector to be sent the histogram', () => api.inspector.lastPosted?.type === 'litmus', 10_000);
  });

  it('the metadata inspector opens and receives the detector state', async () => {
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('scord.showInspector');
    assert.equal(api.inspector.visible, true, 'the inspector panel is open');
    const posted = await waitFor(
      () => `a state message with metadata entries (last posted: ${JSON.stringify(api.inspector.lastPosted)?.slice(0, 300)})`,
      () => {
        const m = api.inspector.lastPosted;
        return m?.type === 'state' && m.state && m.state.entries.length > 0 ? m : undefined;
      },
      30_000,
    );
    assert.match(posted.file, /scoped-counter\.cu$/);
    assert.ok(posted.state!.entries.some((e) => /counter/.test(e.address)), `an entry for counter (addresses: ${posted.state!.entries.map((e) => e.address).join(', ')})`);
    assert.ok(posted.findings.some((f) => f.category === 'scoped-atomic'), 'the inspector is sent the race');
  });

  it('the preferred quick fix removes the race', async () => {
    const d = scopedAtomic(uri);
    assert.ok(d, 'the race is still reported before the fix');
    const fix = await preferredFix(uri, d);
    assert.match(fix.title, /atomicAdd/);
    assert.ok(fix.edit, 'the fix carries its edit');
    assert.equal(await vscode.workspace.applyEdit(fix.edit), true, 'the edit applies');
    const line = doc.lineAt(d.range.start.line).text;
    assert.equal(line.trim(), 'atomicAdd(&counter, 1u);', 'the call is now a device-scope atomicAdd');
    await waitFor(() => `the race diagnostic to go (have ${describeDiagnostics(uri)})`, () => !scopedAtomic(uri), 60_000, [vscode.languages.onDidChangeDiagnostics]);
    assert.deepEqual(scordDiagnostics(uri).map((x) => `${codeOf(x)}: ${x.message}`), [], 'no ScoRD diagnostic is left');
  });

  it('the inspector follows the fixed file: its race is gone there too', async () => {
    const posted = await waitFor(
      () => `the inspector to be sent the fixed run (last posted: ${JSON.stringify(api.inspector.lastPosted)?.slice(0, 300)})`,
      () => {
        const m = api.inspector.lastPosted;
        return m?.type === 'state' && m.version === doc.version && !m.findings.some((f) => f.kind === 'race') ? m : undefined;
      },
      30_000,
    );
    assert.ok(posted.state, 'the fixed run has detector state');
  });

  it('Run Program on the fixed file finds no race and counts every event', async () => {
    const result = await vscode.commands.executeCommand<RunResult | undefined>('scord.runProgram', { uri: uri.toString() });
    assert.ok(result?.analysed);
    assert.match(result.output, /counted 171 events, expected 171\n/);
    assert.deepEqual(
      result.findings.map((f) => f.category),
      [],
    );
  });

  it('the inspector follows later runs: an edit that brings the race back shows it again', async () => {
    // By now the webview has long loaded, so only a run finishing can refresh the panel.
    const line = doc.lineAt(scordLine(doc));
    const at = line.text.indexOf('atomicAdd(');
    assert.ok(at >= 0, 'the fixed call is there');
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(line.lineNumber, at, line.lineNumber, at + 'atomicAdd'.length), 'atomicAdd_block');
    assert.equal(await vscode.workspace.applyEdit(edit), true);
    await waitFor(() => `the race diagnostic to come back (have ${describeDiagnostics(uri)})`, () => scopedAtomic(uri), 60_000, [vscode.languages.onDidChangeDiagnostics]);
    await waitFor(
      () => `the inspector to be sent the run of version ${doc.version} (last posted: version ${(api.inspector.lastPosted as { version?: number } | undefined)?.version})`,
      () => {
        const m = api.inspector.lastPosted;
        return m?.type === 'state' && m.version === doc.version && m.findings.some((f) => f.category === 'scoped-atomic');
      },
      30_000,
    );
  });
});

/**
 * The one preferred quick fix for `d`. A fix is preferred once the server's re-run has shown it
 * removes the race; the server holds the request until then. Asked again if it answers without
 * one (noted in the results).
 */
async function preferredFix(uri: vscode.Uri, d: vscode.Diagnostic): Promise<vscode.CodeAction> {
  let actions: (vscode.CodeAction | vscode.Command)[] = [];
  let attempts = 0;
  const preferredOf = (list: (vscode.CodeAction | vscode.Command)[]): vscode.CodeAction[] => list.filter((a): a is vscode.CodeAction => 'isPreferred' in a && a.isPreferred === true);
  await waitFor(
    'a preferred quick fix',
    async () => {
      attempts++;
      actions = (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', uri, d.range)) ?? [];
      return preferredOf(actions).length > 0;
    },
    60_000,
  ).catch(() => undefined);
  if (attempts > 1) note(`${uri.path.split('/').pop()}: the code action provider needed ${attempts} requests before it offered a preferred fix`);
  const preferred = preferredOf(actions);
  assert.equal(preferred.length, 1, `one preferred fix (actions: ${JSON.stringify(actions.map((a) => a.title))})`);
  const fix = preferred[0];
  assert.ok(fix.kind && vscode.CodeActionKind.QuickFix.contains(fix.kind), 'the fix is a quick fix');
  return fix;
}

// One racy program per category with a fix (quickfix/ in the workspace, from the labelled
// suite): its race is reported under that category, and its preferred quick fix, applied in
// the workbench, makes the squiggle go without bringing any other.
describe('one quick fix per race category', () => {
  const CATEGORIES = ['missing-block-fence', 'missing-device-fence', 'non-strong-access', 'scoped-atomic', 'missing-lock', 'lock-scope', 'lock-fence-scope', 'lock-release-fence', 'shared-memory', 'intra-warp'];
  const seen = new Set<string>();

  it('the workspace has a program for every category that has a fix', async () => {
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const files = (await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(folder, 'quickfix'))).map(([name]) => name).filter((n) => n.endsWith('.cu')).sort();
    for (const name of files) {
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, 'quickfix', name)));
      const category = /^\/\/ expect: (\S+)/m.exec(text)?.[1];
      assert.ok(category, `${name} states its race`);
      seen.add(`${category} ${name}`);
    }
    assert.deepEqual([...new Set([...seen].map((x) => x.split(' ')[0]))].sort(), [...CATEGORIES].sort());
  });

  for (const category of CATEGORIES) {
    it(`${category}: the preferred quick fix makes the squiggle go`, async () => {
      const entry = [...seen].find((x) => x.startsWith(`${category} `));
      assert.ok(entry, `a program for ${category}`);
      const file = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'quickfix', entry.split(' ')[1]);
      const doc = await vscode.workspace.openTextDocument(file);
      await vscode.window.showTextDocument(doc);
      const d = await waitFor(() => `a ${category} diagnostic (have ${describeDiagnostics(file)})`, () => scordDiagnostics(file).find((x) => codeOf(x) === category), 60_000, [vscode.languages.onDidChangeDiagnostics]);
      const fix = await preferredFix(file, d);
      assert.ok(fix.edit, 'the fix carries its edit');
      assert.equal(await vscode.workspace.applyEdit(fix.edit), true, 'the edit applies');
      await waitFor(() => `the ${category} diagnostic to go after "${fix.title}" (have ${describeDiagnostics(file)})`, () => scordDiagnostics(file).length === 0, 60_000, [vscode.languages.onDidChangeDiagnostics]);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    });
  }
});

/** The line of the counter's atomic call. */
function scordLine(d: vscode.TextDocument): number {
  for (let i = 0; i < d.lineCount; i++) if (/^\s*atomicAdd(_block)?\(&counter/.test(d.lineAt(i).text)) return i;
  throw new Error('no atomic call on counter');
}
