// The front end's entry point: preprocess, parse and analyse one `.cu` file.
//
// nvcc compiles a file twice, once for the host and once for the device with `__CUDA_ARCH__`
// defined. When a file tests `__CUDA_ARCH__`, we do the same and keep both trees: `ast` is
// the host view, `deviceAst` the device view (the simulator takes device code from it). When
// the file never looks at `__CUDA_ARCH__` the two are one and the same tree.
import * as nodePath from 'node:path';
import type * as A from './ast';
import { compareDiagnostics, type Diagnostic } from './diagnostics';
import { parseTokens } from './parser';
import { preprocess, type IncludeEdge, type PreprocessResult, type ReadSourceFile } from './preprocessor';
import { analyze, type InstantiatedFunction } from './sema/analyzer';
import { preludeScope } from './sema/preludeScope';
import type { Range } from './source';
import { outermostMacro, type Token } from './token';
import { clipOutside } from '../files/sanitize';

export interface ParseOptions {
  fileName: string;
  /** -D: `NAME`, `NAME=value`, `F(x)=x+1`. */
  defines?: string[];
  /** -U: names to undefine after the predefined macros and -D. */
  undefines?: string[];
  /** -I: directories searched for `#include "…"` after the including file's directory. */
  includePaths?: string[];
  /** How included files are read; the engine never touches the file system itself. */
  readFile?: ReadSourceFile;
  /** Stop a runaway macro expansion after this many tokens (the preprocessor's default is 5M;
   *  an editor wants an answer sooner). */
  maxOutputTokens?: number;
  /**
   * Folders of the workspace (and its include paths): a diagnostic about a file outside them
   * echoes at most 40 characters of any token of it. Undefined: every file is the user's.
   */
  workspaceRoots?: string[];
  /** Fewer operators in one expression than MAX_CHAIN, for a caller on a small stack: see ChainBeyondCaller. */
  maxChain?: number;
  /** The device side's `__CUDA_ARCH__` (compute capability times ten): 700 when not given. */
  cudaArch?: number;
}

export interface ParseResult {
  ast: A.TranslationUnit;
  deviceAst: A.TranslationUnit;
  diagnostics: Diagnostic[];
  includes: IncludeEdge[];
  /** Every file that was read, the main file first. */
  files: string[];
  inactiveRanges: Range[];
  /** True when the file tests `__CUDA_ARCH__`, so host and device views differ. */
  splitByArch: boolean;
  /** Template instantiations the program uses, checked and typed with their arguments
   *  (device view first, so device code finds its instances). */
  instantiations: Map<string, InstantiatedFunction>;
}

export function parse(text: string, options: ParseOptions): ParseResult {
  const pp = (deviceSide: boolean): PreprocessResult =>
    preprocess({
      fileName: options.fileName,
      text,
      readFile: options.readFile ?? (() => undefined),
      defines: options.defines ?? [],
      undefines: options.undefines ?? [],
      includePaths: options.includePaths ?? [],
      deviceSide,
      ...(options.maxOutputTokens !== undefined ? { maxOutputTokens: options.maxOutputTokens } : {}),
      ...(options.cudaArch !== undefined ? { cudaArch: options.cudaArch } : {}),
    });
  const host = pp(false);
  const hostTree = analyseTokens(host, options.fileName, host.usedCudaArch ? 'host' : 'both', options.maxChain);
  let deviceTree = hostTree;
  let device: PreprocessResult | undefined;
  if (host.usedCudaArch) {
    device = pp(true);
    deviceTree = analyseTokens(device, options.fileName, 'device', options.maxChain);
  }
  const diagnostics = clipForeign(mergeDiagnostics([...host.diagnostics, ...hostTree.diagnostics, ...(device ? [...device.diagnostics, ...deviceTree.diagnostics] : [])]), options);
  return {
    ast: hostTree.ast,
    deviceAst: deviceTree.ast,
    diagnostics,
    includes: host.includes,
    files: host.files,
    inactiveRanges: host.inactiveRanges,
    splitByArch: host.usedCudaArch,
    instantiations: new Map([...hostTree.instantiations, ...deviceTree.instantiations]),
  };
}

function analyseTokens(
  pp: PreprocessResult,
  fileName: string,
  side: 'host' | 'device' | 'both',
  maxChain?: number,
): { ast: A.TranslationUnit; diagnostics: Diagnostic[]; instantiations: Map<string, InstantiatedFunction> } {
  const parsed = parseTokens(pp.tokens, fileName, maxChain);
  const sema = analyze(parsed.ast, { preludeScope: preludeScope(), side });
  return { ast: parsed.ast, diagnostics: [...parsed.diagnostics, ...nameMacros(sema.diagnostics, pp.tokens)], instantiations: sema.instantiations };
}

/**
 * Semantic diagnostics are placed on tree ranges. Code that came from a macro body has the
 * macro use as its range, so a diagnostic on exactly such a range is inside that expansion:
 * say which macro, as compilers do.
 */
function nameMacros(diagnostics: Diagnostic[], tokens: Token[]): Diagnostic[] {
  if (diagnostics.length === 0) return diagnostics;
  const expansions = new Map<string, string>();
  for (const t of tokens) {
    const m = outermostMacro(t);
    if (m) expansions.set(`${t.range.file}|${t.range.start.offset}|${t.range.end.offset}`, m);
  }
  if (expansions.size === 0) return diagnostics;
  return diagnostics.map((d) => {
    const m = expansions.get(`${d.range.file}|${d.range.start.offset}|${d.range.end.offset}`);
    return m ? { ...d, message: `${d.message} (in expansion of macro '${m}')` } : d;
  });
}

/** Diagnostics about files outside the workspace, with what they echo of those files cut short. */
function clipForeign(diagnostics: Diagnostic[], options: ParseOptions): Diagnostic[] {
  const roots = options.workspaceRoots;
  if (!roots) return diagnostics;
  const inside = (file: string): boolean => file === options.fileName || file.startsWith('<') || roots.some((r) => isInsideFolder(file, r));
  return diagnostics.map((d) => (inside(d.range.file) ? d : { ...d, message: clipOutside(d.message, d.code === 'error-directive' || d.code === 'warning-directive') }));
}

/** Whether `file` lies in `folder` (relative paths from the working folder). */
function isInsideFolder(file: string, folder: string): boolean {
  const rel = nodePath.relative(nodePath.resolve(folder), nodePath.resolve(file));
  return rel === '' || (!rel.startsWith('..') && !nodePath.isAbsolute(rel));
}

function mergeDiagnostics(all: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const d of all) {
    const key = `${d.code}|${d.range.file}|${d.range.start.offset}|${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out.sort(compareDiagnostics);
}

/** Functions of a translation unit, including those inside `extern "C"` blocks. */
export function functionsOf(unit: A.TranslationUnit): A.FunctionDecl[] {
  const out: A.FunctionDecl[] = [];
  const walk = (decls: A.Decl[]): void => {
    for (const d of decls) {
      if (d.kind === 'FunctionDecl') out.push(d);
      else if (d.kind === 'LinkageDecl' || d.kind === 'UnsupportedDecl') walk(d.decls);
    }
  };
  walk(unit.decls);
  return out;
}

export type { Diagnostic } from './diagnostics';
export type { Range, Position } from './source';
