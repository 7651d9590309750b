// The executable form of a function: a control-flow graph of basic blocks whose steps are JS
// closures over a warp's register file. A step runs for one lane; the executor runs each step
// for every active lane of a group before the next step (SIMT), so a block is one instruction
// stream shared by the lanes that reached it together. Registers live in one Float64Array per
// warp (register r of lane l at r * 32 + l): no per-lane objects, no per-thread coroutines.
//
// Every step and terminator keeps the source range of the code it came from, which is what a
// finding (race, fault, deadlock) points at.
import type * as A from '../frontend/ast';
import type { Range } from '../frontend/source';
import type { Type } from '../frontend/types';
import type { DeviceConfig } from '../gpu/devices';
import type { Memory, NamedRegion, ScalarKind } from '../gpu/memory';
import type { CudaRuntime } from '../runtime/runtime';
import type { WeakMemory } from '../gpu/weakMemory';

export const WARP = 32;

export { isAcquire, isRelease, type MemoryOrder, type Scope } from '../gpu/memoryOrder';
import type { MemoryOrder, Scope } from '../gpu/memoryOrder';

/**
 * What a detector sees of a run. An access site refills one event object on every access, so
 * a listener must copy what it keeps. Accesses carry their size, whether they are strong (volatile
 * or atomic) and an atomic's scope; every event names the thread (block, warp, lane) and the
 * source range. Code compiled without a listener emits nothing and pays nothing.
 */
/** How far back (in 'launch' events) a 'launch-repeat' may reach: what a detector keeps per launch. */
export const REPEATABLE_LAUNCHES_BACK = 1024;

export type SimEvent =
  | { kind: 'launch'; kernel: string; grid: [number, number, number]; block: [number, number, number]; range: Range }
  /**
   * A launch that repeats an earlier one exactly (same kernel, configuration, arguments, and
   * the bytes whose values it used) and is not run again (sims/host/launchReuse.ts): its
   * accesses would be that launch's, so a detector counts that launch's races once more. `of`
   * is the earlier launch's place among the run's 'launch' events (0 for the first), at most
   * REPEATABLE_LAUNCHES_BACK before the latest.
   */
  | { kind: 'launch-repeat'; kernel: string; range: Range; of: number }
  | { kind: 'block-start' | 'block-end'; block: number }
  | { kind: 'access'; write: boolean; address: number; size: number; type: ScalarKind; strong: boolean; atomic?: { op: string; scope: Scope; changed: boolean }; order?: MemoryOrder; orderScope?: Scope; space: 'device' | 'host'; block: number; warp: number; lane: number; range: Range }
  | { kind: 'fence'; scope: Scope; order?: MemoryOrder; block: number; warp: number; lane: number; range: Range }
  | { kind: 'barrier'; block: number; range: Range }
  /**
   * A grid-wide barrier (cooperative groups' grid.sync()) opened: every access of the launch
   * before it is ordered before every access after it, as between two launches.
   */
  | { kind: 'grid-barrier'; range: Range }
  /** __syncwarp: the warp's lanes meet and their memory accesses are ordered. */
  | { kind: 'warp-sync'; block: number; warp: number; range: Range }
  | { kind: 'warp-start' | 'warp-end'; block: number; warp: number }
  /** The live lanes of a warp now stand at more (diverge) or fewer (reconverge) places. */
  | { kind: 'diverge' | 'reconverge'; block: number; warp: number; paths: number; range?: Range };

export type EventListener = (e: SimEvent) => void;

/** What all threads of one block (or the host thread) share while they run. */
export interface RunContext {
  /** The simulated device (its preset's limits answer property queries). */
  device: DeviceConfig;
  /** The detector's listener, when one is attached. */
  events?: EventListener;
  /** Device code under a weak memory model: loads, stores, atomics and fences go through it. */
  weak?: WeakMemory;
  /** Linear index of this block within its grid (0 for the host thread). */
  blockLinear: number;
  memory: Memory;
  runtime: CudaRuntime;
  accessor: 'host' | 'device';
  blockIdx: [number, number, number];
  blockDim: [number, number, number];
  gridDim: [number, number, number];
  /** Pointer to this block's shared memory (static variables first, then the dynamic part). */
  shared: number;
  /** Byte offset of the dynamic (extern __shared__) part within `shared`. */
  dynamicSharedOffset: number;
  /** Addresses of __device__/__constant__/__managed__ globals and host globals. */
  globals: Map<A.VarDecl, number>;
  /** Host only: runs a kernel launch to completion. */
  launch?: (launch: LaunchRequest) => void;
  /**
   * Device code (dynamic parallelism): where a launch in device code puts its grid. Grids run
   * after the grid that launched them, in launch order, which CUDA allows (CUDA 12 device code
   * cannot wait for its children).
   */
  deviceLaunches?: LaunchRequest[];
}

