// The clang path over a real JSON-RPC connection: a program the hand-written front end cannot
// read (a class template, std::vector) gets its race through clang, and no `not-supported`
// or other misreading of the hand-written front end is ever shown, before or after clang's
// verdict, nor while the file is edited; a program of two files from compile_commands.json
// (with the database's -D flags) gets its race in the kernel's file, once with both files open,
// and follows the other file's unsaved text; a compile error — a half-typed line (the
// hand-written front end's syntax error, at once) or a call clang rejects (clang's error) — is
// shown at its line and keeps the last run's race on screen until the text compiles again.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { doneDiagnostics, fileUri, fixturePath, fixtureText, rangeOf, Severity, startSession, stopSession, waitForState, type Session } from '../support/lspKit';

let session: Session;

before(async () => {
  session = await startSession({ analysis: { debounceMs: 20 } });
});

after(async () => {
  await stopSession(session);
});

/** Clang compiles in the worker: its first call in a process loads a 75 MB module. */
const CLANG_MS = 120_000;

const TEMPLATE = 'test/fixtures/clang/lsp/template-vector.cu';

function publishesOf(uri: string, since: number): PublishDiagnosticsParams[] {
  return session.client.diagnostics.slice(since).filter((p) => p.uri === uri);
}

function races(list: Diagnostic[]): [string, number, number | undefined][] {
  return list.filter((d) => d.code === 'scoped-atomic').map((d) => [String(d.code), d.range.start.line, (d.data as { version?: number } | undefined)?.version]);
}

test('a class template and std::vector: the race through clang, and no not-supported or misreading ever shown', async () => {
  const { client } = session;
  const uri = fileUri(fixturePath(TEMPLATE));
  const text = fixtureText(TEMPLATE);
  const mark = client.diagnostics.length;
  const since = client.states.length;
  await client.open(uri, text);
  const first = await doneDiagnostics(client, uri, 1, since, CLANG_MS);
  const addLine = text.split('\n').findIndex((l) => l.includes('atomicAdd_block(slot, v)'));
  assert.deepEqual(races(first.diagnostics), [['scoped-atomic', addLine, 1]]);
  assert.deepEqual(first.diagnostics.map((d) => d.code), ['scoped-atomic'], 'only the race: no front-end error remains');
  assert.deepEqual(first.diagnostics[0].range, rangeOf(text, 'atomicAdd_block'));
  assert.equal(first.diagnostics[0].severity, Severity.Warning);

  // Edits: the front end's misreadings of this text stay hidden, the race stays until the next run.
  const edited = text.replace('int main()', '// counts events\nint main()');
  await client.change(uri, 2, edited);
  const second = await doneDiagnostics(client, uri, 2, since, CLANG_MS);
  assert.deepEqual(races(second.diagnostics), [['scoped-atomic', addLine, 2]]);
  for (const p of publishesOf(uri, mark)) {
    assert.deepEqual(
      p.diagnostics.filter((d) => d.code !== 'scoped-atomic').map((d) => `${d.code}: ${d.message}`),
      [],
      `v${p.version}: nothing but the race is ever shown`,
    );
  }
  await client.close(uri);
});

