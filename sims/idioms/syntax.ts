// Small questions about the syntax tree that the idiom recogniser and the fairness search ask:
// what an expression says (printed back as the programmer would write it), which memory
// location it names, whether it is a constant, and which nodes it contains.
import type * as A from '../frontend/ast';
import type { Range } from '../frontend/source';
import { evalConst } from '../frontend/sema/constEval';
import * as T from '../frontend/types';

/** Fields that point back into the tree or at semantic data, not at children. */
const NOT_CHILDREN = new Set(['ref', 'resolvedType', 'resolvedTarget', 'instantiation', 'constValue', 'type']);

function isNode(x: unknown): x is A.Node {
  return !!x && typeof x === 'object' && typeof (x as A.Node).kind === 'string' && typeof (x as A.Node).range === 'object';
}

/** The direct children of a node (statements, expressions, declarations). */
export function children(node: A.Node): A.Node[] {
  const out: A.Node[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (NOT_CHILDREN.has(key) || !value || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (const v of value) {
        if (isNode(v)) out.push(v);
        // Init-list elements are plain records holding the expression.
        else if (v && typeof v === 'object' && isNode((v as A.InitElement).value)) out.push((v as A.InitElement).value);
      }
    } else if (isNode(value)) out.push(value);
  }
  return out;
}

/** Every node under `root` (itself included), parents before children. */
export function descendants(root: A.Node): A.Node[] {
  const out: A.Node[] = [];
  const seen = new Set<A.Node>();
  const visit = (n: A.Node): void => {
    if (seen.has(n)) return;
    seen.add(n);
    out.push(n);
    for (const c of children(n)) visit(c);
  };
  visit(root);
  return out;
}

/** `(e)`, casts and unary plus removed: the expression that gives the value. */
export function strip(e: A.Expr): A.Expr {
  for (;;) {
    if (e.kind === 'Paren') e = e.inner;
    else if (e.kind === 'Cast') e = e.operand;
    else if (e.kind === 'Unary' && e.op === '+') e = e.operand;
    else return e;
  }
}

/** The name of a called function (`atomicCAS`, `atomicAdd_block`), if the callee is a plain name. */
export function calleeName(c: A.CallExpr): string | undefined {
  const f = strip(c.callee);
  return f.kind === 'Identifier' ? f.name : undefined;
}

/** The atomic operation of a call (`CAS` for atomicCAS_block), or undefined for other calls. */
export function atomicOp(c: A.CallExpr): string | undefined {
  const m = /^atomic([A-Z][A-Za-z]*?)(?:_block|_system)?$/.exec(calleeName(c) ?? '');
  return m?.[1];
}

export const within = (inner: Range, outer: Range): boolean => inner.file === outer.file && inner.start.offset >= outer.start.offset && inner.end.offset <= outer.end.offset;

export const sameRange = (a: Range, b: Range): boolean => a.file === b.file && a.start.offset === b.start.offset && a.end.offset === b.end.offset;

const CONSTANTS = {
  identifier: (e: A.IdentifierExpr): number | undefined => {
    const ref = e.ref;
    if (ref?.kind === 'enumerator') return ref.decl.constValue;
    // `const int N = 4;` and `#define`d numbers (already literals) are constants too.
    if (ref?.kind === 'var' && ref.decl.kind === 'VarDecl' && ref.decl.init && ref.decl.specifiers.some((s) => s.text === 'const' || s.text === 'constexpr')) return evalConst(ref.decl.init, CONSTANTS);
    if (ref?.kind === 'var' && ref.decl.kind === 'VarDecl' && ref.decl.init && ref.decl.type.kind === 'NamedType' && ref.decl.type.qualifiers.some((q) => q.text === 'const')) return evalConst(ref.decl.init, CONSTANTS);
    return undefined;
  },
  sizeOf: (e: A.SizeofExpr): number | undefined => (e.resolvedTarget ? T.sizeOf(e.resolvedTarget) : undefined),
  castsToInteger: (e: A.CastExpr | A.ConstructExpr): boolean => !!e.resolvedTarget && T.isInteger(e.resolvedTarget),
};

/** The value of a constant expression (literals, enumerators, `const` variables), if it is one. */
export function constant(e: A.Expr): number | undefined {
  try {
    return evalConst(e, CONSTANTS);
  } catch {
    return undefined;
  }
}

const PRECEDENCE: Record<string, number> = { ',': 1, '||': 3, '&&': 4, '|': 5, '^': 6, '&': 7, '==': 8, '!=': 8, '<': 9, '>': 9, '<=': 9, '>=': 9, '<<': 10, '>>': 10, '+': 11, '-': 11, '*': 12, '/': 12, '%': 12 };

