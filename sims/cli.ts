// `scord` — the engine on the command line. Only this file prints.
//
//   scord check FILE [-D …] [-I …] [--format text|json|sarif] [--no-detect] [detector, run
//               and launch options]
//       Runs the program (its main, or one kernel of a kernel-only file) with the ScoRD race
//       detector attached and reports races and the run's other findings. Exit 0: it ran and
//       found nothing; 1: it found something; 2: the file could not be analysed. `--engine
//       precise` detects races by happens-before over the scoped PTX memory model instead;
//       `--engine both` runs the two and merges their findings. `--fairness hsa` (or obe,
//       hsa+obe, lobe, unfair) also looks for schedules of that weaker GPU scheduler on which
//       a launch never ends (spin locks, flags, grid barriers) and reports them as deadlocks.
//   scord fix FILE [check options] [--dry-run]
//       Applies the preferred fix of every finding to FILE (like `eslint --fix`) and checks the
//       result again; --dry-run prints the change as a unified diff instead.
//   scord parse FILE [-D NAME[=VALUE]] [-U NAME] [-I DIR] [--json]
//       Reads a CUDA file the way nvcc would (host and device passes), reports problems with
//       file:line:column, and lists the kernels, device and host functions and launches found.
//   scord preprocess FILE [-D …] [-U …] [-I …] [--device]
//       Prints the preprocessed token stream (like `nvcc -E`, without line markers).
//   scord litmus FILE [--model sc|gpu-weak|gpu-strong] [--runs N | --exhaustive] [--observe x,y]
//               [--no-load-reordering] [--cumulative-fences] [--format text|json]
//       Runs a small program many times under a memory model (random schedules and
//       propagation, or every execution) and prints the histogram of its final outcomes with
//       one witness execution for each; `// outcome:` lines name outcomes to look for.
//   scord run FILE [-D …] [-U …] [-I …] [--device-preset NAME]
//       Runs the program on the simulated GPU: its output, then what went wrong (faults with
//       the allocation and thread, deadlocks, runaway loops). Exit 1 if any error was found;
//       warnings (undefined operations the run survived) alone exit 0.
//
// Exit status: 0 no errors, 1 the program has errors, 2 bad usage or unreadable input.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { formatDiagnostic } from './frontend/diagnostics';
import { parse, type ParseOptions, type ParseResult } from './frontend/index';
import { formatLocation } from './frontend/source';
import { DEFAULT_DEVICE, DEVICE_PRESETS, devicePreset, warpSchedulingOf } from './gpu/devices';
import { gpuArchsOf, OLDEST_ARCH } from './clang/toolchain/flags';
import { checkParsedEntry, ENGINES, notAnalysed as notAnalysedReport, publicReport, readLaunchHeader, type CheckDiagnostic, type CheckOptions, type CheckReport, type Engine } from './check';
import type { SchedulerKind } from './machine/executor';
import { FAIRNESS_KINDS, isFairness, type Fairness } from './idioms/schedulers';
import { fairnessLaunchCheck } from './fairness/fairness';
import { programNameOf, runProgram, runSchedules, type RunFinding, type RunOptions, type RunResult } from './host/run';
import type { EntryRequest } from './host/entry';
import { headerDefines, parseDim3, readKernelHeader, type Dim3 } from './host/kernelHeader';
import { toSarif } from './report/sarif';
import { applyEdits, applyPreferredFixes, editsByFile } from './fixes/apply';
import type { TextEdit } from './fixes/fixes';
import { proveFixes } from './fixes/prove';
import { createTwoFilesPatch } from 'diff';
import { preprocess, tokensToText } from './frontend/preprocessor';
import { summarize } from './frontend/summary';
import { declaredOutcomes, runLitmus } from './litmus/run';
import { type LitmusReport } from './litmus/types';
import { MEMORY_MODELS, type MemoryModelName, type WeakModelSwitches } from './gpu/memoryModels';
import { programArch, programFromCompileCommands, programFromFiles, type ProgramResult } from './clang/program';
import { checkWithClang, compileProgram, isKernelOnly, clangDiagnostic, withClangsPart, FRONTENDS, type ClangProgramOptions, type Frontend } from './clang/check';
import { runClangProgram } from './clang/host/runProgram';
import { SourceRanges } from './clang/ranges';
import { DEFAULT_MAX_FILE_MB, limitsForFileMb, MB, readBounded, SourceReader } from './files/policy';
import { DEFAULT_MEMORY_LIMIT } from './gpu/memory';
import { replaceIfUnchanged } from './files/replace';
import { escapeControls } from './files/sanitize';
import { runOnLargeStack } from './largeStack';
import { isPoolWorker, runInWorkers, servePool } from './workerPool';
import { mergeScheduleReports, scheduleOptions } from './checkSchedules';

const PRESETS = Object.keys(DEVICE_PRESETS).join('|');
const USAGE = `usage: scord check FILE... [-D NAME[=VALUE]] [-I DIR] [--format text|json|sarif] [--no-detect]
                   [--engine scord|precise|both] [--hardware-faithful] [--granularity 4|8|16|32|64]
                   [--warp-sync] [--no-benign] [--device ${PRESETS}] [--arch sm_NN]
                   [--scheduling independent|lockstep] [--seed N] [--schedules N] [--max-steps N]
                   [--sample-blocks N] [--jobs N] [--interpret] [--kernel NAME] [--grid X[,Y,Z]] [--block X[,Y,Z]] [--arg NAME=VALUE]...
                   [--memory-model sc|gpu-weak|gpu-strong] [--fairness ${FAIRNESS_KINDS.join('|')}]
                   [--frontend auto|builtin|clang] [--compile-commands FILE] [--stdin FILE]
                   [--allow-read] [--args "ARGS"] [--program-arg ARG]... [-- ARG...]
       scord fix FILE [check options] [--dry-run]
       scord litmus FILE [-D NAME[=VALUE]] [--model sc|gpu-weak|gpu-strong] [--runs N | --exhaustive]
                 [--max-executions N] [--seed N] [--observe NAME[,NAME]...] [--no-load-reordering]
                 [--cumulative-fences] [--format text|json]
       scord parse FILE [-D NAME[=VALUE]] [-U NAME] [-I DIR] [--json]
       scord preprocess FILE [-D NAME[=VALUE]] [-U NAME] [-I DIR] [--device]
       scord run FILE... [-D NAME[=VALUE]] [-U NAME] [-I DIR] [--device-preset ${PRESETS}]
                 [--scheduler round-robin|greedy-then-oldest|random] [--seed N] [--schedules N] [--max-steps N]
                 [--model independent|lockstep] [--arch sm_NN] [--fairness ${FAIRNESS_KINDS.join('|')}] [--interpret]
                 [--frontend auto|builtin|clang] [--compile-commands FILE] [--stdin FILE]
                 [--allow-read] [--args "ARGS"] [--program-arg ARG]... [-- ARG...]
       scord --help | --version
  Several files (one program), --compile-commands, --stdin, --allow-read and program arguments run
  through clang. --allow-read lets the program read (never write) files of its own folder.
  main gets argc and argv as from a shell: argv[0] is the file's name without its extension, then
  the words of --args (split as a shell splits them, quotes kept together), --program-arg and --.`;

