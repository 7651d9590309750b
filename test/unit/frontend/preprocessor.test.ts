import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Diagnostic } from '../../../sims/frontend/diagnostics';
import { lex } from '../../../sims/frontend/lexer';
import {
  preprocess,
  tokensToText,
  type PreprocessOptions,
  type PreprocessResult,
} from '../../../sims/frontend/preprocessor';
import type { Range } from '../../../sims/frontend/source';
import { SYSTEM_HEADERS } from '../../../sims/frontend/systemHeaders';
import type { Token } from '../../../sims/frontend/token';

const MAIN = '/src/main.cu';

type Opts = Partial<PreprocessOptions> & { files?: Record<string, string> };

function pp(text: string, opts: Opts = {}): PreprocessResult {
  const { files = {}, ...rest } = opts;
  return preprocess({ fileName: MAIN, text, readFile: (p) => files[p], ...rest });
}

/** The output's spellings separated by single spaces (eof excluded). */
function spellings(r: PreprocessResult): string {
  return r.tokens
    .filter((t) => t.kind !== 'eof')
    .map((t) => t.text)
    .join(' ');
}

/** `text` re-lexed and joined like `spellings`, so expectations can be written naturally. */
function norm(text: string): string {
  return lex(text, '<expected>')
    .tokens.filter((t) => t.kind !== 'eof')
    .map((t) => t.text)
    .join(' ');
}

function expand(text: string, opts: Opts = {}): string {
  return spellings(pp(text, opts));
}

function where(r: Range): string {
  return `${r.file}:${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
}

/** The single diagnostic with `code` (fails if there are none or several). */
function one(r: PreprocessResult, code: string): Diagnostic {
  const ds = r.diagnostics.filter((d) => d.code === code);
  assert.equal(ds.length, 1, `expected one ${code}, got: ${JSON.stringify(r.diagnostics.map((d) => `${d.code}: ${d.message}`))}`);
  return ds[0];
}

function codes(r: PreprocessResult): string[] {
  return r.diagnostics.map((d) => d.code);
}

function tok(r: PreprocessResult, text: string, nth = 0): Token {
  const ts = r.tokens.filter((t) => t.text === text);
  assert.ok(ts.length > nth, `no token ${text} #${nth}`);
  return ts[nth];
}

describe('object-like and function-like macros', () => {
  it('expands object-like macros and rescans their replacement', () => {
    assert.equal(expand('#define N 16\n#define M (N * 2)\nint a[M];\n'), norm('int a[(16 * 2)];'));
  });

  it('expands function-like macros with nested parentheses and multi-line arguments', () => {
    const src = '#define MAX(a, b) ((a) > (b) ? (a) : (b))\nint m = MAX(f(1, 2),\n  (3, 4));\n';
    assert.equal(expand(src), norm('int m = ((f(1, 2)) > ((3, 4)) ? (f(1, 2)) : ((3, 4)));'));
  });

  it('does not expand a function-like macro name that is not followed by (', () => {
    assert.equal(expand('#define f(x) [x]\nint f; f = f(1) + f;\n'), norm('int f; f = [1] + f;'));
  });

  it('takes the ( from after the end of another expansion', () => {
    assert.equal(expand('#define f(x) <x>\n#define g f\n#define EMPTY\ng(1) g (2) f EMPTY (3)\n'), norm('<1> <2> f (3)'));
  });

  it('fully expands arguments before substitution, but not operands of # and ##', () => {
    const src = '#define ONE 1\n#define str(x) #x\n#define xstr(x) str(x)\n#define cat(a,b) a##b\n#define xcat(a,b) cat(a,b)\n' +
      'str(ONE) xstr(ONE) cat(ONE,2) xcat(ONE,2)\n';
    assert.equal(expand(src), norm('"ONE" "1" ONE2 12'));
  });

  it('handles zero-parameter macros and empty arguments', () => {
    assert.equal(expand('#define p() int\n#define id(x) [x]\np() id() id( )\n'), norm('int [] []'));
  });
});

describe('variadic macros', () => {
  it('substitutes __VA_ARGS__ with the commas', () => {
    assert.equal(expand('#define CALL(f, ...) f(__VA_ARGS__)\nCALL(g, 1, (2, 3), 4) CALL(h)\n'), norm('g(1, (2, 3), 4) h()'));
  });

  it('supports __VA_OPT__', () => {
    const src = '#define F(a, ...) f(a __VA_OPT__(,) __VA_ARGS__)\n#define E\nF(1) F(1, 2, 3) F(1, E)\n';
    assert.equal(expand(src), norm('f(1) f(1, 2, 3) f(1)'));
  });

  it('swallows the comma of `, ## __VA_ARGS__` only when the variable arguments are omitted', () => {
    const src = '#define LOG(fmt, ...) printf(fmt, ## __VA_ARGS__)\nLOG("a"); LOG("b", 1, 2); LOG("c",);\n';
    assert.equal(expand(src), norm('printf("a"); printf("b", 1, 2); printf("c",);'));
  });

  it('forwards variadic arguments through several layers (argument counting)', () => {
    const src =
      '#define N_(_1, _2, _3, _4, N, ...) N\n#define NARGS(...) N_(__VA_ARGS__, 4, 3, 2, 1, 0)\n' +
      'NARGS(a) NARGS(a, b) NARGS(a, b, c, d)\n';
    assert.equal(expand(src), norm('1 2 4'));
  });
});

