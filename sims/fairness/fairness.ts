// Can a launch hang under a semi-fair GPU scheduler? (Sorensen et al., "GPU schedulers: how
// fair is fair enough?"; see sims/idioms/schedulers.ts for the schedulers.) A scheduler
// must keep running the blocks its fairness criterion names, and nothing else. The search
// plays the adversary: a seeded random prefix runs blocks in any order, then the suffix runs
// ONLY the blocks the criterion guarantees (round-robin over all their warps), starting a new
// block only when none of those can run. If the whole state (warps, memory, which blocks have
// started and finished) comes back to one it was in, with no block finishing in between, the
// schedule can repeat forever while every guaranteed block keeps running: a proof that the
// launch need not terminate under that scheduler. The report says which block spins where,
// on what, and which block could have released it but need not be run.
import type * as A from '../frontend/ast';
import type { Range } from '../frontend/source';
import { nameAddress } from '../gpu/lvalue';
import { CudaRuntime } from '../runtime/runtime';
import { functionsOf } from '../frontend/index';
import { calleeName, descendants } from '../idioms/syntax';
import { pollsMemory, waitLoopAt, waitTarget } from '../idioms/waits';
import { FAIRNESS_NAMES, type Fairness } from '../idioms/schedulers';
import type { LaunchRequest, SimEvent } from '../ir/ir';
import type { DeviceConfig } from '../gpu/devices';
import { DeviceFault } from '../gpu/access';
import { controlGrid, type GridControl, type GridFinding, type LaunchCheck, type LaunchEnvironment } from '../machine/executor';
import type { LaunchCheckFactory } from '../host/run';
import { seededRandom } from '../values/random';
import { Memory, pointerAllocation, pointerOffset, type ScalarKind } from '../gpu/memory';

export type { Fairness } from '../idioms/schedulers';

/** Thread-steps one search may take when the caller gives no budget. */
export const DEFAULT_SEARCH_STEPS = 2_000_000;
/** Adversarial schedules tried per launch. */
export const DEFAULT_TRIALS = 24;
/** Distinct states remembered while looking for a repeat (then the memory starts again). */
const MAX_SEEN = 20_000;
/** Quiet rounds between two looks at the whole state. */
const HASH_STRIDE = 8;
/** Memory up to this size is digested at every look, whatever its version says. */
const FRESH_DIGEST_BYTES = 1 << 18;

export interface FairnessSearchOptions {
  fairness: Fairness;
  device: DeviceConfig;
  model?: 'independent' | 'lockstep';
  maxThreads?: number;
  /** The same seed gives the same schedules and the same answer. */
  seed?: number;
  /** Thread-steps all schedules of this search may take together. */
  stepBudget?: number;
  trials?: number;
  /** The device view of the program: spin loops' exit conditions come from it. */
  unit?: A.TranslationUnit;
}


/**
 * Which blocks the scheduler must keep running (its thread fairness criterion), among the
 * unfinished ones: `started[b]` when block b has executed a step.
 */
export function guaranteedBlocks(fairness: Fairness, blocks: number, started: Uint8Array, finished: Uint8Array): number[] {
  const p = new BlockProgress(blocks);
  for (let b = 0; b < blocks; b++) if (started[b]) p.start(b);
  for (let b = 0; b < blocks; b++) if (finished[b]) p.finish(b);
  return p.guaranteed(fairness);
}

/**
 * May block `b` take its first step now? A LOBE scheduler starts blocks in index order (its
 * guarantees are about contiguous indices); the others may start any block at any time (the
 * paper's HSA and HSA+OBE counter-examples start a higher block first).
 */
export function mayStart(fairness: Fairness, b: number, started: Uint8Array): boolean {
  const p = new BlockProgress(started.length);
  for (let i = 0; i < started.length; i++) if (started[i]) p.start(i);
  return !started[b] && p.mayStart(fairness, b);
}

/**
 * Which blocks have started and finished, kept so that each question a schedule asks costs
 * what its answer is long, not the size of the grid (a grid may have thousands of blocks).
 */
class BlockProgress {
  readonly started: Uint8Array;
  readonly finished: Uint8Array;
  /** Bumped whenever a block starts or finishes. */
  changes = 0;
  unfinished: number;
  private lowestUnfinished = 0;
  private highestStarted = -1;
  private lowestUnstarted = 0;
  private readonly running = new Set<number>();
  /** Unstarted blocks, in a pool that gives a random one and removes one in constant time. */
  private readonly pool: Int32Array;
  private readonly at: Int32Array;
  private poolSize: number;
  private cached: { fairness: Fairness; changes: number; blocks: number[] } | undefined;

