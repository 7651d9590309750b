// Runs a kernel launch: blocks become resident on SMs as occupancy allows, each block's warps
// are scheduled round-robin, and within a warp the lanes that stand at the same block of the
// control-flow graph run it together, one step for all of them before the next (independent
// thread scheduling: diverged groups advance separately and merge when they meet again).
import type { Range } from '../frontend/source';
import type { CudaRuntime } from '../host/runtime';
import { WARP, type Block, type CompiledFunction, type Lanes, type LaunchRequest, type RunContext } from '../ir/ir';
import { DeviceFault } from './access';
import { occupancy, type DeviceConfig } from './devices';
import type { Memory } from './memory';

const READY = 1;
const AT_BARRIER = 2;
const EXITED = 3;
const AT_COLLECTIVE = 4;

/** Blocks of the CFG a warp runs before the scheduler moves to the next warp. */
const QUANTUM = 16;

export interface GridFinding {
  kind: string;
  message: string;
  range?: Range;
  block?: [number, number, number];
  thread?: [number, number, number];
}

export interface GridOptions {
  device: DeviceConfig;
  /** Thread-steps the launch may take before it is stopped. */
  stepBudget: number;
}

export interface GridOutcome {
  completed: boolean;
  steps: number;
  findings: GridFinding[];
}

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
}

interface BlockState {
  index: [number, number, number];
  warps: WarpState[];
  ctx: RunContext;
}

export interface GridEnvironment {
  memory: Memory;
  runtime: CudaRuntime;
  globals: RunContext['globals'];
}

export function runGrid(req: LaunchRequest, env: GridEnvironment, options: GridOptions): GridOutcome {
  const findings: GridFinding[] = [];
  const { kernel, grid, block } = req;
  const device = options.device;
  const threads = block[0] * block[1] * block[2];
  const blocks = grid[0] * grid[1] * grid[2];
  const bad = (message: string): GridOutcome => {
    findings.push({ kind: 'launch-configuration', message, range: req.range });
    env.runtime.launchFailed('cudaErrorInvalidConfiguration');
    return { completed: false, steps: 0, findings };
  };
  if (threads < 1 || blocks < 1 || [...grid, ...block].some((d) => !Number.isInteger(d) || d < 1)) return bad(`invalid launch configuration <<<(${grid.join(', ')}), (${block.join(', ')})>>>: every dimension must be at least 1`);
  if (threads > device.maxThreadsPerBlock) return bad(`${threads} threads per block exceed the ${device.maxThreadsPerBlock} that ${device.name} allows`);
  const sharedBytes = kernel.sharedSize + req.dynamicShared;
  if (sharedBytes > device.sharedMemPerBlock) return bad(`${sharedBytes} bytes of shared memory per block exceed the ${device.sharedMemPerBlock} that ${device.name} allows`);
  const occ = occupancy(device, threads, sharedBytes);
  if (!occ) return bad(`one block of ${threads} threads does not fit on an SM of ${device.name}`);

  let steps = 0;
  let nextBlock = 0;
  const resident: BlockState[] = [];
  const admit = (): void => {
    while (resident.length < occ.residentBlocks && nextBlock < blocks) resident.push(startBlock(nextBlock++, req, env, kernel, threads));
  };
  admit();
  let rr = 0;
  while (resident.length > 0) {
    let progressed = false;
    for (let k = 0; k < resident.length; k++) {
      const b = resident[(rr + k) % resident.length];
      for (const w of b.warps) {
        let n = readyGroup(w);
        if (n === 0) continue;
        progressed = true;
        try {
          // A warp keeps the SM for a quantum of blocks (or until it waits), so scheduling
          // costs little; other warps still get their turn, so spin loops make progress.
          for (let q = 0; q < QUANTUM && n > 0; q++) {
            steps += runGroup(kernel, w, n);
            n = readyGroup(w);
          }
        } catch (e) {
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
          return { completed: false, steps, findings };
        }
        if (steps > options.stepBudget) {
          findings.push({ kind: 'step-budget', message: `the launch did not finish within ${options.stepBudget} thread-steps`, range: req.range });
          env.runtime.deviceFault('cudaErrorLaunchFailure');
          return { completed: false, steps, findings };
        }
      }
      releaseBarrier(b);
    }
    rr++;
    // Finished blocks leave their SM; waiting blocks take their place.
    for (let i = resident.length - 1; i >= 0; i--) if (resident[i].warps.every((w) => w.status.every((s) => s === 0 || s === EXITED))) resident.splice(i, 1);
    admit();
    if (!progressed && resident.length > 0) {
      findings.push({ kind: 'deadlock', message: 'every unfinished thread is waiting at a barrier that the others can never reach', range: req.range });
      env.runtime.deviceFault('cudaErrorLaunchFailure');
      return { completed: false, steps, findings };
    }
  }
  return { completed: true, steps, findings };
}

