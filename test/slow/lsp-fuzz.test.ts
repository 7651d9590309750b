// The language server under 10,000 seeded random edits, through the protocol. Several
// fixtures are open at once and edited with incremental didChange (ranges computed from the
// current text): random characters and CUDA tokens typed in, random ranges deleted or
// replaced, slices of other fixtures pasted, text moved, statements put at the start of a
// block (spins, barriers, atomics, expressions nested thousands deep), the odd long run of one
// token, and now and then the whole text replaced by a fixture again, so that runs of programs
// that still compile keep happening. Requests (code actions with the diagnostics last
// published, code lenses, hovers, scord/inspect with and without an address) are interleaved.
// With a debounce of 10–30 ms runs start in the pauses between edits and are cancelled by the
// next one. To fit the time a test file may take on a 2-core machine, the 10,000 edits are
// batched: 30% of the didChange notifications carry one edit, the others 2–13 (about 1,800
// notifications in all), each change's range computed on the text the previous one left; and
// every SYNC_EVERY notifications the loop waits for the server to catch up. The test checks:
//   - every request is answered, with a result or a well-formed ResponseError, within
//     REQUEST_TIMEOUT_MS (no hang);
//   - the server process stays alive, and no feature handler logs an internal failure;
//   - memory stays bounded: the server's RSS (main thread and its worker threads, read from
//     /proc/PID/status) once idle after the edits is under 2× the RSS after the first 1,000
//     edits plus RSS_MARGIN_MB (see there);
//   - restoring each document's original text (one incremental change over the whole
//     current text, so a server whose copy of the text had drifted would restore something
//     else) gives the diagnostics a fresh open of that text gave, and so does a close and
//     reopen afterwards.
// An analysis that fails inside the engine (a worker-side exception, not a cancel or a
// budget) is a bug too: the test writes the text that triggered it to a reproducer file,
// names it in the output, and fails (SCORD_FUZZ_STRICT=0 only reports, for exploring).
//
// Reproduce a failure with SCORD_FUZZ_SEED=<seed printed in the failure> (and
// SCORD_FUZZ_EDITS=<n> to shorten the run).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { ResponseError, type Diagnostic, type TextDocumentContentChangeEvent } from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { seededRandom } from '../../sims/values/random';
import { LspTestClient } from '../support/lspClient';

const ROOT = path.resolve(__dirname, '..', '..');
const SEED = Number(process.env.SCORD_FUZZ_SEED ?? 0x5c07d);
const TOTAL_EDITS = Number(process.env.SCORD_FUZZ_EDITS ?? 10_000);
const STRICT = process.env.SCORD_FUZZ_STRICT !== '0';
/** Documents open at once (one of them application-size). */
const OPEN_DOCS = 6;
/** A request not answered in this long counts as a hang (a run it starts has a 0.4 s budget). */
const REQUEST_TIMEOUT_MS = 15_000;
/** didChange notifications between two waits for the server to catch up (see the loop). */
const SYNC_EVERY = 16;
/**
 * Slack on top of 2× the RSS after the first 1,000 edits. The RSS includes the analysis
 * workers (threads of the same process): a warm worker with the engine loaded is some tens of
 * MB, and whether the allocator has returned a finished worker's pages yet depends on timing,
 * so the idle figure moves by about one worker between two samples. A leak of anything kept
 * per edit or per version (a parse, a report, a diagnostics list: 10s–100s of KB each) over
 * the remaining 9,000 edits would be far over this bound.
 */
const RSS_MARGIN_MB = 64;

/**
 * The hand-written front end only: with `auto`, every text an edit breaks would also be
 * compiled by clang (seconds each on this machine), which 10,000 edits cannot afford. The
 * clang path under edits is tested by test/lsp/clang-*.test.ts.
 */
