// The exact mode's table of reads before a word's first write: what a write is compared with
// survives the table's growth, another thread's read is kept beside the last one, a read kept
// whole comes back as itself, and a table given back by a finished detector shows the next one
// nothing of the earlier run.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ReadsBeforeWrite } from '../../../sims/detect/readsBeforeWrite';
import type { AccessRecord, FenceFile } from '../../../sims/detect/scordRecords';
import type { Range } from '../../../sims/frontend/source';

const range = (line: number): Range => ({ file: 'k.cu', start: { line, character: 0, offset: 0 }, end: { line, character: 1, offset: 1 } });
const fence = (blk: number, dev: number): FenceFile => ({ blk, dev, lastLane: -1, fencedLast: false, fencedLastDev: false, order: { rel: 3, sync: 2 } as FenceFile['order'] });
const blankRecord = (): AccessRecord => ({
  block: -1, warp: -1, lane: -1, divergence: 0, barrier: 0, blkFence: 0, devFence: 0, isAtom: true, atomic: undefined, strong: false, locks: 0, range: range(0), write: true, release: false,
  rel: 0, order: undefined, orderScope: undefined, lostLock: undefined, pendingLock: undefined, heldBy: undefined, sync: 0, value: 9, silent: true, bytes: 0,
});
const NO_LOCKS = new Set<string>();

function read(t: ReadsBeforeWrite, allocation: number, word: number, generation: number, block: number, warp: number, lane: number, line: number, strong = false): void {
  const half = t.note(allocation, word, generation, block, warp, lane);
  t.putPlain(half, { block, warp, lane, strong, range: range(line) }, -1, 5, fence(1, 2), strong, 0b0011);
}

describe('reads before a first write', () => {
  test('a plain read comes back with every field it was made with', () => {
    const t = new ReadsBeforeWrite();
    read(t, 3, 40, 1, 7, 45, 31, 12, true);
    const slot = t.find(3, 40, 1);
    assert.ok(slot >= 0);
    const r = t.load(t.last(slot), blankRecord(), NO_LOCKS);
    assert.deepEqual(
      { block: r.block, warp: r.warp, lane: r.lane, divergence: r.divergence, barrier: r.barrier, blkFence: r.blkFence, devFence: r.devFence, rel: r.rel, sync: r.sync, strong: r.strong, release: r.release, bytes: r.bytes, write: r.write, isAtom: r.isAtom, line: r.range.start.line },
      { block: 7, warp: 45, lane: 31, divergence: -1, barrier: 5, blkFence: 1, devFence: 2, rel: 3, sync: 2, strong: true, release: true, bytes: 0b0011, write: false, isAtom: false, line: 12 },
    );
    assert.equal(r.locks, NO_LOCKS);
    assert.equal(t.other(slot), -1, 'one thread has read it');
    assert.equal(t.find(3, 41, 1), -1, 'another word');
    assert.equal(t.find(3, 40, 2), -1, 'a later launch');
  });

  test('another thread\'s read stays beside the last read; the same thread again replaces the last', () => {
    const t = new ReadsBeforeWrite();
    read(t, 1, 8, 1, 0, 0, 1, 10);
    read(t, 1, 8, 1, 0, 0, 2, 11);
    read(t, 1, 8, 1, 0, 0, 2, 12);
    const slot = t.find(1, 8, 1);
    const last = t.load(t.last(slot), blankRecord(), NO_LOCKS);
    assert.deepEqual([last.lane, last.range.start.line], [2, 12]);
    assert.ok(t.byThread(t.last(slot), 0, 0, 2));
    const other = t.load(t.other(slot), blankRecord(), NO_LOCKS);
    assert.deepEqual([other.lane, other.range.start.line], [1, 10]);
    // A new launch starts the slot again.
    read(t, 1, 8, 2, 0, 0, 3, 13);
    const again = t.find(1, 8, 2);
    assert.equal(t.other(again), -1);
  });

  test('a read kept whole comes back as its own record', () => {
    const t = new ReadsBeforeWrite();
    const half = t.note(2, 5, 1, 4, 1, 9);
    const rec = { ...blankRecord(), block: 4, warp: 1, lane: 9, isAtom: true };
    t.putRecord(half, rec);
    const slot = t.find(2, 5, 1);
    assert.equal(t.load(t.last(slot), blankRecord(), NO_LOCKS), rec);
    assert.ok(t.byThread(t.last(slot), 4, 1, 9));
    assert.equal(t.spareRecord(half), rec, 'refilled by the next read kept whole');
  });

  test('reads survive the table\'s growth', () => {
    const t = new ReadsBeforeWrite(16);
    for (let w = 0; w < 3000; w++) read(t, 1, w, 1, w % 5, 0, w & 31, w);
    let kept = 0;
    for (let w = 0; w < 3000; w++) {
      const slot = t.find(1, w, 1);
      if (slot < 0) continue;
      kept++;
      const r = t.load(t.last(slot), blankRecord(), NO_LOCKS);
      assert.deepEqual([r.block, r.lane, r.range.start.line], [w % 5, w & 31, w]);
    }
    // Direct-mapped: colliding words forget, but a table grown to its 16,384 slots keeps most.
    assert.ok(kept > 2000, `${kept} of 3000 reads kept`);
  });

  test('a table given back shows the next detector nothing of the earlier run', () => {
    const first = ReadsBeforeWrite.take();
    read(first, 1, 1, 1, 0, 0, 0, 1);
    assert.ok(first.find(1, 1, 1) >= 0);
    first.giveBack();
    const second = ReadsBeforeWrite.take();
    assert.equal(second, first, 'the same rows, not allocated again');
    assert.equal(second.find(1, 1, 1), -1, 'the earlier run\'s read is not the new run\'s');
    read(second, 1, 1, 1, 0, 0, 5, 2);
    const slot = second.find(1, 1, 1);
    assert.equal(second.other(slot), -1, 'no earlier run\'s read beside it');
    assert.equal(ReadsBeforeWrite.take() === second, false, 'a table in use is not handed out twice');
  });
});
