// scord/litmus over a real JSON-RPC connection: a library litmus test run exhaustively under
// the weak and sc models (the declared outcome allowed with a witness whose steps point into
// the file, or listed as never reached), random runs that are reproducible from their seed,
// the live text of an unsaved document, programs that cannot run, parameters that are wrong,
// and runs stopped by cancellation or by their time budget — after which the server goes on.
// The Program Output channel's text histogram is checked on the same reports.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { CancellationTokenSource, ResponseError } from 'vscode-languageserver-protocol/node';
import { declaredVerdict, litmusHistogramText } from '../../client/commands/litmusText';
import type { LitmusResult } from '../../server/protocol';
import { fileUri, fixturePath, fixtureText, rangeOf, startSession, stopSession, type Session } from '../support/lspKit';

let session: Session;
const progress: { token: string | number; value: { kind: string; title?: string; cancellable?: boolean } }[] = [];

before(async () => {
  session = await startSession({ analysis: { trigger: 'off' } });
  session.client.conn.onNotification('$/progress', (p: (typeof progress)[number]) => progress.push(p));
});

after(async () => {
  await stopSession(session);
});

const VISIBILITY = 'examples/litmus/visibility-global-inter-nofence.cu';
const LOST_UPDATE = 'examples/litmus/atomic-block-lost-update.cu';

function litmus(params: Record<string, unknown>, token?: CancellationTokenSource['token']): Promise<LitmusResult> {
  // With no token argument at all: an `undefined` one would be sent as a second parameter.
  return (token ? session.client.conn.sendRequest('scord/litmus', params, token) : session.client.conn.sendRequest('scord/litmus', params)) as Promise<LitmusResult>;
}

async function rejection(p: Promise<unknown>): Promise<ResponseError<unknown>> {
  const e = await p.then(
    () => assert.fail('the request should have failed'),
    (x: unknown) => x,
  );
  assert.ok(e instanceof ResponseError, String(e));
  return e;
}

function sumOf(r: LitmusResult): number {
  return r.outcomes.reduce((n, o) => n + o.count, 0);
}

async function waitForProgress(token: string, kind: string, since: number): Promise<void> {
  // $/progress is a notification: its arrival is paced by a round trip, not a sleep.
  for (let i = 0; i < 200 && !progress.slice(since).some((p) => p.token === token && p.value.kind === kind); i++) {
    await session.client.request('textDocument/hover', { textDocument: { uri: 'file:///virtual/none.cu' }, position: { line: 0, character: 0 } });
  }
  assert.ok(progress.slice(since).some((p) => p.token === token && p.value.kind === kind), `progress ${kind} for ${token}`);
}

