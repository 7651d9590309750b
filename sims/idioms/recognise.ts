// Blocking idioms between thread blocks, recognised in the syntax tree, and the weakest GPU
// scheduler under which each is guaranteed to terminate (Sorensen et al., "GPU schedulers:
// how fair is fair enough?", Table 2 and Figure 1):
//
//   spin lock                      OBE      (not HSA: the holder may be a higher block)
//   one-way producer-consumer      HSA      (not OBE: the producer may never start)
//   two-way producer-consumer      fair
//   grid barrier                   fair     (occupancy-limited under OBE only with discovery)
//   occupancy discovery protocol   OBE,  and a barrier among the blocks it finds: OBE
//   LOBE-optimised discovery       LOBE, and a barrier among the blocks it finds: LOBE
//   spin lock + one-way PC         HSA+OBE  (neither HSA nor OBE alone)
//
// The recogniser reads shapes, not proofs: a wait loop (see waits.ts) is classified by what it
// polls and who writes that. The fairness search (sims/fairness/fairness.ts) checks a schedule.
import type * as A from '../frontend/ast';
import { functionsOf } from '../frontend/index';
import type { Range } from '../frontend/source';
import { FAIRNESS_NAMES, joinFairness, listed, verdictSets, type Fairness } from './schedulers';
import { atomicOp, baseVariable, bodyNodes, calleeName, constant, descendants, exprText, localInitialisers, mentionsBlockIdx, normaliseLvalue, pointeeKey, strip, within } from './syntax';
import { isAcquire, waitLoops, waitTarget, type PolledRead, type WaitLoop } from './waits';

export type IdiomKind = 'spin-lock' | 'one-way-pc' | 'two-way-pc' | 'grid-barrier' | 'discovery-protocol' | 'lobe-discovery-protocol' | 'discovery-barrier' | 'lobe-discovery-barrier' | 'mutex-one-way-pc';

export interface Idiom {
  kind: IdiomKind;
  /** `Spin lock`, `One-way producer-consumer`, … */
  title: string;
  /** The weakest scheduler under which it is guaranteed to terminate. */
  weakest: Fairness;
  /** Where its code lens goes: the wait loop, the discovery function, or the kernel of a combination. */
  range: Range;
  /** Where hovering explains it: the wait loop's header. */
  hover?: Range;
  /** `Spin lock — terminates under OBE, …; may starve under HSA and unfair (Sorensen et al., …, Table 2)` */
  verdict: string;
  /** Why, for a CUDA programmer: what a waiting block relies on. */
  explanation: string;
  /** The location it waits on or locks (`lock`, `flags[b - 1]`). */
  location?: string;
}

const PAPER = "Sorensen et al., 'GPU schedulers: how fair is fair enough?'";

const TITLES: Record<IdiomKind, string> = {
  'spin-lock': 'Spin lock',
  'one-way-pc': 'One-way producer-consumer',
  'two-way-pc': 'Two-way producer-consumer',
  'grid-barrier': 'Grid barrier',
  'discovery-protocol': 'Occupancy discovery protocol',
  'lobe-discovery-protocol': 'LOBE-optimised occupancy discovery',
  'discovery-barrier': 'Barrier among discovered blocks',
  'lobe-discovery-barrier': 'Barrier among LOBE-discovered blocks',
  'mutex-one-way-pc': 'Spin lock with one-way producer-consumer',
};

const WEAKEST: Record<IdiomKind, Fairness> = {
  'spin-lock': 'obe',
  'one-way-pc': 'hsa',
  'two-way-pc': 'fair',
  'grid-barrier': 'fair',
  'discovery-protocol': 'obe',
  'lobe-discovery-protocol': 'lobe',
  'discovery-barrier': 'obe',
  'lobe-discovery-barrier': 'lobe',
  'mutex-one-way-pc': 'hsa+obe',
};

