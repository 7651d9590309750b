// Helpers for the language-server tests on top of LspTestClient: per-document settings,
// waiting on analysis states from a point in the notification stream on, applying a
// WorkspaceEdit to a text the way an editor would, and reading fixtures.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic, PublishDiagnosticsParams, Range, TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol/node';
import type { AnalysisStateParams } from '../../server/protocol';
import { LspTestClient } from './lspClient';

export const ROOT = path.resolve(__dirname, '..', '..');

export function fixturePath(rel: string): string {
  return path.join(ROOT, rel);
}

export function fixtureText(rel: string): string {
  return fs.readFileSync(fixturePath(rel), 'utf8');
}

export function fileUri(absPath: string): string {
  return pathToFileURL(absPath).toString();
}

export function range(startLine: number, startCharacter: number, endLine: number, endCharacter: number): Range {
  return { start: { line: startLine, character: startCharacter }, end: { line: endLine, character: endCharacter } };
}

function offsetAt(text: string, pos: { line: number; character: number }): number {
  let offset = 0;
  for (let line = 0; line < pos.line; line++) {
    const nl = text.indexOf('\n', offset);
    if (nl < 0) return text.length;
    offset = nl + 1;
  }
  return Math.min(offset + pos.character, text.length);
}

/** The text a range covers. */
export function textAt(text: string, r: Range): string {
  return text.slice(offsetAt(text, r.start), offsetAt(text, r.end));
}

/** The range of the `nth` occurrence (0-based) of `needle` in `text`. */
export function rangeOf(text: string, needle: string, nth = 0): Range {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`'${needle}' (occurrence ${nth}) not in the text`);
  }
  const pos = (o: number) => {
    const before = text.slice(0, o);
    const line = before.split('\n').length - 1;
    return { line, character: o - (before.lastIndexOf('\n') + 1) };
  };
  return { start: pos(at), end: pos(at + needle.length) };
}

/** Applies text edits as an editor does: all ranges refer to the original text. */
export function applyTextEdits(text: string, edits: TextEdit[]): string {
  const spans = edits.map((e) => ({ start: offsetAt(text, e.range.start), end: offsetAt(text, e.range.end), newText: e.newText }));
  // Last first, so earlier offsets stay valid; inserts at one offset keep their order.
  const order = spans.map((s, i) => ({ s, i })).sort((a, b) => b.s.start - a.s.start || b.i - a.i);
  for (let k = 1; k < order.length; k++) {
    if (order[k].s.end > order[k - 1].s.start) throw new Error('overlapping edits');
  }
  let out = text;
  for (const { s } of order) out = out.slice(0, s.start) + s.newText + out.slice(s.end);
  return out;
}

/** The edits a WorkspaceEdit makes to one document (`changes` or `documentChanges`). */
export function editsFor(edit: WorkspaceEdit, uri: string): TextEdit[] {
  const out: TextEdit[] = [...(edit.changes?.[uri] ?? [])];
  for (const dc of edit.documentChanges ?? []) {
    if ('textDocument' in dc && dc.textDocument.uri === uri) out.push(...(dc.edits as TextEdit[]));
  }
  return out;
}

export function applyWorkspaceEdit(text: string, edit: WorkspaceEdit, uri: string): string {
  return applyTextEdits(text, editsFor(edit, uri));
}

/** A started server with what the kit adds: messages shown by request, per-document settings. */
export interface Session {
  client: LspTestClient;
  /** window/showMessageRequest and window/showMessage, in order. */
  shown: { type: number; message: string }[];
  /** Settings answered for one document's scopeUri instead of `client.settings`. */
  perUri: Map<string, Record<string, unknown>>;
  /** Publishes and analysis states in the order they arrived (indices into the client's lists). */
  events: { kind: 'diagnostics' | 'state'; index: number }[];
}

