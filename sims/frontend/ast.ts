// The syntax tree. Plain data: every node has a `kind` and a `range` in the original source
// (for code produced by a macro, the range of the macro use). Nodes that a later stage edits
// (fixes) keep the ranges it needs: names, callee names, qualifiers, statement ends.
// The semantic pass fills the optional `type`, `ref` and `instantiation` fields in place.
import type { Range } from './source';

// Semantic types. Qualifiers ride on the type object they qualify (`const`/`volatile` on any
// type, `restrict` on pointers), so `volatile unsigned int *` is a pointer to a volatile int.
// Constructors, sizes and conversions are in ./types.ts.

export type IntName =
  | 'char' | 'signed char' | 'unsigned char' | 'short' | 'unsigned short' | 'int' | 'unsigned int'
  | 'long' | 'unsigned long' | 'long long' | 'unsigned long long';

interface Qualified {
  const?: boolean;
  volatile?: boolean;
}

export type Type =
  | ({ kind: 'void' } & Qualified)
  | ({ kind: 'bool' } & Qualified)
  | ({ kind: 'int'; name: IntName; bits: 8 | 16 | 32 | 64; signed: boolean } & Qualified)
  | ({ kind: 'float'; bits: 32 | 64 } & Qualified)
  | ({ kind: 'nullptr' } & Qualified)
  | ({ kind: 'pointer'; to: Type; restrict?: boolean } & Qualified)
  | ({ kind: 'reference'; to: Type } & Qualified)
  | ({ kind: 'array'; of: Type; size?: number } & Qualified)
  | ({ kind: 'struct'; name: string; decl: StructDecl } & Qualified)
  | ({ kind: 'enum'; name: string; decl: EnumDecl } & Qualified)
  | ({ kind: 'vector'; name: string; elem: Type; count: 1 | 2 | 3 | 4 } & Qualified)
  | ({ kind: 'function'; returns: Type; params: Type[]; variadic: boolean } & Qualified)
  | ({ kind: 'typeParam'; name: string; param: TemplateParam } & Qualified)
  /**
   * libcu++'s `cuda::atomic<T, Scope>` (an object holding a T) and `cuda::atomic_ref<T, Scope>`
   * (`ref`: an object holding the address of a T). `cuda::std::` forms have system scope.
   */
  | ({ kind: 'atomic'; ref: boolean; value: Type; scope: ThreadScope } & Qualified)
  | ({ kind: 'error' } & Qualified);

/** libcu++'s `cuda::thread_scope_*`: which threads an atomic object synchronises. */
export type ThreadScope = 'thread' | 'block' | 'device' | 'system';


export interface Node {
  kind: string;
  range: Range;
}

/** A keyword-like word in a declaration (`static`, `__global__`, `volatile`, …) and where it is. */
export interface Specifier {
  text: string;
  range: Range;
  /** Arguments of `__launch_bounds__(…)`, `__align__(…)`, `alignas(…)`. */
  args?: Expr[];
}

// ---------------------------------------------------------------------------------------------
// Types as written

export type TypeNode =
  | NamedTypeNode
  | TagTypeNode
  | PointerTypeNode
  | ReferenceTypeNode
  | ArrayTypeNode
  | FunctionTypeNode;

export interface NamedTypeNode extends Node {
  kind: 'NamedType';
  /** Canonical spelling of built-in types (`unsigned int`, `long long`), else the name. */
  name: string;
  /** const / volatile that apply to this base type. */
  qualifiers: Specifier[];
  templateArgs?: TemplateArg[];
  /** `std::` and the like. */
  qualifier?: string;
}

export interface TagTypeNode extends Node {
  kind: 'TagType';
  tag: 'struct' | 'union' | 'class' | 'enum';
  name?: string;
  qualifiers: Specifier[];
  /** Set when the tag is defined right here (`struct S { … } s;`). */
  definition?: StructDecl | EnumDecl;
}

