// Runs over a real JSON-RPC connection: rapid edits stop stale runs (only the last version's
// run completes, and its diagnostics are those of the final text); a run over its time
// budget or its memory limit is stopped and reported once — a `stopped` state, one
// `analysis-stopped` information diagnostic, one message — and the next edit starts a fresh
// worker whose run completes with the right findings.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import type { AnalysisStateParams } from '../../server/protocol';
import { doneDiagnostics, rangeOf, Severity, startSession, stopSession, waitForRunEnd, waitForState, type Session } from '../support/lspKit';
import { analysisProcesses } from '../support/processMemory';

let session: Session;

before(async () => {
  session = await startSession({ analysis: { debounceMs: 20 } });
});

after(async () => {
  await stopSession(session);
});

/** A kernel that loops `n` times per thread, then races on a counter with atomicAdd_block. */
function looping(n: number, scope: '_block' | '' = '_block'): string {
  return `__device__ int counter = 0;
__global__ void k(int *a)
{
    int s = 0;
    for (int i = 0; i < ${n}; i++)
        s += i;
    a[blockIdx.x * blockDim.x + threadIdx.x] = s;
    atomicAdd${scope}(&counter, 1);
}
int main()
{
    int *d;
    cudaMalloc(&d, 64 * sizeof(int));
    k<<<2, 32>>>(d);
    cudaDeviceSynchronize();
    return 0;
}
`;
}

/** The loop runs for minutes unless stopped (the step budget would end it at ~2e9 steps). */
const FOREVER = 1_000_000_000;

function statesOf(uri: string, since: number): AnalysisStateParams[] {
  return session.client.states.slice(since).filter((s) => s.uri === uri);
}

function stoppedDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return list.filter((d) => d.code === 'analysis-stopped');
}

test('rapid edits stop stale runs: only the last version completes, with the final text’s findings', async () => {
  const { client } = session;
  const uri = 'file:///virtual/rapid.cu';
  session.perUri.set(uri, { analysis: { debounceMs: 20 }, simulator: { stepBudget: 2_000_000_000 } });
  const since = client.states.length;
  await client.open(uri, looping(FOREVER));
  await waitForState(client, (s) => s.uri === uri && s.version === 1 && s.state === 'running', since, 'the run of v1 to start');
  // An edit while v1 runs stops it.
  await client.change(uri, 2, looping(FOREVER + 1));
  await waitForState(client, (s) => s.uri === uri && s.version === 2 && s.state === 'running', since, 'the run of v2 to start');
  // Then several edits at once, the last of them a quick program; v2 is stopped by the first.
  await client.change(uri, 3, looping(FOREVER + 2));
  await client.change(uri, 4, looping(FOREVER + 3));
  await client.change(uri, 5, looping(FOREVER + 4, ''));
  const final = looping(10);
  await client.change(uri, 6, final);
  const d6 = await doneDiagnostics(client, uri, 6, since);

  const states = statesOf(uri, since);
  const byVersion = (v: number) => states.filter((s) => s.version === v).map((s) => s.state + (s.reason ? `:${s.reason}` : ''));
  assert.deepEqual(byVersion(1), ['running', 'stopped:cancelled']);
  assert.deepEqual(byVersion(2), ['running', 'stopped:cancelled']);
  for (const v of [3, 4, 5]) {
    const seen = byVersion(v);
    assert.ok(seen.length === 0 || (seen.length === 2 && seen[0] === 'running' && seen[1].startsWith('stopped:')), `v${v}: ${seen.join(', ')}`);
  }
  assert.deepEqual(byVersion(6), ['running', 'done']);
  assert.equal(states.filter((s) => s.state === 'done').length, 1, 'one run completed');
  // Only one run at a time: each `running` is ended before the next starts.
  let open = 0;
  for (const s of states) {
    open += s.state === 'running' ? 1 : -1;
    assert.ok(open === 0 || open === 1, `overlapping runs: ${JSON.stringify(states)}`);
  }
  // The diagnostics are the final text's: the atomicAdd_block race, at its range there.
  assert.deepEqual(
    d6.diagnostics.map((d) => [d.code, d.range]),
    [['scoped-atomic', rangeOf(final, 'atomicAdd_block(&counter, 1)')]],
  );
  assert.deepEqual(d6.diagnostics[0].data, { version: 6, finding: 0, address: 'counter' });
  const last = [...client.diagnostics].reverse().find((p) => p.uri === uri)!;
  assert.equal(last, d6, 'nothing was published after the final run');
  await client.close(uri);
  session.perUri.delete(uri);
});

