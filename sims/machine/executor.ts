// Runs a kernel launch: blocks become resident on SMs as occupancy allows, each block's warps
// are scheduled round-robin, and within a warp the lanes that stand at the same block of the
// control-flow graph run it together, one step for all of them before the next (independent
// thread scheduling: diverged groups advance separately and merge when they meet again).
import type { Range } from '../frontend/source';
import type { CudaRuntime } from '../runtime/runtime';
import { registerOnly, WARP, type Block, type CompiledFunction, type ConvergedRun, type EventListener, type Lanes, type LaunchRequest, type RunContext } from '../ir/ir';
import { DeviceFault } from '../gpu/access';
import { immediatePostDominators } from '../ir/postdominators';
import { blockBody, convergedRun, type BlockExecution } from '../ir/compile';
import { keepEveryRegister, runLocal } from '../ir/runLocal';
import { occupancy, type DeviceConfig } from '../gpu/devices';
import { pointerAllocation, type Memory } from '../gpu/memory';
import { formatBytes, MemoryLimitExceeded } from '../gpu/memoryAccount';
import { randomChooser, type Chooser, type WeakMemory } from '../gpu/weakMemory';
import { seededRandom } from '../values/random';
import { BlockQueue, type BlockSampling, type SampledLaunch } from './blockSample';

const READY = 1;
const AT_BARRIER = 2;
const EXITED = 3;
const AT_COLLECTIVE = 4;

/** Blocks of the CFG a warp runs before the scheduler moves to the next warp. */
const QUANTUM = 16;
/** No block is free (converged runs of schedulers without free blocks). */
const NO_FREE_BLOCKS = new Uint8Array(0);
/**
 * Blocks no other thread can see that a warp runs in one turn beyond its quantum: random
 * scheduling's blocks without memory accesses, round-robin's register-only blocks. Enough for
 * a loop of a few hundred iterations of arithmetic to run in one turn (a diverged warp whose
 * turn ends inside one goes on block by block, group by group).
 */
const INVISIBLE_RUN = 1024;
/** Greedy-then-oldest keeps a warp until it stalls (or for this many blocks). */
const GTO_QUANTUM = 1024;
/**
 * Launches of more threads than this are refused (`GridOptions.maxThreads` overrides it). Grids
 * of 16 M threads are common in samples (one thread per element of a 64 MB array); the exact
 * detector keeps a plain word's entry in about 50 bytes, so such a grid fits in the default
 * memory limit with room to spare, and the memory limit stops anything larger that does not.
 */
export const DEFAULT_MAX_THREADS = 1 << 25;
/** Thread-steps between checks for a repeated state while nothing else changes. */
const LIVELOCK_WINDOW = 1_000_000;
/**
 * A check hashes every resident thread's registers: on a big grid the window grows to this many
 * thread-steps per word hashed (a thread-step of a loop run lane by lane costs a fraction of
 * what hashing a word does), so the check costs a few percent of the run however big the
 * state. It stays within 1/64 of the step budget, so a hang is still found well before the
 * budget ends.
 */
const LIVELOCK_STEPS_PER_WORD = 64;

function hasReadyLane(w: WarpState): boolean {
  const status = w.status;
  for (let l = 0; l < WARP; l++) if (status[l] === READY) return true;
  return false;
}

/**
 * The random scheduler's turn: one of the warps that have a lane ready, the `choose`n one of
 * however many there are. Counted, then walked to, rather than listed: it runs before every
 * block of the CFG a random schedule executes.
 */
function pickReadyWarp(resident: BlockState[], choose: (n: number) => number): { block: BlockState; warp: WarpState } | undefined {
  let n = 0;
  for (const block of resident) for (const warp of block.warps) if (hasReadyLane(warp)) n++;
  if (n === 0) return undefined;
  let k = choose(n);
  for (const block of resident) for (const warp of block.warps) if (hasReadyLane(warp) && k-- === 0) return { block, warp };
  return undefined;
}

/**
 * Out of steps: say where the time went (the block of the CFG run most often is the hot
 * loop) and, when blocks were still waiting for an SM, that they could never start because
 * the resident ones spin — the oversubscribed grid barrier.
 */
function budgetFinding(
  req: LaunchRequest,
  kernel: CompiledFunction,
  hot: Float64Array,
  budget: number,
  r: { resident: number; started: number; blocks: number; occ: NonNullable<ReturnType<typeof occupancy>>; device: DeviceConfig },
): GridFinding {
  const range = hottestRange(kernel, hot) ?? req.range;
  const waiting = r.blocks - r.started;
  // Blocks started beyond the first resident set took the places of blocks that finished: the
  // grid was moving, just not done. Only a grid whose first resident set never finishes starves.
  const finished = Math.max(0, r.started - r.resident);
  const residency = waiting <= 0
    ? ''
    : finished > 0
      ? `; ${finished} of ${r.blocks} blocks finished and ${waiting} never started: the grid was still making progress (a larger step budget, --max-steps, or a smaller problem lets it finish)`
      : `; ${waiting} of ${r.blocks} blocks never started: only ${r.occ.residentBlocks} can be resident on ${r.device.name} (${r.occ.blocksPerSM} per SM on ${r.device.smCount} SMs, limited by ${r.occ.limitedBy}), and the resident ones keep running here without finishing — a grid-wide barrier or flag that needs all blocks can never complete`;
  return { kind: 'step-budget', message: `the launch did not finish within ${budget} thread-steps; the hottest code is at line ${range.start.line + 1}${residency}`, range };
}

/**
 * Nobody can move: say who waits where, and for whom. Threads at a barrier wait for the rest
 * of their block; lanes in a *_sync operation wait for the lanes of their mask.
 */
function deadlockFinding(resident: BlockState[], req: LaunchRequest, unstarted = 0): GridFinding {
  const parts: string[] = [];
  let range: Range | undefined;
  for (const b of resident) {
    const atBarrier = new Map<number, { count: number; range: Range; grid: boolean }>();
    const inCollective = new Map<number, { count: number; range: Range; missing: Set<number> }>();
    for (const w of b.warps) {
      for (let l = 0; l < WARP; l++) {
        if (w.status[l] === AT_BARRIER && w.waitingAt[l]) {
          const t = w.waitingAt[l]!;
          const e = atBarrier.get(t.range.start.offset) ?? { count: 0, range: t.range, grid: !!t.grid };
          e.count++;
          atBarrier.set(t.range.start.offset, e);
        } else if (w.status[l] === AT_COLLECTIVE && w.inCollective[l]) {
          const t = w.inCollective[l]!;
          const e = inCollective.get(t.range.start.offset) ?? { count: 0, range: t.range, missing: new Set<number>() };
          e.count++;
          const mask = w.regs[t.mask! * WARP + l] >>> 0;
          for (let k = 0; k < WARP; k++) if ((mask >>> k) & 1 && w.inCollective[k] !== t && w.status[k] !== EXITED && w.status[k] !== 0) e.missing.add(k);
          inCollective.set(t.range.start.offset, e);
        }
      }
    }
    const what: string[] = [];
    for (const e of atBarrier.values()) {
      range ??= e.range;
      what.push(e.grid
        ? `${e.count} thread${e.count === 1 ? ' waits' : 's wait'} at the grid-wide barrier on line ${e.range.start.line + 1} for every thread of the launch${unstarted > 0 ? ` (${unstarted} block${unstarted === 1 ? '' : 's'} can never start while the resident ones wait: a grid-wide barrier needs every block resident at once, as a cooperative launch guarantees)` : ''}`
        : `${e.count} thread${e.count === 1 ? ' waits' : 's wait'} at the __syncthreads on line ${e.range.start.line + 1} for the rest of the block`);
    }
    for (const e of inCollective.values()) {
      range ??= e.range;
      const lanes = [...e.missing].sort((x, y) => x - y);
      what.push(`${e.count} lane${e.count === 1 ? ' waits' : 's wait'} in the warp operation on line ${e.range.start.line + 1} for lane${lanes.length === 1 ? '' : 's'} ${lanes.slice(0, 8).join(', ')}${lanes.length > 8 ? ', …' : ''} of its mask, which never arrive${lanes.length === 1 ? 's' : ''} there`);
    }
    if (what.length) parts.push(`block (${b.index.join(', ')}): ${what.join('; ')}`);
  }
  return { kind: 'deadlock', message: `no thread can move: ${parts.slice(0, 4).join('. ')}${parts.length > 4 ? ` (and ${parts.length - 4} more blocks)` : ''}`, range: range ?? req.range };
}

