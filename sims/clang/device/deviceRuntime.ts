// The CUDA runtime as device code calls it (dynamic parallelism): kernels launched from device
// code, its streams, device-side copies and memsets, and cudaDeviceSynchronize. With relocatable
// device code clang turns `child<<<grid, block, shared, stream>>>(args)` in a kernel into
// `cudaGetParameterBuffer(align, size)`, stores of each argument at its alignment in that buffer,
// and `cudaLaunchDevice(@child, buffer, grid, block, shared, stream)` (grid and block are dim3
// passed by pointer). The launch reads the arguments at once (the buffer is the launch's, and is
// freed), and hands the grid to the run (RunContext.deviceLaunches), which runs it after the
// grid that launched it: CUDA runs a child grid at some point after its launch and before its
// parent grid completes, and CUDA 12 device code cannot wait for it, so this is one schedule
// a GPU may take. The device-side streams a launch names only order grids, which run one at a
// time here anyway.
import { DeviceFault, load, store } from '../../gpu/access';
import { pointerAllocation, pointerOffset, type Memory, type ScalarKind } from '../../gpu/memory';
import { cudaErrorName, cudaErrorString } from '../../runtime/cudaErrors';
import { WARP, type Lanes } from '../../ir/ir';
import type { LInstruction } from '../llvm/module';
import type { DeviceKernel } from './kernel';
import { ArgumentError, kernelArguments } from './kernelArgs';
import type { Lowering } from './lowering';
import { emitStore } from './memory';

/** Where each argument lies in a kernel's parameter buffer: at its alignment, in order. */
export function parameterOffsets(kernel: DeviceKernel): number[] {
  let at = 0;
  return kernel.params.map((p) => {
    at = Math.ceil(at / p.align) * p.align;
    const here = at;
    at += p.size;
    return here;
  });
}

/** `cudaGetParameterBuffer(align, size)`: a fresh device buffer for one launch's arguments. */
export function lowerParameterBuffer(L: Lowering, i: LInstruction): void {
  const size = L.reg(i.operands[1]) * WARP;
  const ro = L.result(i).reg * WARP;
  const range = L.range;
  L.emit((w, l) => {
    w.regs[ro + l] = w.ctx.memory.allocate('global', Math.max(1, w.regs[size + l] >>> 0), { label: 'the argument buffer of a launch in device code', origin: range });
  });
}

/** `cudaLaunchDevice(kernel, buffer, grid, block, shared, stream)`: the child grid, queued for the run. */
export function lowerDeviceLaunch(L: Lowering, i: LInstruction): void {
  const [callee, buffer, grid, block, shared] = i.operands;
  if (callee.kind !== 'global') L.fail('not supported: a launch in device code of a kernel named by a pointer');
  const name = callee.name;
  const kernels = L.kernels;
  const buf = L.reg(buffer) * WARP;
  const dims = [L.reg(grid) * WARP, L.reg(block) * WARP];
  const sh = L.reg(shared) * WARP;
  const ro = L.result(i).reg * WARP;
  const range = L.range;
  const flat = L.flat;
  let offsets: number[] | undefined;
  const dim3 = (w: Lanes, l: number, which: number): [number, number, number] => {
    const p = w.regs[dims[which] + l];
    return [load(w.ctx, p, 'u32', range), load(w.ctx, p + 4, 'u32', range), load(w.ctx, p + 8, 'u32', range)];
  };
  L.emitMemory((w, l) => {
    const queue = w.ctx.deviceLaunches;
    if (!queue) throw new DeviceFault({ kind: 'invalid-pointer', message: `a launch of ${name} in device code, where the run takes none` }, range);
    // The callee is lowered when first launched: a kernel may launch itself.
    const kernel = kernels(name);
    if (!kernel) throw new DeviceFault({ kind: 'invalid-pointer', message: `a launch in device code of ${name}, which is not a kernel of the program` }, range);
    offsets ??= parameterOffsets(kernel);
    const p = w.regs[buf + l];
    const a = w.ctx.memory.allocation(pointerAllocation(p));
    if (!a || a.freed) throw new DeviceFault({ kind: 'invalid-pointer', message: `a launch of ${kernel.displayName} in device code whose argument buffer is not one` }, range);
    const base = pointerOffset(p);
    let args: number[];
    try {
      args = kernelArguments(kernel, a.view, (k) => base + offsets![k], w.ctx.memory, flat, 0);
    } catch (e) {
      if (!(e instanceof ArgumentError)) throw e;
      throw new DeviceFault({ kind: 'not-supported', message: `not supported: a launch of ${kernel.displayName} in device code: ${e.message}` }, range);
    }
    w.ctx.memory.free(p, 'device');
    queue.push({ kernel: kernel.compiled, grid: dim3(w, l, 0), block: dim3(w, l, 1), dynamicShared: w.regs[sh + l] >>> 0, args, range });
    w.regs[ro + l] = 0;
  });
}

