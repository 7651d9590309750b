// The happens-before engine (sims/detect/precise.ts) on synthetic event streams, one rule of the
// scoped PTX model at a time: program order, barriers, __syncwarp and launches; release →
// acquire with scope inclusion; release sequences; fence patterns; transitivity through a third
// thread; morally strong accesses; and the cases ScoRD's fence counters get wrong (a fence the
// writer makes for another reason, a write after concurrent reads). Then the engine on programs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as T from '../../../sims/frontend/types';
import type { MemoryOrder, Scope } from '../../../sims/ir/ir';
import { PreciseDetector } from '../../../sims/detect/precise';
import { ScordDetector } from '../../../sims/detect/scord';
import { type RaceFinding } from '../../../sims/detect/findings';
import { checkSource } from '../../../sims/check';
import { loadRaceCases } from '../../support/raceCases';
import { EventStream, type AccessOptions, type Thread } from '../../support/eventStream';
import { parse } from '../../../sims/frontend/index';
import { runProgram } from '../../../sims/host/run';

const FILE = '/virtual/kernel.cu';

/** A thread: block, warp of the block, lane. */
type Who = [number, number, number?];

/**
 * A kernel launch fed to both detectors event by event (test/support/eventStream.ts), with the
 * global variables `data`, `flag`, `flag2`, `x`, `lock` and a shared array `tile` of block 0.
 */
class Stream extends EventStream {
  readonly precise: PreciseDetector;
  readonly scord: ScordDetector;
  /** Addresses of the global variables, and a shared array of the first block. */
  readonly vars: Record<'data' | 'flag' | 'flag2' | 'x' | 'lock', number>;
  readonly tile: number;

  constructor(grid = 3, threads = 64) {
    super((memory) => [new PreciseDetector(memory, { explain: true }), new ScordDetector(memory)], FILE);
    [this.precise, this.scord] = this.detectors as [PreciseDetector, ScordDetector];
    const names = ['data', 'flag', 'flag2', 'x', 'lock'] as const;
    const base = this.memory.allocate('global', 4 * names.length, { label: 'globals', layout: names.map((name, i) => ({ name, offset: 4 * i, type: T.INT })) });
    this.vars = Object.fromEntries(names.map((n, i) => [n, base + 4 * i])) as Stream['vars'];
    this.tile = this.memory.allocate('shared', 64, { label: 'tile', owner: 0, layout: [{ name: 'tile', offset: 0, type: T.INT, unbounded: true }] });
    this.launchEvent(grid, threads);
  }

  launch(grid: number, threads: number): this {
    return this.launchEvent(grid, threads);
  }

  access(who: Who, write: boolean, address: number, line: number, o: AccessOptions = {}): this {
    return this.accessEvent(thread(who), write, address, line, o);
  }

  write(who: Who, address: number, line: number, o?: AccessOptions): this {
    return this.access(who, true, address, line, o);
  }

  read(who: Who, address: number, line: number, o?: AccessOptions): this {
    return this.access(who, false, address, line, o);
  }

  /** A legacy atomic (`atomicAdd`, `atomicExch_block`, …): a relaxed RMW of its scope. */
  rmw(who: Who, address: number, line: number, op: string, scope: Scope = 'device', changed = true, order?: MemoryOrder): this {
    return this.access(who, true, address, line, { atomic: { op, scope, changed }, ...(order ? { order, orderScope: scope } : {}) });
  }

  fence(who: Who, scope: Scope, line: number, order?: MemoryOrder): this {
    return this.fenceEvent(thread(who), scope, line, order);
  }

  barrier(block: number, line: number): this {
    return this.barrierEvent(block, line);
  }

  syncwarp(block: number, warp: number, line: number): this {
    return this.syncwarpEvent(block, warp, line);
  }

  diverge(block: number, warp: number): this {
    return this.divergeEvent(block, warp);
  }

  /** `category line/previous line` of each race the happens-before engine found. */
  races(): string[] {
    return show(this.precise.findings());
  }

