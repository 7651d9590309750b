// The block compiler: a basic block's steps as one generated JS function, so that V8 sees
// straight-line code instead of a closure call per step per lane. Consecutive pure steps (a
// register computed from registers: arithmetic, moves, conversions, thread indices) fuse into
// one loop over the lanes that keeps the registers it touches in locals and writes each back
// once; any other step (memory, fences, calls into the runtime) is called as the interpreter
// calls it, for every lane before the next step, so events, faults and the weak model see the
// same order on both. A converged warp runs its blocks back to back in one generated function
// (compileConverged), and a loop of register arithmetic in it lane by lane (pureLoops.ts).
// The interpreter (the executor calling the closures) stays the reference:
// test/slow/differential.test.ts runs every program of the repository all ways.
//
// Generated text holds only numbers the compiler made (register offsets, step indices) and
// names it chose; every value a step needs goes in through the constants array.
import { DeviceFault } from '../gpu/access';
import { WARP, type Block, type BlockBody, type CompiledFunction, type ConvergedRun, type PureStep, type Step } from './ir';
import { PLAIN_ACCESS_SCOPE, plainAccessText } from './plainAccess';
import { loopSource, pureLoops } from './pureLoops';
import { runLocal } from './runLocal';

/** Literal text for numbers that round-trip through their decimal form; anything else is a constant. */
function literal(value: unknown, constants: unknown[]): string {
  if (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0)) return value < 0 ? `(${value})` : String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  constants.push(value);
  return `K[${constants.length - 1}]`;
}

/**
 * What a run of pure steps does for lane `l`: registers in locals (`v` and the offset), written
 * back once, except the run-local ones (`local`, by register index), which nothing else reads.
 * `count`: a register the run writes whose true lanes the loop counts in `t` as well.
 */
function fusedRun(run: readonly PureStep[], constants: unknown[], local: Uint8Array | undefined, count?: number): string {
  const name = (offset: number): string => `v${offset}`;
  const declared = new Set<number>();
  const written = new Set<number>();
  const body: string[] = [];
  const lit = (v: unknown): string => literal(v, constants);
  for (const p of run) {
    const names = p.srcs.map((s) => {
      if (!declared.has(s)) {
        declared.add(s);
        body.push(`let ${name(s)} = R[${s} + l];`);
      }
      return name(s);
    });
    const value = p.expr(names, lit);
    if (declared.has(p.dst)) body.push(`${name(p.dst)} = ${value};`);
    else {
      declared.add(p.dst);
      body.push(`let ${name(p.dst)} = ${value};`);
    }
    written.add(p.dst);
  }
  for (const d of written) if (!local?.[d / WARP]) body.push(`R[${d} + l] = ${name(d)};`);
  if (count !== undefined) body.push(`if (${name(count)}) t++;`);
  return body.join('\n  ');
}

/** One loop over the group's lanes: its statements for lane `l` in order, and what goes before it. */
interface LaneLoop {
  before: string;
  bodies: string[];
  /** An inline access's loop, which runs of pure steps may join. */
  joinable: boolean;
}

/**
 * The statements that run a block's steps for the group `g` of `n` lanes (faults leave `l` at
 * the lane); `inline`: loads, stores and atomics written out (plainAccess.ts), else called.
 * `count`: a register the block's last run of pure steps writes (countedInLastRun), whose true
 * lanes that run counts in `t`.
 *
 * Each step runs for every lane before the next step, as the interpreter runs them, except
 * that a run of pure steps joins the lane loop of the inline access after it (or else before
 * it): it reads and writes only its own lane's registers and nothing sees it, so which lanes'
 * accesses it runs between cannot be told, and the accesses keep their order. The access then
 * takes the registers the run computed from its locals. A called step may read other lanes'
 * registers (a shuffle), so no run joins it.
 */
function stepsText(steps: readonly Step[], constants: unknown[], stepArray: string, inline: boolean, local: Uint8Array | undefined, count?: number): string {
  const loops: LaneLoop[] = [];
  let run: PureStep[] = [];
  const flush = (last = false): void => {
    if (!run.length) return;
    const text = fusedRun(run, constants, local, last ? count : undefined);
    run = [];
    const previous = loops[loops.length - 1];
    if (previous?.joinable) previous.bodies.push(`{\n  ${text}\n  }`);
    else loops.push({ before: '', bodies: [text], joinable: false });
  };
  steps.forEach((step, k) => {
    if (step.pure) {
      run.push(step.pure);
      return;
    }
    // The run before an inline access goes in its loop, and the access reads what the run computed from its locals.
    const computed = inline && step.plain ? new Set(run.map((p) => p.dst)) : undefined;
    const access = computed && plainAccessText(step.plain!, k, stepArray, (v) => literal(v, constants), (r) => (computed.has(r) ? `v${r}` : `R[${r} + l]`));
    if (access) {
      loops.push({ before: 'c = undefined;\n', bodies: run.length ? [fusedRun(run, constants, local), access] : [access], joinable: true });
      run = [];
      return;
    }
    flush();
    loops.push({ before: '', bodies: [`${stepArray}[${k}](w, l);`], joinable: false });
  });
  flush(true);
  return loops.map((loop) => `${loop.before}for (i = 0; i < n; i++) {\n  l = g[i];\n  ${loop.bodies.join('\n  ')}\n}`).join('\n');
}