test('a run over its time budget is stopped and reported once; the next edit recovers', async () => {
  const { client, shown } = session;
  const uri = 'file:///virtual/budget.cu';
  const settings = { analysis: { debounceMs: 20, timeBudgetMs: 200 }, simulator: { stepBudget: 2_000_000_000 } };
  session.perUri.set(uri, settings);
  const shownBefore = shown.length;
  let since = client.states.length;
  const t0 = Date.now();
  await client.open(uri, looping(FOREVER));
  const end1 = await waitForRunEnd(client, uri, 1, since);
  assert.deepEqual({ state: end1.state, reason: end1.reason }, { state: 'stopped', reason: 'timeout' });
  assert.ok(Date.now() - t0 >= 200, 'not before the budget');
  const published = await client.waitForDiagnostics(uri, (p) => stoppedDiagnostics(p.diagnostics).length > 0);
  assert.equal(published.version, 1);
  const [problem] = stoppedDiagnostics(published.diagnostics);
  assert.deepEqual(
    { ...problem, message: undefined },
    { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity: Severity.Information, source: 'scord', code: 'analysis-stopped', message: undefined },
  );
  assert.match(problem.message, /stopped after 200 ms \(scord\.analysis\.timeBudgetMs\)/);
  assert.equal(published.diagnostics.length, 1, 'no findings: no run has completed');
  await waitForMessages(shownBefore + 1);
  assert.equal(shown.length, shownBefore + 1);
  assert.match(shown[shownBefore].message, /stopped after 200 ms/);

  // The same version analysed again (settings announced anew) and over budget again: still one report.
  since = client.states.length;
  let mark = client.diagnostics.length;
  await client.configure({ ...client.settings });
  const again = await waitForRunEnd(client, uri, 1, since);
  assert.equal(again.reason, 'timeout');
  for (const p of client.diagnostics.slice(mark).filter((p) => p.uri === uri)) assert.equal(stoppedDiagnostics(p.diagnostics).length, 1);
  assert.equal(shown.length, shownBefore + 1, 'the problem is said once per version');

  // Fixed: a fresh worker completes the run, and the problem goes away.
  since = client.states.length;
  mark = client.diagnostics.length;
  const fixed = looping(10);
  await client.change(uri, 2, fixed);
  const d2 = await doneDiagnostics(client, uri, 2, since);
  assert.deepEqual(
    d2.diagnostics.map((d) => [d.code, d.range, d.severity]),
    [['scoped-atomic', rangeOf(fixed, 'atomicAdd_block(&counter, 1)'), Severity.Warning]],
  );
  assert.equal(shown.length, shownBefore + 1);
  await client.close(uri);
  session.perUri.delete(uri);
});

