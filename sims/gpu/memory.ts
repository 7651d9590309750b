// Byte-addressed memory with pointer provenance.
//
// A pointer is one JS number: `allocationId * 2^32 + (offset + 2^31)`. Arithmetic on it moves
// the offset and never the allocation, so every access knows which allocation its pointer
// came from, even when it strays out of bounds — including into a neighbour, which a flat
// address space would silently allow. Each allocation also has a virtual base address laid
// out as cudaMalloc lays out device memory (256-byte aligned), so reports can say where a
// stray address would have landed. The null pointer is 0.
import type { Range } from '../frontend/source';
import type { Type } from '../frontend/types';
import { MemoryAccount, MemoryLimitExceeded } from './memoryAccount';

/** The memory a run may hold when nobody says otherwise (the CLI's `--memory-limit` default). */
export const DEFAULT_MEMORY_LIMIT = 2 ** 31;
const EMPTY = new Uint8Array(0);

export type MemorySpace = 'global' | 'constant' | 'managed' | 'shared' | 'local' | 'host';

const TWO32 = 4294967296;
const BIAS = 2147483648;

export const NULL_POINTER = 0;

export function makePointer(allocation: number, offset: number): number {
  return allocation * TWO32 + (offset + BIAS);
}

export function pointerAllocation(p: number): number {
  return Math.floor(p / TWO32);
}

export function pointerOffset(p: number): number {
  return p - Math.floor(p / TWO32) * TWO32 - BIAS;
}

/** pointerOffset for a pointer already known to be into `allocation` (no division: for hot paths). */
export function offsetIn(p: number, allocation: number): number {
  return p - allocation * TWO32 - BIAS;
}

export interface AllocationInfo {
  /** What the program calls it: `d_data`, `tile`, `malloc(64)`. */
  label: string;
  /** Where it was made: the cudaMalloc call, the `__shared__` declaration. */
  origin?: Range;
  /** The block that owns shared memory, or the thread (global index) that owns local memory. */
  owner?: number;
  /** The variables that live in it, so a report can name an address (`data[3]`, `stack.top`). */
  layout?: NamedRegion[];
  /** Host memory pinned for the device (cudaMallocHost, cudaHostAlloc, cudaHostRegister): managed memory that says it is the host's. */
  pinned?: true;
}

/** A variable at `offset` in an allocation; `unbounded`: an array of `type` to the end. */
export interface NamedRegion {
  name: string;
  offset: number;
  type: Type;
  unbounded?: boolean;
}

export interface Allocation extends AllocationInfo {
  id: number;
  space: MemorySpace;
  size: number;
  /** Virtual address of byte 0, for reports. */
  base: number;
  freed: boolean;
  bytes: Uint8Array;
  view: DataView;
  /**
   * With uninitialised-read checking: 1 for each byte nothing has written yet (memory from
   * cudaMalloc, which does not clear it); undefined when every byte counts as written.
   */
  unwritten?: Uint8Array;
  /**
   * Set by every load (device code reads only through `load`); cleared before a launch whose
   * results may be reused, so that afterwards it says which allocations the launch read.
   */
  read: boolean;
  /**
   * While a launch whose result may be reused runs (sims/host/launchReuse.ts) and has not yet
   * written the allocation: told before its first write. Undefined otherwise.
   */
  watch: WriteWatch | undefined;
  /**
   * For an allocation the watched launch wrote before it read any of it: per byte, 0 untouched
   * so far, FIRST_WRITTEN or FIRST_READ by how the launch first touched it; undefined otherwise
   * (then the launch's result depends on all of the allocation, or none of it).
   */
  firstAccess: Uint8Array | undefined;
  /** Bytes of `firstAccess` still untouched: at 0 an access has nothing left to mark. */
  firstUntouched: number;
}

/** What keeps an allocation's bytes from before a launch wrote them (Allocation.watch). */
export interface WriteWatch {
  /** Called once, before the first write; clears `a.watch`. */
  firstWrite(a: Allocation): void;
}

/** Notes a read of `size` bytes at `off` (Allocation.read and firstAccess). */
export function markRead(a: Allocation, off: number, size: number): void {
  a.read = true;
  if (a.firstAccess !== undefined && a.firstUntouched !== 0) touch(a, a.firstAccess, off, size, FIRST_READ);
}

