// ScoR, the ScoRD paper's benchmark suite: 32 microbenchmarks (microbenchmarks/src, labelled by
// name: race_* has a race, norace_* has none) and 7 applications (benchmarks/*: main and
// kernels in separate .cu files, built by their Makefiles with -D NBLOCKS/NTHREADS, and with
// -D RACEY for the variant whose `#ifdef RACEY` lines narrow a scope or drop a fence, for the
// architecture they name: -arch=compute_60, before independent thread scheduling, so their
// warp-synchronous code runs as it was written to). The applications read their input from
// standard input; small inputs are generated here.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readMakeBuild } from './buildFiles';
import type { FindingBrief } from './classify';
import { measureProgram, type MeasureContext, type Program, type ProgramResult } from './measure';
import { mapLimited } from './runner';
import { detail, outcomeCounts, outcomeTable, percent, seconds } from './report';
import { SCOR_INPUTS } from './scorInputs';

export function isScor(root: string): boolean {
  return fs.existsSync(path.join(root, 'microbenchmarks', 'src')) && fs.existsSync(path.join(root, 'benchmarks'));
}

/** Lines (1-based) of one `#ifdef RACEY … [#else …] #endif` block. */
export interface RaceyRegion {
  file: string;
  ifdef: number;
  endif: number;
}

/** The `#ifdef RACEY` (or `#if defined(RACEY)`, `#ifndef RACEY`) blocks of a source file. */
export function raceyRegions(text: string, file: string): RaceyRegion[] {
  const regions: RaceyRegion[] = [];
  const open: { line: number; racey: boolean }[] = [];
  text.split(/\r?\n/).forEach((l, i) => {
    const d = /^\s*#\s*(\w+)(.*)$/.exec(l);
    if (!d) return;
    if (d[1] === 'if' || d[1] === 'ifdef' || d[1] === 'ifndef') open.push({ line: i + 1, racey: /\bRACEY\b/.test(d[2]) });
    else if (d[1] === 'endif') {
      const o = open.pop();
      if (o?.racey) regions.push({ file, ifdef: o.line, endif: i + 1 });
    }
  });
  return regions;
}

/** Lines before or after a RACEY block where a race it causes may still be reported (the access next to a dropped fence). */
export const NEAR_LINES = 10;

export interface RegionHit {
  region: RaceyRegion;
  /** A race reported inside the block, or within NEAR_LINES of it, or neither. */
  hit: 'at' | 'near' | 'none';
}

/**
 * Which RACEY blocks the races point at (a race's own line or the line of the access it races
 * with): a point inside a block is at it; a point inside none is near the closest block within
 * NEAR_LINES. Races whose points are near no block are returned as `away`.
 */
export function matchRegions(regions: readonly RaceyRegion[], races: readonly FindingBrief[]): { hits: RegionHit[]; away: FindingBrief[] } {
  const points = (f: FindingBrief): { file: string; line: number }[] => [{ file: f.file, line: f.line }, ...f.related];
  const sameFile = (a: string, b: string): boolean => a === b || path.basename(a) === path.basename(b);
  const distance = (r: RaceyRegion, p: { file: string; line: number }): number => (!sameFile(p.file, r.file) ? Infinity : p.line < r.ifdef ? r.ifdef - p.line : p.line > r.endif ? p.line - r.endif : 0);
  const hit = new Map<RaceyRegion, 'at' | 'near'>();
  const away: FindingBrief[] = [];
  for (const f of races) {
    let matched = false;
    for (const p of points(f)) {
      const inside = regions.filter((r) => distance(r, p) === 0);
      for (const r of inside) hit.set(r, 'at');
      const closest = inside.length ? undefined : regions.filter((r) => distance(r, p) <= NEAR_LINES).sort((a, b) => distance(a, p) - distance(b, p))[0];
      if (closest && hit.get(closest) !== 'at') hit.set(closest, 'near');
      matched ||= inside.length > 0 || closest !== undefined;
    }
    if (!matched) away.push(f);
  }
  return { hits: regions.map((region) => ({ region, hit: hit.get(region) ?? 'none' })), away };
}

interface MicroResult extends ProgramResult {
  racy: boolean;
  verdict: 'found' | 'missed' | 'clean' | 'false-alarm' | 'not-analysable';
}

interface AppResult {
  app: string;
  input: string;
  defines: string[];
  /** clean: it ran and found nothing at all; raceFree: it ran and found no race (ScoR's labels are about races). */
  plain: ProgramResult & { clean: boolean; raceFree: boolean };
  racey: ProgramResult & { hits: RegionHit[]; away: FindingBrief[] };
}

