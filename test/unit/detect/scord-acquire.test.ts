// Explicit acquire/release in the ScoRD detector (paper §VI): synthetic event streams, as the
// simulator emits them for libcu++ `cuda::atomic_ref` with memory orders, inline PTX
// `ld.acquire`/`st.release` and `cuda::atomic_thread_fence`, checked in exact and
// hardware-faithful modes. Line N of a stream is the range of its Nth kind of instruction.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkSource } from '../../../sims/check';
import { ScordDetector } from '../../../sims/detect/scord';
import { type RaceFinding } from '../../../sims/detect/findings';
import { INT } from '../../../sims/frontend/types';
import type { MemoryOrder, Scope } from '../../../sims/ir/ir';
import { EventStream, type AccessOptions, type Thread } from '../../support/eventStream';

/**
 * A global allocation holding `data`, `flag`, `flag2` and `lock`, 64 bytes apart so that the
 * hardware-faithful metadata (one entry per 16 words) gives each its own entry, then `spare`
 * words; and a ScoRD detector watching it (test/support/eventStream.ts).
 */
class Stream extends EventStream {
  readonly detector: ScordDetector;
  readonly data: number;
  readonly flag: number;
  readonly flag2: number;
  readonly lock: number;
  readonly spare: number;

  /** `shared`: one block's __shared__ memory (three warps of block 0) instead. */
  constructor(hardwareFaithful: boolean, space: 'global' | 'shared' = 'global') {
    super((memory) => [new ScordDetector(memory, { hardwareFaithful })], 'k.cu');
    this.detector = this.detectors[0] as ScordDetector;
    const base = this.memory.allocate(space, 2048, {
      label: space === 'shared' ? 'shared' : 'globals',
      layout: [
        { name: 'data', offset: 0, type: INT },
        { name: 'flag', offset: 64, type: INT },
        { name: 'flag2', offset: 128, type: INT },
        { name: 'lock', offset: 192, type: INT },
        { name: 'spare', offset: 256, type: INT, unbounded: true },
      ],
    });
    [this.data, this.flag, this.flag2, this.lock] = [base, base + 64, base + 128, base + 192];
    this.spare = base + 256;
    this.launchEvent(space === 'shared' ? 1 : 2, space === 'shared' ? 96 : 64, 100);
  }

  private emit(t: Thread, line: number, fields: AccessOptions & { write: boolean; address: number }): void {
    this.accessEvent(t, fields.write, fields.address, line, fields);
  }

  /** A plain (weak) store or load. */
  write(t: Thread, line: number, address = this.data): void {
    this.emit(t, line, { write: true, address });
  }
  read(t: Thread, line: number, address = this.data): void {
    this.emit(t, line, { write: false, address });
  }
  /** `volatile` accesses: strong, no order. */
  volatileWrite(t: Thread, line: number, address = this.flag): void {
    this.emit(t, line, { write: true, address, strong: true });
  }
  volatileRead(t: Thread, line: number, address = this.flag): void {
    this.emit(t, line, { write: false, address, strong: true });
  }
  /** `atomic_ref<int, scope>.store(v, order)` / `.load(order)`: strong, ordered, not RMW. */
  store(t: Thread, line: number, order: MemoryOrder, orderScope: Scope, address = this.flag): void {
    this.emit(t, line, { write: true, address, strong: true, order, orderScope });
  }
  load(t: Thread, line: number, order: MemoryOrder, orderScope: Scope, address = this.flag): void {
    this.emit(t, line, { write: false, address, strong: true, order, orderScope });
  }
  /** An RMW (`fetch_add`, `exchange`, `compare_exchange`); order undefined for legacy atomics. */
  rmw(t: Thread, line: number, op: string, scope: Scope, changed: boolean, order?: MemoryOrder, address = this.flag): void {
    this.emit(t, line, { write: true, address, strong: true, atomic: { op, scope, changed }, ...(order ? { order, orderScope: scope } : {}) });
  }
  /** `__threadfence*` (order undefined) or `atomic_thread_fence(order, scope)`. */
  fence(t: Thread, line: number, scope: Scope, order?: MemoryOrder): void {
    this.fenceEvent(t, scope, line, order);
  }
  barrier(block: number, line: number): void {
    this.barrierEvent(block, line);
  }
  diverge(warp: number, block = 0): void {
    this.divergeEvent(block, warp);
  }
  syncwarp(warp: number, line: number, block = 0): void {
    this.syncwarpEvent(block, warp, line);
  }

  findings(): RaceFinding[] {
    return this.detector.findings();
  }
  /** `category/scope@line/previousLine` per race, in the order found. */
  races(): string[] {
    return this.findings().map((f) => `${f.category}/${f.scope}@${f.range.start.line + 1}/${f.previous.start.line + 1}`);
  }
}

