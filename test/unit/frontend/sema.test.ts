// Semantic analysis: what the tree learns (types, values, layouts, chosen overloads) and the
// nvcc rules it enforces, beyond the one-case-per-code table in diagnostics.test.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type * as A from '../../../sims/frontend/ast';
import { formatDiagnostic } from '../../../sims/frontend/diagnostics';
import { functionsOf } from '../../../sims/frontend/index';
import { sizeOf, structLayout, typeToString } from '../../../sims/frontend/types';
import { parseVirtual } from '../../support/parseFile';

function clean(source: string) {
  const r = parseVirtual({ 'main.cu': source });
  assert.deepEqual(r.diagnostics.map(formatDiagnostic), []);
  return r;
}

function codes(source: string, files: Record<string, string> = {}): string[] {
  return parseVirtual({ 'main.cu': source, ...files }).diagnostics.map((d) => `${d.severity}:${d.code}@${d.range.start.line + 1}:${d.range.start.character + 1}`);
}

function vars(unit: A.TranslationUnit): Map<string, A.VarDecl> {
  const out = new Map<string, A.VarDecl>();
  const visit = (x: unknown): void => {
    if (!x || typeof x !== 'object') return;
    if (Array.isArray(x)) return x.forEach(visit);
    const n = x as A.VarDecl;
    if (n.kind === 'VarDecl') out.set(n.name, n);
    for (const [k, v] of Object.entries(n)) if (k !== 'type' && k !== 'ref' && k !== 'resolvedType' && k !== 'instantiation' && k !== 'resolvedTarget') visit(v);
  };
  visit(unit.decls);
  return out;
}

describe('types and constants', () => {
  test('struct layout, vector sizes and constant array bounds', () => {
    const r = clean([
      'const int BS = 128;',
      'enum { LANES = 32 };',
      'struct S { char c; double d; int i; };',
      'union U { float f; unsigned long long bits; };',
      '__global__ void k() {',
      '  __shared__ float a[2 * BS + LANES];',
      '  __shared__ float4 b[sizeof(struct S) / 8];',
      '  __shared__ int c[sizeof(union U) == 8 ? 3 : 5];',
      '  a[0] = b[0].x + c[0];',
      '}',
    ].join('\n'));
    const v = vars(r.ast);
    assert.equal(typeToString(v.get('a')!.resolvedType!), 'float[288]');
    assert.equal(typeToString(v.get('b')!.resolvedType!), 'float4[3]');
    assert.equal(typeToString(v.get('c')!.resolvedType!), 'int[3]');
    const s = functionsOf(r.ast).length; // the tree holds one function
    assert.equal(s, 1);
    const structS = r.ast.decls.find((d): d is A.StructDecl => d.kind === 'StructDecl' && d.name === 'S')!;
    assert.deepEqual(structLayout(structS)?.fields.map((f) => [f.name, f.offset]), [['c', 0], ['d', 8], ['i', 16]]);
    assert.equal(structLayout(structS)?.size, 24);
    assert.equal(sizeOf(v.get('b')!.resolvedType!), 48);
  });

  test('identifiers resolve to their declarations', () => {
    const r = clean('__device__ int flag;\n__global__ void k(int *p) { int flag2 = flag; p[0] = flag2; }\n');
    const k = functionsOf(r.ast)[0];
    const decl = (k.body!.body[0] as A.DeclStmt).decls[0] as A.VarDecl;
    const init = decl.init as A.IdentifierExpr;
    assert.equal(init.ref?.kind, 'var');
    assert.equal((init.ref as { decl: A.VarDecl }).decl.name, 'flag');
  });

  test('overloads pick the best match, atomics by pointee type', () => {
    const r = clean([
      '__device__ float f(float x) { return x; }',
      '__device__ int f(int x) { return x; }',
      '__global__ void k(unsigned long long *u, float *g) {',
      '  atomicAdd(u, 1ull); atomicAdd(g, 1.0f); atomicCAS_block((int *)g, 0, 1);',
      '  g[0] = f(2) + f(2.0f);',
      '}',
    ].join('\n'));
    const calls: A.CallExpr[] = [];
    const visit = (x: unknown): void => {
      if (!x || typeof x !== 'object') return;
      if (Array.isArray(x)) return x.forEach(visit);
      const n = x as A.CallExpr;
      if (n.kind === 'Call') calls.push(n);
      for (const [k, v] of Object.entries(n)) if (k !== 'type' && k !== 'ref' && k !== 'resolvedTarget') visit(v);
    };
    visit(functionsOf(r.ast).find((f) => f.name === 'k')!.body);
    const picked = calls.map((c) => {
      const ref = (c.callee as A.IdentifierExpr).ref as { decl: A.FunctionDecl };
      return `${ref.decl.name}(${ref.decl.params.map((p) => typeToString(p.resolvedType!)).join(', ')})`;
    });
    assert.deepEqual(picked, [
      'atomicAdd(unsigned long long *, unsigned long long)',
      'atomicAdd(float *, float)',
      'atomicCAS_block(int *, int, int)',
      'f(int)',
      'f(float)',
    ]);
  });
});