/** Where in the paper the verdict comes from. */
const SOURCE: Record<IdiomKind, string> = {
  'spin-lock': 'Table 2',
  'one-way-pc': 'Table 2',
  'two-way-pc': 'Table 2',
  'grid-barrier': 'Table 2',
  'discovery-protocol': 'Table 2 and Figure 1',
  'lobe-discovery-protocol': 'Figure 1',
  'discovery-barrier': 'Figure 1',
  'lobe-discovery-barrier': 'Figure 1',
  'mutex-one-way-pc': 'Figure 1',
};

/** The lens line: what it is, where it terminates, where it may starve, and the source. */
export function verdictText(kind: IdiomKind, title = TITLES[kind]): string {
  const weakest = WEAKEST[kind];
  const { terminates, starves } = verdictSets(weakest);
  const names = (s: Fairness[]): string => listed(s.map((f) => FAIRNESS_NAMES[f]));
  const where = weakest === 'fair' ? 'terminates only under a fair scheduler' : `terminates under ${names(terminates)} schedulers`;
  return `${title} — ${where}; may starve under ${names(starves)} (${PAPER}, ${SOURCE[kind]})`;
}

const cache = new WeakMap<A.TranslationUnit, Idiom[]>();

/**
 * The blocking idioms between blocks of a translation unit (computed once per tree). `host`,
 * the host view of the program, tells which kernels are launched with one block only: waits
 * in them are between threads of one block, which these schedulers do not concern.
 */
export function recogniseIdioms(unit: A.TranslationUnit, host: A.TranslationUnit = unit): Idiom[] {
  let found = cache.get(unit);
  if (!found) {
    found = recognise(unit, host);
    cache.set(unit, found);
  }
  return found;
}

interface Discovery {
  fn: A.FunctionDecl;
  /** The counter of discovered blocks (`count`). */
  count: string;
  lobe: boolean;
}

