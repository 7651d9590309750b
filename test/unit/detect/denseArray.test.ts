// Arrays grown with setDense keep the meaning of a sparse array (the gap is holes, which
// forEach, map and flatMap skip, as the detector's inspector view relies on) at any jump.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setDense } from '../../../sims/detect/denseArray';

test('setDense: the value at its index, the gap before it holes, for small and large jumps', () => {
  for (const index of [0, 3, 1023, 1024, 5000, 70_000]) {
    const a: (string | undefined)[] = ['first'];
    assert.equal(setDense(a, index, 'x'), 'x');
    assert.equal(a[index], 'x');
    assert.equal(a.length, Math.max(1, index + 1));
    assert.deepEqual(Object.keys(a), index === 0 ? ['0'] : ['0', String(index)], 'only the two set indices exist');
    assert.deepEqual(a.flatMap((v, i) => [`${i}:${v}`]), index === 0 ? ['0:x'] : ['0:first', `${index}:x`]);
  }
  const b: number[] = [];
  setDense(b, 10, 1);
  setDense(b, 4, 2);
  assert.deepEqual(Object.keys(b), ['4', '10'], 'an index inside the length is set in place');
});
