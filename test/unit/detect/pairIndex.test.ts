// The index of found races: one finding per pair of instructions and category, whichever ran
// first, a more serious finding replacing less serious ones of its pair.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PairIndex, type RaceCategory, type RaceFinding } from '../../../sims/detect/findings';
import type { Range } from '../../../sims/frontend/source';

function range(line: number): Range {
  return { file: 'k.cu', start: { line, character: 4, offset: line * 20 + 4 }, end: { line, character: 9, offset: line * 20 + 9 } };
}

type Who = [block: number, warp: number, lane: number];

const thread = ([block, warp, lane]: Who) => ({ block, warp, lane });

function finding(category: RaceCategory, at: Range, previous: Range, me: Who = [0, 0, 0], them: Who = [0, 0, 0]): RaceFinding {
  const summary = { range: at, write: true, strong: false };
  return { kind: 'race', category, scope: 'device', message: category, previousMessage: '', range: at, previous, current: summary, earlier: { ...summary, range: previous }, accessor: thread(me), previousAccessor: thread(them), space: 'global', count: 1 } as RaceFinding;
}

test('a pair asked about again gets the answer that adding since has changed', () => {
  const index = new PairIndex();
  const a = range(3);
  const b = range(7);
  // Asked twice with nothing added: nothing both times.
  assert.equal(index.get('missing-device-fence', a, b), undefined);
  assert.equal(index.get('missing-device-fence', a, b), undefined);
  const f = finding('missing-device-fence', a, b);
  index.add(f);
  assert.equal(index.get('missing-device-fence', a, b), f);
  // Whichever instruction ran first.
  assert.equal(index.get('missing-device-fence', b, a), f);
  assert.equal(index.get('missing-device-fence', a, b), f);
});

test('a less serious race of a pair counts toward its more serious finding, and is replaced by one found later', () => {
  const index = new PairIndex();
  const a = range(3);
  const b = range(7);
  const benign = finding('benign-same-value', a, b);
  index.add(benign);
  assert.equal(index.get('benign-same-value', a, b), benign);
  const real = finding('missing-lock', a, b);
  index.add(real);
  assert.deepEqual(index.all(), [real]);
  assert.equal(index.get('benign-same-value', a, b), real);
  assert.equal(index.get('missing-lock', a, b), real);
});

test('a pair seen first between two lanes of a warp, then between two warps, ends described between the warps, every time counted', () => {
  const index = new PairIndex();
  const a = range(3);
  const b = range(7);
  const lanes = finding('shared-memory', a, b, [1, 0, 0], [1, 0, 8]);
  index.add(lanes);
  // Again within the warp: counted, nothing to describe anew.
  assert.equal(index.recount('shared-memory', a, b, thread([1, 0, 1]), thread([1, 0, 9])), true);
  assert.equal(lanes.count, 2);
  // Across warps (from the other side): the caller describes this instance, and it takes the finding's place.
  assert.equal(index.recount('shared-memory', b, a, thread([1, 1, 0]), thread([1, 0, 0])), false);
  const warps = finding('shared-memory', b, a, [1, 1, 0], [1, 0, 0]);
  index.add(warps);
  assert.deepEqual(index.all(), [warps]);
  assert.equal(warps.count, 3);
  assert.equal(index.get('shared-memory', a, b), warps);
  // Narrower instances after it only count.
  assert.equal(index.recount('shared-memory', a, b, thread([1, 0, 2]), thread([1, 0, 3])), true);
  assert.equal(warps.count, 4);
  assert.deepEqual(index.all(), [warps]);
});

test('an instance of a less serious category counts toward the more serious finding, however wide', () => {
  const index = new PairIndex();
  const a = range(3);
  const b = range(7);
  const real = finding('missing-device-fence', a, b, [0, 0, 0], [0, 1, 0]);
  index.add(real);
  assert.equal(index.recount('benign-same-value', a, b, thread([0, 0, 0]), thread([3, 0, 0])), true);
  assert.deepEqual(index.all(), [real]);
  assert.equal(real.count, 2);
});

test('a finding added for another race after a widening recount is added beside it, not in its place', () => {
  const index = new PairIndex();
  const a = range(3);
  const b = range(7);
  const lanes = finding('shared-memory', a, b, [0, 0, 0], [0, 0, 4]);
  index.add(lanes);
  assert.equal(index.recount('shared-memory', a, b, thread([0, 1, 0]), thread([0, 0, 0])), false);
  const other = finding('shared-memory', a, range(9), [0, 1, 0], [0, 0, 0]);
  index.add(other);
  assert.deepEqual(index.all(), [lanes, other]);
  assert.equal(other.count, 1);
});