export interface PointerTypeNode extends Node {
  kind: 'PointerType';
  to: TypeNode;
  /** const / volatile / __restrict__ written after the `*`. */
  qualifiers: Specifier[];
}

export interface ReferenceTypeNode extends Node {
  kind: 'ReferenceType';
  to: TypeNode;
  rvalue: boolean;
}

export interface ArrayTypeNode extends Node {
  kind: 'ArrayType';
  of: TypeNode;
  size?: Expr;
}

export interface FunctionTypeNode extends Node {
  kind: 'FunctionType';
  returns: TypeNode;
  params: ParamDecl[];
  variadic: boolean;
}

export type TemplateArg = { kind: 'TypeArg'; type: TypeNode; range: Range } | { kind: 'ExprArg'; expr: Expr; range: Range };

// ---------------------------------------------------------------------------------------------
// Declarations

export type Decl =
  | FunctionDecl
  | VarDecl
  | FieldDecl
  | TypedefDecl
  | StructDecl
  | EnumDecl
  | StaticAssertDecl
  | LinkageDecl
  | UnsupportedDecl;

export type ExecutionSpace = 'host' | 'device' | 'global' | 'host device';

export interface FunctionDecl extends Node {
  kind: 'FunctionDecl';
  name: string;
  nameRange: Range;
  returnType: TypeNode;
  params: ParamDecl[];
  variadic: boolean;
  specifiers: Specifier[];
  /** Where it runs: from __global__/__device__/__host__ (none = host). */
  space: ExecutionSpace;
  externC: boolean;
  template?: TemplateParamList;
  body?: CompoundStmt;
}

export interface TemplateParamList extends Node {
  kind: 'TemplateParams';
  params: TemplateParam[];
}

export interface TemplateParam extends Node {
  kind: 'TemplateParam';
  /** `typename T` / `class T` → 'type'; `unsigned int N` → 'value'. */
  paramKind: 'type' | 'value';
  name: string;
  nameRange: Range;
  valueType?: TypeNode;
  defaultArg?: TemplateArg;
}

export interface ParamDecl extends Node {
  kind: 'ParamDecl';
  name?: string;
  nameRange?: Range;
  type: TypeNode;
  defaultValue?: Expr;
  specifiers: Specifier[];
  resolvedType?: Type;
}

/** Storage: `__shared__`, `__device__`, `__constant__`, `__managed__`, `static`, `extern`, … */
export interface VarDecl extends Node {
  kind: 'VarDecl';
  name: string;
  nameRange: Range;
  type: TypeNode;
  specifiers: Specifier[];
  init?: Expr;
  /** `dim3 g(4, 2)` is direct initialisation; `int a{1}` is list initialisation. */
  initStyle?: 'assign' | 'direct' | 'list';
  /** True for a variable declared at file scope. */
  global: boolean;
  resolvedType?: Type;
}

export interface TypedefDecl extends Node {
  kind: 'TypedefDecl';
  name: string;
  nameRange: Range;
  type: TypeNode;
  /** `using X = T;` rather than `typedef T X;`. */
  alias: boolean;
  resolvedType?: Type;
}

export interface StructDecl extends Node {
  kind: 'StructDecl';
  tag: 'struct' | 'union' | 'class';
  name?: string;
  nameRange?: Range;
  /** Undefined for a forward declaration `struct S;`. */
  fields?: FieldDecl[];
}

export interface FieldDecl extends Node {
  kind: 'FieldDecl';
  name?: string;
  nameRange?: Range;
  type: TypeNode;
  bitWidth?: Expr;
  resolvedType?: Type;
}

export interface EnumDecl extends Node {
  kind: 'EnumDecl';
  name?: string;
  nameRange?: Range;
  scoped: boolean;
  underlying?: TypeNode;
  enumerators: Enumerator[];
}

export interface Enumerator extends Node {
  kind: 'Enumerator';
  name: string;
  value?: Expr;
  /** Filled by the semantic pass. */
  constValue?: number;
}

