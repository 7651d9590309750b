// The tree the parser builds: shapes of the CUDA subset, and the exact ranges later stages
// edit (callee names, qualifiers, statements, launch configurations).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type * as A from '../../../sims/frontend/ast';
import { formatDiagnostic } from '../../../sims/frontend/diagnostics';
import { functionsOf } from '../../../sims/frontend/index';
import { parseVirtual } from '../../support/parseFile';

function parseClean(source: string, files: Record<string, string> = {}) {
  const r = parseVirtual({ 'main.cu': source, ...files });
  assert.deepEqual(r.diagnostics.map(formatDiagnostic), []);
  return r;
}

function fn(unit: A.TranslationUnit, name: string): A.FunctionDecl {
  const f = functionsOf(unit).find((x) => x.name === name && x.body);
  assert.ok(f, `function ${name}`);
  return f;
}

/** All nodes of a kind under `root`, in source order. */
function find<K extends string>(root: unknown, kind: K): Extract<A.Expr | A.Stmt | A.Decl, { kind: K }>[] {
  const out: unknown[] = [];
  const seen = new Set<unknown>();
  const visit = (x: unknown): void => {
    if (!x || typeof x !== 'object' || seen.has(x)) return;
    seen.add(x);
    if (Array.isArray(x)) return x.forEach(visit);
    const n = x as { kind?: string };
    if (n.kind === kind) out.push(n);
    for (const [k, v] of Object.entries(n)) if (k !== 'type' && k !== 'ref' && k !== 'instantiation' && k !== 'resolvedType' && k !== 'resolvedTarget') visit(v);
  };
  visit(root);
  return out as Extract<A.Expr | A.Stmt | A.Decl, { kind: K }>[];
}

/** The source text a range covers. */
function text(source: string, r: { start: { offset: number }; end: { offset: number } }): string {
  return source.slice(r.start.offset, r.end.offset);
}

describe('ranges that code actions edit', () => {
  const source = [
    '__device__ unsigned int counter;',
    '__global__ void kmain(volatile unsigned int *data, int *flag) {',
    '  atomicAdd_block(&counter, 1);',
    '  data[3] = 7;',
    '  __threadfence_block();',
    '  *flag = 1;',
    '}',
    '',
  ].join('\n');
  const r = parseClean(source);
  const k = fn(r.ast, 'kmain');

  test('the callee name of an atomic call', () => {
    const call = find(k, 'Call')[0];
    assert.equal(call.callee.kind, 'Identifier');
    assert.equal(text(source, call.callee.range), 'atomicAdd_block');
    assert.equal(text(source, call.range), 'atomicAdd_block(&counter, 1)');
    assert.equal(text(source, call.argsRange), '(&counter, 1)');
  });

  test('a fence statement, including its semicolon', () => {
    const stmt = k.body!.body[2];
    assert.equal(stmt.kind, 'ExprStmt');
    assert.equal(text(source, stmt.range), '__threadfence_block();');
    assert.deepEqual([stmt.range.end.line, stmt.range.end.character], [4, 24]);
  });

  test('the qualifiers of a pointer parameter', () => {
    const p = k.params[0];
    assert.equal(p.name, 'data');
    assert.equal(p.type.kind, 'PointerType');
    const pointee = (p.type as A.PointerTypeNode).to as A.NamedTypeNode;
    assert.equal(pointee.name, 'unsigned int');
    assert.deepEqual(pointee.qualifiers.map((q) => text(source, q.range)), ['volatile']);
    assert.equal(text(source, p.nameRange!), 'data');
    assert.equal(text(source, p.range), 'volatile unsigned int *data');
  });

  test('a subscript lvalue', () => {
    const idx = find(k, 'Index')[0];
    assert.equal(text(source, idx.range), 'data[3]');
  });
});

