// `scord/analysisState` for every part of the client that follows it. The language client
// keeps one handler per notification method (a second `onNotification` replaces the first), so
// the status bar and the inspector cannot each register their own: this registers one per
// client and fans it out.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { AnalysisStateNotification, type AnalysisStateParams } from '../server/protocol';

const emitters = new WeakMap<LanguageClient, vscode.EventEmitter<AnalysisStateParams>>();

export function onAnalysisState(client: LanguageClient, listener: (s: AnalysisStateParams) => void): vscode.Disposable {
  let emitter = emitters.get(client);
  if (!emitter) {
    const e = new vscode.EventEmitter<AnalysisStateParams>();
    client.onNotification(AnalysisStateNotification, (s) => e.fire(s));
    emitters.set(client, (emitter = e));
  }
  return emitter.event(listener);
}
