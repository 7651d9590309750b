// One 32-bit address space for a program compiled by clang: its host code runs as wasm32 and its
// device code as 32-bit nvptx, so a pointer is four bytes on both sides and the host may hand
// any pointer to a kernel, keep device pointers in its structs, or read managed memory directly.
//
// Registers keep provenance-carrying pointers (sims/gpu/memory): arithmetic never changes the
// allocation a pointer came from, so a stray access still names it. The flat address is what a
// pointer is *in memory and on the host*: storing a pointer writes its flat address, loading one
// turns the flat address back into a provenance pointer. Every allocation gets a flat base when
// it is first needed; the host's linear memory starts at 0 and device allocations live above it,
// where the host cannot reach them (a host access there traps, as dereferencing device memory
// on the host faults on a real machine).
import { makePointer, pointerAllocation, pointerOffset, type Memory } from './memory';

/** Where device allocations start: above any linear memory a host program may have. */
export const DEVICE_FLAT_BASE = 0x4000_0000;
const FLAT_LIMIT = 0x1_0000_0000;
const ALIGN = 256;

export class FlatAddresses {
  /** Flat base of each allocation id that has one. */
  private readonly baseOf = new Map<number, number>();
  /** Allocation ids by increasing flat base (bases are handed out in increasing order). */
  private readonly byBase: { base: number; id: number; size: number }[] = [];
  private next = DEVICE_FLAT_BASE;

  constructor(private readonly memory: Memory) {}

  /**
   * Gives allocation `pointer` the flat base `base` (the host's linear memory, at 0; a managed
   * allocation the host program's own allocator placed). Must precede any automatic base above.
   */
  place(pointer: number, base: number): void {
    const id = pointerAllocation(pointer);
    const size = this.memory.allocation(id)?.size ?? 0;
    this.baseOf.set(id, base);
    const at = this.byBase.findIndex((e) => e.base > base);
    this.byBase.splice(at < 0 ? this.byBase.length : at, 0, { base, id, size });
  }

  /**
   * Forgets a placed allocation's region (a managed allocation freed back to the host
   * program's heap): its addresses belong to the enclosing allocation again. The allocation
   * keeps its base, so a stale pointer still has the flat address it had.
   */
  release(pointer: number): void {
    const id = pointerAllocation(pointer);
    const at = this.byBase.findIndex((e) => e.id === id);
    if (at >= 0) this.byBase.splice(at, 1);
  }

  /** The flat address of a provenance pointer (0 for null); stray offsets wrap like hardware. */
  flatOf(pointer: number): number {
    if (pointer === 0) return 0;
    const id = pointerAllocation(pointer);
    let base = this.baseOf.get(id);
    if (base === undefined) {
      const size = this.memory.allocation(id)?.size ?? 0;
      base = this.next;
      const span = Math.max(ALIGN, Math.ceil(size / ALIGN) * ALIGN);
      if (base + span >= FLAT_LIMIT) throw new RangeError('the 32-bit address space of the program is full');
      this.next = base + span;
      this.baseOf.set(id, base);
      this.byBase.push({ base, id, size });
    }
    return (base + pointerOffset(pointer)) >>> 0;
  }

  /**
   * The provenance pointer for a flat address: inside the allocation that covers it, or, for an
   * address between allocations, relative to the nearest one below (so a fault names it). An
   * address below every allocation gives a pointer into no allocation.
   */
  pointerOf(flat: number): number {
    flat >>>= 0;
    if (flat === 0) return 0;
    const list = this.byBase;
    let lo = 0;
    let hi = list.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].base <= flat) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    // Placed regions may nest (a managed allocation inside the host's linear memory): the
    // innermost one that covers the address wins.
    for (let i = found; i >= 0; i--) {
      const e = list[i];
      if (flat < e.base + e.size) return makePointer(e.id, flat - e.base);
    }
    if (found < 0) return makePointer(0, flat);
    const e = list[found];
    return makePointer(e.id, flat - e.base);
  }
}
