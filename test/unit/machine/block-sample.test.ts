// A big grid can run a sample of its blocks: the first, the last and a seeded random set, in
// index order. What the sample finds is real (races among the simulated blocks), the run says
// that it was sampled, and a grid is sampled in the editor's mode only when it would not
// finish within the step budget.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SimEvent } from '../../../sims/ir/ir';
import { BlockQueue } from '../../../sims/machine/blockSample';
import { runProgram, type RunOptions } from '../../../sims/host/run';
import { checkSource } from '../../../sims/check';
import { parseVirtual } from '../../support/parseFile';

function drain(q: BlockQueue): number[] {
  const out: number[] = [];
  while (q.remaining > 0) out.push(q.take());
  return out;
}

describe('the block queue', () => {
  test('unsampled: every block once, in index order', () => {
    const q = new BlockQueue(5);
    assert.deepEqual(drain(q), [0, 1, 2, 3, 4]);
    assert.equal(q.sampled, false);
    assert.equal(q.simulated, 5);
  });

  test('a sample holds the first and the last block, distinct blocks in index order, as many as asked', () => {
    for (const [blocks, want, seed] of [[4096, 32, 1], [4096, 32, 2], [100, 99, 7], [3, 2, 5], [1000, 2, 3]] as const) {
      const q = new BlockQueue(blocks);
      q.sampleRest(want, seed);
      const run = drain(q);
      assert.equal(run.length, want, `${blocks}/${want}`);
      assert.equal(run[0], 0);
      assert.equal(run[run.length - 1], blocks - 1);
      for (let i = 1; i < run.length; i++) assert.ok(run[i] > run[i - 1], `index order at ${i}: ${run}`);
      assert.equal(q.sampled, true);
      assert.equal(q.simulated, want);
    }
  });

  test('the seed decides the sample: the same seed gives the same blocks, another seed others', () => {
    const pick = (seed: number) => {
      const q = new BlockQueue(4096);
      q.sampleRest(32, seed);
      return drain(q);
    };
    assert.deepEqual(pick(11), pick(11));
    assert.notDeepEqual(pick(11), pick(12));
  });

  test('blocks already started count among the simulated; asking for the whole grid samples nothing', () => {
    const q = new BlockQueue(1000);
    const first = [q.take(), q.take(), q.take()];
    q.sampleRest(10, 9);
    const rest = drain(q);
    assert.deepEqual(first, [0, 1, 2]);
    assert.equal(first.length + rest.length, 10);
    assert.ok(rest.every((b) => b > 2));
    assert.equal(rest[rest.length - 1], 999);
    const whole = new BlockQueue(8);
    whole.sampleRest(8, 1);
    assert.equal(whole.sampled, false);
    assert.equal(drain(whole).length, 8);
  });
});

// Every block writes its index to one of 8 flags (a race across blocks) and counts itself.
const FLAGS = (grid: number, block: number) => `
__global__ void mark(int *flag, unsigned int *count) {
  if (threadIdx.x == 0) { flag[blockIdx.x % 8] = blockIdx.x; atomicAdd(count, 1u); }
}
int main() {
  int *flag; unsigned int *count;
  cudaMalloc(&flag, 8 * sizeof(int));
  cudaMalloc(&count, sizeof(unsigned int));
  cudaMemset(count, 0, sizeof(unsigned int));
  mark<<<${grid}, ${block}>>>(flag, count);
  unsigned int c = 0;
  cudaMemcpy(&c, count, sizeof(c), cudaMemcpyDeviceToHost);
  printf("%u\\n", c);
  return 0;
}`;

function runFlags(grid: number, block: number, options: RunOptions) {
  const started: number[] = [];
  const r = runProgram(parseVirtual({ 'main.cu': FLAGS(grid, block) }), {
    ...options,
    events: (e: SimEvent) => {
      if (e.kind === 'block-start') started.push(e.block);
    },
  });
  return { ...r, started };
}