describe('execution spaces', () => {
  test('host code may not touch device-only things, device code may not call host functions', () => {
    assert.deepEqual(codes([
      '__device__ int dev() { return 1; }',
      'int host() { return 2; }',
      '__global__ void k(int *p) { p[0] = host() + dev(); }',
      'int main() { int t = threadIdx.x; return dev() + t; }',
    ].join('\n')), [
      'error:wrong-execution-space@3:36',
      'error:wrong-execution-space@4:22',
      'error:wrong-execution-space@4:42',
    ]);
  });

  test('__CUDA_ARCH__ splits the file into host and device passes', () => {
    const source = [
      '__host__ __device__ float inv(float x) {',
      '#ifdef __CUDA_ARCH__',
      '  return rsqrtf(x);',
      '#else',
      '  return 1.0f / x;',
      '#endif',
      '}',
      '__global__ void k(float *p) { p[0] = inv(p[0]); }',
      'int main() { return (int)inv(4.0f); }',
    ].join('\n');
    const r = parseVirtual({ 'main.cu': source });
    assert.deepEqual(r.diagnostics.map(formatDiagnostic), []);
    assert.equal(r.splitByArch, true);
    assert.notEqual(r.ast, r.deviceAst);
    const ret = (u: A.TranslationUnit) => ((functionsOf(u)[0].body!.body[0] as A.ReturnStmt).value!.kind);
    assert.equal(ret(r.deviceAst), 'Call');
    assert.equal(ret(r.ast), 'Binary');
  });

  test('without __CUDA_ARCH__ a __host__ __device__ function calling a device-only one is warned about', () => {
    assert.deepEqual(codes('__host__ __device__ void f() { __syncthreads(); }\n'), ['warning:wrong-execution-space@1:32']);
  });

  test('__device__ variables read on the host are flagged; symbol copies are fine', () => {
    assert.deepEqual(codes([
      '__device__ int flag;',
      'int main() {',
      '  int h = 1;',
      '  cudaMemcpyToSymbol(flag, &h, sizeof(int));',
      '  return flag;',
      '}',
    ].join('\n')), ['warning:device-variable-in-host@5:10']);
  });

  test('the runtime API is typed: cudaMalloc takes the address of any pointer', () => {
    clean([
      '#include <cuda_runtime.h>',
      'struct Item { int v; };',
      'int main() {',
      '  struct Item *items; float *f; unsigned long long *u;',
      '  cudaMalloc(&items, 4 * sizeof(struct Item));',
      '  cudaMallocManaged(&f, 16);',
      '  cudaMalloc((void **)&u, 8);',
      '  cudaMemcpy(f, items, 16, cudaMemcpyDeviceToHost);',
      '  cudaError_t e = cudaGetLastError();',
      '  if (e != cudaSuccess) { fprintf(stderr, "%s\\n", cudaGetErrorString(e)); exit(1); }',
      '  cudaFree(items);',
      '  return 0;',
      '}',
    ].join('\n'));
    assert.deepEqual(codes('int main() { int x; cudaMalloc(x, 4); return 0; }\n'), ['error:type-mismatch@1:32']);
  });
});

