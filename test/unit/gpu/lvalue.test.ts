// Races are named as the program names the memory (sims/gpu/lvalue.ts): down to the field or
// element the access touches, and no further than the access reaches: a piece of a struct copy
// that spans two fields is the struct.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSource } from '../../../sims/check';

const program = (store: string): string => `typedef struct { short x; short y; } pair_t;
__global__ void k(pair_t *pairs) {
  pair_t p;
  p.x = threadIdx.x;
  p.y = 1;
  ${store}
}
int main() { pair_t *d; cudaMalloc(&d, 64 * sizeof(pair_t)); k<<<1, 64>>>(d); cudaDeviceSynchronize(); return 0; }
`;

/** The names the race messages give (`write of \`…\``). */
function named(store: string): string[] {
  const report = checkSource({ fileName: '/virtual/pairs.cu', text: program(store) });
  return report.findings.filter((f) => f.kind === 'race').map((f) => /of `([^`]+)`/.exec(f.message)?.[1] ?? f.message);
}

test('a whole-struct store is named by the struct element, a field store by its field', () => {
  assert.deepEqual(named('pairs[0] = p;'), ['d[0]']);
  assert.deepEqual(named('pairs[0].y = p.y;'), ['d[0].y']);
});
