// The syntax tree seen from source ranges: which call, statement or declaration an event's
// range belongs to, and where statements sit in their blocks. Fixes need to go from "the
// access at this range" to "the statement to insert a line after".
import type * as A from '../frontend/ast';
import type { Range } from '../frontend/source';

/** Fields that point back into the tree or at semantic data, not at children. */
const NOT_CHILDREN = new Set(['ref', 'resolvedType', 'resolvedTarget', 'instantiation', 'constValue']);

type Statement = A.Stmt;

export class SyntaxIndex {
  private static readonly cache = new WeakMap<A.TranslationUnit, SyntaxIndex>();
  private readonly parent = new Map<A.Node, A.Node>();
  private readonly nodes: A.Node[] = [];

  static of(unit: A.TranslationUnit): SyntaxIndex {
    let index = SyntaxIndex.cache.get(unit);
    if (!index) {
      index = new SyntaxIndex(unit);
      SyntaxIndex.cache.set(unit, index);
    }
    return index;
  }

  private constructor(unit: A.TranslationUnit) {
    const seen = new Set<object>();
    const visit = (node: A.Node, parent: A.Node | undefined): void => {
      if (seen.has(node)) return;
      seen.add(node);
      this.nodes.push(node);
      if (parent) this.parent.set(node, parent);
      for (const [key, value] of Object.entries(node)) {
        if (NOT_CHILDREN.has(key) || !value || typeof value !== 'object') continue;
        for (const child of Array.isArray(value) ? value : [value]) if (isNode(child)) visit(child, node);
      }
    };
    for (const d of unit.decls) visit(d, undefined);
  }

  calls(): A.CallExpr[] {
    return this.nodes.filter((n): n is A.CallExpr => n.kind === 'Call');
  }

  callAt(r: Range): A.CallExpr | undefined {
    return this.calls().find((c) => same(c.range, r));
  }

  /** The calls written inside `r` (a statement's range), in source order. */
  callsWithin(r: Range): A.CallExpr[] {
    return this.calls().filter((c) => contains(r, c.range));
  }

  /** The function definition (with a body) of that name whose body holds `r`, if one does. */
  functionHolding(name: string, r: Range): A.FunctionDecl | undefined {
    return this.functionsNamed(name).find((f) => contains(f.range, r));
  }

  functionsNamed(name: string): A.FunctionDecl[] {
    return this.nodes.filter((n): n is A.FunctionDecl => n.kind === 'FunctionDecl' && (n as A.FunctionDecl).name === name);
  }

  /** The statement directly in a `{ … }` block that contains `r`, with its block and index there, then the same one level out, and so on. */
  *listedStatementsAround(r: Range): Generator<{ block: A.CompoundStmt; index: number; statement: Statement }> {
    for (let n = this.innermost(r); n; n = this.parent.get(n)) {
      const p = this.parent.get(n);
      if (p?.kind === 'FunctionDecl') return;
      if (p?.kind === 'CompoundStmt' && isStatement(n)) yield { block: p as A.CompoundStmt, index: (p as A.CompoundStmt).body.indexOf(n as Statement), statement: n as Statement };
    }
  }

  /** The `if` whose condition holds `r`, if `r` lies in one. */
  ifConditionHolding(r: Range): A.IfStmt | undefined {
    for (let n = this.innermost(r); n; n = this.parent.get(n)) {
      const p = this.parent.get(n);
      if (p?.kind === 'IfStmt' && (p as A.IfStmt).condition === n) return p as A.IfStmt;
      if (!p || isStatement(p)) return undefined;
    }
    return undefined;
  }

  statementAt(r: Range): Statement | undefined {
    return this.nodes.find((n): n is Statement => isStatement(n) && same(n.range, r));
  }

  /** The smallest node that covers `r`. */
  private innermost(r: Range): A.Node | undefined {
    let best: A.Node | undefined;
    for (const n of this.nodes) {
      if (n.range.file !== r.file || n.range.start.offset > r.start.offset || n.range.end.offset < r.end.offset) continue;
      if (!best || n.range.end.offset - n.range.start.offset <= best.range.end.offset - best.range.start.offset) best = n;
    }
    return best;
  }

  /** The statement directly in a `{ … }` block that contains `r`. */
  enclosingListedStatement(r: Range): Statement | undefined {
    for (let n = this.innermost(r); n; n = this.parent.get(n)) {
      const p = this.parent.get(n);
      if (p?.kind === 'CompoundStmt' && isStatement(n)) return n;
    }
    return undefined;
  }

  /** The innermost expression statement that contains `r` (listed in a block or not: `if (c) x = v;`). */
  enclosingExpressionStatement(r: Range): A.ExprStmt | undefined {
    for (let n = this.innermost(r); n; n = this.parent.get(n)) if (n.kind === 'ExprStmt') return n as A.ExprStmt;
    return undefined;
  }

