// The language server. It adapts the engine (sims/) to LSP and holds no engine logic: the
// scheduler decides when to analyse, workers run the engine, and each feature (diagnostics,
// code actions, lenses, hovers, the run and inspect requests) is a small module.
import * as path from 'node:path';
import {
  CodeActionKind,
  ErrorCodes,
  LSPErrorCodes,
  MessageType,
  ResponseError,
  ShowMessageRequest,
  createConnection,
  DidChangeConfigurationNotification,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { ENGINES, publicReport } from '../sims/check';
import { MEMORY_MODELS } from '../sims/gpu/memoryModels';
import { analysisRequest, AnalysisScheduler, fileNameOf, includePolicyFor, notRunBecause, runLimits, workspaceFolders, workspaceTrust } from './analysis/scheduler';
import { AnalysisWorkers, type AnalysisOutcome } from './analysis/workers';
import { codeActions, FIX_ALL_KIND, type OwnerRun } from './features/codeActions';
import { codeLenses } from './features/codeLens';
import { hover } from './features/hover';
import { kernelsOf } from './features/kernels';
import { litmusHandler } from './features/litmus';
import { editedDiagnostics, reportedDiagnostics, type DocumentView } from './features/shownDiagnostics';
import { DiagnosticsPublisher } from './features/publisher';
import { beginProgress, listenForProgressCancel } from './features/progress';
import { AnalysisStateNotification, InspectRequest, inspectorState, KernelsRequest, LitmusRequest, RunRequest, VisibleDocumentsNotification, WorkspaceTrustNotification, type InspectResult, type RunResult, type ScordSettings } from './protocol';
import { SettingsStore } from './settings';
import { IncludeFiles } from './includeFiles';
import { asSourceText } from '../sims/files/policy';
import { readSourceFile } from './sourceFiles';

const connection = createConnection(ProposedFeatures.all);
// Work started on a notification is not awaited by anyone (`void scheduler.changed(…)`): if it
// rejects, Node would end the process and every open editor would lose the server. It is
// reported in the server's output instead, and the server goes on.
process.on('unhandledRejection', (reason) => {
  connection.console.error(`scord: internal error (the server goes on): ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`);
});
const documents = new TextDocuments(TextDocument);
const settings = new SettingsStore(connection);
// The worker script sits beside this bundle (esbuild builds both into dist/).
const workers = new AnalysisWorkers(path.join(__dirname, 'analysisHost.js'), path.join(__dirname, 'analysisWorker.js'));

/** Open documents win over the disk, so unsaved edits to a header are seen at once. */
function readFile(filePath: string): string | undefined {
  const open = documents.get(URI.file(filePath).toString());
  if (open) return open.getText();
  return readSourceFile(filePath);
}

/** Documents visible in the client's editors, the active one first. */
let visible: string[] = [];
const includeFiles = new IncludeFiles((file) => scheduler.dependencyChanged(file));

const publisher = new DiagnosticsPublisher(
  (params) => void connection.sendDiagnostics(params),
  (uri) => documents.get(uri)?.version,
);

function viewOf(uri: string, settings: ScordSettings): DocumentView {
  return { uri, fileName: fileNameOf(uri), settings, lastReport: scheduler.lastReport(uri), lastRun: scheduler.lastRun(uri), misreadings: publisher.misreadings(uri) };
}

const scheduler = new AnalysisScheduler(
  {
    settingsFor: (uri) => settings.get(uri),
    document: (uri) => documents.get(uri),
    openDocuments: () => documents.all(),
    readInclude: (file, s, fileName) => {
      const open = documents.get(URI.file(file).toString());
      if (open) return open.getText();
      return asSourceText(includeFiles.read(file, includePolicyFor(s, fileName)));
    },
    prefetch: (doc, s, includePaths) => {
      const fileName = fileNameOf(doc.uri);
      return includeFiles.prefetch(fileName, doc.getText(), includePaths, includePolicyFor(s, fileName), (f) => documents.get(URI.file(f).toString())?.getText());
    },
    priority: (uri) => {
      const at = visible.indexOf(uri);
      return at >= 0 ? at : visible.length + 1;
    },
    // A new parse shows at once, beside the last report's diagnostics and the last run's
    // findings until the next report replaces them.
    parsed: (doc, parsed, s) => publisher.show(doc.uri, editedDiagnostics(viewOf(doc.uri, s), parsed)),
    // A report replaces what is shown; from clang, its diagnostics replace the front end's.
    ran: (doc, report, s) => {
      publisher.showReport(doc.uri, reportedDiagnostics(viewOf(doc.uri, s), report.parsed ?? scheduler.parsedNow(doc, s)));
      if (canRefreshLenses) void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
    },
    runState: (uri, version, state, detail) => {
      const run = detail?.run;
      void connection.sendNotification(AnalysisStateNotification, {
        uri,
        version,
        state,
        ...(run ? { races: run.report.findings.filter((f) => f.kind === 'race').length, findings: run.report.findings.length, elapsedMs: run.elapsedMs } : {}),
        ...(run && notRunBecause(run.report) ? { notRun: notRunBecause(run.report) } : {}),
        ...(run?.report.stats.sampled?.length ? { sampled: { ...run.report.stats.sampled[0], launches: run.report.stats.sampled.reduce((n, s) => n + s.launches, 0) } } : {}),
        ...(run?.parse ? { parse: run.parse } : {}),
        ...(detail?.reason ? { reason: detail.reason } : {}),
      });
    },
    runProblem: (doc, message) => {
      publisher.showProblem(doc.uri, message);
      // window/showMessageRequest, as showWarningMessage sends it, but with its rejection
      // handled: a client may answer it with an error (or not implement it), and an unhandled
      // rejection would end the server (showWarningMessage is typed void, so it cannot be caught).
      void connection.sendRequest(ShowMessageRequest.type, { type: MessageType.Warning, message }).catch(() => undefined);
    },
  },
  workers,
);

let canRefreshLenses = false;
let canFollowFolders = false;

function setWorkspaceFolders(uris: string[]): void {
  const paths = uris.map((u) => URI.parse(u)).filter((u) => u.scheme === 'file').map((u) => u.fsPath);
  workspaceFolders.splice(0, workspaceFolders.length, ...paths);
}

connection.onInitialize((params) => {
  settings.canAsk = !!params.capabilities.workspace?.configuration;
  // Relative paths of the program settings start at the workspace folder.
  setWorkspaceFolders(params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []));
  canFollowFolders = !!params.capabilities.workspace?.workspaceFolders;
  canRefreshLenses = !!params.capabilities.workspace?.codeLens?.refreshSupport;
  workspaceTrust.trusted = (params.initializationOptions as { trusted?: unknown } | undefined)?.trusted !== false;
  workers.prewarm(1024);
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND] },
      codeLensProvider: { resolveProvider: false },
      hoverProvider: true,
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    },
    serverInfo: { name: 'scord-language-server' },
  };
});