/** The commands that run a whole program and take its inputs (argv, stdin, several files). */
const PROGRAM_COMMANDS = ['check', 'run', 'fix'];
/**
 * The thread-steps a run may take when --max-steps does not say: a program in CI is checked as it
 * is, and real ones take a billion steps (cuda-samples' matrixMul: 1.05 G in its one simulated
 * launch, half a minute), where the editor, which must answer while one types, stops at its
 * `scord.simulator.stepBudget` (50 M).
 */
const CLI_STEP_BUDGET = 2_000_000_000;

/** Metadata granularities of the detector, in bytes (the paper's design is 4: one word). */
const GRANULARITIES = [4, 8, 16, 32, 64];

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
  format: 'text' | 'json' | 'sarif';
  detect: boolean;
  hardwareFaithful: boolean;
  /** --warp-sync: lanes of an undiverged warp run in lockstep (no intra-warp races). */
  warpSync?: boolean;
  /** --no-benign: leave out benign same-value races. */
  noBenign?: boolean;
  /** `--engine`: ScoRD, happens-before over the PTX model, or both. */
  engine?: Engine;
  granularity?: number;
  maxSteps?: number;
  /** --sample-blocks N: a grid of more blocks runs N of them (the first, the last, a seeded random set). */
  sampleBlocks?: number;
  /** --interpret: run blocks through the reference interpreter instead of compiled. */
  interpret?: boolean;
  scheduler?: SchedulerKind;
  model?: 'independent' | 'lockstep';
  /** `--arch` (nvcc's -arch, --gpu-architecture; clang's --cuda-gpu-arch): compute capability times ten. */
  arch?: number;
  seed?: number;
  schedules?: number;
  /** check --jobs N: threads the schedules of --schedules run on (default: one per core). */
  jobs?: number;
  /** `--kernel`, `--grid`, `--block` and `--arg`: a kernel to run instead of main. */
  entry: EntryRequest;
  /** `fix --dry-run`: print the diff instead of writing the file. */
  dryRun: boolean;
  /** `check --memory-model` / `litmus --model`. */
  memoryModel?: MemoryModelName;
  /** `litmus`: random runs, or every execution (up to maxExecutions). */
  runs?: number;
  exhaustive: boolean;
  maxExecutions?: number;
  observe?: string[];
  switches: WeakModelSwitches;
  /** `--fairness`: the scheduler's fairness; launches that may never end under it are found. */
  fairness?: Fairness;
  /** Every file named; `file` is the first. Several make one program (clang front end only). */
  files: string[];
  /** `--frontend`: auto (the default: the built-in front end where it runs the file, clang otherwise), builtin or clang. */
  frontend: Frontend;
  /** `--compile-commands FILE`: the compilation database whose entries make the program. */
  compileCommands?: string;
  /** `--stdin FILE`: what the program reads from standard input. */
  stdin?: string;
  /** `--allow-read`: the program may read files of its own folder (the first file's); otherwise it reads none. */
  allowRead?: boolean;
  /** `--program-arg ARG` (repeatable) and the words after `--`: the program's argv after its name. */
  programArgs: string[];
  /** `--max-file-mb N`: the largest source file read (the program's sources: eight times it, at least 64 MB). */
  maxFileMb: number;
  /** `--memory-limit SIZE`: bytes the run may hold (default 2 GB). */
  memoryLimit: number;
  /** `--initcheck`: device reads of cudaMalloc'd memory nothing has written are findings. */
  initCheck: boolean;
}

