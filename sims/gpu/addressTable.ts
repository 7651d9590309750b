// The weak memory model's state by address: per allocation, pages of 256 byte offsets, each an
// array. A Map keyed by offset pays a hash per lookup and, under a grid-stride loop's millions
// of states made and dropped, its deleted entries; a page slot costs an index. The last page
// used is remembered (accesses come in runs along an array), and a page goes with its last
// state, so the table holds no more pages than there are addresses with state. A page that
// goes is kept for the next one (a few of them): a grid-stride loop empties and refills pages
// all along, and an empty page needs no clearing.
const PAGE_BITS = 8;
const PAGE_SLOTS = 1 << PAGE_BITS;
const SPARE_PAGES = 64;

interface Page<T> {
  slots: (T | undefined)[];
  used: number;
}

export class AddressTable<A, T> {
  private readonly byAllocation = new Map<A, Map<number, Page<T>>>();
  private lastAllocation: A | undefined;
  private lastIndex = -1;
  private lastPage: Page<T> | undefined;
  /** Emptied pages (every slot undefined), to be used again. */
  private readonly spare: Page<T>[] = [];

  get(a: A, offset: number): T | undefined {
    return this.page(a, offset >>> PAGE_BITS)?.slots[offset & (PAGE_SLOTS - 1)];
  }

  set(a: A, offset: number, value: T): void {
    const index = offset >>> PAGE_BITS;
    let page = this.page(a, index);
    if (!page) {
      let pages = this.byAllocation.get(a);
      if (!pages) this.byAllocation.set(a, (pages = new Map()));
      page = this.spare.pop() ?? { slots: new Array<T | undefined>(PAGE_SLOTS).fill(undefined), used: 0 };
      pages.set(index, page);
      this.remember(a, index, page);
    }
    const slot = offset & (PAGE_SLOTS - 1);
    if (page.slots[slot] === undefined) page.used++;
    page.slots[slot] = value;
  }

  /** Removes the state at `offset` if it is `value`. */
  delete(a: A, offset: number, value: T): void {
    const index = offset >>> PAGE_BITS;
    const page = this.page(a, index);
    const slot = offset & (PAGE_SLOTS - 1);
    if (!page || page.slots[slot] !== value) return;
    page.slots[slot] = undefined;
    if (--page.used > 0) return;
    const pages = this.byAllocation.get(a)!;
    pages.delete(index);
    if (!pages.size) this.byAllocation.delete(a);
    if (this.lastPage === page) this.remember(undefined, -1, undefined);
    if (this.spare.length < SPARE_PAGES) this.spare.push(page);
  }

  clear(): void {
    this.byAllocation.clear();
    this.remember(undefined, -1, undefined);
  }

  /** Every state, allocation by allocation (in the order they first had one), each in address order. */
  *values(): Generator<T> {
    for (const pages of this.byAllocation.values()) {
      for (const index of [...pages.keys()].sort((x, y) => x - y)) {
        for (const v of pages.get(index)!.slots) if (v !== undefined) yield v;
      }
    }
  }

  private page(a: A, index: number): Page<T> | undefined {
    if (a === this.lastAllocation && index === this.lastIndex) return this.lastPage;
    const page = this.byAllocation.get(a)?.get(index);
    // Only a page that exists is remembered: a miss is looked up again once one is made.
    if (page) this.remember(a, index, page);
    return page;
  }

  private remember(a: A | undefined, index: number, page: Page<T> | undefined): void {
    this.lastAllocation = a;
    this.lastIndex = index;
    this.lastPage = page;
  }
}
