// The compiled blocks against the reference interpreter: one program checked both ways (the
// report: findings, diagnostics, output, stats) and run both ways with every simulator event
// recorded. Any difference is a compiler bug.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { checkSource, publicReport, type CheckOptions } from '../../sims/check';
import { parse } from '../../sims/frontend/index';
import { runProgram, type RunOptions, type RunResult } from '../../sims/host/run';
import type { BlockExecution } from '../../sims/machine/executor';
import type { SimEvent } from '../../sims/ir/ir';
import { compileProgram } from '../../sims/clang/check';
import { runClangProgram } from '../../sims/clang/host/runProgram';
import { SourceRanges } from '../../sims/clang/ranges';
import { readOrUndefined } from './parseFile';

/** The settings each program is compared under: scheduling and memory models that take other paths. */
export const DIFFERENTIAL_SETTINGS: { name: string; check: Partial<CheckOptions> }[] = [
  { name: 'default', check: {} },
  { name: 'random', check: { scheduler: 'random', seed: 7 } },
  { name: 'lockstep', check: { model: 'lockstep' } },
  { name: 'gpu-weak', check: { memoryModel: 'gpu-weak', seed: 3 } },
];

/** A setting's run options (the scheduling and memory model of its check options). */
function runSettings(settings: Partial<CheckOptions>): RunOptions {
  return {
    ...(settings.scheduler ? { scheduler: settings.scheduler } : {}),
    ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
    ...(settings.model ? { model: settings.model } : {}),
    ...(settings.memoryModel ? { memoryModel: settings.memoryModel } : {}),
  };
}

/** Every .cu file under `dir`, recursively, sorted. */
export function cudaFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...cudaFiles(p));
    else if (e.name.endsWith('.cu')) out.push(p);
  }
  return out.sort();
}

/**
 * The memory limit of the compared runs: high enough that the heap's growth (which depends on
 * when the collector last ran, not on the program) never stops one run and not the other.
 */
const MEMORY_LIMIT = 2 ** 40;

function checked(file: string, text: string, settings: Partial<CheckOptions>, execution: BlockExecution): string {
  const report = checkSource({ fileName: file, text, readFile: readOrUndefined, maxSteps: 2_000_000, deviceMemoryLimit: MEMORY_LIMIT, ...settings, execution });
  return JSON.stringify(publicReport(report));
}

/** A run's events and result as one digest (events are refilled objects: serialised as they arrive). */
function eventDigest(run: (options: RunOptions) => RunResult, options: RunOptions): { digest: string; count: number } {
  const hash = createHash('sha256');
  let count = 0;
  const events = (e: SimEvent): void => {
    count++;
    hash.update(JSON.stringify(e));
  };
  const r = run({ ...options, events, stepBudget: 2_000_000, deviceMemoryLimit: MEMORY_LIMIT });
  hash.update(JSON.stringify({ stdout: r.stdout, exitCode: r.exitCode, findings: r.findings, steps: r.steps }));
  return { digest: hash.digest('hex'), count };
}

/** Compiled as the simulator does (hot blocks), and every block compiled at once. */
const COMPILED: BlockExecution[] = ['compiled', 'eager'];

function compareRuns(run: (options: RunOptions) => RunResult, options: RunOptions): string[] {
  const reference = eventDigest(run, { ...options, execution: 'interpreted' });
  return COMPILED.flatMap((execution) => {
    const d = eventDigest(run, { ...options, execution });
    return d.digest === reference.digest ? [] : [`run differs (${execution}): events or result (${d.count} events, ${reference.count} interpreted)`];
  });
}

/**
 * The same comparison on the clang path, under every setting (a program with main, compiled
 * once): its device code is lowered from LLVM IR, not from the built-in front end's tree.
 * Undefined when clang cannot compile the file or it has no main.
 */
export async function clangDifferences(file: string): Promise<string[] | undefined> {
  const text = fs.readFileSync(file, 'utf8');
  const compiled = await compileProgram([{ file, defines: [], includeDirs: [] }]);
  if ('failed' in compiled || !compiled.wasm) return undefined;
  const ranges = new SourceRanges((p) => (p === file ? text : readOrUndefined(p)));
  const program = { wasm: compiled.wasm, device: compiled.device };
  const run = (options: RunOptions): RunResult =>
    runClangProgram(program, { ...options, rangeOf: (loc) => (loc ? ranges.rangeAt(loc.file, loc.line, loc.column) : ranges.rangeAt(file, 1, 1)), sourceText: (p) => (p === file ? text : undefined) });
  return DIFFERENTIAL_SETTINGS.flatMap((s) => compareRuns(run, runSettings(s.check)).map((d) => `${s.name}: ${d}`));
}

/** What differs between the two executions of `file` under `settings` on the built-in path (empty when nothing does). */
export function differences(file: string, settings: Partial<CheckOptions>): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const out: string[] = [];
  const interpreted = checked(file, text, settings, 'interpreted');
  for (const execution of COMPILED) {
    const compiled = checked(file, text, settings, execution);
    if (compiled !== interpreted) out.push(`check report differs (${execution}):\n  compiled:    ${compiled.slice(0, 600)}\n  interpreted: ${interpreted.slice(0, 600)}`);
  }
  const parsed = parse(text, { fileName: file, readFile: readOrUndefined });
  out.push(...compareRuns((options) => runProgram(parsed, options), runSettings(settings)));
  return out;
}
