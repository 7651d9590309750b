// The lexer: token kinds, exact positions (also across backslash-newline splices), and the
// problems it records for later stages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lex } from '../../../sims/frontend/lexer';
import { decodeNumber, decodeEscapes } from '../../../sims/frontend/literals';

const where = (t: { range: { start: { line: number; character: number }; end: { line: number; character: number } } }) =>
  `${t.range.start.line}:${t.range.start.character}-${t.range.end.line}:${t.range.end.character}`;

test('CUDA launch brackets are single tokens', () => {
  const { tokens } = lex('k<<<g, b>>>(x);', 'a.cu');
  assert.deepEqual(tokens.map((t) => t.text), ['k', '<<<', 'g', ',', 'b', '>>>', '(', 'x', ')', ';', '']);
});

test('positions survive line splices', () => {
  const { tokens } = lex('#define M(a) \\\n  a + 1\nint x;', 'a.cu');
  const a2 = tokens[6];
  assert.equal(a2.text, 'a');
  assert.equal(where(a2), '1:2-1:3');
  assert.equal(a2.lineStart, false, 'a spliced line continues the directive');
  const int = tokens.find((t) => t.text === 'int')!;
  assert.equal(where(int), '2:0-2:3');
  assert.equal(int.lineStart, true);
});

test('a token split by a splice spans both lines', () => {
  const { tokens } = lex('abc\\\ndef = 1;', 'a.cu');
  assert.equal(tokens[0].text, 'abcdef');
  assert.equal(where(tokens[0]), '0:0-1:3');
});

test('literals, comments and offsets', () => {
  const src = 'x = 0x1Fu + 1.5e-3f /* c */ + \'\\n\' + u8"s\\"q"; // end';
  const { tokens } = lex(src, 'a.cu');
  const texts = tokens.map((t) => `${t.kind}:${t.text}`);
  assert.deepEqual(texts, ['ident:x', 'punct:=', 'number:0x1Fu', 'punct:+', 'number:1.5e-3f', 'punct:+', "char:'\\n'", 'punct:+', 'string:u8"s\\"q"', 'punct:;', 'eof:']);
  for (const t of tokens.slice(0, -1)) assert.equal(src.slice(t.range.start.offset, t.range.end.offset), t.text);
  assert.ok(tokens[5].spaceBefore, 'a comment counts as whitespace');
});

test('problems are recorded, not thrown', () => {
  const r = lex('a = "open\nb = \'x\n@\n/* never', 'a.cu');
  const problems = r.tokens.filter((t) => t.problem).map((t) => `${t.problem!.code}@${where(t)}`);
  assert.deepEqual(problems, ['unterminated-literal@0:4-0:9', 'unterminated-literal@1:4-1:6', 'stray-character@2:0-2:1']);
  assert.deepEqual(r.problems.map((p) => `${p.code}@${where(p)}`), ['unterminated-comment@3:0-3:2']);
});

test('integer literal types follow C++ rules', () => {
  const types = ['42', '42u', '2147483648', '0x80000000', '42l', '42ull', '0xFFFFFFFFFFFFFFFF', '017', '0b101'].map((s) => {
    const n = decodeNumber(s);
    assert.equal(n.kind, 'int', s);
    return n.kind === 'int' ? `${n.exact}:${n.unsigned ? 'u' : 's'}${n.longness}` : '';
  });
  assert.deepEqual(types, ['42:s0', '42:u0', '2147483648:s1', '2147483648:u0', '42:s1', '42:u2', '18446744073709551615:u1', '15:s0', '5:s0']);
  assert.deepEqual(decodeNumber('1.5f'), { kind: 'float', value: 1.5, single: true });
  assert.deepEqual(decodeNumber('0x1p4'), { kind: 'float', value: 16, single: false });
  assert.equal(decodeNumber('12f').kind, 'invalid');
  assert.equal(decodeNumber('99999999999999999999').kind, 'invalid');
});

test('escape sequences decode', () => {
  assert.deepEqual(decodeEscapes('a\\tb\\x41\\101\\u00e9'), { value: 'a\tbAAé' });
  assert.equal(decodeEscapes('\\q').bad, "unknown escape sequence '\\q'");
});
