// Runs a program compiled by clang: its host code as a real WebAssembly program (main and all it
// calls, with the C and C++ libraries), sandboxed by our own WASI (./wasi.ts), its CUDA calls
// served by the simulator (./cudaImports.ts), its kernels lowered from NVVM IR
// (sims/clang/device) and run on the simulated GPU with the same detectors as the hand-written
// path. Host and device share one 32-bit address space (sims/gpu/flat.ts): the linear memory at
// 0, device allocations above it.
//
// The run is synchronous. Host code cannot be interrupted: the step budget counts device steps
// only, and a host program that loops forever without calling the runtime does not end — the
// caller bounds the run's time (the analysis worker's time budget does).
import type { Range } from '../../frontend/source';
import { DEFAULT_DEVICE, devicePreset, type DeviceConfig } from '../../gpu/devices';
import { seededRandom } from '../../values/random';
import { FlatAddresses } from '../../gpu/flat';
import { DEFAULT_MEMORY_LIMIT, Memory } from '../../gpu/memory';
import { ALLOCATION_OVERHEAD, formatBytes, MemoryAccount, MemoryLimitExceeded } from '../../gpu/memoryAccount';
import { randomChooser, WeakMemory, weakModelConfig } from '../../gpu/weakMemory';
import { LowerError } from '../../ir/ir';
import { resetWide } from '../../values/wide';
import { launchCheckSetup, type RunFinding, type RunOptions, type RunResult } from '../../host/run';
import { CudaRuntime } from '../../runtime/runtime';
import { loadDeviceProgram, type DeviceProgram } from '../device/program';
import type { DebugLocation, LModule } from '../llvm/module';
import { cudaImports } from './cudaImports';
import { entryLaunch } from './entryLaunch';
import { GridLauncher } from '../../host/gridLauncher';
import { RunInterrupted } from '../../machine/executor';
import { HostStop, placeText, type Finding, type HostContext } from './hostContext';
import { currentStack, HostSites } from './hostSites';
import { LinearMemory } from './linearMemory';
import { observeDeviceGlobals } from './observe';
import { SandboxFiles } from './sandboxFiles';
import { SimClock } from './simClock';
import { trapFinding } from './traps';
import { ProcExit, Wasi } from './wasi';
import { readWasm, WasmFormatError, type WasmInfo } from './wasmBinary';

export interface ClangRunOptions extends RunOptions {
  /** The program's arguments after its name. */
  argv?: string[];
  /** Environment variables (none by default). */
  env?: Record<string, string>;
  /** Bytes standard input holds (empty by default). */
  stdin?: Uint8Array;
  /** A folder the program may read (its own), at `.` and at its real path; never written. */
  readFolder?: string;
  /** The source range of a debug location (host line tables and device !dbg). */
  rangeOf?: (loc: DebugLocation | undefined) => Range;
  /** The text of a source file (ranges index it): allocations are named after the variable they are stored in. */
  sourceText?: (file: string) => string | undefined;
}

export interface ClangRunResult extends RunResult {
  /** Files the program wrote, by path relative to its folder; never written to disk. */
  files?: Record<string, Uint8Array>;
}

export interface ClangProgram {
  /** The linked host program; absent for a kernel-only program (run with `entry`). */
  wasm?: Uint8Array;
  device: LModule[];
}

const DEFAULT_STEP_BUDGET = 200_000_000;
const WASM_PAGE = 65536;
/** 4 GB: all a 32-bit WebAssembly memory can address. */
const MAX_WASM32_PAGES = 65536;

/** Compiled modules and what was read from them, per program (a run per schedule reuses them). */
const compiled = new WeakMap<Uint8Array, { module: WebAssembly.Module; info: WasmInfo; sites: HostSites }>();

function compile(wasm: Uint8Array): { module: WebAssembly.Module; info: WasmInfo; sites: HostSites } {
  let c = compiled.get(wasm);
  if (!c) {
    const info = readWasm(wasm);
    c = { module: new WebAssembly.Module(wasm as Uint8Array<ArrayBuffer>), info, sites: new HostSites(info) };
    compiled.set(wasm, c);
  }
  return c;
}

