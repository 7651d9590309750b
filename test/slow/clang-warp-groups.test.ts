// Warp collectives of a warp that reaches them in several groups: each group's mask decides who
// takes part, so a labeled partition (built on __activemask and __match_any_sync) groups only the
// lanes that arrived together. Before, every lane waiting at the same collective joined whichever
// group completed first, and two groups of one warp took the same slots.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compiledFixture } from '../support/clangProgram';

const { runDetected } = compiledFixture('labeled_partition.cu', { hostProgram: true });

describe('a warp in several groups at one collective', () => {
  test('labeled partitions of coalesced threads give every element its own slot, with no race', () => {
    const { result, races } = runDetected([]);
    assert.equal(result.exitCode, 0);
    assert.equal(result.stdout, 'counters 820 819 819 819 filled 3277\n');
    assert.deepEqual(races.map((r) => r.message), []);
  });
});