connection.onInitialized(() => {
  if (settings.canAsk) void connection.client.register(DidChangeConfigurationNotification.type, { section: 'scord' }).catch(() => undefined);
  // Relative program settings follow the workspace's folders.
  if (canFollowFolders) {
    connection.workspace.onDidChangeWorkspaceFolders((e) => {
      const gone = new Set(e.removed.map((f) => URI.parse(f.uri).fsPath));
      setWorkspaceFolders([...workspaceFolders.filter((f) => !gone.has(f)).map((f) => URI.file(f).toString()), ...e.added.map((f) => f.uri)]);
      scheduler.all('settings');
    });
  }
});

connection.onNotification(WorkspaceTrustNotification, (p) => {
  if (workspaceTrust.trusted === p.trusted) return;
  workspaceTrust.trusted = p.trusted;
  scheduler.all('settings');
});

connection.onNotification(VisibleDocumentsNotification, (p) => {
  visible = Array.isArray(p.uris) ? p.uris.filter((u): u is string => typeof u === 'string') : [];
});

connection.onDidChangeConfiguration((change) => {
  const pushed = (change.settings as { scord?: Record<string, unknown> } | null)?.scord;
  settings.changed(pushed);
  scheduler.all('settings');
});

// A didOpen fires onDidOpen and then onDidChangeContent: handle it once, as an open (which
// runs at once, where a change waits for the debounce).
const opening = new Set<string>();
documents.onDidOpen((e) => {
  opening.add(e.document.uri);
  void scheduler.changed(e.document, 'open');
});
documents.onDidChangeContent((e) => {
  const opened = opening.delete(e.document.uri);
  if (!opened) void scheduler.changed(e.document, 'change');
  // An open header (or another file of a program) may differ from the disk its includers were
  // analysed with; opened as it is on disk, it changes nothing for them.
  const fileName = fileNameOf(e.document.uri);
  if (!opened || readSourceFile(fileName) !== e.document.getText()) scheduler.dependencyChanged(fileName);
});
documents.onDidSave((e) => void scheduler.changed(e.document, 'save'));
documents.onDidClose((e) => {
  const uri = e.document.uri;
  scheduler.closed(uri);
  settings.forget(uri);
  publisher.forget(uri);
});

