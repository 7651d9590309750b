// Arguments for a kernel run on its own, from what the kernel says it requires.
//
// A kernel-only file (GPUVerify's suite) states what its scalar parameters may be with
// `__requires(x == 143)`, `__requires(i == 1 | i == 2)`, `__requires(n > 0 && n <= 1024)`. A run
// that makes every scalar up as 0 (then 1) stops at such a precondition and checks nothing. The
// preconditions of the kernel body's top level that name only its integer parameters and
// constants (the launch's `blockDim` and `gridDim` among them) are read here, and the first
// valuations that meet them all are the run's arguments:
// the smallest in magnitude first, then another one for the second run (as 1 is after 0). Values
// are tried from the constants the clauses compare each parameter with (and their neighbours), so
// a parameter fixed only through another (`y == x + 1`) is not found. A clause that names anything
// else (a thread index, a pointer's offset) is left to the run, which still checks every
// precondition as it meets it.
import type * as A from '../frontend/ast';

/** Values for the constrained parameters of two runs; empty when the kernel states nothing usable. */
export interface Valuations {
  first: Record<string, number>;
  second: Record<string, number>;
}

/** How many combinations of candidate values are tried at most. */
const MAX_COMBINATIONS = 20_000;

/** The launch the run makes: its `gridDim` and `blockDim` are constants of the clauses. */
export interface LaunchShape {
  grid: readonly [number, number, number];
  block: readonly [number, number, number];
}

/** Valuations of `integers` (the kernel's integer scalar parameters, those not given) meeting the kernel's preconditions. */
export function preconditionValuations(kernel: A.FunctionDecl, integers: readonly string[], launch: LaunchShape): Valuations {
  const clauses = requiredClauses(kernel).filter((c) => namesOnly(c, integers, launch));
  const constrained = integers.filter((name) => clauses.some((c) => mentions(c, name)));
  if (!constrained.length) return { first: {}, second: {} };
  const relevant = clauses.filter((c) => constrained.some((name) => mentions(c, name)));
  const candidates = constrained.map((name) => candidateValues(relevant, name, launch));
  const found: Record<string, number>[] = [];
  let tried = 0;
  const assign = (k: number, values: Record<string, number>): void => {
    if (found.length >= 2 || tried >= MAX_COMBINATIONS) return;
    if (k === constrained.length) {
      tried++;
      if (relevant.every((c) => evaluate(c, values, launch) !== 0)) found.push({ ...values });
      return;
    }
    for (const v of candidates[k]) {
      values[constrained[k]] = v;
      assign(k + 1, values);
      if (found.length >= 2) return;
    }
  };
  assign(0, {});
  if (!found.length) return { first: {}, second: {} };
  return { first: found[0], second: found[1] ?? found[0] };
}

/**
 * Whether `values` of the integer parameters `integers` meet every top-level precondition that
 * names only them and constants (those preconditionValuations reads); the others are left to the run.
 */
export function meetsPreconditions(kernel: A.FunctionDecl, integers: readonly string[], launch: LaunchShape, values: Record<string, number>): boolean {
  return requiredClauses(kernel)
    .filter((c) => namesOnly(c, integers, launch))
    .every((c) => evaluate(c, values, launch) !== 0);
}

/**
 * The device function each function-pointer parameter is, by the kernel's top-level
 * `__requires(f == divideByTwo)` clauses (either side, within `&&`; of a disjunction,
 * `f == a | f == b`, its first alternative): parameter name → function name. Which parameters
 * are function pointers the run decides (it takes only names of its device functions).
 */
export function requiredFunctions(kernel: A.FunctionDecl): Record<string, string> {
  const params = new Set(kernel.params.flatMap((p) => (p.name ? [p.name] : [])));
  const out: Record<string, string> = {};
  const name = (e: A.Expr): string | undefined => (e.kind === 'Identifier' && e.qualifier === undefined ? e.name : e.kind === 'Paren' ? name(e.inner) : undefined);
  const visit = (e: A.Expr): void => {
    if (e.kind === 'Paren') visit(e.inner);
    else if (e.kind === 'Binary' && e.op === '&&') {
      visit(e.left);
      visit(e.right);
    } else if (e.kind === 'Binary' && (e.op === '||' || e.op === '|')) visit(e.left);
    else if (e.kind === 'Binary' && e.op === '==') {
      const [l, r] = [name(e.left), name(e.right)];
      if (l && r && params.has(l) && !params.has(r)) out[l] = r;
      else if (l && r && params.has(r) && !params.has(l)) out[r] = l;
    }
  };
  for (const c of requiredClauses(kernel)) visit(c);
  return out;
}

/** `blockDim.x`, `gridDim.z`: the launch's value, or undefined for any other expression. */
function dimension(e: A.Expr, launch: LaunchShape): number | undefined {
  if (e.kind !== 'Member' || e.arrow || e.object.kind !== 'Identifier') return undefined;
  const axis = ['x', 'y', 'z'].indexOf(e.member);
  if (axis < 0) return undefined;
  return e.object.name === 'blockDim' ? launch.block[axis] : e.object.name === 'gridDim' ? launch.grid[axis] : undefined;
}

