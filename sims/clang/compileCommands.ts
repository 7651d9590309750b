// compile_commands.json (the JSON compilation database CMake and Bear write): its entries,
// and the -D/-U/-I/-std/-include/-x/-arch flags of each, for nvcc, clang and gcc command lines.
import * as path from 'node:path';
import { readBounded } from './toolchain/sources';
import { gpuArchsOf } from './toolchain/flags';
import type { TranslationUnitSpec, UnitLanguage } from './toolchain/unit';

/** One entry: where it ran, the file, its command split into words, and what it wrote. */
export interface CompileEntry {
  directory: string;
  /** Absolute. */
  file: string;
  args: string[];
  /** Absolute, from `output` or `-o`; undefined when the entry names none. */
  output?: string;
  /** 1-based place of the entry's `file` in the JSON, for messages. */
  line: number;
  column: number;
}

/** A problem with a named place: 1-based line and column. */
export interface LocatedProblem {
  message: string;
  file: string;
  line: number;
  column: number;
}

/** Reads the entries of a compilation database's text; problems are located in `jsonFile`. */
export function parseCompileCommands(text: string, jsonFile: string): { entries: CompileEntry[]; errors: LocatedProblem[] } {
  const errors: LocatedProblem[] = [];
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const at = /position (\d+)/.exec(e instanceof Error ? e.message : '');
    const { line, column } = at ? lineColumn(text, Number(at[1])) : { line: 1, column: 1 };
    return { entries: [], errors: [{ message: `not valid JSON: ${e instanceof Error ? e.message : String(e)}`, file: jsonFile, line, column }] };
  }
  if (!Array.isArray(data)) return { entries: [], errors: [{ message: 'a compilation database is an array of {directory, file, command | arguments} entries', file: jsonFile, line: 1, column: 1 }] };
  const entries: CompileEntry[] = [];
  let searchFrom = 0;
  data.forEach((raw: unknown, i) => {
    const e = raw as Record<string, unknown>;
    const fileText = e && typeof e === 'object' && typeof e.file === 'string' ? e.file : undefined;
    // The entry's place: its "file" value in the text (entries are in order).
    const needle = fileText !== undefined ? JSON.stringify(fileText) : undefined;
    const found = needle ? text.indexOf(needle, searchFrom) : -1;
    if (found >= 0) searchFrom = found + 1;
    const { line, column } = lineColumn(text, found >= 0 ? found : 0);
    const problem = (message: string): void => void errors.push({ message: `entry ${i + 1}: ${message}`, file: jsonFile, line, column });
    if (!e || typeof e !== 'object' || fileText === undefined) return problem('needs a "file" string');
    if (typeof e.directory !== 'string') return problem('needs a "directory" string');
    const directory = path.resolve(path.dirname(jsonFile), e.directory);
    let args: string[];
    if (Array.isArray(e.arguments) && e.arguments.every((a) => typeof a === 'string')) args = e.arguments as string[];
    else if (typeof e.command === 'string') args = splitCommand(e.command);
    else return problem('needs "arguments" (an array of strings) or "command" (a string)');
    const file = path.resolve(directory, fileText);
    const outputArg = typeof e.output === 'string' ? e.output : outputOf(args);
    entries.push({ directory, file, args, ...(outputArg ? { output: path.resolve(directory, outputArg) } : {}), line, column });
  });
  return { entries, errors };
}

/** A command line split into words as a POSIX shell would (quotes and backslashes). */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (c === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      const stop = end < 0 ? command.length : end;
      word += command.slice(i + 1, stop);
      i = stop;
      inWord = true;
    } else if (c === '"') {
      i++;
      while (i < command.length && command[i] !== '"') {
        if (command[i] === '\\' && i + 1 < command.length && '"\\$`'.includes(command[i + 1])) i++;
        word += command[i++];
      }
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

function outputOf(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-o' || a === '--output-file') return args[i + 1];
    if (a.startsWith('--output-file=')) return a.slice('--output-file='.length);
    if (a.startsWith('-o') && a.length > 2 && !a.startsWith('-opt')) return a.slice(2);
  }
  return undefined;
}

