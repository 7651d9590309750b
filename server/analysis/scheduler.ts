// When each open document is analysed. Every change is parsed at once (cheap) so syntax and
// semantic problems show immediately; the run — simulation and race detection, in a worker —
// starts after a debounce, and an edit stops a stale run. The last run's findings stay on
// screen until the next run replaces them, so nothing flickers; a report that could not run
// the program because it does not compile (a half-typed line) keeps them too. A change to a
// header, or to another file of the document's program, re-analyses the open files that
// read it.
import { headerDefines, readKernelHeader } from '../../sims/host/kernelHeader';
import * as path from 'node:path';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import type { CheckReport } from '../../sims/check';
import { addNewRaces } from '../../sims/checkSchedules';
import { parse, type ParseResult } from '../../sims/frontend/index';
import { ChainBeyondCaller } from '../../sims/frontend/parser';
import { DIAGNOSTIC_CODES, isKnownCode } from '../../sims/frontend/codes';
import type { ScordSettings } from '../protocol';
import { resolveIncludePaths } from '../settings';
import { MAX_EXPANDED_TOKENS } from './messages';
import type { AnalysisRequest, ProgramRequest, ReportFrontend } from './messages';
import { defaultParallelRuns, type AnalysisOutcome, type AnalysisWorkers, type RunHandle, type RunLimits } from './workers';
import type { ReadSourceFile } from '../../sims/frontend/preprocessor';
import { asSourceText, limitsForFileMb, SourceReader, type FileLimits } from '../../sims/files/policy';
import { RecordedReads, type ParseHandoff, type ParseInputs } from './parseHandoff';

export interface LastRun {
  version: number;
  report: CheckReport;
  elapsedMs: number;
  /** When the run ended (epoch milliseconds): the inspector says "run of 21:04:13". */
  finishedAt: number;
  /** The parse of the same text (ranges, includes, the syntax tree for hovers and lenses). */
  parsed: ParseResult | undefined;
  /** Preferred fixes have been re-run and kept only where their race went away. */
  fixesChecked?: boolean;
  /** Which front end read the program for this report. */
  frontend: ReportFrontend;
  /** Whether the run took this server's parse of the version (./parseHandoff.ts) or parsed the text itself. */
  parse?: 'taken' | 'parsed';
}

/** Codes that say why a program was not run (not that its code does not compile). */
export const RUN_LEVEL_CODES: ReadonlySet<string> = new Set(['not-supported', 'no-main', 'no-kernel', 'launch', 'launch-header', 'program']);

/** Codes of what a run says about itself beside its findings (it simulated a sample of a grid). */
export const RUN_NOTE_CODES: ReadonlySet<string> = new Set(['sampled-blocks', 'beyond-device', 'undefined-function']);

/**
 * The report is of a program that does not compile (errors from clang or the front end), not
 * of a run: the findings of the last run stay on screen beside its errors.
 */
export function compileFailed(report: CheckReport): boolean {
  return !report.analysed && report.findings.length === 0 && report.diagnostics.some((d) => d.severity === 'error' && !RUN_LEVEL_CODES.has(d.code ?? ''));
}

/**
 * Why a report's program could not run, when compileFailed: syntax errors (lexer, parser: the
 * errors after one are often its cascade), or only errors of meaning (types, names, clang's).
 */
export function notRunBecause(report: CheckReport): 'syntax' | 'compile' | undefined {
  if (!compileFailed(report)) return undefined;
  const errors = report.diagnostics.filter((d) => d.severity === 'error' && !RUN_LEVEL_CODES.has(d.code ?? ''));
  return errors.some((d) => d.code !== undefined && isKnownCode(d.code) && (DIAGNOSTIC_CODES[d.code].stage === 'lexer' || DIAGNOSTIC_CODES[d.code].stage === 'parser')) ? 'syntax' : 'compile';
}

interface DocumentState {
  timer?: ReturnType<typeof setTimeout>;
  running?: { version: number; handle: RunHandle };
  /** `handoff`: the parse packed for the worker to take instead of its own, made when a run first asks. */
  parsed?: { version: number; result: ParseResult; handoff?: () => ParseHandoff | undefined };
  /** The last run whose findings are on screen. */
  lastRun?: LastRun;
  /** The newest report (the same as lastRun unless the program did not compile since). */
  lastReport?: LastRun;
  /** Files the last run read (headers), to re-analyse when one changes. */
  includes: Set<string>;
  /** A problem with the worker (crash, budget) reported for this version already. */
  problemShown?: number;
  /** Settles when the last run's preferred fixes have been checked. */
  checking?: Promise<void>;
  /** Background runs of further schedules for the version on screen. */
  exploring?: RunHandle[];
  /** The file's preprocessor flags from its compile_commands.json entry (the last run found them). */
  flags?: { defines: string[]; undefines: string[]; includeDirs: string[] };
}

