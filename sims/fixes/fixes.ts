// Fixes for races: the text edits on the checked file that remove a finding, in the
// programmer's terms — widen an atomic or a fence, insert the missing fence after the
// producer's store, make data volatile, turn a racy `x += v` into `atomicAdd(&x, v)`, insert a
// barrier. At most one fix per finding is preferred (the one `scord fix` applies).
//
// An edit is offered only where it is safe: in the checked file or a header of the program's
// own (included with quotes, read from disk: not a system header), and where the file's text at
// the edit is exactly what the syntax tree says is there — code that came out of a macro
// expansion has the macro invocation's text, so it never matches.
import type * as A from '../frontend/ast';
import type { ParseResult } from '../frontend/index';
import type { Range } from '../frontend/source';
import * as T from '../frontend/types';
import { type AccessSummary, type HeldLock, type LockFault, type RaceFinding } from '../detect/findings';
import { lockExchange, lockFence } from '../detect/scordMessages';
import { SyntaxIndex } from './syntaxIndex';

export interface TextEdit {
  range: Range;
  newText: string;
}

export interface Fix {
  title: string;
  /** At most one fix per finding is preferred: the one `scord fix` applies. */
  preferred: boolean;
  edits: TextEdit[];
}

/**
 * The fixes for one race in `file` (whose text is `text`), best first. `header` gives the text
 * of another file fixes may edit (a header of the program's own), undefined for the others.
 */
export function fixesFor(race: RaceFinding, parsed: ParseResult, file: string, text: string, header: (file: string) => string | undefined = () => undefined): Fix[] {
  const index = SyntaxIndex.of(parsed.deviceAst);
  const ctx: FixContext = { race, index, file, text, header };
  const candidates: (Fix | undefined)[] = [];
  /** Offered, but never preferred: they remove the race only together with code around them. */
  const partial = new Set<Fix | undefined>();
  switch (race.category) {
    case 'scoped-atomic':
      candidates.push(widenAtomics(ctx, [race.current, race.earlier].filter((a) => a.atomic?.scope === 'block').map((a) => a.range)));
      break;
    case 'lock-scope':
      candidates.push(widenLock(ctx, race.lockAcquires ?? []));
      break;
    case 'missing-device-fence':
    case 'missing-block-fence':
      candidates.push(readAsVolatile(ctx));
      candidates.push(promoteToAtomic(ctx));
      candidates.push(storeAsExchange(ctx));
      // A fence orders only strong accesses: the fence fix makes weak ones volatile too.
      if (race.narrowFence) candidates.push(withStrongAccesses(ctx, widenFence(ctx, race.narrowFence)));
      // A fence orders a write for a later reader (a read, or an atomic read-modify-write). For a
      // write after a read the fence goes after the read, and orders it only if the reader then
      // hands over (a flag the writer waits for): offered, not preferred.
      if (race.earlier.write && (!race.current.write || race.current.atomic)) {
        const fence = withStrongAccesses(ctx, insertFence(ctx));
        // The fence needs a flag raised after it that the reader waits for. A reader whose
        // statement comes before the producer's in the same code (an in-place update read by a
        // thread that ran behind) has no flag between them: the fence alone is only half a fix.
        const pair = ctx.index.siblingStatements(race.current.range, race.earlier.range);
        if (pair && pair.firstIndex < pair.secondIndex) partial.add(fence);
        candidates.push(fence);
      } else if (!race.earlier.write && race.current.write) {
        const fence = withStrongAccesses(ctx, insertFence(ctx));
        partial.add(fence);
        candidates.push(fence);
      }
      if (race.category === 'missing-block-fence') candidates.push(insertBarrier(ctx));
      break;
    case 'non-strong-access':
      candidates.push(readAsVolatile(ctx));
      candidates.push(promoteToAtomic(ctx));
      candidates.push(makeStrong(ctx));
      break;
    case 'shared-memory':
      candidates.push(insertBarrier(ctx));
      break;
    case 'intra-warp':
      // Lanes of one warp have not run in lockstep since Volta. Several lanes updating or
      // storing one word in one statement: the update or store becomes atomic. A lane reading
      // in one statement what another lane writes in it: the read goes first, then
      // __syncwarp(). Otherwise (two statements, or two iterations of a loop) __syncwarp()
      // goes between them.
      if (race.current.write && race.earlier.write) {
        candidates.push(promoteToAtomic(ctx));
        candidates.push(lanesStoreAsExchange(ctx));
      } else {
        candidates.push(readBeforeSyncwarp(ctx));
        candidates.push(promoteToAtomic(ctx));
      }
      candidates.push(insertBarrier(ctx));
      break;
    case 'lock-fence-scope':
    case 'lock-release-fence':
      candidates.push(mendLock(ctx, race.lockFaults ?? []));
      break;
    case 'missing-lock': {
      // The side that held no lock takes the other side's; both held locks: one takes the
      // other's. A single store or read-modify-write may instead become atomic. Which of them
      // removes the race depends on the rest of the program: only a re-run tells, so none is
      // preferred here (sims/fixes/prove.ts chooses).
      const held = race.heldLocks;
      if (held && !held.current.length !== !held.earlier.length) {
        const [bare, locked, lockedAccess] = held.current.length ? [race.earlier, held.current, race.current] : [race.current, held.earlier, race.earlier];
        candidates.push(takeSameLock(ctx, bare, lockedAccess, locked[0]));
        candidates.push(accessAsAtomic(ctx, bare));
      } else if (held?.current.length && held.earlier.length) {
        candidates.push(useOtherLock(ctx, held.current[0], held.earlier[0]));
      }
      for (const c of candidates) partial.add(c);
      break;
    }
  }
  const fixes = candidates.filter((f): f is Fix => !!f && f.edits.length > 0);
  const best = fixes.find((f) => !partial.has(f));
  return fixes.map((f) => ({ ...f, preferred: f === best }));
}