const FRONTEND = { frontend: 'builtin' };
/** Settings for the fresh opens and the final comparison: runs always finish. */
const STEADY = { analysis: { debounceMs: 0, timeBudgetMs: 30_000, memoryLimitMb: 512 }, ...FRONTEND };
/**
 * Settings while fuzzing: a short debounce (runs start, and get cancelled), and a short time
 * budget (a spin typed into a kernel ends at it, which the server reports: that path is fuzzed
 * too; the fixtures' own runs take well under 100 ms).
 */
const fuzzSettings = (debounceMs: number) => ({ analysis: { debounceMs, timeBudgetMs: 400, memoryLimitMb: 256 }, ...FRONTEND });

// The simulator's own seeded PRNG (mulberry32).
const rand = seededRandom(SEED);
const int = (n: number): number => Math.floor(rand() * n);
const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
const chance = (p: number): boolean => rand() < p;
/** Mostly small, now and then large: lengths of deletions and pastes. */
const length = (small: number, large: number): number => (chance(0.85) ? 1 + int(small) : 1 + int(large));

const CHARS = 'abcxyzXYZ_0123456789 \t\n(){}[];,.*&+-=<>!?:#"\'\\/%^|~@$`\r';
const ODD = ['é', 'λ', '😀', '\u2028', '\u00a0', '\ufeff', '\0', '\r\n', '\r', '\uD800'];
const TOKENS = [
  '__global__ ', '__device__ ', '__host__ ', '__shared__ ', '__constant__ ', 'volatile ', 'extern ', 'static ', 'const ',
  'int ', 'unsigned ', 'float ', 'double ', 'char ', 'void ', 'bool ', 'long long ', 'auto ', 'struct S { int a; };',
  '*', '&', '(', ')', '{', '}', '[', ']', ';', ',', '=', '==', '+', '-', '++', '--', '->', '.', '::', '?', ':', '<<', '>>',
  '<<<', '>>>', '<', '>', '!', '~', '/', '%', '&&', '||',
  'threadIdx.x', 'threadIdx.y', 'blockIdx.x', 'blockDim.x', 'gridDim.x', 'warpSize', 'data', 'flag', 'out', 'main', 'x',
  '__syncthreads();', '__syncwarp();', '__threadfence();', '__threadfence_block();', '__threadfence_system();',
  'atomicAdd(', 'atomicAdd_block(', 'atomicAdd_system(', 'atomicCAS(', 'atomicExch(', 'atomicExch_block(', '__shfl_sync(0xffffffff, ',
  'if (', 'else ', 'while (', 'do ', 'for (', 'for (;;) ', 'while (1);', 'return ', 'break;', 'continue;', 'goto L;', 'L: ',
  'switch (', 'case 1:', 'default:', 'sizeof(int)', 'new int[4]', 'delete ', 'template <typename T> ', 'typedef int T;',
  '#define X ', '#define F(a) a##a F(', '#undef X\n', '#if ', '#if 1\n', '#ifdef RACEY\n', '#ifndef RACEY\n', '#elif 0\n',
  '#else\n', '#endif\n', '#include <stdio.h>\n', '#include "', '#pragma unroll\n', '#error e\n', '#line 1\n', '#', '##', '\\\n',
  '/*', '*/', '//', '"', "'", '"%d\\n"', "'\\0'",
  '0', '1', '2', '42', '-1', '0x7fffffff', '0xffffffff', '2147483648', '9223372036854775807', '1e999', '1.5f', '0.0',
  'cudaMalloc(&p, ', 'cudaMemcpy(', 'cudaMemset(', 'cudaFree(', 'cudaDeviceSynchronize();', 'printf("%d\\n", ',
  'k<<<2, 32>>>(', 'assert(', '__launch_bounds__(256) ', '\n', '\n\n', '\t', '  ', '\r\n',
];
/** Statements put at the start of a block, so that the program still (mostly) compiles and runs: spins, barriers, atomics, deep nesting. */
const STATEMENTS: (() => string)[] = [
  () => 'while (1);',
  () => 'for (;;) {}',
  () => 'while (flag == 0) ;',
  () => '__syncthreads();',
  () => 'if (threadIdx.x == 0) __syncthreads();',
  () => '__syncwarp();',
  () => '__threadfence();',
  () => '__threadfence_block();',
  () => 'return;',
  () => 'atomicAdd((int *)&data, 1);',
  () => 'atomicAdd_block((int *)&flag, 1);',
  () => 'int *q = 0; *q = 1;',
  () => 'int big[1 << 20]; big[threadIdx.x] = 1;',
  () => 'printf("%d %s\\n", threadIdx.x);',
  () => `int open = ${'('.repeat(500 + int(4500))}1;`,
  () => {
    const n = 500 + int(4500);
    return `int deep = ${'('.repeat(n)}1${')'.repeat(n)};`;
  },
  () => `int chain = ${Array.from({ length: 500 + int(4500) }, () => pick(['-', '!', '~', '*&'])).join('')}1;`,
  () => `int sum = ${Array.from({ length: 500 + int(4500) }, (_, i) => `x${i % 7}`).join(' + ')};`,
];
/** Tokens that, repeated hundreds or thousands of times, stress the front end (nesting, expansion, conditionals). */
const FLOOD = ['(', '{', '[', '-', '!', '*', 'a+', '#if 1\n', '#define A A A\n', '/*', '"', '\\\n', 'x, ', '<'];

