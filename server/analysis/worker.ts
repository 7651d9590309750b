// The analysis worker: runs one check (parse, simulate, detect) or one litmus exploration per
// request, off the server's thread, so an edit can stop a stale run by ending the worker.
// A check takes the path `scord.frontend` chooses: the hand-written front end, or clang
// (compiled to WebAssembly, loaded on first use) for the program the document belongs to.
// Fixes are proven by re-running the fixed text on the same path: a fix is preferred only if
// its race is then gone and nothing new appears (sims/fixes/prove.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { readSourceChecked } from '../sourceFiles';
import { checkParsedEntry, checkSource, notAnalysed, readLaunchHeader, type CheckOptions, type CheckReport } from '../../sims/check';
import { checkProgram, withClangsPart } from '../../sims/clang/check';
import { SourceRanges } from '../../sims/clang/ranges';
import { programArch } from '../../sims/clang/program';
import { compileDevice, compileHost, type TranslationUnitSpec } from '../../sims/clang/toolchain';
import { runTool } from '../../sims/clang/toolchain/wasm';
import { applyEdits, editsByFile } from '../../sims/fixes/apply';
import type { TextEdit } from '../../sims/fixes/fixes';
import { proveFixes, type ProofBudget } from '../../sims/fixes/prove';
import { parse, type ParseResult } from '../../sims/frontend/index';
import { declaredOutcomes, runLitmus } from '../../sims/litmus/run';
import { RunInterrupted, setRunInterrupt } from '../../sims/machine/executor';
import { CANCEL_SLOTS, MAX_EXPANDED_TOKENS, type AnalysisRequest, type AnalysisResponse, type ReportFrontend, type WorkerControl } from './messages';
import { resolveProgram, withText, type ResolvedProgram } from './program';
import { takeHandoff, type ParseInputs } from './parseHandoff';

/** Candidate fixes tried per run, and per finding (each costs a run). */
const PROOF_BUDGET: ProofBudget = { runs: 16, perFinding: 3 };

/** Open documents win over the disk for #include. */
function readerFor(req: AnalysisRequest): (p: string) => string | undefined | { refused: string } {
  return (p) => (p in req.openFiles ? req.openFiles[p] : readSourceChecked(p, req.files?.limits, req.files?.allowedRoots));
}

/**
 * A litmus run: the histogram of the program's outcomes under the requested memory model, with
 * the outcomes the file names (`// outcome:` lines) always listed.
 */
function exploreLitmus(req: AnalysisRequest & { litmus: NonNullable<AnalysisRequest['litmus']> }): void {
  const t0 = performance.now();
  const { defines = [], undefines = [], includePaths = [] } = req.options;
  const inputs: ParseInputs = { fileName: req.fileName, defines, undefines, includePaths, maxOutputTokens: MAX_EXPANDED_TOKENS };
  const read = readerFor(req);
  const parsed = takeHandoff(req.parse, req.text, inputs, read, () => undefined) ?? parse(req.text, { ...inputs, readFile: read });
  const report = runLitmus(parsed, { ...req.litmus, declared: req.litmus.declared ?? declaredOutcomes(req.text) });
  post({ id: req.id, kind: 'litmus', report, elapsedMs: performance.now() - t0 });
}

/** A request the server has dropped (an edit made it stale): given up between compiles. */
class Dropped extends Error {}
const dropped = new Set<number>();

/** Gives the server's `cancel` a chance to arrive (it queues behind the compile), then honours it. */
async function checkpoint(id: number): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  if (dropped.has(id)) throw new Dropped();
}

/** A read's text, or undefined when there is none or the policy refused it. */
function textOf(r: string | undefined | { refused: string }): string | undefined {
  return typeof r === 'string' ? r : undefined;
}

/** Files that are included, not compiled. */
const HEADER = /\.(h|hh|hpp|hxx|cuh|inl|inc)$/i;

interface PathReport {
  report: CheckReport;
  frontend: ReportFrontend;
}