/** Notes a write of `size` bytes at `off`, before it happens (Allocation.watch and firstAccess). */
export function markWritten(a: Allocation, off: number, size: number): void {
  if (a.watch !== undefined) a.watch.firstWrite(a);
  if (a.firstAccess !== undefined && a.firstUntouched !== 0) touch(a, a.firstAccess, off, size, FIRST_WRITTEN);
}

/** Marks the bytes an access touches first (Allocation.firstAccess); later accesses change nothing. */
function touch(a: Allocation, first: Uint8Array, off: number, size: number, how: number): void {
  for (let i = off; i < off + size; i++) {
    if (first[i] !== 0) continue;
    first[i] = how;
    a.firstUntouched--;
  }
}

/** Global, managed and constant memory: what device code reaches and a launch leaves behind (not its shared or local memory). */
export function isDeviceVisible(a: Allocation): boolean {
  return a.space === 'global' || a.space === 'managed' || a.space === 'constant';
}

/** Allocation.firstAccess: the launch wrote the byte before reading it. */
export const FIRST_WRITTEN = 1;
/** Allocation.firstAccess: the launch read the byte before writing it (its value mattered). */
export const FIRST_READ = 2;

export type FaultKind =
  | 'null-dereference'
  | 'out-of-bounds'
  | 'use-after-free'
  | 'misaligned'
  | 'host-dereferences-device'
  | 'device-dereferences-host'
  | 'write-to-constant'
  | 'invalid-pointer'
  | 'double-free'
  | 'invalid-free'
  | 'assertion-failed'
  /** Device code did something CUDA allows that the simulator cannot do (a located `not supported: …`). */
  | 'not-supported';

export interface Fault {
  kind: FaultKind;
  message: string;
  allocation?: Allocation;
  offset?: number;
  /** The allocation a stray address would have landed in, if any. */
  landsIn?: Allocation;
}

/** Who performs an access: host code sees host and managed memory, device code the rest. */
export type Accessor = 'host' | 'device';

const SPACE_BASES: Record<MemorySpace, number> = {
  global: 0x7f0000000000,
  managed: 0x7e0000000000,
  constant: 0x7d0000000000,
  shared: 0x000001000000,
  local: 0x000100000000,
  host: 0x55d000000000,
};

const ALIGN = 256;

export class Memory {
  /** Bumped by every write that changes a byte (see sims/gpu/access). */
  version = 0;
  private readonly allocations: (Allocation | undefined)[] = [undefined];
  private readonly nextBase = new Map<MemorySpace, number>();

  /** Report device reads of cudaMalloc'd bytes nothing has written (like memcheck's initcheck). */
  checkUninitialised = false;

  /** Starts following which bytes of `a` are written (cudaMalloc'd memory, with the check on). */
  trackWrites(a: Allocation): void {
    const over = this.account.charge(a.size, `tracking of ${a.label}`);
    if (over) throw new MemoryLimitExceeded(over, a.origin);
    a.unwritten = new Uint8Array(a.size).fill(1);
  }

  /** Allocations over bytes that live elsewhere: not charged, never dropped. */
  private readonly adopted = new Set<number>();

  constructor(readonly account = new MemoryAccount(DEFAULT_MEMORY_LIMIT)) {}

  /**
   * A new allocation of `size` zeroed bytes, or over `adopt` when given: bytes that live
   * elsewhere (a WebAssembly program's linear memory, which host code reads directly).
   * Charged to the run's memory account first: MemoryLimitExceeded (at the allocation's
   * origin) when it does not fit.
   */
  allocate(space: MemorySpace, size: number, info: AllocationInfo, adopt?: Uint8Array): number {
    const over = this.account.charge(adopt ? 0 : size, `${space === 'host' ? 'host ' : ''}${info.label}`);
    if (over) throw new MemoryLimitExceeded(over, info.origin);
    const id = this.allocations.length;
    const base = this.nextBase.get(space) ?? SPACE_BASES[space];
    this.nextBase.set(space, base + Math.max(ALIGN, Math.ceil(size / ALIGN) * ALIGN));
    if (adopt) this.adopted.add(id);
    const bytes = adopt ?? new Uint8Array(size);
    // Every allocation has the same fields in the same order (absent ones undefined): every
    // access reads them, and a site that sees objects of several shapes looks each field up.
    this.allocations.push({
      id, space, size, base, freed: false, bytes, view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      label: info.label, origin: info.origin, owner: info.owner, layout: info.layout, pinned: info.pinned, unwritten: undefined, read: false, watch: undefined, firstAccess: undefined, firstUntouched: 0,
    });
    return makePointer(id, 0);
  }

