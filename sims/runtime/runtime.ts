// The host side of the CUDA runtime: allocation, copies and memsets checked against the
// allocations they touch, and CUDA's error model — a call returns its error and records it
// for cudaGetLastError; after a device fault the error is sticky and every later call
// returns it, as on a real GPU.
import type { Range } from '../frontend/source';
import { DEFAULT_MEMORY_LIMIT, describe, markRead, markWritten, Memory, pointerAllocation, pointerOffset, type Allocation, type MemorySpace, type NamedRegion } from '../gpu/memory';
import { CUDA_ERRORS, type CudaErrorName } from './cudaErrors';
import { TextureTable } from './textures';
import { isBoxed, unbox } from '../values/wide';

/**
 * A size_t count as the program passed it: a byte count, or why it is not one (negative: an
 * int that converts to a size near 2^64; beyond what any allocation can hold).
 */
function byteCount(count: number): number | string {
  if (isBoxed(count)) return `${BigInt.asUintN(64, unbox(count))} bytes is more than any allocation holds`;
  if (!Number.isFinite(count) || !Number.isInteger(count)) return `${count} is not a byte count`;
  if (count < 0) return `a count of ${count} is negative (as size_t it is ${BigInt.asUintN(64, BigInt(count))})`;
  return count;
}

/** cudaMemcpyKind values as the program passes them. */
export const MEMCPY_KIND = { HostToHost: 0, HostToDevice: 1, DeviceToHost: 2, DeviceToDevice: 3, Default: 4 } as const;

export type RuntimeFindingKind = 'memcpy-out-of-bounds' | 'memcpy-direction' | 'invalid-free' | 'use-after-free' | UndefinedOperation;

/** Something the runtime noticed that the programmer should hear about, at a call site. */
export interface RuntimeFinding {
  kind: RuntimeFindingKind;
  message: string;
  at?: Range;
  /** How many times the run met it at this operation (undefined operations: every thread that did). */
  count?: number;
}

/** Undefined operations the run survives: warnings; faults and misuse are errors. */
export type UndefinedOperation = 'division-by-zero' | 'invalid-shift' | 'uninitialized-read' | 'undefined-function' | 'unmet-precondition';
const UNDEFINED_OPERATIONS: ReadonlySet<string> = new Set<UndefinedOperation>(['division-by-zero', 'invalid-shift', 'uninitialized-read', 'undefined-function', 'unmet-precondition']);

export interface OutputChunk {
  stream: 'stdout' | 'stderr';
  text: string;
  /** Host output, or the device thread that printed (block and thread indices, x/y/z). */
  from: 'host' | { block: [number, number, number]; thread: [number, number, number] };
}

const deviceSpaces: ReadonlySet<MemorySpace> = new Set(['global', 'managed', 'constant']);

/**
 * Device memory a simulated program may hold by default: the simulator keeps it in the
 * analysing process's own memory, so a program cannot have the gigabytes of a real GPU.
 */
export const DEFAULT_DEVICE_MEMORY_LIMIT = DEFAULT_MEMORY_LIMIT;

/**
 * The limits cudaDeviceGetLimit reports until the program sets them, by cudaLimit value: stack
 * size, printf FIFO, malloc heap, device-runtime sync depth and pending launches, max L2 fetch
 * granularity, persisting L2 cache size.
 */
const DEFAULT_LIMITS: Record<number, number> = { 0: 1024, 1: 1 << 20, 2: 8 << 20, 3: 2, 4: 2048, 5: 64, 6: 0 };

export class CudaRuntime {
  readonly findings: RuntimeFinding[] = [];
  readonly output: OutputChunk[] = [];
  private lastError = 0;
  private stickyError = 0;
  /**
   * Bumped by everything a kernel does that is seen outside memory — output, a clock read, a
   * finding, an error — so that a launch that did none of them is known to be a function of
   * memory alone (sims/host/launchReuse.ts).
   */
  sideEffects = 0;

  /** CUDA arrays, texture objects and surface objects the program made. */
  readonly textures = new TextureTable();
  /** The values of CUDA graphs' conditional handles, by handle: device code sets them (cudaGraphSetConditional). */
  readonly graphConditions = new Map<number, number>();
  /** Bytes of device memory the program holds through cudaMalloc and its kin. */
  private allocatedBytes = 0;
  /** Limits the program set with cudaDeviceSetLimit (cudaLimit values). */
  private readonly limits = new Map<number, number>();

  constructor(
    readonly memory: Memory,
    /** The most device memory the program may hold at once; more fails as on a full GPU. */
    private readonly deviceMemoryLimit = DEFAULT_DEVICE_MEMORY_LIMIT,
  ) {}

  /** The code a call returns: its own error, or the sticky one once the context is broken. */
  private result(name: CudaErrorName): number {
    if (this.stickyError) return this.stickyError;
    const code = CUDA_ERRORS[name].code;
    if (code !== 0) {
      this.lastError = code;
      this.sideEffects++;
    }
    return code;
  }

