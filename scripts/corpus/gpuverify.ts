// GPUVerify's CUDA test suite: every `kernel.cu` under testsuite/CUDA is a test. Its first line
// says what GPUVerify must answer (`//pass`, or `//xfail:CODE` with CODE NOT_ALL_VERIFIED when
// the kernel has a defect, BUGLE_ERROR or CLANG_ERROR when GPUVerify's own tool chain refuses
// it); its second line the launch (`//--blockDim=… --gridDim=…`, which `scord check` reads
// itself); the `//` lines after that are patterns its output must match, and they (with the
// comments around them) name the defect: a race, a failed assertion, a null pointer, …
import * as fs from 'node:fs';
import * as path from 'node:path';
import { measureProgram, type MeasureContext, type ProgramResult } from './measure';
import { mapLimited } from './runner';
import { detail, outcomeCounts, outcomeTable, percent, refusedAnywhere, seconds, tally, tallyLines } from './report';

/** What a test expects, as far as races are concerned. */
export type Expectation = 'pass' | 'race' | 'assertion' | 'null-pointer' | 'barrier-divergence' | 'constant-write' | 'other-defect' | 'unstated-defect' | 'tool-error';

export interface GpuVerifyLabel {
  /** `pass`, or the xfail code (`NOT_ALL_VERIFIED`, `BUGLE_ERROR`, `CLANG_ERROR`, …). */
  code: string;
  /** The GPUVerify options of the second line. */
  options: string[];
  /** The `//` pattern lines that follow. */
  patterns: string[];
  expectation: Expectation;
}

/** Where the suite's tests are: testsuite/CUDA of the repository, or that folder itself. */
export function gpuverifyTestDir(root: string): string | undefined {
  const inRepo = path.join(root, 'testsuite', 'CUDA');
  if (fs.existsSync(inRepo)) return inRepo;
  if (path.basename(root) === 'CUDA' && fs.existsSync(path.join(root, '..', '..', 'gvtester.py'))) return root;
  return undefined;
}

export function readGpuVerifyLabel(text: string, testPath: string): GpuVerifyLabel | undefined {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const first = /^\/\/(pass|xfail:([A-Za-z_]+))/i.exec(lines[0] ?? '');
  if (!first) return undefined;
  const code = first[2] ? first[2].toUpperCase() : 'pass';
  const options = (lines[1] ?? '').startsWith('//') ? lines[1].slice(2).trim().split(/\s+/).filter(Boolean) : [];
  const patterns: string[] = [];
  for (let i = 2; i < lines.length && lines[i].startsWith('//') && lines[i].trimEnd().length > 2; i++) patterns.push(lines[i].slice(2));
  // The comments before the first line of code explain the test too ("This kernel is racy.").
  const leading: string[] = [];
  for (const l of lines) {
    const t = l.trim();
    if (t === '') continue;
    if (!t.startsWith('//')) break;
    leading.push(t.slice(2));
  }
  return { code, options, patterns, expectation: expectationOf(code, [...patterns, ...leading.slice(2)].join('\n'), testPath, text) };
}

/**
 * The defect a failing test names: from its patterns and comments, else from its folder's name,
 * its kernel's name (`race_test`) or an `__assert` in its code.
 */