function startBlock(linear: number, req: LaunchRequest, env: GridEnvironment, kernel: CompiledFunction, threads: number): BlockState {
  const [gx, gy] = req.grid;
  const index: [number, number, number] = [linear % gx, Math.floor(linear / gx) % gy, Math.floor(linear / (gx * gy))];
  const sharedSize = kernel.sharedSize + req.dynamicShared;
  const shared = env.memory.allocate('shared', sharedSize, { label: `shared memory of block (${index.join(', ')})`, owner: linear });
  const ctx: RunContext = {
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
  const warps: WarpState[] = [];
  const [bx, by] = req.block;
  for (let base = 0; base < threads; base += WARP) {
    const w: WarpState = {
      regs: new Float64Array(kernel.numRegs * WARP),
      frame: new Float64Array(WARP),
      tid: [new Int32Array(WARP), new Int32Array(WARP), new Int32Array(WARP)],
      ctx,
      pc: new Int32Array(WARP),
      status: new Uint8Array(WARP),
      pred: new Float64Array(WARP),
      waitingAt: new Array<BarrierTerm | undefined>(WARP),
      inCollective: new Array<CollectiveTerm | undefined>(WARP),
      group: new Int32Array(WARP),
    };
    for (let l = 0; l < WARP && base + l < threads; l++) {
      const t = base + l;
      w.tid[0][l] = t % bx;
      w.tid[1][l] = Math.floor(t / bx) % by;
      w.tid[2][l] = Math.floor(t / (bx * by));
      w.status[l] = READY;
      if (kernel.frameSize > 0) w.frame[l] = env.memory.allocate('local', kernel.frameSize, { label: `local memory of thread (${w.tid[0][l]}, ${w.tid[1][l]}, ${w.tid[2][l]})`, owner: t });
      kernel.paramRegs.forEach((r, i) => {
        w.regs[r * WARP + l] = req.args[i];
      });
    }
    warps.push(w);
  }
  return { index, warps, ctx };
}

/** Fills `w.group` with the ready lanes standing at the first ready lane's block; returns how many. */
function readyGroup(w: WarpState): number {
  const status = w.status;
  const pcs = w.pc;
  const group = w.group;
  let pc = -1;
  let n = 0;
  for (let l = 0; l < WARP; l++) {
    if (status[l] !== READY) continue;
    if (pc < 0) pc = pcs[l];
    if (pcs[l] === pc) group[n++] = l;
  }
  return n;
}

/** Runs one block of the CFG for a group of lanes; returns the thread-steps taken. */
function runGroup(kernel: CompiledFunction, w: WarpState, n: number): number {
  const g = w.group;
  const block: Block = kernel.blocks[w.pc[g[0]]];
  const steps = block.steps;
  let i = 0;
  try {
    for (let s = 0; s < steps.length; s++) {
      const step = steps[s];
      for (i = 0; i < n; i++) step(w, g[i]);
    }
  } catch (e) {
    if (e instanceof DeviceFault) e.lane = g[i];
    throw e;
  }
  const t = block.term;
  const pcs = w.pc;
  switch (t.kind) {
    case 'jump':
      for (i = 0; i < n; i++) pcs[g[i]] = t.to;
      break;
    case 'branch': {
      const c = t.cond * WARP;
      const regs = w.regs;
      for (i = 0; i < n; i++) pcs[g[i]] = regs[c + g[i]] ? t.then : t.else;
      break;
    }
    case 'exit':
      for (i = 0; i < n; i++) w.status[g[i]] = EXITED;
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
      }
      completeCollectives(w);
      break;
    }
  }
  return n * (steps.length + 1);
}

/**
 * A *_sync intrinsic completes when every live lane its mask names has arrived at it; then it
 * runs once for all of them and they go on together (the warp has reconverged there).
 */
function completeCollectives(w: WarpState): void {
  for (let l = 0; l < WARP; l++) {
    const t = w.inCollective[l];
    if (!t || w.status[l] !== AT_COLLECTIVE) continue;
    const mask = w.regs[t.mask! * WARP + l] >>> 0;
    const lanes: number[] = [];
    let complete = true;
    for (let k = 0; k < WARP; k++) {
      if (!((mask >>> k) & 1) || w.status[k] === 0 || w.status[k] === EXITED) continue;
      if (w.status[k] === AT_COLLECTIVE && w.inCollective[k] === t) lanes.push(k);
      else complete = false;
    }
    if (!complete) continue;
    // Lanes outside the mask that wait at the same place join too.
    for (let k = 0; k < WARP; k++) if (w.inCollective[k] === t && !lanes.includes(k)) lanes.push(k);
    lanes.sort((a, b) => a - b);
    t.run(w, lanes);
    for (const k of lanes) {
      w.status[k] = READY;
      w.pc[k] = t.to;
      w.inCollective[k] = undefined;
    }
  }
}

/** When every live thread of a block waits at a barrier, they all go on. */
function releaseBarrier(b: BlockState): void {
  let waiting = 0;
  for (const w of b.warps) {
    for (let l = 0; l < WARP; l++) {
      // A thread still running, or waiting in a warp operation, has not reached the barrier.
      if (w.status[l] === READY || w.status[l] === AT_COLLECTIVE) return;
      if (w.status[l] === AT_BARRIER) waiting++;
    }
  }
  if (waiting === 0) return;
  // The reduction of __syncthreads_count/_and/_or is over all the block's waiting threads.
  let count = 0;
  let all = true;
  for (const w of b.warps) for (let l = 0; l < WARP; l++) if (w.status[l] === AT_BARRIER) {
    if (w.pred[l]) count++;
    else all = false;
  }
  for (const w of b.warps) {
    for (let l = 0; l < WARP; l++) {
      if (w.status[l] !== AT_BARRIER) continue;
      w.status[l] = READY;
      const at = w.waitingAt[l];
      if (at?.dst !== undefined) w.regs[at.dst * WARP + l] = at.reduce === 'count' ? count : at.reduce === 'and' ? +all : +(count > 0);
      w.waitingAt[l] = undefined;
    }
  }
}


