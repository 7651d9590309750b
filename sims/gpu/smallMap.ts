// A map from small non-negative integers that holds its first entry inline and makes a Map
// only for a second key. The weak memory model keeps one per address with held-back values,
// and almost every such address has one thread's value at a time: a Map each (its hash table,
// its deleted entries) cost more than the rest of a store. Iteration follows insertion order,
// as a Map's does, and tolerates deleting the entry being visited.
export class SmallMap<V> {
  private key = -1;
  private value: V | undefined;
  private many: Map<number, V> | undefined;

  get size(): number {
    return this.many ? this.many.size : this.value !== undefined ? 1 : 0;
  }

  get(k: number): V | undefined {
    if (this.many) return this.many.get(k);
    return k === this.key ? this.value : undefined;
  }

  has(k: number): boolean {
    return this.get(k) !== undefined;
  }

  set(k: number, v: V): void {
    if (this.many) this.many.set(k, v);
    else if (this.value === undefined || k === this.key) {
      this.key = k;
      this.value = v;
    } else {
      this.many = new Map([
        [this.key, this.value],
        [k, v],
      ]);
      this.key = -1;
      this.value = undefined;
    }
  }

  delete(k: number): boolean {
    if (this.many) return this.many.delete(k);
    if (this.value === undefined || k !== this.key) return false;
    this.key = -1;
    this.value = undefined;
    return true;
  }

  /** The entry when there is exactly one (a loop over one entry without an iterator's allocations). */
  sole(): V | undefined {
    return this.many ? (this.many.size === 1 ? this.many.values().next().value : undefined) : this.value;
  }

  *keys(): Generator<number> {
    for (const [k] of this) yield k;
  }

  *[Symbol.iterator](): Generator<[number, V]> {
    if (this.many) yield* this.many;
    else if (this.value !== undefined) yield [this.key, this.value];
  }
}
