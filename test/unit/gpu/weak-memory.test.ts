// The weak GPU memory models (gpu-weak, gpu-strong) and litmus runs: which outcomes each
// model allows, explored exhaustively on small programs, and what `scord check` says when a
// race really goes wrong under weak memory.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { checkSource } from '../../../sims/check';
import { scord } from '../../../sims/cli';
import { parse } from '../../../sims/frontend/index';
import { runProgram } from '../../../sims/host/run';
import { declaredOutcomes, runLitmus, runLitmusSource } from '../../../sims/litmus/run';
import type { LitmusOptions } from '../../../sims/litmus/types';
import type { MemoryModelName } from '../../../sims/gpu/memoryModels';

/** A program whose kernel runs `bodies[i]` in block i (one thread each) and prints r[0..n). */
function perBlock(bodies: string[], globals: string, results: number): string {
  const branches = bodies.map((b, i) => `${i ? 'else ' : ''}if (blockIdx.x == ${i}) { ${b} }`).join('\n  ');
  return `#include <cstdio>
${globals}
__device__ int r[${results}];
__global__ void k() {
  ${branches}
}
int main() {
  k<<<${bodies.length}, 1>>>();
  int h[${results}];
  cudaMemcpyFromSymbol(h, r, sizeof(h));
  for (int i = 0; i < ${results}; i++) printf("%d ", h[i]);
  printf("\\n");
  return 0;
}
`;
}

/** Every final outcome of `text` under `model`, exploring every execution. */
function outcomes(text: string, model: MemoryModelName, extra: Partial<LitmusOptions> = {}): Set<string> {
  const report = runLitmusSource(text, { fileName: 'litmus.cu' }, { model, exhaustive: true, ...extra });
  assert.deepEqual(report.errors, []);
  assert.ok(report.complete, 'the exploration must finish');
  assert.ok(report.runs > 0);
  return new Set(report.outcomes.filter((o) => o.count > 0).map((o) => o.outcome));
}

// Message passing across blocks: block 0 writes data then flag; block 1 reads flag then data.
const mp = (fence: string): string => perBlock([`x = 1; ${fence}; y = 1;`, `r[0] = y; __threadfence(); r[1] = x;`], '__device__ int x, y;', 2);

describe('message passing under each memory model', () => {
  it('sequential consistency never shows the flag without the data', () => {
    const seen = outcomes(mp(''), 'sc');
    assert.ok(!seen.has('1 0'));
    assert.deepEqual([...seen].sort(), ['0 0', '0 1', '1 1']);
  });
  it('gpu-weak and gpu-strong reorder the two stores when nothing orders them', () => {
    assert.ok(outcomes(mp(''), 'gpu-weak').has('1 0'));
    assert.ok(outcomes(mp(''), 'gpu-strong').has('1 0'));
  });
  it('__threadfence() orders them for a reader in another block', () => {
    assert.ok(!outcomes(mp('__threadfence()'), 'gpu-weak').has('1 0'));
    assert.ok(!outcomes(mp('__threadfence()'), 'gpu-strong').has('1 0'));
  });
  it('__threadfence_block() does not reach another block (the scoped race really goes wrong)', () => {
    assert.ok(outcomes(mp('__threadfence_block()'), 'gpu-weak').has('1 0'));
    assert.ok(outcomes(mp('__threadfence_block()'), 'gpu-strong').has('1 0'));
  });
  it('__threadfence_block() is enough within a block (threads in two warps)', () => {
    const text = `#include <cstdio>
__device__ int x, y, r[2];
__global__ void k() {
  if (threadIdx.x == 0) { x = 1; __threadfence_block(); y = 1; }
  else if (threadIdx.x == 32) { r[0] = y; __threadfence_block(); r[1] = x; }
}
int main() {
  k<<<1, 64>>>();
  int h[2];
  cudaMemcpyFromSymbol(h, r, sizeof(h));
  printf("%d %d\\n", h[0], h[1]);
  return 0;
}
`;
    const seen = outcomes(text, 'gpu-weak');
    assert.ok(!seen.has('1 0'));
    assert.ok(seen.has('1 1') && seen.has('0 0'));
  });
});