interface FixContext {
  race: RaceFinding;
  index: SyntaxIndex;
  file: string;
  text: string;
  header: (file: string) => string | undefined;
}

/** The text of a file fixes may edit, or undefined. */
function editable(ctx: FixContext, file: string): string | undefined {
  return file === ctx.file ? ctx.text : ctx.header(file);
}

/** The file's text at `r`, or undefined when `r` is in a file fixes may not edit. */
function textAt(ctx: FixContext, r: Range): string | undefined {
  return editable(ctx, r.file)?.slice(r.start.offset, r.end.offset);
}

function replace(ctx: FixContext, r: Range, expected: string, newText: string): TextEdit | undefined {
  return textAt(ctx, r) === expected ? { range: r, newText } : undefined;
}

function all<X>(items: (X | undefined)[]): X[] | undefined {
  return items.every((x) => x !== undefined) ? (items as X[]) : undefined;
}

/**
 * Drops `_block` from the atomics at `ranges` and from every other block-scope atomic on the
 * same variable in the file, so the whole protocol on it changes scope together.
 */
function widenAtomics(ctx: FixContext, ranges: Range[]): Fix | undefined {
  const calls = ranges.map((r) => ctx.index.callAt(r)).filter((c): c is A.CallExpr => !!c);
  const targets = new Set(calls.map((c) => c.args[0] && textAt(ctx, c.args[0].range)).filter((t): t is string => !!t));
  if (!targets.size) return undefined;
  const widen = ctx.index.calls().filter((c) => {
    const name = calleeName(c);
    return !!name && /^atomic\w+_block$/.test(name) && !!c.args[0] && targets.has(textAt(ctx, c.args[0].range) ?? '');
  });
  const edits = all(widen.map((c) => replace(ctx, c.callee.range, calleeName(c)!, calleeName(c)!.replace(/_block$/, ''))));
  if (!edits?.length) return undefined;
  const names = [...new Set(widen.map((c) => calleeName(c)!.replace(/_block$/, '')))].join(' and ');
  return { title: `Use ${names} (device scope)`, preferred: false, edits: dedupe(edits) };
}

/**
 * A block-scope lock shared across blocks: its atomics become device-scope, and so do the
 * block-scope fences of the functions that take or release it, or the lock would not be held
 * (a device-scope unlock needs a device-scope fence before it).
 */
function widenLock(ctx: FixContext, acquires: Range[]): Fix | undefined {
  const atomics = widenAtomics(ctx, acquires);
  if (!atomics) return undefined;
  const functions = new Set([...acquires, ...atomics.edits.map((e) => e.range)].map((r) => ctx.index.enclosingFunction(r)).filter((f): f is A.FunctionDecl => !!f));
  const fences = ctx.index.calls().filter((c) => calleeName(c) === '__threadfence_block' && functions.has(ctx.index.enclosingFunction(c.range)!));
  const edits = all(fences.map((c) => replace(ctx, c.callee.range, '__threadfence_block', '__threadfence')));
  if (!edits) return undefined;
  return { title: 'Make the lock device-scope', preferred: false, edits: [...atomics.edits, ...edits] };
}

