// Memory with provenance: every access is judged against the allocation its pointer came from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makePointer, Memory, NULL_POINTER, pointerAllocation, pointerOffset, type Allocation, type Fault } from '../../../sims/gpu/memory';
import { MemoryAccount } from '../../../sims/gpu/memoryAccount';

const isFault = (r: Allocation | Fault): r is Fault => 'kind' in r && !('bytes' in r);

test('pointers keep their allocation through arithmetic, also out of bounds', () => {
  const p = makePointer(7, 0);
  for (const delta of [0, 4, 1000, -8, -2147483647, 2147483647]) {
    assert.equal(pointerAllocation(p + delta), 7, `delta ${delta}`);
    assert.equal(pointerOffset(p + delta), delta);
  }
  assert.equal(pointerAllocation(NULL_POINTER), 0);
});

test('typed reads and writes are little-endian and wrap like the hardware', () => {
  const m = new Memory();
  const p = m.allocate('global', 16, { label: 'buf' });
  const a = m.resolve(p, 4, 'device', true) as Allocation;
  Memory.write(a, 0, 'i32', -2);
  assert.equal(Memory.read(a, 0, 'u32'), 0xfffffffe);
  assert.deepEqual([...a.bytes.slice(0, 4)], [0xfe, 0xff, 0xff, 0xff]);
  Memory.write(a, 4, 'f32', 1.5);
  assert.equal(Memory.read(a, 4, 'f32'), 1.5);
  Memory.write(a, 8, 'u64', -1n);
  assert.equal(Memory.read(a, 8, 'u64'), 0xffffffffffffffffn);
  assert.equal(Memory.read(a, 8, 'i64'), -1n);
  Memory.write(a, 0, 'u8', 0x1ff);
  assert.equal(Memory.read(a, 0, 'u8'), 0xff);
});

test('out of bounds names the allocation, the offset, and the neighbour it lands in', () => {
  const m = new Memory();
  const data = m.allocate('global', 132, { label: 'd_data' });
  const flag = m.allocate('global', 4, { label: 'd_flag' });
  const r = m.resolve(data + 132, 4, 'device', false);
  assert.ok(isFault(r));
  assert.equal(r.kind, 'out-of-bounds');
  assert.equal(r.offset, 132);
  assert.equal(r.allocation?.label, 'd_data');
  assert.equal(r.landsIn, undefined, 'the padding after d_data belongs to nobody');
  // 256-byte aligned layout: d_flag starts 256 bytes after d_data.
  const stray = m.resolve(data + 256, 4, 'device', true);
  assert.ok(isFault(stray));
  assert.equal(stray.landsIn?.label, 'd_flag');
  assert.match(stray.message, /write of 4 bytes at offset 256, past the end of 'd_data' \(132 bytes, global memory\); the address lies inside 'd_flag'/);
  const before = m.resolve(flag - 4, 4, 'device', false);
  assert.ok(isFault(before) && /4 bytes before the start of 'd_flag'/.test(before.message));
});

test('spaces: host and device see only their own memory; managed is shared; constant is read-only on the device', () => {
  const m = new Memory();
  const dev = m.allocate('global', 8, { label: 'd' });
  const host = m.allocate('host', 8, { label: 'h' });
  const man = m.allocate('managed', 8, { label: 'u' });
  const con = m.allocate('constant', 8, { label: 'c' });
  const kind = (r: Allocation | Fault) => (isFault(r) ? r.kind : 'ok');
  assert.equal(kind(m.resolve(dev, 4, 'host', false)), 'host-dereferences-device');
  assert.equal(kind(m.resolve(host, 4, 'device', false)), 'device-dereferences-host');
  assert.equal(kind(m.resolve(man, 4, 'host', true)), 'ok');
  assert.equal(kind(m.resolve(man, 4, 'device', true)), 'ok');
  assert.equal(kind(m.resolve(con, 4, 'device', false)), 'ok');
  assert.equal(kind(m.resolve(con, 4, 'device', true)), 'write-to-constant');
  assert.equal(kind(m.resolve(dev + 2, 4, 'device', false)), 'misaligned');
  assert.equal(kind(m.resolve(NULL_POINTER, 4, 'device', false)), 'null-dereference');
  assert.equal(kind(m.resolve(makePointer(99, 0), 4, 'device', false)), 'invalid-pointer');
});

test('free: use after free, double free, interior and wrong-heap frees', () => {
  const m = new Memory();
  const d = m.allocate('global', 8, { label: 'd' });
  const h = m.allocate('host', 8, { label: 'h' });
  assert.equal(m.free(d + 4, 'device')?.kind, 'invalid-free');
  assert.equal(m.free(h, 'device')?.kind, 'invalid-free');
  assert.equal(m.free(d, 'device'), undefined);
  assert.equal(m.free(d, 'device')?.kind, 'double-free');
  const r = m.resolve(d, 4, 'device', false);
  assert.ok(isFault(r) && r.kind === 'use-after-free');
  assert.equal(m.free(NULL_POINTER, 'host'), undefined, 'free(NULL) is a no-op');
});

test('the memory account stops a run for what it holds, not for garbage it has already dropped', () => {
  const account = new MemoryAccount(64 * 2 ** 20);
  // Objects kept long enough to reach the old generation, then dropped: the heap still counts
  // them until a full collection, though nothing holds them.
  let dropped: { index: number; text: string }[] | undefined = Array.from({ length: 1_500_000 }, (_, i) => ({ index: i, text: `item ${i}` }));
  assert.equal(dropped.length, 1_500_000);
  dropped = undefined;
  assert.equal(account.overLimit(), undefined);
  // 100 MB that the run keeps: over the limit, said with the limit.
  const held = Array.from({ length: 1_000_000 }, (_, i) => ({ index: i, text: `kept ${i}` }));
  assert.match(account.overLimit() ?? '', /of detector and simulator state\); the memory limit is 64 MB/);
  assert.equal(held.length, 1_000_000);
});
