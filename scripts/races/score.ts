// `npm run corpus:races -- DIR [options] [-- CHECK OPTIONS]`: scores `scord check` on a labelled
// race suite nobody here wrote, and prints a confusion table per category.
//
// Two layouts are recognised:
// - ScoR-style: `.cu` files named `race_*` (must report a race) and `norace_*` (must not);
//   the category is the name's scope (interblock, interwarp, intrawarp) and what it synchronises
//   with (atomics, fences, locks, or nothing);
// - GPUVerify-style: `kernel.cu` files whose first line is `//pass` or `//xfail:CODE`; the tests
//   whose patterns and comments name a race must report one, `//pass` tests must not, others are
//   left out; the category is the test's first folder.
//
// Each file runs in its own `node dist/cli.js check FILE --format json` process, with a time limit.
// A race finding counts; a benign same-value race (information) is counted apart, on racy and
// clean-labelled tests alike. A GPUVerify test whose header asks for lockstep warps of 32 lanes
// (`--warp-sync` or `--warp-sync=32`), or of N lanes with blocks of at most N threads, is
// checked with `--warp-sync` (narrower warps across a bigger block cannot be: the simulated
// warps have 32 lanes).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gpuverifyTestDir, readGpuVerifyLabel } from '../corpus/gpuverify';
import { mapLimited, runCli } from '../corpus/runner';

interface Test {
  file: string;
  name: string;
  category: string;
  racy: boolean;
  /** The GPUVerify header asks for lockstep warps of 32 lanes: checked with --warp-sync. */
  warpSync: boolean;
}

interface Finding {
  kind: string;
  category: string;
  severity: string;
  message?: string;
  location: { line: number };
}

type Verdict = 'found' | 'missed' | 'false-alarm' | 'clean' | 'benign-only' | 'not-run';

interface Result extends Test {
  verdict: Verdict;
  lines: number[];
  reason?: string;
  ms: number;
}

interface Options {
  dir: string;
  cli: string;
  timeoutMs: number;
  jobs: number;
  filter?: string;
  json?: string;
  checkArgs: string[];
}

const USAGE = 'usage: npm run corpus:races -- DIR [--cli PATH] [--timeout SECONDS] [--jobs N] [--filter TEXT] [--json OUT] [-- CHECK OPTIONS...]';

function parseArgs(argv: string[]): Options {
  const dash = argv.indexOf('--');
  const own = dash < 0 ? argv : argv.slice(0, dash);
  const checkArgs = dash < 0 ? [] : argv.slice(dash + 1);
  const o: Options = { dir: '', cli: path.resolve(__dirname, '..', '..', 'dist', 'cli.js'), timeoutMs: 120_000, jobs: Math.max(1, Math.floor(os.cpus().length / 2)), checkArgs };
  for (let i = 0; i < own.length; i++) {
    const a = own[i];
    const value = () => {
      const v = own[++i];
      if (v === undefined) throw new Error(`${a} needs a value\n${USAGE}`);
      return v;
    };
    if (a === '--cli') o.cli = path.resolve(value());
    else if (a === '--timeout') o.timeoutMs = Number(value()) * 1000;
    else if (a === '--jobs') o.jobs = Math.max(1, Number(value()));
    else if (a === '--filter') o.filter = value();
    else if (a === '--json') o.json = value();
    else if (!a.startsWith('-') && !o.dir) o.dir = path.resolve(a);
    else throw new Error(`unknown argument '${a}'\n${USAGE}`);
  }
  if (!o.dir) throw new Error(USAGE);
  return o;
}

function walk(dir: string, keep: (name: string) => boolean, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, keep, out);
    else if (e.isFile() && keep(e.name)) out.push(p);
  }
  return out;
}

