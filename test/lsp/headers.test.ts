// Headers over a real JSON-RPC connection: a race in a __device__ function of an included
// header is published for the header and at the #include line of the file; an edit of the
// open header re-analyses the file, and so does a change on disk announced with
// workspace/didChangeWatchedFiles — also while a run of the file is under way (that run read
// the old header); closing the file clears what it put in the header.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CodeAction, PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { applyWorkspaceEdit, doneDiagnostics, fileUri, range, Severity, startSession, stopSession, waitForState, type Session } from '../support/lspKit';

let session: Session;
let dir: string;

before(async () => {
  session = await startSession({ analysis: { debounceMs: 20 } });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-headers-'));
});

after(async () => {
  await stopSession(session);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** util.cuh: `bump` counts into one global word, with a block-scope atomic when racy. */
function header(racy: boolean, loop = 0): string {
  return `#pragma once
__device__ int counter = 0;
__device__ void bump()
{
    atomicAdd${racy ? '_block' : ''}(&counter, 1);
    int spin = 0;
    for (int i = 0; i < ${loop}; i++)
        spin += i;
}
`;
}

const MAIN = `#include <stdio.h>
#include "util.cuh"

__global__ void k()
{
    bump();
}

int main()
{
    k<<<2, 1>>>();
    cudaDeviceSynchronize();
    return 0;
}
`;

/** A new folder with main.cu and util.cuh; their URIs. */
function project(name: string, racy: boolean, loop = 0): { main: string; hdr: string; hdrPath: string } {
  const d = path.join(dir, name);
  fs.mkdirSync(d);
  fs.writeFileSync(path.join(d, 'util.cuh'), header(racy, loop));
  fs.writeFileSync(path.join(d, 'main.cu'), MAIN);
  return { main: fileUri(path.join(d, 'main.cu')), hdr: fileUri(path.join(d, 'util.cuh')), hdrPath: path.join(d, 'util.cuh') };
}

function lastFor(uri: string, since = 0): PublishDiagnosticsParams | undefined {
  return [...session.client.diagnostics.slice(since)].reverse().find((p) => p.uri === uri);
}

/** Waits for the next completed run of `uri` (any version) from state `since` on. */
async function nextDone(uri: string, since: number): Promise<PublishDiagnosticsParams> {
  const s = await waitForState(session.client, (x) => x.uri === uri && x.state === 'done', since, `a finished run of ${uri}`);
  return doneDiagnostics(session.client, uri, s.version, session.client.states.indexOf(s));
}

const HEADER_RACE = range(4, 4, 4, 32); // atomicAdd_block(&counter, 1)
const INCLUDE = range(1, 9, 1, 19); // "util.cuh"

test('a race in an included header: in the header, and at the #include line', async () => {
  const { client } = session;
  const p = project('basic', true);
  const since = client.states.length;
  await client.open(p.main, MAIN);
  const d = await doneDiagnostics(client, p.main, 1, since);
  assert.equal(d.diagnostics.length, 1, JSON.stringify(d.diagnostics));
  const [atInclude] = d.diagnostics;
  assert.deepEqual(atInclude.range, INCLUDE);
  assert.equal(atInclude.code, 'scoped-atomic');
  assert.equal(atInclude.severity, Severity.Warning);
  assert.ok(atInclude.message.endsWith(`(in ${p.hdrPath}:5:5)`), atInclude.message);
  assert.deepEqual(atInclude.relatedInformation?.[0], { location: { uri: p.hdr, range: HEADER_RACE }, message: 'the racing access, in the header' });
  assert.deepEqual(atInclude.relatedInformation?.[1].location, { uri: p.hdr, range: HEADER_RACE });
  assert.deepEqual(atInclude.data, { version: 1, finding: 0, address: 'counter' });
  // The run took the server's parse of this version: the text was parsed once.
  assert.equal(client.states.slice(since).find((x) => x.uri === p.main && x.state === 'done')?.parse, 'taken');

  const inHeader = lastFor(p.hdr);
  assert.ok(inHeader, 'published for the header');
  assert.equal(inHeader.version, undefined, 'the header is not open');
  assert.deepEqual(
    inHeader.diagnostics.map((x) => [x.code, x.range, x.severity]),
    [['scoped-atomic', HEADER_RACE, Severity.Warning]],
  );
  assert.doesNotMatch(inHeader.diagnostics[0].message, /\(in /);

  // Close: the file's list and what it put in the header are cleared.
  const mark = client.diagnostics.length;
  await client.close(p.main);
  await client.waitForDiagnostics(p.main, (x) => x.diagnostics.length === 0, 10_000, mark);
  await client.waitForDiagnostics(p.hdr, (x) => x.diagnostics.length === 0, 10_000, mark);
  assert.deepEqual(lastFor(p.main)?.diagnostics, []);
  assert.deepEqual(lastFor(p.hdr)?.diagnostics, []);
});

test('a race in a header of the workspace has its quick fix, at the #include line and in the header: it edits the header', async () => {
  const { client } = session;
  const p = project('fix', true);
  const since = client.states.length;
  await client.open(p.main, MAIN);
  const [atInclude] = (await doneDiagnostics(client, p.main, 1, since)).diagnostics;
  const inHeader = lastFor(p.hdr)!.diagnostics[0];
  assert.deepEqual(inHeader.data, { version: 1, finding: 0, address: 'counter', owner: p.main }, 'the header’s copy names the run it came from');
  // Quick fixes are asked of open documents: the header is opened, as a click on its squiggle would.
  await client.open(p.hdr, header(true));
  for (const [uri, d] of [[p.main, atInclude], [p.hdr, inHeader]] as const) {
    const list = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: d.range, context: { diagnostics: [d] } });
    const fix = list.find((a) => a.edit);
    assert.ok(fix, `a fix offered in ${uri}: ${JSON.stringify(list.map((a) => a.title))}`);
    assert.equal(fix.title, 'Use atomicAdd (device scope)');
    assert.equal(fix.isPreferred, true, 'proven by a re-run with the header edited');
    assert.deepEqual(Object.keys(fix.edit!.changes!), [p.hdr]);
    assert.equal(applyWorkspaceEdit(header(true), fix.edit!, p.hdr), header(false));
  }
  await client.close(p.hdr);
  await client.close(p.main);
});

test('editing the open header re-analyses the file that includes it; closing both clears both', async () => {
  const { client } = session;
  const p = project('open-header', true);
  let since = client.states.length;
  await client.open(p.main, MAIN);
  assert.equal((await doneDiagnostics(client, p.main, 1, since)).diagnostics.length, 1);
  await client.open(p.hdr, header(true));
  // Opening the header analyses it on its own (no main: nothing to run, no findings of its own).
  await waitForState(client, (s) => s.uri === p.hdr && s.version === 1 && s.state !== 'running', since, 'the header’s own run');
  // Fix the race in the header: main.cu is analysed again, and the race is gone everywhere.
  since = client.states.length;
  await client.change(p.hdr, 2, [{ range: range(4, 4, 4, 19), text: 'atomicAdd' }]);
  const again = await nextDone(p.main, since);
  assert.equal(again.version, 1, 'main.cu itself did not change');
  assert.deepEqual(again.diagnostics, []);
  await waitForState(client, (s) => s.uri === p.hdr && s.version === 2 && s.state !== 'running', since, 'the header’s own run');
  assert.deepEqual(lastFor(p.hdr)?.diagnostics, []);
  // Break it again: back in both.
  since = client.states.length;
  await client.change(p.hdr, 3, [{ range: range(4, 4, 4, 13), text: 'atomicAdd_block' }]);
  const third = await nextDone(p.main, since);
  assert.deepEqual(third.diagnostics.map((x) => [x.code, x.range]), [['scoped-atomic', INCLUDE]]);
  const hdrNow = await client.waitForDiagnostics(p.hdr, (x) => x.diagnostics.length === 1, 10_000);
  assert.deepEqual(hdrNow.diagnostics[0].range, HEADER_RACE);

  const mark = client.diagnostics.length;
  await client.close(p.main);
  await client.waitForDiagnostics(p.main, (x) => x.diagnostics.length === 0, 10_000, mark);
  // The header (still open) shows nothing of main.cu once it is closed.
  await client.waitForDiagnostics(p.hdr, (x) => x.diagnostics.length === 0, 10_000, mark);
  await client.close(p.hdr);
  assert.deepEqual(lastFor(p.hdr)?.diagnostics, []);
});

test('a header changed on disk (workspace/didChangeWatchedFiles) re-analyses the file', async () => {
  const { client } = session;
  const p = project('disk', true);
  let since = client.states.length;
  await client.open(p.main, MAIN);
  assert.equal((await doneDiagnostics(client, p.main, 1, since)).diagnostics.length, 1);

  since = client.states.length;
  fs.writeFileSync(p.hdrPath, header(false));
  await client.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: p.hdr, type: 2 }] });
  const fixed = await nextDone(p.main, since);
  assert.deepEqual(fixed.diagnostics, []);
  // The server parsed again with the new header, and the run took that parse.
  assert.equal(client.states.slice(since).find((x) => x.uri === p.main && x.state === 'done')?.parse, 'taken');
  assert.deepEqual(lastFor(p.hdr)?.diagnostics, [], 'the header’s list is emptied too');

  since = client.states.length;
  fs.writeFileSync(p.hdrPath, header(true));
  await client.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: p.hdr, type: 2 }] });
  const broken = await nextDone(p.main, since);
  assert.deepEqual(broken.diagnostics.map((x) => x.range), [INCLUDE]);

  // A change to a file main.cu does not include runs nothing.
  since = client.states.length;
  const other = path.join(path.dirname(p.hdrPath), 'other.cuh');
  fs.writeFileSync(other, '// nothing\n');
  await client.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: fileUri(other), type: 1 }] });
  await client.request('textDocument/hover', { textDocument: { uri: p.main }, position: { line: 0, character: 0 } });
  assert.deepEqual(client.states.slice(since).filter((s) => s.uri === p.main), []);
  await client.close(p.main);
});