describe('# and ##', () => {
  it('stringifies with escaped quotes and backslashes and normalised whitespace', () => {
    const r = pp('#define S(x) #x\nS(  a   "b\\"c\\\\"  \'\\n\'   +\n  d  ) S() S(/*c*/x/*c*/y)\n');
    assert.deepEqual(
      r.tokens.filter((t) => t.kind !== 'eof').map((t) => t.text),
      ['"a \\"b\\\\\\"c\\\\\\\\\\" \'\\\\n\' + d"', '""', '"x y"'],
    );
    assert.ok(r.tokens.slice(0, 3).every((t) => t.kind === 'string'));
  });

  it('pastes tokens, including numbers and operators', () => {
    assert.equal(expand('#define C(a, b) a ## b\nC(x, 1) C(1, e5) C(+, =) C(<<, =) C(-, >) C(0x, ff)\n'), norm('x1 1e5 += <<= -> 0xff'));
  });

  it('uses placemarkers for empty operands (C11 6.10.3.5 EXAMPLE 5)', () => {
    const src =
      '#define t(x,y,z) x ## y ## z\nint j[] = { t(1,2,3), t(,4,5), t(6,,7), t(8,9,),\n t(10,,), t(,11,), t(,,12), t(,,) };\n';
    assert.equal(expand(src), norm('int j[] = { 123, 45, 67, 89, 10, 11, 12, };'));
  });

  it('rescans a pasted identifier as a macro name', () => {
    assert.equal(expand('#define V_A 100\n#define V(x) V_ ## x\nV(A) V(B)\n'), norm('100 V_B'));
  });

  it('keeps both tokens and warns when a paste does not form a token', () => {
    const r = pp('#define P(a, b) a ## b\nx = P(., .);\n');
    assert.equal(spellings(r), norm('x = . . ;'));
    const d = one(r, 'invalid-paste');
    assert.equal(d.severity, 'warning');
    assert.equal(where(d.range), '/src/main.cu:1:4-1:11');
    assert.match(d.message, /pasting "\." and "\." does not give a valid preprocessing token \(in expansion of macro 'P'\)/);
  });
});

describe('rescanning and blue paint', () => {
  it('does not loop on self-referential macros', () => {
    const src = '#define foo foo\n#define f(x) f(x + 1)\n#define a b\n#define b a\nfoo f(2) a b\n';
    assert.equal(expand(src), norm('foo f(2 + 1) a b'));
  });

  it('does not loop on mutually recursive function-like macros', () => {
    assert.equal(expand('#define p(x) q(x)\n#define q(x) p(x)\np(1) q(2)\n'), norm('p(1) q(2)'));
  });

  it('paints a name read while collecting arguments whose macro is being expanded', () => {
    assert.equal(expand('#define id(x) x\n#define g id(g\ng)\n#define h(x) id(h x\nh(1))\n'), norm('g h 1'));
  });

  it('keeps a painted name unexpanded even when ( follows later', () => {
    assert.equal(expand('#define w(x) x\nw(w)(1)\n#define ff(a) a*gg\n#define gg(a) ff(a)\nff(2)(9)\n'), norm('w(1) 2*9*gg'));
  });

  it('reproduces C11 6.10.3.5 EXAMPLE 3', () => {
    const src = [
      '#define x 3',
      '#define f(a) f(x * (a))',
      '#undef x',
      '#define x 2',
      '#define g f',
      '#define z z[0]',
      '#define h g(~',
      '#define m(a) a(w)',
      '#define w 0,1',
      '#define t(a) a',
      '#define p() int',
      '#define q(x) x',
      '#define r(x,y) x ## y',
      '#define str(x) # x',
      'f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);',
      'g(x+(3,4)-w) | h 5) & m',
      '(f)^m(m);',
      'p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };',
      'char c[2][6] = { str(hello), str() };',
      '',
    ].join('\n');
    const expected =
      'f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);\n' +
      'f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);\n' +
      'int i[] = { 1, 23, 4, 5, };\n' +
      'char c[2][6] = { "hello", "" };';
    const r = pp(src);
    assert.equal(spellings(r), norm(expected));
    assert.deepEqual(r.diagnostics, []);
  });

  it('reproduces C11 6.10.3.5 EXAMPLE 4', () => {
    const src = [
      '#define str(s) # s',
      '#define xstr(s) str(s)',
      '#define debug(s, t) printf("x" # s "= %d, x" # t "= %s", \\',
      ' x ## s, x ## t)',
      '#define INCFILE(n) vers ## n',
      '#define glue(a, b) a ## b',
      '#define xglue(a, b) glue(a, b)',
      '#define HIGHLOW "hello"',
      '#define LOW LOW ", world"',
      'debug(1, 2);',
      'fputs(str(strncmp("abc\\0d", "abc", \'\\4\') // this goes away',
      ' == 0) str(: @\\n), s);',
      '#include xstr(INCFILE(2).h)',
      'glue(HIGH, LOW);',
      'xglue(HIGH, LOW)',
      '',
    ].join('\n');
    const r = pp(src, { files: { '/src/vers2.h': 'included_vers2\n' } });
    const expected =
      'printf("x" "1" "= %d, x" "2" "= %s", x1, x2);\n' +
      'fputs("strncmp(\\"abc\\\\0d\\", \\"abc\\", \'\\\\4\') == 0" ": @\\n", s);\n' +
      'included_vers2\n' +
      '"hello";\n' +
      '"hello" ", world"';
    assert.equal(spellings(r), norm(expected));
    assert.deepEqual(r.diagnostics, []);
    assert.deepEqual(r.includes.map((e) => e.to), ['/src/vers2.h']);
  });
});