describe('declarations', () => {
  test('CUDA storage, dynamic shared memory, globals with initialisers', () => {
    const source = [
      '__constant__ float coeffs[4] = {1.0f, 2.0f, 3.0f, 4.0f};',
      '__managed__ int total = 0;',
      '__device__ int flag;',
      '__global__ void k(float *out) {',
      '  __shared__ float tile[16][17];',
      '  extern __shared__ float dyn[];',
      '  tile[threadIdx.y][threadIdx.x] = dyn[threadIdx.x] * coeffs[0];',
      '  out[0] = tile[0][0] + total + flag;',
      '}',
    ].join('\n');
    const r = parseClean(source);
    const vars = find(r.ast, 'VarDecl');
    const byName = new Map(vars.map((v) => [v.name, v]));
    assert.deepEqual(byName.get('coeffs')!.specifiers.map((s) => s.text), ['__constant__']);
    assert.equal(byName.get('coeffs')!.resolvedType?.kind, 'array');
    const tile = byName.get('tile')!.resolvedType!;
    assert.ok(tile.kind === 'array' && tile.size === 16 && tile.of.kind === 'array' && tile.of.size === 17);
    const dyn = byName.get('dyn')!;
    assert.deepEqual(dyn.specifiers.map((s) => s.text), ['extern', '__shared__']);
    assert.ok(dyn.resolvedType?.kind === 'array' && dyn.resolvedType.size === undefined);
    assert.equal(byName.get('total')!.global, true);
  });

  test('structs, unions, enums, typedefs and using aliases', () => {
    const r = parseClean([
      'enum Kind { KA, KB = 5, KC };',
      'typedef struct Node { int key; struct Node *next; union { float f; unsigned int bits; } u; } Node;',
      'using NodePtr = Node *;',
      'struct Queue { unsigned int head, tail; int items[KC]; };',
      '__device__ int use(NodePtr n, struct Queue *q) { return n->key + n->u.bits + q->items[KB] + sizeof(Node); }',
    ].join('\n'));
    const en = find(r.ast, 'EnumDecl')[0];
    assert.deepEqual(en.enumerators.map((e) => [e.name, e.constValue]), [['KA', 0], ['KB', 5], ['KC', 6]]);
    const q = find(r.ast, 'StructDecl').find((s) => s.name === 'Queue')!;
    assert.deepEqual(q.fields!.map((f) => f.name), ['head', 'tail', 'items']);
    const items = q.fields![2].resolvedType!;
    assert.ok(items.kind === 'array' && items.size === 6);
  });

  test('function specifiers and execution spaces', () => {
    const r = parseClean([
      'static __device__ __forceinline__ int a() { return 1; }',
      '__host__ __device__ int b() { return 2; }',
      '__noinline__ __device__ int c() { return 3; }',
      'extern "C" { int d(void) { return 4; } }',
      'extern "C" int e(void) { return 5; }',
      'static inline int f() { return 6; }',
      '__global__ void __launch_bounds__(256, 2) g(int *p) { p[0] = a() + b() + c(); }',
    ].join('\n'));
    const spaces = Object.fromEntries(functionsOf(r.ast).map((f) => [f.name, f.space]));
    assert.deepEqual(spaces, { a: 'device', b: 'host device', c: 'device', d: 'host', e: 'host', f: 'host', g: 'global' });
    assert.equal(functionsOf(r.ast).find((f) => f.name === 'd')!.externC, true);
    const g = fn(r.ast, 'g');
    const lb = g.specifiers.find((s) => s.text === '__launch_bounds__')!;
    assert.equal(lb.args?.length, 2);
  });
});

describe('templates and launches', () => {
  const source = [
    'template <unsigned int blockSize, bool nIsPow2>',
    '__global__ void reduce(const int *in, int *out, unsigned int n) {',
    '  __shared__ int sdata[blockSize];',
    '  if (nIsPow2 && blockSize >= 64) sdata[threadIdx.x] = in[threadIdx.x % n];',
    '  out[0] = sdata[0];',
    '}',
    'template <typename T> __host__ __device__ T maxOf(T a, T b) { return a > b ? a : b; }',
    'int main() {',
    '  int *in, *out;',
    '  dim3 grid(4, 2), block(256);',
    '  reduce<256, true><<<grid, block, 256 * sizeof(int)>>>(in, out, 1024u);',
    '  float m = maxOf(1.5f, 2.5f);',
    '  return maxOf<int>(1, 2) + (int)m;',
    '}',
  ].join('\n');
  const r = parseClean(source);

  test('explicit template arguments on a launch are recorded as an instantiation', () => {
    const launch = find(r.ast, 'Launch')[0];
    assert.equal(launch.config.length, 3);
    assert.equal(text(source, launch.configRange), '<<<grid, block, 256 * sizeof(int)>>>');
    const id = launch.kernel as A.IdentifierExpr;
    assert.equal(id.name, 'reduce');
    assert.equal(id.templateArgs?.length, 2);
    assert.deepEqual(launch.instantiation?.args, [{ kind: 'value', value: 256 }, { kind: 'value', value: 1 }]);
    assert.equal(launch.instantiation?.deduced, false);
  });

  test('template arguments are deduced from call arguments', () => {
    const calls = find(r.ast, 'Call').filter((c) => c.callee.kind === 'Identifier' && c.callee.name === 'maxOf');
    assert.equal(calls.length, 2);
    const [deduced, explicit] = calls;
    assert.equal(deduced.instantiation?.deduced, true);
    assert.deepEqual(deduced.instantiation?.args.map((a) => (a.kind === 'type' ? a.type.kind + (a.type.kind === 'float' ? a.type.bits : '') : a.value)), ['float32']);
    assert.equal(deduced.type?.kind, 'float');
    assert.equal(explicit.instantiation?.deduced, false);
    assert.equal(explicit.type?.kind, 'int');
  });

  test('direct initialisation of dim3', () => {
    const grid = find(r.ast, 'VarDecl').find((v) => v.name === 'grid')!;
    assert.equal(grid.initStyle, 'direct');
    assert.equal(grid.resolvedType?.kind, 'vector');
  });
});

