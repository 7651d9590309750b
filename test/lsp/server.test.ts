// The language server over a real JSON-RPC connection: it starts, publishes the front end's
// diagnostics for an open CUDA document with source 'scord', updates them on edits, clears
// them on close, and survives input that breaks the parser.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';

const ROOT = path.resolve(__dirname, '..', '..');
let server: ChildProcess;
let conn: ProtocolConnection;
const published: PublishDiagnosticsParams[] = [];
const waiters: ((p: PublishDiagnosticsParams) => boolean)[] = [];

function nextDiagnostics(uri: string, version?: number): Promise<PublishDiagnosticsParams> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri}`)), 10000);
    waiters.push((p) => {
      if (p.uri !== uri || (version !== undefined && p.version !== version)) return false;
      clearTimeout(timer);
      resolve(p);
      return true;
    });
  });
}

before(async () => {
  server = spawn(process.execPath, [path.join(ROOT, 'dist', 'server.js'), '--stdio'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  conn = createProtocolConnection(new StreamMessageReader(server.stdout!), new StreamMessageWriter(server.stdin!));
  conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    published.push(p);
    const i = waiters.findIndex((w) => w(p));
    if (i >= 0) waiters.splice(i, 1);
  });
  conn.listen();
  const init = await conn.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
  assert.ok((init as { capabilities: object }).capabilities);
  await conn.sendNotification('initialized', {});
});

after(() => {
  conn.dispose();
  server.kill();
});

const uri = 'file:///virtual/kernel.cu';

test('diagnostics for an open document, updated on change, cleared on close', async () => {
  const first = nextDiagnostics(uri, 1);
  await conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'cuda-cpp', version: 1, text: '__global__ void k(int *p) {\n  p[0] = countr;\n}\n' },
  });
  const d1 = await first;
  assert.equal(d1.diagnostics.length, 1);
  assert.equal(d1.diagnostics[0].source, 'scord');
  assert.equal(d1.diagnostics[0].code, 'undeclared-identifier');
  assert.deepEqual(d1.diagnostics[0].range, { start: { line: 1, character: 9 }, end: { line: 1, character: 15 } });

  const second = nextDiagnostics(uri, 2);
  await conn.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 2 },
    contentChanges: [{ range: { start: { line: 1, character: 9 }, end: { line: 1, character: 15 } }, text: '42' }],
  });
  assert.deepEqual((await second).diagnostics, []);

  const third = nextDiagnostics(uri, 3);
  await conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ text: '}}}} <<< #if @@ "\n template <' }] });
  const d3 = await third;
  assert.ok(d3.diagnostics.length > 0, 'broken input still gets diagnostics');

  const closed = nextDiagnostics(uri);
  await conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
  assert.deepEqual((await closed).diagnostics, []);
  assert.equal(server.exitCode, null, 'the server is still running');
});
