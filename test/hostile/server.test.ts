// Hostile files opened in the editor: the language server says where and why (a refused
// include, nesting too deep, a launch beyond the memory limit), keeps answering hovers within
// a second while it works, and its process tree stays under the memory it is allowed —
// maxParallelRuns × memoryLimitMb, plus 300 MB for the server itself — measured here.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { fileUri, startSession, stopSession, type Session } from '../support/lspKit';
import { treeRssBytes } from '../support/processMemory';
import { scratch, write } from './support';

const MEMORY_LIMIT_MB = 256;
const PARALLEL = 1;
const ALLOWED_BYTES = (PARALLEL * MEMORY_LIMIT_MB + 300) * 1024 * 1024;

let session: Session;
let dir: string;
let peakRss = 0;
let sampler: ReturnType<typeof setInterval>;

before(async () => {
  dir = scratch('server');
  session = await startSession({ analysis: { debounceMs: 0, memoryLimitMb: MEMORY_LIMIT_MB, maxParallelRuns: PARALLEL, timeBudgetMs: 20_000 }, frontend: 'builtin' }, { workspaceFolder: dir });
  sampler = setInterval(() => {
    peakRss = Math.max(peakRss, treeRssBytes(session.client.process.pid!) ?? 0);
  }, 50);
});

after(async () => {
  clearInterval(sampler);
  await stopSession(session);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Opens `text` as `name` and waits for diagnostics that pass `test`. */
async function openAndWait(name: string, text: string, test: (d: Diagnostic[]) => boolean, timeoutMs = 20_000): Promise<{ uri: string; diagnostics: Diagnostic[] }> {
  const file = write(dir, name, text);
  const uri = fileUri(file);
  const since = session.client.diagnostics.length;
  await session.client.open(uri, text);
  const p: PublishDiagnosticsParams = await session.client.waitForDiagnostics(uri, (x) => test(x.diagnostics), timeoutMs, since);
  return { uri, diagnostics: p.diagnostics };
}

/** Milliseconds a hover takes to come back. */
async function hoverMs(uri: string): Promise<number> {
  const t0 = performance.now();
  await session.client.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 1 } });
  return performance.now() - t0;
}

const MAIN = 'int main() { return 0; }\n';

test('refused includes are errors at the #include that say why, and the server keeps answering', async () => {
  if (process.platform !== 'win32') execFileSync('mkfifo', [path.join(dir, 'pipe.h')]);
  const cases = [
    { include: '/proc/self/pagemap', reason: /system folder of devices and kernel files/ },
    { include: '/dev/zero', reason: /system folder of devices and kernel files/ },
    ...(process.platform !== 'win32' ? [{ include: 'pipe.h', reason: /it is a pipe/ }] : []),
  ];
  for (const [i, c] of cases.entries()) {
    const refused = (d: Diagnostic[]) => d.some((x) => x.code === 'include-refused');
    const { uri, diagnostics } = await openAndWait(`refused${i}.cu`, `#include "${c.include}"\n${MAIN}`, refused);
    const d = diagnostics.find((x) => x.code === 'include-refused')!;
    assert.deepEqual(d.range.start, { line: 0, character: 9 });
    assert.match(d.message, c.reason);
    assert.ok((await hoverMs(uri)) < 1000);
  }
});

test('deep nesting is a located error', async () => {
  const text = `int main() {\n  int x = ${'('.repeat(3000)}1${')'.repeat(3000)};\n  return x;\n}\n`;
  const { uri, diagnostics } = await openAndWait('nested.cu', text, (d) => d.some((x) => x.code === 'nesting-too-deep'));
  const d = diagnostics.find((x) => x.code === 'nesting-too-deep')!;
  assert.equal(d.range.start.line, 1);
  assert.ok((await hoverMs(uri)) < 1000);
});

test('a 50,000-term sum is analysed (and its race found) while hovers answer', async () => {
  const terms = Array(50_000).fill('v').join(' + ');
  // Every thread writes its own sum to one word: a race between the threads of the block.
  const text = `__global__ void k(int *out, int v) {\n  *out = threadIdx.x + ${terms};\n}\nint main() {\n  int *d;\n  cudaMalloc(&d, sizeof(int));\n  k<<<1, 64>>>(d, 1);\n  return 0;\n}\n`;
  const { uri, diagnostics } = await openAndWait('longsum.cu', text, (d) => d.some((x) => x.range.start.line === 1 && /races with the write at line 2/.test(x.message)), 60_000);
  assert.ok(!diagnostics.some((x) => x.code === 'nesting-too-deep' || /internal error|call stack/.test(x.message)), JSON.stringify(diagnostics));
  assert.ok((await hoverMs(uri)) < 1000);
  await session.client.close(uri);
});