  allocation(id: number): Allocation | undefined {
    return this.allocations[id];
  }

  /** How many allocations have been made (freed ones included): the next one's id. */
  get allocationCount(): number {
    return this.allocations.length;
  }

  /** The live allocations device code can reach and that outlive a launch, oldest first (see isDeviceVisible). */
  *deviceVisible(): Iterable<Allocation> {
    for (const a of this.allocations) if (a && !a.freed && isDeviceVisible(a)) yield a;
  }

  /**
   * Frees what `p` points to: `heap` says which call frees it, 'host' for free() and
   * 'device' for cudaFree(). Only the pointer an allocation returned may be freed.
   */
  free(p: number, heap: 'host' | 'device'): Fault | undefined {
    if (p === NULL_POINTER) return undefined;
    const a = this.allocations[pointerAllocation(p)];
    if (!a) return { kind: 'invalid-free', message: 'free of a pointer that did not come from an allocation' };
    if (a.freed) return { kind: 'double-free', message: `${describe(a)} is freed twice`, allocation: a };
    if (pointerOffset(p) !== 0) return { kind: 'invalid-free', message: `free of a pointer ${pointerOffset(p)} bytes into ${describe(a)}; pass the pointer the allocation returned`, allocation: a, offset: pointerOffset(p) };
    const hostHeap = a.space === 'host';
    if ((heap === 'host') !== hostHeap && a.space !== 'managed') {
      return { kind: 'invalid-free', message: `${describe(a)} is ${hostHeap ? 'host' : 'device'} memory; free it with ${hostHeap ? 'free()' : 'cudaFree()'}`, allocation: a };
    }
    this.retire(a);
    return undefined;
  }

  /**
   * Marks an allocation freed and gives its bytes back to the account; its record stays, so a
   * later access is still reported as a use after free.
   */
  retire(a: Allocation): void {
    if (a.freed) return;
    a.freed = true;
    if (this.adopted.has(a.id)) return;
    this.account.release(a.size);
    if (a.unwritten) {
      this.account.release(a.size);
      a.unwritten = undefined;
    }
    a.bytes = EMPTY;
    a.view = new DataView(EMPTY.buffer);
  }

  /**
   * Checks an access of `size` bytes at `p`; returns the allocation and offset, or the fault.
   * The fast path (a live, in-bounds, aligned access) allocates nothing.
   */
  resolve(p: number, size: number, accessor: Accessor, write: boolean): Allocation | Fault {
    const id = pointerAllocation(p);
    const a = this.allocations[id];
    if (p === NULL_POINTER) return { kind: 'null-dereference', message: `${write ? 'write to' : 'read of'} a null pointer` };
    if (!a) return { kind: 'invalid-pointer', message: `${write ? 'write through' : 'read through'} a pointer that does not point into any allocation` };
    const off = p - id * TWO32 - BIAS;
    if (a.freed) return { kind: 'use-after-free', message: `${write ? 'write to' : 'read of'} ${describe(a)} after it was freed`, allocation: a, offset: off };
    if (off < 0 || off + size > a.size) {
      const landsIn = this.allocationAt(a.space, a.base + off, a);
      const where = off < 0 ? `${-off} bytes before the start` : `at offset ${off}, past the end`;
      return {
        kind: 'out-of-bounds',
        message: `${write ? 'write' : 'read'} of ${size} bytes ${where} of ${describe(a)}${landsIn ? `; the address lies inside ${describe(landsIn)}` : ''}`,
        allocation: a,
        offset: off,
        ...(landsIn ? { landsIn } : {}),
      };
    }
    // Sizes are powers of two (scalars): a mask, not `%`, which on a double is a library call.
    if ((off & (size - 1)) !== 0) return { kind: 'misaligned', message: `misaligned ${size}-byte ${write ? 'write' : 'read'} at offset ${off} of ${describe(a)}`, allocation: a, offset: off };
    if (accessor === 'host' && a.space !== 'host' && a.space !== 'managed') {
      return { kind: 'host-dereferences-device', message: `host code ${write ? 'writes' : 'reads'} ${describe(a)}, which is device memory; copy it with cudaMemcpy`, allocation: a, offset: off };
    }
    if (accessor === 'device' && a.space === 'host') {
      return { kind: 'device-dereferences-host', message: `device code ${write ? 'writes' : 'reads'} ${describe(a)}, which is host memory; copy it to the device first`, allocation: a, offset: off };
    }
    if (write && accessor === 'device' && a.space === 'constant') {
      return { kind: 'write-to-constant', message: `device code writes ${describe(a)}, which is __constant__ memory`, allocation: a, offset: off };
    }
    return a;
  }

