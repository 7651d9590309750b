// Exact mode's entries in numbers: an access comes back with every field a comparison reads, a
// read after a write keeps that write apart (whoever reads), a promoted row holds nothing, and
// the pages are charged to the run's memory account and given back when no launch uses them —
// so a grid that writes millions of words fits where objects did not, and one past the limit
// still stops with a located finding.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PlainWords } from '../../../sims/detect/plainWords';
import type { AccessRecord, FenceFile } from '../../../sims/detect/scordRecords';
import type { Range } from '../../../sims/frontend/source';
import { MemoryAccount } from '../../../sims/gpu/memoryAccount';
import { parse } from '../../../sims/frontend/index';
import { runProgram } from '../../../sims/host/run';
import { ScordDetector } from '../../../sims/detect/scord';

const range = (line: number): Range => ({ file: 'k.cu', start: { line, character: 0, offset: 0 }, end: { line, character: 1, offset: 1 } });
const NO_LOCKS = new Set<string>();
const blank = (): AccessRecord => ({
  block: -1, warp: -1, lane: -1, divergence: 0, barrier: 0, blkFence: 0, devFence: 0, isAtom: true, atomic: undefined, strong: false, locks: 0, range: range(0), write: true, release: false,
  rel: 0, order: undefined, orderScope: undefined, lostLock: undefined, pendingLock: undefined, heldBy: undefined, sync: 0, value: 9, silent: true, bytes: 0,
});
const access = (fields: Partial<AccessRecord>): AccessRecord => ({ ...blank(), block: 0, warp: 0, lane: 0, isAtom: false, locks: NO_LOCKS, ...fields });
/** A new entry made by a plain write with `w`'s thread, counters and value (a new entry is never silent). */
const create = (t: PlainWords, w: AccessRecord): void => {
  const fence: FenceFile = { blk: w.blkFence, dev: w.devFence, fencedLast: false, fencedLastDev: false, lastLane: -1, order: { rel: w.rel, sync: w.sync } } as FenceFile;
  t.createPlain(w, w.divergence, w.barrier, fence, w.release, w.value, w.bytes);
};
const fields = (r: AccessRecord) => ({
  block: r.block, warp: r.warp, lane: r.lane, divergence: r.divergence, barrier: r.barrier, blkFence: r.blkFence, devFence: r.devFence, rel: r.rel, sync: r.sync,
  strong: r.strong, release: r.release, write: r.write, silent: r.silent, bytes: r.bytes, value: r.value, isAtom: r.isAtom, line: r.range.start.line,
});

