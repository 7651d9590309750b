// Differential tests: every fixture in test/fixtures/preprocessor/*.cpp is preprocessed by GCC's
// cpp and by ours, and the token spellings must agree (whitespace is ignored: gcc's output is
// re-lexed with our lexer). The fixtures do not depend on predefined macros (cpp runs with
// -undef; ours adds only CUDA/host ones the fixtures never mention).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { lex } from '../../../sims/frontend/lexer';
import { preprocess } from '../../../sims/frontend/preprocessor';

const FIXTURES = path.resolve(__dirname, '../../fixtures/preprocessor');
const CPP_ARGS = ['-x', 'c++', '-P', '-undef', '-nostdinc', '-std=c++17'];

function requireCpp(): void {
  try {
    execFileSync('cpp', ['--version'], { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    throw new Error(
      "GCC's preprocessor `cpp` (Debian package `cpp`) is required for the differential preprocessor tests " +
        `but could not be run: ${(e as Error).message}`,
    );
  }
}

function gccSpellings(file: string): string[] {
  let out: string;
  try {
    out = execFileSync('cpp', [...CPP_ARGS, file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`cpp failed on ${file}: ${err.stderr ?? err.message}`);
  }
  return lex(out, '<gcc>').tokens.filter((t) => t.kind !== 'eof').map((t) => t.text);
}

function ourResult(file: string) {
  return preprocess({
    fileName: file,
    text: readFileSync(file, 'utf8'),
    readFile: (p) => {
      try {
        return readFileSync(p, 'utf8');
      } catch {
        return undefined;
      }
    },
  });
}

const fixtures = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.cpp'))
  .sort();

describe('preprocessor vs gcc cpp (differential)', () => {
  it('cpp is installed', () => {
    requireCpp();
  });

  it('has at least 15 fixtures', () => {
    assert.ok(fixtures.length >= 15, `only ${fixtures.length} fixtures in ${FIXTURES}`);
  });

  for (const name of fixtures) {
    it(`matches gcc on ${name}`, () => {
      requireCpp();
      const file = path.join(FIXTURES, name);
      const expected = gccSpellings(file);
      const r = ourResult(file);
      const actual = r.tokens.filter((t) => t.kind !== 'eof').map((t) => t.text);
      assert.ok(expected.length > 0, 'gcc produced no tokens');
      if (actual.join(' ') !== expected.join(' ')) {
        // Show the first difference with some context rather than two huge arrays.
        let i = 0;
        while (i < actual.length && i < expected.length && actual[i] === expected[i]) i++;
        assert.fail(
          `${name}: first difference at token ${i}\n` +
            `  gcc:  ...${expected.slice(Math.max(0, i - 8), i + 8).join(' ')}\n` +
            `  ours: ...${actual.slice(Math.max(0, i - 8), i + 8).join(' ')}`,
        );
      }
      assert.deepEqual(actual, expected);
      const errors = r.diagnostics.filter((d) => d.severity === 'error');
      assert.deepEqual(errors.map((d) => d.message), [], 'no errors expected on a fixture gcc accepts');
      assert.equal(r.tokens[r.tokens.length - 1].kind, 'eof');
    });
  }
});
