// The extension-host test runner: the `run()` that VS Code calls for `extensionTestsPath`
// (the contract of @vscode/test-electron, which code-server honours too). It runs the mocha
// suite in this folder, prints it with the spec reporter, and writes the results as JSON to
// the file named by SCORD_E2E_RESULTS: under code-server the extension host's console reaches
// no one, so the launcher reads that file.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';

export interface SuiteResult {
  title: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs: number;
  error?: string;
}

export interface SuiteResults {
  startedAt: string;
  durationMs: number;
  passes: number;
  failures: number;
  pending: number;
  tests: SuiteResult[];
  /** Remarks of the tests (`note()`): what passed only on a retry. */
  notes: string[];
  /** Environment the host ran in: desktop (Electron) or code-server. */
  host: { appName: string; uiKind: string; remoteName: string | null; node: string };
}

export async function run(): Promise<void> {
  const out = process.env.SCORD_E2E_RESULTS;
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec' });
  for (const f of fs.readdirSync(__dirname).filter((f) => f.endsWith('.test.js')).sort()) mocha.addFile(path.join(__dirname, f));

  const started = Date.now();
  const tests: SuiteResult[] = [];
  const host = { appName: vscode.env.appName, uiKind: vscode.UIKind[vscode.env.uiKind], remoteName: vscode.env.remoteName ?? null, node: process.version };
  const write = (): void => {
    if (!out) return;
    const results: SuiteResults = {
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      passes: tests.filter((t) => t.state === 'passed').length,
      failures: tests.filter((t) => t.state === 'failed').length,
      pending: tests.filter((t) => t.state === 'pending').length,
      tests,
      notes: (globalThis as { scordE2eNotes?: string[] }).scordE2eNotes ?? [],
      host,
    };
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify(results, null, 2));
  };

  await new Promise<void>((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        write();
        if (failures > 0) reject(new Error(`${failures} extension-host test${failures === 1 ? '' : 's'} failed`));
        else if (tests.length === 0) reject(new Error('no extension-host test ran'));
        else resolve();
      });
      runner.on('pass', (t) => tests.push({ title: t.fullTitle(), state: 'passed', durationMs: t.duration ?? 0 }));
      runner.on('pending', (t) => tests.push({ title: t.fullTitle(), state: 'pending', durationMs: 0 }));
      runner.on('fail', (t, err: Error) => tests.push({ title: t.fullTitle(), state: 'failed', durationMs: t.duration ?? 0, error: err?.stack ?? String(err) }));
      // Progress on disk as the suite goes, so a hang still leaves what ran.
      runner.on('test end', write);
    } catch (e) {
      write();
      reject(e);
    }
  });
}