  /**
   * The two statements of one `{ … }` block that contain `a` and `b`, where they differ: the
   * block is the innermost that holds both.
   */
  siblingStatements(a: Range, b: Range): { block: A.CompoundStmt; first: Statement; firstIndex: number; second: Statement; secondIndex: number } | undefined {
    const chain = (r: Range): A.Node[] => {
      const out: A.Node[] = [];
      for (let n = this.innermost(r); n; n = this.parent.get(n)) out.push(n);
      return out;
    };
    const ca = chain(a);
    const cb = chain(b);
    for (let i = 1; i < ca.length; i++) {
      const block = ca[i];
      if (block.kind !== 'CompoundStmt') continue;
      const j = cb.indexOf(block);
      if (j < 1) continue;
      const first = ca[i - 1] as Statement;
      const second = cb[j - 1] as Statement;
      if (first === second) return undefined;
      const body = (block as A.CompoundStmt).body;
      return { block: block as A.CompoundStmt, first, firstIndex: body.indexOf(first), second, secondIndex: body.indexOf(second) };
    }
    return undefined;
  }

  /** The function whose body holds `r`. */
  enclosingFunction(r: Range): A.FunctionDecl | undefined {
    for (let n = this.innermost(r); n; n = this.parent.get(n)) if (n.kind === 'FunctionDecl') return n as A.FunctionDecl;
    return undefined;
  }

  /** The `{ … }` body of the innermost loop around `r`, and its statement that holds `r`. */
  loopBodyAround(r: Range): { block: A.CompoundStmt; statement: Statement } | undefined {
    let below: A.Node | undefined;
    for (let n = this.innermost(r); n; below = n, n = this.parent.get(n)) {
      if (n.kind === 'FunctionDecl') return undefined;
      if (n.kind === 'CompoundStmt' && below && this.isLoopBody(n as A.CompoundStmt)) return { block: n as A.CompoundStmt, statement: below as Statement };
    }
    return undefined;
  }

  isLoopBody(block: A.CompoundStmt): boolean {
    const p = this.parent.get(block);
    return !!p && (p.kind === 'ForStmt' || p.kind === 'WhileStmt' || p.kind === 'DoStmt');
  }

  /** Whether `n` lies in an `if`, `switch` or `?:` branch (code some threads may skip). */
  underCondition(n: A.Node): boolean {
    for (let p = this.parent.get(n); p; p = this.parent.get(p)) {
      if (p.kind === 'IfStmt' || p.kind === 'SwitchStmt' || p.kind === 'Conditional') return true;
      if (p.kind === 'FunctionDecl') return false;
    }
    return false;
  }

  /** The outermost expression written exactly at `r` (`a[i]`, not the `a` inside it). */
  expressionAt(r: Range): A.Expr | undefined {
    return this.nodes.find((n) => same(n.range, r) && isExpr(n)) as A.Expr | undefined;
  }

  /** The node that holds `n`. */
  parentOf(n: A.Node): A.Node | undefined {
    return this.parent.get(n);
  }

  /** The variable or parameter an lvalue at `r` is reached through: `data` in `data[i].x`. */
  rootDeclaration(r: Range): A.VarDecl | A.ParamDecl | undefined {
    let e = this.expressionAt(r);
    for (let guard = 0; e && guard < 64; guard++) {
      switch (e.kind) {
        case 'Identifier':
          return e.ref?.kind === 'var' ? e.ref.decl : undefined;
        case 'Index':
          e = e.base;
          break;
        case 'Member':
          e = e.object;
          break;
        case 'Unary':
          if (e.op !== '*' && e.op !== '++' && e.op !== '--') return undefined;
          e = e.operand;
          break;
        case 'Postfix':
          e = e.operand;
          break;
        case 'Paren':
          e = e.inner;
          break;
        case 'Cast':
          e = e.operand;
          break;
        case 'Assign':
          e = e.target;
          break;
        case 'Binary':
          // Pointer arithmetic: `p + i`, the pointer side.
          e = e.left.type?.kind === 'pointer' || e.left.type?.kind === 'array' ? e.left : e.right;
          break;
        default:
          return undefined;
      }
    }
    return undefined;
  }
}

function contains(outer: Range, inner: Range): boolean {
  return outer.file === inner.file && outer.start.offset <= inner.start.offset && inner.end.offset <= outer.end.offset;
}

function same(a: Range, b: Range): boolean {
  return a.file === b.file && a.start.offset === b.start.offset && a.end.offset === b.end.offset;
}

function isNode(x: unknown): x is A.Node {
  if (!x || typeof x !== 'object') return false;
  const k = (x as { kind?: unknown }).kind;
  // Semantic types have lower-case kinds; syntax nodes are capitalised.
  return typeof k === 'string' && k[0] >= 'A' && k[0] <= 'Z' && 'range' in x;
}

const STATEMENT_KINDS = new Set(['CompoundStmt', 'DeclStmt', 'ExprStmt', 'IfStmt', 'ForStmt', 'WhileStmt', 'DoStmt', 'SwitchStmt', 'BreakStmt', 'ContinueStmt', 'ReturnStmt', 'NullStmt', 'AsmStmt']);

function isStatement(n: A.Node): n is Statement {
  return STATEMENT_KINDS.has(n.kind);
}

function isExpr(n: A.Node): n is A.Expr {
  return !isStatement(n) && !n.kind.endsWith('Decl') && !n.kind.endsWith('Type');
}