test('a document larger than scord.limits.maxFileMb is refused as the CLI refuses it, and never run', async () => {
  const text = `// ${'x'.repeat(9 * 1024 * 1024)}\n${MAIN}`;
  const statesBefore = session.client.states.length;
  const { uri, diagnostics } = await openAndWait('huge.cu', text, (d) => d.some((x) => x.code === 'analysis-stopped'));
  assert.match(diagnostics.find((x) => x.code === 'analysis-stopped')!.message, /not analysed: it is larger than 8 MB \(scord\.limits\.maxFileMb\)/);
  assert.ok((await hoverMs(uri)) < 1000);
  assert.deepEqual(session.client.states.slice(statesBefore).filter((s) => s.uri === uri), []);
  await session.client.close(uri);
});

test('a launch beyond the memory limit is a finding at the launch', async () => {
  const text = `__global__ void k(int *out) {\n  char a[1 << 28];\n  a[threadIdx.x] = 1;\n  out[threadIdx.x] = a[threadIdx.x];\n}\nint main() {\n  int *d;\n  cudaMalloc(&d, 4096);\n  k<<<1, 1024>>>(d);\n  return 0;\n}\n`;
  const { diagnostics } = await openAndWait('local.cu', text, (d) => d.some((x) => x.code === 'memory-limit'));
  const d = diagnostics.find((x) => x.code === 'memory-limit')!;
  assert.equal(d.range.start.line, 8);
  assert.match(d.message, /256 MB of local memory per thread × 1024 threads = 256 GB.*the memory limit is 256 MB/);
});

test('twenty open 1 MB lookup tables: hovers stay under a second, memory under the limit, closing ends the queued runs', async (t) => {
  // Generated here: each file a __device__ table of about 1 MB of numbers and a kernel reading it.
  const table = (seed: number): string => {
    const values = Array.from({ length: 150_000 }, (_, i) => (i * 2654435761 + seed) % 1000003);
    return `__device__ int table[] = {${values.join(',')}};\n__global__ void k(int *out) { out[threadIdx.x] = table[threadIdx.x]; }\nint main() {\n  int *d;\n  cudaMalloc(&d, 4096);\n  k<<<1, 32>>>(d);\n  return 0;\n}\n`;
  };
  const uris: string[] = [];
  for (let i = 0; i < 20; i++) {
    const text = table(i);
    const uri = fileUri(write(dir, `table${i}.cu`, text));
    uris.push(uri);
    await session.client.open(uri, text);
  }
  // While they are parsed and run, one at a time, hovers come back at once.
  const slowest = Math.max(...(await sequence(10, () => hoverMs(uris[0]))));
  assert.ok(slowest < 1000, `a hover took ${Math.round(slowest)} ms`);
  // One table analysed in full, then all closed: the runs still queued never start.
  const first = await Promise.race(uris.map((u) => session.client.waitForRun(u, 1, 60_000)));
  assert.equal(first.state, 'done', first.reason);
  for (const uri of uris) await session.client.close(uri);
  const closedAt = session.client.states.length;
  await hoverMs(uris[0]);
  await new Promise((r) => setTimeout(r, 1500));
  const startedAfter = session.client.states.slice(closedAt).filter((s) => s.state === 'running' && uris.includes(s.uri));
  assert.deepEqual(startedAfter, []);
  assert.ok(peakRss > 0, 'the server process tree was measured');
  t.diagnostic(`peak RSS of the server tree: ${Math.round(peakRss / 2 ** 20)} MB (allowed ${ALLOWED_BYTES / 2 ** 20} MB); slowest hover ${Math.round(slowest)} ms`);
  assert.ok(peakRss < ALLOWED_BYTES, `the server tree held ${Math.round(peakRss / 2 ** 20)} MB; allowed ${ALLOWED_BYTES / 2 ** 20} MB`);
});

test('in a workspace that is not trusted, includes from outside it are refused', async () => {
  const outside = scratch('untrusted');
  try {
    write(outside, 'elsewhere.h', 'int elsewhere;\n');
    await session.client.conn.sendNotification('scord/workspaceTrust', { trusted: false });
    const { diagnostics } = await openAndWait('outside.cu', `#include "${path.join(outside, 'elsewhere.h')}"\n${MAIN}`, (d) => d.some((x) => x.code === 'include-refused'));
    assert.match(diagnostics.find((x) => x.code === 'include-refused')!.message, /outside the workspace and the include paths, and this workspace is not trusted/);
    // Trusted again: the same include is read.
    const since = session.client.diagnostics.length;
    await session.client.conn.sendNotification('scord/workspaceTrust', { trusted: true });
    await session.client.waitForDiagnostics(fileUri(path.join(dir, 'outside.cu')), (p) => !p.diagnostics.some((x) => x.code === 'include-refused'), 20_000, since);
  } finally {
    fs.rmSync(outside, { recursive: true, force: true });
  }
});

/** `n` calls of `f`, one after the other, 100 ms apart. */
async function sequence(n: number, f: () => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    out.push(await f());
    await new Promise((r) => setTimeout(r, 100));
  }
  return out;
}