export interface SchedulerHost {
  settingsFor(uri: string): Promise<ScordSettings>;
  document(uri: string): TextDocument | undefined;
  openDocuments(): TextDocument[];
  /**
   * An #include's file for the front end on the server's thread: an open document wins over
   * the disk; the disk is read only ahead (`prefetch`), so this never blocks.
   */
  readInclude(path: string, settings: ScordSettings, fileName: string): string | undefined | { refused: string };
  /** Reads ahead, off the main thread, what the document may include. */
  prefetch(doc: TextDocument, settings: ScordSettings, includePaths: string[]): Promise<void>;
  /** New front-end diagnostics for a document (the last run's findings are kept). */
  parsed(doc: TextDocument, parsed: ParseResult, settings: ScordSettings): void;
  /**
   * A report came for the document's current version. The findings shown are lastRun's: the
   * report's own, or the last run's when the report's program did not compile.
   */
  ran(doc: TextDocument, report: LastRun, settings: ScordSettings): void;
  /** Where a document's runs stand in the queue for workers: lower first (the active editor's, then visible ones). */
  priority(uri: string): number;
  /** A run could not finish: say so once, keep the previous results. */
  runProblem(doc: TextDocument, message: string): void;
  /** Runs start and end (the status bar and tests follow this). */
  runState(uri: string, version: number, state: 'running' | 'done' | 'stopped', detail?: { run?: LastRun; reason?: string }): void;
}

/**
 * What a worker runs for the document at `uri` under its settings: its text, the other open
 * documents (they win over the disk for #include), and `overrides` (a kernel, a trace, …).
 */
export function analysisRequest(uri: string, text: string, settings: ScordSettings, open: TextDocument[], overrides: AnalysisRequest['options'], verifyFixes: boolean): Omit<AnalysisRequest, 'id'> {
  const openFiles: Record<string, string> = {};
  for (const d of open) if (d.uri !== uri) openFiles[fileNameOf(d.uri)] = d.getText();
  return {
    fileName: fileNameOf(uri),
    text,
    openFiles,
    frontend: settings.frontend,
    program: programRequest(fileNameOf(uri), settings),
    files: includePolicyFor(settings, fileNameOf(uri)),
    options: {
      defines: settings.preprocessor.defines,
      includePaths: resolveIncludePaths(settings.preprocessor.includePaths, fileNameOf(uri)),
      device: settings.simulator.device,
      model: settings.simulator.scheduling,
      schedules: settings.simulator.schedules,
      seed: settings.simulator.seed,
      maxSteps: settings.simulator.stepBudget,
      ...(settings.simulator.sampleBlocks ? { sampleBlocks: { blocks: settings.simulator.sampleBlocks, whenOverBudget: true } } : {}),
      memoryModel: settings.simulator.memoryModel,
      deviceMemoryLimit: settings.analysis.memoryLimitMb * 2 ** 20,
      hardwareFaithful: settings.detector.hardwareFaithful,
      initCheck: settings.detector.initCheck,
      ...(settings.detector.warpSync ? { warpSync: true } : {}),
      ...(settings.detector.reportBenign ? {} : { benign: false }),
      engine: settings.engine,
      fairness: settings.fairness,
      ...overrides,
    },
    verifyFixes,
  };
}

/**
 * Documents longer than this are not parsed on the server's own thread (hovers and edits must
 * answer within a second, and a megabyte of source takes longer to parse): their syntax
 * problems come with the worker's run, and they get no code lenses or idiom hovers.
 */
export const MAIN_THREAD_PARSE_CHARS = 256 * 1024;

/**
 * The longest expression (in operators) this thread reads: the passes after the parser recurse
 * once per operator, and this thread's stack is Node's default, not the analysis worker's.
 */
const MAIN_THREAD_MAX_CHAIN = 1024;

/** Folders of the workspace (absolute): relative paths of the program settings start there. */
export const workspaceFolders: string[] = [];

