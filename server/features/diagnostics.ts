// Engine results as LSP diagnostics: the front end's problems, clang's (on the clang path,
// where clang decides what is an error), and the findings of the last run at the racing
// instruction's exact range, with the other access (and the lock acquire, for lock races) as
// related information and `data` for code actions. Problems and findings in an included
// header, or in another file of the program, are shown in that file, and at the #include
// line of the checked file when there is one.
import * as path from 'node:path';
import { DiagnosticSeverity, type Diagnostic, type DiagnosticRelatedInformation } from 'vscode-languageserver/node';
import { URI } from 'vscode-uri';
import type { CheckDiagnostic, CheckFinding, CheckReport } from '../../sims/check';
import type { ParseResult } from '../../sims/frontend/index';
import type { Diagnostic as FrontendDiagnostic } from '../../sims/frontend/diagnostics';
import type { Range } from '../../sims/frontend/source';
import { documentedAnchor } from '../../sims/report/sarif';
import { RUN_LEVEL_CODES, RUN_NOTE_CODES } from '../analysis/scheduler';

/**
 * The page of diagnostic codes beside the server's bundle (dist/../docs/diagnostic-codes.md:
 * the extension ships it), whose anchors document each code: the hover's code link opens it,
 * wherever the extension lives.
 */
const CODES_PAGE = URI.file(path.join(__dirname, '..', 'docs', 'diagnostic-codes.md'));

/** The link of a diagnostic's code to its entry on the codes page, when it has one. */
export function codeDescription(code: string): Pick<Diagnostic, 'codeDescription'> {
  const anchor = documentedAnchor(code);
  return anchor ? { codeDescription: { href: CODES_PAGE.with({ fragment: anchor }).toString() } } : {};
}
import type { RaceDiagnosticData, ScordSettings } from '../protocol';

export function lspRange(r: Range): Diagnostic['range'] {
  return { start: { line: r.start.line, character: r.start.character }, end: { line: r.end.line, character: r.end.character } };
}

export function uriOf(file: string): string {
  return file.startsWith('/') ? URI.file(file).toString() : file;
}

/** Diagnostics by document URI: the checked file's, and each header's. */
export type DiagnosticsByUri = Map<string, Diagnostic[]>;

function push(map: DiagnosticsByUri, uri: string, d: Diagnostic): void {
  const list = map.get(uri);
  if (list) list.push(d);
  else map.set(uri, [d]);
}

const SEVERITY = { error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, information: DiagnosticSeverity.Information, hint: DiagnosticSeverity.Hint } as const;

/** The #include line of `fileName` through which `header` was reached, if any. */
function includeSite(parsed: ParseResult | undefined, fileName: string, header: string): Range | undefined {
  if (!parsed) return undefined;
  const direct = parsed.includes.find((e) => e.from === fileName && e.to === header);
  if (direct) return direct.range;
  // Reached through another header: the include of the main file that leads there.
  const parents = new Map(parsed.includes.map((e) => [e.to, e]));
  let edge = parents.get(header);
  for (let guard = 0; edge && edge.from !== fileName && guard < 64; guard++) edge = parents.get(edge.from);
  return edge?.from === fileName ? edge.range : undefined;
}

/** The front end's diagnostics (syntax and semantic errors) for the checked file and its headers. */
export function frontendDiagnostics(parsed: ParseResult, fileName: string, uri: string): DiagnosticsByUri {
  const out: DiagnosticsByUri = new Map([[uri, []]]);
  for (const d of parsed.diagnostics) addFrontend(out, d, parsed, fileName, uri);
  return out;
}

function addFrontend(out: DiagnosticsByUri, d: FrontendDiagnostic, parsed: ParseResult, fileName: string, uri: string): void {
  const base: Diagnostic = {
    range: lspRange(d.range),
    severity: SEVERITY[d.severity],
    code: d.code,
    source: 'scord',
    message: d.message,
    ...codeDescription(d.code),
    ...(d.related?.length ? { relatedInformation: d.related.filter((r) => r.range.file.startsWith('/') || r.range.file === fileName).map((r) => ({ message: r.message, location: { uri: r.range.file === fileName ? uri : uriOf(r.range.file), range: lspRange(r.range) } })) } : {}),
  };
  if (d.range.file === fileName) {
    push(out, uri, base);
    return;
  }
  if (d.range.file.startsWith('/')) push(out, uriOf(d.range.file), base);
  const site = includeSite(parsed, fileName, d.range.file);
  if (site) push(out, uri, { ...base, range: lspRange(site), message: `${d.message} (in ${d.range.file}:${d.range.start.line + 1})` });
}

export interface RunContext {
  report: CheckReport;
  parsed: ParseResult | undefined;
  fileName: string;
  uri: string;
  version: number;
  settings: ScordSettings;
}

/**
 * What a hand-written front end's run adds to the front end's diagnostics: why it could not
 * run (unsupported constructs, no main; `not-supported` unless `notSupported` is false, for
 * where clang decides) and its findings (unless `findings` is false), by URI.
 */