function recognise(unit: A.TranslationUnit, host: A.TranslationUnit): Idiom[] {
  const functions = functionsOf(unit).filter((f) => f.body);
  const byName = new Map(functions.map((f) => [f.name, f]));
  const interBlock = multiBlockCode(functions, byName, host);
  const loops = waitLoops(unit).filter((l) => interBlock.has(l.fn) && !l.reads.every((r) => intraBlock(r, l, functions)));
  const increments = incrementedCounters(functions);
  const generations = generationWrites(functions);
  const stores = storesByLocation(functions);
  const discoveries = functions.map(discoveryProtocol).filter((d): d is Discovery => !!d);
  const out: Idiom[] = [];
  const perFunction = new Map<A.FunctionDecl, Idiom[]>();
  const add = (fn: A.FunctionDecl, idiom: Idiom): void => {
    out.push(idiom);
    perFunction.set(fn, [...(perFunction.get(fn) ?? []), idiom]);
  };
  const make = (kind: IdiomKind, range: Range, explanation: string, loop?: WaitLoop, location?: string): Idiom => ({
    kind,
    title: TITLES[kind],
    weakest: WEAKEST[kind],
    range,
    ...(loop ? { hover: loop.header } : {}),
    verdict: verdictText(kind),
    explanation,
    ...(location ? { location } : {}),
  });

  for (const d of discoveries) {
    const kind = d.lobe ? 'lobe-discovery-protocol' : 'discovery-protocol';
    const explanation = d.lobe
      ? `Blocks register while the poll is open, and a block also counts every block with a lower index as discovered (\`${d.count}\` becomes at least \`blockIdx.x + 1\`), whether or not those blocks have started. Only a scheduler that keeps running every block up to the highest one that started (LOBE, or a fair one) guarantees that the blocks counted all run; under OBE and HSA+OBE a barrier among them can wait for a block that never starts.`
      : `Blocks register under a lock while the poll is open and are counted in \`${d.count}\`; the poll closes once a registered block looks again. Every block counted has already run, so a scheduler that keeps running started blocks (OBE) keeps them all running, and a barrier among them is safe. Under HSA a waiting block relies on the lowest-index unfinished block only.`;
    add(d.fn, make(kind, d.fn.nameRange, explanation, undefined, d.count));
  }

  for (const loop of loops) {
    const read = loop.reads[0];
    const target = waitTarget(loop, read);
    const where = `\`${read.key}\``;
    const acquire = loop.reads.find((r) => isAcquire(r));
    const ticket = !acquire && ticketWait(loop, target);
    if (ticket) {
      const explanation = `A block waits here until ${where} reaches the ticket it drew: a ticket lock. The blocks ahead of it have all drawn tickets, so they have started and a scheduler that keeps running started blocks (OBE) lets each reach its release. HSA only guarantees the lowest-index unfinished block, which may be the one waiting here.`;
      add(loop.fn, make('spin-lock', loop.keyword, explanation, loop, read.key));
      continue;
    }
    if (acquire) {
      const release = (stores.get(acquire.key) ?? []).find((w) => w.node !== acquire.call && (w.node.kind === 'Assign' || atomicOp(w.node as A.CallExpr) === 'Exch'))?.node;
      const released = release ? ` until the block holding it releases it (line ${release.range.start.line + 1})` : ' until the block holding it releases it';
      const explanation = `A block that finds \`${acquire.key}\` taken spins here${released}. The holder has already run, so a scheduler that keeps running every block that has started (OBE) lets it get to the release. HSA only guarantees the lowest-index unfinished block, which may be the one waiting here while a higher block holds the lock.`;
      add(loop.fn, make('spin-lock', loop.keyword, explanation, loop, acquire.key));
      continue;
    }
    const barrier = increments.has(read.key) || generations.has(read.key);
    if (barrier) {
      const discovery = discoveries.find((d) => countsTo(loop, target, d.count));
      if (discovery) {
        const kind = discovery.lobe ? 'lobe-discovery-barrier' : 'discovery-barrier';
        const explanation = discovery.lobe
          ? `Blocks wait here until every block the LOBE-optimised discovery counted (\`${discovery.count}\`) has arrived. Some of those may not have started yet; only LOBE (every block up to the highest started index keeps running) and fair schedulers guarantee they arrive.`
          : `Blocks wait here until every block the occupancy discovery protocol found (\`${discovery.count}\`) has arrived. All of them have started, so OBE keeps them running until they arrive; blocks that were not discovered do not take part.`;
        add(loop.fn, make(kind, loop.keyword, explanation, loop, read.key));
      } else {
        const explanation = `Every block waits here until all blocks have arrived (${where}${target ? ` ${target.op} ${target.text}` : ''}). That needs every block of the grid to run, including blocks that have not started: only a fair scheduler guarantees it. On a GPU it hangs once the grid has more blocks than can be resident at once; a cooperative launch, or a barrier among blocks found by an occupancy discovery protocol, avoids that.`;
        add(loop.fn, make('grid-barrier', loop.keyword, explanation, loop, read.key));
      }
      continue;
    }
    const oneWay = waitsOnLowerBlock(loop, read, target, stores);
    const explanation = oneWay
      ? `Each block waits here for ${where}, which a block with a lower index sets. HSA keeps the lowest-index unfinished block running, so the producer always gets to run. OBE does not: a consumer can start first and spin while its producer never starts.`
      : `Blocks wait here for ${where}, set by another block that may have a higher index or may not have started: each side relies on the other running. Only a fair scheduler guarantees that; under OBE it is safe only among blocks known to be resident together (occupancy discovery).`;
    add(loop.fn, make(oneWay ? 'one-way-pc' : 'two-way-pc', loop.keyword, explanation, loop, read.key));
  }

  // A kernel that needs two incomparable guarantees (a lock needs OBE, a one-way chain HSA)
  // needs their combination.
  for (const k of functions.filter((f) => f.space === 'global')) {
    const used = [...reachable(k, byName)].flatMap((f) => perFunction.get(f) ?? []);
    const kinds = new Set(used.map((i) => i.kind));
    if (!kinds.has('spin-lock') || !kinds.has('one-way-pc')) continue;
    const needs = used.reduce<Fairness>((acc, i) => joinFairness(acc, i.weakest), 'unfair');
    if (needs !== 'hsa+obe') continue;
    const lock = used.find((i) => i.kind === 'spin-lock')!;
    const chain = used.find((i) => i.kind === 'one-way-pc')!;
    const explanation = `\`${k.name}\` takes a lock (\`${lock.location}\`, which needs OBE: the holder has started and must keep running) and waits on lower-index blocks (\`${chain.location}\`, which needs HSA: the lowest-index unfinished block must keep running). Neither HSA nor OBE alone gives both; their combination HSA+OBE does, and so do LOBE and fair schedulers.`;
    out.push(make('mutex-one-way-pc', k.nameRange, explanation));
  }
  return out.sort((a, b) => a.range.start.offset - b.range.start.offset);
}