  /** A kernel faulted (illegal address, assert, …): the context is now broken. */
  deviceFault(name: CudaErrorName): void {
    this.sideEffects++;
    if (!CUDA_ERRORS[name].sticky) throw new Error(`${name} is not a sticky error`);
    if (!this.stickyError) this.stickyError = CUDA_ERRORS[name].code;
    this.lastError = this.stickyError;
  }

  /** What a call that ends with `name` returns (the sticky error instead once there is one). */
  status(name: CudaErrorName): number {
    return this.result(name);
  }

  /** Device memory held now through malloc, and the most the program may hold. */
  get heldBytes(): number {
    return this.allocatedBytes;
  }

  get memoryLimit(): number {
    return this.deviceMemoryLimit;
  }

  /** cudaMemGetInfo: what the program could still allocate, and the most it may hold. */
  memInfo(): { free: number; total: number } {
    return { free: Math.max(0, this.deviceMemoryLimit - this.allocatedBytes), total: this.deviceMemoryLimit };
  }

  /** cudaDeviceSetLimit: false for a limit the runtime does not know. */
  setLimit(limit: number, value: number): boolean {
    if (!(limit in DEFAULT_LIMITS)) return false;
    this.limits.set(limit, value);
    return true;
  }

  /** cudaDeviceGetLimit: the limit as set, or its default; undefined for one the runtime does not know. */
  limit(limit: number): number | undefined {
    return this.limits.get(limit) ?? DEFAULT_LIMITS[limit];
  }

  /** A launch that could not start (bad configuration): a non-sticky error. */
  launchFailed(name: CudaErrorName): number {
    this.sideEffects++;
    return this.result(name);
  }

  /** cudaGetLastError: returns the last error and clears it, unless it is sticky. */
  getLastError(): number {
    const e = this.lastError;
    if (!this.stickyError) this.lastError = 0;
    return e;
  }

  peekAtLastError(): number {
    return this.lastError;
  }

  /**
   * `adopt` gives the allocation bytes that live elsewhere: managed memory a WebAssembly host
   * program reads directly lies in its linear memory (called with the size once it is known
   * to fit).
   */
  malloc(size: number, label: string, at?: Range, space: 'global' | 'managed' = 'global', layout?: NamedRegion[], adopt?: (size: number) => Uint8Array | undefined): { error: number; pointer: number } {
    if (this.stickyError) return { error: this.stickyError, pointer: 0 };
    if (!Number.isFinite(size) || size < 0) return { error: this.result('cudaErrorInvalidValue'), pointer: 0 };
    if (size > 1 << 30 || this.allocatedBytes + size > this.deviceMemoryLimit || (!adopt && !this.memory.account.fits(size))) return { error: this.result('cudaErrorMemoryAllocation'), pointer: 0 };
    const bytes = adopt?.(size);
    if (adopt && !bytes) return { error: this.result('cudaErrorMemoryAllocation'), pointer: 0 };
    // cudaMalloc(&p, 0) succeeds; give it a distinct, empty allocation.
    const pointer = this.memory.allocate(space, size, { label, ...(at ? { origin: at } : {}), ...(layout ? { layout } : {}) }, bytes);
    if (this.memory.checkUninitialised && !bytes) this.memory.trackWrites(this.memory.allocation(pointerAllocation(pointer))!);
    this.allocatedBytes += size;
    return { error: 0, pointer };
  }

  free(pointer: number, at?: Range): number {
    if (this.stickyError) return this.stickyError;
    const held = this.memory.allocation(pointerAllocation(pointer));
    const fault = this.memory.free(pointer, 'device');
    if (!fault) {
      if (held) this.allocatedBytes -= held.size;
      return 0;
    }
    this.finding(fault.kind === 'double-free' ? 'use-after-free' : 'invalid-free', `cudaFree: ${fault.message}`, at);
    return this.result(fault.kind === 'invalid-free' && !fault.allocation ? 'cudaErrorInvalidDevicePointer' : 'cudaErrorInvalidValue');
  }

  memcpy(dst: number, src: number, bytes: number, kind: number, at?: Range, fn = 'cudaMemcpy'): number {
    if (this.stickyError) return this.stickyError;
    if (kind < 0 || kind > 4) return this.result('cudaErrorInvalidMemcpyDirection');
    const count = byteCount(bytes);
    if (typeof count === 'string') {
      this.finding('memcpy-out-of-bounds', `${fn}: ${count}`, at);
      return this.result('cudaErrorInvalidValue');
    }
    const d = this.range(fn, 'destination', dst, count, at);
    const s = d && this.range(fn, 'source', src, count, at);
    if (!d || !s) return this.result('cudaErrorInvalidValue');
    if (kind !== MEMCPY_KIND.Default) {
      const wantDst = kind === MEMCPY_KIND.HostToDevice || kind === MEMCPY_KIND.DeviceToDevice ? 'device' : 'host';
      const wantSrc = kind === MEMCPY_KIND.DeviceToHost || kind === MEMCPY_KIND.DeviceToDevice ? 'device' : 'host';
      const side = (a: Allocation) => (a.space === 'managed' ? 'either' : deviceSpaces.has(a.space) ? 'device' : 'host');
      for (const [which, a, want] of [['destination', d, wantDst], ['source', s, wantSrc]] as const) {
        const actual = side(a);
        if (actual !== 'either' && actual !== want) {
          this.finding('memcpy-direction', `${fn}: the ${which} ${describe(a)} is ${actual} memory, but the copy kind says ${want} memory`, at);
          return this.result('cudaErrorInvalidValue');
        }
      }
    }
    // Device code copies too (cudaMemcpyAsync in a kernel): a watched launch sees it.
    markRead(s, pointerOffset(src), count);
    markWritten(d, pointerOffset(dst), count);
    d.bytes.set(s.bytes.subarray(pointerOffset(src), pointerOffset(src) + count), pointerOffset(dst));
    if (d.unwritten) {
      // Copied bytes are as written as their source.
      if (s.unwritten) d.unwritten.set(s.unwritten.subarray(pointerOffset(src), pointerOffset(src) + count), pointerOffset(dst));
      else d.unwritten.fill(0, pointerOffset(dst), pointerOffset(dst) + count);
    }
    return 0;
  }

