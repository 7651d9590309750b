// The C/C++ preprocessor (C11 6.10 / C++17 [cpp]), behaving like gcc's cpp where the standard
// leaves room. Input files are lexed once (lexer.ts); directives are executed as the token stream
// is pulled, so macro arguments may span lines and contain conditionals, as with gcc.
//
// Macro expansion follows cpplib's model, which is what the differential tests compare against:
// a stack of contexts, one per macro expansion being rescanned; a macro is disabled while its
// context is on the stack, and an identifier naming a disabled macro is "painted" (copied and
// remembered in a WeakSet) so it never expands again. Arguments are fully expanded before
// substitution in a barrier context of their own, except operands of `#` and `##`; that
// expansion runs in the same loop as everything else (a stack of pending invocations), so
// nesting depth costs no recursion. Output is capped (`maxOutputTokens`) against runaway
// expansion.
//
// Locations: tokens written in a file keep their range (macro arguments included); tokens from a
// macro body get the range of the whole invocation and `expansion` = {macro, definedAt, parent}.
import * as nodePath from 'node:path';
import { DiagnosticSink, type Diagnostic, type RelatedInformation } from './diagnostics';
import { lex } from './lexer';
import { evaluatePPExpression, PPExpressionError } from './preprocessor/expression';
import { destringize, stringifyTokens, tokensToText as printTokens } from './preprocessor/text';
import { spanRanges, type Range } from './source';
import { SYSTEM_HEADERS } from './systemHeaders';
import { macroNote, type MacroExpansion, type Token } from './token';

/** A file's text, undefined when there is no such file, or why the file policy refused it. */
export type ReadSourceFile = (path: string) => string | undefined | { refused: string };

export interface PreprocessOptions {
  /** Path of the main file, used as given in ranges. */
  fileName: string;
  text: string;
  /**
   * Returns a file's text, undefined when it does not exist, or why it may not be read (the
   * file policy of sims/files/policy.ts refused it); the preprocessor never touches fs.
   */
  readFile: ReadSourceFile;
  /** -D: "NAME" (=1), "NAME=value" or "F(x)=x+1". */
  defines?: string[];
  /** -U NAME, applied after the predefined macros and -D. */
  undefines?: string[];
  /** -I directories, searched in order. */
  includePaths?: string[];
  /** true: predefine __CUDA_ARCH__ (value cudaArch, default 700). */
  deviceSide?: boolean;
  cudaArch?: number;
  /** Default 200. */
  maxIncludeDepth?: number;
  /** Cap on the number of output tokens (default 5,000,000); `expansion-limit` when reached. */
  maxOutputTokens?: number;
  /** Time macro expansion may take, in milliseconds (default 5,000); `expansion-limit` after. */
  maxMillis?: number;
}

export interface IncludeEdge {
  from: string;
  to: string;
  /** The header name in the #include (`"x.h"` or `<x.h>`). */
  range: Range;
  /** Written with angle brackets. */
  system: boolean;
  /** Served from the built-in system headers (systemHeaders.ts); `to` is then `<name>`. */
  builtin: boolean;
}

export interface MacroDefinition {
  name: string;
  /** Parameter names of a function-like macro; a variadic `...` appears as `__VA_ARGS__`. */
  params?: string[];
  variadic: boolean;
  body: Token[];
  /** The macro name in its #define. */
  range: Range;
  /** Predefined, dynamic (__LINE__, ...) or from a built-in system header. */
  builtin: boolean;
}

export interface PreprocessResult {
  /** Fully expanded token stream, directives removed, ending with one eof token. */
  tokens: Token[];
  diagnostics: Diagnostic[];
  includes: IncludeEdge[];
  /** Every file read through readFile, main first. */
  files: string[];
  /** Macro state at the end of the main file. */
  macros: Map<string, MacroDefinition>;
  /** __CUDA_ARCH__ was tested or expanded anywhere in active code. */
  usedCudaArch: boolean;
  /** Regions skipped by false conditionals: first to last token of each skipped group. */
  inactiveRanges: Range[];
}

export function preprocess(opts: PreprocessOptions): PreprocessResult {
  return new Preprocessor(opts).run();
}

/** Spelling with single spaces where `spaceBefore` (or where tokens would merge), newline where
 *  `lineStart`: like `cpp -P` output, for debugging and the CLI. */
export function tokensToText(tokens: Token[]): string {
  return printTokens(tokens);
}

// ---------------------------------------------------------------------------------------------
// Internal structures

const KIND_NORMAL = 0;
const KIND_LINE = 1;
const KIND_FILE = 2;
const KIND_COUNTER = 3;
const KIND_DATE = 4;
const KIND_TIME = 5;
const KIND_INCLUDE_LEVEL = 6;
const KIND_PRAGMA_OP = 7;
/** Operators only meaningful in #if (__has_include, ...): defined for #ifdef, never expanded. */
const KIND_IF_OPERATOR = 8;

/** One step of a compiled replacement list. */
type Item =
  | { k: 0; i: number } // plain body token
  | { k: 1; i: number; p: number; raw: boolean } // parameter
  | { k: 2; i: number; p: number; end: number } // # parameter
  | { k: 3; i: number; commaVa: boolean } // ##
  | { k: 4; i: number; end: number; items: Item[]; str: boolean }; // __VA_OPT__( ... ), # __VA_OPT__

interface Macro {
  name: string;
  params: string[] | undefined;
  variadic: boolean;
  body: Token[];
  range: Range;
  builtin: boolean;
  kind: number;
  /** Number of contexts of this macro on the stack. */
  disabled: number;
  /** Replacement list without parameters, # or ##: instantiated by copying. */
  simple: boolean;
  items: Item[];
  /** Parameters whose expanded argument is needed, in order of first use (gcc's order). */
  expandOrder: number[];
  /** Per body token, the expansion record used when the invocation has no parent expansion. */
  shared: MacroExpansion[];
  cudaArch: boolean;
}

interface Context {
  toks: Token[];
  pos: number;
  macro: Macro | null;
  /** A barrier (macro argument being pre-expanded, directive line) is never popped by reading:
   *  past its end, reading returns `end`. */
  end: Token | null;
}

interface LexedFile {
  path: string;
  text: string;
  tokens: Token[];
  problems: { code: string; message: string; range: Range }[];
  /** Macro of a classic include guard enclosing the whole file, if any. */
  guard: string | null;
  builtin: boolean;
}

interface Conditional {
  taken: boolean;
  sawElse: boolean;
  /** The directive name (`if`, `ifdef`, `ifndef`), for `unterminated-conditional`. */
  range: Range;
  name: string;
}

interface FileState {
  lexed: LexedFile;
  path: string;
  tokens: Token[];
  pos: number;
  conds: Conditional[];
  /** presumed 1-based line = physical 0-based line + lineOffset (#line changes it). */
  lineOffset: number;
  presumedName: string;
  /** Index of the -I directory the file was found in (for #include_next); -1 otherwise. */
  dirIndex: number;
  /** The header name of the #include that opened this file (none for the main file). */
  includedAt?: Range;
}

interface Invocation {
  m: Macro;
  args: Token[][];
  expanded: (Token[] | undefined)[];
  vaOmitted: boolean;
  range: Range;
  parent: MacroExpansion | undefined;
  exps?: MacroExpansion[];
}

/** A function-like invocation whose arguments are being macro-expanded (one at a time, each in
 *  a barrier context) before its replacement list is substituted. */
interface Pending {
  inv: Invocation;
  name: Token;
  /** Index in inv.m.expandOrder of the argument being expanded. */
  k: number;
  buf: Token[];
  /** Context stack height below the argument's barrier. */
  base: number;
}

class LimitExceeded extends Error {}

const BUILTIN_RANGE: Range = {
  file: '<built-in>',
  start: { line: 0, character: 0, offset: 0 },
  end: { line: 0, character: 0, offset: 0 },
};

/** Stands for an empty operand of ## (C11 6.10.3.3p2); keeps the operand's leading space. */
const PLACEMARKER: Token = { kind: 'other', text: '', range: BUILTIN_RANGE, spaceBefore: false, lineStart: false };
const PLACEMARKER_SPACE: Token = { kind: 'other', text: '', range: BUILTIN_RANGE, spaceBefore: true, lineStart: false };
function isPlacemarker(t: Token): boolean {
  return t === PLACEMARKER || t === PLACEMARKER_SPACE;
}
/** Returned past the end of a macro argument being pre-expanded. */
const ARG_END: Token = { kind: 'eof', text: '', range: BUILTIN_RANGE, spaceBefore: false, lineStart: true };

const CPP_OPERATOR_NAMES = new Set([
  'and', 'and_eq', 'bitand', 'bitor', 'compl', 'not', 'not_eq', 'or', 'or_eq', 'xor', 'xor_eq',
]);
const HAS_FEATURE_OPERATORS = new Set(['__has_cpp_attribute', '__has_attribute', '__has_builtin']);