function expectationOf(code: string, said: string, testPath: string, text: string): Expectation {
  if (code === 'pass') return 'pass';
  if (code !== 'NOT_ALL_VERIFIED') return 'tool-error';
  if (/not[- ]racy/i.test(said)) return 'other-defect';
  if (/\brac(e|es|y)\b|(write|read) by thread/i.test(said)) return 'race';
  if (/assert|invariant|postcondition|precondition|\bensures\b|\brequires\b/i.test(said)) return 'assertion';
  if (/null pointer/i.test(said)) return 'null-pointer';
  if (/divergence/i.test(said)) return 'barrier-divergence';
  if (/constant memory/i.test(said)) return 'constant-write';
  if (/divergence/i.test(testPath)) return 'barrier-divergence';
  if (/race/i.test(testPath) || /__global__\s+void\s+\w*race\w*\s*\(/i.test(text)) return 'race';
  if (/assert/i.test(testPath) || /\b__assert\s*\(/.test(text)) return 'assertion';
  if (said.trim()) return 'other-defect';
  return 'unstated-defect';
}

interface TestResult extends ProgramResult {
  code: string;
  expectation: Expectation;
  /** race: found/missed; pass: clean/false-alarm/other-findings; other defects: found-something/nothing. */
  verdict: string;
}

function verdictOf(r: ProgramResult, expectation: Expectation): string {
  // Analysable: the check ran and reported (exit 0 or 1), a run stopped at a simulator limit included.
  if (r.outcome !== 'completed' && r.outcome !== 'limit') return 'not-analysable';
  const races = r.findings.filter((f) => f.kind === 'race').length;
  if (expectation === 'pass') return races ? 'false-alarm' : r.findings.length ? 'other-findings' : 'clean';
  if (expectation === 'race') return races ? 'found' : 'missed';
  if (expectation === 'tool-error') return r.findings.length ? 'findings' : 'clean';
  return r.findings.length ? 'found-something' : 'found-nothing';
}

export async function measureGpuVerify(root: string, ctx: MeasureContext): Promise<{ text: string[]; json: object }> {
  const dir = gpuverifyTestDir(root);
  if (!dir) throw new Error(`${root} has no testsuite/CUDA`);
  const tests = walkKernels(dir)
    .map((file) => {
      const text = fs.readFileSync(file, 'utf8');
      const name = path.relative(dir, path.dirname(file)) || '.';
      return { file, name, label: readGpuVerifyLabel(text, name) };
    })
    .filter((t) => !ctx.filter || t.name.includes(ctx.filter));
  const unlabelled = tests.filter((t) => !t.label);
  ctx.log(`gpuverify: ${tests.length} tests under ${path.relative(root, dir) || '.'}${unlabelled.length ? ` (${unlabelled.length} without a //pass or //xfail line)` : ''}`);
  let finished = 0;
  const results = await mapLimited(
    tests,
    ctx.jobs,
    async (t): Promise<TestResult> => {
      const r = await measureProgram({ name: t.name, files: [t.file], includeDirs: [], defines: [], cwd: path.dirname(t.file) }, ctx, root);
      const expectation = t.label?.expectation ?? 'unstated-defect';
      return { ...r, code: t.label?.code ?? '?', expectation, verdict: verdictOf(r, expectation) };
    },
    (r) => {
      finished++;
      ctx.log(`${`[${finished}/${tests.length}]`.padEnd(10)} ${r.expectation.padEnd(18)} ${r.verdict.padEnd(15)} ${r.name.padEnd(48)} ${seconds(r.ms).padStart(7)}  ${detail(r)}`);
    },
  );
  return { text: gpuverifySummary(results, ctx.top), json: { tests: results, summary: gpuverifyJson(results, ctx.top) } };
}

function walkKernels(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walkKernels(p, out);
    else if (e.isFile() && e.name === 'kernel.cu') out.push(p);
  }
  return out;
}

function countBy<T>(items: readonly T[], key: (t: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const i of items) out[key(i)] = (out[key(i)] ?? 0) + 1;
  return out;
}

function gpuverifyJson(results: TestResult[], top: number): object {
  const counts = outcomeCounts(results);
  const byExpectation: Record<string, Record<string, number>> = {};
  for (const r of results) (byExpectation[r.expectation] ??= {})[r.verdict] = (byExpectation[r.expectation]?.[r.verdict] ?? 0) + 1;
  return {
    tests: results.length,
    outcomes: counts,
    analysablePercent: results.length ? (100 * (counts.completed + counts.limit)) / results.length : 0,
    expectations: countBy(results, (r) => r.expectation),
    verdicts: byExpectation,
    racesMissed: results.filter((r) => r.expectation === 'race' && r.verdict === 'missed').map((r) => r.name),
    falseAlarms: results.filter((r) => r.verdict === 'false-alarm').map((r) => ({ name: r.name, at: r.findings.find((f) => f.kind === 'race')?.at })),
    topNotSupported: tally(results.filter((r) => r.outcome === 'not-supported').map((r) => ({ reason: r.reason ?? '', name: r.name })), top),
    refusedAnywhere: refusedAnywhere(results, top),
    topErrors: tally(results.filter((r) => r.outcome === 'compile-error' || r.outcome === 'not-analysed').map((r) => ({ reason: r.reason ?? '', name: r.name })), top),
    totalMs: results.reduce((s, r) => s + r.ms, 0),
  };
}

function gpuverifySummary(results: TestResult[], top: number): string[] {
  const counts = outcomeCounts(results);
  const lines = [`gpuverify summary: ${counts.completed + counts.limit} / ${results.length} analysable (${percent(counts.completed + counts.limit, results.length)})`, ...outcomeTable(results)];
  const expectations = countBy(results, (r) => r.expectation);
  lines.push(`labels: ${Object.entries(expectations).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  const races = results.filter((r) => r.expectation === 'race');
  const found = races.filter((r) => r.verdict === 'found').length;
  const missed = races.filter((r) => r.verdict === 'missed');
  lines.push(`race-labelled tests: ${races.length}; found ${found}, missed ${missed.length}, not analysable ${races.length - found - missed.length}`);
  for (const r of missed) lines.push(`  missed  ${r.name}${r.findings.length ? ` (reported instead: ${[...new Set(r.findings.map((f) => f.kind))].join(', ')})` : ''}`);
  for (const r of races.filter((x) => x.verdict === 'not-analysable')) lines.push(`  not analysable  ${r.name}: ${r.outcome}: ${detail(r)}`);
  const pass = results.filter((r) => r.expectation === 'pass');
  const alarms = pass.filter((r) => r.verdict === 'false-alarm');
  const other = pass.filter((r) => r.verdict === 'other-findings');
  lines.push(`pass-labelled tests: ${pass.length}; clean ${pass.filter((r) => r.verdict === 'clean').length}, false alarms (races) ${alarms.length}, other findings ${other.length}, not analysable ${pass.filter((r) => r.verdict === 'not-analysable').length}`);
  for (const r of alarms) lines.push(`  false alarm  ${r.name}: ${r.findings.find((f) => f.kind === 'race')?.at ?? ''} ${r.findings.find((f) => f.kind === 'race')?.category ?? ''}`);
  for (const r of other) lines.push(`  other finding  ${r.name}: ${[...new Set(r.findings.map((f) => f.kind))].join(', ')} at ${r.findings[0].at}`);
  const defects = results.filter((r) => !['pass', 'race', 'tool-error'].includes(r.expectation));
  if (defects.length) {
    const some = defects.filter((r) => r.verdict === 'found-something').length;
    lines.push(`other defect tests (assertion, null pointer, divergence, …): ${defects.length}; something reported ${some}, nothing ${defects.filter((r) => r.verdict === 'found-nothing').length}, not analysable ${defects.filter((r) => r.verdict === 'not-analysable').length}`);
    for (const r of defects.filter((x) => x.verdict !== 'not-analysable')) lines.push(`  ${r.expectation.padEnd(18)} ${r.verdict.padEnd(15)} ${r.name}${r.findings.length ? `: ${[...new Set(r.findings.map((f) => f.kind))].join(', ')} at ${r.findings[0].at}` : ''}`);
  }
  const tool = results.filter((r) => r.expectation === 'tool-error');
  if (tool.length) lines.push(`tests GPUVerify's own tool chain refuses (BUGLE_ERROR, CLANG_ERROR): ${tool.length}; analysed here ${tool.filter((r) => r.outcome === 'completed' || r.outcome === 'limit').length}`);
  lines.push(...tallyLines('top features refused (not supported):', tally(results.filter((r) => r.outcome === 'not-supported').map((r) => ({ reason: r.reason ?? '', name: r.name })), top)));
  // Where reports refuse several features, the first one hides the rest: count them all too.
  if (results.some((r) => (r.refused?.length ?? 0) > 1)) lines.push(...tallyLines('features refused anywhere in a program (each counted once per program):', refusedAnywhere(results, top)));
  lines.push(...tallyLines('top errors (compile errors, not analysed):', tally(results.filter((r) => r.outcome === 'compile-error' || r.outcome === 'not-analysed').map((r) => ({ reason: r.reason ?? '', name: r.name })), top)));
  const crashes = results.filter((r) => r.outcome === 'crash' || r.outcome === 'timeout' || r.outcome === 'usage');
  if (crashes.length) lines.push('crashes, timeouts and refused command lines:', ...crashes.map((r) => `  ${r.outcome.padEnd(8)} ${r.name}: ${detail(r)}`));
  return lines;
}
