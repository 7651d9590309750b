// The host program's linear memory inside the simulator's memory: one 'host' allocation whose
// bytes are the WebAssembly memory itself, at flat address 0, so a host pointer handed to the
// runtime or to a kernel resolves to it (and device code touching it faults as touching host
// memory). Managed memory and pinned host memory are carved out of the program's own heap
// (its exported malloc) and adopted as allocations of their own, nested inside it, so host
// code reads them directly and device accesses keep their provenance.
//
// A module linked with a fixed memory never replaces its buffer. One whose memory can grow
// replaces it on memory.grow; every adopted view is then rebound to the new buffer. The linear
// memory's size is charged to the run's memory account (the adopted allocations inside it are
// not charged again), so the host's heap and the device's allocations share one limit.
import type { FlatAddresses } from '../../gpu/flat';
import { pointerAllocation, type Memory } from '../../gpu/memory';
import { MemoryLimitExceeded } from '../../gpu/memoryAccount';

interface Adopted {
  pointer: number;
  /** Flat address (= linear memory offset) of its first byte. */
  at: number;
}

export class LinearMemory {
  /** Provenance pointer of the allocation that is the whole linear memory. */
  readonly hostPointer: number;
  private buffer: ArrayBuffer;
  private dataView: DataView;
  private readonly adopted = new Map<number, Adopted>();
  /** Bytes of linear memory charged to the run's account (a detached buffer's length reads 0). */
  private charged = 0;

  constructor(
    private readonly wasm: WebAssembly.Memory,
    private readonly memory: Memory,
    private readonly flat: FlatAddresses,
    private readonly exports: { malloc?: (size: number) => number; free?: (p: number) => void },
  ) {
    this.buffer = wasm.buffer as ArrayBuffer;
    this.dataView = new DataView(this.buffer);
    this.hostPointer = memory.allocate('host', this.buffer.byteLength, { label: 'host memory' }, new Uint8Array(this.buffer));
    flat.place(this.hostPointer, 0);
    this.charge(this.buffer.byteLength);
  }

  /** Counts the linear memory, now `bytes` long, against the run's limit (as one allocation). */
  private charge(bytes: number): void {
    if (this.charged) this.memory.account.release(this.charged);
    this.charged = 0;
    const over = this.memory.account.charge(bytes, "the host program's memory");
    if (over) throw new MemoryLimitExceeded(over);
    this.charged = bytes;
  }

  get size(): number {
    this.refresh();
    return this.buffer.byteLength;
  }

  view(): DataView {
    this.refresh();
    return this.dataView;
  }

  bytes(at: number, length: number): Uint8Array {
    this.refresh();
    return new Uint8Array(this.buffer, at, length);
  }

  /** Is [at, at + length) inside the linear memory (and not the null page's first byte)? */
  contains(at: number, length: number): boolean {
    return at > 0 && at + length <= this.size;
  }

  u32(at: number): number {
    return this.view().getUint32(at, true);
  }

  setU32(at: number, value: number): void {
    this.view().setUint32(at, value >>> 0, true);
  }

  /** A NUL-terminated string of the program's (at most `limit` bytes). */
  cstring(at: number, limit = 4096): string {
    if (!at) return '';
    const view = this.view();
    const end = Math.min(view.byteLength, at + limit);
    let i = at;
    while (i < end && view.getUint8(i) !== 0) i++;
    return new TextDecoder().decode(new Uint8Array(this.buffer, at, i - at));
  }

  get hasHeap(): boolean {
    return this.exports.malloc !== undefined;
  }

  /** `size` bytes of the program's heap (its own malloc), or 0 when it has none to give. */
  malloc(size: number): number {
    const p = this.exports.malloc?.(Math.max(1, size)) ?? 0;
    this.refresh();
    return p >>> 0;
  }

  free(at: number): void {
    this.exports.free?.(at);
  }

  /** A new string in the program's heap (for strings the runtime hands out once). */
  string(text: string): number {
    const bytes = new TextEncoder().encode(`${text}\0`);
    const at = this.malloc(bytes.length);
    if (at) this.bytes(at, bytes.length).set(bytes);
    return at;
  }

  /** The bytes an adopted allocation at `at` of `size` bytes lives in. */
  region(at: number, size: number): Uint8Array {
    return this.bytes(at, size);
  }

  /** Records allocation `pointer` as living at `at` and places it in the flat address space there. */
  adopt(pointer: number, at: number): void {
    this.adopted.set(pointerAllocation(pointer), { pointer, at });
    this.flat.place(pointer, at);
  }

  /** Gives up an adopted allocation (freed): its addresses are plain host memory again. */
  release(pointer: number): Adopted | undefined {
    const a = this.adopted.get(pointerAllocation(pointer));
    if (!a) return undefined;
    this.adopted.delete(pointerAllocation(pointer));
    this.flat.release(pointer);
    return a;
  }

  adoptedAt(pointer: number): Adopted | undefined {
    return this.adopted.get(pointerAllocation(pointer));
  }

  /** After memory.grow the old buffer is gone: rebind the host allocation and every adopted one. */
  refresh(): void {
    const buffer = this.wasm.buffer as ArrayBuffer;
    if (buffer === this.buffer) return;
    this.buffer = buffer;
    this.dataView = new DataView(buffer);
    const host = this.memory.allocation(pointerAllocation(this.hostPointer))!;
    host.bytes = new Uint8Array(buffer);
    host.view = new DataView(buffer);
    host.size = buffer.byteLength;
    // Its region in the flat address space grew with it.
    this.flat.release(this.hostPointer);
    this.flat.place(this.hostPointer, 0);
    for (const a of this.adopted.values()) {
      const alloc = this.memory.allocation(pointerAllocation(a.pointer))!;
      alloc.bytes = new Uint8Array(buffer, a.at, alloc.size);
      alloc.view = new DataView(buffer, a.at, alloc.size);
    }
    this.charge(buffer.byteLength);
  }
}
