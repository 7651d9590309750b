// Code lenses, hovers, scord/run and scord/inspect over a real JSON-RPC connection: a lens
// above each kernel and `main` with the last run's counts; hovers on atomics and fences (their
// scope, and the races they take part in) and on racing accesses (the metadata table);
// scord/run with work-done progress, for `main` or one kernel of a kernel-only file, stopped
// by $/cancelRequest or by window/workDoneProgress/cancel; scord/inspect with the detector's
// state, and with an address the accesses to it in order.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { CancellationTokenSource, ResponseError, type CodeLens, type Hover, type MarkupContent } from 'vscode-languageserver-protocol/node';
import type { InspectResult, KernelsResult, RunResult } from '../../server/protocol';
import { launchText } from '../../sims/host/launchDescription';
import { doneDiagnostics, fileUri, fixturePath, fixtureText, range, rangeOf, startSession, stopSession, textAt, type Session } from '../support/lspKit';

let session: Session;
const progress: { token: string | number; value: { kind: string; title?: string; cancellable?: boolean } }[] = [];
let lensRefreshes = 0;

before(async () => {
  session = await startSession({ analysis: { debounceMs: 20 } });
  session.client.conn.onNotification('$/progress', (p: (typeof progress)[number]) => progress.push(p));
  session.client.conn.onRequest('workspace/codeLens/refresh', () => {
    lensRefreshes++;
    return null;
  });
});

after(async () => {
  await stopSession(session);
});

async function openAndRun(uri: string, text: string): Promise<void> {
  const since = session.client.states.length;
  await session.client.open(uri, text);
  await doneDiagnostics(session.client, uri, 1, since);
}

function lenses(uri: string): Promise<CodeLens[]> {
  return session.client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
}

function hoverAt(uri: string, line: number, character: number): Promise<Hover | null> {
  return session.client.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line, character } });
}

const markdown = (h: Hover | null): string => {
  assert.ok(h, 'a hover');
  assert.equal((h.contents as MarkupContent).kind, 'markdown');
  return (h.contents as MarkupContent).value;
};

/** "▶ Run · 1 race · 12.3 ms" → "▶ Run · 1 race · # ms" */
const title = (l: CodeLens): string => l.command!.title.replace(/ · \d+\.\d ms$/, ' · # ms');

test('code lenses: above each kernel and main, with the last run’s races and time', async () => {
  const uri = 'file:///virtual/lenses.cu';
  const text = `__device__ int counter = 0;

__global__ void clean(int *a)
{
    a[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

__global__ void racy()
{
    atomicAdd_block(&counter, 1);
}

__global__ void faulty(int *a)
{
    a[threadIdx.x + 64] = 1;
}

__device__ void helper() {}

int main()
{
    int *d;
    cudaMalloc(&d, 64 * sizeof(int));
    clean<<<2, 32>>>(d);
    racy<<<2, 1>>>();
    faulty<<<1, 1>>>(d);
    cudaDeviceSynchronize();
    return 0;
}
`;
  const refreshesBefore = lensRefreshes;
  await openAndRun(uri, text);
  const list = await lenses(uri);
  assert.deepEqual(
    list.map((l) => [l.range, title(l), l.command!.command, l.command!.arguments]),
    [
      [rangeOf(text, 'clean'), '▶ Run · no races · # ms', 'scord.runKernel', [{ uri, entry: 'clean' }]],
      [rangeOf(text, 'racy'), '▶ Run · 1 race · # ms', 'scord.runKernel', [{ uri, entry: 'racy' }]],
      [rangeOf(text, 'faulty'), '▶ Run · no races · 1 other finding · # ms', 'scord.runKernel', [{ uri, entry: 'faulty' }]],
      [rangeOf(text, 'main'), '▶ Run · 1 race · 1 other finding · # ms', 'scord.runKernel', [{ uri, entry: 'main' }]],
    ],
  );
  for (const l of list) assert.match(l.command!.title, / · \d+\.\d ms$/);
  // The server asked the client to refresh its lenses after the run.
  await session.client.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } });
  assert.ok(lensRefreshes > refreshesBefore, 'workspace/codeLens/refresh after the run');
  await session.client.close(uri);
  assert.deepEqual(await lenses(uri), [], 'no lenses for a closed document');
});