/** Whether the block's steps end with a run of pure steps that writes register `offset` (the run can count a branch's lanes). */
function countedInLastRun(steps: readonly Step[], offset: number): boolean {
  for (let k = steps.length - 1; k >= 0 && steps[k].pure; k--) if (steps[k].pure!.dst === offset) return true;
  return false;
}

/**
 * Generated text above which accesses are called rather than written out: V8 does not optimise
 * a function whose bytecode passes 60 KB, and an unoptimised function runs several times slower
 * than the calls it would save (a cuda-samples kernel's converged run of 77 KB with its 26
 * accesses inline ran 2.3 times slower than the same run calling them).
 */
const INLINE_MAX_TEXT = 48_000;

/**
 * `make(inline)` with loads and stores written out when that text stays within
 * INLINE_MAX_TEXT, else with them called.
 */
function withinLimit<T extends { text: string }>(make: (inline: boolean) => T): T {
  const inline = make(true);
  return inline.text.length <= INLINE_MAX_TEXT ? inline : make(false);
}

/**
 * The JS text of a block's body, and the values it refers to (`S` the steps, `K` constants);
 * `local`: its function's run-local registers (runLocal.ts), which it need not write back.
 */
export function blockSource(steps: readonly Step[], local?: Uint8Array): { text: string; constants: unknown[] } {
  return withinLimit((inline) => {
    const constants: unknown[] = [];
    // A pure step never throws, so `l` names the lane of any fault.
    const text = `const R = w.regs;\n${PLAIN_ACCESS_SCOPE}\nlet i = 0, l = 0;\ntry {\n${stepsText(steps, constants, 'S', inline, local)}\n} catch (e) {\n  throw atLane(e, l);\n}`;
    return { text, constants };
  });
}

function atLane(e: unknown, lane: number): unknown {
  if (e instanceof DeviceFault) e.lane = lane;
  return e;
}

/**
 * Generated functions by their text. A program lowered again (every run lowers its kernels)
 * gives the same text, so V8 parses and optimises it once and each run only binds its steps and
 * constants. Cleared when it holds too much text (the editor's server lives long).
 */
const FACTORIES = new Map<string, (...bound: unknown[]) => unknown>();
let factoryChars = 0;
const FACTORY_CHARS_LIMIT = 32 << 20;

function factory<F>(text: string): (S: unknown, K: unknown[], f: typeof atLane) => F {
  let make = FACTORIES.get(text);
  if (!make) {
    if (factoryChars + text.length > FACTORY_CHARS_LIMIT) {
      FACTORIES.clear();
      factoryChars = 0;
    }
    make = new Function('S', 'K', 'atLane', text) as (...bound: unknown[]) => unknown;
    FACTORIES.set(text, make);
    factoryChars += text.length;
  }
  return make as (S: unknown, K: unknown[], f: typeof atLane) => F;
}

/** Compiles a block's steps into one function (`local`: as blockSource). */
export function compileBlock(block: Block, local?: Uint8Array): BlockBody {
  const { text, constants } = blockSource(block.steps, local);
  return factory<BlockBody>(`"use strict";\nreturn function block(w, g, n) {\n${text}\n};`)(block.steps, constants, atLane);
}

/**
 * Runs of a block before it is compiled: code that runs a few times costs less through the
 * closures than it costs to generate and to warm up.
 */
const BLOCK_RUNS_BEFORE_COMPILING = 16;

/**
 * How the simulator runs a kernel's blocks: `compiled` compiles a block once it is hot and runs
 * it through the closures until then; `eager` compiles every block on its first run (the
 * differential test's way to compile everything); `interpreted` never.
 */
export type BlockExecution = 'compiled' | 'eager' | 'interpreted';

/** The compiled body of `block`, a block of `f`, once it is hot (at once when eager); undefined while the closures should run it. */
export function blockBody(f: CompiledFunction, block: Block, execution: BlockExecution = 'compiled'): BlockBody | undefined {
  if (execution === 'interpreted') return undefined;
  if (block.compiled) return block.compiled;
  block.runs = (block.runs ?? 0) + 1;
  if (block.runs <= BLOCK_RUNS_BEFORE_COMPILING && execution !== 'eager') return undefined;
  return (block.compiled = compileBlock(block, runLocal(f).local));
}

/** Steps of straight-line code above which a function is not compiled into one converged run (V8 stops optimising huge functions). */
const CONVERGED_MAX_STEPS = 4000;

/**
 * Blocks a loop's lane-by-lane run must have left to be worth its set-up (loading the loop's
 * registers for each lane, the trajectory check).
 */
const LOOP_MIN_BLOCKS = 4;

