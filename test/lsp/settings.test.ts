// Settings over a real JSON-RPC connection (the server asks with workspace/configuration, per
// document): the race severity, preprocessor defines, the analysis trigger (on type, on save,
// off), hardware-faithful detection and lockstep scheduling all change what is published; a
// configuration change re-analyses open documents; a wrong value falls back to its default.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { doneDiagnostics, fileUri, fixturePath, fixtureText, range, Severity, startSession, stopSession, waitForState, type Session } from '../support/lspKit';

let session: Session;
const BASE = { analysis: { debounceMs: 20 } };

before(async () => {
  session = await startSession(BASE);
});

after(async () => {
  await stopSession(session);
});

function summary(p: PublishDiagnosticsParams): [string, number, number][] {
  return p.diagnostics.map((d) => [String(d.code), d.range.start.line, d.severity!]);
}

/** Opens a document with its own settings and returns the diagnostics of its first run. */
async function openWith(uri: string, text: string, settings: Record<string, unknown>): Promise<PublishDiagnosticsParams> {
  session.perUri.set(uri, settings);
  const since = session.client.states.length;
  await session.client.open(uri, text);
  return doneDiagnostics(session.client, uri, 1, since);
}

/** Re-announces the configuration (as VS Code does on a settings edit) and waits for `uri`'s next run. */
async function reconfigure(uri: string, settings: Record<string, unknown>): Promise<PublishDiagnosticsParams> {
  session.perUri.set(uri, settings);
  const since = session.client.states.length;
  await session.client.configure(BASE);
  const done = await waitForState(session.client, (s) => s.uri === uri && s.state === 'done', since, `the run of ${uri} after the settings change`);
  return doneDiagnostics(session.client, uri, done.version, session.client.states.indexOf(done));
}

async function close(uri: string): Promise<void> {
  await session.client.close(uri);
  session.perUri.delete(uri);
}

test('diagnostics.raceSeverity: the race’s severity follows the setting; faults stay errors', async () => {
  const uri = 'file:///virtual/severity.cu';
  const text = fixtureText('examples/scoped-counter.cu');
  assert.deepEqual(summary(await openWith(uri, text, BASE)), [['scoped-atomic', 27, Severity.Warning]]);
  assert.deepEqual(summary(await reconfigure(uri, { ...BASE, diagnostics: { raceSeverity: 'error' } })), [['scoped-atomic', 27, Severity.Error]]);
  assert.deepEqual(summary(await reconfigure(uri, { ...BASE, diagnostics: { raceSeverity: 'hint' } })), [['scoped-atomic', 27, Severity.Hint]]);
  // Not a severity: the default.
  assert.deepEqual(summary(await reconfigure(uri, { ...BASE, diagnostics: { raceSeverity: 'loud' } })), [['scoped-atomic', 27, Severity.Warning]]);
  await close(uri);

  const oob = 'file:///virtual/severity-oob.cu';
  const faulty = '__global__ void k(int *a) { a[threadIdx.x + 1] = 1; }\nint main() { int *d; cudaMalloc(&d, 4); k<<<1, 1>>>(d); cudaDeviceSynchronize(); return 0; }\n';
  assert.deepEqual(summary(await openWith(oob, faulty, { ...BASE, diagnostics: { raceSeverity: 'hint' } })), [['out-of-bounds', 0, Severity.Error]]);
  await close(oob);
});

test('preprocessor.defines: -DRACEY switches the program to its racy variant', async () => {
  const file = 'test/fixtures/programs/atomic_add_block_scope.cu';
  const uri = fileUri(fixturePath(file));
  const text = fixtureText(file);
  assert.deepEqual(summary(await openWith(uri, text, BASE)), []);
  const racy = await reconfigure(uri, { ...BASE, preprocessor: { defines: ['RACEY'] } });
  assert.deepEqual(summary(racy), [
    ['scoped-atomic', 27, Severity.Warning],
    ['scoped-atomic', 37, Severity.Warning],
  ]);
  assert.deepEqual(racy.diagnostics[0].range, range(27, 4, 27, 32));
  assert.deepEqual(summary(await reconfigure(uri, { ...BASE, preprocessor: { defines: ['RACEY=1', 'OTHER'] } })).length, 2);
  assert.deepEqual(summary(await reconfigure(uri, BASE)), []);
  await close(uri);
});