describe('conditional inclusion', () => {
  const cases: [string, boolean][] = [
    ['1 + 2 * 3 == 7', true],
    ['(1 + 2) * 3 == 9', true],
    ['10 / 3 == 3 && 10 % 3 == 1 && -7 / 2 == -3 && -7 % 2 == -1', true],
    ['1 << 4 == 16 && 256 >> 4 == 16 && -16 >> 2 == -4', true],
    ['(0xF0 | 0x0F) == 0xFF && (0xF0 & 0x3C) == 0x30 && (0xF0 ^ 0xFF) == 0x0F', true],
    ['~0 == -1 && !0 && !!5 && -(-3) == 3 && +4 == 4', true],
    ['1 < 2 && 2 <= 2 && 3 > 2 && 3 >= 3 && 1 != 2', true],
    ['0 || 0', false],
    ['1 ? 0 : 1', false],
    ['0 ? 0 : 2 ? 3 : 0', true],
    ['(1, 0)', false],
    ['0xFFFFFFFFFFFFFFFF == -1', true],
    ['-1 > 0u', true],
    ['-1 > 0', false],
    ['(0u - 1) == 18446744073709551615u', true],
    ['(1 ? -1 : 0u) > 0', true],
    ['18446744073709551615u / 2 == 9223372036854775807', true],
    ['9223372036854775807 + 1 < 0', true],
    ["'a' == 97 && '\\n' == 10 && '\\x41' == 65 && '\\377' < 0 && 'ab' == 24930", true],
    ['defined X && defined(X) && !defined Y', true],
    ['UNKNOWN_IDENTIFIER == 0', true],
    ['true && !false', true],
    ['0 && 1 / 0', false],
    ['1 || 1 / 0', true],
    ['X == 5 && TWICE(X) == 10', true],
    ['2 bitand 3 and not 0', true],
  ];
  for (const [expr, value] of cases) {
    it(`#if ${expr} is ${value}`, () => {
      const r = pp(`#define X 5\n#define TWICE(a) ((a) * 2)\n#if ${expr}\nyes\n#else\nno\n#endif\n`);
      assert.deepEqual(r.diagnostics, []);
      assert.equal(spellings(r), value ? 'yes' : 'no');
    });
  }

  it('chooses the first true #elif and skips the rest', () => {
    const src = '#define V 3\n#if V == 1\none\n#elif V == 2\ntwo\n#elif V == 3\nthree\n#elif 1 / 0\nbad\n#else\nother\n#endif\n';
    const r = pp(src);
    assert.equal(spellings(r), 'three');
    assert.deepEqual(r.diagnostics, []);
  });

  it('#ifdef / #ifndef', () => {
    assert.equal(expand('#define A\n#ifdef A\na\n#endif\n#ifndef A\nna\n#endif\n#ifndef B\nnb\n#endif\n'), 'a nb');
  });

  it('reports nothing inside skipped groups but still tracks nesting', () => {
    const src = '#if 0\n#bogus directive\n@ \'unterminated\n#if 1/0\n#else\n#endif\n#error no\n#else\nlive\n#endif\n';
    const r = pp(src);
    assert.equal(spellings(r), 'live');
    assert.deepEqual(r.diagnostics, []);
  });

  it('records inactive ranges from the first to the last skipped token', () => {
    const r = pp('#if 0\nskipped one\nskipped two\n#else\nkept\n#endif\n#ifdef NOPE\n#endif\n');
    assert.deepEqual(r.inactiveRanges.map(where), ['/src/main.cu:1:0-2:11']);
    const r2 = pp('#if 1\nkept\n#elif 1\n  gone\n#endif\n');
    assert.deepEqual(r2.inactiveRanges.map(where), ['/src/main.cu:3:2-3:6']);
  });

  it('supports __has_include', () => {
    const src = '#if __has_include("x.h") && !__has_include("y.h") && __has_include(<stdio.h>) && !__has_include(<nope/z.h>)\nok\n#endif\n';
    assert.equal(expand(src, { files: { '/src/x.h': '' } }), 'ok');
  });
});

