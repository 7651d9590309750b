// `npm run corpus:fixes -- DIR [options] [-- CHECK OPTIONS]`: scores `scord fix` on the
// race-labelled tests of a labelled suite (the layouts of suite.ts): does the fix remove the races
// `scord check` found, without adding findings, and does the fixed file still compile?
//
// Each test is copied into a fresh temporary folder (a GPUVerify test's whole folder, since it may
// include files beside it), so DIR is never written. On the copy: `check --format json`, the
// original compiled, `fix`, `check --format json` again, the fixed file compiled. The CHECK
// OPTIONS go to all three CLI runs (and their -D, -U and -I to the compiles), plus `--warp-sync`
// where score.ts adds it.
//
// The judgement, from the two reports:
// - Lines of the first report are carried to the fixed file through a line diff of the two texts
//   (lines inside an edited stretch go to the same offset in its replacement), so a fix that
//   inserts a fence above a race does not make the race look gone or new.
// - Two findings are the same defect when they have the same kind and category and share a line
//   (the finding's own line or a related one: a fixed file may report the same pair of accesses
//   the other way round).
// - A race of the first report is fixed when no race of the re-check is the same defect.
// - The fix added a finding when some finding of the re-check (of any kind: a fix that trades a
//   race for a deadlock is no fix) is not the same defect as any finding of the first report.
// - A test is `fixed` when every race was fixed and nothing was added; `unfixed` otherwise
//   (no fix applied, races left, findings added, or the fixed file no longer analysed);
//   `not-run` when the first check did not run the program, or the fix or the re-check ran out
//   of time (a verdict on a run that was never seen would be a guess).
// Benign same-value races (information) are counted apart, as in score.ts: a test with only those
// is `benign-only` and is not fixed; they are left out of both sides of the judgement.
//
// Compiling: with nvcc on PATH, `nvcc -c -o /dev/null -arch=sm_70` (or the oldest architecture
// the installed nvcc still builds, when it has dropped sm_70); otherwise clang's device pass, run
// in this process (the device side is what the fixes edit); `--compiler nvcc|clang` chooses. When
// the original does not compile, the fixed file's compile says nothing about the fix: `n/a`.
//
// Exit status: 0 when the run completed, whatever the numbers; 2 on usage errors.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { diffLines } from 'diff';
import { compileDevice } from '../../sims/clang/toolchain';
import { mapLimited, runCli, type Limits } from '../corpus/runner';
import { alignTable, findTests, notRunReason, parseReport, parseSuiteArgs, UsageError, type Finding, type Layout, type Report, type SuiteOptions, type Test } from './suite';

export type FixVerdict = 'fixed' | 'unfixed' | 'no-race' | 'benign-only' | 'not-run';
/** yes/no: the fixed file compiles or not; n/a: the original does not compile either. */
export type Compiles = 'yes' | 'no' | 'n/a';

export interface Judgement {
  /** The serious races of the first report. */
  races: number;
  fixed: number;
  /** Races of the first report the re-check still reports, as `category@line` (lines of the original). */
  left: string[];
  /** Findings of the re-check that the first report did not have, as `category@line` (lines of the fixed file). */
  added: string[];
  benignBefore: number;
  benignAfter: number;
}

export interface FixResult extends Test {
  verdict: FixVerdict;
  /** The race categories the first check reported. */
  categories: string[];
  judgement?: Judgement;
  /** Titles of the fixes `scord fix` applied. */
  applied: string[];
  /** Set when the fix changed the file and the compiles ran. */
  compiles?: Compiles;
  compileError?: string;
  reason?: string;
  ms: number;
}

interface Options extends SuiteOptions {
  compiler: 'auto' | 'nvcc' | 'clang';
}

const USAGE = 'usage: npm run corpus:fixes -- DIR [--cli PATH] [--timeout SECONDS] [--jobs N] [--filter TEXT] [--json OUT] [--compiler auto|nvcc|clang] [-- CHECK OPTIONS...]';