test('a run over its memory limit is stopped and reported once; the next edit recovers', async () => {
  const { client, shown } = session;
  const uri = 'file:///virtual/memory.cu';
  session.perUri.set(uri, { analysis: { debounceMs: 20, memoryLimitMb: 32 } });
  // 1,000,000 distinct global words updated by atomics: the detector keeps an entry of objects
  // on the heap for each (a plain write's entry is a row of numbers), far over 32 MB.
  const big = `__global__ void fill(int *a, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = t; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&a[i], i);
}
int main()
{
    int n = 1000000;
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    fill<<<8, 256>>>(d, n);
    cudaDeviceSynchronize();
    return 0;
}
`;
  const shownBefore = shown.length;
  let since = client.states.length;
  await client.open(uri, big);
  const end1 = await waitForRunEnd(client, uri, 1, since, 60_000);
  assert.deepEqual({ state: end1.state, reason: end1.reason }, { state: 'stopped', reason: 'out-of-memory' });
  const published = await client.waitForDiagnostics(uri, (p) => stoppedDiagnostics(p.diagnostics).length > 0);
  assert.equal(published.diagnostics.length, 1);
  assert.equal(published.diagnostics[0].severity, Severity.Information);
  assert.match(published.diagnostics[0].message, /ran out of memory \(32 MB, scord\.analysis\.memoryLimitMb\)/);
  await waitForMessages(shownBefore + 1);
  assert.match(shown[shownBefore].message, /ran out of memory \(32 MB/);

  // A small fill, and a race to show the run is real: done, with the race and no problem.
  since = client.states.length;
  const small = big.replace('int n = 1000000;', 'int n = 1000;').replace('        atomicAdd(&a[i], i);', '        a[i % 8] = i;');
  await client.change(uri, 2, small);
  const d2 = await doneDiagnostics(client, uri, 2, since);
  assert.deepEqual(stoppedDiagnostics(d2.diagnostics), []);
  assert.ok(d2.diagnostics.length >= 1 && d2.diagnostics.every((d) => d.source === 'scord' && d.data), JSON.stringify(d2.diagnostics));
  assert.ok(d2.diagnostics.some((d) => d.range.start.line === 4), 'the racing write `a[i % 8] = i`');
  assert.equal(shown.length, shownBefore + 1, 'said once');
  await client.close(uri);
  session.perUri.delete(uri);
});

test('a run whose process is killed (a native crash, the out-of-memory killer) is a stopped run; the server goes on', async () => {
  const { client } = session;
  const uri = 'file:///virtual/killed.cu';
  session.perUri.set(uri, { analysis: { debounceMs: 20, timeBudgetMs: 60_000 }, simulator: { stepBudget: 2_000_000_000 } });
  let since = client.states.length;
  await client.open(uri, looping(FOREVER));
  await waitForState(client, (s) => s.uri === uri && s.state === 'running', since, 'the run to start');
  // Every analysis process the server has (the one running, the one kept warm) dies at once.
  const hosts = analysisProcesses(client.process.pid!);
  assert.ok(hosts.length >= 1, 'the run has a process of its own');
  for (const pid of hosts) process.kill(pid, 'SIGKILL');
  const end = await waitForRunEnd(client, uri, 1, since);
  assert.equal(end.state, 'stopped');
  assert.match(end.reason ?? '', /killed by SIGKILL/);
  assert.ok(client.alive, 'the server lives');

  since = client.states.length;
  const fixed = looping(10);
  await client.change(uri, 2, fixed);
  const d2 = await doneDiagnostics(client, uri, 2, since);
  assert.deepEqual(
    d2.diagnostics.map((d) => [d.code, d.range]),
    [['scoped-atomic', rangeOf(fixed, 'atomicAdd_block(&counter, 1)')]],
  );
  await client.close(uri);
  session.perUri.delete(uri);
});

/** The problem message is a request the server sends after the publish: wait for it. */
async function waitForMessages(n: number): Promise<void> {
  // It follows the `stopped` state on the same stream; one more round trip flushes it.
  for (let i = 0; i < 50 && session.shown.length < n; i++) await session.client.request('textDocument/hover', { textDocument: { uri: 'file:///virtual/none.cu' }, position: { line: 0, character: 0 } });
}

test('a grid that would not finish within the step budget runs a sample of its blocks, and the editor says so', async () => {
  const { client } = session;
  const uri = 'file:///virtual/sampled.cu';
  // 2,048 blocks of 64 threads, each block writing one of 8 flags: a race across blocks.
  const text = `__global__ void mark(int *flag)
{
    int s = 0;
    for (int i = 0; i < 10; i++)
        s += i;
    if (threadIdx.x == 0)
        flag[blockIdx.x % 8] = s + blockIdx.x;
}
int main()
{
    int *flag;
    cudaMalloc(&flag, 8 * sizeof(int));
    mark<<<2048, 64>>>(flag);
    cudaDeviceSynchronize();
    return 0;
}
`;
  session.perUri.set(uri, { analysis: { debounceMs: 20 }, simulator: { stepBudget: 1_000_000, sampleBlocks: 64 } });
  const since = client.states.length;
  await client.open(uri, text);
  const diagnostics = (await doneDiagnostics(client, uri, 1, since)).diagnostics;
  const done = statesOf(uri, since).find((s) => s.state === 'done');
  const sampled = done?.sampled;
  assert.ok(sampled, JSON.stringify(done));
  assert.equal(sampled.kernel, 'mark');
  assert.equal(sampled.blocks, 2048);
  assert.ok(sampled.simulated >= 64 && sampled.simulated < 2048, `simulated ${sampled.simulated}`);
  const race = diagnostics.find((d) => d.code === 'missing-device-fence');
  assert.ok(race, JSON.stringify(diagnostics.map((d) => d.code)));
  assert.match(race.message, new RegExp(`simulated ${sampled.simulated} of 2,048 blocks of mark: races with the blocks left out are not seen`));
  const info = diagnostics.filter((d) => d.code === 'sampled-blocks');
  assert.equal(info.length, 1);
  assert.equal(info[0].severity, Severity.Information);
  assert.equal(info[0].range.start.line, 12, 'at the launch');
  // With sampling off, the same budget stops the launch instead.
  const unsampled = 'file:///virtual/unsampled.cu';
  session.perUri.set(unsampled, { analysis: { debounceMs: 20 }, simulator: { stepBudget: 1_000_000, sampleBlocks: 0 } });
  await client.open(unsampled, text);
  const whole = (await doneDiagnostics(client, unsampled, 1, since)).diagnostics;
  assert.ok(whole.some((d) => d.code === 'step-budget'), JSON.stringify(whole.map((d) => d.code)));
  assert.ok(!whole.some((d) => d.code === 'sampled-blocks'));
});

test('a kernel-only file whose header asks for blocks the device refuses: its race, and a note at the kernel', async () => {
  const { client } = session;
  const uri = 'file:///virtual/beyond-device.cu';
  const text = `//--blockDim=2048 --gridDim=1
__global__ void mirror(int *out) {
  __shared__ int s[2048];
  s[threadIdx.x] = threadIdx.x;
  out[threadIdx.x] = s[2047 - threadIdx.x];
}
`;
  session.perUri.set(uri, { analysis: { debounceMs: 20 } });
  const since = client.states.length;
  await client.open(uri, text);
  const diagnostics = (await doneDiagnostics(client, uri, 1, since)).diagnostics;
  assert.deepEqual(diagnostics.map((d) => d.code).sort(), ['beyond-device', 'shared-memory'], JSON.stringify(diagnostics));
  const note = diagnostics.find((d) => d.code === 'beyond-device')!;
  assert.equal(note.severity, Severity.Information);
  assert.equal(note.range.start.line, 1, 'at the kernel');
  assert.match(note.message, /a GPU refuses this launch \(cudaErrorInvalidConfiguration\)/);
  await client.close(uri);
});