export function runClangProgram(program: ClangProgram, options: ClangRunOptions = {}): ClangRunResult {
  const device: DeviceConfig = devicePreset(options.device ?? DEFAULT_DEVICE) ?? devicePreset(DEFAULT_DEVICE)!;
  const budget = options.stepBudget ?? DEFAULT_STEP_BUDGET;
  const model = options.memoryModel ?? 'sc';
  const scheduler = model === 'sc' ? options.scheduler : 'random';
  const rangeOf = options.rangeOf ?? pointRange;
  resetWide();
  const memory = new Memory(new MemoryAccount(options.deviceMemoryLimit ?? DEFAULT_MEMORY_LIMIT));
  memory.checkUninitialised = !!options.initCheck;
  const chooser = options.chooser ?? (model === 'sc' ? undefined : randomChooser(seededRandom((options.seed ?? 1) * 7919 + 17)));
  const weak = model === 'sc' && !options.weakTrace ? undefined : new WeakMemory(memory, weakModelConfig(model, options.weakSwitches), chooser ?? randomChooser(seededRandom(options.seed ?? 1)), options.weakTrace, options.sharedAddresses);
  options.attach?.(memory);
  const listener = options.listen?.(memory);
  const events = listener ?? options.events;
  const runtime = new CudaRuntime(memory, options.deviceMemoryLimit);
  const flat = new FlatAddresses(memory);
  const clock = new SimClock();
  const findings: Finding[] = [];
  const fairnessCheck = options.launchCheck?.(launchCheckSetup(device, budget, options));
  const launcher = new GridLauncher(
    {
      device, memory, runtime, clock, budget,
      ...(events ? { events } : {}), ...(weak ? { weak } : {}), ...(fairnessCheck ? { fairnessCheck } : {}), ...(scheduler ? { scheduler } : {}), ...(chooser ? { chooser } : {}),
      ...(options.onDecision ? { onDecision: options.onDecision } : {}), ...(options.model ? { model: options.model } : {}), ...(options.seed !== undefined ? { seed: options.seed } : {}), ...(options.maxThreads !== undefined ? { maxThreads: options.maxThreads } : {}),
      ...(options.untilLaunchOf ? { untilLaunchOf: options.untilLaunchOf } : {}),
      ...(options.sampleBlocks ? { sampleBlocks: options.sampleBlocks } : {}),
      ...(options.execution ? { execution: options.execution } : {}),
      ...(options.reuseLaunches === false ? { reuseLaunches: false } : {}),
    },
    findings,
  );
  let deviceProgram: DeviceProgram | undefined;
  let files: SandboxFiles | undefined;

  const result = (exitCode: number): ClangRunResult => ({
    ...(options.observe ? { observed: deviceProgram ? observeDeviceGlobals(options.observe, deviceProgram, program.device, memory) : options.observe.map((n) => `${n}=?`) } : {}),
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
    ...(files ? { files: files.written() } : {}),
  });

  try {
    deviceProgram = loadDeviceProgram(program.device, { memory, flat, events: events !== undefined || fairnessCheck !== undefined, switchAtMemory: scheduler === 'random', rangeOf });
    if (options.entry) {
      const request = entryLaunch(options.entry, deviceProgram, program.device, memory, flat);
      if ('kind' in request) {
        findings.push(request);
        return result(2);
      }
      launcher.launch(request);
      return result(launcher.exhausted ? 124 : 0);
    }
    if (!program.wasm) {
      findings.push({ kind: 'no-main', message: 'the program has no main function to run' });
      return result(2);
    }
    files = new SandboxFiles(options.readFolder);
    return runHost(program.wasm, deviceProgram, files);
  } catch (e) {
    if (e instanceof LowerError) {
      findings.push({ kind: 'not-supported', message: e.message, range: e.range });
      return result(2);
    }
    if (e instanceof MemoryLimitExceeded) {
      findings.push({ kind: 'memory-limit', message: e.message, ...(e.range ? { range: e.range } : {}) });
      return result(137);
    }
    throw e;
  }

  function runHost(wasm: Uint8Array, deviceProgram: DeviceProgram, files: SandboxFiles): ClangRunResult {
    let c: ReturnType<typeof compile>;
    try {
      c = compile(wasm);
    } catch (e) {
      if (!(e instanceof WasmFormatError) && !(e instanceof WebAssembly.CompileError)) throw e;
      findings.push({ kind: 'not-supported', message: `the host program could not be loaded: ${(e as Error).message}` });
      return result(2);
    }
    const odd = c.info.imports.find((i) => i.kind !== 'function' && !(i.kind === 'memory' && i.module === 'env' && i.name === 'memory'));
    if (odd) {
      findings.push({ kind: 'not-supported', message: `not supported: the host program imports ${odd.kind} '${odd.module}.${odd.name}', which the simulator does not provide` });
      return result(2);
    }
    const made = linearMemoryFor(c.info, memory.account);
    if (typeof made === 'string') {
      findings.push({ kind: 'memory-limit', message: made });
      return result(137);
    }
    // Imports are bound once the instance (and so its memory) exists; nothing runs before that.
    const bound = new Map<string, (...args: unknown[]) => unknown>();
    const importObject: Record<string, Record<string, unknown>> = made ? { env: { memory: made } } : {};
    for (const imp of c.info.imports) {
      if (imp.kind !== 'function') continue;
      const key = `${imp.module}\0${imp.name}`;
      (importObject[imp.module] ??= {})[imp.name] = (...args: unknown[]) => {
        try {
          return bound.get(key)!(...args);
        } catch (e) {
          // A pointer argument outside the linear memory (a view could not be made there).
          if (!(e instanceof RangeError) || /call stack/i.test(e.message)) throw e;
          const site = c.sites.site(currentStack());
          throw new HostStop({ kind: 'invalid-pointer', message: `${imp.name} was given a pointer outside the host program's memory (${e.message})${placeText(site)}`, ...(site.location ? { range: rangeOf(site.location) } : {}) }, 139);
        }
      };
    }
    const instance = new WebAssembly.Instance(c.module, importObject as WebAssembly.Imports);
    const exports = instance.exports as Record<string, unknown>;
    const wasmMemory = exports.memory;
    const start = exports._start;
    if (!(wasmMemory instanceof WebAssembly.Memory) || typeof start !== 'function') {
      findings.push({ kind: 'not-supported', message: 'the host program is not a WASI command (it exports no memory or no _start)' });
      return result(2);
    }
    const fn = (name: string): ((...a: number[]) => number) | undefined => (typeof exports[name] === 'function' ? (exports[name] as (...a: number[]) => number) : undefined);
    const malloc = fn('malloc');
    const free = fn('free');
    const linear = new LinearMemory(wasmMemory, memory, flat, { ...(malloc ? { malloc } : {}), ...(free ? { free: (p: number) => void free(p) } : {}) });
    const table = Object.values(exports).find((x): x is WebAssembly.Table => x instanceof WebAssembly.Table);
    const ctx: HostContext = {
      memory, flat, runtime, clock, device, program: deviceProgram, launcher, linear, sites: c.sites, rangeOf, findings, modules: program.device,
      ...(table ? { table } : {}), ...(options.sourceText ? { sourceText: options.sourceText } : {}),
    };
    const wasi = new Wasi({
      args: [options.programName ?? 'a.out', ...(options.argv ?? [])],
      ...(options.env ? { env: options.env } : {}),
      ...(options.stdin ? { stdin: options.stdin } : {}),
      files,
      clock,
      seed: options.seed ?? 1,
      write: (stream, text) => runtime.print(stream, text),
      memory: () => wasmMemory,
    });
    const wasiNames = c.info.imports.filter((i) => i.module === 'wasi_snapshot_preview1').map((i) => i.name);
    const implementations: Record<string, Record<string, unknown>> = { env: cudaImports(ctx, c.info.imports).env, wasi_snapshot_preview1: wasi.imports(wasiNames) };
    for (const imp of c.info.imports) {
      const f = implementations[imp.module]?.[imp.name];
      bound.set(`${imp.module}\0${imp.name}`, typeof f === 'function' ? (f as (...args: unknown[]) => unknown) : refuseModule(imp.module, imp.name));
    }

    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 64;
    try {
      (start as () => void)();
      return result(0);
    } catch (e) {
      if (e instanceof RunInterrupted) throw e;
      if (e instanceof ProcExit) return result(e.status);
      if (e instanceof HostStop) {
        if (e.finding) findings.push(e.finding);
        return result(e.exitCode);
      }
      if (e instanceof LowerError) {
        findings.push({ kind: 'not-supported', message: e.message, range: e.range });
        return result(2);
      }
      const trap = trapFinding(e, {
        module: wasm,
        sites: c.sites,
        rangeOf,
        stderr: () => runtime.output.filter((o) => o.stream === 'stderr').map((o) => o.text).join(''),
        hasDeviceMemory: hasDeviceAllocations(memory),
      });
      if (!trap) throw e;
      findings.push(trap.finding);
      return result(trap.exitCode);
    } finally {
      Error.stackTraceLimit = limit;
      wasi.flush();
    }
  }
}