/**
 * A digest of every resident warp's program counters, lane states and registers (`kept`: the
 * kernel's registers other than its run-local ones, which hold nothing between runs). It runs
 * whenever nothing has changed memory for a while, which a long computation does too: a warp
 * whose lanes are all live is hashed in one pass over its register file (in memory order),
 * the others lane by lane.
 */
function stateHash(resident: BlockState[], kept: Int32Array): number {
  let h = 0x811c9dc5;
  for (const b of resident) {
    for (const w of b.warps) {
      const status = w.status;
      for (let l = 0; l < WARP; l++) h = Math.imul(h ^ status[l], 0x01000193);
      if (w.live < WARP) {
        mixLiveLanes(w, kept, (x) => (h = Math.imul(h ^ x, 0x01000193)));
        continue;
      }
      const pcs = w.pc;
      for (let l = 0; l < WARP; l++) h = Math.imul(h ^ pcs[l], 0x01000193);
      // The register file's two halves of each double into two chains: twice the words a
      // multiply's latency, which bounds a single chain.
      const words = new Int32Array(w.regs.buffer, w.regs.byteOffset, w.regs.length * 2);
      let g = 0x9e3779b9;
      for (let k = 0; k < kept.length; k++) {
        const end = (kept[k] + 1) * WARP * 2;
        for (let i = kept[k] * WARP * 2; i < end; i += 2) {
          h = Math.imul(h ^ words[i], 0x01000193);
          g = Math.imul(g ^ words[i + 1], 0x01000193);
        }
      }
      h = Math.imul(h ^ g, 0x85ebca6b);
    }
  }
  return h >>> 0;
}

/** The pc and registers (those `kept`) of each lane still to run (an exited lane's decide nothing). */
function mixLiveLanes(w: WarpState, kept: Int32Array, mix: (x: number) => void): void {
  const words = new Int32Array(w.regs.buffer, w.regs.byteOffset, w.regs.length * 2);
  for (let l = 0; l < WARP; l++) {
    if (w.status[l] === EXITED || w.status[l] === 0) continue;
    mix(w.pc[l]);
    for (let k = 0; k < kept.length; k++) {
      const i = (kept[k] * WARP + l) * 2;
      mix(words[i]);
      mix(words[i + 1]);
    }
  }
}

/** Everything of a warp its future depends on: lane states, live lanes, scheduling rotation, reconvergence stack. */
function digestWarp(w: WarpState, kept: Int32Array, mix: (x: number) => void): void {
  for (let l = 0; l < WARP; l++) mix(w.status[l]);
  mixLiveLanes(w, kept, mix);
  mix(w.rot);
  for (const e of w.stack) {
    mix(e.pc);
    mix(e.mask);
    mix(e.rpc);
  }
}

/** Everything a launch's future depends on: warps, memory, weak-memory state, blocks to start. */
function launchDigest(resident: BlockState[], kept: Int32Array, env: GridEnvironment, nextBlock: number): number {
  let h = 0x811c9dc5;
  const mix = (x: number): void => {
    h = Math.imul(h ^ (x | 0), 0x01000193);
    h = Math.imul(h ^ ((x / 4294967296) | 0), 0x01000193);
  };
  mix(nextBlock);
  for (const b of resident) {
    mix(b.ctx.blockLinear);
    for (const w of b.warps) digestWarp(w, kept, mix);
  }
  env.memory.digest(mix);
  env.weak?.digest(mix);
  // Output printed so far is part of the outcome.
  for (const o of env.runtime.output) for (let i = 0; i < o.text.length; i++) mix(o.text.charCodeAt(i));
  return h >>> 0;
}

/** Threads keep running but nothing changes: they wait for a write that cannot come. */
function spinFinding(
  req: LaunchRequest,
  kernel: CompiledFunction,
  hot: Float64Array,
  idle: number,
  r: { started: number; blocks: number; occ: NonNullable<ReturnType<typeof occupancy>>; device: DeviceConfig },
): GridFinding {
  const range = hottestRange(kernel, hot) ?? req.range;
  const waiting = r.blocks - r.started;
  const why = waiting > 0
    ? `: ${waiting} of ${r.blocks} blocks never started, because only ${r.occ.residentBlocks} can be resident on ${r.device.name} (${r.occ.blocksPerSM} per SM on ${r.device.smCount} SMs, limited by ${r.occ.limitedBy}) and the resident ones wait for them`
    : ': every thread of the launch that could write what they wait for is itself waiting (and the host program does not run while a launch runs here, so a kernel that waits for the host to write pinned or managed memory waits forever)';
  return { kind: 'deadlock', message: `the running threads spin at line ${range.start.line + 1} for ${idle} thread-steps while no memory changes${why}`, range };
}

/** The source range of the most executed block that has code of its own (not a bare jump). */
function hottestRange(kernel: CompiledFunction, hot: Float64Array): Range | undefined {
  let best = -1;
  for (let i = 0; i < hot.length; i++) {
    const b = kernel.blocks[i];
    if (!b.ranges.length && !termRange(b)) continue;
    if (best < 0 || hot[i] > hot[best]) best = i;
  }
  if (best < 0) return undefined;
  const b = kernel.blocks[best];
  return b.ranges[0] ?? termRange(b);
}

function termRange(b: Block): Range | undefined {
  const t = b.term;
  return t.kind === 'barrier' || t.kind === 'collective' ? t.range : undefined;
}

export interface GridFinding {
  kind: string;
  message: string;
  range?: Range;
  block?: [number, number, number];
  thread?: [number, number, number];
}

/** What a check made before a launch sees: the memory and the program's globals as they are. */
export type LaunchEnvironment = Pick<GridEnvironment, 'memory' | 'globals'>;

/**
 * A check a launch goes through before it runs, which may find that it would never end (the
 * fairness search). The caller gives it: the machine and the host runner do not know the analysis.
 */
export type LaunchCheck = (req: LaunchRequest, env: LaunchEnvironment) => GridFinding | undefined;

export type SchedulerKind = 'round-robin' | 'greedy-then-oldest' | 'random';

/**
 * Thrown out of a launch when the thread's interrupt check says the run is no longer wanted
 * (the editor's worker: an edit made it stale). Nothing catches it on the way out: the run ends.
 */
export class RunInterrupted extends Error {
  constructor() {
    super('the run was interrupted');
  }
}

let interrupted: (() => boolean) | undefined;

/**
 * The check every launch of this thread makes between scheduling rounds (a shared flag another
 * thread sets, so that a busy run sees it at once); undefined, none.
 */
export function setRunInterrupt(check: (() => boolean) | undefined): void {
  interrupted = check;
}

/** Scheduling rounds between two interrupt checks. */
const INTERRUPT_ROUNDS = 64;

export interface GridOptions {
  device: DeviceConfig;
  /** Thread-steps the launch may take before it is stopped. */
  stepBudget: number;
  /** Which warp runs next: round-robin, greedy-then-oldest, or seeded random. */
  scheduler?: SchedulerKind;
  /**
   * How the lanes of a warp advance: `independent` (Volta and later: diverged groups advance
   * separately) or `lockstep` (pre-Volta SIMT: one group at a time, reconverging at the
   * immediate post-dominator through a stack).
   */
  model?: 'independent' | 'lockstep';
  /** The seed of the random scheduler; the same seed gives the same interleaving. */
  seed?: number;
  /** The random scheduler's decisions come from here instead (exhaustive exploration). */
  chooser?: Chooser;
  /**
   * Called at every decision with more than one option, with a digest of the launch's state
   * (warps, memory, weak-memory state), so an explorer can merge repeated states.
   */
  onDecision?: (digest: () => number) => void;
  /** A launch of more threads than this is refused before it starts. */
  maxThreads?: number;
  /** Simulate a sample of a big grid's blocks instead of all of them. */
  sampleBlocks?: BlockSampling;
  /** How blocks run: compiled to JS (default), or step by step through the closures (the reference). */
  execution?: BlockExecution;
}

export type { BlockExecution };

export interface GridOutcome {
  completed: boolean;
  steps: number;
  findings: GridFinding[];
  /** The launch ran a sample of its blocks. */
  sampled?: SampledLaunch;
  /** A launch the tool made (LaunchRequest.entry) ran past the device's per-block limits: what the device would have said. */
  beyondDevice?: string;
}

/**
 * The most threads a block may have in the simulator, whatever the device allows: a launch the
 * tool makes may go this far (the detectors size their per-warp tables by it, sims/detect/lanes.ts).
 */
