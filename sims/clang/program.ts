// The program a file belongs to: its translation units and the flags of each.
//
// A program is made of
//   - the files named on the command line (`scord check a.cu b.cu -D X=1 -I dir`), all with
//     the same flags;
//   - or a compilation database (compile_commands.json, found in the file's folder or a parent,
//     or in a `build/` folder beside one, as clangd looks; or given): the file's program is
//     every source entry of the same link target, with each entry's own flags. Entries
//     belong to the same target when their outputs sit in the same CMake target folder
//     (`CMakeFiles/<target>.dir/`), otherwise when their outputs are in the same folder; a
//     database whose entries name no output is one program. (The database records compiles,
//     not links, so a library target linked into an executable is a program of its own.)
//   - or a list of files (the `scord.program.sources` setting), with the settings' flags;
//   - otherwise the file alone.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseCompileCommands, unitOfEntry, type CompileEntry, type LocatedProblem } from './compileCommands';
import { readBounded, specialPath } from './toolchain/sources';
import type { TranslationUnitSpec } from './toolchain/unit';

export type { LocatedProblem } from './compileCommands';

export interface ProgramSpec {
  units: TranslationUnitSpec[];
}

/** A program and what kept parts of it out (unreadable files, a bad database). */
export interface ProgramResult {
  program: ProgramSpec;
  errors: LocatedProblem[];
  /** Where the program came from. */
  origin: 'files' | 'compile-commands' | 'sources-setting' | 'alone';
  /** The compilation database used, when one was. */
  compileCommands?: string;
}

/** Flags shared by every unit of a program built from a list of files. */
export interface CommonFlags {
  defines?: string[];
  undefines?: string[];
  /** Relative folders are taken from `base` (or the working folder). */
  includeDirs?: string[];
  includes?: string[];
  std?: string;
}

/** Unsaved editor text: the file's text, or undefined to read it from disk. */
export type Overlay = (file: string) => string | undefined;

const SOURCE_EXTENSIONS = new Set(['.cu', '.cpp', '.cc', '.cxx', '.c++', '.c']);
/** The largest compilation database read. */
const MAX_DATABASE_BYTES = 32 * 1024 * 1024;

/**
 * The architecture a program is built for: the newest its units name (a program whose units
 * disagree runs, on the newest GPU it targets, as that one runs it), or undefined.
 */
export function programArch(units: readonly TranslationUnitSpec[]): number | undefined {
  const archs = units.map((u) => u.arch).filter((a): a is number => a !== undefined);
  return archs.length ? Math.max(...archs) : undefined;
}

/** A program of the given files, each compiled with the same flags; `base` resolves relative paths. */
export function programFromFiles(files: string[], flags: CommonFlags = {}, options: { base?: string; overlay?: Overlay; origin?: ProgramResult['origin'] } = {}): ProgramResult {
  const base = options.base ?? process.cwd();
  const errors: LocatedProblem[] = [];
  const units: TranslationUnitSpec[] = [];
  const seen = new Set<string>();
  for (const f of files) {
    const file = path.resolve(base, f);
    if (seen.has(file)) continue;
    seen.add(file);
    const text = options.overlay?.(file);
    const problem = text === undefined ? unreadable(file) : undefined;
    if (problem) {
      errors.push({ message: `cannot read ${file}: ${problem}`, file, line: 1, column: 1 });
      continue;
    }
    units.push({
      file,
      ...(text !== undefined ? { text } : {}),
      defines: [...(flags.defines ?? [])],
      includeDirs: (flags.includeDirs ?? []).map((d) => path.resolve(base, d)),
      ...(flags.undefines?.length ? { undefines: [...flags.undefines] } : {}),
      ...(flags.includes?.length ? { includes: flags.includes.map((i) => path.resolve(base, i)) } : {}),
      ...(flags.std ? { std: flags.std } : {}),
      ...(options.overlay ? { readFile: options.overlay } : {}),
    });
  }
  return { program: { units }, errors, origin: options.origin ?? 'files' };
}

/**
 * The `scord.program.sources` setting: a list of files (relative ones from `base`, the
 * workspace folder) that make one program, with the settings' flags. The file being analysed
 * is added when the list leaves it out.
 */
export function programFromSourcesSetting(sources: string[], base: string, flags: CommonFlags = {}, options: { file?: string; overlay?: Overlay } = {}): ProgramResult {
  const files = sources.map((s) => path.resolve(base, s));
  if (options.file && !files.includes(path.resolve(options.file))) files.unshift(path.resolve(options.file));
  return programFromFiles(files, flags, { base, origin: 'sources-setting', ...(options.overlay ? { overlay: options.overlay } : {}) });
}

/** A compilation database read from disk: its entries, or located problems. */
export function readCompileCommands(jsonFile: string): { entries: CompileEntry[]; errors: LocatedProblem[] } {
  const file = path.resolve(jsonFile);
  const special = specialPath(file);
  const read = special ? { reason: special } : readBounded(file, MAX_DATABASE_BYTES);
  if (!(read instanceof Uint8Array)) return { entries: [], errors: [{ message: `cannot read ${file}: ${read.reason}`, file, line: 1, column: 1 }] };
  return parseCompileCommands(new TextDecoder().decode(read), file);
}