describe('sampled launches', () => {
  test('--sample-blocks runs that many blocks, the first and the last among them, and says so', () => {
    const r = runFlags(4096, 64, { sampleBlocks: { blocks: 32 } });
    assert.deepEqual(r.findings, []);
    assert.equal(r.stdout, '32\n', 'the blocks that ran are the sample');
    assert.equal(r.started.length, 32);
    assert.equal(r.started[0], 0);
    assert.equal(r.started[31], 4095);
    assert.deepEqual(r.sampled?.map(({ kernel, simulated, blocks }) => ({ kernel, simulated, blocks })), [{ kernel: 'mark', simulated: 32, blocks: 4096 }]);
    assert.equal(r.sampled?.[0].range.start.line, 9, 'at the launch');
  });

  test('a grid no bigger than the sample runs whole and is not reported as sampled', () => {
    const r = runFlags(16, 32, { sampleBlocks: { blocks: 32 } });
    assert.equal(r.stdout, '16\n');
    assert.equal(r.sampled, undefined);
  });

  test('a grid over the thread limit runs as a sample instead of being refused', () => {
    const refused = runFlags(4096, 64, { maxThreads: 4096 });
    assert.deepEqual(refused.findings.map((f) => f.kind), ['launch-configuration']);
    assert.match(refused.findings[0].message, /--sample-blocks/);
    const sampled = runFlags(4096, 64, { maxThreads: 4096, sampleBlocks: { blocks: 32, whenOverBudget: true } });
    assert.deepEqual(sampled.findings, []);
    assert.equal(sampled.stdout, '32\n');
  });

  test('only when over budget: a grid that fits runs whole; one that would not is sampled once a block has finished', () => {
    const fits = runFlags(256, 64, { sampleBlocks: { blocks: 32, whenOverBudget: true } });
    assert.equal(fits.stdout, '256\n');
    assert.equal(fits.sampled, undefined);
    // 8,192 blocks do not fit 400,000 thread-steps: without sampling the launch is stopped at
    // the budget; with it, the blocks already started (the first resident set) count among the
    // simulated, the last block joins them, and the launch finishes.
    const stopped = runFlags(8192, 64, { stepBudget: 400_000 });
    assert.deepEqual(stopped.findings.map((f) => f.kind), ['step-budget']);
    const sampled = runFlags(8192, 64, { stepBudget: 400_000, sampleBlocks: { blocks: 100, whenOverBudget: true } });
    assert.deepEqual(sampled.findings, []);
    const simulated = sampled.sampled?.[0].simulated ?? 0;
    assert.ok(simulated >= 100 && simulated < 8192, `simulated ${simulated}`);
    assert.equal(sampled.started.length, simulated);
    assert.equal(sampled.stdout, `${simulated}\n`);
    assert.deepEqual(sampled.started.slice(0, 3), [0, 1, 2]);
    assert.equal(sampled.started[sampled.started.length - 1], 8191);
  });
});

describe('a sampled check', () => {
  test('finds the races among the simulated blocks, and every finding and the report say it was sampled', () => {
    const text = FLAGS(4096, 64);
    const report = checkSource({ fileName: 'flags.cu', text, readFile: () => undefined, sampleBlocks: { blocks: 32 } });
    assert.ok(report.findings.some((f) => f.category === 'missing-device-fence'), JSON.stringify(report.findings.map((f) => f.category)));
    for (const f of report.findings) assert.match(f.note ?? '', /simulated 32 of 4,096 blocks of mark: races with the blocks left out are not seen/);
    assert.deepEqual(report.stats.sampled, [{ kernel: 'mark', simulated: 32, blocks: 4096, launches: 1 }]);
    const info = report.diagnostics.filter((d) => d.code === 'sampled-blocks');
    assert.equal(info.length, 1);
    assert.equal(info[0].severity, 'information');
    assert.equal(info[0].location?.line, 10);
    const whole = checkSource({ fileName: 'flags.cu', text: FLAGS(64, 64), readFile: () => undefined, sampleBlocks: { blocks: 32, whenOverBudget: true } });
    assert.equal(whole.stats.sampled, undefined);
    assert.ok(whole.findings.every((f) => !/simulated/.test(f.note ?? '')));
  });
});

test('a launch in a loop is one sampled launch site: one diagnostic, its launches counted', () => {
  const text = `__global__ void step(int *flag) { if (threadIdx.x == 0) flag[blockIdx.x % 4] = blockIdx.x; }
int main() {
  int *flag;
  cudaMalloc(&flag, 4 * sizeof(int));
  for (int i = 0; i < 3; i++)
    step<<<1000, 32>>>(flag);
  cudaDeviceSynchronize();
  return 0;
}`;
  const report = checkSource({ fileName: 'loop.cu', text, readFile: () => undefined, sampleBlocks: { blocks: 8 } });
  assert.deepEqual(report.stats.sampled, [{ kernel: 'step', simulated: 8, blocks: 1000, launches: 3 }]);
  const info = report.diagnostics.filter((d) => d.code === 'sampled-blocks');
  assert.deepEqual(info.map((d) => [d.location?.line, d.message]), [[6, 'simulated 8 of 1,000 blocks of step (in each of its 3 launches): a race that needs one of the other blocks is not seen']]);
  assert.ok(report.findings.length > 0);
  for (const f of report.findings) assert.match(f.note ?? '', /^simulated 8 of 1,000 blocks of step \(in each of its 3 launches\): races with the blocks left out are not seen$/);
});