/** A call into an import module other than `env` and WASI: refused when called. */
function refuseModule(module: string, name: string): () => never {
  return () => {
    throw new HostStop({ kind: 'not-supported', message: `not supported: ${module}.${name} (an import the simulator does not provide)` }, 2);
  };
}

/**
 * The linear memory a host program that imports its memory runs in: as large as it asks to
 * start with, and able to grow only as far as the run's memory limit leaves room (what its heap
 * asks beyond that fails inside the program, as on a full machine). Undefined for a module that
 * brings its own memory; a message when even its start does not fit.
 */
function linearMemoryFor(info: WasmInfo, account: MemoryAccount): WebAssembly.Memory | string | undefined {
  const imported = info.imports.find((i) => i.kind === 'memory');
  if (!imported) return undefined;
  const initial = imported.minimumPages ?? 0;
  const room = Math.min(MAX_WASM32_PAGES, Math.floor((account.limit - account.allocatedBytes - ALLOCATION_OVERHEAD) / WASM_PAGE));
  if (initial > room) return `the host program needs ${formatBytes(initial * WASM_PAGE)} of memory to start; the memory limit is ${formatBytes(account.limit)}`;
  return new WebAssembly.Memory({ initial, maximum: room });
}

/** Global device memory (cudaMalloc and kin, __device__ variables) exists in the run. */
function hasDeviceAllocations(memory: Memory): boolean {
  for (let id = 1; ; id++) {
    const a = memory.allocation(id);
    if (!a) return false;
    if (a.space === 'global') return true;
  }
}

/** Without a source reader: an empty range at the location. */
function pointRange(loc: DebugLocation | undefined): Range {
  const line = Math.max(0, (loc?.line ?? 1) - 1);
  const character = Math.max(0, (loc?.column ?? 1) - 1);
  const p = { line, character, offset: 0 };
  return { file: loc?.file ?? '', start: p, end: p };
}