test('a half-typed line, then a call clang rejects: each error at its line, and the last run’s race stays', async () => {
  const { client } = session;
  const uri = fileUri(fixturePath(TEMPLATE));
  const text = fixtureText(TEMPLATE);
  const addLine = text.split('\n').findIndex((l) => l.includes('atomicAdd_block(slot, v)'));
  const since = client.states.length;
  await client.open(uri, text);
  assert.deepEqual(races((await doneDiagnostics(client, uri, 1, since, CLANG_MS)).diagnostics), [['scoped-atomic', addLine, 1]]);

  // A call with its arguments still being typed: a syntax error, which the hand-written front
  // end reports at once and clang would too; its misreadings of the rest stay hidden.
  const halfTyped = text.replace('    printf("total %d\\n", total);', '    printf("total %d\\n", ');
  const halfLine = halfTyped.split('\n').findIndex((l) => l === '    printf("total %d\\n", ');
  assert.notEqual(halfLine, -1);
  const mark = client.diagnostics.length;
  await client.change(uri, 2, halfTyped);
  const broken = await doneDiagnostics(client, uri, 2, since, CLANG_MS);
  const errors = broken.diagnostics.filter((d) => d.code !== 'scoped-atomic');
  assert.ok(errors.length >= 1, `the error is shown: ${JSON.stringify(broken.diagnostics)}`);
  // At the line (or where the statement runs on into the next), and nothing else.
  for (const d of errors) {
    assert.equal(d.severity, Severity.Error);
    assert.notEqual(d.code, 'not-supported');
    assert.ok(d.range.start.line === halfLine || d.range.start.line === halfLine + 1, `at the half-typed line: ${JSON.stringify([d.code, d.range, d.message])}`);
  }
  assert.deepEqual(races(broken.diagnostics), [['scoped-atomic', addLine, 1]], 'the race of the last run stays');

  // A call with one argument too many: C++ the hand-written front end cannot judge here (the
  // class has methods); clang's error, at the call.
  const tooMany = text.replace('        c.add(1);', '        c.add(1, 2);');
  const callLine = tooMany.split('\n').findIndex((l) => l === '        c.add(1, 2);');
  await client.change(uri, 3, tooMany);
  const rejected = await doneDiagnostics(client, uri, 3, since, CLANG_MS);
  assert.deepEqual(rejected.diagnostics.filter((d) => d.code !== 'scoped-atomic').map((d) => [d.code, d.range.start.line, d.severity]), [['clang', callLine, Severity.Error]]);
  assert.match(rejected.diagnostics.find((d) => d.code === 'clang')!.message, /too many arguments/);
  assert.deepEqual(races(rejected.diagnostics), [['scoped-atomic', addLine, 1]], 'the race of the last run stays');
  // Nor did any publish in between drop it.
  for (const p of publishesOf(uri, mark)) assert.deepEqual(races(p.diagnostics).length, 1, `v${p.version} keeps the race`);

  // Fixed: the race of the new text, and no error.
  await client.change(uri, 4, text);
  const fixed = await doneDiagnostics(client, uri, 4, since, CLANG_MS);
  assert.deepEqual(fixed.diagnostics.map((d) => d.code), ['scoped-atomic']);
  assert.deepEqual(races(fixed.diagnostics), [['scoped-atomic', addLine, 4]]);
  await client.close(uri);
});

test('a half-typed line in a file the hand-written front end runs: the error, and the race stays', async () => {
  const { client } = session;
  const uri = 'file:///virtual/clang-half-typed.cu';
  const text = fixtureText('examples/scoped-counter.cu');
  const since = client.states.length;
  await client.open(uri, text);
  assert.deepEqual(races((await doneDiagnostics(client, uri, 1, since, CLANG_MS)).diagnostics), [['scoped-atomic', 27, 1]]);
  await client.change(uri, 2, text.replace('int i = blockIdx.x', 'int i = = blockIdx.x'));
  const broken = await doneDiagnostics(client, uri, 2, since, CLANG_MS);
  // Both front ends reject the line: the hand-written front end's errors, as it showed them at once.
  const errors = broken.diagnostics.filter((d) => d.code !== 'scoped-atomic');
  assert.deepEqual(errors.map((d) => [d.code, d.range.start.line, d.severity]), [['expected-expression', 24, Severity.Error], ['expected-token', 24, Severity.Error]]);
  assert.deepEqual(races(broken.diagnostics), [['scoped-atomic', 27, 1]]);
  await client.close(uri);
});