describe('#include', () => {
  it('searches "x" next to the includer, then -I in order; <x> in -I only', () => {
    const files = {
      '/src/a.h': 'src_a',
      '/i1/a.h': 'i1_a',
      '/i1/b.h': 'i1_b',
      '/i2/b.h': 'i2_b',
      '/i2/c.h': 'i2_c',
      '/src/d.h': 'src_d',
      '/src/sub/e.h': '#include "f.h"\n',
      '/src/sub/f.h': 'sub_f',
      '/src/f.h': 'src_f',
    };
    const r = pp('#include "a.h"\n#include <a.h>\n#include "b.h"\n#include <c.h>\n#include "sub/e.h"\n', {
      files,
      includePaths: ['/i1', '/i2'],
    });
    assert.equal(spellings(r), 'src_a i1_a i1_b i2_c sub_f');
    assert.deepEqual(r.files, ['/src/main.cu', '/src/a.h', '/i1/a.h', '/i1/b.h', '/i2/c.h', '/src/sub/e.h', '/src/sub/f.h']);
    assert.deepEqual(
      r.includes.map((e) => [e.from, e.to, e.system, e.builtin, where(e.range)]),
      [
        ['/src/main.cu', '/src/a.h', false, false, '/src/main.cu:0:9-0:14'],
        ['/src/main.cu', '/i1/a.h', true, false, '/src/main.cu:1:9-1:14'],
        ['/src/main.cu', '/i1/b.h', false, false, '/src/main.cu:2:9-2:14'],
        ['/src/main.cu', '/i2/c.h', true, false, '/src/main.cu:3:9-3:14'],
        ['/src/main.cu', '/src/sub/e.h', false, false, '/src/main.cu:4:9-4:18'],
        ['/src/sub/e.h', '/src/sub/f.h', false, false, '/src/sub/e.h:0:9-0:14'],
      ],
    );
  });

  it('gives tokens of an included file their own file and position', () => {
    const r = pp('#include "h.h"\nafter\n', { files: { '/src/h.h': '\n  in_header\n' } });
    assert.equal(where(tok(r, 'in_header').range), '/src/h.h:1:2-1:11');
    assert.equal(where(tok(r, 'after').range), '/src/main.cu:1:0-1:5');
  });

  it('reads a header name with // or odd characters from the raw text of <...>', () => {
    const r = pp('#include <dir//odd-name.h>\n', { files: { '/inc/dir/odd-name.h': 'odd' }, includePaths: ['/inc'] });
    assert.equal(spellings(r), 'odd');
  });

  it('supports computed includes', () => {
    const r = pp('#define H "h.h"\n#include H\n#define SYS <stdint.h>\n#include SYS\nUINT8_MAX\n', { files: { '/src/h.h': 'hh' } });
    assert.equal(spellings(r), norm('hh (255)'));
  });

  it('honours #pragma once', () => {
    const r = pp('#include "o.h"\n#include "o.h"\n#include "./o.h"\n', { files: { '/src/o.h': '#pragma once\nonce_body\n' } });
    assert.equal(spellings(r), 'once_body');
    assert.equal(r.includes.length, 3);
  });

  it('produces the tokens of a guarded header once, and reads it once', () => {
    let reads = 0;
    const files: Record<string, string> = { '/src/g.h': '// leading comment\n#ifndef G_H\n#define G_H\nguarded\n#endif // G_H\n' };
    const r = preprocess({
      fileName: MAIN,
      text: '#include "g.h"\n#include "g.h"\n#include "g.h"\nG_H\n',
      readFile: (p) => {
        reads++;
        return files[p];
      },
    });
    assert.equal(spellings(r), 'guarded');
    assert.equal(reads, 1);
    assert.deepEqual(r.diagnostics, []);
  });

  it('re-reads a header whose guard is #undef-ed in between', () => {
    const r = pp('#include "g.h"\n#undef G_H\n#include "g.h"\n', { files: { '/src/g.h': '#ifndef G_H\n#define G_H\nbody\n#endif\n' } });
    assert.equal(spellings(r), 'body body');
  });

  it('reports an include cycle at the #include that closes it, naming the chain', () => {
    const files = { '/src/a.h': 'a1\n#include "b.h"\na2\n', '/src/b.h': 'b1\n  #include "a.h"\nb2\n' };
    const r = pp('#include "a.h"\n', { files });
    assert.equal(spellings(r), 'a1 b1 b2 a2');
    const cycles = r.diagnostics.filter((x) => x.code === 'include-cycle');
    assert.equal(cycles.length, 2, JSON.stringify(cycles));
    const [d, inMain] = cycles;
    assert.equal(d.severity, 'error');
    assert.equal(d.message, '#include cycle: /src/a.h -> /src/b.h -> /src/a.h');
    assert.equal(where(d.range), '/src/b.h:1:11-1:16');
    // The main file shows it too, at its #include that leads into the cycle.
    assert.equal(inMain.severity, 'error');
    assert.match(inMain.message, /cycle: \/src\/a\.h -> \/src\/b\.h -> \/src\/a\.h/);
    assert.equal(where(inMain.range), '/src/main.cu:0:9-0:14');
  });

  it('does not report a cycle through guarded headers', () => {
    const files = {
      '/src/a.h': '#ifndef A\n#define A\n#include "b.h"\na\n#endif\n',
      '/src/b.h': '#ifndef B\n#define B\n#include "a.h"\nb\n#endif\n',
    };
    const r = pp('#include "a.h"\n', { files });
    assert.equal(spellings(r), 'b a');
    assert.deepEqual(r.diagnostics, []);
  });

  it('limits the include depth', () => {
    const files: Record<string, string> = {};
    for (let i = 1; i <= 5; i++) files[`/src/h${i}.h`] = `h${i}\n#include "h${i + 1}.h"\n`;
    const r = pp('#include "h1.h"\n', { files, maxIncludeDepth: 3 });
    assert.equal(spellings(r), 'h1 h2');
    const d = one(r, 'include-depth');
    assert.equal(d.message, '#include nested depth 3 exceeds maximum of 3');
    assert.equal(where(d.range), '/src/h2.h:1:9-1:15');
  });

  it('reports a missing "x" header as an error naming where it looked', () => {
    const r = pp('int a;\n#include "nope.h"\nint b;\n', { includePaths: ['/inc'] });
    assert.equal(spellings(r), norm('int a; int b;'));
    const d = one(r, 'include-not-found');
    assert.equal(d.severity, 'error');
    assert.equal(where(d.range), '/src/main.cu:1:9-1:17');
    assert.equal(d.message, "'nope.h' file not found (searched: /src/nope.h, /inc/nope.h)");
  });

  it('warns about an unknown system header and continues', () => {
    const r = pp('#include <thrust/device_vector.h>\nint x;\n');
    assert.equal(spellings(r), norm('int x;'));
    const d = one(r, 'unknown-system-header');
    assert.equal(d.severity, 'warning');
    assert.equal(d.message, 'not supported yet: system header <thrust/device_vector.h>; its declarations are unknown');
    assert.equal(where(d.range), '/src/main.cu:0:9-0:33');
  });
});

