// One pass of clang over one translation unit, or one link: files collected, key computed,
// cache consulted, clang run (and run again when it names an include that the scan missed),
// messages read back.
import * as path from 'node:path';
import { ResultCache, KeyBuilder, contentHash, type CacheOptions } from './cache';
import { explainLibraryAmbiguities, parseClangOutput, parseLinkerOutput, type ClangDiagnostic } from './diagnostics';
import { clangCommand, compiledAsCuda, DEFAULT_ARCH, type DebugInfo, forcedIncludesOf, gpuBinaryBytes, GPU_BINARY, includeDirsOf, languageOf, linkCommand, type Pass } from './flags';
import { headerFolder } from './headers';
import { GENERATED, PROJECT_HEADERS, fileAt, mount, mountProjectHeaders, realizeText, toVirtual, type FileTree } from './paths';
import { precompiledHeaders, precompiledHeaderText, type IncludeOrigin } from './pch';
import { directiveMacroNames, flagMacroNames, inPrelude, macrosLeavePrelude, PRELUDE_HEADERS, preludeIdentifiers, preludeText } from './prelude';
import { sysrootText } from './sysroot';
import { qualifyProgramNames } from './programNames';
import { SourceSet, specialPath } from './sources';
import type { TranslationUnitSpec } from './unit';
import { runTool, toolchainVersion } from './wasm';

/** Bumped when the toolchain's command lines or outputs change meaning: old cache entries are then never hit. */
const SCHEMA = 'scord-clang-9';
/** How often clang is run again for includes it found that the scan did not (`#include MACRO`). */
const MAX_INCLUDE_ROUNDS = 4;

export interface ToolchainOptions extends CacheOptions {
  /** The project's CUDA headers; default: beside the bundle or the sources. */
  headerFolder?: string;
  /**
   * Precompiled headers of cuda_runtime.h and leading library includes (true, the default: see
   * pchFor), always made at once ('eager'), or never (false).
   */
  precompiledHeaders?: boolean | 'eager';
  /** The GPU architecture (70 for sm_70, the default). */
  arch?: number;
  /**
   * Device debug info: `line-tables-only` (the default: a location on every instruction) or
   * `constructor` (also `#dbg_declare` records with each local variable's name and type).
   */
  debugInfo?: DebugInfo;
}

let options: ToolchainOptions = {};
let cache = new ResultCache();

/** Sets the cache folder, header folder and the rest for the calls that follow. */
export function configureToolchain(next: ToolchainOptions): void {
  options = { ...next };
  cache = new ResultCache(next);
}

/** The cache in use (tests look at it). */
export function toolchainCache(): ResultCache {
  return cache;
}

/** Whether a result came from clang or from the cache. */
export type CacheState = 'memory' | 'disk' | false;

export interface PassOutput {
  ok: boolean;
  output?: Uint8Array;
  diagnostics: ClangDiagnostic[];
  cached: CacheState;
  /** The headers that came from a precompiled header, when one was used. */
  precompiled?: string[];
  /** A link: the unit that defines `main` (undefined: none does, a kernel-only program). */
  mainFile?: string;
  /** How many times clang compiled the unit for this result (again for a missed include, relocatable code, …); absent when cached. */
  attempts?: number;
}

interface StoredMeta {
  ok: boolean;
  diagnostics: ClangDiagnostic[];
  precompiled?: string[];
  mainFile?: string;
  /** A precompiled header's: the virtual paths of the files it read (PchPlan.dependencies). */
  dependencies?: string[];
}

/** A unit ready for one pass: its files, flags and precompiled-header plan. */
interface PreparedPass {
  pass: Pass;
  unit: TranslationUnitSpec;
  sources: SourceSet;
  headers: string;
  /** The project's headers, as precompiled headers read them (projectHeaderFiles). */
  projectHeaders: ProjectHeaders;
  arch: number;
  /** Precompiled headers it may use, preferred first. */
  pchs: PchPlan[];
  extra: [string, Uint8Array][];
}

