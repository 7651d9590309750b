// The VS Code side: starts the language server for CUDA files (VS Code's own `cuda-cpp`
// language) and offers a command to restart it.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const serverModule = context.asAbsolutePath(path.join('dist', 'server.js'));
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6011'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: 'cuda-cpp' }],
    outputChannelName: 'ScoRD Language Server',
    // Headers changed on disk (by git, another editor) re-analyse the files that include them.
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/*.{cu,cuh,h,hpp,hh,inl}') },
  };
  client = new LanguageClient('scord', 'ScoRD', serverOptions, clientOptions);
  context.subscriptions.push(
    vscode.commands.registerCommand('scord.restartServer', async () => {
      await client?.restart();
    }),
  );
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