describe('built-in system headers', () => {
  it('define the standard macros', () => {
    const src =
      '#include <stdio.h>\n#include <cstdlib>\n#include <math.h>\n#include <climits>\n#include <stdint.h>\n#include <cfloat>\n#include <ctime>\n' +
      'EOF|RAND_MAX|EXIT_FAILURE|CHAR_BIT|INT_MAX|UINT_MAX|LLONG_MAX|INT32_MIN|UINT64_MAX|CLOCKS_PER_SEC|M_PI|INFINITY|NAN|FLT_MAX|DBL_EPSILON\n';
    const r = pp(src);
    assert.deepEqual(r.diagnostics, []);
    assert.equal(
      spellings(r),
      norm(
        '(-1)|2147483647|1|8|2147483647|4294967295U|9223372036854775807LL|(-2147483647-1)|(18446744073709551615UL)|1000000L|' +
          '3.14159265358979323846|(__builtin_inff())|(__builtin_nanf(""))|3.40282346638528859811704183484516925e+38F|' +
          '((double)2.22044604925031308084726333618164062e-16L)',
      ),
    );
  });

  it('are marked builtin, with <name> as the file of their definitions', () => {
    const r = pp('#include <limits.h>\n#include "cuda_runtime.h"\nINT_MAX\n');
    assert.deepEqual(
      r.includes.map((e) => [e.to, e.system, e.builtin]),
      [
        ['<limits.h>', true, true],
        ['<cuda_runtime.h>', false, true],
      ],
    );
    const m = r.macros.get('INT_MAX')!;
    assert.equal(m.builtin, true);
    assert.equal(m.range.file, '<limits.h>');
    const t = tok(r, '2147483647');
    assert.equal(t.expansion?.macro, 'INT_MAX');
    assert.equal(t.expansion?.definedAt.file, '<limits.h>');
    assert.equal(where(t.range), '/src/main.cu:2:0-2:7');
    assert.deepEqual(r.files, ['/src/main.cu']);
  });

  it('provide every header the analyser expects, C and C++ spellings', () => {
    for (const h of [
      'stdio.h', 'cstdio', 'stdlib.h', 'cstdlib', 'string.h', 'cstring', 'math.h', 'cmath', 'assert.h', 'cassert',
      'stdint.h', 'cstdint', 'stddef.h', 'cstddef', 'limits.h', 'climits', 'float.h', 'cfloat', 'stdbool.h', 'time.h',
      'ctime', 'ctype.h', 'cuda.h', 'cuda_runtime.h', 'cuda_runtime_api.h', 'device_launch_parameters.h',
      'device_functions.h', 'iostream', 'algorithm', 'utility', 'unistd.h', 'sys/time.h', 'chrono', 'vector', 'string',
    ]) {
      assert.ok(SYSTEM_HEADERS.has(h), h);
      const r = pp(`#include <${h}>\n`);
      assert.deepEqual(r.diagnostics, [], h);
    }
  });

  it('make assert a macro only under NDEBUG', () => {
    assert.equal(expand('#include <assert.h>\nassert(x > 0);\n'), norm('assert(x > 0);'));
    assert.equal(expand('#define NDEBUG\n#include <cassert>\nassert(x > 0);\n'), norm('((void)0);'));
  });
});

describe('#line, __LINE__, __FILE__ and other dynamic macros', () => {
  it('__LINE__ is the presumed line of the use; in a macro body, of the invocation', () => {
    const src = 'a __LINE__\n#define L __LINE__\n#define TWO(x, y) x y __LINE__\nL\nTWO(__LINE__,\n __LINE__)\n';
    assert.equal(expand(src), 'a 1 4 5 6 5');
  });

  it('#line changes __LINE__ and __FILE__ but not token ranges', () => {
    const r = pp('__FILE__\n#line 100\nx __LINE__\n#line 7 "other.cu"\n__FILE__ __LINE__\n');
    assert.equal(spellings(r), norm('"/src/main.cu" x 100 "other.cu" 7'));
    assert.equal(where(tok(r, '100').range), '/src/main.cu:2:2-2:10');
    assert.equal(where(tok(r, 'x').range), '/src/main.cu:2:0-2:1');
  });

  it('__FILE__ in a header names the header; __COUNTER__ counts; __DATE__/__TIME__ are fixed', () => {
    const r = pp('#include "h.h"\n__COUNTER__ __COUNTER__ __DATE__ __TIME__\n', { files: { '/src/h.h': '__FILE__\n' } });
    assert.equal(spellings(r), norm('"/src/h.h" 0 1 "Jan  1 2025" "00:00:00"'));
  });
});

describe('predefined macros, -D and -U', () => {
  it('predefines the CUDA and host macros', () => {
    assert.equal(
      expand('__CUDACC__ __NVCC__ __cplusplus __CUDACC_VER_MAJOR__ __CUDACC_VER_MINOR__ __linux__ __x86_64__ __LP64__\n'),
      norm('1 1 201703L 12 0 1 1 1'),
    );
  });

  it('applies -D in its three forms, then -U', () => {
    const r = pp('A B F(2) __CUDACC__ C\n', { defines: ['A', 'B=7 + 1', 'F(x)=x+1', 'C=1'], undefines: ['__CUDACC__', 'C'] });
    assert.equal(spellings(r), norm('1 7 + 1 2+1 __CUDACC__ C'));
    assert.equal(r.macros.get('B')?.builtin, false);
    assert.equal(r.macros.get('__NVCC__')?.builtin, true);
    assert.deepEqual(r.macros.get('F')?.params, ['x']);
  });

  it('defines __CUDA_ARCH__ only on the device side', () => {
    const src = '#ifdef __CUDA_ARCH__\ndevice __CUDA_ARCH__\n#else\nhost\n#endif\n';
    assert.equal(expand(src), 'host');
    assert.equal(expand(src, { deviceSide: true }), 'device 700');
    assert.equal(expand(src, { deviceSide: true, cudaArch: 860 }), 'device 860');
  });

  it('reports whether __CUDA_ARCH__ was used', () => {
    assert.equal(pp('int x;\n').usedCudaArch, false);
    assert.equal(pp('#if 0\n#ifdef __CUDA_ARCH__\n#endif\n#endif\n').usedCudaArch, false);
    assert.equal(pp('#ifdef __CUDA_ARCH__\n#endif\n').usedCudaArch, true);
    assert.equal(pp('#ifndef __CUDA_ARCH__\n#endif\n').usedCudaArch, true);
    assert.equal(pp('#if defined(__CUDA_ARCH__) && 1\n#endif\n').usedCudaArch, true);
    assert.equal(pp('#if __CUDA_ARCH__ >= 700\n#endif\n').usedCudaArch, true);
    assert.equal(pp('int a = __CUDA_ARCH__;\n', { deviceSide: true }).usedCudaArch, true);
    assert.equal(pp('#define ARCH __CUDA_ARCH__\n').usedCudaArch, false);
    assert.equal(pp('#define ARCH __CUDA_ARCH__\nARCH\n').usedCudaArch, true);
  });
});