export async function measureScor(root: string, ctx: MeasureContext): Promise<{ text: string[]; json: object }> {
  const micro = await measureMicrobenchmarks(root, ctx);
  const apps = await measureApplications(root, ctx);
  return { text: [...microSummary(micro), ...appSummary(apps)], json: { microbenchmarks: micro, applications: apps, summary: scorJson(micro, apps) } };
}

async function measureMicrobenchmarks(root: string, ctx: MeasureContext): Promise<MicroResult[]> {
  const dir = path.join(root, 'microbenchmarks', 'src');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cu')).sort().filter((f) => !ctx.filter || f.includes(ctx.filter));
  ctx.log(`scor: ${files.length} microbenchmarks`);
  let finished = 0;
  return mapLimited(
    files,
    ctx.jobs,
    async (f): Promise<MicroResult> => {
      const r = await measureProgram({ name: f.replace(/\.cu$/, ''), files: [path.join(dir, f)], includeDirs: [], defines: [], cwd: dir }, ctx, root);
      const racy = f.startsWith('race_');
      const races = r.findings.some((x) => x.kind === 'race');
      const verdict = r.outcome !== 'completed' ? 'not-analysable' : racy ? (races ? 'found' : 'missed') : races ? 'false-alarm' : 'clean';
      return { ...r, racy, verdict };
    },
    (r) => {
      finished++;
      ctx.log(`${`[${finished}/${files.length}]`.padEnd(9)} ${r.verdict.padEnd(15)} ${r.name.padEnd(48)} ${seconds(r.ms).padStart(7)}  ${detail(r)}`);
    },
  );
}

async function measureApplications(root: string, ctx: MeasureContext): Promise<AppResult[]> {
  const dir = path.join(root, 'benchmarks');
  const apps = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(dir, e.name, 'Makefile')))
    .map((e) => e.name)
    .sort()
    .filter((a) => !ctx.filter || a.includes(ctx.filter));
  ctx.log(`scor: ${apps.length} applications (plain and RACEY builds)`);
  const inputs = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-corpus-scor-'));
  try {
    const builds = apps.flatMap((app) => [false, true].map((racey) => ({ app, racey })));
    const results = await mapLimited(builds, ctx.jobs, async ({ app, racey }) => {
      const p = applicationProgram(dir, app, racey, inputs);
      const r = await measureProgram(p, ctx, root);
      ctx.log(`  ${app.padEnd(24)} ${racey ? 'RACEY' : 'plain'}  ${r.outcome.padEnd(14)} ${seconds(r.ms).padStart(7)}  ${detail(r)}${r.limitations.length ? `  {${r.limitations.join(', ')}}` : ''}`);
      return { app, racey, program: p, result: r };
    });
    return apps.map((app) => {
      const plain = results.find((r) => r.app === app && !r.racey)!;
      const racey = results.find((r) => r.app === app && r.racey)!;
      const regions = raceyRegionsOf(dir, app, root);
      const races = racey.result.findings.filter((f) => f.kind === 'race');
      const { hits, away } = matchRegions(regions, races);
      return {
        app,
        input: SCOR_INPUTS[app]?.describe ?? '(no input generator for this application: empty input)',
        defines: plain.program.defines,
        plain: { ...plain.result, clean: plain.result.outcome === 'completed' && plain.result.findings.length === 0, raceFree: plain.result.outcome === 'completed' && !plain.result.findings.some((f) => f.kind === 'race') },
        racey: { ...racey.result, hits, away },
      };
    });
  } finally {
    fs.rmSync(inputs, { recursive: true, force: true });
  }
}

