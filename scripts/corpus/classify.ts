// What one `scord check --format json` run came to: ran to completion, refused a feature with a
// located `not supported: …` diagnostic, stopped at compile errors, was not analysed for another
// located reason (no kernel to run, a launch beyond the device), ran out of time, or crashed.
import * as path from 'node:path';
import type { CliRun } from './runner';

export type Outcome = 'completed' | 'limit' | 'not-supported' | 'compile-error' | 'not-analysed' | 'timeout' | 'crash' | 'usage';

export const OUTCOMES: readonly Outcome[] = ['completed', 'limit', 'not-supported', 'compile-error', 'not-analysed', 'timeout', 'crash', 'usage'];

export const OUTCOME_TITLES: Record<Outcome, string> = {
  completed: 'ran to completion',
  limit: 'stopped at a simulator limit',
  'not-supported': 'not supported (located)',
  'compile-error': 'compile errors',
  'not-analysed': 'not analysed (other reason)',
  timeout: 'timeout',
  crash: 'crash',
  usage: 'command line refused',
};

/** A finding of the report, reduced to what a corpus summary needs. */
export interface FindingBrief {
  kind: string;
  category: string;
  /** `file:line:col`, the file relative to the corpus root. */
  at: string;
  file: string;
  line: number;
  /** Lines of the related locations (the other access of a race), in the same form. */
  related: { file: string; line: number }[];
  message: string;
}

export interface Classified {
  outcome: Outcome;
  /** The CLI's exit status (null when it was killed). */
  exitCode: number | null;
  ms: number;
  /** not-supported: the feature named; compile-error/not-analysed: the first error; crash: what was printed. */
  reason?: string;
  /** `file:line:col` of that diagnostic, relative to the corpus root. */
  where?: string;
  /** not-supported: every distinct feature the report refuses (the first is `reason`). */
  refused?: string[];
  findings: FindingBrief[];
  /** The program's exit status inside the simulator, when the report has one. */
  programExit?: number;
}

interface JsonLocation {
  file: string;
  line: number;
  column: number;
}

interface JsonReport {
  findings?: { kind?: string; category?: string; message?: string; location?: JsonLocation; related?: { location?: JsonLocation }[] }[];
  diagnostics?: { severity?: string; code?: string; message?: string; location?: JsonLocation }[];
  stats?: { exitCode?: number };
}

/** Diagnostic codes that say the program was not run for a reason other than its code. */
const NOT_ANALYSED_CODES = new Set(['launch', 'launch-header', 'no-main', 'no-kernel']);

const NOT_SUPPORTED = /^not supported(?: yet)?:\s*/i;

export function isNotSupported(d: { code?: string; message?: string }): boolean {
  return d.code === 'not-supported' || NOT_SUPPORTED.test(d.message ?? '');
}

/** The feature a `not supported: …` message names, without its prefix. */
export function featureOf(message: string): string {
  return oneLine(message.replace(NOT_SUPPORTED, ''));
}

