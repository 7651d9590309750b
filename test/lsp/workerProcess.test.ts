// An analysis worker's process, on its own: what its host says when the process outgrows its
// resident ceiling (memory the worker's heap limit cannot see: clang's and the program's
// WebAssembly memories), that a terminated worker is gone with its process, and that it takes
// the server's parse of a text only while that parse is the one it would make.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MAX_EXPANDED_TOKENS } from '../../server/analysis/messages';
import { RecordedReads, type ParseInputs } from '../../server/analysis/parseHandoff';
import { WorkerProcess } from '../../server/analysis/workerProcess';
import { parse } from '../../sims/frontend/index';
import { ROOT } from '../support/lspKit';

function start(residentCeilingMb: number): WorkerProcess {
  return new WorkerProcess(path.join(ROOT, 'dist', 'analysisHost.js'), {
    workerScript: path.join(ROOT, 'dist', 'analysisWorker.js'),
    memoryLimitMb: 256,
    stackMb: 64,
    residentCeilingMb,
    warmClang: false,
  });
}

test('a process over its resident ceiling ends its worker as out of memory, and says by how much', async () => {
  // No Node process fits in 8 MB: the first look over the ceiling ends it.
  const w = start(8);
  const exited = new Promise<string>((resolve) => w.once('exit', resolve));
  let timer: NodeJS.Timeout | undefined;
  const [error] = (await Promise.race([
    new Promise((resolve) => w.once('error', (e) => resolve([e]))),
    new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('no error within 20 s')), 20_000))),
  ]).finally(() => clearTimeout(timer))) as [Error & { code?: string }];
  assert.equal(error.code, 'ERR_WORKER_OUT_OF_MEMORY');
  assert.match(error.message, /the analysis process held \d+ MB, over its ceiling of 8 MB/);
  assert.equal(await exited, 'exit code 1');
});

test('a worker within its ceiling answers, and terminate ends its process', async () => {
  const w = start(4096);
  const answer = new Promise<unknown>((resolve) => w.on('message', resolve));
  w.postMessage({ id: 1, fileName: '/x.cu', text: 'int main() { return 0; }\n', options: {}, openFiles: {}, verifyFixes: false } as never);
  const first = (await answer) as { id: number; kind: string };
  assert.deepEqual({ id: first.id, kind: first.kind }, { id: 1, kind: 'started' });
  const exited = new Promise<string>((resolve) => w.once('exit', resolve));
  await w.terminate();
  assert.equal(await exited, 'killed by SIGKILL');
});

test('a cancelled run ends at once, however long it would have gone on, and the worker serves the next request', async () => {
  const w = start(4096);
  // Millions of steps of one launch: seconds of simulation, with no point between compiles to stop at.
  const long = `__global__ void spin(int *out) {
  int x = 0;
  for (int i = 0; i < 2000000; i++) x += i & 3;
  out[threadIdx.x] = x;
}
int main() {
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  spin<<<1, 64>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
`;
  const messages: { id: number; kind: string }[] = [];
  const seen = (id: number, kind: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${kind} for request ${id} within 10 s (saw ${JSON.stringify(messages)})`)), 10_000);
      const look = (): void => {
        if (!messages.some((m) => m.id === id && m.kind === kind)) return;
        clearTimeout(timer);
        w.off('message', look);
        resolve();
      };
      w.on('message', look);
      look();
    });
  w.on('message', (m) => messages.push({ id: m.id, kind: m.kind }));
  try {
    w.postMessage({ id: 1, fileName: '/spin.cu', text: long, options: { maxSteps: 4_000_000_000, timeBudgetMs: 600_000 }, openFiles: {}, verifyFixes: false, frontend: 'builtin' } as never);
    await seen(1, 'started');
    // Well into the run before it is cancelled.
    await new Promise((r) => setTimeout(r, 300));
    const cancelledAt = Date.now();
    w.postMessage({ control: 'cancel', id: 1 });
    await seen(1, 'dropped');
    const latency = Date.now() - cancelledAt;
    assert.ok(latency < 2000, `dropped ${latency} ms after the cancel`);
    assert.ok(!messages.some((m) => m.id === 1 && m.kind === 'report'), 'no report of the cancelled run');
    // The same worker runs the next request to its end.
    w.postMessage({ id: 2, fileName: '/ok.cu', text: 'int main() { return 0; }\n', options: {}, openFiles: {}, verifyFixes: false, frontend: 'builtin' } as never);
    await seen(2, 'report');
  } finally {
    await w.terminate();
  }
});

test('the worker takes the server’s parse of the text, and parses for itself once a header it read has changed', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-handoff-'));
  const header = path.join(dir, 'util.cuh');
  const main = path.join(dir, 'main.cu');
  const util = (scope: string): string => `#pragma once\n__device__ void bump(int *p) { atomicAdd${scope}(p, 1); }\n`;
  const text = '#include "util.cuh"\n__global__ void k(int *out) { bump(out); }\nint main() {\n  int *d;\n  cudaMalloc(&d, sizeof(int));\n  k<<<2, 32>>>(d);\n  cudaDeviceSynchronize();\n  return 0;\n}\n';
  fs.writeFileSync(header, util('_block'));
  // The server's side: its parse of the text, through a reader that records what it read.
  const inputs: ParseInputs = { fileName: main, defines: [], undefines: [], includePaths: [], maxOutputTokens: MAX_EXPANDED_TOKENS };
  const reads = new RecordedReads((p) => (fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : undefined));
  const handoff = reads.handoff(parse(text, { ...inputs, readFile: reads.reader }), text, inputs);
  assert.ok(handoff);
  const w = start(4096);
  const reports = new Map<number, { parse: string; races: number; includes: string[] }>();
  const waiting = new Map<number, () => void>();
  w.on('message', (m) => {
    if (m.kind !== 'report') return;
    reports.set(m.id, { parse: m.parse, races: m.report.findings.filter((f) => f.kind === 'race').length, includes: m.includes });
    waiting.get(m.id)?.();
  });
  const run = (id: number, withParse: boolean): Promise<{ parse: string; races: number; includes: string[] }> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no report for request ${id} within 20 s`)), 20_000);
      waiting.set(id, () => {
        clearTimeout(timer);
        resolve(reports.get(id)!);
      });
      w.postMessage({ id, fileName: main, text, options: {}, openFiles: {}, verifyFixes: false, frontend: 'builtin', ...(withParse ? { parse: handoff } : {}) } as never);
    });
  try {
    const taken = await run(1, true);
    assert.deepEqual({ parse: taken.parse, races: taken.races }, { parse: 'taken', races: 1 });
    assert.ok(taken.includes.includes(header), 'the header the taken parse read is a dependency of the run');
    assert.deepEqual(await run(2, false).then((r) => [r.parse, r.races]), ['parsed', 1], 'no parse handed: the worker parses');
    // The header is fixed on disk after the server parsed: the handed parse is stale.
    fs.writeFileSync(header, util(''));
    assert.deepEqual(await run(3, true).then((r) => [r.parse, r.races]), ['parsed', 0]);
  } finally {
    await w.terminate();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
