// The clang path's settings over a real JSON-RPC connection, relative paths taken from the
// workspace folder: scord.frontend (builtin shows the hand-written front end's refusal; auto
// goes to clang), scord.program.args and scord.program.stdin (the program reads its number of
// blocks from argv or stdin, and races only with two), scord.program.sources (a kernel file
// and the file with its main) and scord.program.compileCommands (a database without -DRACEY,
// or the folder of the nearest one, which has it).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { doneDiagnostics, fileUri, fixturePath, fixtureText, startSession, stopSession, waitForState, type Session } from '../support/lspKit';

let session: Session;
const BASE = { analysis: { debounceMs: 20 } };
const FOLDER = 'test/fixtures/clang/lsp';
/** Clang compiles in the worker: its first call in a process loads a 75 MB module. */
const CLANG_MS = 120_000;

before(async () => {
  session = await startSession(BASE, { workspaceFolder: fixturePath(FOLDER) });
});

after(async () => {
  await stopSession(session);
});

function summary(p: PublishDiagnosticsParams): [string, number][] {
  return p.diagnostics.map((d) => [String(d.code), d.range.start.line]);
}

async function openWith(file: string, settings: Record<string, unknown>): Promise<{ uri: string; text: string; first: PublishDiagnosticsParams }> {
  const uri = fileUri(fixturePath(`${FOLDER}/${file}`));
  const text = fixtureText(`${FOLDER}/${file}`);
  session.perUri.set(uri, settings);
  const since = session.client.states.length;
  await session.client.open(uri, text);
  return { uri, text, first: await doneDiagnostics(session.client, uri, 1, since, CLANG_MS) };
}

/** Re-announces the configuration (as VS Code does on a settings edit) and waits for `uri`'s next run. */
async function reconfigure(uri: string, settings: Record<string, unknown>): Promise<PublishDiagnosticsParams> {
  session.perUri.set(uri, settings);
  const since = session.client.states.length;
  await session.client.configure(BASE);
  const done = await waitForState(session.client, (s) => s.uri === uri && s.state === 'done', since, `the run of ${uri} after the settings change`, CLANG_MS);
  return doneDiagnostics(session.client, uri, done.version, session.client.states.indexOf(done));
}

async function close(uri: string): Promise<void> {
  await session.client.close(uri);
  session.perUri.delete(uri);
}

test('frontend, program.args and program.stdin: the blocks the program reads decide the race', async () => {
  const { uri, text, first } = await openWith('settings/count.cu', { ...BASE, frontend: 'builtin' });
  const scanfLine = text.split('\n').findIndex((l) => l.includes('scanf'));
  const raceLine = text.split('\n').findIndex((l) => l.includes('atomicAdd_block'));
  // The hand-written front end alone: its refusal is the answer.
  assert.deepEqual(summary(first), [['not-supported', scanfLine]]);
  // Clang decides: no refusal; one block (stdin is empty), so no race.
  assert.deepEqual(summary(await reconfigure(uri, BASE)), []);
  assert.deepEqual(summary(await reconfigure(uri, { ...BASE, program: { args: ['2'] } })), [['scoped-atomic', raceLine]]);
  assert.deepEqual(summary(await reconfigure(uri, { ...BASE, program: { args: ['1'] } })), []);
  // Relative to the workspace folder.
  assert.deepEqual(summary(await reconfigure(uri, { ...BASE, program: { stdin: 'settings/two-blocks.txt' } })), [['scoped-atomic', raceLine]]);
  const missing = await reconfigure(uri, { ...BASE, program: { stdin: 'settings/no-such-input.txt' } });
  assert.deepEqual(summary(missing), [['program', 0]]);
  assert.match(missing.diagnostics[0].message, /scord\.program\.stdin: cannot read .*no-such-input\.txt \(no such file\)/);
  await close(uri);
});

test('program.sources: a kernel file runs with the file that has main', async () => {
  const { uri, text, first } = await openWith('settings/pair-kernel.cu', { ...BASE, frontend: 'clang' });
  // Alone it has no main: an error, and no race.
  assert.ok(first.diagnostics.some((d) => d.severity === 1) && !first.diagnostics.some((d) => d.code === 'scoped-atomic'), JSON.stringify(summary(first)));
  const raceLine = text.split('\n').findIndex((l) => l.includes('atomicAdd_block'));
  assert.deepEqual(summary(await reconfigure(uri, { ...BASE, program: { sources: ['settings/pair-main.cu'] } })), [['scoped-atomic', raceLine]]);
  await close(uri);
});

test('program.compileCommands: a database other than the nearest one, or the folder holding one', async () => {
  // The nearest database builds with -DRACEY; this one does not.
  const { uri, text, first } = await openWith('program/histogram.cu', { ...BASE, program: { compileCommands: 'databases/plain.json' } });
  assert.deepEqual(summary(first), []);
  const raceLine = text.split('\n').findIndex((l) => l.includes('atomicAdd_block(&bins'));
  assert.deepEqual(summary(await reconfigure(uri, { ...BASE, program: { compileCommands: 'program' } })), [['scoped-atomic', raceLine]]);
  assert.deepEqual(summary(await reconfigure(uri, { ...BASE, program: { compileCommands: 'databases/plain.json' } })), []);
  // A database that is not there: said in the file, at its first line.
  const missing = await reconfigure(uri, { ...BASE, program: { compileCommands: 'databases/missing.json' } });
  const problem = missing.diagnostics.find((d) => d.code === 'program');
  assert.ok(problem, JSON.stringify(summary(missing)));
  assert.equal(problem.range.start.line, 0);
  assert.match(problem.message, /cannot read .*databases\/missing\.json/);
  await close(uri);
});
