// The status bar item: the races of the active CUDA file after its last run, a spinner while a
// run is going, "not analysed" while its text cannot run. Named, and with an icon of its own, so
// it is not taken for VS Code's problem counter. Clicking it opens the metadata inspector.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { AnalysisStateParams } from '../server/protocol';
import { onAnalysisState } from './analysisState';
import { statusOf } from './statusText';

export function createStatusBar(client: LanguageClient): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('scord.status', vscode.StatusBarAlignment.Left, 10);
  item.name = 'ScoRD races';
  item.command = 'scord.showInspector';
  const latest = new Map<string, AnalysisStateParams>();

  const render = (): void => {
    const doc = vscode.window.activeTextEditor?.document;
    if (doc?.languageId !== 'cuda-cpp') {
      item.hide();
      return;
    }
    const view = statusOf(latest.get(doc.uri.toString()));
    item.text = view.text;
    item.tooltip = view.tooltip;
    item.show();
  };

  const subscription = onAnalysisState(client, (s) => {
    const prev = latest.get(s.uri);
    // A stale run stopping says nothing about the newer one that replaces it.
    if (s.state === 'stopped' && prev && prev.version > s.version) return;
    latest.set(s.uri, s);
    render();
  });
  const editors = vscode.window.onDidChangeActiveTextEditor(render);
  const closed = vscode.workspace.onDidCloseTextDocument((d) => latest.delete(d.uri.toString()));
  render();
  return vscode.Disposable.from(item, subscription, editors, closed);
}
