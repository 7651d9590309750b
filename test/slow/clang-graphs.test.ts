// CUDA graphs end to end: a program (test/fixtures/clang/graphs.cu) builds a graph by hand and
// one by capturing three streams that fork and join through events, clones, instantiates and
// launches them, and checks the results, the node counts and the capture status on the host;
// conditional nodes (if/else, while, switch) run their bodies as device code sets their handles.
// A kernel node that races is reported like any launch.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compiledFixture } from '../support/clangProgram';

const { run, runDetected, lineOf } = compiledFixture('graphs.cu');

describe('CUDA graphs', () => {
  test('hand-built, cloned and captured graphs run their nodes in dependency order, each launch', () => {
    const r = run([]);
    const checks = ['node-count', 'roots', 'node-type', 'manual', 'memset-node', 'clone', 'capturing', 'nothing-ran', 'captured-nodes', 'capture-ended', 'captured', 'conditional', 'no-errors'];
    assert.deepEqual(r.stdout.split('\n').filter(Boolean), checks.map((c) => `ok ${c}`));
    assert.equal(r.exitCode, 0);
    assert.deepEqual(r.findings, []);
  });

  test('a kernel node that races is reported at its line', () => {
    const { result: r, races } = runDetected(['race']);
    assert.equal(r.exitCode, 0);
    assert.ok(races.length > 0, 'the race in the captured kernel is found');
    assert.equal(races[0].range.start.line + 1, lineOf('*total += data[i]'));
    assert.equal(races[0].address, 'total[0]');
  });
});