export interface StaticAssertDecl extends Node {
  kind: 'StaticAssert';
  condition: Expr;
  message?: string;
}

/** `extern "C" { … }` */
export interface LinkageDecl extends Node {
  kind: 'LinkageDecl';
  language: string;
  decls: Decl[];
}

/** Something the grammar reads but the product does not support yet (a class with methods,
 *  a namespace, …). It has been reported as `not-supported`; its contents are kept if known. */
export interface UnsupportedDecl extends Node {
  kind: 'UnsupportedDecl';
  what: string;
  decls: Decl[];
}

// ---------------------------------------------------------------------------------------------
// Statements

export type Stmt =
  | CompoundStmt
  | DeclStmt
  | ExprStmt
  | IfStmt
  | ForStmt
  | WhileStmt
  | DoStmt
  | SwitchStmt
  | CaseStmt
  | DefaultStmt
  | BreakStmt
  | ContinueStmt
  | ReturnStmt
  | NullStmt
  | AsmStmt
  | UnsupportedStmt;

export interface CompoundStmt extends Node {
  kind: 'CompoundStmt';
  body: Stmt[];
}
export interface DeclStmt extends Node {
  kind: 'DeclStmt';
  decls: Decl[];
}
export interface ExprStmt extends Node {
  kind: 'ExprStmt';
  expr: Expr;
}
export interface IfStmt extends Node {
  kind: 'IfStmt';
  condition: Expr;
  /** `if (int x = f())` */
  conditionDecl?: VarDecl;
  then: Stmt;
  else?: Stmt;
}
export interface ForStmt extends Node {
  kind: 'ForStmt';
  init?: DeclStmt | ExprStmt;
  condition?: Expr;
  step?: Expr;
  body: Stmt;
  /** `#pragma unroll` has no effect on meaning; kept out of the tree on purpose. */
}
export interface WhileStmt extends Node {
  kind: 'WhileStmt';
  condition: Expr;
  body: Stmt;
}
export interface DoStmt extends Node {
  kind: 'DoStmt';
  body: Stmt;
  condition: Expr;
}
export interface SwitchStmt extends Node {
  kind: 'SwitchStmt';
  condition: Expr;
  body: Stmt;
}
/** `case 3:` is a label inside the switch body; the statement after it is a sibling. */
export interface CaseStmt extends Node {
  kind: 'CaseStmt';
  value: Expr;
  constValue?: number;
}
export interface DefaultStmt extends Node {
  kind: 'DefaultStmt';
}
export interface BreakStmt extends Node {
  kind: 'BreakStmt';
}
export interface ContinueStmt extends Node {
  kind: 'ContinueStmt';
}
export interface ReturnStmt extends Node {
  kind: 'ReturnStmt';
  value?: Expr;
}
export interface NullStmt extends Node {
  kind: 'NullStmt';
}
/** `asm volatile("…" : outputs : inputs : clobbers)` — inline PTX. */
export interface AsmStmt extends Node {
  kind: 'AsmStmt';
  template: string;
  /** The template string literal(s): diagnostics about its instructions point here. */
  templateRange?: Range;
  volatile: boolean;
  outputs: AsmOperand[];
  inputs: AsmOperand[];
  clobbers: string[];
}
export interface AsmOperand extends Node {
  kind: 'AsmOperand';
  constraint: string;
  expr: Expr;
}
export interface UnsupportedStmt extends Node {
  kind: 'UnsupportedStmt';
  what: string;
}

// ---------------------------------------------------------------------------------------------
// Expressions

export type Expr =
  | IdentifierExpr
  | IntLiteral
  | FloatLiteral
  | CharLiteral
  | StringLiteral
  | BoolLiteral
  | NullptrLiteral
  | UnaryExpr
  | PostfixExpr
  | BinaryExpr
  | AssignExpr
  | ConditionalExpr
  | CallExpr
  | LaunchExpr
  | IndexExpr
  | MemberExpr
  | CastExpr
  | ConstructExpr
  | SizeofExpr
  | InitListExpr
  | ParenExpr
  | ErrorExpr;

