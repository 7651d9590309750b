// Kernel launches from a host program. clang compiles `k<<<grid, block, shared, stream>>>(args)`
// (CUDA ≥ 9.2 launch ABI) into __cudaPushCallConfiguration(grid, block, shared, stream) and a
// call of k's host stub, which pops the configuration (__cudaPopCallConfiguration) and calls
// cudaLaunchKernel(stub, grid, block, args, shared, stream); dim3 values travel by pointer in
// the wasm32 C ABI. The stub's function-table index names the kernel through registration, the
// arguments are read per the device kernel's parameters, and the grid runs to completion before
// the call returns (every launch is synchronous in the simulator).
import { occupancy } from '../../gpu/devices';
import { pointerAllocation } from '../../gpu/memory';
import { namingType } from '../device/layout';
import type { DeviceKernel } from '../device/kernel';
import type { LFunction } from '../llvm/module';
import { pointeeOf } from './pointee';
import { callSite, HostStop, placeText, type HostContext } from './hostContext';
import { ArgumentError, kernelArguments } from '../device/kernelArgs';
import type { Registrations } from './registration';
import { ProcExit } from './wasi';

type Fn = (...args: number[]) => number;
export type Dim3 = [number, number, number];

interface CallConfiguration {
  grid: Dim3;
  block: Dim3;
  shared: number;
  stream: number;
}

/** Bytes of struct cudaFuncAttributes in sims/clang/include/driver_types.h (wasm32). */
const FUNC_ATTRIBUTES_SIZE = 128;
/** The PTX ISA and binary versions a kernel reports (sm_70). */
const KERNEL_VERSION = 70;

/** A kernel launch whose arguments are read: running it returns the launch's error code. */
export type PreparedLaunch = () => number;