/** The function's converged run, or undefined when it has none worth compiling. */
export function compileConverged(f: CompiledFunction): ConvergedRun | undefined {
  const chained = f.blocks.filter((b) => b.term.kind === 'jump' || b.term.kind === 'branch');
  const size = chained.reduce((n, b) => n + b.steps.length, 0);
  if (chained.length === 0 || size > CONVERGED_MAX_STEPS) return undefined;
  const { text, constants } = withinLimit((inline) => convergedSource(f, chained, inline));
  return factory<ConvergedRun>(text)(
    f.blocks.map((b) => b.steps),
    constants,
    atLane,
  );
}

/** The converged run's text over the function's chained blocks, and the values it refers to. */
function convergedSource(f: CompiledFunction, chained: readonly Block[], inline: boolean): { text: string; constants: unknown[] } {
  const constants: unknown[] = [];
  const lit = (v: unknown): string => literal(v, constants);
  const loops = pureLoops(f);
  const local = runLocal(f).local;
  const loopOfBlock = new Map<number, number>();
  loops.forEach((loop, k) => loop.blocks.forEach((b) => loopOfBlock.set(b.id, k)));
  // A loop whose lanes left lane 0's path more often than rarely is run block by block.
  const tryLoop = (k: number): string => `M${k} <= (Y${k} >> 3) + 2 && limit - q + free >= ${LOOP_MIN_BLOCKS}`;
  const laneByLane = (id: number): string => {
    const k = loopOfBlock.get(id);
    if (k === undefined) return '';
    return `if (${tryLoop(k)}) {
Y${k}++;
t = loop${k}(w, g, n, ${id}, limit - q + free);
if (t > 0) {
  hot[${id}] += n;
  tally.steps += n * LEN[${id}];
  for (i = 0; i < t - 1; i++) { l = T[i]; hot[l] += n; tally.steps += n * LEN[l]; }
  tally.blocks += t;
  // The loop's blocks are register-only, which every scheduler with free blocks lets be
  // free: the first of them are, as block by block.
  l = t < free ? t : free;
  free -= l;
  tally.free += l;
  q += t - l - 1;
  pc = T[t - 1];
  continue;
}
M${k}++;
}\n`;
  };
  const cases = chained.map((b) => {
    const t = b.term;
    // A branch whose condition the block's last pure steps compute counts its lanes in their loop.
    const c = t.kind === 'branch' ? t.cond * WARP : -1;
    const counted = c >= 0 && countedInLastRun(b.steps, c);
    const steps = stepsText(b.steps, constants, `S[${b.id}]`, inline, local, counted ? c : undefined);
    const taken = `${laneByLane(b.id)}hot[${b.id}] += n;\n${counted ? 't = 0;\n' : ''}${steps}\ntally.steps += n * ${b.steps.length + 1};\ntally.blocks++;`;
    // A block the scheduler does not count is free while the warp's turn has free blocks left.
    const free = `if (F[${b.id}] && free > 0) { free--; tally.free++; q--; }\n`;
    if (t.kind === 'jump') return `case ${b.id}: {\n${taken}\n${free}pc = ${t.to};\ncontinue;\n}`;
    if (t.kind !== 'branch') throw new Error('unreachable');
    return `case ${b.id}: {\n${taken}
${free}${counted ? '' : `t = 0;\nfor (i = 0; i < n; i++) if (R[${c} + g[i]]) t++;\n`}if (t === n) { pc = ${t.then}; continue; }
if (t === 0) { pc = ${t.else}; continue; }
for (i = 0; i < n; i++) { l = g[i]; pcs[l] = R[${c} + l] ? ${t.then} : ${t.else}; }
return ${b.id};
}`;
  });
  // Per loop: Y attempts of the lane-by-lane run, M of them given up.
  const loopText = loops.length
    ? `let T = new Int32Array(64);
const LEN = [${f.blocks.map((b) => b.steps.length + 1).join(', ')}];
${loops.map((loop, k) => `let Y${k} = 0, M${k} = 0;\n${loopSource(loop, k, lit, local)}`).join('\n')}\n`
    : '';
  const text = `"use strict";
${loopText}return function converged(w, g, n, pcs, pc, limit, hot, tally, free, F) {
const R = w.regs;
${PLAIN_ACCESS_SCOPE}
let i = 0, l = 0, t = 0;
try {
  for (let q = 0; q < limit; q++) {
    switch (pc) {
${cases.join('\n')}
    }
    break;
  }
} catch (e) {
  for (i = 0; i < n; i++) pcs[g[i]] = pc;
  throw atLane(e, l);
}
for (i = 0; i < n; i++) pcs[g[i]] = pc;
return -1;
};`;
  return { text, constants };
}

/** Converged stretches a function runs block by block before its converged run is compiled. */
const CONVERGED_RUNS_BEFORE_COMPILING = 64;

/** The function's converged run once it is hot, or at once when eager (null: it has none or runs interpreted; undefined: not yet). */
export function convergedRun(f: CompiledFunction, execution: BlockExecution = 'compiled'): ConvergedRun | null | undefined {
  if (execution === 'interpreted') return null;
  if (f.converged !== undefined) return f.converged;
  f.convergedRuns = (f.convergedRuns ?? 0) + 1;
  if (f.convergedRuns <= CONVERGED_RUNS_BEFORE_COMPILING && execution !== 'eager') return undefined;
  return (f.converged = compileConverged(f) ?? null);
}
