// The program a document is analysed in, as the analysis worker reads it: the translation
// units of its compile_commands.json target, or of the `scord.program.sources` list, or the
// file alone; with the program's argv and standard input. Open documents' unsaved text is
// used for every unit and every header. Problems (an unreadable file, a bad database, a
// missing stdin file) become located diagnostics instead of stopping the analysis.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { location, type CheckDiagnostic } from '../../sims/check';
import type { ClangProgramOptions } from '../../sims/clang/check';
import { programForFile, type LocatedProblem } from '../../sims/clang/program';
import type { SourceRanges } from '../../sims/clang/ranges';
import type { TranslationUnitSpec } from '../../sims/clang/toolchain';
import { headerDefines, readKernelHeader } from '../../sims/host/kernelHeader';
import type { AnalysisRequest } from './messages';

/** The largest standard input read (ScoR's inputs are a few MB at most). */
const MAX_STDIN_BYTES = 256 * 2 ** 20;

export interface ResolvedProgram {
  options: ClangProgramOptions;
  /** The unit of the checked file (its flags are the ones its text is parsed with). */
  unit: TranslationUnitSpec;
  /** The file is checked on its own: no other unit, no standard input, no arguments. */
  alone: boolean;
  problems: CheckDiagnostic[];
  /** Files the program depends on besides #includes: its units, its database, its stdin. */
  files: string[];
  /** The checked file's flags when its compile_commands.json entry gives them. */
  flags?: UnitFlags;
}

/** The preprocessor flags a file is compiled with. */
export interface UnitFlags {
  defines: string[];
  undefines: string[];
  includeDirs: string[];
}

/**
 * Resolves the request's program. `open` gives the unsaved text of open documents (the
 * checked file's own included), undefined for a file to read from disk.
 */
export function resolveProgram(req: AnalysisRequest, open: (file: string) => string | undefined, ranges: SourceRanges): ResolvedProgram {
  const fileName = req.fileName;
  const spec = req.program;
  const flags = { defines: req.options.defines ?? [], undefines: req.options.undefines ?? [], includeDirs: req.options.includePaths ?? [] };
  const problems: CheckDiagnostic[] = [];
  // In the checked file, where the editor shows it: a problem elsewhere (in the database) says where.
  const located = (p: LocatedProblem, code: string): CheckDiagnostic => {
    const here = p.file === fileName;
    const range = here ? ranges.rangeAt(p.file, p.line, p.column) : ranges.rangeAt(fileName, 1, 0);
    return { severity: 'error', code, message: here ? p.message : `${p.message} (${p.file}:${p.line}:${p.column})`, location: location(range), range };
  };
  // A file that is not on disk (an untitled document) is a program of its own text.
  const onDisk = path.isAbsolute(fileName);
  const database = spec?.compileCommands ? databaseFile(spec.compileCommands) : undefined;
  const result = onDisk
    ? programForFile(fileName, {
        ...(database ? { compileCommands: database } : {}),
        sources: spec?.sources ?? [],
        ...(spec?.base ? { base: spec.base } : {}),
        flags,
        overlay: open,
      })
    : undefined;
  const files: string[] = [];
  if (result?.compileCommands) files.push(result.compileCommands);
  for (const e of result?.errors ?? []) problems.push(located(e, 'program'));
  const units = (result?.program.units ?? []).map((u): TranslationUnitSpec => {
    const text = open(u.file);
    return { ...u, ...(text !== undefined ? { text } : {}), readFile: open };
  });
  let unit = units.find((u) => u.file === fileName);
  if (!unit) {
    // Left out of its program (unreadable on disk, but open): it is checked with the settings' flags.
    unit = { file: fileName, text: req.text, defines: flags.defines, undefines: flags.undefines, includeDirs: flags.includeDirs, readFile: open };
    units.unshift(unit);
  }
  for (const u of units) files.push(u.file);
  // A kernel-only file (GPUVerify's layout) runs one kernel from its header, as `scord check`
  // does: the header's shape and -D lines, the settings' flags winning over its defines.
  const { header, problems: headerProblems } = readKernelHeader(req.text);
  for (const p of headerProblems) problems.push(located({ file: fileName, line: p.line, column: p.column, message: p.message }, 'launch-header'));
  const extra = headerDefines(header, flags.defines, flags.undefines);
  if (extra.length) for (const u of units) u.defines = [...extra, ...u.defines];
  const entry = req.options.entry;
  const options: ClangProgramOptions = {
    units,
    launch: { request: entry ? { kernel: entry.kernel, grid: entry.grid, block: entry.block, args: entry.args } : { args: {} }, header },
  };
  if (spec?.argv.length) options.argv = spec.argv;
  // The program's own folder, read-only, when the user allows it (the folder of the file being checked).
  if (spec?.allowRead && onDisk) options.readFolder = path.dirname(fileName);
  if (spec?.stdinFile) {
    files.push(spec.stdinFile);
    const stdin = readStdin(spec.stdinFile);
    if (stdin instanceof Uint8Array) options.stdin = stdin;
    else problems.push({ severity: 'warning', code: 'program', message: `scord.program.stdin: cannot read ${spec.stdinFile} (${stdin.reason}); the program runs with an empty standard input`, location: location(ranges.rangeAt(fileName, 1, 0)), range: ranges.rangeAt(fileName, 1, 0) });
  }
  const fromDatabase = result?.origin === 'compile-commands' && result.program.units.some((u) => u.file === fileName);
  return {
    options,
    unit,
    alone: units.length <= 1 && !options.stdin && !options.argv?.length,
    problems,
    files,
    ...(fromDatabase ? { flags: { defines: unit.defines, undefines: unit.undefines ?? [], includeDirs: unit.includeDirs } } : {}),
  };
}

/** The program with the checked file's text replaced (a fix being verified). */
export function withText(program: ClangProgramOptions, fileName: string, text: string): ClangProgramOptions {
  return { ...program, units: program.units.map((u) => (u.file === fileName ? { ...u, text } : u)) };
}

/** The setting names the database, or the folder that holds it. */
function databaseFile(setting: string): string {
  try {
    if (fs.statSync(setting).isDirectory()) return path.join(setting, 'compile_commands.json');
  } catch {
    // Missing: the toolchain says so, located.
  }
  return setting;
}

function readStdin(file: string): Uint8Array | { reason: string } {
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) return { reason: 'not a regular file' };
    if (st.size > MAX_STDIN_BYTES) return { reason: `larger than ${MAX_STDIN_BYTES / 2 ** 20} MB` };
    return new Uint8Array(fs.readFileSync(file));
  } catch (e) {
    return { reason: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : e instanceof Error ? e.message : String(e) };
  }
}