const DEFAULT_MAX_OUTPUT = 5_000_000;
/** Time macro expansion may take (default of `maxMillis`). */
const DEFAULT_MAX_MILLIS = 5_000;
/** Tokens produced between two looks at the clock. */
const CLOCK_CHECK_TOKENS = 65_536;

// Lexed texts of built-in headers and predefined-macro files, shared by all runs (tokens are
// never mutated, so sharing is safe).
const builtinLexCache = new Map<string, LexedFile>();

function lexBuiltin(path: string, text: string): LexedFile {
  const key = path + '\u0000' + text;
  let l = builtinLexCache.get(key);
  if (!l) {
    const r = lex(text, path);
    l = { path, text, tokens: r.tokens, problems: r.problems, guard: detectGuard(r.tokens), builtin: true };
    builtinLexCache.set(key, l);
  }
  return l;
}

function isPunct(t: Token, text: string): boolean {
  return t.kind === 'punct' && t.text === text;
}

function isDirectiveHash(t: Token): boolean {
  return t.lineStart && t.kind === 'punct' && t.text === '#';
}

/** `#ifndef X` / `#if !defined X` / `#if !defined(X)` first, its `#endif` last: returns X. */
function detectGuard(toks: Token[]): string | null {
  if (toks.length < 4 || !isDirectiveHash(toks[0])) return null;
  const d = toks[1];
  if (d.lineStart || d.kind !== 'ident') return null;
  let guard: string;
  if (d.text === 'ifndef') {
    const x = toks[2];
    if (x.lineStart || x.kind !== 'ident' || !toks[3].lineStart) return null;
    guard = x.text;
  } else if (d.text === 'if') {
    let j = 2;
    if (toks[j].lineStart || !isPunct(toks[j], '!')) return null;
    j++;
    if (toks[j].lineStart || toks[j].text !== 'defined') return null;
    j++;
    let x: Token;
    if (!toks[j].lineStart && isPunct(toks[j], '(')) {
      x = toks[j + 1];
      if (x.lineStart || x.kind !== 'ident' || toks[j + 2].lineStart || !isPunct(toks[j + 2], ')')) return null;
      j += 3;
    } else {
      x = toks[j];
      if (x.lineStart || x.kind !== 'ident') return null;
      j++;
    }
    if (!toks[j].lineStart) return null;
    guard = x.text;
  } else return null;
  let depth = 0;
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
    if (t.kind === 'eof') return null;
    if (!isDirectiveHash(t)) continue;
    const n = toks[k + 1];
    if (n.lineStart || n.kind !== 'ident') continue;
    switch (n.text) {
      case 'if':
      case 'ifdef':
      case 'ifndef':
        depth++;
        break;
      case 'elif':
      case 'else':
      case 'elifdef':
      case 'elifndef':
        if (depth === 1) return null;
        break;
      case 'endif': {
        depth--;
        if (depth === 0) {
          let m = k + 2;
          while (!toks[m].lineStart) m++;
          return toks[m].kind === 'eof' ? guard : null;
        }
        break;
      }
    }
  }
  return null;
}

function expandOrderOf(items: Item[], vaIndex: number): number[] {
  const order: number[] = [];
  const walk = (list: Item[]): void => {
    for (const it of list) {
      if (it.k === 1 && !it.raw && !order.includes(it.p)) order.push(it.p);
      else if (it.k === 4) {
        if (!order.includes(vaIndex)) order.push(vaIndex);
        walk(it.items);
      }
    }
  };
  walk(items);
  return order;
}

function sameDefinition(a: Macro, b: Macro): boolean {
  if (a.kind !== b.kind || a.variadic !== b.variadic) return false;
  if ((a.params === undefined) !== (b.params === undefined)) return false;
  if (a.params && b.params) {
    if (a.params.length !== b.params.length) return false;
    for (let i = 0; i < a.params.length; i++) if (a.params[i] !== b.params[i]) return false;
  }
  if (a.body.length !== b.body.length) return false;
  for (let i = 0; i < a.body.length; i++) {
    const x = a.body[i];
    const y = b.body[i];
    if (x.text !== y.text || x.kind !== y.kind) return false;
    if (i > 0 && x.spaceBefore !== y.spaceBefore) return false;
  }
  return true;
}