test('gpu-weak, exhaustive: the declared outcome is allowed, with a witness that points into the file', async () => {
  const path = fixturePath(VISIBILITY);
  const uri = fileUri(path);
  const text = fixtureText(VISIBILITY);
  await session.client.open(uri, text);
  const mark = progress.length;
  const r = await litmus({ uri, model: 'gpu-weak', exhaustive: true, workDoneToken: 'litmus-weak' });
  assert.equal(r.uri, uri);
  assert.deepEqual([r.model, r.exhaustive, r.complete, r.errors], ['gpu-weak', true, true, []]);
  assert.ok(r.elapsedMs > 0);
  assert.equal(sumOf(r), r.runs);
  const declared = r.outcomes.find((o) => o.declared);
  assert.ok(declared, 'the declared outcome is listed');
  assert.equal(declared.outcome, 'r1=2 r2=0');
  assert.ok(declared.allowed && declared.count > 0, JSON.stringify(declared));
  // The witness: thread 1's store of a and thread 2's load of b, at their lines of the file.
  const lines = declared.witness.filter((s) => s.range?.file === path).map((s) => s.range!.start.line);
  assert.ok(lines.includes(rangeOf(text, 'a = 1;').start.line), `a step at a = 1: ${JSON.stringify(declared.witness)}`);
  assert.ok(lines.includes(rangeOf(text, 'int r1 = b;').start.line), `a step at r1 = b: ${JSON.stringify(declared.witness)}`);
  assert.ok(declared.witness.some((s) => /block 0/.test(s.actor)) && declared.witness.some((s) => /block 1/.test(s.actor)));
  // The sequentially consistent outcomes are there too.
  assert.ok(r.outcomes.some((o) => o.outcome === 'r1=2 r2=1' && o.count > 0));
  assert.deepEqual(
    progress.slice(mark),
    [
      { token: 'litmus-weak', value: { kind: 'begin', title: 'Litmus visibility-global-inter-nofence.cu under gpu-weak (every execution)', cancellable: true } },
      { token: 'litmus-weak', value: { kind: 'end' } },
    ],
  );
  // The Program Output channel's histogram of the same report.
  const out = litmusHistogramText('Litmus visibility-global-inter-nofence.cu under gpu-weak', r, declaredVerdict(text, 'gpu-weak'));
  assert.equal(out[0], '── Litmus visibility-global-inter-nofence.cu under gpu-weak ──');
  const row = out.find((l) => l.trimStart().startsWith('r1=2 r2=0'));
  assert.match(row ?? '', new RegExp(`█+\\s+${declared.count}\\s+[\\d.]+%\\s+allowed, declared$`));
  assert.ok(out.includes(`${r.runs} executions under gpu-weak: every execution explored; ${r.outcomes.filter((o) => o.count > 0).length} distinct outcomes, ${r.elapsedMs.toFixed(0)} ms`), out.join('\n'));
  assert.ok(out.some((l) => l.startsWith('declared outcome "r1=2 r2=0": allowed under gpu-weak — seen ') && l.endsWith(', as the file declares')), out.join('\n'));
  await session.client.close(uri);
});

test('sc, exhaustive: the declared outcome is listed, never reached, forbidden; random runs repeat with their seed', async () => {
  const uri = fileUri(fixturePath(VISIBILITY));
  const text = fixtureText(VISIBILITY);
  await session.client.open(uri, text);
  const sc = await litmus({ uri, model: 'sc', exhaustive: true });
  assert.deepEqual([sc.complete, sc.errors], [true, []]);
  const declared = sc.outcomes.find((o) => o.declared);
  assert.deepEqual(declared, { outcome: 'r1=2 r2=0', count: 0, allowed: false, declared: true, witness: [] });
  assert.deepEqual(sc.outcomes.filter((o) => o.count > 0).map((o) => o.outcome).sort(), ['r1=0 r2=0', 'r1=0 r2=1', 'r1=2 r2=1']);
  const out = litmusHistogramText('sc', sc, declaredVerdict(text, 'sc'));
  assert.match(out.find((l) => l.trimStart().startsWith('r1=2 r2=0')) ?? '', /\s0\s+0\.0%\s+forbidden, declared$/);
  assert.ok(out.includes('declared outcome "r1=2 r2=0": forbidden under sc — never seen, as the file declares'), out.join('\n'));

  const once = await litmus({ uri, model: 'gpu-weak', runs: 60, seed: 11 });
  const again = await litmus({ uri, model: 'gpu-weak', runs: 60, seed: 11 });
  assert.deepEqual([once.runs, sumOf(once), once.exhaustive], [60, 60, false]);
  assert.deepEqual({ ...again, elapsedMs: 0 }, { ...once, elapsedMs: 0 }, 'the same seed gives the same histogram and witnesses');
  for (const o of once.outcomes) if (o.count > 0) assert.ok(['r1=0 r2=0', 'r1=0 r2=1', 'r1=2 r2=1', 'r1=2 r2=0'].includes(o.outcome), o.outcome);
  await session.client.close(uri);
});

