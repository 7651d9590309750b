// One check of a program on the clang path: every translation unit through clang's device pass
// (NVVM IR, read and lowered into the simulator) and host pass (linked into a WebAssembly
// program that runs main), then the same detectors, schedules, merging and fixes as the
// hand-written path (sims/check.ts checkRun). The hand-written front end still reads the checked
// file, but only for what it is best at: the syntax index that fixes edit. Its diagnostics do
// not count here — clang's do.
import { checkRun, checkSource, initialStats, location, type CheckDiagnostic, type CheckOptions, type CheckReport } from '../check';
import { parse } from '../frontend/index';
import { DIAGNOSTIC_CODES, isKnownCode } from '../frontend/codes';
import type { Range } from '../frontend/source';
import { compileDevice, compileHost, linkHost, type ClangDiagnostic, type TranslationUnitSpec } from './toolchain';
import { parseLlvmModule, LlvmParseError } from './llvm/parse';
import type { LModule } from './llvm/module';
import { programArch } from './program';
import { SourceRanges } from './ranges';
import { refusedFeature } from './refusals';
import { chooseClangEntry, clangIntegerParams } from './entry';
import type { EntryRequest } from '../host/entry';
import { headerLockstep, type KernelHeader } from '../host/kernelHeader';
import { runClangProgram } from './host/runProgram';
import { programNameOf } from '../host/run';

/** The program a check runs: its translation units (the checked file among them) and how it runs. */
export interface ClangProgramOptions {
  units: TranslationUnitSpec[];
  /** The program's argv after its name. */
  argv?: string[];
  /** Bytes the program reads from standard input. */
  stdin?: Uint8Array;
  /** A folder the program may read files from (never write); absent: it reads no file of the disk. */
  readFolder?: string;
  /**
   * How to launch a kernel directly: what the command line asked for and the file's header.
   * Used when the program has no main, or when the request names a kernel or a shape.
   */
  launch?: { request: EntryRequest; header: KernelHeader };
}

/** What clang made of a program, ready to run any number of times. */
export interface CompiledProgram {
  /** The linked host program; absent for kernel-only sources (no main). */
  wasm?: Uint8Array;
  device: LModule[];
  diagnostics: ClangDiagnostic[];
}

/**
 * Compiles every unit in both passes and links the host objects. Errors stop it (the result has
 * them); a program without `main` has no host program and runs kernels directly.
 */
export async function compileProgram(units: TranslationUnitSpec[], options: { kernelOnly?: boolean } = {}): Promise<CompiledProgram | { failed: ClangDiagnostic[] }> {
  const diagnostics: ClangDiagnostic[] = [];
  const device: LModule[] = [];
  const objects: { object: Uint8Array; file: string }[] = [];
  for (const unit of units) {
    // The two passes side by side (toolchain lanes: on a second core, at the same time). The
    // host pass is awaited below, unless the device pass stops the unit first.
    const host = compileHost(unit);
    host.catch(() => undefined);
    const d = await compileDevice(unit);
    diagnostics.push(...d.diagnostics);
    if (!d.ok) return { failed: diagnostics };
    try {
      device.push(parseLlvmModule(d.ll, unit.file));
    } catch (e) {
      if (!(e instanceof LlvmParseError)) throw e;
      return { failed: [...diagnostics, { severity: 'error', message: `internal: the device code of this file could not be read back (${e.message})`, file: unit.file, line: 1, column: 1, unlocated: true }] };
    }
    const h = await host;
    if (!h.ok && options.kernelOnly && units.length === 1) {
      // A kernel-only file (its launch header says so) is device code to its authors, as
      // GPUVerify reads it: its host side never runs, so what stops the host pass does not stop
      // the run; clang's complaint is kept as a warning.
      const ignored = h.diagnostics.filter((x) => x.severity === 'error').map((x): ClangDiagnostic => ({ ...x, severity: 'warning', message: `${x.message} (host pass; ignored for a kernel-only file, whose host code never runs)` }));
      return { device, diagnostics: [...diagnostics, ...ignored] };
    }
    diagnostics.push(...h.diagnostics.filter((x) => !diagnostics.some((y) => sameDiagnostic(x, y))));
    if (!h.ok) return { failed: diagnostics };
    objects.push({ object: h.object, file: unit.file });
  }
  // A unit that uses a device variable another unit defines (`extern __constant__ float k[4];`)
  // needs relocatable device code, as nvcc -rdc=true builds it: compiled without, each unit's
  // host side registers its own copy and the kernels read another.
  if (units.length > 1 && !units.every((u) => u.relocatable) && sharesDeviceVariables(device)) return compileProgram(units.map((u) => ({ ...u, relocatable: true })), options);
  const linked = await linkHost(objects);
  if (!linked.ok) return { failed: [...diagnostics, ...linked.diagnostics] };
  // Without a main the link still succeeds (the start code calls a weak undefined main): a
  // kernel-only program (GPUVerify-style files), run from its launch header.
  return linked.mainFile !== undefined ? { wasm: linked.wasm, device, diagnostics: [...diagnostics, ...linked.diagnostics] } : { device, diagnostics };
}