export function runDiagnostics(ctx: RunContext, options: { notSupported?: boolean; findings?: boolean } = {}): DiagnosticsByUri {
  const { report, fileName, uri } = ctx;
  const out: DiagnosticsByUri = new Map([[uri, []]]);
  // The report starts with the front end's diagnostics (shown from its parse); the run's own come after them.
  const own = new Set(ctx.parsed?.diagnostics.map((d) => `${d.code}@${d.range.file}:${d.range.start.offset}:${d.message}`));
  for (const d of report.diagnostics) {
    const code = d.code ?? '';
    if (!d.range || !(RUN_LEVEL_CODES.has(code) || RUN_NOTE_CODES.has(code)) || (code === 'not-supported' && options.notSupported === false)) continue;
    if (own.has(`${d.code}@${d.range.file}:${d.range.start.offset}:${d.message}`)) continue;
    push(out, d.range.file === fileName ? uri : uriOf(d.range.file), { range: lspRange(d.range), severity: SEVERITY[d.severity], code: d.code ?? 'error', source: 'scord', message: d.message });
  }
  if (options.findings !== false) report.findings.forEach((f, i) => addFinding(out, f, i, ctx));
  return out;
}

/** The findings of a run, by URI (a run kept on screen beside a newer report's errors). */
export function findingDiagnostics(ctx: RunContext): DiagnosticsByUri {
  const out: DiagnosticsByUri = new Map([[ctx.uri, []]]);
  ctx.report.findings.forEach((f, i) => addFinding(out, f, i, ctx));
  return out;
}

/**
 * Every diagnostic of a report from the clang path — clang's errors and warnings (code
 * `clang`), the program's problems, why it could not run — in the checked file, in headers
 * and other files of the program (and at the #include line that reaches a header).
 */
export function reportDiagnostics(report: CheckReport, parsed: ParseResult | undefined, fileName: string, uri: string): DiagnosticsByUri {
  const out: DiagnosticsByUri = new Map([[uri, []]]);
  for (const d of report.diagnostics) addReported(out, d, parsed, fileName, uri);
  return out;
}

function addReported(out: DiagnosticsByUri, d: CheckDiagnostic, parsed: ParseResult | undefined, fileName: string, uri: string): void {
  const code = d.code ?? 'error';
  const base: Diagnostic = {
    range: d.range ? lspRange(d.range) : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: SEVERITY[d.severity],
    code,
    source: 'scord',
    message: d.message,
    ...codeDescription(code),
  };
  const file = d.range?.file ?? fileName;
  if (file === fileName) {
    push(out, uri, base);
    return;
  }
  if (file.startsWith('/')) push(out, uriOf(file), base);
  const site = includeSite(parsed, fileName, file);
  if (site) push(out, uri, { ...base, range: lspRange(site), message: `${d.message} (in ${file}:${(d.range?.start.line ?? 0) + 1})` });
}

/** Only the diagnostics `keep` accepts, by URI. */
export function filterDiagnostics(byUri: DiagnosticsByUri, keep: (d: Diagnostic) => boolean): DiagnosticsByUri {
  return new Map([...byUri].map(([k, v]) => [k, v.filter(keep)]));
}

/** Both lists merged by URI. */
export function mergeDiagnostics(a: DiagnosticsByUri, b: DiagnosticsByUri): DiagnosticsByUri {
  const out: DiagnosticsByUri = new Map([...a].map(([k, v]) => [k, [...v]]));
  for (const [k, v] of b) out.set(k, [...(out.get(k) ?? []), ...v]);
  return out;
}

function addFinding(out: DiagnosticsByUri, f: CheckFinding, index: number, ctx: RunContext): void {
  if (!f.range) {
    // A finding without a place (a run that did not finish): at the top of the file.
    push(out, ctx.uri, { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity: SEVERITY[f.severity], code: f.category, source: 'scord', message: f.message });
    return;
  }
  // Benign same-value races stay information, whatever severity races are given.
  const severity = f.kind === 'race' && f.severity !== 'information' ? SEVERITY[ctx.settings.diagnostics.raceSeverity] : SEVERITY[f.severity];
  const related: DiagnosticRelatedInformation[] = (f.relatedRanges ?? []).map((r, i) => ({
    location: { uri: r.file === ctx.fileName ? ctx.uri : uriOf(r.file), range: lspRange(r) },
    message: f.related[i]?.message ?? 'the other access',
  }));
  const data: RaceDiagnosticData = { version: ctx.version, finding: index, ...(f.address ? { address: f.address } : {}) };
  // What a weak-memory run saw go wrong, and how the other engine sees the pair, on lines of their own.
  const message = [f.message, f.observed, f.note].filter((m): m is string => !!m).join('\n');
  const d: Diagnostic = {
    range: lspRange(f.range),
    severity,
    code: f.category,
    ...codeDescription(f.category),
    source: 'scord',
    message,
    ...(related.length ? { relatedInformation: related } : {}),
    data,
  };
  if (f.range.file === ctx.fileName) {
    push(out, ctx.uri, d);
    return;
  }
  push(out, uriOf(f.range.file), { ...d, data: { ...data, owner: ctx.uri } });
  const site = includeSite(ctx.parsed, ctx.fileName, f.range.file);
  if (site) {
    push(out, ctx.uri, {
      ...d,
      range: lspRange(site),
      message: `${message} (in ${f.range.file}:${f.range.start.line + 1}:${f.range.start.character + 1})`,
      relatedInformation: [{ location: { uri: uriOf(f.range.file), range: lspRange(f.range) }, message: 'the racing access, in the header' }, ...related],
    });
  }
}