// Producer and consumers: A and B are warps 0 and 1 of block 0, C and D warps 0 and 1 of block 1.
const A: Thread = { block: 0, warp: 0 };
const B: Thread = { block: 0, warp: 1 };
const C: Thread = { block: 1, warp: 0 };
const D: Thread = { block: 1, warp: 1 };

/** The classic message passing: A writes `data` (line 1) and publishes `flag` (2); `reader` polls `flag` (3) and reads `data` (4). */
function messagePassing(s: Stream, reader: Thread, publish: (s: Stream) => void, poll: (s: Stream) => void): void {
  s.write(A, 1);
  publish(s);
  poll(s);
  s.read(reader, 4);
}

for (const faithful of [false, true]) {
  const mode = faithful ? 'hardware-faithful' : 'exact';
  const stream = () => new Stream(faithful);

  describe(`explicit release/acquire (${mode})`, () => {
    test('block-scope release and acquire order plain data within a block', () => {
      const s = stream();
      messagePassing(s, B, (s) => s.store(A, 2, 'release', 'block'), (s) => s.load(B, 3, 'acquire', 'block'));
      assert.deepEqual(s.races(), []);
    });

    test('device-scope release and acquire order plain data across blocks', () => {
      const s = stream();
      messagePassing(s, C, (s) => s.store(A, 2, 'release', 'device'), (s) => s.load(C, 3, 'acquire', 'device'));
      assert.deepEqual(s.races(), []);
    });

    test('seq_cst and system scope are a release and an acquire too', () => {
      const s = stream();
      messagePassing(s, C, (s) => s.store(A, 2, 'seq_cst', 'system'), (s) => s.load(C, 3, 'seq_cst', 'device'));
      assert.deepEqual(s.races(), []);
    });

    test('a block-scope release does not reach another block', () => {
      const s = stream();
      messagePassing(s, C, (s) => s.store(A, 2, 'release', 'block'), (s) => s.load(C, 3, 'acquire', 'device'));
      // A block-scope release is a block fence to another block. The flag's accesses are
      // synchronisation and do not race with each other: the race is on the data.
      assert.deepEqual(s.races(), ['missing-device-fence/device@4/1']);
      const [data] = s.findings();
      assert.deepEqual(data.orderHint, { kind: 'narrow-scope', release: s.at(2) });
      assert.equal(data.message, 'read of `data` in block 1 races with the write at line 1 in block 0: the release at line 2 has block scope, so it publishes the write only to block 0; give it device scope (`cuda::thread_scope_device`, `.gpu`)');
    });

    test('a block-scope acquire does not synchronise with another block', () => {
      const s = stream();
      messagePassing(s, C, (s) => s.store(A, 2, 'release', 'device'), (s) => s.load(C, 3, 'acquire', 'block'));
      // A block-scope acquire is a block-scope atomic used across blocks.
      assert.deepEqual(s.races(), ['scoped-atomic/device@4/1']);
      const [data] = s.findings();
      assert.deepEqual(data.orderHint, { kind: 'narrow-scope', acquire: s.at(3) });
      assert.equal(data.message, 'read of `data` in block 1 races with the write at line 1 in block 0: the acquire at line 3 has block scope, so it synchronises only with block 1; give it device scope (`cuda::thread_scope_device`, `.gpu`)');
    });

    test('a relaxed flag orders nothing', () => {
      const s = stream();
      messagePassing(s, C, (s) => s.store(A, 2, 'relaxed', 'device'), (s) => s.load(C, 3, 'relaxed', 'device'));
      // Two relaxed atomics of device scope do not race; the data they fail to order does.
      assert.deepEqual(s.races(), ['missing-device-fence/device@4/1']);
      assert.equal(s.findings()[0].orderHint, undefined);
    });

    test('a release read by a relaxed load races, and the message names the load', () => {
      const s = stream();
      messagePassing(s, B, (s) => s.store(A, 2, 'release', 'device'), (s) => s.load(B, 3, 'relaxed', 'device'));
      assert.deepEqual(s.races(), ['missing-block-fence/block@4/1']);
      const [f] = s.findings();
      assert.deepEqual(f.orderHint, { kind: 'relaxed-read', read: s.at(3), release: s.at(2) });
      assert.match(f.message, /the read at line 3 sees the release at line 2 but is relaxed and no acquire fence follows it/);
    });

    test('a relaxed load followed by an acquire fence acquires', () => {
      const s = stream();
      s.write(A, 1);
      s.store(A, 2, 'release', 'device');
      s.load(C, 3, 'relaxed', 'device');
      s.fence(C, 5, 'device', 'acquire');
      s.read(C, 4);
      assert.deepEqual(s.races(), []);
    });

    test('an acquire fence of block scope after the load is too narrow across blocks', () => {
      const s = stream();
      s.write(A, 1);
      s.store(A, 2, 'release', 'device');
      s.load(C, 3, 'relaxed', 'device');
      s.fence(C, 5, 'block', 'acquire');
      s.read(C, 4);
      assert.deepEqual(s.races(), ['scoped-atomic/device@4/1']);
      assert.deepEqual(s.findings()[0].orderHint, { kind: 'narrow-scope', acquire: s.at(5) });
    });

    test('RMW release and RMW acquire', () => {
      const s = stream();
      // fetch_add(1, release) publishes; fetch_add(0, acquire) polls (it changes nothing).
      messagePassing(s, C, (s) => s.rmw(A, 2, 'Add', 'device', true, 'release'), (s) => s.rmw(C, 3, 'Add', 'device', false, 'acquire'));
      assert.deepEqual(s.races(), []);
      const relaxed = stream();
      messagePassing(relaxed, C, (s) => s.rmw(A, 2, 'Add', 'device', true, 'release'), (s) => s.rmw(C, 3, 'Add', 'device', false, 'relaxed'));
      assert.deepEqual(relaxed.races(), ['missing-device-fence/device@4/1']);
    });

    test('a failed compare_exchange acquires what it read; a successful acq_rel one passes the release on', () => {
      const s = stream();
      messagePassing(s, C, (s) => s.rmw(A, 2, 'Exch', 'device', true, 'release'), (s) => s.rmw(C, 3, 'CAS', 'device', false, 'acquire'));
      assert.deepEqual(s.races(), []);
    });

    test('an RMW continues the release sequence; a plain store ends it', () => {
      const continued = stream();
      continued.write(A, 1);
      continued.store(A, 2, 'release', 'device');
      continued.rmw(B, 5, 'Add', 'device', true); // a legacy atomicAdd on the flag
      continued.load(C, 3, 'acquire', 'device');
      continued.read(C, 4);
      assert.deepEqual(continued.races(), []);
      const overwritten = stream();
      overwritten.write(A, 1);
      overwritten.store(A, 2, 'release', 'device');
      overwritten.store(B, 5, 'relaxed', 'block');
      overwritten.load(B, 6, 'acquire', 'block');
      overwritten.load(C, 3, 'acquire', 'device');
      overwritten.read(C, 4);
      // C read B's relaxed value: nothing orders A's write for it (the flag words race too).
      assert.ok(overwritten.races().includes('missing-device-fence/device@4/1'), overwritten.races().join());
    });

    test('writes after the release are not published by it', () => {
      const s = stream();
      s.store(A, 2, 'release', 'device');
      s.write(A, 1);
      s.load(C, 3, 'acquire', 'device');
      s.read(C, 4);
      assert.deepEqual(s.races(), ['missing-device-fence/device@4/1']);
    });

    test('a fence-based release with an ordered flag orders plain data', () => {
      const s = stream();
      messagePassing(
        s,
        C,
        (s) => {
          s.fence(A, 5, 'device', 'release');
          s.store(A, 2, 'relaxed', 'device');
        },
        (s) => {
          s.load(C, 3, 'relaxed', 'device');
          s.fence(C, 6, 'device', 'acquire');
        },
      );
      assert.deepEqual(s.races(), []);
    });

    test('a block-scope release fence before a device flag names the fence', () => {
      const s = stream();
      messagePassing(
        s,
        C,
        (s) => {
          s.fence(A, 5, 'block', 'release');
          s.store(A, 2, 'relaxed', 'device');
        },
        (s) => s.load(C, 3, 'acquire', 'device'),
      );
      assert.deepEqual(s.races(), ['missing-device-fence/device@4/1']);
      assert.deepEqual(s.findings()[0].orderHint, { kind: 'narrow-scope', release: s.at(5) });
    });

    test('__threadfence and a volatile flag still need strong data (rule c)', () => {
      const s = stream();
      messagePassing(
        s,
        C,
        (s) => {
          s.fence(A, 5, 'device');
          s.volatileWrite(A, 2);
        },
        (s) => {
          s.volatileRead(C, 3);
          s.fence(C, 6, 'device');
        },
      );
      assert.deepEqual(s.races(), ['non-strong-access/device@4/1']);
    });

    test('an acquire-only fence is no release fence for the fence IDs', () => {
      const s = stream();
      s.volatileWrite(A, 1, s.data);
      s.fence(A, 5, 'device', 'acquire');
      s.rmw(A, 2, 'Exch', 'device', true);
      s.rmw(C, 3, 'Add', 'device', false);
      s.volatileRead(C, 4, s.data);
      assert.deepEqual(s.races(), ['missing-device-fence/device@4/1']);
      // The same with a full fence is the paper's correct pattern.
      const full = stream();
      full.volatileWrite(A, 1, full.data);
      full.fence(A, 5, 'device');
      full.rmw(A, 2, 'Exch', 'device', true);
      full.rmw(C, 3, 'Add', 'device', false);
      full.volatileRead(C, 4, full.data);
      assert.deepEqual(full.races(), []);
    });

    test('a barrier passes an acquire on to the other warps of the block', () => {
      const s = stream();
      s.write(A, 1);
      s.store(A, 2, 'release', 'device');
      s.load(C, 3, 'acquire', 'device');
      s.barrier(1, 7);
      s.read(D, 4);
      assert.deepEqual(s.races(), []);
      const without = stream();
      without.write(A, 1);
      without.store(A, 2, 'release', 'device');
      without.load(C, 3, 'acquire', 'device');
      without.read(D, 4);
      assert.deepEqual(without.races(), ['missing-device-fence/device@4/1']);
    });

    test('a release publishes what the block wrote before a barrier', () => {
      const s = stream();
      s.write(B, 1);
      s.barrier(0, 7);
      s.store(A, 2, 'release', 'device');
      s.load(C, 3, 'acquire', 'device');
      s.read(C, 4);
      assert.deepEqual(s.races(), []);
    });

    test('the same warp polling its own release orders nothing new, and other lanes of an acquiring warp are ordered', () => {
      const s = stream();
      s.write(A, 1);
      s.store(A, 2, 'release', 'device');
      s.load({ ...C, lane: 0 }, 3, 'acquire', 'device');
      s.read({ ...C, lane: 5 }, 4);
      assert.deepEqual(s.races(), []);
    });

    test('a lock taken with an acquire compare_exchange and released with a release store', () => {
      const run = (scope: Scope) => {
        const s = stream();
        s.rmw(A, 2, 'CAS', scope, true, 'acquire', s.lock);
        s.write(A, 1);
        s.store(A, 5, 'release', scope, s.lock);
        s.rmw(C, 3, 'CAS', scope, true, 'acquire', s.lock);
        s.read(C, 4);
        s.store(C, 6, 'release', scope, s.lock);
        return s;
      };
      assert.deepEqual(run('device').races(), []);
      const narrow = run('block');
      // A block-scope lock shared by blocks: the critical sections race.
      assert.deepEqual(narrow.races(), ['missing-device-fence/device@4/1']);
      assert.deepEqual(narrow.findings()[0].orderHint, { kind: 'narrow-scope', release: narrow.at(5), acquire: narrow.at(3) });
      assert.match(narrow.findings()[0].message, /the release at line 5 and the acquire at line 3 have block scope, so they order nothing across blocks/);
    });

    test('ordered loads and stores are synchronisation: they do not race with each other or with RMWs', () => {
      const s = stream();
      s.store(A, 1, 'relaxed', 'device');
      s.load(C, 2, 'relaxed', 'device');
      s.rmw(C, 3, 'Add', 'device', true, 'relaxed');
      s.store(B, 4, 'relaxed', 'block');
      assert.deepEqual(s.races(), []);
      // A plain write after an atomic store in another block is a race, as for volatile data.
      s.write(C, 5, s.flag);
      assert.deepEqual(s.races(), ['missing-device-fence/device@5/4']);
      // A block-scope ordered RMW shared by blocks is a scoped atomic, as atomicAdd_block is.
      const counter = stream();
      counter.rmw(A, 1, 'Add', 'block', true, 'acq_rel', counter.flag2);
      counter.rmw(C, 2, 'Add', 'block', true, 'acq_rel', counter.flag2);
      assert.deepEqual(counter.races(), ['scoped-atomic/device@2/1']);
      assert.match(counter.findings()[0].message, /the acq_rel fetch_add at line 2 has block scope, so it is atomic only within its own block/);
    });
  });
}