describe('templates', () => {
  test('conflicting deductions are reported at the argument', () => {
    assert.deepEqual(codes('template <typename T> __device__ T mx(T a, T b) { return a > b ? a : b; }\n__global__ void k(float *p) { p[0] = mx(1, 2.0f); }\n'), ['error:template-arguments@2:44']);
  });

  test('too many template arguments', () => {
    assert.deepEqual(codes('template <int N> __global__ void k() {}\nint main() { k<1, 2><<<1, 1>>>(); }\n'), ['error:template-arguments@2:19']);
  });

  test('template bodies are checked generically without false alarms', () => {
    clean([
      'template <typename T, int N>',
      '__device__ T sumN(const T *v) { T s = 0; for (int i = 0; i < N; ++i) s += v[i] * (T)2; return s; }',
      'template <typename T> __global__ void scale(T *v, T f) { v[threadIdx.x] = sumN<T, 4>(v) * f; }',
      'int main() { float *d; cudaMalloc(&d, 64); scale<<<1, 4>>>(d, 2.0f); scale<float><<<1, 4>>>(d, 3.0f); return 0; }',
    ].join('\n'));
  });
});

test('names that are also JavaScript object properties are ordinary names', () => {
  const names = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];
  clean(names.map((n, i) => `__device__ int ${n} = ${i};`).join('\n') + `\n__global__ void k(int *p) { p[0] = ${names.join(' + ')}; }\n`);
  const r = parseVirtual({ 'main.cu': 'int main() { toString x; constructor(1); return 0; }\n' });
  assert.deepEqual(r.diagnostics.map((d) => d.code), ['unknown-type', 'undeclared-identifier']);
});

describe('printf formats', () => {
  test('arguments are checked against the conversions', () => {
    assert.deepEqual(codes([
      '#include <stdio.h>',
      '__global__ void k(float *p, size_t n, const char *name) {',
      '  printf("%d %f %s %lu\\n", threadIdx.x, p[0], name, n);',
      '  printf("%d\\n", p[0]);',
      '  printf("%f %s\\n", 1, 2);',
      '  printf("%d %d\\n", 1);',
      '  printf("%d\\n", 1, 2);',
      '  printf("%d\\n", n);',
      '  printf("%*.*f|%5s|%p|%c|%%\\n", 8, 3, 1.0, name, p, 65);',
      '}',
    ].join('\n')), [
      'warning:format-mismatch@4:18',
      'warning:format-mismatch@5:21',
      'warning:format-mismatch@5:24',
      'warning:format-mismatch@6:10',
      'warning:format-mismatch@7:21',
      'warning:format-mismatch@8:18',
    ]);
  });
});

describe('template instantiations', () => {
  test('each instantiation is checked with its arguments, and says which one failed', () => {
    const source = [
      'template <typename T> __global__ void count(T *p) { atomicAdd_block(p, 1); }',
      'template <int N> __global__ void fill(float *p) { __shared__ float s[N]; s[threadIdx.x] = p[0]; p[0] = s[0]; }',
      'int main() {',
      '  short *s = 0; int *i = 0;',
      '  count<<<1, 32>>>(i);',
      '  count<<<1, 32>>>(s);',
      '  fill<64><<<1, 64>>>(0);',
      '  fill<0><<<1, 64>>>(0);',
      '  return 0;',
      '}',
    ].join('\n');
    const r = parseVirtual({ 'main.cu': source });
    assert.deepEqual(r.diagnostics.map((d) => `${d.code}@${d.range.start.line + 1}:${d.range.start.character + 1}`), ['atomic-overload@1:53', 'array-size@2:70']);
    assert.match(r.diagnostics[0].message, /in instantiation of 'count<short>'/);
    assert.match(r.diagnostics[1].message, /in instantiation of 'fill<0>'/);
  });

  test('instantiations reached through other templates are checked too, and the tree keeps its generic types', () => {
    const source = [
      'template <typename T> __device__ void bump(T *p) { atomicInc(p, 10u); }',
      'template <typename T> __global__ void k(T *p) { bump(p); }',
      'int main() { int *i = 0; unsigned int *u = 0; k<<<1, 1>>>(u); k<<<1, 1>>>(i); return 0; }',
    ].join('\n');
    const r = parseVirtual({ 'main.cu': source });
    assert.deepEqual(r.diagnostics.map((d) => `${d.code}@${d.range.start.line + 1}:${d.range.start.character + 1}`), ['atomic-overload@1:52']);
    assert.match(r.diagnostics[0].message, /in instantiation of 'bump<int>'/);
    const bump = functionsOf(r.ast).find((f) => f.name === 'bump')!;
    const call = (bump.body!.body[0] as A.ExprStmt).expr as A.CallExpr;
    assert.equal(call.args[0].type?.kind, 'pointer');
    assert.equal((call.args[0].type as { to: { kind: string } }).to.kind, 'typeParam', 'the generic tree is not overwritten');
  });
});
