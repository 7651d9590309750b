// Error-tolerant recursive-descent parser for the CUDA C++ subset. It always returns a complete
// tree: a missing token is reported at the end of the previous token and treated as present,
// junk is skipped to the next point where a statement or declaration can start, and an error
// is reported at most once per position so one slip does not bury the file in messages.
//
// C++ needs to know which names are types to tell `T * p;` from a multiplication, so the
// parser keeps scopes of the names declared so far (types, templates and values shadowing them).
import type * as A from './ast';
import { DiagnosticSink, type Diagnostic } from './diagnostics';
import { decodeEscapes, decodeNumber, literalBody } from './literals';
import { spanRanges, type Range } from './source';
import { macroNote, type Token } from './token';
import { BUILTIN_TYPE_NAMES } from './builtinTypes';
import { isLibcuTypeName } from './libcu';

const TYPE_KEYWORDS = new Set([
  'void', 'bool', 'char', 'short', 'int', 'long', 'signed', 'unsigned', 'float', 'double',
  'wchar_t', 'char16_t', 'char32_t', '__int128', '_Bool',
]);
const CV_QUALIFIERS = new Set(['const', 'volatile']);
const RESTRICT = new Set(['__restrict__', '__restrict', 'restrict']);
const DECL_SPECIFIERS = new Set([
  'static', 'extern', 'inline', '__inline__', '__inline', '__forceinline__', '__noinline__',
  '__global__', '__device__', '__host__', '__shared__', '__constant__', '__managed__', 'register',
  'constexpr', 'typedef', 'mutable', 'thread_local', 'explicit', 'virtual', 'friend',
  '__device_builtin__', '__cudart_builtin__', '__grid_constant__',
]);
/** Specifiers that take a parenthesised argument list. */
const SPECIFIERS_WITH_ARGS = new Set(['__launch_bounds__', '__align__', 'alignas', '__declspec']);
const TAG_KEYWORDS = new Set(['struct', 'union', 'class', 'enum']);
const STATEMENT_KEYWORDS = new Set([
  'if', 'for', 'while', 'do', 'switch', 'case', 'default', 'break', 'continue', 'return', 'goto',
  'asm', '__asm__', '__asm', 'try', 'throw',
]);
const ASSIGN_OPS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '<<=', '>>=', '&=', '^=', '|=']);
const BINARY_PRECEDENCE: Record<string, number> = {
  '*': 10, '/': 10, '%': 10, '+': 9, '-': 9, '<<': 8, '>>': 8, '<': 7, '>': 7, '<=': 7, '>=': 7,
  '==': 6, '!=': 6, '&': 5, '^': 4, '|': 3, '&&': 2, '||': 1,
};

type NameKind = 'type' | 'template' | 'value';

interface DeclSpecs {
  specifiers: A.Specifier[];
  /** The type named by the specifiers, qualifiers included. Undefined if none was written. */
  base?: A.TypeNode;
  /** A struct/union/enum defined inside the specifiers. */
  tagDecl?: A.StructDecl | A.EnumDecl;
  start: Token;
}

interface Declarator {
  name?: string;
  nameRange?: Range;
  type: A.TypeNode;
  /** Set when the declarator is a function: `f(int a)`. */
  fn?: { params: A.ParamDecl[]; variadic: boolean };
}

export interface ParseResult {
  ast: A.TranslationUnit;
  diagnostics: Diagnostic[];
}

/**
 * How deeply brackets, blocks, statements and prefix operators may nest (compilers bound
 * brackets at 256 too), and how many binary operators an expression may chain: every later
 * pass walks the tree recursively, so the tree's depth is bounded here, where the error can say
 * where. The parser reads a chain in a loop; the passes after it recurse once per operator, which
 * the analysis stack (sims/largeStack.ts: 64 MB, in the editor and the CLI) holds for 100,000
 * operators with room to spare — far beyond generated code (an unrolled sum, a polynomial).
 */
export const MAX_NESTING = 256;
export const MAX_CHAIN = 100_000;

/** Thrown when the bound is passed; the parse stops there, reported once. */
class NestingTooDeep extends Error {}

/**
 * Thrown by a parse given a smaller `maxChain` than MAX_CHAIN (a caller on a smaller stack than
 * the analysis's, such as the editor's main thread) when an expression chains more operators:
 * the file is fine, but that caller leaves it to the analysis.
 */
export class ChainBeyondCaller extends Error {}

export function parseTokens(tokens: Token[], fileName: string, maxChain = MAX_CHAIN): ParseResult {
  const p = new Parser(tokens, fileName, maxChain);
  const ast = p.parseTranslationUnit();
  return { ast, diagnostics: p.sink.items };
}

class Parser {
  readonly sink = new DiagnosticSink();
  private pos = 0;
  private lastErrorOffset = -1;
  private lastErrorFile = '';
  private readonly scopes: Map<string, NameKind>[] = [new Map()];
  /** >0 while parsing template arguments: a bare `>` closes the list instead of comparing. */
  private templateDepth = 0;
  /** Brackets, blocks, statements and prefix operators open now (see MAX_NESTING). */
  private depth = 0;
  /** Binary operators of the chains open now, nested ones included (see MAX_CHAIN). */
  private chained = 0;

  constructor(
    private tokens: Token[],
    private readonly fileName: string,
    private readonly maxChain = MAX_CHAIN,
  ) {}

  // -------------------------------------------------------------------------------------------
  // Token access

  private peek(k = 0): Token {
    const i = this.pos + k;
    return i < this.tokens.length ? this.tokens[i] : this.tokens[this.tokens.length - 1];
  }
  private get tok(): Token {
    return this.tokens[this.pos];
  }
  private atEnd(): boolean {
    return this.tok.kind === 'eof';
  }
  private next(): Token {
    const t = this.tokens[this.pos];
    if (t.kind !== 'eof') this.pos++;
    return t;
  }
  private prev(): Token {
    return this.tokens[Math.max(0, this.pos - 1)];
  }
  /** The token has this spelling and is a punctuator or identifier/keyword (not a literal). */
  private is(text: string, k = 0): boolean {
    const t = this.peek(k);
    return t.text === text && (t.kind === 'punct' || t.kind === 'ident');
  }
  private eat(text: string): Token | undefined {
    return this.is(text) ? this.next() : undefined;
  }
  private expect(text: string, context: string, opener?: Token): Token | undefined {
    const t = this.eat(text);
    if (t) return t;
    const related = opener ? [{ message: `to match this '${opener.text}'`, range: opener.range }] : undefined;
    this.errorAfterPrevious('expected-token', `expected '${text}' ${context}`, related);
    return undefined;
  }
  private rangeFrom(start: Token | Range): Range {
    const r = 'kind' in start ? (start as Token).range : (start as Range);
    const end = this.pos > 0 ? this.prev().range : r;
    return spanRanges(r, end.start.offset >= r.start.offset || end.file !== r.file ? end : r);
  }

  // -------------------------------------------------------------------------------------------
  // Diagnostics

  private error(code: string, message: string, at: Token | Range, related?: { message: string; range: Range }[]): void {
    const range = 'kind' in at ? (at as Token).range : (at as Range);
    if (range.start.offset === this.lastErrorOffset && range.file === this.lastErrorFile) return;
    this.lastErrorOffset = range.start.offset;
    this.lastErrorFile = range.file;
    const note = 'kind' in at ? macroNote(at as Token) : '';
    this.sink.error(code, message + note, range, related);
  }
  /** A missing token: reported as a zero-width range right after the previous token. */
  private errorAfterPrevious(code: string, message: string, related?: { message: string; range: Range }[]): void {
    const p = this.pos > 0 ? this.prev() : this.tok;
    const at: Range = { file: p.range.file, start: p.range.end, end: p.range.end };
    this.error(code, message + macroNote(p), at, related);
  }
  private notSupported(what: string, at: Token | Range): void {
    const range = 'kind' in at ? (at as Token).range : (at as Range);
    this.sink.error('not-supported', `not supported yet: ${what}`, range);
  }
  private describe(t: Token): string {
    if (t.kind === 'eof') return 'end of file';
    return `'${t.text}'`;
  }

  // -------------------------------------------------------------------------------------------
  // Scopes of names