/** `cudaStreamCreateWithFlags(&stream, flags)` in device code: a handle that orders nothing more (grids run one at a time). */
export function lowerDeviceStream(L: Lowering, i: LInstruction): void {
  emitStore(L, L.constReg(1), L.reg(i.operands[0]), 0, { kind: 'int', bits: 32 }, false, undefined, L.isLocal(i.operands[0]));
  L.copy(L.result(i), { reg: L.constReg(0), n: 1 });
}

/**
 * `cudaDeviceSynchronize()` in device code: nothing to wait for until the grid has launched a
 * grid, and then it cannot wait here (children run after their parent), so it is refused.
 */
export function lowerDeviceSynchronize(L: Lowering, i: LInstruction): void {
  const ro = L.result(i).reg * WARP;
  const range = L.range;
  L.emit((w, l) => {
    if (w.ctx.deviceLaunches?.length) {
      throw new DeviceFault({ kind: 'not-supported', message: 'not supported: cudaDeviceSynchronize in device code after a launch in device code (a parent waiting for its child grids; CUDA 12 removed it: launch the work that needs the results as another child, or from the host)' }, range);
    }
    w.regs[ro + l] = 0;
  });
}

/**
 * `cudaMemcpyAsync(dst, src, count, kind, stream)` and `cudaMemsetAsync(dst, value, count,
 * stream)` in device code: made at once, through checked loads and stores. Work the grid has
 * launched runs later, so a copy that a launched grid should finish first cannot be ordered
 * after it: refused once the grid has launched one.
 */
export function lowerDeviceCopy(L: Lowering, i: LInstruction, set: boolean): void {
  const [dst, src, count] = i.operands.map((o) => L.reg(o) * WARP);
  const ro = L.result(i).reg * WARP;
  const range = L.range;
  const what = set ? 'cudaMemsetAsync' : 'cudaMemcpyAsync';
  L.emitMemory((w, l) => {
    if (w.ctx.deviceLaunches?.length) throw new DeviceFault({ kind: 'not-supported', message: `not supported: ${what} in device code after a launch in device code (the launched grids run after this one, so the copy cannot wait for them)` }, range);
    const d = w.regs[dst + l];
    const n = w.regs[count + l] >>> 0;
    if (set) {
      const value = w.regs[src + l] & 0xff;
      for (let k = 0; k < n; k++) store(w.ctx, d + k, 'u8', value, range);
    } else {
      const s = w.regs[src + l];
      const kind: ScalarKind = n % 4 === 0 && pointerOffset(d) % 4 === 0 && pointerOffset(s) % 4 === 0 ? 'u32' : 'u8';
      const step = kind === 'u32' ? 4 : 1;
      // Forwards or backwards, so that an overlapping copy reads every byte before it is written (memmove).
      const forwards = pointerAllocation(d) !== pointerAllocation(s) || pointerOffset(d) <= pointerOffset(s);
      for (let k = 0; k < n; k += step) {
        const at = forwards ? k : n - step - k;
        store(w.ctx, d + at, kind, load(w.ctx, s + at, kind, range), range);
      }
    }
    w.regs[ro + l] = 0;
  });
}

/** Each run's error texts, made in its memory once: device code keeps the pointers. */
const ERROR_TEXTS = new WeakMap<Memory, Map<string, number>>();

/** `cudaGetErrorString(code)` / `cudaGetErrorName(code)` in device code: a pointer to the text in device memory. */
export function lowerDeviceErrorText(L: Lowering, i: LInstruction, name: boolean): void {
  const code = L.reg(i.operands[0]) * WARP;
  const ro = L.result(i).reg * WARP;
  L.emit((w, l) => {
    const memory = w.ctx.memory;
    const text = name ? cudaErrorName(w.regs[code + l] | 0) : cudaErrorString(w.regs[code + l] | 0);
    let texts = ERROR_TEXTS.get(memory);
    if (!texts) ERROR_TEXTS.set(memory, (texts = new Map()));
    let p = texts.get(text);
    if (p === undefined) {
      const bytes = new TextEncoder().encode(`${text}\0`);
      p = memory.allocate('constant', bytes.length, { label: `"${text}"` });
      memory.allocation(pointerAllocation(p))!.bytes.set(bytes);
      texts.set(text, p);
    }
    w.regs[ro + l] = p;
  });
}