export const MAX_BLOCK_THREADS = 2048;

type BarrierTerm = Extract<Block['term'], { kind: 'barrier' }>;
type CollectiveTerm = Extract<Block['term'], { kind: 'collective' }>;

interface WarpState extends Lanes {
  pc: Int32Array;
  status: Uint8Array;
  /** The barrier each waiting lane stands at, and its predicate for _count/_and/_or. */
  waitingAt: (BarrierTerm | undefined)[];
  pred: Float64Array;
  /** The warp-wide operation each lane waits in, until all lanes of its mask arrive. */
  inCollective: (CollectiveTerm | undefined)[];
  /** Scratch: the lanes of the group being run. */
  group: Int32Array;
  /** Independent scheduling: the lane the next group search starts from (fairness). */
  rot: number;
  /** Lockstep: the reconvergence stack, top last. */
  stack: { pc: number; mask: number; rpc: number }[];
  /** Index of the warp within its block, and how many places its live lanes stand at. */
  index: number;
  paths: number;
  /**
   * With events: the places (pcs) of the live lanes, `paths` of them, and how many lanes stand
   * at each. Kept up to date by the jumps and branches of runGroup, the common steps of a
   * diverged warp, so that they need no scan of all 32 lanes; anything else that moves lanes
   * clears `pathsKnown` and the next scan (tracePaths) makes the table again.
   */
  pathPcs: Int32Array;
  pathLanes: Int32Array;
  pathsKnown: boolean;
  /** Lanes that have not exited. */
  live: number;
  /** The last group was every live lane, and it went on to one block: it is the next group too. */
  together: boolean;
  /** The last group's lanes all went on to one block (a jump, or a branch every lane took one way). */
  oneWay: boolean;
  /** Lanes waiting at a warp operation for the rest of its mask (completeCollectives has none to look at when 0). */
  atCollective: number;
  /** Independent scheduling: lanes at different calls of an `anySite` operation (__syncwarp) meet. */
  independent: boolean;
}

interface BlockState {
  index: [number, number, number];
  warps: WarpState[];
  ctx: RunContext;
  divergenceReported: Set<BarrierTerm>;
  /** Shared by the launch's blocks: threads that have finished. */
  stats: { exited: number };
  /** Did some thread exit while others are waiting at a barrier? */
  exitedBeforeBarrier(): boolean;
  /**
   * The thread (warp · 32 + lane) that last kept the block's barrier closed: checked first, as it
   * is most often still running (a block is asked after every turn of its warps).
   */
  barrierHint: number;
}

export interface GridEnvironment {
  device: DeviceConfig;
  memory: Memory;
  runtime: CudaRuntime;
  globals: RunContext['globals'];
  events?: EventListener;
  /** A weak memory model the launch's loads, stores and fences go through. */
  weak?: WeakMemory;
  /** Where device code's launches go (RunContext.deviceLaunches). */
  deviceLaunches?: LaunchRequest[];
}

/**
 * Why a launch is refused up front, or the occupancy it gets. `simulatedBlocks`: the blocks it
 * will run (fewer than the grid's when sampled), which is what the thread limit bounds. A launch
 * the tool made (LaunchRequest.entry) whose blocks the device refuses runs one block per SM, up
 * to MAX_BLOCK_THREADS, and `beyondDevice` says what the device would have said.
 */
function launchProblem(req: LaunchRequest, device: DeviceConfig, maxThreadsOption: number | undefined, simulatedBlocks?: number): string | { occ: NonNullable<ReturnType<typeof occupancy>>; beyondDevice?: string } {
  const { kernel, grid, block } = req;
  const threads = block[0] * block[1] * block[2];
  const blocks = grid[0] * grid[1] * grid[2];
  if (threads < 1 || blocks < 1 || [...grid, ...block].some((d) => !Number.isInteger(d) || d < 1)) return `invalid launch configuration <<<(${grid.join(', ')}), (${block.join(', ')})>>>: every dimension must be at least 1`;
  for (let i = 0; i < 3; i++) if (grid[i] > device.maxGridDim[i]) return `grid size ${grid[i]} in ${AXES[i]} exceeds the ${device.maxGridDim[i]} that ${device.name} allows`;
  const sharedBytes = kernel.sharedSize + req.dynamicShared;
  const maxThreads = maxThreadsOption ?? DEFAULT_MAX_THREADS;
  if (threads * (simulatedBlocks ?? blocks) > maxThreads) return `the launch asks for ${threads * blocks} threads; the simulator's limit is ${maxThreads} (set a larger limit, launch fewer blocks, or simulate a sample of them: --sample-blocks N)`;
  const refused = blockShapeProblem(device, block, threads, sharedBytes);
  const occ = refused === undefined ? occupancy(device, threads, sharedBytes) : undefined;
  if (occ) return { occ };
  const problem = refused ?? `one block of ${threads} threads does not fit on an SM of ${device.name}`;
  // The tool's own launch of a verifier's configuration: one block per SM, as large as it asks.
  if (!req.entry) return problem;
  if (threads > MAX_BLOCK_THREADS) return `${problem}; a kernel run on its own may have blocks of up to ${MAX_BLOCK_THREADS} threads in the simulator`;
  return { occ: { blocksPerSM: 1, residentBlocks: device.smCount, limitedBy: 'threads' }, beyondDevice: problem };
}

const AXES = ['x', 'y', 'z'];

/** Why the device refuses blocks of this shape (dimensions, threads, shared memory), or undefined. */
function blockShapeProblem(device: DeviceConfig, block: [number, number, number], threads: number, sharedBytes: number): string | undefined {
  for (let i = 0; i < 3; i++) if (block[i] > device.maxBlockDim[i]) return `block size ${block[i]} in ${AXES[i]} exceeds the ${device.maxBlockDim[i]} that ${device.name} allows`;
  if (threads > device.maxThreadsPerBlock) return `${threads} threads per block exceed the ${device.maxThreadsPerBlock} that ${device.name} allows`;
  if (sharedBytes > device.sharedMemPerBlock) return `${sharedBytes} bytes of shared memory per block exceed the ${device.sharedMemPerBlock} that ${device.name} allows`;
  return undefined;
}

