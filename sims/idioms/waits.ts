// Wait loops: loops that a thread leaves only when another thread changes memory. A spin on
// a lock (`while (atomicCAS(&lock, 0, 1) != 0);`), on a flag (`while (flags[b - 1] == 0);`),
// on a barrier's counter (`while (atomicAdd(&count, 0) < gridDim.x);`), or the `for (;;) {
// if (…) break; }` form of any of them. What they poll and which value ends them is what the
// idiom recogniser classifies and what a starvation report names.
import type * as A from '../frontend/ast';
import { functionsOf } from '../frontend/index';
import type { Range } from '../frontend/source';
import { atomicOp, baseVariable, calleeName, constant, descendants, exprText, isPrivateLocal, normaliseLvalue, pointeeKey, strip, within } from './syntax';

/** One memory read a wait loop's exit depends on. */
export interface PolledRead {
  /** The expression that reads memory: an atomic call, or an lvalue (`flags[b - 1]`, `*l`, `lock`). */
  read: A.Expr;
  /** Where the exit condition uses the value: the read itself, or the local it was stored in (`old`). */
  use: A.Expr;
  /** The location read, as the program names it (`lock`, `flags[b - 1]`, `l[0]` for `*l`). */
  key: string;
  /** `CAS`, `Exch`, `Add`, … for an atomic read. */
  atomic?: string;
  call?: A.CallExpr;
}

export type LoopStmt = A.WhileStmt | A.DoStmt | A.ForStmt;

export interface WaitLoop {
  fn: A.FunctionDecl;
  loop: LoopStmt;
  /** `while`, `do` or `for`: where a hover or a lens points. */
  keyword: Range;
  /** The loop's header: from its keyword to the end of its condition (all of a do-while). */
  header: Range;
  /** The loop ends once this holds: its condition negated, or an `if (…) break;` condition. */
  exit: { expr: A.Expr; negated: boolean };
  /** With the `if (…) break;` form: that if statement (its branch runs once the wait is over). */
  breakIf?: A.IfStmt;
  reads: PolledRead[];
}

export type Relation = '==' | '!=' | '<' | '<=' | '>' | '>=';

/** What a wait loop waits for: the location read `op` a value (`lock == 0`, `count >= gridDim.x`). */
export interface WaitTarget {
  op: Relation;
  /** The value as written (`0`, `gridDim.x`, `my_generation`). */
  text: string;
  /** The value, when it is a constant. */
  constant?: number;
}

