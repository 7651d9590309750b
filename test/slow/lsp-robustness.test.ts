// The server never dies on garbage, over a real JSON-RPC connection: requests for unknown
// documents, malformed parameters, unknown methods, notifications that make no sense, a file
// of random bytes, huge lines and deep nesting. Every request is answered (a result or a
// well-formed error) and the process stays alive and keeps working.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ResponseError } from 'vscode-languageserver-protocol/node';
import type { RunResult } from '../../server/protocol';
import { doneDiagnostics, fixtureText, range, startSession, stopSession, waitForRunEnd, type Session } from '../support/lspKit';

let session: Session;

before(async () => {
  session = await startSession({ analysis: { debounceMs: 20, timeBudgetMs: 3000 } });
});

after(async () => {
  await stopSession(session);
});

type Answer = { result: unknown } | { error: ResponseError<unknown> };

/** Sends a request and insists on an answer within `ms`: a result or a ResponseError. */
async function answered(method: string, params: unknown, ms = 15_000): Promise<Answer> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${method} not answered in ${ms} ms: ${JSON.stringify(params)?.slice(0, 200)}`)), ms)));
  try {
    return await Promise.race([
      session.client.conn.sendRequest(method, params).then(
        (result) => ({ result }),
        (error: unknown) => {
          assert.ok(error instanceof ResponseError, `${method}: not a ResponseError: ${String(error)}`);
          assert.equal(typeof error.code, 'number');
          return { error };
        },
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const OK = 'file:///virtual/ok.cu';
const RACY = fixtureText('examples/scoped-counter.cu');

/** The server still works: a real run of a real program gives its race. */
async function stillWorks(version: number): Promise<void> {
  const since = session.client.states.length;
  await session.client.change(OK, version, RACY);
  const d = await doneDiagnostics(session.client, OK, version, since);
  assert.deepEqual(
    d.diagnostics.map((x) => [x.code, x.range]),
    [['scoped-atomic', range(27, 8, 27, 37)]],
  );
  assert.ok(session.client.alive, 'the server is alive');
}

test('requests for unknown documents are answered with nothing', async () => {
  await session.client.open(OK, '');
  const uri = 'file:///virtual/never-opened.cu';
  const pos = { line: 3, character: 4 };
  assert.deepEqual(await answered('textDocument/hover', { textDocument: { uri }, position: pos }), { result: null });
  assert.deepEqual(await answered('textDocument/codeLens', { textDocument: { uri } }), { result: [] });
  assert.deepEqual(await answered('textDocument/codeAction', { textDocument: { uri }, range: range(0, 0, 0, 0), context: { diagnostics: [] } }), { result: [] });
  assert.deepEqual(await answered('scord/inspect', { uri }), { result: { uri, version: null, state: null, findings: [], stats: null, finishedAt: null } });
  for (const weird of ['untitled:Untitled-1', 'not a uri at all', '', 'file://', 'https://example.invalid/x.cu', 'file:///%E0%A4%A']) {
    const a = await answered('scord/run', { uri: weird });
    assert.ok('error' in a, `scord/run ${weird}: ${JSON.stringify(a)}`);
    assert.ok('result' in (await answered('textDocument/hover', { textDocument: { uri: weird }, position: pos })));
  }
  await stillWorks(2);
});

test('malformed parameters: every request answered, the server alive', async () => {
  const uri = OK;
  const bad: [string, unknown][] = [
    ['textDocument/hover', {}],
    ['textDocument/hover', null],
    ['textDocument/hover', { textDocument: { uri } }],
    ['textDocument/hover', { textDocument: { uri }, position: { line: -5, character: -1 } }],
    ['textDocument/hover', { textDocument: { uri }, position: { line: 1e12, character: 1e12 } }],
    ['textDocument/hover', { textDocument: { uri }, position: { line: 'one', character: {} } }],
    ['textDocument/codeLens', { textDocument: 42 }],
    ['textDocument/codeAction', { textDocument: { uri } }],
    ['textDocument/codeAction', { textDocument: { uri }, range: null, context: { diagnostics: null } }],
    ['textDocument/codeAction', { textDocument: { uri }, range: range(0, 0, 0, 0), context: { diagnostics: [{ source: 'scord', data: { version: 2, finding: 1e9 } }, { source: 'scord', data: null }, null, 7] } }],
    ['textDocument/codeAction', { textDocument: { uri }, range: range(0, 0, 0, 0), context: { diagnostics: [], only: 'source.fixAll.scord' } }],
    ['textDocument/codeAction', { textDocument: { uri }, range: range(0, 0, 0, 0), context: { diagnostics: [], only: [null, 5] } }],
    ['scord/run', {}],
    ['scord/run', null],
    ['scord/run', { uri: 42 }],
    ['scord/run', { uri, entry: 'countEvents' }],
    ['scord/run', { uri, entry: { kernel: 'countEvents' } }],
    ['scord/run', { uri, entry: { kernel: 'countEvents', grid: [0, 0, 0], block: [-1, 1, 1] } }],
    ['scord/run', { uri, entry: { kernel: 'countEvents', grid: 'big', block: null, args: 'x' } }],
    ['scord/run', { uri, entry: { kernel: 'countEvents', grid: [1, 1, 1], block: [1e9, 1, 1] } }],
    ['scord/run', { uri, options: { schedules: -3, seed: 'x', scheduling: 'sideways', device: 'nonsense' } }],
    ['scord/run', { uri, workDoneToken: { not: 'a token' } }],
    ['scord/inspect', {}],
    ['scord/inspect', { uri, address: 17 }],
    ['scord/inspect', { uri, address: '' }],
    ['scord/inspect', { uri, address: 'counter[' }],
    ['scord/kernels', { uri: null }],
    ['workspace/executeCommand', { command: 'scord.nothing' }],
    ['textDocument/definition', { textDocument: { uri }, position: { line: 0, character: 0 } }],
    ['scord/unknown', { anything: true }],
  ];
  for (const [method, params] of bad) await answered(method, params);
  // A well-formed request right after each batch is still answered correctly.
  assert.deepEqual(await answered('textDocument/codeLens', { textDocument: { uri: 'file:///virtual/nothing.cu' } }), { result: [] });
  // Unknown methods say so.
  const unknown = await answered('scord/unknown', {});
  assert.ok('error' in unknown && unknown.error.code === -32601, JSON.stringify(unknown));
  await stillWorks(3);
});

test('notifications that make no sense are ignored', async () => {
  const { client } = session;
  const ghost = 'file:///virtual/ghost.cu';
  await client.change(ghost, 5, 'int x;');
  await client.close(ghost);
  await client.save(ghost);
  await client.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: ghost } });
  await client.conn.sendNotification('textDocument/didOpen', null);
  await client.conn.sendNotification('textDocument/didChange', { textDocument: { uri: OK, version: 99 }, contentChanges: null });
  await client.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: 'file:///virtual/none.cuh', type: 3 }, { uri: 'garbage', type: 9 }, null] });
  await client.conn.sendNotification('workspace/didChangeWatchedFiles', {});
  await client.conn.sendNotification('workspace/didChangeConfiguration', { settings: { scord: { analysis: 'everything', simulator: null } } });
  await client.conn.sendNotification('window/workDoneProgress/cancel', { token: 'no-such-token' });
  await client.conn.sendNotification('$/cancelRequest', { id: 123456 });
  await client.conn.sendNotification('scord/whatever', [1, 2, 3]);
  assert.deepEqual(await answered('textDocument/hover', { textDocument: { uri: ghost }, position: { line: 0, character: 0 } }), { result: null });
  // An incremental change with a range past the end, on the real document.
  await client.change(OK, 100, [{ range: range(1000, 0, 2000, 5), text: '// appended\n' }]);
  await stillWorks(101);
});

/** A deterministic stream of bytes (xorshift). */
function randomBytes(n: number, seed: number): string {
  let x = seed;
  let s = '';
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    s += String.fromCharCode((x >>> 0) % 256);
  }
  return s;
}

test('a file of random bytes, huge lines and deep nesting: diagnostics or nothing, never a dead server', async () => {
  const { client } = session;
  const docs: [string, string][] = [
    ['file:///virtual/random.cu', randomBytes(20_000, 0x5eed)],
    ['file:///virtual/random-unicode.cu', Array.from({ length: 5000 }, (_, i) => String.fromCodePoint(((i * 7919) % 0x2ffff) + 1)).join('')],
    ['file:///virtual/nul.cu', '__global__ void k() {\0\0\0}\nint main() { k<<<1, 1>>>(); return 0; }\n'],
    ['file:///virtual/huge-line.cu', `int main() { int x = ${'1 + '.repeat(10_000)}1; return 0; }\n`],
    ['file:///virtual/huge-line-decls.cu', `${'int v; '.repeat(3_000)}\nint main() { return 0; }\n`],
    ['file:///virtual/huge-comment.cu', `// ${'x'.repeat(1_000_000)}\nint main() { return 0; }\n`],
    ['file:///virtual/huge-string.cu', `#include <stdio.h>\nint main() { printf("${'a'.repeat(200_000)}\\n"); return 0; }\n`],
    ['file:///virtual/deep-parens.cu', `int main() { int x = ${'('.repeat(5000)}1${')'.repeat(5000)}; return x; }\n`],
    ['file:///virtual/deep-braces.cu', `int main() ${'{'.repeat(5000)}${'}'.repeat(5000)}\n`],
    ['file:///virtual/unclosed.cu', `__global__ void k( {{{ [[[ "unterminated\n#if\n#define A(x) A(x)\nA(1)\n/* never closed`],
    ['file:///virtual/macro-bomb.cu', // 30,000 tokens from one line (a million, the expansion limit, costs seconds of parsing).
      '#define A x x x x x x x x x x\n#define B A A A A A A A A A A\n#define C B B B B B B B B B B\n#define D C C C C C C C C C C\n#define E D D D D D D D D D D\nE E E\n'],
  ];
  for (const [uri, text] of docs) {
    const since = client.states.length;
    const mark = client.diagnostics.length;
    await client.open(uri, text);
    // The front end's verdict comes first; then a run (if any) ends one way or another.
    const first = await client.waitForDiagnostics(uri, () => true, 30_000, mark);
    assert.equal(first.version, 1, uri);
    for (const d of first.diagnostics) {
      assert.equal(d.source, 'scord', `${uri}: ${JSON.stringify(d)}`);
      assert.ok(d.range.start.line >= 0 && d.range.end.line >= d.range.start.line, `${uri}: ${JSON.stringify(d.range)}`);
    }
    const end = await waitForRunEnd(client, uri, 1, since, 30_000);
    assert.ok(end.state === 'done' || end.state === 'stopped', uri);
    // Every feature answers on it.
    await answered('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 10 } });
    await answered('textDocument/codeLens', { textDocument: { uri } });
    await answered('textDocument/codeAction', { textDocument: { uri }, range: range(0, 0, 0, 5), context: { diagnostics: first.diagnostics } });
    await answered('scord/inspect', { uri, address: 'x' });
    await answered('scord/run', { uri });
    await client.close(uri);
    assert.ok(client.alive, `alive after ${uri}`);
  }
  assert.ok(
    client.diagnostics.some((p) => p.uri === 'file:///virtual/random.cu' && p.diagnostics.length > 0),
    'random bytes get diagnostics',
  );
  await stillWorks(102);
});

test('a run with a kernel entry given as a bare name (as the lens passes it) is an error, not a crash', async () => {
  const r = await answered('scord/run', { uri: OK, entry: 'countEvents' });
  if ('result' in r) assert.equal(typeof (r.result as RunResult).analysed, 'boolean');
  await stillWorks(103);
});
