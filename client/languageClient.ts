// The language client: starts the bundled server for VS Code's `cuda-cpp` documents. A server
// that crashes is restarted a few times; after that the user is offered "Restart Server"
// instead of a loop of crashes.
import * as vscode from 'vscode';
import { CloseAction, ErrorAction, LanguageClient, TransportKind, type ErrorHandler, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

/** Crashes tolerated within CRASH_WINDOW_MS before the client stops restarting the server. */
const MAX_RESTARTS = 4;
const CRASH_WINDOW_MS = 3 * 60_000;

class RestartAFewTimes implements ErrorHandler {
  private crashes: number[] = [];

  error(): { action: ErrorAction } {
    return { action: ErrorAction.Continue };
  }

  closed(): { action: CloseAction; message?: string } {
    const now = Date.now();
    this.crashes = [...this.crashes.filter((t) => now - t < CRASH_WINDOW_MS), now];
    if (this.crashes.length <= MAX_RESTARTS) return { action: CloseAction.Restart };
    void vscode.window.showErrorMessage(`The ScoRD language server stopped ${this.crashes.length} times in ${CRASH_WINDOW_MS / 60_000} minutes and was not restarted.`, 'Restart Server', 'Show Log').then((choice) => {
      if (choice === 'Restart Server') void vscode.commands.executeCommand('scord.restartServer');
      if (choice === 'Show Log') void vscode.commands.executeCommand('scord.showServerLog');
    });
    return { action: CloseAction.DoNotRestart, message: 'The ScoRD language server stopped; not restarted.' };
  }
}

export function createLanguageClient(context: vscode.ExtensionContext, log: vscode.OutputChannel): LanguageClient {
  const serverModule = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6011'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: 'cuda-cpp' }],
    outputChannel: log,
    errorHandler: new RestartAFewTimes(),
    // In a workspace that is not trusted, #include reads only files inside it.
    initializationOptions: { trusted: vscode.workspace.isTrusted },
    // Headers changed on disk (by git, another editor) re-analyse the files that include them.
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/*.{cu,cuh,h,hpp,hh,inl}') },
  };
  return new LanguageClient('scord', 'ScoRD', serverOptions, clientOptions);
}