const FLIP: Record<Relation, Relation> = { '==': '==', '!=': '!=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };
const NEGATE: Record<Relation, Relation> = { '==': '!=', '!=': '==', '<': '>=', '<=': '>', '>': '<=', '>=': '<' };
const isRelation = (op: string): op is Relation => op in FLIP;

const cache = new WeakMap<A.TranslationUnit, WaitLoop[]>();

/** The wait loops of every function of a translation unit (computed once per tree). */
export function waitLoops(unit: A.TranslationUnit): WaitLoop[] {
  let loops = cache.get(unit);
  if (!loops) {
    loops = [];
    for (const fn of functionsOf(unit)) {
      if (!fn.body) continue;
      for (const n of descendants(fn.body)) {
        if (n.kind !== 'WhileStmt' && n.kind !== 'DoStmt' && n.kind !== 'ForStmt') continue;
        const w = waitLoop(fn, n as LoopStmt);
        if (w) loops.push(w);
      }
    }
    cache.set(unit, loops);
  }
  return loops;
}

/** The wait loop one of whose polled reads is at `range` (a memory access's source range). */
export function waitLoopAt(unit: A.TranslationUnit, range: Range): { loop: WaitLoop; read: PolledRead } | undefined {
  for (const loop of waitLoops(unit)) {
    for (const read of loop.reads) {
      if (within(range, read.read.range) || within(read.read.range, range)) return { loop, read };
    }
  }
  return undefined;
}

const KEYWORD_LENGTH = { WhileStmt: 5, DoStmt: 2, ForStmt: 3 } as const;

/**
 * Does the function have a loop whose exit depends on memory another thread may change (a
 * wait loop, or any loop that reads shared memory to decide when to stop)? Code without one
 * cannot wait for another block, so no scheduler can starve it.
 */
export function pollsMemory(fn: A.FunctionDecl): boolean {
  if (!fn.body) return false;
  return descendants(fn.body).some((n) => (n.kind === 'WhileStmt' || n.kind === 'DoStmt' || n.kind === 'ForStmt') && waitLoop(fn, n as LoopStmt, true) !== undefined);
}

function waitLoop(fn: A.FunctionDecl, loop: LoopStmt, lenient = false): WaitLoop | undefined {
  const start = loop.range.start;
  const keyword: Range = { file: loop.range.file, start, end: { line: start.line, character: start.character + KEYWORD_LENGTH[loop.kind], offset: start.offset + KEYWORD_LENGTH[loop.kind] } };
  const condition = loop.kind === 'ForStmt' ? loop.condition : loop.condition;
  const forever = !condition || constant(condition) !== undefined;
  let exit: WaitLoop['exit'] | undefined;
  let breakIf: A.IfStmt | undefined;
  if (forever) {
    if (condition && constant(condition) === 0) return undefined;
    breakIf = breakingIf(loop.body);
    if (!breakIf) return undefined;
    exit = { expr: breakIf.condition, negated: false };
  } else exit = { expr: condition!, negated: true };
  const headerEnd = loop.kind === 'DoStmt' ? loop.range.end : loop.kind === 'ForStmt' ? (loop.step ?? loop.condition ?? loop.init)?.range.end ?? keyword.end : loop.condition.range.end;
  const header: Range = { file: loop.range.file, start, end: headerEnd };

  // Locals the loop changes: a condition on one of them is a computation, not a wait, unless
  // the local holds what a memory read just returned (`old = atomicCAS(…)`).
  const changed = new Map<A.VarDecl | A.ParamDecl, A.Expr | null>();
  const scan: A.Node[] = [loop.body, ...(loop.kind === 'ForStmt' && loop.step ? [loop.step] : [])];
  for (const root of scan) {
    for (const n of descendants(root)) {
      if (n.kind === 'Assign') {
        const a = n as A.AssignExpr;
        const t = strip(a.target);
        if (t.kind === 'Identifier' && t.ref?.kind === 'var') changed.set(t.ref.decl, a.op === '=' && changed.get(t.ref.decl) !== null ? a.value : null);
      } else if (n.kind === 'VarDecl' && (n as A.VarDecl).init) {
        changed.set(n as A.VarDecl, (n as A.VarDecl).init!);
      } else if (n.kind === 'Postfix' || (n.kind === 'Unary' && ((n as A.UnaryExpr).op === '++' || (n as A.UnaryExpr).op === '--'))) {
        const t = strip((n as A.PostfixExpr).operand);
        if (t.kind === 'Identifier' && t.ref?.kind === 'var') changed.set(t.ref.decl, null);
      }
    }
  }
  const reads: PolledRead[] = [];
  let computes = false;
  const following = new Set<A.VarDecl | A.ParamDecl>();
  // A read whose address the loop changes (`p = p->next`) walks a structure.
  const addressUses = (address: A.Expr): void => {
    for (const n of descendants(address)) if (n.kind === 'Identifier' && (n as A.IdentifierExpr).ref?.kind === 'var' && changed.has(((n as A.IdentifierExpr).ref as { decl: A.VarDecl }).decl)) computes = true;
  };
  const collect = (e: A.Node, use: (read: A.Expr) => A.Expr): void => {
    const visit = (n: A.Node): void => {
      const x = n as A.Expr;
      if (x.kind === 'Call') {
        const op = atomicOp(x);
        const name = calleeName(x) ?? '';
        if ((op || /^__ld/.test(name)) && x.args[0]) {
          // An atomic that changes memory each time round (`atomicAdd(&head, 1)`) hands out
          // work or tickets; a loop on it is not waiting for another thread.
          if (op && !polls(x, op)) computes = true;
          reads.push({ read: x, use: use(x), key: pointeeKey(x.args[0]), ...(op ? { atomic: op } : {}), call: x });
          addressUses(x.args[0]);
          for (const a of x.args.slice(1)) visit(a);
          return;
        }
      }
      if (x.kind === 'Unary' && x.op === '&') return; // an address, not a read
      if (x.kind === 'Assign') {
        visit(x.value);
        return;
      }
      if (x.kind === 'Index' || (x.kind === 'Unary' && x.op === '*') || x.kind === 'Member' || x.kind === 'Identifier') {
        if (isMemoryRead(x)) {
          reads.push({ read: x, use: use(x), key: normaliseLvalue(x) });
          addressUses(x);
          if (x.kind === 'Index') visit(x.index);
          return;
        }
        if (x.kind === 'Identifier' && x.ref?.kind === 'var' && changed.has(x.ref.decl)) {
          const source = changed.get(x.ref.decl);
          // `old = atomicCAS(…)` in the body, `old != 0` in the condition: the CAS is polled.
          // A local computed from itself (`x = x + step`) is a computation.
          if (source && !following.has(x.ref.decl)) {
            following.add(x.ref.decl);
            collect(source, () => x);
          } else computes = true;
          return;
        }
      }
      for (const c of childExprs(x)) visit(c);
    };
    visit(e);
  };
  collect(exit.expr, (r) => r);
  if (reads.length === 0 || (computes && !lenient)) return undefined;
  if (lenient) return { fn, loop, keyword, header, exit, ...(breakIf ? { breakIf } : {}), reads };
  // A loop that itself stores to what it polls (other than the polling atomic) is working
  // through a queue, not waiting for another thread.
  const polled = new Set(reads.map((r) => r.key));
  const exempt = new Set<A.Node>(reads.map((r) => r.read));
  for (const n of descendants(loop.body)) {
    if (breakIf && within(n.range, breakIf.then.range)) continue;
    if (n.kind === 'Assign' && polled.has(normaliseLvalue((n as A.AssignExpr).target))) return undefined;
    if ((n.kind === 'Postfix' || n.kind === 'Unary') && ['++', '--'].includes((n as A.PostfixExpr).op) && polled.has(normaliseLvalue((n as A.PostfixExpr).operand))) return undefined;
    if (n.kind === 'Call' && !exempt.has(n) && atomicOp(n as A.CallExpr) && (n as A.CallExpr).args[0] && polled.has(pointeeKey((n as A.CallExpr).args[0]))) return undefined;
  }
  return { fn, loop, keyword, header, exit, ...(breakIf ? { breakIf } : {}), reads };
}

/**
 * Does this atomic, repeated, leave memory as it is unless another thread changed it? Reads
 * (`atomicAdd(&x, 0)`, `atomicCAS(&x, v, v)`) and acquires (`atomicCAS(&l, 0, 1)`,
 * `atomicExch(&l, 1)`) do; `atomicAdd(&x, 1)` does not.
 */
function polls(c: A.CallExpr, op: string): boolean {
  const v = c.args[1] ? constant(c.args[1]) : undefined;
  if (op === 'CAS' || op === 'Exch') return true;
  if (op === 'Add' || op === 'Sub' || op === 'Or' || op === 'Xor') return v === 0;
  if (op === 'And') return v === -1 || v === 0xffffffff;
  return false;
}

/** Is this CAS an acquire (it stores a different value from the one it expects)? */
export function isAcquire(read: PolledRead): boolean {
  if (read.atomic === 'Exch') return true;
  if (read.atomic !== 'CAS' || !read.call || read.call.args.length < 3) return false;
  const [, expected, desired] = read.call.args;
  const e = constant(expected);
  const d = constant(desired);
  if (e !== undefined && d !== undefined) return e !== d;
  return exprText(strip(expected)) !== exprText(strip(desired));
}

/** The expression children of an expression. */
function childExprs(e: A.Expr): A.Expr[] {
  switch (e.kind) {
    case 'Unary':
    case 'Postfix':
      return [e.operand];
    case 'Binary':
      return [e.left, e.right];
    case 'Assign':
      return [e.target, e.value];
    case 'Conditional':
      return [e.condition, e.then, e.else];
    case 'Call':
      return [e.callee, ...e.args];
    case 'Index':
      return [e.base, e.index];
    case 'Member':
      return [e.object];
    case 'Cast':
      return [e.operand];
    case 'Paren':
      return [e.inner];
    case 'Construct':
      return e.args;
    default:
      return [];
  }
}

/** Does evaluating this lvalue read memory that another thread could change? */
function isMemoryRead(e: A.Expr): boolean {
  if (e.kind === 'Identifier') {
    if (e.ref?.kind !== 'var') return false;
    const d = e.ref.decl;
    if (d.kind === 'ParamDecl') return !!(d.resolvedType as { volatile?: boolean } | undefined)?.volatile;
    return !isPrivateLocal(e) && !(d.resolvedType?.kind === 'array');
  }
  if (e.kind === 'Member' && !e.arrow) return isMemoryRead(strip(e.object)) || strip(e.object).kind !== 'Identifier';
  // An element of a private local array is private too.
  const base = baseVariable(e);
  if (base && base.ref?.kind === 'var' && base.ref.decl.kind === 'VarDecl' && isPrivateLocal(base) && base.ref.decl.resolvedType?.kind === 'array') return false;
  return true;
}

/** The `if (c) break;` (or `if (c) { …; break; }`) at the top level of a loop body. */
function breakingIf(body: A.Stmt): A.IfStmt | undefined {
  const list = body.kind === 'CompoundStmt' ? body.body : [body];
  for (const s of list) {
    if (s.kind !== 'IfStmt' || s.else) continue;
    const t = s.then;
    const last = t.kind === 'CompoundStmt' ? t.body[t.body.length - 1] : t;
    if (last && (last.kind === 'BreakStmt' || last.kind === 'ReturnStmt')) return s;
  }
  return undefined;
}

/**
 * What the loop waits for at `read`: the relation between the location and a value that ends
 * it (`lock == 0` for `while (atomicCAS(&lock, 0, 1) != 0)`), or undefined when the exit
 * condition is not a plain comparison of what is read.
 */
export function waitTarget(loop: WaitLoop, read: PolledRead): WaitTarget | undefined {
  const use = read.use;
  const contains = (e: A.Expr): boolean => within(use.range, e.range);
  const isUse = (e: A.Expr): boolean => {
    const s = strip(e);
    if (s === use) return true;
    return s.kind === 'Assign' && s.op === '=' && strip(s.value) === use;
  };
  const zero: WaitTarget = { op: '==', text: '0', constant: 0 };
  const go = (e: A.Expr, negated: boolean): WaitTarget | undefined => {
    const s = strip(e);
    if (!contains(s)) return undefined;
    if (isUse(s)) return negated ? zero : { ...zero, op: '!=' };
    if (s.kind === 'Unary' && s.op === '!') return go(s.operand, !negated);
    if (s.kind === 'Binary' && (s.op === '&&' || s.op === '||')) return go(contains(s.left) ? s.left : s.right, negated);
    if (s.kind === 'Binary' && isRelation(s.op)) {
      const left = contains(s.left);
      const mine = left ? s.left : s.right;
      const other = left ? s.right : s.left;
      if (!isUse(mine)) return undefined;
      let op: Relation = left ? s.op : FLIP[s.op];
      if (negated) op = NEGATE[op];
      const c = constant(other);
      return { op, text: c !== undefined ? String(c) : exprText(other), ...(c !== undefined ? { constant: c } : {}) };
    }
    return undefined;
  };
  return go(loop.exit.expr, loop.exit.negated);
}

/** Does `value` satisfy `target` (for a constant target)? */
export function satisfies(target: WaitTarget, value: number): boolean | undefined {
  const c = target.constant;
  if (c === undefined) return undefined;
  switch (target.op) {
    case '==':
      return value === c;
    case '!=':
      return value !== c;
    case '<':
      return value < c;
    case '<=':
      return value <= c;
    case '>':
      return value > c;
    case '>=':
      return value >= c;
  }
}