  scordRaces(): string[] {
    return show(this.scord.findings());
  }

  finding(line: number): RaceFinding {
    const f = this.precise.findings().find((r) => r.range.start.line + 1 === line);
    assert.ok(f, `a race at line ${line}`);
    return f;
  }
}

function thread([block, warp, lane]: Who): Thread {
  return { block, warp, lane: lane ?? 0 };
}

function show(findings: RaceFinding[]): string[] {
  return findings.map((f) => `${f.category} ${f.range.start.line + 1}/${f.previous.start.line + 1}`).sort();
}

const volatile: AccessOptions = { strong: true };

// Each rule on a small launch (clocks dense over every warp and lane) and on a large one (dense
// over the block's warps, sparse beyond).
for (const grid of [3, 400]) {
  describe(`${grid} blocks`, () => {
    describe('program order, barriers, __syncwarp, launches', () => {
      test('one thread writes then reads: program order', () => {
        const s = new Stream(grid);
        s.write([0, 0], s.vars.data, 10).read([0, 0], s.vars.data, 11);
        assert.deepEqual(s.races(), []);
      });

      test('two warps of a block, nothing between them: a race of block scope', () => {
        const s = new Stream(grid);
        s.write([0, 0], s.vars.data, 10).read([0, 1], s.vars.data, 20);
        assert.deepEqual(s.races(), ['missing-block-fence 20/10']);
        assert.equal(s.finding(20).scope, 'block');
        assert.match(s.finding(20).message, /no `__syncthreads\(\)`, release\/acquire or fence pair of block scope orders the write at line 10 before this read in another warp/);
      });

      test('__syncthreads orders the warps of its block, not other blocks', () => {
        const s = new Stream(grid);
        s.write([0, 0], s.vars.data, 10).barrier(0, 11).read([0, 1], s.vars.data, 20).read([1, 0], s.vars.data, 30);
        assert.deepEqual(s.races(), ['missing-device-fence 30/10']);
        assert.match(s.finding(30).message, /no release\/acquire or fence pair of device scope orders the write at line 10 before this read in another block/);
      });

      test('a warp that first acts after the barrier is ordered by it too', () => {
        const s = new Stream(grid);
        s.write([0, 0], s.vars.data, 10).barrier(0, 11).write([0, 1], s.vars.data, 20);
        assert.deepEqual(s.races(), []);
      });

      test('diverged lanes are threads of their own until __syncwarp', () => {
        const racy = new Stream(grid);
        racy.diverge(0, 0).write([0, 0, 0], racy.vars.data, 10).read([0, 0, 1], racy.vars.data, 20);
        assert.deepEqual(racy.races(), ['missing-block-fence 20/10']);
        assert.match(racy.finding(20).message, /in another lane of this diverged warp; add `__syncwarp\(\)`/);
        const synced = new Stream(grid);
        synced.diverge(0, 0).write([0, 0, 0], synced.vars.data, 10).syncwarp(0, 0, 15).read([0, 0, 1], synced.vars.data, 20);
        assert.deepEqual(synced.races(), []);
      });

      test('what a diverged lane did is ordered for another warp after the barrier', () => {
        const s = new Stream(grid);
        s.diverge(0, 0).write([0, 0, 3], s.vars.data, 10).barrier(0, 11).read([0, 1], s.vars.data, 20);
        assert.deepEqual(s.races(), []);
      });

      test('the lanes of a converged warp are one thread (ScoRD §VI: same warp, not diverged)', () => {
        const s = new Stream(grid);
        s.write([0, 0, 0], s.vars.data, 10).read([0, 0, 7], s.vars.data, 20);
        assert.deepEqual(s.races(), []);
      });

      test('kernel launches are ordered', () => {
        const s = new Stream(grid);
        s.write([0, 0], s.vars.data, 10).launch(grid, 64).read([1, 0], s.vars.data, 20);
        assert.deepEqual(s.races(), []);
      });
    });

    describe('release → acquire', () => {
      const publish = (release: Scope, acquire: Scope, readerBlock: number) => {
        const s = new Stream(grid);
        s.write([0, 0], s.vars.data, 10)
          .write([0, 0], s.vars.flag, 11, { order: 'release', orderScope: release })
          .read([readerBlock, 1], s.vars.flag, 20, { order: 'acquire', orderScope: acquire })
          .read([readerBlock, 1], s.vars.data, 21);
        return s;
      };

      test('a release store read by an acquire load of device scope orders plain data', () => {
        assert.deepEqual(publish('device', 'device', 1).races(), []);
        assert.deepEqual(publish('system', 'device', 1).races(), []);
      });

      test('block scope orders within the block only: each side must include the other thread', () => {
        assert.deepEqual(publish('block', 'block', 0).races(), []);
        // The release does not include block 1: no synchronisation, and the flag accesses are
        // not morally strong.
        assert.deepEqual(publish('block', 'device', 1).races(), ['missing-device-fence 21/10', 'scoped-atomic 20/11']);
        // The acquire does not include block 0.
        assert.deepEqual(publish('device', 'block', 1).races(), ['missing-device-fence 21/10', 'scoped-atomic 20/11']);
      });

      test('a relaxed load does not acquire; a relaxed store does not release', () => {
        const s = new Stream(grid);
        s.write([0, 0], s.vars.data, 10)
          .write([0, 0], s.vars.flag, 11, { order: 'relaxed', orderScope: 'device' })
          .read([1, 0], s.vars.flag, 20, { order: 'acquire', orderScope: 'device' })
          .read([1, 0], s.vars.data, 21);
        assert.deepEqual(s.races(), ['missing-device-fence 21/10']);
      });

      test('an acquire that reads from a later RMW of the release sequence synchronises with its head', () => {
        const s = new Stream(grid);
        s.write([0, 0], s.vars.data, 10)
          .write([0, 0], s.vars.flag, 11, { order: 'release', orderScope: 'device' })
          .rmw([2, 0], s.vars.flag, 30, 'Add')
          .read([1, 0], s.vars.flag, 20, { order: 'acquire', orderScope: 'device' })
          .read([1, 0], s.vars.data, 21);
        assert.deepEqual(s.races(), []);
      });

      test('a store of the flag by another thread (not an RMW) ends the release sequence', () => {
        const s = new Stream(grid);
        s.write([0, 0], s.vars.data, 10)
          .write([0, 0], s.vars.flag, 11, { order: 'release', orderScope: 'device' })
          .fence([2, 0], 'device', 29)
          .write([2, 0], s.vars.flag, 30, volatile)
          .read([1, 0], s.vars.flag, 20, { order: 'acquire', orderScope: 'device' })
          .read([1, 0], s.vars.data, 21);
        assert.deepEqual(s.races(), ['missing-device-fence 21/10']);
      });

      test('a failed CAS only reads: it neither releases nor continues the sequence as a write', () => {
        const s = new Stream(grid);
        s.write([0, 0], s.vars.data, 10)
          .write([0, 0], s.vars.flag, 11, { order: 'release', orderScope: 'device' })
          .rmw([2, 0], s.vars.flag, 30, 'CAS', 'device', false)
          .read([1, 0], s.vars.flag, 20, { order: 'acquire', orderScope: 'device' })
          .read([1, 0], s.vars.data, 21);
        assert.deepEqual(s.races(), []);
      });
    });

    describe('fence patterns', () => {
      /** Message passing: data, fence, volatile flag; poll, fence, data. */
      const mp = (writerFence: [Scope, MemoryOrder?] | undefined, readerFence: [Scope, MemoryOrder?] | undefined, readerBlock = 1) => {
        const s = new Stream(grid);
        s.write([0, 0], s.vars.data, 10);
        if (writerFence) s.fence([0, 0], writerFence[0], 11, writerFence[1]);
        s.write([0, 0], s.vars.flag, 12, volatile).read([readerBlock, 1], s.vars.flag, 20, volatile);
        if (readerFence) s.fence([readerBlock, 1], readerFence[0], 21, readerFence[1]);
        s.read([readerBlock, 1], s.vars.data, 22);
        return s;
      };

      test('__threadfence() before the flag and after the poll orders plain data (PTX 6+: not ScoRD rule (c))', () => {
        const s = mp(['device'], ['device']);
        assert.deepEqual(s.races(), []);
        assert.deepEqual(s.scordRaces(), ['non-strong-access 22/10']);
        assert.equal(s.precise.whyNoRace(s.at(22), s.at(10)), 'ordered');
      });

      test('both fences are needed', () => {
        // Without the writer's fence the volatile flag store publishes nothing: it races too (as in ScoRD).
        assert.deepEqual(mp(undefined, ['device']).races(), ['missing-device-fence 20/12', 'missing-device-fence 22/10']);
        assert.deepEqual(mp(['device'], undefined).races(), ['missing-device-fence 22/10']);
      });

      test('a release fence does not acquire, and an acquire fence does not release', () => {
        assert.deepEqual(mp(['device', 'release'], ['device', 'acquire']).races(), []);
        assert.deepEqual(mp(['device', 'acquire'], ['device', 'acquire']).races(), ['missing-device-fence 20/12', 'missing-device-fence 22/10']);
        assert.deepEqual(mp(['device', 'release'], ['device', 'release']).races(), ['missing-device-fence 22/10']);
        assert.deepEqual(mp(['device', 'acq_rel'], ['device', 'acq_rel']).races(), []);
      });

      test('block-scope fences order within the block; across blocks the report names the narrow fence', () => {
        assert.deepEqual(mp(['block'], ['block'], 0).races(), []);
        const s = mp(['block'], ['device']);
        assert.deepEqual(s.races(), ['missing-device-fence 22/10']);
        assert.equal(s.finding(22).narrowFence, s.at(11));
        assert.match(s.finding(22).message, /the `__threadfence_block\(\)` at line 11 orders only within its block; use `__threadfence\(\)`/);
        const reader = mp(['device'], ['block']);
        assert.deepEqual(reader.races(), ['missing-device-fence 22/10']);
        assert.equal(reader.finding(22).narrowFence, reader.at(21));
      });

      test('the flag access sets the scope too: a block-scope atomic flag orders nothing for another block', () => {
        const s = new Stream(grid);
        s.write([0, 0], s.vars.data, 10).fence([0, 0], 'device', 11).rmw([0, 0], s.vars.flag, 12, 'Exch', 'block');
        s.read([1, 0], s.vars.flag, 20, volatile).fence([1, 0], 'device', 21).read([1, 0], s.vars.data, 22);
        assert.deepEqual(s.races(), ['missing-device-fence 22/10', 'scoped-atomic 20/12']);
      });

      test('a fence pattern reading a later RMW of the flag still synchronises (release sequence)', () => {
        const s = new Stream(grid);
        s.write([0, 0], s.vars.data, 10).fence([0, 0], 'device', 11).write([0, 0], s.vars.flag, 12, volatile);
        s.rmw([2, 0], s.vars.flag, 30, 'Add');
        s.read([1, 0], s.vars.flag, 20, volatile).fence([1, 0], 'device', 21).read([1, 0], s.vars.data, 22);
        assert.deepEqual(s.races(), []);
      });

      test('the lanes of a converged warp report one fence each: it counts once', () => {
        const s = new Stream(grid);
        s.write([0, 0, 0], s.vars.data, 10);
        for (let lane = 0; lane < 32; lane++) s.fence([0, 0, lane], 'device', 11);
        s.write([0, 0, 0], s.vars.flag, 12, volatile).write([0, 0, 0], s.vars.x, 13);
        s.read([1, 0], s.vars.flag, 20, volatile).fence([1, 0], 'device', 21).read([1, 0], s.vars.data, 22).read([1, 0], s.vars.x, 23);
        // The write of x comes after the fence: the flag does not publish it.
        assert.deepEqual(s.races(), ['missing-device-fence 23/13']);
      });
    });

    describe('transitivity', () => {
      const chain = (bScope: Scope) => {
        const s = new Stream(grid);
        s.write([0, 0], s.vars.data, 10).fence([0, 0], 'device', 11).write([0, 0], s.vars.flag, 12, volatile);
        s.read([1, 0], s.vars.flag, 20, volatile).fence([1, 0], 'device', 21).fence([1, 0], bScope, 22).rmw([1, 0], s.vars.flag2, 23, 'Exch');
        s.read([2, 0], s.vars.flag2, 30, volatile).fence([2, 0], 'device', 31).read([2, 0], s.vars.data, 32);
        return s;
      };

      test('a chain through a third thread orders the first write before the last read', () => {
        assert.deepEqual(chain('device').races(), []);
      });

      test('a link of block scope breaks the chain across blocks', () => {
        // B's block-scope fence (line 22) is the latest before its flag: C learns only what it released.
        const s = new Stream(grid);
        s.write([0, 0], s.vars.data, 10).fence([0, 0], 'device', 11).write([0, 0], s.vars.flag, 12, volatile);
        s.read([1, 0], s.vars.flag, 20, volatile).fence([1, 0], 'block', 21).rmw([1, 0], s.vars.flag2, 23, 'Exch');
        s.read([2, 0], s.vars.flag2, 30, volatile).fence([2, 0], 'device', 31).read([2, 0], s.vars.data, 32);
        assert.deepEqual(s.races(), ['missing-device-fence 32/10']);
      });
    });

    describe('morally strong accesses', () => {
      test('device atomics, and volatile flags published after a fence, of different blocks do not race', () => {
        const s = new Stream(grid);
        s.fence([0, 0], 'device', 9).write([0, 0], s.vars.x, 10, volatile).fence([1, 0], 'device', 19).write([1, 0], s.vars.x, 20, volatile);
        s.rmw([2, 0], s.vars.x, 30, 'Add').read([0, 1], s.vars.x, 40, volatile).rmw([1, 1], s.vars.x, 50, 'Exch', 'system');
        assert.deepEqual(s.races(), []);
        assert.equal(s.precise.whyNoRace(s.at(20), s.at(10)), 'morally-strong');
      });

      test('a volatile store that publishes nothing is data: an unordered volatile read races with it', () => {
        const s = new Stream(grid);
        s.write([0, 0], s.vars.data, 10, volatile).read([1, 0], s.vars.data, 20, volatile);
        assert.deepEqual(s.races(), ['missing-device-fence 20/10']);
      });

      test('volatile data is enough once the reader has observed a release that covers the write', () => {
        // The writer fences after the data and bumps a ticket; the reader reads the ticket without an
        // acquire fence and reads the data after a barrier (the threadFenceReduction pattern).
        const s = new Stream(grid);
        s.write([0, 0], s.vars.data, 10, volatile).fence([0, 0], 'device', 11).rmw([0, 0], s.vars.flag, 12, 'Inc');
        s.rmw([1, 0], s.vars.flag, 20, 'Inc').barrier(1, 21).read([1, 1], s.vars.data, 22, volatile).read([1, 1], s.vars.x, 23);
        s.write([0, 0], s.vars.x, 13);
        assert.deepEqual(s.races(), ['missing-device-fence 13/23']);
        // Plain data needs the acquire that the reader's missing fence would make.
        const plain = new Stream(grid);
        plain.write([0, 0], plain.vars.data, 10).fence([0, 0], 'device', 11).rmw([0, 0], plain.vars.flag, 12, 'Inc');
        plain.rmw([1, 0], plain.vars.flag, 20, 'Inc').barrier(1, 21).read([1, 1], plain.vars.data, 22);
        assert.deepEqual(plain.races(), ['missing-device-fence 22/10']);
        assert.match(plain.finding(22).message, /the read at line 20 sees a release that covers the write, but no fence after it acquires it; add `__threadfence\(\)` after that read/);
      });

      test('the store after a lock (atomicCAS, fence) is data, not a publication', () => {
        const s = new Stream(grid);
        s.rmw([0, 0], s.vars.lock, 10, 'CAS').fence([0, 0], 'device', 11).write([0, 0], s.vars.data, 12, volatile);
        s.read([1, 0], s.vars.data, 20, volatile);
        assert.deepEqual(s.races(), ['missing-device-fence 20/12']);
      });

      test('block-scope atomics of two blocks are a scoped race; within one block they are not', () => {
        const s = new Stream(grid);
        s.rmw([0, 0], s.vars.x, 10, 'Add', 'block').rmw([0, 1], s.vars.x, 11, 'Add', 'block').rmw([1, 0], s.vars.x, 20, 'Add', 'block');
        assert.deepEqual(s.races(), ['scoped-atomic 20/11']);
        assert.match(s.finding(20).message, /`atomicAdd_block` at line 20 is atomic only within its own block; use the device-scope `atomicAdd`/);
      });

      test('a plain access and an atomic are not morally strong', () => {
        const s = new Stream(grid);
        s.rmw([0, 0], s.vars.x, 10, 'Add').read([1, 0], s.vars.x, 20);
        assert.deepEqual(s.races(), ['missing-device-fence 20/10']);
        // ScoRD too: a read pairs with an atomic only when it is strong itself.
        assert.deepEqual(s.scordRaces(), ['missing-device-fence 20/10']);
        // A volatile read of what an atomic wrote is synchronisation for both.
        const strong = new Stream(grid);
        strong.rmw([0, 0], strong.vars.x, 10, 'Add').read([1, 0], strong.vars.x, 20, volatile);
        assert.deepEqual(strong.races(), []);
        assert.deepEqual(strong.scordRaces(), []);
      });
    });

    describe('where ScoRD and the PTX model part', () => {
      test('a fence the writer makes for another reason does not hide a race', () => {
        // A block-scope store of x, then a __threadfence() that publishes something else: ScoRD's
        // counters see a device fence since the write and both accesses strong, and stay silent.
        const s = new Stream(grid);
        s.write([0, 0], s.vars.x, 10, { order: 'relaxed', orderScope: 'block' }).fence([0, 0], 'device', 11).write([0, 0], s.vars.flag, 12, volatile);
        s.read([1, 0], s.vars.x, 20, volatile);
        assert.deepEqual(s.scordRaces(), []);
        assert.deepEqual(s.races(), ['scoped-atomic 20/10']);
        assert.match(s.finding(20).message, /the access at line 10 has block scope, which does not include the other block/);
      });

      test('a write is compared with every concurrent read, not only the last', () => {
        // Blocks 1 and 2 read x; block 2 then hands over to block 0, which writes x: ordered after
        // block 2's read, not after block 1's.
        const s = new Stream(grid);
        s.read([1, 0], s.vars.x, 10).read([2, 0], s.vars.x, 20).fence([2, 0], 'device', 21).write([2, 0], s.vars.flag, 22, volatile);
        s.read([0, 0], s.vars.flag, 30, volatile).fence([0, 0], 'device', 31).write([0, 0], s.vars.x, 32);
        assert.deepEqual(s.races(), ['missing-device-fence 32/10']);
        // ScoRD keeps the last read and another thread's read before it: it finds this one too.
        assert.ok(s.scordRaces().some((r) => r.endsWith('32/10')), s.scordRaces().join(', '));
        // With a third reader first, the first read is one ScoRD no longer holds; this engine still finds it.
        const t = new Stream(grid);
        t.read([3, 0], t.vars.x, 5).read([1, 0], t.vars.x, 10).read([2, 0], t.vars.x, 20).fence([2, 0], 'device', 21).write([2, 0], t.vars.flag, 22, volatile);
        t.read([0, 0], t.vars.flag, 30, volatile).fence([0, 0], 'device', 31).write([0, 0], t.vars.x, 32);
        assert.ok(t.races().includes('missing-device-fence 32/5'), t.races().join(', '));
        assert.ok(!t.scordRaces().some((r) => r.endsWith('32/5')), t.scordRaces().join(', '));
      });

      test('reads ordered one after another stay one epoch; a write after all of them is no race', () => {
        const s = new Stream(grid, 128);
        s.read([0, 0], s.vars.x, 10).barrier(0, 11).read([0, 1], s.vars.x, 20).barrier(0, 21).write([0, 2], s.vars.x, 30);
        assert.deepEqual(s.races(), []);
      });
    });

    describe('locks and shared memory', () => {
      /** lock (CAS + fence), data += 1, unlock (fence + Exch), by one thread of `block`. */
      const critical = (s: Stream, block: number, scope: Scope, line: number) => {
        s.rmw([block, 0], s.vars.lock, line, 'CAS', scope).fence([block, 0], scope, line + 1);
        s.read([block, 0], s.vars.data, line + 2).write([block, 0], s.vars.data, line + 3);
        s.fence([block, 0], scope, line + 4).rmw([block, 0], s.vars.lock, line + 5, 'Exch', scope);
      };

      test('a device-scope lock orders its critical sections', () => {
        const s = new Stream(grid);
        critical(s, 0, 'device', 10);
        s.rmw([1, 0], s.vars.lock, 10, 'CAS', 'device', false);
        critical(s, 1, 'device', 10);
        assert.deepEqual(s.races(), []);
      });

      test('a block-scope lock used by two blocks: lock-scope, naming the atomicCAS_block', () => {
        const s = new Stream(grid);
        critical(s, 0, 'block', 10);
        critical(s, 1, 'block', 10);
        // The CAS meets the other block's atomicExch_block (its last write); the data, both accesses.
        assert.deepEqual(s.races(), ['lock-scope 10/15', 'lock-scope 12/13', 'lock-scope 13/13']);
        assert.deepEqual(s.finding(12).lockAcquires, [s.at(10)]);
        assert.match(s.finding(12).message, /different lock in each block/);
      });

      test('__shared__ memory: races are of category shared-memory; barriers and atomics order or excuse them', () => {
        const s = new Stream(grid);
        s.write([0, 0], s.tile, 10).read([0, 1], s.tile, 20);
        s.write([0, 0], s.tile + 4, 30).barrier(0, 31).read([0, 1], s.tile + 4, 32);
        s.rmw([0, 0], s.tile + 8, 40, 'Add', 'block').rmw([0, 1], s.tile + 8, 41, 'Add', 'block');
        assert.deepEqual(s.races(), ['shared-memory 20/10']);
        const f = s.finding(20);
        assert.equal(f.space, 'shared');
        assert.equal(f.address, 'tile[0]');
      });
    });
  });
}