export function parseArgs(argv: string[]): Options {
  let compiler: Options['compiler'] = 'auto';
  const o = parseSuiteArgs(argv, USAGE, (flag, value) => {
    if (flag !== '--compiler') return false;
    const v = value();
    if (v !== 'auto' && v !== 'nvcc' && v !== 'clang') throw new UsageError(`unknown compiler '${v}'; choose auto, nvcc or clang`);
    compiler = v;
    return true;
  });
  return { ...o, compiler };
}

// --- The judgement -----------------------------------------------------------------------------

/**
 * Where each line of `before` is in `after` (1-based; lines past the end of `before` move by the
 * difference in length). A line inside an edited stretch goes to the same offset in what
 * replaced it (its last line when the replacement is shorter); a deleted line to the line that
 * now follows.
 */
export function lineMap(before: string, after: string): (line: number) => number {
  const map: number[] = [];
  let oldLine = 1;
  let newLine = 1;
  let removed = 0;
  let added = 0;
  const flush = () => {
    for (let k = 0; k < removed; k++) map[oldLine + k] = newLine + Math.min(k, Math.max(added - 1, 0));
    oldLine += removed;
    newLine += added;
    removed = added = 0;
  };
  for (const change of diffLines(before, after)) {
    const count = change.count ?? 0;
    if (change.removed) removed += count;
    else if (change.added) added += count;
    else {
      flush();
      for (let k = 0; k < count; k++) map[oldLine + k] = newLine + k;
      oldLine += count;
      newLine += count;
    }
  }
  flush();
  const shift = newLine - oldLine;
  return (line) => map[line] ?? line + shift;
}

const isRace = (f: Finding) => f.kind === 'race';
const isBenign = (f: Finding) => isRace(f) && f.category === 'benign-same-value';
const linesOf = (f: Finding) => [f.location.line, ...(f.related ?? []).map((r) => r.location.line)];
const label = (f: Finding, line = f.location.line) => `${f.category}@${line}`;

/** Whether `old` (lines of the original, carried by `map`) and `now` (lines of the fixed file) are the same defect. */
function sameDefect(old: Finding, now: Finding, map: (line: number) => number): boolean {
  if (old.kind !== now.kind || old.category !== now.category) return false;
  const mine = new Set(linesOf(old).map(map));
  return linesOf(now).some((l) => mine.has(l));
}

/** Compares the findings before and after the fix (the rules are in the header). */
export function judgeFix(before: Finding[], after: Finding[], map: (line: number) => number = (l) => l): Judgement {
  const oldSerious = before.filter((f) => !isBenign(f));
  const newSerious = after.filter((f) => !isBenign(f));
  const races = oldSerious.filter(isRace);
  const left = races.filter((r) => newSerious.some((n) => isRace(n) && sameDefect(r, n, map)));
  const added = newSerious.filter((n) => !oldSerious.some((o) => sameDefect(o, n, map)));
  return {
    races: races.length,
    fixed: races.length - left.length,
    left: left.map((f) => label(f)),
    added: added.map((f) => label(f)),
    benignBefore: before.filter(isBenign).length,
    benignAfter: after.filter(isBenign).length,
  };
}

/** The test's verdict from its judgement. */
export function fixVerdict(j: Judgement): FixVerdict {
  if (!j.races) return j.benignBefore ? 'benign-only' : 'no-race';
  return j.fixed === j.races && !j.added.length ? 'fixed' : 'unfixed';
}

// --- Compiling ---------------------------------------------------------------------------------

interface Compiler {
  /** What judged, as the report names it. */
  name: string;
  compile(file: string): Promise<{ ok: true } | { ok: false; error: string }>;
}

/** The preprocessor options among the check options (`-D X`, `-DX`, `-U`, `-I`), for the compiles. */
export function preprocessorFlags(args: string[]): { defines: string[]; undefines: string[]; includeDirs: string[] } {
  const out = { defines: [] as string[], undefines: [] as string[], includeDirs: [] as string[] };
  const into = { '-D': out.defines, '-U': out.undefines, '-I': out.includeDirs } as const;
  for (let i = 0; i < args.length; i++) {
    const flag = args[i].slice(0, 2);
    if (flag !== '-D' && flag !== '-U' && flag !== '-I') continue;
    const v = args[i].length > 2 ? args[i].slice(2) : args[++i];
    if (v !== undefined) into[flag].push(v);
  }
  return out;
}

