// What a document shows, by which front end decides. The hand-written front end parses every
// edit at once; its diagnostics are shown at once, beside the last report's and the last run's
// findings. Unless it is the only front end (`scord.frontend: builtin`), clang decides what the
// program means: the front end's `not-supported` is never shown, its complaints about a file it
// says it cannot read wait for clang's verdict, and once clang has compiled a text without
// error, the complaints the front end made about that text are its misreadings and are not
// shown again. A report from clang replaces the front end's diagnostics with clang's.
import type { Diagnostic } from 'vscode-languageserver/node';
import type { ParseResult } from '../../sims/frontend/index';
import type { LastRun } from '../analysis/scheduler';
import type { ScordSettings } from '../protocol';
import { filterDiagnostics, findingDiagnostics, frontendDiagnostics, mergeDiagnostics, reportDiagnostics, runDiagnostics, type DiagnosticsByUri } from './diagnostics';

/** The hand-written front end's complaints about a text clang compiled: `code` and message. */
export type Misreadings = Set<string>;

const NONE: DiagnosticsByUri = new Map();

const keyOf = (d: Diagnostic): string => `${String(d.code)}\u0000${d.message}`;

function context(uri: string, fileName: string, run: LastRun, settings: ScordSettings) {
  return { report: run.report, parsed: run.parsed, fileName, uri, version: run.version, settings };
}

/** The findings on screen: those of the last run that ran the program. */
function findingsPart(uri: string, fileName: string, run: LastRun | undefined, s: ScordSettings): DiagnosticsByUri {
  return run ? findingDiagnostics(context(uri, fileName, run, s)) : NONE;
}

/**
 * A report's own diagnostics besides the front end's: from clang, every one of them (clang's
 * errors and warnings, the program's problems, why it could not run); from the hand-written
 * front end's run, why it could not run the program.
 */
function reportPart(uri: string, fileName: string, report: LastRun | undefined, parsed: ParseResult, s: ScordSettings): DiagnosticsByUri {
  if (!report) return NONE;
  if (report.frontend === 'clang') return reportDiagnostics(report.report, report.parsed ?? parsed, fileName, uri);
  return runDiagnostics({ ...context(uri, fileName, report, s), parsed: report.parsed ?? parsed }, { findings: false, notSupported: s.frontend === 'builtin' });
}

/**
 * The front end's diagnostics of `parsed` that are shown (see the top of this file). With
 * `waitForClang`, none while the front end says it cannot read the file and no verdict on it
 * is known: neither clang's (misreadings) nor a report of both front ends rejecting it.
 */
function frontendPart(uri: string, fileName: string, parsed: ParseResult, s: ScordSettings, misreadings: Misreadings | undefined, waitForClang: boolean): DiagnosticsByUri {
  const all = frontendDiagnostics(parsed, fileName, uri);
  if (s.frontend === 'builtin') return all;
  if (waitForClang && !misreadings && parsed.diagnostics.some((d) => d.code === 'not-supported')) return filterDiagnostics(all, () => false);
  return filterDiagnostics(all, (d) => d.code !== 'not-supported' && !misreadings?.has(keyOf(d)));
}

/** The last report is of a text both front ends rejected: the hand-written front end's errors were the verdict. */
function bothRejected(report: LastRun | undefined): boolean {
  return report?.frontend === 'builtin' && !report.report.analysed;
}

export interface DocumentView {
  uri: string;
  fileName: string;
  settings: ScordSettings;
  /** The newest report, and the last run whose findings stay on screen. */
  lastReport: LastRun | undefined;
  lastRun: LastRun | undefined;
  misreadings: Misreadings | undefined;
}

/** On an edit: the new parse's diagnostics, the last report's, the last run's findings. */
export function editedDiagnostics(view: DocumentView, parsed: ParseResult): DiagnosticsByUri {
  const { uri, fileName, settings: s } = view;
  const front = frontendPart(uri, fileName, parsed, s, view.misreadings, !bothRejected(view.lastReport));
  return mergeDiagnostics(mergeDiagnostics(front, reportPart(uri, fileName, view.lastReport, parsed, s)), findingsPart(uri, fileName, view.lastRun, s));
}

/**
 * When a report comes (`view.lastReport`, of the text `parsed` read): what is shown, and the
 * misreadings to remember from now on.
 */
export function reportedDiagnostics(view: DocumentView, parsed: ParseResult): { diagnostics: DiagnosticsByUri; misreadings: Misreadings | undefined } {
  const { uri, fileName, settings: s, lastReport: report } = view;
  const findings = findingsPart(uri, fileName, view.lastRun, s);
  if (report?.frontend !== 'clang') {
    // A run of the hand-written front end's own: it read the whole file, and is right about it.
    // A text both front ends reject (a half-typed line) shows the hand-written front end's
    // errors, less what it misread before.
    const misreadings = report?.report.analysed ? undefined : view.misreadings;
    return { diagnostics: mergeDiagnostics(mergeDiagnostics(frontendPart(uri, fileName, parsed, s, misreadings, false), reportPart(uri, fileName, report, parsed, s)), findings), misreadings };
  }
  const accepted = !report.report.diagnostics.some((d) => d.severity === 'error' && d.code === 'clang');
  const misreadings = accepted ? new Set([...frontendDiagnostics(parsed, fileName, uri).values()].flat().map(keyOf)) : view.misreadings;
  return { diagnostics: mergeDiagnostics(reportPart(uri, fileName, report, parsed, s), findings), misreadings };
}