  constructor(readonly blocks: number) {
    this.started = new Uint8Array(blocks);
    this.finished = new Uint8Array(blocks);
    this.unfinished = blocks;
    this.pool = Int32Array.from({ length: blocks }, (_, i) => i);
    this.at = Int32Array.from({ length: blocks }, (_, i) => i);
    this.poolSize = blocks;
  }

  start(b: number): void {
    if (this.started[b]) return;
    this.started[b] = 1;
    this.changes++;
    if (!this.finished[b]) this.running.add(b);
    if (b > this.highestStarted) this.highestStarted = b;
    while (this.lowestUnstarted < this.blocks && this.started[this.lowestUnstarted]) this.lowestUnstarted++;
    const i = this.at[b];
    const last = this.pool[--this.poolSize];
    this.pool[i] = last;
    this.at[last] = i;
  }

  finish(b: number): void {
    if (this.finished[b]) return;
    this.finished[b] = 1;
    this.changes++;
    this.unfinished--;
    this.running.delete(b);
    while (this.lowestUnfinished < this.blocks && this.finished[this.lowestUnfinished]) this.lowestUnfinished++;
  }

  /** May `b` take its first step now (see `mayStart`)? */
  mayStart(fairness: Fairness, b: number): boolean {
    return fairness !== 'lobe' || b === this.lowestUnstarted;
  }

  /** The unfinished blocks the scheduler must run, in index order. */
  guaranteed(fairness: Fairness): number[] {
    if (this.cached?.fairness === fairness && this.cached.changes === this.changes) return this.cached.blocks;
    const out = new Set<number>();
    const lowest = this.lowestUnfinished < this.blocks ? this.lowestUnfinished : -1;
    if (fairness === 'fair') for (let b = 0; b < this.blocks; b++) if (!this.finished[b]) out.add(b);
    if ((fairness === 'hsa' || fairness === 'hsa+obe') && lowest >= 0) out.add(lowest);
    if (fairness === 'obe' || fairness === 'hsa+obe') for (const b of this.running) out.add(b);
    if (fairness === 'lobe') for (let b = Math.max(0, lowest); lowest >= 0 && b <= this.highestStarted; b++) if (!this.finished[b]) out.add(b);
    const blocks = [...out].sort((x, y) => x - y);
    this.cached = { fairness, changes: this.changes, blocks };
    return blocks;
  }

  /** The highest index that has started, -1 before any. */
  highest(): number {
    return this.highestStarted;
  }

  /** The unfinished block with the lowest index, -1 when all have finished. */
  lowest(): number {
    return this.lowestUnfinished < this.blocks ? this.lowestUnfinished : -1;
  }

  /** Started blocks that have not finished. */
  startedUnfinished(): number[] {
    return [...this.running];
  }

  /** A block that may start now, chosen with `random`, or -1. */
  startable(fairness: Fairness, random: () => number): number {
    if (this.poolSize === 0) return -1;
    if (fairness === 'lobe') return this.lowestUnstarted < this.blocks ? this.lowestUnstarted : -1;
    return this.pool[Math.floor(random() * this.poolSize)];
  }
}

/** A read seen in the suffix: where, what and how wide. */
interface Read {
  address: number;
  type: ScalarKind;
  range: Range;
  atomic?: string;
  /** The thread that read, as its index within the block. */
  thread: number;
}

/** Records the accesses of one explored schedule: reads per block, the last writer per address. */
class AccessLog {
  readonly lastWrite = new Map<number, { block: number; range: Range }>();
  /** Reads since `mark()`, per block, in order, one entry per distinct (address, range). */
  private reads = new Map<number, Read[]>();

  readonly listener = (e: SimEvent): void => {
    if (e.kind !== 'access') return;
    // A CAS that failed, or atomicAdd(&x, 0), wrote nothing: it is a read.
    const wrote = e.write && (!e.atomic || e.atomic.changed);
    if (wrote) this.lastWrite.set(e.address, { block: e.block, range: e.range });
    if (e.write && !e.atomic) return;
    let list = this.reads.get(e.block);
    if (!list) this.reads.set(e.block, (list = []));
    if (list.some((r) => r.address === e.address && r.range === e.range)) return;
    if (list.length >= 32) list.shift();
    list.push({ address: e.address, type: e.type, range: e.range, ...(e.atomic ? { atomic: e.atomic.op } : {}), thread: e.warp * 32 + e.lane });
  };

