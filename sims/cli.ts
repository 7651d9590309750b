// `scord` — the engine on the command line. Only this file prints.
//
//   scord parse FILE [-D NAME[=VALUE]] [-U NAME] [-I DIR] [--json]
//       Reads a CUDA file the way nvcc would (host and device passes), reports problems with
//       file:line:column, and lists the kernels, device and host functions and launches found.
//   scord preprocess FILE [-D …] [-U …] [-I …] [--device]
//       Prints the preprocessed token stream (like `nvcc -E`, without line markers).
//   scord run FILE [-D …] [-U …] [-I …] [--device-preset NAME]
//       Runs the program on the simulated GPU: its output, then what went wrong (faults with
//       the allocation and thread, deadlocks, runaway loops). Exit 1 if any error was found;
//       warnings (undefined operations the run survived) alone exit 0.
//
// Exit status: 0 no errors, 1 the program has errors, 2 bad usage or unreadable input.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatDiagnostic } from './frontend/diagnostics';
import { parse, type ParseResult } from './frontend/index';
import { formatLocation } from './frontend/source';
import { DEFAULT_DEVICE, DEVICE_PRESETS, devicePreset } from './gpu/devices';
import { ScordDetector } from './detect/scord';
import type { SchedulerKind } from './gpu/executor';
import { runProgram, runSchedules, type RunFinding } from './host/run';
import { preprocess, tokensToText } from './frontend/preprocessor';
import { summarize } from './frontend/summary';

const USAGE = `usage: scord check FILE [-D NAME[=VALUE]] [-I DIR] [--format text|json] [--no-detect] [run options]
       scord parse FILE [-D NAME[=VALUE]] [-U NAME] [-I DIR] [--json]
       scord preprocess FILE [-D NAME[=VALUE]] [-U NAME] [-I DIR] [--device]
       scord run FILE [-D NAME[=VALUE]] [-U NAME] [-I DIR] [--device-preset ${Object.keys(DEVICE_PRESETS).join('|')}]
                 [--scheduler round-robin|greedy-then-oldest|random] [--seed N] [--schedules N]
                 [--model independent|lockstep]`;

class UsageError extends Error {}

interface Args {
  command: string;
  file: string;
  defines: string[];
  undefines: string[];
  includePaths: string[];
  json: boolean;
  device: boolean;
  preset: string;
  format: 'text' | 'json';
  detect: boolean;
  maxSteps?: number;
  scheduler?: SchedulerKind;
  model?: 'independent' | 'lockstep';
  seed?: number;
  schedules?: number;
}

