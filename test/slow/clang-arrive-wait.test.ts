// cuda::barrier's arrive and wait order a diverged lane's shared-memory write before another
// warp's read, through the acquire-release chain the header builds (each arrival an acq_rel
// RMW, the last one's release of the phase, each waiter's acquire): 4 warps × 32 lanes each
// acquiring what 128 lanes released, and 32 warps acquiring what 1,024 released. Reading before
// the wait is still a race.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compiledFixture } from '../support/clangProgram';

const { runDetected, lineOf } = compiledFixture('arrive_wait_barrier.cu', { hostProgram: true });

describe('cuda::barrier arrive and wait', () => {
  test('a write before arrive() is ordered before a read after wait() in another warp', () => {
    const { result, races } = runDetected([]);
    assert.equal(result.exitCode, 0);
    assert.equal(result.stdout.trim(), '1 2 3 4');
    assert.deepEqual(races.map((r) => r.message), []);
  });

  test('in a block of 1,024 threads too, where every one of its diverged lanes releases at its arrive()', () => {
    const { result, races } = runDetected(['wide']);
    assert.equal(result.exitCode, 0);
    assert.equal(result.stdout.trim(), '528');
    assert.deepEqual(races.map((r) => r.message), []);
  });

  test('a read before wait() races with the other warps\' writes', () => {
    const { races } = runDetected(['skip']);
    assert.ok(races.length > 0, 'no race reported');
    for (const r of races) {
      assert.equal(r.category, 'shared-memory');
      assert.deepEqual([r.range.start.line + 1, r.previous.start.line + 1].sort(), [lineOf('slot[warp] = warp + 1.0'), lineOf('out[lane] = slot[lane]')].sort());
    }
  });
});