interface ExprBase extends Node {
  /** Filled by the semantic pass. */
  type?: Type;
}

export interface IdentifierExpr extends ExprBase {
  kind: 'Identifier';
  name: string;
  /** `std` in `std::min`. */
  qualifier?: string;
  templateArgs?: TemplateArg[];
  /** The declaration it names (filled by the semantic pass). */
  ref?: SymbolRef;
}

export type SymbolRef =
  | { kind: 'var'; decl: VarDecl | ParamDecl }
  | { kind: 'function'; decl: FunctionDecl }
  | { kind: 'enumerator'; decl: Enumerator }
  | { kind: 'builtin'; name: string }
  | { kind: 'templateValue'; param: TemplateParam };

export interface IntLiteral extends ExprBase {
  kind: 'IntLiteral';
  /** The value as a JS number (exact up to 2^53). */
  value: number;
  /** The exact value in decimal, for 64-bit constants. */
  exact: string;
  unsigned: boolean;
  /** 0 = int, 1 = long, 2 = long long */
  longness: 0 | 1 | 2;
}
export interface FloatLiteral extends ExprBase {
  kind: 'FloatLiteral';
  value: number;
  /** `1.0f` is float; `1.0` is double. */
  single: boolean;
}
export interface CharLiteral extends ExprBase {
  kind: 'CharLiteral';
  value: number;
}
export interface StringLiteral extends ExprBase {
  kind: 'StringLiteral';
  /** Decoded and concatenated (adjacent literals join). */
  value: string;
}
export interface BoolLiteral extends ExprBase {
  kind: 'BoolLiteral';
  value: boolean;
}
export interface NullptrLiteral extends ExprBase {
  kind: 'NullptrLiteral';
}

export type UnaryOp = '+' | '-' | '!' | '~' | '*' | '&' | '++' | '--';
export interface UnaryExpr extends ExprBase {
  kind: 'Unary';
  op: UnaryOp;
  operand: Expr;
}
export interface PostfixExpr extends ExprBase {
  kind: 'Postfix';
  op: '++' | '--';
  operand: Expr;
}

export type BinaryOp =
  | '*' | '/' | '%' | '+' | '-' | '<<' | '>>' | '<' | '>' | '<=' | '>=' | '==' | '!='
  | '&' | '^' | '|' | '&&' | '||' | ',';
export interface BinaryExpr extends ExprBase {
  kind: 'Binary';
  op: BinaryOp;
  left: Expr;
  right: Expr;
  opRange: Range;
}