function widenFence(ctx: FixContext, fence: Range): Fix | undefined {
  const call = ctx.index.callAt(fence);
  const edit = call && replace(ctx, call.callee.range, '__threadfence_block', '__threadfence');
  return edit ? { title: `Widen the fence at line ${fence.start.line + 1} to __threadfence()`, preferred: false, edits: [edit] } : undefined;
}

/** Inserts the fence on its own line after the statement of the earlier access (the producer's store, or the read a write follows). */
function insertFence(ctx: FixContext): Fix | undefined {
  const fence = ctx.race.category === 'missing-block-fence' ? '__threadfence_block()' : '__threadfence()';
  const producer = ctx.race.earlier;
  const edit = insertLine(ctx, producer.range, `${fence};`, 'after');
  return edit ? { title: `Insert ${fence} after line ${producer.range.start.line + 1}`, preferred: false, edits: [edit] } : undefined;
}

/**
 * A lock whose fences are missing or too narrow: every fault of the finding mended at once
 * (a lock helper used by both sides usually lacks its acquire and its release fence alike) —
 * the narrow fence widened to the lock's scope, the missing fence inserted after the statement
 * that takes the lock or before the unlock.
 */
function mendLock(ctx: FixContext, faults: LockFault[]): Fix | undefined {
  if (!faults.length) return undefined;
  const edits: TextEdit[] = [];
  const widened: number[] = [];
  const inserted: string[] = [];
  const exchanged: number[] = [];
  for (const f of faults) {
    const fence = lockFence(f.scope);
    let edit: TextEdit | undefined;
    if (f.kind === 'acquire' && f.fence) {
      const call = ctx.index.callAt(f.fence);
      const name = call && calleeName(call);
      edit = name && call ? replace(ctx, call.callee.range, name, fence.slice(0, -2)) : undefined;
      widened.push(f.fence.start.line + 1);
    } else if (f.kind === 'acquire') {
      edit = fenceAfterAcquire(ctx, f.acquire, `${fence};`);
      inserted.push(`after ${faults.length === 1 ? 'the lock at ' : ''}line ${f.acquire.start.line + 1}`);
    } else if (f.plainStore) {
      // `lock = 0;` publishes nothing, fence or not: the unlock becomes an atomicExch (after the
      // fence it lacks, if it lacks one).
      const stmt = ctx.index.enclosingExpressionStatement(f.release!);
      edit = stmt && storeAsAtomic(ctx, stmt.expr, lockExchange(f.scope))?.edits[0];
      exchanged.push(f.release!.start.line + 1);
      if (edit && !f.plainStore.fenced) {
        const before = insertLine(ctx, f.release!, `${fence};`, 'before');
        if (!before) return undefined;
        edits.push(before);
      }
    } else {
      edit = insertLine(ctx, f.release!, `${fence};`, 'before');
      inserted.push(`before ${faults.length === 1 ? 'the unlock at ' : ''}line ${f.release!.start.line + 1}`);
    }
    if (!edit) return undefined;
    edits.push(edit);
  }
  const fence = lockFence(faults[0].scope);
  const places = [...new Set(inserted)].join(' and ');
  const title = exchanged.length
    ? `Use ${lockExchange(faults[0].scope)} for the unlock at line ${[...new Set(exchanged)].join(', ')}`
    : widened.length
      ? `Widen the fence at line ${[...new Set(widened)].join(', ')}${places ? `, insert one ${places}` : ` to ${fence}`}`
      : `Insert ${fence} ${places}`;
  return { title, preferred: false, edits: dedupe(edits) };
}

/**
 * The fence that completes an acquire goes right after the statement that takes the lock
 * (`while (atomicCAS(&l, 0, 1) != 0);`), or first in the branch an `if (atomicCAS(…) == 0)`
 * enters with the lock held.
 */
function fenceAfterAcquire(ctx: FixContext, acquire: Range, code: string): TextEdit | undefined {
  const branch = ctx.index.ifConditionHolding(acquire);
  if (!branch) return insertLine(ctx, acquire, code, 'after');
  const then = branch.then;
  if (then.kind !== 'CompoundStmt' || !then.body.length) return undefined;
  return insertLine(ctx, then.body[0].range, code, 'before', true);
}

/**
 * The critical section around `access` as its code writes it: the statements that take the
 * lock (the one holding the atomicCAS `acquire`, or calling the function that does, and the
 * fences right after it) and those that release it (the fences right before, and the statement
 * with the atomicExch `release` — or, when the run had not released it yet, the first
 * statement after the access that exchanges the same lock word or calls the matching unlock).
 */
