// The toolchain's worker lane runs clang with the analyses' deep stack (slow: clang takes about
// two minutes over a 20,000-term sum; 8,000 terms still fit a worker thread's default 4 MB).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as os from 'node:os';
import { runTool } from '../../sims/clang/toolchain/wasm';

test('the worker lane has the deep stack clang needs (a 20,000-term sum recurses through codegen)', async () => {
  const deep = new TextEncoder().encode(`int f(int x) { return ${Array.from({ length: 20_000 }, () => 'x').join(' + ')}; }\n`);
  const run = () => runTool(['clang', '-cc1', '-triple', 'wasm32-unknown-wasip1', '-emit-llvm', '-O0', 'deep.c', '-o', '-'], { 'deep.c': deep });
  const runs = await Promise.all([run(), run()]);
  const worker = runs.find((r) => r.lane === 1);
  if (os.availableParallelism() < 2) return; // one lane only: the calling thread's stack is the analyses' concern (largeStack.ts)
  assert.ok(worker, 'the second call ran in the worker lane');
  assert.equal(worker.exitCode, 0, worker.crash ?? worker.stderr);
  assert.match(new TextDecoder().decode(worker.stdout), /define .*@f/);
});