test('a header change while a run of the file is under way: the file is analysed again with the new header', async () => {
  const { client } = session;
  // A loop keeps the run busy long enough for the change to arrive while it runs.
  const p = project('in-flight', true, 4_000);
  session.perUri.set(p.main, { analysis: { debounceMs: 20 }, simulator: { stepBudget: 2_000_000_000 } });
  let since = client.states.length;
  await client.open(p.main, MAIN);
  await doneDiagnostics(client, p.main, 1, since);

  // On disk.
  since = client.states.length;
  fs.writeFileSync(p.hdrPath, header(false, 4_001));
  await client.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: p.hdr, type: 2 }] });
  await waitForState(client, (s) => s.uri === p.main && s.state === 'running', since, 'the run after the first change');
  fs.writeFileSync(p.hdrPath, header(true, 4_002));
  await client.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: p.hdr, type: 2 }] });
  // However the runs went, the file ends up analysed with the racy header, and stays so.
  await shows(p.main, since, [INCLUDE]);

  // An open header, edited.
  since = client.states.length;
  await client.open(p.hdr, header(true, 4_002));
  await settled(p.main, since);
  since = client.states.length;
  await client.change(p.hdr, 2, header(false, 4_003));
  await waitForState(client, (s) => s.uri === p.main && s.state === 'running', since, 'the run after the edit');
  await client.change(p.hdr, 3, header(true, 4_004));
  await shows(p.main, since, [INCLUDE]);
  since = client.states.length;
  await client.change(p.hdr, 4, header(false, 4_005));
  await shows(p.main, since, []);
  await client.close(p.hdr);
  await client.close(p.main);
  session.perUri.delete(p.main);
});

