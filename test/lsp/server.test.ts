// The language server over a real JSON-RPC connection, from a minimal client (no capabilities
// announced): it starts, publishes the front end's diagnostics for an open CUDA document with
// source 'scord', updates them on edits, clears them on close, and survives input that breaks
// the parser.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { LspTestClient } from '../support/lspClient';

let client: LspTestClient;

before(async () => {
  client = await LspTestClient.start({}, { capabilities: {} });
});

after(() => client.stop());

const uri = 'file:///virtual/kernel.cu';

test('diagnostics for an open document, updated on change, cleared on close', async () => {
  await client.open(uri, '__global__ void k(int *p) {\n  p[0] = countr;\n}\n');
  const d1 = await client.waitForDiagnostics(uri, (p) => p.version === 1, 10_000);
  assert.equal(d1.diagnostics.length, 1);
  assert.equal(d1.diagnostics[0].source, 'scord');
  assert.equal(d1.diagnostics[0].code, 'undeclared-identifier');
  assert.deepEqual(d1.diagnostics[0].range, { start: { line: 1, character: 9 }, end: { line: 1, character: 15 } });

  await client.change(uri, 2, [{ range: { start: { line: 1, character: 9 }, end: { line: 1, character: 15 } }, text: '42' }]);
  assert.deepEqual((await client.waitForDiagnostics(uri, (p) => p.version === 2, 10_000)).diagnostics, []);

  await client.change(uri, 3, '}}}} <<< #if @@ "\n template <');
  const d3 = await client.waitForDiagnostics(uri, (p) => p.version === 3, 10_000);
  assert.ok(d3.diagnostics.length > 0, 'broken input still gets diagnostics');

  const mark = client.diagnostics.length;
  await client.close(uri);
  assert.deepEqual((await client.waitForDiagnostics(uri, () => true, 10_000, mark)).diagnostics, []);
  assert.ok(client.alive, 'the server is still running');
});