export function runGrid(req: LaunchRequest, env: GridEnvironment, options: GridOptions): GridOutcome {
  const findings: GridFinding[] = [];
  const { kernel, grid, block } = req;
  if (options.onDecision) keepEveryRegister(kernel);
  const device = options.device;
  const threads = block[0] * block[1] * block[2];
  const blocks = grid[0] * grid[1] * grid[2];
  const queue = new BlockQueue(blocks);
  const sampling = options.sampleBlocks;
  const sampleSeed = Math.imul(options.seed ?? 1, 0x9e3779b1) ^ 0x5bd1e995;
  // Sampled from the start: always when asked so, and when the whole grid has more threads
  // than the simulator runs (the only other answer would be to refuse it).
  if (sampling && blocks > sampling.blocks && (!sampling.whenOverBudget || threads * blocks > (options.maxThreads ?? DEFAULT_MAX_THREADS))) queue.sampleRest(sampling.blocks, sampleSeed);
  const refused = launchProblem(req, device, options.maxThreads, queue.simulated);
  if (typeof refused === 'string') {
    findings.push({ kind: 'launch-configuration', message: refused, range: req.range });
    env.runtime.launchFailed('cudaErrorInvalidConfiguration');
    return { completed: false, steps: 0, findings };
  }
  const { occ, beyondDevice } = refused;
  const tooBig = launchMemoryProblem(req, kernel, threads, Math.min(queue.simulated, occ.residentBlocks), env.memory);
  if (tooBig) {
    findings.push({ kind: 'memory-limit', message: tooBig, range: req.range });
    env.runtime.launchFailed('cudaErrorMemoryAllocation');
    return { completed: false, steps: 0, findings };
  }

  const scheduler = options.scheduler ?? 'round-robin';
  const chooser = options.chooser ?? randomChooser(seededRandom(options.seed ?? 1));
  const weak = env.weak;

  // `what` tells apart the decisions taken in one state (propagate or not; which warp; what).
  const decide = (n: number, resident: BlockState[], what: number): number => {
    if (n <= 1) return 0;
    options.onDecision?.(() => (launchDigest(resident, runLocal(kernel).kept, env, queue.started) ^ Math.imul(what + 1, 0x9e3779b1)) >>> 0);
    return chooser.choose(n);
  };
  // Random scheduling switches warps after every block of the CFG, so interleavings vary.
  const quantum = scheduler === 'random' ? 1 : scheduler === 'greedy-then-oldest' ? GTO_QUANTUM : QUANTUM;
  const hot = new Float64Array(kernel.blocks.length);
  const lockstep = options.model === 'lockstep';
  const group = lockstep ? lockstepGroup : readyGroup;
  const execution = options.execution ?? 'compiled';
  // Independent scheduling only: lockstep's reconvergence stack moves at every block. Undefined
  // until known (convergedRun: cached, not yet hot, or none).
  let converged: ConvergedRun | null | undefined = lockstep ? null : undefined;
  const tally = { blocks: 0, free: 0, steps: 0 };
  // Blocks that do not count towards a warp's turn (up to INVISIBLE_RUN of them a turn).
  // Round-robin under independent scheduling: register-only blocks. When a loop of arithmetic
  // runs cannot matter to other warps, and a warp that computes keeps the SM, as a GPU's warp
  // does until it waits on memory; so the converged run takes a loop in one go (pureLoops.ts).
  // Lockstep warps run block by block whatever their turn, and keep the schedule they had.
  // Random: blocks without a memory access, whose interleaving changes nothing (under a weak
  // model also an access to memory no other thread touched, known only as it runs: such a
  // warp runs block by block).
  const freeBlocks = lockstep ? undefined : scheduler === 'round-robin' ? Uint8Array.from(kernel.blocks, (b) => +registerOnly(b)) : scheduler === 'random' && !weak ? Uint8Array.from(kernel.blocks, (b) => +!b.visible) : undefined;
  let steps = 0;
  let nextMemoryCheck = MEMORY_CHECK_STEPS;
  const resident: BlockState[] = [];
  // Under a weak model, values still held for a block's memory and threads drain at the
  // launch's end: nothing of a block is freed or handed on before then.
  const pool = weak ? undefined : new BlockPool(env.memory, kernel.frameSize, kernel.numRegs);
  const events = env.events;
  const stats = { exited: 0 };
  const admit = (): void => {
    // Sampled when it has to be: once a block has finished, the steps so far say what the
    // whole grid would take (the started blocks ran side by side).
    if (sampling?.whenOverBudget && !queue.sampled && queue.remaining > 0 && resident.length < queue.started && (steps / queue.started) * blocks > options.stepBudget) {
      queue.sampleRest(sampling.blocks, sampleSeed);
    }
    while (resident.length < occ.residentBlocks && queue.remaining > 0) {
      const linear = queue.take();
      events?.({ kind: 'block-start', block: linear });
      const started = startBlock(linear, req, env, kernel, threads, stats, pool);
      for (const w of started.warps) w.independent = !lockstep;
      resident.push(started);
    }
  };
  const outcome = (completed: boolean): GridOutcome => ({ completed, steps, findings, ...(queue.sampled ? { sampled: { simulated: queue.simulated, blocks } } : {}), ...(beyondDevice ? { beyondDevice } : {}) });
  admit();
  weak?.beginLaunch(threads, options.onDecision ? (n, what) => decide(n, resident, what) : undefined);
  let rr = 0;
  const chooseWarp = (n: number): number => decide(n, resident, 0);
  // Progress monitor: memory that changes, threads that finish, barriers that open. Without
  // any of these for a long stretch, every running thread is spinning on memory nobody
  // changes: a deadlock, however busy it looks.
  let barriersOpened = 0;
  const hashedWords = Math.min(queue.simulated, occ.residentBlocks) * threads * kernel.numRegs * 2;
  const livelockWindow = Math.min(Math.max(LIVELOCK_WINDOW, LIVELOCK_STEPS_PER_WORD * hashedWords), options.stepBudget / 64);
  const seenStates = new Set<number>();
  let sinceSteps = 0;
  let lastVersion = env.memory.version;
  let lastProgress = 0;
  let finished = 0;
  let round = 0;
  while (resident.length > 0) {
    if (interrupted !== undefined && ++round % INTERRUPT_ROUNDS === 0 && interrupted()) throw new RunInterrupted();
    let progressed = false;
    // The random scheduler runs one randomly chosen warp per turn, for one block of the CFG
    // (which ends at every memory access), so seeds change who reads and writes first.
    let pick: { block: BlockState; warp: WarpState } | undefined;
    if (scheduler === 'random') pick = pickReadyWarp(resident, chooseWarp);
    const visit = pick ? [pick.block] : scheduler === 'greedy-then-oldest' ? resident : resident.map((_, k) => resident[(rr + k) % resident.length]);
    for (const b of visit) {
      const warps = pick ? [pick.warp] : b.warps;
      for (const w of warps) {
        let n = group(w);
        if (n === 0) continue;
        progressed = true;
        try {
          // A warp keeps the SM for a quantum of blocks (or until it waits), so scheduling
          // costs little; other warps still get their turn, so spin loops make progress.
          let invisible = 0;
          for (let q = 0; q < quantum && n > 0; q++) {
            // A warp that runs together runs compiled blocks back to back (same counts,
            // same order); it comes back at a block that needs the executor, or when split.
            const together = n === w.live && (!pick || !!freeBlocks) && (!events || w.paths === 1);
            // So does a diverged group at a free block under round-robin, for its stretch
            // (below): its free blocks and the one counted block that ends it.
            const stretch = !together && !pick && !events && freeBlocks !== undefined && freeBlocks[w.pc[w.group[0]]] === 1 && invisible < INVISIBLE_RUN;
            if ((together || stretch) && converged === undefined) converged = convergedRun(kernel, execution);
            if ((together || stretch) && converged) {
              tally.blocks = 0;
              tally.free = 0;
              tally.steps = 0;
              let split: number;
              try {
                split = converged(w, w.group, n, w.pc, w.pc[w.group[0]], together ? quantum - q : 1, hot, tally, freeBlocks ? INVISIBLE_RUN - invisible : 0, freeBlocks ?? NO_FREE_BLOCKS);
              } finally {
                steps += tally.steps;
              }
              if (tally.blocks > 0) {
                w.rot = nextTurn(w, n);
                invisible += tally.free;
                q += tally.blocks - tally.free - 1;
                // Every live lane moved: the table of places is made again when next needed.
                w.pathsKnown = false;
                if (split >= 0) {
                  w.together = false;
                  if (events) tracePaths(w, b, kernel.blocks[split]);
                  n = group(w);
                } else if (stretch && tally.blocks > tally.free) n = group(w);
                continue;
              }
            }
            const ran = w.pc[w.group[0]];
            hot[ran] += n;
            steps += runGroup(kernel, w, n, findings, b, execution);
            if (lockstep) lockstepAdvance(w, kernel, ran, n);
            else w.rot = nextTurn(w, n);
            // Random scheduling switches only after a step other threads can see (a memory
            // access or fence ends its block): interleaving register arithmetic, or accesses
            // to memory no other thread touches, changes nothing.
            if (pick && (!kernel.blocks[ran].visible || weak?.lastAccessPrivate) && q + 1 >= quantum && invisible++ < INVISIBLE_RUN) q--;
            else if (!pick && freeBlocks?.[ran] && invisible < INVISIBLE_RUN) {
              invisible++;
              q--;
              // Under round-robin a diverged group that went on to one block after a free one
              // keeps going: a stretch of its register arithmetic, which no other lane can see
              // in any order, is one turn of the group rather than one turn per block, and the
              // converged run takes it in one go.
              if (!w.together && w.oneWay) continue;
            }
            // Every live lane ran and went to one place: the next group is the same lanes.
            if (lockstep || !w.together) n = group(w);
          }
        } catch (e) {
          if (e instanceof MemoryLimitExceeded) {
            findings.push({ kind: 'memory-limit', message: e.message, range: e.range ?? req.range, block: b.index });
            env.runtime.deviceFault('cudaErrorLaunchFailure');
            return outcome(false);
          }
          if (!(e instanceof DeviceFault)) throw e;
          const lane = e.lane ?? w.group[0];
          findings.push({
            kind: e.fault.kind,
            message: e.fault.message,
            range: e.range,
            block: b.index,
            thread: [w.tid[0][lane], w.tid[1][lane], w.tid[2][lane]],
          });
          env.runtime.deviceFault(e.fault.kind === 'assertion-failed' ? 'cudaErrorAssert' : e.fault.kind === 'misaligned' ? 'cudaErrorMisalignedAddress' : 'cudaErrorIllegalAddress');
          return outcome(false);
        }
        if (steps > options.stepBudget) {
          findings.push(budgetFinding(req, kernel, hot, options.stepBudget, { resident: resident.length, started: queue.started, blocks: queue.simulated, occ, device }));
          env.runtime.deviceFault('cudaErrorLaunchFailure');
          return outcome(false);
        }
        if (steps >= nextMemoryCheck) {
          nextMemoryCheck = steps + MEMORY_CHECK_STEPS;
          const over = env.memory.account.overLimit();
          if (over) {
            findings.push({ kind: 'memory-limit', message: `this launch of ${kernel.name} was stopped: ${over}`, range: req.range });
            env.runtime.deviceFault('cudaErrorLaunchFailure');
            return outcome(false);
          }
        }
      }
      if (releaseBarrier(b, findings)) barriersOpened++;
    }
    // With no warp ready, barriers that everyone reached still open (random mode visits one
    // block per turn, so check them all).
    if (!progressed) for (const b of resident) if (releaseBarrier(b, findings)) {
      progressed = true;
      barriersOpened++;
    }
    if (!progressed && queue.remaining === 0 && releaseGridBarrier(resident, findings, stats.exited > 0)) {
      progressed = true;
      barriersOpened++;
    }
    rr++;
    if (env.memory.version !== lastVersion || stats.exited !== finished || barriersOpened > 0) {
      lastVersion = env.memory.version;
      finished = stats.exited;
      barriersOpened = 0;
      lastProgress = steps;
      seenStates.clear();
      // The hot code of a hang is what runs after the last progress, not before it.
      hot.fill(0);
    } else if (steps - lastProgress > livelockWindow) {
      // Nothing changed for a while. A long computation changes its registers; a spin loop
      // comes back to exactly a state it was in before (samples may fall at different points
      // of the loop, so remember several). Memory unchanged and a state repeated: a cycle.
      const state = stateHash(resident, runLocal(kernel).kept);
      if (seenStates.has(state)) {
        findings.push(spinFinding(req, kernel, hot, steps - sinceSteps, { started: queue.started, blocks: queue.simulated, occ, device }));
        env.runtime.deviceFault('cudaErrorLaunchFailure');
        return outcome(false);
      }
      if (seenStates.size === 0) sinceSteps = lastProgress;
      if (seenStates.size < 64) seenStates.add(state);
      lastProgress = steps;
    }
    // Finished blocks leave their SM; waiting blocks take their place.
    for (let i = resident.length - 1; i >= 0; i--) {
      if (resident[i].warps.every((w) => w.status.every((s) => s === 0 || s === EXITED))) {
        events?.({ kind: 'block-end', block: resident[i].ctx.blockLinear });
        // Under a weak model, values still held for the block's memory drain at the launch's end.
        pool?.give(resident[i]);
        resident.splice(i, 1);
      }
    }
    admit();
    if (!progressed && resident.length > 0) {
      findings.push(deadlockFinding(resident, req, queue.remaining));
      env.runtime.deviceFault('cudaErrorLaunchFailure');
      return outcome(false);
    }
  }
  // The launch ends: every value reaches memory, in an order the chooser picks.
  if (weak) {
    weak.drain((n) => decide(n, resident, 1));
    weak.endLaunch();
  }
  pool?.retire();
  return outcome(true);
}

