// One check of one CUDA file: parse it, run it on the simulated GPU with the ScoRD detector
// watching, and turn races and the run's other findings into one report with 1-based
// locations and fixes. The CLI prints this report; the language server publishes it.
import { parse, type ParseResult } from './frontend/index';
import * as T from './frontend/types';
import type { ReadSourceFile } from './frontend/preprocessor';
import type { Range } from './frontend/source';
import { DEFAULT_DEVICE, warpSchedulingOf } from './gpu/devices';
import { chooseEntry, type EntryRequest } from './host/entry';
import { headerDefines, headerLockstep, readKernelHeader, type KernelHeader } from './host/kernelHeader';
import { AccessTrail, collidingStep, valuationAt } from './host/collidingValuation';
import { meetsPreconditions, preconditionValuations, requiredFunctions, type Valuations } from './host/preconditions';
import type { BlockExecution, SchedulerKind } from './machine/executor';
import type { BlockSampling } from './machine/blockSample';
import { fairnessLaunchCheck } from './fairness/fairness';
import type { Fairness } from './idioms/schedulers';
import { ScordDetector, type DetectorOptions } from './detect/scord';
import { listenAll, type Detector, type DetectorState } from './detect/detector';
import type { Memory } from './gpu/memory';
import type { EventListener } from './ir/ir';
import { PairIndex, type Accessor, type MetadataSnapshot, type RaceFinding } from './detect/findings';
import { PreciseDetector, scordOnlyNote } from './detect/precise';
import { fixesFor, type Fix } from './fixes/fixes';
import { kernelsOf, programNameOf, runProgram, runSchedules, type KernelEntry, type RunOptions, type RunResult } from './host/run';
import type { SampledKernelLaunch } from './host/gridLauncher';
import type { LaunchDescription } from './host/launchDescription';
import type { WeakObservation } from './gpu/weakMemory';
import type { MemoryModelName, WeakModelSwitches } from './gpu/memoryModels';

/**
 * Which race detector watches the run: ScoRD's fence counters and locksets (the paper's design),
 * happens-before over the scoped PTX memory model, or both with their findings merged.
 */
export type Engine = 'scord' | 'precise' | 'both';
export const ENGINES: readonly Engine[] = ['scord', 'precise', 'both'];

