// NVIDIA's CUDA samples: every program whose `main` is in a `.cu` file, in the folders
// 0_Introduction, 2_Concepts_and_Techniques, 3_CUDA_Features and 6_Performance, checked as its
// CMakeLists.txt builds it (all its sources, its include folders) with `Common/` as -I.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readCmake } from './buildFiles';
import { measureProgram, type MeasureContext, type Program, type ProgramResult } from './measure';
import { mapLimited } from './runner';
import { detail, outcomeCounts, outcomeTable, percent, refusedAnywhere, seconds, tally, tallyLines } from './report';

export const SAMPLE_FOLDERS = ['0_Introduction', '2_Concepts_and_Techniques', '3_CUDA_Features', '6_Performance'];

export function isCudaSamples(root: string): boolean {
  return fs.existsSync(path.join(root, 'Samples')) && fs.existsSync(path.join(root, 'Common', 'helper_cuda.h'));
}

const MAIN = /^[ \t]*(?:int|void)[ \t]+main[ \t]*\(/m;
const SOURCE = /\.(cu|cpp|cc|cxx|c)$/;

function walk(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** The programs of the corpus, in folder order. */
export function findSamplePrograms(root: string): Program[] {
  const common = path.join(root, 'Common');
  const programs: Program[] = [];
  for (const folder of SAMPLE_FOLDERS) {
    const top = path.join(root, 'Samples', folder);
    if (!fs.existsSync(top)) continue;
    for (const file of walk(top)) {
      if (!file.endsWith('.cu') || !MAIN.test(fs.readFileSync(file, 'utf8'))) continue;
      programs.push(sampleProgram(root, top, file, common));
    }
  }
  return programs;
}

/**
 * The program of one `main`: the sources of the CMake target that lists it (the nearest
 * CMakeLists.txt up to the sample's category folder), or else every source in its folder.
 */
function sampleProgram(root: string, top: string, mainFile: string, common: string): Program {
  let dir = path.dirname(mainFile);
  let files: string[] | undefined;
  const includeDirs = [common];
  let sampleDir = path.dirname(mainFile);
  while (dir.startsWith(top) && dir !== top) {
    const cmake = path.join(dir, 'CMakeLists.txt');
    if (fs.existsSync(cmake)) {
      sampleDir = dir;
      const info = readCmake(fs.readFileSync(cmake, 'utf8'));
      const target = info.targets.find((t) => t.sources.some((s) => path.resolve(dir, s) === mainFile));
      if (target) {
        files = target.sources.map((s) => path.resolve(dir, s)).filter((s) => SOURCE.test(s) && fs.existsSync(s));
        for (const inc of info.includeDirs) {
          const abs = path.resolve(dir, inc);
          if (fs.existsSync(abs) && !includeDirs.includes(abs)) includeDirs.push(abs);
        }
      }
      break;
    }
    dir = path.dirname(dir);
  }
  if (!files) files = fs.readdirSync(path.dirname(mainFile)).filter((f) => SOURCE.test(f)).map((f) => path.join(path.dirname(mainFile), f));
  // The file with main first: it is the one a CLI that takes one file gets.
  files = [mainFile, ...files.filter((f) => f !== mainFile)];
  const name = path.relative(path.join(root, 'Samples'), sampleDir);
  // Samples load their inputs and reference results from their own folder (`data/`), as when run there.
  return { name, files, includeDirs, defines: [], cwd: path.dirname(mainFile), readsOwnFolder: true };
}

export async function measureCudaSamples(root: string, ctx: MeasureContext): Promise<{ text: string[]; json: object }> {
  const programs = findSamplePrograms(root).filter((p) => !ctx.filter || p.name.includes(ctx.filter));
  ctx.log(`cuda-samples: ${programs.length} programs with main in a .cu file (${SAMPLE_FOLDERS.join(', ')})`);
  let finished = 0;
  const results = await mapLimited(programs, ctx.jobs, (p) => measureProgram(p, ctx, root), (r) => {
    finished++;
    ctx.log(`${`[${finished}/${programs.length}]`.padEnd(9)} ${r.outcome.padEnd(14)} ${r.name.padEnd(52)} ${seconds(r.ms).padStart(7)}  ${detail(r)}${r.limitations.length ? `  {${r.limitations.join(', ')}}` : ''}`);
  });
  return { text: samplesSummary(results, ctx.top), json: { programs: results, summary: samplesJsonSummary(results, ctx.top) } };
}

function samplesJsonSummary(results: ProgramResult[], top: number): object {
  const counts = outcomeCounts(results);
  return {
    programs: results.length,
    outcomes: counts,
    completedPercent: results.length ? (100 * counts.completed) / results.length : 0,
    multiFilePrograms: results.filter((r) => r.files.length > 1 || r.limitations.includes('main file only')).length,
    mainFileOnly: results.filter((r) => r.limitations.includes('main file only')).length,
    topNotSupported: tally(results.filter((r) => r.outcome === 'not-supported').map((r) => ({ reason: r.reason ?? '', name: r.name })), top),
    refusedAnywhere: refusedAnywhere(results, top),
    topErrors: tally(results.filter((r) => r.outcome === 'compile-error' || r.outcome === 'not-analysed').map((r) => ({ reason: r.reason ?? '', name: r.name })), top),
    crashes: results.filter((r) => r.outcome === 'crash').map((r) => ({ name: r.name, reason: r.reason })),
    timeouts: results.filter((r) => r.outcome === 'timeout').map((r) => r.name),
    limits: results.filter((r) => r.outcome === 'limit').map((r) => ({ name: r.name, reason: r.reason })),
    racesReported: results.filter((r) => r.outcome === 'completed' && r.findings.some((f) => f.kind === 'race')).map((r) => r.name),
    totalMs: results.reduce((s, r) => s + r.ms, 0),
  };
}

function samplesSummary(results: ProgramResult[], top: number): string[] {
  const counts = outcomeCounts(results);
  const lines = [`cuda-samples summary: ${counts.completed} / ${results.length} ran to completion (${percent(counts.completed, results.length)})`, ...outcomeTable(results)];
  const mainOnly = results.filter((r) => r.limitations.includes('main file only')).length;
  if (mainOnly) lines.push(`  (${mainOnly} multi-file program${mainOnly === 1 ? ' was' : 's were'} checked by the file with main alone: the CLI takes one file per run)`);
  lines.push(...tallyLines('top features refused (not supported):', tally(results.filter((r) => r.outcome === 'not-supported').map((r) => ({ reason: r.reason ?? '', name: r.name })), top)));
  // Where reports refuse several features, the first one hides the rest: count them all too.
  if (results.some((r) => (r.refused?.length ?? 0) > 1)) lines.push(...tallyLines('features refused anywhere in a program (each counted once per program):', refusedAnywhere(results, top)));
  lines.push(...tallyLines('top errors (compile errors, not analysed):', tally(results.filter((r) => r.outcome === 'compile-error' || r.outcome === 'not-analysed').map((r) => ({ reason: r.reason ?? '', name: r.name })), top)));
  const crashes = results.filter((r) => r.outcome === 'crash' || r.outcome === 'timeout' || r.outcome === 'usage');
  if (crashes.length) lines.push('crashes, timeouts and refused command lines:', ...crashes.map((r) => `  ${r.outcome.padEnd(8)} ${r.name}: ${detail(r)}`));
  const limited = results.filter((r) => r.outcome === 'limit');
  if (limited.length) lines.push('stopped at a simulator limit (the program was still running):', ...limited.map((r) => `  ${r.name}: ${r.reason}${r.where ? ` (${r.where})` : ''}`));
  const waived = results.filter((r) => r.outcome === 'completed' && r.programExit !== undefined && r.programExit !== 0);
  if (waived.length) lines.push(`ran to completion with a non-zero exit status (2 is the samples' EXIT_WAIVED): ${waived.map((r) => `${r.name} (${r.programExit})`).join(', ')}`);
  const racy = results.filter((r) => r.outcome === 'completed' && r.findings.length);
  if (racy.length) lines.push('programs that ran with findings:', ...racy.map((r) => `  ${r.name}: ${detail(r)}; first at ${r.findings[0].at} (${r.findings[0].category})`));
  return lines;
}