/** Thread-steps between two looks at the run's memory as a whole (see MemoryAccount.overLimit). */
const MEMORY_CHECK_STEPS = 1 << 18;

/**
 * Why the blocks that run at once would not fit in the run's memory (their shared memory and
 * every thread's local memory), said before anything is allocated; undefined when they fit.
 */
function launchMemoryProblem(req: LaunchRequest, kernel: CompiledFunction, threads: number, concurrent: number, memory: Memory): string | undefined {
  const shared = kernel.sharedSize + req.dynamicShared;
  const local = kernel.frameSize * threads * concurrent;
  const need = local + shared * concurrent;
  if (memory.account.fits(need)) return undefined;
  const parts: string[] = [];
  if (kernel.frameSize > 0) parts.push(`${formatBytes(kernel.frameSize)} of local memory per thread × ${threads * concurrent} threads = ${formatBytes(local)}`);
  if (shared > 0) parts.push(`${formatBytes(shared)} of shared memory per block × ${concurrent} blocks = ${formatBytes(shared * concurrent)}`);
  const held = memory.account.allocatedBytes;
  return `this launch of ${kernel.name} needs ${parts.join(' and ')}${held > 0 ? `, beside the ${formatBytes(held)} the program holds` : ''}; the memory limit is ${formatBytes(memory.account.limit)}`;
}

/**
 * What finished blocks leave behind, for blocks yet to start: their warps' arrays and their
 * threads' local memory — as on a GPU, where a new block takes the slots of the block that left
 * the SM. A grid of thousands of blocks otherwise makes a dozen typed arrays per warp and one
 * allocation per thread, which cost more than running short kernels. Everything taken is reset
 * as new (zeroed registers and frames), so a run does not depend on what a block was given. A
 * pointer into the frame of a thread that has exited reaches the frame's new owner, as on
 * hardware; the frames left at the launch's end are freed (a later access is a use after free).
 */
class BlockPool {
  private readonly frames: number[] = [];
  private readonly warps: WarpState[] = [];

  constructor(
    private readonly memory: Memory,
    private readonly frameSize: number,
    private readonly numRegs: number,
  ) {}

  frame(label: string, owner: number): number {
    const p = this.frames.pop();
    if (p === undefined) return this.memory.allocate('local', this.frameSize, { label, owner });
    const a = this.memory.allocation(pointerAllocation(p))!;
    a.bytes.fill(0);
    a.label = label;
    a.owner = owner;
    return p;
  }

  /** A finished warp's arrays, reset, or undefined when none is left. */
  warp(ctx: RunContext, index: number): WarpState | undefined {
    let w = this.warps.pop();
    if (!w) {
      w = spareWarps.get(this.numRegs)?.pop();
      if (!w) return undefined;
      spareBytes -= w.regs.buffer.byteLength;
    }
    w.regs.fill(0);
    w.frame.fill(0);
    for (const t of w.tid) t.fill(0);
    w.ctx = ctx;
    w.pc.fill(0);
    w.status.fill(0);
    w.pred.fill(0);
    w.waitingAt.fill(undefined);
    w.inCollective.fill(undefined);
    w.group.fill(0);
    w.rot = 0;
    w.stack = [];
    w.index = index;
    w.warp = index;
    w.paths = 1;
    w.pathsKnown = false;
    w.live = 0;
    w.together = false;
    w.oneWay = false;
    w.atCollective = 0;
    return w;
  }

  /** A block finished: its shared memory is freed, its warps and frames kept for the next. */
  give(b: BlockState): void {
    const a = this.memory.allocation(pointerAllocation(b.ctx.shared));
    if (a) this.memory.retire(a);
    for (const w of b.warps) {
      for (let l = 0; l < WARP; l++) if (w.frame[l]) this.frames.push(w.frame[l]);
      this.warps.push(w);
    }
  }

  /** The launch ends: the frames no thread holds are freed, the warps kept for later launches. */
  retire(): void {
    for (const p of this.frames) {
      const a = this.memory.allocation(pointerAllocation(p));
      if (a) this.memory.retire(a);
    }
    this.frames.length = 0;
    let spare = spareWarps.get(this.numRegs);
    if (!spare) spareWarps.set(this.numRegs, (spare = []));
    for (const w of this.warps) {
      const bytes = w.regs.buffer.byteLength;
      if (spareBytes + bytes > SPARE_WARP_BYTES) break;
      spareBytes += bytes;
      // A kept warp holds nothing of this run (its memory, its kernel) until it is taken again.
      w.ctx = DETACHED;
      w.waitingAt.fill(undefined);
      w.inCollective.fill(undefined);
      w.stack = [];
      spare.push(w);
    }
    this.warps.length = 0;
  }
}

/**
 * Warps of finished launches by register count, for the launches after them: a program
 * launches the same kernels again and again, and the editor runs it again on every edit, so the
 * same warps would be made anew each time. What is kept stays under SPARE_WARP_BYTES.
 */
const spareWarps = new Map<number, WarpState[]>();
const DETACHED = Object.freeze({}) as RunContext;
let spareBytes = 0;
const SPARE_WARP_BYTES = 8 << 20;