/** A 1-based span, as compilers print and SARIF and the JSON report carry. */
export interface Location {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export function location(r: Range): Location {
  return { file: r.file, line: r.start.line + 1, column: r.start.character + 1, endLine: r.end.line + 1, endColumn: r.end.character + 1 };
}

export interface CheckFinding {
  kind: string;
  category: string;
  scope: 'block' | 'device' | null;
  /** `information` for benign same-value races. */
  severity: 'error' | 'warning' | 'information';
  message: string;
  location: Location;
  related: { location: Location; message: string }[];
  /** Races: the address as the program names it (`data[3]`, `stack.top`). */
  address?: string;
  accessor?: Accessor;
  previousAccessor?: Accessor;
  /** Races on global memory: the detector's metadata entry for the word at the race. */
  metadata?: MetadataSnapshot;
  /** How many times this pair of instructions raced (races) or the finding recurred. */
  count: number;
  /** Races with `engine` precise or both: which engine reported it ('both': the two agree). */
  engine?: Engine;
  /** With `engine` both: how the other engine sees this pair. */
  note?: string;
  /** Under a weak memory model: what went wrong in the run at this race (stale read, lost update, output). */
  observed?: string;
  fixes: Fix[];
  /** Where it is, with offsets (for edits and the editor); not part of the printed report. */
  range?: Range;
  relatedRanges?: Range[];
}

export interface CheckDiagnostic {
  severity: 'error' | 'warning' | 'information';
  code?: string;
  message: string;
  location?: Location;
  range?: Range;
}

export interface CheckReport {
  file: string;
  /** False when the program could not be analysed: errors, unsupported constructs. */
  analysed: boolean;
  findings: CheckFinding[];
  diagnostics: CheckDiagnostic[];
  output: string;
  stats: {
    exitCode?: number;
    launches: number;
    /** Launches that repeated the previous one exactly and were not simulated again (their result was put back). */
    repeatedLaunches?: number;
    steps: number;
    device: string;
    detection: 'exact' | 'hardware-faithful' | 'off';
    granularity: number;
    schedules: number;
    /** The race detection engine, when not the default ScoRD. */
    engine?: Exclude<Engine, 'scord'>;
    /** The memory model, when not sequential consistency. */
    memoryModel?: Exclude<MemoryModelName, 'sc'>;
    /**
     * 'lockstep' when a warp's lanes ran in lockstep (asked for, or a program built for an
     * architecture before sm_70): races between the lanes of a warp are then not races.
     */
    warps?: 'lockstep';
    /** The run's first launches with their arguments in words (Run Kernel starts from them). */
    launched?: LaunchDescription[];
    /**
     * The launch sites whose launches ran a sample of their blocks (CheckOptions.sampleBlocks):
     * the first such launch's figures, and how many launches of the site were sampled.
     */
    sampled?: { kernel: string; simulated: number; blocks: number; launches: number }[];
  };
  /** With `inspect`: the detector's state after the run (its last launch). */
  state?: DetectorState;
}

export interface CheckOptions {
  fileName: string;
  text: string;
  defines?: string[];
  undefines?: string[];
  includePaths?: string[];
  readFile?: ReadSourceFile;
  device?: string;
  scheduler?: SchedulerKind;
  model?: 'independent' | 'lockstep';
  /**
   * The GPU architecture the program is built for (compute capability times ten, nvcc's -arch):
   * without `model`, it decides how a warp's lanes are scheduled (before sm_70, in lockstep).
   */
  arch?: number;
  seed?: number;
  /** Run this many seeded random interleavings and report the union of their findings. */
  schedules?: number;
  /** Simulate a sample of a big grid's blocks: always (`--sample-blocks N`) or when the grid would not fit the step budget (the editor). */
  sampleBlocks?: BlockSampling;
  maxSteps?: number;
  /** Bytes of device memory the program may hold at once (cudaMalloc fails beyond, as on a full GPU). */
  deviceMemoryLimit?: number;
  /** Report device reads of cudaMalloc'd memory nothing has written (like memcheck's initcheck). */
  initCheck?: boolean;
  /** False: run without the detector (`--no-detect`). */
  detect?: boolean;
  hardwareFaithful?: boolean;
  granularity?: number;
  /**
   * Assume a warp's lanes run in lockstep (pre-Volta; GPUVerify's --warp-sync): the run
   * schedules warps in lockstep unless `model` says otherwise, and a warp is one accessor,
   * diverged or not, whose only races between lanes are lanes of one store writing one word.
   * Lockstep scheduling implies it.
   */
  warpSync?: boolean;
  /** False: leave out benign same-value races (`--no-benign`). */
  benign?: boolean;
  /** The race detection engine (default 'scord'). */
  engine?: Engine;
  /** Run one kernel instead of `main` (kernel-only files). */
  entry?: KernelEntry;
  /**
   * The entry was chosen from the file's launch header (or --kernel/--grid/--block): the names
   * of its integer scalar parameters, as the front end that compiled it reads them; those nobody
   * gave a value also run at 1 (see otherValuation). Not for an entry whose every argument a
   * caller chose (Run Kernel), where a scalar not given is 0.
   */
  exploreUnsetScalars?: string[];
  /** Run `main` up to and through the first launch of a kernel (RunOptions.untilLaunchOf). */
  untilLaunchOf?: RunOptions['untilLaunchOf'];
  /** The scheduler's fairness: under one weaker than `fair`, launches that may never end are found. */
  fairness?: Fairness;
  /**
   * The memory model device code runs under (default `sc`). Under `gpu-weak`/`gpu-strong` a
   * race can really go wrong in the run; the finding then says what was observed.
   */
  memoryModel?: MemoryModelName;
  weakSwitches?: WeakModelSwitches;
  /** Keep the detector's state for the inspector, tracing every access to `trace` (`data[3]`). */
  inspect?: { trace?: string };
  /** A parse already made of the same text and options (the server reuses its own). */
  parsed?: ParseResult;
  /** How kernels' blocks run (`--interpret`: the reference interpreter, for comparing). */
  execution?: BlockExecution;
}

/** Run findings that mean the program could not be analysed at all: diagnostics, not findings. */
const UNANALYSABLE: ReadonlySet<string> = new Set(['not-supported', 'no-main', 'no-kernel']);

export function checkSource(options: CheckOptions): CheckReport {
  const parsed =
    options.parsed ??
    parse(options.text, {
      fileName: options.fileName,
      defines: options.defines ?? [],
      undefines: options.undefines ?? [],
      includePaths: options.includePaths ?? [],
      ...(options.readFile ? { readFile: options.readFile } : {}),
    });
  return checkParsed(parsed, options);
}

/** The stats of a check before anything ran (all a report has when nothing could run). */
export function initialStats(options: Pick<CheckOptions, 'device' | 'detect' | 'hardwareFaithful' | 'granularity' | 'schedules' | 'engine'>): CheckReport['stats'] {
  return {
    launches: 0,
    steps: 0,
    device: options.device ?? DEFAULT_DEVICE,
    detection: options.detect === false ? 'off' : options.hardwareFaithful ? 'hardware-faithful' : 'exact',
    granularity: options.granularity ?? 4,
    schedules: Math.max(1, options.schedules ?? 1),
    ...(options.engine && options.engine !== 'scord' ? { engine: options.engine } : {}),
  };
}

/**
 * A file's GPUVerify-style launch header (`//--blockDim=64 --gridDim=2`, `//-DN=4`): the header,
 * the defines to parse with (the header's, then the caller's, which win), and its problems.
 */
export function readLaunchHeader(fileName: string, text: string, defines: readonly string[], undefines: readonly string[]): { header: KernelHeader; defines: string[]; problems: CheckDiagnostic[] } {
  const { header, problems } = readKernelHeader(text);
  return {
    header,
    defines: [...headerDefines(header, defines, undefines), ...defines],
    problems: problems.map((p) => ({ severity: 'error', code: 'launch-header', message: p.message, location: { file: fileName, line: p.line, column: p.column, endLine: p.line, endColumn: p.endColumn } })),
  };
}

/**
 * A check of what the file runs: its `main`, or for a kernel-only file (or when `request` names
 * a kernel or a shape) one kernel launched from the header and the request. A launch refused
 * up front is the report's reason; a request that contradicts the file is `usage` (the caller's
 * mistake, not the program's).
 */
export function checkParsedEntry(parsed: ParseResult, options: CheckOptions, header: KernelHeader, request: EntryRequest = { args: {} }): CheckReport | { usage: string } {
  // With errors in the program, checkParsed reports them and runs nothing.
  if (parsed.diagnostics.some((d) => d.severity === 'error')) return checkParsed(parsed, options);
  const choice = chooseEntry(parsed, request, header);
  if (choice.kind === 'usage') return { usage: choice.message };
  if (choice.kind === 'problem') {
    const at = choice.range ? { location: location(choice.range), range: choice.range } : {};
    return notAnalysed(options, [{ severity: 'error', code: 'launch', message: choice.message, ...at }]);
  }
  // A header's --warp-sync=N: the kernel is written for lockstep warps.
  const lockstep = choice.kind === 'entry' && headerLockstep(header);
  return checkParsed(parsed, { ...options, parsed, ...(choice.kind === 'entry' ? { entry: choice.entry, exploreUnsetScalars: integerParams(parsed, choice.entry.kernel) } : {}), ...(lockstep ? { warpSync: true } : {}) });
}

/** A report for a file that was not run: only the reasons why. */
export function notAnalysed(options: Pick<CheckOptions, 'fileName' | 'device' | 'detect' | 'hardwareFaithful' | 'granularity' | 'schedules' | 'engine'>, diagnostics: CheckDiagnostic[]): CheckReport {
  return { file: options.fileName, analysed: false, findings: [], diagnostics, output: '', stats: initialStats(options) };
}

export function checkParsed(parsed: ParseResult, options: CheckOptions): CheckReport {
  const diagnostics: CheckDiagnostic[] = parsed.diagnostics.map((d) => ({ severity: d.severity, code: d.code, message: d.message, location: location(d.range), range: d.range }));
  if (parsed.diagnostics.some((d) => d.severity === 'error')) return notAnalysed(options, diagnostics);
  return checkRun((o) => runProgram(parsed, { programName: programNameOf(options.fileName), ...o }), parsed, options, diagnostics);
}

/** The names of a kernel's integer scalar parameters, as the hand-written front end reads it. */
function integerParams(parsed: ParseResult, kernel: string): string[] {
  const decl = kernelsOf(parsed).get(kernel)?.[0];
  return (decl?.params ?? []).filter((p) => p.name && T.isInteger(T.unqualified(p.resolvedType ?? T.ERROR))).map((p) => p.name!);
}

/** The made-up-data run of a kernel run on its own: at least this many thread-steps, and up to this many times the first run's. */
const DATA_RUN_MIN_STEPS = 10_000_000;
const DATA_RUN_STEPS_PER_FIRST = 4;

/**
 * The entry with its integer scalar parameters (`integers`) that were given no value set to 1,
 * or to `required` (a second valuation its preconditions allow), if it has any.
 */
function otherValuation(integers: string[], entry: KernelEntry, required: Record<string, number>): KernelEntry | undefined {
  const unset = integers.filter((name) => !(name in entry.args));
  if (!unset.length) return undefined;
  return { ...entry, args: { ...Object.fromEntries(unset.map((name) => [name, 1])), ...required, ...entry.args } };
}

/**
 * A kernel run on its own: the values its `__requires` clauses ask of the integer scalars
 * nobody gave (sims/host/preconditions.ts), for the first run and the second.
 */
function requiredValuations(parsed: ParseResult, entry: KernelEntry, integers: string[]): Valuations {
  const decl = kernelsOf(parsed).get(entry.kernel)?.[0];
  const unset = integers.filter((name) => !(name in entry.args));
  return decl && unset.length ? preconditionValuations(decl, unset, entry) : { first: {}, second: {} };
}

/** A kernel run on its own, with the device functions its `__requires` clauses give its function-pointer parameters. */
function entryFunctions(parsed: ParseResult, entry: KernelEntry): KernelEntry {
  const decl = kernelsOf(parsed).get(entry.kernel)?.[0];
  const functions = decl ? requiredFunctions(decl) : {};
  return Object.keys(functions).length ? { ...entry, functions: { ...functions, ...entry.functions } } : entry;
}

/**
 * How a check runs the program once: the hand-written front end's lowering, or clang's
 * device IR and WebAssembly host. Everything after the run (detectors, merging, fixes) is shared.
 */
export type ProgramRunner = (options: RunOptions) => RunResult;

/**
 * Runs the program with the detectors attached and builds the report. `parsed` is the
 * hand-written front end's tree of the checked file: fixes find their edits in it.
 */
export function checkRun(runOnce: ProgramRunner, parsed: ParseResult, options: CheckOptions, diagnostics: CheckDiagnostic[]): CheckReport {
  const detect = options.detect !== false;
  const granularity = options.granularity ?? 4;
  const stats = initialStats(options);
  // --warp-sync: the program is written for pre-Volta warps, which run in lockstep.
  const model = options.model ?? (options.arch !== undefined ? warpSchedulingOf(options.arch) : options.warpSync ? 'lockstep' : undefined);
  if (model === 'lockstep') stats.warps = 'lockstep';
  // --warp-sync assumes pre-Volta lockstep warps, as lockstep scheduling runs them.
  const lockstepLanes = model === 'lockstep' || !!options.warpSync;

  const detectorOptions: DetectorOptions = {
    granularity,
    hardwareFaithful: !!options.hardwareFaithful,
    perThreadWhenDiverged: !lockstepLanes,
    warpSync: lockstepLanes,
    ...(options.inspect?.trace ? { trace: options.inspect.trace } : {}),
  };
  const required = options.entry && options.exploreUnsetScalars ? requiredValuations(parsed, options.entry, options.exploreUnsetScalars) : undefined;
  // Both runs of a kernel run on its own pass the functions its preconditions name.
  const given = options.entry && entryFunctions(parsed, options.entry);
  const entry = given && required ? { ...given, args: { ...required.first, ...given.args } } : given;
  const engine = options.engine ?? 'scord';
  const detectors: ScordDetector[] = [];
  const precise: PreciseDetector[] = [];
  const runOptions: RunOptions = {
    device: stats.device,
    ...(options.scheduler ? { scheduler: options.scheduler } : {}),
    ...(model ? { model } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.maxSteps !== undefined ? { stepBudget: options.maxSteps } : {}),
    ...(options.sampleBlocks ? { sampleBlocks: options.sampleBlocks } : {}),
    ...(options.execution ? { execution: options.execution } : {}),
    ...(options.deviceMemoryLimit !== undefined ? { deviceMemoryLimit: options.deviceMemoryLimit } : {}),
    ...(options.initCheck ? { initCheck: true } : {}),
    ...(entry ? { entry } : {}),
    ...(options.untilLaunchOf ? { untilLaunchOf: options.untilLaunchOf } : {}),
    ...(options.fairness ? { launchCheck: fairnessLaunchCheck(options.fairness) } : {}),
    ...(options.memoryModel && options.memoryModel !== 'sc' ? { memoryModel: options.memoryModel, ...(options.weakSwitches ? { weakSwitches: options.weakSwitches } : {}) } : {}),
  };
  // The engines of one run, made for its memory (each schedule and valuation is a run of its own).
  const engines = (memory: Memory): Detector[] => {
    const made: Detector[] = [];
    if (engine !== 'precise') {
      const d = new ScordDetector(memory, detectorOptions);
      detectors.push(d);
      made.push(d);
    }
    if (engine !== 'scord') {
      const d = new PreciseDetector(memory, { perThreadWhenDiverged: !lockstepLanes, explain: engine === 'both' });
      precise.push(d);
      made.push(d);
    }
    return made;
  };
  // A kernel run on its own runs at a second valuation of its unset scalars (below); that run and
  // the first also record their accesses, from which a third valuation may follow.
  const exploring = detect && !!given && !!options.exploreUnsetScalars;
  const firstTrail = exploring ? new AccessTrail() : undefined;
  /** The detectors' listener for a run, also recording into `trail` when it has no run yet. */
  const hearing = (trail: AccessTrail | undefined) => (memory: Memory): EventListener => {
    const detectorsHear = listenAll(engines(memory));
    const record = trail?.take();
    return record
      ? (e) => {
          detectorsHear(e);
          record(e);
        }
      : detectorsHear;
  };
  const withDetector: Partial<RunOptions> = detect ? { listen: hearing(firstTrail) } : {};
  // Sampling when over budget decides once a block has finished; a grid whose first resident
  // blocks alone use up the budget never gets there. Such a run is run again with its big
  // grids sampled from the start, and the stopped run's detectors are dropped.
  const runSampled: ProgramRunner = (o) => {
    const made = [detectors.length, precise.length];
    const r = runOnce(o);
    const s = o.sampleBlocks;
    const big = (l: LaunchDescription): boolean => l.grid[0] * l.grid[1] * l.grid[2] > (s?.blocks ?? Infinity);
    if (!s?.whenOverBudget || !r.findings.some((f) => f.kind === 'step-budget') || !r.launched.some(big)) return r;
    detectors.length = made[0];
    precise.length = made[1];
    return runOnce({ ...o, sampleBlocks: { blocks: s.blocks } });
  };
  const many = stats.schedules > 1 ? runSchedules(runSampled, stats.schedules, { ...runOptions, ...withDetector }) : undefined;
  const run = many ? { ...many.runs[0], findings: many.findings } : runSampled({ ...runOptions, ...withDetector });
  // A kernel run on its own stands for every value of the scalars nobody gave (GPUVerify checks
  // them all): 0 hides what any other offset or count shows (`A[tid + offset]`), so the races
  // of a second run with those integers at 1 join the report. Only its races: what else it meets
  // (a fault past a buffer made up for the run) says nothing about the program.
  const other = exploring ? otherValuation(options.exploreUnsetScalars!, given!, required?.second ?? {}) : undefined;
  if (other && entry && firstTrail) {
    const secondTrail = new AccessTrail();
    runOnce({ ...runOptions, entry: other, listen: hearing(secondTrail) });
    // And a third at the scalars where the two runs' addresses say two threads would meet
    // (collidingValuation.ts): its races join too, on the same terms.
    const decl = kernelsOf(parsed).get(entry.kernel)?.[0];
    const meets = (s: number): boolean => !decl || meetsPreconditions(decl, options.exploreUnsetScalars!, entry, valuationAt(entry.args, other.args, s));
    const step = collidingStep(firstTrail, secondTrail, meets);
    if (step !== undefined) runOnce({ ...runOptions, ...withDetector, entry: { ...other, args: valuationAt(entry.args, other.args, step) } });
  }
  // And once more with the arrays its pointers point to full of made-up numbers (GPUVerify takes
  // their contents as arbitrary; zeros hide `if (in[tid] > 0) out[0] = tid;`). Its races join,
  // and barriers its data makes some threads miss; its step budget is a few times the first
  // run's, since made-up data may make a loop run long or forever.
  if (exploring && entry) {
    const budget = Math.max(DATA_RUN_MIN_STEPS, DATA_RUN_STEPS_PER_FIRST * run.steps);
    const data = runOnce({ ...runOptions, ...withDetector, stepBudget: Math.min(runOptions.stepBudget ?? budget, budget), entry: { ...entry, arbitraryData: 1 } });
    const at = (f: { range?: Range }): string => (f.range ? `${f.range.file}:${f.range.start.line}:${f.range.start.character}` : '');
    for (const f of data.findings) if (f.kind === 'barrier-divergence' && !run.findings.some((g) => g.kind === f.kind && at(g) === at(f))) run.findings.push(f);
  }
  stats.exitCode = run.exitCode;
  stats.launches = run.launches;
  if (run.repeatedLaunches) stats.repeatedLaunches = run.repeatedLaunches;
  if (run.launched.length) stats.launched = run.launched;
  const sites = sampledSites(run.sampled ?? []);
  const sampleNote = sampledNote(sites);
  if (sites.length) {
    stats.sampled = sites.map(({ kernel, simulated, blocks, launches }) => ({ kernel, simulated, blocks, launches }));
    for (const s of sites.slice(0, MAX_SAMPLED_DIAGNOSTICS)) {
      diagnostics.push({ severity: 'information', code: 'sampled-blocks', message: `${sampledWords(s)}: a race that needs one of the other blocks is not seen`, location: location(s.range), range: s.range });
    }
  }
  for (const b of run.beyondDevice ?? []) {
    const message = `${b.message}: a GPU refuses this launch (cudaErrorInvalidConfiguration); kernel '${b.kernel}' run on its own is simulated with the shape asked for, one block per SM`;
    diagnostics.push({ severity: 'information', code: 'beyond-device', message, location: location(b.range), range: b.range });
  }
  stats.steps = many ? many.runs.reduce((s, r) => s + r.steps, 0) : run.steps;

  // A kernel run on its own is a verifier's input: a helper it declares and never defines is
  // left abstract on purpose (GPUVerify's uninterpreted functions), so the run says how it took
  // the call, as a note; in a whole program it is the program's defect (nvcc would not link it).
  const noted = (f: { kind: string }): boolean => !!options.entry && f.kind === 'undefined-function';
  for (const f of run.findings) {
    if (!UNANALYSABLE.has(f.kind) && !noted(f)) continue;
    diagnostics.push({ severity: noted(f) ? 'information' : 'error', code: f.kind, message: f.message, ...(f.range ? { location: location(f.range), range: f.range } : {}) });
  }
  const scordRaces = mergeRaces(detectors.map((d) => d.findings()));
  const preciseRaces = mergeRaces(precise.map((d) => d.findings()));
  const all: EngineRace[] =
    engine === 'scord' ? scordRaces.map((race) => ({ race })) : engine === 'precise' ? preciseRaces.map((race) => ({ race, engine: 'precise' })) : combineEngines(scordRaces, preciseRaces, precise);
  const races = options.benign === false ? all.filter((r) => r.race.category !== 'benign-same-value') : all;
  const weak = options.memoryModel && options.memoryModel !== 'sc' ? { model: options.memoryModel, reference: runOnce({ ...runOptions, memoryModel: 'sc' }), observations: run.weakObservations ?? [] } : undefined;
  if (weak) stats.memoryModel = weak.model;
  const findings: CheckFinding[] = [
    ...races.map((r) => raceFinding(r, parsed, options.fileName, options.text, ownHeaders(parsed, options.readFile), weak && { ...weak, run })),
    ...run.findings
      .filter((f) => !UNANALYSABLE.has(f.kind) && !noted(f))
      .map((f): CheckFinding => ({
        kind: f.kind,
        category: f.kind,
        scope: null,
        severity: f.severity,
        message: f.message,
        location: f.range ? location(f.range) : { file: options.fileName, line: 1, column: 1, endLine: 1, endColumn: 1 },
        related: [],
        count: 1,
        fixes: [],
        ...(f.range ? { range: f.range } : {}),
      })),
  ];
  if (sampleNote) for (const f of findings) f.note = f.note ? `${f.note}; ${sampleNote}` : sampleNote;
  const last = detectors[detectors.length - 1];
  return {
    file: options.fileName,
    analysed: !run.findings.some((f) => UNANALYSABLE.has(f.kind)),
    findings,
    diagnostics,
    output: run.stdout,
    stats,
    ...(options.inspect && last ? { state: last.state() } : {}),
  };
}

/** Sampled launch sites told one by one, at most this many (the note counts them all). */
const MAX_SAMPLED_DIAGNOSTICS = 4;

type SampledSite = SampledKernelLaunch & { launches: number };

/** Sampled launches by launch site (a launch in a loop is one site), in the order first run. */
function sampledSites(sampled: SampledKernelLaunch[]): SampledSite[] {
  const sites = new Map<string, SampledSite>();
  for (const s of sampled) {
    const key = `${s.kernel}@${s.range.file}:${s.range.start.offset}`;
    const site = sites.get(key);
    if (site) site.launches++;
    else sites.set(key, { ...s, launches: 1 });
  }
  return [...sites.values()];
}

function sampledWords(s: SampledSite): string {
  const each = s.launches > 1 ? ` (in each of its ${s.launches.toLocaleString('en-US')} launches)` : '';
  return `simulated ${s.simulated.toLocaleString('en-US')} of ${s.blocks.toLocaleString('en-US')} blocks of ${s.kernel}${each}`;
}

/** What every finding of a sampled run says: it saw only some blocks. */
function sampledNote(sites: SampledSite[]): string | undefined {
  if (!sites.length) return undefined;
  const more = sites.length > 1 ? ` (and ${sites.length - 1} more sampled launch site${sites.length === 2 ? '' : 's'})` : '';
  return `${sampledWords(sites[0])}${more}: races with the blocks left out are not seen`;
}

/** Races of several schedules: one per pair of instructions and category, counts added. */
function mergeRaces(lists: RaceFinding[][]): RaceFinding[] {
  const merged = new PairIndex();
  for (const list of lists) {
    for (const r of list) {
      const seen = merged.get(r.category, r.range, r.previous);
      if (seen) seen.count += r.count;
      else merged.add({ ...r });
    }
  }
  return merged.all();
}

/** A race as one engine or both reported it. */
interface EngineRace {
  race: RaceFinding;
  engine?: Engine;
  note?: string;
}

/**
 * `--engine both`: the union of the two engines' races, a pair of instructions both report
 * given once. A race only the happens-before engine finds says so; one only ScoRD finds says
 * why the PTX model does not call it a race.
 */
function combineEngines(scord: RaceFinding[], precise: RaceFinding[], detectors: PreciseDetector[]): EngineRace[] {
  // The same two instructions, or two on the same lines (`x = x + 1` reads and writes on one line).
  const line = (r: Range) => `${r.file}:${r.start.line}`;
  const samePair = (a: RaceFinding, b: RaceFinding) =>
    (line(a.range) === line(b.range) && line(a.previous) === line(b.previous)) || (line(a.range) === line(b.previous) && line(a.previous) === line(b.range));
  const matched = new Set<RaceFinding>();
  const out: EngineRace[] = [];
  for (const s of scord) {
    const same = precise.filter((p) => samePair(p, s));
    for (const p of same) matched.add(p);
    if (same.some((p) => p.category === s.category)) out.push({ race: s, engine: 'both' });
    else if (same.length) out.push({ race: s, engine: 'both', note: `the PTX-model engine reports this pair too, as ${same[0].category}: ${same[0].message}` });
    else {
      const why = detectors.map((d) => d.whyNoRace(s.range, s.previous)).find((w) => w !== undefined);
      out.push({ race: s, engine: 'scord', note: scordOnlyNote(s.category, why) });
    }
  }
  for (const p of precise) {
    if (!matched.has(p)) out.push({ race: { ...p, message: `${p.message} — not detected by ScoRD's fence counters` }, engine: 'precise' });
  }
  return out;
}

/** What a run under a weak memory model showed going wrong, for one race. */
interface WeakRun {
  model: MemoryModelName;
  run: RunResult;
  reference: RunResult;
  observations: WeakObservation[];
}

/**
 * What a weak-memory run observed at this race: a stale read or a lost update at one of its
 * two accesses, and whether the program's output differs from a sequentially consistent run's.
 */
function observedUnderWeak(r: RaceFinding, weak: WeakRun): string | undefined {
  const at = (x: Range) => weak.observations.filter((o) => o.range.start.offset === x.start.offset && o.range.file === x.file);
  const seen = [...new Set([...at(r.range), ...at(r.previous)])].map((o) =>
    o.kind === 'stale-read'
      ? `the read of ${o.address} at line ${o.range.start.line + 1} returned ${o.value} while the last write${o.other ? ` (line ${o.other.start.line + 1})` : ''} had stored ${o.latest}${o.count > 1 ? ` (seen ${o.count} times)` : ''}`
      : `the block-scope update of ${o.address} at line ${o.range.start.line + 1} (to ${o.value}) was lost when another block's value ${o.latest} reached memory${o.count > 1 ? ` (seen ${o.count} times)` : ''}`,
  );
  const differs = weak.run.stdout !== weak.reference.stdout || weak.run.exitCode !== weak.reference.exitCode;
  if (differs) seen.push(`the program printed ${JSON.stringify(clip(weak.run.stdout))} where a sequentially consistent run prints ${JSON.stringify(clip(weak.reference.stdout))}`);
  return seen.length ? `Observed under ${weak.model}: ${seen.join('; ')}.` : undefined;
}

function clip(text: string): string {
  const t = text.trim();
  return t.length > 80 ? `${t.slice(0, 77)}…` : t;
}

/**
 * The headers fixes may edit: those the program includes with quotes from disk (its own files),
 * not system headers or the built-in ones; read once each.
 */
function ownHeaders(parsed: ParseResult, readFile: ReadSourceFile | undefined): (file: string) => string | undefined {
  const own = new Set(parsed.includes.filter((e) => !e.system && !e.builtin).map((e) => e.to));
  const texts = new Map<string, string | undefined>();
  return (file) => {
    if (!own.has(file) || !readFile) return undefined;
    if (!texts.has(file)) {
      const t = readFile(file);
      texts.set(file, typeof t === 'string' ? t : undefined);
    }
    return texts.get(file);
  };
}

function raceFinding({ race: r, engine, note }: EngineRace, parsed: ParseResult, file: string, text: string, header: (file: string) => string | undefined, weak?: WeakRun): CheckFinding {
  const observed = weak ? observedUnderWeak(r, weak) : undefined;
  return {
    ...(observed ? { observed } : {}),
    kind: 'race',
    category: r.category,
    scope: r.scope,
    severity: r.category === 'benign-same-value' ? 'information' : 'warning',
    message: r.count > 1 ? `${r.message} (raced ${r.count} times)` : r.message,
    location: location(r.range),
    related: [
      { location: location(r.previous), message: r.previousMessage },
      ...(r.narrowFence ? [{ location: location(r.narrowFence), message: 'this `__threadfence_block()` orders memory only for its own block' }] : []),
      ...(r.lockAcquires ?? []).map((a) => ({ location: location(a), message: 'the lock is taken here at block scope: each block gets its own lock' })),
      ...(r.lockReleases ?? []).map((a) => ({ location: location(a), message: 'the lock is released here at block scope: the release orders nothing for the other blocks' })),
      ...(r.also ?? []).map((a) => ({ location: location(a.range), message: a.message })),
    ],
    ...(r.address ? { address: r.address } : {}),
    accessor: r.accessor,
    previousAccessor: r.previousAccessor,
    ...(r.metadata ? { metadata: r.metadata } : {}),
    count: r.count,
    ...(engine ? { engine } : {}),
    ...(note ? { note } : {}),
    fixes: fixesFor(r, parsed, file, text, header),
    range: r.range,
    relatedRanges: [r.previous, ...(r.narrowFence ? [r.narrowFence] : []), ...(r.lockAcquires ?? []), ...(r.lockReleases ?? []), ...(r.also ?? []).map((a) => a.range)],
  };
}

/** A finding as reports print it: 1-based locations only, fix edits included. */
export type PublicFinding = Omit<CheckFinding, 'range' | 'relatedRanges' | 'fixes'> & {
  fixes: { title: string; preferred: boolean; edits: { location: Location; newText: string }[] }[];
};

/** The report as the CLI prints it and `scord/run` returns it: no internal offsets. */
export function publicReport(report: CheckReport): { file: string; findings: PublicFinding[]; diagnostics: Omit<CheckDiagnostic, 'range'>[]; output: string; stats: CheckReport['stats'] } {
  return {
    file: report.file,
    findings: report.findings.map(({ range: _r, relatedRanges: _rr, fixes, ...f }) => ({
      ...f,
      fixes: fixes.map((x) => ({ ...x, edits: x.edits.map((e) => ({ location: location(e.range), newText: e.newText })) })),
    })),
    diagnostics: report.diagnostics.map(({ range: _r, ...d }) => d),
    output: report.output,
    stats: report.stats,
  };
}