/** One build of an application, as its Makefile compiles it, with its generated input. */
function applicationProgram(dir: string, app: string, racey: boolean, inputs: string): Program {
  const appDir = path.join(dir, app);
  const build = readMakeBuild(fs.readFileSync(path.join(appDir, 'Makefile'), 'utf8'), racey ? { RACEY: '1' } : {});
  const files = (build?.sources ?? fs.readdirSync(appDir).filter((f) => f.endsWith('.cu'))).map((f) => path.resolve(appDir, f));
  const main = files.find((f) => /^[ \t]*int[ \t]+main[ \t]*\(/m.test(fs.readFileSync(f, 'utf8')));
  const ordered = main ? [main, ...files.filter((f) => f !== main)] : files;
  const stdin = path.join(inputs, `${app}.in`);
  if (!fs.existsSync(stdin)) fs.writeFileSync(stdin, SCOR_INPUTS[app]?.make() ?? '');
  return {
    name: `${app}${racey ? ' (RACEY)' : ''}`,
    files: ordered,
    includeDirs: (build?.includeDirs ?? ['.']).map((d) => path.resolve(appDir, d)),
    defines: build?.defines ?? [],
    ...(build?.arch ? { arch: build.arch } : {}),
    stdin,
    cwd: appDir,
  };
}

function raceyRegionsOf(dir: string, app: string, root: string): RaceyRegion[] {
  const appDir = path.join(dir, app);
  return fs
    .readdirSync(appDir)
    .filter((f) => /\.(cu|cuh|h|hpp)$/.test(f))
    .sort()
    .flatMap((f) => raceyRegions(fs.readFileSync(path.join(appDir, f), 'utf8'), path.relative(root, path.join(appDir, f))));
}

function microSummary(results: MicroResult[]): string[] {
  const racy = results.filter((r) => r.racy);
  const clean = results.filter((r) => !r.racy);
  const count = (rs: MicroResult[], v: MicroResult['verdict']): number => rs.filter((r) => r.verdict === v).length;
  const lines = [`scor microbenchmarks: ${results.length}; ${outcomeCounts(results).completed} analysable (${percent(outcomeCounts(results).completed, results.length)})`, ...outcomeTable(results)];
  lines.push(`  racy (race_*): ${racy.length}; found ${count(racy, 'found')}, missed ${count(racy, 'missed')}, not analysable ${count(racy, 'not-analysable')}`);
  lines.push(`  race-free (norace_*): ${clean.length}; clean ${count(clean, 'clean')}, false alarms ${count(clean, 'false-alarm')}, not analysable ${count(clean, 'not-analysable')}`);
  for (const r of results.filter((x) => x.verdict === 'missed' || x.verdict === 'false-alarm' || x.verdict === 'not-analysable')) lines.push(`    ${r.verdict.padEnd(15)} ${r.name}: ${detail(r)}`);
  return lines;
}

function appSummary(apps: AppResult[]): string[] {
  const lines = [`scor applications: ${apps.length}; plain builds clean ${apps.filter((a) => a.plain.clean).length}, race-free ${apps.filter((a) => a.plain.raceFree).length}, plain builds that ran ${apps.filter((a) => a.plain.outcome === 'completed').length}, RACEY builds that ran ${apps.filter((a) => a.racey.outcome === 'completed').length}`];
  for (const a of apps) {
    lines.push(`  ${a.app} (${a.defines.map((d) => `-D ${d}`).join(' ')}; input: ${a.input})`);
    lines.push(`    plain: ${a.plain.outcome}${a.plain.outcome === 'completed' ? (a.plain.clean ? ', clean' : `, NOT clean${a.plain.raceFree ? ' (no race)' : ''}: ${a.plain.findings.length} finding(s), first at ${a.plain.findings[0].at} (${a.plain.findings[0].category})`) : `: ${detail(a.plain)}`}${a.plain.limitations.length ? `  {${a.plain.limitations.join(', ')}}` : ''}`);
    const races = a.racey.findings.filter((f) => f.kind === 'race');
    const at = a.racey.hits.filter((h) => h.hit === 'at').length;
    const near = a.racey.hits.filter((h) => h.hit === 'near').length;
    lines.push(`    RACEY: ${a.racey.outcome}${a.racey.outcome === 'completed' ? `, ${races.length} race(s); #ifdef RACEY blocks with a race at them ${at}, within ${NEAR_LINES} lines ${near}, none ${a.racey.hits.length - at - near} (of ${a.racey.hits.length}); races elsewhere ${a.racey.away.length}` : `: ${detail(a.racey)}`}${a.racey.limitations.length ? `  {${a.racey.limitations.join(', ')}}` : ''}`);
    if (a.racey.outcome !== 'completed') lines.push(`      #ifdef RACEY blocks: ${a.racey.hits.map((h) => `${h.region.file}:${h.region.ifdef}`).join(', ')}`);
    else for (const h of a.racey.hits) lines.push(`      ${h.region.file}:${h.region.ifdef}-${h.region.endif}  ${h.hit}`);
    for (const f of a.racey.away.slice(0, 5)) lines.push(`      elsewhere: ${f.at} (${f.category})`);
  }
  return lines;
}

function scorJson(micro: MicroResult[], apps: AppResult[]): object {
  const count = (v: MicroResult['verdict']): number => micro.filter((r) => r.verdict === v).length;
  return {
    microbenchmarks: { total: micro.length, outcomes: outcomeCounts(micro), racy: micro.filter((r) => r.racy).length, found: count('found'), missed: count('missed'), clean: count('clean'), falseAlarms: count('false-alarm'), notAnalysable: count('not-analysable') },
    applications: apps.map((a) => ({
      app: a.app,
      plain: { outcome: a.plain.outcome, clean: a.plain.clean, raceFree: a.plain.raceFree, findings: a.plain.findings.length },
      racey: { outcome: a.racey.outcome, races: a.racey.findings.filter((f) => f.kind === 'race').length, regions: a.racey.hits.length, at: a.racey.hits.filter((h) => h.hit === 'at').length, near: a.racey.hits.filter((h) => h.hit === 'near').length, away: a.racey.away.length },
    })),
  };
}