function startBlock(linear: number, req: LaunchRequest, env: GridEnvironment, kernel: CompiledFunction, threads: number, stats: { exited: number }, pool?: BlockPool): BlockState {
  const [gx, gy] = req.grid;
  const index: [number, number, number] = [linear % gx, Math.floor(linear / gx) % gy, Math.floor(linear / (gx * gy))];
  const sharedSize = kernel.sharedSize + req.dynamicShared;
  const layout = kernel.sharedLayout.map((r) => (r.offset < 0 ? { ...r, offset: kernel.sharedSize } : r));
  const shared = env.memory.allocate('shared', sharedSize, { label: `shared memory of block (${index.join(', ')})`, owner: linear, layout });
  // The optional fields are added after the literal, not spread into it: a literal that
  // starts with a spread of a non-empty object is built through V8's slow path (about 15 µs,
  // at every block start of a run with a detector).
  const ctx: RunContext = {
    device: env.device,
    blockLinear: linear,
    memory: env.memory,
    runtime: env.runtime,
    accessor: 'device',
    blockIdx: index,
    blockDim: req.block,
    gridDim: req.grid,
    shared,
    dynamicSharedOffset: kernel.sharedSize,
    globals: env.globals,
  };
  if (env.events) ctx.events = env.events;
  if (env.weak) ctx.weak = env.weak;
  if (env.deviceLaunches) ctx.deviceLaunches = env.deviceLaunches;
  const warps: WarpState[] = [];
  const [bx, by] = req.block;
  const params = kernel.paramRegs;
  const args = req.args;
  // threadIdx counted up, x fastest (no division per thread: `%` on a double is a call).
  let x = 0;
  let y = 0;
  let z = 0;
  for (let base = 0; base < threads; base += WARP) {
    const w: WarpState = pool?.warp(ctx, warps.length) ?? newWarp(kernel.numRegs, ctx, warps.length);
    const [tx, ty, tz] = w.tid;
    for (let l = 0; l < WARP && base + l < threads; l++) {
      tx[l] = x;
      ty[l] = y;
      tz[l] = z;
      if (++x === bx) {
        x = 0;
        if (++y === by) {
          y = 0;
          z++;
        }
      }
      w.status[l] = READY;
      if (kernel.frameSize > 0) {
        const label = `local memory of thread (${tx[l]}, ${ty[l]}, ${tz[l]})`;
        w.frame[l] = pool ? pool.frame(label, base + l) : env.memory.allocate('local', kernel.frameSize, { label, owner: base + l });
      }
      for (let i = 0; i < params.length; i++) w.regs[params[i] * WARP + l] = args[i];
    }
    let live = 0;
    for (let l = 0; l < WARP; l++) {
      if (w.status[l] !== READY) continue;
      live |= 1 << l;
      w.live++;
    }
    w.stack.push({ pc: 0, mask: live, rpc: -1 });
    warps.push(w);
    ctx.events?.({ kind: 'warp-start', block: linear, warp: w.index });
  }
  const exitedBeforeBarrier = (): boolean => warps.some((w) => w.status.some((st) => st === EXITED));
  return { index, warps, ctx, divergenceReported: new Set(), exitedBeforeBarrier, stats, barrierHint: 0 };
}

/**
 * A new warp, its typed arrays views of one buffer: one allocation instead of a dozen (a
 * typed array's own buffer costs more than the kernels of many short blocks run).
 */
function newWarp(numRegs: number, ctx: RunContext, index: number): WarpState {
  const buffer = new ArrayBuffer((numRegs + 2) * WARP * 8 + 7 * WARP * 4 + WARP);
  let at = 0;
  const doubles = (n: number): Float64Array => {
    const a = new Float64Array(buffer, at, n);
    at += n * 8;
    return a;
  };
  const ints = (): Int32Array => {
    const a = new Int32Array(buffer, at, WARP);
    at += WARP * 4;
    return a;
  };
  return {
    regs: doubles(numRegs * WARP),
    frame: doubles(WARP),
    pred: doubles(WARP),
    tid: [ints(), ints(), ints()],
    ctx,
    pc: ints(),
    group: ints(),
    pathPcs: ints(),
    pathLanes: ints(),
    status: new Uint8Array(buffer, at, WARP),
    waitingAt: new Array<BarrierTerm | undefined>(WARP),
    inCollective: new Array<CollectiveTerm | undefined>(WARP),
    rot: 0,
    stack: [],
    index,
    warp: index,
    paths: 1,
    pathsKnown: false,
    live: 0,
    together: false,
    oneWay: false,
    atCollective: 0,
    independent: true,
  };
}

/**
 * Where the next group of a warp that just ran its `n` lanes of `w.group` starts looking: the
 * first ready lane after them that was not among them. A lane after the group's last one could
 * be one of them again (a group of the lanes around a lane holding a lock, which spin at the
 * lock: lanes 0-4 and 6-31 around lane 5), and would keep the group's turn while the lock's
 * holder never runs. When every ready lane ran, the lane after the last one.
 */
function nextTurn(w: WarpState, n: number): number {
  const group = w.group;
  const after = (group[n - 1] + 1) & (WARP - 1);
  if (n === WARP) return after;
  let ran = 0;
  for (let i = 0; i < n; i++) ran |= 1 << group[i];
  for (let k = 0; k < WARP; k++) {
    const l = (after + k) & (WARP - 1);
    if (!((ran >>> l) & 1) && w.status[l] === READY) return l;
  }
  return after;
}

/** Fills `w.group` with the ready lanes standing at the first ready lane's block; returns how many. */
function readyGroup(w: WarpState): number {
  const status = w.status;
  const pcs = w.pc;
  const group = w.group;
  // Start from where the last group ended, so diverged groups take turns (a lane spinning
  // on a lock does not starve the lane that holds it).
  let pc = -1;
  for (let k = 0; k < WARP; k++) {
    const l = (w.rot + k) & (WARP - 1);
    if (status[l] === READY) {
      pc = pcs[l];
      break;
    }
  }
  if (pc < 0) return 0;
  let n = 0;
  for (let l = 0; l < WARP; l++) if (status[l] === READY && pcs[l] === pc) group[n++] = l;
  return n;
}

/** Lockstep: the group is the top of the reconvergence stack (its lanes that can run). */
function lockstepGroup(w: WarpState): number {
  const stack = w.stack;
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    let n = 0;
    let pending = false;
    for (let l = 0; l < WARP; l++) {
      if (!((top.mask >>> l) & 1)) continue;
      if (w.status[l] === READY) w.group[n++] = l;
      else if (w.status[l] !== EXITED) pending = true;
    }
    if (n > 0) return n;
    if (pending) return 0; // waiting at a barrier or in a warp operation
    stack.pop(); // every lane of this path has exited
  }
  return 0;
}

/** Lockstep: after a block ran, follow the lanes — push diverged paths, pop at reconvergence. */
function lockstepAdvance(w: WarpState, kernel: CompiledFunction, ran: number, n: number): void {
  const stack = w.stack;
  const top = stack[stack.length - 1];
  const targets = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const l = w.group[i];
    if (w.status[l] === EXITED) {
      for (const e of stack) e.mask &= ~(1 << l);
      continue;
    }
    targets.set(w.pc[l], (targets.get(w.pc[l]) ?? 0) | (1 << l));
  }
  if (targets.size === 1) top.pc = [...targets.keys()][0];
  else if (targets.size > 1) {
    const rpc = immediatePostDominators(kernel)[ran];
    const term = kernel.blocks[ran].term;
    top.pc = rpc;
    // The taken path runs first and the other waits (GPGPU-Sim's order): push it last.
    const thenPc = term.kind === 'branch' ? term.then : -1;
    const order = [...targets.entries()].sort((a, b) => (a[0] === thenPc ? 1 : 0) - (b[0] === thenPc ? 1 : 0));
    for (const [pc, mask] of order) stack.push({ pc, mask, rpc });
  }
  while (stack.length > 1 && stack[stack.length - 1].pc === stack[stack.length - 1].rpc) stack.pop();
}