describe('explicit release/acquire: exact against hardware-faithful', () => {
  test('exact mode passes releases on (happens-before is transitive); the paper\'s sketch does not', () => {
    const chain = (faithful: boolean) => {
      const s = new Stream(faithful);
      s.write(A, 1);
      s.store(A, 2, 'release', 'block');
      s.load(B, 3, 'acquire', 'block');
      s.store(B, 5, 'release', 'device', s.flag2);
      s.load(C, 6, 'acquire', 'device', s.flag2);
      s.read(C, 4);
      return s.races();
    };
    assert.deepEqual(chain(false), []);
    assert.deepEqual(chain(true), ['missing-device-fence/device@4/1']);
  });

  test('hardware-faithful keeps a 4-entry table of synchronized warps', () => {
    const fanIn = (faithful: boolean, producers: number) => {
      const s = new Stream(faithful);
      // Warp w of block 0 writes a word and releases a flag of its own (each in its own
      // metadata entry); warp 0 of block 1 acquires them all in order, then reads the first word.
      const word = (w: number) => s.spare + 128 * w;
      const flag = (w: number) => s.spare + 128 * w + 64;
      for (let w = 0; w < producers; w++) {
        s.write({ block: 0, warp: w }, 10, word(w));
        s.store({ block: 0, warp: w }, 11, 'release', 'device', flag(w));
      }
      for (let w = 0; w < producers; w++) s.load(C, 12, 'acquire', 'device', flag(w));
      s.read(C, 13, word(0));
      return s.races();
    };
    assert.deepEqual(fanIn(false, 5), []);
    assert.deepEqual(fanIn(true, 4), []);
    assert.deepEqual(fanIn(true, 5), ['missing-device-fence/device@13/10']);
  });
});

