// The memory functions of the CUDA runtime for a host program: allocation, copies, memsets and
// symbols, on the simulator's CudaRuntime (which checks every copy against the allocations it
// touches). Pointers cross the boundary as 32-bit flat addresses: a device pointer the program
// holds is the flat address of a device allocation (above its linear memory), a host pointer is
// an offset into its linear memory. Managed and pinned memory come from the program's own heap
// (./linearMemory.ts), so host code reads them directly.
import { pointerAllocation } from '../../gpu/memory';
import type { Range } from '../../frontend/source';
import { allocatedVariable, callSite, type HostContext } from './hostContext';
import type { Registrations } from './registration';

type Fn = (...args: number[]) => number;

/** cudaMemoryType: pageable host memory is unregistered; pinned memory is host memory the device reaches. */
const MEMORY_TYPE = { unregistered: 0, host: 1, device: 2, managed: 3 } as const;
/** Rows of cudaMallocPitch start at multiples of this (the texture pitch alignment of real GPUs). */
const PITCH_ALIGN = 512;

export function memoryCalls(ctx: HostContext, reg: Registrations): Record<string, Fn> {
  const { runtime, linear, flat, memory, clock } = ctx;
  const invalid = (): number => runtime.status('cudaErrorInvalidValue');
  const origin = (): Range | undefined => callSite(ctx).range;

  /** A device allocation for cudaMalloc and its kin; writes its address through `out`. */
  const deviceMalloc = (out: number, size: number, what: string): number => {
    if (!linear.contains(out, 4)) return invalid();
    const at = origin();
    const r = runtime.malloc(size, allocatedVariable(ctx, at) ?? `${what}(${size})`, at);
    if (r.error) return r.error;
    linear.setU32(out, flat.flatOf(r.pointer));
    return 0;
  };

  /**
   * Memory from the program's heap, adopted as a managed allocation: cudaMallocManaged (counted
   * as device memory) or pinned host memory, which kernels may also read through the same
   * pointer (unified addressing).
   */
  const heapAllocation = (out: number, size: number, what: string, countsAsDevice: boolean): number => {
    if (!linear.contains(out, 4)) return invalid();
    if (!linear.hasHeap) return runtime.status('cudaErrorNotSupported');
    const at = origin();
    const label = allocatedVariable(ctx, at) ?? `${what}(${size})`;
    let address = 0;
    const adopt = (n: number): Uint8Array | undefined => {
      address = linear.malloc(n);
      return address ? linear.region(address, n) : undefined;
    };
    let pointer: number;
    if (countsAsDevice) {
      const r = runtime.malloc(size, label, at, 'managed', undefined, adopt);
      if (r.error) return r.error;
      pointer = r.pointer;
    } else {
      if (runtime.status('cudaSuccess')) return runtime.status('cudaSuccess');
      const bytes = adopt(size);
      if (!bytes) return runtime.status('cudaErrorMemoryAllocation');
      pointer = memory.allocate('managed', size, { label, pinned: true, ...(at ? { origin: at } : {}) }, bytes);
    }
    linear.adopt(pointer, address);
    linear.setU32(out, address);
    return 0;
  };

  /** Frees an allocation carved from the program's heap: its error code, or -1 when `address` is not one. */
  const heapFree = (address: number, heap: 'host' | 'device'): number => {
    if (address === 0) return runtime.status('cudaSuccess');
    const p = flat.pointerOf(address);
    const adopted = linear.adoptedAt(p);
    if (!adopted || adopted.at !== address) return -1;
    const error = heap === 'device' ? runtime.free(p) : memory.free(p, 'host') ? runtime.status('cudaErrorInvalidValue') : 0;
    if (error) return error;
    linear.release(p);
    linear.free(address);
    return 0;
  };

  const copy = (dst: number, src: number, count: number, kind: number): number => {
    clock.copy(count);
    return runtime.memcpy(flat.pointerOf(dst), flat.pointerOf(src), count, kind);
  };

  const copy2D = (dst: number, dpitch: number, src: number, spitch: number, width: number, height: number, kind: number): number => {
    if (width > dpitch || width > spitch) return invalid();
    clock.copy(width * height);
    const d = flat.pointerOf(dst);
    const s = flat.pointerOf(src);
    for (let row = 0; row < height; row++) {
      const e = runtime.memcpy(d + row * dpitch, s + row * spitch, width, kind);
      if (e) return e;
    }
    return runtime.status('cudaSuccess');
  };

  const toSymbol = (symbol: number, src: number, count: number, offset: number, kind: number): number => {
    const v = reg.variable(symbol);
    if (!v) return runtime.status('cudaErrorInvalidSymbol');
    clock.copy(count);
    return runtime.memcpy(v.pointer + offset, flat.pointerOf(src), count, kind);
  };

  const fromSymbol = (dst: number, symbol: number, count: number, offset: number, kind: number): number => {
    const v = reg.variable(symbol);
    if (!v) return runtime.status('cudaErrorInvalidSymbol');
    clock.copy(count);
    return runtime.memcpy(flat.pointerOf(dst), v.pointer + offset, count, kind);
  };

  const set2D = (dst: number, pitch: number, value: number, width: number, height: number): number => {
    if (width > pitch) return invalid();
    const d = flat.pointerOf(dst);
    for (let row = 0; row < height; row++) {
      const e = runtime.memset(d + row * pitch, value, width);
      if (e) return e;
    }
    return runtime.status('cudaSuccess');
  };

  return {
    cudaMalloc: (out, size) => deviceMalloc(out, size, 'cudaMalloc'),
    cudaMallocAsync: (out, size) => deviceMalloc(out, size, 'cudaMallocAsync'),
    cudaMallocFromPoolAsync: (out, size) => deviceMalloc(out, size, 'cudaMallocAsync'),
    cudaMallocPitch: (out, pitchOut, width, height) => {
      if (!linear.contains(pitchOut, 4)) return invalid();
      const pitch = Math.max(PITCH_ALIGN, Math.ceil(width / PITCH_ALIGN) * PITCH_ALIGN);
      const e = deviceMalloc(out, pitch * height, 'cudaMallocPitch');
      if (!e) linear.setU32(pitchOut, pitch);
      return e;
    },
    cudaFree: (address) => {
      if (address === 0) return runtime.status('cudaSuccess');
      const p = flat.pointerOf(address);
      const a = memory.allocation(pointerAllocation(p));
      if (linear.adoptedAt(p)) return heapFree(address, 'device');
      if (a && a.space === 'host') {
        runtime.findings.push({ kind: 'invalid-free', message: `cudaFree of a host pointer (address 0x${address.toString(16)}); free host memory with free() or delete` });
        return invalid();
      }
      return runtime.free(p);
    },
    cudaFreeAsync: (address) => (address === 0 ? runtime.status('cudaSuccess') : runtime.free(flat.pointerOf(address))),
    cudaMallocManaged: (out, size) => heapAllocation(out, size, 'cudaMallocManaged', true),
    // Pinned host memory: device code may read it through the same pointer (unified addressing).
    cudaMallocHost: (out, size) => heapAllocation(out, size, 'cudaMallocHost', false),
    cudaHostAlloc: (out, size) => heapAllocation(out, size, 'cudaHostAlloc', false),
    cudaFreeHost: (address) => {
      const e = heapFree(address, 'host');
      if (e >= 0) return e;
      runtime.findings.push({ kind: 'invalid-free', message: `cudaFreeHost of memory that cudaMallocHost or cudaHostAlloc did not return (address 0x${address.toString(16)})` });
      return invalid();
    },
    cudaHostGetDevicePointer: (out, host) => {
      if (!linear.contains(out, 4)) return invalid();
      linear.setU32(out, host);
      return runtime.status('cudaSuccess');
    },
    cudaHostGetFlags: (out) => {
      if (!linear.contains(out, 4)) return invalid();
      linear.setU32(out, 0);
      return runtime.status('cudaSuccess');
    },
    // The program's own memory, pinned: device code reaches it through the same pointer, as
    // memory from cudaMallocHost (an allocation over those bytes of the linear memory).
    cudaHostRegister: (address, size) => {
      if (!linear.contains(address, Math.max(1, size)) || size <= 0) return invalid();
      if (linear.adoptedAt(flat.pointerOf(address))) return runtime.status('cudaErrorHostMemoryAlreadyRegistered');
      const at = origin();
      const pointer = memory.allocate('managed', size, { label: allocatedVariable(ctx, at) ?? `cudaHostRegister(${size})`, pinned: true, ...(at ? { origin: at } : {}) }, linear.region(address, size));
      linear.adopt(pointer, address);
      return runtime.status('cudaSuccess');
    },
    cudaHostUnregister: (address) => {
      const p = flat.pointerOf(address);
      const adopted = linear.adoptedAt(p);
      if (!adopted || adopted.at !== address || !memory.allocation(pointerAllocation(p))?.pinned) return runtime.status('cudaErrorHostMemoryNotRegistered');
      memory.free(p, 'host');
      linear.release(p);
      return runtime.status('cudaSuccess');
    },
    cudaMemcpy: (dst, src, count, kind) => copy(dst, src, count, kind),
    cudaMemcpyAsync: (dst, src, count, kind) => copy(dst, src, count, kind),
    cudaMemcpy2D: copy2D,
    cudaMemcpy2DAsync: copy2D,
    cudaMemcpyToSymbol: toSymbol,
    cudaMemcpyToSymbolAsync: toSymbol,
    cudaMemcpyFromSymbol: fromSymbol,
    cudaMemcpyFromSymbolAsync: fromSymbol,
    cudaGetSymbolAddress: (out, symbol) => {
      const v = reg.variable(symbol);
      if (!v) return runtime.status('cudaErrorInvalidSymbol');
      if (!linear.contains(out, 4)) return invalid();
      linear.setU32(out, flat.flatOf(v.pointer));
      return runtime.status('cudaSuccess');
    },
    cudaGetSymbolSize: (out, symbol) => {
      const v = reg.variable(symbol);
      if (!v) return runtime.status('cudaErrorInvalidSymbol');
      if (!linear.contains(out, 4)) return invalid();
      linear.setU32(out, v.size);
      return runtime.status('cudaSuccess');
    },
    cudaMemset: (dst, value, count) => runtime.memset(flat.pointerOf(dst), value, count),
    cudaMemsetAsync: (dst, value, count) => runtime.memset(flat.pointerOf(dst), value, count),
    cudaMemset2D: set2D,
    cudaMemset2DAsync: set2D,
    cudaMemGetInfo: (freeOut, totalOut) => {
      if (!linear.contains(freeOut, 4) || !linear.contains(totalOut, 4)) return invalid();
      // size_t is 32 bits on this side.
      const { free, total } = runtime.memInfo();
      linear.setU32(freeOut, Math.min(0xffff_ffff, free));
      linear.setU32(totalOut, Math.min(0xffff_ffff, total));
      return runtime.status('cudaSuccess');
    },
    // Hints about where managed memory should live: host and device share one memory here.
    cudaMemPrefetchAsync: () => runtime.status('cudaSuccess'),
    cudaMemPrefetchAsync_v2: () => runtime.status('cudaSuccess'),
    cudaMemAdvise: () => runtime.status('cudaSuccess'),
    cudaMemAdvise_v2: () => runtime.status('cudaSuccess'),
    cudaStreamAttachMemAsync: () => runtime.status('cudaSuccess'),
    cudaPointerGetAttributes: (out, address) => {
      if (!linear.contains(out, 16)) return invalid();
      const a = address ? memory.allocation(pointerAllocation(flat.pointerOf(address))) : undefined;
      const type = !a || a.freed || a.space === 'host' ? MEMORY_TYPE.unregistered : a.pinned ? MEMORY_TYPE.host : a.space === 'managed' ? MEMORY_TYPE.managed : MEMORY_TYPE.device;
      const view = linear.view();
      view.setInt32(out, type, true);
      view.setInt32(out + 4, type === MEMORY_TYPE.unregistered ? -2 : 0, true);
      view.setUint32(out + 8, type === MEMORY_TYPE.unregistered ? 0 : address, true);
      view.setUint32(out + 12, type === MEMORY_TYPE.managed || type === MEMORY_TYPE.host ? address : 0, true);
      return runtime.status('cudaSuccess');
    },
  };
}
