// Blocking idioms in the editor, over a real JSON-RPC connection: a code lens above each wait
// loop between blocks (and above a kernel that combines a lock with a one-way chain) saying
// under which GPU schedulers it terminates; a hover on the loop that explains it; and, with
// `scord.fairness` set to a weaker scheduler, the hang as an error diagnostic at the loop.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeLens, Hover, MarkupContent } from 'vscode-languageserver-protocol/node';
import { doneDiagnostics, fileUri, fixturePath, fixtureText, rangeOf, Severity, startSession, stopSession, textAt, type Session } from '../support/lspKit';

let session: Session;

before(async () => {
  session = await startSession({ analysis: { debounceMs: 20 } });
});

after(async () => {
  await stopSession(session);
});

const PAPER = "(Sorensen et al., 'GPU schedulers: how fair is fair enough?'";

function lenses(uri: string): Promise<CodeLens[]> {
  return session.client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
}

function hoverAt(uri: string, line: number, character: number): Promise<Hover | null> {
  return session.client.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line, character } });
}

const markdown = (h: Hover | null): string => {
  assert.ok(h, 'a hover');
  return (h.contents as MarkupContent).value;
};

async function open(file: string, settings?: Record<string, unknown>): Promise<{ uri: string; text: string }> {
  const uri = fileUri(fixturePath(file));
  const text = fixtureText(file);
  if (settings) session.perUri.set(uri, settings);
  const since = session.client.states.length;
  await session.client.open(uri, text);
  await doneDiagnostics(session.client, uri, 1, since);
  return { uri, text };
}

test('lenses: the verdict above each idiom, after the Run lenses', async () => {
  const { uri, text } = await open('test/fixtures/fairness/mutex_one_way_pc.cu');
  const list = await lenses(uri);
  const idiomLenses = list.filter((l) => l.command!.command === '');
  assert.deepEqual(
    idiomLenses.map((l) => [l.range, l.command!.title]),
    [
      [rangeOf(text, 'ordered'), `Spin lock with one-way producer-consumer — terminates under HSA+OBE, LOBE and fair schedulers; may starve under HSA, OBE and unfair ${PAPER}, Figure 1)`],
      [rangeOf(text, 'while', 0), `Spin lock — terminates under OBE, HSA+OBE, LOBE and fair schedulers; may starve under HSA and unfair ${PAPER}, Table 2)`],
      [rangeOf(text, 'while', 1), `One-way producer-consumer — terminates under HSA, HSA+OBE, LOBE and fair schedulers; may starve under OBE and unfair ${PAPER}, Table 2)`],
    ],
  );
  // The Run lenses are still there, first, and run what they ran before.
  assert.deepEqual(
    list.filter((l) => l.command!.command !== '').map((l) => [textAt(text, l.range), l.command!.command]),
    [
      ['ordered', 'scord.runKernel'],
      ['main', 'scord.runKernel'],
    ],
  );
  await session.client.close(uri);
});

test('a hover on a wait loop explains the idiom; on its atomic, the scope comes first', async () => {
  const { uri, text } = await open('test/fixtures/fairness/one_way_pc.cu');
  // From the keyword to the end of the condition.
  const loop = rangeOf(text, 'while (flags[b - 1] == 0');
  const h = await hoverAt(uri, loop.start.line, loop.start.character + 2);
  assert.deepEqual(h!.range, loop);
  const value = markdown(h);
  assert.match(value, /^\*\*One-way producer-consumer\*\* — terminates under HSA, HSA\+OBE, LOBE and fair schedulers; may starve under OBE and unfair \(Sorensen et al\./);
  assert.match(value, /Each block waits here for `flags\[b - 1\]`, which a block with a lower index sets\./);
  assert.match(value, /To see it starve, set `scord\.fairness` to `obe` \(or run `scord check --fairness obe`\)\.$/);
  await session.client.close(uri);

  const lock = await open('test/fixtures/fairness/spin_lock.cu');
  const cas = rangeOf(lock.text, 'atomicCAS');
  const casHover = markdown(await hoverAt(lock.uri, cas.start.line, cas.start.character + 3));
  assert.match(casHover, /^`atomicCAS` — \*\*device scope\*\*/);
  assert.match(casHover, /\n\n---\n\n\*\*Spin lock\*\* — terminates under OBE, HSA\+OBE, LOBE and fair schedulers; may starve under HSA and unfair/);
  assert.match(casHover, /releases it \(line 18\)/);
  // Outside the loop header, nothing about idioms.
  const after = rangeOf(lock.text, 'counter = counter + 1');
  assert.equal(await hoverAt(lock.uri, after.start.line, after.start.character - 2), null);
  await session.client.close(lock.uri);
});

test('scord.fairness: under HSA the spin lock can hang, shown as an error at the acquire loop; under OBE it cannot', async () => {
  const file = 'test/fixtures/fairness/spin_lock.cu';
  const uri = fileUri(fixturePath(file));
  session.perUri.set(uri, { analysis: { debounceMs: 20 }, fairness: 'hsa' });
  const text = fixtureText(file);
  let since = session.client.states.length;
  await session.client.open(uri, text);
  const hsa = await doneDiagnostics(session.client, uri, 1, since);
  assert.deepEqual(
    hsa.diagnostics.map((d) => [d.code, d.severity, d.source, d.range, d.message]),
    [['deadlock', Severity.Error, 'scord', rangeOf(text, 'atomicCAS(&lock, 0, 1)'), 'under an HSA scheduler the launch of critical can hang: block 0 spins at line 13 waiting for lock == 0; block 1 holds the lock (it last wrote lock at line 13) but under HSA only the lowest-id unfinished block, 0, is guaranteed to run']],
  );
  await session.client.close(uri);
  session.perUri.set(uri, { analysis: { debounceMs: 20 }, fairness: 'obe' });
  since = session.client.states.length;
  await session.client.open(uri, text);
  const obe = await doneDiagnostics(session.client, uri, 1, since);
  assert.deepEqual(obe.diagnostics, []);
  await session.client.close(uri);
  session.perUri.delete(uri);
});
