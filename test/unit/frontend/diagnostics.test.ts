// One case per kind of problem the front end reports, each with the exact place (1-based
// line:column, as an editor shows it) where the diagnostic must start. Stages: lexer,
// preprocessor, parser, semantic analysis.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDiagnostic } from '../../../sims/frontend/diagnostics';
import { at, parseVirtual } from '../../support/parseFile';

interface Case {
  code: string;
  /** `line:col` of the diagnostic, 1-based. */
  at: string;
  source: string;
  files?: Record<string, string>;
  severity?: 'error' | 'warning';
  /** A fragment the message must contain. */
  says?: string;
}

const K = '__global__ void k(int *p) {\n';

const cases: Record<string, Case> = {
  // ---- lexer
  'unterminated string': { code: 'unterminated-literal', at: '2:10', source: `${K}  printf("oops);\n}\n` },
  'stray character': { code: 'stray-character', at: '2:8', source: `${K}  p[0] @= 1;\n}\n` },
  'unterminated comment': { code: 'unterminated-comment', at: '3:3', source: `${K}  p[0] = 1;\n  /* never closed\n}\n` },
  // ---- preprocessor
  'missing include': { code: 'include-not-found', at: '1:10', source: '#include "nothere.cuh"\nint x;\n', says: 'nothere.cuh' },
  'include cycle': {
    code: 'include-cycle', at: '1:10', source: '#include "a.cuh"\nint x;\n',
    files: { 'a.cuh': '#include "b.cuh"\n', 'b.cuh': '#include "a.cuh"\n' },
  },
  '#error': { code: 'error-directive', at: '2:2', source: '#ifndef NBLOCKS\n#error NBLOCKS must be defined\n#endif\n', says: 'NBLOCKS must be defined' },
  'unterminated #if': { code: 'unterminated-conditional', at: '1:2', source: '#if 1\nint x;\n' },
  'stray #endif': { code: 'unmatched-conditional', at: '2:2', source: 'int x;\n#endif\n' },
  'macro argument count': { code: 'macro-arity', at: '2:9', source: '#define MAX(a, b) ((a) > (b) ? (a) : (b))\nint x = MAX(1);\n' },
  'unknown directive': { code: 'unknown-directive', at: '1:2', source: '#inclde <stdio.h>\nint x;\n' },
  'bad #if expression': { code: 'invalid-pp-expression', at: '1:7', source: '#if 1 +\n#endif\nint x;\n' },
  // ---- parser
  'missing semicolon': { code: 'expected-token', at: '2:11', source: `${K}  p[0] = 1\n  p[1] = 2;\n}\n`, says: "';'" },
  'missing closing brace': { code: 'expected-token', at: '2:11', source: `${K}  if (p) {\n`, says: "'}'" },
  'missing expression': { code: 'expected-expression', at: '2:10', source: `${K}  p[0] = ;\n}\n` },
  'junk at file scope': { code: 'expected-declaration', at: '1:1', source: ') int x;\n' },
  'bad launch configuration': { code: 'launch-config', at: '3:4', source: `__global__ void k() {}\nint main() {\n  k<<<1>>>();\n}\n` },
  'unsupported construct': { code: 'not-supported', at: '2:3', source: `${K}  goto done;\n}\n`, says: 'goto' },
  'invalid number': { code: 'invalid-number', at: '2:10', source: `${K}  p[0] = 12f;\n}\n` },
  // ---- semantics
  'undeclared identifier': { code: 'undeclared-identifier', at: '2:10', source: `${K}  p[0] = countr;\n}\n` },
  'unknown type': { code: 'unknown-type', at: '2:3', source: `${K}  flaot x = 1;\n}\n`, says: "did you mean 'float'" },
  'wrong argument count': { code: 'argument-count', at: '3:19', source: `__device__ int twice(int v) { return 2 * v; }\n${K}  p[0] = twice(1, 2);\n}\n` },
  'pointer/integer misuse': { code: 'type-mismatch', at: '2:12', source: `${K}  int *q = 5;\n}\n`, says: 'integer' },
  'assignment to const': { code: 'assign-to-const', at: '3:3', source: `${K}  const int n = 4;\n  n = 5;\n}\n` },
  'write to threadIdx': { code: 'assign-to-const', at: '2:3', source: `${K}  threadIdx.x = 0;\n}\n`, says: 'read-only' },
  'kernel called without launch': { code: 'global-call-without-launch', at: '4:3', source: `${K}}\n__device__ void f(int *p) {\n  k(p);\n}\n` },
  '__syncthreads in host code': { code: 'wrong-execution-space', at: '2:3', source: 'int main() {\n  __syncthreads();\n}\n', says: '__syncthreads' },
  'atomic without overload': { code: 'atomic-overload', at: '3:3', source: `${K}  short s = 0;\n  atomicAdd_block(&s, 1);\n}\n`, says: 'short *' },
  'launching a device function': { code: 'launch-non-kernel', at: '3:3', source: `__device__ void d() {}\nint main() {\n  d<<<1, 32>>>();\n}\n` },
  'redeclaration': { code: 'redeclaration', at: '3:7', source: `${K}  int i = 0;\n  int i = 1;\n}\n` },
  'no such member': { code: 'no-member', at: '2:25', source: `${K}  p[0] = (int)threadIdx.w;\n}\n` },
  'subscript of a scalar': { code: 'not-subscriptable', at: '3:3', source: `${K}  int v = 0;\n  v[0] = 1;\n}\n` },
  'break outside loop': { code: 'misplaced-jump', at: '2:3', source: `${K}  break;\n}\n` },
  'duplicate case': { code: 'duplicate-case', at: '2:39', source: `${K}  switch (p[0]) { case 1: break; case 1: break; }\n}\n` },
  'kernel returning a value': { code: 'kernel-return-type', at: '1:12', source: '__global__ int k() { return 0; }\n' },
  '__shared__ with initializer': { code: 'shared-initializer', at: '2:25', source: `${K}  __shared__ int tile = 0;\n}\n` },
  'variable-length array': { code: 'array-size', at: '2:23', source: `${K}  __shared__ int tile[p[0]];\n}\n` },
  'void pointer to typed pointer': { code: 'type-mismatch', at: '2:12', source: `${K}  int *q = malloc(4);\n}\n`, says: 'void *' },
  'template argument cannot be deduced': {
    code: 'template-arguments', at: '3:3', source: `template <typename T> __device__ T zero() { return 0; }\n${K}  zero();\n}\n`,
  },
  'return value from void function': { code: 'return-type', at: '2:10', source: `${K}  return 1;\n}\n` },
  'atomic on a volatile pointer': { code: 'atomic-overload', at: '3:3', source: `${K}  volatile int *v = p;\n  atomicAdd(v, 1);\n}\n`, says: "drop 'volatile'" },
  'dropping volatile': { code: 'type-mismatch', at: '3:12', source: `${K}  volatile int *v = p;\n  int *w = v;\n  w[0] = 1;\n}\n`, says: 'volatile' },
};