/** The flags of one compile command that change what the code means. */
export interface UnitFlags {
  defines: string[];
  undefines: string[];
  includeDirs: string[];
  includes: string[];
  std?: string;
  language?: UnitLanguage;
  /** The newest architecture the command builds for (several -gencode lines: the newest GPU it targets). */
  arch?: number;
}

const MAX_RESPONSE_DEPTH = 4;

/**
 * The -D/-U/-I/-isystem/-std/-include/-x/-arch flags of a command (nvcc's long spellings, `-Xcompiler`
 * lists, response files `@file` and `--options-file file` included). Paths are resolved
 * against `directory`; response files are read with the toolchain's file limits.
 */
export function flagsOf(args: string[], directory: string): UnitFlags {
  const flags: UnitFlags = { defines: [], undefines: [], includeDirs: [], includes: [] };
  walk(args.slice(1), directory, flags, 0);
  return flags;
}

function walk(args: string[], directory: string, flags: UnitFlags, depth: number): void {
  const abs = (p: string): string => path.resolve(directory, p);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const next = (): string | undefined => args[++i];
    // `-X value`, `-Xvalue`, `--long value`, `--long=value`: the value of a flag with those spellings.
    const take = (short: string[], long: string[]): string | undefined => {
      for (const s of short) {
        if (a === s) return next();
        if (a.startsWith(s) && a.length > s.length) return a.slice(a[s.length] === '=' ? s.length + 1 : s.length);
      }
      for (const l of long) {
        if (a === l) return next();
        if (a.startsWith(l + '=')) return a.slice(l.length + 1);
      }
      return undefined;
    };
    let v: string | undefined;
    if (a.startsWith('@') && a.length > 1) response(abs(a.slice(1)), directory, flags, depth);
    else if ((v = take([], ['--options-file', '-optf'])) !== undefined) for (const f of v.split(',')) response(abs(f), directory, flags, depth);
    else if ((v = take([], ['-Xcompiler', '--compiler-options'])) !== undefined) walk(v.split(','), directory, flags, depth);
    else if ((v = take(['-D'], ['--define-macro'])) !== undefined) flags.defines.push(v);
    else if ((v = take(['-U'], ['--undefine-macro'])) !== undefined) flags.undefines.push(v);
    else if ((v = take(['-isystem', '-iquote', '-idirafter', '-I'], ['--include-path', '--system-include'])) !== undefined) flags.includeDirs.push(abs(v));
    else if ((v = take([], ['-std', '--std'])) !== undefined) flags.std = v;
    else if ((v = take([], ['-include', '--pre-include'])) !== undefined) flags.includes.push(abs(v));
    else if ((v = take(['-x'], ['--x'])) !== undefined) flags.language = languageName(v) ?? flags.language;
    else if ((v = take(['-arch', '-gencode'], ['--gpu-architecture', '--generate-code', '--cuda-gpu-arch', '--offload-arch'])) !== undefined) {
      for (const arch of gpuArchsOf(v)) flags.arch = Math.max(flags.arch ?? 0, arch);
    }
  }
}

function response(file: string, directory: string, flags: UnitFlags, depth: number): void {
  if (depth >= MAX_RESPONSE_DEPTH) return;
  const read = readBounded(file, 1024 * 1024);
  if (!(read instanceof Uint8Array)) return;
  walk(splitCommand(new TextDecoder().decode(read)), directory, flags, depth + 1);
}

function languageName(x: string): UnitLanguage | undefined {
  if (x === 'cu' || x === 'cuda') return 'cuda';
  if (x === 'c++' || x === 'cpp') return 'c++';
  if (x === 'c') return 'c';
  return undefined;
}

/** A unit for an entry, with its flags. */
export function unitOfEntry(entry: CompileEntry): TranslationUnitSpec {
  const f = flagsOf(entry.args, entry.directory);
  return {
    file: entry.file,
    defines: f.defines,
    includeDirs: f.includeDirs,
    ...(f.undefines.length ? { undefines: f.undefines } : {}),
    ...(f.includes.length ? { includes: f.includes } : {}),
    ...(f.std ? { std: f.std } : {}),
    ...(f.language ? { language: f.language } : {}),
    ...(f.arch ? { arch: f.arch } : {}),
  };
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}
