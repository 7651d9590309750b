// One check of one CUDA file: parse it, run it on the simulated GPU with the ScoRD detector
// watching, and turn races and the run's other findings into one report with 1-based
// locations and fixes. The CLI prints this report; the language server publishes it.
import { parse, type ParseResult } from './frontend/index';
import type { Range } from './frontend/source';
import { DEFAULT_DEVICE } from './gpu/devices';
import type { SchedulerKind } from './gpu/executor';
import { PairIndex, ScordDetector, type DetectorOptions, type DetectorState, type MetadataSnapshot, type RaceFinding } from './detect/scord';
import { fixesFor, type Fix } from './fixes/fixes';
import { runProgram, runSchedules, type KernelEntry, type RunOptions } from './host/run';

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

export interface Accessor {
  block: number;
  warp: number;
  lane: number;
}

export interface CheckFinding {
  kind: string;
  category: string;
  scope: 'block' | 'device' | null;
  severity: 'error' | 'warning';
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
    steps: number;
    device: string;
    detection: 'exact' | 'hardware-faithful' | 'off';
    granularity: number;
    schedules: number;
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
  readFile?: (path: string) => string | undefined;
  device?: string;
  scheduler?: SchedulerKind;
  model?: 'independent' | 'lockstep';
  seed?: number;
  /** Run this many seeded random interleavings and report the union of their findings. */
  schedules?: number;
  maxSteps?: number;
  /** Bytes of device memory the program may hold at once (cudaMalloc fails beyond, as on a full GPU). */
  deviceMemoryLimit?: number;
  /** False: run without the detector (`--no-detect`). */
  detect?: boolean;
  hardwareFaithful?: boolean;
  granularity?: number;
  /** Run one kernel instead of `main` (kernel-only files). */
  entry?: KernelEntry;
  /** Keep the detector's state for the inspector, tracing every access to `trace` (`data[3]`). */
  inspect?: { trace?: string };
  /** A parse already made of the same text and options (the server reuses its own). */
  parsed?: ParseResult;
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
export function initialStats(options: Pick<CheckOptions, 'device' | 'detect' | 'hardwareFaithful' | 'granularity' | 'schedules'>): CheckReport['stats'] {
  return {
    launches: 0,
    steps: 0,
    device: options.device ?? DEFAULT_DEVICE,
    detection: options.detect === false ? 'off' : options.hardwareFaithful ? 'hardware-faithful' : 'exact',
    granularity: options.granularity ?? 4,
    schedules: Math.max(1, options.schedules ?? 1),
  };
}

export function checkParsed(parsed: ParseResult, options: CheckOptions): CheckReport {
  const detect = options.detect !== false;
  const granularity = options.granularity ?? 4;
  const stats = initialStats(options);
  const diagnostics: CheckDiagnostic[] = parsed.diagnostics.map((d) => ({ severity: d.severity, code: d.code, message: d.message, location: location(d.range), range: d.range }));
  if (parsed.diagnostics.some((d) => d.severity === 'error')) return { file: options.fileName, analysed: false, findings: [], diagnostics, output: '', stats };

  const detectorOptions: DetectorOptions = {
    granularity,
    hardwareFaithful: !!options.hardwareFaithful,
    perThreadWhenDiverged: options.model !== 'lockstep',
    ...(options.inspect?.trace ? { trace: options.inspect.trace } : {}),
  };
  const detectors: ScordDetector[] = [];
  const runOptions: RunOptions = {
    device: stats.device,
    ...(options.scheduler ? { scheduler: options.scheduler } : {}),
    ...(options.model ? { model: options.model } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.maxSteps !== undefined ? { stepBudget: options.maxSteps } : {}),
    ...(options.deviceMemoryLimit !== undefined ? { deviceMemoryLimit: options.deviceMemoryLimit } : {}),
    ...(options.entry ? { entry: options.entry } : {}),
  };
  const withDetector: Partial<RunOptions> = detect
    ? {
        listen: (memory) => {
          const detector = new ScordDetector(memory, detectorOptions);
          detectors.push(detector);
          return detector.listener;
        },
      }
    : {};
  const many = stats.schedules > 1 ? runSchedules(parsed, stats.schedules, { ...runOptions, ...withDetector }) : undefined;
  const run = many ? { ...many.runs[0], findings: many.findings } : runProgram(parsed, { ...runOptions, ...withDetector });
  stats.exitCode = run.exitCode;
  stats.launches = run.launches;
  stats.steps = many ? many.runs.reduce((s, r) => s + r.steps, 0) : run.steps;

  for (const f of run.findings) {
    if (!UNANALYSABLE.has(f.kind)) continue;
    diagnostics.push({ severity: 'error', code: f.kind, message: f.message, ...(f.range ? { location: location(f.range), range: f.range } : {}) });
  }
  const races = mergeRaces(detectors.map((d) => d.findings()));
  const findings: CheckFinding[] = [
    ...races.map((r) => raceFinding(r, parsed, options.fileName, options.text)),
    ...run.findings
      .filter((f) => !UNANALYSABLE.has(f.kind))
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

function raceFinding(r: RaceFinding, parsed: ParseResult, file: string, text: string): CheckFinding {
  return {
    kind: 'race',
    category: r.category,
    scope: r.scope,
    severity: 'warning',
    message: r.count > 1 ? `${r.message} (${r.count} times)` : r.message,
    location: location(r.range),
    related: [
      { location: location(r.previous), message: r.previousMessage },
      ...(r.lockAcquires ?? []).map((a) => ({ location: location(a), message: 'the lock is taken here at block scope: each block gets its own lock' })),
    ],
    ...(r.address ? { address: r.address } : {}),
    accessor: r.accessor,
    previousAccessor: r.previousAccessor,
    ...(r.metadata ? { metadata: r.metadata } : {}),
    count: r.count,
    fixes: fixesFor(r, parsed, file, text),
    range: r.range,
    relatedRanges: [r.previous, ...(r.lockAcquires ?? [])],
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