function criticalSection(ctx: FixContext, access: Range, lock: HeldLock): { enter: A.Stmt[]; leave: A.Stmt[] } | undefined {
  const cas = ctx.index.callAt(lock.acquire);
  const word = cas?.args[0] && textAt(ctx, cas.args[0].range);
  const callsInto = (s: A.Stmt, r: Range) =>
    ctx.index.callsWithin(s.range).find((c) => {
      const name = calleeName(c);
      return !!name && !!ctx.index.functionHolding(name, r);
    });
  const holds = (s: A.Stmt, r: Range) => s.range.file === r.file && s.range.start.offset <= r.start.offset && r.end.offset <= s.range.end.offset;
  for (const { block, index } of ctx.index.listedStatementsAround(access)) {
    const body = block.body;
    let i = index - 1;
    while (i >= 0 && !holds(body[i], lock.acquire) && !callsInto(body[i], lock.acquire)) i--;
    if (i < 0) continue;
    // `lock(&L)`: the unlock is the call with the same arguments to a function that exchanges.
    const helper = holds(body[i], lock.acquire) ? undefined : callsInto(body[i], lock.acquire);
    const helperArgs = helper && textAt(ctx, helper.argsRange);
    const releases = (s: A.Stmt) => {
      if (lock.release) return holds(s, lock.release) || !!callsInto(s, lock.release);
      return ctx.index.callsWithin(s.range).some((c) => {
        const name = calleeName(c);
        if (!name) return false;
        if (/^atomicExch(_block|_system)?$/.test(name)) return !helper && !!word && !!c.args[0] && textAt(ctx, c.args[0].range) === word;
        const f = helper && c !== helper && textAt(ctx, c.argsRange) === helperArgs ? findFunction(ctx, name) : undefined;
        return !!f && ctx.index.callsWithin(f.range).some((x) => /^atomicExch(_block|_system)?$/.test(calleeName(x) ?? ''));
      });
    };
    let j = index + 1;
    while (j < body.length && !releases(body[j])) j++;
    if (j >= body.length) return undefined;
    let enterEnd = i + 1;
    while (enterEnd < index && isFenceStatement(body[enterEnd])) enterEnd++;
    let leaveStart = j;
    while (leaveStart > index + 1 && isFenceStatement(body[leaveStart - 1])) leaveStart--;
    return { enter: body.slice(i, enterEnd), leave: body.slice(leaveStart, j + 1) };
  }
  return undefined;
}

function findFunction(ctx: FixContext, name: string): A.FunctionDecl | undefined {
  return ctx.index.functionsNamed(name).find((f) => f.body);
}

function isFenceStatement(s: A.Stmt): boolean {
  return s.kind === 'ExprStmt' && s.expr.kind === 'Call' && /^__threadfence(_block|_system)?$/.test(calleeName(s.expr) ?? '');
}

/**
 * missing-lock, one side holding the lock: the other side's statement gets the same lock
 * around it, written as the locked side writes its critical section (the same statements).
 */
function takeSameLock(ctx: FixContext, bare: AccessSummary, lockedAccess: AccessSummary, lock: HeldLock): Fix | undefined {
  const section = criticalSection(ctx, lockedAccess.range, lock);
  const stmt = ctx.index.enclosingListedStatement(bare.range);
  if (!section || !stmt) return undefined;
  // The unlocked access inside that section's code already (a lock taken under a condition):
  // taking the lock again around it would deadlock; the condition is the fault.
  const from = section.enter[0].range.start.offset;
  const to = section.leave[section.leave.length - 1].range.end.offset;
  if (stmt.range.file === section.enter[0].range.file && stmt.range.start.offset >= from && stmt.range.end.offset <= to) return undefined;
  const texts = (ss: A.Stmt[]) => all(ss.map((x) => textAt(ctx, x.range)));
  const enter = texts(section.enter);
  const leave = texts(section.leave);
  if (!enter || !leave) return undefined;
  const before = insertLine(ctx, stmt.range, enter, 'before', true);
  const after = insertLine(ctx, stmt.range, leave, 'after', true);
  if (!before || !after) return undefined;
  return { title: `Take the lock of line ${lock.acquire.start.line + 1} around line ${stmt.range.start.line + 1}`, preferred: false, edits: [before, after] };
}

/**
 * missing-lock, both sides holding different locks: the racing side takes the earlier side's
 * lock instead (its atomicCAS and atomicExch, or its lock helper's calls, get the other lock's
 * argument).
 */