/** `text` split into words as a POSIX shell splits them: blanks separate, quotes and backslashes keep together. */
export function shellWords(text: string, flag: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  const unclosed = (q: string, at: number): UsageError => new UsageError(`${flag}: the quote ${q} at character ${at + 1} is not closed`);
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw unclosed(c, i);
      word = (word ?? '') + text.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      // Inside double quotes a backslash keeps only " \ $ ` literal.
      const start = i;
      word ??= '';
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1])) i++;
        word += text[i];
      }
      if (i >= text.length) throw unclosed(c, start);
    } else if (c === '\\' && i + 1 < text.length) {
      word = (word ?? '') + text[++i];
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

function parseArgs(argv: string[]): Args {
  const [command, ...rest] = argv;
  if (!command) throw new UsageError(USAGE);
  if (!['parse', 'preprocess', 'run', 'check', 'fix', 'litmus'].includes(command)) throw new UsageError(`unknown command '${command}'\n${USAGE}`);
  const args: Args = { command, file: '', defines: [], undefines: [], includePaths: [], json: false, device: false, preset: DEFAULT_DEVICE, format: 'text', detect: true, hardwareFaithful: false, entry: { args: {} }, dryRun: false, exhaustive: false, switches: {}, files: [], frontend: 'auto', programArgs: [], maxFileMb: DEFAULT_MAX_FILE_MB, memoryLimit: DEFAULT_MEMORY_LIMIT, initCheck: false };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    // -DNAME and -D NAME; --flag VALUE and --flag=VALUE.
    const value = (flag: string): string => {
      const inline = a.slice(flag.length);
      if (inline) return inline;
      const v = rest[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    const long = /^(--[a-z-]+)(?:=(.*))?$/s.exec(a);
    const flag = long?.[1] ?? a;
    const optionValue = (): string => {
      if (long?.[2] !== undefined) return long[2];
      const v = rest[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    const integer = (min: number, what: string): number => {
      const text = optionValue();
      const v = Number(text);
      if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(v) || v < min) throw new UsageError(`${flag} needs a ${what} integer (got '${text}')`);
      return v;
    };
    const dims = (): Dim3 => {
      const text = optionValue();
      const d = parseDim3(text);
      if (typeof d === 'string') throw new UsageError(`${flag}: ${d}`);
      return d;
    };
    if (a.startsWith('-D')) args.defines.push(value('-D'));
    else if (a.startsWith('-U')) args.undefines.push(value('-U'));
    else if (a.startsWith('-I')) args.includePaths.push(value('-I'));
    else if (a === '--json') args.json = true;
    else if (a === '--device' && command === 'preprocess') args.device = true;
    else if (flag === '--scheduler') {
      const v = optionValue();
      if (v !== 'round-robin' && v !== 'greedy-then-oldest' && v !== 'random') throw new UsageError(`unknown scheduler '${v}'; choose round-robin, greedy-then-oldest or random`);
      args.scheduler = v;
    } else if (flag === '--format') {
      const v = optionValue();
      if (v !== 'text' && v !== 'json' && v !== 'sarif') throw new UsageError(`unknown format '${v}'; choose text, json or sarif`);
      args.format = v;
    } else if (a === '--no-detect') {
      args.detect = false;
    } else if (a === '--dry-run' && command === 'fix') {
      args.dryRun = true;
    } else if (a === '--hardware-faithful') {
      args.hardwareFaithful = true;
    } else if (a === '--interpret' && PROGRAM_COMMANDS.includes(command)) {
      args.interpret = true;
    } else if (a === '--warp-sync') {
      args.warpSync = true;
    } else if (a === '--no-benign') {
      args.noBenign = true;
    } else if (flag === '--engine') {
      const v = optionValue();
      if (!(ENGINES as readonly string[]).includes(v)) throw new UsageError(`unknown engine '${v}'; choose ${ENGINES.slice(0, -1).join(', ')} or ${ENGINES[ENGINES.length - 1]}`);
      args.engine = v as Engine;
    } else if (flag === '--granularity') {
      const text = optionValue();
      const v = Number(text);
      if (!/^\d+$/.test(text) || !GRANULARITIES.includes(v)) throw new UsageError(`--granularity must be one of ${GRANULARITIES.join(', ')} (bytes per metadata entry), not '${text}'`);
      args.granularity = v;
    } else if (a === '--initcheck') {
      args.initCheck = true;
    } else if (flag === '--max-file-mb') {
      args.maxFileMb = integer(1, 'positive');
    } else if (flag === '--memory-limit') {
      const text = optionValue();
      const m = /^(\d+(?:\.\d+)?)\s*([kmg]?)b?$/i.exec(text.trim());
      const bytes = m ? Number(m[1]) * 1024 ** ({ '': 2, k: 1, m: 2, g: 3 } as Record<string, number>)[m[2].toLowerCase()] : NaN;
      if (!Number.isFinite(bytes) || bytes < MB) throw new UsageError(`--memory-limit needs a size such as 512M or 2G (megabytes when no unit; at least 1M), not '${text}'`);
      args.memoryLimit = Math.floor(bytes);
    } else if (flag === '--max-steps') {
      args.maxSteps = integer(1, 'positive');
    } else if (flag === '--sample-blocks' && command !== 'run') {
      const n = integer(1, 'positive');
      if (n < 2) throw new UsageError(`--sample-blocks needs at least 2 blocks (the first and the last), not ${n}`);
      args.sampleBlocks = n;
    } else if ((flag === '--model' && command === 'litmus') || flag === '--memory-model') {
      const v = optionValue();
      if (!(MEMORY_MODELS as readonly string[]).includes(v)) throw new UsageError(`unknown memory model '${v}'; choose ${MEMORY_MODELS.join(', ')}`);
      args.memoryModel = v as MemoryModelName;
    } else if (flag === '--runs' && command === 'litmus') {
      args.runs = integer(1, 'positive');
    } else if (a === '--exhaustive' && command === 'litmus') {
      args.exhaustive = true;
    } else if (flag === '--max-executions' && command === 'litmus') {
      args.maxExecutions = integer(1, 'positive');
    } else if (flag === '--observe' && command === 'litmus') {
      const names = optionValue().split(',').map((n) => n.trim());
      if (names.some((n) => !/^[A-Za-z_]\w*$/.test(n))) throw new UsageError(`--observe needs variable names separated by commas (got '${names.join(',')}')`);
      args.observe = names;
    } else if (a === '--no-load-reordering') {
      args.switches.loadReordering = false;
    } else if (a === '--cumulative-fences') {
      args.switches.cumulativeFences = true;
    } else if (a === '-arch' || a.startsWith('-arch=') || flag === '--arch' || flag === '--gpu-architecture' || flag === '--cuda-gpu-arch' || flag === '--offload-arch') {
      const v = a.startsWith('-arch=') ? a.slice('-arch='.length) : optionValue();
      const archs = gpuArchsOf(v);
      if (!archs.length) throw new UsageError(`${a.startsWith('-arch') ? '-arch' : flag}: '${v}' names no GPU architecture the toolchain builds for (sm_${OLDEST_ARCH} or newer, such as sm_60 or compute_70)`);
      args.arch = Math.max(...archs);
    } else if (flag === '--model' || flag === '--scheduling') {
      const v = optionValue();
      if (v !== 'independent' && v !== 'lockstep') throw new UsageError(`unknown scheduling model '${v}'; choose independent or lockstep`);
      args.model = v;
    } else if (flag === '--fairness') {
      const v = optionValue();
      if (!isFairness(v)) throw new UsageError(`unknown fairness '${v}'; choose ${FAIRNESS_KINDS.join(', ')}`);
      args.fairness = v;
    } else if (flag === '--seed') {
      args.seed = integer(0, 'non-negative');
    } else if (flag === '--schedules') {
      args.schedules = integer(1, 'positive');
    } else if (flag === '--jobs' && command === 'check') {
      args.jobs = integer(1, 'positive');
    } else if (flag === '--device-preset' || flag === '--device') {
      args.preset = optionValue();
      if (!devicePreset(args.preset)) throw new UsageError(`unknown device preset '${args.preset}'; choose one of ${Object.keys(DEVICE_PRESETS).join(', ')}`);
    } else if (flag === '--kernel') {
      const v = optionValue();
      if (!/^[A-Za-z_]\w*$/.test(v)) throw new UsageError(`--kernel needs a kernel name (got '${v}')`);
      args.entry.kernel = v;
    } else if (flag === '--grid') {
      args.entry.grid = dims();
    } else if (flag === '--block') {
      args.entry.block = dims();
    } else if (flag === '--arg') {
      const text = optionValue();
      const m = /^([A-Za-z_]\w*)=(.+)$/s.exec(text);
      const v = m ? Number(m[2].trim()) : NaN;
      if (!m || m[2].trim() === '' || !Number.isFinite(v)) throw new UsageError(`--arg needs NAME=VALUE with a number for VALUE (got '${text}')`);
      args.entry.args[m[1]] = v;
    } else if (flag === '--frontend') {
      const v = optionValue();
      if (!(FRONTENDS as readonly string[]).includes(v)) throw new UsageError(`unknown front end '${v}'; choose auto, builtin or clang`);
      args.frontend = v as Frontend;
    } else if (a === '--' && PROGRAM_COMMANDS.includes(command)) {
      args.programArgs.push(...rest.slice(i + 1));
      break;
    } else if (flag === '--args' && PROGRAM_COMMANDS.includes(command)) {
      args.programArgs.push(...shellWords(optionValue(), flag));
    } else if (flag === '--program-arg' && PROGRAM_COMMANDS.includes(command)) {
      args.programArgs.push(optionValue());
    } else if (flag === '--allow-read' && PROGRAM_COMMANDS.includes(command)) {
      args.allowRead = true;
    } else if (flag === '--stdin' && PROGRAM_COMMANDS.includes(command)) {
      args.stdin = existingFile(optionValue(), flag);
    } else if (flag === '--compile-commands' && PROGRAM_COMMANDS.includes(command)) {
      args.compileCommands = existingFile(optionValue(), flag);
    } else if (a.startsWith('-')) throw new UsageError(`unknown option '${a}'\n${USAGE}`);
    else args.files.push(a);
  }
  args.file = args.files[0] ?? '';
  const clang = args.frontend !== 'builtin' && PROGRAM_COMMANDS.includes(command);
  if (args.frontend === 'clang' && !PROGRAM_COMMANDS.includes(command)) throw new UsageError(`--frontend clang works with check, run and fix, not ${command}`);
  if (args.files.length > 1 && !(clang && command !== 'fix')) throw new UsageError(`only one file may be given (got '${args.files[0]}' and '${args.files[1]}')${PROGRAM_COMMANDS.includes(command) && command !== 'fix' ? '; a program of several files needs the clang front end (not --frontend builtin)' : ''}`);
  if (args.frontend === 'builtin' && (args.compileCommands || args.stdin || args.allowRead || args.programArgs.length)) throw new UsageError('--compile-commands, --stdin, --allow-read and program arguments need the clang front end (not --frontend builtin)');
  if (!args.file && !(clang && args.compileCommands && command !== 'fix')) throw new UsageError(`no input file\n${USAGE}`);
  return args;
}

/** A file an option names, which must be a readable file: its path, or a usage error. */
function existingFile(file: string, flag: string): string {
  const st = fs.statSync(file, { throwIfNoEntry: false });
  if (!st) throw new UsageError(`${flag}: no such file '${file}'`);
  if (!st.isFile()) throw new UsageError(`${flag}: '${file}' is not a regular file`);
  return file;
}

/**
 * The program `check`/`run` with `--frontend clang` analyses: the files named (with the -D, -U
 * and -I flags), or the entries of `--compile-commands` (the named file's target, or all).
 */
export function clangProgramOf(args: Pick<Args, 'files' | 'defines' | 'undefines' | 'includePaths' | 'compileCommands' | 'arch' | 'preset'>): ProgramResult {
  const result = namedProgram(args);
  // --arch builds every unit for that architecture, whatever a database's commands say; without
  // one, a unit no command gave an architecture is built for the --device preset's GPU
  // (`__CUDA_ARCH__` 800 on ampere), as nvcc would build it to run there.
  const presetArch = archOf({ preset: args.preset });
  if (args.arch) result.program.units = result.program.units.map((u) => ({ ...u, arch: args.arch }));
  else if (presetArch !== undefined) result.program.units = result.program.units.map((u) => (u.arch === undefined ? { ...u, arch: presetArch } : u));
  return result;
}

function namedProgram(args: Pick<Args, 'files' | 'defines' | 'undefines' | 'includePaths' | 'compileCommands'>): ProgramResult {
  if (args.compileCommands) {
    if (args.files.length > 1) {
      // Each named file's target, together (usually they are the same one).
      const results = args.files.map((f) => programFromCompileCommands(args.compileCommands!, f) ?? notListed(f, args.compileCommands!));
      const units = results.flatMap((r) => r.program.units).filter((u, i, all) => all.findIndex((v) => v.file === u.file) === i);
      return { program: { units }, errors: results.flatMap((r) => r.errors), origin: 'compile-commands', compileCommands: path.resolve(args.compileCommands) };
    }
    const file = args.files[0];
    return programFromCompileCommands(args.compileCommands, file) ?? notListed(file, args.compileCommands);
  }
  return programFromFiles(args.files, { defines: args.defines, undefines: args.undefines, includeDirs: args.includePaths });
}

function notListed(file: string | undefined, database: string): ProgramResult {
  const at = path.resolve(database);
  return { program: { units: [] }, errors: [{ message: `${file ?? 'the file'} has no entry in this compilation database`, file: at, line: 1, column: 1 }], origin: 'compile-commands', compileCommands: at };
}

/** The command's reader of source files, under the one file policy (sims/files/policy.ts). */
let sources = new SourceReader();

/** An included file's text, undefined when there is none, or why the policy refused it. */
function readSource(p: string): string | undefined | { refused: string } {
  const r = sources.read(p);
  return r === undefined ? undefined : 'text' in r ? r.text : r;
}

/**
 * The command line's workspace: the working folder, the checked file's folder and the -I
 * folders; diagnostics echo little of files outside them.
 */
function workspaceRootsOf(args: Args): string[] {
  return [process.cwd(), path.dirname(path.resolve(args.file)), ...args.includePaths.map((p) => path.resolve(p))];
}

/** A file's text when the policy lets it be read. */
function readFileOrUndefined(p: string): string | undefined {
  const r = sources.read(p);
  return r && 'text' in r ? r.text : undefined;
}

/** The file named on the command line, as bytes (`fix` compares them before writing), or why not. */
function readMainFile(file: string): { bytes: Uint8Array; text: string } | { reason: string } {
  const why = sources.precheck(file);
  if (why) return { reason: why };
  const read = readBounded(file, sources.limits.maxFileBytes, sources.limits);
  if ('reason' in read) return read;
  const text = Buffer.from(read.buffer, read.byteOffset, read.byteLength).toString('utf8');
  sources.account(file, text);
  return { bytes: read, text };
}

/** The architecture a program is built for: --arch, else the --device preset's GPU (undefined: the default). */
function archOf(args: Pick<Args, 'arch' | 'preset'>): number | undefined {
  const device = args.preset ? devicePreset(args.preset) : undefined;
  return args.arch ?? (device ? device.computeCapability[0] * 10 + device.computeCapability[1] : undefined);
}

/** What every front-end pass of the command reads the program with. */
function commonOf(args: Args) {
  const arch = archOf(args);
  return {
    // `__CUDA_ARCH__` is the compute capability times a hundred (700 for sm_70).
    ...(arch !== undefined ? { cudaArch: arch * 10 } : {}),
    fileName: args.file,
    defines: args.defines,
    undefines: args.undefines,
    includePaths: args.includePaths.map((p) => path.resolve(p)),
    readFile: readSource,
    workspaceRoots: workspaceRootsOf(args),
  };
}

/** The check of one schedule, or why the file cannot be read. */
async function checkOne(args: Args): Promise<CheckReport | { unreadable: string }> {
  if (needsClang(args)) return checkThroughClang(args);
  const main = readMainFile(args.file);
  if ('reason' in main) return { unreadable: main.reason };
  return analyseAny(args, main.text, commonOf(args));
}

/**
 * `check --schedules N`: the checks of the N seeded schedules, on --jobs threads (this one and
 * worker threads; as many as the machine has cores by default), merged in seed order — the
 * same report however many threads ran them.
 */
async function checkSchedules(args: Args, argv: string[]): Promise<CheckReport | { unreadable: string }> {
  const n = args.schedules ?? 1;
  if (n <= 1) return checkOne(args);
  // Threads load this module again: the built script can be; run from source (through a
  // TypeScript loader, which worker threads do not inherit) the schedules run on this thread.
  const jobs = __filename.endsWith('.js') ? Math.min(args.jobs ?? os.availableParallelism(), n) : 1;
  const reports: CheckReport[] = [];
  if (jobs <= 1) {
    for (let k = 0; k < n; k++) {
      const r = await checkOne(scheduleOptions(args, k));
      if ('unreadable' in r) return r;
      reports.push(r);
    }
  } else {
    for (const r of await runInWorkers<CheckReport | { unreadable: string }>(__filename, argv, n, jobs, (k) => checkOne(scheduleOptions(args, k)))) {
      if ('unreadable' in r) return r;
      reports.push(r);
    }
  }
  return mergeScheduleReports(reports);
}

/** On a schedule thread of checkSchedules: the check of schedule `k` of the command line `argv`. */
function scheduleOfCommandLine(argv: string[], k: number): Promise<CheckReport | { unreadable: string }> {
  const args = parseArgs(argv);
  sources = new SourceReader({ limits: limitsForFileMb(args.maxFileMb) });
  return checkOne(scheduleOptions(args, k));
}

async function main(argv: string[], io: Output): Promise<number> {
  const args = parseArgs(argv);
  sources = new SourceReader({ limits: limitsForFileMb(args.maxFileMb) });
  if (args.command === 'check') {
    const report = await checkSchedules(args, argv);
    if (!('unreadable' in report)) return printCheck(report, args, io);
    io.stderr(`scord: cannot read '${args.file}': ${report.unreadable}\n`);
    return 2;
  }
  if (needsClang(args) && args.command === 'run') return runThroughClang(args, io);
  const main = readMainFile(args.file);
  if ('reason' in main) {
    io.stderr(`scord: cannot read '${args.file}': ${main.reason}\n`);
    return 2;
  }
  const text = main.text;
  const common = commonOf(args);
  if (args.command === 'preprocess') {
    const r = preprocess({ ...common, text, deviceSide: args.device });
    io.stdout(tokensToText(r.tokens) + '\n');
    for (const d of r.diagnostics) io.stderr(escapeControls(formatDiagnostic(d) + '\n'));
    return r.diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
  }
  if (args.command === 'fix') return fixCommand(args, main, common, io);
  if (args.command === 'litmus') return litmusCommand(args, text, common, io);
  const result = parse(text, common);
  if (args.command === 'run') {
    const ran = runCommand(result, args, io);
    return ran === 'not-run' ? runThroughClang(args, io) : ran;
  }
  const summary = summarize(result, (f) => (f === args.file ? text : readFileOrUndefined(f)));
  const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
  if (args.json) {
    io.stdout(JSON.stringify({ file: args.file, ...summary, diagnostics: result.diagnostics }, null, 2) + '\n');
  } else {
    for (const d of result.diagnostics) io.stdout(escapeControls(formatDiagnostic(d) + '\n'));
    const list = (label: string, names: string[]): void => {
      io.stdout(`${label.padEnd(18)}${names.length ? names.join(', ') : '(none)'}`.trimEnd() + '\n');
    };
    io.stdout(`${args.file}: ${summary.lines} lines, ${summary.files.length} file${summary.files.length === 1 ? '' : 's'}${result.splitByArch ? ', separate host and device views (__CUDA_ARCH__)' : ''}\n`);
    list('kernels:', summary.kernels.map((k) => `${k.name}(${k.params.join(', ')})${k.template ? ' [template]' : ''}`));
    list('device functions:', summary.deviceFunctions);
    list('host functions:', summary.hostFunctions);
    list('launches:', summary.launches.length ? [''] : []);
    const overloaded = new Set(summary.kernels.map((k) => k.name).filter((n, i, all) => all.indexOf(n) !== i));
    for (const l of summary.launches) {
      const targs = l.templateArgs ? `<${l.templateArgs.join(', ')}>` : '';
      const which = overloaded.has(l.kernel) && l.kernelParams ? `  [${l.kernel}(${l.kernelParams.join(', ')})]` : '';
      io.stdout(`  line ${String(l.line).padEnd(5)} ${l.kernel}${targs}<<<${l.config.join(', ')}>>>${which}\n`);
    }
    const warnings = result.diagnostics.length - errors;
    io.stdout(`${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}\n`);
  }
  return errors > 0 ? 1 : 0;
}

/**
 * Whether the command goes to clang without trying the built-in front end: asked for, or a
 * program it cannot take (several files, a compilation database, stdin, program arguments).
 */
function needsClang(args: Args): boolean {
  if (args.frontend === 'builtin' || !PROGRAM_COMMANDS.includes(args.command)) return false;
  return args.frontend === 'clang' || args.files.length > 1 || args.compileCommands !== undefined || args.stdin !== undefined || !!args.allowRead || args.programArgs.length > 0;
}

/** The check options the command line gives, for either front end. */
function checkOptionsOf(args: Args, fileName: string, text: string): CheckOptions {
  return {
    fileName,
    text,
    readFile: readSource,
    defines: args.defines,
    undefines: args.undefines,
    includePaths: args.includePaths.map((p) => path.resolve(p)),
    device: args.preset,
    ...(args.scheduler ? { scheduler: args.scheduler } : {}),
    ...(args.model ? { model: args.model } : {}),
    ...(args.arch ? { arch: args.arch } : {}),
    ...(args.seed !== undefined ? { seed: args.seed } : {}),
    ...(args.schedules !== undefined ? { schedules: args.schedules } : {}),
    maxSteps: args.maxSteps ?? CLI_STEP_BUDGET,
    ...(args.sampleBlocks !== undefined ? { sampleBlocks: { blocks: args.sampleBlocks } } : {}),
    ...(args.interpret ? { execution: 'interpreted' as const } : {}),
    ...(args.granularity !== undefined ? { granularity: args.granularity } : {}),
    hardwareFaithful: args.hardwareFaithful,
    ...(args.warpSync ? { warpSync: true } : {}),
    ...(args.noBenign ? { benign: false } : {}),
    ...(args.engine ? { engine: args.engine } : {}),
    ...(args.memoryModel ? { memoryModel: args.memoryModel, weakSwitches: args.switches } : {}),
    ...(args.fairness ? { fairness: args.fairness } : {}),
    detect: args.detect,
    deviceMemoryLimit: args.memoryLimit,
    ...(args.initCheck ? { initCheck: true } : {}),
  };
}

/**
 * The program clang builds from the command line, with the checked file's launch header: its
 * -D lines join every unit's flags, its shape launches a kernel when there is no main.
 */
function clangProgram(args: Args): { options: ClangProgramOptions; file: string; text: string } | { problems: CheckDiagnostic[] } {
  const { program, errors } = clangProgramOf(args);
  if (errors.length || program.units.length === 0) {
    const problems = errors.map((e): CheckDiagnostic => ({ severity: 'error', code: 'program', message: e.message, location: { file: e.file, line: e.line, column: e.column, endLine: e.line, endColumn: e.column } }));
    return { problems: problems.length ? problems : [{ severity: 'error', code: 'program', message: 'the program has no source files' }] };
  }
  const first = program.units.find((u) => args.file && u.file === path.resolve(args.file)) ?? program.units[0];
  const text = first.text ?? readFileOrUndefined(first.file);
  if (text === undefined) return { problems: [{ severity: 'error', code: 'program', message: `cannot read '${first.file}'` }] };
  const { header, problems } = readKernelHeader(text);
  if (problems.length) return { problems: problems.map((p): CheckDiagnostic => ({ severity: 'error', code: 'launch-header', message: p.message, location: { file: first.file, line: p.line, column: p.column, endLine: p.line, endColumn: p.endColumn } })) };
  const extra = headerDefines(header, args.defines, args.undefines);
  const units = program.units.map((u) => ({ ...u, defines: [...extra, ...u.defines] }));
  const stdin = args.stdin !== undefined ? new Uint8Array(fs.readFileSync(args.stdin)) : undefined;
  return {
    file: first.file,
    text,
    options: { units, ...(args.programArgs.length ? { argv: args.programArgs } : {}), ...(stdin ? { stdin } : {}), ...(args.allowRead ? { readFolder: path.dirname(first.file) } : {}), launch: { request: args.entry, header } },
  };
}

/** `check` through clang: every unit compiled, the program run with the detectors attached. */
async function checkThroughClang(args: Args): Promise<CheckReport> {
  const program = clangProgram(args);
  if ('problems' in program) return notAnalysed(args, program.problems);
  const report = await checkWithClang(checkOptionsOf(args, program.file, program.text), program.options);
  return args.file ? renameFile(report, program.file, args.file) : report;
}

/**
 * The report with `from` (the absolute path clang reports) written as `to` (as the command
 * line named it), so both front ends print the same places and fixes edit the named file.
 */
function renameFile(report: CheckReport, from: string, to: string): CheckReport {
  if (from === to) return report;
  const loc = <T extends { file: string }>(l: T): T => (l.file === from ? { ...l, file: to } : l);
  return {
    ...report,
    file: to,
    diagnostics: report.diagnostics.map((d) => ({ ...d, ...(d.location ? { location: loc(d.location) } : {}), ...(d.range ? { range: loc(d.range) } : {}) })),
    findings: report.findings.map((f) => ({
      ...f,
      location: loc(f.location),
      related: f.related.map((r) => ({ ...r, location: loc(r.location) })),
      ...(f.range ? { range: loc(f.range) } : {}),
      ...(f.relatedRanges ? { relatedRanges: f.relatedRanges.map(loc) } : {}),
      fixes: f.fixes.map((x) => ({ ...x, edits: x.edits.map((e) => ({ ...e, range: loc(e.range) })) })),
    })),
  };
}

/** `run` through clang: the program's own output, then what went wrong, as `run` prints it. */
async function runThroughClang(args: Args, io: Output): Promise<number> {
  const program = clangProgram(args);
  if ('problems' in program) {
    for (const d of program.problems) io.stderr(escapeControls(`${d.location ? `${d.location.file}:${d.location.line}:${d.location.column}` : args.file}: error: ${d.message}\n`));
    return 2;
  }
  const compiled = await compileProgram(program.options.units, { kernelOnly: isKernelOnly(program.options) });
  const ranges = new SourceRanges((p) => program.options.units.find((u) => u.file === p)?.text ?? readFileOrUndefined(p));
  if ('failed' in compiled) {
    for (const d of compiled.failed.filter((x) => x.severity === 'error')) io.stderr(escapeControls(`${d.file}:${d.line}:${d.column}: error: ${clangDiagnostic(d, ranges).message}\n`));
    io.stderr(`scord: ${args.file || program.file} has errors; it cannot run\n`);
    return 1;
  }
  for (const d of compiled.diagnostics.filter((x) => x.severity === 'warning')) io.stderr(escapeControls(`${formatLocation(clangDiagnostic(d, ranges).range!)}: warning: ${d.message}\n`));
  const options = {
    ...runOptionsOf(args, programArch(program.options.units)),
    ...(program.options.argv ? { argv: program.options.argv } : {}),
    ...(program.options.stdin ? { stdin: program.options.stdin } : {}),
    ...(program.options.readFolder ? { readFolder: program.options.readFolder } : {}),
    rangeOf: (loc: { file: string; line: number; column: number } | undefined) => ranges.rangeOfLocation(loc, program.file),
  };
  const once = (o: RunOptions) => runClangProgram({ ...(compiled.wasm ? { wasm: compiled.wasm } : {}), device: compiled.device }, { ...options, ...o });
  return printRun(runOnceOrMany(once, args.schedules, options), args.file || program.file, args.preset, io);
}

/**
 * `scord check` (and the first half of `scord fix`): runs the program with the ScoRD detector
 * attached. The report says it could not be analysed for errors in the program or its launch
 * header, unsupported constructs and a launch refused up front, with the reasons.
 */
function analyse(args: Args, text: string, common: ParseOptions): CheckReport {
  const launch = readLaunchHeader(args.file, text, args.defines, args.undefines);
  if (launch.problems.length) return notAnalysed(args, launch.problems);
  const parsed = parse(text, { ...common, defines: launch.defines });
  const report = checkParsedEntry(parsed, { ...checkOptionsOf(args, args.file, text), parsed }, launch.header, args.entry);
  if ('usage' in report) throw new UsageError(report.usage);
  return report;
}

/** `analyse` with the auto front end's fallback: what the built-in front end cannot run goes to clang. */
async function analyseAny(args: Args, text: string, common: ParseOptions): Promise<CheckReport> {
  const report = analyse(args, text, common);
  if (args.frontend === 'builtin') return report;
  return withClangsPart(report, () => checkThroughClang(args));
}

/** Re-runs a fix proof may make at most, in all and per finding (each is a whole check). */
const FIX_PROOF_BUDGET = { runs: 64, perFinding: 4 };

/**
 * `scord fix`: applies the preferred fix of every finding to the file (and to headers of the
 * program's own that a fix edits), like `eslint --fix`, then checks the result again. A fix is
 * preferred only once a re-run has shown that it removes its race and adds nothing: the
 * candidates are tried best first. `--dry-run` prints the change as a unified diff instead.
 * Exit 0: nothing is left to report; 1: findings remain; 2: not analysed.
 */
async function fixCommand(args: Args, read: { bytes: Uint8Array; text: string }, common: ParseOptions, io: Output): Promise<number> {
  const text = read.text;
  const report = await analyseAny(args, text, common);
  if (!report.analysed) return printCheck(report, { ...args, format: 'text' }, io);
  const headers = new Map<string, { bytes: Uint8Array; text: string }>();
  const header = (file: string) => {
    if (!headers.has(file)) {
      const r = readMainFile(file);
      if (!('reason' in r)) headers.set(file, r);
    }
    return headers.get(file)?.text;
  };
  const rerun = (edits: TextEdit[]): Promise<CheckReport> => {
    const byFile = editsByFile(edits);
    const overlay = new Map([...byFile].filter(([f]) => f !== args.file).map(([f, list]) => [f, applyEdits(header(f) ?? '', list)]));
    const readFile = (p: string) => overlay.get(p) ?? common.readFile!(p);
    return analyseAny(args, applyEdits(text, byFile.get(args.file) ?? []), { ...common, readFile });
  };
  const proven = await proveFixes(report, rerun, FIX_PROOF_BUDGET);
  report.findings.forEach((f, i) => f.fixes.forEach((x, j) => (x.preferred = proven[i][j])));
  const result = applyPreferredFixes(text, args.file, report.findings.map((f) => f.fixes), header);
  const unfixed = report.findings.length - result.applied.length;
  if (args.dryRun) {
    if (result.text !== text) io.stdout(createTwoFilesPatch(args.file, args.file, text, result.text, 'before', 'after scord fix'));
    for (const [f, t] of result.others) io.stdout(createTwoFilesPatch(f, f, header(f)!, t, 'before', 'after scord fix'));
    io.stderr(`scord: ${result.applied.length} fix${result.applied.length === 1 ? '' : 'es'} would be applied to ${args.file}; ${unfixed} finding${unfixed === 1 ? '' : 's'} without one\n`);
    return report.findings.length > 0 ? 1 : 0;
  }
  // Headers first, the checked file last: a failure leaves the file as it was, to run again.
  const writes: [string, Uint8Array, string][] = [...[...result.others].map(([f, t]): [string, Uint8Array, string] => [f, headers.get(f)!.bytes, t])];
  if (result.text !== text) writes.push([args.file, read.bytes, result.text]);
  for (const [file, bytes, newText] of writes) {
    const written = replaceIfUnchanged(file, bytes, newText);
    if (!written.ok) {
      io.stderr(`scord: ${file} ${written.changed ? 'changed since it was read; run again' : `was not fixed: ${written.reason}`}\n`);
      return 2;
    }
  }
  for (const f of result.applied) io.stdout(`${f.edits[0]?.range.file ?? args.file}: fixed: ${f.title}\n`);
  // What is left after the edits, as `check` would print it (headers as written now).
  const after = await analyseAny(args, result.text, { ...common, readFile: (p: string) => result.others.get(p) ?? common.readFile!(p) });
  io.stdout(`${result.applied.length} fix${result.applied.length === 1 ? '' : 'es'} applied to ${args.file}; `);
  return printCheck(after, { ...args, format: 'text' }, io);
}

/** The header's -D definitions, less those the command line defines or undefines itself. */
/** A report for a file that was not run: only the reasons why. */
function notAnalysed(args: Args, diagnostics: CheckDiagnostic[]): CheckReport {
  return notAnalysedReport(checkOptionsOf(args, args.file, ''), diagnostics);
}

/** Prints a check report in the chosen format; returns the exit status. */
function printCheck(report: CheckReport, args: Args, io: Output): number {
  // Benign same-value races alone (information) do not fail a check.
  const status = !report.analysed ? 2 : report.findings.some((f) => f.severity !== 'information') ? 1 : 0;
  if (args.format === 'json') {
    io.stdout(JSON.stringify(publicReport(report), null, 2) + '\n');
  } else if (args.format === 'sarif') {
    io.stdout(JSON.stringify(toSarif(report, { exitCode: status }), null, 2) + '\n');
  } else {
    // Errors say why the file was not analysed; information says what the run left out (a
    // sampled grid). The front end's warnings are for the editor.
    for (const d of report.diagnostics) {
      if (d.severity === 'warning') continue;
      const l = d.location;
      io.stdout(escapeControls(`${l ? `${l.file}:${l.line}:${l.column}` : args.file}: ${d.severity === 'error' ? 'error' : 'info'}: ${d.message} [scord/${d.code ?? 'error'}]\n`));
    }
    for (const f of report.findings) {
      const l = f.location;
      io.stdout(escapeControls(`${l.file}:${l.line}:${l.column}: ${f.severity}: ${f.message} [scord/${f.category}]\n`));
      for (const r of f.related) io.stdout(escapeControls(`${r.location.file}:${r.location.line}:${r.location.column}: note: ${r.message}\n`));
      if (f.note) io.stdout(escapeControls(`${l.file}:${l.line}:${l.column}: note: ${f.note}\n`));
      if (f.observed) io.stdout(escapeControls(`${l.file}:${l.line}:${l.column}: note: ${f.observed}\n`));
    }
    const repeated = report.stats.repeatedLaunches ? ` (${report.stats.launches} launches; ${report.stats.repeatedLaunches} repeated an earlier one and were not simulated again)` : '';
    const lockstep = report.stats.warps === 'lockstep' && !args.model ? ' (warps in lockstep, as before sm_70)' : '';
    // A self-checking program that failed its check says so: its status is not a finding.
    const exited = report.stats.exitCode ? ` (the program exited with status ${report.stats.exitCode})` : '';
    if (report.analysed) io.stdout(`${report.findings.length} finding${report.findings.length === 1 ? '' : 's'} in ${args.file}${repeated}${lockstep}${exited}\n`);
    else {
      const errors = report.diagnostics.filter((d) => d.severity === 'error').length;
      io.stdout(`${args.file} was not analysed: ${errors} error${errors === 1 ? '' : 's'}\n`);
    }
  }
  return status;
}

/**
 * `scord run`: the program's own output, then the findings. Exit 1 if anything was found.
 * 'not-run' (only with the auto front end): the built-in front end cannot run it; clang will.
 */
function runCommand(result: ParseResult, args: Args, io: Output): number | 'not-run' {
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length && args.frontend === 'auto') return 'not-run';
  if (errors.length) {
    for (const d of errors) io.stderr(escapeControls(formatDiagnostic(d) + '\n'));
    io.stderr(`scord: ${args.file} has errors; it cannot run\n`);
    return 1;
  }
  const options = runOptionsOf(args);
  const once = (o: RunOptions) => runProgram(result, o);
  // --schedules N: N seeded random interleavings; the output shown is the first run's.
  const run = runOnceOrMany(once, args.schedules, options);
  if (args.frontend === 'auto' && run.findings.some((f) => f.kind === 'not-supported')) return 'not-run';
  return printRun(run, args.file, args.preset, io);
}

/**
 * What `run` passes to a run from the command line, on either front end; `arch`, the
 * architecture the program is built for, schedules its warps unless --scheduling says.
 */
function runOptionsOf(args: Args, arch = args.arch): RunOptions {
  const model = args.model ?? (arch ? warpSchedulingOf(arch) : undefined);
  return {
    device: args.preset,
    programName: programNameOf(args.file || 'a.out'),
    ...(args.scheduler ? { scheduler: args.scheduler } : {}),
    ...(model ? { model } : {}),
    ...(args.seed !== undefined ? { seed: args.seed } : {}),
    stepBudget: args.maxSteps ?? CLI_STEP_BUDGET,
    ...(args.fairness ? { launchCheck: fairnessLaunchCheck(args.fairness) } : {}),
    ...(args.interpret ? { execution: 'interpreted' as const } : {}),
    deviceMemoryLimit: args.memoryLimit,
    ...(args.initCheck ? { initCheck: true } : {}),
  };
}

/** One run, or with `schedules` > 1 that many seeded random interleavings: the first run's output with every run's findings. */
function runOnceOrMany(once: (o: RunOptions) => RunResult, schedules: number | undefined, options: RunOptions): RunResult {
  if (!schedules || schedules <= 1) return once(options);
  const many = runSchedules(once, schedules, options);
  return { ...many.runs[0], findings: many.findings };
}

/** Prints a run as `run` does: the program's output, then the findings; returns the exit status. */
function printRun(run: RunResult, file: string, preset: string, io: Output): number {
  io.stdout(run.stdout);
  io.stderr(run.stderr);
  const where = (f: RunFinding): string => (f.range ? `${formatLocation(f.range)}: ` : `${file}: `);
  const who = (f: RunFinding): string => (f.block ? ` [block (${f.block.join(', ')}), thread (${f.thread?.join(', ')})]` : '');
  for (const f of run.findings) io.stderr(escapeControls(`${where(f)}${f.severity}: ${f.kind}: ${f.message}${who(f)}\n`));
  // `run` reports what went wrong at run time (faults, errors, hangs); races are `check`'s.
  const errors = run.findings.length ? `${run.findings.length} run-time finding${run.findings.length === 1 ? '' : 's'}` : 'no run-time errors';
  io.stderr(`scord: ${file} exited with status ${run.exitCode} after ${run.launches} launch${run.launches === 1 ? '' : 'es'}${run.repeatedLaunches ? ` (${run.repeatedLaunches} repeating an earlier one, not simulated again)` : ''} and ${run.steps} thread-steps on ${preset}; ${errors} (races are checked by scord check)\n`);
  return run.findings.some((f) => f.severity === 'error') ? 1 : 0;
}

/**
 * `scord litmus`: the histogram of a small program's final outcomes under a memory model.
 * Exit 0 when it ran, 2 when it could not (errors in the program, unsupported code).
 */
function litmusCommand(args: Args, text: string, common: ParseOptions, io: Output): number {
  if (args.format === 'sarif') throw new UsageError('litmus prints text or json');
  const model = args.memoryModel ?? 'gpu-weak';
  const report = runLitmus(parse(text, common), {
    model,
    ...(args.runs !== undefined ? { runs: args.runs } : {}),
    exhaustive: args.exhaustive,
    ...(args.maxExecutions !== undefined ? { maxExecutions: args.maxExecutions } : {}),
    ...(args.seed !== undefined ? { seed: args.seed } : {}),
    ...(args.observe ? { observe: args.observe } : {}),
    switches: args.switches,
    declared: declaredOutcomes(text),
  });
  if (report.errors.length) {
    for (const e of report.errors) io.stderr(escapeControls(`${e.range ? formatLocation(e.range) : args.file}: error: ${e.message}\n`));
    io.stderr(`scord: ${args.file} cannot run as a litmus test\n`);
    return 2;
  }
  if (args.format === 'json') {
    const json = { model: report.model, runs: report.runs, outcomes: report.outcomes.map((o) => ({ outcome: o.outcome, count: o.count, allowed: o.allowed })) };
    io.stdout(JSON.stringify(json, null, 2) + '\n');
    return 0;
  }
  io.stdout(litmusText(report, args.file));
  return 0;
}

/** The histogram as text: one bar per outcome, then one witness execution per outcome. */
export function litmusText(report: LitmusReport, file: string): string {
  const how = report.exhaustive ? `every execution (${report.runs} complete${report.complete ? '' : `; stopped after ${report.executions} — not every execution was explored`})` : `${report.runs} random runs`;
  let out = `${file}: ${how} under ${report.model}\n`;
  const width = Math.max(...report.outcomes.map((o) => o.outcome.length), 7);
  const most = Math.max(1, ...report.outcomes.map((o) => o.count));
  for (const o of report.outcomes) {
    const bar = '█'.repeat(Math.round((o.count / most) * 30));
    const verdict = o.allowed ? 'allowed' : report.exhaustive && report.complete ? 'forbidden' : 'not observed';
    out += `  ${o.outcome.padEnd(width)}  ${String(o.count).padStart(6)}  ${bar.padEnd(30)}  ${verdict}${o.declared ? '  (named in the file)' : ''}\n`;
  }
  for (const o of report.outcomes) {
    if (!o.witness.length) continue;
    out += `\nhow "${o.outcome}" happens:\n`;
    for (const s of o.witness) out += `  ${s.range ? `line ${String(s.range.start.line + 1).padEnd(4)} ` : '          '}${s.actor}: ${s.action}\n`;
  }
  return out;
}

/** Where the command's output goes: the process's streams, or a test's strings. */
export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
}

const PROCESS_OUTPUT: Output = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

/** The version in the package.json beside this module's folder (sims/ from source, dist/ when built). */
function version(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Runs `scord ARGV…` and returns its exit status; never throws. */
export async function scord(argv: string[], io: Output = PROCESS_OUTPUT): Promise<number> {
  // Asked for, help and the version are answers on stdout, not usage errors (the program's own
  // arguments, after `--`, are the program's).
  const own = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  if (own[0] === '--version' || own[0] === '-V') {
    io.stdout(`scord ${version()}\n`);
    return 0;
  }
  if (own.includes('--help') || own.includes('-h')) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  try {
    return await main(argv, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`scord: ${e.message}\n`);
    } else {
      // An engine bug must still not show a stack trace to the user; say what failed.
      io.stderr(`scord: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    }
    return 2;
  }
}

if (require.main === module) {
  if (isPoolWorker()) servePool(scheduleOfCommandLine);
  else runOnLargeStack(__filename, process.argv.slice(2), (argv) => scord(argv));
}