function parseArgs(argv: string[]): Args {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h') throw new UsageError(USAGE);
  if (command !== 'parse' && command !== 'preprocess' && command !== 'run' && command !== 'check') throw new UsageError(`unknown command '${command}'\n${USAGE}`);
  const args: Args = { command, file: '', defines: [], undefines: [], includePaths: [], json: false, device: false, preset: DEFAULT_DEVICE, format: 'text', detect: true };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const value = (flag: string): string => {
      const inline = a.slice(flag.length);
      if (inline) return inline;
      const v = rest[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    if (a.startsWith('-D')) args.defines.push(value('-D'));
    else if (a.startsWith('-U')) args.undefines.push(value('-U'));
    else if (a.startsWith('-I')) args.includePaths.push(value('-I'));
    else if (a === '--json') args.json = true;
    else if (a === '--device') args.device = true;
    else if (a === '--scheduler') {
      const v = rest[++i];
      if (v !== 'round-robin' && v !== 'greedy-then-oldest' && v !== 'random') throw new UsageError(`unknown scheduler '${v ?? ''}'; choose round-robin, greedy-then-oldest or random`);
      args.scheduler = v;
    } else if (a === '--format') {
      const v = rest[++i];
      if (v !== 'text' && v !== 'json') throw new UsageError(`unknown format '${v ?? ''}'; choose text or json`);
      args.format = v;
    } else if (a === '--no-detect') {
      args.detect = false;
    } else if (a === '--max-steps') {
      const v = Number(rest[++i]);
      if (!Number.isInteger(v) || v < 1) throw new UsageError('--max-steps needs a positive integer');
      args.maxSteps = v;
    } else if (a === '--model' || a === '--scheduling') {
      const v = rest[++i];
      if (v !== 'independent' && v !== 'lockstep') throw new UsageError(`unknown scheduling model '${v ?? ''}'; choose independent or lockstep`);
      args.model = v;
    } else if (a === '--seed' || a === '--schedules') {
      const v = Number(rest[++i]);
      if (!Number.isInteger(v) || v < (a === '--seed' ? 0 : 1)) throw new UsageError(`${a} needs a ${a === '--seed' ? 'non-negative' : 'positive'} integer`);
      if (a === '--seed') args.seed = v;
      else args.schedules = v;
    } else if (a === '--device-preset' || a === '--device') {
      args.preset = rest[++i] ?? '';
      if (!devicePreset(args.preset)) throw new UsageError(`unknown device preset '${args.preset}'; choose one of ${Object.keys(DEVICE_PRESETS).join(', ')}`);
    }
    else if (a.startsWith('-')) throw new UsageError(`unknown option '${a}'\n${USAGE}`);
    else if (!args.file) args.file = a;
    else throw new UsageError(`only one file may be given (got '${args.file}' and '${a}')`);
  }
  if (!args.file) throw new UsageError(`no input file\n${USAGE}`);
  return args;
}

function readFileOrUndefined(p: string): string | undefined {
  try {
    return fs.readFileSync(p, 'utf8');
  } catch {
    return undefined;
  }
}

function main(argv: string[]): number {
  const args = parseArgs(argv);
  const text = readFileOrUndefined(args.file);
  if (text === undefined) {
    process.stderr.write(`scord: cannot read '${args.file}': ${fs.existsSync(args.file) ? 'permission denied or not a file' : 'no such file'}\n`);
    return 2;
  }
  const common = {
    fileName: args.file,
    defines: args.defines,
    undefines: args.undefines,
    includePaths: args.includePaths.map((p) => path.resolve(p)),
    readFile: readFileOrUndefined,
  };
  if (args.command === 'preprocess') {
    const r = preprocess({ ...common, text, deviceSide: args.device });
    process.stdout.write(tokensToText(r.tokens) + '\n');
    for (const d of r.diagnostics) process.stderr.write(formatDiagnostic(d) + '\n');
    return r.diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
  }
  const result = parse(text, common);
  if (args.command === 'run') return runCommand(result, args);
  if (args.command === 'check') return checkCommand(result, args, text);
  const summary = summarize(result, (f) => (f === args.file ? text : readFileOrUndefined(f)));
  const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
  if (args.json) {
    process.stdout.write(JSON.stringify({ file: args.file, ...summary, diagnostics: result.diagnostics }, null, 2) + '\n');
  } else {
    for (const d of result.diagnostics) process.stdout.write(formatDiagnostic(d) + '\n');
    const list = (label: string, names: string[]): void => {
      process.stdout.write(`${label.padEnd(18)}${names.length ? names.join(', ') : '(none)'}`.trimEnd() + '\n');
    };
    process.stdout.write(`${args.file}: ${summary.lines} lines, ${summary.files.length} file${summary.files.length === 1 ? '' : 's'}${result.splitByArch ? ', separate host and device views (__CUDA_ARCH__)' : ''}\n`);
    list('kernels:', summary.kernels.map((k) => `${k.name}(${k.params.join(', ')})${k.template ? ' [template]' : ''}`));
    list('device functions:', summary.deviceFunctions);
    list('host functions:', summary.hostFunctions);
    list('launches:', summary.launches.length ? [''] : []);
    const overloaded = new Set(summary.kernels.map((k) => k.name).filter((n, i, all) => all.indexOf(n) !== i));
    for (const l of summary.launches) {
      const targs = l.templateArgs ? `<${l.templateArgs.join(', ')}>` : '';
      const which = overloaded.has(l.kernel) && l.kernelParams ? `  [${l.kernel}(${l.kernelParams.join(', ')})]` : '';
      process.stdout.write(`  line ${String(l.line).padEnd(5)} ${l.kernel}${targs}<<<${l.config.join(', ')}>>>${which}\n`);
    }
    const warnings = result.diagnostics.length - errors;
    process.stdout.write(`${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}\n`);
  }
  return errors > 0 ? 1 : 0;
}

interface Location {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

function location(r: { file: string; start: { line: number; character: number }; end: { line: number; character: number } }): Location {
  return { file: r.file, line: r.start.line + 1, column: r.start.character + 1, endLine: r.end.line + 1, endColumn: r.end.character + 1 };
}

/**
 * `scord check`: runs the program with the ScoRD detector attached and reports races and
 * the run's other findings. Exit 0: ran, nothing found; 1: ran, findings; 2: could not be
 * analysed (errors in the program, unsupported constructs, bad usage).
 */
function checkCommand(result: ParseResult, args: Args, source: string): number {
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  const diagnostics = result.diagnostics.map((d) => ({ severity: d.severity, code: d.code, message: d.message, location: location(d.range) }));
  if (errors.length) {
    if (args.format === 'json') process.stdout.write(JSON.stringify({ file: args.file, findings: [], diagnostics, output: '', stats: {} }, null, 2) + '\n');
    else for (const d of errors) process.stdout.write(formatDiagnostic(d) + '\n');
    return 2;
  }
  let detector: ScordDetector | undefined;
  const run = runProgram(result, {
    device: args.preset,
    ...(args.scheduler ? { scheduler: args.scheduler } : {}),
    ...(args.model ? { model: args.model } : {}),
    ...(args.seed !== undefined ? { seed: args.seed } : {}),
    ...(args.maxSteps !== undefined ? { stepBudget: args.maxSteps } : {}),
    ...(args.detect
      ? {
          attach: (memory) => {
            detector = new ScordDetector(memory);
          },
          events: (e) => detector!.listener(e),
        }
      : {}),
  });
  const unsupported = run.findings.filter((f) => f.kind === 'not-supported');
  const findings = [
    ...(detector?.findings() ?? []).map((r) => ({
      kind: 'race',
      category: r.category,
      scope: r.scope as string | null,
      severity: 'warning',
      message: r.count > 1 ? `${r.message} (${r.count} times)` : r.message,
      location: location(r.range),
      related: [{ location: location(r.previous), message: 'the other access' }],
    })),
    ...run.findings.filter((f) => f.kind !== 'not-supported').map((f) => ({
      kind: f.kind,
      category: f.kind,
      scope: null as string | null,
      severity: f.severity,
      message: f.message,
      location: f.range ? location(f.range) : { file: args.file, line: 1, column: 1, endLine: 1, endColumn: 1 },
      related: [] as { location: Location; message: string }[],
    })),
  ];
  void source;
  if (args.format === 'json') {
    process.stdout.write(JSON.stringify({
      file: args.file,
      findings,
      diagnostics: [...diagnostics, ...unsupported.map((f) => ({ severity: 'error', code: 'not-supported', message: f.message, location: f.range ? location(f.range) : undefined }))],
      output: run.stdout,
      stats: { exitCode: run.exitCode, launches: run.launches, steps: run.steps, device: args.preset },
    }, null, 2) + '\n');
  } else {
    for (const d of unsupported) process.stdout.write(`${d.range ? formatLocation(d.range) : args.file}: error: ${d.message} [scord/not-supported]\n`);
    for (const f of findings) {
      const l = f.location;
      process.stdout.write(`${l.file}:${l.line}:${l.column}: ${f.severity}: ${f.message} [scord/${f.category}]\n`);
      for (const r of f.related) process.stdout.write(`  ${r.location.file}:${r.location.line}:${r.location.column}: note: ${r.message}\n`);
    }
    process.stdout.write(`${findings.length} finding${findings.length === 1 ? '' : 's'} in ${args.file}\n`);
  }
  if (unsupported.length) return 2;
  return findings.length > 0 ? 1 : 0;
}

/** `scord run`: the program's own output, then the findings. Exit 1 if anything was found. */
function runCommand(result: ParseResult, args: Args): number {
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) {
    for (const d of errors) process.stderr.write(formatDiagnostic(d) + '\n');
    process.stderr.write(`scord: ${args.file} has errors; it cannot run\n`);
    return 1;
  }
  const options = {
    device: args.preset,
    ...(args.scheduler ? { scheduler: args.scheduler } : {}),
    ...(args.model ? { model: args.model } : {}),
    ...(args.seed !== undefined ? { seed: args.seed } : {}),
  };
  // --schedules N: N seeded random interleavings; the output shown is the first run's.
  const many = args.schedules && args.schedules > 1 ? runSchedules(result, args.schedules, options) : undefined;
  const run = many ? { ...many.runs[0], findings: many.findings } : runProgram(result, options);
  process.stdout.write(run.stdout);
  process.stderr.write(run.stderr);
  const where = (f: RunFinding): string => (f.range ? `${formatLocation(f.range)}: ` : `${args.file}: `);
  const who = (f: RunFinding): string => (f.block ? ` [block (${f.block.join(', ')}), thread (${f.thread?.join(', ')})]` : '');
  for (const f of run.findings) process.stderr.write(`${where(f)}${f.severity}: ${f.kind}: ${f.message}${who(f)}\n`);
  process.stderr.write(`scord: ${args.file} exited with status ${run.exitCode} after ${run.launches} launch${run.launches === 1 ? '' : 'es'} and ${run.steps} thread-steps on ${args.preset}; ${run.findings.length} finding${run.findings.length === 1 ? '' : 's'}\n`);
  return run.findings.some((f) => f.severity === 'error') ? 1 : 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (e) {
  if (e instanceof UsageError) {
    process.stderr.write(`scord: ${e.message}\n`);
  } else {
    // An engine bug must still not show a stack trace to the user; say what failed.
    process.stderr.write(`scord: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
  }
  process.exitCode = 2;
}