test('detector.hardwareFaithful: a block-scope lock is reported as a missing lock', async () => {
  const file = 'test/fixtures/races/lock_block_scope_interblock.cu';
  const uri = fileUri(fixturePath(file));
  const exact = await openWith(uri, fixtureText(file), BASE);
  assert.deepEqual(summary(exact), [['lock-scope', 25, Severity.Warning]]);
  assert.equal(exact.diagnostics[0].relatedInformation?.length, 3, 'the other access, the lock acquire and its release');
  const faithful = await reconfigure(uri, { ...BASE, detector: { hardwareFaithful: true } });
  assert.deepEqual(summary(faithful), [['missing-lock', 25, Severity.Warning]]);
  assert.deepEqual(faithful.diagnostics[0].range, exact.diagnostics[0].range);
  assert.equal(faithful.diagnostics[0].relatedInformation?.length, 1, 'hardware-faithful tables do not name the lock');
  await close(uri);
});

test('simulator.memoryModel: under gpu-weak the scoped race loses updates, and its diagnostic says so', async () => {
  const uri = 'file:///virtual/weak-counter.cu';
  const text = fixtureText('examples/scoped-counter.cu');
  const sc = await openWith(uri, text, BASE);
  assert.deepEqual(summary(sc), [['scoped-atomic', 27, Severity.Warning]]);
  assert.doesNotMatch(sc.diagnostics[0].message, /Observed under/);
  const weak = await reconfigure(uri, { ...BASE, simulator: { memoryModel: 'gpu-weak' } });
  assert.deepEqual(summary(weak), [['scoped-atomic', 27, Severity.Warning]]);
  assert.match(weak.diagnostics[0].message, /\nObserved under gpu-weak: the block-scope update of counter at line 28 \(to \d+\) was lost/);
  assert.match(weak.diagnostics[0].message, /where a sequentially consistent run prints "counted 171 events/);
  const bogus = await reconfigure(uri, { ...BASE, simulator: { memoryModel: 'tso' } });
  assert.doesNotMatch(bogus.diagnostics[0].message, /Observed under/, 'a wrong value is the default, sc');
  await close(uri);
});

test('simulator.scheduling: lockstep warps do not race between diverged lanes', async () => {
  for (const file of ['test/fixtures/races/warp_diverged_lockstep.cu', 'test/fixtures/races/warp_diverged_global_racy.cu']) {
    const uri = fileUri(fixturePath(file));
    const text = fixtureText(file);
    const line = text.split('\n').findIndex((l) => l.includes('seen[w] = slot[w];'));
    assert.deepEqual(summary(await openWith(uri, text, BASE)), [['missing-block-fence', line, Severity.Warning]], file);
    assert.deepEqual(summary(await reconfigure(uri, { ...BASE, simulator: { scheduling: 'lockstep' } })), [], file);
    assert.deepEqual(summary(await reconfigure(uri, { ...BASE, simulator: { scheduling: 'sideways' } })), [['missing-block-fence', line, Severity.Warning]], `${file}: a wrong value is the default`);
    await close(uri);
  }
});

/**
 * Proves that no run of `uri` started since `since` without a sleep: a sentinel document
 * (analysed on type, with the same debounce) is edited now, and its run finishes. A run of
 * `uri` triggered earlier would have started before it (timers fire in order).
 */
async function assertNoRunSince(uri: string, since: number, sentinel: string): Promise<void> {
  const { client } = session;
  const version = (sentinelVersion += 1);
  const mark = client.states.length;
  await client.change(sentinel, version, `// ${version}\n${SENTINEL}`);
  await waitForState(client, (s) => s.uri === sentinel && s.version === version && s.state === 'done', mark, 'the sentinel’s run');
  assert.deepEqual(
    client.states.slice(since).filter((s) => s.uri === uri),
    [],
    `no run of ${uri}`,
  );
}
let sentinelVersion = 1;
/** The front end's errors for `int i = = blockIdx.x` in scoped-counter.cu. */
const SYNTAX = [
  ['expected-expression', range(24, 12, 24, 13), Severity.Error],
  ['expected-token', range(24, 13, 24, 13), Severity.Error],
];
const SENTINEL = '__global__ void k(int *a) { a[threadIdx.x] = 1; }\nint main() { int *d; cudaMalloc(&d, 64); k<<<1, 16>>>(d); cudaDeviceSynchronize(); return 0; }\n';

test('analysis.trigger onSave: an edit shows front-end problems only; the save runs the analysis', async () => {
  const { client } = session;
  const sentinel = 'file:///virtual/sentinel-save.cu';
  sentinelVersion = 1;
  await openWith(sentinel, SENTINEL, BASE);
  const uri = 'file:///virtual/on-save.cu';
  const clean = fixtureText('examples/scoped-counter.cu').replace('atomicAdd_block(&counter', 'atomicAdd(&counter');
  // Opening runs once (there is nothing to wait for a save for).
  assert.deepEqual(summary(await openWith(uri, clean, { analysis: { debounceMs: 20, trigger: 'onSave' } })), []);

  let since = client.states.length;
  let mark = client.diagnostics.length;
  const racy = fixtureText('examples/scoped-counter.cu');
  await client.change(uri, 2, racy);
  await client.waitForDiagnostics(uri, (p) => p.version === 2, 10_000, mark);
  await assertNoRunSince(uri, since, sentinel);
  assert.deepEqual(summary([...client.diagnostics].reverse().find((p) => p.uri === uri)!), [], 'the race is not found before the save');

  // A syntax error shows at once, still without a run.
  mark = client.diagnostics.length;
  await client.change(uri, 3, racy.replace('int i = blockIdx.x', 'int i = = blockIdx.x'));
  const syntax = await client.waitForDiagnostics(uri, (p) => p.version === 3, 10_000, mark);
  assert.deepEqual(
    syntax.diagnostics.map((d) => [d.code, d.range, d.severity]),
    SYNTAX,
  );
  await client.change(uri, 4, racy);
  await assertNoRunSince(uri, since, sentinel);

  since = client.states.length;
  await client.save(uri);
  const saved = await doneDiagnostics(client, uri, 4, since);
  assert.deepEqual(summary(saved), [['scoped-atomic', 27, Severity.Warning]]);
  await close(uri);
  await close(sentinel);
});

test('analysis.trigger off: front-end diagnostics only, never a run', async () => {
  const { client } = session;
  const sentinel = 'file:///virtual/sentinel-off.cu';
  sentinelVersion = 1;
  await openWith(sentinel, SENTINEL, BASE);
  const uri = 'file:///virtual/off.cu';
  session.perUri.set(uri, { analysis: { debounceMs: 20, trigger: 'off' } });
  const since = client.states.length;
  let mark = client.diagnostics.length;
  const racy = fixtureText('examples/scoped-counter.cu');
  await client.open(uri, racy);
  assert.deepEqual((await client.waitForDiagnostics(uri, (p) => p.version === 1, 10_000, mark)).diagnostics, []);
  mark = client.diagnostics.length;
  await client.change(uri, 2, racy.replace('int i = blockIdx.x', 'int i = = blockIdx.x'));
  const syntax = await client.waitForDiagnostics(uri, (p) => p.version === 2, 10_000, mark);
  assert.deepEqual(
    syntax.diagnostics.map((d) => [d.code, d.range, d.severity]),
    SYNTAX,
  );
  await client.change(uri, 3, racy);
  await client.save(uri);
  await assertNoRunSince(uri, since, sentinel);
  assert.deepEqual([...client.diagnostics].reverse().find((p) => p.uri === uri)!.diagnostics, []);
  // An explicit run still works.
  const run = await client.request<{ findings: { category: string }[] }>('scord/run', { uri });
  assert.deepEqual(
    run.findings.map((f) => f.category),
    ['scoped-atomic'],
  );
  await close(uri);
  await close(sentinel);
});
