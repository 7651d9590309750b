// scripts/races/score.ts (`npm run corpus:races`): which tests a labelled suite holds, in ScoR's
// and GPUVerify's layouts, the verdict on each report, and the confusion table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { confusionTable, verdictOf } from '../../../scripts/races/score';
import { findTests, lockstepWarps, scorCategory } from '../../../scripts/races/suite';

function suite(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-score-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const race = (category: string, severity = 'warning') => ({ kind: 'race', category, severity, location: { line: 3 } });
const report = (...findings: ReturnType<typeof race>[]) => ({ findings, diagnostics: [] });

test('ScoR layout: labels and categories from the names', () => {
  const dir = suite({ 'src/race_interblock_lock-no-tf_waw.cu': '', 'src/norace_interwarp-block_fence-atom_hrd-indirect.cu': '', 'src/other.cu': '' });
  const { layout, tests } = findTests(dir);
  assert.equal(layout, 'scor');
  assert.deepEqual(tests.map((t) => [t.name, t.category, t.racy]), [
    ['norace_interwarp-block_fence-atom_hrd-indirect.cu', 'interwarp/atomic', false],
    ['race_interblock_lock-no-tf_waw.cu', 'interblock/lock', true],
  ]);
  assert.equal(scorCategory('race_intrawarp_none_waw.cu'), 'intrawarp/none');
});

test('GPUVerify layout: //pass and race-labelled xfail tests, others left out; --warp-sync=32 headers noted', () => {
  const dir = suite({
    'atomics/add_tid/kernel.cu': '//xfail:NOT_ALL_VERIFIED\n//--blockDim=2 --gridDim=1\n//possible write-write race\n__global__ void k() {}\n',
    'warpsync/ok/kernel.cu': '//pass\n//--blockDim=32 --gridDim=1 --warp-sync=32\n__global__ void k() {}\n',
    'warpsync/narrow/kernel.cu': '//pass\n//--blockDim=32 --gridDim=1 --warp-sync=16\n__global__ void k() {}\n',
    'asserts/fail/kernel.cu': '//xfail:NOT_ALL_VERIFIED\n//--blockDim=2 --gridDim=1\n//this assertion might not hold\n__global__ void k() {}\n',
  });
  const { layout, tests, skipped } = findTests(dir);
  assert.equal(layout, 'gpuverify');
  assert.equal(skipped, 1);
  assert.deepEqual(tests.map((t) => [t.name, t.racy, t.warpSync]), [
    ['atomics/add_tid', true, false],
    ['warpsync/narrow', false, false],
    ['warpsync/ok', false, true],
  ]);
  assert.equal(lockstepWarps(['--blockDim=[4,4]', '--gridDim=[10,10]', '--warp-sync=16']), true, 'a 16-thread block is one warp of 16 lanes');
  assert.equal(lockstepWarps(['--blockDim=1024', '--warp-sync=16']), false);
  assert.equal(lockstepWarps(['--blockDim=512', '--warp-sync']), true);
  assert.equal(lockstepWarps(['--blockDim=512']), false);
});

test('verdicts: benign same-value races are counted apart; a refused launch did not run', () => {
  const racy = { file: '', name: 'r', category: 'c', racy: true, warpSync: false };
  const clean = { ...racy, racy: false };
  assert.equal(verdictOf(racy, report(race('missing-lock'))), 'found');
  assert.equal(verdictOf(racy, report(race('benign-same-value', 'information'))), 'benign-only');
  assert.equal(verdictOf(racy, report()), 'missed');
  assert.equal(verdictOf(racy, undefined), 'not-run');
  assert.equal(verdictOf(clean, report()), 'clean');
  assert.equal(verdictOf(clean, report(race('shared-memory'))), 'false-alarm');
  assert.equal(verdictOf(clean, report(race('benign-same-value', 'information'))), 'benign-only');
  assert.equal(verdictOf(racy, { findings: [{ kind: 'launch-configuration', category: 'launch-configuration', severity: 'error', location: { line: 1 } }], diagnostics: [] }), 'not-run');
  assert.equal(verdictOf(clean, report(race('intra-warp'))), 'false-alarm');
  assert.equal(verdictOf(clean, { findings: [], diagnostics: [{ severity: 'error' }] }), 'not-run');
});

test('the confusion table counts each verdict per category and in total', () => {
  const r = (category: string, racy: boolean, verdict: 'found' | 'missed' | 'false-alarm' | 'clean') => ({ file: '', name: `${category}-${verdict}`, category, racy, warpSync: false, verdict, lines: [], ms: 0 });
  const table = confusionTable([r('a', true, 'found'), r('a', true, 'missed'), r('b', false, 'false-alarm'), r('b', false, 'clean')]);
  assert.match(table[2], /^a\s+1\s+1\s+0\s+0\s+0\s+0$/);
  assert.match(table[3], /^b\s+0\s+0\s+1\s+1\s+0\s+0$/);
  assert.match(table[4], /^total\s+1\s+1\s+1\s+1\s+0\s+0$/);
  assert.ok(table.includes('racy tests that ran: 1/2 found (50%); clean tests that ran: 1/2 false alarms'), table.join('\n'));
  assert.ok(table.includes('missed: a-missed'));
});
