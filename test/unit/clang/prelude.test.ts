// The standard prelude's rules (sims/clang/toolchain/prelude.ts) without running clang: which
// names a file's text holds, which macros a unit defines, and when they leave the prelude as
// the unit would have seen it. The compiles themselves are in test/slow/clang-prelude.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { identifierTokens } from '../../../sims/clang/toolchain/identifiers';
import { directiveMacroNames, flagMacroNames, inPrelude, macrosLeavePrelude, preludeIdentifiers, preludeText } from '../../../sims/clang/toolchain/prelude';
import { mountProjectHeaders, PROJECT_HEADERS, realizeText, toReal, toVirtual } from '../../../sims/clang/toolchain/paths';
import { sysrootText } from '../../../sims/clang/toolchain/sysroot';

const ids = (text: string): string[] => [...identifierTokens(text, new Set())].sort();

test('identifiers leave out comments, string and character literals with their prefixes, and numbers', () => {
  assert.deepEqual(ids('int N; // M\n/* K */ char c = \'X\'; const char *s = "T U"; auto w = L"V"; auto r = u8\'Y\'; double d = 1e-5f + 0x1p3;'), ['c', 'char', 'const', 'd', 'double', 'int', 'N', 'r', 's', 'auto', 'w'].sort());
  // A line comment continued by a backslash hides the next line too; an escaped quote stays inside its string.
  assert.deepEqual(ids('a // b \\\nc\nd "e\\"f" g'), ['a', 'd', 'g']);
  assert.deepEqual(ids('#if defined(FOO) && BAR > 2\n#endif'), ['BAR', 'defined', 'endif', 'FOO', 'if'].sort());
});

test('a unit names its macros by -D and -U flags and by #define and #undef in its files', () => {
  assert.deepEqual(flagMacroNames(['RACEY', 'N=4', 'F(x)=x', ' SPACED = 1'], ['OLD']), ['RACEY', 'N', 'F', 'SPACED', 'OLD']);
  assert.deepEqual(directiveMacroNames('#define A 1\n  #  define B(x) x\n#undef C\n#ifdef D\n// #define E\nint F;\n#define\tG\n'), ['A', 'B', 'C', 'G']);
});

test('macros leave the prelude alone unless one is reserved or one of its files names it', () => {
  const prelude = preludeIdentifiers(['#ifndef BUFSIZ\n#define BUFSIZ 1024\n#endif\nint __hidden; size_t _Size;\n']);
  assert.ok(prelude.has('BUFSIZ') && prelude.has('size_t'));
  assert.ok(!prelude.has('__hidden') && !prelude.has('_Size'), 'reserved names are never compared: every one rules the prelude out');
  assert.equal(macrosLeavePrelude(['RACEY', 'NBLOCKS', 'N'], prelude), true);
  assert.equal(macrosLeavePrelude(['RACEY', 'BUFSIZ'], prelude), false);
  assert.equal(macrosLeavePrelude(['_USE_MATH_DEFINES'], prelude), false);
  assert.equal(macrosLeavePrelude(['__STRICT_ANSI__'], prelude), false);
});

test('the prelude starts with cuda_runtime.h and holds the headers a unit may lead with', () => {
  const text = preludeText();
  assert.match(text, /^#include <cuda_runtime\.h>\n/);
  for (const h of ['iostream', 'vector', 'cstdio', 'stdio.h', 'algorithm']) assert.ok(text.includes(`#include <${h}>\n`), h);
  assert.equal(inPrelude(['cstdlib', 'iostream', 'vector']), true);
  assert.equal(inPrelude(['cuda_runtime.h', 'string']), true);
  assert.equal(inPrelude(['iostream', 'thread']), false, 'a header outside the prelude: the unit keeps its own precompiled header');
});

test('the project headers are mounted at one fixed folder, and read back as the real files', () => {
  const real = '/opt/ext/scord-1.2/dist/include';
  mountProjectHeaders(real);
  assert.equal(toVirtual(`${real}/cuda_runtime.h`), `${PROJECT_HEADERS}/cuda_runtime.h`);
  assert.equal(toReal(`${PROJECT_HEADERS}/crt/host_defines.h`), `${real}/crt/host_defines.h`);
  assert.equal(realizeText(`In file included from ${PROJECT_HEADERS}/cuda_runtime.h:3:`), `In file included from ${real}/cuda_runtime.h:3:`);
  assert.equal(toVirtual('/opt/ext/scord-1.2/dist/includes/x.h'), '/opt/ext/scord-1.2/dist/includes/x.h', 'a folder that only starts the same is not the headers');
  mountProjectHeaders('C:\\ext\\dist\\include');
  assert.equal(toVirtual('C:\\ext\\dist\\include\\vector_types.h'), `${PROJECT_HEADERS}/vector_types.h`);
  assert.equal(toReal(`${PROJECT_HEADERS}/crt/x.h`), 'C:\\ext\\dist\\include\\crt\\x.h');
});

test("the toolchain's own headers are read from its archive by the path clang sees", () => {
  const vector = sysrootText('/usr/include/c++/v1/vector');
  assert.ok(vector?.includes('#ifndef _LIBCPP_VECTOR'), 'libc++ <vector>');
  assert.ok(sysrootText('/usr/include/wasm32-wasip1/stdio.h')?.includes('BUFSIZ'));
  assert.equal(sysrootText('/usr/include/no-such-header.h'), undefined);
});