test('an unsaved document is run as it stands: an edit that widens the atomic removes the lost update', async () => {
  const uri = 'untitled:Untitled-litmus';
  const text = fixtureText(LOST_UPDATE);
  await session.client.open(uri, text);
  const racy = await litmus({ uri, model: 'gpu-weak', exhaustive: true });
  assert.equal(racy.complete, true);
  assert.deepEqual(racy.outcomes.map((o) => [o.outcome, o.allowed, !!o.declared]).sort(), [['counter=1', true, true], ['counter=2', true, false]]);
  // Observed variables instead of the printed output: the same two values of the counter.
  const observed = await litmus({ uri, model: 'gpu-weak', exhaustive: true, observe: ['counter'] });
  assert.deepEqual(observed.outcomes.filter((o) => o.count > 0).map((o) => o.outcome).sort(), ['counter=1', 'counter=2']);
  await session.client.change(uri, 2, text.replace('atomicAdd_block(&counter, 1);', 'atomicAdd(&counter, 1);'));
  const fixed = await litmus({ uri, model: 'gpu-weak', exhaustive: true });
  assert.deepEqual(fixed.outcomes.map((o) => [o.outcome, o.count > 0, o.allowed]).sort(), [['counter=1', false, false], ['counter=2', true, true]]);
  await session.client.close(uri);
});

test('a program that cannot run reports its errors with their place, and no outcome', async () => {
  const uri = 'file:///virtual/broken-litmus.cu';
  await session.client.open(uri, '// outcome: r=1\n__global__ void k() { int x = ; }\nint main() { k<<<1, 1>>>(); return 0; }\n');
  const r = await litmus({ uri, model: 'sc', exhaustive: true });
  assert.equal(r.runs, 0);
  assert.ok(r.errors.length > 0);
  assert.equal(r.errors[0]!.range?.start.line, 1, JSON.stringify(r.errors));
  assert.ok(r.outcomes.every((o) => o.count === 0));
  const out = litmusHistogramText('broken', r);
  assert.match(out[1] ?? '', /^error: \/virtual\/broken-litmus\.cu:2:\d+: expected an expression/);
  await session.client.close(uri);
});

test('wrong parameters are refused with InvalidParams and a message that says what to send', async () => {
  const uri = fileUri(fixturePath(VISIBILITY));
  await session.client.open(uri, fixtureText(VISIBILITY));
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ uri, model: 'tso' }, /unknown memory model "tso": use sc, gpu-weak, gpu-strong/],
    [{ uri, model: 'sc', runs: 0 }, /runs must be a whole number from 1 to 1000000, not 0/],
    [{ uri, model: 'sc', runs: 2.5 }, /runs must be a whole number/],
    [{ uri, model: 'sc', exhaustive: 'yes' }, /exhaustive must be true or false/],
    [{ uri, model: 'sc', observe: ['a', '1x'] }, /observe names "1x", which is not a variable name/],
    [{ uri, model: 'sc', timeBudgetMs: -5 }, /timeBudgetMs must be a positive whole number/],
    [{ uri: 'file:///virtual/not-there.cu', model: 'sc' }, /not-there\.cu is neither open nor readable/],
  ];
  for (const [params, message] of cases) {
    const e = await rejection(litmus(params));
    assert.equal(e.code, -32602, `${JSON.stringify(params)}: InvalidParams (${e.message})`);
    assert.match(e.message, message);
  }
  await session.client.close(uri);
});

test('a litmus run is stopped by cancellation and by its time budget; the server goes on', async () => {
  const uri = fileUri(fixturePath(VISIBILITY));
  await session.client.open(uri, fixtureText(VISIBILITY));
  const mark = progress.length;
  const source = new CancellationTokenSource();
  const t0 = Date.now();
  const running = litmus({ uri, model: 'gpu-weak', runs: 1_000_000, workDoneToken: 'litmus-long' }, source.token);
  await waitForProgress('litmus-long', 'begin', mark);
  source.cancel();
  const cancelled = await rejection(running);
  assert.equal(cancelled.code, -32800, cancelled.message);
  assert.match(cancelled.message, /the litmus run was cancelled/);
  assert.ok(Date.now() - t0 < 8000, 'stopped well before the 10 s budget');
  await waitForProgress('litmus-long', 'end', mark);

  const t1 = Date.now();
  const over = await rejection(litmus({ uri, model: 'gpu-weak', runs: 1_000_000, timeBudgetMs: 300 }));
  assert.match(over.message, /stopped after 300 ms \(scord\.analysis\.timeBudgetMs\): ask for fewer runs/);
  assert.ok(Date.now() - t1 >= 300, 'not before the budget');

  const after = await litmus({ uri, model: 'sc', runs: 5 });
  assert.deepEqual([after.runs, sumOf(after)], [5, 5]);
  await session.client.close(uri);
});