  /**
   * The allocation an access of `size` bytes at `p` reaches when the access is nothing but
   * reading or writing its bytes (and marking them: Allocation.read, unwritten, firstAccess):
   * in bounds, aligned, memory the accessor may touch, for a write no watch to call, for a read
   * (a load, or the read of a read-modify-write: `write` and `read` both) no byte nothing has
   * written. Undefined for anything else, which `resolve` and the full load and store handle
   * (faults included). The compiled blocks' inline accesses (sims/ir/plainAccess.ts) ask this
   * first.
   */
  plainTarget(p: number, size: number, accessor: Accessor, write: boolean, read = !write): Allocation | undefined {
    const id = Math.floor(p / TWO32);
    const a = this.allocations[id];
    if (a === undefined || a.freed || (write && a.watch !== undefined)) return undefined;
    const off = p - id * TWO32 - BIAS;
    if (off < 0 || off + size > a.size || (off & (size - 1)) !== 0) return undefined;
    if (accessor === 'device' ? a.space === 'host' || (write && a.space === 'constant') : a.space !== 'host' && a.space !== 'managed') return undefined;
    const unwritten = a.unwritten;
    if (read && unwritten !== undefined) for (let i = off; i < off + size; i++) if (unwritten[i]) return undefined;
    return a;
  }

  /**
   * Feeds every live allocation's bytes to `mix` (state digests: repeated-state detection
   * within a launch). Host memory is left out: device code cannot change it (an access faults),
   * and a WebAssembly host program's whole linear memory is one host allocation of many MB.
   */
  digest(mix: (x: number) => void): void {
    for (const a of this.allocations) {
      if (!a || a.freed || a.space === 'host') continue;
      mix(a.id);
      const bytes = a.bytes;
      const words = bytes.length >> 2;
      const view = a.view;
      for (let i = 0; i < words; i++) mix(view.getInt32(i * 4, true));
      for (let i = words * 4; i < bytes.length; i++) mix(bytes[i]);
    }
  }

  /**
   * The contents of device-visible memory now, to go back to with `restore`: a launch explored
   * under other schedules (the fairness search) leaves the program's memory as it found it.
   * Host memory, which device code cannot change, is not copied (see `digest`).
   */
  snapshot(): MemorySnapshot {
    return {
      count: this.allocations.length,
      bytes: this.allocations.map((a) => (a && a.space !== 'host' ? a.bytes.slice() : undefined)),
      freed: this.allocations.map((a) => !!a?.freed),
      nextBase: new Map(this.nextBase),
      version: this.version,
    };
  }

  /** Puts back what `snapshot` saw; allocations made since are forgotten. */
  restore(s: MemorySnapshot): void {
    this.allocations.length = s.count;
    for (let i = 0; i < s.count; i++) {
      const a = this.allocations[i];
      if (!a) continue;
      const bytes = s.bytes[i];
      if (bytes && a.bytes.length === bytes.length) a.bytes.set(bytes);
      else if (bytes) {
        // Freed since the snapshot (its bytes were given back): live again with its contents.
        this.account.charge(bytes.length, a.label);
        a.bytes = bytes;
        a.view = new DataView(bytes.buffer);
      }
      a.freed = s.freed[i];
    }
    this.nextBase.clear();
    for (const [k, v] of s.nextBase) this.nextBase.set(k, v);
    this.version = s.version;
  }