function useOtherLock(ctx: FixContext, mine: HeldLock, theirs: HeldLock): Fix | undefined {
  const lockArg = (l: HeldLock, access: Range) => {
    const section = criticalSection(ctx, access, l);
    if (!section) return undefined;
    const takes = ctx.index.callsWithin(section.enter[0].range)[0];
    const gives = ctx.index.callsWithin(section.leave[section.leave.length - 1].range).find((c) => !/^__threadfence/.test(calleeName(c) ?? ''));
    return takes?.args[0] && gives?.args[0] ? { takes: takes.args[0].range, gives: gives.args[0].range } : undefined;
  };
  const me = lockArg(mine, ctx.race.current.range);
  const them = lockArg(theirs, ctx.race.earlier.range);
  if (!me || !them) return undefined;
  const theirText = textAt(ctx, them.takes);
  const myText = textAt(ctx, me.takes);
  if (!theirText || !myText || theirText === myText || textAt(ctx, me.gives) !== myText) return undefined;
  const edits = all([replace(ctx, me.takes, myText, theirText), replace(ctx, me.gives, myText, theirText)]);
  return edits ? { title: `Use the lock of line ${theirs.acquire.start.line + 1} (${theirText})`, preferred: false, edits } : undefined;
}

/**
 * A barrier between the two accesses: before the later statement when the earlier access's
 * statement comes first in the code; when it comes after (the other thread ran ahead), before
 * it — or, in a loop body, after it, since the race is then with the next iteration. Not
 * offered inside conditional code, where a barrier would diverge.
 */
function insertBarrier(ctx: FixContext): Fix | undefined {
  const { current, earlier } = ctx.race;
  const sameWarp = ctx.race.accessor.block === ctx.race.previousAccessor.block && ctx.race.accessor.warp === ctx.race.previousAccessor.warp;
  const barrier = sameWarp ? '__syncwarp();' : '__syncthreads();';
  const pair = ctx.index.siblingStatements(current.range, earlier.range);
  if (!pair) {
    // Both in one statement of a loop (`if (t < s) a[t] += a[t + s];`): the race is between
    // iterations, and the barrier ends each iteration.
    const loop = ctx.index.loopBodyAround(current.range);
    const other = ctx.index.loopBodyAround(earlier.range);
    if (!loop || !other || loop.block !== other.block || loop.statement !== other.statement) return undefined;
    if (!sameWarp && ctx.index.underCondition(loop.block)) return undefined;
    const edit = insertLine(ctx, loop.statement.range, barrier, 'after', true);
    return edit ? { title: `Insert ${barrier.slice(0, -1)} at the end of the loop body`, preferred: false, edits: [edit] } : undefined;
  }
  if (!sameWarp && ctx.index.underCondition(pair.block)) return undefined;
  const [mine, theirs] = [pair.first, pair.second];
  let edit: TextEdit | undefined;
  if (pair.secondIndex < pair.firstIndex) edit = insertLine(ctx, mine.range, barrier, 'before', true);
  else if (ctx.index.isLoopBody(pair.block)) edit = insertLine(ctx, theirs.range, barrier, 'after', true);
  else edit = insertLine(ctx, theirs.range, barrier, 'before', true);
  return edit ? { title: `Insert ${barrier.slice(0, -1)} between lines ${Math.min(earlier.range.start.line, current.range.start.line) + 1} and ${Math.max(earlier.range.start.line, current.range.start.line) + 1}`, preferred: false, edits: [edit] } : undefined;
}

/**
 * A line with `code` before or after the statement that contains `at` (or is `at`, when
 * `isStatement`), indented like it.
 */
function insertLine(ctx: FixContext, at: Range, code: string | string[], where: 'before' | 'after', isStatement = false): TextEdit | undefined {
  const stmt = isStatement ? ctx.index.statementAt(at) : ctx.index.enclosingListedStatement(at);
  const text = stmt && editable(ctx, stmt.range.file);
  if (!stmt || text === undefined) return undefined;
  const file = stmt.range.file;
  const lineStart = Math.max(text.lastIndexOf('\n', stmt.range.start.offset - 1), text.lastIndexOf('\r', stmt.range.start.offset - 1)) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
  const newline = /\r\n/.test(text) ? '\r\n' : /\r(?!\n)/.test(text) && !text.includes('\n') ? '\r' : '\n';
  // The statement must start its line and end with `;` or `}` as written (not in a macro).
  if (text.slice(lineStart, stmt.range.start.offset).trim() !== '') return undefined;
  const last = text.slice(0, stmt.range.end.offset).trimEnd().slice(-1);
  if (last !== ';' && last !== '}') return undefined;
  const lines = (typeof code === 'string' ? [code] : code).map((c) => `${indent}${c}`).join(newline);
  if (where === 'before') {
    const pos = positionAt(text, lineStart);
    return { range: { file, start: pos, end: pos }, newText: `${lines}${newline}` };
  }
  // After the statement's line, so a comment that ends the line stays with the statement.
  let end = stmt.range.end.offset;
  const rest = /^[ \t]*(\/\/[^\r\n]*|\/\*[^\r\n]*?\*\/[ \t]*)?(?=\r|\n|$)/.exec(text.slice(end));
  if (rest) end += rest[0].length;
  const pos = positionAt(text, end);
  return { range: { file, start: pos, end: pos }, newText: `${newline}${lines}` };
}