function preparePass(pass: Pass, unit: TranslationUnitSpec, compatIncludes = false): PreparedPass | { refused: string } {
  const headers = headerFolder(options.headerFolder);
  mountProjectHeaders(headers);
  const arch = unit.arch ?? options.arch ?? DEFAULT_ARCH;
  const cuda = compiledAsCuda(unit, pass);
  const sources = new SourceSet({ includeDirs: includeDirsOf(unit), systemDirs: [headers], overlay: overlayOf(unit) });
  const refused = sources.addRoot(unit.file, unit.text);
  if (refused) return { refused: refused.reason };
  sources.addFolder(headers);
  for (const f of forcedIncludesOf(unit)) sources.include(f, true, unit.file);
  // Read only for precompiled headers (both their plans and the prelude's use them).
  const projectHeaders = options.precompiledHeaders === false ? [] : projectHeaderFiles(headers);
  const pchs = pchPlans(pass, unit, sources, headers, projectHeaders, arch, compatIncludes);
  const extra: [string, Uint8Array][] = pass === 'host' && cuda ? [[GPU_BINARY, gpuBinaryBytes(unit.file)]] : [];
  return { pass, unit, sources, headers, projectHeaders, arch, pchs, extra };
}

const RELOCATABLE_NEEDED = /requires relocatable device code/;
/**
 * Units (pass and file) that needed libc++'s compatibility includes in this process: their next
 * compile (an edit) starts with them instead of failing first again.
 */
const needsCompatIncludes = new Set<string>();
/**
 * Errors a declaration missing from the headers included makes: a unit written against a
 * standard library that includes more than it must (libstdc++, or libc++'s own transitive
 * includes) is compiled again with libc++'s compatibility includes.
 */
const MISSING_DECLARATION = /undeclared identifier|no member named|no template named|unknown type name|no type named|incomplete type|undefined template|is not a class, namespace, or enumeration|no matching (?:function|constructor|member function)|no viable (?:overloaded|conversion)|invalid operands to binary expression/;
const OUT_OF_MEMORY = /\bout of memory\b|cannot allocate memory/i;

/** clang (or its file system) ran out of memory: a state of the machine, not of the sources. */
export function ranOutOfMemory(diagnostics: readonly ClangDiagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error' && OUT_OF_MEMORY.test(d.message));
}

