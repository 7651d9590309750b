// Runs a whole CUDA program: globals are laid out, `main` runs as one host thread on the same
// machinery as device code, and each launch runs its grid to completion (kernels are
// effectively synchronous). The result is the program's output, its exit status and the
// findings: faults, deadlocks, runaway loops, misuse of the runtime API.
import type * as A from '../frontend/ast';
import { functionsOf, type ParseResult } from '../frontend/index';
import { evalConst, type ConstEnv } from '../frontend/sema/constEval';
import * as T from '../frontend/types';
import { DeviceFault } from '../gpu/access';
import { DEFAULT_DEVICE, devicePreset, type DeviceConfig } from '../gpu/devices';
import type { BlockExecution, GridFinding, LaunchCheck, SchedulerKind } from '../machine/executor';
import type { BlockSampling } from '../machine/blockSample';
import { seededRandom } from '../values/random';
import { randomChooser, WeakMemory, weakModelConfig, type Chooser, type WeakObservation, type WeakStep } from '../gpu/weakMemory';
import type { MemoryModelName, WeakModelSwitches } from '../gpu/memoryModels';
import { DEFAULT_MEMORY_LIMIT, Memory, pointerAllocation, pointerOffset, type MemorySpace } from '../gpu/memory';
import { MemoryAccount, MemoryLimitExceeded } from '../gpu/memoryAccount';
import { WARP, LowerError, type CompiledFunction, type EventListener, type Lanes, type LaunchRequest, type RunContext } from '../ir/ir';
import { FunctionLowerer, isAggregate, normalizer, ProgramExit, scalarKind, type ProgramInfo } from '../ir/lower';
import { blockBody } from '../ir/compile';
import { resetWide } from '../values/wide';
import { CudaRuntime } from '../runtime/runtime';
import type { UntilLaunch } from './describeLaunch';
import { GridLauncher, type BeyondDeviceLaunch, type SampledKernelLaunch } from './gridLauncher';
import type { LaunchDescription } from './launchDescription';

/** A kernel-only file: which kernel to run, its launch shape and its scalar arguments. */
export interface KernelEntry {
  kernel: string;
  grid: [number, number, number];
  block: [number, number, number];
  /** Scalar parameters by name; those not given are 0. */
  args: Record<string, number>;
  /** Pointer parameters by name; one not given gets a zeroed allocation of entryAllocationSize. */
  pointers?: Record<string, PointerArgument>;
  /**
   * Function-pointer parameters by name: the device function (its name in the source) each is
   * passed, as the kernel's `__requires(f == g)` says; one not named is the first device
   * function of the arity the kernel calls it with.
   */
  functions?: Record<string, string>;
  /**
   * Made-up data: each pointer parameter not in `pointers` points to seeded arbitrary numbers
   * (fillElements) instead of zeros, the seed this plus the parameter's place.
   */
  arbitraryData?: number;
}

/** A pointer argument of a kernel run on its own: how many elements its allocation holds, and their contents. */
export interface PointerArgument {
  elements: number;
  /** Zeros; 0, 1, 2, … (as the element type); or seeded random values (integers 0–999, floats in [0, 1)). */
  fill: 'zeros' | 'sequence' | 'random';
  seed?: number;
}