/** The compilation database nearest to a file: its folder or a parent, or their `build/` folders. */
export function findCompileCommands(file: string): string | undefined {
  let dir = path.dirname(path.resolve(file));
  for (;;) {
    for (const candidate of [path.join(dir, 'compile_commands.json'), path.join(dir, 'build', 'compile_commands.json')]) {
      const st = fs.statSync(candidate, { throwIfNoEntry: false });
      if (st?.isFile()) return candidate;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Which link target an entry's output belongs to (see the rule at the top of this file). */
export function targetOf(entry: CompileEntry): string {
  if (!entry.output) return '';
  const parts = entry.output.split(/[\\/]/);
  const at = parts.findIndex((p, i) => p === 'CMakeFiles' && /\.dir$/.test(parts[i + 1] ?? ''));
  if (at >= 0) return `cmake:${parts.slice(0, at + 2).join('/')}`;
  return `folder:${path.dirname(entry.output)}`;
}

/**
 * The program of the entries in a database that share `file`'s target (or, with no file, of
 * all source entries when they form one target). Undefined when the file has no entry.
 */
export function programFromCompileCommands(jsonFile: string, file?: string, options: { overlay?: Overlay } = {}): ProgramResult | undefined {
  const database = path.resolve(jsonFile);
  const { entries, errors } = readCompileCommands(database);
  const sources = entries.filter((e) => SOURCE_EXTENSIONS.has(path.extname(e.file).toLowerCase()) || unitOfEntry(e).language !== undefined);
  let chosen: CompileEntry[];
  if (file) {
    const target = path.resolve(file);
    const own = sources.find((e) => e.file === target);
    if (!own) return errors.length ? { program: { units: [] }, errors, origin: 'compile-commands', compileCommands: database } : undefined;
    const group = targetOf(own);
    chosen = sources.filter((e) => targetOf(e) === group);
  } else {
    const groups = new Set(sources.map(targetOf));
    if (groups.size > 1) {
      errors.push({ message: `the database has ${groups.size} link targets (${[...groups].map(describeTarget).join(', ')}); name a file of the one to check`, file: database, line: 1, column: 1 });
      return { program: { units: [] }, errors, origin: 'compile-commands', compileCommands: database };
    }
    chosen = sources;
  }
  const units: TranslationUnitSpec[] = [];
  const seen = new Set<string>();
  for (const e of chosen) {
    if (seen.has(e.file)) continue;
    seen.add(e.file);
    const text = options.overlay?.(e.file);
    const problem = text === undefined ? unreadable(e.file) : undefined;
    if (problem) {
      errors.push({ message: `cannot read ${e.file}: ${problem}`, file: database, line: e.line, column: e.column });
      continue;
    }
    units.push({ ...unitOfEntry(e), ...(text !== undefined ? { text } : {}), ...(options.overlay ? { readFile: options.overlay } : {}) });
  }
  return { program: { units }, errors, origin: 'compile-commands', compileCommands: database };
}

/**
 * The program a file is analysed in: its compilation database's target when the database
 * (given, or the nearest one) lists it, else the `scord.program.sources` list when it has one,
 * else the file alone with the settings' flags.
 */
export function programForFile(
  file: string,
  options: { compileCommands?: string; sources?: string[]; base?: string; flags?: CommonFlags; overlay?: Overlay } = {},
): ProgramResult {
  const absolute = path.resolve(file);
  const database = options.compileCommands ?? findCompileCommands(absolute);
  if (database) {
    const fromDatabase = programFromCompileCommands(database, absolute, options.overlay ? { overlay: options.overlay } : {});
    if (fromDatabase) return fromDatabase;
  }
  const base = options.base ?? path.dirname(absolute);
  if (options.sources?.length) return programFromSourcesSetting(options.sources, base, options.flags, { file: absolute, ...(options.overlay ? { overlay: options.overlay } : {}) });
  const alone = programFromFiles([absolute], options.flags, { base: path.dirname(absolute), origin: 'alone', ...(options.overlay ? { overlay: options.overlay } : {}) });
  return alone;
}

function describeTarget(group: string): string {
  if (group === '') return 'entries without an output';
  if (group.startsWith('cmake:')) return path.basename(group).replace(/\.dir$/, '');
  return group.slice('folder:'.length);
}

/** Why a source file cannot be part of a program, or undefined when it can be read. */
function unreadable(file: string): string | undefined {
  const special = specialPath(file);
  if (special) return special;
  const st = fs.statSync(file, { throwIfNoEntry: false });
  if (!st) return 'no such file';
  if (!st.isFile()) return st.isDirectory() ? 'it is a folder' : 'it is not a regular file';
  try {
    fs.accessSync(file, fs.constants.R_OK);
  } catch {
    return 'permission denied';
  }
  return undefined;
}
