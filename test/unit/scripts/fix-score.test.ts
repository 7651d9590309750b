// scripts/races/fixScore.ts (`npm run corpus:fixes`): which tests it takes, how a fix is judged
// from the findings before and after it (line shifts included), and the table it prints.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fixTable, fixVerdict, judgeFix, lineMap, parseArgs, pickArch, preprocessorFlags, progressLine, type FixResult } from '../../../scripts/races/fixScore';
import { findTests } from '../../../scripts/races/suite';

const race = (category: string, line: number, related: number[] = [], severity = 'warning') => ({ kind: 'race', category, severity, location: { line }, related: related.map((l) => ({ location: { line: l } })) });

test('the suite: race-labelled tests of both layouts, with their categories', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-fixscore-test-'));
  try {
    for (const [name, text] of Object.entries({ 'race_interwarp_none-blkatom_waw.cu': '', 'norace_interblock_atom.cu': '' })) fs.writeFileSync(path.join(dir, name), text);
    const { layout, tests } = findTests(dir);
    assert.equal(layout, 'scor');
    assert.deepEqual(tests.filter((t) => t.racy).map((t) => [t.name, t.category]), [['race_interwarp_none-blkatom_waw.cu', 'interwarp/atomic']]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('lineMap carries lines across inserted, replaced and deleted lines', () => {
  const before = 'a\nb\nc\nd\n';
  const inserted = lineMap(before, 'a\nfence();\nb\nc\nd\n');
  assert.deepEqual([1, 2, 3, 4].map(inserted), [1, 3, 4, 5]);
  const replaced = lineMap(before, 'a\nB\nc\nd\n');
  assert.deepEqual([1, 2, 3, 4].map(replaced), [1, 2, 3, 4], 'an edited line stays where it was');
  const deleted = lineMap(before, 'a\nc\nd\n');
  assert.deepEqual([1, 2, 3, 4].map(deleted), [1, 2, 2, 3], 'a deleted line goes to the line that follows');
  assert.equal(lineMap('a\n', 'x\na\n')(7), 8, 'past the end: moved by the change in length');
});

test('a race gone after the fix is fixed; one still reported (at its shifted line) is not', () => {
  const before = [race('scoped-atomic', 30, [26])];
  const fixed = judgeFix(before, []);
  assert.deepEqual([fixed.races, fixed.fixed, fixed.left, fixed.added], [1, 1, [], []]);
  assert.equal(fixVerdict(fixed), 'fixed');

  // A fence inserted above line 26 moves both lines down by one: the same race, not fixed, nothing new.
  const shift = lineMap(Array.from({ length: 40 }, (_, i) => `l${i + 1}`).join('\n'), [...Array.from({ length: 25 }, (_, i) => `l${i + 1}`), '__threadfence();', ...Array.from({ length: 15 }, (_, i) => `l${i + 26}`)].join('\n'));
  const left = judgeFix(before, [race('scoped-atomic', 31, [27])], shift);
  assert.deepEqual([left.fixed, left.left, left.added], [0, ['scoped-atomic@30'], []]);
  assert.equal(fixVerdict(left), 'unfixed');
  // Without the shift the same report would read as a fix that added a race.
  const naive = judgeFix(before, [race('scoped-atomic', 31, [27])]);
  assert.deepEqual([naive.fixed, naive.added], [1, ['scoped-atomic@31']]);

  // The same pair reported the other way round is still the same race.
  assert.equal(judgeFix(before, [race('scoped-atomic', 26, [30])]).fixed, 0);
});

test('a fix that adds a finding is not a fix, whatever the kind of the new finding', () => {
  const before = [race('missing-lock', 12, [12])];
  const traded = judgeFix(before, [{ kind: 'deadlock', category: 'deadlock', severity: 'error', location: { line: 9 } }]);
  assert.deepEqual([traded.fixed, traded.added], [1, ['deadlock@9']]);
  assert.equal(fixVerdict(traded), 'unfixed');
  const other = judgeFix(before, [race('missing-device-fence', 12)]);
  assert.deepEqual([other.fixed, other.added], [1, ['missing-device-fence@12']], 'another category at the same line is a new race');
  // A finding the original had already reported is not new.
  const kept = judgeFix([...before, { kind: 'fault', category: 'out-of-bounds', severity: 'error', location: { line: 20 } }], [{ kind: 'fault', category: 'out-of-bounds', severity: 'error', location: { line: 20 } }]);
  assert.equal(fixVerdict(kept), 'fixed');
});

test('benign same-value races are counted apart', () => {
  const benign = race('benign-same-value', 5, [], 'information');
  const only = judgeFix([benign], [benign]);
  assert.deepEqual([only.races, only.benignBefore, only.benignAfter], [0, 1, 1]);
  assert.equal(fixVerdict(only), 'benign-only');
  assert.equal(fixVerdict(judgeFix([], [])), 'no-race');
  assert.equal(fixVerdict(judgeFix([race('lock-scope', 8)], [benign])), 'fixed', 'a benign race left after the fix adds nothing');
});

test('the table counts per category and in total; compiles are judged only where the original compiles', () => {
  const r = (name: string, category: string, verdict: FixResult['verdict'], races: number, more: Partial<FixResult> = {}): FixResult => ({
    file: '',
    name,
    category,
    racy: true,
    warpSync: false,
    verdict,
    categories: races ? ['scoped-atomic'] : [],
    applied: [],
    ms: 0,
    judgement: { races, fixed: verdict === 'fixed' ? races : 0, left: [], added: [], benignBefore: 0, benignAfter: 0 },
    ...more,
  });
  const results = [
    r('a1', 'a', 'fixed', 1, { compiles: 'yes' }),
    r('a2', 'a', 'unfixed', 2, { compiles: 'no', compileError: 'x.cu(3): error', reason: 'added deadlock@9', judgement: { races: 2, fixed: 2, left: [], added: ['deadlock@9'], benignBefore: 0, benignAfter: 0 } }),
    r('b1', 'b', 'fixed', 1, { compiles: 'n/a' }),
    r('b2', 'b', 'not-run', 0, { reason: 'check: timed out' }),
    r('b3', 'b', 'benign-only', 0, { judgement: { races: 0, fixed: 0, left: [], added: [], benignBefore: 1, benignAfter: 1 } }),
  ];
  const table = fixTable(results, 'nvcc -arch=sm_75');
  assert.match(table[0], /^category\s+racy\s+found\s+fixed\s+added\s+fix compiles\s+benign-only\s+not-run$/);
  assert.match(table[2], /^a\s+2\s+2\s+1\s+1\s+1\/2\s+0\s+0$/);
  assert.match(table[3], /^b\s+3\s+1\s+1\s+0\s+0\/0\s+1\s+1$/);
  assert.match(table[4], /^total\s+5\s+3\s+2\s+1\s+1\/2\s+1\s+1$/);
  assert.ok(table.includes('tests with a race found: 2/3 fixed; race findings: 4/4 fixed; compiles judged by nvcc -arch=sm_75'), table.join('\n'));
  assert.ok(table.includes('unfixed: a2 (added deadlock@9)'));
  assert.ok(table.includes('fix does not compile: a2 (x.cu(3): error)'));
  assert.ok(table.includes('original does not compile (compile n/a): b1'));
  assert.equal(progressLine(results[0], 1, 5), '[1/5] fixed       a1 (scoped-atomic); compiles');
  assert.equal(progressLine(results[3], 4, 5), '[4/5] not-run     b2: check: timed out');
});

test('options: check options after --, preprocessor flags for the compiles, usage errors, the nvcc architecture', () => {
  const o = parseArgs(['suite', '--jobs', '3', '--timeout', '5', '--', '-DN=4', '-I', 'inc', '--engine', 'precise']);
  assert.deepEqual([path.basename(o.dir), o.jobs, o.timeoutMs, o.checkArgs], ['suite', 3, 5000, ['-DN=4', '-I', 'inc', '--engine', 'precise']]);
  assert.deepEqual(preprocessorFlags(o.checkArgs), { defines: ['N=4'], undefines: [], includeDirs: ['inc'] });
  assert.throws(() => parseArgs([]), /^Error: usage: npm run corpus:fixes/);
  assert.throws(() => parseArgs(['suite', '--jobs']), /--jobs needs a value/);
  assert.throws(() => parseArgs(['suite', '--timeout', 'soon']), /--timeout needs a positive number of seconds/);
  assert.throws(() => parseArgs(['suite', '--compiler', 'gcc']), /unknown compiler 'gcc'/);
  assert.equal(pickArch('sm_75\nsm_80\nsm_90\n'), 'sm_75', 'an nvcc without sm_70 builds its oldest');
  assert.equal(pickArch('sm_50\nsm_70\nsm_80\n'), 'sm_70');
  assert.equal(pickArch(''), 'sm_70');
});
