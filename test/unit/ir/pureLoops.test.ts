// Loops of register arithmetic run lane by lane (sims/ir/pureLoops.ts): found as the strongly
// connected parts of the register-only blocks, compiled into the converged run, and exact: the
// interpreter's output, findings and steps whatever the lanes hold (integers, floats, unsigned
// values above 2^31, -0) and whether or not they stay together.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runProgram, type RunOptions } from '../../../sims/host/run';
import { compileConverged } from '../../../sims/ir/compile';
import { registerOnly, type CompiledFunction } from '../../../sims/ir/ir';
import { pureLoops } from '../../../sims/ir/pureLoops';
import { lowerKernel } from '../../support/lowerKernel';
import { parseVirtual } from '../../support/parseFile';

function kernel(body: string): CompiledFunction {
  return lowerKernel(`__global__ void k(int *p, float *q) {\n${body}\n}`);
}

describe('finding the loops', () => {
  test('a loop of arithmetic is one loop of register-only blocks; a loop that touches memory is none', () => {
    const f = kernel('int a = threadIdx.x;\nfor (int i = 0; i < 10; i++) a = a * 3 + i;\np[threadIdx.x] = a;\nfor (int i = 0; i < 10; i++) p[i] += a;');
    const loops = pureLoops(f);
    assert.equal(loops.length, 1);
    assert.ok(loops[0].blocks.length >= 2, 'the test and the body');
    assert.ok(loops[0].blocks.every(registerOnly));
    // Every block of the loop leads back to it: from each, the loop's first block is reachable inside the loop.
    const ids = new Set(loops[0].blocks.map((b) => b.id));
    for (const b of loops[0].blocks) {
      const t = b.term;
      const next = t.kind === 'jump' ? [t.to] : t.kind === 'branch' ? [t.then, t.else] : [];
      assert.ok(next.some((n) => ids.has(n)), `block ${b.id} goes on inside the loop`);
    }
    // What the loop writes it also lists as used (each lane loads it before running).
    assert.ok(loops[0].written.every((r) => loops[0].used.includes(r)));
  });

  test('nested loops of arithmetic are one strongly connected part', () => {
    const f = kernel('int a = threadIdx.x;\nfor (int i = 0; i < 4; i++) for (int j = 0; j < 5; j++) a ^= a * 7 + j;\np[threadIdx.x] = a;');
    assert.equal(pureLoops(f).length, 1);
  });

  test('the converged run calls the lane-by-lane run from the loop\'s blocks', () => {
    const withLoop = compileConverged(kernel('int a = threadIdx.x;\nfor (int i = 0; i < 10; i++) a = a * 3 + i;\np[threadIdx.x] = a;'))!;
    assert.match(withLoop.toString(), /loop0\(w, g, n, \d+, limit - q \+ free\)/);
    const without = compileConverged(kernel('for (int i = 0; i < 10; i++) p[i] = i;'))!;
    assert.doesNotMatch(without.toString(), /loop0/);
  });
});

/** Runs compiled at once and interpreted; they must agree on output, findings and steps. */
function runBothWays(source: string, options: RunOptions = {}) {
  const parsed = parseVirtual({ 'main.cu': source });
  const c = runProgram(parsed, { ...options, execution: 'eager' });
  const i = runProgram(parsed, { ...options, execution: 'interpreted' });
  assert.equal(c.stdout, i.stdout);
  assert.deepEqual(c.findings, i.findings);
  assert.equal(c.steps, i.steps);
  return c;
}

const program = (kernelBody: string, print: string) => `
#include <cstdio>
__global__ void k(int *out, float *fout, unsigned *uout) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
${kernelBody}
}
int main() {
  int *out; float *fout; unsigned *uout;
  cudaMallocManaged(&out, 128 * sizeof(int));
  cudaMallocManaged(&fout, 128 * sizeof(float));
  cudaMallocManaged(&uout, 128 * sizeof(unsigned));
  k<<<2, 64>>>(out, fout, uout);
  cudaDeviceSynchronize();
  ${print}
  return 0;
}`;

describe('running them', () => {
  test('integers: every lane takes the same path, the result is the reference\'s', () => {
    const c = runBothWays(program('int a = t, b = 7;\nfor (int i = 0; i < 300; i++) { a = a * 3 + b; b = (b ^ a) + i; }\nout[t] = a + b;', 'long s = 0; for (int i = 0; i < 128; i++) s += (long)out[i] * (i + 1); printf("%ld\\n", s);'));
    let s = 0n;
    for (let t = 0; t < 128; t++) {
      let a = t;
      let b = 7;
      for (let i = 0; i < 300; i++) {
        a = (Math.imul(a, 3) + b) | 0;
        b = ((b ^ a) + i) | 0;
      }
      s += BigInt((a + b) | 0) * BigInt(t + 1);
    }
    assert.equal(c.stdout, `${s}\n`);
  });

  test('floats, unsigned values above 2^31 and -0 run the copy that reads registers as they are', () => {
    const c = runBothWays(
      program(
        'float x = t * 0.5f, z = -0.0f;\nunsigned u = 0x80000000u + t;\nfor (int i = 0; i < 100; i++) { x = x * 0.75f + 1.0f; u = u * 5u + 1u; z = z * 1.0f; }\nfout[t] = x + (1.0f / z < 0 ? 1000.0f : 0.0f);\nuout[t] = u;',
        'for (int i = 0; i < 128; i += 37) printf("%.6f %u ", fout[i], uout[i]); printf("\\n");',
      ),
    );
    // -0 stays -0 through the loop (1/z is -infinity): every float carries the 1000.
    const floats = c.stdout.trim().split(' ').filter((_, j) => j % 2 === 0).map(Number);
    assert.ok(floats.every((x) => x > 1000), c.stdout);
  });

  test('lanes that leave the loop after different numbers of iterations still give the interpreter\'s run', () => {
    const c = runBothWays(program('int a = t;\nfor (int i = 0; i < 40 + t % 5; i++) a = a * 5 + i;\nout[t] = a;', 'for (int i = 0; i < 128; i++) printf("%d ", out[i]); printf("\\n");'));
    const expected = Array.from({ length: 128 }, (_, t) => {
      let a = t;
      for (let i = 0; i < 40 + (t % 5); i++) a = (Math.imul(a, 5) + i) | 0;
      return a;
    });
    assert.deepEqual(c.stdout.trim().split(' ').map(Number), expected);
  });

  test('under every scheduling model', () => {
    const source = program('int a = t;\nfor (int i = 0; i < 64; i++) { if (a & 1) a = a * 3 + 1; else a >>= 1; }\nout[t] = a;', 'for (int i = 0; i < 128; i++) printf("%d ", out[i]); printf("\\n");');
    const outputs = [{}, { model: 'lockstep' as const }, { scheduler: 'random' as const, seed: 3 }, { scheduler: 'greedy-then-oldest' as const }].map((o) => runBothWays(source, o).stdout);
    assert.equal(new Set(outputs).size, 1);
  });
});
