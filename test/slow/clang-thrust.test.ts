// The Thrust subset of sims/clang/include/thrust, run as host programs: its sorts give the order
// a stable comparison sort gives (the fixture checks each case against std::stable_sort of the
// positions, keys bit for bit), whichever of its two ways (radix or comparison) a case takes; its
// segmented (by-key) scans and reductions, unique, transform iterators and sorts through zip
// iterators give what plain loops give.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compiledFixture } from '../support/clangProgram';

// Compiled before the tests run (compiledFixture's hook).
const sorts = compiledFixture('thrust-sort.cu', { hostProgram: true });
const keyed = compiledFixture('thrust-keyed.cu', { hostProgram: true });

/** Runs a fixture that prints one line per case, "<case> ok" or "<case> WRONG": all `cases` are ok. */
function everyCaseOk(fixture: ReturnType<typeof compiledFixture>, cases: number): void {
  const r = fixture.run([]);
  assert.equal(r.exitCode, 0, r.stdout);
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, cases, r.stdout);
  assert.deepEqual(lines.filter((l) => !l.endsWith(' ok')), []);
  assert.deepEqual(r.findings, []);
}

test('sorts and sorts by key agree with a stable comparison sort, for every key type, order and iterator', () => {
  everyCaseOk(sorts, 17);
});

test('segmented scans and reductions, unique, transform iterators and sorts through zip iterators agree with plain loops', () => {
  everyCaseOk(keyed, 10);
});