/** `x += v`, `x++`, `x -= v`… on the racing word become the matching atomic. */
function promoteToAtomic(ctx: FixContext): Fix | undefined {
  const stmt = statementOfBoth(ctx);
  if (!stmt) return undefined;
  return rmwAsAtomic(ctx, stmt.expr, ctx.race.scope === 'block' && ctx.race.category === 'missing-block-fence');
}

/**
 * missing-lock: the unlocked side's statement, a single read-modify-write or store of a word,
 * becomes atomic at the scope that covers both threads.
 */
function accessAsAtomic(ctx: FixContext, access: AccessSummary): Fix | undefined {
  const stmt = ctx.index.enclosingExpressionStatement(access.range);
  if (!stmt) return undefined;
  const block = ctx.race.scope === 'block';
  return rmwAsAtomic(ctx, stmt.expr, block) ?? storeAsAtomic(ctx, stmt.expr, block ? 'atomicExch_block' : 'atomicExch');
}

/** `x += v`, `x = x + v`, `x++`… as the matching atomic (of block scope when `block`). */
function rmwAsAtomic(ctx: FixContext, e: A.Expr, block: boolean): Fix | undefined {
  let target: A.Expr;
  let op: string;
  let value: string;
  const rhs = e.kind === 'Assign' && e.op === '=' && e.value.kind === 'Binary' ? e.value : undefined;
  if (e.kind === 'Assign' && ATOMIC_FOR[e.op]) {
    target = e.target;
    op = ATOMIC_FOR[e.op]!;
    value = textAt(ctx, e.value.range) ?? '';
  } else if (e.kind === 'Assign' && rhs && ATOMIC_FOR[`${rhs.op}=` as A.AssignOp] && textAt(ctx, rhs.left.range) === textAt(ctx, e.target.range)) {
    // `x = x + v`
    target = e.target;
    op = ATOMIC_FOR[`${rhs.op}=` as A.AssignOp]!;
    value = textAt(ctx, rhs.right.range) ?? '';
  } else if ((e.kind === 'Postfix' || (e.kind === 'Unary' && (e.op === '++' || e.op === '--')))) {
    target = e.operand;
    op = e.op === '++' ? 'atomicAdd' : 'atomicSub';
    value = '1';
  } else return undefined;
  const t = target.type && T.unqualified(target.type);
  if (!t || !atomicTypeOk(op, t)) return undefined;
  const lhs = textAt(ctx, target.range);
  if (!lhs || !value || textAt(ctx, e.range) === undefined) return undefined;
  const scoped = block ? `${op}_block` : op;
  const one = t.kind === 'int' && !t.signed && t.bits === 32 && value === '1' ? '1u' : value;
  // Atomics take plain pointers; a volatile variable's address is cast (atomics are strong).
  const address = target.type?.volatile ? `(${T.typeToString(t)} *)&${lhs}` : `&${lhs}`;
  const call = `${scoped}(${address}, ${one})`;
  return { title: `Use ${scoped} (atomic)`, preferred: false, edits: [{ range: e.range, newText: call }] };
}

/**
 * A plain or volatile store that conflicts with an atomic on the same word becomes an
 * `atomicExch` of the atomic's scope: atomics do not race with each other.
 */
function storeAsExchange(ctx: FixContext): Fix | undefined {
  const { current, earlier } = ctx.race;
  const [store, atomic] = current.atomic ? [earlier, current] : [current, earlier];
  if (!atomic.atomic || store.atomic || !store.write) return undefined;
  const stmt = ctx.index.enclosingExpressionStatement(store.range);
  if (!stmt) return undefined;
  return storeAsAtomic(ctx, stmt.expr, lockExchange(atomic.atomic.scope));
}