/** Runs one pass over one unit. */
export async function compilePass(pass: Pass, unit: TranslationUnitSpec): Promise<PassOutput> {
  const unitName = `${pass}\0${unit.file}`;
  const compatFirst = needsCompatIncludes.has(unitName);
  const prepared = preparePass(pass, unit, compatFirst);
  if ('refused' in prepared) return { ok: false, cached: false, diagnostics: [{ severity: 'error', message: `cannot read ${unit.file}: ${prepared.refused}`, file: unit.file, line: 1, column: 1, unlocated: true }] };
  const { sources, headers, arch, extra } = prepared;
  let pchs = prepared.pchs;
  // The standard prelude when the unit may use it and its own precompiled header is not made
  // yet (a file just opened, or checked once: pchFor); not after a compile with it failed in
  // a way the prelude can cause.
  const prelude = compatFirst ? undefined : await preludeFor(prepared);
  let preludeOn = prelude !== undefined;
  /** The precompiled headers this compile has asked for (a second round only uses what is made). */
  const asked = new Set<string>();
  /** The key the prelude's compile had, when it failed and the unit was compiled as written. */
  let preludeKey: string | undefined;
  const input = toVirtual(unit.file);
  const output = '-'; // to stdout: see wasm.ts
  const debugInfo = options.debugInfo;
  let relocatable = !!unit.relocatable;
  let retriedOutOfMemory = false;
  /** The program's names read as its own globals (libc++ declares them in std too), and the unit's key before. */
  let qualified: { warnings: ClangDiagnostic[]; firstKey: string } | undefined;
  /** Compiled with libc++'s compatibility includes (MISSING_DECLARATION), and the unit's key without them when it was tried first. */
  let compat: { firstKey?: string } | undefined = compatFirst ? {} : undefined;
  let attempts = 0;
  const command = (withPch: boolean): string[] =>
    clangCommand({ pass, unit, headerFolder: headers, arch, input, output, relocatable, compatIncludes: !!compat, ...(debugInfo ? { debugInfo } : {}), ...(withPch ? { pch: PCH_PATH } : {}) });

  for (let round = 0; ; round++) {
    // A result made with or without a precompiled header is the same result: any key hits.
    const plainArgs = command(false);
    const plainKey = unitKey(plainArgs, sources, extra, undefined);
    const pchArgs = command(true);
    // The unit's own leading headers if made, then the prelude, then cuda_runtime.h alone.
    const plans = preludeOn ? [...pchs.slice(0, 1), prelude!, ...pchs.slice(1)] : pchs;
    for (const k of [plainKey, ...plans.map((p) => unitKey(pchArgs, sources, extra, p.key))]) {
      const hit = lookup(k);
      if (hit) return hit;
    }
    let usePch: PchPlan | undefined;
    let pchBytes: Uint8Array | undefined;
    for (const plan of plans) {
      // The unit's own header is made the second time it is wanted (pchFor), not twice within
      // one compile; the first time, the prelude stands in.
      pchBytes = await (plan === prelude ? ensurePch(plan) : asked.has(plan.key) ? madePch(plan) : (asked.add(plan.key), pchFor(plan)));
      if (pchBytes) {
        usePch = plan;
        break;
      }
    }
    const args = usePch ? pchArgs : plainArgs;
    const key = usePch ? unitKey(pchArgs, sources, extra, usePch.key) : plainKey;
    const tree: FileTree = {};
    for (const [file, bytes] of sources.files) mount(tree, toVirtual(file), bytes);
    for (const [at, bytes] of extra) mount(tree, at, bytes);
    if (usePch && pchBytes) {
      mount(tree, PCH_PATH, pchBytes);
      mount(tree, PCH_SOURCE, usePch.text);
    }
    const run = await runTool(args, tree);
    attempts++;
    if (run.exitCode === undefined) {
      // An abnormal stop (a trap, an assertion in clang): reported, never cached.
      const diagnostics = parseClangOutput(run.stderr, unit.file);
      diagnostics.push({ severity: 'error', message: `clang stopped unexpectedly (${run.crash ?? 'no reason given'})`, file: unit.file, line: 1, column: 1, unlocated: true });
      return { ok: false, cached: false, diagnostics };
    }
    const diagnostics = parseClangOutput(run.stderr, unit.file);
    if (usePch && usePch === prelude && run.exitCode !== 0 && diagnostics.some((d) => d.severity === 'error' && PRELUDE_MADE.test(d.message))) {
      // Names the unit did not include clash with its own: compiled as written.
      preludeKey = key;
      preludeOn = false;
      continue;
    }
    if (usePch && run.exitCode !== 0 && diagnostics.some((d) => d.unlocated && /precompiled|AST file|PCH/.test(d.message))) {
      // A precompiled header clang will not take: never again for these flags; compile without.
      cache.put(usePch.key, { meta: { ok: false, diagnostics: [] } satisfies StoredMeta, payload: new Uint8Array(0) });
      continue;
    }
    if (run.exitCode !== 0 && ranOutOfMemory(diagnostics)) {
      // Tried once more; never cached either way (a cached failure would outlive the shortage).
      if (!retriedOutOfMemory) {
        retriedOutOfMemory = true;
        continue;
      }
      return { ok: false, cached: false, diagnostics };
    }
    if (run.exitCode !== 0 && !diagnostics.some((d) => d.severity === 'error')) diagnostics.push({ severity: 'error', message: `clang failed: ${run.stderr.trim() || `exit status ${run.exitCode}`}`, file: unit.file, line: 1, column: 1, unlocated: true });
    if (run.exitCode !== 0 && round < MAX_INCLUDE_ROUNDS && findMissedIncludes(diagnostics, sources)) continue;
    if (run.exitCode !== 0 && !relocatable && diagnostics.some((d) => RELOCATABLE_NEEDED.test(d.message))) {
      // A kernel launched from device code: compiled again as relocatable device code, as a
      // build for dynamic parallelism (nvcc -rdc=true) would be (the prelude was made without).
      relocatable = true;
      preludeOn = false;
      continue;
    }
    if (run.exitCode !== 0 && !qualified) {
      const warnings = qualifyProgramNames(diagnostics, sources);
      if (warnings.length) {
        qualified = { warnings, firstKey: plainKey };
        continue;
      }
    }
    if (run.exitCode !== 0 && !compat && languageOf(unit) !== 'c' && diagnostics.some((d) => d.severity === 'error' && MISSING_DECLARATION.test(d.message))) {
      compat = { firstKey: plainKey };
      needsCompatIncludes.add(unitName);
      // The prelude was made without them.
      preludeOn = false;
      // The same sources; precompiled headers made with the same flags as the unit.
      pchs = pchPlans(pass, unit, sources, headers, prepared.projectHeaders, arch, true);
      continue;
    }
    explainRefusals(diagnostics, sources);
    explainLibraryAmbiguities(diagnostics);
    if (qualified) diagnostics.unshift(...qualified.warnings);
    const produced = run.exitCode === 0 && run.stdout.length > 0 ? run.stdout : undefined;
    const ok = produced !== undefined;
    if (run.exitCode === 0 && !ok) diagnostics.push({ severity: 'error', message: 'clang produced no output', file: unit.file, line: 1, column: 1, unlocated: true });
    const payload = produced && pass === 'device' ? new TextEncoder().encode(realizeIr(new TextDecoder().decode(produced))) : produced ?? new Uint8Array(0);
    const meta: StoredMeta = { ok, diagnostics, ...(usePch ? { precompiled: usePch.headers } : {}) };
    cache.put(key, { meta, payload });
    // The unit as it was written finds the result without failing first.
    if (qualified) cache.put(qualified.firstKey, { meta, payload });
    if (compat?.firstKey) cache.put(compat.firstKey, { meta, payload });
    if (preludeKey) cache.put(preludeKey, { meta, payload });
    return { ok, output: ok ? payload : undefined, diagnostics, cached: false, attempts, ...(usePch ? { precompiled: usePch.headers } : {}) };
  }
}

