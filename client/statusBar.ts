// The status bar item: the races of the active CUDA file after its last run, a spinner while a
// run is going. Clicking it opens the metadata inspector.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { AnalysisStateParams } from '../server/protocol';
import { onAnalysisState } from './analysisState';

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
    const s = latest.get(doc.uri.toString());
    if (!s) item.text = '$(circle-outline) ScoRD';
    else if (s.state === 'running') item.text = '$(sync~spin) ScoRD';
    else if (s.state === 'stopped') item.text = `$(debug-pause) ScoRD`;
    else item.text = s.races ? `$(warning) ${s.races} race${s.races === 1 ? '' : 's'}` : '$(check) no races';
    item.tooltip =
      !s ? 'ScoRD: not analysed yet' : s.state === 'running' ? 'ScoRD: running the program…' : s.state === 'stopped' ? `ScoRD: the last run stopped (${s.reason ?? 'edited'})` : `ScoRD: ${s.races ?? 0} races, ${s.findings ?? 0} findings in ${(s.elapsedMs ?? 0).toFixed(1)} ms — click for the metadata inspector`;
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