/**
 * Code that runs in launches of more than one block: the kernels not always launched with a
 * grid of 1 (and kernels never launched here, which may be), and what they call.
 */
function multiBlockCode(functions: A.FunctionDecl[], byName: Map<string, A.FunctionDecl>, host: A.TranslationUnit): Set<A.FunctionDecl> {
  const grids = new Map<string, boolean>();
  for (const f of functionsOf(host)) {
    if (!f.body || f.space === 'global' || f.space === 'device') continue;
    for (const n of bodyNodes(f)) {
      if (n.kind !== 'Launch') continue;
      const l = n as A.LaunchExpr;
      const k = strip(l.kernel);
      if (k.kind !== 'Identifier' || !l.config[0]) continue;
      const g = strip(l.config[0]);
      const one = constant(g) === 1 || (g.kind === 'Construct' && g.args.every((a) => constant(a) === 1));
      grids.set(k.name, (grids.get(k.name) ?? false) || !one);
    }
  }
  const out = new Set<A.FunctionDecl>();
  const called = new Set<A.FunctionDecl>();
  for (const k of functions.filter((f) => f.space === 'global')) {
    const runs = reachable(k, byName);
    for (const f of runs) called.add(f);
    if (grids.get(k.name) !== false) for (const f of runs) out.add(f);
  }
  // Device functions no kernel here calls may be called from elsewhere.
  for (const f of functions) if (f.space !== 'global' && !called.has(f)) out.add(f);
  return out;
}

/**
 * A wait between threads of one block: on `__shared__` memory, or on an element whose index
 * the waiting thread computes from its own block and thread (`flag[w]`) and that the same
 * function writes under that same index: the writer is in the waiter's block.
 */
function intraBlock(read: PolledRead, loop: WaitLoop, functions: A.FunctionDecl[]): boolean {
  const base = baseVariable(read.read.kind === 'Call' ? (read.read as A.CallExpr).args[0] : read.read);
  if (base?.ref?.kind === 'var' && base.ref.decl.kind === 'VarDecl' && base.ref.decl.specifiers.some((sp) => sp.text === '__shared__')) return true;
  const s = strip(read.read.kind === 'Call' ? (read.read as A.CallExpr).args[0] : read.read);
  const index = s.kind === 'Index' ? s.index : s.kind === 'Unary' && s.op === '&' && strip(s.operand).kind === 'Index' ? (strip(s.operand) as A.IndexExpr).index : undefined;
  if (!index) return false;
  const locals = localInitialisers(loop.fn);
  const threadDependent = descendants(index).some((n) => n.kind === 'Identifier' && (((n as A.IdentifierExpr).name === 'threadIdx') || (((n as A.IdentifierExpr).ref?.kind === 'var') && [...descendants(locals.get(((n as A.IdentifierExpr).ref as { decl: A.VarDecl }).decl) ?? (n as A.Expr))].some((m) => m.kind === 'Identifier' && (m as A.IdentifierExpr).name === 'threadIdx'))));
  if (!threadDependent) return false;
  return functions.filter((f) => f === loop.fn).some((f) => writes(f.body!, read.key));
}