  mark(): void {
    this.reads = new Map();
  }

  readsOf(block: number): Read[] {
    return this.reads.get(block) ?? [];
  }
}

/** Two independent 32-bit FNV-style lanes: a 53-bit digest, so a false repeat is vanishingly rare. */
class Digest {
  private a = 0x811c9dc5;
  private b = 0x9747b28c;
  readonly mix = (x: number): void => {
    const lo = x | 0;
    const hi = (x / 4294967296) | 0;
    this.a = Math.imul(this.a ^ lo, 0x01000193);
    this.a = Math.imul(this.a ^ hi, 0x01000193);
    this.b = Math.imul(this.b ^ lo, 0x5bd1e995);
    this.b ^= this.b >>> 13;
    this.b = Math.imul(this.b ^ hi, 0x5bd1e995);
    this.b ^= this.b >>> 15;
  };
  value(): number {
    return (this.a >>> 0) * 2097152 + ((this.b >>> 0) & 0x1fffff);
  }
}

interface Proof {
  /** The blocks the suffix ran forever. */
  spinning: number[];
  /** Unfinished blocks it never ran (the first 64). */
  starved: number[];
  progress: BlockProgress;
  log: AccessLog;
}

/**
 * Explores adversarial schedules of one launch under `options.fairness`; a deadlock finding
 * when one provably need not terminate, else undefined. Memory is left as it was found.
 */
export function searchFairnessHang(req: LaunchRequest, env: LaunchEnvironment, options: FairnessSearchOptions): GridFinding | undefined {
  if (options.fairness === 'fair') return undefined;
  const memory = env.memory;
  const snapshot = memory.snapshot();
  const fresh = snapshot.bytes.reduce((n, b) => n + (b?.length ?? 0), 0) <= FRESH_DIGEST_BYTES;
  const trials = options.trials ?? DEFAULT_TRIALS;
  let budget = options.stepBudget ?? DEFAULT_SEARCH_STEPS;
  try {
    for (let t = 0; t < trials && budget > 0; t++) {
      const random = seededRandom(((options.seed ?? 1) * 1_000_003 + t * 7919) >>> 0);
      const trialBudget = Math.max(1, Math.floor(budget / (trials - t)));
      // Output and errors of explored schedules are not the program's: a runtime of their own.
      const runtime = new CudaRuntime(memory);
      const log = new AccessLog();
      const ctl = controlGrid(req, { device: options.device, memory, runtime, globals: env.globals, events: log.listener }, options);
      if (!ctl) return undefined;
      let outcome: ReturnType<typeof trial>;
      try {
        outcome = trial(ctl, options.fairness, t, random, trialBudget, memory, log, fresh);
      } catch (e) {
        // A schedule the program does not survive (a fault in an odd interleaving) proves
        // nothing; the launch itself runs next and reports what it reports.
        if (!(e instanceof DeviceFault)) throw e;
        budget -= trialBudget;
        memory.restore(snapshot);
        continue;
      }
      budget -= outcome.steps;
      if (outcome.proof) {
        const finding = describeHang(outcome.proof, req, memory, options);
        if (finding) return finding;
      }
      memory.restore(snapshot);
    }
  } finally {
    memory.restore(snapshot);
  }
  return undefined;
}