connection.onDidChangeWatchedFiles((e) => {
  for (const change of e.changes) {
    const u = URI.parse(change.uri);
    if (u.scheme === 'file') includeFiles.invalidate(u.fsPath);
    if (u.scheme === 'file' && !documents.get(change.uri)) scheduler.dependencyChanged(u.fsPath);
  }
});

/** Runs the engine on a handler's behalf and turns any failure into a value, never a throw. */
function safely<T>(what: string, f: () => T, fallback: T): T {
  try {
    return f();
  } catch (e) {
    connection.console.error(`scord: ${what} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return fallback;
  }
}

connection.onCodeAction(async (params) => {
  const doc = documents.get(params.textDocument.uri);
  if (!doc) return [];
  // Fixes are offered as preferred only once a re-run has shown they work: wait for that (for a
  // header's race, in the run of the document that includes it).
  const uris = new Set([doc.uri, ...params.context.diagnostics.map((d) => (d.data as { owner?: unknown } | undefined)?.owner).filter((o): o is string => typeof o === 'string')]);
  const runs = new Map<string, OwnerRun>();
  for (const uri of uris) runs.set(uri, { uri, fileName: fileNameOf(uri), version: documents.get(uri)?.version, run: await scheduler.lastRunChecked(uri) });
  const header = (file: string) => documents.get(URI.file(file).toString())?.getText() ?? readSourceFile(file);
  return safely('code actions', () => codeActions(params, doc, (uri) => runs.get(uri) ?? { uri, fileName: fileNameOf(uri), version: undefined, run: undefined }, header), []);
});

connection.onCodeLens(async (params) => {
  const doc = documents.get(params.textDocument.uri);
  if (!doc) return [];
  const s = await settings.get(doc.uri);
  return safely('code lenses', () => codeLenses(doc.uri, fileNameOf(doc.uri), scheduler.parsedNow(doc, s), scheduler.lastRun(doc.uri)), []);
});

connection.onHover(async (params) => {
  const doc = documents.get(params.textDocument.uri);
  if (!doc) return null;
  const s = await settings.get(doc.uri);
  return safely('hover', () => hover(doc, params.position, fileNameOf(doc.uri), scheduler.parsedNow(doc, s), scheduler.lastRun(doc.uri)), null);
});

/** A run that did not give a report, as the request's error: a cancelled one as LSP says (RequestCancelled). */
function outcomeFailure(what: string, o: Exclude<AnalysisOutcome, { kind: 'report' }>): Error {
  const message = `${what}: ${outcomeError(o)}`;
  return o.kind === 'cancelled' ? new ResponseError(LSPErrorCodes.RequestCancelled, message) : new Error(message);
}

function outcomeError(o: Exclude<AnalysisOutcome, { kind: 'report' }>): string {
  return o.kind === 'cancelled' ? 'the run was cancelled' : o.kind === 'timeout' ? `the run was stopped after ${o.budgetMs} ms` : o.kind === 'out-of-memory' ? `the run ran out of memory (${o.limitMb} MB)` : o.message;
}

/** A run override that must be one of `allowed`; anything else is the caller's mistake, said so. */
function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new ResponseError(ErrorCodes.InvalidParams, `scord/run: options.${name} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`);
}

connection.onRequest(RunRequest, async (params, token): Promise<RunResult> => {
  const doc = documents.get(params.uri);
  const fileName = fileNameOf(params.uri);
  const text = doc?.getText() ?? readFile(fileName);
  if (text === undefined) throw new Error(`scord/run: ${params.uri} is neither open nor readable`);
  const s = await settings.get(params.uri);
  const entry = params.entry && params.entry !== 'main' ? params.entry : undefined;
  const o = params.options ?? {};
  const overrides = {
    ...(o.device !== undefined ? { device: o.device } : {}),
    ...(o.scheduling !== undefined ? { model: o.scheduling } : {}),
    ...(o.schedules !== undefined ? { schedules: o.schedules } : {}),
    ...(o.seed !== undefined ? { seed: o.seed } : {}),
    ...(o.hardwareFaithful !== undefined ? { hardwareFaithful: o.hardwareFaithful } : {}),
    ...(o.fairness !== undefined ? { fairness: o.fairness } : {}),
    ...(o.engine !== undefined ? { engine: oneOf('engine', o.engine, ENGINES) } : {}),
    ...(o.memoryModel !== undefined ? { memoryModel: oneOf('memoryModel', o.memoryModel, MEMORY_MODELS) } : {}),
    ...(entry?.fromMain
      ? { untilLaunchOf: { kernel: entry.kernel, grid: entry.grid, block: entry.block } }
      : entry
        ? { entry: { kernel: entry.kernel, grid: entry.grid, block: entry.block, args: entry.args ?? {}, ...(entry.pointers ? { pointers: entry.pointers } : {}) } }
        : {}),
  };
  // Asked for by the user: ahead of the runs that edits start.
  const handle = workers.run(analysisRequest(params.uri, text, s, documents.all(), overrides, false), { ...runLimits(s), priority: () => -1 });
  const progress = beginProgress(connection, params.workDoneToken, `Running ${entry ? entry.kernel : path.basename(fileName)}`, () => handle.cancel());
  const onCancel = token.onCancellationRequested(() => handle.cancel());
  const outcome = await handle.outcome;
  onCancel.dispose();
  progress.done();
  if (outcome.kind !== 'report') throw outcomeFailure('scord/run', outcome);
  const pub = publicReport(outcome.report);
  return { uri: params.uri, analysed: outcome.report.analysed, findings: pub.findings, diagnostics: pub.diagnostics, output: pub.output, stats: { ...pub.stats, elapsedMs: outcome.elapsedMs } };
});

connection.onRequest(InspectRequest, async (params, token): Promise<InspectResult> => {
  const doc = documents.get(params.uri);
  const run = scheduler.lastRun(params.uri);
  const base: InspectResult = { uri: params.uri, version: run?.version ?? null, state: run?.report.state ? inspectorState(run.report.state) : null, findings: run ? publicReport(run.report).findings : [], stats: run ? { ...run.report.stats, elapsedMs: run.elapsedMs } : null, finishedAt: run?.finishedAt ?? null };
  if (!params.address || !doc) return base;
  // The accesses to one address: a run with that address traced.
  const s = await settings.get(params.uri);
  // One run is enough for a trace, whatever the schedules setting.
  const handle = workers.run(analysisRequest(params.uri, doc.getText(), s, documents.all(), { schedules: 1, inspect: { trace: params.address } }, false), { ...runLimits(s), priority: () => -1 });
  const onCancel = token.onCancellationRequested(() => handle.cancel());
  const outcome = await handle.outcome;
  onCancel.dispose();
  if (outcome.kind !== 'report') throw outcomeFailure('scord/inspect', outcome);
  return { uri: params.uri, version: doc.version, state: outcome.report.state ? inspectorState(outcome.report.state) : null, findings: publicReport(outcome.report).findings, stats: { ...outcome.report.stats, elapsedMs: outcome.elapsedMs }, finishedAt: Date.now() };
});

connection.onRequest(KernelsRequest, async (params) => {
  const doc = documents.get(params.uri);
  if (!doc) return { hasMain: false, kernels: [] };
  const s = await settings.get(doc.uri);
  return safely('kernels', () => kernelsOf(scheduler.parsedNow(doc, s), doc.getText(), fileNameOf(doc.uri), scheduler.lastRun(doc.uri)?.report.stats.launched), { hasMain: false, kernels: [] });
});

connection.onRequest(LitmusRequest, litmusHandler({ connection, documents, settings, workers, readFile, parseOf: (uri) => scheduler.handoffOf(uri) }));

connection.onShutdown(() => workers.dispose());
listenForProgressCancel(connection);

documents.listen(connection);
connection.listen();
