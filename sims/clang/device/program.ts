// The device side of a program compiled by clang: its kernels lowered into the simulator's IR and
// its device globals allocated, from the NVVM IR of each translation unit. The host side
// (sims/clang/host) launches kernels by name and names globals for cudaMemcpyToSymbol.
//
// Kernels are lowered on first use: a construct the simulator cannot run fails the launch of the
// kernel that uses it (a located LowerError), never the program's other kernels.
import type { Range } from '../../frontend/source';
import type { FlatAddresses } from '../../gpu/flat';
import type { Memory } from '../../gpu/memory';
import { LowerError, type CompiledFunction } from '../../ir/ir';
import type { DebugLocation, LFunction, LModule, LValue } from '../llvm/module';
import { functionName } from './demangle';
import { DeviceGlobals } from './globals';
import { alignOf, sizeOf } from './layout';
import { displayName, KernelLowering } from './lowerer';
import { Symbols } from './symbols';
import type { DeviceKernel } from './kernel';

export type { DeviceKernel } from './kernel';

export interface DeviceProgram {
  /**
   * The program's kernels by mangled name. Lowering happens on the first `get` of a kernel, which
   * throws a LowerError (located at the construct) when the kernel uses something the simulator
   * cannot run; `has`, `keys` and `size` never lower.
   */
  kernels: Map<string, DeviceKernel>;
  /**
   * The functions a call through a pointer with `argc` arguments may reach, by address: the ones
   * whose address the program takes, or, when it takes none (a kernel handed a function pointer
   * by its caller: GPUVerify's kernels), every device function of that arity.
   */
  indirectTargets(argc: number): { address: number; name: string }[];
  /** The address of the device function (not a kernel) named `name` in the source, if the program defines one. */
  deviceFunction(name: string): number | undefined;
  /** __device__/__constant__/__managed__ globals the host may name: mangled name → storage. */
  globals: Map<string, { pointer: number; size: number; space: 'global' | 'constant' | 'managed' }>;
}

export interface DeviceLoadOptions {
  memory: Memory;
  flat: FlatAddresses;
  /** Compile access/fence/barrier events in (a detector listens). */
  events: boolean;
  /** End a block after each memory access (random scheduler). */
  switchAtMemory: boolean;
  /** Source range of a !dbg location: the token at (file, 1-based line, 1-based column). */
  rangeOf: (loc: DebugLocation | undefined) => Range;
  /**
   * Files whose code reports at the user's call instead (the toolchain's and the project's CUDA
   * headers: a race inside atomicAdd's definition is the call's race). Default: /usr/include and
   * any folder named include under sims/clang or beside the bundle.
   */
  isLibraryFile?: (file: string) => boolean;
}

/** Lays out the program's device globals and makes its kernels available for launch. */
export function loadDeviceProgram(modules: LModule[], options: DeviceLoadOptions): DeviceProgram {
  const symbols = new Symbols(modules);
  const globals = new DeviceGlobals(symbols, options.memory, options.flat);
  let taken: Set<LFunction> | undefined;
  const addressTaken = (): Set<LFunction> => (taken ??= addressTakenFunctions(symbols));
  const kernels = new Map<string, { fn: LFunction; module: LModule }>();
  for (const m of modules) {
    for (const f of m.functions) {
      if (f.declaration || f.callingConv !== 'ptx_kernel' || kernels.has(f.name)) continue;
      kernels.set(f.name, { fn: f, module: m });
    }
  }
  const takesArgs = (argc: number) => (f: LFunction): boolean => f.params.length === argc || (!!f.varargs && f.params.length <= argc);
  const indirectTargets = (argc: number): LFunction[] => {
    const taken = [...addressTaken()].filter(takesArgs(argc));
    if (taken.length) return taken;
    return modules.flatMap((m) => m.functions).filter((f) => !f.declaration && f.callingConv !== 'ptx_kernel' && !f.name.startsWith('llvm.')).filter(takesArgs(argc));
  };
  const isLibraryFile = options.isLibraryFile ?? defaultLibraryFile;
  const lower = (name: string): DeviceKernel | undefined => {
    const k = kernels.get(name);
    if (!k) return undefined;
    const lowering = new KernelLowering({
      symbols, globals, memory: options.memory, flat: options.flat, events: options.events, switchAtMemory: options.switchAtMemory,
      rangeOf: options.rangeOf, isLibraryFile, indirectTargets, kernel: (name) => table.get(name),
    });
    const env = globals.constEnv(k.module, (g) => lowering.sharedAddress(g));
    const shown = displayName(k.fn);
    let compiled: CompiledFunction;
    try {
      compiled = lowering.compileKernel(k.fn, k.module, env, shown);
    } catch (e) {
      if (e instanceof LowerError || !(e instanceof Error)) throw e;
      // IR this lowering did not expect: a located error, not a crash of the analysis.
      throw new LowerError(`not supported: the device code of ${shown} could not be lowered (${e.message})`, lowering.range ?? options.rangeOf(undefined));
    }
    return {
      name,
      displayName: shown,
      compiled,
      params: k.fn.params.map((p) => ({
        type: p.type,
        size: sizeOf(p.byval ?? p.type),
        align: alignOf(p.byval ?? p.type),
        pointer: p.type.kind === 'ptr',
        ...(p.byval ? { byval: p.byval } : {}),
      })),
    };
  };
  const table = new KernelTable(kernels, lower);
  const deviceFunction = (name: string): number | undefined => {
    const f = modules.flatMap((m) => m.functions).find((x) => !x.declaration && x.callingConv !== 'ptx_kernel' && functionName(x.name) === name);
    return f && globals.functionAddress(f);
  };
  return { kernels: table, globals: globals.named(), indirectTargets: (argc) => indirectTargets(argc).map((f) => ({ address: globals.functionAddress(f)!, name: functionName(f.name) })), deviceFunction };
}