/** sm_70, the architecture the simulator models; else the oldest one `nvcc --list-gpu-code` names. */
export function pickArch(listed: string): string {
  const archs = [...listed.matchAll(/\bsm_(\d+)[a-z]?\b/g)].map((m) => Number(m[1]));
  if (!archs.length || archs.includes(70)) return 'sm_70';
  return `sm_${Math.min(...archs)}`;
}

function onPath(program: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((d) => {
    try {
      fs.accessSync(path.join(d || '.', program), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function exec(program: string, args: string[], cwd: string, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    execFile(program, args, { cwd, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, output: `${stderr}${stdout}${error && code === null ? `\n${error.message}` : ''}` });
    });
  });
}

/** The first error line of a compiler's output. */
function firstError(output: string): string {
  const lines = output.split('\n').map((l) => l.trim()).filter(Boolean);
  return (lines.find((l) => /\berror\b/i.test(l)) ?? lines[0] ?? 'failed').slice(0, 200);
}

async function chooseCompiler(kind: Options['compiler'], checkArgs: string[], timeoutMs: number): Promise<Compiler> {
  const flags = preprocessorFlags(checkArgs);
  const useNvcc = kind === 'nvcc' || (kind === 'auto' && onPath('nvcc'));
  if (useNvcc) {
    if (!onPath('nvcc')) throw new UsageError('--compiler nvcc: nvcc is not on PATH');
    const arch = pickArch((await exec('nvcc', ['--list-gpu-code'], process.cwd(), 30_000)).output);
    const defs = [...flags.defines.map((d) => `-D${d}`), ...flags.undefines.map((u) => `-U${u}`), ...flags.includeDirs.map((d) => `-I${d}`)];
    return {
      name: `nvcc -arch=${arch}`,
      async compile(file) {
        const r = await exec('nvcc', ['-c', '-o', '/dev/null', `-arch=${arch}`, ...defs, file], path.dirname(file), timeoutMs);
        return r.code === 0 ? { ok: true } : { ok: false, error: firstError(r.output) };
      },
    };
  }
  return {
    name: 'clang device pass',
    async compile(file) {
      const r = await compileDevice({ file, ...flags });
      if (r.ok) return { ok: true };
      const e = r.diagnostics.find((d) => d.severity === 'error') ?? r.diagnostics[0];
      return { ok: false, error: e ? `${path.basename(e.file)}:${e.line}: ${e.message}`.slice(0, 200) : 'failed' };
    },
  };
}

// --- One test ----------------------------------------------------------------------------------

/** Copies the test where it may be written: the file alone (ScoR), or its whole folder (GPUVerify). */
function copyTest(t: Test, layout: Layout, scratch: string): string {
  if (layout === 'scor') {
    const copy = path.join(scratch, path.basename(t.file));
    fs.copyFileSync(t.file, copy);
    return copy;
  }
  const folder = path.join(scratch, path.basename(path.dirname(t.file)));
  fs.cpSync(path.dirname(t.file), folder, { recursive: true, dereference: true });
  return path.join(folder, path.basename(t.file));
}

/** The copies in use: an interrupted run removes them too. */
const scratchDirs = new Set<string>();

async function fixOne(t: Test, layout: Layout, o: Options, compiler: Compiler): Promise<FixResult> {
  const started = Date.now();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-fixscore-'));
  scratchDirs.add(scratch);
  const limits: Limits = { timeoutMs: o.timeoutMs, memoryMb: 4096 };
  const base: FixResult = { ...t, verdict: 'not-run', categories: [], applied: [], ms: 0 };
  const done = (r: Partial<FixResult>): FixResult => ({ ...base, ...r, ...(r.reason ? { reason: r.reason.slice(0, 200) } : {}), ms: Date.now() - started });
  try {
    const copy = copyTest(t, layout, scratch);
    const cwd = path.dirname(copy);
    const extra = [...(t.warpSync ? ['--warp-sync'] : []), ...o.checkArgs];
    const check = async (): Promise<{ report?: Report; reason?: string }> => {
      const run = await runCli(o.cli, ['check', copy, '--format', 'json', ...extra], cwd, limits);
      const report = parseReport(run);
      const reason = notRunReason(run, report);
      return reason === undefined ? { report: report! } : { reason };
    };
    const first = await check();
    if (!first.report) return done({ reason: `check: ${first.reason ?? 'no report'}` });
    const before = first.report.findings;
    const categories = [...new Set(before.filter((f) => isRace(f) && !isBenign(f)).map((f) => f.category))].sort();
    // Judged against itself: every race left, nothing added, until a fix changes the file.
    const initial = judgeFix(before, before);
    if (!initial.races) return done({ verdict: fixVerdict(initial), judgement: initial });
    const original = fs.readFileSync(copy, 'utf8');
    const originalCompiles = await compiler.compile(copy);
    const fix = await runCli(o.cli, ['fix', copy, ...extra], cwd, limits);
    if (fix.timedOut) return done({ categories, reason: 'fix timed out' });
    const applied = [...fix.stdout.matchAll(/: fixed: (.*)$/gm)].map((m) => m[1]);
    const fixed = fs.readFileSync(copy, 'utf8');
    if (fixed === original) {
      const why = fix.exitCode === 2 ? `: ${fix.stderr.trim().split('\n')[0] || fix.stdout.trim().split('\n')[0] || 'not analysed'}` : '';
      return done({ verdict: 'unfixed', categories, applied, judgement: initial, reason: `no fix applied${why}` });
    }
    const compiled = originalCompiles.ok ? await compiler.compile(copy) : undefined;
    const compiles: Compiles = !compiled ? 'n/a' : compiled.ok ? 'yes' : 'no';
    const compileError = compiled && !compiled.ok ? compiled.error : !originalCompiles.ok ? `original: ${originalCompiles.error}` : undefined;
    const second = await check();
    if (!second.report) {
      const timedOut = second.reason === 'timed out';
      return done({ verdict: timedOut ? 'not-run' : 'unfixed', categories, applied, compiles, ...(compileError ? { compileError } : {}), reason: `re-check: ${second.reason ?? 'no report'}` });
    }
    const judgement = judgeFix(before, second.report.findings, lineMap(original, fixed));
    const verdict = fixVerdict(judgement);
    const reason = verdict === 'unfixed' ? [judgement.left.length ? `left ${judgement.left.join(', ')}` : '', judgement.added.length ? `added ${judgement.added.join(', ')}` : ''].filter(Boolean).join('; ') : undefined;
    return done({ verdict, categories, applied, judgement, compiles, ...(compileError ? { compileError } : {}), ...(reason ? { reason } : {}) });
  } catch (e) {
    return done({ reason: `could not run: ${(e as Error).message}` });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
    scratchDirs.delete(scratch);
  }
}

// --- The report --------------------------------------------------------------------------------

/**
 * One row per category and a total: racy tests, those where a race was found, fixed, whose fix
 * added a finding, whose changed file compiles (of those whose original compiles), and the rest.
 */
export function fixTable(results: FixResult[], compiler: string): string[] {
  const categories = [...new Set(results.map((r) => r.category))].sort();
  const head = ['category', 'racy', 'found', 'fixed', 'added', 'fix compiles', 'benign-only', 'not-run'];
  const row = (name: string, rs: FixResult[]) => {
    const found = rs.filter((r) => (r.judgement?.races ?? 0) > 0);
    const judged = rs.filter((r) => r.compiles === 'yes' || r.compiles === 'no');
    return [
      name,
      String(rs.length),
      String(found.length),
      String(rs.filter((r) => r.verdict === 'fixed').length),
      String(rs.filter((r) => (r.judgement?.added.length ?? 0) > 0).length),
      `${judged.filter((r) => r.compiles === 'yes').length}/${judged.length}`,
      String(rs.filter((r) => r.verdict === 'benign-only').length),
      String(rs.filter((r) => r.verdict === 'not-run').length),
    ];
  };
  const out = alignTable([head, ...categories.map((c) => row(c, results.filter((r) => r.category === c))), row('total', results)]);
  const races = results.reduce((n, r) => n + (r.judgement?.races ?? 0), 0);
  const fixedRaces = results.reduce((n, r) => n + (r.judgement?.fixed ?? 0), 0);
  const found = results.filter((r) => (r.judgement?.races ?? 0) > 0).length;
  const fixed = results.filter((r) => r.verdict === 'fixed').length;
  out.push('', `tests with a race found: ${fixed}/${found} fixed; race findings: ${fixedRaces}/${races} fixed; compiles judged by ${compiler}`);
  const names = (keep: (r: FixResult) => boolean) => results.filter(keep).map((r) => r.name);
  const lists: [string, string[]][] = [
    ['unfixed', results.filter((r) => r.verdict === 'unfixed').map((r) => `${r.name}${r.reason ? ` (${r.reason})` : ''}`)],
    ['fix does not compile', results.filter((r) => r.compiles === 'no').map((r) => `${r.name}${r.compileError ? ` (${r.compileError})` : ''}`)],
    ['original does not compile (compile n/a)', names((r) => r.compiles === 'n/a')],
    ['not run', results.filter((r) => r.verdict === 'not-run').map((r) => `${r.name}${r.reason ? ` (${r.reason})` : ''}`)],
    ['no race found', names((r) => r.verdict === 'no-race')],
  ];
  for (const [what, list] of lists) if (list.length) out.push(`${what}: ${list.join(', ')}`);
  return out;
}

/** One progress line: `[i/n] verdict NAME (categories)` and what went wrong. */
export function progressLine(r: FixResult, i: number, n: number): string {
  const compile = r.compiles === 'yes' ? '; compiles' : r.compiles === 'no' ? '; fix does not compile' : r.compiles === 'n/a' ? '; original does not compile' : '';
  return `[${i}/${n}] ${r.verdict.padEnd(11)} ${r.name}${r.categories.length ? ` (${r.categories.join(', ')})` : ''}${r.reason ? `: ${r.reason}` : ''}${compile}`;
}

/** Written beside the target and renamed over it, so a reader never sees half a report. */
function writeAtomically(file: string, text: string): void {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(temp, text);
  fs.renameSync(temp, file);
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(o.cli)) throw new UsageError(`${o.cli} does not exist: run \`node esbuild.mjs\` first, or give --cli`);
  if (!fs.existsSync(o.dir) || !fs.statSync(o.dir).isDirectory()) throw new UsageError(`${o.dir} is not a folder\n${USAGE}`);
  if (o.json && !fs.existsSync(path.dirname(o.json))) throw new UsageError(`--json: the folder ${path.dirname(o.json)} does not exist`);
  let found: ReturnType<typeof findTests>;
  try {
    found = findTests(o.dir);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { layout, tests } = found;
  const chosen = tests.filter((t) => t.racy && (!o.filter || t.name.includes(o.filter)));
  const compiler = await chooseCompiler(o.compiler, o.checkArgs, o.timeoutMs);
  process.stdout.write(`${layout}: ${chosen.length} race-labelled tests in ${o.dir}${o.checkArgs.length ? `, checked with ${o.checkArgs.join(' ')}` : ''}; compiles judged by ${compiler.name}\n`);
  let done = 0;
  const results = await mapLimited(
    chosen,
    o.jobs,
    (t) => fixOne(t, layout, o, compiler),
    (r) => process.stdout.write(`${progressLine(r, ++done, chosen.length)}\n`),
  );
  process.stdout.write(`\n${fixTable(results, compiler.name).join('\n')}\n`);
  if (o.json) writeAtomically(o.json, JSON.stringify({ layout, dir: o.dir, checkArgs: o.checkArgs, compiler: compiler.name, results }, null, 2) + '\n');
}

if (require.main === module) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      for (const d of scratchDirs) fs.rmSync(d, { recursive: true, force: true });
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  }
  main().catch((e: Error) => {
    process.stderr.write(e instanceof UsageError ? `${e.message}\n` : `${e.stack ?? e.message}\n`);
    process.exit(e instanceof UsageError ? 2 : 1);
  });
}