for (const [name, c] of Object.entries(cases)) {
  test(`${name} → ${c.code} at ${c.at}`, () => {
    const result = parseVirtual({ 'main.cu': c.source, ...(c.files ?? {}) });
    const found = result.diagnostics.filter((d) => d.code === c.code);
    const all = result.diagnostics.map(formatDiagnostic).join('\n');
    assert.ok(found.length > 0, `no ${c.code} diagnostic; got:\n${all}`);
    assert.ok(found.some((d) => at(d) === c.at), `${c.code} at ${found.map(at).join(', ')}, expected ${c.at}:\n${all}`);
    const d = found.find((x) => at(x) === c.at)!;
    assert.equal(d.severity, c.severity ?? 'error');
    if (c.says) assert.ok(d.message.includes(c.says), `message '${d.message}' should mention '${c.says}'`);
  });
}

test('the table covers at least 20 distinct kinds of problem', () => {
  assert.ok(new Set(Object.values(cases).map((c) => c.code)).size >= 20);
});

test('a diagnostic inside a macro expansion points at the use and names the macro', () => {
  const source = '#define STORE(ptr) ptr[0] = undefinedName\n__global__ void k(int *p) {\n  STORE(p);\n}\n';
  const result = parseVirtual({ 'main.cu': source });
  const d = result.diagnostics.find((x) => x.code === 'undeclared-identifier');
  assert.ok(d, result.diagnostics.map(formatDiagnostic).join('\n'));
  assert.equal(at(d), '3:3');
  assert.match(d.message, /STORE/);
});

test('problems in a header are reported in the header', () => {
  const result = parseVirtual({ 'main.cu': '#include "util.cuh"\nint main() { return 0; }\n', 'util.cuh': '\n__device__ int f() { return missing; }\n' });
  const d = result.diagnostics.find((x) => x.code === 'undeclared-identifier');
  assert.ok(d);
  assert.equal(d.range.file, '/virtual/util.cuh');
  assert.equal(at(d), '2:29');
});