/** `race_interblock_lock-no-tf_waw.cu` → `interblock/lock`. */
export function scorCategory(name: string): string {
  const parts = name.replace(/\.cu$/, '').split('_');
  const scope = (parts[1] ?? '').replace(/-.*$/, '');
  const sync = parts.slice(2).join('_');
  const what = /lock/.test(sync) ? 'lock' : /atom/.test(sync) ? 'atomic' : /fence/.test(sync) ? 'fence' : 'none';
  return `${scope}/${what}`;
}

/** The labelled tests under `dir`, in whichever layout it has. */
export function findTests(dir: string): { layout: 'scor' | 'gpuverify'; tests: Test[]; skipped: number } {
  const scor = walk(dir, (n) => /^(no)?race_.*\.cu$/.test(n));
  if (scor.length) {
    return { layout: 'scor', skipped: 0, tests: scor.map((file) => ({ file, name: path.basename(file), category: scorCategory(path.basename(file)), racy: path.basename(file).startsWith('race_'), warpSync: false })) };
  }
  const root = gpuverifyTestDir(dir) ?? dir;
  const tests: Test[] = [];
  let skipped = 0;
  for (const file of walk(root, (n) => n === 'kernel.cu')) {
    const text = fs.readFileSync(file, 'utf8');
    const name = path.relative(root, path.dirname(file));
    const label = readGpuVerifyLabel(text, name);
    if (!label || (label.expectation !== 'pass' && label.expectation !== 'race')) {
      skipped++;
      continue;
    }
    tests.push({ file, name, category: name.split(path.sep)[0] || '.', racy: label.expectation === 'race', warpSync: lockstepWarps(label.options) });
  }
  if (!tests.length && !skipped) throw new Error(`${dir} has neither race_*/norace_*.cu files nor kernel.cu files with //pass or //xfail labels`);
  return { layout: 'gpuverify', tests, skipped };
}

/** Findings that say the launch itself was refused (beyond the device's limits): nothing ran. */
const REFUSED = new Set(['launch', 'launch-configuration']);

/**
 * Whether a GPUVerify header's `--warp-sync[=N]` can be honoured with the simulator's 32-lane
 * warps: N is 32 (the default), or the whole block fits in one warp of N lanes.
 */
export function lockstepWarps(options: string[]): boolean {
  const sync = options.find((o) => o === '--warp-sync' || o.startsWith('--warp-sync='));
  if (!sync) return false;
  const lanes = sync === '--warp-sync' ? 32 : Number(sync.slice('--warp-sync='.length));
  const dims = /^--blockDim=\[?([\d,]+)\]?$/.exec(options.find((o) => o.startsWith('--blockDim=')) ?? '');
  const threads = dims ? dims[1].split(',').reduce((n, d) => n * Number(d), 1) : Infinity;
  return lanes === 32 || (threads <= lanes && threads <= 32);
}