function quoteString(s: string): string {
  return '"' + s.replace(/[\\"]/g, (c) => '\\' + c) + '"';
}

// ---------------------------------------------------------------------------------------------

class Preprocessor {
  private readonly macros = new Map<string, Macro>();
  private readonly sink = new DiagnosticSink();
  private readonly ctx: Context[] = [];
  private readonly pending: Pending[] = [];
  private file!: FileState;
  private readonly fileStack: FileState[] = [];
  private readonly out: Token[] = [];
  private readonly painted = new WeakSet<Token>();
  private readonly expansionCache = new Map<MacroExpansion, { m: Macro; exps: MacroExpansion[] }>();
  private paintedAny = false;
  private collecting = 0;
  private directiveDepth = 0;
  private readonly lexCache = new Map<string, LexedFile | null>();
  /** Files the file policy refused, with why. */
  private readonly refusedFiles = new Map<string, string>();
  private readonly files: string[] = [];
  private readonly problemsReported = new Set<string>();
  private readonly includes: IncludeEdge[] = [];
  private readonly onceFiles = new Set<string>();
  private readonly inactive: Range[] = [];
  private usedCudaArch = false;
  private counter = 0;
  private work = 0;
  private pendingLineStart = false;
  private readonly pushedMacros = new Map<string, (Macro | undefined)[]>();
  private readonly path: typeof nodePath.posix;
  private readonly includePaths: string[];
  private readonly maxDepth: number;
  private readonly maxOutput: number;
  private readonly maxWork: number;
  private readonly maxMillis: number;
  private readonly startedAt = Date.now();
  private nextClockCheck = CLOCK_CHECK_TOKENS;

  constructor(private readonly opts: PreprocessOptions) {
    const winLike = /^[A-Za-z]:[\\/]/.test(opts.fileName) || (opts.fileName.includes('\\') && !opts.fileName.includes('/'));
    this.path = winLike ? nodePath.win32 : nodePath.posix;
    this.includePaths = opts.includePaths ?? [];
    this.maxDepth = opts.maxIncludeDepth ?? 200;
    this.maxOutput = opts.maxOutputTokens ?? DEFAULT_MAX_OUTPUT;
    this.maxWork = this.maxOutput * 10;
    this.maxMillis = opts.maxMillis ?? DEFAULT_MAX_MILLIS;
  }

  run(): PreprocessResult {
    const o = this.opts;
    const mainLexed = lex(o.text, o.fileName);
    const main: LexedFile = {
      path: o.fileName,
      text: o.text,
      tokens: mainLexed.tokens,
      problems: mainLexed.problems,
      guard: null,
      builtin: false,
    };
    this.files.push(o.fileName);
    this.lexCache.set(o.fileName, main);
    try {
      this.defineDynamicBuiltins();
      this.processPseudoFile(lexBuiltin('<built-in>', this.predefinedText()));
      const cmd: string[] = [];
      for (const d of o.defines ?? []) {
        const eq = d.indexOf('=');
        cmd.push(eq < 0 ? `#define ${d} 1` : `#define ${d.slice(0, eq)} ${d.slice(eq + 1)}`);
      }
      for (const u of o.undefines ?? []) cmd.push(`#undef ${u}`);
      if (cmd.length > 0) {
        const text = cmd.join('\n') + '\n';
        const r = lex(text, '<command-line>');
        this.processPseudoFile({ path: '<command-line>', text, tokens: r.tokens, problems: r.problems, guard: null, builtin: false });
      }
      this.pushFile(main, -1);
      this.mainLoop();
    } catch (e) {
      if (e instanceof LimitExceeded) {
        // Reported where detected.
      } else if (e instanceof RangeError) {
        this.sink.error('expansion-limit', 'preprocessing aborted: macro expansion or #if nesting too deep', this.currentRange());
      } else throw e;
    }
    const eofTok = main.tokens[main.tokens.length - 1];
    this.out.push(eofTok);
    const macros = new Map<string, MacroDefinition>();
    for (const [name, m] of this.macros) {
      const d: MacroDefinition = { name, variadic: m.variadic, body: m.body, range: m.range, builtin: m.builtin };
      if (m.params) d.params = m.params;
      macros.set(name, d);
    }
    return {
      tokens: this.out,
      diagnostics: this.sink.items,
      includes: this.includes,
      files: this.files,
      macros,
      usedCudaArch: this.usedCudaArch,
      inactiveRanges: this.inactive,
    };
  }

  private currentRange(): Range {
    const f = this.fileStack[this.fileStack.length - 1];
    if (!f) return BUILTIN_RANGE;
    const t = f.tokens[Math.min(f.pos, f.tokens.length - 1)];
    return t.range;
  }

  private predefinedText(): string {
    const lines = [
      '#define __CUDACC__ 1',
      '#define __NVCC__ 1',
      '#define __cplusplus 201703L',
      '#define __CUDACC_VER_MAJOR__ 12',
      '#define __CUDACC_VER_MINOR__ 0',
      '#define __linux__ 1',
      '#define __x86_64__ 1',
      '#define __LP64__ 1',
    ];
    if (this.opts.deviceSide) lines.push(`#define __CUDA_ARCH__ ${this.opts.cudaArch ?? 700}`);
    return lines.join('\n') + '\n';
  }

  private defineDynamicBuiltins(): void {
    const add = (name: string, kind: number): void => {
      this.macros.set(name, {
        name, params: undefined, variadic: false, body: [], range: BUILTIN_RANGE, builtin: true, kind,
        disabled: 0, simple: true, items: [], expandOrder: [], shared: [], cudaArch: false,
      });
    };
    add('__LINE__', KIND_LINE);
    add('__FILE__', KIND_FILE);
    add('__COUNTER__', KIND_COUNTER);
    add('__DATE__', KIND_DATE);
    add('__TIME__', KIND_TIME);
    add('__INCLUDE_LEVEL__', KIND_INCLUDE_LEVEL);
    add('_Pragma', KIND_PRAGMA_OP);
    add('__has_include', KIND_IF_OPERATOR);
    add('__has_include_next', KIND_IF_OPERATOR);
    for (const n of HAS_FEATURE_OPERATORS) add(n, KIND_IF_OPERATOR);
  }

  private processPseudoFile(l: LexedFile): void {
    this.pushFile(l, -1);
    for (;;) {
      const t = this.nextExpanded();
      if (t.kind === 'eof') break;
    }
    this.endFile();
  }

  // -------------------------------------------------------------------------------------------
  // Files

  private pushFile(l: LexedFile, dirIndex: number, includedAt?: Range): void {
    const f: FileState = {
      ...(includedAt ? { includedAt } : {}),
      lexed: l,
      path: l.path,
      tokens: l.tokens,
      pos: 0,
      conds: [],
      lineOffset: 1,
      presumedName: l.path,
      dirIndex,
    };
    this.fileStack.push(f);
    this.file = f;
    if (l.problems.length > 0 && !this.problemsReported.has(l.path)) {
      this.problemsReported.add(l.path);
      for (const p of l.problems) this.sink.error(p.code, p.message, p.range);
    }
  }

  private endFile(): void {
    const f = this.fileStack.pop()!;
    for (const c of f.conds) this.sink.error('unterminated-conditional', `unterminated #${c.name}`, c.range);
    f.conds.length = 0;
    if (this.fileStack.length > 0) this.file = this.fileStack[this.fileStack.length - 1];
  }

  private loadFile(path: string): LexedFile | null {
    const cached = this.lexCache.get(path);
    if (cached !== undefined) return cached;
    let text: string | undefined | { refused: string };
    try {
      text = this.opts.readFile(path);
    } catch {
      text = undefined;
    }
    if (typeof text !== 'string') {
      if (text !== undefined) this.refusedFiles.set(path, text.refused);
      this.lexCache.set(path, null);
      return null;
    }
    const r = lex(text, path);
    const l: LexedFile = { path, text, tokens: r.tokens, problems: r.problems, guard: detectGuard(r.tokens), builtin: false };
    this.lexCache.set(path, l);
    this.files.push(path);
    return l;
  }

  private mainLoop(): void {
    const ctx = this.ctx;
    const macros = this.macros;
    for (;;) {
      if (ctx.length === 0) {
        // Fast path for tokens read straight from the file that are not directives, macro
        // names or the end of the file: most tokens of a translation unit.
        const f = this.file;
        const t = f.tokens[f.pos];
        const k = t.kind;
        if (
          k !== 'eof' &&
          !(t.lineStart && k === 'punct' && t.text === '#') &&
          (k !== 'ident' || (!macros.has(t.text) && t.text !== '__CUDA_ARCH__'))
        ) {
          f.pos++;
          this.emit(t);
          continue;
        }
      }
      const t = this.nextExpanded();
      if (t.kind === 'eof') {
        const last = this.fileStack.length === 1;
        this.endFile();
        if (last) return;
        continue;
      }
      this.emit(t);
    }
  }

  private emit(t: Token): void {
    if (t.problem !== undefined) {
      this.sink.error(t.problem.code, t.problem.message + macroNote(t), t.range);
    }
    if (this.pendingLineStart) {
      this.pendingLineStart = false;
      if (!t.lineStart) t = this.copy(t, true, t.spaceBefore);
    }
    const out = this.out;
    out.push(t);
    if (out.length >= this.maxOutput) {
      this.sink.error('expansion-limit', `preprocessing stopped: output exceeds ${this.maxOutput} tokens`, t.range);
      throw new LimitExceeded();
    }
  }

  // -------------------------------------------------------------------------------------------
  // Token sources

  /** The next token, unexpanded: from the innermost context, or the current file. */
  private next(): Token {
    const ctx = this.ctx;
    while (ctx.length > 0) {
      const c = ctx[ctx.length - 1];
      if (c.pos < c.toks.length) return c.toks[c.pos++];
      if (c.end !== null) return c.end;
      ctx.pop();
      if (c.macro !== null) c.macro.disabled--;
    }
    return this.readFile();
  }

  /** Reads the current file, executing directives and skipping false groups. At the end returns
   *  the eof token without consuming it. */
  private readFile(): Token {
    for (;;) {
      const f = this.file;
      const t = f.tokens[f.pos];
      if (t.lineStart && t.kind === 'punct' && t.text === '#') {
        this.directive();
        continue;
      }
      if (t.kind !== 'eof') f.pos++;
      return t;
    }
  }

  /** Is the next token `(`? Pops finished contexts as cpplib does, but never reads past a
   *  barrier, and a `#` starting a line is a directive, not `(`. */
  private peekIsLParen(): boolean {
    const ctx = this.ctx;
    while (ctx.length > 0) {
      const c = ctx[ctx.length - 1];
      if (c.pos < c.toks.length) {
        const t = c.toks[c.pos];
        return t.kind === 'punct' && t.text === '(';
      }
      if (c.end !== null) return false;
      ctx.pop();
      if (c.macro !== null) c.macro.disabled--;
    }
    const f = this.file;
    const t = f.tokens[f.pos];
    return t.kind === 'punct' && t.text === '(';
  }

  private truncateContexts(n: number): void {
    const ctx = this.ctx;
    while (ctx.length > n) {
      const c = ctx.pop()!;
      if (c.macro !== null) c.macro.disabled--;
    }
  }

  private pushContext(toks: Token[], macro: Macro | null, end: Token | null): void {
    this.ctx.push({ toks, pos: 0, macro, end });
    if (macro !== null) macro.disabled++;
  }

  private paint(t: Token): Token {
    const c: Token = { ...t };
    this.painted.add(c);
    this.paintedAny = true;
    return c;
  }

  private isPainted(t: Token): boolean {
    return this.paintedAny && this.painted.has(t);
  }

  /** The next token with macros expanded. Arguments that must be macro-expanded before
   *  substitution are expanded by this same loop (see Pending), so nesting depth costs no
   *  recursion: tokens produced while a Pending is open go to its buffer. */
  private nextExpanded(): Token {
    const pending = this.pending;
    const base = pending.length;
    for (;;) {
      let t = this.next();
      if (t.kind === 'eof') {
        if (t === ARG_END && pending.length > base) {
          this.finishPendingArg();
          continue;
        }
        return t;
      }
      if (t.kind === 'ident') {
        const m = this.macros.get(t.text);
        if (m === undefined) {
          if (t.text === '__CUDA_ARCH__') this.usedCudaArch = true;
        } else {
          if (m.cudaArch) this.usedCudaArch = true;
          if (this.isPainted(t)) {
            // stays as it is
          } else if (m.disabled > 0) {
            t = this.paint(t);
          } else if (m.kind === KIND_NORMAL) {
            if (this.enterMacro(m, t)) continue;
          } else if (m.kind === KIND_PRAGMA_OP) {
            if (this.directiveDepth === 0 && this.pragmaOperator(t)) continue;
          } else if (m.kind !== KIND_IF_OPERATOR) {
            t = this.dynamicBuiltin(m, t);
          }
        }
      }
      if (pending.length > base) {
        pending[pending.length - 1].buf.push(t);
        continue;
      }
      return t;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Macro expansion

  private copy(t: Token, lineStart: boolean, spaceBefore: boolean): Token {
    const c: Token = { kind: t.kind, text: t.text, range: t.range, spaceBefore, lineStart };
    if (t.expansion !== undefined) c.expansion = t.expansion;
    if (t.problem !== undefined) c.problem = t.problem;
    if (this.isPainted(t)) this.painted.add(c);
    return c;
  }

  /** Starts the expansion of `m` invoked by `name`; false if it is not invoked (function-like
   *  name without `(`, or wrong arguments: the name is then an ordinary token). */
  private enterMacro(m: Macro, name: Token): boolean {
    if (m.params === undefined) {
      if (m.simple) this.finishInvocation(m, name, this.instantiateSimple(m, name, name.range));
      else {
        const inv: Invocation = { m, args: [], expanded: [], vaOmitted: false, range: name.range, parent: name.expansion };
        this.finishInvocation(m, name, this.substitute(inv));
      }
      return true;
    }
    if (!this.peekIsLParen()) return false;
    this.next();
    const r = this.collectArgs(m, name);
    if (r === null) return false;
    const range = spanRanges(name.range, r.close.range);
    if (m.simple) {
      this.finishInvocation(m, name, this.instantiateSimple(m, name, range));
      return true;
    }
    const inv: Invocation = {
      m,
      args: r.args,
      expanded: new Array<Token[] | undefined>(r.args.length),
      vaOmitted: r.vaOmitted,
      range,
      parent: name.expansion,
    };
    const p: Pending = { inv, name, k: -1, buf: [], base: 0 };
    if (this.advancePending(p)) this.pending.push(p);
    else this.finishInvocation(m, name, this.substitute(inv));
    return true;
  }

  /** Moves `p` to the next argument that needs expansion, pushing it as a barrier context;
   *  arguments without macro names are their own expansion. False when none is left. */
  private advancePending(p: Pending): boolean {
    const inv = p.inv;
    const order = inv.m.expandOrder;
    for (let k = p.k + 1; k < order.length; k++) {
      const arg = inv.args[order[k]];
      let needed = false;
      for (let i = 0; i < arg.length; i++) {
        const t = arg[i];
        if (t.kind === 'ident' && this.macros.has(t.text)) {
          needed = true;
          break;
        }
      }
      if (!needed) {
        inv.expanded[order[k]] = arg;
        continue;
      }
      p.k = k;
      p.buf = [];
      p.base = this.ctx.length;
      this.pushContext(arg, null, ARG_END);
      return true;
    }
    p.k = order.length;
    return false;
  }

  /** The argument of the innermost Pending is fully expanded: take the next one, or substitute. */
  private finishPendingArg(): void {
    const p = this.pending[this.pending.length - 1];
    this.truncateContexts(p.base);
    const inv = p.inv;
    inv.expanded[inv.m.expandOrder[p.k]] = p.buf;
    if (this.advancePending(p)) return;
    this.pending.pop();
    this.finishInvocation(inv.m, p.name, this.substitute(inv));
  }

  /** Pushes the replacement of an invocation for rescanning, with `m` disabled meanwhile. */
  private finishInvocation(m: Macro, name: Token, toks: Token[]): void {
    if (toks.length === 0) {
      // The next token printed starts the line this empty expansion started.
      if (name.lineStart && this.pending.length === 0 && this.directiveDepth === 0) this.pendingLineStart = true;
      return;
    }
    const first = toks[0];
    if (first.lineStart !== name.lineStart || first.spaceBefore !== name.spaceBefore) {
      toks[0] = this.copy(first, name.lineStart, name.spaceBefore);
    }
    this.work += toks.length;
    if (this.work > this.maxWork) {
      this.sink.error('expansion-limit', `macro expansion of '${name.text}' stopped: more than ${this.maxWork} tokens produced` + macroNote(name), name.range);
      throw new LimitExceeded();
    }
    if (this.work >= this.nextClockCheck) {
      this.nextClockCheck = this.work + CLOCK_CHECK_TOKENS;
      if (Date.now() - this.startedAt > this.maxMillis) {
        this.sink.error('expansion-limit', `macro expansion of '${name.text}' stopped: preprocessing took more than ${this.maxMillis / 1000} s` + macroNote(name), name.range);
        throw new LimitExceeded();
      }
    }
    this.pushContext(toks, m, null);
  }

  /** Expansion records for the body tokens of `m` invoked by a name whose expansion is
   *  `parent`. Records are shared by all invocations with the same parent when that parent is
   *  itself a shared, parent-less record (macros used by macros used in the file: the common
   *  case), which bounds the cache by the number of body tokens. */
  private expansionsFor(m: Macro, parent: MacroExpansion | undefined): MacroExpansion[] {
    if (parent === undefined) return m.shared;
    const cacheable = parent.parent === undefined;
    if (cacheable) {
      const c = this.expansionCache.get(parent);
      if (c !== undefined && c.m === m) return c.exps;
    }
    const exps: MacroExpansion[] = new Array<MacroExpansion>(m.body.length);
    for (let i = 0; i < exps.length; i++) exps[i] = { macro: m.name, definedAt: m.body[i].range, parent };
    if (cacheable) this.expansionCache.set(parent, { m, exps });
    return exps;
  }

  private bodyToken(m: Macro, i: number, range: Range, exps: MacroExpansion[]): Token {
    const b = m.body[i];
    const t: Token = { kind: b.kind, text: b.text, range, spaceBefore: b.spaceBefore, lineStart: false, expansion: exps[i] };
    // A lexical problem in a body is reported where the token ends up in the output.
    if (b.problem !== undefined) t.problem = b.problem;
    return t;
  }

  private instantiateSimple(m: Macro, name: Token, range: Range): Token[] {
    const n = m.body.length;
    const out: Token[] = new Array<Token>(n);
    const exps = this.expansionsFor(m, name.expansion);
    for (let i = 0; i < n; i++) out[i] = this.bodyToken(m, i, range, exps);
    return out;
  }

  /** Collects the arguments after `(`; null (with a diagnostic) when unterminated or their
   *  number is wrong. */
  private collectArgs(m: Macro, name: Token): { args: Token[][]; close: Token; vaOmitted: boolean } | null {
    const nparams = m.params!.length;
    const args: Token[][] = [];
    let cur: Token[] = [];
    let depth = 0;
    let close: Token;
    this.collecting++;
    try {
      for (;;) {
        let t = this.next();
        if (t.kind === 'eof') {
          this.sink.error('unterminated-macro-call', `unterminated argument list invoking macro '${m.name}'` + macroNote(name), name.range);
          return null;
        }
        if (t.kind === 'punct') {
          const s = t.text;
          if (s === '(') depth++;
          else if (s === ')') {
            if (depth === 0) {
              args.push(cur);
              close = t;
              break;
            }
            depth--;
          } else if (s === ',' && depth === 0 && !(m.variadic && args.length === nparams - 1)) {
            args.push(cur);
            cur = [];
            continue;
          }
        } else if (t.kind === 'ident') {
          const mm = this.macros.get(t.text);
          if (mm !== undefined && mm.disabled > 0 && !this.isPainted(t)) t = this.paint(t);
        }
        cur.push(t);
      }
    } finally {
      this.collecting--;
    }
    let vaOmitted = false;
    const argc = args.length;
    if (nparams === 0) {
      if (argc === 1 && args[0].length === 0) args.length = 0;
      else {
        this.arityError(m, name, `macro '${m.name}' passed ${argc} arguments, but takes just 0`);
        return null;
      }
    } else if (argc < nparams) {
      if (m.variadic && argc === nparams - 1) {
        args.push([]);
        vaOmitted = true;
      } else {
        this.arityError(m, name, `macro '${m.name}' requires ${nparams} arguments, but only ${argc} given`);
        return null;
      }
    } else if (argc > nparams) {
      this.arityError(m, name, `macro '${m.name}' passed ${argc} arguments, but takes just ${nparams}`);
      return null;
    }
    return { args, close, vaOmitted };
  }

  private arityError(m: Macro, name: Token, message: string): void {
    this.sink.error('macro-arity', message + macroNote(name), name.range, [
      { message: `macro '${m.name}' defined here`, range: m.range },
    ]);
  }

  private substitute(inv: Invocation): Token[] {
    const out: Token[] = [];
    if (this.runItems(inv, inv.m.items, out)) {
      let w = 0;
      for (let r = 0; r < out.length; r++) if (!isPlacemarker(out[r])) out[w++] = out[r];
      out.length = w;
    }
    return out;
  }

  /** A fully macro-expanded argument (C11 6.10.3.1), computed before substitution. */
  private expandedArg(inv: Invocation, p: number): Token[] {
    return inv.expanded[p] ?? inv.args[p];
  }

  /** Argument tokens placed in a body: the first takes the parameter's leading whitespace, and
   *  line starts inside a multi-line invocation become plain spaces. */
  private placeArg(tokens: Token[], param: Token): Token[] {
    let res = tokens;
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      const space = i === 0 ? param.spaceBefore : t.spaceBefore || t.lineStart;
      if (t.lineStart || t.spaceBefore !== space) {
        if (res === tokens) res = tokens.slice();
        res[i] = this.copy(t, false, space);
      }
    }
    return res;
  }

  /** Appends the replacement of `items` to `out`; returns whether placemarkers were added. */
  private runItems(inv: Invocation, items: Item[], out: Token[]): boolean {
    const m = inv.m;
    let pendingPaste: Item | null = null;
    let placemarkers = false;
    for (let idx = 0; idx < items.length; idx++) {
      const it = items[idx];
      let operand: Token[];
      switch (it.k) {
        case 0:
          operand = [this.bodyToken(m, it.i, inv.range, (inv.exps ??= this.expansionsFor(m, inv.parent)))];
          break;
        case 1: {
          const raw = it.raw ? inv.args[it.p] : this.expandedArg(inv, it.p);
          operand = raw.length === 0 ? raw : this.placeArg(raw, m.body[it.i]);
          break;
        }
        case 2:
          operand = [this.stringToken(inv, it.i, it.end, stringifyTokens(inv.args[it.p]))];
          break;
        case 3:
          if (it.commaVa) {
            // gcc: `, ## __VA_ARGS__` drops the comma when the variable arguments are omitted
            // entirely; otherwise the arguments follow the comma, unpasted.
            const va = items[idx + 1] as Extract<Item, { k: 1 }>;
            idx++;
            if (inv.vaOmitted) {
              out.pop();
              if (idx + 1 < items.length && items[idx + 1].k === 3) {
                out.push(PLACEMARKER);
                placemarkers = true;
              }
              continue;
            }
            const vaToks = inv.args[va.p];
            if (vaToks.length === 0) {
              if (idx + 1 < items.length && items[idx + 1].k === 3) {
                out.push(PLACEMARKER);
                placemarkers = true;
              }
              continue;
            }
            const placed = this.placeArg(vaToks, m.body[va.i]);
            for (let k = 0; k < placed.length; k++) out.push(placed[k]);
            continue;
          }
          pendingPaste = it;
          continue;
        case 4: {
          const sub: Token[] = [];
          const present = !inv.vaOmitted && this.expandedArg(inv, inv.args.length - 1).length > 0;
          if (present && this.runItems(inv, it.items, sub)) {
            let w = 0;
            for (let r = 0; r < sub.length; r++) if (!isPlacemarker(sub[r])) sub[w++] = sub[r];
            sub.length = w;
          }
          if (it.str) operand = [this.stringToken(inv, it.i, it.end, stringifyTokens(sub))];
          else {
            operand = sub;
            if (sub.length > 0) {
              const sp = m.body[it.i].spaceBefore;
              if (sub[0].spaceBefore !== sp) sub[0] = this.copy(sub[0], false, sp);
            }
          }
          break;
        }
      }
      if (pendingPaste !== null) {
        const pasteItem = pendingPaste;
        pendingPaste = null;
        const left = out.length > 0 ? out.pop()! : PLACEMARKER;
        if (operand.length === 0) {
          out.push(left);
        } else if (isPlacemarker(left)) {
          const f = operand[0];
          out.push(f.spaceBefore === left.spaceBefore ? f : this.copy(f, false, left.spaceBefore));
          for (let k = 1; k < operand.length; k++) out.push(operand[k]);
        } else {
          this.pasteInto(out, left, operand[0], inv, pasteItem.i);
          for (let k = 1; k < operand.length; k++) out.push(operand[k]);
        }
      } else if (operand.length === 0) {
        if (idx + 1 < items.length && items[idx + 1].k === 3) {
          out.push(m.body[it.i].spaceBefore ? PLACEMARKER_SPACE : PLACEMARKER);
          placemarkers = true;
        }
      } else {
        for (let k = 0; k < operand.length; k++) out.push(operand[k]);
      }
    }
    return placemarkers;
  }

  private stringToken(inv: Invocation, hashIdx: number, endIdx: number, text: string): Token {
    const m = inv.m;
    const hash = m.body[hashIdx];
    let expansion: MacroExpansion;
    if (inv.parent === undefined) {
      // One shared record per `#` of the definition.
      expansion = m.shared[hashIdx];
      if (expansion.definedAt.end !== m.body[endIdx].range.end) {
        expansion = m.shared[hashIdx] = { macro: m.name, definedAt: spanRanges(hash.range, m.body[endIdx].range) };
      }
    } else {
      expansion = { macro: m.name, definedAt: spanRanges(hash.range, m.body[endIdx].range), parent: inv.parent };
    }
    return { kind: 'string', text, range: inv.range, spaceBefore: hash.spaceBefore, lineStart: false, expansion };
  }

  /** `left ## right`: pushes the pasted token, or both tokens (with a warning) when their
   *  spellings do not form one preprocessing token. */
  private pasteInto(out: Token[], left: Token, right: Token, inv: Invocation, pasteIdx: number): void {
    const text = left.text + right.text;
    let kind: Token['kind'] | null = null;
    if (left.kind === 'ident' && (right.kind === 'ident' || (right.kind === 'number' && /^[0-9A-Za-z_$]+$/.test(right.text)))) {
      kind = 'ident';
    } else {
      const r = lex(text, '<paste>');
      if (r.problems.length === 0 && r.tokens.length === 2 && r.tokens[0].text === text && !r.tokens[0].problem) {
        kind = r.tokens[0].kind;
      }
    }
    const m = inv.m;
    if (kind === null) {
      this.sink.warning(
        'invalid-paste',
        `pasting "${left.text}" and "${right.text}" does not give a valid preprocessing token (in expansion of macro '${this.outermost(inv)}')`,
        inv.range,
      );
      out.push(left);
      out.push(right.spaceBefore ? this.copy(right, false, false) : right);
      return;
    }
    const expansion = (inv.exps ??= this.expansionsFor(m, inv.parent))[pasteIdx];
    out.push({ kind, text, range: inv.range, spaceBefore: left.spaceBefore, lineStart: false, expansion });
  }

  private outermost(inv: Invocation): string {
    let e = inv.parent;
    if (e === undefined) return inv.m.name;
    while (e.parent) e = e.parent;
    return e.macro;
  }

  private dynamicBuiltin(m: Macro, t: Token): Token {
    let kind: Token['kind'] = 'number';
    let text: string;
    const f = this.file;
    switch (m.kind) {
      case KIND_LINE:
        text = String(t.range.start.line + f.lineOffset);
        break;
      case KIND_FILE:
        kind = 'string';
        text = quoteString(f.presumedName);
        break;
      case KIND_COUNTER:
        text = String(this.counter++);
        break;
      case KIND_DATE:
        kind = 'string';
        text = '"Jan  1 2025"';
        break;
      case KIND_TIME:
        kind = 'string';
        text = '"00:00:00"';
        break;
      default:
        text = String(Math.max(0, this.fileStack.length - 1));
    }
    const expansion: MacroExpansion = { macro: m.name, definedAt: m.range };
    if (t.expansion !== undefined) expansion.parent = t.expansion;
    return { kind, text, range: t.range, spaceBefore: t.spaceBefore, lineStart: t.lineStart, expansion };
  }

  /** `_Pragma("...")`: removed (honouring `once`); false when malformed (left in place). */
  private pragmaOperator(t: Token): boolean {
    if (!this.peekIsLParen()) {
      this.sink.error('invalid-pragma', '_Pragma takes a parenthesized string literal' + macroNote(t), t.range);
      return false;
    }
    this.next();
    const s = this.next();
    const c = s.kind === 'string' ? this.next() : s;
    if (s.kind !== 'string' || !isPunct(c, ')')) {
      this.sink.error('invalid-pragma', '_Pragma takes a parenthesized string literal' + macroNote(t), t.range);
      return true;
    }
    if (destringize(s.text).trim() === 'once') this.onceFiles.add(this.file.path);
    return true;
  }

  // -------------------------------------------------------------------------------------------
  // Directives

  private directive(): void {
    const f = this.file;
    const toks = f.tokens;
    const hashIdx = f.pos;
    let e = hashIdx + 1;
    while (!toks[e].lineStart) e++;
    f.pos = e;
    if (e === hashIdx + 1) return; // null directive
    const name = toks[hashIdx + 1];
    const a = hashIdx + 2;
    if (name.kind === 'number') {
      this.reportLineProblems(f, a - 1, e);
      this.doLine(f, name, a - 1, e);
      return;
    }
    if (name.kind !== 'ident') {
      this.sink.error('unknown-directive', `invalid preprocessing directive #${name.text}`, name.range);
      return;
    }
    switch (name.text) {
      case 'define':
        this.doDefine(f, name, a, e);
        return;
      case 'undef':
        this.reportLineProblems(f, a, e);
        this.doUndef(f, name, a, e);
        return;
      case 'include':
      case 'include_next':
      case 'import':
        this.reportLineProblems(f, a, e);
        this.doInclude(f, name, a, e);
        return;
      case 'if':
      case 'ifdef':
      case 'ifndef': {
        this.reportLineProblems(f, a, e);
        const value = name.text === 'if' ? this.evalIf(f, name, a, e) : this.evalIfdef(f, name, a, e);
        f.conds.push({ taken: value, sawElse: false, range: name.range, name: name.text });
        if (!value) this.skipGroup(f);
        return;
      }
      case 'elif':
      case 'elifdef':
      case 'elifndef': {
        const c = f.conds[f.conds.length - 1];
        if (c === undefined) {
          this.sink.error('unmatched-conditional', `#${name.text} without #if`, name.range);
          return;
        }
        if (c.sawElse) {
          this.sink.error('unmatched-conditional', `#${name.text} after #else`, name.range);
          this.skipGroup(f);
          return;
        }
        if (c.taken) {
          this.skipGroup(f);
          return;
        }
        this.reportLineProblems(f, a, e);
        const value = name.text === 'elif' ? this.evalIf(f, name, a, e) : this.evalIfdef(f, name, a, e);
        if (value) c.taken = true;
        else this.skipGroup(f);
        return;
      }
      case 'else': {
        const c = f.conds[f.conds.length - 1];
        if (c === undefined) {
          this.sink.error('unmatched-conditional', '#else without #if', name.range);
          return;
        }
        this.extraTokens(f, 'else', a, e);
        if (c.sawElse) {
          this.sink.error('unmatched-conditional', '#else after #else', name.range);
          this.skipGroup(f);
          return;
        }
        c.sawElse = true;
        if (c.taken) this.skipGroup(f);
        else c.taken = true;
        return;
      }
      case 'endif':
        if (f.conds.length === 0) {
          this.sink.error('unmatched-conditional', '#endif without #if', name.range);
          return;
        }
        this.extraTokens(f, 'endif', a, e);
        f.conds.pop();
        return;
      case 'line':
        this.reportLineProblems(f, a, e);
        this.doLine(f, name, a, e);
        return;
      case 'error':
      case 'warning': {
        const text = this.restOfLine(f, name, e);
        const range = spanRanges(name.range, toks[e - 1].range);
        if (name.text === 'error') this.sink.error('error-directive', text || '#error', range);
        else this.sink.warning('warning-directive', text || '#warning', range);
        return;
      }
      case 'pragma':
        this.doPragma(f, a, e);
        return;
      case 'ident':
      case 'sccs':
      case 'assert':
      case 'unassert':
        return;
      default:
        this.sink.error('unknown-directive', `invalid preprocessing directive #${name.text}`, name.range);
    }
  }

  private reportLineProblems(f: FileState, a: number, e: number): void {
    for (let i = a; i < e; i++) {
      const t = f.tokens[i];
      if (t.problem !== undefined) this.sink.error(t.problem.code, t.problem.message, t.range);
    }
  }

  private restOfLine(f: FileState, name: Token, e: number): string {
    const last = f.tokens[e - 1];
    if (last === name) return '';
    const raw = f.lexed.text.slice(name.range.end.offset, last.range.end.offset);
    return raw.replace(/\\\r?\n/g, '').trim();
  }

  private extraTokens(f: FileState, directive: string, a: number, e: number): void {
    if (a >= e) return;
    this.sink.warning(
      'extra-tokens',
      `extra tokens at end of #${directive} directive`,
      spanRanges(f.tokens[a].range, f.tokens[e - 1].range),
    );
  }

  /** Skips a false group: stops at the `#` of the #elif/#else/#endif that ends it (or at eof),
   *  keeping track of nested conditionals, ignoring everything else. */
  private skipGroup(f: FileState): void {
    const toks = f.tokens;
    const first = f.pos;
    let i = first;
    let depth = 0;
    for (;;) {
      const t = toks[i];
      if (t.kind === 'eof') break;
      if (t.lineStart && t.kind === 'punct' && t.text === '#') {
        const n = toks[i + 1];
        if (!n.lineStart && n.kind === 'ident') {
          const s = n.text;
          if (s === 'if' || s === 'ifdef' || s === 'ifndef') depth++;
          else if (s === 'endif') {
            if (depth === 0) break;
            depth--;
          } else if (depth === 0 && (s === 'else' || s === 'elif' || s === 'elifdef' || s === 'elifndef')) break;
        }
      }
      i++;
    }
    if (i > first) {
      this.inactive.push({ file: f.path, start: toks[first].range.start, end: toks[i - 1].range.end });
    }
    f.pos = i;
  }

  /** Macro-expands the tokens [a, e) of the current file's directive line. `onToken` sees each
   *  expanded token with the means to read raw tokens after it (for `defined X`). */
  private expandLine(f: FileState, a: number, e: number, onToken: (t: Token, end: Token) => void): Token {
    const toks = f.tokens;
    const last = e > a ? toks[e - 1] : toks[a - 1];
    const end: Token = {
      kind: 'eof',
      text: '',
      range: { file: f.path, start: last.range.end, end: last.range.end },
      spaceBefore: false,
      lineStart: true,
    };
    const base = this.ctx.length;
    const pendingBase = this.pending.length;
    this.pushContext(toks.slice(a, e), null, end);
    this.directiveDepth++;
    try {
      for (;;) {
        const t = this.nextExpanded();
        if (t === end) break;
        onToken(t, end);
      }
    } finally {
      this.directiveDepth--;
      this.pending.length = pendingBase;
      this.truncateContexts(base);
    }
    return end;
  }

  private evalIf(f: FileState, name: Token, a: number, e: number): boolean {
    const collected: Token[] = [];
    try {
      const end = this.expandLine(f, a, e, (t, endTok) => {
        if (t.kind === 'ident') {
          if (t.text === 'defined') {
            collected.push(this.readDefined(t, endTok));
            return;
          }
          const m = this.macros.get(t.text);
          if (m !== undefined && m.kind === KIND_IF_OPERATOR && !this.isPainted(t)) {
            collected.push(this.readIfOperator(t, endTok));
            return;
          }
        }
        collected.push(t);
      });
      const v = evaluatePPExpression(collected, name, end);
      return v.v !== 0n;
    } catch (err) {
      if (err instanceof PPExpressionError) {
        const at = collected.find((t) => t.range === err.range);
        this.sink.error('invalid-pp-expression', err.message + (at ? macroNote(at) : ''), err.range);
        return false;
      }
      if (err instanceof RangeError) {
        this.sink.error('invalid-pp-expression', `#${name.text} expression nested too deeply`, name.range);
        return false;
      }
      throw err;
    }
  }

  private valueToken(at: Token, value: boolean): Token {
    return { kind: 'number', text: value ? '1' : '0', range: at.range, spaceBefore: at.spaceBefore, lineStart: false };
  }

  /** `defined X` or `defined ( X )`, read without expansion. */
  private readDefined(def: Token, end: Token): Token {
    let t = this.next();
    const paren = isPunct(t, '(');
    if (paren) t = this.next();
    if (t.kind !== 'ident') {
      throw new PPExpressionError('operator "defined" requires an identifier', t === end ? def.range : t.range);
    }
    if (paren) {
      const c = this.next();
      if (!isPunct(c, ')')) throw new PPExpressionError('missing \')\' after "defined"', c === end ? t.range : c.range);
    }
    if (t.text === '__CUDA_ARCH__') this.usedCudaArch = true;
    return this.valueToken(def, this.macros.has(t.text));
  }

  /** `__has_include("x")`, `__has_include(<x>)` and `__has_cpp_attribute(x)`-like operators. */
  private readIfOperator(op: Token, end: Token): Token {
    const open = this.next();
    if (!isPunct(open, '(')) throw new PPExpressionError(`missing '(' after "${op.text}"`, open === end ? op.range : open.range);
    if (HAS_FEATURE_OPERATORS.has(op.text)) {
      let depth = 1;
      for (;;) {
        const t = this.next();
        if (t === end || t.kind === 'eof') throw new PPExpressionError(`missing ')' after "${op.text}"`, op.range);
        if (isPunct(t, '(')) depth++;
        else if (isPunct(t, ')') && --depth === 0) break;
      }
      return this.valueToken(op, false);
    }
    const t = this.next();
    let header: string;
    let angle = false;
    if (t.kind === 'string' && t.text.startsWith('"')) header = t.text.slice(1, -1);
    else if (isPunct(t, '<')) {
      angle = true;
      const f = this.file;
      if (t.expansion === undefined && t.range.file === f.path) {
        const text = f.lexed.text;
        let k = t.range.start.offset + 1;
        while (k < text.length && text[k] !== '>' && text[k] !== '\n') k++;
        if (text[k] !== '>') throw new PPExpressionError('missing terminating > character', t.range);
        header = text.slice(t.range.start.offset + 1, k);
        for (;;) {
          const x = this.next();
          if (x === end || x.kind === 'eof') throw new PPExpressionError('missing terminating > character', t.range);
          if (x.range.end.offset > k) break;
        }
      } else {
        header = '';
        for (;;) {
          const x = this.next();
          if (x === end || x.kind === 'eof') throw new PPExpressionError('missing terminating > character', t.range);
          if (isPunct(x, '>')) break;
          header += (x.spaceBefore && header ? ' ' : '') + x.text;
        }
      }
    } else {
      throw new PPExpressionError(`operator "${op.text}" requires a header-name`, t === end ? op.range : t.range);
    }
    const close = this.next();
    if (!isPunct(close, ')')) throw new PPExpressionError(`missing ')' after "${op.text}" operand`, close === end ? op.range : close.range);
    const found = this.resolveInclude(header, angle, op.text === '__has_include_next').found !== null;
    return this.valueToken(op, found);
  }

  private evalIfdef(f: FileState, name: Token, a: number, e: number): boolean {
    const negate = name.text === 'ifndef' || name.text === 'elifndef';
    const t = this.identifierAfter(f, name, a, e);
    if (t === null) return false;
    this.extraTokens(f, name.text, a + 1, e);
    if (t.text === '__CUDA_ARCH__') this.usedCudaArch = true;
    const d = this.macros.has(t.text);
    return negate ? !d : d;
  }

  /** The identifier that must follow a directive name, or null after reporting its absence. */
  private identifierAfter(f: FileState, dir: Token, a: number, e: number): Token | null {
    if (a >= e) {
      this.sink.error('missing-macro-name', `no macro name given in #${dir.text} directive`, dir.range);
      return null;
    }
    const t = f.tokens[a];
    if (t.kind !== 'ident') {
      this.sink.error('invalid-macro-name', 'macro names must be identifiers', t.range);
      return null;
    }
    return t;
  }

  /** The name after #define/#undef, or null after reporting why it is not a valid one. */
  private macroNameAt(f: FileState, dir: Token, a: number, e: number): Token | null {
    const t = this.identifierAfter(f, dir, a, e);
    if (t === null) return null;
    if (t.text === 'defined' || CPP_OPERATOR_NAMES.has(t.text) || t.text === '__has_include' || t.text === '__has_include_next') {
      this.sink.error('invalid-macro-name', `"${t.text}" cannot be used as a macro name`, t.range);
      return null;
    }
    return t;
  }

  private doDefine(f: FileState, dir: Token, a: number, e: number): void {
    const toks = f.tokens;
    const nameTok = this.macroNameAt(f, dir, a, e);
    if (nameTok === null) return;
    let i = a + 1;
    let params: string[] | undefined;
    let variadic = false;
    const bad = (msg: string, at: Token): void => {
      this.sink.error('invalid-macro-definition', msg, at.range);
    };
    /** After `...` the parameter list must close; false once that has been reported. */
    const closeAfterEllipsis = (): boolean => {
      variadic = true;
      i++;
      if (i >= e || !isPunct(toks[i], ')')) {
        bad("missing ')' after \"...\" in macro parameter list", toks[Math.min(i, e - 1)]);
        return false;
      }
      i++;
      return true;
    };
    if (i < e && isPunct(toks[i], '(') && !toks[i].spaceBefore) {
      params = [];
      i++;
      let expectParam = false;
      for (;;) {
        if (i >= e) {
          bad("missing ')' in macro parameter list", toks[e - 1]);
          return;
        }
        const t = toks[i];
        if (isPunct(t, ')') && params.length === 0 && !expectParam) {
          i++;
          break;
        }
        if (isPunct(t, '...')) {
          params.push('__VA_ARGS__');
          if (!closeAfterEllipsis()) return;
          break;
        }
        if (t.kind !== 'ident') {
          bad(`expected parameter name, found "${t.text}"`, t);
          return;
        }
        if (t.text === '__VA_ARGS__' || t.text === '__VA_OPT__') {
          bad(`${t.text} can not be used as a parameter name`, t);
          return;
        }
        if (params.includes(t.text)) {
          bad(`duplicate macro parameter "${t.text}"`, t);
          return;
        }
        params.push(t.text);
        i++;
        if (i < e && isPunct(toks[i], '...')) {
          // GNU named variadic parameter: `args...`.
          if (!closeAfterEllipsis()) return;
          break;
        }
        if (i < e && isPunct(toks[i], ',')) {
          i++;
          expectParam = true;
          continue;
        }
        if (i < e && isPunct(toks[i], ')')) {
          i++;
          break;
        }
        bad(`expected ',' or ')', found "${i < e ? toks[i].text : ''}"`, toks[Math.min(i, e - 1)]);
        return;
      }
    }
    const body = toks.slice(i, e);
    const items = this.compileBody(body, params, variadic);
    if (items === null) return;
    const m: Macro = {
      name: nameTok.text,
      params,
      variadic,
      body,
      range: nameTok.range,
      builtin: f.lexed.builtin,
      kind: KIND_NORMAL,
      disabled: 0,
      simple: items.every((it) => it.k === 0),
      items,
      expandOrder: expandOrderOf(items, params ? params.length - 1 : -1),
      shared: body.map((b) => ({ macro: nameTok.text, definedAt: b.range })),
      cudaArch: nameTok.text === '__CUDA_ARCH__',
    };
    const old = this.macros.get(m.name);
    if (old !== undefined && !sameDefinition(old, m)) {
      const related: RelatedInformation[] = [{ message: 'previous definition is here', range: old.range }];
      this.sink.warning('macro-redefined', `'${m.name}' macro redefined`, nameTok.range, related);
    }
    this.macros.set(m.name, m);
  }

  /** Compiles a replacement list; null (after an error) when it is invalid. */
  private compileBody(body: Token[], params: string[] | undefined, variadic: boolean): Item[] | null {
    const paramIndex = (t: Token): number => (params && t.kind === 'ident' ? params.indexOf(t.text) : -1);
    const fail = (msg: string, at: Token, code = 'invalid-macro-definition'): null => {
      this.sink.error(code, msg, at.range);
      return null;
    };
    const parse = (from: number, to: number, inOpt: boolean): Item[] | null => {
      const items: Item[] = [];
      for (let i = from; i < to; ) {
        const t = body[i];
        if (params !== undefined && isPunct(t, '#')) {
          const n = i + 1 < to ? body[i + 1] : undefined;
          const p = n ? paramIndex(n) : -1;
          if (p >= 0) {
            items.push({ k: 2, i, p, end: i + 1 });
            i += 2;
            continue;
          }
          if (n && variadic && n.text === '__VA_OPT__' && n.kind === 'ident' && !inOpt) {
            const close = this.vaOptClose(body, i + 1, to);
            if (close < 0) return fail('unterminated __VA_OPT__', n);
            const sub = parse(i + 3, close, true);
            if (sub === null) return null;
            items.push({ k: 4, i, end: close, items: sub, str: true });
            i = close + 1;
            continue;
          }
          return fail("'#' is not followed by a macro parameter", t, 'invalid-stringify');
        }
        if (isPunct(t, '##')) {
          if (items.length === 0 || i === to - 1) {
            return fail(`'##' cannot appear at either end of ${inOpt ? '__VA_OPT__' : 'a macro expansion'}`, t);
          }
          items.push({ k: 3, i, commaVa: false });
          i++;
          continue;
        }
        if (params !== undefined && variadic && t.kind === 'ident' && t.text === '__VA_OPT__') {
          if (inOpt) return fail('__VA_OPT__ may not appear in a __VA_OPT__', t);
          const close = this.vaOptClose(body, i, to);
          if (close < 0) return fail('unterminated __VA_OPT__', t);
          const sub = parse(i + 2, close, true);
          if (sub === null) return null;
          items.push({ k: 4, i, end: close, items: sub, str: false });
          i = close + 1;
          continue;
        }
        const p = paramIndex(t);
        if (p >= 0) items.push({ k: 1, i, p, raw: false });
        else items.push({ k: 0, i });
        i++;
      }
      // Operands of ## are not macro-expanded; `, ## __VA_ARGS__` is gcc's comma swallowing.
      for (let k = 0; k < items.length; k++) {
        const it = items[k];
        if (it.k === 1) it.raw = (k > 0 && items[k - 1].k === 3) || (k + 1 < items.length && items[k + 1].k === 3);
        else if (it.k === 3 && variadic && params) {
          const l = items[k - 1];
          const r = items[k + 1];
          if (l.k === 0 && isPunct(body[l.i], ',') && r.k === 1 && r.p === params.length - 1) it.commaVa = true;
        }
      }
      return items;
    };
    return parse(0, body.length, false);
  }

  /** Index of the `)` closing `__VA_OPT__ (` at body[at], or -1. */
  private vaOptClose(body: Token[], at: number, to: number): number {
    if (at + 1 >= to || !isPunct(body[at + 1], '(')) return -1;
    let depth = 0;
    for (let k = at + 1; k < to; k++) {
      if (isPunct(body[k], '(')) depth++;
      else if (isPunct(body[k], ')') && --depth === 0) return k;
    }
    return -1;
  }

  private doUndef(f: FileState, dir: Token, a: number, e: number): void {
    const t = this.macroNameAt(f, dir, a, e);
    if (t === null) return;
    this.extraTokens(f, 'undef', a + 1, e);
    this.macros.delete(t.text);
  }

  private doLine(f: FileState, dir: Token, a: number, e: number): void {
    const isMarker = dir.kind === 'number';
    const toks: Token[] = [];
    if (isMarker) for (let i = a; i < e; i++) toks.push(f.tokens[i]);
    else this.expandLine(f, a, e, (t) => toks.push(t));
    const n = toks[0];
    if (n === undefined || n.kind !== 'number' || !/^[0-9]+$/.test(n.text)) {
      const what = n === undefined ? '' : `"${n.text}" `;
      this.sink.error('invalid-line-directive', `${what}after #line is not a positive integer`, n?.range ?? dir.range);
      return;
    }
    const value = Number(n.text);
    if (value > 2147483647) {
      this.sink.error('invalid-line-directive', 'line number out of range', n.range);
      return;
    }
    let k = 1;
    if (k < toks.length) {
      const s = toks[k];
      if (s.kind !== 'string' || !s.text.startsWith('"')) {
        this.sink.error('invalid-line-directive', `invalid filename "${s.text}"`, s.range);
        return;
      }
      f.presumedName = destringize(s.text);
      k++;
    }
    if (!isMarker && k < toks.length) {
      this.sink.warning('extra-tokens', 'extra tokens at end of #line directive', spanRanges(toks[k].range, toks[toks.length - 1].range));
    }
    const lastLine = f.tokens[e - 1].range.end.line;
    f.lineOffset = value - lastLine - 1;
  }

  private doPragma(f: FileState, a: number, e: number): void {
    if (a >= e) return;
    const t = f.tokens[a];
    if (t.kind !== 'ident') return;
    if (t.text === 'once') {
      this.onceFiles.add(f.path);
      return;
    }
    if (t.text === 'push_macro' || t.text === 'pop_macro') {
      // #pragma push_macro("NAME") / pop_macro("NAME")
      const s = f.tokens[a + 2];
      if (a + 3 >= e || !isPunct(f.tokens[a + 1], '(') || s.kind !== 'string' || !isPunct(f.tokens[a + 3], ')')) return;
      const name = destringize(s.text);
      let stack = this.pushedMacros.get(name);
      if (t.text === 'push_macro') {
        if (!stack) this.pushedMacros.set(name, (stack = []));
        stack.push(this.macros.get(name));
      } else if (stack && stack.length > 0) {
        const m = stack.pop();
        if (m) this.macros.set(name, m);
        else this.macros.delete(name);
      }
    }
    // Everything else (unroll, pack, GCC ..., nv_diag_suppress, ...) is ignored.
  }

  // -------------------------------------------------------------------------------------------
  // #include

  private doInclude(f: FileState, dir: Token, a: number, e: number): void {
    const toks = f.tokens;
    let header: string | undefined;
    let angle = false;
    let range: Range | undefined;
    let rest = e;
    const first = a < e ? toks[a] : undefined;
    if (first !== undefined && first.kind === 'string' && first.text.startsWith('"')) {
      header = first.text.slice(1, -1);
      range = first.range;
      rest = a + 1;
    } else if (first !== undefined && isPunct(first, '<')) {
      const text = f.lexed.text;
      let k = first.range.start.offset + 1;
      while (k < text.length && text[k] !== '>' && text[k] !== '\n') k++;
      if (text[k] === '>') {
        header = text.slice(first.range.start.offset + 1, k);
        angle = true;
        rest = a;
        while (rest < e && toks[rest].range.start.offset <= k) rest++;
        const last = toks[rest - 1];
        range = { file: f.path, start: first.range.start, end: last.range.end };
      } else {
        this.sink.error('invalid-include', 'missing terminating > character', first.range);
        return;
      }
    } else if (first !== undefined) {
      // Computed include: macro-expand the line.
      const exp: Token[] = [];
      this.expandLine(f, a, e, (t) => exp.push(t));
      range = spanRanges(first.range, toks[e - 1].range);
      const h = exp[0];
      if (h !== undefined && h.kind === 'string' && h.text.startsWith('"')) header = h.text.slice(1, -1);
      else if (h !== undefined && isPunct(h, '<')) {
        let s = '';
        let closed = false;
        for (let k = 1; k < exp.length; k++) {
          if (isPunct(exp[k], '>')) {
            closed = true;
            break;
          }
          s += (exp[k].spaceBefore && s ? ' ' : '') + exp[k].text;
        }
        if (closed) {
          header = s;
          angle = true;
        }
      }
      if (header === undefined) {
        this.sink.error('invalid-include', `#${dir.text} expects "FILENAME" or <FILENAME>`, range);
        return;
      }
    }
    if (header === undefined || range === undefined) {
      this.sink.error('invalid-include', `#${dir.text} expects "FILENAME" or <FILENAME>`, dir.range);
      return;
    }
    if (header === '') {
      this.sink.error('invalid-include', `empty filename in #${dir.text}`, range);
      return;
    }
    if (rest < e) this.extraTokens(f, dir.text, rest, e);
    if (this.collecting > 0) {
      this.sink.error('include-in-macro-args', `#${dir.text} inside the arguments of a macro is not supported`, range);
      return;
    }
    const r = this.resolveInclude(header, angle, dir.text === 'include_next');
    if (r.found === null) {
      if (r.refused) {
        const where = r.refused.path === header ? '' : ` (${r.refused.path})`;
        this.sink.error('include-refused', `'${header}' is not read: ${r.refused.reason}${where}`, range);
      } else if (angle) {
        this.sink.warning('unknown-system-header', `not supported yet: system header <${header}>; its declarations are unknown`, range);
      } else {
        this.sink.error(
          'include-not-found',
          `'${header}' file not found (searched: ${r.searched.join(', ') || 'nothing'})`,
          range,
        );
      }
      return;
    }
    const l = r.found;
    this.includes.push({ from: f.path, to: l.path, range, system: angle, builtin: l.builtin });
    if (dir.text === 'import') this.onceFiles.add(l.path);
    else if (this.onceFiles.has(l.path)) return;
    if (l.guard !== null && this.macros.has(l.guard)) return;
    const at = this.fileStack.findIndex((s) => s.path === l.path);
    if (at >= 0) {
      const chain = this.fileStack.slice(at).map((s) => s.path);
      chain.push(l.path);
      this.sink.error('include-cycle', `#include cycle: ${chain.join(' -> ')}`, range);
      // Said in the main file too, at its #include that leads into the cycle.
      const entry = this.fileStack[1]?.includedAt;
      if (this.fileStack.length > 1 && entry && this.file !== this.fileStack[0]) {
        this.sink.error('include-cycle', `headers included here include each other in a cycle: ${chain.join(' -> ')}`, entry);
      }
      return;
    }
    if (this.fileStack.length >= this.maxDepth) {
      this.sink.error('include-depth', `#include nested depth ${this.fileStack.length} exceeds maximum of ${this.maxDepth}`, range);
      return;
    }
    this.pushFile(l, r.dirIndex, range);
  }

  /** Finds a header: "x" in the includer's directory, then -I, then the built-in headers;
   *  <x> in -I, then the built-in headers. */
  private resolveInclude(
    name: string,
    angle: boolean,
    next: boolean,
  ): { found: LexedFile | null; dirIndex: number; searched: string[]; refused?: { path: string; reason: string } } {
    const P = this.path;
    const searched: string[] = [];
    const cur = this.file;
    const tryPath = (p: string): LexedFile | null => {
      searched.push(p);
      return this.loadFile(p);
    };
    // A file that exists but is refused ends the search, as a found file does.
    const refusal = (p: string): { path: string; reason: string } | undefined => {
      const reason = this.refusedFiles.get(p);
      return reason === undefined ? undefined : { path: p, reason };
    };
    if (P.isAbsolute(name)) {
      const p = P.normalize(name);
      const l = tryPath(p);
      const refused = refusal(p);
      return { found: l, dirIndex: -1, searched, ...(refused ? { refused } : {}) };
    }
    let start = 0;
    if (next) start = cur.dirIndex + 1;
    else if (!angle && !cur.lexed.builtin) {
      const dir = P.dirname(cur.path);
      const p = P.join(dir, name);
      const l = tryPath(p);
      if (l) return { found: l, dirIndex: -1, searched };
      const refused = refusal(p);
      if (refused) return { found: null, dirIndex: -1, searched, refused };
    }
    for (let i = start; i < this.includePaths.length; i++) {
      const p = P.join(this.includePaths[i], name);
      const l = tryPath(p);
      if (l) return { found: l, dirIndex: i, searched };
      const refused = refusal(p);
      if (refused) return { found: null, dirIndex: -1, searched, refused };
    }
    const text = SYSTEM_HEADERS.get(name);
    if (text !== undefined && !(next && cur.path === `<${name}>`)) {
      return { found: lexBuiltin(`<${name}>`, text), dirIndex: this.includePaths.length, searched };
    }
    return { found: null, dirIndex: -1, searched };
  }
}