export interface RunOptions {
  /** Run this kernel instead of the host `main`. */
  entry?: KernelEntry;
  /** argv[0] of `main` (default `a.out`, nvcc's default output; see programNameOf). */
  programName?: string;
  /**
   * Run `main` only up to the first launch of this kernel: that launch runs (with its grid and
   * block replaced where given), then the program ends (exit status 0). Run Kernel's way of
   * running a kernel with the arguments and memory the program gives it.
   */
  untilLaunchOf?: UntilLaunch;
  device?: string;
  /** Thread-steps the whole run may take (host and device together). */
  stepBudget?: number;
  scheduler?: SchedulerKind;
  /** Volta+ independent thread scheduling (default) or pre-Volta lockstep SIMT. */
  model?: 'independent' | 'lockstep';
  seed?: number;
  /** Launches of more threads than this are refused up front. */
  maxThreads?: number;
  /**
   * Bytes the run's memory account allows (every allocation: device, shared, local, host heap;
   * cudaMalloc and malloc fail beyond, a launch that cannot fit is a finding). Default 2 GB.
   */
  deviceMemoryLimit?: number;
  /** Report device reads of cudaMalloc'd bytes nothing has written (memcheck's initcheck), as warnings. */
  initCheck?: boolean;
  /** Receives every memory access, fence, barrier and launch (the detector attaches here). */
  events?: EventListener;
  /** Called with the run's memory before anything runs (a detector needs its allocations). */
  attach?: (memory: Memory) => void;
  /** A detector made for the run's memory: its listener receives the events directly. */
  listen?: (memory: Memory) => EventListener;
  /** The memory model device code runs under (default `sc`); a weak one implies random scheduling. */
  memoryModel?: MemoryModelName;
  /** Simulate a sample of a big grid's blocks (GridOptions.sampleBlocks). */
  sampleBlocks?: BlockSampling;
  /** The weak model's open points (same-address load reordering, cumulative fences). */
  weakSwitches?: WeakModelSwitches;
  /** Where scheduling and memory-system decisions come from (default: seeded random). */
  chooser?: Chooser;
  /** Called at each decision with a digest of the launch's state (see GridOptions). */
  onDecision?: (digest: () => number) => void;
  /** Receives every step of the weak model (witness traces). */
  weakTrace?: WeakStep[];
  /** Addresses two threads touched in earlier runs; accesses to others are not interleaved. */
  sharedAddresses?: Set<number>;
  /** `__device__` variables to read when the program ends (RunResult.observed). */
  observe?: string[];
  /**
   * A check each launch goes through before it runs, which may find that it would never end
   * (the fairness search, `fairnessLaunchCheck` of sims/fairness). Made once per run, for the
   * run's device and step budget.
   */
  launchCheck?: LaunchCheckFactory;
  /** How kernels' blocks run: compiled (default) or through the reference interpreter. */
  execution?: BlockExecution;
  /**
   * false: run every launch, even one that repeats an earlier launch exactly (by default its
   * result is put back instead; sims/host/launchReuse.ts).
   */
  reuseLaunches?: boolean;
}

/** Makes a run's launch check, once the run knows its device, step budget and program. */
export type LaunchCheckFactory = (run: LaunchCheckSetup) => LaunchCheck;

export interface LaunchCheckSetup {
  device: DeviceConfig;
  stepBudget: number;
  /** The device view of the program, on the built-in path. */
  unit?: A.TranslationUnit;
  model?: 'independent' | 'lockstep';
  seed?: number;
  maxThreads?: number;
  execution?: BlockExecution;
}

/** What a run tells its launch check about itself. */
export function launchCheckSetup(device: DeviceConfig, stepBudget: number, options: RunOptions, unit?: A.TranslationUnit): LaunchCheckSetup {
  return {
    device, stepBudget,
    ...(unit ? { unit } : {}),
    ...(options.model ? { model: options.model } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.maxThreads !== undefined ? { maxThreads: options.maxThreads } : {}),
    ...(options.execution ? { execution: options.execution } : {}),
  };
}

/** A launch's finding (GridFinding), or the host program's, with how serious it is. */
export interface RunFinding extends GridFinding {
  /** Undefined operations the run survives are warnings; faults, hangs and misuse are errors. */
  severity: 'error' | 'warning';
}

export interface RunResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  findings: RunFinding[];
  steps: number;
  launches: number;
  /** The final values of RunOptions.observe's variables (`x=1`, `r=[1,0]`), in its order. */
  observed?: string[];
  /** What the weak memory model saw that sequential consistency would not have. */
  weakObservations?: WeakObservation[];
  /** The first launches, with their arguments in words (see startLaunch). */
  launched: LaunchDescription[];
  /** Launches that ran a sample of their blocks (RunOptions.sampleBlocks). */
  sampled?: SampledKernelLaunch[];
  /** Launches the tool made (a kernel run on its own) whose blocks the device would refuse, simulated as asked. */
  beyondDevice?: BeyondDeviceLaunch[];
  /** Launches that repeated the previous launch exactly and were not run again. */
  repeatedLaunches?: number;
}