  private pushScope(): void {
    this.scopes.push(new Map());
  }
  private popScope(): void {
    this.scopes.pop();
  }
  private declare(name: string, kind: NameKind): void {
    this.scopes[this.scopes.length - 1].set(name, kind);
  }
  private lookup(name: string): NameKind | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const k = this.scopes[i].get(name);
      if (k) return k;
    }
    return BUILTIN_TYPE_NAMES.has(name) ? 'type' : undefined;
  }
  private isTypeName(name: string): boolean {
    return this.lookup(name) === 'type';
  }
  private isTemplateName(name: string): boolean {
    return this.lookup(name) === 'template';
  }

  /** Can the current token begin a type (in a cast, sizeof, template argument, parameter)? */
  private startsType(k = 0): boolean {
    const t = this.peek(k);
    if (t.kind !== 'ident') return false;
    const s = t.text;
    if (TYPE_KEYWORDS.has(s) || CV_QUALIFIERS.has(s) || TAG_KEYWORDS.has(s) || s === 'auto' || s === 'typename') return true;
    if (this.isQualifiedTypeAhead(k)) return true;
    return this.isTypeName(s);
  }
  private isStdTypeName(s: string): boolean {
    return BUILTIN_TYPE_NAMES.has(s) || STD_UNSUPPORTED_TYPES.has(s);
  }

  /** Does a declaration start here (as opposed to an expression statement)? */
  private startsDeclaration(): boolean {
    const t = this.tok;
    if (t.kind !== 'ident') return this.is('[[');
    const s = t.text;
    if (DECL_SPECIFIERS.has(s) || SPECIFIERS_WITH_ARGS.has(s) || s === '__attribute__') return true;
    if (TYPE_KEYWORDS.has(s) || CV_QUALIFIERS.has(s) || TAG_KEYWORDS.has(s) || RESTRICT.has(s)) {
      // `int(x)` at statement start is a functional cast in an expression; `void (*fp)(…)`
      // declares a function pointer.
      if (TYPE_KEYWORDS.has(s) && this.is('(', 1)) return this.is('*', 2) || this.is('&', 2);
      return true;
    }
    if (s === 'auto' || s === 'using' || s === 'static_assert' || s === 'template' || s === 'typename') return true;
    // `cuda::atomic_ref<int>(x).store(1);` constructs a temporary: an expression.
    if (this.isQualifiedTypeAhead(0)) return this.peekAfterTypeName() !== '(' && this.peekAfterTypeName() !== '{';
    const kind = this.lookup(s);
    const n = this.peek(1);
    if (kind === 'type') {
      // `float4(…)` and `T{…}` start expressions; `T x`, `T *p`, `T &r`, `T<…> x` declarations.
      if (n.text === '(' || n.text === '{' || n.text === '::' || n.text === '.') return false;
      return true;
    }
    // An unknown name followed by a name is a declaration with an undeclared type (`Foo x;`).
    return kind === undefined && n.kind === 'ident' && !STATEMENT_KEYWORDS.has(n.text) && !this.peek(1).lineStart;
  }

  // -------------------------------------------------------------------------------------------
  // Translation unit and declarations

  parseTranslationUnit(): A.TranslationUnit {
    const decls: A.Decl[] = [];
    while (!this.atEnd()) {
      const before = this.pos;
      try {
        decls.push(...this.parseExternalDeclaration());
      } catch (e) {
        if (!(e instanceof NestingTooDeep)) throw e;
        // Said where it happened; nothing after it is read.
        this.pos = this.tokens.length - 1;
        break;
      }
      if (this.pos === before) this.skipJunkAtFileScope();
    }
    // The unit covers the whole main file, wherever its first token came from (a header).
    const range: Range = { file: this.fileName, start: { line: 0, character: 0, offset: 0 }, end: this.tok.range.end };
    return { kind: 'TranslationUnit', range, decls };
  }

  private skipJunkAtFileScope(): void {
    const t = this.tok;
    this.error('expected-declaration', `expected a declaration, found ${this.describe(t)}`, t);
    this.next();
    // Skip to something that can start a declaration on a new line, or past a ';' or '}'.
    while (!this.atEnd()) {
      if (this.tok.lineStart && this.startsDeclaration()) return;
      const n = this.next();
      if (n.text === ';' || n.text === '}') return;
    }
  }

  private parseExternalDeclaration(): A.Decl[] {
    const t = this.tok;
    if (this.eat(';')) return [];
    if (t.kind !== 'ident' && !this.is('[[')) return [];
    switch (t.text) {
      case 'template':
        return this.parseTemplateDeclaration();
      case 'extern':
        if (this.peek(1).kind === 'string') return [this.parseLinkage()];
        break;
      case 'namespace':
        return [this.parseNamespace()];
      case 'using':
        return this.parseUsing();
      case 'static_assert':
        return [this.parseStaticAssert()];
      case 'asm':
      case '__asm__':
        this.notSupported('file-scope asm', t);
        this.skipBalancedStatement();
        return [];
    }
    if (!this.startsDeclaration()) return [];
    return this.parseDeclaration('global');
  }

  private parseLinkage(): A.LinkageDecl {
    const start = this.next(); // extern
    const lang = this.next();
    const language = literalBody(lang.text).body;
    if (language !== 'C' && language !== 'C++') this.error('unknown-linkage', `unknown language linkage "${language}"`, lang);
    const decls: A.Decl[] = [];
    const open = this.eat('{');
    if (open) {
      while (!this.atEnd() && !this.is('}')) {
        const before = this.pos;
        decls.push(...this.parseExternalDeclaration());
        if (this.pos === before) this.skipJunkAtFileScope();
      }
      this.expect('}', `to close extern "${language}" block`, open);
    } else {
      // `extern "C" int x;` declares, like `extern int x;`: it is not a definition.
      for (const d of this.parseExternalDeclaration()) {
        if (d.kind === 'VarDecl' && !d.init && !d.specifiers.some((x) => x.text === 'extern')) d.specifiers.push({ text: 'extern', range: start.range });
        decls.push(d);
      }
    }
    if (language === 'C') for (const d of decls) if (d.kind === 'FunctionDecl') d.externC = true;
    return { kind: 'LinkageDecl', range: this.rangeFrom(start), language, decls };
  }

  private parseNamespace(): A.UnsupportedDecl {
    const start = this.next();
    const name = this.tok.kind === 'ident' && !this.is('{') ? this.next().text : '';
    if (this.eat('=')) {
      // `namespace cg = cooperative_groups;`
      this.notSupported(`namespace alias '${name}'`, start);
      while (!this.atEnd() && !this.is(';') && !this.tok.lineStart) this.next();
      this.expect(';', 'after the namespace alias');
      return { kind: 'UnsupportedDecl', range: this.rangeFrom(start), what: 'namespace alias', decls: [] };
    }
    this.notSupported(`namespace${name ? ` '${name}'` : ''}`, start);
    const decls: A.Decl[] = [];
    const open = this.expect('{', 'to open the namespace');
    if (open) {
      while (!this.atEnd() && !this.is('}')) {
        const before = this.pos;
        decls.push(...this.parseExternalDeclaration());
        if (this.pos === before) this.skipJunkAtFileScope();
      }
      this.expect('}', 'to close the namespace', open);
    }
    return { kind: 'UnsupportedDecl', range: this.rangeFrom(start), what: 'namespace', decls };
  }

  /** `using X = T;`, `using namespace std;` (accepted: it changes nothing we model). */
  private parseUsing(): A.Decl[] {
    const start = this.next();
    if (this.eat('namespace')) {
      while (!this.atEnd() && !this.is(';') && !this.tok.lineStart) this.next();
      this.expect(';', "after 'using namespace'");
      return [];
    }
    const nameTok = this.tok;
    if (nameTok.kind !== 'ident' || !this.is('=', 1)) {
      // `using std::min;` — a using-declaration.
      while (!this.atEnd() && !this.is(';') && !this.tok.lineStart) this.next();
      this.expect(';', 'after using-declaration');
      return [];
    }
    this.next();
    this.next(); // =
    const type = this.parseTypeName('in alias declaration');
    this.expect(';', 'after alias declaration');
    this.declare(nameTok.text, 'type');
    return [{ kind: 'TypedefDecl', range: this.rangeFrom(start), name: nameTok.text, nameRange: nameTok.range, type, alias: true }];
  }

  private parseStaticAssert(): A.StaticAssertDecl {
    const start = this.next();
    const open = this.expect('(', "after 'static_assert'");
    const condition = this.parseAssignment();
    let message: string | undefined;
    if (this.eat(',')) {
      if (this.tok.kind === 'string') message = this.parseStringLiteral().value;
      else this.error('expected-token', 'expected a string literal as the static_assert message', this.tok);
    }
    if (open) this.expect(')', 'to close static_assert', open);
    this.expect(';', 'after static_assert');
    return { kind: 'StaticAssert', range: this.rangeFrom(start), condition, message };
  }

  private parseTemplateDeclaration(): A.Decl[] {
    const start = this.next(); // template
    if (!this.is('<')) {
      // An explicit instantiation asks the compiler to emit one instance; it declares nothing
      // new, so it is read and dropped.
      this.parseDeclaration('global');
      return [];
    }
    const open = this.expect('<', "after 'template'");
    const params: A.TemplateParam[] = [];
    this.pushScope();
    if (open) {
      while (!this.atEnd() && !this.is('>') && !this.is('>>')) {
        const before = this.pos;
        const p = this.parseTemplateParam();
        if (p) params.push(p);
        if (!this.eat(',')) break;
        if (this.pos === before) break;
      }
      this.expectClosingAngle('to close the template parameter list', open);
    }
    const list: A.TemplateParamList = { kind: 'TemplateParams', range: this.rangeFrom(start), params };
    if (TAG_KEYWORDS.has(this.tok.text) && this.tok.text !== 'enum') {
      const t = this.tok;
      this.notSupported('class templates', t);
      const decls = this.parseDeclaration('global');
      this.popScope();
      // Uses such as `SharedMemory<T> smem;` must still read as declarations.
      for (const d of decls) if (d.kind === 'StructDecl' && d.name) this.declare(d.name, 'type');
      return [{ kind: 'UnsupportedDecl', range: this.rangeFrom(start), what: 'class template', decls }];
    }
    const decls = this.parseDeclaration('global', list);
    this.popScope();
    for (const d of decls) {
      if (d.kind === 'FunctionDecl') {
        this.declare(d.name, 'template');
      } else if (d.kind === 'VarDecl') {
        this.notSupported('variable templates', d.nameRange);
      }
    }
    return decls;
  }

  private parseTemplateParam(): A.TemplateParam | undefined {
    const start = this.tok;
    if (this.is('typename') || this.is('class')) {
      this.next();
      const nameTok = this.tok.kind === 'ident' ? this.next() : undefined;
      const name = nameTok?.text ?? '';
      if (!nameTok) this.errorAfterPrevious('expected-identifier', 'expected a name for the template type parameter');
      let defaultArg: A.TemplateArg | undefined;
      if (this.eat('=')) {
        const t = this.parseTypeName('as default template argument');
        defaultArg = { kind: 'TypeArg', type: t, range: t.range };
      }
      if (name) this.declare(name, 'type');
      return { kind: 'TemplateParam', range: this.rangeFrom(start), paramKind: 'type', name, nameRange: nameTok?.range ?? start.range, defaultArg };
    }
    if (this.startsType()) {
      const specs = this.parseDeclSpecifiers();
      const base = specs.base ?? this.missingType(start);
      const d = this.parseDeclarator(base, 'template-param');
      let defaultArg: A.TemplateArg | undefined;
      if (this.eat('=')) {
        this.templateDepth++;
        const e = this.parseConditional();
        this.templateDepth--;
        defaultArg = { kind: 'ExprArg', expr: e, range: e.range };
      }
      if (d.name) this.declare(d.name, 'value');
      return {
        kind: 'TemplateParam', range: this.rangeFrom(start), paramKind: 'value', name: d.name ?? '',
        nameRange: d.nameRange ?? start.range, valueType: d.type, defaultArg,
      };
    }
    this.error('expected-token', `expected a template parameter, found ${this.describe(this.tok)}`, this.tok);
    return undefined;
  }

  /** Consumes one `>` for a template list, splitting `>>`, `>>>` and `>=` tokens if needed. */
  private expectClosingAngle(context: string, opener: Token): void {
    const t = this.tok;
    if (t.kind === 'punct' && t.text.length > 1 && t.text[0] === '>' && t.text !== '>') {
      const rest: Token = {
        ...t,
        text: t.text.slice(1),
        range: { file: t.range.file, start: { ...t.range.start, character: t.range.start.character + 1, offset: t.range.start.offset + 1 }, end: t.range.end },
        spaceBefore: false,
        lineStart: false,
      };
      const first: Token = { ...t, text: '>', range: { file: t.range.file, start: t.range.start, end: rest.range.start } };
      this.tokens = this.tokens.slice(0, this.pos).concat([first, rest], this.tokens.slice(this.pos + 1));
      this.next();
      return;
    }
    this.expect('>', context, opener);
  }

  private missingType(at: Token): A.NamedTypeNode {
    return { kind: 'NamedType', range: at.range, name: 'int', qualifiers: [] };
  }

  /**
   * A declaration: specifiers, then declarators separated by commas. Functions with a body end
   * the declaration. `ctx` decides what a declarator becomes (variable, field, parameter).
   */
  parseDeclaration(ctx: 'global' | 'local' | 'field' | 'for-init', template?: A.TemplateParamList): A.Decl[] {
    const specs = this.parseDeclSpecifiers();
    const out: A.Decl[] = [];
    if (specs.tagDecl) out.push(specs.tagDecl);
    const isTypedef = specs.specifiers.some((s) => s.text === 'typedef');
    if (!specs.base) {
      if (specs.specifiers.length === 0 && !this.is('[[')) {
        this.error('expected-declaration', `expected a declaration, found ${this.describe(this.tok)}`, this.tok);
        return out;
      }
      this.error('missing-type', 'a type is required here (C++ has no implicit int)', this.tok);
    }
    const base = specs.base ?? this.missingType(specs.start);
    if (this.is(';')) {
      this.next();
      if (!specs.tagDecl && !(specs.base?.kind === 'TagType')) this.sink.warning('empty-declaration', 'declaration does not declare anything', specs.start.range);
      return out;
    }
    for (;;) {
      const declStart = out.length === 0 || (out.length === 1 && specs.tagDecl) ? specs.start : this.tok;
      const d = this.parseDeclarator(base, ctx === 'field' ? 'field' : 'named');
      if (!d.name) {
        this.error('expected-identifier', `expected a name in the declaration, found ${this.describe(this.tok)}`, this.tok);
        this.skipToDeclarationEnd();
        return out;
      }
      if (d.fn && !isTypedef && ctx !== 'for-init') {
        const fn = this.finishFunction(specs, d, declStart, template);
        out.push(fn);
        if (fn.body) return out;
      } else if (isTypedef) {
        this.declare(d.name, 'type');
        out.push({ kind: 'TypedefDecl', range: this.rangeFrom(declStart), name: d.name, nameRange: d.nameRange!, type: d.type, alias: false });
      } else if (ctx === 'field') {
        let bitWidth: A.Expr | undefined;
        if (this.eat(':')) bitWidth = this.parseConditional();
        if (this.is('=') || this.is('{')) {
          this.notSupported('default member initializers', this.tok);
          this.next();
          this.parseInitializer();
        }
        out.push({ kind: 'FieldDecl', range: this.rangeFrom(declStart), name: d.name, nameRange: d.nameRange!, type: d.type, bitWidth });
      } else {
        out.push(this.finishVariable(specs, d, declStart, ctx === 'global'));
      }
      if (this.eat(',')) continue;
      if (!this.expect(';', `after the declaration of '${d.name}'`)) this.recoverAfterMissingSemicolon();
      return out;
    }
  }

  /** After a missing `;`: if the next token is on the same line it is junk, so skip the line. */
  private recoverAfterMissingSemicolon(): void {
    if (this.tok.lineStart || this.is('}')) return;
    this.skipToDeclarationEnd();
  }

  private skipToDeclarationEnd(): void {
    let depth = 0;
    while (!this.atEnd()) {
      const t = this.tok;
      if (depth === 0 && (t.text === ';' || t.text === '}')) {
        if (t.text === ';') this.next();
        return;
      }
      if (depth === 0 && t.lineStart && this.startsDeclaration()) return;
      if (t.text === '(' || t.text === '[' || t.text === '{') depth++;
      if (t.text === ')' || t.text === ']' || t.text === '}') depth--;
      this.next();
    }
  }

  private finishVariable(specs: DeclSpecs, d: Declarator, start: Token, global: boolean): A.VarDecl {
    this.declare(d.name!, 'value');
    let init: A.Expr | undefined;
    let initStyle: A.VarDecl['initStyle'];
    if (this.eat('=')) {
      init = this.parseInitializer();
      initStyle = 'assign';
    } else if (this.is('(')) {
      const open = this.next();
      const args = this.parseArgumentList(open);
      const range = this.rangeFrom(open);
      init = args.length === 1 ? args[0] : { kind: 'InitList', range, elements: args.map((value) => ({ designators: [], value })) };
      initStyle = 'direct';
    } else if (this.is('{')) {
      init = this.parseInitList();
      initStyle = 'list';
    }
    return {
      kind: 'VarDecl', range: this.rangeFrom(start), name: d.name!, nameRange: d.nameRange!, type: d.type,
      specifiers: specs.specifiers, global, init, initStyle: init ? initStyle : undefined,
    };
  }

  private finishFunction(specs: DeclSpecs, d: Declarator, start: Token, template?: A.TemplateParamList): A.FunctionDecl {
    const words = new Set(specs.specifiers.map((s) => s.text));
    const space: A.ExecutionSpace = words.has('__global__')
      ? 'global'
      : words.has('__device__')
        ? words.has('__host__') ? 'host device' : 'device'
        : 'host';
    // Attributes may follow the parameter list (`void f() __attribute__((noinline))`, `const`).
    while (this.is('__attribute__') || this.is('noexcept') || this.is('throw')) this.skipAttributeLike();
    if (this.is('const') && this.peek(1).text !== ';') this.next();
    // Names are visible inside the body: templates declare themselves before recursion. A
    // plain overload of a template keeps the name a template, so `f<1>(…)` still parses.
    this.declare(d.name!, template || this.isTemplateName(d.name!) ? 'template' : 'value');
    const fn: A.FunctionDecl = {
      kind: 'FunctionDecl', range: start.range, name: d.name!, nameRange: d.nameRange!, returnType: d.type,
      params: d.fn!.params, variadic: d.fn!.variadic, specifiers: specs.specifiers, space, externC: false,
      template,
    };
    if (this.is('{')) {
      this.pushScope();
      for (const p of fn.params) if (p.name) this.declare(p.name, 'value');
      fn.body = this.parseCompound();
      this.popScope();
    } else if (this.is('=') && (this.peek(1).text === 'delete' || this.peek(1).text === 'default')) {
      this.notSupported(`'= ${this.peek(1).text}' functions`, this.tok);
      this.next();
      this.next();
    }
    fn.range = this.rangeFrom(start);
    return fn;
  }

  private skipAttributeLike(): void {
    this.next();
    if (this.is('(')) this.skipBalanced('(', ')');
  }

  private skipBalanced(open: string, close: string): void {
    let depth = 0;
    while (!this.atEnd()) {
      const t = this.next();
      if (t.text === open) depth++;
      else if (t.text === close && --depth <= 0) return;
    }
  }

  private skipBalancedStatement(): void {
    let depth = 0;
    while (!this.atEnd()) {
      const t = this.next();
      if (t.text === '(' || t.text === '{' || t.text === '[') depth++;
      else if (t.text === ')' || t.text === '}' || t.text === ']') {
        depth--;
        if (depth <= 0 && t.text === '}') return;
      } else if (t.text === ';' && depth <= 0) return;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Specifiers and declarators

  private parseDeclSpecifiers(): DeclSpecs {
    const start = this.tok;
    const specifiers: A.Specifier[] = [];
    const qualifiers: A.Specifier[] = [];
    const typeWords: Token[] = [];
    let base: A.TypeNode | undefined;
    let tagDecl: DeclSpecs['tagDecl'];
    for (;;) {
      const t = this.tok;
      if (this.is('[[')) {
        this.skipBalanced('[', ']');
        continue;
      }
      if (t.kind !== 'ident') break;
      const s = t.text;
      if (DECL_SPECIFIERS.has(s)) {
        specifiers.push({ text: s, range: this.next().range });
      } else if (SPECIFIERS_WITH_ARGS.has(s)) {
        this.next();
        const args: A.Expr[] = [];
        const open = this.eat('(');
        if (open) args.push(...this.parseArgumentList(open));
        else this.errorAfterPrevious('expected-token', `expected '(' after '${s}'`);
        specifiers.push({ text: s, range: this.rangeFrom(t), args });
      } else if (s === '__attribute__' || s === '__declspec') {
        this.skipAttributeLike();
      } else if (CV_QUALIFIERS.has(s) || RESTRICT.has(s)) {
        qualifiers.push({ text: RESTRICT.has(s) ? '__restrict__' : s, range: this.next().range });
      } else if (TYPE_KEYWORDS.has(s) && !base) {
        typeWords.push(this.next());
      } else if (typeWords.length > 0 || base) {
        break;
      } else if (s === 'auto') {
        base = { kind: 'NamedType', range: this.next().range, name: 'auto', qualifiers: [] };
      } else if (TAG_KEYWORDS.has(s)) {
        const r = this.parseTagType();
        base = r.type;
        tagDecl = r.definition;
      } else if (s === 'typename') {
        this.next();
      } else if (this.isQualifiedTypeAhead(0)) {
        base = this.parseQualifiedTypeName();
      } else if (this.isTypeName(s) || (this.lookup(s) === undefined && this.looksLikeUnknownTypeName())) {
        const nameTok = this.next();
        const named: A.NamedTypeNode = { kind: 'NamedType', range: nameTok.range, name: s, qualifiers: [] };
        if (this.is('<') && this.isTypeName(s)) {
          named.templateArgs = this.parseTemplateArgs();
          named.range = this.rangeFrom(nameTok);
        }
        base = named;
      } else {
        break;
      }
    }
    if (typeWords.length) base = this.combineTypeWords(typeWords);
    if (base && qualifiers.length) {
      if (base.kind === 'NamedType' || base.kind === 'TagType') base.qualifiers.push(...qualifiers);
    } else if (!base && qualifiers.length) {
      // `const x = 3;` — C's implicit int; C++ rejects it.
      this.error('missing-type', 'a type is required here (C++ has no implicit int)', qualifiers[0].range);
      base = { kind: 'NamedType', range: qualifiers[0].range, name: 'int', qualifiers };
    }
    return { specifiers, start, base, tagDecl };
  }

  /** An unknown identifier is taken as a type name when a declarator obviously follows. */
  private looksLikeUnknownTypeName(): boolean {
    const n = this.peek(1);
    if (n.kind === 'ident') return !DECL_SPECIFIERS.has(n.text) || n.text === 'const' ? !this.peek(1).lineStart : false;
    if (n.text === '*' || n.text === '&') {
      const m = this.peek(2);
      return m.kind === 'ident' && (this.peek(3).text === ';' || this.peek(3).text === ',' || this.peek(3).text === ')' || this.peek(3).text === '=' || this.peek(3).text === '[');
    }
    return false;
  }

  /**
   * `ns::Name` followed by what can follow a type (a declarator, `<`, `>`, `,`, `)`, `&`, `*`):
   * a type from a namespace. `cg::sync(cta)` is a call, not a type.
   */
  private isQualifiedTypeAhead(k: number): boolean {
    if (this.peek(k).kind !== 'ident' || !this.is('::', k + 1) || this.peek(k + 2).kind !== 'ident') return false;
    let j = k + 2;
    while (this.is('::', j + 1) && this.peek(j + 2).kind === 'ident') j += 2;
    const after = this.peek(j + 1);
    if (this.peek(k).text === 'std' && this.isStdTypeName(this.peek(j).text)) return true;
    // libcu++'s names are known: `cuda::atomic` is a type, `cuda::memory_order_acquire` a value.
    if (this.peek(k).text === 'cuda') {
      const qualifier = [];
      for (let i = k; i < j; i += 2) qualifier.push(this.peek(i).text);
      return isLibcuTypeName(qualifier.join('::'), this.peek(j).text);
    }
    return after.kind === 'ident' ? !STATEMENT_KEYWORDS.has(after.text) : ['<', '*', '&', '&&', '>', ',', ')'].includes(after.text);
  }

  private parseQualifiedTypeName(): A.NamedTypeNode {
    const ns = this.next();
    let qualifier = ns.text;
    this.next(); // ::
    let nameTok = this.next();
    while (this.is('::') && this.peek(1).kind === 'ident') {
      qualifier += `::${nameTok.text}`;
      this.next();
      nameTok = this.next();
    }
    const node: A.NamedTypeNode = { kind: 'NamedType', range: nameTok.range, name: nameTok.text, qualifiers: [], qualifier };
    if (this.is('<')) node.templateArgs = this.parseTemplateArgs();
    node.range = this.rangeFrom(ns);
    if (!(qualifier === 'std' && BUILTIN_TYPE_NAMES.has(nameTok.text)) && !isLibcuTypeName(qualifier, nameTok.text)) this.notSupported(`${qualifier}::${nameTok.text}`, node.range);
    return node;
  }

  private combineTypeWords(words: Token[]): A.NamedTypeNode {
    const range = spanRanges(words[0].range, words[words.length - 1].range);
    let longs = 0;
    let signed: boolean | undefined;
    let core: string | undefined;
    for (const w of words) {
      const s = w.text;
      if (s === 'long') longs++;
      else if (s === 'signed' || s === 'unsigned') {
        if (signed !== undefined) this.error('invalid-type', `'${s}' conflicts with an earlier signedness`, w);
        signed = s === 'signed';
      } else {
        if (core && !(core === 'int' && (s === 'short' || s === 'char')) && !(s === 'int' && core === 'short')) {
          this.error('invalid-type', `cannot combine '${s}' with '${core}'`, w);
        }
        if (core !== 'short' || s !== 'int') core = s === '_Bool' ? 'bool' : s;
      }
    }
    let name: string;
    if (core === 'float' || core === 'double' || core === 'void' || core === 'bool' || core === 'wchar_t' || core === 'char16_t' || core === 'char32_t' || core === '__int128') {
      if (core === 'double' && longs === 1) {
        this.sink.warning('not-supported', "'long double' is read as 'double' (64-bit), as on the GPU", range);
      } else if (longs || signed !== undefined) this.error('invalid-type', `'${words.map((w) => w.text).join(' ')}' is not a valid type`, range);
      name = core === 'wchar_t' || core === 'char32_t' ? 'int' : core === 'char16_t' ? 'unsigned short' : core === '__int128' ? 'long long' : core;
    } else if (core === 'char') {
      name = signed === undefined ? 'char' : signed ? 'signed char' : 'unsigned char';
      if (longs) this.error('invalid-type', "'long char' is not a valid type", range);
    } else if (core === 'short') {
      name = signed === false ? 'unsigned short' : 'short';
    } else {
      const base = longs >= 2 ? 'long long' : longs === 1 ? 'long' : 'int';
      if (longs > 2) this.error('invalid-type', "'long long long' is too long for any type", range);
      name = signed === false ? `unsigned ${base}` : base;
    }
    return { kind: 'NamedType', range, name, qualifiers: [] };
  }

  private parseTagType(): { type: A.TagTypeNode; definition?: A.StructDecl | A.EnumDecl } {
    const kw = this.next();
    const tag = kw.text as A.TagTypeNode['tag'];
    let scoped = false;
    if (tag === 'enum' && (this.is('class') || this.is('struct'))) {
      this.next();
      scoped = true;
    }
    while (this.is('__attribute__') || this.is('__align__') || this.is('alignas') || this.is('__device_builtin__')) this.skipAttributeLike();
    const nameTok = this.tok.kind === 'ident' && !this.is('{') ? this.next() : undefined;
    if (nameTok) this.declare(nameTok.text, 'type');
    // `struct SharedMemory<int> { … }`: a specialisation of a class template.
    if (nameTok && this.is('<')) this.parseTemplateArgs();
    let underlying: A.TypeNode | undefined;
    if (tag === 'enum' && this.is(':')) {
      this.next();
      underlying = this.parseTypeName('as the enum underlying type');
    } else if (tag !== 'enum' && this.is(':')) {
      this.notSupported('base classes', this.tok);
      while (!this.atEnd() && !this.is('{') && !this.is(';')) this.next();
    }
    let definition: A.StructDecl | A.EnumDecl | undefined;
    if (this.is('{')) {
      definition = tag === 'enum' ? this.parseEnumBody(kw, nameTok, scoped, underlying) : this.parseStructBody(kw, tag, nameTok);
    } else if (!nameTok) {
      this.errorAfterPrevious('expected-identifier', `expected a name or '{' after '${tag}'`);
    } else if (tag !== 'enum' && this.is(';') && this.lookup(nameTok.text) === 'type') {
      // `struct S;` forward declaration
      definition = { kind: 'StructDecl', range: this.rangeFrom(kw), tag, name: nameTok.text, nameRange: nameTok.range };
    }
    const type: A.TagTypeNode = {
      kind: 'TagType', range: this.rangeFrom(kw), tag, qualifiers: [],
      name: nameTok ? nameTok.text : undefined, definition,
    };
    return definition ? { type, definition } : { type };
  }

  private parseStructBody(kw: Token, tag: 'struct' | 'union' | 'class', nameTok?: Token): A.StructDecl {
    const open = this.next();
    const fields: A.FieldDecl[] = [];
    this.pushScope();
    let reportedMethods = false;
    while (!this.atEnd() && !this.is('}')) {
      const before = this.pos;
      if (this.is('public') || this.is('private') || this.is('protected')) {
        this.next();
        this.expect(':', 'after access specifier');
        continue;
      }
      if (this.eat(';')) continue;
      // A member function or constructor: parse it so the rest of the file stays intact.
      const isCtor = nameTok && this.is(nameTok.text) && this.is('(', 1);
      if (isCtor || this.is('~') || this.is('operator')) {
        if (!reportedMethods) this.notSupported('classes with member functions', this.tok);
        reportedMethods = true;
        this.skipMemberFunction();
        continue;
      }
      if (!this.startsDeclaration() && !this.startsType()) {
        this.error('expected-member', `expected a member declaration, found ${this.describe(this.tok)}`, this.tok);
        this.skipToDeclarationEnd();
        if (this.pos === before) this.next();
        continue;
      }
      const decls = this.parseDeclaration('field');
      for (const d of decls) {
        if (d.kind === 'FieldDecl') fields.push(d);
        else if (d.kind === 'FunctionDecl') {
          if (!reportedMethods) this.notSupported('classes with member functions', d.nameRange);
          reportedMethods = true;
        } else if (d.kind === 'StructDecl' || d.kind === 'EnumDecl' || d.kind === 'TypedefDecl') {
          // Nested type definitions are fine; their names were declared by the parse.
        }
      }
      if (this.pos === before) this.next();
    }
    this.popScope();
    this.expect('}', `to close ${tag}${nameTok ? ` '${nameTok.text}'` : ''}`, open);
    // Nested type names leak to the enclosing scope in C, and are members in C++; we accept both.
    return { kind: 'StructDecl', range: this.rangeFrom(kw), tag, name: nameTok ? nameTok.text : undefined, nameRange: nameTok ? nameTok.range : undefined, fields };
  }

  private skipMemberFunction(): void {
    while (!this.atEnd() && !this.is('{') && !this.is(';') && !this.is('}')) {
      if (this.is('(')) this.skipBalanced('(', ')');
      else this.next();
    }
    if (this.is('{')) this.skipBalanced('{', '}');
    else this.eat(';');
  }

  private parseEnumBody(kw: Token, nameTok: Token | undefined, scoped: boolean, underlying?: A.TypeNode): A.EnumDecl {
    const open = this.next();
    const enumerators: A.Enumerator[] = [];
    while (!this.atEnd() && !this.is('}')) {
      const t = this.tok;
      if (t.kind !== 'ident') {
        this.error('expected-identifier', `expected an enumerator name, found ${this.describe(t)}`, t);
        this.next();
        continue;
      }
      this.next();
      let value: A.Expr | undefined;
      if (this.eat('=')) value = this.parseConditional();
      enumerators.push({ kind: 'Enumerator', range: this.rangeFrom(t), name: t.text, value });
      if (!scoped) this.declare(t.text, 'value');
      if (!this.eat(',')) break;
    }
    this.expect('}', 'to close the enum', open);
    return {
      kind: 'EnumDecl', range: this.rangeFrom(kw), scoped, enumerators,
      name: nameTok ? nameTok.text : undefined, nameRange: nameTok ? nameTok.range : undefined, underlying,
    };
  }

  /**
   * A declarator applied to `base`: pointer operators, the name (absent for abstract
   * declarators), then array and function suffixes.
   */
  private parseDeclarator(base: A.TypeNode, mode: 'named' | 'field' | 'param' | 'abstract' | 'template-param'): Declarator {
    let type = base;
    for (;;) {
      const t = this.tok;
      if (this.is('*')) {
        this.next();
        const qualifiers: A.Specifier[] = [];
        while (this.tok.kind === 'ident' && (CV_QUALIFIERS.has(this.tok.text) || RESTRICT.has(this.tok.text))) {
          const q = this.next();
          qualifiers.push({ text: RESTRICT.has(q.text) ? '__restrict__' : q.text, range: q.range });
        }
        type = { kind: 'PointerType', range: spanRanges(base.range, this.prev().range), to: type, qualifiers };
      } else if (this.is('&') || this.is('&&')) {
        this.next();
        type = { kind: 'ReferenceType', range: spanRanges(base.range, t.range), to: type, rvalue: t.text === '&&' };
        while (this.tok.kind === 'ident' && RESTRICT.has(this.tok.text)) this.next();
      } else break;
    }
    let name: string | undefined;
    let nameRange: Range | undefined;
    if (this.tok.kind === 'ident' && mode !== 'abstract' && !DECL_SPECIFIERS.has(this.tok.text) && !this.isKeywordNotName(this.tok.text)) {
      const n = this.next();
      name = n.text;
      nameRange = n.range;
      // `f<float>` in an explicit instantiation or specialisation names an instance of f.
      if (this.is('<') && this.isTemplateName(n.text)) this.parseTemplateArgs();
      if (this.is('::')) {
        this.notSupported('qualified declarator names (member definitions)', n);
        while (this.eat('::') && this.tok.kind === 'ident') {
          const m = this.next();
          name = m.text;
          nameRange = m.range;
        }
      }
    } else if (this.is('(') && (this.is('*', 1) || this.is('&', 1) || this.is('^', 1))) {
      // `void (*fp)(int)` — a function pointer.
      const open = this.next();
      this.notSupported('function pointers', open);
      const inner = this.parseDeclarator(type, mode);
      this.expect(')', 'to close the declarator', open);
      name = inner.name;
      nameRange = inner.nameRange;
      if (this.is('(')) {
        const fn = this.parseParameterList();
        type = { kind: 'PointerType', range: this.rangeFrom(open), to: { kind: 'FunctionType', range: this.rangeFrom(open), returns: type, params: fn.params, variadic: fn.variadic }, qualifiers: [] };
      }
      return { name, nameRange: name ? nameRange : undefined, type };
    }
    const dims: { size?: A.Expr; range: Range }[] = [];
    let fn: Declarator['fn'];
    for (;;) {
      if (this.is('[')) {
        const open = this.next();
        const size = this.is(']') ? undefined : this.parseAssignment();
        this.expect(']', 'to close the array bound', open);
        dims.push({ range: this.rangeFrom(open), size });
      } else if (this.is('(') && !fn && dims.length === 0 && mode !== 'field' && this.looksLikeParameterList()) {
        fn = this.parseParameterList();
      } else if (this.is('(') && !fn && dims.length === 0 && mode === 'field' && this.looksLikeParameterList()) {
        fn = this.parseParameterList();
      } else break;
    }
    for (let i = dims.length - 1; i >= 0; i--) {
      type = { kind: 'ArrayType', range: spanRanges(base.range, dims[i].range), of: type, size: dims[i].size };
    }
    return { name, nameRange: name ? nameRange : undefined, type, fn };
  }

  private isKeywordNotName(s: string): boolean {
    return STATEMENT_KEYWORDS.has(s) || s === 'sizeof' || s === 'operator' || s === 'new' || s === 'delete' || TYPE_KEYWORDS.has(s);
  }

  /** After a declarator name: `(int a)` is a parameter list, `(4, 2)` a direct initialiser. */
  private looksLikeParameterList(): boolean {
    const n = this.peek(1);
    if (n.text === ')' || n.text === '...') return true;
    if (n.kind !== 'ident') return false;
    const k = this.pos;
    this.pos++;
    const r = this.startsType() || DECL_SPECIFIERS.has(n.text) || RESTRICT.has(n.text) || (this.lookup(n.text) === undefined && this.looksLikeUnknownTypeName());
    this.pos = k;
    return r;
  }

  private parseParameterList(): { params: A.ParamDecl[]; variadic: boolean } {
    const open = this.next();
    const params: A.ParamDecl[] = [];
    let variadic = false;
    if (this.is('void') && this.is(')', 1)) {
      this.next();
      this.next();
      return { params, variadic };
    }
    while (!this.atEnd() && !this.is(')')) {
      if (this.eat('...')) {
        variadic = true;
        break;
      }
      const before = this.pos;
      const start = this.tok;
      const specs = this.parseDeclSpecifiers();
      if (!specs.base) {
        this.error('expected-type', `expected a parameter type, found ${this.describe(this.tok)}`, this.tok);
        while (!this.atEnd() && !this.is(',') && !this.is(')') && !this.is('{') && !this.is(';')) this.next();
      } else {
        const d = this.parseDeclarator(specs.base, 'param');
        let type = d.type;
        if (d.fn) type = { kind: 'PointerType', range: type.range, to: { kind: 'FunctionType', range: type.range, returns: type, params: d.fn.params, variadic: d.fn.variadic }, qualifiers: [] };
        let defaultValue: A.Expr | undefined;
        if (this.eat('=')) defaultValue = this.parseAssignment();
        params.push({
          kind: 'ParamDecl', range: this.rangeFrom(start), type, specifiers: specs.specifiers,
          name: d.name, nameRange: d.name ? d.nameRange : undefined, defaultValue,
        });
      }
      if (!this.eat(',')) break;
      if (this.pos === before) this.next();
    }
    this.expect(')', 'to close the parameter list', open);
    return { params, variadic };
  }

  /** A type-id: specifiers plus an abstract declarator (`const int *`, `float4`, `T[3]`). */
  parseTypeName(context: string): A.TypeNode {
    const start = this.tok;
    const specs = this.parseDeclSpecifiers();
    if (!specs.base) {
      this.error('expected-type', `expected a type ${context}, found ${this.describe(this.tok)}`, this.tok);
      return this.missingType(start);
    }
    return this.parseDeclarator(specs.base, 'abstract').type;
  }

  private parseTemplateArgs(): A.TemplateArg[] {
    const open = this.next(); // <
    const args: A.TemplateArg[] = [];
    this.templateDepth++;
    while (!this.atEnd() && !this.is('>') && !(this.tok.kind === 'punct' && this.tok.text.startsWith('>'))) {
      const before = this.pos;
      if (this.startsType() && !(this.peek(1).text === '(' && this.isTypeName(this.tok.text) && !TYPE_KEYWORDS.has(this.tok.text))) {
        const type = this.parseTypeName('as a template argument');
        args.push({ kind: 'TypeArg', type, range: type.range });
      } else {
        const expr = this.parseConditional();
        args.push({ kind: 'ExprArg', expr, range: expr.range });
      }
      if (!this.eat(',')) break;
      if (this.pos === before) break;
    }
    this.templateDepth--;
    this.expectClosingAngle('to close the template argument list', open);
    return args;
  }

  // -------------------------------------------------------------------------------------------
  // Statements

  private parseCompound(): A.CompoundStmt {
    const open = this.next(); // {
    this.pushScope();
    const body: A.Stmt[] = [];
    while (!this.atEnd() && !this.is('}')) {
      const before = this.pos;
      const s = this.parseStatement();
      if (s) body.push(s);
      if (this.pos === before) {
        this.error('unexpected-token', `unexpected ${this.describe(this.tok)}`, this.tok);
        this.next();
      }
    }
    this.popScope();
    this.expect('}', 'to close the block', open);
    return { kind: 'CompoundStmt', range: this.rangeFrom(open), body };
  }

  /** One level deeper at `at`; past MAX_NESTING the parse stops with a located error. */
  private enter(at: Token): void {
    if (++this.depth <= MAX_NESTING) return;
    this.error('nesting-too-deep', `the code nests more than ${MAX_NESTING} levels deep here (parentheses, blocks, else-if chains, operators); the rest of the file is not read (split it into functions or variables)`, at);
    throw new NestingTooDeep();
  }

  private parseStatement(): A.Stmt | undefined {
    this.enter(this.tok);
    const s = this.parseStatementAt();
    this.depth--;
    return s;
  }

  private parseStatementAt(): A.Stmt | undefined {
    const t = this.tok;
    if (t.kind === 'punct') {
      if (t.text === '{') return this.parseCompound();
      if (t.text === ';') {
        this.next();
        return { kind: 'NullStmt', range: t.range };
      }
      if (t.text === ')' || t.text === ']' || t.text === '>>>' || t.text === ',' || t.text === ':' || t.text === '}') return undefined;
    }
    if (t.kind === 'ident') {
      switch (t.text) {
        case 'if':
          return this.parseIf();
        case 'for':
          return this.parseFor();
        case 'while':
          return this.parseWhile();
        case 'do':
          return this.parseDo();
        case 'switch':
          return this.parseSwitch();
        case 'case': {
          this.next();
          const value = this.parseConditional();
          this.expect(':', 'after case value');
          return { kind: 'CaseStmt', range: this.rangeFrom(t), value };
        }
        case 'default':
          this.next();
          this.expect(':', "after 'default'");
          return { kind: 'DefaultStmt', range: this.rangeFrom(t) };
        case 'break':
          this.next();
          this.expect(';', "after 'break'");
          return { kind: 'BreakStmt', range: this.rangeFrom(t) };
        case 'continue':
          this.next();
          this.expect(';', "after 'continue'");
          return { kind: 'ContinueStmt', range: this.rangeFrom(t) };
        case 'return': {
          this.next();
          const value = this.is(';') ? undefined : this.is('{') ? this.parseInitList() : this.parseExpression();
          this.expectStatementEnd('after the return statement');
          return { kind: 'ReturnStmt', range: this.rangeFrom(t), value };
        }
        case 'goto':
          this.notSupported('goto', t);
          this.skipBalancedStatement();
          return { kind: 'UnsupportedStmt', range: this.rangeFrom(t), what: 'goto' };
        case 'try':
        case 'throw':
          this.notSupported(`exceptions ('${t.text}')`, t);
          this.skipBalancedStatement();
          if (t.text === 'try') while (this.is('catch')) this.skipBalancedStatement();
          return { kind: 'UnsupportedStmt', range: this.rangeFrom(t), what: t.text };
        case 'asm':
        case '__asm__':
        case '__asm':
          return this.parseAsm();
        case 'else':
          this.error('unexpected-token', "'else' without a matching 'if'", t);
          this.next();
          return this.parseStatement();
        case 'static_assert':
          return { kind: 'DeclStmt', range: t.range, decls: [this.parseStaticAssert()] };
        case 'using': {
          const decls = this.parseUsing();
          return { kind: 'DeclStmt', range: this.rangeFrom(t), decls };
        }
        case 'template':
          this.error('unexpected-token', 'a template cannot be declared inside a function', t);
          this.skipBalancedStatement();
          return undefined;
      }
      if (this.is(':', 1) && !this.isTypeName(t.text) && this.lookup(t.text) !== 'value') {
        this.notSupported(`labels ('${t.text}:')`, t);
        this.next();
        this.next();
        return { kind: 'UnsupportedStmt', range: this.rangeFrom(t), what: 'label' };
      }
      if (this.startsDeclaration()) {
        const decls = this.parseDeclaration('local');
        for (const d of decls) if (d.kind === 'FunctionDecl' && d.body) this.error('nested-function', 'a function cannot be defined inside another function', d.nameRange);
        return { kind: 'DeclStmt', range: this.rangeFrom(t), decls };
      }
    }
    const expr = this.parseExpression();
    this.expectStatementEnd('after the expression');
    return { kind: 'ExprStmt', range: this.rangeFrom(t), expr };
  }

  private expectStatementEnd(context: string): void {
    if (this.eat(';')) return;
    this.errorAfterPrevious('expected-token', `expected ';' ${context}`);
    // Junk on the same line belongs to the broken statement: skip it.
    if (!this.tok.lineStart && !this.is('}')) {
      let depth = 0;
      while (!this.atEnd() && !(this.tok.lineStart && depth <= 0)) {
        const t = this.next();
        if (t.text === '(' || t.text === '[') depth++;
        else if (t.text === ')' || t.text === ']') depth--;
        else if (depth <= 0 && t.text === ';') return;
        if (this.is('}') && depth <= 0) return;
        if (this.is('{')) return;
      }
    }
  }

  private parseCondition(keyword: string): { condition: A.Expr; conditionDecl?: A.VarDecl } {
    const open = this.expect('(', `after '${keyword}'`);
    let condition: A.Expr;
    let conditionDecl: A.VarDecl | undefined;
    if (keyword !== 'while' && this.startsDeclaration()) {
      const decls = this.parseConditionDeclaration();
      conditionDecl = decls;
      condition = { kind: 'Identifier', range: decls.nameRange, name: decls.name };
    } else {
      condition = this.is(')') ? this.expressionExpected() : this.parseExpression();
    }
    if (open) this.expect(')', `to close the '${keyword}' condition`, open);
    return { condition, conditionDecl };
  }

  private parseConditionDeclaration(): A.VarDecl {
    const specs = this.parseDeclSpecifiers();
    const d = this.parseDeclarator(specs.base ?? this.missingType(specs.start), 'named');
    const v = this.finishVariable(specs, { ...d, name: d.name ?? '' , nameRange: d.nameRange ?? specs.start.range }, specs.start, false);
    return v;
  }

  private parseIf(): A.IfStmt {
    const start = this.next();
    if (this.is('constexpr')) this.next();
    this.pushScope();
    const c = this.parseCondition('if');
    const then = this.parseSubStatement('if');
    let elseStmt: A.Stmt | undefined;
    if (this.eat('else')) elseStmt = this.parseSubStatement('else');
    this.popScope();
    return { kind: 'IfStmt', range: this.rangeFrom(start), ...c, then, else: elseStmt };
  }

  /** The body of if/for/while: a statement is required; a missing one is reported and empty. */
  private parseSubStatement(after: string): A.Stmt {
    const s = this.parseStatement();
    if (s) return s;
    this.error('expected-statement', `expected a statement after '${after}', found ${this.describe(this.tok)}`, this.tok);
    return { kind: 'NullStmt', range: this.tok.range };
  }

  private parseFor(): A.ForStmt {
    const start = this.next();
    this.pushScope();
    const open = this.expect('(', "after 'for'");
    let init: A.ForStmt['init'];
    if (this.is(';')) this.next();
    else if (this.startsDeclaration()) {
      const s = this.tok;
      const decls = this.parseDeclaration('for-init');
      init = { kind: 'DeclStmt', range: this.rangeFrom(s), decls };
      if (this.is(':')) {
        this.notSupported('range-based for loops', this.tok);
      }
    } else {
      const s = this.tok;
      const expr = this.parseExpression();
      this.expect(';', "after the 'for' initialiser");
      init = { kind: 'ExprStmt', range: this.rangeFrom(s), expr };
    }
    const condition = this.is(';') ? undefined : this.parseExpression();
    this.expect(';', "after the 'for' condition");
    const step = this.is(')') ? undefined : this.parseExpression();
    if (open) this.expect(')', "to close the 'for' header", open);
    const body = this.parseSubStatement('for');
    this.popScope();
    return {
      kind: 'ForStmt', range: this.rangeFrom(start), body,
      init, condition, step,
    };
  }

  private parseWhile(): A.WhileStmt {
    const start = this.next();
    const { condition } = this.parseCondition('while');
    const body = this.parseSubStatement('while');
    return { kind: 'WhileStmt', range: this.rangeFrom(start), condition, body };
  }

  private parseDo(): A.DoStmt {
    const start = this.next();
    const body = this.parseSubStatement('do');
    if (!this.expect('while', "after the 'do' body")) {
      return { kind: 'DoStmt', range: this.rangeFrom(start), body, condition: this.expressionExpected() };
    }
    const { condition } = this.parseCondition('while');
    this.expect(';', "after 'do … while (…)'");
    return { kind: 'DoStmt', range: this.rangeFrom(start), body, condition };
  }

  private parseSwitch(): A.SwitchStmt {
    const start = this.next();
    this.pushScope();
    const { condition } = this.parseCondition('switch');
    const body = this.parseSubStatement('switch');
    this.popScope();
    return { kind: 'SwitchStmt', range: this.rangeFrom(start), condition, body };
  }

  private parseAsm(): A.AsmStmt {
    const start = this.next();
    let isVolatile = false;
    while (this.is('volatile') || this.is('__volatile__') || this.is('goto') || this.is('inline')) {
      isVolatile ||= this.tok.text !== 'goto';
      this.next();
    }
    const open = this.expect('(', "after 'asm'");
    let template = '';
    let templateRange: Range | undefined;
    if (this.tok.kind === 'string') {
      const literal = this.parseStringLiteral();
      template = literal.value;
      templateRange = literal.range;
    } else this.error('expected-token', 'expected the asm template string', this.tok);
    const sections: A.AsmOperand[][] = [[], []];
    const clobbers: string[] = [];
    // `asm("…" ::: "memory")` lexes its colons as `::` `:`; a `::` closes two sections.
    for (let section = 0; section < 3 && (this.is(':') || this.is('::')); section++) {
      if (this.next().text === '::') section++;
      if (section >= 3) break;
      while (!this.atEnd() && !this.is(':') && !this.is(')')) {
        const before = this.pos;
        if (this.tok.kind === 'string') {
          const s = this.tok;
          const constraint = this.parseStringLiteral().value;
          if (section === 2) clobbers.push(constraint);
          else {
            const open2 = this.expect('(', 'before the asm operand');
            const expr = this.parseExpression();
            if (open2) this.expect(')', 'after the asm operand', open2);
            sections[section].push({ kind: 'AsmOperand', range: this.rangeFrom(s), constraint, expr });
          }
        } else {
          this.error('expected-token', 'expected an asm operand constraint string', this.tok);
          this.next();
        }
        if (!this.eat(',')) break;
        if (this.pos === before) break;
      }
    }
    if (open) this.expect(')', 'to close asm', open);
    this.expect(';', 'after asm');
    return { kind: 'AsmStmt', range: this.rangeFrom(start), template, ...(templateRange ? { templateRange } : {}), volatile: isVolatile, outputs: sections[0], inputs: sections[1], clobbers };
  }

  // -------------------------------------------------------------------------------------------
  // Expressions

  parseExpression(): A.Expr {
    const start = this.tok;
    let left = this.parseAssignment();
    while (this.is(',')) {
      const op = this.next();
      const right = this.parseAssignment();
      left = { kind: 'Binary', range: this.rangeFrom(start), op: ',', left, right, opRange: op.range };
    }
    return left;
  }

  private parseAssignment(): A.Expr {
    const start = this.tok;
    const target = this.parseConditional();
    const t = this.tok;
    if (t.kind === 'punct' && ASSIGN_OPS.has(t.text)) {
      this.next();
      this.enter(t);
      const value = this.is('{') ? this.parseInitList() : this.parseAssignment();
      this.depth--;
      return { kind: 'Assign', range: this.rangeFrom(start), op: t.text as A.AssignOp, target, value, opRange: t.range };
    }
    return target;
  }

  private parseConditional(): A.Expr {
    const start = this.tok;
    const condition = this.parseBinary(1);
    if (!this.is('?')) return condition;
    this.next();
    const saved = this.templateDepth;
    this.templateDepth = 0;
    const then = this.parseExpression();
    this.templateDepth = saved;
    this.expect(':', "in the conditional expression (after '?')");
    this.enter(start);
    const elseExpr = this.parseAssignment();
    this.depth--;
    return { kind: 'Conditional', range: this.rangeFrom(start), condition, then, else: elseExpr };
  }

  private parseBinary(minPrec: number): A.Expr {
    const start = this.tok;
    let left = this.parseUnary();
    let chain = 0;
    for (;;) {
      const t = this.tok;
      if (t.kind !== 'punct') break;
      const prec = BINARY_PRECEDENCE[t.text];
      if (prec === undefined || prec < minPrec) break;
      if (this.templateDepth > 0 && (t.text === '>' || t.text === '>>')) break;
      chain++;
      if (++this.chained > this.maxChain) {
        if (this.maxChain < MAX_CHAIN) throw new ChainBeyondCaller();
        this.error('nesting-too-deep', `an expression chains more than ${MAX_CHAIN.toLocaleString('en-US')} operators here; the rest of the file is not read (split it into several statements)`, t);
        throw new NestingTooDeep();
      }
      this.next();
      const right = this.parseBinary(prec + 1);
      left = { kind: 'Binary', range: this.rangeFrom(start), op: t.text as A.BinaryOp, left, right, opRange: t.range };
    }
    this.chained -= chain;
    return left;
  }

  private parseUnary(): A.Expr {
    const t = this.tok;
    if (t.kind === 'punct') {
      switch (t.text) {
        case '++':
        case '--':
        case '+':
        case '-':
        case '!':
        case '~':
        case '*':
        case '&': {
          this.next();
          this.enter(t);
          const operand = this.parseUnary();
          this.depth--;
          return { kind: 'Unary', range: this.rangeFrom(t), op: t.text as A.UnaryOp, operand };
        }
        case '&&':
          this.notSupported('label addresses', t);
          this.next();
          return this.parseUnary();
        case '(':
          if (this.startsType(1) && this.isCastAhead()) return this.parseCast();
          break;
        case '::':
          this.next();
          return this.parseUnary();
      }
    } else if (t.kind === 'ident') {
      switch (t.text) {
        case 'sizeof':
        case 'alignof':
        case '__alignof__':
          return this.parseSizeof();
        case 'new':
        case 'delete':
          this.notSupported(`'${t.text}' (use malloc/cudaMalloc)`, t);
          this.next();
          if (this.is('[')) this.skipBalanced('[', ']');
          return this.parseUnary();
        case 'static_cast':
        case 'reinterpret_cast':
        case 'const_cast':
        case 'dynamic_cast':
          return this.parsePostfix(this.parseNamedCast());
      }
    }
    return this.parsePostfix(this.parsePrimary());
  }

  /** `(T)` followed by something that can start an operand is a cast; `(T)` alone is not. */
  private isCastAhead(): boolean {
    const name = this.peek(1);
    // `(x)` where x is a value shadowing a type is a parenthesised expression.
    if (!TYPE_KEYWORDS.has(name.text) && !CV_QUALIFIERS.has(name.text) && !TAG_KEYWORDS.has(name.text) && name.text !== 'std' && name.text !== 'typename' && this.lookup(name.text) !== 'type' && !this.isQualifiedTypeAhead(1)) return false;
    return true;
  }

  private parseCast(): A.Expr {
    const open = this.next();
    const target = this.parseTypeName('in the cast');
    this.expect(')', 'to close the cast', open);
    if (this.is('{')) {
      const list = this.parseInitList();
      return { kind: 'Construct', range: this.rangeFrom(open), target, args: list.kind === 'InitList' ? list.elements.map((e) => e.value) : [list], braces: true };
    }
    this.enter(open);
    const operand = this.parseUnary();
    this.depth--;
    return { kind: 'Cast', range: this.rangeFrom(open), style: 'c', target, operand };
  }

  private parseNamedCast(): A.Expr {
    const kw = this.next();
    const style = kw.text.replace('_cast', '') as A.CastExpr['style'];
    const lt = this.expect('<', `after '${kw.text}'`);
    this.templateDepth++;
    const target = this.parseTypeName(`in ${kw.text}`);
    this.templateDepth--;
    if (lt) this.expectClosingAngle(`to close ${kw.text}<…>`, lt);
    const open = this.expect('(', `after ${kw.text}<…>`);
    const saved = this.templateDepth;
    this.templateDepth = 0;
    const operand = this.parseExpression();
    this.templateDepth = saved;
    if (open) this.expect(')', `to close ${kw.text}(…)`, open);
    if (style === 'dynamic') this.notSupported('dynamic_cast', kw);
    return { kind: 'Cast', range: this.rangeFrom(kw), style, target, operand };
  }

  private parseSizeof(): A.Expr {
    const kw = this.next();
    const align = kw.text !== 'sizeof';
    if (this.is('...')) {
      this.notSupported('sizeof...', this.tok);
      this.next();
    }
    if (this.is('(') && this.startsType(1) && this.isCastAhead()) {
      const open = this.next();
      const target = this.parseTypeName(`in ${kw.text}`);
      this.expect(')', `to close ${kw.text}(…)`, open);
      return { kind: 'Sizeof', range: this.rangeFrom(kw), target, align };
    }
    const operand = this.parseUnary();
    return { kind: 'Sizeof', range: this.rangeFrom(kw), target: operand, align };
  }

  private parsePostfix(expr: A.Expr): A.Expr {
    const start = expr.range;
    for (;;) {
      const t = this.tok;
      if (t.kind !== 'punct') break;
      if (t.text === '[') {
        this.next();
        const saved = this.templateDepth;
        this.templateDepth = 0;
        const index = this.parseExpression();
        this.templateDepth = saved;
        this.expect(']', 'to close the subscript', t);
        expr = { kind: 'Index', range: this.rangeFrom(start), base: expr, index };
      } else if (t.text === '(') {
        const open = this.next();
        const args = this.parseArgumentList(open);
        expr = { kind: 'Call', range: this.rangeFrom(start), callee: expr, args, argsRange: this.rangeFrom(open) };
      } else if (t.text === '<<<') {
        expr = this.parseLaunch(expr, start);
      } else if (t.text === '.' || t.text === '->') {
        this.next();
        if (this.is('template')) this.next();
        const m = this.tok;
        if (m.kind !== 'ident') {
          this.errorAfterPrevious('expected-identifier', `expected a member name after '${t.text}'`);
          expr = { kind: 'Member', range: this.rangeFrom(start), object: expr, member: '', memberRange: t.range, arrow: t.text === '->' };
          continue;
        }
        this.next();
        expr = { kind: 'Member', range: this.rangeFrom(start), object: expr, member: m.text, memberRange: m.range, arrow: t.text === '->' };
      } else if (t.text === '++' || t.text === '--') {
        this.next();
        expr = { kind: 'Postfix', range: this.rangeFrom(start), op: t.text, operand: expr };
      } else break;
    }
    return expr;
  }

  private parseLaunch(kernel: A.Expr, start: Range): A.LaunchExpr {
    const open = this.next(); // <<<
    const config: A.Expr[] = [];
    const saved = this.templateDepth;
    this.templateDepth = 0;
    while (!this.atEnd() && !this.is('>>>')) {
      const before = this.pos;
      config.push(this.parseAssignment());
      if (!this.eat(',')) break;
      if (this.pos === before) break;
    }
    this.templateDepth = saved;
    if (!this.is('>>>')) {
      this.errorAfterPrevious('expected-token', "expected '>>>' to close the launch configuration", [{ message: "to match this '<<<'", range: open.range }]);
      // Skip to the `>>>` if it is on this line, so the arguments still parse.
      let k = 0;
      while (this.peek(k).kind !== 'eof' && !this.peek(k).lineStart && this.peek(k).text !== '>>>' && this.peek(k).text !== ';') k++;
      if (this.peek(k).text === '>>>') this.pos += k + 1;
    } else this.next();
    const configRange = this.rangeFrom(open);
    if (config.length < 2 || config.length > 4) {
      this.error('launch-config', `a kernel launch takes 2 to 4 configuration arguments (grid, block[, shared bytes[, stream]]), found ${config.length}`, configRange);
    }
    let args: A.Expr[] = [];
    let argsRange = configRange;
    const p = this.tok;
    if (this.is('(')) {
      this.next();
      args = this.parseArgumentList(p);
      argsRange = this.rangeFrom(p);
    } else {
      this.errorAfterPrevious('expected-token', "expected '(' with the kernel arguments after '>>>'");
    }
    return { kind: 'Launch', range: this.rangeFrom(start), kernel, config, configRange, args, argsRange };
  }

  /** Comma-separated assignment expressions up to the matching `)`; the `(` is consumed. */
  private parseArgumentList(open: Token): A.Expr[] {
    const args: A.Expr[] = [];
    const saved = this.templateDepth;
    this.templateDepth = 0;
    while (!this.atEnd() && !this.is(')')) {
      const before = this.pos;
      args.push(this.is('{') ? this.parseInitList() : this.parseAssignment());
      if (this.eat(',')) continue;
      if (this.is(')') || this.pos === before) break;
      // Something that cannot continue an argument: report and skip to `,` or `)`.
      this.error('expected-token', `expected ',' or ')' in the argument list, found ${this.describe(this.tok)}`, this.tok);
      let depth = 0;
      while (!this.atEnd() && !(depth === 0 && (this.is(',') || this.is(')') || this.is(';') || this.is('{') || this.is('}')))) {
        if (this.is('(')) depth++;
        if (this.is(')')) depth--;
        this.next();
      }
      if (!this.eat(',')) break;
    }
    this.templateDepth = saved;
    this.expect(')', 'to close the argument list', open);
    return args;
  }

  private parseInitializer(): A.Expr {
    return this.is('{') ? this.parseInitList() : this.parseAssignment();
  }

  private parseInitList(): A.Expr {
    this.enter(this.tok);
    const list = this.parseInitListAt();
    this.depth--;
    return list;
  }

  private parseInitListAt(): A.Expr {
    const open = this.next(); // {
    const elements: A.InitElement[] = [];
    const saved = this.templateDepth;
    this.templateDepth = 0;
    while (!this.atEnd() && !this.is('}')) {
      const before = this.pos;
      const designators: A.InitElement['designators'] = [];
      while (this.is('.') || this.is('[')) {
        const d = this.next();
        if (d.text === '.') {
          const n = this.tok;
          if (n.kind === 'ident') {
            this.next();
            designators.push({ kind: 'field', name: n.text, range: this.rangeFrom(d) });
          } else this.errorAfterPrevious('expected-identifier', "expected a field name after '.'");
        } else {
          const index = this.parseConditional();
          this.expect(']', 'to close the designator', d);
          designators.push({ kind: 'index', index, range: this.rangeFrom(d) });
        }
      }
      if (designators.length) this.expect('=', 'after the designator');
      const value = this.parseInitializer();
      elements.push({ designators, value });
      if (!this.eat(',')) break;
      if (this.pos === before) break;
    }
    this.templateDepth = saved;
    if (!this.is('}') && !this.atEnd()) {
      this.error('expected-token', `expected ',' or '}' in the initializer list, found ${this.describe(this.tok)}`, this.tok);
      this.skipBalancedUntilBrace();
    }
    this.expect('}', 'to close the initializer list', open);
    return { kind: 'InitList', range: this.rangeFrom(open), elements };
  }

  private skipBalancedUntilBrace(): void {
    let depth = 0;
    while (!this.atEnd()) {
      if (this.is('{')) depth++;
      else if (this.is('}')) {
        if (depth === 0) return;
        depth--;
      } else if (this.is(';') && depth === 0) return;
      this.next();
    }
  }

  private expressionExpected(): A.ErrorExpr {
    const t = this.tok;
    this.error('expected-expression', `expected an expression, found ${this.describe(t)}`, t);
    return { kind: 'Error', range: { file: t.range.file, start: t.range.start, end: t.range.start } };
  }

  private parsePrimary(): A.Expr {
    const t = this.tok;
    switch (t.kind) {
      case 'number':
        return this.parseNumber();
      case 'char':
        return this.parseCharLiteral();
      case 'string':
        return this.parseStringLiteral();
      case 'other':
        this.error('stray-character', t.problem?.message ?? `stray '${t.text}' in program`, t);
        this.next();
        return { kind: 'Error', range: t.range };
      case 'eof':
        return this.expressionExpected();
      case 'punct':
        if (t.text === '(') {
          this.next();
          const saved = this.templateDepth;
          this.templateDepth = 0;
          this.enter(t);
          const inner = this.is(')') ? this.expressionExpected() : this.parseExpression();
          this.depth--;
          this.templateDepth = saved;
          this.expect(')', 'to close the parenthesis', t);
          return { kind: 'Paren', range: this.rangeFrom(t), inner };
        }
        if (t.text === '{') return this.parseInitList();
        if (t.text === '[') return this.parseLambda();
        {
          const e = this.expressionExpected();
          // Consume a token that cannot end anything, so the caller makes progress.
          if (!/^[;)\]},:]$|^>>>$/.test(t.text) && !(t.text === '{')) this.next();
          return e;
        }
    }
    // Identifiers and keywords.
    switch (t.text) {
      case 'true':
      case 'false':
        this.next();
        return { kind: 'BoolLiteral', range: t.range, value: t.text === 'true' };
      case 'nullptr':
        this.next();
        return { kind: 'NullptrLiteral', range: t.range };
      case 'this':
        this.notSupported("'this'", t);
        this.next();
        return { kind: 'Error', range: t.range };
    }
    if (STATEMENT_KEYWORDS.has(t.text) || t.text === 'else' || DECL_SPECIFIERS.has(t.text) || t.text === 'template') {
      return this.expressionExpected();
    }
    // A type name used as a function: `float(x)`, `dim3(4, 2)`, `int2{1, 2}`.
    if (this.startsType() && !TAG_KEYWORDS.has(t.text) && !CV_QUALIFIERS.has(t.text)) {
      const ahead = this.peekAfterTypeName();
      if (ahead === '(' || ahead === '{') {
        const target = this.parseTypeNameNoDeclarator();
        const braces = this.is('{');
        let args: A.Expr[];
        if (braces) {
          const list = this.parseInitList();
          args = list.kind === 'InitList' ? list.elements.map((e) => e.value) : [list];
        } else {
          const open = this.next();
          args = this.parseArgumentList(open);
        }
        return { kind: 'Construct', range: this.rangeFrom(t), target, args, braces };
      }
      if (TYPE_KEYWORDS.has(t.text)) {
        this.error('expected-expression', `expected an expression, found the type '${t.text}'`, t);
        this.next();
        return { kind: 'Error', range: t.range };
      }
    }
    this.next();
    let qualifier: string | undefined;
    let nameTok = t;
    while (this.is('::') && this.peek(1).kind === 'ident') {
      qualifier = qualifier ? `${qualifier}::${nameTok.text}` : nameTok.text;
      this.next();
      nameTok = this.next();
    }
    const id: A.IdentifierExpr = { kind: 'Identifier', range: this.rangeFrom(t), name: nameTok.text, qualifier };
    if (this.is('<') && this.isTemplateName(nameTok.text)) {
      id.templateArgs = this.parseTemplateArgs();
      id.range = this.rangeFrom(t);
    }
    return id;
  }

  /** The token after a (possibly multi-word, possibly templated) type name starting here. */
  private peekAfterTypeName(): string {
    let k = 0;
    while (TYPE_KEYWORDS.has(this.peek(k).text)) k++;
    if (k === 0) {
      // A qualified name (`std::size_t`, `cuda::atomic_ref`) counts as one.
      while (this.peek(k + 1).text === '::' && this.peek(k + 2).kind === 'ident') k += 2;
      k++;
      if (this.peek(k).text === '<') {
        let depth = 0;
        for (; this.peek(k).kind !== 'eof'; k++) {
          const s = this.peek(k).text;
          if (s === '<') depth++;
          else if (s === '>') depth--;
          else if (s === '>>') depth -= 2;
          if (depth <= 0) break;
        }
        k++;
      }
    }
    return this.peek(k).text;
  }

  private parseTypeNameNoDeclarator(): A.TypeNode {
    const specs = this.parseDeclSpecifiers();
    return specs.base ?? this.missingType(specs.start);
  }

  private parseLambda(): A.Expr {
    const t = this.tok;
    this.notSupported('lambda expressions', t);
    this.skipBalanced('[', ']');
    if (this.is('(')) this.skipBalanced('(', ')');
    while (this.tok.kind === 'ident' && !this.is('{')) this.next();
    if (this.is('->')) {
      this.next();
      this.parseTypeName('as the lambda return type');
    }
    if (this.is('{')) this.skipBalanced('{', '}');
    return { kind: 'Error', range: this.rangeFrom(t) };
  }

  private parseNumber(): A.Expr {
    const t = this.next();
    const n = decodeNumber(t.text);
    if (n.kind === 'invalid') {
      this.error('invalid-number', n.message, t);
      return { kind: 'IntLiteral', range: t.range, value: 0, exact: '0', unsigned: false, longness: 0 };
    }
    if (n.kind === 'float') return { kind: 'FloatLiteral', range: t.range, value: n.value, single: n.single };
    return { kind: 'IntLiteral', range: t.range, value: n.value, exact: n.exact, unsigned: n.unsigned, longness: n.longness };
  }

  private parseCharLiteral(): A.Expr {
    const t = this.next();
    if (t.problem) this.error(t.problem.code, t.problem.message, t);
    const { body } = literalBody(t.text);
    const dec = decodeEscapes(body);
    if (dec.bad) this.error('invalid-escape', dec.bad, t);
    if (dec.value.length === 0 && !t.problem) this.error('empty-char', 'empty character constant', t);
    const value = dec.value.length ? dec.value.codePointAt(0)! : 0;
    // Plain char is signed on the LP64 targets nvcc uses.
    return { kind: 'CharLiteral', range: t.range, value: value > 127 && value < 256 && t.text[0] === "'" ? value - 256 : value };
  }

  private parseStringLiteral(): A.StringLiteral {
    const first = this.tok;
    let value = '';
    while (this.tok.kind === 'string') {
      const t = this.next();
      if (t.problem) this.error(t.problem.code, t.problem.message, t);
      const dec = decodeEscapes(literalBody(t.text).body);
      if (dec.bad) this.error('invalid-escape', dec.bad, t);
      value += dec.value;
    }
    return { kind: 'StringLiteral', range: this.rangeFrom(first), value };
  }
}

/** Standard library types that are recognised so they can be reported as unsupported. */
const STD_UNSUPPORTED_TYPES = new Set(['vector', 'string', 'map', 'unordered_map', 'array', 'pair', 'tuple', 'unique_ptr', 'shared_ptr', 'ostream', 'istream', 'mutex', 'thread', 'atomic']);
