// A kernel run on its own gets the scalar arguments its GPUVerify preconditions ask for: the
// smallest valuation that meets every clause naming only its integer parameters, constants and
// the launch's dimensions, then another for the second run; clauses that name anything else are
// left to the run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '../../../sims/frontend/index';
import { kernelsOf } from '../../../sims/host/run';
import { preconditionValuations, requiredFunctions } from '../../../sims/host/preconditions';

const LAUNCH = { grid: [2, 1, 1] as const, block: [64, 1, 1] as const };

function valuations(body: string, params = ['x', 'y'], launch = LAUNCH) {
  const parsed = parse(`__global__ void k(int *A, int x, int y) {\n${body}\n  A[threadIdx.x] = x + y;\n}\n`, { fileName: 'k.cu' });
  const decl = kernelsOf(parsed).get('k')?.[0];
  assert.ok(decl, 'the kernel is read');
  return preconditionValuations(decl, params, launch);
}

test('an equality gives the value; a disjunction its first choice, then the next', () => {
  assert.deepEqual(valuations('  __requires(x == 143);'), { first: { x: 143 }, second: { x: 143 } });
  assert.deepEqual(valuations('  __requires(x == 1 | x == 2);'), { first: { x: 1 }, second: { x: 2 } });
});

test('a range gives its smallest values; several clauses and parameters are met together', () => {
  assert.deepEqual(valuations('  __requires(x >= 0);\n  __requires(x < 1000);'), { first: { x: 0 }, second: { x: 1 } });
  assert.deepEqual(valuations('  __requires(x > 5 && x <= 9);'), { first: { x: 6 }, second: { x: 8 } }, 'values next to the constants compared with');
  assert.deepEqual(valuations('  __requires(x > 2 && y != x);\n  __requires(y == 5 | y == 6);'), { first: { x: 3, y: 5 }, second: { x: 3, y: 6 } });
  // Values are tried from the constants the clauses compare with: a parameter fixed only through another is not found.
  assert.deepEqual(valuations('  __requires(x > 2);\n  __requires(y == x + 1);'), { first: {}, second: {} });
});

test('negative values only where a clause compares with a negative constant', () => {
  assert.deepEqual(valuations('  __requires(x == -3);'), { first: { x: -3 }, second: { x: -3 } });
  assert.deepEqual(valuations('  __requires(x != 0 && x < 5);'), { first: { x: 1 }, second: { x: 4 } }, 'not -1, which an unsigned parameter cannot be');
});

test('the launch dimensions are constants of the clauses', () => {
  assert.deepEqual(valuations('  __requires(x == blockDim.x);'), { first: { x: 64 }, second: { x: 64 } });
  assert.deepEqual(valuations('  __requires(x == gridDim.x * blockDim.x - 1);'), { first: { x: 127 }, second: { x: 127 } });
});

test('clauses that name a thread, a pointer or an unknown function are left to the run; so are parameters already given', () => {
  assert.deepEqual(valuations('  __requires(x > threadIdx.x);'), { first: {}, second: {} });
  assert.deepEqual(valuations('  __requires(__ptr_offset_bytes(A) == 0);\n  __requires(y == 3);'), { first: { y: 3 }, second: { y: 3 } });
  assert.deepEqual(valuations('  __requires(x == 143);', ['y']), { first: {}, second: {} }, 'x was given');
});

test('preconditions nothing meets, or inside a branch, choose nothing', () => {
  assert.deepEqual(valuations('  __requires(x == 1);\n  __requires(x == 2);'), { first: {}, second: {} });
  assert.deepEqual(valuations('  if (y) { __requires(x == 7); }'), { first: {}, second: {} });
});

test('a function-pointer parameter required equal to a function is passed that function; of a disjunction, the first', () => {
  const functions = (body: string) => {
    const parsed = parse(`typedef int (*op)(int);\n__device__ int inc(int v) { return v + 1; }\n__device__ int dec(int v) { return v - 1; }\n__global__ void k(int *A, op f, op g, int x) {\n${body}\n  A[threadIdx.x] = f(x) + g(x);\n}\n`, { fileName: 'k.cu' });
    const decl = kernelsOf(parsed).get('k')?.[0];
    assert.ok(decl, 'the kernel is read');
    return requiredFunctions(decl);
  };
  assert.deepEqual(functions('  __requires(f == dec);\n  __requires(inc == g);'), { f: 'dec', g: 'inc' });
  assert.deepEqual(functions('  __requires(f == dec && x > 0);'), { f: 'dec' });
  assert.deepEqual(functions('  __requires(f == inc | f == dec);'), { f: 'inc' });
  // Two parameters compared with each other, or a parameter with a constant, name no function.
  assert.deepEqual(functions('  __requires(f == g);\n  __requires(x == 3);'), {});
  // Only top-level clauses count.
  assert.deepEqual(functions('  if (x) { __requires(f == dec); }'), {});
});
