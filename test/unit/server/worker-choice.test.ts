// Which analysis worker a run takes and which idle one is kept (server/analysis/workers.ts):
// a worker whose clang has compiled before is worth seconds a compile, so it goes first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { betterIdle, workerChoice } from '../../../server/analysis/workers';

const worker = (memoryLimitMb: number, compiled: boolean) => ({ memoryLimitMb, compiled });

test('a run takes the warm worker, else the draining one, else a fresh one', () => {
  assert.equal(workerChoice(1024, worker(1024, false), undefined), 'warm');
  assert.equal(workerChoice(1024, worker(1024, true), worker(1024, true)), 'warm');
  assert.equal(workerChoice(1024, undefined, worker(1024, false)), 'drain');
  assert.equal(workerChoice(1024, worker(512, true), worker(1024, false)), 'drain');
  assert.equal(workerChoice(1024, undefined, undefined), 'spawn');
  assert.equal(workerChoice(1024, worker(512, true), worker(512, true)), 'spawn');
});

test('a draining worker that has compiled with clang goes before a warm one that has not', () => {
  assert.equal(workerChoice(1024, worker(1024, false), worker(1024, true)), 'hot');
  // Not when the draining one has not compiled either, or has another memory limit.
  assert.equal(workerChoice(1024, worker(1024, false), worker(1024, false)), 'warm');
  assert.equal(workerChoice(1024, worker(1024, false), worker(2048, true)), 'warm');
});

test('of two idle workers, the one whose clang has compiled is kept, else the one with clang loaded', () => {
  const fresh = { clang: false, compiled: false };
  const loaded = { clang: true, compiled: false };
  const compiled = { clang: true, compiled: true };
  assert.equal(betterIdle(compiled, loaded), true);
  assert.equal(betterIdle(compiled, fresh), true);
  assert.equal(betterIdle(loaded, fresh), true);
  assert.equal(betterIdle(loaded, compiled), false);
  assert.equal(betterIdle(fresh, loaded), false);
  assert.equal(betterIdle(compiled, compiled), false);
  assert.equal(betterIdle(loaded, loaded), false);
});