describe('explicit release/acquire in programs', () => {
  /** `category line related` per race `scord check` finds in `text`. */
  const check = (text: string, hardwareFaithful = false): string[] => {
    const report = checkSource({ fileName: 'k.cu', text, hardwareFaithful });
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message), []);
    return report.findings.map((f) => `${f.kind === 'race' ? f.category : f.kind} ${f.location.line} ${f.related[0]?.location.line}`);
  };
  const messagePassing = (scope: string, release: string, acquire: string) => `#include <cuda/atomic>
__device__ int data;
__device__ int flag;
__global__ void mp() {
  cuda::atomic_ref<int, cuda::thread_scope_${scope}> f(flag);
  if (blockIdx.x == 0) {
    data = 42;
    f.store(1, cuda::memory_order_${release});
  } else {
    while (f.load(cuda::memory_order_${acquire}) == 0) {}
    int v = data;
    (void)v;
  }
}
int main() { mp<<<2, 1>>>(); cudaDeviceSynchronize(); return 0; }`;

  for (const hardwareFaithful of [false, true]) {
    const mode = hardwareFaithful ? ' (hardware-faithful)' : '';
    test(`atomic_ref release/acquire at device scope publishes plain data across blocks${mode}`, () => {
      assert.deepEqual(check(messagePassing('device', 'release', 'acquire'), hardwareFaithful), []);
    });
    test(`at block scope it does not${mode}`, () => {
      assert.deepEqual(check(messagePassing('block', 'release', 'acquire'), hardwareFaithful), ['missing-device-fence 11 7']);
    });
    test(`a relaxed flag publishes nothing${mode}`, () => {
      assert.deepEqual(check(messagePassing('device', 'relaxed', 'relaxed'), hardwareFaithful), ['missing-device-fence 11 7']);
    });
  }

  test('inline PTX st.release.cta read by ld.acquire.gpu in another block', () => {
    const ptx = (store: string) => `__device__ int data;
__device__ unsigned int flag;
__global__ void mp() {
  if (blockIdx.x == 0) {
    data = 42;
    asm volatile("${store}.u32 [%0], %1;" :: "l"(&flag), "r"(1u) : "memory");
  } else {
    unsigned int f = 0;
    while (f == 0) asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(f) : "l"(&flag) : "memory");
    int v = data;
    (void)v;
  }
}
int main() { mp<<<2, 1>>>(); cudaDeviceSynchronize(); return 0; }`;
    assert.deepEqual(check(ptx('st.release.gpu')), []);
    const report = checkSource({ fileName: 'k.cu', text: ptx('st.release.cta') });
    const data = report.findings.find((f) => f.location.line === 10);
    assert.match(data?.message ?? '', /the release at line 6 has block scope, so it publishes the write only to block 0/);
  });

  test('the last block of a reduction, told by fetch_add(acq_rel), reads every block\'s partial after a barrier', () => {
    const src = (order: string) => `#include <cuda/atomic>
__device__ int partial[4];
__device__ int count;
__device__ int result;
__global__ void k() {
  __shared__ bool last;
  if (threadIdx.x == 0) partial[blockIdx.x] = blockIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::atomic_ref<int, cuda::thread_scope_device> c(count);
    last = c.fetch_add(1, cuda::memory_order_${order}) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 32) {
    int s = 0;
    for (int i = 0; i < 4; i++) s += partial[i];
    result = s;
  }
}
int main() { k<<<4, 64>>>(); cudaDeviceSynchronize(); return 0; }`;
    assert.deepEqual(check(src('acq_rel')), []);
    assert.deepEqual(check(src('relaxed')), ['missing-device-fence 16 7']);
  });
});