/** Runs one block of the CFG for a group of lanes; returns the thread-steps taken. */
function runGroup(kernel: CompiledFunction, w: WarpState, n: number, findings: GridFinding[], b: BlockState, execution: BlockExecution): number {
  const g = w.group;
  const block: Block = kernel.blocks[w.pc[g[0]]];
  const steps = block.steps;
  let i = 0;
  const body = blockBody(kernel, block, execution);
  if (body) body(w, g, n);
  else {
    try {
      for (let s = 0; s < steps.length; s++) {
        const step = steps[s];
        for (i = 0; i < n; i++) step(w, g[i]);
      }
    } catch (e) {
      if (e instanceof DeviceFault) e.lane = g[i];
      throw e;
    }
  }
  const t = block.term;
  const pcs = w.pc;
  const from = pcs[g[0]];
  const events = b.ctx.events !== undefined;
  w.together = false;
  w.oneWay = false;
  switch (t.kind) {
    case 'jump':
      for (i = 0; i < n; i++) pcs[g[i]] = t.to;
      w.oneWay = true;
      w.together = n === w.live;
      if (events && w.pathsKnown) {
        movePaths(w, b, block, from, n, t.to, n, -1);
        return n * (steps.length + 1);
      }
      break;
    case 'branch': {
      const c = t.cond * WARP;
      const regs = w.regs;
      let taken = 0;
      for (i = 0; i < n; i++) {
        if (regs[c + g[i]]) {
          pcs[g[i]] = t.then;
          taken++;
        } else pcs[g[i]] = t.else;
      }
      w.oneWay = taken === 0 || taken === n;
      w.together = n === w.live && w.oneWay;
      if (events && w.pathsKnown) {
        movePaths(w, b, block, from, n, t.then, taken, t.else);
        return n * (steps.length + 1);
      }
      break;
    }
    case 'exit':
      for (i = 0; i < n; i++) w.status[g[i]] = EXITED;
      w.live -= n;
      if (w.ctx.weak) for (i = 0; i < n; i++) w.ctx.weak.exit(w, g[i]);
      b.stats.exited += n;
      completeCollectives(w); // lanes that leave may be the last ones a *_sync waits for
      break;
    case 'barrier':
      for (i = 0; i < n; i++) {
        const l = g[i];
        w.status[l] = AT_BARRIER;
        pcs[l] = t.to;
        w.waitingAt[l] = t;
        if (t.pred !== undefined) w.pred[l] = w.regs[t.pred * WARP + l];
      }
      checkBarrierDivergence(b, t, findings);
      break;
    case 'collective': {
      const lanes = Array.from(g.subarray(0, n));
      if (t.mask === undefined) {
        t.run(w, lanes);
        for (const l of lanes) pcs[l] = t.to;
      } else {
        for (const l of lanes) {
          w.status[l] = AT_COLLECTIVE;
          w.inCollective[l] = t;
        }
        w.atCollective += lanes.length;
      }
      completeCollectives(w);
      break;
    }
  }
  if (!events) return n * (steps.length + 1);
  // Lanes left, waited or were moved by others: the table of places is made again.
  if (t.kind !== 'jump' && t.kind !== 'branch') w.pathsKnown = false;
  // A converged warp can split only at a branch or an exit, and not when all its lanes ran
  // and branched one way (most loop iterations); a diverged one may merge anywhere.
  if (w.paths !== 1 || t.kind === 'exit' || (t.kind === 'branch' && !w.together)) tracePaths(w, b, block);
  return n * (steps.length + 1);
}

/** Events for a detector: divergence, reconvergence and the end of a warp. */
function tracePaths(w: WarpState, b: BlockState, ran: Block): void {
  // Distinct pcs of the live lanes and their lane counts, into the warp's table (no allocation).
  const pcs = w.pathPcs;
  const lanes = w.pathLanes;
  const status = w.status;
  const lanePcs = w.pc;
  let paths = 0;
  let live = 0;
  // Lanes at one place are mostly neighbours: a lane at the previous live lane's pc is no new path.
  let previous = -1;
  let k = 0;
  for (let l = 0; l < WARP; l++) {
    const s = status[l];
    if (s === 0 || s === EXITED) continue;
    live++;
    const pc = lanePcs[l];
    if (pc !== previous) {
      previous = pc;
      k = 0;
      while (k < paths && pcs[k] !== pc) k++;
      if (k === paths) {
        pcs[paths++] = pc;
        lanes[k] = 0;
      }
    }
    lanes[k]++;
  }
  w.pathsKnown = true;
  const events = b.ctx.events!;
  if (live === 0) {
    if (w.paths > 0) events({ kind: 'warp-end', block: b.ctx.blockLinear, warp: w.index });
    w.paths = 0;
    return;
  }
  pathsChanged(w, b, ran, paths);
}

/**
 * `n` lanes of the warp went from `from` to `to` (`moved` of them) and to `rest` (the others)
 * by a jump or a branch: the table of places follows them, and an event says when their number changed.
 */
function movePaths(w: WarpState, b: BlockState, ran: Block, from: number, n: number, to: number, moved: number, rest: number): void {
  const pcs = w.pathPcs;
  const lanes = w.pathLanes;
  let paths = w.paths;
  let k = 0;
  while (k < paths && pcs[k] !== from) k++;
  lanes[k] -= n;
  if (lanes[k] === 0) {
    paths--;
    pcs[k] = pcs[paths];
    lanes[k] = lanes[paths];
  }
  paths = addPath(pcs, lanes, paths, to, moved);
  paths = addPath(pcs, lanes, paths, rest, n - moved);
  pathsChanged(w, b, ran, paths);
}

function addPath(pcs: Int32Array, lanes: Int32Array, paths: number, pc: number, n: number): number {
  if (n === 0) return paths;
  let k = 0;
  while (k < paths && pcs[k] !== pc) k++;
  if (k === paths) {
    pcs[paths] = pc;
    lanes[paths] = n;
    return paths + 1;
  }
  lanes[k] += n;
  return paths;
}

function pathsChanged(w: WarpState, b: BlockState, ran: Block, paths: number): void {
  if (paths === w.paths) return;
  const range = ran.ranges[ran.ranges.length - 1];
  b.ctx.events!({ kind: paths > w.paths ? 'diverge' : 'reconverge', block: b.ctx.blockLinear, warp: w.index, paths, ...(range ? { range } : {}) });
  w.paths = paths;
}

/**
 * A *_sync intrinsic completes when every live lane its mask names has arrived at it; then it
 * runs once for all of them and they go on together (the warp has reconverged there).
 */
function completeCollectives(w: WarpState): void {
  if (w.atCollective === 0) return;
  for (let l = 0; l < WARP; l++) {
    if (w.status[l] !== AT_COLLECTIVE) continue;
    const t = w.inCollective[l];
    if (!t) continue;
    const mask = w.regs[t.mask! * WARP + l] >>> 0;
    // Since Volta, lanes at two __syncwarp calls of one mask meet there (a call in each branch).
    const anySite = w.independent && t.anySite === true;
    const meets = (u: CollectiveTerm | undefined, k: number): boolean => u === t || (anySite && u?.anySite === true && (w.regs[u.mask! * WARP + k] >>> 0) === mask);
    const lanes: number[] = [];
    let complete = true;
    for (let k = 0; k < WARP; k++) {
      if (!((mask >>> k) & 1) || w.status[k] === 0 || w.status[k] === EXITED) continue;
      if (w.status[k] === AT_COLLECTIVE && meets(w.inCollective[k], k)) lanes.push(k);
      else complete = false;
    }
    if (!complete) continue;
    // Only the mask's lanes take part: another group of the warp waiting at the same place with
    // its own mask (a warp reaching __match_any_sync in two groups, each with its __activemask())
    // completes on its own, or a vote or match would count lanes of both. A lane whose mask
    // leaves itself out (undefined behaviour) goes with this group rather than wait forever.
    for (let k = 0; k < WARP; k++) {
      if (w.inCollective[k] !== t || lanes.includes(k)) continue;
      if (!(((w.regs[t.mask! * WARP + k] >>> 0) >>> k) & 1)) lanes.push(k);
    }
    lanes.sort((a, b) => a - b);
    t.run(w, lanes);
    for (const k of lanes) {
      w.status[k] = READY;
      w.pc[k] = w.inCollective[k]!.to;
      w.inCollective[k] = undefined;
    }
    w.atCollective -= lanes.length;
  }
}

/**
 * __syncthreads must be reached by every thread of the block, at the same call. Threads
 * waiting at two different calls, or a barrier that some threads skip by exiting, is barrier
 * divergence: undefined behaviour that hangs or corrupts data on real GPUs. Reported once per
 * call site.
 */