describe('scoped atomics and volatile accesses under weak memory', () => {
  const counter = (atomic: string): string => perBlock([`${atomic}(&c, 1);`, `${atomic}(&c, 1);`, `__threadfence(); r[0] = 0;`], '__device__ int c;', 1).replace('for (int i = 0; i < 1; i++) printf("%d ", h[i]);', 'int hc; cudaMemcpyFromSymbol(&hc, c, sizeof(int)); printf("c=%d", hc);');
  it('two blocks’ atomicAdd_block on one word can lose an update under gpu-weak', () => {
    const weak = outcomes(counter('atomicAdd_block'), 'gpu-weak');
    assert.ok(weak.has('c=1'), `outcomes: ${[...weak].join(', ')}`);
    assert.ok(weak.has('c=2'));
  });
  it('never under sequential consistency, and never with device-scope atomicAdd', () => {
    assert.deepEqual([...outcomes(counter('atomicAdd_block'), 'sc')], ['c=2']);
    assert.deepEqual([...outcomes(counter('atomicAdd'), 'gpu-weak')], ['c=2']);
    assert.deepEqual([...outcomes(counter('atomicAdd'), 'gpu-strong')], ['c=2']);
  });
  it('a block-scope CAS that fails only reads: no value of its block waits to reach the others', () => {
    const text = perBlock([`atomicCAS_block(&c, 5, 6);`, `r[0] = c;`], '__device__ int c;', 1);
    const report = runLitmusSource(text, { fileName: 'cas.cu' }, { model: 'gpu-weak', exhaustive: true });
    assert.ok(report.complete && report.runs > 0);
    const steps = report.outcomes.flatMap((o) => o.witness.map((w) => w.action));
    assert.ok(steps.some((a) => /^block-scope atomic on c: 0 → 0/.test(a)), steps.join('\n'));
    assert.ok(!steps.some((a) => /^c = .* from block 0 reaches the other blocks/.test(a)), steps.join('\n'));
  });
  it('volatile stores write through: a fenced volatile flag publishes volatile data', () => {
    const text = perBlock([`x = 1; __threadfence(); y = 1;`, `r[0] = y; r[1] = x;`], '__device__ volatile int x, y;', 2);
    assert.ok(!outcomes(text, 'gpu-weak').has('1 0'));
  });
  it('__syncthreads is a block fence: a value written before it is seen after it', () => {
    const text = `#include <cstdio>
__device__ int x, r;
__global__ void k() {
  if (threadIdx.x == 0) x = 7;
  __syncthreads();
  if (threadIdx.x == 32) r = x;
}
int main() {
  k<<<1, 64>>>();
  int h;
  cudaMemcpyFromSymbol(&h, r, sizeof(int));
  printf("%d\\n", h);
  return 0;
}
`;
    assert.deepEqual([...outcomes(text, 'gpu-weak')], ['7']);
    assert.deepEqual([...outcomes(text, 'gpu-strong')], ['7']);
  });
});

describe('the switches for the points the thesis leaves open', () => {
  // One writer; a reader loads the address twice with nothing between: new, then old?
  const corr = perBlock([`x = 1;`, `r[0] = x; r[1] = x;`], '__device__ int x;', 2);
  it('the load pool lets two loads of one address return new, then old (gpu-weak)', () => {
    assert.ok(outcomes(corr, 'gpu-weak').has('1 0'));
  });
  it('not without it, nor under gpu-strong, nor with a fence between the loads', () => {
    assert.ok(!outcomes(corr, 'gpu-weak', { switches: { loadReordering: false } }).has('1 0'));
    assert.ok(!outcomes(corr, 'gpu-strong').has('1 0'));
    const fenced = corr.replace('r[0] = x; r[1] = x;', 'r[0] = x; __threadfence_block(); r[1] = x;');
    assert.ok(!outcomes(fenced, 'gpu-weak').has('1 0'));
  });
  // WRC: block 1 sees x, fences and writes y; block 2 sees y, fences and reads x.
  const wrc = perBlock([`x = 1;`, `r[0] = x; __threadfence(); y = 1;`, `r[1] = y; __threadfence(); r[2] = x;`], '__device__ int x, y;', 3);
  it('fences are not cumulative by default: a borrowed value is not pushed (gpu-weak)', () => {
    assert.ok(outcomes(wrc, 'gpu-weak').has('1 1 0'));
  });
  it('cumulative fences (and gpu-strong’s one view per block) forbid it', () => {
    assert.ok(!outcomes(wrc, 'gpu-weak', { switches: { cumulativeFences: true } }).has('1 1 0'));
    assert.ok(!outcomes(wrc, 'gpu-strong').has('1 1 0'));
  });
});

