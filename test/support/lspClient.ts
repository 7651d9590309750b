// A language client for tests: starts the built server (dist/server.js), speaks JSON-RPC to
// it over stdio, answers its workspace/configuration requests from `settings`, records every
// diagnostics and analysis-state notification, and waits on them by predicate — never by a
// fixed sleep.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol/node';
import type { AnalysisStateParams } from '../../server/protocol';

const ROOT = path.resolve(__dirname, '..', '..');

type Waiter<T> = { test: (x: T) => boolean; resolve: (x: T) => void };

export class LspTestClient {
  readonly diagnostics: PublishDiagnosticsParams[] = [];
  readonly states: AnalysisStateParams[] = [];
  readonly messages: string[] = [];
  /** The server's own stderr, apart from the messages it sends over the connection. */
  private stderr = '';
  /** The `scord` section the client answers workspace/configuration with. */
  settings: Record<string, unknown>;
  private readonly diagnosticWaiters: Waiter<PublishDiagnosticsParams>[] = [];
  private readonly stateWaiters: Waiter<AnalysisStateParams>[] = [];
  /** How the server process ended (exit code or signal), once it has. */
  private exited: string | null = null;

  private constructor(
    readonly process: ChildProcess,
    readonly conn: ProtocolConnection,
    settings: Record<string, unknown>,
  ) {
    this.settings = settings;
  }

  /**
   * Starts the server. `workspaceFolder` (an absolute path) is announced as the workspace's
   * folder; `env` is the server process's environment (default: this process's);
   * `capabilities` replaces the client capabilities announced (`{}`: a minimal client, which
   * answers no configuration request and takes no progress or lens refresh).
   */
  static async start(settings: Record<string, unknown> = {}, options: { workspaceFolder?: string; env?: NodeJS.ProcessEnv; capabilities?: object } = {}): Promise<LspTestClient> {
    const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'server.js'), '--stdio'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], ...(options.env ? { env: options.env } : {}) });
    const conn = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const client = new LspTestClient(child, conn, settings);
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      client.messages.push(d);
      client.stderr = (client.stderr + d).slice(-4000);
    });
    child.on('exit', (code, signal) => (client.exited = signal ? `killed by ${signal}` : `exit code ${code}`));
    conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      client.diagnostics.push(p);
      client.settle(client.diagnosticWaiters, p);
    });
    conn.onNotification('scord/analysisState', (p: AnalysisStateParams) => {
      client.states.push(p);
      client.settle(client.stateWaiters, p);
    });
    conn.onNotification('window/showMessage', (p: { message: string }) => client.messages.push(p.message));
    conn.onNotification('window/logMessage', (p: { message: string }) => client.messages.push(p.message));
    conn.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) => p.items.map((i) => (i.section === 'scord' ? client.settings : null)));
    conn.onRequest('client/registerCapability', () => null);
    conn.onRequest('workspace/codeLens/refresh', () => null);
    conn.onRequest('window/workDoneProgress/create', () => null);
    conn.listen();
    const folder = options.workspaceFolder ? pathToFileURL(options.workspaceFolder).toString() : null;
    await conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: folder,
      ...(folder ? { workspaceFolders: [{ uri: folder, name: path.basename(options.workspaceFolder!) }] } : {}),
      capabilities: options.capabilities ?? { workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true }, codeLens: { refreshSupport: true } }, window: { workDoneProgress: true } },
    });
    await conn.sendNotification('initialized', {});
    return client;
  }

  private settle<T>(waiters: Waiter<T>[], x: T): void {
    for (let i = waiters.length - 1; i >= 0; i--) {
      if (waiters[i].test(x)) {
        waiters[i].resolve(x);
        waiters.splice(i, 1);
      }
    }
  }

  private wait<T>(seen: T[], waiters: Waiter<T>[], test: (x: T) => boolean, what: string, timeoutMs: number, since: number): Promise<T> {
    const past = seen.slice(since).find(test);
    if (past) return Promise.resolve(past);
    return new Promise((resolve, reject) => {
      // A server that exited says why on its stderr: the message carries the end of it.
      const exited = (): string => (this.exited ? ` (the server exited, ${this.exited}; its stderr ended with: ${this.stderr.slice(-1500) || 'nothing'})` : '');
      const timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}${exited()}`)), timeoutMs);
      waiters.push({ test, resolve: (x) => (clearTimeout(timer), resolve(x)) });
    });
  }

  /** The first diagnostics for `uri` (from notification `since` on) that satisfy `test`. */
  waitForDiagnostics(uri: string, test: (p: PublishDiagnosticsParams) => boolean = () => true, timeoutMs = 20_000, since = 0): Promise<PublishDiagnosticsParams> {
    return this.wait(this.diagnostics, this.diagnosticWaiters, (p) => p.uri === uri && test(p), `diagnostics for ${uri}`, timeoutMs, since);
  }

  /** The end of the analysis of `uri` at `version` (done or stopped). */
  waitForRun(uri: string, version: number, timeoutMs = 30_000): Promise<AnalysisStateParams> {
    return this.wait(this.states, this.stateWaiters, (s) => s.uri === uri && s.version === version && s.state !== 'running', `the run of ${uri} v${version}`, timeoutMs, 0);
  }

  /** The diagnostics published after the run of `version` finished. */
  async runDiagnostics(uri: string, version: number, timeoutMs = 30_000): Promise<PublishDiagnosticsParams> {
    const mark = this.diagnostics.length;
    const state = await this.waitForRun(uri, version, timeoutMs);
    if (state.state !== 'done') throw new Error(`the run of ${uri} v${version} stopped: ${state.reason}`);
    // Published just before the state notification, in order on the same stream.
    const published = [...this.diagnostics].reverse().find((p) => p.uri === uri && p.version === version);
    return published ?? this.waitForDiagnostics(uri, (p) => p.version === version, timeoutMs, mark);
  }

  open(uri: string, text: string, version = 1): Promise<void> {
    return this.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'cuda-cpp', version, text } });
  }

  change(uri: string, version: number, changes: TextDocumentContentChangeEvent[] | string): Promise<void> {
    const contentChanges = typeof changes === 'string' ? [{ text: changes }] : changes;
    return this.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges });
  }

  save(uri: string): Promise<void> {
    return this.conn.sendNotification('textDocument/didSave', { textDocument: { uri } });
  }

  close(uri: string): Promise<void> {
    return this.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  /** New settings, announced the way VS Code does (the server then asks for them). */
  configure(settings: Record<string, unknown>): Promise<void> {
    this.settings = settings;
    return this.conn.sendNotification('workspace/didChangeConfiguration', { settings: { scord: settings } });
  }

  request<R>(method: string, params: unknown): Promise<R> {
    return this.conn.sendRequest(method, params) as Promise<R>;
  }

  get alive(): boolean {
    return !this.exited;
  }

  async stop(): Promise<void> {
    try {
      await Promise.race([this.conn.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
      await this.conn.sendNotification('exit');
    } catch {
      // already gone
    }
    this.conn.dispose();
    this.process.kill();
  }
}
