// Race and fault diagnostics over a real JSON-RPC connection: a race at the racing
// instruction's exact range with its category, link, related information and data; the front
// end's errors at once, before any run; the last run's findings kept on screen until the next
// run finishes (no publish in between drops them); faults, deadlocks and barrier divergence as
// errors; and close clearing a document's list.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import { URI } from 'vscode-uri';
import { doneDiagnostics, fileUri, fixturePath, fixtureText, range, rangeOf, Severity, startSession, stopSession, textAt, waitForRunEnd, type Session } from '../support/lspKit';

let session: Session;

before(async () => {
  session = await startSession({ analysis: { debounceMs: 20 } });
});

after(async () => {
  await stopSession(session);
});

async function openAndRun(uri: string, text: string): Promise<Diagnostic[]> {
  const since = session.client.states.length;
  await session.client.open(uri, text);
  return (await doneDiagnostics(session.client, uri, 1, since)).diagnostics;
}

// The codes page beside the built server (dist/../docs/diagnostic-codes.md), as the extension ships it.
const CODES_PAGE = URI.file(path.resolve(__dirname, '..', '..', 'docs', 'diagnostic-codes.md')).toString();

test('opening a document runs it at once, not after the debounce: one front-end publish, then the run’s', async () => {
  const { client } = session;
  const uri = 'file:///virtual/open-now.cu';
  // A debounce no test waits out: only an edit waits for it.
  session.perUri.set(uri, { analysis: { debounceMs: 60_000 } });
  const mark = client.diagnostics.length;
  const since = client.states.length;
  await client.open(uri, fixtureText('examples/scoped-counter.cu'));
  const done = await doneDiagnostics(client, uri, 1, since, 20_000);
  assert.deepEqual(
    client.diagnostics.slice(mark).filter((p) => p.uri === uri).map((p) => [p.version, p.diagnostics.map((d) => d.code)]),
    [
      [1, []],
      [1, ['scoped-atomic']],
    ],
  );
  assert.equal(done.diagnostics.length, 1);
  assert.deepEqual(
    client.states.slice(since).filter((s) => s.uri === uri).map((s) => s.state),
    ['running', 'done'],
  );
  await client.close(uri);
  session.perUri.delete(uri);
});

test('a scoped atomic race: at the atomicAdd_block call, a warning with category, link, related access and data', async () => {
  const file = 'examples/scoped-counter.cu';
  const uri = fileUri(fixturePath(file));
  const text = fixtureText(file);
  const list = await openAndRun(uri, text);
  assert.equal(list.length, 1, JSON.stringify(list));
  const [d] = list;
  assert.deepEqual(d.range, range(27, 8, 27, 37));
  assert.equal(textAt(text, d.range), 'atomicAdd_block(&counter, 1u)');
  assert.equal(d.severity, Severity.Warning);
  assert.equal(d.code, 'scoped-atomic');
  assert.deepEqual(d.codeDescription, { href: `${CODES_PAGE}#scoped-atomic` });
  assert.equal(d.source, 'scord');
  assert.match(d.message, /^atomicAdd_block of `counter` in block \d races with the atomicAdd_block at line 28 in block \d: .*use the device-scope `atomicAdd`/);
  // The other access is the same instruction in another block.
  assert.deepEqual(d.relatedInformation, [{ location: { uri, range: range(27, 8, 27, 37) }, message: d.relatedInformation![0].message }]);
  assert.match(d.relatedInformation![0].message, /^the atomicAdd_block of `counter` in block \d that it races with$/);
  assert.deepEqual(d.data, { version: 1, finding: 0, address: 'counter' });
  await session.client.close(uri);
});

test('a race on an operand: the operand `payload[w]`, related to the write in the other lane', async () => {
  const file = 'test/fixtures/races/warp_diverged_nonstrong_racy.cu';
  const uri = fileUri(fixturePath(file));
  const text = fixtureText(file);
  const list = await openAndRun(uri, text);
  assert.equal(list.length, 1, JSON.stringify(list));
  const [d] = list;
  assert.deepEqual(d.range, range(30, 17, 30, 27));
  assert.equal(textAt(text, d.range), 'payload[w]');
  assert.equal(d.code, 'non-strong-access');
  assert.deepEqual(d.codeDescription, { href: `${CODES_PAGE}#non-strong-access` });
  assert.equal(d.severity, Severity.Warning);
  assert.equal(d.relatedInformation?.length, 1);
  assert.deepEqual(d.relatedInformation![0].location, { uri, range: range(23, 8, 23, 30) });
  assert.equal(textAt(text, d.relatedInformation![0].location.range), 'payload[w] = 7 * w + 1');
  assert.match(d.relatedInformation![0].message, /^the write of `d_payload\[0\]` .*that it races with$/);
  assert.deepEqual(d.data, { version: 1, finding: 0, address: 'd_payload[0]' });
  await session.client.close(uri);
});