export type AssignOp = '=' | '+=' | '-=' | '*=' | '/=' | '%=' | '<<=' | '>>=' | '&=' | '^=' | '|=';
export interface AssignExpr extends ExprBase {
  kind: 'Assign';
  op: AssignOp;
  target: Expr;
  value: Expr;
  opRange: Range;
}
export interface ConditionalExpr extends ExprBase {
  kind: 'Conditional';
  condition: Expr;
  then: Expr;
  else: Expr;
}
export interface CallExpr extends ExprBase {
  kind: 'Call';
  callee: Expr;
  args: Expr[];
  /** From `(` to `)`. */
  argsRange: Range;
  /** Filled by the semantic pass for calls of function templates: the chosen arguments. */
  instantiation?: TemplateInstantiation;
}
export interface LaunchExpr extends ExprBase {
  kind: 'Launch';
  kernel: Expr;
  /** grid, block[, dynamic shared bytes[, stream]] */
  config: Expr[];
  /** From `<<<` to `>>>`. */
  configRange: Range;
  args: Expr[];
  argsRange: Range;
  instantiation?: TemplateInstantiation;
}
export interface TemplateInstantiation {
  template: FunctionDecl;
  /** Identifies the instantiation (template and arguments) once the semantic pass checked it;
   *  its concretely typed body is in the parse result's `instantiations` under this key. */
  key?: string;
  /** One entry per template parameter: a type, or a constant value. */
  args: ({ kind: 'type'; type: Type } | { kind: 'value'; value: number })[];
  deduced: boolean;
}
export interface IndexExpr extends ExprBase {
  kind: 'Index';
  base: Expr;
  index: Expr;
}
export interface MemberExpr extends ExprBase {
  kind: 'Member';
  object: Expr;
  member: string;
  memberRange: Range;
  arrow: boolean;
}
export interface CastExpr extends ExprBase {
  kind: 'Cast';
  style: 'c' | 'static' | 'reinterpret' | 'const' | 'dynamic';
  target: TypeNode;
  operand: Expr;
  resolvedTarget?: Type;
}
/** `float(x)`, `dim3(4, 2)`, `int2{1, 2}` */
export interface ConstructExpr extends ExprBase {
  kind: 'Construct';
  target: TypeNode;
  args: Expr[];
  braces: boolean;
  resolvedTarget?: Type;
}
export interface SizeofExpr extends ExprBase {
  kind: 'Sizeof';
  /** `sizeof(int)` has a type, `sizeof x` an expression. `alignof` sets `align`. */
  target: TypeNode | Expr;
  align: boolean;
  resolvedTarget?: Type;
}
export interface InitListExpr extends ExprBase {
  kind: 'InitList';
  elements: InitElement[];
}
export interface InitElement {
  /** `.x = 1` or `[2] = 5` designators, outermost first. */
  designators: ({ kind: 'field'; name: string; range: Range } | { kind: 'index'; index: Expr; range: Range })[];
  value: Expr;
}
export interface ParenExpr extends ExprBase {
  kind: 'Paren';
  inner: Expr;
}
/** Stands where an expression was required but none could be read; the error is already reported. */
export interface ErrorExpr extends ExprBase {
  kind: 'Error';
}

export interface TranslationUnit extends Node {
  kind: 'TranslationUnit';
  decls: Decl[];
}

export function isTypeNode(n: TypeNode | Expr): n is TypeNode {
  return (
    n.kind === 'NamedType' ||
    n.kind === 'TagType' ||
    n.kind === 'PointerType' ||
    n.kind === 'ReferenceType' ||
    n.kind === 'ArrayType' ||
    n.kind === 'FunctionType'
  );
}

/** Fields the semantic pass adds to the tree. (`type` is also the written type of a
 *  declaration; only an expression's semantic type, whose kinds are lower-case, is dropped.) */
const ANNOTATIONS = new Set(['ref', 'resolvedType', 'resolvedTarget', 'instantiation', 'constValue']);
const isSemanticType = (v: unknown): boolean => {
  const k = (v as { kind?: unknown } | undefined)?.kind;
  return typeof k === 'string' && k[0] >= 'a' && k[0] <= 'z';
};

/**
 * A copy of a subtree as the parser produced it: the semantic annotations are left out, ranges
 * (immutable) are shared, and a node reached twice (a struct defined inside a declaration is
 * both a declaration and its declarators' type) is copied once.
 */
export function cloneUnannotated<N>(node: N): N {
  const copies = new Map<object, unknown>();
  const copy = (x: unknown): unknown => {
    if (x === null || typeof x !== 'object') return x;
    const done = copies.get(x);
    if (done !== undefined) return done;
    if (Array.isArray(x)) {
      const out: unknown[] = [];
      copies.set(x, out);
      for (const e of x) out.push(copy(e));
      return out;
    }
    const src = x as Record<string, unknown>;
    // Ranges and positions are plain immutable data: share them.
    if ('start' in src && 'end' in src && 'file' in src) return x;
    const out: Record<string, unknown> = {};
    copies.set(x, out);
    for (const k in src) if (!ANNOTATIONS.has(k) && !(k === 'type' && isSemanticType(src[k]))) out[k] = copy(src[k]);
    return out;
  };
  return copy(node) as N;
}