/** Whether a module declares a device variable (global or constant memory) that another module defines. */
function sharesDeviceVariables(modules: readonly LModule[]): boolean {
  const defined = new Set<string>();
  for (const m of modules) for (const g of m.globals) if (g.init !== undefined && (g.addrspace === 1 || g.addrspace === 4)) defined.add(g.name);
  return modules.some((m) => m.globals.some((g) => g.init === undefined && (g.addrspace === 1 || g.addrspace === 4) && defined.has(g.name)));
}

/** A launch header with a shape marks a kernel-only file (GPUVerify's layout). */
export function isKernelOnly(program: ClangProgramOptions): boolean {
  const header = program.launch?.header;
  return !!(header?.grid && header.block);
}

function sameDiagnostic(a: ClangDiagnostic, b: ClangDiagnostic): boolean {
  return a.file === b.file && a.line === b.line && a.column === b.column && a.message === b.message;
}

/** A clang message as the report carries it: located at the whole token clang points at. */
export function clangDiagnostic(d: ClangDiagnostic, ranges: SourceRanges): CheckDiagnostic {
  const start = ranges.rangeAt(d.file, d.line, d.column);
  const range: Range = d.endLine !== undefined && d.endColumn !== undefined && (d.endLine > d.line || d.endColumn > d.column)
    ? { file: d.file, start: start.start, end: ranges.rangeAt(d.file, d.endLine, Math.max(1, d.endColumn - 1)).end }
    : start;
  const where = d.includedFrom?.length ? ` (included from ${d.includedFrom.map((i) => `${i.file}:${i.line}`).join(', ')})` : '';
  const feature = refusedFeature(d);
  if (feature) return { severity: 'error', code: 'not-supported', message: `not supported: ${feature}; clang: ${d.message}${where}`, location: location(range), range };
  return { severity: d.severity === 'error' ? 'error' : d.severity === 'warning' ? 'warning' : 'information', code: 'clang', message: `${d.message}${d.flag ? ` [${d.flag}]` : ''}${where}`, location: location(range), range };
}

/**
 * Checks `options.fileName` as part of the program `program.units`. `entry` (a kernel run
 * directly) applies when the program has no main, or when asked.
 */
export async function checkWithClang(options: CheckOptions, program: ClangProgramOptions): Promise<CheckReport> {
  const readText = (p: string): string | undefined => {
    if (p === options.fileName) return options.text;
    const unit = program.units.find((u) => u.file === p);
    if (unit?.text !== undefined) return unit.text;
    const read = options.readFile?.(p);
    return typeof read === 'string' ? read : undefined;
  };
  const ranges = new SourceRanges(readText);
  const compiled = await compileProgram(program.units, { kernelOnly: isKernelOnly(program) });
  if ('failed' in compiled) {
    const diagnostics = compiled.failed.filter((d) => d.severity !== 'note').map((d) => clangDiagnostic(d, ranges));
    return { file: options.fileName, analysed: false, findings: [], diagnostics, output: '', stats: initialStats(options) };
  }
  const diagnostics = compiled.diagnostics.filter((d) => d.severity === 'warning').map((d) => clangDiagnostic(d, ranges));
  const launch = program.launch;
  const explicit = launch && (launch.request.kernel !== undefined || launch.request.grid !== undefined || launch.request.block !== undefined);
  // The kernel a kernel-only program runs: the caller's, or the one its header launches (it
  // travels in `options`, so that the run with unset scalars at 1 can replace it).
  if (!options.entry && (!compiled.wasm || explicit)) {
    const choice = launch ? chooseClangEntry(compiled.device, launch.request, launch.header) : { kind: 'problem' as const, message: 'the program has no main function to run; give a kernel launch (a header line such as //--blockDim=64 --gridDim=2, or --kernel/--grid/--block)' };
    if (choice.kind === 'problem' || choice.kind === 'usage') {
      const at = choice.kind === 'problem' && choice.range ? choice.range : ranges.rangeAt(options.fileName, 1, 1);
      diagnostics.push({ severity: 'error', code: 'launch', message: choice.message, location: location(at), range: at });
      return { file: options.fileName, analysed: false, findings: [], diagnostics, output: '', stats: initialStats(options) };
    }
    if (choice.kind === 'entry') options = { ...options, entry: choice.entry, exploreUnsetScalars: clangIntegerParams(compiled.device, choice.entry.kernel) };
    // A header's --warp-sync=N: the kernel is written for lockstep warps.
    if (choice.kind === 'entry' && launch && headerLockstep(launch.header)) options = { ...options, warpSync: true };
  }
  // The syntax index of the checked file, for fixes; its own complaints are clang's to make.
  const parsed = options.parsed ?? parse(options.text, { fileName: options.fileName, defines: options.defines ?? [], undefines: options.undefines ?? [], includePaths: options.includePaths ?? [], ...(options.readFile ? { readFile: options.readFile } : {}) });
  // The architecture the program's units are built for schedules its warps (before sm_70, in lockstep).
  const arch = options.arch ?? programArch(program.units);
  return checkRun(
    (run) =>
      runClangProgram(
        { ...(compiled.wasm ? { wasm: compiled.wasm } : {}), device: compiled.device },
        { ...run, sourceText: readText, programName: programNameOf(options.fileName), rangeOf: (loc) => ranges.rangeOfLocation(loc, options.fileName), ...(program.argv ? { argv: program.argv } : {}), ...(program.stdin ? { stdin: program.stdin } : {}), ...(program.readFolder ? { readFolder: program.readFolder } : {}) },
      ),
    parsed,
    arch !== undefined ? { ...options, arch } : options,
    diagnostics,
  );
}

