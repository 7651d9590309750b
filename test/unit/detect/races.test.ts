// The labelled race suite (test/support/raceCases.ts reads it): the detector must find
// exactly the races each program states, by category, line and related line. A file with
// `expect-racey` lines is checked twice: as written, and with -DRACEY.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadRaceCases, observedRaces } from '../../support/raceCases';

const cases = loadRaceCases();

describe('labelled race suite', () => {
  test('has at least 45 programs, racy and clean', () => {
    const variants = cases.reduce((n, c) => n + (c.expectRacey ? 2 : 1), 0);
    assert.ok(cases.length >= 45, `${cases.length} programs`);
    const racy = cases.filter((c) => c.expect.length > 0).length + cases.filter((c) => c.expectRacey?.length).length;
    assert.ok(racy >= 20 && variants - racy >= 20, `${racy} racy of ${variants} variants`);
  });
  for (const c of cases) {
    test(c.file, () => {
      assert.deepEqual(observedRaces(c, []), c.expect);
      if (c.expectRacey) assert.deepEqual(observedRaces(c, ['RACEY']), c.expectRacey, 'with -DRACEY');
    });
  }
});

test('a program built for sm_60 runs its warps in lockstep: lane 0\'s warp-level lock, taken without __syncwarp(), is held by the lanes that move with it', () => {
  const nosync = cases.find((c) => c.file === 'lock_warp_leader_nosync.cu');
  assert.ok(nosync && nosync.expect.length > 0, 'lock_warp_leader_nosync.cu races on Volta');
  assert.deepEqual(observedRaces({ ...nosync, options: { ...nosync.options, arch: 60 } }, []), []);
});