/**
 * Makes the precompiled headers a unit's passes would use, if they are not made yet (an
 * editor calls this when idle, so that the next analysis finds them).
 */
export async function precompilePass(pass: Pass, unit: TranslationUnitSpec): Promise<boolean> {
  const prepared = preparePass(pass, unit);
  if ('refused' in prepared || !prepared.pchs.length) return false;
  return (await ensurePch(prepared.pchs[0])) !== undefined;
}

/** Links objects (each with the unit it came from, for messages) into a wasm32-wasip1 program. */
export async function linkPass(objects: { object: Uint8Array; file?: string }[], exports: string[]): Promise<PassOutput> {
  const names = objects.map((_, i) => `${GENERATED}/objects/${i}.o`);
  const output = `${GENERATED}/program.wasm`;
  const args = linkCommand(names, output, exports);
  const key = new KeyBuilder().add(SCHEMA).add(toolchainVersion()).add('link').add(args.join('\0'));
  for (const o of objects) key.add(contentHash(o.object));
  const digest = key.digest();
  const hit = lookup(digest);
  if (hit) return hit;
  const tree: FileTree = {};
  objects.forEach((o, i) => mount(tree, names[i], o.object));
  const run = await runTool(args, tree, true);
  const units = new Map(objects.map((o, i) => [names[i], o.file ?? `object ${i + 1}`] as [string, string]));
  const fallback = objects.find((o) => o.file)?.file ?? 'program';
  const traces = new TextDecoder().decode(run.stdout);
  const diagnostics = parseLinkerOutput(`${run.stderr}\n${traces}`, units, fallback);
  if (run.exitCode === undefined) {
    diagnostics.push({ severity: 'error', message: `wasm-ld stopped unexpectedly (${run.crash ?? 'no reason given'})`, file: fallback, line: 1, column: 1, unlocated: true });
    return { ok: false, cached: false, diagnostics };
  }
  const produced = run.exitCode === 0 ? fileAt(run.files, output) : undefined;
  if (run.exitCode !== 0 && !diagnostics.some((d) => d.severity === 'error')) diagnostics.push({ severity: 'error', message: `wasm-ld failed: ${run.stderr.trim() || `exit status ${run.exitCode}`}`, file: fallback, line: 1, column: 1, unlocated: true });
  const ok = produced !== undefined;
  // wasm-ld's --trace-symbol lines: `<object>: definition of main` (or of __main_argc_argv).
  const definer = /^(\S+): definition of (?:main|__main_argc_argv)$/m.exec(traces)?.[1];
  const mainFile = definer ? units.get(definer) : undefined;
  cache.put(digest, { meta: { ok, diagnostics, ...(mainFile ? { mainFile } : {}) } satisfies StoredMeta, payload: produced ?? new Uint8Array(0) });
  return { ok, output: produced, diagnostics, cached: false, ...(mainFile ? { mainFile } : {}) };
}