/** The `__requires(…)` conditions at the top level of the kernel's body, in order. */
function requiredClauses(kernel: A.FunctionDecl): A.Expr[] {
  const out: A.Expr[] = [];
  for (const s of kernel.body?.body ?? []) {
    if (s.kind !== 'ExprStmt' || s.expr.kind !== 'Call' || s.expr.args.length !== 1) continue;
    const callee = s.expr.callee;
    if (callee.kind === 'Identifier' && callee.name === '__requires') out.push(s.expr.args[0]);
  }
  return out;
}

/** The expression is built of the given names, integer constants and operators the evaluator knows. */
function namesOnly(e: A.Expr, names: readonly string[], launch: LaunchShape): boolean {
  switch (e.kind) {
    case 'IntLiteral':
      return true;
    case 'Member':
      return dimension(e, launch) !== undefined;
    case 'Identifier':
      return e.qualifier === undefined && names.includes(e.name);
    case 'Paren':
      return namesOnly(e.inner, names, launch);
    case 'Unary':
      return (e.op === '-' || e.op === '!' || e.op === '+') && namesOnly(e.operand, names, launch);
    case 'Binary':
      return BINARY.has(e.op) && namesOnly(e.left, names, launch) && namesOnly(e.right, names, launch);
    default:
      return false;
  }
}

const BINARY = new Set<string>(['==', '!=', '<', '<=', '>', '>=', '&&', '||', '&', '|', '^', '+', '-', '*', '/', '%']);

function mentions(e: A.Expr, name: string): boolean {
  switch (e.kind) {
    case 'Identifier':
      return e.name === name;
    case 'Paren':
      return mentions(e.inner, name);
    case 'Unary':
      return mentions(e.operand, name);
    case 'Binary':
      return mentions(e.left, name) || mentions(e.right, name);
    default:
      return false;
  }
}

/** Values worth trying for `name`: 0 and 1, then each constant the clauses compare with and its neighbours, smallest magnitude first. */
function candidateValues(clauses: readonly A.Expr[], name: string, launch: LaunchShape): number[] {
  const values = new Set<number>([0, 1]);
  let negative = false;
  const visit = (e: A.Expr): void => {
    if (e.kind === 'Paren') visit(e.inner);
    else if (e.kind === 'Unary') visit(e.operand);
    else if (e.kind === 'Binary') {
      if (COMPARISON.has(e.op) && (mentions(e.left, name) || mentions(e.right, name))) {
        for (const side of [e.left, e.right]) {
          const c = constantOf(side, launch);
          if (c === undefined) continue;
          for (const v of [c, c - 1, c + 1]) values.add(v);
          if (c < 0) negative = true;
        }
      }
      visit(e.left);
      visit(e.right);
    }
  };
  for (const c of clauses) visit(c);
  // Negative values only where the clauses compare with one (an unsigned parameter has none).
  return [...values].filter((v) => v >= 0 || negative).sort((a, b) => Math.abs(a) - Math.abs(b) || b - a);
}

const COMPARISON = new Set<string>(['==', '!=', '<', '<=', '>', '>=']);

function constantOf(e: A.Expr, launch: LaunchShape): number | undefined {
  // Built of constants and the launch's dimensions only (`blockDim.x - 1`).
  return namesOnly(e, [], launch) ? evaluate(e, {}, launch) : undefined;
}

/** The expression's value under `values` (C's integer arithmetic; a division by zero makes the clause false). */
function evaluate(e: A.Expr, values: Record<string, number>, launch: LaunchShape): number {
  switch (e.kind) {
    case 'IntLiteral':
      return e.value;
    case 'Member':
      return dimension(e, launch) ?? 0;
    case 'Identifier':
      return values[e.name] ?? 0;
    case 'Paren':
      return evaluate(e.inner, values, launch);
    case 'Unary': {
      const v = evaluate(e.operand, values, launch);
      return e.op === '-' ? -v : e.op === '!' ? Number(v === 0) : v;
    }
    case 'Binary': {
      if (e.op === '&&') return Number(evaluate(e.left, values, launch) !== 0 && evaluate(e.right, values, launch) !== 0);
      if (e.op === '||') return Number(evaluate(e.left, values, launch) !== 0 || evaluate(e.right, values, launch) !== 0);
      const a = evaluate(e.left, values, launch);
      const b = evaluate(e.right, values, launch);
      switch (e.op) {
        case '==': return Number(a === b);
        case '!=': return Number(a !== b);
        case '<': return Number(a < b);
        case '<=': return Number(a <= b);
        case '>': return Number(a > b);
        case '>=': return Number(a >= b);
        case '&': return a & b;
        case '|': return a | b;
        case '^': return a ^ b;
        case '+': return a + b;
        case '-': return a - b;
        case '*': return a * b;
        case '/': return b === 0 ? 0 : Math.trunc(a / b);
        case '%': return b === 0 ? 0 : a % b;
      }
      return 0;
    }
    default:
      return 0;
  }
}