export async function startSession(settings: Record<string, unknown> = {}, options: Parameters<typeof LspTestClient.start>[1] = {}): Promise<Session> {
  const client = await LspTestClient.start(settings, options);
  const session: Session = { client, shown: [], perUri: new Map(), events: recordOrder(client) };
  client.conn.onRequest('window/showMessageRequest', (p: { type: number; message: string }) => {
    session.shown.push({ type: p.type, message: p.message });
    return null;
  });
  client.conn.onNotification('window/showMessage', (p: { type: number; message: string }) => {
    session.shown.push({ type: p.type, message: p.message });
    client.messages.push(p.message);
  });
  client.conn.onRequest('workspace/configuration', (p: { items: { section?: string; scopeUri?: string }[] }) =>
    p.items.map((i) => (i.section === 'scord' ? (i.scopeUri && session.perUri.get(i.scopeUri)) || client.settings : null)),
  );
  return session;
}

/**
 * The first analysis state at index `since` or later that passes `test` (LspTestClient's own
 * waitForRun searches from the start, which cannot tell two runs of one version apart).
 */
export function waitForState(client: LspTestClient, test: (s: AnalysisStateParams) => boolean, since: number, what: string, timeoutMs = 30_000): Promise<AnalysisStateParams> {
  const c = client as unknown as {
    wait(seen: AnalysisStateParams[], waiters: unknown[], test: (s: AnalysisStateParams) => boolean, what: string, timeoutMs: number, since: number): Promise<AnalysisStateParams>;
    stateWaiters: unknown[];
  };
  return c.wait(client.states, c.stateWaiters, test, what, timeoutMs, since);
}

/** The end (done or stopped) of a run of `uri` at `version` reported at index `since` or later. */
export function waitForRunEnd(client: LspTestClient, uri: string, version: number, since = 0, timeoutMs = 30_000): Promise<AnalysisStateParams> {
  return waitForState(client, (s) => s.uri === uri && s.version === version && s.state !== 'running', since, `the end of a run of ${uri} v${version}`, timeoutMs);
}

/**
 * Waits for a run of `uri` at `version` (from state `since` on) to finish with 'done' and
 * returns the diagnostics published for it (published just before the state, on one stream).
 */
export async function doneDiagnostics(client: LspTestClient, uri: string, version: number, since = 0, timeoutMs = 30_000): Promise<PublishDiagnosticsParams> {
  const state = await waitForState(client, (s) => s.uri === uri && s.version === version && s.state === 'done', since, `a finished run of ${uri} v${version}`, timeoutMs);
  const at = client.states.indexOf(state);
  const published = publishedBeforeState.get(client)?.[at];
  if (published && published.uri === uri) return published;
  return [...client.diagnostics].reverse().find((p) => p.uri === uri && p.version === version)!;
}

/** For each state index, the last diagnostics publish of the same URI that came before it. */
const publishedBeforeState = new WeakMap<LspTestClient, (PublishDiagnosticsParams | undefined)[]>();

/** Records the order of publishes and states on the one stream they share. */
function recordOrder(client: LspTestClient): { kind: 'diagnostics' | 'state'; index: number }[] {
  const events: { kind: 'diagnostics' | 'state'; index: number }[] = [];
  const before: (PublishDiagnosticsParams | undefined)[] = [];
  publishedBeforeState.set(client, before);
  const c = client as unknown as { settle(waiters: unknown[], x: unknown): void; diagnosticWaiters: unknown[]; stateWaiters: unknown[] };
  const settle = c.settle.bind(client);
  c.settle = (waiters, x) => {
    if (waiters === c.diagnosticWaiters) events.push({ kind: 'diagnostics', index: client.diagnostics.length - 1 });
    else if (waiters === c.stateWaiters) {
      const s = x as AnalysisStateParams;
      events.push({ kind: 'state', index: client.states.length - 1 });
      before[client.states.length - 1] = [...client.diagnostics].reverse().find((p) => p.uri === s.uri);
    }
    settle(waiters, x);
  };
  return events;
}

export function codes(list: Diagnostic[]): string[] {
  return list.map((d) => String(d.code)).sort();
}

export const Severity = { Error: 1, Warning: 2, Information: 3, Hint: 4 } as const;

/** Shuts the server down (LspTestClient.stop leaves a 2 s timer behind, which holds the test process). */
export async function stopSession(session: Session): Promise<void> {
  const { client } = session;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([client.conn.sendRequest('shutdown'), new Promise((resolve) => (timer = setTimeout(resolve, 2000)))]);
    await client.conn.sendNotification('exit');
  } catch {
    // already gone
  } finally {
    clearTimeout(timer);
  }
  client.conn.dispose();
  client.process.kill();
}