const DEFAULT_STEP_BUDGET = 200_000_000;


export function runProgram(parsed: ParseResult, options: RunOptions = {}): RunResult {
  const device: DeviceConfig = devicePreset(options.device ?? DEFAULT_DEVICE) ?? devicePreset(DEFAULT_DEVICE)!;
  const budget = options.stepBudget ?? DEFAULT_STEP_BUDGET;
  // A weak memory model needs interleavings at every access to show anything.
  const model = options.memoryModel ?? 'sc';
  const scheduler = model === 'sc' ? options.scheduler : 'random';
  resetWide();
  const memory = new Memory(new MemoryAccount(options.deviceMemoryLimit ?? DEFAULT_MEMORY_LIMIT));
  memory.checkUninitialised = !!options.initCheck;
  const chooser = options.chooser ?? (model === 'sc' ? undefined : randomChooser(seededRandom((options.seed ?? 1) * 7919 + 17)));
  // Sequential consistency needs no model, unless each access is to be traced.
  const weak = model === 'sc' && !options.weakTrace ? undefined : new WeakMemory(memory, weakModelConfig(model, options.weakSwitches), chooser ?? randomChooser(seededRandom(options.seed ?? 1)), options.weakTrace, options.sharedAddresses);
  options.attach?.(memory);
  const listener = options.listen?.(memory);
  const runtime = new CudaRuntime(memory, options.deviceMemoryLimit);
  const findings: Omit<RunFinding, 'severity'>[] = [];
  const globals = new Map<A.VarDecl, number>();
  const strings = new Map<string, number>();
  const kernels = new Map<string, CompiledFunction>();
  const events = listener ?? options.events;
  // The fairness search names who last wrote what a block spins on: it needs access events.
  const fairnessCheck = options.launchCheck?.(launchCheckSetup(device, budget, options, parsed.deviceAst));
  // Its step count is the run's: host steps are added to it below.
  const launcher = new GridLauncher(
    {
      device, memory, runtime, globals, budget,
      ...(events ? { events } : {}), ...(weak ? { weak } : {}), ...(fairnessCheck ? { fairnessCheck } : {}), ...(scheduler ? { scheduler } : {}), ...(chooser ? { chooser } : {}),
      ...(options.onDecision ? { onDecision: options.onDecision } : {}), ...(options.model ? { model: options.model } : {}), ...(options.seed !== undefined ? { seed: options.seed } : {}),
      ...(options.maxThreads !== undefined ? { maxThreads: options.maxThreads } : {}), ...(options.sampleBlocks ? { sampleBlocks: options.sampleBlocks } : {}),
      ...(options.untilLaunchOf ? { untilLaunchOf: options.untilLaunchOf } : {}),
      ...(options.execution ? { execution: options.execution } : {}),
      ...(options.reuseLaunches === false ? { reuseLaunches: false } : {}),
    },
    findings,
  );
  const program: ProgramInfo = {
    events: events !== undefined || fairnessCheck !== undefined,
    memory,
    instantiations: parsed.instantiations,
    stringLiteral: (value, space) => {
      const key = `${space}:${value}`;
      let p = strings.get(key);
      if (p === undefined) {
        p = memory.allocate(space, value.length + 1, { label: JSON.stringify(value) });
        const a = memory.allocation(pointerAllocation(p))!;
        for (let i = 0; i < value.length; i++) a.bytes[i] = value.charCodeAt(i) & 0xff;
        strings.set(key, p);
      }
      return p;
    },
    kernel: (decl, inst, range) => {
      // With separate host and device views, the kernel's device version is the one to run.
      const dev = functionsOf(parsed.deviceAst).find((f) => f.name === decl.name && f.nameRange.start.offset === decl.nameRange.start.offset && f.body) ?? decl;
      const key = `${dev.nameRange.start.offset}|${inst?.key ?? ''}`;
      const switchAtMemory = scheduler === 'random';
      let k = kernels.get(key);
      if (k) return k;
      const found = inst?.key ? parsed.instantiations.get(inst.key) : undefined;
      if (dev.template && !found) throw new LowerError(`the simulator cannot tell which instance of '${dev.name}' this launch runs`, range);
      const body = found?.body ?? dev.body;
      if (!body) throw new LowerError(`kernel '${dev.name}' is declared but never defined`, range);
      k = new FunctionLowerer(program, dev, 'device', found?.label, switchAtMemory).compile(body, found?.paramTypes ?? dev.params.map((p) => p.resolvedType ?? T.ERROR), found?.bindings, T.VOID);
      kernels.set(key, k);
      return k;
    },
  };

  const result = (exitCode: number): RunResult => ({
    ...(options.observe ? { observed: observeGlobals(memory, globals, options.observe) } : {}),
    ...(weak && model !== 'sc' ? { weakObservations: [...weak.observations.values()] } : {}),
    stdout: runtime.output.filter((o) => o.stream === 'stdout').map((o) => o.text).join(''),
    stderr: runtime.output.filter((o) => o.stream === 'stderr').map((o) => o.text).join(''),
    exitCode,
    findings: [...findings.map((f): RunFinding => ({ ...f, severity: 'error' })), ...runtime.reportedFindings()],
    steps: launcher.steps,
    launches: launcher.launches,
    launched: launcher.launched,
    ...(launcher.sampled.length ? { sampled: launcher.sampled } : {}),
    ...(launcher.beyondDevice.length ? { beyondDevice: launcher.beyondDevice } : {}),
    ...(launcher.repeated ? { repeatedLaunches: launcher.repeated } : {}),
  });

  try {
    layOutGlobals(parsed, memory, globals);
    const ctx: RunContext = {
      device,
      blockLinear: 0,
      memory,
      runtime,
      accessor: 'host',
      blockIdx: [0, 0, 0],
      blockDim: [1, 1, 1],
      gridDim: [1, 1, 1],
      shared: 0,
      dynamicSharedOffset: 0,
      globals,
      launch: (asked) => {
        if (launcher.launch(asked).last) throw new ProgramExit(0);
      },
    };
    // Added, not spread first into the literal (V8 builds that one on its slow path).
    if (events) ctx.events = events;
    if (options.entry) {
      // A kernel-only file: launch the kernel as main would, with arguments made up here.
      const request = entryLaunch(parsed, options.entry, program, memory);
      if ('kind' in request) {
        findings.push(request);
        return result(2);
      }
      ctx.launch!(request);
      return result(findings.some((f) => f.kind === 'step-budget') ? 124 : 0);
    }
    const main = functionsOf(parsed.ast).find((f) => f.name === 'main' && f.body);
    if (!main) {
      findings.push({ kind: 'no-main', message: 'the program has no main function to run' });
      return result(2);
    }
    const compiled = new FunctionLowerer(program, main, 'host').compile(main.body!, main.params.map((p) => p.resolvedType ?? T.ERROR), undefined, T.INT);
    const frame = compiled.frameSize > 0 ? memory.allocate('host', compiled.frameSize, { label: 'the stack of main' }) : 0;
    const lanes: Lanes = { regs: new Float64Array(compiled.numRegs * WARP), frame: new Float64Array(WARP), tid: [new Int32Array(WARP), new Int32Array(WARP), new Int32Array(WARP)], warp: 0, ctx };
    lanes.frame[0] = frame;
    // main(int argc, char **argv) starts as a shell starts it: argc 1, argv { its name, NULL }.
    const [argcReg, argvReg] = compiled.paramRegs;
    if (argcReg !== undefined) lanes.regs[argcReg * WARP] = 1;
    if (argvReg !== undefined) lanes.regs[argvReg * WARP] = argumentVector(memory, options.programName ?? 'a.out');
    let pc = 0;
    const execution = options.execution ?? 'compiled';
    for (;;) {
      const block = compiled.blocks[pc];
      // Host code is one lane: a hot block runs compiled as a kernel's does.
      const body = blockBody(compiled, block, execution);
      if (body) body(lanes, HOST_LANE, 1);
      else for (const step of block.steps) step(lanes, 0);
      launcher.steps += block.steps.length + 1;
      if (launcher.steps > budget) {
        // A launch that ran out of steps has said so already.
        if (!findings.some((f) => f.kind === 'step-budget')) findings.push({ kind: 'step-budget', message: `the program did not finish within ${budget} steps` });
        return result(124);
      }
      const t = block.term;
      if (t.kind === 'jump') pc = t.to;
      else if (t.kind === 'branch') pc = lanes.regs[t.cond * WARP] ? t.then : t.else;
      else if (t.kind === 'exit') break;
      else throw new LowerError('host code cannot use barriers or warp operations', t.range);
    }
    return result(compiled.returnReg !== undefined ? lanes.regs[compiled.returnReg * WARP] | 0 : 0);
  } catch (e) {
    if (e instanceof ProgramExit) return result(e.status | 0);
    if (e instanceof LowerError) {
      findings.push({ kind: 'not-supported', message: e.message, range: e.range });
      return result(2);
    }
    if (e instanceof DeviceFault) {
      findings.push({ kind: e.fault.kind, message: `host code: ${e.fault.message}`, range: e.range });
      return result(139);
    }
    if (e instanceof MemoryLimitExceeded) {
      findings.push({ kind: 'memory-limit', message: e.message, ...(e.range ? { range: e.range } : {}) });
      return result(137);
    }
    throw e;
  }
}