describe('token locations through expansion', () => {
  const src = ['#define ADD(a, b) ((a) + (b))', '#define TWICE(x) ADD(x, x)', 'int v =  TWICE(k);', ''].join('\n');

  it('body tokens get the invocation range and an expansion record; arguments keep their own', () => {
    const r = pp(src);
    assert.equal(spellings(r), norm('int v = ((k) + (k));'));
    const plus = tok(r, '+');
    assert.equal(where(plus.range), '/src/main.cu:2:9-2:17');
    assert.equal(plus.expansion?.macro, 'ADD');
    assert.equal(where(plus.expansion!.definedAt), '/src/main.cu:0:23-0:24');
    assert.equal(plus.expansion?.parent?.macro, 'TWICE');
    assert.equal(where(plus.expansion!.parent!.definedAt), '/src/main.cu:1:17-1:20');
    assert.equal(plus.expansion?.parent?.parent, undefined);
    const k = tok(r, 'k', 1);
    assert.equal(where(k.range), '/src/main.cu:2:15-2:16');
    assert.equal(k.expansion, undefined);
  });

  it('the first token of an expansion takes the whitespace of the macro name', () => {
    const r = pp('#define E(x) x\nint  E(y) E(z);\n#define O zz\nO\n');
    assert.equal(tok(r, 'y').spaceBefore, true);
    assert.equal(tok(r, 'z').spaceBefore, true);
    assert.equal(tok(r, 'zz').lineStart, true);
    assert.equal(tokensToText(r.tokens), 'int y z;\nzz\n');
  });

  it('gives stringified and pasted tokens the invocation range', () => {
    const r = pp('#define S(x) #x\n#define P(a, b) a##b\n  S(hi) P(x, y)\n');
    const s = tok(r, '"hi"');
    assert.equal(where(s.range), '/src/main.cu:2:2-2:7');
    assert.equal(s.expansion?.macro, 'S');
    const p = tok(r, 'xy');
    assert.equal(where(p.range), '/src/main.cu:2:8-2:15');
    assert.equal(p.expansion?.macro, 'P');
    assert.equal(where(p.expansion!.definedAt), '/src/main.cu:1:17-1:19');
  });

  it('a macro used from a header body is located at the use in the main file', () => {
    const r = pp('#include "m.h"\nx = SQ(3);\n', { files: { '/src/m.h': '#define MUL(a, b) a * b\n#define SQ(v) MUL(v, v)\n' } });
    const star = tok(r, '*');
    assert.equal(where(star.range), '/src/main.cu:1:4-1:9');
    assert.equal(star.expansion?.definedAt.file, '/src/m.h');
    assert.equal(star.expansion?.parent?.macro, 'SQ');
  });
});

