// The third valuation of a kernel run on its own: from two runs' addresses of each access (by
// site, thread and occurrence), the step at which two threads' accesses, one a write, meet.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AccessTrail, collidingStep, valuationAt } from '../../../sims/host/collidingValuation';
import type { SimEvent } from '../../../sims/ir/ir';

interface Access {
  line: number;
  lane: number;
  address: number;
  write?: boolean;
}

function trail(accesses: Access[]): AccessTrail {
  const t = new AccessTrail();
  for (const a of accesses) {
    const range = { file: 'k.cu', start: { line: a.line, character: 0, offset: 0 }, end: { line: a.line, character: 4, offset: 4 } };
    const e: SimEvent = { kind: 'access', write: !!a.write, address: a.address, size: 4, type: 'f32', strong: false, space: 'device', block: 0, warp: a.lane >> 5, lane: a.lane & 31, range };
    t.listener(e);
  }
  return t;
}

/** Thread `mover` writes at base + 4 · (mover + x); thread `still` accesses base + 4 · still. */
function meeting(x: number, still: { lane: number; write: boolean }, mover = 3): Access[] {
  return [
    { line: 5, lane: mover, address: 1000 + 4 * (mover + x), write: true },
    { line: 6, lane: still.lane, address: 1000 + 4 * still.lane, write: still.write },
  ];
}

test('two lines of addresses that cross at a whole step give that step', () => {
  assert.equal(collidingStep(trail(meeting(0, { lane: 40, write: true })), trail(meeting(1, { lane: 40, write: true }))), 37);
  assert.equal(collidingStep(trail(meeting(0, { lane: 40, write: false })), trail(meeting(1, { lane: 40, write: false }))), 37, 'a write and a read');
  // Steps of two: the second run moved the address by 8; they meet half-way.
  assert.equal(collidingStep(trail(meeting(0, { lane: 40, write: true })), trail(meeting(2, { lane: 40, write: true }))), undefined, 'half-way is no whole step');
  assert.equal(collidingStep(trail(meeting(0, { lane: 41, write: true })), trail(meeting(2, { lane: 41, write: true }))), 19);
});

test('no step: two reads, one thread, parallel lines, a crossing between whole steps, or at the valuations already run', () => {
  const reads = (x: number): Access[] => meeting(x, { lane: 40, write: false }).map((a) => ({ ...a, write: false }));
  assert.equal(collidingStep(trail(reads(0)), trail(reads(1))), undefined, 'reads do not race');
  const own = (x: number): Access[] => [{ line: 5, lane: 3, address: 1000 + 4 * x, write: true }, { line: 6, lane: 3, address: 1040, write: true }];
  assert.equal(collidingStep(trail(own(0)), trail(own(1))), undefined, 'one thread');
  const parallel = (x: number): Access[] => [{ line: 5, lane: 3, address: 1000 + 4 * x, write: true }, { line: 6, lane: 4, address: 1004 + 4 * x, write: true }];
  assert.equal(collidingStep(trail(parallel(0)), trail(parallel(1))), undefined, 'both move alike');
  const between = (x: number): Access[] => [{ line: 5, lane: 3, address: 1000 + 8 * x, write: true }, { line: 6, lane: 4, address: 1004, write: true }];
  assert.equal(collidingStep(trail(between(0)), trail(between(1))), undefined, 'they cross at a half step');
  const atOne = (x: number): Access[] => [{ line: 5, lane: 3, address: 1000 + 4 * x, write: true }, { line: 6, lane: 4, address: 1004, write: true }];
  assert.equal(collidingStep(trail(atOne(0)), trail(atOne(1))), undefined, 'the second run already met there');
});

test('the step most pairs agree on wins; on a tie, the smaller one', () => {
  const many = (x: number): Access[] => [
    ...[3, 4, 5].map((lane) => ({ line: 5, lane, address: 1000 + 4 * (lane + x), write: true })),
    ...[13, 14, 15].map((lane) => ({ line: 6, lane, address: 1000 + 4 * lane })),
    { line: 7, lane: 60, address: 1000 + 4 * 60 },
  ];
  // Ten apart for three pairs (3-13, 4-14, 5-15); other steps for fewer.
  assert.equal(collidingStep(trail(many(0)), trail(many(1))), 10);
  const tie = (x: number): Access[] => [{ line: 5, lane: 3, address: 1000 + 4 * (3 + x), write: true }, { line: 6, lane: 50, address: 1000 + 4 * 50 }, { line: 6, lane: 10, address: 1000 + 4 * 10 }];
  assert.equal(collidingStep(trail(tie(0)), trail(tie(1))), 7);
  // A step the kernel's preconditions refuse is passed over, however many pairs meet there.
  assert.equal(collidingStep(trail(many(0)), trail(many(1)), (s) => s !== 10), 9, "the next most agreed on (9 and 11, two pairs each)");
  assert.equal(collidingStep(trail(tie(0)), trail(tie(1)), (s) => s > 7), 47);
  assert.equal(collidingStep(trail(tie(0)), trail(tie(1)), () => false), undefined);
});

test('an access the other run did not make, or a trail over its limit, proposes nothing', () => {
  const first = trail(meeting(0, { lane: 40, write: true }));
  assert.equal(collidingStep(first, trail([meeting(1, { lane: 40, write: true })[0]])), undefined);
  const big = trail(Array.from({ length: 50_001 }, (_, i) => ({ line: 5, lane: i % 64, address: 1000 + 4 * i, write: true })));
  assert.equal(big.overflowed, true);
  assert.equal(collidingStep(big, big), undefined);
});

test('the valuation at a step moves each scalar along the line through the two runs', () => {
  assert.deepEqual(valuationAt({ x: 0, n: 8 }, { x: 1, n: 8 }, 37), { x: 37, n: 8 });
  assert.deepEqual(valuationAt({ x: 6 }, { x: 8 }, -2), { x: 2 });
  assert.deepEqual(valuationAt({}, { x: 1 }, 5), { x: 5 }, 'a scalar the first run left at 0');
});