/** Whether the client trusts the workspace (an untrusted one keeps includes inside it). */
export const workspaceTrust = { trusted: true };

/**
 * Where a document's includes may come from: anywhere in a trusted workspace (compilers read
 * any file they are told to); otherwise the workspace folders, the include paths and the
 * document's own folder. Each file within `scord.limits.maxFileMb`.
 */
export function includePolicyFor(settings: ScordSettings, fileName: string): { limits: FileLimits; allowedRoots?: string[] } {
  const limits = limitsForFileMb(settings.limits.maxFileMb);
  if (workspaceTrust.trusted) return { limits };
  return { limits, allowedRoots: [...workspaceFolders, path.dirname(fileName), ...resolveIncludePaths(settings.preprocessor.includePaths, fileName)] };
}

/** The workspace folder holding `fileName` (the innermost), or the file's own folder. */
export function baseFolderOf(fileName: string): string {
  const inside = workspaceFolders.filter((f) => fileName === f || fileName.startsWith(f.endsWith(path.sep) ? f : f + path.sep));
  return inside.sort((a, b) => b.length - a.length)[0] ?? (path.isAbsolute(fileName) ? path.dirname(fileName) : process.cwd());
}

/** The `scord.program.*` settings of a document, with paths made absolute. */
export function programRequest(fileName: string, settings: ScordSettings): ProgramRequest {
  const base = baseFolderOf(fileName);
  const p = settings.program;
  return {
    ...(p.compileCommands ? { compileCommands: path.resolve(base, p.compileCommands) } : {}),
    sources: p.sources,
    base,
    argv: p.args,
    ...(p.stdin ? { stdinFile: path.resolve(base, p.stdin) } : {}),
    // A program reads files of its folder only where the workspace is trusted (docs/editor.md, Restricted Mode).
    ...(p.allowRead && workspaceTrust.trusted ? { allowRead: true } : {}),
  };
}

export function runLimits(settings: ScordSettings): RunLimits {
  return { timeBudgetMs: settings.analysis.timeBudgetMs, memoryLimitMb: settings.analysis.memoryLimitMb };
}

export function fileNameOf(uri: string): string {
  const u = URI.parse(uri);
  return u.scheme === 'file' ? u.fsPath : uri;
}

/**
 * Why a document is not analysed at all, or undefined: larger than scord.limits.maxFileMb,
 * the size the CLI refuses too.
 */
function oversized(text: string, settings: ScordSettings): string | undefined {
  const limit = limitsForFileMb(settings.limits.maxFileMb).maxFileBytes;
  if (text.length <= limit / 4 || Buffer.byteLength(text, 'utf8') <= limit) return undefined;
  return `scord: this file is not analysed: it is larger than ${limit / 2 ** 20} MB (scord.limits.maxFileMb), as \`scord check\` refuses it`;
}

/** Background schedules queue behind every document's first run. */
const EXPLORE_PRIORITY = 1000;

/**
 * Adds the races of `more` (a run of another schedule) that `report` lacks, as one pair of
 * places and category; their fixes are not re-run, so none is preferred. Returns how many.
 */
export function mergeRaces(report: CheckReport, more: CheckReport): number {
  return addNewRaces(report, more, (f) => ({ ...f, fixes: f.fixes.map((x) => ({ ...x, preferred: false })) }));
}

export class AnalysisScheduler {
  private readonly states = new Map<string, DocumentState>();

  constructor(
    private readonly host: SchedulerHost,
    private readonly workers: AnalysisWorkers,
  ) {}

  private state(uri: string): DocumentState {
    let s = this.states.get(uri);
    if (!s) this.states.set(uri, (s = { includes: new Set() }));
    return s;
  }

  lastRun(uri: string): LastRun | undefined {
    return this.states.get(uri)?.lastRun;
  }

  /** The newest report: the last run's, or a later one whose program did not compile. */
  lastReport(uri: string): LastRun | undefined {
    return this.states.get(uri)?.lastReport;
  }

  /** The last run, once its preferred fixes have been checked (code actions wait for this). */
  async lastRunChecked(uri: string): Promise<LastRun | undefined> {
    await this.states.get(uri)?.checking;
    return this.states.get(uri)?.lastRun;
  }