describe('diagnostics', () => {
  it('error-directive and warning-directive carry the text, from the directive name to the end of the line', () => {
    const r = pp('#error stop  here\n#warning careful now\n');
    const e = one(r, 'error-directive');
    assert.equal(e.severity, 'error');
    assert.equal(e.message, 'stop  here');
    assert.equal(where(e.range), '/src/main.cu:0:1-0:17');
    const w = one(r, 'warning-directive');
    assert.equal(w.severity, 'warning');
    assert.equal(w.message, 'careful now');
    assert.equal(where(w.range), '/src/main.cu:1:1-1:20');
  });

  it('unterminated-conditional at the name of the #if directive', () => {
    const r = pp('a\n  #ifdef X\nb\n');
    const d = one(r, 'unterminated-conditional');
    assert.equal(d.message, 'unterminated #ifdef');
    assert.equal(where(d.range), '/src/main.cu:1:3-1:8');
  });

  it('an #if in a header must end in that header', () => {
    const r = pp('#include "h.h"\n#endif\n', { files: { '/src/h.h': '#if 1\n' } });
    assert.equal(where(one(r, 'unterminated-conditional').range), '/src/h.h:0:1-0:3');
    assert.equal(where(one(r, 'unmatched-conditional').range), '/src/main.cu:1:1-1:6');
  });

  it('unmatched-conditional at the directive name', () => {
    const r = pp('#endif\n#else\n#elif 1\n#if 1\n#else\n#else\n#elif 1\n#endif\n');
    const ds = r.diagnostics.filter((d) => d.code === 'unmatched-conditional');
    assert.deepEqual(
      ds.map((d) => [d.message, where(d.range)]),
      [
        ['#endif without #if', '/src/main.cu:0:1-0:6'],
        ['#else without #if', '/src/main.cu:1:1-1:5'],
        ['#elif without #if', '/src/main.cu:2:1-2:5'],
        ['#else after #else', '/src/main.cu:5:1-5:5'],
        ['#elif after #else', '/src/main.cu:6:1-6:5'],
      ],
    );
  });

  it('macro-arity at the macro name, and the arguments are dropped as gcc does', () => {
    const r = pp('#define F(a, b) a b\n  F(1) F(1, 2, 3) F(4, 5)\n');
    assert.equal(spellings(r), 'F F 4 5');
    const ds = r.diagnostics.filter((d) => d.code === 'macro-arity');
    assert.deepEqual(
      ds.map((d) => [d.message, where(d.range)]),
      [
        ["macro 'F' requires 2 arguments, but only 1 given", '/src/main.cu:1:2-1:3'],
        ["macro 'F' passed 3 arguments, but takes just 2", '/src/main.cu:1:7-1:8'],
      ],
    );
    assert.equal(where(ds[0].related![0].range), '/src/main.cu:0:8-0:9');
  });

  it('macro-arity inside another macro says which expansion', () => {
    const r = pp('#define F(a, b) a b\n#define G F(1)\nG\n');
    const d = one(r, 'macro-arity');
    assert.equal(d.message, "macro 'F' requires 2 arguments, but only 1 given (in expansion of macro 'G')");
    assert.equal(where(d.range), '/src/main.cu:2:0-2:1');
  });

  it('unterminated-macro-call at end of file', () => {
    const r = pp('#define F(a) a\nx F(1,\n2\n');
    const d = one(r, 'unterminated-macro-call');
    assert.equal(where(d.range), '/src/main.cu:1:2-1:3');
    assert.equal(spellings(r), 'x F');
  });

  it('unknown-directive only in active groups', () => {
    const r = pp('#pragma whatever\n#ident "x"\n#\n#foo bar\n#if 0\n#bar\n#endif\n# 33 "marker.cu"\n');
    const d = one(r, 'unknown-directive');
    assert.equal(d.message, 'invalid preprocessing directive #foo');
    assert.equal(where(d.range), '/src/main.cu:3:1-3:4');
  });

  it('invalid-pp-expression', () => {
    const r = pp('#if 1 / (2 - 2)\n#endif\n#if\n#endif\n#if (1\n#endif\n#if 1 2\n#endif\n#if 1.5\n#endif\n#if defined(\n#endif\n');
    const ds = r.diagnostics.filter((d) => d.code === 'invalid-pp-expression');
    assert.deepEqual(
      ds.map((d) => [d.message, where(d.range)]),
      [
        ['division by zero in #if', '/src/main.cu:0:6-0:7'],
        ['#if with no expression', '/src/main.cu:2:1-2:3'],
        ["missing ')' in expression", '/src/main.cu:4:4-4:5'],
        ['missing binary operator before token "2"', '/src/main.cu:6:6-6:7'],
        ['floating constant in preprocessor expression', '/src/main.cu:8:4-8:7'],
        ['operator "defined" requires an identifier', '/src/main.cu:10:4-10:11'],
      ],
    );
  });

  it('macro-redefined warns with the previous definition; identical redefinition is silent', () => {
    const r = pp('#define A 1\n#define A  1 \n#define F(x) (x)\n#define F(x) ( x )\n#define F(x) ( x )\n');
    const d = one(r, 'macro-redefined');
    assert.equal(d.severity, 'warning');
    assert.equal(d.message, "'F' macro redefined");
    assert.equal(where(d.range), '/src/main.cu:3:8-3:9');
    assert.deepEqual(d.related?.map((x) => where(x.range)), ['/src/main.cu:2:8-2:9']);
    assert.equal(r.diagnostics.filter((x) => x.code === 'macro-redefined').length, 1);
  });

  it('macro-redefined for a second different redefinition too', () => {
    const r = pp('#define A 1\n#define A 2\n#define A 3\n');
    assert.deepEqual(
      r.diagnostics.map((d) => [d.code, where(d.range), where(d.related![0].range)]),
      [
        ['macro-redefined', '/src/main.cu:1:8-1:9', '/src/main.cu:0:8-0:9'],
        ['macro-redefined', '/src/main.cu:2:8-2:9', '/src/main.cu:1:8-1:9'],
      ],
    );
  });

  it('invalid-stringify at #define time; the macro is not defined', () => {
    const r = pp('#define S(x) # y\nS(1)\n');
    const d = one(r, 'invalid-stringify');
    assert.equal(d.severity, 'error');
    assert.equal(where(d.range), '/src/main.cu:0:13-0:14');
    assert.equal(r.macros.has('S'), false);
    assert.equal(spellings(r), norm('S(1)'));
  });

  it('invalid-macro-name and missing-macro-name', () => {
    const r = pp('#define 123 x\n#define defined 1\n#undef "s"\n#define\n#undef\n#ifdef\n#endif\n#define and 1\n');
    assert.deepEqual(
      r.diagnostics.map((d) => [d.code, d.message, where(d.range)]),
      [
        ['invalid-macro-name', 'macro names must be identifiers', '/src/main.cu:0:8-0:11'],
        ['invalid-macro-name', '"defined" cannot be used as a macro name', '/src/main.cu:1:8-1:15'],
        ['invalid-macro-name', 'macro names must be identifiers', '/src/main.cu:2:7-2:10'],
        ['missing-macro-name', 'no macro name given in #define directive', '/src/main.cu:3:1-3:7'],
        ['missing-macro-name', 'no macro name given in #undef directive', '/src/main.cu:4:1-4:6'],
        ['missing-macro-name', 'no macro name given in #ifdef directive', '/src/main.cu:5:1-5:6'],
        ['invalid-macro-name', '"and" cannot be used as a macro name', '/src/main.cu:7:8-7:11'],
      ],
    );
  });

  it('extra-tokens warnings', () => {
    const r = pp('#if 1\n#else junk\n#endif FOO bar\n#ifdef X Y\n#endif\n#undef X Y\n');
    assert.deepEqual(
      r.diagnostics.map((d) => [d.code, d.severity, d.message, where(d.range)]),
      [
        ['extra-tokens', 'warning', 'extra tokens at end of #else directive', '/src/main.cu:1:6-1:10'],
        ['extra-tokens', 'warning', 'extra tokens at end of #endif directive', '/src/main.cu:2:7-2:14'],
        ['extra-tokens', 'warning', 'extra tokens at end of #ifdef directive', '/src/main.cu:3:9-3:10'],
        ['extra-tokens', 'warning', 'extra tokens at end of #undef directive', '/src/main.cu:5:9-5:10'],
      ],
    );
  });

  it('lexer problems are reported only for tokens that reach the output', () => {
    const r = pp('#if 0\n@ \'x\n#endif\nint a = @;\n#define AT b @\nAT;\n/* never closed\n');
    assert.deepEqual(
      r.diagnostics.map((d) => [d.code, d.message, where(d.range)]),
      [
        ['unterminated-comment', 'unterminated /* comment', '/src/main.cu:6:0-6:2'],
        ['stray-character', "stray '@' in program", '/src/main.cu:3:8-3:9'],
        ['stray-character', "stray '@' in program (in expansion of macro 'AT')", '/src/main.cu:5:0-5:2'],
      ],
    );
  });

  it('an unterminated literal in active code is reported', () => {
    const r = pp('char c = \'x;\n');
    const d = one(r, 'unterminated-literal');
    assert.equal(where(d.range), '/src/main.cu:0:9-0:12');
  });
});