describe('expressions and statements', () => {
  test('every C operator, cast style and statement form reads cleanly', () => {
    const source = [
      'struct P { int x, y; };',
      '__device__ int g(int a, int *b, float c, struct P *p, int **pp) {',
      '  int r = (a, a + 1), s = a ? a : -a, t = ~a ^ (a << 2) >> 1 | a & 3;',
      '  r += s; r -= t; r *= 2; r /= 3; r %= 5; r <<= 1; r >>= 1; r &= 7; r |= 8; r ^= 9;',
      '  unsigned u = static_cast<unsigned>(c) + (unsigned)reinterpret_cast<unsigned long long>(b);',
      '  const int *cb = const_cast<const int *>(b);',
      '  float arr[3] = {1.0f, 2.0f};',
      '  struct P q = {.x = 1, .y = 2};',
      '  int2 v = make_int2(1, 2); float4 w = make_float4(0.f, 1.f, 2.f, 3.f);',
      '  r += sizeof(int) + sizeof r + sizeof(struct P) + v.y + (int)w.w + p->x + (*pp)[0] + cb[0] + (int)arr[1] + q.y + (int)u;',
      '  for (int i = 0; i < 4; ++i) { if (i == 2) continue; r++; }',
      '  while (r > 100) r--;',
      '  do { r >>= 1; } while (r > 50);',
      '  switch (r) { case 0: r = 1; case 1: { r = 2; break; } default: break; }',
      '  return !r && !b || r >= 0 && r <= 9 && r != 3;',
      '}',
    ].join('\n');
    const r = parseClean(source);
    const g = fn(r.ast, 'g');
    const kinds = new Set<string>();
    const walk = (x: unknown): void => {
      if (!x || typeof x !== 'object') return;
      if (Array.isArray(x)) return x.forEach(walk);
      const n = x as { kind?: string };
      if (n.kind) kinds.add(n.kind);
      for (const [k, v] of Object.entries(n)) if (k !== 'type' && k !== 'ref' && k !== 'resolvedType' && k !== 'resolvedTarget') walk(v);
    };
    walk(g.body);
    for (const k of ['Binary', 'Conditional', 'Assign', 'Cast', 'Sizeof', 'InitList', 'Member', 'Index', 'Unary', 'Postfix', 'Call', 'ForStmt', 'WhileStmt', 'DoStmt', 'SwitchStmt', 'CaseStmt', 'DefaultStmt', 'BreakStmt', 'ContinueStmt', 'ReturnStmt', 'IfStmt', 'DeclStmt']) {
      assert.ok(kinds.has(k), `missing ${k}`);
    }
    const casts = find(g, 'Cast').map((c) => c.style);
    assert.deepEqual([...new Set(casts)].sort(), ['c', 'const', 'reinterpret', 'static']);
  });

  test('types of index expressions follow C rules', () => {
    const r = parseClean('__global__ void k(float *o) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = 3000000000 + 0xFFFFFFFF + 1.0f; }');
    const decl = find(r.ast, 'VarDecl').find((v) => v.name === 'i')!;
    assert.equal(decl.init?.type?.kind, 'int');
    assert.equal((decl.init?.type as { name: string }).name, 'unsigned int');
    const lits = find(r.ast, 'IntLiteral');
    assert.deepEqual(lits.map((l) => [l.exact, l.unsigned, l.longness]), [['3000000000', false, 1], ['4294967295', true, 0]]);
  });
});

describe('error recovery keeps the rest of the file', () => {
  test('a broken kernel does not hide the functions after it', () => {
    const source = ['__global__ void broken(int *p) {', '  p[0] = (1 + ;', '  if (p { p[1] = 2; }', '}', '__host__ __device__ int fine() { return 1; }', 'int main() { return fine(); }'].join('\n');
    const r = parseVirtual({ 'main.cu': source });
    assert.ok(r.diagnostics.some((d) => d.severity === 'error'));
    assert.deepEqual(functionsOf(r.ast).map((f) => f.name), ['broken', 'fine', 'main']);
    assert.ok(!r.diagnostics.some((d) => d.range.start.line >= 4), r.diagnostics.map(formatDiagnostic).join('\n'));
  });

  test('one slip, one message', () => {
    const r = parseVirtual({ 'main.cu': '__global__ void k(int *p) {\n  p[0] = 1\n  p[1] = 2;\n  p[2] = 3;\n}\n' });
    assert.deepEqual(r.diagnostics.map((d) => `${d.code}@${d.range.start.line + 1}:${d.range.start.character + 1}`), ['expected-token@2:11']);
  });

  test('unsupported C++ is reported at the construct and parsing goes on', () => {
    const r = parseVirtual({ 'main.cu': 'class Acc { public: int v; int get() { return v; } };\n#include <iostream>\nint main() { std::cout << 1; return 0; }\n' });
    const codes = r.diagnostics.map((d) => `${d.code}@${d.range.start.line + 1}:${d.range.start.character + 1}`);
    assert.deepEqual(codes, ['not-supported@1:32', 'not-supported@3:14']);
    assert.match(r.diagnostics[1].message, /iostream/);
  });
});