  /** The parse of the document's current text (made now if the last one is stale). */
  parsedNow(doc: TextDocument, settings: ScordSettings): ParseResult {
    const s = this.state(doc.uri);
    // (A document opened without a version must not match "no parse yet".)
    if (s.parsed && s.parsed.version === doc.version) return s.parsed.result;
    const fileName = fileNameOf(doc.uri);
    // The flags clang compiles the file with, once known: the two front ends then read the same text.
    const flags = settings.frontend !== 'builtin' ? s.flags : undefined;
    // A didOpen without text (a broken client) leaves the document's text undefined: read it as empty.
    const raw: unknown = doc.getText();
    const text = typeof raw === 'string' ? raw : '';
    const defines = flags?.defines ?? settings.preprocessor.defines;
    const reads = new RecordedReads(this.includeReader(settings, fileName));
    const inputs: ParseInputs = {
      fileName,
      // A kernel-only file's header -D lines, as the run reads them (sims/check.ts readLaunchHeader).
      defines: [...headerDefines(readKernelHeader(text).header, defines, flags?.undefines ?? []), ...defines],
      undefines: flags?.undefines ?? [],
      includePaths: flags?.includeDirs ?? resolveIncludePaths(settings.preprocessor.includePaths, fileName),
      maxOutputTokens: MAX_EXPANDED_TOKENS,
    };
    const options = { ...inputs, readFile: reads.reader, workspaceRoots: [...workspaceFolders, path.dirname(fileName)] };
    let result: ParseResult;
    // Whether the parse is of the text itself, as the worker would make it (not a stand-in).
    let whole = text.length <= MAIN_THREAD_PARSE_CHARS;
    try {
      // A very large document (a generated lookup table) would hold this thread for seconds:
      // it is parsed only in the analysis worker, whose report brings its problems.
      result = parse(whole ? text : '', { ...options, maxChain: MAIN_THREAD_MAX_CHAIN });
    } catch (e) {
      whole = false;
      result = parse('', options);
      // An expression longer than this thread reads: the document is read only in the worker,
      // as a very large one is, and its problems come with the worker's report.
      if (!(e instanceof ChainBeyondCaller)) {
        // The front end threw where it should report: stand in the parse of nothing, with one
        // diagnostic that says why (a throw here would end the server).
        const at = { line: 0, character: 0, offset: 0 };
        const message = `scord: the front end failed on this text (${e instanceof Error ? e.message : String(e)}); nothing is checked until it changes`;
        result.diagnostics.push({ severity: 'error', code: 'analysis-stopped', message, range: { file: fileName, start: at, end: at } });
      }
    }
    const tooLarge = oversized(text, settings);
    if (tooLarge) {
      whole = false;
      const at = { line: 0, character: 0, offset: 0 };
      result.diagnostics.push({ severity: 'error', code: 'analysis-stopped', message: tooLarge, range: { file: fileName, start: at, end: at } });
    }
    const parsed = result;
    let packed: { handoff: ParseHandoff | undefined } | undefined;
    const handoff = (): ParseHandoff | undefined => (packed ??= { handoff: reads.handoff(parsed, text, inputs) }).handoff;
    s.parsed = { version: doc.version, result, ...(whole ? { handoff } : {}) };
    return result;
  }

  /** Includes for one parse: each file within the file cap, all of them within the program's total. */
  private includeReader(settings: ScordSettings, fileName: string): ReadSourceFile {
    const budget = new SourceReader({ limits: limitsForFileMb(settings.limits.maxFileMb) });
    return (p) => {
      const r = this.host.readInclude(p, settings, fileName);
      return typeof r === 'string' ? asSourceText(budget.account(p, r)) : r;
    };
  }