test('two files from compile_commands.json: the race is in the kernel’s file, with the database’s -DBINS', async () => {
  const { client } = session;
  const kernelFile = 'test/fixtures/clang/lsp/program/histogram.cu';
  const uri = fileUri(fixturePath(kernelFile));
  const mainUri = fileUri(fixturePath('test/fixtures/clang/lsp/program/main.cu'));
  const text = fixtureText(kernelFile);
  const since = client.states.length;
  await client.open(uri, text);
  const done = await doneDiagnostics(client, uri, 1, since, CLANG_MS);
  const line = text.split('\n').findIndex((l) => l.includes('atomicAdd_block(&bins'));
  assert.deepEqual(races(done.diagnostics), [['scoped-atomic', line, 1]]);
  assert.deepEqual(done.diagnostics.map((d) => d.code), ['scoped-atomic'], 'BINS comes from the database: no undeclared identifier');
  assert.deepEqual(done.diagnostics[0].range, rangeOf(text, 'atomicAdd_block'));
  // The other unit compiled cleanly: nothing is published for it.
  assert.ok(!client.diagnostics.slice().reverse().find((p) => p.uri === mainUri)?.diagnostics.length);

  // An edit now parses with the database's flags at once: no front-end complaint about BINS.
  const mark = client.diagnostics.length;
  await client.change(uri, 2, text.replace('// A histogram', '// A small histogram'));
  const instant = await client.waitForDiagnostics(uri, (p) => p.version === 2, 10_000, mark);
  assert.deepEqual(instant.diagnostics.map((d) => d.code), ['scoped-atomic']);
  await doneDiagnostics(client, uri, 2, since, CLANG_MS);

  // The file with main open too: its run finds the same race in histogram.cu, shown there once.
  const mainSince = client.states.length;
  const shown = client.diagnostics.length;
  await client.open(mainUri, fixtureText('test/fixtures/clang/lsp/program/main.cu'));
  const mainDone = await doneDiagnostics(client, mainUri, 1, mainSince, CLANG_MS);
  assert.deepEqual(mainDone.diagnostics, [], 'main.cu itself has no race');
  const kernelNow = await client.waitForDiagnostics(uri, () => true, 10_000, shown);
  assert.deepEqual(races(kernelNow.diagnostics).map(([code, l]) => [code, l]), [['scoped-atomic', line]]);

  // main.cu's unsaved text is the program's: once it no longer calls the kernel, histogram.cu
  // (analysed again, as a file of the same program) has no race.
  const mainText = fixtureText('test/fixtures/clang/lsp/program/main.cu');
  const call = '    histogram(values.data(), (int)values.size(), bins.data());';
  assert.ok(mainText.includes(call));
  const again = client.states.length;
  await client.change(mainUri, 2, mainText.replace(call, `//${call}`));
  // Both runs (main.cu's own, which no longer finds the race in histogram.cu either) end.
  await Promise.all([
    waitForState(client, (st) => st.uri === uri && st.state === 'done', again, 'histogram.cu analysed again', CLANG_MS),
    waitForState(client, (st) => st.uri === mainUri && st.version === 2 && st.state === 'done', again, 'main.cu v2 analysed', CLANG_MS),
  ]);
  assert.deepEqual([...client.diagnostics].reverse().find((p) => p.uri === uri)?.diagnostics, []);
  await client.close(mainUri);
  await client.close(uri);
});

test('a kernel-only file the hand-written front end cannot read runs through clang from its GPUVerify header', async () => {
  const { client } = session;
  // A class template with a member function (refused by the hand-written parser), no main: the
  // header's shape and -D line launch the kernel.
  const text = `//--blockDim=32 --gridDim=2 -DSLOT=1
template <class T> struct Counter {
  T *cells;
  __device__ void bump(int i) { atomicAdd_block(&cells[i], T(1)); }
};
__global__ void count(int *cells) {
  Counter<int> c{cells};
  c.bump(SLOT);
}
`;
  const uri = 'file:///virtual/clang-kernel-only.cu';
  const since = client.states.length;
  await client.open(uri, text);
  const done = await doneDiagnostics(client, uri, 1, since, CLANG_MS);
  assert.deepEqual(races(done.diagnostics), [['scoped-atomic', 3, 1]], JSON.stringify(done.diagnostics));
  await client.close(uri);
});