describe('other directives and operators', () => {
  it('ignores #pragma (except once), #ident, null directives and removes _Pragma', () => {
    const r = pp('#pragma unroll 4\n#pragma nv_diag_suppress 177\n#pragma GCC diagnostic push\n#ident "v1"\n#\na _Pragma("unroll") b\n#define LOOP _Pragma("unroll") for\nLOOP\n');
    assert.equal(spellings(r), 'a b for');
    assert.deepEqual(r.diagnostics, []);
  });

  it('#undef removes a macro; push_macro/pop_macro restore it', () => {
    const r = pp('#define X 1\nX\n#undef X\nX\n#define Y 1\n#pragma push_macro("Y")\n#undef Y\nY\n#pragma pop_macro("Y")\nY\n');
    assert.equal(spellings(r), '1 X Y 1');
  });

  it('exposes the final macro table', () => {
    const r = pp('#define OBJ 1 + 2\n#define FN(a, ...) a __VA_ARGS__\n#define GONE\n#undef GONE\n');
    const obj = r.macros.get('OBJ')!;
    assert.equal(obj.params, undefined);
    assert.equal(obj.variadic, false);
    assert.deepEqual(obj.body.map((t) => t.text), ['1', '+', '2']);
    assert.equal(where(obj.range), '/src/main.cu:0:8-0:11');
    assert.equal(obj.builtin, false);
    const fn = r.macros.get('FN')!;
    assert.deepEqual(fn.params, ['a', '__VA_ARGS__']);
    assert.equal(fn.variadic, true);
    assert.equal(r.macros.has('GONE'), false);
    assert.equal(r.macros.get('__LINE__')?.builtin, true);
  });

  it('ends the stream with exactly one eof token', () => {
    const r = pp('#include "h.h"\nx\n', { files: { '/src/h.h': 'y\n' } });
    assert.deepEqual(r.tokens.map((t) => t.kind), ['ident', 'ident', 'eof']);
    assert.equal(r.tokens[2].range.file, MAIN);
  });
});

describe('tokensToText', () => {
  it('prints like cpp -P: spaces where there was whitespace, newlines at line starts', () => {
    const r = pp('#define NEG(x) -x\nint  a = -NEG(1);\nb+\n+c;\n');
    assert.equal(tokensToText(r.tokens), 'int a = - -1;\nb+\n+c;\n');
  });
});

describe('pathological input', () => {
  it('handles 1,000 nested macro invocations', () => {
    const r = pp('#define f(x) (x+1)\n#define I(x) x\n' + 'f('.repeat(1000) + '0' + ')'.repeat(1000) + ' ' + 'I('.repeat(1000) + 'z' + ')'.repeat(1000) + '\n');
    assert.deepEqual(r.diagnostics, []);
    assert.equal(r.tokens.length, 4 * 1000 + 1 + 1 + 1);
    assert.equal(r.tokens[r.tokens.length - 2].text, 'z');
  });

  it('stops an exponential expansion at the output cap', () => {
    let src = '#define A0 x x\n';
    for (let i = 1; i <= 30; i++) src += `#define A${i} A${i - 1} A${i - 1}\n`;
    const r = pp(src + 'A30\n', { maxOutputTokens: 100_000 });
    const d = one(r, 'expansion-limit');
    assert.equal(d.severity, 'error');
    assert.equal(r.tokens.length, 100_001);
    assert.equal(r.tokens[r.tokens.length - 1].kind, 'eof');
  });

  it('handles huge argument lists and deeply nested #if parentheses', () => {
    const args = Array.from({ length: 20000 }, (_, i) => `a${i}`).join(',');
    const r = pp(`#define F(...) __VA_ARGS__\nF(${args})\n#if ${'('.repeat(5000)}1${')'.repeat(5000)}\n#endif\nend\n`);
    assert.equal(r.tokens.length, 20000 * 2 - 1 + 1 + 1);
    assert.deepEqual(codes(r), ['invalid-pp-expression']);
    assert.equal(r.tokens[r.tokens.length - 2].text, 'end');
  });

  it('never throws on malformed directives', () => {
    const junk = ['#define', '#define (', '#define F(', '#define F(a,', '#define F(a b)', '#define F(...', '#define F(a) ## a',
      '#define G(a) a ##', '#include', '#include <', '#include "', '#if', '#elif', '#line', '#line x', '#line 5 x', '#undef',
      '#ifdef 3', '#elifdef X', '_Pragma(', '_Pragma(1)', '#define V(...) __VA_OPT__(', '#if defined', '#if (', '#if 1 ?'];
    for (const line of junk) {
      const r = pp(`first\n${line}\n`);
      assert.equal(r.tokens[0].text, 'first', line);
      assert.ok(r.diagnostics.length > 0, `no diagnostic for ${line}`);
    }
    const all = pp('first\n' + junk.join('\n') + '\n');
    assert.equal(all.tokens[0].text, 'first');
    assert.ok(all.diagnostics.some((d) => d.code === 'unterminated-conditional'));
  });
});
