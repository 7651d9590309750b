// Error recovery as a property: whatever the edit, the front end returns a complete tree and
// diagnostics that point inside the files they name, and never throws. For every fixture we
// delete each token in turn, then apply 500 seeded random mutations.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { seededRandom } from '../../sims/values/random';
import { parse } from '../../sims/frontend/index';
import { isKnownCode } from '../../sims/frontend/codes';
import { lex } from '../../sims/frontend/lexer';
import { FIXTURES, readOrUndefined } from '../support/parseFile';

const PROGRAMS = path.join(FIXTURES, 'programs');
const files = fs.readdirSync(PROGRAMS).filter((f) => f.endsWith('.cu')).sort();


const INSERTIONS = ['(', ')', '{', '}', '[', ']', ';', ',', '<<<', '>>>', '<', '>', '*', '&', '=', '::', '#', '#define X(', '#if', '#endif', '"', "'", '/*', '\\', 'int', '__global__', 'template <', 'struct', 'return', 'if (', 'else', '0x', '1e', '@', '\n', 'atomicAdd_block(', '__syncthreads()', 'sizeof', '...'];

function check(fileName: string, text: string, what: string): void {
  let result;
  try {
    result = parse(text, { fileName, readFile: readOrUndefined });
  } catch (e) {
    assert.fail(`${what}: parse threw ${e instanceof Error ? e.stack : e}`);
  }
  assert.equal(result.ast.kind, 'TranslationUnit', what);
  assert.ok(Array.isArray(result.ast.decls), what);
  const lineCounts = new Map<string, number>([[fileName, text.split('\n').length]]);
  for (const d of result.diagnostics) {
    assert.ok(d.message.length > 0, `${what}: empty diagnostic`);
    assert.ok(isKnownCode(d.code), `${what}: unregistered code '${d.code}'`);
    const lines = lineCounts.get(d.range.file);
    if (lines !== undefined) {
      assert.ok(d.range.start.line < lines && d.range.end.line < lines, `${what}: diagnostic '${d.message}' at line ${d.range.start.line + 1} beyond the ${lines}-line file`);
    }
    assert.ok(d.range.start.offset <= d.range.end.offset || d.range.start.line < d.range.end.line || d.range.file !== fileName, `${what}: inverted range`);
  }
}

describe('error recovery', () => {
  for (const name of files) {
    const fileName = path.join(PROGRAMS, name);
    const text = fs.readFileSync(fileName, 'utf8');
    const tokens = lex(text, fileName).tokens.filter((t) => t.kind !== 'eof');

    test(`${name}: every single-token deletion`, () => {
      for (let i = 0; i < tokens.length; i++) {
        const t = tokens[i];
        check(fileName, text.slice(0, t.range.start.offset) + text.slice(t.range.end.offset), `${name} without token ${i} '${t.text}'`);
      }
    });

    test(`${name}: 500 random mutations`, () => {
      const seed = [...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
      const random = seededRandom(seed);
      const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)];
      for (let m = 0; m < 500; m++) {
        let s = text;
        const steps = 1 + Math.floor(random() * 3);
        for (let k = 0; k < steps; k++) {
          const pos = Math.floor(random() * (s.length + 1));
          const op = Math.floor(random() * 5);
          if (op === 0) s = s.slice(0, pos) + pick(INSERTIONS) + s.slice(pos);
          else if (op === 1) s = s.slice(0, pos) + s.slice(pos + 1 + Math.floor(random() * 20));
          else if (op === 2) {
            const t = pick(tokens);
            s = s.slice(0, pos) + t.text + s.slice(pos);
          } else if (op === 3) s = s.slice(0, pos);
          else {
            const a = pick(tokens);
            const b = pick(tokens);
            s = s.slice(0, a.range.start.offset) + b.text + s.slice(a.range.end.offset);
          }
        }
        check(fileName, s, `${name} mutation ${m} (seed ${seed})`);
      }
    });
  }
});