test('code lenses before any run: "▶ Run" alone', async () => {
  const uri = 'file:///virtual/lenses-off.cu';
  session.perUri.set(uri, { analysis: { trigger: 'off' } });
  const text = fixtureText('examples/scoped-counter.cu');
  const mark = session.client.diagnostics.length;
  await session.client.open(uri, text);
  await session.client.waitForDiagnostics(uri, () => true, 10_000, mark);
  assert.deepEqual(
    (await lenses(uri)).map((l) => [l.range, l.command!.title]),
    [
      [range(22, 16, 22, 27), '▶ Run'],
      [range(31, 4, 31, 8), '▶ Run'],
    ],
  );
  await session.client.close(uri);
  session.perUri.delete(uri);
});

test('hovers: an atomic or fence tells its scope and its races; a racing access shows its metadata', async () => {
  const file = 'test/fixtures/races/lock_block_scope_interblock.cu';
  const uri = fileUri(fixturePath(file));
  const text = fixtureText(file);
  await openAndRun(uri, text);

  // The lock acquire: block scope, part of the lock-scope race.
  const cas = await hoverAt(uri, 9, 14);
  assert.deepEqual(cas!.range, range(9, 11, 9, 26));
  assert.equal(textAt(text, cas!.range!), 'atomicCAS_block');
  const casText = markdown(cas);
  assert.match(casText, /^`atomicCAS_block` — \*\*block scope\*\*: atomic only with respect to threads of the same thread block/);
  assert.match(casText, /In the last run it takes part in 1 race:\n- read of `data` in block 1 races with the write at line 26 in block 0/);
  // The unlock and the block fence are rewritten by the race's fix: they take part too.
  assert.match(markdown(await hoverAt(uri, 17, 6)), /^`atomicExch_block` — \*\*block scope\*\*[^]*takes part in 1 race/);
  assert.match(markdown(await hoverAt(uri, 11, 6)), /^`__threadfence_block` — \*\*block-scope fence\*\*[^]*takes part in 1 race/);

  // The racing access: the metadata entry at the race, in a compact table; the diagnostic's
  // sentence, which VS Code shows above the hover, is not repeated.
  const access = await hoverAt(uri, 25, 12);
  assert.deepEqual(access!.range, range(25, 11, 25, 15));
  const accessText = markdown(access);
  assert.match(accessText, /^\*\*lock-scope\*\* race between blocks: the detector's metadata when it was found\n\n\| `data` \| \|\n\|---\|---\|\n/);
  assert.doesNotMatch(accessText, /races with/);
  assert.match(accessText, /\| last access \| write, block 0 warp 0 lane 0, strong \|/);
  assert.match(accessText, /\| block \/ device fence ID \| 1 → 2 \/ \d+( \(no fence since\)| → \d+) \|/);
  assert.match(accessText, /\| locks held \| L \(block 0\) \|/);
  assert.ok(accessText.split('\n').length <= 8, 'a compact table');

  // Nothing to say on a comment, a keyword or a plain call.
  assert.equal(await hoverAt(uri, 0, 5), null);
  assert.equal(await hoverAt(uri, 20, 2), null);
  assert.equal(await hoverAt(uri, 5000, 0), null);
  await session.client.close(uri);
  assert.equal(await hoverAt(uri, 9, 14), null, 'closed');
});

test('hovers: a fence that takes part in no race; scopes of device and system atomics', async () => {
  const uri = 'file:///virtual/scopes.cu';
  const text = `__device__ int c = 0;
__global__ void k(int *a)
{
    atomicAdd(&c, 1);
    atomicAdd_system(&c, 1);
    a[blockIdx.x] = 1;
    __threadfence();
    __syncthreads();
}
int main() { int *d; cudaMalloc(&d, 8); k<<<2, 1>>>(d); cudaDeviceSynchronize(); return 0; }
`;
  await openAndRun(uri, text);
  assert.match(markdown(await hoverAt(uri, 3, 6)), /^`atomicAdd` — \*\*device scope\*\*[^]*\n\nIn the last run it takes part in no race\.$/);
  assert.match(markdown(await hoverAt(uri, 4, 6)), /^`atomicAdd_system` — \*\*system scope\*\*/);
  assert.match(markdown(await hoverAt(uri, 6, 6)), /^`__threadfence` — \*\*device-scope fence\*\*/);
  assert.match(markdown(await hoverAt(uri, 7, 6)), /^`__syncthreads` — \*\*barrier\*\*/);
  // An edit makes the run stale: the scope is still told, the races are not claimed.
  await session.client.change(uri, 2, [{ range: range(9, 0, 9, 0), text: '// edited\n' }]);
  assert.match(markdown(await hoverAt(uri, 3, 6)), /^`atomicAdd` — \*\*device scope\*\*: atomic with respect to every thread of the GPU, in every block\.$/);
  await session.client.close(uri);
});

test('scord/run: findings, output and stats of main, with work-done progress', async () => {
  const file = 'examples/scoped-counter.cu';
  const uri = fileUri(fixturePath(file));
  session.perUri.set(uri, { analysis: { trigger: 'off' } });
  await session.client.open(uri, fixtureText(file));
  const mark = progress.length;
  const result = await session.client.request<RunResult>('scord/run', { uri, workDoneToken: 'run-main' });
  assert.equal(result.uri, uri);
  assert.equal(result.analysed, true);
  assert.deepEqual(
    result.findings.map((f) => [f.category, f.location.line, f.location.column, f.location.endLine, f.location.endColumn, f.address]),
    [['scoped-atomic', 28, 9, 28, 38, 'counter']],
  );
  assert.equal(result.findings[0].fixes.length, 1);
  assert.equal(result.findings[0].fixes[0].title, 'Use atomicAdd (device scope)');
  assert.match(result.output, /^counted \d+ events, expected 171/);
  assert.deepEqual({ ...result.stats, steps: undefined, elapsedMs: undefined }, { launches: 1, launched: [{ kernel: 'countEvents', grid: [4, 1, 1], block: [128, 1, 1], args: ['values: int[512]', 'n = 512'] }], steps: undefined, device: 'scord-paper', detection: 'exact', granularity: 4, schedules: 1, exitCode: 0, elapsedMs: undefined });
  assert.ok(result.stats.steps > 1000 && result.stats.elapsedMs > 0);
  assert.deepEqual(result.diagnostics, []);
  assert.deepEqual(
    progress.slice(mark),
    [
      { token: 'run-main', value: { kind: 'begin', title: 'Running scoped-counter.cu', cancellable: true } },
      { token: 'run-main', value: { kind: 'end' } },
    ],
  );
  // Overrides of the settings for one run.
  const faithful = await session.client.request<RunResult>('scord/run', { uri, options: { hardwareFaithful: true, schedules: 2, seed: 7 } });
  assert.equal(faithful.stats.detection, 'hardware-faithful');
  assert.equal(faithful.stats.schedules, 2);
  assert.deepEqual(
    faithful.findings.map((f) => f.category),
    ['scoped-atomic'],
  );
  // The engine and the memory model, for one run.
  const weak = await session.client.request<RunResult>('scord/run', { uri, options: { memoryModel: 'gpu-weak', engine: 'both' } });
  assert.equal(weak.stats.memoryModel, 'gpu-weak');
  assert.equal(weak.stats.engine, 'both');
  assert.match(weak.findings[0].observed ?? '', /^Observed under gpu-weak: the block-scope update of counter/);
  await assert.rejects(session.client.request<RunResult>('scord/run', { uri, options: { memoryModel: 'tso' } }), /options\.memoryModel must be one of sc, gpu-weak, gpu-strong/);
  await session.client.close(uri);
  session.perUri.delete(uri);
});

test('scord/run: one kernel of a kernel-only file, with its launch and arguments', async () => {
  const uri = 'file:///virtual/kernel-only.cu';
  session.perUri.set(uri, { analysis: { trigger: 'off' } });
  const text = '__global__ void bump(int *a, int n)\n{\n    if (threadIdx.x < n)\n        atomicAdd_block(&a[0], 1);\n}\n';
  await session.client.open(uri, text);
  const racy = await session.client.request<RunResult>('scord/run', { uri, entry: { kernel: 'bump', grid: [2, 1, 1], block: [32, 1, 1], args: { n: 8 } } });
  assert.equal(racy.analysed, true);
  assert.deepEqual(
    racy.findings.map((f) => [f.category, f.location.line, f.location.column, f.location.endColumn, f.address]),
    [['scoped-atomic', 4, 9, 34, 'a[0]']],
  );
  assert.equal(racy.stats.launches, 1);
  // One block: no other block to race with. n = 0: no thread does anything.
  assert.deepEqual((await session.client.request<RunResult>('scord/run', { uri, entry: { kernel: 'bump', grid: [1, 1, 1], block: [32, 1, 1], args: { n: 8 } } })).findings, []);
  assert.deepEqual((await session.client.request<RunResult>('scord/run', { uri, entry: { kernel: 'bump', grid: [2, 1, 1], block: [32, 1, 1] } })).findings, []);
  // No main and no launch header: not analysed, and says what a launch needs (as scord check does).
  const noMain = await session.client.request<RunResult>('scord/run', { uri });
  assert.equal(noMain.analysed, false);
  assert.deepEqual(
    noMain.diagnostics.map((d) => d.code),
    ['launch'],
  );
  assert.match(noMain.diagnostics[0].message, /no grid and block size to launch kernel 'bump' with/);
  // A kernel that is not there.
  const none = await session.client.request<RunResult>('scord/run', { uri, entry: { kernel: 'nope', grid: [1, 1, 1], block: [1, 1, 1] } });
  assert.equal(none.analysed, false);
  assert.deepEqual(
    none.diagnostics.map((d) => d.code),
    ['no-kernel'],
  );
  await session.client.close(uri);
  session.perUri.delete(uri);
});

test('scord/run from main: a kernel the program launches runs with the program\'s arguments and memory, and the launch is named', async () => {
  const file = 'examples/scoped-counter.cu';
  const uri = fileUri(fixturePath(file));
  await openAndRun(uri, fixtureText(file));
  // scord/kernels offers the program's own launch, with its arguments in words.
  const kernels = await session.client.request<KernelsResult>('scord/kernels', { uri });
  const k = kernels.kernels.find((x) => x.name === 'countEvents')!;
  assert.equal(k.launchedInProgram, true);
  assert.deepEqual(k.launch, { kernel: 'countEvents', grid: [4, 1, 1], block: [128, 1, 1], args: ['values: int[512]', 'n = 512'] });
  // Run Kernel's request: main up to that launch, which runs with the grid and block given.
  const same = await session.client.request<RunResult>('scord/run', { uri, entry: { kernel: 'countEvents', grid: [4, 1, 1], block: [128, 1, 1], fromMain: true } });
  assert.equal(same.analysed, true);
  assert.deepEqual(same.findings.map((f) => f.category), ['scoped-atomic'], 'the race the program run found');
  assert.equal(same.stats.launches, 1);
  assert.equal(same.output, '', 'the program stops after the launch: nothing printed after it');
  assert.equal(launchText(same.stats.launched![0]), 'countEvents<<<4,128>>>(values: int[512], n = 512)');
  // One block: the same arguments, no other block to race with.
  const one = await session.client.request<RunResult>('scord/run', { uri, entry: { kernel: 'countEvents', grid: [1, 1, 1], block: [128, 1, 1], fromMain: true } });
  assert.deepEqual(one.findings, []);
  assert.equal(launchText(one.stats.launched![0]), 'countEvents<<<1,128>>>(values: int[512], n = 512)');
  await session.client.close(uri);
});

test('scord/run of a kernel on its own: pointers get the element count and contents asked for', async () => {
  const uri = 'file:///virtual/contents.cu';
  session.perUri.set(uri, { analysis: { trigger: 'off' } });
  // Each thread adds its element to one of two words: the element's parity picks the word.
  const text = '__global__ void sum(const int *in, int *out, int n)\n{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n && in[i] % 2 == 1)\n        atomicAdd_block(&out[1], in[i]);\n}\n';
  await session.client.open(uri, text);
  const run = (fill: 'zeros' | 'sequence' | 'random') => session.client.request<RunResult>('scord/run', { uri, entry: { kernel: 'sum', grid: [2, 1, 1], block: [32, 1, 1], args: { n: 64 }, pointers: { in: { elements: 64, fill, seed: 3 }, out: { elements: 2, fill: 'zeros' } } } });
  // Zeros: no element is odd, no atomic runs. A sequence: odd elements in both blocks race on out[1].
  assert.deepEqual((await run('zeros')).findings, []);
  const seq = await run('sequence');
  assert.deepEqual(seq.findings.map((f) => f.category), ['scoped-atomic']);
  assert.equal(launchText(seq.stats.launched![0]), 'sum<<<2,32>>>(in: int[64], out: int[2], n = 64)');
  assert.deepEqual((await run('random')).findings.map((f) => f.category), ['scoped-atomic']);
  await session.client.close(uri);
  session.perUri.delete(uri);
});

const FOREVER = `__global__ void k(int *a)
{
    int s = 0;
    for (int i = 0; i < 1000000000; i++)
        s += i;
    a[threadIdx.x] = s;
}
int main() { int *d; cudaMalloc(&d, 256); k<<<1, 32>>>(d); cudaDeviceSynchronize(); return 0; }
`;

test('scord/run is stopped by $/cancelRequest and by window/workDoneProgress/cancel', async () => {
  const { client } = session;
  const uri = 'file:///virtual/forever.cu';
  session.perUri.set(uri, { analysis: { trigger: 'off' }, simulator: { stepBudget: 2_000_000_000 } });
  await client.open(uri, FOREVER);

  for (const how of ['$/cancelRequest', 'window/workDoneProgress/cancel'] as const) {
    const token = `forever-${how}`;
    const mark = progress.length;
    const source = new CancellationTokenSource();
    const t0 = Date.now();
    const request = client.conn.sendRequest('scord/run', { uri, workDoneToken: token }, source.token);
    // Once it has begun (its progress says so), cancel it.
    await waitForProgress(token, 'begin', mark);
    if (how === '$/cancelRequest') source.cancel();
    else await client.conn.sendNotification('window/workDoneProgress/cancel', { token });
    const error = await request.then(
      () => assert.fail('a cancelled run has no result'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ResponseError, String(error));
    assert.equal(error.code, -32800, `${how}: RequestCancelled (${error.message})`);
    assert.match(error.message, /the run was cancelled/);
    assert.ok(Date.now() - t0 < 8000, `${how}: stopped well before the 10 s budget`);
    assert.deepEqual(
      progress.slice(mark).map((p) => [p.token, p.value.kind]),
      [
        [token, 'begin'],
        [token, 'end'],
      ],
    );
  }
  // The server goes on: a quick run answers.
  await client.change(uri, 2, FOREVER.replace('1000000000', '10'));
  assert.equal((await client.request<RunResult>('scord/run', { uri })).analysed, true);
  await client.close(uri);
  session.perUri.delete(uri);
});

async function waitForProgress(token: string, kind: string, since: number): Promise<void> {
  // $/progress is a notification: its arrival is paced by a round trip, not a sleep.
  for (let i = 0; i < 200 && !progress.slice(since).some((p) => p.token === token && p.value.kind === kind); i++) {
    await session.client.request('textDocument/hover', { textDocument: { uri: 'file:///virtual/none.cu' }, position: { line: 0, character: 0 } });
  }
  assert.ok(progress.slice(since).some((p) => p.token === token && p.value.kind === kind), `progress ${kind} for ${token}`);
}

const HELD = `__device__ int L = 0;
__device__ int data = 0;

__global__ void k()
{
    __syncthreads();
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        while (atomicCAS(&L, 0, 1) != 0)
            ;
        __threadfence();
        data = data + 1;
    }
    __syncthreads();
}

int main()
{
    k<<<2, 64>>>();
    cudaDeviceSynchronize();
    return 0;
}
`;

test('scord/inspect: the detector’s state after the last run, and the accesses to one address in order', async () => {
  const { client } = session;
  const uri = 'file:///virtual/inspect.cu';
  // Before any run: nothing.
  session.perUri.set(uri, { analysis: { trigger: 'off' } });
  await client.open(uri, HELD);
  assert.deepEqual(await client.request<InspectResult>('scord/inspect', { uri }), { uri, version: null, state: null, findings: [], stats: null, finishedAt: null });
  await client.close(uri);
  session.perUri.delete(uri);

  await openAndRun(uri, HELD);
  const r = await client.request<InspectResult>('scord/inspect', { uri });
  assert.equal(r.uri, uri);
  assert.equal(r.version, 1);
  assert.deepEqual(r.findings, []);
  assert.equal(r.stats!.launches, 1);
  const state = r.state!;
  assert.equal(state.precision, 'exact');
  assert.equal(state.granularity, 4);
  // The lock word is an atomically written word too.
  assert.equal(state.entriesTotal, 2);
  assert.deepEqual(
    state.entries.map((e) => [e.address, e.last.access, e.last.accessor, e.last.locks]),
    [['L', 'atomicCAS', { block: 0, warp: 0, lane: 0 }, []], ['data', 'write', { block: 0, warp: 0, lane: 0 }, ['L']]],
  );
  // The lock still held at the end, taken at the atomicCAS; the barrier count of each block.
  assert.deepEqual(
    state.lockTables.map((t) => [t.block, t.warp, t.lane, t.locks.map((l) => [l.name, l.scope, l.held, l.acquire.start.line, l.acquire.start.character, l.acquire.end.character])]),
    [[0, 0, 0, [['L', 'device', true, 7, 15, 34]]]],
  );
  assert.deepEqual(state.barriers, [
    { block: 0, barrierId: 2 },
    { block: 1, barrierId: 2 },
  ]);
  // The one thread that fenced: its device fence ID counts its __threadfence().
  assert.deepEqual(state.fenceFiles, [{ block: 0, warp: 0, lane: 0, blockFenceId: 0, deviceFenceId: 1 }]);
  assert.equal(state.trace, undefined);

  // With an address: every access to it, in order (the read of `data + 1`, then the write).
  const traced = await client.request<InspectResult>('scord/inspect', { uri, address: 'data' });
  assert.equal(traced.version, 1);
  const trace = traced.state!.trace!;
  assert.equal(trace.address, 'data');
  assert.equal(trace.truncated, false);
  assert.deepEqual(
    trace.accesses.map((a) => [a.launch, a.accessor, a.access, a.range.start.line, a.range.start.character, a.range.end.character, a.strong]),
    [
      [1, { block: 0, warp: 0, lane: 0 }, 'read', 10, 15, 19, false],
      [1, { block: 0, warp: 0, lane: 0 }, 'write', 10, 8, 23, false],
    ],
  );
  // The last run's state is unchanged by the traced run.
  assert.deepEqual((await client.request<InspectResult>('scord/inspect', { uri })).state, state);

  // Many accesses: all 171 atomicAdd_block of scoped-counter.cu, by increasing block.
  const sc = 'file:///virtual/inspect-counter.cu';
  await openAndRun(sc, fixtureText('examples/scoped-counter.cu'));
  const counter = (await client.request<InspectResult>('scord/inspect', { uri: sc, address: 'counter' })).state!.trace!;
  assert.equal(counter.accesses.length, 171);
  assert.ok(counter.accesses.every((a) => a.access === 'atomicAdd_block' && a.range.start.line === 27 && a.strong));
  const blocks = counter.accesses.map((a) => a.accessor.block);
  assert.deepEqual(new Set(blocks), new Set([0, 1, 2, 3]));
  await client.close(sc);
  await client.close(uri);
});

test('scord/run and scord/inspect for a document that is not open', async () => {
  const { client } = session;
  // Not open but on disk: run reads it.
  const uri = fileUri(fixturePath('test/fixtures/races/atomic_block_counter_interblock.cu'));
  const r = await client.request<RunResult>('scord/run', { uri });
  assert.deepEqual(
    r.findings.map((f) => [f.category, f.location.line]),
    [['scoped-atomic', 9]],
  );
  // Neither open nor on disk: an error, not a crash.
  await assert.rejects(client.request('scord/run', { uri: 'file:///virtual/missing.cu' }), (e: ResponseError<unknown>) => /neither open nor readable/.test(e.message));
  assert.deepEqual(await client.request<InspectResult>('scord/inspect', { uri: 'file:///virtual/missing.cu', address: 'x' }), { uri: 'file:///virtual/missing.cu', version: null, state: null, findings: [], stats: null, finishedAt: null });
  assert.ok(client.alive);
});