describe('litmus runs', () => {
  const text = `// outcome: 1 0\n// outcome: 9 9\n${mp('')}`;
  it('reads the outcomes a file names', () => {
    assert.deepEqual(declaredOutcomes(text), ['1 0', '9 9']);
  });
  it('random runs: counts add up to the runs, the same seed gives the same histogram, named outcomes are listed', () => {
    const parsed = parse(text, { fileName: 'mp.cu' });
    const a = runLitmus(parsed, { model: 'gpu-weak', runs: 200, seed: 5, declared: declaredOutcomes(text) });
    const b = runLitmus(parsed, { model: 'gpu-weak', runs: 200, seed: 5, declared: declaredOutcomes(text) });
    assert.equal(a.runs, 200);
    assert.equal(a.outcomes.reduce((s, o) => s + o.count, 0), 200);
    assert.deepEqual(a.outcomes.map((o) => [o.outcome, o.count]), b.outcomes.map((o) => [o.outcome, o.count]));
    const never = a.outcomes.find((o) => o.outcome === '9 9')!;
    assert.deepEqual([never.count, never.allowed, never.declared], [0, false, true]);
    const reordered = a.outcomes.find((o) => o.outcome === '1 0');
    assert.ok(reordered && reordered.count > 0 && reordered.allowed && reordered.declared, 'random runs find the reordering');
  });
  it('each outcome comes with a witness execution that leads to it', () => {
    const report = runLitmusSource(text, { fileName: 'mp.cu' }, { model: 'gpu-weak', exhaustive: true });
    const w = report.outcomes.find((o) => o.outcome === '1 0')!.witness;
    const reads = w.filter((s) => /^reads /.test(s.action)).map((s) => s.action);
    assert.ok(reads.some((a) => /^reads y → 1/.test(a)) && reads.some((a) => /^reads x → 0/.test(a)), reads.join('\n'));
    assert.ok(w.every((s) => s.range && s.range.start.line >= 0));
  });
  it('observes variables instead of the output when asked', () => {
    const report = runLitmusSource(mp(''), { fileName: 'mp.cu' }, { model: 'sc', runs: 20, observe: ['x', 'y'] });
    assert.deepEqual(report.outcomes.map((o) => o.outcome), ['x=1 y=1']);
  });
  it('a program that does not parse is an error, not an outcome', () => {
    const report = runLitmusSource('__global__ void k( {', { fileName: 'bad.cu' }, { model: 'gpu-weak', runs: 5 });
    assert.equal(report.runs, 0);
    assert.ok(report.errors.length > 0 && report.errors[0].range);
  });
  it('the simulator itself runs the same program sequentially consistent by default', () => {
    const r = runProgram(parse(mp(''), { fileName: 'mp.cu' }), { scheduler: 'random', seed: 3 });
    assert.ok(['0 0', '0 1', '1 1'].includes(r.stdout.trim()));
  });
});

describe('scord litmus and scord check --memory-model', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-litmus-'));
  const file = path.join(dir, 'mp.cu');
  fs.writeFileSync(file, `// outcome: 1 0\n${mp('')}`);
  const run = async (...argv: string[]) => {
    let out = '';
    let err = '';
    const status = await scord(argv, { stdout: (t) => void (out += t), stderr: (t) => void (err += t) });
    return { status, out, err };
  };
  it('--format json prints the model, the runs and each outcome with its count and verdict', async () => {
    const r = await run('litmus', file, '--model', 'gpu-weak', '--exhaustive', '--format', 'json');
    assert.equal(r.status, 0, r.err);
    const json = JSON.parse(r.out);
    assert.equal(json.model, 'gpu-weak');
    assert.ok(json.runs > 0);
    assert.deepEqual(Object.keys(json.outcomes[0]).sort(), ['allowed', 'count', 'outcome']);
    assert.equal(json.outcomes.reduce((s: number, o: { count: number }) => s + o.count, 0), json.runs);
    assert.ok(json.outcomes.some((o: { outcome: string; allowed: boolean }) => o.outcome === '1 0' && o.allowed));
    const sc = JSON.parse((await run('litmus', file, '--model', 'sc', '--exhaustive', '--format', 'json')).out);
    assert.deepEqual(sc.outcomes.find((o: { outcome: string }) => o.outcome === '1 0'), { outcome: '1 0', count: 0, allowed: false });
  });
  it('text output: a bar per outcome, verdicts, and how each outcome happens', async () => {
    const r = await run('litmus', file, '--model', 'sc', '--exhaustive');
    assert.equal(r.status, 0, r.err);
    assert.match(r.out, /every execution \(\d+ complete\) under sc/);
    assert.match(r.out, /1 0 +0 +forbidden +\(named in the file\)/);
    assert.match(r.out, /how "1 1" happens:\n {2}line \d+ +block 0 thread 0: writes x = 1/);
  });
  it('bad options and unreadable programs exit 2 with a message', async () => {
    assert.equal((await run('litmus', file, '--model', 'tso')).status, 2);
    assert.equal((await run('litmus', file, '--runs', '0')).status, 2);
    fs.writeFileSync(path.join(dir, 'bad.cu'), 'int main( {');
    const bad = await run('litmus', path.join(dir, 'bad.cu'));
    assert.equal(bad.status, 2);
    assert.match(bad.err, /bad\.cu:1:\d+: error: /);
  });
  it('check --memory-model gpu-weak: the scoped race computes a wrong answer, and the finding says so', () => {
    const text = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'examples', 'scoped-counter.cu'), 'utf8');
    const report = checkSource({ fileName: 'scoped-counter.cu', text, memoryModel: 'gpu-weak' });
    const race = report.findings.find((f) => f.category === 'scoped-atomic');
    assert.ok(race?.observed, 'the race says what was observed');
    assert.match(race.observed, /Observed under gpu-weak: the block-scope update of counter at line \d+ \(to \d+\) was lost/);
    assert.match(race.observed, /where a sequentially consistent run prints "counted 171 events/);
    assert.equal(report.stats.memoryModel, 'gpu-weak');
    const sc = checkSource({ fileName: 'scoped-counter.cu', text });
    assert.equal(sc.findings.find((f) => f.category === 'scoped-atomic')?.observed, undefined);
  });
});