/**
 * `unsigned my = atomicAdd(&next, 1); while (serving != my);`: the exit compares the polled
 * location for equality with a ticket the thread drew from a counter (directly or through a
 * function that returns one).
 */
function ticketWait(loop: WaitLoop, target: ReturnType<typeof waitTarget>): boolean {
  if (!target || target.op !== '==' || target.constant !== undefined) return false;
  const locals = localInitialisers(loop.fn);
  for (const [decl, init] of locals) {
    if (decl.name !== target.text) continue;
    const i = strip(init);
    return i.kind === 'Call' && (['Add', 'Inc'].includes(atomicOp(i) ?? '') || !atomicOp(i));
  }
  return false;
}

/**
 * Does the barrier wait for the discovered count: it polls it, compares with it, or compares
 * with a local read from it (`int n = count;` … `while (arrived < n)`)?
 */
function countsTo(loop: WaitLoop, target: ReturnType<typeof waitTarget>, count: string): boolean {
  if (loop.reads.some((r) => r.key === count)) return true;
  if (!target) return false;
  const named = new RegExp(`\\b${escape(count)}\\b`);
  if (named.test(target.text)) return true;
  for (const [decl, init] of localInitialisers(loop.fn)) {
    if (decl.name === target.text && descendants(init).some((n) => (n.kind === 'Identifier' || n.kind === 'Index' || n.kind === 'Member') && normaliseLvalue(n as A.Expr) === count)) return true;
  }
  return false;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Locations something adds to atomically (`atomicAdd(&count, 1)`, `atomicInc`): arrival counters. */
function incrementedCounters(functions: A.FunctionDecl[]): Set<string> {
  const out = new Set<string>();
  for (const f of functions) {
    for (const n of bodyNodes(f)) {
      if (n.kind !== 'Call') continue;
      const c = n as A.CallExpr;
      const op = atomicOp(c);
      if (!c.args[0] || (op !== 'Add' && op !== 'Inc' && op !== 'Sub' && op !== 'Dec')) continue;
      // atomicAdd(&x, 0) only reads.
      if ((op === 'Add' || op === 'Sub') && c.args[1] && constant(c.args[1]) === 0) continue;
      out.add(pointeeKey(c.args[0]));
    }
  }
  return out;
}

/**
 * Generation and sense variables: written only by the block whose arrival completes a
 * barrier, inside `if (atomicAdd(&count, 1) == gridDim.x - 1) { …; generation++; }`.
 */
function generationWrites(functions: A.FunctionDecl[]): Set<string> {
  const out = new Set<string>();
  for (const f of functions) {
    for (const n of bodyNodes(f)) {
      if (n.kind !== 'IfStmt') continue;
      const i = n as A.IfStmt;
      const arrival = descendants(i.condition).some((c) => c.kind === 'Call' && ['Add', 'Inc', 'Sub', 'Dec'].includes(atomicOp(c as A.CallExpr) ?? ''));
      if (!arrival) continue;
      for (const w of storesIn(descendants(i.then))) out.add(w.key);
    }
  }
  return out;
}

/** A store to a location: an assignment, ++/--, or an atomic on it. */
interface Store {
  key: string;
  node: A.Node;
}

function storesIn(nodes: A.Node[]): Store[] {
  const out: Store[] = [];
  for (const n of nodes) {
    if (n.kind === 'Assign') out.push({ key: normaliseLvalue((n as A.AssignExpr).target), node: n });
    else if (n.kind === 'Postfix' || (n.kind === 'Unary' && ['++', '--'].includes((n as A.UnaryExpr).op))) out.push({ key: normaliseLvalue((n as A.PostfixExpr).operand), node: n });
    else if (n.kind === 'Call' && atomicOp(n as A.CallExpr) && (n as A.CallExpr).args[0]) out.push({ key: pointeeKey((n as A.CallExpr).args[0]), node: n });
  }
  return out;
}

/** Every store of the program, by the location it stores to, with its function. */
function storesByLocation(functions: A.FunctionDecl[]): Map<string, (Store & { fn: A.FunctionDecl })[]> {
  const out = new Map<string, (Store & { fn: A.FunctionDecl })[]>();
  for (const fn of functions) {
    for (const st of storesIn(bodyNodes(fn))) {
      const list = out.get(st.key);
      if (list) list.push({ ...st, fn });
      else out.set(st.key, [{ ...st, fn }]);
    }
  }
  return out;
}

/** Does the statement store to `key` (assignment, ++/--, or an atomic)? */
function writes(root: A.Node, key: string): boolean {
  return descendants(root).some((n) => {
    if (n.kind === 'Assign') return normaliseLvalue((n as A.AssignExpr).target) === key;
    if (n.kind === 'Postfix' || (n.kind === 'Unary' && ['++', '--'].includes((n as A.UnaryExpr).op))) return normaliseLvalue((n as A.PostfixExpr).operand) === key;
    if (n.kind === 'Call') {
      const c = n as A.CallExpr;
      return !!atomicOp(c) && !!c.args[0] && pointeeKey(c.args[0]) === key;
    }
    return false;
  });
}

/**
 * Algorithm 1 of the paper: under a lock, `if (open) { …; count = count + 1; }` registers a
 * block while the poll is open, and `open = false` closes it. The LOBE-optimised version
 * also admits `blockIdx.x < count` and counts `count = max(count, blockIdx.x + 1)`.
 */
function discoveryProtocol(fn: A.FunctionDecl): Discovery | undefined {
  const locals = localInitialisers(fn);
  const nodes = bodyNodes(fn);
  for (const n of nodes) {
    if (n.kind !== 'IfStmt') continue;
    const poll = n as A.IfStmt;
    const flags = descendants(poll.condition).filter((x): x is A.IdentifierExpr | A.MemberExpr => (x.kind === 'Identifier' && (x as A.IdentifierExpr).ref?.kind === 'var' && (x as A.IdentifierExpr).ref!.kind === 'var' && isGlobalVar(x as A.IdentifierExpr)) || (x.kind === 'Member' && (x as A.MemberExpr).arrow));
    for (const flag of flags) {
      const open = normaliseLvalue(flag);
      // The poll closes somewhere: `open = false` / `open = 0`.
      const closes = nodes.some((x) => x.kind === 'Assign' && normaliseLvalue((x as A.AssignExpr).target) === open && constant((x as A.AssignExpr).value) === 0);
      if (!closes) continue;
      const count = countedIn(poll.then, locals);
      if (!count || count.key === open) continue;
      const admitsLower = descendants(poll.condition).some((x) => x.kind === 'Binary' && ['<', '>'].includes((x as A.BinaryExpr).op) && mentionsBlockIdx(x as A.Expr, locals) && descendants(x).some((y) => (y.kind === 'Identifier' || y.kind === 'Member') && normaliseLvalue(y as A.Expr) === count.key));
      return { fn, count: count.key, lobe: count.max || admitsLower };
    }
  }
  return undefined;
}

function isGlobalVar(id: A.IdentifierExpr): boolean {
  return id.ref?.kind === 'var' && id.ref.decl.kind === 'VarDecl' && id.ref.decl.global;
}

/** The counter a statement bumps (`count = count + 1`, `count++`, `count = max(count, b + 1)`). */
function countedIn(root: A.Stmt, locals: Map<A.VarDecl | A.ParamDecl, A.Expr>): { key: string; max: boolean } | undefined {
  for (const n of descendants(root)) {
    if (n.kind === 'Postfix' || (n.kind === 'Unary' && ['++'].includes((n as A.UnaryExpr).op))) return { key: normaliseLvalue((n as A.PostfixExpr).operand), max: false };
    if (n.kind === 'Call') {
      const c = n as A.CallExpr;
      if ((atomicOp(c) === 'Add' || atomicOp(c) === 'Inc') && c.args[0] && !(c.args[1] && constant(c.args[1]) === 0)) return { key: pointeeKey(c.args[0]), max: false };
      if (atomicOp(c) === 'Max' && c.args[0] && c.args[1] && mentionsBlockIdx(c.args[1], locals)) return { key: pointeeKey(c.args[0]), max: true };
    }
    if (n.kind !== 'Assign') continue;
    const a = n as A.AssignExpr;
    const key = normaliseLvalue(a.target);
    if (a.op === '+=') return { key, max: false };
    if (a.op !== '=') continue;
    const v = strip(a.value);
    if (v.kind === 'Binary' && v.op === '+' && normaliseLvalue(v.left) === key && constant(v.right) === 1) return { key, max: false };
    if (v.kind === 'Call' && /^(max|std::max|fmaxf?|umax)$/.test(calleeName(v) ?? '') && v.args.some((x) => normaliseLvalue(x) === key) && v.args.some((x) => mentionsBlockIdx(x, locals))) return { key, max: true };
  }
  return undefined;
}

/**
 * Does the wait poll a location that only a block with a lower index writes? Either it reads
 * `flags[b - k]` for the block's own index b and a constant k ≥ 1, or it waits inside
 * `if (blockIdx.x == j)` for a location written only under `if (blockIdx.x == i)` with i < j.
 */
function waitsOnLowerBlock(loop: WaitLoop, read: PolledRead, target: ReturnType<typeof waitTarget>, stores: Map<string, (Store & { fn: A.FunctionDecl })[]>): boolean {
  const locals = localInitialisers(loop.fn);
  // The location read: an atomic's pointee, or the lvalue itself.
  const at = strip(read.call ? read.call.args[0] : read.read);
  const s = at.kind === 'Unary' && at.op === '&' ? strip(at.operand) : at;
  const writes = (stores.get(read.key) ?? []).filter((w) => !within(w.node.range, loop.header));
  // Taking turns: a block waits until the location holds its own index, and each block hands
  // the turn to the next (`turn = me + 1`): it waits only on the block before it.
  if (target?.op === '==' && target.constant === undefined && writes.length > 0 && isOwnIndex(target.text, locals) && writes.every((w) => handsOn(w.node, localInitialisers(w.fn)))) return true;
  if (s.kind === 'Index') {
    const i = strip(s.index);
    if (i.kind === 'Binary' && i.op === '-' && mentionsBlockIdx(i.left, locals) && !mentionsBlockIdx(i.right, locals)) {
      const k = constant(i.right);
      return k !== undefined && k >= 1;
    }
    return false;
  }
  const waiter = blockGuard(loop.fn, loop.loop.range, locals);
  if (!waiter) return false;
  if (writes.length === 0) return false;
  return writes.every((w) => {
    const writer = blockGuard(w.fn, w.node.range, localInitialisers(w.fn));
    return !!writer && writer.max < waiter.min;
  });
}

/** Is `text` (a wait's target) the block's own index: `blockIdx.x`, or a local set to it? */
function isOwnIndex(text: string, locals: Map<A.VarDecl | A.ParamDecl, A.Expr>): boolean {
  if (text === 'blockIdx.x') return true;
  for (const [decl, init] of locals) if (decl.name === text && exprText(strip(init)) === 'blockIdx.x') return true;
  return false;
}

/** Does this store hand the turn on: store `b + k` (or `(b + k) % n`) for the block's own index b? */
function handsOn(node: A.Node, locals: Map<A.VarDecl | A.ParamDecl, A.Expr>): boolean {
  const value = node.kind === 'Assign' ? (node as A.AssignExpr).value : node.kind === 'Call' && atomicOp(node as A.CallExpr) === 'Exch' ? (node as A.CallExpr).args[1] : undefined;
  if (!value) return false;
  let v = strip(value);
  if (v.kind === 'Binary' && v.op === '%') v = strip(v.left);
  if (v.kind !== 'Binary' || v.op !== '+') return false;
  const [own, step] = mentionsBlockIdx(v.left, locals) ? [v.left, v.right] : [v.right, v.left];
  const k = constant(step);
  return mentionsBlockIdx(own, locals) && k !== undefined && k >= 1;
}

/** The block indices that can reach `target`, from the `if (blockIdx.x == k)`-style guards around it. */
function blockGuard(fn: A.FunctionDecl, target: Range, locals: Map<A.VarDecl | A.ParamDecl, A.Expr>): { min: number; max: number } | undefined {
  let min = 0;
  let max = Infinity;
  let guarded = false;
  for (const n of bodyNodes(fn)) {
    if (n.kind !== 'IfStmt') continue;
    const i = n as A.IfStmt;
    const inThen = within(target, i.then.range);
    const inElse = !!i.else && within(target, i.else.range);
    if (!inThen && !inElse) continue;
    // In the then-branch every conjunct of `a && b` holds; in the else-branch only a single
    // comparison says anything (its negation).
    const conjuncts: A.Expr[] = [];
    const split = (e: A.Expr): void => {
      const x = strip(e);
      if (x.kind === 'Binary' && x.op === '&&' && inThen) {
        split(x.left);
        split(x.right);
      } else conjuncts.push(x);
    };
    split(i.condition);
    for (const c of conjuncts) {
      if (c.kind !== 'Binary' || !['==', '!=', '<', '<=', '>', '>='].includes(c.op)) continue;
      const left = mentionsBlockIdx(c.left, locals);
      const side = left ? c.right : c.left;
      if (left === mentionsBlockIdx(c.right, locals)) continue;
      const k = constant(side);
      if (k === undefined) continue;
      // Normalise to `b OP k`, then take the branch we are in.
      const flip: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '==': '==', '!=': '!=' };
      const negate: Record<string, string> = { '<': '>=', '<=': '>', '>': '<=', '>=': '<', '==': '!=', '!=': '==' };
      let op = left ? c.op : flip[c.op];
      if (inElse) op = negate[op];
      guarded = true;
      if (op === '==') {
        min = Math.max(min, k);
        max = Math.min(max, k);
      } else if (op === '>') min = Math.max(min, k + 1);
      else if (op === '>=') min = Math.max(min, k);
      else if (op === '<') max = Math.min(max, k - 1);
      else if (op === '<=') max = Math.min(max, k);
      else if (op === '!=' && k === 0) min = Math.max(min, 1);
    }
  }
  return guarded ? { min, max } : undefined;
}