/**
 * Waits for a finished run of `uri` (from state `since` on) whose diagnostics are at
 * `ranges`, then for the runs to settle, and checks that what is shown is still that.
 */
async function shows(uri: string, since: number, ranges: ReturnType<typeof range>[]): Promise<void> {
  const want = JSON.stringify(ranges);
  await waitForState(
    session.client,
    (s) => s.uri === uri && s.state === 'done' && JSON.stringify(lastFor(uri)?.diagnostics.map((d) => d.range)) === want,
    since,
    `a run of ${uri} with diagnostics at ${want} (last: ${JSON.stringify(lastFor(uri)?.diagnostics.map((d) => d.range))})`,
    15_000,
  );
  await settled(uri, since);
  assert.deepEqual(lastFor(uri)?.diagnostics.map((d) => d.range), ranges);
}

/**
 * Waits until no run of `uri` is under way or scheduled: every `running` since `since` has
 * ended, and a round trip later none has started (a run starts 20 ms after its trigger; the
 * hover round trips are paced by the server, not by a sleep).
 */
async function settled(uri: string, since: number): Promise<void> {
  for (let quiet = 0; quiet < 3; ) {
    const mine = session.client.states.slice(since).filter((s) => s.uri === uri);
    const last = mine[mine.length - 1];
    if (last?.state === 'running') {
      await waitForState(session.client, (s) => s.uri === uri && s.state !== 'running', session.client.states.indexOf(last) + 1, `the end of the run of ${uri}`);
      quiet = 0;
      continue;
    }
    const count = session.client.states.length;
    await session.client.request('scord/inspect', { uri });
    quiet = session.client.states.length === count ? quiet + 1 : 0;
  }
}