interface Doc {
  uri: string;
  file: string;
  original: string;
  /** The text as the client sees it (the server should see the same). */
  doc: TextDocument;
  version: number;
  /** Recent versions' text, for reproducers of engine failures. */
  history: Map<number, string>;
}

const FIXTURES = [
  ...fs.readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.cu')).map((f) => path.join(ROOT, 'examples', f)),
  ...fs.readdirSync(path.join(ROOT, 'test', 'fixtures', 'races')).filter((f) => f.endsWith('.cu')).map((f) => path.join(ROOT, 'test', 'fixtures', 'races', f)),
].sort();
const TEXTS = new Map(FIXTURES.map((f) => [f, fs.readFileSync(f, 'utf8')]));

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (m) return Number(m[1]) / 1024;
  } catch {
    // not Linux: ask ps
  }
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) / 1024;
}

/** CPU seconds the process has used, all its threads (Linux; NaN elsewhere): for the report. */
function cpuSeconds(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** One random edit of `text`, as an offset range and its replacement. */
function randomEdit(d: Doc): { start: number; end: number; text: string } {
  const text = d.doc.getText();
  const n = text.length;
  const at = (): number => int(n + 1);
  const range = (len: number): [number, number] => {
    const start = int(n + 1);
    return [start, Math.min(n, start + len)];
  };
  // Keep documents from growing without end: a big document loses a big range.
  if (n > Math.max(4 * d.original.length, 16_000)) {
    const [s, e] = range(Math.floor(n / 2));
    return { start: s, end: e, text: '' };
  }
  // Now and then the whole text is replaced (the original back, or another fixture pasted over
  // it): random edits soon leave a program that no longer compiles, and runs of programs
  // that do, a few edits away from a fixture, are where the simulator and detector get used.
  if (chance(0.003)) return { start: 0, end: n, text: chance(0.7) ? d.original : TEXTS.get(pick(FIXTURES))! };
  const r = rand();
  if (r < 0.22 || n === 0) {
    let s = '';
    for (let i = 1 + int(8); i > 0; i--) s += chance(0.05) ? pick(ODD) : CHARS[int(CHARS.length)];
    const p = at();
    return { start: p, end: p, text: s };
  }
  if (r < 0.47) {
    let s = '';
    for (let i = 1 + int(4); i > 0; i--) s += pick(TOKENS);
    const p = at();
    return { start: p, end: p, text: s };
  }
  if (r < 0.67) {
    const [s, e] = range(length(12, 600));
    return { start: s, end: e, text: '' };
  }
  if (r < 0.77) {
    const [s, e] = range(length(8, 80));
    return { start: s, end: e, text: pick(TOKENS) };
  }
  if (r < 0.87) {
    const src = TEXTS.get(pick(FIXTURES))!;
    const from = int(src.length);
    const slice = src.slice(from, from + length(60, 1200));
    const [s, e] = chance(0.3) ? range(length(20, 200)) : [at(), -1];
    return { start: s, end: e < 0 ? s : e, text: slice };
  }
  if (r < 0.94) {
    // A statement at the start of a block (after a random `{`).
    const braces: number[] = [];
    for (let i = text.indexOf('{'); i >= 0; i = text.indexOf('{', i + 1)) braces.push(i + 1);
    const p = braces.length ? pick(braces) : at();
    return { start: p, end: p, text: ` ${pick(STATEMENTS)()} ` };
  }
  if (r < 0.98) {
    // Move: cut a range and paste it somewhere else (expressed as one replacement).
    const [s, e] = range(length(40, 400));
    const cut = text.slice(s, e);
    const rest = text.slice(0, s) + text.slice(e);
    const p = int(rest.length + 1);
    // The smallest single change from `text` to rest[0,p) + cut + rest[p,): replace the span between.
    const next = rest.slice(0, p) + cut + rest.slice(p);
    let a = 0;
    while (a < n && a < next.length && text[a] === next[a]) a++;
    let b = 0;
    while (b < n - a && b < next.length - a && text[n - 1 - b] === next[next.length - 1 - b]) b++;
    return { start: a, end: n - b, text: next.slice(a, next.length - b) };
  }
  const p = at();
  return { start: p, end: p, text: pick(FLOOD).repeat(100 + int(chance(0.3) ? 4000 : 600)) };
}

interface Tally {
  answered: number;
  errors: Map<string, number>;
  bad: string[];
}

const client = { current: undefined as LspTestClient | undefined };
after(async () => {
  await client.current?.stop();
});

test(`${TOTAL_EDITS} random incremental edits: the server answers, lives, stays bounded, and ends where a fresh open does (seed ${SEED})`, { timeout: 150_000 }, async (t) => {
  const fail = (what: string): never => assert.fail(`${what}\n  reproduce with SCORD_FUZZ_SEED=${SEED}${TOTAL_EDITS !== 10_000 ? ` SCORD_FUZZ_EDITS=${TOTAL_EDITS}` : ''}`);
  const c = await LspTestClient.start(STEADY);
  client.current = c;
  const pid = c.process.pid!;
  let exit = '';
  c.process.on('close', (code, signal) => (exit = `the server exited (code ${code}, signal ${signal}); its last output:\n${c.messages.join('').slice(-4000)}`));

  // The documents: one application-size program and others drawn by the seed.
  const apps = FIXTURES.filter((f) => /app_/.test(path.basename(f)));
  const chosen = new Set<string>([pick(apps)]);
  while (chosen.size < OPEN_DOCS) chosen.add(pick(FIXTURES));
  const docs: Doc[] = [...chosen].map((file) => {
    const original = TEXTS.get(file)!;
    return { uri: pathToFileURL(file).toString(), file, original, doc: TextDocument.create(pathToFileURL(file).toString(), 'cuda-cpp', 1, original), version: 1, history: new Map([[1, original]]) };
  });

  // Fresh opens: the diagnostics each original text gets (the reference for the end).
  const fresh = new Map<string, Diagnostic[]>();
  for (const d of docs) await c.open(d.uri, d.original, 1);
  for (const d of docs) fresh.set(d.uri, (await c.runDiagnostics(d.uri, 1, 60_000)).diagnostics);

  let debounceMs = 10 + int(21);
  await c.configure(fuzzSettings(debounceMs));

  // Requests, checked as they are answered.
  const tally: Tally = { answered: 0, errors: new Map(), bad: [] };
  let edits = 0;
  const pending = new Set<Promise<void>>();
  const ask = (method: string, params: unknown): Promise<void> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const sentAt = edits;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer to ${method} in ${REQUEST_TIMEOUT_MS} ms${c.alive ? '' : ' (the server exited)'}`)), REQUEST_TIMEOUT_MS)));
    const p: Promise<void> = Promise.race([c.request(method, params), timeout])
      .then(
        () => {
          tally.answered++;
        },
        (e: unknown) => {
          if (e instanceof ResponseError && Number.isInteger(e.code) && typeof e.message === 'string') {
            tally.answered++;
            const key = `${method}: ${e.message.replace(/\d+/g, 'N')}`;
            tally.errors.set(key, (tally.errors.get(key) ?? 0) + 1);
          } else tally.bad.push(`${method} (sent after ${sentAt} edits) ${JSON.stringify(params).slice(0, 200)}: ${e instanceof Error ? e.message : String(e)}`);
        },
      )
      .finally(() => {
        clearTimeout(timer);
        pending.delete(p);
      });
    pending.add(p);
    return p;
  };
  const randomPosition = (d: Doc) => (chance(0.9) ? d.doc.positionAt(int(d.doc.getText().length + 1)) : { line: int(d.doc.lineCount + 3), character: int(200) });
  const lastPublished = (uri: string): Diagnostic[] => [...c.diagnostics].reverse().find((p) => p.uri === uri)?.diagnostics ?? [];
  const randomRequest = (d: Doc): Promise<void> => {
    const r = rand();
    const textDocument = { uri: chance(0.03) ? 'file:///nowhere/closed.cu' : d.uri };
    if (r < 0.35) {
      const a = randomPosition(d);
      const b = randomPosition(d);
      const range = a.line < b.line || (a.line === b.line && a.character <= b.character) ? { start: a, end: b } : { start: b, end: a };
      const only = pick([undefined, ['quickfix'], ['source.fixAll'], ['source.fixAll.scord'], ['source']]);
      return ask('textDocument/codeAction', { textDocument, range, context: { diagnostics: lastPublished(d.uri), ...(only ? { only } : {}) } });
    }
    if (r < 0.55) return ask('textDocument/codeLens', { textDocument });
    if (r < 0.85) return ask('textDocument/hover', { textDocument, position: randomPosition(d) });
    const address = pick([undefined, undefined, 'data', 'flag', 'data[0]', 'out[3]', 'x[-1]', '][', '', 'sdata[31]']);
    return ask('scord/inspect', { uri: textDocument.uri, ...(address !== undefined ? { address } : {}) });
  };

  const rss: { edits: number; mb: number }[] = [];
  const started = Date.now();
  let notifications = 0;
  let reopened = 0;
  // Edits go to one document at a time, as when typing, moving on to another now and then
  // (the one left behind then runs to the end). Edits to a document sent back to back reach
  // the server faster than the debounce, so few of them start runs; pauses below do.
  try {
    let d = pick(docs);
    while (edits < TOTAL_EDITS) {
      if (chance(0.04)) d = pick(docs);
      // One edit, or several applied in order (see the top of the file).
      const batch = chance(0.3) ? 1 : 2 + int(12);
      const changes: TextDocumentContentChangeEvent[] = [];
      const version = d.version + 1;
      for (let i = 0; i < batch && edits < TOTAL_EDITS; i++, edits++) {
        const e = randomEdit(d);
        const change = { range: { start: d.doc.positionAt(e.start), end: d.doc.positionAt(e.end) }, text: e.text };
        changes.push(change);
        TextDocument.update(d.doc, [change], version);
      }
      d.version = version;
      d.history.set(version, d.doc.getText());
      d.history.delete(version - 64);
      await c.change(d.uri, version, changes);
      notifications++;

      if (chance(0.1)) void randomRequest(chance(0.7) ? d : pick(docs));
      // Pacing: a pause longer than the debounce lets a run start (and the next edit cancel
      // it), and now and then a run is waited for, so that some finish and the requests meet
      // fresh findings. (Each cancel costs the server a new worker thread, ~150 ms of CPU here,
      // which is what bounds how many runs fit in the time this test may take.)
      if (chance(0.03)) await sleep(debounceMs + 5 + int(40));
      if (chance(0.004)) await Promise.race([c.waitForRun(d.uri, version, 5_000).catch(() => undefined), sleep(1_000)]);
      if (chance(0.01)) await Promise.race([randomRequest(d), sleep(500)]);
      // Flow control: the server parses every change as it comes (an editor sends a few a
      // second; this loop, hundreds), so let it catch up now and then, through a request that
      // is answered at once once the queue ahead of it is done. Without this its queue grows
      // without bound and a late answer could not be told from a hang.
      if (notifications % SYNC_EVERY === 0) await ask('textDocument/hover', { textDocument: { uri: 'file:///nowhere/sync.cu' }, position: { line: 0, character: 0 } });
      if (chance(0.002)) {
        // Close and reopen with the current text (a new version, as an editor would).
        await c.close(d.uri);
        reopened++;
        d.version++;
        TextDocument.update(d.doc, [], d.version);
        d.history.set(d.version, d.doc.getText());
        await c.open(d.uri, d.doc.getText(), d.version);
      }
      if (chance(0.001)) {
        debounceMs = 10 + int(21);
        await c.configure(fuzzSettings(debounceMs));
      }
      if (edits % 250 < batch || edits === TOTAL_EDITS) {
        if (exit) fail(`after ${edits} edits, ${exit}`);
        if (edits >= 1_000 && !rss.some((s) => s.edits >= 1_000)) {
          // The baseline once the server has seen some of everything: let in-flight work finish.
          await Promise.all([...pending]);
        }
        rss.push({ edits, mb: rssMb(pid) });
      }
    }
  } catch (e) {
    await sleep(500); // the server's output and exit arrive after its connection closes
    if (exit) fail(`after ${edits} edits, ${exit}`);
    throw e;
  }
  const fuzzMs = Date.now() - started;
  const fuzzCpu = cpuSeconds(pid);

  // Every request answered (or refused properly), and the server still there.
  await Promise.all([...pending]);
  if (exit) fail(exit);
  if (tally.bad.length) fail(`${tally.bad.length} requests failed badly, first: ${tally.bad.slice(0, 5).join('\n  ')}`);
  const internal = c.messages.filter((m) => /failed:|Error|Unhandled/.test(m) && !/the analysis (was stopped|ran out|failed)/.test(m));
  if (internal.length) fail(`the server logged internal failures:\n${internal.slice(0, 5).join('\n').slice(0, 4000)}`);

  // Analyses the engine could not finish for a reason other than a cancel or a budget.
  const expected = /^(cancelled|stale|timeout|out-of-memory)$/;
  const engineFailures = c.states.filter((s) => s.state === 'stopped' && !expected.test(s.reason ?? ''));
  if (engineFailures.length) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `scord-fuzz-${SEED}-`));
    const lines = engineFailures.slice(0, 20).map((s, i) => {
      const d = docs.find((x) => x.uri === s.uri);
      const text = d?.history.get(s.version);
      const file = path.join(dir, `${i}-${path.basename(d?.file ?? 'unknown.cu')}`);
      if (text !== undefined) fs.writeFileSync(file, text);
      return `${s.uri} v${s.version}: ${s.reason}${text !== undefined ? ` → ${file}` : ''}`;
    });
    t.diagnostic(`engine failures (${engineFailures.length}), reproducers in ${dir}:\n${lines.join('\n')}`);
    if (STRICT) fail(`the engine failed ${engineFailures.length} times`);
  }

  // Restore every document (one incremental change over what the client believes the text
  // is) with run-to-completion settings, and compare with the fresh opens.
  const mark = c.states.length;
  await c.configure(STEADY);
  for (const d of docs) {
    const change = { range: { start: { line: 0, character: 0 }, end: d.doc.positionAt(d.doc.getText().length) }, text: d.original };
    d.version++;
    TextDocument.update(d.doc, [change], d.version);
    assert.equal(d.doc.getText(), d.original);
    await c.change(d.uri, d.version, [change]);
  }
  const normalize = (list: Diagnostic[]) =>
    list.map((x) => {
      const { data, ...rest } = x as Diagnostic & { data?: Record<string, unknown> };
      // data.version names the document version the finding belongs to: it differs by design.
      return { ...rest, ...(data ? { data: { ...data, version: undefined } } : {}) };
    });
  for (const d of docs) {
    const after = await c.runDiagnostics(d.uri, d.version, 60_000);
    assert.deepEqual(normalize(after.diagnostics), normalize(fresh.get(d.uri)!), `${path.basename(d.file)} restored after the fuzz differs from a fresh open (seed ${SEED})`);
  }
  // Close and open again in the same server: the same.
  for (const d of docs) {
    await c.close(d.uri);
    d.version++;
    await c.open(d.uri, d.original, d.version);
    const again = await c.runDiagnostics(d.uri, d.version, 60_000);
    assert.deepEqual(normalize(again.diagnostics), normalize(fresh.get(d.uri)!), `${path.basename(d.file)} reopened after the fuzz differs from a fresh open (seed ${SEED})`);
  }

  // Memory, idle: nothing running (code actions wait for fix checks to end), the warm worker back.
  for (const d of docs) await c.request('textDocument/codeAction', { textDocument: { uri: d.uri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [] } });
  await sleep(500);
  const base = rss.find((s) => s.edits >= 1_000) ?? rss[0];
  const final = rssMb(pid);
  const peak = Math.max(...rss.map((s) => s.mb));
  const runs = c.states.slice(0, mark);
  const done = runs.filter((s) => s.state === 'done').length;
  const cancelled = runs.filter((s) => s.state === 'stopped' && s.reason === 'cancelled').length;
  const overBudget = runs.filter((s) => s.state === 'stopped' && (s.reason === 'timeout' || s.reason === 'out-of-memory')).length;
  const frontEndFailures = c.diagnostics.filter((p) => p.diagnostics.some((x) => x.code === 'analysis-stopped' && /front end failed/.test(x.message))).length;
  const errorSummary = [...tally.errors].map(([k, n]) => `${n}× ${k}`).join('; ');
  t.diagnostic(
    `seed ${SEED}: ${edits} edits in ${notifications} didChange notifications over ${docs.length} documents in ${(fuzzMs / 1000).toFixed(1)} s; ` +
      `${tally.answered} requests answered (${[...tally.errors.values()].reduce((a, b) => a + b, 0)} as ResponseError${errorSummary ? `: ${errorSummary}` : ''}); ` +
      `runs: ${runs.filter((s) => s.state === 'running').length} started, ${done} done, ${cancelled} cancelled, ${overBudget} over budget, ${engineFailures.length} engine failures; ` +
      `${frontEndFailures} publishes saying the front end failed; ${reopened} reopens; ` +
      `server CPU ${fuzzCpu.toFixed(1)} s during the edits; RSS ${base.mb.toFixed(0)} MB after ${base.edits} edits, peak ${peak.toFixed(0)} MB, ${final.toFixed(0)} MB idle at the end`,
  );
  assert.ok(c.alive, 'the server is alive at the end');
  if (TOTAL_EDITS >= 2_000) {
    // The fuzz did what it is for: runs finished and runs were cancelled by edits.
    assert.ok(done >= 20, `only ${done} runs finished during the fuzz`);
    assert.ok(cancelled >= 20, `only ${cancelled} runs were cancelled during the fuzz`);
  }
  if (final > 2 * base.mb + RSS_MARGIN_MB) fail(`the server's RSS grew from ${base.mb.toFixed(0)} MB (after ${base.edits} edits) to ${final.toFixed(0)} MB; samples: ${rss.map((s) => `${s.edits}:${s.mb.toFixed(0)}`).join(' ')}`);
});
