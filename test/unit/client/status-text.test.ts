// The status bar's wording: named, pluralised, and "not analysed" while the text cannot run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statusOf } from '../../../client/statusText';

const done = { uri: 'file:///a.cu', version: 3, state: 'done' as const, elapsedMs: 12.34 };

test('races and other findings are counted with their plurals, under the extension\'s name', () => {
  assert.deepEqual(statusOf({ ...done, races: 1, findings: 1 }), { text: '$(bug) ScoRD: 1 race', tooltip: 'ScoRD: 1 race in 12.3 ms — click for the metadata inspector' });
  assert.deepEqual(statusOf({ ...done, races: 2, findings: 3 }).tooltip, 'ScoRD: 2 races and 1 other finding in 12.3 ms — click for the metadata inspector');
  assert.deepEqual(statusOf({ ...done, races: 0, findings: 0 }), { text: '$(check) ScoRD: no races', tooltip: 'ScoRD: no races or other findings in 12.3 ms — click for the metadata inspector' });
  assert.match(statusOf({ ...done, races: 0, findings: 2 }).tooltip, /^ScoRD: 0 races and 2 other findings/);
  // Never the problem counter's warning icon.
  for (const races of [0, 1, 5]) assert.doesNotMatch(statusOf({ ...done, races, findings: races }).text, /\$\(warning\)/);
});

test('a text that cannot run says so instead of a stale "no races"', () => {
  assert.deepEqual(statusOf({ ...done, races: 0, findings: 0, notRun: 'syntax' }), {
    text: '$(circle-slash) ScoRD: not analysed',
    tooltip: 'ScoRD: not analysed: syntax errors (see Problems); the races shown are from the last run that could start',
  });
  assert.match(statusOf({ ...done, notRun: 'compile' }).tooltip, /not analysed: compile errors/);
  assert.equal(statusOf(undefined).text, '$(circle-outline) ScoRD');
  assert.equal(statusOf({ ...done, state: 'running' }).text, '$(sync~spin) ScoRD');
  assert.match(statusOf({ ...done, state: 'stopped', reason: 'timeout' }).tooltip, /stopped \(timeout\)/);
});

test('a sampled run says how many blocks it simulated, beside the count it can vouch for', () => {
  const s = statusOf({ ...done, races: 1, findings: 1, sampled: { kernel: 'scan', simulated: 32, blocks: 4096, launches: 1 } });
  assert.equal(s.text, '$(bug) ScoRD: 1 race · simulated 32 of 4,096 blocks');
  assert.match(s.tooltip, /^ScoRD: 1 race in 12\.3 ms/);
  assert.match(s.tooltip, /simulated 32 of 4,096 blocks of scan: .*races that need one of the other blocks are not seen/);
  assert.match(statusOf({ ...done, races: 0, findings: 0, sampled: { kernel: 'scan', simulated: 40, blocks: 100, launches: 3 } }).tooltip, /\(3 launches sampled\)/);
  assert.doesNotMatch(statusOf({ ...done, races: 0, findings: 0 }).text, /simulated/);
});