/** The host thread as a group of lanes: lane 0 alone. */
const HOST_LANE = Int32Array.of(0);

/**
 * Each pointer parameter of a kernel run directly points to a fresh zeroed allocation of this
 * many elements per thread of the launch. One element per thread is what most kernels index;
 * kernel-only files (GPUVerify's among them) also stride further, `A[i + gid * WIDTH]` for a
 * WIDTH-long row per thread, and treat the arrays as unbounded. An access past the end would
 * stop the thread with a fault and hide the races after it, so the room is generous: 256
 * elements per thread, up to 64 MiB per parameter (never less than one element per thread).
 */
export const ENTRY_ELEMENTS_PER_THREAD = 256;
export const ENTRY_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Elements of a made-up array that arbitraryData fills (the rest stay zero): filling the 64 MiB
 * a big launch's array may have would cost more than the run.
 */
export const ENTRY_DATA_ELEMENTS = 1 << 20;

/**
 * Writes `count` elements of a pointer argument's starting contents at `p`: as a
 * PointerArgument says (0, 1, 2, … or seeded random values), or `arbitrary` (a kernel's made-up
 * data: integers half of them 0–3, so that tests of zero and small values go both ways, half
 * 0–999; floats in [-1, 1)).
 */
export function fillElements(memory: Memory, p: number, element: T.Type, count: number, how: Omit<PointerArgument, 'elements'> | { fill: 'arbitrary'; seed: number }): void {
  // Only numbers are filled; an array of structures starts zeroed.
  if (element.kind !== 'int' && element.kind !== 'float' && element.kind !== 'bool' && element.kind !== 'enum') return;
  const a = memory.allocation(pointerAllocation(p))!;
  const kind = scalarKind(element);
  const size = T.sizeOf(element) ?? 1;
  const random = seededRandom(how.seed ?? 1);
  const isFloat = element.kind === 'float';
  for (let i = 0; i < count; i++) {
    const value =
      how.fill === 'sequence' ? i
      : how.fill === 'arbitrary' ? (isFloat ? random() * 2 - 1 : Math.floor(random() * (random() < 0.5 ? 4 : 1000)))
      : isFloat ? random() : Math.floor(random() * 1000);
    Memory.write(a, i * size, kind, normalizer(element)(value));
  }
}