/** A finding that says the simulator stopped the program, not that the program went wrong. */
export function isSimulatorLimit(f: { kind?: string; message?: string }): boolean {
  return f.kind === 'step-budget' || f.kind === 'memory-limit' || (f.kind === 'launch-configuration' && /the simulator's limit/.test(f.message ?? ''));
}

/** Classifies one run. `root` makes the reported paths relative to the corpus. */
export function classify(run: CliRun, root: string): Classified {
  const base = { exitCode: run.exitCode, ms: run.ms };
  if (run.timedOut) return { ...base, outcome: 'timeout', findings: [] };
  const report = parseReport(run.stdout);
  const stderr = run.stderr.trim();
  if (!report) {
    if (/heap out of memory|Allocation failed|out of memory/i.test(stderr)) return { ...base, outcome: 'crash', reason: 'out of memory (heap cap)', findings: [] };
    if (run.exitCode === 2 && /^scord: (?!internal error)/m.test(stderr) && !/\n\s+at /.test(stderr)) {
      return { ...base, outcome: 'usage', reason: oneLine(stderr.replace(/^scord: /, '')), findings: [] };
    }
    const why = run.signal ? `killed by ${run.signal}` : stderr ? oneLine(lastMeaningfulLine(stderr)) : `exit ${run.exitCode} with no report`;
    return { ...base, outcome: 'crash', reason: why, findings: [] };
  }
  const findings = (report.findings ?? []).map((f) => briefFinding(f, root));
  const programExit = report.stats?.exitCode;
  const errors = (report.diagnostics ?? []).filter((d) => d.severity === 'error');
  const refused = errors.find(isNotSupported) ?? (report.findings ?? []).find((f) => f.kind === 'not-supported');
  const at = (l: JsonLocation | undefined): { where?: string } => (l ? { where: `${relative(root, l.file)}:${l.line}:${l.column}` } : {});
  const extra = { findings, ...(programExit !== undefined ? { programExit } : {}) };
  if (refused) {
    const all = [...new Set([refused, ...errors.filter(isNotSupported)].map((d) => featureOf(d.message ?? '')))];
    return { ...base, outcome: 'not-supported', reason: all[0], refused: all, ...at(refused.location), ...extra };
  }
  if (run.exitCode === 0 || run.exitCode === 1) {
    // The run ended at the step budget, the thread limit or the memory limit: the simulator gave
    // up before the program did, so it did not run to completion (the finding says where).
    const limit = (report.findings ?? []).find(isSimulatorLimit);
    if (limit) return { ...base, outcome: 'limit', reason: `${limit.kind}: ${oneLine(limit.message ?? '')}`, ...at(limit.location), ...extra };
    return { ...base, outcome: 'completed', ...extra };
  }
  if (run.exitCode !== 2) return { ...base, outcome: 'crash', reason: run.signal ? `killed by ${run.signal}` : `exit ${run.exitCode}`, ...extra };
  const first = errors.find((d) => !NOT_ANALYSED_CODES.has(d.code ?? ''));
  if (first) return { ...base, outcome: 'compile-error', reason: oneLine(first.message ?? ''), ...at(first.location), ...extra };
  const other = errors[0];
  if (other) return { ...base, outcome: 'not-analysed', reason: oneLine(other.message ?? ''), ...at(other.location), ...extra };
  return { ...base, outcome: 'not-analysed', reason: stderr ? oneLine(lastMeaningfulLine(stderr)) : 'exit 2 with no error diagnostic', ...extra };
}

function parseReport(stdout: string): JsonReport | undefined {
  const text = stdout.trim();
  if (!text.startsWith('{')) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' ? (v as JsonReport) : undefined;
  } catch {
    return undefined;
  }
}

function briefFinding(f: NonNullable<JsonReport['findings']>[number], root: string): FindingBrief {
  const l = f.location;
  const file = l ? relative(root, l.file) : '';
  return {
    kind: f.kind ?? '',
    category: f.category ?? '',
    at: l ? `${file}:${l.line}:${l.column}` : '',
    file,
    line: l?.line ?? 0,
    related: (f.related ?? []).flatMap((r) => (r.location ? [{ file: relative(root, r.location.file), line: r.location.line }] : [])),
    message: oneLine(f.message ?? ''),
  };
}

/** A path inside the corpus relative to its root; others as given. */
export function relative(root: string, file: string): string {
  const abs = path.resolve(file);
  const rel = path.relative(root, abs);
  return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel;
}

/** The first line of a message, at most 160 characters. */
export function oneLine(text: string): string {
  const line = text.split('\n')[0].trim();
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

/** The last line of stderr that says something (not a stack frame, not Node's version banner). */
function lastMeaningfulLine(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l && !/^at /.test(l) && !/^Node\.js v/.test(l) && !/^\^+$/.test(l));
  const error = lines.find((l) => /(Error|error):/.test(l));
  return error ?? lines[lines.length - 1] ?? '';
}