export function launchCalls(ctx: HostContext, reg: Registrations): { calls: Record<string, Fn>; prepare: (stub: number, grid: Dim3, block: Dim3, argsAt: number, shared: number) => PreparedLaunch | number; dim3: (at: number) => Dim3 } {
  const { runtime, linear, memory, flat, device, launcher } = ctx;
  const configurations: CallConfiguration[] = [];
  const invalid = (): number => runtime.status('cudaErrorInvalidValue');

  const dim3 = (at: number): Dim3 => {
    if (!linear.contains(at, 12)) return [0, 0, 0];
    const v = linear.view();
    return [v.getUint32(at, true), v.getUint32(at + 4, true), v.getUint32(at + 8, true)];
  };

  const kernelOf = (stub: number): DeviceKernel | undefined => {
    const k = reg.kernel(stub);
    if ('kernel' in k) return k.kernel;
    if (k.problem === 'no-device-code') {
      const { range, site } = callSite(ctx);
      throw new HostStop({ kind: 'not-supported', message: `not supported: kernel '${k.name}' has no device code in the program's files${placeText(site)}`, ...(range ? { range } : {}) }, 2);
    }
    return undefined;
  };

  /**
   * A launch with its arguments read now, to run now or later (a graph's kernel node keeps the
   * values the arguments had when it was made); an error code when there is no such launch.
   */
  const prepare = (stub: number, grid: Dim3, block: Dim3, argsAt: number, shared: number): PreparedLaunch | number => {
    const kernel = kernelOf(stub);
    if (!kernel) return runtime.status('cudaErrorInvalidDeviceFunction');
    const { range, site } = callSite(ctx);
    let args: number[];
    try {
      args = kernelArguments(kernel, linear.view(), (i) => (linear.contains(argsAt + i * 4, 4) ? linear.u32(argsAt + i * 4) : 0), memory, flat);
    } catch (e) {
      if (!(e instanceof ArgumentError)) throw e;
      throw new HostStop({ kind: 'not-supported', message: `not supported: launching '${kernel.displayName}': ${e.message}${placeText(site)}`, ...(range ? { range } : {}) }, 2);
    }
    nameArrays(kernel, args);
    return () => {
      const broken = runtime.status('cudaSuccess');
      if (broken) return broken;
      const outcome = launcher.launch({ kernel: kernel.compiled, grid, block, dynamicShared: shared, args, range: range ?? kernel.compiled.decl.nameRange });
      if (outcome.last) throw new ProcExit(0);
      // Out of steps: the run ends here, as the hand-written runner's does.
      if (launcher.exhausted) throw new HostStop(undefined, 124);
      return outcome.refused ? runtime.status('cudaErrorInvalidConfiguration') : 0;
    };
  };

  const launch = (stub: number, grid: Dim3, block: Dim3, argsAt: number, shared: number): number => {
    const broken = runtime.status('cudaSuccess');
    if (broken) return broken;
    const prepared = prepare(stub, grid, block, argsAt, shared);
    return typeof prepared === 'number' ? prepared : prepared();
  };

  /**
   * Allocations the program named (`d_data`) but whose element type only a kernel shows get
   * it from their first launch, so reports name the element (`d_data[3]`).
   */
  const functions = new Map<string, LFunction | undefined>();
  const nameArrays = (kernel: DeviceKernel, args: number[]): void => {
    kernel.params.forEach((param, i) => {
      if (!param.pointer || param.byval) return;
      const a = memory.allocation(pointerAllocation(args[i]));
      if (!a || a.layout || (a.space !== 'global' && a.space !== 'managed') || !/^[A-Za-z_][\w.>-]*$/.test(a.label)) return;
      if (!functions.has(kernel.name)) functions.set(kernel.name, ctx.modules.flatMap((m) => m.functions).find((f) => f.name === kernel.name && !f.declaration));
      const fn = functions.get(kernel.name);
      const element = fn && pointeeOf(fn, i, ctx.modules);
      const type = element && namingType(element);
      if (type) a.layout = [{ name: a.label, offset: 0, type, unbounded: true }];
    });
  };

  const kernelAttributes = (out: number, stub: number): number => {
    const kernel = kernelOf(stub);
    if (!kernel) return runtime.status('cudaErrorInvalidDeviceFunction');
    if (!linear.contains(out, FUNC_ATTRIBUTES_SIZE)) return invalid();
    const k = kernel.compiled;
    linear.bytes(out, FUNC_ATTRIBUTES_SIZE).fill(0);
    const v = linear.view();
    v.setUint32(out, k.sharedSize, true);
    v.setUint32(out + 8, k.frameSize, true);
    v.setInt32(out + 12, device.maxThreadsPerBlock, true);
    v.setInt32(out + 16, Math.min(255, k.numRegs), true);
    v.setInt32(out + 20, KERNEL_VERSION, true);
    v.setInt32(out + 24, KERNEL_VERSION, true);
    v.setInt32(out + 32, Math.max(0, device.sharedMemPerBlock - k.sharedSize), true);
    v.setInt32(out + 36, -1, true);
    return runtime.status('cudaSuccess');
  };

  const activeBlocks = (out: number, stub: number, blockSize: number, dynamicShared: number): number => {
    const kernel = kernelOf(stub);
    if (!kernel) return runtime.status('cudaErrorInvalidDeviceFunction');
    if (!linear.contains(out, 4) || blockSize <= 0) return invalid();
    const occ = occupancy(device, blockSize, kernel.compiled.sharedSize + dynamicShared);
    linear.setU32(out, blockSize > device.maxThreadsPerBlock ? 0 : (occ?.blocksPerSM ?? 0));
    return runtime.status('cudaSuccess');
  };

  const calls: Record<string, Fn> = {
    __cudaPushCallConfiguration: (grid, block, shared, stream) => {
      configurations.push({ grid: dim3(grid), block: dim3(block), shared, stream });
      return 0;
    },
    __cudaPopCallConfiguration: (gridOut, blockOut, sharedOut, streamOut) => {
      const c = configurations.pop();
      if (!c) return runtime.status('cudaErrorMissingConfiguration');
      const v = linear.view();
      c.grid.forEach((d, i) => v.setUint32(gridOut + i * 4, d, true));
      c.block.forEach((d, i) => v.setUint32(blockOut + i * 4, d, true));
      v.setUint32(sharedOut, c.shared, true);
      v.setUint32(streamOut, c.stream, true);
      return 0;
    },
    cudaLaunchKernel: (stub, grid, block, args, shared) => launch(stub, dim3(grid), dim3(block), args, shared),
    // Every block of a grid is resident at once or waits for an SM: grid-wide sync is the device's concern.
    cudaLaunchCooperativeKernel: (stub, grid, block, args, shared) => launch(stub, dim3(grid), dim3(block), args, shared),
    cudaLaunchKernelExC: (config, stub, args) => {
      if (!linear.contains(config, 32)) return invalid();
      return launch(stub, dim3(config), dim3(config + 12), args, linear.u32(config + 24));
    },
    cudaFuncGetAttributes: kernelAttributes,
    cudaFuncSetAttribute: (stub) => (kernelOf(stub) ? runtime.status('cudaSuccess') : runtime.status('cudaErrorInvalidDeviceFunction')),
    cudaFuncSetCacheConfig: (stub) => (kernelOf(stub) ? runtime.status('cudaSuccess') : runtime.status('cudaErrorInvalidDeviceFunction')),
    cudaFuncSetSharedMemConfig: (stub) => (kernelOf(stub) ? runtime.status('cudaSuccess') : runtime.status('cudaErrorInvalidDeviceFunction')),
    cudaFuncGetName: (out, stub) => {
      const name = reg.kernels.get(stub);
      if (name === undefined) return runtime.status('cudaErrorInvalidDeviceFunction');
      if (!linear.contains(out, 4)) return invalid();
      linear.setU32(out, linear.string(name));
      return runtime.status('cudaSuccess');
    },
    cudaOccupancyMaxActiveBlocksPerMultiprocessor: activeBlocks,
    cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags: activeBlocks,
    cudaOccupancyAvailableDynamicSMemPerBlock: (out, stub, numBlocks, blockSize) => {
      const kernel = kernelOf(stub);
      if (!kernel) return runtime.status('cudaErrorInvalidDeviceFunction');
      if (!linear.contains(out, 4) || numBlocks <= 0 || blockSize <= 0) return invalid();
      const perBlock = Math.floor(device.sharedMemPerSM / numBlocks);
      linear.setU32(out, Math.max(0, Math.min(device.sharedMemPerBlock, perBlock) - kernel.compiled.sharedSize));
      return runtime.status('cudaSuccess');
    },
  };
  return { calls, prepare, dim3 };
}