/**
 * Which execution path a check takes. `auto`: the hand-written front end when it reads and
 * runs the file (instant, and exact on its subset), clang for everything else — a program of
 * several files, one that reads stdin, or constructs the hand-written front end does not know.
 */
export type Frontend = 'auto' | 'builtin' | 'clang';
export const FRONTENDS: readonly Frontend[] = ['auto', 'builtin', 'clang'];

/** Problems with the launch itself, which clang would meet the same way. */
const LAUNCH_PROBLEMS: ReadonlySet<string | undefined> = new Set(['launch', 'launch-header', 'no-main', 'no-kernel']);

/**
 * What the hand-written path's report leaves to clang. `keep`: nothing (it ran the file, or
 * could not for its launch, which clang would meet the same way). `clang`: the file (constructs
 * it does not know, names its headers do not declare, headers it does not have are clang's to
 * judge). `clang-if-it-runs`: its syntax errors are a half-typed line, which clang rejects too,
 * or C++ the hand-written parser does not know (`for (int x : a)`, structured bindings,
 * `decltype`): clang's report if clang runs the file, else this one, which came at once.
 */
export function clangsPart(report: CheckReport): 'keep' | 'clang' | 'clang-if-it-runs' {
  if (report.analysed) return 'keep';
  const errors = report.diagnostics.filter((d) => d.severity === 'error');
  if (errors.some((d) => LAUNCH_PROBLEMS.has(d.code))) return 'keep';
  // A syntax error after a construct the hand-written parser does not know is usually its
  // cascade (the parser resynchronised somewhere clang would not).
  if (report.diagnostics.some((d) => d.code === 'not-supported' || d.code === 'unknown-system-header')) return 'clang';
  return errors.some((d) => d.code !== undefined && isKnownCode(d.code) && SYNTAX_STAGES.has(DIAGNOSTIC_CODES[d.code].stage)) ? 'clang-if-it-runs' : 'clang';
}

/** The report of the auto front end from the hand-written path's `builtin`: it, or clang's where clangsPart says so. */
export async function withClangsPart(builtin: CheckReport, clang: () => Promise<CheckReport>): Promise<CheckReport> {
  const part = clangsPart(builtin);
  if (part === 'keep') return builtin;
  const report = await clang();
  return part === 'clang' || report.analysed ? report : builtin;
}

const SYNTAX_STAGES: ReadonlySet<string> = new Set(['lexer', 'parser']);

/**
 * The report to show when both paths tried: clang's when it ran the program, or when the
 * hand-written front end only refused constructs it does not know; otherwise the hand-written
 * front end's own errors, which both compilers reject.
 */
export function eitherReport(builtin: CheckReport, clang: CheckReport): CheckReport {
  if (clang.analysed) return clang;
  return builtin.diagnostics.some((d) => d.severity === 'error' && d.code !== 'not-supported') ? builtin : clang;
}

/**
 * A check of `options.fileName` by the path `frontend` chooses. `program.units` lists every
 * translation unit of its program (the checked file among them, with the checked text).
 */
export async function checkProgram(given: CheckOptions, program: ClangProgramOptions, frontend: Frontend = 'auto'): Promise<CheckReport> {
  const arch = given.arch ?? programArch(program.units);
  const options = arch !== undefined ? { ...given, arch } : given;
  if (frontend === 'clang') return checkWithClang(options, program);
  const alone = program.units.length <= 1 && !program.stdin && !program.argv?.length;
  if (frontend === 'builtin') return checkSource(options);
  if (!alone) return checkWithClang(options, program);
  return withClangsPart(checkSource(options), () => checkWithClang(options, program));
}