/** One adversarial schedule: a random prefix, then only what the scheduler must run. */
function trial(ctl: GridControl, fairness: Fairness, index: number, random: () => number, budget: number, memory: Memory, log: AccessLog, freshMemory: boolean): { steps: number; proof?: Proof } {
  const progress = new BlockProgress(ctl.blocks);
  let steps = 0;
  const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)];
  const enabled = (b: number): boolean => !progress.finished[b] && (progress.started[b] ? ctl.readyWarps(b).length > 0 : progress.mayStart(fairness, b));
  const run = (b: number, w: number): void => {
    steps += ctl.step(b, w);
    progress.start(b);
    if (ctl.finished(b)) progress.finish(b);
  };
  // A block the adversary may run: one that has started and can move, or one that may start.
  const anyRunnable = (): number => {
    const going = progress.startedUnfinished().filter(enabled);
    const fresh = progress.startable(fairness, random);
    if (fresh >= 0 && (going.length === 0 || random() < 1 / (going.length + 1))) return fresh;
    return going.length ? pick(going) : -1;
  };

  // The prefix: bursts of one block at a time, any block the start order allows. The first
  // schedule has none (the scheduler's own choices from the start); later ones longer ones.
  const bursts = index === 0 ? 0 : 1 + Math.floor(random() * Math.min(8, 1 + index / 2));
  for (let k = 0; k < bursts && steps < budget; k++) {
    const b = anyRunnable();
    if (b < 0) break;
    const length = 1 + Math.floor(random() * random() * 48);
    let wrote = false;
    for (let i = 0; i < length && !progress.finished[b] && steps < budget; i++) {
      const warps = ctl.readyWarps(b);
      if (warps.length === 0) break;
      const version = memory.version;
      run(b, pick(warps));
      // Stopping right after a write (a lock taken, a counter bumped) is where an adversary
      // hurts most: often end the burst there, and sometimes the whole prefix.
      wrote = memory.version !== version && random() < 0.5;
      if (wrote) break;
    }
    if (wrote && random() < 0.35) break;
  }

  // The suffix: the guaranteed blocks only, round-robin over all their warps. When none of
  // them can run, the scheduler must still run something: the adversary picks a block (for
  // most schedulers that starts a new one) and keeps to it while nothing is guaranteed.
  const seen = new Set<number>();
  // A stretch in which the same blocks run and no block starts or finishes: everything else
  // is frozen, so the running blocks and memory are the whole state.
  let window = '';
  let extra = -1;
  let memoryDigest = { version: -1, value: 0 };
  let quiet = 0;
  while (steps < budget) {
    if (progress.unfinished === 0) return { steps };
    let running = progress.guaranteed(fairness).filter(enabled);
    if (running.length === 0) {
      if (extra < 0 || !enabled(extra)) extra = anyRunnable();
      // Nothing can move at all: a deadlock under any scheduler, which the launch reports.
      if (extra < 0) return { steps };
      running = [extra];
    }
    const changes = progress.changes;
    const stretch = `${changes}|${running.join(',')}`;
    if (window !== stretch) {
      window = stretch;
      seen.clear();
      log.mark();
    }
    const version = memory.version;
    for (const b of running) {
      for (const w of ctl.readyWarps(b)) {
        if (progress.finished[b]) break;
        run(b, w);
      }
    }
    // A block started or finished: a new stretch begins.
    if (progress.changes !== changes) continue;
    // A round that wrote memory moved on; a spin loop comes back in rounds that only read.
    if (memory.version !== version) continue;
    // Hashing every register costs more than a round: look every few quiet rounds (a cycle of
    // period p still shows, within HASH_STRIDE periods).
    if (++quiet % HASH_STRIDE !== 0) continue;
    // Writes that bypass the version (a device-side memcpy) must not hide a change: small
    // memories are digested afresh each time, large ones when their version moves.
    if (memoryDigest.version !== memory.version || freshMemory) {
      const d = new Digest();
      memory.digest(d.mix);
      memoryDigest = { version: memory.version, value: d.value() };
    }
    const d = new Digest();
    d.mix(memoryDigest.value);
    for (const b of running) {
      d.mix(b);
      ctl.digest(b, d.mix);
    }
    const state = d.value();
    if (seen.has(state)) {
      const starved: number[] = [];
      for (let b = 0; b < ctl.blocks && starved.length < 64; b++) if (!progress.finished[b] && !running.includes(b)) starved.push(b);
      // With nobody left to release them the spinners hang under any scheduler: the launch's
      // own run reports that, not a question of fairness.
      if (starved.length === 0) return { steps };
      return { steps, proof: { spinning: running, starved, progress, log } };
    }
    if (seen.size >= MAX_SEEN) seen.clear();
    seen.add(state);
  }
  return { steps };
}

/** `block 2`, with its coordinates when the grid is not one-dimensional. */
function blockName(linear: number, grid: [number, number, number]): string {
  if (grid[1] === 1 && grid[2] === 1) return `block ${linear}`;
  return `block ${linear} (${linear % grid[0]}, ${Math.floor(linear / grid[0]) % grid[1]}, ${Math.floor(linear / (grid[0] * grid[1]))})`;
}