/** The expression printed back as C (`flags[blockIdx.x - 1]`, `gridDim.x * 2`); `…` for what it cannot print. */
export function exprText(e: A.Expr, parent = 0): string {
  switch (e.kind) {
    case 'Identifier':
      return `${e.qualifier ? `${e.qualifier}::` : ''}${e.name}`;
    case 'IntLiteral':
      return e.exact;
    case 'FloatLiteral':
      return String(e.value);
    case 'CharLiteral':
      return String(e.value);
    case 'BoolLiteral':
      return e.value ? 'true' : 'false';
    case 'NullptrLiteral':
      return 'nullptr';
    case 'StringLiteral':
      return JSON.stringify(e.value);
    case 'Paren':
      return exprText(e.inner, parent);
    case 'Cast':
      return exprText(e.operand, parent);
    case 'Unary':
      return `${e.op}${exprText(e.operand, 13)}`;
    case 'Postfix':
      return `${exprText(e.operand, 14)}${e.op}`;
    case 'Binary': {
      const p = PRECEDENCE[e.op] ?? 1;
      const s = `${exprText(e.left, p)} ${e.op} ${exprText(e.right, p + 1)}`;
      return p < parent ? `(${s})` : s;
    }
    case 'Assign':
      return `${exprText(e.target, 2)} ${e.op} ${exprText(e.value, 2)}`;
    case 'Conditional':
      return `${exprText(e.condition, 3)} ? ${exprText(e.then)} : ${exprText(e.else)}`;
    case 'Index':
      return `${exprText(e.base, 14)}[${exprText(e.index)}]`;
    case 'Member':
      return `${exprText(e.object, 14)}${e.arrow ? '->' : '.'}${e.member}`;
    case 'Call':
      return `${exprText(e.callee, 14)}(${e.args.map((a) => exprText(a)).join(', ')})`;
    default:
      return '…';
  }
}

/** The location an atomic's first argument points to, named as `normaliseLvalue` names it. */
export function pointeeKey(ptr: A.Expr): string {
  const s = strip(ptr);
  if (s.kind === 'Unary' && s.op === '&') return normaliseLvalue(strip(s.operand));
  return normaliseLvalue({ kind: 'Unary', op: '*', operand: s, range: s.range } as A.UnaryExpr);
}

/**
 * `*p` and `p[0]` name the same location; `*(p + i)` is `p[i]`; and through a local pointer
 * set to an address (`volatile int *f = &flag;`), `*f` is `flag`.
 */
export function normaliseLvalue(e: A.Expr): string {
  const s = strip(e);
  const target = (p: A.Expr): A.Expr | undefined => {
    const q = strip(p);
    if (q.kind === 'Unary' && q.op === '&') return q.operand;
    if (q.kind !== 'Identifier' || q.ref?.kind !== 'var' || q.ref.decl.kind !== 'VarDecl' || q.ref.decl.global || !q.ref.decl.init) return undefined;
    const init = strip(q.ref.decl.init);
    return init.kind === 'Unary' && init.op === '&' ? init.operand : undefined;
  };
  if (s.kind === 'Unary' && s.op === '*') {
    const p = strip(s.operand);
    const t = target(p);
    if (t) return normaliseLvalue(t);
    if (p.kind === 'Binary' && p.op === '+') return `${exprText(p.left, 14)}[${exprText(p.right)}]`;
    return `${exprText(p, 14)}[0]`;
  }
  if (s.kind === 'Index' && constant(s.index) === 0) {
    const t = target(s.base);
    if (t) return normaliseLvalue(t);
  }
  return exprText(s);
}

/** The variable an expression's base names (`flags` in `flags[i]`, `s` in `s->open`). */
export function baseVariable(e: A.Expr): A.IdentifierExpr | undefined {
  let s = strip(e);
  for (;;) {
    if (s.kind === 'Identifier') return s;
    if (s.kind === 'Index') s = strip(s.base);
    else if (s.kind === 'Member') s = strip(s.object);
    else if (s.kind === 'Unary' && (s.op === '*' || s.op === '&')) s = strip(s.operand);
    else if (s.kind === 'Binary' && (s.op === '+' || s.op === '-')) s = strip(s.left);
    else return undefined;
  }
}

/** Is this a local variable of a function (not a global, not a parameter, not `__shared__`, not volatile)? */
export function isPrivateLocal(id: A.IdentifierExpr): boolean {
  const ref = id.ref;
  if (ref?.kind !== 'var' || ref.decl.kind !== 'VarDecl') return false;
  const d = ref.decl;
  if (d.global) return false;
  const words = d.specifiers.map((s) => s.text);
  if (words.includes('__shared__') || words.includes('static') || words.includes('volatile')) return false;
  return !(d.resolvedType as { volatile?: boolean } | undefined)?.volatile;
}

/** Does the expression mention `blockIdx` (directly, or through a local initialised from it)? */
export function mentionsBlockIdx(e: A.Expr, locals: Map<A.VarDecl | A.ParamDecl, A.Expr>, depth = 0): boolean {
  if (depth > 8) return false;
  return descendants(e).some((n) => {
    if (n.kind !== 'Identifier') return false;
    const id = n as A.IdentifierExpr;
    if (id.name === 'blockIdx') return true;
    const init = id.ref?.kind === 'var' ? locals.get(id.ref.decl) : undefined;
    return !!init && mentionsBlockIdx(init, locals, depth + 1);
  });
}

const bodies = new WeakMap<A.FunctionDecl, A.Node[]>();

/** Every node of a function's body (computed once per function: a tree does not change). */
export function bodyNodes(fn: A.FunctionDecl): A.Node[] {
  let nodes = bodies.get(fn);
  if (!nodes) bodies.set(fn, (nodes = fn.body ? descendants(fn.body) : []));
  return nodes;
}

const initialisers = new WeakMap<A.FunctionDecl, Map<A.VarDecl | A.ParamDecl, A.Expr>>();

/** Local variables of a function and the expression each is initialised with. */
export function localInitialisers(fn: A.FunctionDecl): Map<A.VarDecl | A.ParamDecl, A.Expr> {
  let out = initialisers.get(fn);
  if (out) return out;
  out = new Map();
  for (const n of bodyNodes(fn)) {
    if (n.kind === 'VarDecl' && (n as A.VarDecl).init) out.set(n as A.VarDecl, (n as A.VarDecl).init!);
  }
  initialisers.set(fn, out);
  return out;
}