function lookup(key: string): PassOutput | undefined {
  const memoryHit = cache.inMemory(key);
  const hit = cache.get(key);
  if (!hit) return undefined;
  const meta = hit.meta as StoredMeta;
  return { ok: meta.ok, output: meta.ok ? hit.payload : undefined, diagnostics: meta.diagnostics, cached: memoryHit ? 'memory' : 'disk', ...(meta.precompiled ? { precompiled: meta.precompiled } : {}), ...(meta.mainFile ? { mainFile: meta.mainFile } : {}) };
}

function unitKey(args: string[], sources: SourceSet, extra: [string, Uint8Array][], pchKey: string | undefined): string {
  const key = new KeyBuilder().add(SCHEMA).add(toolchainVersion()).add(args.join('\0')).add(pchKey ?? '');
  const files = [...sources.files.keys()].sort();
  for (const f of files) key.add(f).add(contentHash(sources.files.get(f)!));
  // What was refused changes the messages, so it is part of the key too.
  for (const [f, r] of [...sources.refused].sort(([a], [b]) => a.localeCompare(b))) key.add(`refused:${f}:${r.reason}`);
  for (const [at, bytes] of extra) key.add(at).add(bytes);
  return key.digest();
}

/** The unit's overlay for other files, guarded: special paths never reach it, and it may not throw. */
function overlayOf(unit: TranslationUnitSpec): ((file: string) => string | undefined) | undefined {
  const read = unit.readFile;
  if (!read) return undefined;
  return (file) => {
    if (file === unit.file || specialPath(file)) return undefined;
    try {
      return read(file);
    } catch {
      return undefined;
    }
  };
}

const NOT_FOUND = /^'(.+)' file not found$/;

/**
 * For each `'x' file not found`, looks for x as the include would (an `#include MACRO` the
 * scan could not follow); true when a file was added and clang should run again.
 */
function findMissedIncludes(diagnostics: ClangDiagnostic[], sources: SourceSet): boolean {
  let added = false;
  for (const d of diagnostics) {
    const m = NOT_FOUND.exec(d.message);
    if (!m || d.severity !== 'error') continue;
    const before = sources.files.size;
    const found = sources.include(m[1], quotedAt(d, sources), includerOf(d, sources));
    if (found && sources.files.size > before) added = true;
  }
  return added;
}

/** Turns `'x' file not found` for a file that exists but was refused into the reason. */
function explainRefusals(diagnostics: ClangDiagnostic[], sources: SourceSet): void {
  for (const d of diagnostics) {
    const m = NOT_FOUND.exec(d.message);
    if (!m) continue;
    for (const candidate of sources.candidates(m[1], quotedAt(d, sources), includerOf(d, sources))) {
      const refusal = sources.refused.get(candidate);
      if (sources.files.has(candidate)) break;
      if (!refusal) continue;
      d.message = `'${m[1]}' is not read: ${refusal.reason}${candidate !== m[1] ? ` (${candidate})` : ''}`;
      break;
    }
  }
}

/** The file a message is in, when it is one of the unit's (not clang's own headers). */
function includerOf(d: ClangDiagnostic, sources: SourceSet): string | undefined {
  return sources.files.has(d.file) ? d.file : undefined;
}

/** Whether the include a message points at is spelled with quotes. */
function quotedAt(d: ClangDiagnostic, sources: SourceSet): boolean {
  const bytes = sources.files.get(d.file);
  if (!bytes) return true;
  const lines = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1').split('\n');
  const line = lines[d.line - 1] ?? '';
  return line[d.column - 1] !== '<';
}

/** Mapped paths inside the IR's debug file names, made real again (LLVM escapes `\` and `"`). */
function realizeIr(text: string): string {
  if (!text.includes('/.scord/')) return text;
  return text.replace(/\/\.scord\/(?:host|drive|unc|include)\/[^"'\n]*/g, (p) => realizeText(p).replace(/\\/g, '\\5C').replace(/"/g, '\\22'));
}

