// `npm run corpus:races -- DIR [options] [-- CHECK OPTIONS]`: scores `scord check` on a labelled
// race suite nobody here wrote, and prints a confusion table per category.
//
// The layouts it recognises, and the categories, are described in suite.ts.
//
// Each file runs in its own `node dist/cli.js check FILE --format json` process, with a time limit.
// A race finding counts; a benign same-value race (information) is counted apart, on racy and
// clean-labelled tests alike. A GPUVerify test whose header asks for lockstep warps of 32 lanes
// (`--warp-sync` or `--warp-sync=32`), or of N lanes with blocks of at most N threads, is
// checked with `--warp-sync` (narrower warps across a bigger block cannot be: the simulated
// warps have 32 lanes).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { mapLimited, runCli } from '../corpus/runner';
import { alignTable, findTests, notRunReason, parseReport, parseSuiteArgs, reportRan, type Report, type Test } from './suite';

type Verdict = 'found' | 'missed' | 'false-alarm' | 'clean' | 'benign-only' | 'not-run';

interface Result extends Test {
  verdict: Verdict;
  lines: number[];
  reason?: string;
  ms: number;
}

const USAGE = 'usage: npm run corpus:races -- DIR [--cli PATH] [--timeout SECONDS] [--jobs N] [--filter TEXT] [--json OUT] [-- CHECK OPTIONS...]';

/** The verdict on one test from the report `scord check --format json` printed. */
export function verdictOf(t: Test, report: Report | undefined): Verdict {
  if (!report) return 'not-run';
  const races = report.findings.filter((f) => f.kind === 'race');
  const serious = races.filter((f) => f.category !== 'benign-same-value');
  if (!reportRan(report)) return 'not-run';
  if (t.racy) return serious.length ? 'found' : races.length ? 'benign-only' : 'missed';
  if (serious.length) return 'false-alarm';
  return races.length ? 'benign-only' : 'clean';
}

async function main(): Promise<void> {
  const o = parseSuiteArgs(process.argv.slice(2), USAGE);
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
      const report = parseReport(run);
      const verdict = verdictOf(t, report);
      const reason = notRunReason(run, report);
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
  const out = alignTable(rows);
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
