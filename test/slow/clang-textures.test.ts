// Textures and surfaces end to end: a CUDA program (test/fixtures/clang/textures.cu) makes CUDA
// arrays, fills them with 2D and 3D copies, reads them through texture objects of every kind in
// kernels, writes them through surfaces, and checks every value on the host against what the
// CUDA C++ Programming Guide says the texture unit returns. Then the two ways it goes wrong: a
// surface write and a texture read of one element by two threads with nothing between them is a
// race the detector reports on the program's lines, and a fetch through a destroyed object is a
// located fault.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compiledFixture } from '../support/clangProgram';

const { run, runDetected, lineOf } = compiledFixture('textures.cu');

describe('textures and surfaces', () => {
  test('every fetch returns what the texture unit returns, and surface writes land in the array', () => {
    const r = run([]);
    const checks = ['point-clamp', 'point-border', 'point-wrap', 'point-mirror', 'linear', 'normalized-read', 'pitch2d', 'tex1Dfetch', 'layered', 'cubemap', '3d-linear', 'gather', 'half', 'surface', 'array-info'];
    assert.deepEqual(r.stdout.split('\n').filter(Boolean), checks.map((c) => `ok ${c}`));
    assert.equal(r.exitCode, 0);
    assert.deepEqual(r.findings, []);
  });

  test('a surface write and a texture read of one element by two threads race, at their lines, naming the element', () => {
    const { result: r, races } = runDetected(['race']);
    assert.equal(r.exitCode, 0);
    assert.equal(races.length, 1, races.map((f) => f.message).join('\n'));
    const lines = [races[0].range.start.line + 1, races[0].previous.start.line + 1].sort();
    assert.deepEqual(lines, [lineOf('surf2Dwrite(float(x)'), lineOf('out[x] = tex2D<float>(tex, (x + 1)')].sort());
    assert.match(races[0].address ?? '', /^shared\[\d+\]$/, 'the array is named after its variable, indexed as a C array');
  });

  test('a fetch through a destroyed texture object is a fault at the fetch', () => {
    const r = run(['destroyed']);
    assert.equal(r.findings.length, 1);
    assert.equal(r.findings[0].kind, 'invalid-pointer');
    assert.match(r.findings[0].message, /texture object 1, which is not one/);
    assert.equal(r.findings[0].range?.start.line! + 1, lineOf('out[i] = tex2D<float>(tex, at[i].x'));
    assert.match(r.stdout, /after: an illegal memory access was encountered/);
  });
});