// -- precompiled headers ------------------------------------------------------------------

const PCH_PATH = `${GENERATED}/prefix.pch`;
const PCH_SOURCE = `${GENERATED}/prefix.h`;

export interface PchPlan {
  key: string;
  /** Whether making it also lists the files it read (the prelude's: see preludeIdentifierSet). */
  dependencies?: boolean;
  /** The header that was precompiled: clang checks it is still there. */
  text: Uint8Array;
  /** The unit's leading headers it holds (none: cuda_runtime.h alone). */
  headers: string[];
  args: string[];
  tree: FileTree;
}

/** The precompiled headers a unit may use (none when they are turned off): see planPchs. */
function pchPlans(pass: Pass, unit: TranslationUnitSpec, sources: SourceSet, headers: string, projectHeaders: ProjectHeaders, arch: number, compatIncludes: boolean): PchPlan[] {
  return options.precompiledHeaders === false ? [] : planPchs(pass, unit, sources, headers, projectHeaders, arch, compatIncludes);
}

/**
 * The precompiled headers a unit may use, preferred first: cuda_runtime.h with the file's
 * leading library headers, then (CUDA) cuda_runtime.h alone.
 */
function planPchs(pass: Pass, unit: TranslationUnitSpec, sources: SourceSet, headers: string, projectHeaders: ProjectHeaders, arch: number, compatIncludes: boolean): PchPlan[] {
  const cuda = compiledAsCuda(unit, pass);
  // Forced includes come between cuda_runtime.h and the file: only cuda_runtime.h may go before them.
  const bytes = unit.includes?.length ? new Uint8Array(0) : sources.files.get(unit.file);
  if (!bytes) return [];
  const origin = includeOrigin(sources, headers, unit.file);
  const lists: string[][] = [];
  const leading = precompiledHeaders(Buffer.from(bytes).toString('latin1'), origin);
  if (leading) lists.push(leading);
  // CUDA units always start with cuda_runtime.h (itself <cmath>, <cstdlib>, <new>, …): worth one.
  if (cuda) lists.push([]);
  if (!lists.length) return [];
  // The same flags as the unit, but no -I: user folders are not part of a precompiled header.
  const pchUnit: TranslationUnitSpec = { ...unit, includeDirs: [], text: undefined, readFile: undefined };
  const args = clangCommand({ pass, unit: pchUnit, headerFolder: headers, arch, input: PCH_SOURCE, output: '-', emitPch: true, compatIncludes, ...(options.debugInfo ? { debugInfo: options.debugInfo } : {}) });
  return lists.map((list) => pchPlan('pch', args, new TextEncoder().encode(precompiledHeaderText(list, cuda)), projectHeaders, list));
}

/** The project's header folder's files, by path in order: what every precompiled header is made over. */
export type ProjectHeaders = readonly (readonly [string, Uint8Array])[];