/**
 * The ordered fixtures state their races as `// race: <line> <other line>` (the racing access,
 * then the earlier one) or `// race: none`. ScoRD must find exactly those, except where its
 * design cannot: a fence *after* the publication still moves the writer's fence counter before
 * the reader reads, and ScoRD compares counters, not order (§IV, Table IV (a)/(b)).
 */
const ORDERED_DIR = path.resolve(__dirname, '..', '..', 'fixtures', 'ordered');
const SCORD_DIFFERS: Record<string, { found: string[]; reason: string }> = {
  'late_fence_masks_interblock.cu': { found: [], reason: 'the producer\'s __threadfence() after the flag moves its device fence ID before the consumer reads: rule (b) sees a fence since the write' },
  'late_fence_masks_interwarp.cu': { found: [], reason: 'the producer\'s __threadfence_block() after the flag moves its block fence ID before the other warp reads: rule (a) sees a fence since the write' },
  'late_fence_masks_ref_interblock.cu': { found: [], reason: 'the relaxed flag releases nothing, but the late __threadfence() moves the device fence ID and the payload is volatile: rules (b) and (c) both pass' },
};

describe('ordered fixtures against their truth lines', () => {
  const files = fs.existsSync(ORDERED_DIR) ? fs.readdirSync(ORDERED_DIR).filter((f) => f.endsWith('.cu')).sort() : [];
  test('there are ordered fixtures, racy and race-free, and every listed difference names one', () => {
    const truths = files.map((f) => /^\/\/ race: none\s*$/m.test(fs.readFileSync(path.join(ORDERED_DIR, f), 'utf8')));
    assert.ok(truths.filter((none) => none).length >= 4 && truths.filter((none) => !none).length >= 4, `${files.length} fixtures in ${ORDERED_DIR}`);
    for (const f of Object.keys(SCORD_DIFFERS)) assert.ok(files.includes(f), `${f} is listed as differing but is not a fixture`);
  });
  for (const hardwareFaithful of [false, true]) {
    for (const file of files) {
      test(`${file}${hardwareFaithful ? ' (hardware-faithful)' : ''}`, () => {
        const text = fs.readFileSync(path.join(ORDERED_DIR, file), 'utf8');
        const truth = [...text.matchAll(/^\/\/ race: (\d+) (\d+)\s*$/gm)].map((m) => `${m[1]} ${m[2]}`).sort();
        assert.ok(truth.length > 0 || /^\/\/ race: none\s*$/m.test(text), `${file} states no truth line`);
        const report = checkSource({ fileName: file, text, hardwareFaithful });
        assert.deepEqual(report.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.location?.line}: ${d.message}`), []);
        assert.deepEqual(report.findings.filter((f) => f.kind !== 'race').map((f) => `${f.kind}: ${f.message}`), []);
        // A pair of lines once, whatever the categories (a read and a write of one statement).
        const found = [...new Set(report.findings.map((f) => `${f.location.line} ${f.related[0]?.location.line}`))].sort();
        const differs = SCORD_DIFFERS[file];
        if (differs) {
          assert.notDeepEqual(differs.found, truth, `${file} is listed as differing but ScoRD's expected result is the truth`);
          assert.deepEqual(found, differs.found, `${file}: ${differs.reason}`);
        } else assert.deepEqual(found, truth);
      });
    }
  }
});