export interface LaunchRequest {
  kernel: CompiledFunction;
  grid: [number, number, number];
  block: [number, number, number];
  dynamicShared: number;
  args: number[];
  range: Range;
  /**
   * Launched by the tool, not by the program: a kernel run on its own from a kernel-only file's
   * launch header (a verifier's configuration, as GPUVerify reads it) or from --kernel/--grid/
   * --block. Its shape is simulated as asked up to what the simulator holds, past the device's
   * per-block limits (a GPU would refuse it; the run says so).
   */
  entry?: boolean;
}

/** The state of up to 32 threads that a warp (or the host thread, one lane) runs. */
export interface Lanes {
  regs: Float64Array;
  /** Pointer to each lane's local memory (its stack frame). */
  frame: Float64Array;
  /** threadIdx of each lane. */
  tid: [Int32Array, Int32Array, Int32Array];
  /** Which warp of its block this is (0 for the host thread). */
  warp: number;
  ctx: RunContext;
}

/** One instruction for one lane. */
export interface Step {
  (w: Lanes, lane: number): void;
  /** Set when the step only computes a register (the block compiler inlines it). */
  readonly pure?: PureStep;
  /** Set when the step is a load, store or atomic the block compiler may inline (sims/ir/plainAccess.ts). */
  readonly plain?: PlainAccess;
  /**
   * Offsets (register * WARP) of every register the step reads, where its emitter says so
   * (readingStep); a step that says nothing may read any register. Pure steps and plain
   * accesses say it in their own fields.
   */
  readonly reads?: readonly number[];
}

/** `step`, declared to read the registers at `reads` (offsets) and no other. */
export function readingStep(step: (w: Lanes, lane: number) => void, reads: readonly number[]): Step {
  return Object.assign(step, { reads });
}

/**
 * A scalar load into register `reg`, or store of it, or an atomic read-modify-write, at the
 * address in register `ptr` plus `offset`, with no conversion of the value, and at most the
 * site's event for a listener after it. Through the weak memory model when one runs, else
 * straight to memory, which is what the block compiler inlines for the common case; anything
 * else goes through the step.
 */
export interface PlainAccess {
  write: boolean;
  /** Offsets (register * WARP) of the value's register (a read-modify-write's old value) and of the pointer's. */
  reg: number;
  ptr: number;
  offset: number;
  kind: ScalarKind;
  /**
   * An atomic read-modify-write (write is set): its operation (atomicOps' names) and operand
   * registers' offsets (a CAS compares with `operand` and writes `compare`), and what its event
   * says of it when it changed memory or did not.
   */
  rmw?: { op: string; operand: number; compare?: number; changed?: AccessAtomic; unchanged?: AccessAtomic };
  /** The site's one event object, when the listener hears the access: refilled and given to it after the access. */
  event?: AccessEventOf;
}

type AccessEventOf = Extract<SimEvent, { kind: 'access' }>;
type AccessAtomic = AccessEventOf['atomic'];

/**
 * A step that computes one register from others and from what is constant for its lane (its
 * thread index, its block's indices): no memory, no events, never throws. The block compiler
 * (sims/ir/compile.ts) inlines its expression, which must compute exactly what the step's
 * closure computes (the differential test runs both).
 */
export interface PureStep {
  /** Offset (register * WARP) of the register it writes. */
  dst: number;
  /** Offsets of the registers it reads. */
  srcs: readonly number[];
  /**
   * Its value as a JS expression over the names given for `srcs`, the lane `l` and the warp
   * `w`; any other value goes in through `lit`, which names it (no text of the program is
   * ever pasted into generated code).
   */
  expr: (src: readonly string[], lit: (value: unknown) => string) => string;
}

/**
 * A pure step from its expression alone. Its closure (the interpreter's form) is made from the
 * same text, once per distinct expression: every value the expression names goes in as a
 * constant, so steps that differ only in registers and constants share one function.
 */
export function pureStep(dst: number, srcs: readonly number[], expr: PureStep['expr']): Step {
  const constants: unknown[] = [];
  const text = expr(
    srcs.map((_, i) => `R[s${i} + l]`),
    (v) => {
      constants.push(v);
      return `K[${constants.length - 1}]`;
    },
  );
  const key = `${srcs.length}|${text}`;
  let make = PURE_CLOSURES.get(key);
  if (!make) {
    const params = srcs.map((_, i) => `s${i}`);
    make = new Function('d', ...params, 'K', `"use strict";\nreturn function pure(w, l) {\n  const R = w.regs;\n  R[d + l] = ${text};\n};`) as PureClosureFactory;
    PURE_CLOSURES.set(key, make);
  }
  return Object.assign(make(dst, ...srcs, constants), { pure: { dst, srcs, expr } });
}

type PureClosureFactory = (dst: number, ...rest: unknown[]) => (w: Lanes, lane: number) => void;
const PURE_CLOSURES = new Map<string, PureClosureFactory>();