/** Reads the project's header folder (once per pass: every plan of the pass shares it). */
export function projectHeaderFiles(headers: string): ProjectHeaders {
  const own = new SourceSet({ includeDirs: [], systemDirs: [headers] });
  own.addFolder(headers);
  return [...own.files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * A precompiled header of `text` made by `args` over the project's headers, keyed by all of
 * them (`kind`: which sort of header). `headers`: the leading headers it holds, as results name them.
 */
function pchPlan(kind: string, args: string[], text: Uint8Array, projectHeaders: ProjectHeaders, headers: string[], dependencies?: boolean): PchPlan {
  const tree: FileTree = {};
  mount(tree, PCH_SOURCE, text);
  const key = new KeyBuilder().add(SCHEMA).add(toolchainVersion()).add(kind).add(args.join('\0')).add(text);
  for (const [f, bytes] of projectHeaders) {
    // The virtual path: the same wherever the project's headers are installed (a seed's key).
    key.add(toVirtual(f)).add(contentHash(bytes));
    mount(tree, toVirtual(f), bytes);
  }
  return { key: key.digest(), text, headers, args, tree, ...(dependencies ? { dependencies } : {}) };
}

/**
 * The precompiled header to compile with now, if any. Making one costs about one and a half
 * compiles and saves three quarters of every later one, so it is made the second time it is
 * wanted (or at once with `precompiledHeaders: 'eager'`): a file compiled once (a single
 * `scord check` of a corpus file, the first findings of a file just opened, whose clang is
 * still cold) does not pay for it, and one compiled again does. The mark that it was wanted is
 * kept in the cache, on disk too, so the second time may be the next process.
 */
async function pchFor(plan: PchPlan): Promise<Uint8Array | undefined> {
  const hit = await cache.getAsync(plan.key);
  if (hit) return (hit.meta as StoredMeta).ok ? hit.payload : undefined;
  const wanted = new KeyBuilder().add('wanted').add(plan.key).digest();
  if (options.precompiledHeaders !== 'eager' && !cache.get(wanted)) {
    cache.put(wanted, { meta: { wanted: true }, payload: new Uint8Array(0) });
    return undefined;
  }
  return ensurePch(plan);
}

/** The precompiled header if it is made; never makes it. */
function madePch(plan: PchPlan): Uint8Array | undefined {
  const hit = cache.get(plan.key);
  return hit && (hit.meta as StoredMeta).ok ? hit.payload : undefined;
}

/** The precompiled header, made unless the cache has it; undefined when it cannot be made. */
async function ensurePch(plan: PchPlan): Promise<Uint8Array | undefined> {
  const hit = await cache.getAsync(plan.key);
  if (hit) return (hit.meta as StoredMeta).ok ? hit.payload : undefined;
  const run = await runTool(plan.args, plan.tree, plan.dependencies);
  const produced = run.exitCode === 0 && run.stdout.length > 0 ? run.stdout : undefined;
  const listed = plan.dependencies && produced ? fileAt(run.files, PRELUDE_DEPENDENCIES) : undefined;
  const dependencies = listed ? dependencyFiles(new TextDecoder().decode(listed)) : undefined;
  // A failure is remembered (the unit then compiles without one, and reports its own errors).
  if (run.exitCode !== undefined) cache.put(plan.key, { meta: { ok: produced !== undefined, diagnostics: [], ...(dependencies ? { dependencies } : {}) } satisfies StoredMeta, payload: produced ?? new Uint8Array(0) });
  return produced;
}

/** Where an include of the unit's resolves: a user file, a project CUDA header, or the sysroot. */
function includeOrigin(sources: SourceSet, headers: string, includer: string): (name: string, quoted: boolean) => IncludeOrigin {
  return (name, quoted) => {
    for (const c of sources.candidates(name, quoted, includer)) {
      if (!sources.files.has(c) && !sources.refused.has(c)) continue;
      return c.startsWith(headers + path.sep) ? 'project' : 'user';
    }
    return 'none';
  };
}

// -- the standard prelude (prelude.ts) ------------------------------------------------------

const PRELUDE_DEPENDENCIES = `${GENERATED}/prelude.d`;
/** Errors that names a unit did not include can cause (prelude.ts). */
const PRELUDE_MADE = /ambiguous|redefinition|redeclar|conflict|different kind of symbol|differ only in (?:their )?return type|follows non-static|language linkage|does not match (?:the )?previous declaration/;

/**
 * The prelude's precompiled header for one pass of a unit: made with the unit's language
 * flags (standard, architecture, relocatable code) and none of its macros or folders, so one
 * serves every unit with those flags. Listing what it read: the files' identifiers decide
 * which units' macros leave it as it is.
 */
export function preludePlan(pass: Pass, unit: Pick<TranslationUnitSpec, 'file' | 'std' | 'language' | 'relocatable'>, headers: string, projectHeaders: ProjectHeaders, arch: number): PchPlan {
  const pchUnit: TranslationUnitSpec = { file: unit.file, defines: [], includeDirs: [], ...(unit.std ? { std: unit.std } : {}), ...(unit.language ? { language: unit.language } : {}) };
  const args = clangCommand({ pass, unit: pchUnit, headerFolder: headers, arch, input: PCH_SOURCE, output: '-', emitPch: true, relocatable: !!unit.relocatable, ...(options.debugInfo ? { debugInfo: options.debugInfo } : {}) });
  args.splice(args.length - 3, 0, '-sys-header-deps', '-dependency-file', PRELUDE_DEPENDENCIES, '-MT', 'prelude');
  return pchPlan('prelude', args, new TextEncoder().encode(preludeText()), projectHeaders, [...PRELUDE_HEADERS], true);
}

/**
 * The prelude's plan for a pass of the unit, when the unit may use it (prelude.ts): a CUDA
 * unit whose leading includes are all in the prelude and have a C++ header among them, with
 * no forced includes, no file of its own named like a prelude header, and no macro of its own
 * that is an identifier of the prelude's files. Both passes decide alike.
 */
async function preludeFor(prepared: PreparedPass): Promise<PchPlan | undefined> {
  const { pass, unit, sources, headers, projectHeaders, arch } = prepared;
  if (options.precompiledHeaders === false || !compiledAsCuda(unit, pass) || unit.includes?.length) return undefined;
  const main = sources.files.get(unit.file);
  if (!main) return undefined;
  const origin = includeOrigin(sources, headers, unit.file);
  const leading = precompiledHeaders(Buffer.from(main).toString('latin1'), origin);
  if (!leading || !inPrelude(leading) || PRELUDE_HEADERS.some((h) => origin(h, false) === 'user' || origin(h, true) === 'user')) return undefined;
  const names = flagMacroNames(unit.defines, unit.undefines);
  for (const [file, bytes] of sources.files) if (!file.startsWith(headers + path.sep)) names.push(...directiveMacroNames(Buffer.from(bytes).toString('latin1')));
  const plans = { device: preludePlan('device', unit, headers, projectHeaders, arch), host: preludePlan('host', unit, headers, projectHeaders, arch) };
  const identifiers = await preludeIdentifierSet(plans.device, plans.host);
  return identifiers && macrosLeavePrelude(names, identifiers) ? plans[pass] : undefined;
}

const identifierSets = new Map<string, Promise<Set<string> | undefined>>();

/** The cache key of the identifiers of the prelude made by these two plans. */
export function preludeIdentifierKey(device: PchPlan, host: PchPlan): string {
  return new KeyBuilder().add(SCHEMA).add('prelude-identifiers').add(device.key).add(host.key).digest();
}

/**
 * The identifiers of every file the prelude's two passes read (made once per toolchain and
 * flags, then kept in the cache); undefined when the prelude cannot be made or a file it read
 * cannot be read back.
 */
export function preludeIdentifierSet(device: PchPlan, host: PchPlan): Promise<Set<string> | undefined> {
  const key = preludeIdentifierKey(device, host);
  let known = identifierSets.get(key);
  if (!known) {
    known = (async () => {
      const hit = (await cache.getAsync(key))?.meta as { identifiers?: string[] } | undefined;
      if (hit?.identifiers) return new Set(hit.identifiers);
      const files = new Set<string>();
      for (const plan of await Promise.all([device, host].map(async (p) => ((await ensurePch(p)) ? p : undefined)))) {
        const listed = plan && (cache.get(plan.key)?.meta as StoredMeta | undefined)?.dependencies;
        if (!listed) return undefined;
        for (const f of listed) files.add(f);
      }
      const texts: string[] = [];
      for (const f of files) {
        if (f === PCH_SOURCE) continue;
        // The project's headers as the plans mounted them; the rest from the toolchain's archive.
        const own = f.startsWith(`${PROJECT_HEADERS}/`) ? fileAt(device.tree, f) : undefined;
        const text = own ? Buffer.from(own).toString('latin1') : sysrootText(f);
        if (text === undefined) return undefined;
        texts.push(text);
      }
      const identifiers = preludeIdentifiers(texts);
      cache.put(key, { meta: { identifiers: [...identifiers].sort() }, payload: new Uint8Array(0) });
      return identifiers;
    })();
    known.then((ids) => ids ?? identifierSets.delete(key));
    identifierSets.set(key, known);
  }
  return known;
}

/** The files of a make-style dependency list (`target: a b \` lines; spaces in names escaped). */
function dependencyFiles(text: string): string[] {
  const body = text.replace(/\\\r?\n/g, ' ');
  const colon = body.indexOf(': ');
  const files: string[] = [];
  for (const m of body.slice(colon + 2).matchAll(/(?:\\ |[^\s])+/g)) files.push(m[0].replace(/\\ /g, ' '));
  return files;
}
