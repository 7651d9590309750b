// A labelled race suite nobody here wrote, as `corpus:races` (score.ts) and `corpus:fixes`
// (fixScore.ts) read it: which files are tests, which must report a race, their categories, and
// whether a `scord check --format json` report says the program ran at all.
//
// Two layouts are recognised:
// - ScoR-style: `.cu` files named `race_*` (must report a race) and `norace_*` (must not);
//   the category is the name's scope (interblock, interwarp, intrawarp) and what it synchronises
//   with (atomics, fences, locks, or nothing);
// - GPUVerify-style: `kernel.cu` files whose first line is `//pass` or `//xfail:CODE`; the tests
//   whose patterns and comments name a race must report one, `//pass` tests must not, others are
//   left out; the category is the test's first folder.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gpuverifyTestDir, readGpuVerifyLabel } from '../corpus/gpuverify';
import type { CliRun } from '../corpus/runner';

export type Layout = 'scor' | 'gpuverify';

export interface Test {
  file: string;
  name: string;
  category: string;
  racy: boolean;
  /** The GPUVerify header asks for lockstep warps of 32 lanes: checked with --warp-sync. */
  warpSync: boolean;
}

/** A finding of `scord check --format json`, as far as the scripts read it. */
export interface Finding {
  kind: string;
  category: string;
  severity: string;
  message?: string;
  location: { line: number };
  related?: { location: { line: number } }[];
  fixes?: { title: string; preferred?: boolean }[];
}

export interface Report {
  findings: Finding[];
  diagnostics: { severity: string; message?: string }[];
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
export function findTests(dir: string): { layout: Layout; tests: Test[]; skipped: number } {
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

/** Findings that say the launch itself was refused (beyond the device's limits): nothing ran. */
const REFUSED = new Set(['launch', 'launch-configuration']);

/** The report a check printed; undefined when it timed out or printed no JSON. */
export function parseReport(run: CliRun): Report | undefined {
  if (run.timedOut) return undefined;
  try {
    const r = JSON.parse(run.stdout) as Report;
    return Array.isArray(r?.findings) && Array.isArray(r?.diagnostics) ? r : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the program ran: an error diagnostic without findings, or a refused launch, says it did not. */
export function reportRan(report: Report): boolean {
  return (report.diagnostics.every((d) => d.severity !== 'error') || report.findings.length > 0) && !report.findings.some((f) => REFUSED.has(f.kind));
}

/** Why a check has no usable report, or did not run the program; undefined when it did. */
export function notRunReason(run: CliRun, report: Report | undefined): string | undefined {
  if (run.timedOut) return 'timed out';
  if (!report) return run.stderr.trim().split('\n')[0] || 'no report';
  if (reportRan(report)) return undefined;
  return report.findings.find((f) => REFUSED.has(f.kind))?.message ?? report.diagnostics.find((d) => d.severity === 'error')?.message;
}

/** Rows of cells as aligned lines: the first column left-aligned, the others right, a rule under the head. */
export function alignTable(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const out = rows.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
  out.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  return out;
}

/** A wrong command line: the scripts print its message alone and exit 2. */
export class UsageError extends Error {}

/** The options both scoring scripts take. */
export interface SuiteOptions {
  dir: string;
  cli: string;
  timeoutMs: number;
  jobs: number;
  filter?: string;
  json?: string;
  /** After `--`: passed to every `scord check`. */
  checkArgs: string[];
}

/**
 * `DIR [--cli PATH] [--timeout SECONDS] [--jobs N] [--filter TEXT] [--json OUT] [-- CHECK OPTIONS]`;
 * `own` takes a script's own option (`value` reads its argument) and says whether it knew it.
 */
export function parseSuiteArgs(argv: string[], usage: string, own: (flag: string, value: () => string) => boolean = () => false): SuiteOptions {
  const dash = argv.indexOf('--');
  const args = dash < 0 ? argv : argv.slice(0, dash);
  const o: SuiteOptions = { dir: '', cli: path.resolve(__dirname, '..', '..', 'dist', 'cli.js'), timeoutMs: 120_000, jobs: Math.max(1, Math.floor(os.cpus().length / 2)), checkArgs: dash < 0 ? [] : argv.slice(dash + 1) };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = () => {
      const v = args[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value\n${usage}`);
      return v;
    };
    const positive = (what: string) => {
      const v = value();
      const n = Number(v);
      if (!(n > 0) || !Number.isFinite(n)) throw new UsageError(`${a} needs a positive ${what} (got '${v}')`);
      return n;
    };
    if (a === '--cli') o.cli = path.resolve(value());
    else if (a === '--timeout') o.timeoutMs = positive('number of seconds') * 1000;
    else if (a === '--jobs') o.jobs = Math.max(1, Math.floor(positive('number')));
    else if (a === '--filter') o.filter = value();
    else if (a === '--json') o.json = path.resolve(value());
    else if (own(a, value)) continue;
    else if (!a.startsWith('-') && !o.dir) o.dir = path.resolve(a);
    else throw new UsageError(`unknown argument '${a}'\n${usage}`);
  }
  if (!o.dir) throw new UsageError(usage);
  return o;
}