async function analyse(req: AnalysisRequest): Promise<void> {
  const t0 = performance.now();
  const read = readerFor(req);
  const files = new Set<string>();
  // Every file the run reads from an open document or the disk is a dependency: an edit to
  // it re-analyses this document.
  // A fix being proven that edits a header: the header's edited text, for that re-run only.
  let overlay = new Map<string, string>();
  const readFile = (p: string): string | undefined | { refused: string } => {
    files.add(p);
    return overlay.get(p) ?? read(p);
  };
  const openText = (p: string): string | undefined => {
    files.add(p);
    return p === req.fileName ? req.text : req.openFiles[p];
  };
  const program: ResolvedProgram | undefined = req.frontend === 'builtin' ? undefined : resolveProgram(req, openText, new SourceRanges((p) => (p === req.fileName ? req.text : textOf(read(p)))));
  for (const f of program?.files ?? []) files.add(f);

  // The clang path after the hand-written one (a file it leaves to clang) reads the same text:
  // the same parse, once. A fix that edits a header changes what the same text reads: its
  // re-run parses afresh.
  let lastParse: { text: string; parsed: ParseResult } | undefined;
  /** The first check took the server's parse (the report says so). */
  let parseTaken = false;
  const parseOnce = (text: string, parseNow: () => ParseResult): ParseResult => {
    if (overlay.size === 0 && lastParse?.text === text) return lastParse.parsed;
    const parsed = parseNow();
    lastParse = overlay.size === 0 ? { text, parsed } : undefined;
    return parsed;
  };
  const options = (text: string): CheckOptions & { parsed: ParseResult; launch: ReturnType<typeof readLaunchHeader> } => {
    // Parsed here with the server's expansion limit, so a runaway macro ends the run at once
    // (as an error, as the server shows it) instead of expanding until the time budget.
    // With a compile_commands.json entry, the file's own flags.
    const unit = program?.unit;
    const defines = unit ? unit.defines : (req.options.defines ?? []);
    const undefines = unit ? (unit.undefines ?? []) : (req.options.undefines ?? []);
    const includePaths = unit ? unit.includeDirs : (req.options.includePaths ?? []);
    // A kernel-only file's header adds its -D lines, as `scord check` reads them.
    const launch = readLaunchHeader(req.fileName, text, defines, undefines);
    const inputs: ParseInputs = { fileName: req.fileName, defines: launch.defines, undefines, includePaths, maxOutputTokens: MAX_EXPANDED_TOKENS };
    const parsed = parseOnce(text, () => {
      // The server's parse of this version, when it is this one (not for a fix's re-run: its reads differ).
      const taken = overlay.size === 0 ? takeHandoff(req.parse, text, inputs, read, (p) => files.add(p)) : undefined;
      if (taken) parseTaken = true;
      return taken ?? parse(text, { ...inputs, readFile });
    });
    // The architecture its build database says (nvcc's -arch) schedules the warps on either front end.
    const arch = program ? programArch(program.options.units) : undefined;
    return { ...req.options, defines, undefines, includePaths, fileName: req.fileName, text, readFile, parsed, launch, ...(arch !== undefined ? { arch } : {}) };
  };
  /**
   * The hand-written front end's check: the program's main, or a kernel-only file's kernel
   * launched from its header (an explicit Run Kernel request names the launch itself).
   */
  const builtinCheck = (text: string): CheckReport => {
    const { launch, ...o } = options(text);
    if (launch.problems.length) return notAnalysed(o, launch.problems);
    if (o.entry) return checkSource(o);
    const report = checkParsedEntry(o.parsed, o, launch.header);
    return 'usage' in report ? notAnalysed(o, [{ severity: 'error', code: 'launch', message: report.usage }]) : report;
  };
  const viaClang = async (text: string): Promise<CheckReport> => {
    const clangProgram = withText(program!.options, req.fileName, text);
    post({ id: req.id, kind: 'compiling' });
    await compileAhead(req.id, clangProgram.units);
    post({ id: req.id, kind: 'compiled' });
    const { launch: _launch, ...o } = options(text);
    return checkProgram(o, clangProgram, 'clang');
  };
  // A header on its own is no program for clang to compile: the hand-written front end reads it.
  const headerAlone = req.frontend === 'auto' && !!program?.alone && HEADER.test(req.fileName);
  // The choice checkProgram makes (sims/clang/check.ts), made here step by step so that the
  // server knows which front end's report it shows, and a drop can stop it between steps.
  const check = async (text: string, path?: ReportFrontend): Promise<PathReport> => {
    // Each check (the first, and each fix's re-run) starts by honouring a drop.
    await checkpoint(req.id);
    let result: PathReport;
    if (req.frontend === 'builtin' || path === 'builtin') result = { report: builtinCheck(text), frontend: 'builtin' };
    else if (req.frontend === 'clang' || path === 'clang' || !program!.alone) result = { report: await viaClang(text), frontend: 'clang' };
    else {
      // It ran the file, or could not for its launch: its report. A syntax error (a half-typed
      // line, or C++ it does not know) is clang's to judge when clang runs the file; anything
      // else it cannot run is clang's to judge.
      const builtin = builtinCheck(text);
      const report = headerAlone ? builtin : await withClangsPart(builtin, () => viaClang(text));
      result = { report, frontend: report === builtin ? 'builtin' : 'clang' };
    }
    // What kept parts of the program out (a bad database, an unreadable stdin file) comes first.
    if (program?.problems.length) result.report.diagnostics.unshift(...program.problems);
    return result;
  };

  const first = await check(req.text);
  const { report } = first;
  const reply = (): AnalysisResponse => ({ id: req.id, kind: 'report', report, elapsedMs: performance.now() - t0, includes: [...files], frontend: first.frontend, parse: parseTaken ? 'taken' : 'parsed', ...(program?.flags ? { flags: program.flags } : {}) });
  if (!req.verifyFixes) {
    post(reply());
    return;
  }
  // The findings go out at once, with no fix preferred until a re-run has proven one.
  const candidates: CheckReport = { ...report, findings: report.findings.map((f) => ({ ...f, fixes: f.fixes.map((x) => ({ ...x })) })) };
  for (const f of report.findings) for (const x of f.fixes) x.preferred = false;
  post(reply());
  const rerun = async (edits: TextEdit[]): Promise<CheckReport> => {
    const byFile = editsByFile(edits);
    overlay = new Map();
    for (const [file, list] of byFile) {
      const original = file === req.fileName ? req.text : textOf(read(file));
      if (original !== undefined && file !== req.fileName) overlay.set(file, applyEdits(original, list));
    }
    try {
      return (await check(applyEdits(req.text, byFile.get(req.fileName) ?? []), first.frontend)).report;
    } finally {
      overlay = new Map();
    }
  };
  post({ id: req.id, kind: 'verified', preferred: await proveFixes(candidates, rerun, PROOF_BUDGET) });
}