/** The races a check finds with the given engine: `a-b` (lines, smaller first) and category. */
function racesOf(text: string, fileName: string, engine: 'precise' | 'both'): { pair: string; category: string }[] {
  const report = checkSource({ fileName, text, engine });
  assert.deepEqual(report.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message), [], `${fileName} must be analysable`);
  assert.deepEqual(report.findings.filter((f) => f.kind !== 'race').map((f) => f.message), [], `${fileName} must run without faults`);
  return report.findings.map((f) => ({ pair: pair(f.location.line, f.related[0]?.location.line ?? 0), category: f.category }));
}

function pair(a: number, b: number): string {
  return `${Math.min(a, b)}-${Math.max(a, b)}`;
}

const ORDERED = path.resolve(__dirname, '..', '..', 'fixtures', 'ordered');

describe('programs with memory orders (test/fixtures/ordered, `// race:` truth lines)', () => {
  const files = fs.existsSync(ORDERED) ? fs.readdirSync(ORDERED).filter((f) => f.endsWith('.cu')).sort() : [];
  test('the folder has labelled programs', () => {
    assert.ok(files.length > 0, `no .cu files in ${ORDERED}`);
  });
  for (const file of files) {
    const text = fs.readFileSync(path.join(ORDERED, file), 'utf8');
    const truth = [...text.matchAll(/^\/\/ race: *(\d+) +(\d+)/gm)].map((m) => pair(Number(m[1]), Number(m[2])));
    assert.ok(truth.length > 0 || /^\/\/ race: *none/m.test(text), `${file} states its races`);
    test(`${file}: precise finds the true races, and else only scoped races of the flag or lock word`, () => {
      const found = racesOf(text, path.join(ORDERED, file), 'precise');
      for (const t of truth) assert.ok(found.some((f) => f.pair === t), `${t} in ${found.map((f) => f.pair).join(', ')}`);
      // A block-scope acquire or lock meeting another block is itself a race of the flag or
      // lock word (their accesses are not morally strong): a true race the labels leave out.
      for (const f of found) if (!truth.includes(f.pair)) assert.ok(f.category === 'scoped-atomic' || f.category === 'lock-scope', `unexpected ${f.category} ${f.pair}`);
      if (!truth.length) assert.deepEqual(found, []);
    });
    test(`${file}: both finds every true race`, () => {
      const found = racesOf(text, path.join(ORDERED, file), 'both');
      for (const t of truth) assert.ok(found.some((f) => f.pair === t), `${t} in ${found.map((f) => f.pair).join(', ')}`);
    });
  }
});

