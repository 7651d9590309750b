// Code actions over a real JSON-RPC connection: the quick fixes for a race (exactly one
// preferred) and "Show in metadata inspector"; the preferred fix applied as an editor would
// (its WorkspaceEdit turned into incremental didChange events) removes the race and adds no
// finding on the next run; `source.fixAll.scord` fixes every race; nothing is offered for a
// stale document version.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAction, Diagnostic, TextDocumentContentChangeEvent, TextEdit } from 'vscode-languageserver-protocol/node';
import { applyTextEdits, doneDiagnostics, editsFor, fileUri, fixturePath, fixtureText, range, type Session, startSession, stopSession } from '../support/lspKit';

let session: Session;

before(async () => {
  session = await startSession({ analysis: { debounceMs: 20 } });
});

after(async () => {
  await stopSession(session);
});

function actions(uri: string, diagnostics: Diagnostic[], only?: string[], r = diagnostics[0]?.range ?? range(0, 0, 0, 0)): Promise<CodeAction[]> {
  return session.client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: r, context: { diagnostics, ...(only ? { only } : {}) } });
}

/** Edits as the incremental changes an editor sends: last first, so each range is still valid. */
function asChanges(text: string, edits: TextEdit[]): TextDocumentContentChangeEvent[] {
  const key = (e: TextEdit) => e.range.start.line * 1e6 + e.range.start.character;
  const sorted = [...edits].sort((a, b) => key(b) - key(a));
  // Sanity: the editor's way and the applier agree.
  let byChanges = text;
  for (const e of sorted) byChanges = applyTextEdits(byChanges, [e]);
  assert.equal(byChanges, applyTextEdits(text, edits));
  return sorted.map((e) => ({ range: e.range, text: e.newText }));
}

const CASES: { file: string; code: string; preferred: RegExp; others: number }[] = [
  { file: 'examples/scoped-counter.cu', code: 'scoped-atomic', preferred: /^Use atomicAdd \(device scope\)$/, others: 0 },
  { file: 'examples/message-passing.cu', code: 'missing-device-fence', preferred: /^Widen the fence at line 30 to __threadfence\(\)/, others: 1 },
  { file: 'test/fixtures/races/lock_block_scope_interblock.cu', code: 'lock-scope', preferred: /^Make the lock device-scope/, others: 0 },
  { file: 'test/fixtures/races/warp_diverged_nonstrong_racy.cu', code: 'non-strong-access', preferred: /^Declare payload volatile$/, others: 0 },
  // No candidate is preferred until the re-run proves one: taking the lock does, an atomic store does not.
  { file: 'test/fixtures/races/lock_missing_one_side_interwarp.cu', code: 'missing-lock', preferred: /^Take the lock of line 13 around line 21$/, others: 1 },
];

for (const c of CASES) {
  test(`the preferred fix for ${c.file} removes its race and adds nothing`, async () => {
    const { client } = session;
    const uri = fileUri(fixturePath(c.file));
    const text = fixtureText(c.file);
    let since = client.states.length;
    await client.open(uri, text);
    const d1 = await doneDiagnostics(client, uri, 1, since);
    assert.deepEqual(
      d1.diagnostics.map((d) => d.code),
      [c.code],
    );
    const race = d1.diagnostics[0];
    const list = await actions(uri, [race]);
    const fixes = list.filter((a) => a.edit);
    const preferred = fixes.filter((a) => a.isPreferred);
    assert.equal(preferred.length, 1, `exactly one preferred fix: ${JSON.stringify(list.map((a) => [a.title, a.isPreferred]))}`);
    assert.match(preferred[0].title, c.preferred);
    assert.equal(fixes.length, 1 + c.others);
    for (const a of fixes) {
      assert.equal(a.kind, 'quickfix');
      assert.deepEqual(a.diagnostics, [race]);
      assert.deepEqual(Object.keys(a.edit!.changes ?? {}), [uri]);
    }
    const inspector = list.filter((a) => a.command);
    assert.equal(inspector.length, 1);
    assert.equal(inspector[0].kind, 'quickfix');
    assert.equal(inspector[0].title, 'Show in inspector');
    assert.equal(inspector[0].command!.command, 'scord.showInspector');
    assert.deepEqual(inspector[0].command!.arguments, [{ uri, finding: 0, address: (race.data as { address: string }).address }]);
    assert.equal(list.length, fixes.length + 1);

    // Apply it as the editor would, and wait for the run of the fixed text.
    const edits = editsFor(preferred[0].edit!, uri);
    const fixed = applyTextEdits(text, edits);
    since = client.states.length;
    await client.change(uri, 2, asChanges(text, edits));
    const d2 = await doneDiagnostics(client, uri, 2, since);
    assert.deepEqual(d2.diagnostics, [], `after "${preferred[0].title}": ${JSON.stringify(d2.diagnostics)}`);
    // The server's copy of the text is the fixed text: a full replace with it changes nothing.
    since = client.states.length;
    await client.change(uri, 3, fixed);
    assert.deepEqual((await doneDiagnostics(client, uri, 3, since)).diagnostics, []);
    await client.close(uri);
  });
}

