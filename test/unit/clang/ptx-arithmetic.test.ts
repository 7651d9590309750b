// Inline PTX arithmetic the clang path interprets: statements parsed into operations, checked
// on the values the PTX ISA manual gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ptxArithmetic } from '../../../sims/clang/device/ptxArithmetic';

const op = (statement: string) => {
  const p = ptxArithmetic(statement);
  assert.ok(p, `${statement} is understood`);
  return (...xs: number[]) => p.f(...xs);
};

test('bfind: the most significant (non-sign) bit, or 0xffffffff when there is none', () => {
  const u = op('bfind.u32 %0, %1');
  assert.deepEqual([0, 1, 2, 0x80, 0x7fffffff, 0x80000000 | 0, -1].map((x) => u(x) >>> 0), [0xffffffff, 0, 1, 7, 30, 31, 31]);
  const s = op('bfind.s32 %0, %1');
  assert.deepEqual([0, -1, 1, -2, 0x40000000, -0x40000001].map((x) => s(x) >>> 0), [0xffffffff, 0xffffffff, 0, 0, 30, 30]);
  const shift = op('bfind.shiftamt.u32 %0, %1');
  assert.deepEqual([0, 1, 0x80000000 | 0].map((x) => shift(x) >>> 0), [0xffffffff, 31, 0]);
  assert.equal(ptxArithmetic('bfind.u64 %0, %1'), undefined, 'a form it does not know stays unknown');
});
