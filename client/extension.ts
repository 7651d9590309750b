// The VS Code side: starts the language server for CUDA files (VS Code's own `cuda-cpp`
// language), and adds the commands, the status bar item and the metadata inspector. Each
// feature is its own small file; this one wires them.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { exploreSchedules } from './commands/exploreSchedules';
import { fixAll } from './commands/fixAll';
import { openExample } from './commands/openExample';
import { runKernel, type LaunchChoice } from './commands/runKernel';
import { runLitmus, type LitmusArgs } from './commands/runLitmus';
import { runProgram } from './commands/runProgram';
import type { ScordContext } from './context';
import { InspectorPanels } from './inspector/panels';
import { createLanguageClient } from './languageClient';
import { createStatusBar } from './statusBar';
import { VisibleDocumentsNotification, WorkspaceTrustNotification } from '../server/protocol';

let client: LanguageClient | undefined;

/** The extension's API, for its own tests. */
export interface ScordApi {
  client: LanguageClient;
  inspector: InspectorPanels;
}

export async function activate(context: vscode.ExtensionContext): Promise<ScordApi> {
  const serverLog = vscode.window.createOutputChannel('ScoRD Language Server', { log: true });
  const programOutput = vscode.window.createOutputChannel('ScoRD Program Output');
  client = createLanguageClient(context, serverLog);
  const inspector = new InspectorPanels(context, client);
  const ctx: ScordContext = { extension: context, client, programOutput, serverLog, inspector };

  // The command table: every command the extension contributes, in one place.
  const commands: Record<string, (...args: never[]) => unknown> = {
    'scord.runKernel': (args?: { uri?: string; entry?: string; launch?: LaunchChoice }) => runKernel(ctx, args),
    'scord.runProgram': (args?: { uri?: string }) => runProgram(ctx, args),
    'scord.exploreSchedules': (args?: { uri?: string }) => exploreSchedules(ctx, args),
    'scord.runLitmus': (args?: LitmusArgs) => runLitmus(ctx, args),
    'scord.showInspector': (args?: { uri?: string; finding?: number }) => inspector.show(args?.uri ?? vscode.window.activeTextEditor?.document.uri.toString(), args?.finding),
    'scord.fixAll': () => fixAll(),
    'scord.restartServer': () => client?.restart(),
    'scord.showServerLog': () => serverLog.show(),
    'scord.openExample': (name?: string) => openExample(context, name),
  };
  for (const [id, run] of Object.entries(commands)) context.subscriptions.push(vscode.commands.registerCommand(id, run));
  context.subscriptions.push(serverLog, programOutput, inspector, createStatusBar(client));
  await client.start();
  followEditors(context, client);
  return { client, inspector };
}

/**
 * Tells the server which documents are on screen (runs wait for workers in that order, the
 * active editor first) and when the workspace becomes trusted.
 */
function followEditors(context: vscode.ExtensionContext, started: LanguageClient): void {
  const send = (): void => {
    const active = vscode.window.activeTextEditor?.document.uri.toString();
    const shown = vscode.window.visibleTextEditors.map((e) => e.document.uri.toString());
    const uris = [...(active ? [active] : []), ...shown.filter((u) => u !== active)];
    void started.sendNotification(VisibleDocumentsNotification, { uris }).catch(() => undefined);
  };
  send();
  context.subscriptions.push(
    vscode.window.onDidChangeActiveTextEditor(send),
    vscode.window.onDidChangeVisibleTextEditors(send),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void started.sendNotification(WorkspaceTrustNotification, { trusted: true }).catch(() => undefined)),
  );
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