/** The functions a kernel runs: itself and what it calls, transitively. */
const reached = new WeakMap<A.FunctionDecl, Set<A.FunctionDecl>>();

function reachable(k: A.FunctionDecl, byName: Map<string, A.FunctionDecl>): Set<A.FunctionDecl> {
  const known = reached.get(k);
  if (known) return known;
  const out = computeReachable(k, byName);
  reached.set(k, out);
  return out;
}

function computeReachable(k: A.FunctionDecl, byName: Map<string, A.FunctionDecl>): Set<A.FunctionDecl> {
  const out = new Set<A.FunctionDecl>();
  const visit = (f: A.FunctionDecl): void => {
    if (out.has(f)) return;
    out.add(f);
    for (const n of bodyNodes(f)) {
      if (n.kind !== 'Call') continue;
      const name = calleeName(n as A.CallExpr);
      const g = name ? byName.get(name) : undefined;
      if (g?.body) visit(g);
    }
  };
  visit(k);
  return out;
}

/** The idioms whose hover range (a wait loop's header) contains `offset` of `file`. */
export function idiomsAt(idioms: Idiom[], file: string, offset: number): Idiom[] {
  return idioms.filter((i) => i.hover && i.hover.file === file && i.hover.start.offset <= offset && offset <= i.hover.end.offset);
}

