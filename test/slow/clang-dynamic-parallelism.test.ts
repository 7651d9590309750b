// Kernels that launch kernels, end to end (test/fixtures/clang/dynamic-parallelism.cu): child
// grids run after the grid that launched them with the arguments it gave (a struct by value
// included), recursion to a depth, device-side cudaMalloc, cudaMemcpyAsync and cudaFree, and an
// error text in device code; a child grid's race is reported at its line; a parent that waits
// for its child is a located `not supported`, since children run after their parent.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compiledFixture } from '../support/clangProgram';

const { run, runDetected, lineOf } = compiledFixture('dynamic-parallelism.cu');

describe('dynamic parallelism', () => {
  test('child grids run with their arguments, recursively; device code allocates, copies and frees', () => {
    const r = run([]);
    assert.deepEqual(r.stdout.split('\n').filter(Boolean), ['ok recursion', 'ok child-grid', 'ok device-memory', 'ok no-errors']);
    assert.equal(r.exitCode, 0);
    assert.deepEqual(r.findings, []);
  });

  test('a race inside a child grid is found at its line', () => {
    const { result: r, races } = runDetected(['race']);
    assert.equal(r.exitCode, 0);
    assert.ok(races.length > 0, 'the child grid was run and heard');
    assert.equal(races[0].range.start.line + 1, lineOf('*counter += 1'));
  });

  test('a parent that waits for its child grid is refused at the wait, and the run ends there', () => {
    const r = run(['wait']);
    assert.equal(r.findings.length, 1);
    assert.equal(r.findings[0].kind, 'not-supported');
    assert.match(r.findings[0].message, /^not supported: cudaDeviceSynchronize in device code after a launch/);
    assert.equal(r.findings[0].range?.start.line! + 1, lineOf('dst[0] = 2;') - 1, 'at the cudaDeviceSynchronize before it');
  });
});