/**
 * Release/acquire in __shared__ memory, checked by the shadow shared memory (barrier intervals):
 * ordered accesses are synchronisation, and a release acquired by another warp of the block
 * orders the releaser's earlier accesses before the acquirer's later ones, lane by lane while
 * a warp is diverged.
 */
describe('explicit release/acquire in shared memory', () => {
  // Warps 0, 1 and 2 of block 0.
  const W0: Thread = { block: 0, warp: 0 };
  const W1: Thread = { block: 0, warp: 1 };
  const W2: Thread = { block: 0, warp: 2 };

  test('a release store read by an acquire load orders the payload; the flag does not race', () => {
    const s = new Stream(false, 'shared');
    s.write(W0, 1);
    s.store(W0, 2, 'release', 'block');
    s.load(W1, 3, 'acquire', 'block');
    s.read(W1, 4);
    s.write(W1, 5);
    assert.deepEqual(s.races(), []);
  });

  test('relaxed: the flag accesses are synchronisation, the payload races', () => {
    const s = new Stream(false, 'shared');
    s.write(W0, 1);
    s.store(W0, 2, 'relaxed', 'block');
    s.load(W1, 3, 'relaxed', 'block');
    s.read(W1, 4);
    assert.deepEqual(s.races(), ['shared-memory/block@4/1']);
    const [race] = s.detector.findings();
    assert.equal(race.space, 'shared');
    assert.equal(race.address, 'data');
  });

  test('an ordered access races with a plain one, and the message names its order', () => {
    const s = new Stream(false, 'shared');
    s.store(W0, 2, 'release', 'block');
    s.read(W1, 3, s.flag);
    assert.deepEqual(s.races(), ['shared-memory/block@3/2']);
    assert.match(s.detector.findings()[0].message, /races with the release store at line 2/);
  });

  test('seq_cst and acq_rel RMWs release and acquire', () => {
    const s = new Stream(false, 'shared');
    s.write(W0, 1);
    s.rmw(W0, 2, 'Add', 'block', true, 'seq_cst');
    s.rmw(W1, 3, 'Add', 'block', true, 'acq_rel');
    s.read(W1, 4);
    assert.deepEqual(s.races(), []);
  });

  test('a legacy atomic continues the release sequence; a plain store ends it', () => {
    const continued = new Stream(false, 'shared');
    continued.write(W0, 1);
    continued.store(W0, 2, 'release', 'block');
    continued.rmw(W2, 3, 'Add', 'block', true);
    continued.load(W1, 4, 'acquire', 'block');
    continued.read(W1, 5);
    assert.deepEqual(continued.races(), []);
    const ended = new Stream(false, 'shared');
    ended.write(W0, 1);
    ended.store(W0, 2, 'release', 'block');
    ended.write(W0, 3, ended.flag);
    ended.load(W1, 4, 'acquire', 'block');
    ended.read(W1, 5);
    assert.deepEqual(ended.races(), ['shared-memory/block@4/3', 'shared-memory/block@5/1']);
  });

  test('writes after the release are not published by it', () => {
    const s = new Stream(false, 'shared');
    s.write(W0, 1);
    s.store(W0, 2, 'release', 'block');
    s.write(W0, 3);
    s.load(W1, 4, 'acquire', 'block');
    s.read(W1, 5);
    assert.deepEqual(s.races(), ['shared-memory/block@5/3']);
  });

  test('release and acquire fences with relaxed flags order the payload; without the acquire fence they do not', () => {
    const run = (acquireFence: boolean) => {
      const s = new Stream(false, 'shared');
      s.write(W0, 1);
      s.fence(W0, 2, 'block', 'release');
      s.store(W0, 3, 'relaxed', 'block');
      s.load(W1, 4, 'relaxed', 'block');
      if (acquireFence) s.fence(W1, 5, 'block', 'acquire');
      s.read(W1, 6);
      return s.races();
    };
    assert.deepEqual(run(true), []);
    assert.deepEqual(run(false), ['shared-memory/block@6/1']);
  });

  test('__threadfence_block() with a volatile flag releases and acquires, as a relaxed atomic flag does; a plain flag orders nothing', () => {
    const run = (flagWrite: 'volatileWrite' | 'write') => {
      const s = new Stream(false, 'shared');
      s.write(W0, 1);
      s.fence(W0, 2, 'block', 'seq_cst');
      if (flagWrite === 'write') s.write(W0, 3, s.flag);
      else s.volatileWrite(W0, 3);
      s.volatileRead(W1, 4);
      s.fence(W1, 5, 'block', 'seq_cst');
      s.read(W1, 6);
      return s.races();
    };
    assert.deepEqual(run('volatileWrite'), []);
    assert.deepEqual(run('write'), ['shared-memory/block@4/3', 'shared-memory/block@6/1']);
  });

  test('happens-before is transitive: a release passes on what its warp acquired', () => {
    const run = (middle: MemoryOrder) => {
      const s = new Stream(false, 'shared');
      s.write(W0, 1);
      s.store(W0, 2, 'release', 'block');
      s.load(W1, 3, middle, 'block');
      s.store(W1, 4, 'release', 'block', s.flag2);
      s.load(W2, 5, 'acquire', 'block', s.flag2);
      s.read(W2, 6);
      return s.races();
    };
    assert.deepEqual(run('acquire'), []);
    assert.deepEqual(run('relaxed'), ['shared-memory/block@6/1']);
  });

  test('a release passes on what its warp had acquired then, not what it acquires later', () => {
    const s = new Stream(false, 'shared');
    s.write(W0, 1);
    s.store(W0, 2, 'release', 'block');
    s.load(W1, 3, 'acquire', 'block');
    s.store(W1, 4, 'release', 'block', s.flag2);
    s.write(W0, 5);
    s.store(W0, 6, 'release', 'block');
    s.load(W1, 7, 'acquire', 'block');
    s.load(W2, 8, 'acquire', 'block', s.flag2);
    s.read(W2, 9);
    assert.deepEqual(s.races(), ['shared-memory/block@9/5']);
  });

  test('a diverged lane releases only its own accesses', () => {
    const run = (writer: number) => {
      const s = new Stream(false, 'shared');
      s.diverge(0);
      s.write({ ...W0, lane: writer }, 1);
      s.store({ ...W0, lane: 1 }, 2, 'release', 'block');
      s.load(W1, 3, 'acquire', 'block');
      s.read(W1, 4);
      return s.races();
    };
    assert.deepEqual(run(1), []);
    assert.deepEqual(run(0), ['shared-memory/block@4/1']);
  });

  test('a diverged lane acquires for itself until the warp reconverges', () => {
    const s = new Stream(false, 'shared');
    s.write(W0, 1);
    s.store(W0, 2, 'release', 'block');
    s.diverge(1);
    s.load({ ...W1, lane: 0 }, 3, 'acquire', 'block');
    s.read({ ...W1, lane: 0 }, 4);
    assert.deepEqual(s.races(), []);
    s.read({ ...W1, lane: 1 }, 5);
    assert.deepEqual(s.races(), ['shared-memory/block@5/1']);
    s.syncwarp(1, 6);
    s.read({ ...W1, lane: 2 }, 7);
    assert.deepEqual(s.races(), ['shared-memory/block@5/1']);
  });

  /** `category line related` per race `scord check` finds in `text`. */
  const check = (text: string): string[] => {
    const report = checkSource({ fileName: 'k.cu', text });
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message), []);
    return report.findings.map((f) => `${f.kind === 'race' ? f.category : f.kind} ${f.location.line} ${f.related[0]?.location.line}`);
  };
  /** Warp 0 of the block publishes `data` (line 9) through `flag` (10); warp 1 polls it (12) and reads `data` (13). */
  const sharedMessagePassing = (publish: string, poll: string) => `#include <cuda/atomic>
__global__ void mp(int *out) {
  __shared__ int data;
  __shared__ unsigned int flag;
  if (threadIdx.x == 0) { data = 0; flag = 0; }
  __syncthreads();
  cuda::atomic_ref<unsigned int, cuda::thread_scope_block> f(flag);
  if (threadIdx.x == 0) {
    data = 42;
    ${publish}
  } else if (threadIdx.x == 32) {
    ${poll}
    out[0] = data;
  }
}
int main() { int *o; cudaMalloc(&o, 4); mp<<<1, 64>>>(o); cudaDeviceSynchronize(); return 0; }`;
  const refMp = (release: string, acquire: string) =>
    sharedMessagePassing(`f.store(1, cuda::memory_order_${release});`, `while (f.load(cuda::memory_order_${acquire}) == 0) {}`);

  test('atomic_ref<int, thread_scope_block> release/acquire between two warps: no race', () => {
    assert.deepEqual(check(refMp('release', 'acquire')), []);
    assert.deepEqual(check(refMp('seq_cst', 'seq_cst')), []);
  });

  test('the same with relaxed orders: the payload races, the flag does not', () => {
    assert.deepEqual(check(refMp('relaxed', 'relaxed')), ['shared-memory 13 9']);
    assert.deepEqual(check(refMp('release', 'relaxed')), ['shared-memory 13 9']);
  });

  test('atomic_thread_fence release and acquire around relaxed flag accesses', () => {
    const fenced = sharedMessagePassing(
      'cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_block); f.store(1, cuda::memory_order_relaxed);',
      'while (f.load(cuda::memory_order_relaxed) == 0) {} cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_block);',
    );
    assert.deepEqual(check(fenced), []);
    // __threadfence_block() is a seq_cst fence: with an ordered (relaxed) flag it releases and acquires.
    const legacyFences = sharedMessagePassing('__threadfence_block(); f.store(1, cuda::memory_order_relaxed);', 'while (f.load(cuda::memory_order_relaxed) == 0) {} __threadfence_block();');
    assert.deepEqual(check(legacyFences), []);
  });

  test('inline PTX st.release.cta.shared / ld.acquire.cta.shared: no race; .relaxed: the payload races', () => {
    const ptx = (sem: string, acq: string) =>
      sharedMessagePassing(
        `asm volatile("st.${sem}.cta.shared.u32 [%0], %1;" :: "l"(&flag), "r"(1u) : "memory");`,
        `unsigned int v = 0; while (v == 0) asm volatile("ld.${acq}.cta.shared.u32 %0, [%1];" : "=r"(v) : "l"(&flag) : "memory");`,
      );
    assert.deepEqual(check(ptx('release', 'acquire')), []);
    assert.deepEqual(check(ptx('relaxed', 'relaxed')), ['shared-memory 13 9']);
  });

  test('__threadfence_block() and a volatile flag in shared memory order the payload; without the reader\'s fence it races', () => {
    const legacy = sharedMessagePassing('__threadfence_block(); *(volatile unsigned int *)&flag = 1;', 'while (*(volatile unsigned int *)&flag == 0) {} __threadfence_block();');
    assert.deepEqual(check(legacy), []);
    const noAcquire = sharedMessagePassing('__threadfence_block(); *(volatile unsigned int *)&flag = 1;', 'while (*(volatile unsigned int *)&flag == 0) {}');
    assert.deepEqual(check(noAcquire), ['shared-memory 13 9']);
  });
});
