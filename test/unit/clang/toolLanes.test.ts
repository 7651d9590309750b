// clang runs in lanes: this thread, and on a machine with a second core a worker thread, so
// that a unit's two passes compile side by side. A call gives the same result in either lane.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as os from 'node:os';
import { runTool } from '../../../sims/clang/toolchain/wasm';

const SOURCES: Record<string, string> = {
  'ok.c': 'int twice(int x) { return 2 * x; }\n',
  'bad.c': 'int twice(int x) { return 2 * x; }\nint broken(void) { return y; }\n',
};
const compile = (file: string) => runTool(['clang', '-cc1', '-triple', 'wasm32-unknown-wasip1', '-emit-llvm', '-O0', file, '-o', '-'], { [file]: new TextEncoder().encode(SOURCES[file]) });

test('calls made at once run side by side where there is a second core, with the results one lane gives', async () => {
  // Alone: this thread's lane.
  const alone = await compile('ok.c');
  assert.equal(alone.lane, 0);
  assert.equal(alone.exitCode, 0, alone.stderr);
  const [a, b] = await Promise.all([compile('ok.c'), compile('ok.c')]);
  assert.deepEqual([a.lane, b.lane], os.availableParallelism() > 1 ? [0, 1] : [0, 0]);
  for (const r of [a, b]) {
    assert.equal(r.exitCode, 0, r.stderr);
    assert.deepEqual(r.stdout, alone.stdout, 'the IR is the same whichever lane made it');
  }
  assert.match(new TextDecoder().decode(alone.stdout), /define .*@twice/);
});

test("a tool's errors come back from the worker lane as from this thread", async () => {
  const [a, b] = await Promise.all([compile('bad.c'), compile('bad.c')]);
  for (const r of [a, b]) {
    assert.notEqual(r.exitCode, 0);
    assert.equal(r.exitCode !== undefined, true, r.crash);
    assert.match(r.stderr, /bad\.c:2:\d+: error: use of undeclared identifier 'y'/);
  }
  assert.equal(a.stderr, b.stderr);
});
