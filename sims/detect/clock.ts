// Vector clocks for the happens-before race detector (precise.ts). A clock belongs to a thread
// of one block: the warps of that block, which barriers join all the time, are a dense array;
// the thread's own component, when it is not one of them (a lane of a diverged warp), has a slot
// of its own, since it changes at every release; every other component (warps of other blocks
// learned through release/acquire, other lanes) is sparse, since a thread learns about few of
// them. The sparse part is shared between copies until one of them writes to it, so copying a
// clock at every barrier or release costs the dense part only.

export class Clock {
  /** The one component outside the dense part kept apart (-1: none), and its value. */
  private slot = -1;
  private slotValue = 0;

  constructor(
    /** The first component of the dense part (the block's first warp). */
    readonly base: number,
    private readonly local: Int32Array,
    private foreign: Map<number, number> | undefined,
    /** The sparse part is also another clock's: copy it before writing. */
    private sharedForeign: boolean,
  ) {}

  /** Keeps component `c` (outside the dense part) apart from the sparse ones: it changes often. */
  own(c: number, v: number): void {
    const i = c - this.base;
    if (i >= 0 && i < this.local.length) {
      this.local[i] = v;
      return;
    }
    if (this.foreign?.has(c)) {
      if (this.sharedForeign) {
        this.foreign = new Map(this.foreign);
        this.sharedForeign = false;
      }
      this.foreign.delete(c);
    }
    this.slot = c;
    this.slotValue = v;
  }

  static empty(base: number, size: number): Clock {
    return new Clock(base, new Int32Array(size), undefined, false);
  }

  get(c: number): number {
    const i = c - this.base;
    if (i >= 0 && i < this.local.length) return this.local[i];
    if (c === this.slot) return this.slotValue;
    return this.foreign === undefined ? 0 : (this.foreign.get(c) ?? 0);
  }

  set(c: number, v: number): void {
    const i = c - this.base;
    if (i >= 0 && i < this.local.length) {
      this.local[i] = v;
      return;
    }
    if (c === this.slot) {
      this.slotValue = v;
      return;
    }
    if (!this.foreign) {
      this.foreign = new Map();
      this.sharedForeign = false;
    } else if (this.sharedForeign) {
      this.foreign = new Map(this.foreign);
      this.sharedForeign = false;
    }
    this.foreign.set(c, v);
  }

  /** this := this ⊔ o, leaving out the components in [skipFrom, skipTo). */
  join(o: Clock, skipFrom = 0, skipTo = 0): void {
    if (o === this) return;
    const a = this.local;
    const b = o.local;
    if (o.base === this.base && b.length === a.length) {
      for (let i = 0; i < a.length; i++) if (b[i] > a[i]) a[i] = b[i];
    } else {
      for (let i = 0; i < b.length; i++) {
        const v = b[i];
        if (v > 0 && v > this.get(o.base + i)) this.set(o.base + i, v);
      }
    }
    if (o.slot >= 0 && !(o.slot >= skipFrom && o.slot < skipTo) && o.slotValue > this.get(o.slot)) this.set(o.slot, o.slotValue);
    if (o.foreign) {
      if (this.foreign === o.foreign) return;
      for (const [c, v] of o.foreign) if (!(c >= skipFrom && c < skipTo) && v > this.get(c)) this.set(c, v);
    }
  }

  /** A copy that can change on its own (the sparse part stays shared until either writes). */
  copy(): Clock {
    if (this.foreign) this.sharedForeign = true;
    const c = new Clock(this.base, this.local.slice(), this.foreign, this.foreign !== undefined);
    c.slot = this.slot;
    c.slotValue = this.slotValue;
    return c;
  }
}
