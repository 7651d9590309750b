// A unit that failed because clang ran out of memory is not remembered as the unit's result: the
// cache keeps what the sources make, and a shortage of memory is the machine's state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ranOutOfMemory } from '../../../sims/clang/toolchain/compile';
import { parseClangOutput } from '../../../sims/clang/toolchain/diagnostics';

test('clang running out of memory is told from an error in the sources', () => {
  // As clang printed it for NVIDIA's simpleIPC, whose next compile succeeded.
  const shortage = parseClangOutput("/usr/include/c++/v1/__functional/function.h:23:10: fatal error: cannot open file '/usr/include/c++/v1/__type_traits/is_scalar.h': Out of memory\n", '/p/main.cu');
  assert.equal(ranOutOfMemory(shortage), true);
  assert.equal(ranOutOfMemory(parseClangOutput('/p/main.cu:3:1: error: unknown type name \'memory\'\n', '/p/main.cu')), false);
  assert.equal(ranOutOfMemory(parseClangOutput("/p/main.cu:1:10: fatal error: 'sys/wait.h' file not found\n", '/p/main.cu')), false);
  assert.equal(ranOutOfMemory(parseClangOutput('/p/main.cu:3:1: warning: out of memory is mentioned in a warning\n', '/p/main.cu')), false, 'only errors');
});