/**
 * A plain read of a word an atomic writes (a flag polled with `while (flag == 0)`): the read
 * goes through a volatile lvalue, which a fence orders and a loop reads again each time. The
 * variable itself stays as declared: atomics do not take pointers to volatile.
 */
function readAsVolatile(ctx: FixContext): Fix | undefined {
  const { current, earlier } = ctx.race;
  const [read, atomic] = current.atomic ? [earlier, current] : [current, earlier];
  if (!atomic.atomic || read.atomic || read.write || read.strong) return undefined;
  const e = ctx.index.expressionAt(read.range);
  const t = e?.type && T.unqualified(e.type);
  const text = e && textAt(ctx, e.range);
  if (!e || !t || !text || (t.kind !== 'int' && t.kind !== 'float')) return undefined;
  return { title: `Make the read of ${text} at line ${read.range.start.line + 1} volatile`, preferred: false, edits: [{ range: e.range, newText: `(*(volatile ${T.typeToString(t)} *)&${text})` }] };
}

/** Several lanes storing to one word in one statement: the store becomes an `atomicExch`. */
function lanesStoreAsExchange(ctx: FixContext): Fix | undefined {
  const stmt = statementOfBoth(ctx);
  return stmt && storeAsAtomic(ctx, stmt.expr, 'atomicExch');
}

/** The expression statement that holds both accesses of the race, if one does. */
function statementOfBoth(ctx: FixContext): A.ExprStmt | undefined {
  const stmt = ctx.index.enclosingExpressionStatement(ctx.race.current.range);
  return stmt && stmt === ctx.index.enclosingExpressionStatement(ctx.race.earlier.range) ? stmt : undefined;
}

/**
 * A lane reads in one statement the word another lane writes in it (`A[t] = B[(t + 1) % 32]`):
 * the read moves into a variable of its own line before the statement, and `__syncwarp()`
 * follows it, so every lane has read before any lane writes. Only a read the statement always
 * makes (not behind `?:`, `&&` or `||`) and that is not itself the target of the write.
 */
function readBeforeSyncwarp(ctx: FixContext): Fix | undefined {
  const { current, earlier } = ctx.race;
  const [read, write] = !current.write ? [current, earlier] : [earlier, current];
  if (read.write || !write.write) return undefined;
  const stmt = ctx.index.enclosingListedStatement(read.range);
  if (!stmt || stmt.kind !== 'ExprStmt' || stmt !== ctx.index.enclosingListedStatement(write.range)) return undefined;
  const expr = ctx.index.expressionAt(read.range);
  const readText = textAt(ctx, read.range);
  // A read that is part of an update (`x += v` reads x) is the update's: promoteToAtomic's.
  if (!expr || !readText || expr.kind === 'Assign' || expr.kind === 'Postfix' || (expr.kind === 'Unary' && (expr.op === '++' || expr.op === '--'))) return undefined;
  // Statements have kinds no expression has: a parent read as an expression narrows correctly.
  const direct = ctx.index.parentOf(expr) as A.Expr | undefined;
  if (direct?.kind === 'Assign' && direct.target === expr) return undefined;
  if (direct?.kind === 'Postfix' || (direct?.kind === 'Unary' && (direct.op === '&' || direct.op === '++' || direct.op === '--'))) return undefined;
  for (let n: A.Node = expr, p: A.Expr | undefined = direct; p && (p as A.Node) !== stmt; n = p, p = ctx.index.parentOf(p) as A.Expr | undefined) {
    if (p.kind === 'Conditional' && p.condition !== n) return undefined;
    if (p.kind === 'Binary' && (p.op === '&&' || p.op === '||') && p.right === n) return undefined;
  }
  const t = expr.type && T.unqualified(expr.type);
  if (!t || !['bool', 'int', 'float', 'pointer', 'struct', 'enum', 'vector'].includes(t.kind)) return undefined;
  const fn = ctx.index.enclosingFunction(stmt.range);
  const name = freshName(fn ? (textAt(ctx, fn.range) ?? '') : '', 'value');
  const type = T.typeToString(t);
  const declaration = `${type}${type.endsWith('*') ? '' : ' '}${name} = ${readText};`;
  const before = insertLine(ctx, stmt.range, [declaration, '__syncwarp();'], 'before', true);
  const use = replace(ctx, read.range, readText, name);
  if (!before || !use) return undefined;
  return { title: `Insert __syncwarp() between the read and the write of line ${stmt.range.start.line + 1}`, preferred: false, edits: [before, use] };
}