describe('the race suite with plain data instead of volatile', () => {
  // With the payload plain, fences and flags decide: the engine must find every race ScoRD's
  // labels name on these programs and nothing in the correct ones, where ScoRD's rule (c) now
  // reports the properly published payload.
  const cases = loadRaceCases().filter((c) => /__device__ volatile int (data|value|total)\b/.test(c.text));
  test('there are such programs', () => assert.ok(cases.length >= 30, `${cases.length}`));
  for (const c of cases) {
    test(c.file, () => {
      const text = c.text.replace(/__device__ volatile int (data|value|total)\b/g, '__device__ int $1');
      const parsed = parse(text, { fileName: c.file });
      let precise: PreciseDetector | undefined;
      let scord: ScordDetector | undefined;
      const result = runProgram(parsed, {
        listen: (m) => {
          precise = new PreciseDetector(m, { explain: true });
          scord = new ScordDetector(m);
          return (e) => {
            precise!.listener(e);
            scord!.listener(e);
          };
        },
      });
      assert.deepEqual(result.findings.map((f) => f.message), []);
      const found = new Set(precise!.findings().map((f) => pair(f.range.start.line + 1, f.previous.start.line + 1)));
      // A broken lock is labelled at its fence or unlock, not at the data: the PTX model has to
      // find a race there all the same.
      const brokenLock = c.expect.filter((e) => /^lock-(fence-scope|release-fence) /.test(e));
      if (brokenLock.length) assert.ok(found.size > 0, `${c.file}: a race on the data of the broken lock`);
      const labelled = c.expect.filter((e) => !brokenLock.includes(e)).map((e) => e.split(' ')).map(([, a, b]) => pair(Number(a), Number(b)));
      // atomic_block_then_plain: the device fence and flag order the block-scope atomic before
      // the read (the one labelled race that the PTX model does not share, with or without volatile).
      for (const l of labelled) if (c.file !== 'atomic_block_then_plain_interblock.cu') assert.ok(found.has(l), `${l} in ${[...found].join(', ')}`);
      if (c.file.endsWith('_ok.cu')) assert.deepEqual([...found], []);
      // Whatever ScoRD calls a non-strong access here, the PTX model orders.
      for (const r of scord!.findings().filter((f) => f.category === 'non-strong-access')) {
        if (!found.has(pair(r.range.start.line + 1, r.previous.start.line + 1))) assert.equal(precise!.whyNoRace(r.range, r.previous), 'ordered');
      }
    });
  }
});