function checkBarrierDivergence(b: BlockState, arrived: BarrierTerm, findings: GridFinding[]): void {
  if (b.divergenceReported.has(arrived)) return;
  for (const w of b.warps) {
    for (let l = 0; l < WARP; l++) {
      const other = w.status[l] === AT_BARRIER ? w.waitingAt[l] : undefined;
      if (other && other !== arrived && other.range.start.offset !== arrived.range.start.offset) {
        b.divergenceReported.add(arrived);
        findings.push({
          kind: 'barrier-divergence',
          message: `threads of block (${b.index.join(', ')}) wait at different __syncthreads calls (this one and line ${other.range.start.line + 1}); every thread of the block must reach the same barrier`,
          range: arrived.range,
          block: b.index,
          thread: [w.tid[0][l], w.tid[1][l], w.tid[2][l]],
        });
        return;
      }
    }
  }
}

/** When every live thread of a block waits at a barrier, they all go on. */
function releaseBarrier(b: BlockState, findings: GridFinding[]): boolean {
  const hinted = b.warps[b.barrierHint >> 5]?.status[b.barrierHint & (WARP - 1)];
  if (hinted === READY || hinted === AT_COLLECTIVE) return false;
  let waiting = 0;
  const warps = b.warps;
  for (let k = 0; k < warps.length; k++) {
    const status = warps[k].status;
    for (let l = 0; l < WARP; l++) {
      const s = status[l];
      // A thread still running, or waiting in a warp operation, has not reached the barrier.
      if (s === READY || s === AT_COLLECTIVE) {
        b.barrierHint = k * WARP + l;
        return false;
      }
      if (s === AT_BARRIER) waiting++;
    }
  }
  if (waiting === 0) return false;
  // The barrier the first waiting thread stands at; the reduction of __syncthreads_count/_and/_or
  // over all the block's waiting threads; and whether one waits at a grid-wide barrier, which
  // opens for the whole launch at once (releaseGridBarrier).
  let at: BarrierTerm | undefined;
  let count = 0;
  let all = true;
  for (const w of warps) {
    for (let l = 0; l < WARP; l++) {
      if (w.status[l] !== AT_BARRIER) continue;
      const t = w.waitingAt[l];
      if (t?.grid) return false;
      at ??= t;
      if (w.pred[l]) count++;
      else all = false;
    }
  }
  // Threads that exited without reaching the barrier make it divergent too.
  if (b.exitedBeforeBarrier() && at && !b.divergenceReported.has(at)) {
    b.divergenceReported.add(at);
    findings.push({ kind: 'barrier-divergence', message: `some threads of block (${b.index.join(', ')}) exited without reaching this __syncthreads; it is in divergent code`, range: at.range, block: b.index });
  }
  // Under weak memory, __syncthreads is also a block fence for every thread that waits.
  b.ctx.weak?.barrier(b.ctx.blockLinear);
  if (at) b.ctx.events?.({ kind: 'barrier', block: b.ctx.blockLinear, range: at.range });
  for (const w of b.warps) {
    for (let l = 0; l < WARP; l++) {
      if (w.status[l] !== AT_BARRIER) continue;
      w.status[l] = READY;
      const at = w.waitingAt[l];
      if (at?.dst !== undefined) w.regs[at.dst * WARP + l] = at.reduce === 'count' ? count : at.reduce === 'and' ? +all : +(count > 0);
      w.waitingAt[l] = undefined;
    }
  }
  return true;
}



/**
 * A grid-wide barrier opens when every live thread of the launch waits at one (the caller knows
 * every block has started; finished blocks have left `resident`). Each thread fences at device
 * scope, each block passes a barrier, and a detector hears that the launch is ordered across it.
 */
function releaseGridBarrier(resident: BlockState[], findings: GridFinding[], someExited: boolean): boolean {
  let at: BarrierTerm | undefined;
  for (const b of resident) {
    for (const w of b.warps) {
      for (let l = 0; l < WARP; l++) {
        const st = w.status[l];
        if (st === READY || st === AT_COLLECTIVE) return false;
        if (st !== AT_BARRIER) continue;
        const t = w.waitingAt[l];
        if (!t?.grid) return false;
        at ??= t;
      }
    }
  }
  if (!at) return false;
  if (someExited && !resident[0].divergenceReported.has(at)) {
    resident[0].divergenceReported.add(at);
    findings.push({ kind: 'barrier-divergence', message: 'some threads of the launch exited without reaching this grid-wide barrier; every thread of a cooperative launch must reach it', range: at.range });
  }
  for (const b of resident) {
    const weak = b.ctx.weak;
    if (weak) for (const w of b.warps) for (let l = 0; l < WARP; l++) if (w.status[l] === AT_BARRIER) weak.fence(w, l, 'device', at.range, true);
    weak?.barrier(b.ctx.blockLinear);
  }
  resident[0]?.ctx.events?.({ kind: 'grid-barrier', range: at.range });
  for (const b of resident) {
    b.ctx.events?.({ kind: 'barrier', block: b.ctx.blockLinear, range: at.range });
    for (const w of b.warps) {
      for (let l = 0; l < WARP; l++) {
        if (w.status[l] !== AT_BARRIER) continue;
        w.status[l] = READY;
        w.waitingAt[l] = undefined;
      }
    }
  }
  return true;
}

/**
 * One launch under a scheduler of the caller's own (the fairness search): blocks start when
 * the caller says, and each call runs one lane group of one warp for one block of the CFG.
 * runGrid does not go through this, so its own loop keeps its speed.
 */
export interface GridControl {
  readonly blocks: number;
  /** Has block `linear` been given its warps and memory (see `step`)? */
  started(linear: number): boolean;
  /** Every lane of the block has exited. */
  finished(linear: number): boolean;
  /**
   * The warps of the block that have a lane able to run (a barrier every live thread has
   * reached opens first). An unstarted block's warps all can; empty: the block is stuck.
   */
  readyWarps(linear: number): number[];
  /** Runs one group of warp `warp` of the block (starting the block first); the thread-steps it took. */
  step(linear: number, warp: number): number;
  /** Feeds the block's warps (program counters, lane states, registers, reconvergence stacks) to `mix`. */
  digest(linear: number, mix: (x: number) => void): void;
}

/** A GridControl for the launch, or undefined when runGrid would refuse its configuration. */
export function controlGrid(req: LaunchRequest, env: GridEnvironment, options: Pick<GridOptions, 'device' | 'model' | 'maxThreads' | 'execution'>): GridControl | undefined {
  const { kernel, grid, block } = req;
  const threads = block[0] * block[1] * block[2];
  const blocks = grid[0] * grid[1] * grid[2];
  if (typeof launchProblem(req, options.device, options.maxThreads) === 'string') return undefined;
  const lockstep = options.model === 'lockstep';
  const group = lockstep ? lockstepGroup : readyGroup;
  const execution = options.execution ?? 'compiled';
  const states: (BlockState | undefined)[] = new Array(blocks);
  const stats = { exited: 0 };
  // Findings of the explored schedules (barrier divergence) are the real run's to report.
  const ignored: GridFinding[] = [];
  const state = (linear: number): BlockState => {
    let b = states[linear];
    if (!b) {
      env.events?.({ kind: 'block-start', block: linear });
      b = states[linear] = startBlock(linear, req, env, kernel, threads, stats);
    }
    return b;
  };
  return {
    blocks,
    started: (linear) => states[linear] !== undefined,
    finished: (linear) => {
      const b = states[linear];
      return !!b && b.warps.every((w) => w.status.every((s) => s === 0 || s === EXITED));
    },
    readyWarps: (linear) => {
      const b = states[linear];
      if (!b) return Array.from({ length: Math.ceil(threads / WARP) }, (_, i) => i);
      const ready = (): number[] => b.warps.filter((w) => group(w) > 0).map((w) => w.index);
      const now = ready();
      if (now.length > 0) return now;
      if (!releaseBarrier(b, ignored)) {
        const all = states.every((x) => x !== undefined);
        const live = states.filter((x): x is BlockState => x !== undefined && x.warps.some((w) => w.status.some((st) => st !== 0 && st !== EXITED)));
        if (!all || !releaseGridBarrier(live, ignored, stats.exited > 0)) return now;
      }
      return ready();
    },
    step: (linear, warp) => {
      const b = state(linear);
      const w = b.warps[warp];
      const n = group(w);
      if (n === 0) return 0;
      const ran = w.pc[w.group[0]];
      const steps = runGroup(kernel, w, n, ignored, b, execution);
      if (lockstep) lockstepAdvance(w, kernel, ran, n);
      else w.rot = nextTurn(w, n);
      return steps;
    },
    digest: (linear, mix) => {
      const b = states[linear];
      if (!b) return;
      for (const w of b.warps) digestWarp(w, runLocal(kernel).kept, mix);
    },
  };
}
