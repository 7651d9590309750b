// The weak memory model's tables: the address table (pages of offsets per allocation) and the
// small map (one entry inline, a Map from the second) must answer as a Map would, under any
// sequence of operations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AddressTable } from '../../../sims/gpu/addressTable';
import { SmallMap } from '../../../sims/gpu/smallMap';
import { seededRandom } from '../../../sims/values/random';

test('the address table answers as a Map keyed by allocation and offset, and lists states in address order', () => {
  const random = seededRandom(11);
  const table = new AddressTable<string, { id: number }>();
  const reference = new Map<string, { id: number }>();
  const allocations = ['x', 'y', 'z'];
  let id = 0;
  for (let i = 0; i < 20_000; i++) {
    const a = allocations[Math.floor(random() * 3)];
    // Offsets clustered (runs along an array) and scattered (pages made and emptied).
    const offset = random() < 0.7 ? Math.floor(random() * 600) * 4 : Math.floor(random() * 1e6);
    const key = `${a}:${offset}`;
    const r = random();
    if (r < 0.45) {
      const v = { id: id++ };
      table.set(a, offset, v);
      reference.set(key, v);
    } else if (r < 0.75) {
      // Deleting names the state: another one at the address stays.
      const v = random() < 0.8 ? reference.get(key) : { id: -1 };
      if (v) {
        table.delete(a, offset, v);
        if (reference.get(key) === v) reference.delete(key);
      }
    }
    assert.equal(table.get(a, offset), reference.get(key));
  }
  const listed = [...table.values()];
  assert.equal(listed.length, reference.size);
  assert.deepEqual(new Set(listed), new Set(reference.values()));
  // Within each allocation, in address order.
  const order = (a: string) => [...reference.entries()].filter(([k]) => k.startsWith(`${a}:`)).sort((p, q) => Number(p[0].split(':')[1]) - Number(q[0].split(':')[1])).map(([, v]) => v.id);
  const byAllocation = new Map<number, string>();
  for (const [k, v] of reference) byAllocation.set(v.id, k.split(':')[0]);
  for (const a of allocations) assert.deepEqual(listed.filter((v) => byAllocation.get(v.id) === a).map((v) => v.id), order(a));
  table.clear();
  assert.deepEqual([...table.values()], []);
  assert.equal(table.get('x', 0), undefined);
});

test('the small map answers as a Map: gets, sizes, insertion order, deleting while iterating, its sole entry', () => {
  const random = seededRandom(5);
  for (let round = 0; round < 200; round++) {
    const small = new SmallMap<string>();
    const reference = new Map<number, string>();
    for (let i = 0; i < 12; i++) {
      const k = Math.floor(random() * 4);
      if (random() < 0.6) {
        small.set(k, `v${round}.${i}`);
        reference.set(k, `v${round}.${i}`);
      } else assert.equal(small.delete(k), reference.delete(k));
      assert.equal(small.size, reference.size);
      for (let q = 0; q < 4; q++) {
        assert.equal(small.get(q), reference.get(q));
        assert.equal(small.has(q), reference.has(q));
      }
      assert.deepEqual([...small], [...reference]);
      assert.deepEqual([...small.keys()], [...reference.keys()]);
      assert.equal(small.sole(), reference.size === 1 ? [...reference.values()][0] : undefined);
    }
    for (const [k] of small) small.delete(k);
    assert.equal(small.size, 0);
  }
});