export type Terminator =
  | { kind: 'jump'; to: number }
  | { kind: 'branch'; cond: number; then: number; else: number }
  | { kind: 'exit' }
  /**
   * __syncthreads and its _count/_and/_or forms: wait for the whole block, then go on. `grid`:
   * wait for every thread of the launch (grid.sync()), with device-scope fences on both sides.
   */
  | { kind: 'barrier'; to: number; range: Range; reduce?: 'count' | 'and' | 'or'; pred?: number; dst?: number; grid?: boolean }
  /**
   * A warp-wide operation (shuffle, vote, __syncwarp). With a mask register, the lanes wait
   * until every live lane of the mask has arrived, as the *_sync intrinsics require; without
   * one (__activemask) it runs for the lanes that arrive together.
   */
  /**
   * A warp-wide operation. `anySite`: lanes at different calls of it meet (since Volta, a
   * __syncwarp in each branch of an if is one barrier for the mask's lanes); otherwise they
   * meet only at one call.
   */
  | { kind: 'collective'; to: number; range: Range; mask?: number; anySite?: boolean; run: (w: Lanes, lanes: number[]) => void };

export interface Block {
  id: number;
  steps: Step[];
  term: Terminator;
  /** Source range of each step, for reports and the hottest-loop explanation. */
  ranges: Range[];
  /** Ends with a memory access or fence (compiled with switch points): other threads can see it. */
  visible?: boolean;
  /** The steps compiled to one function (sims/ir/compile.ts), made once the block is hot. */
  compiled?: BlockBody;
  /** Times the block ran before it was compiled. */
  runs?: number;
}

/** Runs a block's steps for the `n` lanes listed in `group` (the executor's order: step by step). */
export type BlockBody = (w: Lanes, group: Int32Array, n: number) => void;

/**
 * What a converged run did: blocks run (`free` of them free: register-only blocks that did not
 * count towards the warp's turn) and thread-steps taken, kept up to date as it goes (a fault
 * stops it).
 */
export interface ConvergedTally {
  blocks: number;
  free: number;
  steps: number;
}

/**
 * Runs a warp whose every live lane stands at block `pc`, listed in `g`, for up to `limit`
 * blocks while they stay together: through jumps, and branches that every lane takes the
 * same way. The first `free` blocks that `freeBlocks` marks (the scheduler's: register-only
 * blocks, blocks without memory accesses; always every register-only block) do not count
 * towards `limit`, as the executor does not count them towards a warp's turn. It stops before
 * a block that ends otherwise (exit, barrier, warp operation), or when `limit` blocks have run,
 * with every lane's pc at the next block (returns -1); or after a branch the lanes took both
 * ways, with each lane's pc where it went (returns that block). `hot` and `tally` are counted
 * as the executor counts a block it runs.
 */
export type ConvergedRun = (w: Lanes, g: Int32Array, n: number, pcs: Int32Array, pc: number, limit: number, hot: Float64Array, tally: ConvergedTally, free: number, freeBlocks: Uint8Array) => number;

/** The blocks a terminator can go to (none for an exit), each once. */
export function successors(t: Terminator): number[] {
  switch (t.kind) {
    case 'jump':
    case 'barrier':
    case 'collective':
      return [t.to];
    case 'branch':
      return t.then === t.else ? [t.then] : [t.then, t.else];
    case 'exit':
      return [];
  }
}

/**
 * A block that only computes registers and goes on to another block: nothing it does can be
 * seen by another thread, so when it runs does not matter to them.
 */
export function registerOnly(b: Block): boolean {
  return (b.term.kind === 'jump' || b.term.kind === 'branch') && b.steps.every((s) => s.pure);
}

/**
 * The registers of a function that hold a value only within one run of pure steps: every read
 * of one comes after a write of it in the same run, so the block compiler keeps it in a local
 * and never writes it back, and what a warp's state is does not include it (sims/ir/runLocal.ts).
 */
export interface RunLocal {
  /** 1 at the index of each run-local register. */
  local: Uint8Array;
  /** The indices of the other registers, ascending. */
  kept: Int32Array;
}

export interface CompiledFunction {
  name: string;
  decl: A.FunctionDecl;
  blocks: Block[];
  numRegs: number;
  /** Registers that receive the arguments (host-side values, one per parameter). */
  paramRegs: number[];
  paramTypes: Type[];
  /** Local memory each thread needs, in bytes. */
  frameSize: number;
  /** Static shared memory of the kernel, in bytes. */
  sharedSize: number;
  /** The kernel's __shared__ variables; the dynamic (extern) part has offset -1. */
  sharedLayout: NamedRegion[];
  /** Its code addresses the dynamic (extern __shared__) part of shared memory. */
  usesDynamicShared?: boolean;
  /** Where the function's return value is left (main's exit status). */
  returnReg?: number;
  /** Its run-local registers (sims/ir/runLocal.ts), found when first asked for. */
  runLocal?: RunLocal;
  /** Its blocks compiled into one converged run (sims/ir/compile.ts), made once hot; null: none. */
  converged?: ConvergedRun | null;
  /** Converged stretches it ran before its converged run was compiled. */
  convergedRuns?: number;
}

/** A construct the simulator cannot run yet; reported at its range. */
export class LowerError extends Error {
  constructor(
    message: string,
    readonly range: Range,
  ) {
    super(message);
  }
}
