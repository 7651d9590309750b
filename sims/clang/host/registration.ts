// What clang's module constructors tell the runtime before main runs: each translation unit
// registers its (placeholder) GPU binary, then each kernel — the host stub's function-table
// index and the kernel's mangled name — and each __device__/__constant__/__managed__ variable:
// the address of its host shadow and the variable's mangled name. Launches and symbol copies
// are resolved through these tables.
//
// A __managed__ variable must be one object for host and device code: its device storage is
// moved onto the host shadow's bytes (the device initializer copied there first), so host code
// reads and writes it directly and kernels see the same bytes.
import { pointerAllocation } from '../../gpu/memory';
import type { DeviceKernel } from '../device/kernel';
import type { HostContext } from './hostContext';

export interface RegisteredVariable {
  /** Mangled device name. */
  name: string;
  /** Provenance pointer of its device storage, and its size. */
  pointer: number;
  size: number;
  space: 'global' | 'constant' | 'managed';
}

/**
 * A kernel name as the device pass spells it. Names of what is local to `main` (a lambda passed
 * to a template kernel) carry main's parameter types in the host pass, where WebAssembly's
 * `main(int, char **)` is a function of its own (`Z4mainiPPcE`), and none in the device pass
 * (`Z4mainE`), as for any `main`.
 */
export function deviceSpelling(name: string): string {
  return name.replace(/Z4main(?:v|iPPc|iPPKc|iPKPc|iPKPKc|iPPcS0_|iPPcS_)E/g, 'Z4mainE');
}

/** The placeholder GPU binary's text (see sims/clang/toolchain/flags.ts GPU_BINARY). */
const UNIT_PREFIX = 'scord-unit:';

export class Registrations {
  /** Fat-binary handle → the translation unit it came from. */
  readonly units = new Map<number, string>();
  /** Host stub (function-table index) → mangled kernel name. */
  readonly kernels = new Map<number, string>();
  /** Host shadow address → device variable. */
  readonly variables = new Map<number, RegisteredVariable>();
  private nextHandle = 1;

  constructor(private readonly ctx: HostContext) {}

  /** The device kernel a stub launches, or why not. */
  kernel(stub: number): { kernel: DeviceKernel; name: string } | { problem: 'unregistered' } | { problem: 'no-device-code'; name: string } {
    const registered = this.kernels.get(stub);
    if (registered === undefined) return { problem: 'unregistered' };
    const kernels = this.ctx.program.kernels;
    const name = kernels.has(registered) ? registered : deviceSpelling(registered);
    if (!kernels.has(name)) return { problem: 'no-device-code', name: registered };
    return { kernel: kernels.get(name)!, name };
  }

  /** The variable whose host shadow is at (or, with an offset, covers) `address`. */
  variable(address: number): RegisteredVariable | undefined {
    return this.variables.get(address);
  }

  /** A unit's GPU binary (the fat-binary wrapper's third field names the unit): its handle. */
  private registerUnit(wrapper: number): number {
    const linear = this.ctx.linear;
    const handle = this.nextHandle++;
    const data = linear.contains(wrapper, 12) ? linear.u32(wrapper + 8) : 0;
    const text = data ? linear.cstring(data, 4096) : '';
    this.units.set(handle, text.startsWith(UNIT_PREFIX) ? text.slice(UNIT_PREFIX.length) : '');
    return handle;
  }

  /**
   * Relocatable device code (-fgpu-rdc) registers a unit through
   * `__cudaRegisterLinkedBinary_<module id>(registerGlobals, wrapper, moduleId, dummy)`: the
   * runtime gives the unit a handle and calls back `registerGlobals(handle)`, which registers
   * the unit's kernels and variables as a plain unit's constructor does.
   */
  readonly linkedBinary = (registerGlobals: number, wrapper: number): void => {
    const handle = this.registerUnit(wrapper);
    const f = this.ctx.table?.get(registerGlobals) as ((handle: number) => unknown) | null | undefined;
    if (typeof f === 'function') f(handle);
  };

  imports(): Record<string, (...args: number[]) => number | void> {
    const ctx = this.ctx;
    const linear = ctx.linear;
    return {
      __cudaRegisterFatBinary: (wrapper: number): number => this.registerUnit(wrapper),
      __cudaRegisterFatBinaryEnd: (): void => undefined,
      __cudaUnregisterFatBinary: (): void => undefined,
      __cudaRegisterFunction: (_handle: number, hostFun: number, deviceFun: number): number => {
        this.kernels.set(hostFun, linear.cstring(deviceFun));
        return 0;
      },
      __cudaRegisterVar: (_handle: number, hostVar: number, deviceAddress: number, _deviceName: number, _ext: number, size: number): void => {
        const name = linear.cstring(deviceAddress);
        const g = ctx.program.globals.get(name);
        if (!g) return;
        this.variables.set(hostVar, { name, ...g });
        // The host shadow must be as large as the device variable to stand for it.
        if (g.space === 'managed' && (size === 0 || size >= g.size)) this.shareManaged(g.pointer, hostVar);
      },
      // CUDA's own form (clang emits it for HIP only): the host holds a pointer to the storage.
      __cudaRegisterManagedVar: (_handle: number, hostVarPtr: number, deviceAddress: number): void => {
        const name = linear.cstring(deviceAddress);
        const g = ctx.program.globals.get(name);
        if (!g || !linear.contains(hostVarPtr, 4)) return;
        const at = linear.malloc(g.size);
        if (!at) return;
        this.shareManaged(g.pointer, at);
        linear.setU32(hostVarPtr, at);
        this.variables.set(hostVarPtr, { name, ...g });
      },
    };
  }

  /** Moves a managed variable's device storage onto the host bytes at `at`. */
  private shareManaged(pointer: number, at: number): void {
    const { memory, linear } = this.ctx;
    const a = memory.allocation(pointerAllocation(pointer))!;
    if (!linear.contains(at, a.size) || linear.adoptedAt(pointer)) return;
    const bytes = linear.region(at, a.size);
    bytes.set(a.bytes.subarray(0, a.size));
    a.bytes = bytes;
    a.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    linear.adopt(pointer, at);
  }
}