/** The verdict on one test from the report `scord check --format json` printed. */
export function verdictOf(t: Test, report: { findings: Finding[]; diagnostics: { severity: string }[] } | undefined): Verdict {
  if (!report) return 'not-run';
  const races = report.findings.filter((f) => f.kind === 'race');
  const serious = races.filter((f) => f.category !== 'benign-same-value');
  const ran = (report.diagnostics.every((d) => d.severity !== 'error') || report.findings.length > 0) && !report.findings.some((f) => REFUSED.has(f.kind));
  if (!ran) return 'not-run';
  if (t.racy) return serious.length ? 'found' : races.length ? 'benign-only' : 'missed';
  if (serious.length) return 'false-alarm';
  return races.length ? 'benign-only' : 'clean';
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(o.cli)) throw new Error(`${o.cli} does not exist: run \`node esbuild.mjs\` first, or give --cli`);
  const { layout, tests, skipped } = findTests(o.dir);
  const chosen = o.filter ? tests.filter((t) => t.name.includes(o.filter!)) : tests;
  process.stdout.write(`${layout}: ${chosen.length} labelled tests in ${o.dir}${skipped ? ` (${skipped} with other labels left out)` : ''}${o.checkArgs.length ? `, checked with ${o.checkArgs.join(' ')}` : ''}\n`);
  let done = 0;
  const results = await mapLimited(
    chosen,
    o.jobs,
    async (t): Promise<Result> => {
      const run = await runCli(o.cli, ['check', t.file, '--format', 'json', ...(t.warpSync ? ['--warp-sync'] : []), ...o.checkArgs], path.dirname(t.file), { timeoutMs: o.timeoutMs, memoryMb: 4096 });
      let report: { findings: Finding[]; diagnostics: { severity: string; message: string }[] } | undefined;
      try {
        report = run.timedOut ? undefined : JSON.parse(run.stdout);
      } catch {
        report = undefined;
      }
      const verdict = verdictOf(t, report);
      const refused = report?.findings.find((f) => REFUSED.has(f.kind));
      const reason = run.timedOut ? 'timed out' : !report ? (run.stderr.trim().split('\n')[0] ?? 'no report') : verdict === 'not-run' ? (refused?.message ?? report.diagnostics.find((d) => d.severity === 'error')?.message) : undefined;
      const lines = (report?.findings ?? []).filter((f) => f.kind === 'race').map((f) => f.location.line);
      return { ...t, verdict, lines: [...new Set(lines)], ...(reason ? { reason: reason.slice(0, 160) } : {}), ms: run.ms };
    },
    (r) => {
      done++;
      process.stdout.write(`[${done}/${chosen.length}] ${r.verdict.padEnd(14)} ${r.name}${r.lines.length ? ` (line ${r.lines.join(', ')})` : ''}${r.reason ? `: ${r.reason}` : ''}\n`);
    },
  );
  process.stdout.write(`\n${confusionTable(results).join('\n')}\n`);
  if (o.json) fs.writeFileSync(o.json, JSON.stringify({ layout, dir: o.dir, checkArgs: o.checkArgs, results }, null, 2));
}

/** One row per category and a total: racy found/missed, clean flagged/clean, and what could not run. */
export function confusionTable(results: Result[]): string[] {
  const categories = [...new Set(results.map((r) => r.category))].sort();
  const head = ['category', 'found', 'missed', 'false-alarm', 'clean', 'benign-only', 'not-run'];
  const row = (name: string, rs: Result[]) => [name, ...head.slice(1).map((v) => String(rs.filter((r) => r.verdict === v).length))];
  const rows = [head, ...categories.map((c) => row(c, results.filter((r) => r.category === c))), row('total', results)];
  const widths = head.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const out = rows.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
  out.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  const racy = results.filter((r) => r.racy && r.verdict !== 'not-run');
  const clean = results.filter((r) => !r.racy && r.verdict !== 'not-run');
  const found = racy.filter((r) => r.verdict === 'found').length;
  const benign = racy.filter((r) => r.verdict === 'benign-only').length;
  const alarms = clean.filter((r) => r.verdict === 'false-alarm').length;
  const share = (n: number) => (racy.length ? ` (${((100 * n) / racy.length).toFixed(0)}%)` : '');
  out.push(
    '',
    `racy tests that ran: ${found}/${racy.length} found${share(found)}${benign ? `, ${found + benign}/${racy.length}${share(found + benign)} counting ${benign} where only a benign same-value race was reported` : ''}; clean tests that ran: ${alarms}/${clean.length} false alarms`,
  );
  const list = (v: Verdict) => results.filter((r) => r.verdict === v).map((r) => r.name);
  if (list('missed').length) out.push(`missed: ${list('missed').join(', ')}`);
  if (list('false-alarm').length) out.push(`false alarms: ${list('false-alarm').join(', ')}`);
  if (list('benign-only').length) out.push(`benign same-value races only (racy and clean labels): ${list('benign-only').join(', ')}`);
  return out;
}

if (require.main === module) {
  main().catch((e: Error) => {
    process.stderr.write(`${e.message}\n`);
    process.exit(2);
  });
}