  /** The document changed (or was opened, or its settings changed). */
  async changed(doc: TextDocument, reason: 'open' | 'change' | 'save' | 'settings' | 'dependency'): Promise<void> {
    // The document object is updated in place: remember which version this change is about.
    const version = doc.version;
    const settings = await this.host.settingsFor(doc.uri);
    // Changes that arrived meanwhile are coalesced: only the newest one is parsed and run.
    if (reason === 'change') await new Promise((resolve) => setImmediate(resolve));
    let current = this.host.document(doc.uri);
    if (!current || current.version !== version) return; // a newer change is on its way
    const s = this.state(doc.uri);
    // Background schedules of the old text are of no use any more.
    this.stopExploring(s);
    // What it includes is read first, off this thread; the parse then finds it in memory.
    await this.host.prefetch(doc, settings, s.flags?.includeDirs ?? resolveIncludePaths(settings.preprocessor.includePaths, fileNameOf(doc.uri)));
    current = this.host.document(doc.uri);
    if (!current || current.version !== version) return;
    this.host.parsed(doc, this.parsedNow(doc, settings), settings);
    // An edit makes a running analysis stale: stop it now. So does a change to a header or to
    // the settings, though the version is the same: that run read the old header or settings.
    if (s.running && (s.running.version !== doc.version || reason === 'dependency' || reason === 'settings')) this.cancel(doc.uri);
    const trigger = settings.analysis.trigger;
    if (trigger === 'off') return;
    if (trigger === 'onSave' && reason === 'change') return;
    // A dependency (a header, another file of the program) changes as it is typed in: wait for a pause too.
    this.schedule(doc, reason === 'change' || reason === 'dependency' ? settings.analysis.debounceMs : 0);
  }

  /** The parse of this version for the worker to take (made once, when the first run asks). */
  private handoff(s: DocumentState, version: number): { parse?: ParseHandoff } {
    const parse = s.parsed?.version === version ? s.parsed.handoff?.() : undefined;
    return parse ? { parse } : {};
  }

  /** The parse of an open document's current version for the worker to take (a litmus run's). */
  handoffOf(uri: string): { parse?: ParseHandoff } {
    const doc = this.host.document(uri);
    const s = this.states.get(uri);
    return doc && s ? this.handoff(s, doc.version) : {};
  }

  private schedule(doc: TextDocument, delayMs: number): void {
    const s = this.state(doc.uri);
    if (s.timer) clearTimeout(s.timer);
    s.timer = setTimeout(() => {
      s.timer = undefined;
      void this.start(doc.uri);
    }, delayMs);
  }

  private cancel(uri: string): void {
    const s = this.states.get(uri);
    this.stopExploring(s);
    if (!s?.running) return;
    s.running.handle.cancel();
    s.running = undefined;
  }

  private stopExploring(s: DocumentState | undefined): void {
    if (!s?.exploring) return;
    // Last first: the waiting ones are withdrawn before a running one gives its place back,
    // which would otherwise start the next stale one (and a worker for it) only to cancel it.
    for (const h of [...s.exploring].reverse()) h.cancel();
    s.exploring = undefined;
  }

  /**
   * After the first run's findings are on screen: the other seeded schedules of
   * scord.analysis.schedules, in the background (as many at once as the workers allow, after
   * every first run), within the time budget; each one's new races join the diagnostics.
   * An edit stops them.
   */
  private async explore(uri: string, version: number, settings: ScordSettings, run: LastRun): Promise<void> {
    const s = this.state(uri);
    const doc = this.host.document(uri);
    const extra = settings.analysis.schedules - 1;
    // A run that already explored several schedules itself (scord.simulator.schedules) needs no more.
    if (!doc || extra <= 0 || settings.simulator.schedules > 1 || !run.report.analysed) return;
    this.stopExploring(s);
    const deadline = Date.now() + settings.analysis.timeBudgetMs;
    const handles: RunHandle[] = [];
    for (let k = 1; k <= extra; k++) {
      const overrides = { scheduler: 'random' as const, schedules: 1, seed: settings.simulator.seed + k };
      handles.push(this.workers.run({ ...analysisRequest(uri, doc.getText(), settings, this.host.openDocuments(), overrides, false), ...this.handoff(s, version) }, { ...runLimits(settings), priority: () => this.host.priority(uri) + EXPLORE_PRIORITY }));
    }
    s.exploring = handles;
    const timer = setTimeout(() => this.stopExploring(s.exploring === handles ? s : undefined), Math.max(0, deadline - Date.now()));
    await Promise.all(
      handles.map(async (h) => {
        const outcome = await h.outcome;
        const current = this.host.document(uri);
        if (outcome.kind !== 'report' || s.exploring !== handles || s.lastRun !== run || current?.version !== version) return;
        if (mergeRaces(run.report, outcome.report)) this.host.ran(current, run, settings);
      }),
    );
    clearTimeout(timer);
    if (s.exploring === handles) s.exploring = undefined;
  }

