// printf formatting, checked against the C library itself: the cases are compiled with the
// system C compiler and glibc's output must equal ours byte for byte. A format checker uses the
// same parser, so the two cannot disagree about what a conversion consumes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { seededRandom } from '../../../sims/values/random';
import { formatPrintf, parseFormat, type PrintfArg } from '../../../sims/printf/format';

interface Case {
  format: string;
  args: PrintfArg[];
  /** The same arguments as C expressions. */
  c: string[];
}


function bitsOf(v: number): bigint {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, v);
  return dv.getBigUint64(0);
}

function cases(): Case[] {
  const random = seededRandom(20261122);
  const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)];
  const out: Case[] = [];
  const ints = [0n, 1n, -1n, 42n, -42n, 255n, 2147483647n, -2147483648n, 4294967295n, 9223372036854775807n, -9223372036854775808n, 123456789012n];
  for (let k = 0; k < 40; k++) ints.push(BigInt(Math.floor((random() - 0.5) * 2 ** 53)));
  const flagSets = ['', '-', '+', ' ', '#', '0', '-+', '+0', ' 0', '#0', '-#'];
  const widths = ['', '1', '5', '12', '*'];
  const precisions = ['', '.0', '.1', '.3', '.8', '.*'];
  for (let k = 0; k < 600; k++) {
    const conv = pick(['d', 'i', 'u', 'x', 'X', 'o']);
    const length = pick(['', 'l', 'll', 'h', 'hh']);
    const flags = pick(flagSets);
    const width = pick(widths);
    const precision = pick(precisions);
    const v = pick(ints);
    const ctype = length === 'l' || length === 'll' ? 'long long' : 'int';
    const value = ctype === 'int' ? BigInt.asIntN(32, v) : BigInt.asIntN(64, v);
    const args: PrintfArg[] = [];
    const c: string[] = [];
    if (width === '*') {
      const w = Math.floor(random() * 30) - 10;
      args.push({ kind: 'int', value: BigInt(w) });
      c.push(String(w));
    }
    if (precision === '.*') {
      const p = Math.floor(random() * 12) - 2;
      args.push({ kind: 'int', value: BigInt(p) });
      c.push(String(p));
    }
    args.push({ kind: 'int', value });
    c.push(value === -9223372036854775808n ? '(-9223372036854775807LL - 1)' : `(${ctype})(${value === -2147483648n ? '-2147483647LL - 1' : `${value}LL`})`);
    out.push({ format: `[%${flags}${width}${precision}${length}${conv}]`, args, c });
  }
  const doubles = [0, -0, 1, -1, 0.5, 1.5, 2.5, 0.125, 1e-5, 123456.789, 1e21, 1e-300, 5e-324, 1.7976931348623157e308, Infinity, -Infinity, 0.1, 2 / 3, 1e15, 999999.5, 9.5, 0.05];
  for (let k = 0; k < 60; k++) doubles.push((random() - 0.5) * 10 ** Math.floor(random() * 40 - 20));
  for (let k = 0; k < 800; k++) {
    const conv = pick(['f', 'e', 'g', 'E', 'G', 'F', 'a', 'A']);
    const flags = pick(flagSets);
    const width = pick(['', '8', '15', '25']);
    const precision = pick(['', '.0', '.1', '.2', '.3', '.6', '.10', '.17']);
    const v = pick(doubles);
    out.push({ format: `[%${flags}${width}${precision}${conv}]`, args: [{ kind: 'float', value: v }], c: [`d(0x${bitsOf(v).toString(16)}ULL)`] });
  }
  for (const [fmt, s] of [['[%s]', 'hello'], ['[%10s]', 'hi'], ['[%-10s]', 'hi'], ['[%.3s]', 'truncate'], ['[%5.1s]', 'xyz']] as const) {
    out.push({ format: fmt, args: [{ kind: 'string', value: s }], c: [JSON.stringify(s)] });
  }
  out.push({ format: '[%c%c] 100%% [%5c]', args: [{ kind: 'int', value: 65n }, { kind: 'int', value: 98n }, { kind: 'int', value: 122n }], c: ['65', '98', '122'] });
  out.push({ format: 'sum = %d, mean = %.3f, n = %u\n', args: [{ kind: 'int', value: 1234n }, { kind: 'float', value: 12.3456 }, { kind: 'int', value: 100n }], c: ['1234', 'd(0x' + bitsOf(12.3456).toString(16) + 'ULL)', '100u'] });
  return out;
}

function cString(s: string): string {
  return '"' + s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n') + '"';
}

test('formatting matches glibc byte for byte', () => {
  const all = cases();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-printf-'));
  const src = path.join(dir, 'cases.c');
  const lines = all.map((c) => `  printf(${cString(c.format)}${c.c.map((a) => `, ${a}`).join('')}); putchar('\\n');`);
  fs.writeFileSync(src, `#include <stdio.h>\n#include <string.h>\nstatic double d(unsigned long long b) { double x; memcpy(&x, &b, 8); return x; }\nint main(void) {\n${lines.join('\n')}\n  return 0;\n}\n`);
  let exe: string;
  try {
    exe = path.join(dir, 'cases');
    execFileSync('cc', ['-w', '-O0', '-o', exe, src]);
  } catch (e) {
    assert.fail(`a C compiler ('cc', Debian package gcc) is required for this test: ${e instanceof Error ? e.message : e}`);
  }
  const expected = execFileSync(exe, { encoding: 'utf8' });
  const ours = all.map((c) => formatPrintf(c.format, c.args) + '\n').join('');
  const e = expected.split('\n');
  const o = ours.split('\n');
  for (let i = 0; i < e.length; i++) {
    if (e[i] !== o[i]) {
      const k = all.findIndex((_, j) => all.slice(0, j + 1).map((x) => x.format.split('\n').length).reduce((s, n) => s + n, 0) > i);
      assert.equal(o[i], e[i], `case ${k}: printf(${JSON.stringify(all[k]?.format)}, ${all[k]?.c.join(', ')})`);
    }
  }
  assert.equal(ours, expected);
});

test('the format parser reports what each conversion consumes', () => {
  const { specs, problems } = parseFormat('%-08.3lf %*d %% %zu %s %q');
  assert.deepEqual(specs.map((s) => [s.flags, s.width, s.precision, s.length, s.conversion]), [
    ['-0', 8, 3, 'l', 'f'],
    ['', '*', undefined, '', 'd'],
    ['', undefined, undefined, '', '%'],
    ['', undefined, undefined, 'z', 'u'],
    ['', undefined, undefined, '', 's'],
  ]);
  assert.deepEqual(problems.map((p) => p.message), ["unknown conversion '%q'"]);
});