  /** The live allocation of `space` covering virtual address `addr`, other than `except`. */
  private allocationAt(space: MemorySpace, addr: number, except: Allocation): Allocation | undefined {
    for (const b of this.allocations) {
      if (b && b !== except && b.space === space && !b.freed && addr >= b.base && addr < b.base + b.size) return b;
    }
    return undefined;
  }

  // Typed access. Callers resolve first; these take the allocation and byte offset.
  // Both dispatch on the kind's letter and width digit (see scalarSize), 32-bit kinds first.
  static read(a: Allocation, off: number, type: ScalarKind): number | bigint {
    const v = a.view;
    const letter = type.charCodeAt(0);
    switch (type.charCodeAt(1)) {
      case DIGIT_32:
        return letter === LETTER_F ? v.getFloat32(off, true) : letter === LETTER_I ? v.getInt32(off, true) : v.getUint32(off, true);
      case DIGIT_64:
        return letter === LETTER_F ? v.getFloat64(off, true) : letter === LETTER_I ? v.getBigInt64(off, true) : v.getBigUint64(off, true);
      case DIGIT_8:
        return letter === LETTER_I ? v.getInt8(off) : v.getUint8(off);
      default:
        return letter === LETTER_I ? v.getInt16(off, true) : v.getUint16(off, true);
    }
  }

  static write(a: Allocation, off: number, type: ScalarKind, value: number | bigint): void {
    const v = a.view;
    const letter = type.charCodeAt(0);
    switch (type.charCodeAt(1)) {
      case DIGIT_32:
        if (letter === LETTER_F) v.setFloat32(off, Number(value), true);
        else v.setUint32(off, Number(value) >>> 0, true);
        return;
      case DIGIT_64:
        if (letter === LETTER_F) v.setFloat64(off, Number(value), true);
        else v.setBigUint64(off, BigInt.asUintN(64, typeof value === 'bigint' ? value : BigInt(Math.trunc(value))), true);
        return;
      case DIGIT_8:
        v.setUint8(off, Number(value) & 0xff);
        return;
      default:
        v.setUint16(off, Number(value) & 0xffff, true);
    }
  }
}

/** What `Memory.snapshot` keeps: every allocation's bytes and state, and where the next goes. */
export interface MemorySnapshot {
  count: number;
  bytes: (Uint8Array | undefined)[];
  freed: boolean[];
  nextBase: Map<MemorySpace, number>;
  version: number;
}

export type ScalarKind = 'i8' | 'u8' | 'i16' | 'u16' | 'i32' | 'u32' | 'i64' | 'u64' | 'f32' | 'f64';

/**
 * Bytes of a scalar, from the digit after the kind's first letter ('i8', 'u16', 'f32', 'i64'):
 * every load and store asks, with the kind varying by site, where a string-keyed table is a
 * hash probe and a switch over strings compares them one case at a time.
 */
export function scalarSize(kind: ScalarKind): number {
  const digit = kind.charCodeAt(1);
  return digit === DIGIT_8 ? 1 : digit === DIGIT_16 ? 2 : digit === DIGIT_32 ? 4 : 8;
}

/** Character codes of a kind's width digit (the first digit of 8, 16, 32, 64) and of its letter. */
const [DIGIT_8, DIGIT_16, DIGIT_32, DIGIT_64] = ['8', '1', '3', '6'].map((c) => c.charCodeAt(0));
const [LETTER_I, LETTER_F] = ['i', 'f'].map((c) => c.charCodeAt(0));

/** `d_data (132 bytes, global memory from line 47)` */
export function describe(a: Allocation): string {
  const where = a.origin ? ` from line ${a.origin.start.line + 1}` : '';
  const space = a.space === 'host' ? 'host memory' : a.space === 'managed' ? 'managed memory' : `${a.space} memory`;
  return `'${a.label}' (${a.size} bytes, ${space}${where})`;
}