  private async start(uri: string): Promise<void> {
    const doc = this.host.document(uri);
    if (!doc) return;
    const settings = await this.host.settingsFor(uri);
    const s = this.state(uri);
    if (s.running?.version === doc.version) return;
    this.cancel(uri);
    const version = doc.version;
    // Refused as `scord check` refuses it (said by its parse).
    if (oversized(doc.getText(), settings)) return;
    this.workers.setMaxParallel(settings.analysis.maxParallelRuns || defaultParallelRuns());
    const handle = this.workers.run({ ...analysisRequest(uri, doc.getText(), settings, this.host.openDocuments(), { inspect: {} }, true), ...this.handoff(s, version) }, { ...runLimits(settings), priority: () => this.host.priority(uri) });
    s.running = { version, handle };
    this.host.runState(uri, version, 'running');
    const outcome = await handle.outcome;
    this.finished(uri, version, outcome, settings);
    s.checking = handle.verified.then(() => undefined);
    const verdicts = await handle.verified;
    if (s.running?.handle === handle) s.running = undefined;
    // Fixes become preferred only once a re-run has shown they remove their race.
    const run = s.lastRun;
    if (verdicts && outcome.kind === 'report' && run?.report === outcome.report) {
      run.report.findings.forEach((f, i) => f.fixes.forEach((fix, j) => (fix.preferred = !!verdicts[i]?.[j])));
      run.fixesChecked = true;
    }
    if (outcome.kind === 'report' && run?.report === outcome.report && this.host.document(uri)?.version === version) void this.explore(uri, version, settings, run);
  }

  private finished(uri: string, version: number, outcome: AnalysisOutcome, settings: ScordSettings): void {
    const doc = this.host.document(uri);
    // Closed, or edited since: the result is stale (a newer run is scheduled).
    if (!doc || doc.version !== version || outcome.kind === 'cancelled') {
      this.host.runState(uri, version, 'stopped', { reason: outcome.kind === 'cancelled' ? 'cancelled' : 'stale' });
      return;
    }
    const s = this.state(uri);
    if (outcome.kind !== 'report') {
      this.host.runState(uri, version, 'stopped', { reason: outcome.kind === 'failed' ? outcome.message : outcome.kind });
      if (s.problemShown === version) return;
      s.problemShown = version;
      const message =
        outcome.kind === 'timeout'
          ? `scord: the analysis was stopped after ${outcome.budgetMs} ms (scord.analysis.timeBudgetMs); findings shown are from the last complete run`
          : outcome.kind === 'out-of-memory'
            ? `scord: the analysis ran out of memory (${outcome.limitMb} MB, scord.analysis.memoryLimitMb) and was stopped; the next edit starts a fresh one`
            : `scord: the analysis failed (${outcome.message}); the next edit starts a fresh one`;
      this.host.runProblem(doc, message);
      return;
    }
    s.includes = new Set(outcome.includes);
    if (JSON.stringify(outcome.flags) !== JSON.stringify(s.flags)) {
      // Parsed with other flags than clang compiled with: parse again.
      s.flags = outcome.flags;
      s.parsed = undefined;
    }
    const parsed = s.parsed?.version === version ? s.parsed.result : undefined;
    const report: LastRun = { version, report: outcome.report, elapsedMs: outcome.elapsedMs, finishedAt: Date.now(), parsed, frontend: outcome.frontend, parse: outcome.parse };
    s.lastReport = report;
    // A program that does not compile keeps the last run's findings on screen (and in hovers and lenses).
    if (!s.lastRun || !compileFailed(outcome.report)) s.lastRun = report;
    this.host.ran(doc, report, settings);
    this.host.runState(uri, version, 'done', { run: report });
  }

  /** A file changed (an open header edited, or a file on disk): re-analyse its includers. */
  dependencyChanged(path: string): void {
    for (const doc of this.host.openDocuments()) {
      const s = this.states.get(doc.uri);
      if (!s || fileNameOf(doc.uri) === path) continue;
      const includes = s.parsed?.result.files.includes(path) || s.includes.has(path);
      if (includes) {
        s.parsed = undefined;
        void this.changed(doc, 'dependency');
      }
    }
  }

  /** Every open document again (settings changed). */
  all(reason: 'settings'): void {
    for (const doc of this.host.openDocuments()) {
      const s = this.states.get(doc.uri);
      if (s) s.parsed = undefined;
      void this.changed(doc, reason);
    }
  }

  closed(uri: string): void {
    const s = this.states.get(uri);
    if (!s) return;
    if (s.timer) clearTimeout(s.timer);
    this.cancel(uri);
    this.states.delete(uri);
  }
}