/** argv[0] as a shell would give it for the program built from `file`: its name without the extension. */
export function programNameOf(file: string): string {
  const base = file.slice(file.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** `argv` for main in host memory: a pointer to the program's name and a null pointer after it. */
function argumentVector(memory: Memory, programName: string): number {
  const name = new TextEncoder().encode(`${programName}\0`);
  const text = memory.allocate('host', name.length, { label: 'argv[0]' });
  memory.allocation(pointerAllocation(text))!.bytes.set(name);
  const vector = memory.allocate('host', 16, { label: 'argv' });
  Memory.write(memory.allocation(pointerAllocation(vector))!, 0, 'u64', text);
  return vector;
}

/**
 * The dynamic shared memory of a kernel run on its own: none unless its code uses an `extern
 * __shared__` array, then the most a launch gets without opting in to more (48 KB with the
 * static part): a verifier takes such an array as unbounded, and the launch that would size it
 * is not in the file.
 */
export function entryDynamicShared(kernel: CompiledFunction): number {
  return kernel.usesDynamicShared ? Math.max(0, DEFAULT_SHARED_PER_BLOCK - kernel.sharedSize) : 0;
}

/** Shared memory a block may use without cudaFuncSetAttribute, on every device since Fermi. */
const DEFAULT_SHARED_PER_BLOCK = 48 * 1024;

/**
 * Bytes of a made-up array for a launch of `threads`; `sharing`: how many arrays of one struct
 * argument share the cap (a struct of 42 pointers must not ask for 42 × 64 MiB).
 */
export function entryAllocationSize(threads: number, elementSize: number, sharing = 1): number {
  const es = Math.max(1, elementSize);
  return Math.max(4, threads * es, Math.min(ENTRY_MAX_BYTES / Math.max(1, sharing), threads * es * ENTRY_ELEMENTS_PER_THREAD));
}

/**
 * Each pointer a made-up struct argument holds (`struct S { int *p; }`, nested structs and
 * arrays of them included) points to a fresh zeroed allocation, as a pointer parameter does:
 * a null pointer would make every such kernel a null dereference, not a check of its accesses.
 */
function pointFieldsToAllocations(memory: Memory, copy: number, t: T.Type, path: string, threads: number, origin: A.Node['range']): void {
  const a = memory.allocation(pointerAllocation(copy))!;
  const pointers: { type: Extract<T.Type, { kind: 'pointer' }>; offset: number; at: string }[] = [];
  const walk = (u: T.Type, offset: number, at: string): void => {
    u = T.unqualified(u);
    if (u.kind === 'struct') {
      for (const f of T.structLayout(u.decl)?.fields ?? []) walk(f.type, offset + f.offset, `${at}.${f.name}`);
    } else if (u.kind === 'array' && u.size !== undefined) {
      const es = T.sizeOf(u.of) ?? 0;
      if (es > 0) for (let i = 0; i < Math.min(u.size, 64); i++) walk(u.of, offset + i * es, `${at}[${i}]`);
    } else if (u.kind === 'pointer' && T.unqualified(u.to).kind !== 'function') {
      pointers.push({ type: u, offset, at });
    }
  };
  walk(t, 0, path);
  for (const { type, offset, at } of pointers) {
    const to = T.unqualified(type.to);
    const element = to.kind === 'void' ? T.UCHAR : to;
    const p = memory.allocate('global', entryAllocationSize(threads, T.sizeOf(element) ?? 1, pointers.length), { label: at, origin, layout: [{ name: at, offset: 0, type: element, unbounded: true }] });
    Memory.write(a, pointerOffset(copy) + offset, scalarKind(type), p);
  }
}

/** The defined kernels (`__global__` functions with a body) of a program, by name. */
export function kernelsOf(parsed: ParseResult): Map<string, A.FunctionDecl[]> {
  const out = new Map<string, A.FunctionDecl[]>();
  for (const f of functionsOf(parsed.ast)) {
    if (f.space !== 'global' || !f.body) continue;
    out.set(f.name, [...(out.get(f.name) ?? []), f]);
  }
  return out;
}

/**
 * The launch of `entry`: its kernel compiled, pointers given fresh zeroed allocations (see
 * ENTRY_ELEMENTS_PER_THREAD), scalars the values given (0 when not), structs zeroed. A
 * finding instead when the kernel is missing or cannot be told apart from others.
 */
function entryLaunch(parsed: ParseResult, entry: KernelEntry, program: ProgramInfo, memory: Memory): LaunchRequest | Omit<RunFinding, 'severity'> {
  const named = functionsOf(parsed.ast).filter((f) => f.name === entry.kernel);
  const kernels = named.filter((f) => f.space === 'global');
  if (kernels.length === 0) {
    const other = named[0];
    return other
      ? { kind: 'no-kernel', message: `'${entry.kernel}' is a ${other.space} function, not a kernel (__global__)`, range: other.nameRange }
      : { kind: 'no-kernel', message: `the program has no kernel named '${entry.kernel}'` };
  }
  const defined = kernels.filter((f) => f.body);
  if (defined.length > 1) return { kind: 'not-supported', message: `kernel '${entry.kernel}' is overloaded (${defined.length} definitions); the simulator cannot tell which one to run`, range: defined[1].nameRange };
  const decl = defined[0] ?? kernels[0];
  if (decl.template) return { kind: 'not-supported', message: `kernel '${entry.kernel}' is a template; the simulator cannot run it without template arguments (launch it from main instead)`, range: decl.nameRange };
  const kernel = program.kernel(decl, undefined, decl.nameRange);
  const threads = entry.grid.reduce((a, b) => a * b, 1) * entry.block.reduce((a, b) => a * b, 1);
  const args = decl.params.map((p, i): number => {
    const name = p.name ?? `argument ${i + 1}`;
    const origin = p.nameRange ?? p.range;
    const t = T.unqualified(T.decay(kernel.paramTypes[i] ?? p.resolvedType ?? T.ERROR));
    if (t.kind === 'pointer') {
      const to = T.unqualified(t.to);
      const element = to.kind === 'void' || to.kind === 'function' ? T.UCHAR : to;
      const elementSize = T.sizeOf(element) ?? 1;
      const given = entry.pointers?.[name];
      const size = given ? Math.max(1, given.elements) * elementSize : entryAllocationSize(threads, elementSize);
      const p = memory.allocate('global', size, { label: name, origin, layout: [{ name, offset: 0, type: element, unbounded: true }] });
      if (given && given.fill !== 'zeros') fillElements(memory, p, element, Math.max(1, given.elements), given);
      else if (!given && entry.arbitraryData !== undefined) fillElements(memory, p, element, Math.min(size / elementSize, ENTRY_DATA_ELEMENTS), { fill: 'arbitrary', seed: entry.arbitraryData + i });
      return p;
    }
    // Passed by value: the launch passes a copy in device memory (see the lowering of <<<>>>).
    if (isAggregate(t)) {
      const copy = memory.allocate('global', Math.max(1, T.sizeOf(t) ?? 1), { label: `argument ${name} of ${decl.name}`, origin, layout: [{ name, offset: 0, type: t }] });
      pointFieldsToAllocations(memory, copy, t, name, threads, origin);
      return copy;
    }
    return normalizer(t)(entry.args[name] ?? 0);
  });
  return { kernel, grid: entry.grid, block: entry.block, dynamicShared: entryDynamicShared(kernel), args, range: decl.nameRange, entry: true };
}

/** Allocates every file-scope variable in its memory space and writes its initializer. */
function layOutGlobals(parsed: ParseResult, memory: Memory, globals: Map<A.VarDecl, number>): void {
  const byName = new Map<string, number>();
  const views = parsed.deviceAst === parsed.ast ? [parsed.ast] : [parsed.ast, parsed.deviceAst];
  for (const unit of views) {
    for (const d of globalVars(unit)) {
      const existing = byName.get(d.name);
      if (existing !== undefined) {
        globals.set(d, existing);
        continue;
      }
      const t = d.resolvedType ?? T.ERROR;
      const words = new Set(d.specifiers.map((s) => s.text));
      if (words.has('extern') && !d.init) continue;
      const space: MemorySpace = words.has('__constant__') ? 'constant' : words.has('__managed__') ? 'managed' : words.has('__device__') ? 'global' : words.has('__shared__') ? 'shared' : 'host';
      const size = T.sizeOf(t) ?? 8;
      const p = memory.allocate(space, size, { label: d.name, origin: d.nameRange, layout: [{ name: d.name, offset: 0, type: t }] });
      globals.set(d, p);
      byName.set(d.name, p);
      if (d.init) writeConstant(memory, p, t, d.init);
    }
  }
}

function globalVars(unit: A.TranslationUnit): A.VarDecl[] {
  const out: A.VarDecl[] = [];
  const walk = (decls: A.Decl[]): void => {
    for (const d of decls) {
      if (d.kind === 'VarDecl') out.push(d);
      else if (d.kind === 'LinkageDecl') walk(d.decls);
    }
  };
  walk(unit.decls);
  return out;
}

/** Writes a constant initializer (numbers, enumerators, brace lists) at `p`. */
function writeConstant(memory: Memory, p: number, t: T.Type, init: A.Expr): void {
  // Initial values are written before the program runs, so the space rules do not apply.
  const host = (addr: number, kind: ReturnType<typeof scalarKind>, v: number): void => {
    Memory.write(memory.allocation(pointerAllocation(addr))!, pointerOffset(addr), kind, v);
  };
  const write = (addr: number, type: T.Type, e: A.Expr): void => {
    if (e.kind === 'InitList') {
      if (type.kind === 'array') {
        const es = T.sizeOf(type.of) ?? 0;
        e.elements.forEach((el, i) => write(addr + i * es, type.of, el.value));
      } else if (type.kind === 'struct') {
        const layout = T.structLayout(type.decl);
        e.elements.forEach((el, i) => {
          const f = layout?.fields[i];
          if (f) write(addr + f.offset, f.type, el.value);
        });
      } else if (type.kind === 'vector') {
        const es = T.sizeOf(type.elem) ?? 4;
        e.elements.forEach((el, i) => write(addr + i * es, type.elem, el.value));
      } else if (e.elements[0]) write(addr, type, e.elements[0].value);
      return;
    }
    if (isAggregate(type)) return;
    const v = evalConst(e, INITIALIZER_ENV);
    if (v !== undefined) host(addr, scalarKind(type), type.kind === 'float' && type.bits === 32 ? Math.fround(v) : v);
  };
  write(p, t, init);
}

/**
 * Global initializers are constant expressions: the semantic pass's evaluator computes them,
 * with enumerators, sizeof and casts as it resolved them.
 */
const INITIALIZER_ENV: ConstEnv = {
  identifier: (e) => (e.ref?.kind === 'enumerator' ? e.ref.decl.constValue : undefined),
  sizeOf: (e) => (e.resolvedTarget ? (e.align ? T.alignOf(e.resolvedTarget) : T.sizeOf(e.resolvedTarget)) : undefined),
  castsToInteger: (e) => !!e.resolvedTarget && T.isInteger(e.resolvedTarget),
};

/**
 * Runs the program (`run`: one run of it) once per seed with the random scheduler and returns every run; findings
 * that only some interleavings show are in the union (`schedules: N`).
 */
export function runSchedules(run: (options: RunOptions) => RunResult, schedules: number, options: RunOptions = {}): { runs: RunResult[]; findings: RunFinding[] } {
  const runs: RunResult[] = [];
  const seen = new Set<string>();
  const findings: RunFinding[] = [];
  const first = options.seed ?? 1;
  for (let i = 0; i < schedules; i++) {
    const r = run({ ...options, scheduler: 'random', seed: first + i });
    runs.push(r);
    for (const f of r.findings) {
      const key = `${f.kind}|${f.range?.file}|${f.range?.start.offset}|${f.message}`;
      if (!seen.has(key)) {
        seen.add(key);
        findings.push(f);
      }
    }
  }
  return { runs, findings };
}

/** `name=value` for each observed `__device__` variable (arrays as `[a,b]`), or why not. */
function observeGlobals(memory: Memory, globals: Map<A.VarDecl, number>, names: string[]): string[] {
  return names.map((name) => {
    const decl = [...globals.keys()].find((d) => d.name === name);
    if (!decl) return `${name}=?`;
    const t = decl.resolvedType ?? T.ERROR;
    const p = globals.get(decl)!;
    const a = memory.allocation(pointerAllocation(p));
    if (!a) return `${name}=?`;
    const read = (type: T.Type, off: number): string => {
      const v = Memory.read(a, pointerOffset(p) + off, scalarKind(type));
      return String(v);
    };
    const u = T.unqualified(t);
    if (u.kind === 'array' && !isAggregate(u.of) && u.of.kind !== 'array') {
      const es = T.sizeOf(u.of) ?? 4;
      const n = u.size ?? 0;
      return `${name}=[${Array.from({ length: n }, (_, i) => read(u.of, i * es)).join(',')}]`;
    }
    if (isAggregate(u) || u.kind === 'array') return `${name}=?`;
    return `${name}=${read(u, 0)}`;
  });
}
