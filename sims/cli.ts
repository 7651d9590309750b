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
import type { SchedulerKind } from './gpu/executor';
import { runProgram, runSchedules, type RunFinding } from './host/run';
import { preprocess, tokensToText } from './frontend/preprocessor';
import { summarize } from './frontend/summary';

const USAGE = `usage: scord parse FILE [-D NAME[=VALUE]] [-U NAME] [-I DIR] [--json]
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
  scheduler?: SchedulerKind;
  model?: 'independent' | 'lockstep';
  seed?: number;
  schedules?: number;
}

function parseArgs(argv: string[]): Args {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h') throw new UsageError(USAGE);
  if (command !== 'parse' && command !== 'preprocess' && command !== 'run') throw new UsageError(`unknown command '${command}'\n${USAGE}`);
  const args: Args = { command, file: '', defines: [], undefines: [], includePaths: [], json: false, device: false, preset: DEFAULT_DEVICE };
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
    } else if (a === '--model') {
      const v = rest[++i];
      if (v !== 'independent' && v !== 'lockstep') throw new UsageError(`unknown scheduling model '${v ?? ''}'; choose independent or lockstep`);
      args.model = v;
    } else if (a === '--seed' || a === '--schedules') {
      const v = Number(rest[++i]);
      if (!Number.isInteger(v) || v < (a === '--seed' ? 0 : 1)) throw new UsageError(`${a} needs a ${a === '--seed' ? 'non-negative' : 'positive'} integer`);
      if (a === '--seed') args.seed = v;
      else args.schedules = v;
    } else if (a === '--device-preset') {
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