test('source.fixAll.scord applies every preferred fix; it is offered only when asked for', async () => {
  const { client } = session;
  const uri = 'file:///virtual/fix-all.cu';
  // The RACEY variant: two races (the atomicAdd_block and the read of the total), one fix.
  const text = fixtureText('test/fixtures/programs/atomic_add_block_scope.cu').replace('#ifdef RACEY', '#if 1');
  let since = client.states.length;
  await client.open(uri, text);
  const d1 = await doneDiagnostics(client, uri, 1, since);
  assert.deepEqual(
    d1.diagnostics.map((d) => [d.code, d.range.start.line]),
    [
      ['scoped-atomic', 27],
      ['scoped-atomic', 37],
    ],
  );
  const all = await actions(uri, [], ['source.fixAll.scord']);
  assert.equal(all.length, 1, JSON.stringify(all));
  assert.equal(all[0].kind, 'source.fixAll.scord');
  assert.match(all[0].title, /^Fix all scoped races \(\d+ fix(es)?\)$/);
  // The parent kind asks for it too; quick fixes only, or no `only`, do not.
  assert.deepEqual((await actions(uri, [], ['source.fixAll'])).map((a) => a.kind), ['source.fixAll.scord']);
  assert.deepEqual(await actions(uri, [], ['quickfix']), []);
  assert.deepEqual(await actions(uri, []), []);
  // With `only: source.fixAll.scord`, no quick fixes come even for a race diagnostic.
  assert.deepEqual((await actions(uri, d1.diagnostics, ['source.fixAll.scord'])).map((a) => a.kind), ['source.fixAll.scord']);

  const edits = editsFor(all[0].edit!, uri);
  assert.deepEqual(edits, [{ range: range(27, 4, 27, 19), newText: 'atomicAdd' }]);
  since = client.states.length;
  await client.change(uri, 2, asChanges(text, edits));
  const d2 = await doneDiagnostics(client, uri, 2, since);
  assert.deepEqual(d2.diagnostics, []);
  // Nothing left to fix.
  assert.deepEqual(await actions(uri, [], ['source.fixAll.scord']), []);
  await client.close(uri);
});

test('no fixes for a stale version: after an edit, and for a diagnostic of an earlier run', async () => {
  const { client } = session;
  const uri = 'file:///virtual/stale.cu';
  const text = fixtureText('examples/scoped-counter.cu');
  let since = client.states.length;
  await client.open(uri, text);
  const d1 = await doneDiagnostics(client, uri, 1, since);
  assert.equal((await actions(uri, d1.diagnostics)).length, 2, 'the fix and the inspector, while fresh');

  // Edited, not yet run: the version-1 run's fixes would edit the wrong text.
  since = client.states.length;
  await client.change(uri, 2, [{ range: range(0, 0, 0, 0), text: '\n' }]);
  assert.deepEqual(await actions(uri, d1.diagnostics), []);
  assert.deepEqual(await actions(uri, [], ['source.fixAll.scord']), []);

  // Run again: the new diagnostic has its fixes, the old one (version 1) none.
  const d2 = await doneDiagnostics(client, uri, 2, since);
  assert.equal(d2.diagnostics.length, 1);
  assert.deepEqual(d2.diagnostics[0].data, { version: 2, finding: 0, address: 'counter' });
  assert.deepEqual(await actions(uri, d1.diagnostics), []);
  const fresh = await actions(uri, d2.diagnostics);
  assert.deepEqual(editsFor(fresh.find((a) => a.isPreferred)!.edit!, uri), [{ range: range(28, 8, 28, 23), newText: 'atomicAdd' }]);
  // Diagnostics of other sources, or without data, get nothing.
  const foreign = { ...d2.diagnostics[0], source: 'nvcc' };
  const bare = { ...d2.diagnostics[0], data: undefined };
  assert.deepEqual(await actions(uri, [foreign, bare]), []);
  await client.close(uri);
  // A closed document has no actions.
  assert.deepEqual(await actions(uri, d2.diagnostics), []);
});