/**
 * Compiles the units before the check (which then finds them in the in-memory cache), a unit's
 * two passes side by side, so that a dropped request stops between units instead of running.
 */
async function compileAhead(id: number, units: TranslationUnitSpec[]): Promise<void> {
  await checkpoint(id);
  for (const unit of units) {
    const [device, host] = await Promise.all([compileDevice(unit), compileHost(unit)]);
    await checkpoint(id);
    if (!device.ok || !host.ok) return;
  }
}

function post(m: AnalysisResponse): void {
  parentPort!.postMessage(m);
}

// A cold engine's first run spends ~100 ms compiling the engine itself. Do that once here, as
// the worker starts (workers are started ahead of runs), not inside the first run's budget.
const WARM_UP = `__device__ int c = 0;
__global__ void k(int *a) { a[threadIdx.x] = threadIdx.x; __threadfence_block(); atomicAdd_block(&c, a[0]); }
int main() { int *d; cudaMalloc(&d, 256); k<<<2, 64>>>(d); cudaDeviceSynchronize(); printf("%d\\n", 1); return 0; }
`;
try {
  checkSource({ fileName: '/scord-warm-up.cu', text: WARM_UP, readFile: () => undefined, inspect: {} });
} catch {
  // Only a warm-up: a real run reports its own failures.
}

/**
 * Loads clang (its 75 MB module takes over a second to compile) while the worker waits for a
 * run. Clang's calls are queued, so a compile that comes meanwhile waits for this one.
 */
let clangLoaded = false;
function warmClang(): void {
  if (clangLoaded) return;
  clangLoaded = true;
  // This thread's lane; the other (a thread of its own) loads at the first compile that needs it.
  void runTool(['clang', '--version'], {});
}
if ((workerData as { warmClang?: boolean } | undefined)?.warmClang) warmClang();

// One request at a time: a request that arrives during another's compile waits its turn.
let queue: Promise<void> = Promise.resolve();

/**
 * The request being served. Launches check the slots the process marks on a cancel, so a run
 * made stale by an edit ends at its next scheduling round, not when it is done.
 */
let serving: number | undefined;
const cancelled = (workerData as { cancelled?: Int32Array } | undefined)?.cancelled;
if (cancelled) setRunInterrupt(() => serving !== undefined && Atomics.load(cancelled, serving % CANCEL_SLOTS) === serving);

async function serve(req: AnalysisRequest): Promise<void> {
  post({ id: req.id, kind: 'started' });
  serving = req.id;
  try {
    if (req.litmus) exploreLitmus({ ...req, litmus: req.litmus });
    else await analyse(req);
  } catch (e) {
    // Dropped: the server has moved on. Otherwise an engine bug: say what failed; the server reports it and goes on.
    if (e instanceof Dropped || e instanceof RunInterrupted) post({ id: req.id, kind: 'dropped' });
    else post({ id: req.id, kind: 'failed', message: e instanceof Error ? e.message : String(e) });
  } finally {
    serving = undefined;
    dropped.delete(req.id);
  }
}

parentPort!.on('message', (m: AnalysisRequest | WorkerControl) => {
  if ('control' in m) {
    if (m.control === 'cancel') dropped.add(m.id);
    else warmClang();
    return;
  }
  queue = queue.then(() => serve(m));
});