/** A map of kernels that lowers each one when it is first asked for. */
class KernelTable extends Map<string, DeviceKernel> {
  constructor(
    private readonly known: Map<string, unknown>,
    private readonly lower: (name: string) => DeviceKernel | undefined,
  ) {
    super();
  }

  override get(name: string): DeviceKernel | undefined {
    let k = super.get(name);
    if (k === undefined && this.known.has(name)) {
      k = this.lower(name);
      if (k) super.set(name, k);
    }
    return k;
  }

  override has(name: string): boolean {
    return this.known.has(name);
  }

  override get size(): number {
    return this.known.size;
  }

  override keys(): MapIterator<string> {
    return this.known.keys();
  }

  /** Every kernel, lowered (throws for the first one that cannot be). */
  override entries(): MapIterator<[string, DeviceKernel]> {
    return [...this.known.keys()].map((n): [string, DeviceKernel] => [n, this.get(n)!])[Symbol.iterator]() as MapIterator<[string, DeviceKernel]>;
  }

  override values(): MapIterator<DeviceKernel> {
    return [...this.known.keys()].map((n) => this.get(n)!)[Symbol.iterator]() as MapIterator<DeviceKernel>;
  }

  override [Symbol.iterator](): MapIterator<[string, DeviceKernel]> {
    return this.entries();
  }

  override forEach(f: (value: DeviceKernel, key: string, map: Map<string, DeviceKernel>) => void): void {
    for (const [k, v] of this.entries()) f(v, k, this);
  }
}

/** /usr/include (clang's own headers) and the project's CUDA headers. */
function defaultLibraryFile(file: string): boolean {
  return file.startsWith('/usr/include/') || /[\\/]sims[\\/]clang[\\/]include[\\/]/.test(file) || /[\\/]dist[\\/]include[\\/]/.test(file);
}

/** Defined functions whose address is used as a value anywhere (code or initializers). */
function addressTakenFunctions(symbols: Symbols): Set<LFunction> {
  const out = new Set<LFunction>();
  for (const m of symbols.modules) {
    const visit = (v: LValue | undefined): void => {
      if (!v) return;
      if (v.kind === 'global') {
        const f = symbols.func(m, v.name);
        if (f && !f.fn.declaration) out.add(f.fn);
      } else if (v.kind === 'aggregate') v.elements.forEach(visit);
      else if (v.kind === 'expr') v.inst.operands.forEach(visit);
    };
    for (const g of m.globals) if (!g.name.startsWith('llvm.')) visit(g.init);
    for (const f of m.functions) {
      for (const b of f.blocks) {
        for (const i of b.instructions) {
          i.operands.forEach(visit);
          i.incoming?.forEach((x) => visit(x.value));
        }
      }
    }
  }
  return out;
}