describe('entries in numbers', () => {
  test('a write, then a read of the same thread: both come back with every field, the write kept apart', () => {
    const t = new PlainWords(new MemoryAccount(1 << 30));
    assert.equal(t.find(2, 5000, 8000, true), false, 'no entry yet');
    const write = access({ block: 70000, warp: 31, lane: 17, divergence: 3, barrier: 4, blkFence: 1, devFence: 2, rel: 6, sync: 7, strong: true, release: true, write: true, silent: false, bytes: 0b1111, value: 0xfffffffe, range: range(11) });
    create(t, write);
    assert.equal(t.find(2, 5000, 8000, false), true);
    assert.equal(t.lastBy(70000, 31, 17), true);
    assert.equal(t.lastBy(70000, 31, 16), false);
    assert.equal(t.lastWriteValue, 0xfffffffe, 'an unsigned word past 2^31 survives');
    const read = access({ block: 70000, warp: 31, lane: 17, divergence: -1, barrier: 5, blkFence: 1, devFence: 3, rel: 8, sync: 9, write: false, silent: false, bytes: 0b0100, value: NaN, range: range(12) });
    // Another thread's read of what the write left: the write goes apart, the read is the last access.
    t.update(access({ ...read, lane: 3, range: range(14) }));
    assert.equal(t.lastBy(70000, 31, 3), true);
    assert.equal(t.lastWriteBy(70000, 31, 17), true);
    assert.equal(t.lastIsWrite, false);
    // The writer writes again, then reads it back.
    t.update(write);
    assert.equal(t.lastIsWrite, true);
    t.update(read);
    assert.equal(t.lastWriteBy(70000, 31, 17), true);
    const last = blank();
    const apart = blank();
    assert.equal(t.load(last, apart, NO_LOCKS), true, 'the last write is another access');
    assert.deepEqual(fields(last), { ...fields(read), isAtom: false });
    assert.ok(Number.isNaN(last.value), 'a read left no value');
    assert.deepEqual(fields(apart), { ...fields(write), isAtom: false });
    assert.equal(last.locks, NO_LOCKS);
    assert.equal(t.lastWriteValue, 0xfffffffe);
    // The next write of the thread is both again.
    t.update(access({ ...write, value: 3, range: range(13) }));
    assert.equal(t.load(blank(), blank(), NO_LOCKS), false);
    assert.equal(t.lastWriteValue, 3);
    assert.equal(t.size(), 1);
  });

  test('a read right after the same thread\'s write keeps the write in short, and in full once the thread\'s counters move on', () => {
    const account = new MemoryAccount(1 << 30);
    const t = new PlainWords(account);
    t.find(5, 7, 64, true);
    const counters = { block: 9, warp: 2, lane: 5, divergence: -1, barrier: 1, blkFence: 0, devFence: 0, rel: 0, sync: 0 };
    const write = access({ ...counters, write: true, strong: true, silent: false, value: 0x80000001, bytes: 0b1111, range: range(20) });
    create(t, write);
    const page = account.externalBytes;
    const read = access({ ...counters, write: false, value: NaN, bytes: 0b0011, range: range(21) });
    t.update(read);
    assert.ok(account.externalBytes - page < page / 3, 'the short form: a few numbers a word');
    const check = (lastLine: number): void => {
      const last = blank();
      const apart = blank();
      assert.equal(t.load(last, apart, NO_LOCKS), true);
      assert.equal(last.range.start.line, lastLine);
      assert.deepEqual(fields(apart), { ...fields(write), isAtom: false });
      assert.equal(t.lastWriteValue, 0x80000001);
      assert.equal(t.lastWriteBy(9, 2, 5), true);
    };
    check(21);
    // Another read with the same counters: still short.
    t.update(access({ ...read, range: range(22) }));
    check(22);
    const short = account.externalBytes;
    // After a fence the read's counters are not the write's: the write is kept in full.
    t.update(access({ ...read, blkFence: 1, range: range(23) }));
    assert.ok(account.externalBytes > short);
    check(23);
  });

  test('bytes of the last access carry over only with nothing between (same kind, fences, barrier)', () => {
    const t = new PlainWords(new MemoryAccount(1 << 30));
    t.find(0, 0, 1, true);
    create(t, access({ block: 0, warp: 0, lane: 0, write: true, bytes: 0b0001, blkFence: 1, devFence: 1, barrier: 2 }));
    assert.equal(t.carryBytes(0, 0, 0, true, 1, 1, 2), 0b0001);
    assert.equal(t.carryBytes(0, 0, 1, true, 1, 1, 2), 0, 'another thread');
    assert.equal(t.carryBytes(0, 0, 0, false, 1, 1, 2), 0, 'a read after a write');
    assert.equal(t.carryBytes(0, 0, 0, true, 2, 1, 2), 0, 'a block fence between');
    assert.equal(t.carryBytes(0, 0, 0, true, 1, 1, 3), 0, 'a barrier between');
  });

  test('a promoted row holds no entry of its own; a reset forgets every row', () => {
    const t = new PlainWords(new MemoryAccount(1 << 30));
    t.find(1, 9, 10, true);
    create(t, access({ write: true }));
    assert.equal(t.size(), 1);
    t.promote();
    assert.equal(t.size(), 0);
    assert.equal(t.find(1, 9, 10, false), true);
    assert.equal(t.promoted, true);
    assert.deepEqual([...t.entries(NO_LOCKS, blank)], []);
    t.reset(false);
    assert.equal(t.find(1, 9, 10, false), false, 'a grid barrier ends every entry');
  });

  test('pages are charged as they are made and given back once a launch leaves their allocation alone', () => {
    const account = new MemoryAccount(1 << 30);
    const t = new PlainWords(account);
    t.find(3, 0, 4096, true);
    create(t, access({ write: true }));
    const one = account.externalBytes;
    assert.ok(one > 0);
    t.find(3, 3000, 4096, true);
    create(t, access({ write: true }));
    assert.equal(account.externalBytes, 2 * one, 'another page of the same allocation');
    t.find(4, 0, 2, true);
    create(t, access({ write: true }));
    const small = account.externalBytes - 2 * one;
    assert.ok(small > 0 && small < one / 100, `a two-word allocation gets a page of its size (${small} bytes)`);
    // The next launch touches allocation 4 only: allocation 3's pages go when the one after starts.
    t.reset(true);
    t.find(4, 1, 2, true);
    create(t, access({ write: true }));
    t.reset(true);
    assert.equal(account.externalBytes, small);
  });
});

describe('a grid that writes a million words', () => {
  const source = `
__global__ void fill(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = i;
}
int main() {
  int n = 1 << 20;
  int *d; cudaMalloc(&d, n * sizeof(int));
  fill<<<n / 256, 256>>>(d, n);
  cudaDeviceSynchronize();
  return 0;
}`;
  const parsed = parse(source, { fileName: 'fill.cu' });

  test('fits in 256 MB with its detector, and past a smaller limit stops with a memory-limit finding', () => {
    for (const [limit, stopped] of [[256, false], [24, true]] as const) {
      let detector: ScordDetector | undefined;
      const run = runProgram(parsed, { listen: (m) => (detector = new ScordDetector(m as never)).listener, deviceMemoryLimit: limit * 2 ** 20 });
      const kinds = run.findings.map((f) => f.kind);
      assert.equal(kinds.includes('memory-limit'), stopped, `${limit} MB: ${kinds.join(', ')}`);
      assert.deepEqual(detector!.findings(), []);
    }
  });
});