/** `block 1`, `blocks 0 and 2`, `blocks 1, 2, 3, 4 and 60 more` (`total`: how many there are in all). */
function blockList(blocks: number[], grid: [number, number, number], total = blocks.length): string {
  const names = blocks.slice(0, 4).map((b) => blockName(b, grid).replace(/^block /, ''));
  if (total === 1) return `block ${names[0]}`;
  if (total > 4) return `blocks ${names.join(', ')} and ${total - 4} more`;
  return `blocks ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** How the program names an address: `lock`, `flags[0]`, else the allocation and element. */
function addressName(memory: Memory, address: number, type: ScalarKind): string {
  const named = nameAddress(memory, address);
  if (named) return named;
  const a = memory.allocation(pointerAllocation(address));
  if (!a) return 'an unknown location';
  const size = { i8: 1, u8: 1, i16: 2, u16: 2, i32: 4, u32: 4, i64: 8, u64: 8, f32: 4, f64: 8 }[type];
  return `${a.label}[${Math.floor(pointerOffset(address) / size)}]`;
}

function readValue(memory: Memory, address: number, type: ScalarKind): string {
  const a = memory.allocation(pointerAllocation(address));
  if (!a) return '?';
  return String(Memory.read(a, pointerOffset(address), type));
}

/** Why the scheduler need not run `who` (which it did not): the fairness criterion in words. */
function reason(fairness: Fairness, who: number[], p: Proof, grid: [number, number, number]): string {
  const many = who.length > 1;
  const notStarted = who.every((b) => !p.progress.started[b]);
  const lowest = p.progress.lowest();
  const highest = p.progress.highest();
  const start = notStarted ? ` ${many ? 'have' : 'has'} not started, and` : '';
  switch (fairness) {
    case 'hsa':
      return `but under HSA only the lowest-id unfinished block, ${blockName(lowest, grid).replace(/^block /, '')}, is guaranteed to run`;
    case 'obe':
      return notStarted ? `but${start} under OBE only blocks that have started are guaranteed to run` : `but ${many ? 'they cannot' : 'it cannot'} take a step, and under OBE only blocks that have started are guaranteed to run`;
    case 'hsa+obe':
      return `but${start} under HSA+OBE only blocks that have started and the lowest-id unfinished block, ${blockName(lowest, grid).replace(/^block /, '')}, are guaranteed to run`;
    case 'lobe':
      return `but under LOBE only blocks up to the highest started id, ${highest}, are guaranteed to run`;
    case 'unfair':
      return 'but an unfair scheduler need not run any other block';
    case 'fair':
      return '';
  }
}

/** The finding for a proven hang: who spins where, waiting for what, and who is starved. */
function describeHang(p: Proof, req: LaunchRequest, memory: Memory, options: FairnessSearchOptions): GridFinding | undefined {
  const grid = req.grid;
  // The first running block that polls memory (one may spin without reading anything).
  const spinner = p.spinning.find((b) => p.log.readsOf(b).length > 0);
  if (spinner === undefined) return undefined;
  const reads = p.log.readsOf(spinner);
  // The read the block's (last) wait loop polls first in its condition, else the last it made.
  const polled = options.unit ? reads.map((r) => ({ r, at: waitLoopAt(options.unit!, r.range) })).filter((x) => x.at) : [];
  const loop = polled[polled.length - 1]?.at?.loop;
  const inLoop = polled.filter((x) => x.at!.loop === loop).sort((x, y) => loop!.reads.indexOf(x.at!.read) - loop!.reads.indexOf(y.at!.read))[0];
  const read = inLoop?.r ?? reads[reads.length - 1];
  const location = addressName(memory, read.address, read.type);
  const value = readValue(memory, read.address, read.type);
  const target = inLoop?.at ? waitTarget(inLoop.at.loop, inLoop.at.read) : undefined;
  const line = read.range.start.line + 1;
  const waiting = target
    ? target.constant !== undefined
      ? `waiting for ${location} ${target.op} ${target.text}`
      : `waiting for ${location} ${target.op} ${target.text} (it keeps reading ${value})`
    : `waiting for ${location} to change (it keeps reading ${value})`;
  const others = p.spinning.filter((b) => b !== spinner && p.log.readsOf(b).some((r) => r.address === read.address));
  const who = others.length ? `${blockList([spinner, ...others], grid)} spin` : `${blockName(spinner, grid)} spins`;
  const lock = read.atomic === 'CAS' || read.atomic === 'Exch';
  const writer = p.log.lastWrite.get(read.address);
  let releaser: string;
  if (writer && !p.spinning.includes(writer.block) && !p.progress.finished[writer.block]) {
    const name = blockName(writer.block, grid);
    const what = lock ? `${name} holds the lock (it last wrote ${location} at line ${writer.range.start.line + 1})` : `${name} last wrote ${location} (at line ${writer.range.start.line + 1}) and could change it again`;
    releaser = `${what} ${reason(options.fairness, [writer.block], p, grid)}`;
  } else {
    releaser = `${blockList(p.starved, grid, p.progress.unfinished - p.spinning.length)} could change ${location} ${reason(options.fairness, p.starved, p, grid)}`;
  }
  const name = FAIRNESS_NAMES[options.fairness];
  const scheduler = `${options.fairness === 'lobe' ? 'a' : 'an'} ${name} scheduler`;
  return {
    kind: 'deadlock',
    message: `under ${scheduler} the launch of ${req.kernel.name} can hang: ${who} at line ${line} ${waiting}; ${releaser}`,
    range: read.range,
    block: [spinner % grid[0], Math.floor(spinner / grid[0]) % grid[1], Math.floor(spinner / (grid[0] * grid[1]))],
    thread: [read.thread % req.block[0], Math.floor(read.thread / req.block[0]) % req.block[1], Math.floor(read.thread / (req.block[0] * req.block[1]))],
  };
}

/** Searches at most this many launches of one run (the first launches of each kernel and shape). */
const MAX_SEARCHED_LAUNCHES = 8;

/**
 * The fairness check of a whole run: each launch is searched before it runs, once per kernel
 * and launch shape, and a kernel already shown to hang is not searched again. Searches share
 * the step budget given.
 */
export function fairnessChecker(options: FairnessSearchOptions): LaunchCheck {
  const searched = new Set<string>();
  const hung = new Set<string>();
  let budget = options.stepBudget ?? DEFAULT_SEARCH_STEPS;
  const waits = new Map<A.FunctionDecl, boolean>();
  return (req, env) => {
    const shape = `${req.kernel.name}|${req.grid.join(',')}|${req.block.join(',')}`;
    if (options.fairness === 'fair' || budget <= 0 || hung.has(req.kernel.name) || searched.has(shape) || searched.size >= MAX_SEARCHED_LAUNCHES) return undefined;
    // A kernel that never loops on memory cannot wait for another block: nothing to search.
    if (options.unit) {
      let w = waits.get(req.kernel.decl);
      if (w === undefined) waits.set(req.kernel.decl, (w = mayWait(options.unit, req.kernel.decl)));
      if (!w) return undefined;
    }
    searched.add(shape);
    const share = Math.floor(budget / 2);
    const finding = searchFairnessHang(req, env, { ...options, stepBudget: share });
    budget -= share;
    if (finding) hung.add(req.kernel.name);
    return finding;
  };
}

/** Does the kernel, or a function it calls, loop on memory (see `pollsMemory`)? */
function mayWait(unit: A.TranslationUnit, kernel: A.FunctionDecl): boolean {
  const byName = new Map<string, A.FunctionDecl>();
  for (const f of functionsOf(unit)) if (f.body) byName.set(f.name, f);
  const seen = new Set<A.FunctionDecl>();
  const visit = (f: A.FunctionDecl | undefined): boolean => {
    if (!f?.body || seen.has(f)) return false;
    seen.add(f);
    if (pollsMemory(f)) return true;
    return descendants(f.body).some((n) => n.kind === 'Call' && visit(byName.get(calleeName(n as A.CallExpr) ?? '')));
  };
  // The kernel as compiled may be the device view's twin of the declaration launched.
  return visit(byName.get(kernel.name) ?? kernel) || (kernel.body !== undefined && visit(kernel));
}

/**
 * The launch check of a run under `fairness`: each launch is searched for a schedule on which it
 * never ends (a `deadlock` finding). None under the fair scheduler.
 */
export function fairnessLaunchCheck(fairness: Fairness | undefined): LaunchCheckFactory | undefined {
  if (!fairness || fairness === 'fair') return undefined;
  // The run's setup is the search's options, with a quarter of its step budget to search in.
  return (run) => fairnessChecker({ ...run, fairness, stepBudget: Math.min(DEFAULT_SEARCH_STEPS, Math.floor(run.stepBudget / 4)) });
}