test('a lock-scope race: related information at the other access and at the block-scope lock acquire and release', async () => {
  const file = 'test/fixtures/races/lock_block_scope_interblock.cu';
  const uri = fileUri(fixturePath(file));
  const text = fixtureText(file);
  const list = await openAndRun(uri, text);
  assert.equal(list.length, 1, JSON.stringify(list));
  const [d] = list;
  assert.equal(d.code, 'lock-scope');
  assert.deepEqual(d.codeDescription, { href: `${CODES_PAGE}#lock-scope` });
  assert.deepEqual(d.range, range(25, 11, 25, 15));
  assert.equal(textAt(text, d.range), 'data');
  assert.deepEqual(
    d.relatedInformation?.map((r) => [r.location.uri, r.location.range, textAt(text, r.location.range)]),
    [
      [uri, range(25, 4, 25, 19), 'data = data + 1'],
      [uri, range(9, 11, 9, 35), 'atomicCAS_block(l, 0, 1)'],
      [uri, range(17, 4, 17, 26), 'atomicExch_block(l, 0)'],
    ],
  );
  assert.match(d.relatedInformation![1].message, /lock is taken here at block scope/);
  assert.match(d.relatedInformation![2].message, /lock is released here at block scope/);
  assert.deepEqual(d.data, { version: 1, finding: 0, address: 'data' });
  await session.client.close(uri);
});

test('front-end errors come at once, before a run; the last run’s race stays until the next run finishes', async () => {
  const { client, events } = session;
  const uri = 'file:///virtual/flicker.cu';
  const v1 = fixtureText('examples/scoped-counter.cu');
  const raceLine = (list: Diagnostic[]) => list.filter((d) => d.code === 'scoped-atomic').map((d) => d.range.start.line);
  assert.deepEqual(raceLine(await openAndRun(uri, v1)), [27]);

  // An edit that moves the race down a line: every publish until the run of v2 is done keeps it.
  let mark = { d: client.diagnostics.length, s: client.states.length, e: events.length };
  await client.change(uri, 2, [{ range: range(0, 0, 0, 0), text: '// one more line\n' }]);
  const d2 = await doneDiagnostics(client, uri, 2, mark.s);
  assert.deepEqual(raceLine(d2.diagnostics), [28]);
  const between = client.diagnostics.slice(mark.d).filter((p) => p.uri === uri);
  assert.ok(between.length >= 2, 'a front-end publish, then the run’s');
  for (const p of between) assert.equal(raceLine(p.diagnostics).length, 1, `publish of v${p.version} dropped the race: ${JSON.stringify(p.diagnostics)}`);
  assert.deepEqual(raceLine(between[0].diagnostics), [27], 'until the run, the last run’s finding as it was');
  assert.equal(between[0].version, 2);

  // A syntax error: published for v3 before any run of v3 starts, beside the race of v2.
  mark = { d: client.diagnostics.length, s: client.states.length, e: events.length };
  const broken = v1.replace('int i = blockIdx.x', 'int i = = blockIdx.x');
  await client.change(uri, 3, broken);
  const syntax = await client.waitForDiagnostics(uri, (p) => p.version === 3 && p.diagnostics.some((d) => d.severity === Severity.Error), 20_000, mark.d);
  const at = client.diagnostics.indexOf(syntax);
  const before = events.slice(mark.e, events.findIndex((e) => e.kind === 'diagnostics' && e.index === at));
  assert.deepEqual(
    before.filter((e) => e.kind === 'state').map((e) => client.states[e.index]).filter((s) => s.uri === uri && s.version === 3),
    [],
    'no run of v3 had started when its syntax error was published',
  );
  const err = syntax.diagnostics.find((d) => d.severity === Severity.Error)!;
  assert.equal(err.source, 'scord');
  assert.equal(err.range.start.line, 24);
  assert.deepEqual(raceLine(syntax.diagnostics), [28], 'the last run’s race is still shown');
  // The run of the broken text ends: its errors (a syntax error: the front end's, which clang
  // would give too), and the race of the last run that ran the program, still at v2's place.
  const end3 = await waitForRunEnd(client, uri, 3, mark.s);
  assert.equal(end3.state, 'done');
  const after3 = [...client.diagnostics].reverse().find((p) => p.uri === uri)!;
  assert.equal(after3.version, 3);
  assert.deepEqual(raceLine(after3.diagnostics), [28]);
  assert.equal(after3.diagnostics.find((d) => d.code === 'scoped-atomic')?.data?.version, 2);
  const errors = after3.diagnostics.filter((d) => d.code !== 'scoped-atomic');
  assert.ok(errors.length >= 1 && errors.every((d) => d.severity === Severity.Error && d.source === 'scord' && d.range.start.line === 24), JSON.stringify(errors));

  // Repaired: the race is back, with fresh data.
  mark = { d: client.diagnostics.length, s: client.states.length, e: events.length };
  await client.change(uri, 4, v1);
  const d4 = await doneDiagnostics(client, uri, 4, mark.s);
  assert.deepEqual(raceLine(d4.diagnostics), [27]);
  assert.equal(d4.diagnostics.length, 1);
  assert.deepEqual(d4.diagnostics[0].data, { version: 4, finding: 0, address: 'counter' });

  // Close: one empty publish, with no version.
  mark = { d: client.diagnostics.length, s: client.states.length, e: events.length };
  await client.close(uri);
  const cleared = await client.waitForDiagnostics(uri, () => true, 10_000, mark.d);
  assert.deepEqual(cleared.diagnostics, []);
  assert.equal(cleared.version, undefined);
});

