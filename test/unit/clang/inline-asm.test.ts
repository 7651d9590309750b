// Inline PTX as nvcc takes it: a special register named with one '%' inside an asm statement's
// strings is written the way clang wants it; everything else stays byte for byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nvccInlineAsm } from '../../../sims/clang/toolchain/inlineAsm';

test('register names with one % are doubled inside asm strings only', () => {
  assert.equal(nvccInlineAsm('asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));'), 'asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));');
  assert.equal(nvccInlineAsm('__asm__("mov.u32 %0, %laneid;\\n\\t" "mov.u32 %1, %tid.x;" : "=r"(a), "=r"(b));'), '__asm__("mov.u32 %0, %%laneid;\\n\\t" "mov.u32 %1, %%tid.x;" : "=r"(a), "=r"(b));');
  assert.equal(nvccInlineAsm('printf("%globaltimer %d", x); asm("mov.u32 %0, %%clock;" : "=r"(c));'), 'printf("%globaltimer %d", x); asm("mov.u32 %0, %%clock;" : "=r"(c));', 'printf strings and %% stay');
});

test('operand references, modifiers and named operands stay; text without asm is returned as it is', () => {
  const kept = 'asm("add.s32 %0, %1, %l2; mov.b32 %[out], %h3; // %=" : [out] "=r"(o) : "r"(x));';
  assert.equal(nvccInlineAsm(kept), kept);
  const plain = 'int percent = 5 % 3; // asm is not here';
  assert.equal(nvccInlineAsm(plain), plain);
  // The statement ends at its own closing parenthesis, nested ones and strings with ')' included.
  const nested = 'asm("mov.u32 %0, %smid;" : "=r"(f(x))); const char *s = "%laneid)";';
  assert.equal(nvccInlineAsm(nested), 'asm("mov.u32 %0, %%smid;" : "=r"(f(x))); const char *s = "%laneid)";');
});
