// What every command of the extension works with.
import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { InspectorPanels } from './inspector/panels';

export interface ScordContext {
  extension: vscode.ExtensionContext;
  client: LanguageClient;
  /** The programs' printf output and run summaries. */
  programOutput: vscode.OutputChannel;
  /** The language server's log. */
  serverLog: vscode.OutputChannel;
  inspector: InspectorPanels;
}