/** `base`, or `base2`, `base3`… : the first that `scope` (a function's text) does not mention. */
function freshName(scope: string, base: string): string {
  for (let i = 1; ; i++) {
    const name = i === 1 ? base : `${base}${i}`;
    if (!new RegExp(`\\b${name}\\b`).test(scope)) return name;
  }
}

/** `x = v` as `name(&x, v)` (an atomicExch of some scope), for the word types it exists for. */
function storeAsAtomic(ctx: FixContext, e: A.Expr, name: string): Fix | undefined {
  if (e.kind !== 'Assign' || e.op !== '=') return undefined;
  const t = e.target.type && T.unqualified(e.target.type);
  if (!t || !((t.kind === 'int' && (t.bits === 32 || (t.bits === 64 && !t.signed))) || (t.kind === 'float' && t.bits === 32))) return undefined;
  const lhs = textAt(ctx, e.target.range);
  const value = textAt(ctx, e.value.range);
  if (!lhs || !value || textAt(ctx, e.range) === undefined) return undefined;
  const address = e.target.type?.volatile ? `(${T.typeToString(t)} *)&${lhs}` : `&${lhs}`;
  const call = `${name}(${address}, ${value})`;
  return { title: `Use ${name} (atomic store)`, preferred: false, edits: [{ range: e.range, newText: call }] };
}

const ATOMIC_FOR: Partial<Record<A.AssignOp, string>> = { '+=': 'atomicAdd', '-=': 'atomicSub', '&=': 'atomicAnd', '|=': 'atomicOr', '^=': 'atomicXor' };

/** The element types each atomic exists for. */
function atomicTypeOk(op: string, t: T.Type): boolean {
  if (t.kind === 'float') return op === 'atomicAdd';
  if (t.kind !== 'int') return false;
  if (op === 'atomicSub') return t.bits === 32;
  return t.bits === 32 || (t.bits === 64 && !t.signed);
}

function withStrongAccesses(ctx: FixContext, fix: Fix | undefined): Fix | undefined {
  if (!fix) return undefined;
  const weak = [ctx.race.current, ctx.race.earlier].some((a) => !a.strong && !a.atomic);
  if (!weak) return fix;
  const strong = makeStrong(ctx);
  if (!strong) return undefined;
  return { title: `${fix.title}, and ${strong.title.replace(/^Declare/, 'declare')}`, preferred: false, edits: [...fix.edits, ...strong.edits] };
}

/** Declares `volatile` the variables through which the weak accesses were made. */
function makeStrong(ctx: FixContext): Fix | undefined {
  const weak: AccessSummary[] = [ctx.race.current, ctx.race.earlier].filter((a) => !a.strong && !a.atomic);
  const decls = new Set<A.VarDecl | A.ParamDecl>();
  for (const a of weak) {
    const decl = ctx.index.rootDeclaration(a.range);
    if (!decl) return undefined;
    decls.add(decl);
  }
  const edits: TextEdit[] = [];
  for (const d of decls) {
    const base = baseTypeNode(d.type);
    if (!base || editable(ctx, base.range.file) === undefined) return undefined;
    if ((base.kind === 'NamedType' || base.kind === 'TagType') && base.qualifiers.some((q) => q.text === 'volatile')) return undefined;
    edits.push({ range: { file: base.range.file, start: base.range.start, end: base.range.start }, newText: 'volatile ' });
  }
  if (!edits.length) return undefined;
  const names = [...decls].map((d) => d.name).join(' and ');
  return { title: `Declare ${names} volatile`, preferred: false, edits };
}

/** The innermost named type: `int` in `int *p`, `int data[4]`. */
function baseTypeNode(t: A.TypeNode): A.TypeNode | undefined {
  for (;;) {
    if (t.kind === 'PointerType' || t.kind === 'ReferenceType') t = t.to;
    else if (t.kind === 'ArrayType') t = t.of;
    else if (t.kind === 'NamedType' || t.kind === 'TagType') return t;
    else return undefined;
  }
}

function calleeName(c: A.CallExpr): string | undefined {
  return c.callee.kind === 'Identifier' ? c.callee.name : undefined;
}

function dedupe(edits: TextEdit[]): TextEdit[] {
  const seen = new Set<string>();
  return edits.filter((e) => {
    const k = `${e.range.start.offset}:${e.range.end.offset}:${e.newText}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Line and column of an offset; LF, CRLF and a lone CR each end a line. */
function positionAt(text: string, offset: number): Range['start'] {
  const before = text.slice(0, offset);
  const line = (before.match(/\r\n|\r|\n/g) ?? []).length;
  return { line, character: offset - (Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1), offset };
}