const FAULTS: { name: string; text: string; code: string; at: string; nth?: number; message: RegExp }[] = [
  {
    name: 'out-of-bounds',
    code: 'out-of-bounds',
    at: 'a[threadIdx.x + 4] = 1',
    message: /^write of 4 bytes at offset 16, past the end of 'd' \(16 bytes/,
    text: `__global__ void k(int *a)
{
    a[threadIdx.x + 4] = 1;
}
int main()
{
    int *d;
    cudaMalloc(&d, 4 * sizeof(int));
    k<<<1, 4>>>(d);
    cudaDeviceSynchronize();
    return 0;
}
`,
  },
  {
    name: 'deadlock',
    code: 'deadlock',
    at: 'flag',
    nth: 1, // in `while (flag == 0)`
    message: /spin .* while no memory changes/,
    text: `__device__ volatile int flag = 0;
__global__ void k()
{
    while (flag == 0)
        ;
}
int main()
{
    k<<<1, 1>>>();
    cudaDeviceSynchronize();
    return 0;
}
`,
  },
  {
    name: 'barrier divergence',
    code: 'barrier-divergence',
    at: '__syncthreads()',
    message: /exited without reaching this __syncthreads; it is in divergent code/,
    text: `__global__ void k(int *a)
{
    if (threadIdx.x < 16) {
        __syncthreads();
    }
    a[threadIdx.x] = 1;
}
int main()
{
    int *d;
    cudaMalloc(&d, 64 * sizeof(int));
    k<<<1, 64>>>(d);
    cudaDeviceSynchronize();
    return 0;
}
`,
  },
];

for (const f of FAULTS) {
  test(`${f.name} is an error at its instruction`, async () => {
    const uri = `file:///virtual/${f.code}.cu`;
    const list = await openAndRun(uri, f.text);
    assert.equal(list.length, 1, JSON.stringify(list));
    const [d] = list;
    assert.equal(d.severity, Severity.Error);
    assert.equal(d.code, f.code);
    assert.equal(d.source, 'scord');
    assert.deepEqual(d.range, rangeOf(f.text, f.at, f.nth));
    assert.match(d.message, f.message);
    assert.equal(d.relatedInformation, undefined);
    const since = session.client.diagnostics.length;
    await session.client.close(uri);
    assert.deepEqual((await session.client.waitForDiagnostics(uri, () => true, 10_000, since)).diagnostics, []);
  });
}

test('the analysis states of a run: running, then done with counts and time', async () => {
  const uri = 'file:///virtual/states.cu';
  const since = session.client.states.length;
  await session.client.open(uri, fixtureText('test/fixtures/programs/atomic_add_block_scope.cu').replace('#ifdef RACEY', '#if 1'));
  const end = await waitForRunEnd(session.client, uri, 1, since);
  const mine = session.client.states.slice(since).filter((s) => s.uri === uri);
  assert.deepEqual(
    mine.map((s) => s.state),
    ['running', 'done'],
  );
  assert.equal(end.races, 2);
  assert.equal(end.findings, 2);
  assert.ok(typeof end.elapsedMs === 'number' && end.elapsedMs > 0);
  assert.equal(end.notRun, undefined);
  // A syntax error: the run of v2 is done, but its program could not run (the status bar says
  // "not analysed", not the stale count); a name nobody declared is a compile error.
  const text = fixtureText('test/fixtures/programs/atomic_add_block_scope.cu');
  await session.client.change(uri, 2, text.replace('int main(', 'int main(( '));
  const syntax = await waitForRunEnd(session.client, uri, 2, since);
  assert.equal(syntax.state, 'done');
  assert.equal(syntax.notRun, 'syntax');
  await session.client.change(uri, 3, text.replace('unsigned int *d_data;', 'unsigned int *d_data;\n    undeclaredName = 1;'));
  assert.equal((await waitForRunEnd(session.client, uri, 3, since)).notRun, 'compile');
  await session.client.close(uri);
});

test('a kernel-only file runs its kernel from its GPUVerify header, as scord check does: the race at its line', async () => {
  // No main: the header gives the launch shape and a -D line the kernel needs.
  const text = `//--blockDim=64 --gridDim=2 -DSLOT=3
__global__ void count(int *hits) {
  atomicAdd_block(&hits[SLOT], 1);
}
`;
  const list = await openAndRun('file:///virtual/kernel-only.cu', text);
  assert.deepEqual(list.map((d) => [d.code, d.range.start.line]), [['scoped-atomic', 2]], JSON.stringify(list));
  const bad = await openAndRun('file:///virtual/kernel-only-bad-header.cu', text.replace('--gridDim=2', '--gridDim=two'));
  assert.deepEqual(bad.map((d) => [d.code, d.range.start.line]), [['launch-header', 0]], JSON.stringify(bad));
});