  memset(dst: number, value: number, bytes: number, at?: Range): number {
    if (this.stickyError) return this.stickyError;
    const count = byteCount(bytes);
    if (typeof count === 'string') {
      this.finding('memcpy-out-of-bounds', `cudaMemset: ${count}`, at);
      return this.result('cudaErrorInvalidValue');
    }
    const d = this.range('cudaMemset', 'destination', dst, count, at);
    if (!d) return this.result('cudaErrorInvalidValue');
    if (!deviceSpaces.has(d.space)) {
      this.finding('memcpy-direction', `cudaMemset: ${describe(d)} is host memory; use memset`, at);
      return this.result('cudaErrorInvalidValue');
    }
    markWritten(d, pointerOffset(dst), count);
    d.bytes.fill(value & 0xff, pointerOffset(dst), pointerOffset(dst) + count);
    d.unwritten?.fill(0, pointerOffset(dst), pointerOffset(dst) + count);
    return 0;
  }

  print(stream: OutputChunk['stream'], text: string, from: OutputChunk['from'] = 'host'): void {
    this.sideEffects++;
    this.output.push({ stream, text, from });
  }

  stdout(): string {
    return this.output.filter((o) => o.stream === 'stdout').map((o) => o.text).join('');
  }

  /** The allocation a copy of `count` bytes at `p` touches, or undefined after a finding. */
  private range(fn: string, which: string, p: number, count: number, at?: Range): Allocation | undefined {
    if (count === 0 && p === 0) return undefined;
    const a = this.memory.allocation(pointerAllocation(p));
    if (!a) {
      this.finding('memcpy-out-of-bounds', `${fn}: the ${which} pointer does not point into any allocation${p === 0 ? ' (it is null)' : ''}`, at);
      return undefined;
    }
    if (a.freed) {
      this.finding('use-after-free', `${fn}: the ${which} ${describe(a)} was already freed`, at);
      return undefined;
    }
    const off = pointerOffset(p);
    if (off < 0 || off + count > a.size) {
      this.finding('memcpy-out-of-bounds', `${fn}: ${fn === 'cudaMemset' ? 'setting' : 'copying'} ${count} bytes at offset ${off} overruns the ${which} ${describe(a)} by ${off + count - a.size} bytes`, at);
      return undefined;
    }
    return a;
  }

  private finding(kind: RuntimeFindingKind, message: string, at?: Range): void {
    this.sideEffects++;
    this.findings.push({ kind, message, ...(at ? { at } : {}) });
  }

  /**
   * An undefined operation at `at` (the operation's range, one object per lowered operation).
   * Every thread of a grid may meet it, so it is one finding per operation with a count: a
   * million reports of one line would drown the rest and hold memory.
   */
  undefinedOperation(kind: UndefinedOperation, message: string, at: Range): void {
    this.sideEffects++;
    const seen = this.undefinedAt.get(at);
    if (seen?.kind === kind) {
      seen.count = (seen.count ?? 1) + 1;
      return;
    }
    const finding: RuntimeFinding = { kind, message, at, count: 1 };
    this.undefinedAt.set(at, finding);
    this.findings.push(finding);
  }
  private readonly undefinedAt = new Map<Range, RuntimeFinding>();

  /**
   * The device's clock registers (%clock, %clock64, %globaltimer): no real time passes in a
   * simulation, so one counter for the whole run moves forward by `step` at every read, and a
   * later read anywhere in the run gives a larger value (a kernel timing itself sees time pass).
   */
  deviceClock(step: number): number {
    this.sideEffects++;
    return (this.deviceTicks += step);
  }
  private deviceTicks = 0;

  /** The findings as a run reports them: severity by kind, a repeated operation's count in its message. */
  reportedFindings(): { kind: RuntimeFindingKind; message: string; range?: Range; severity: 'error' | 'warning' }[] {
    return this.findings.map((f) => ({
      kind: f.kind,
      message: f.count && f.count > 1 ? `${f.message}; met ${f.count} times here (the first is shown)` : f.message,
      ...(f.at ? { range: f.at } : {}),
      severity: UNDEFINED_OPERATIONS.has(f.kind) ? 'warning' : 'error',
    }));
  }
}

