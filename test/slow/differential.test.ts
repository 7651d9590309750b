// Every CUDA program in the repository (fixtures and examples) checked and run with compiled
// blocks and with the reference interpreter, under each scheduling and memory model: reports,
// output and every simulator event must be identical.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { clangDifferences, cudaFiles, differences, DIFFERENTIAL_SETTINGS } from '../support/differential';

const ROOT = path.resolve(__dirname, '..', '..');
const FILES = [...cudaFiles(path.join(ROOT, 'test', 'fixtures')), ...cudaFiles(path.join(ROOT, 'examples'))];

test('the differential test has the repository programs to run', () => {
  assert.ok(FILES.length >= 200, `only ${FILES.length} programs found`);
});

for (const setting of DIFFERENTIAL_SETTINGS) {
  describe(`compiled = interpreted (${setting.name})`, () => {
    for (const file of FILES) {
      test(path.relative(ROOT, file), () => {
        assert.deepEqual(differences(file, setting.check), []);
      });
    }
  });
}

// The clang path lowers device code from LLVM IR: its own steps, the same compiler.
const CLANG_PROGRAMS = [...cudaFiles(path.join(ROOT, 'test', 'fixtures', 'clang')).filter((f) => path.dirname(f).endsWith('clang')), ...cudaFiles(path.join(ROOT, 'test', 'fixtures', 'sim'))];

describe('compiled = interpreted on the clang path', () => {
  for (const file of CLANG_PROGRAMS) {
    test(path.relative(ROOT, file), async (t) => {
      const d = await clangDifferences(file);
      if (d === undefined) return t.skip('clang does not build it into a program with main');
      assert.deepEqual(d, []);
    });
  }
});
