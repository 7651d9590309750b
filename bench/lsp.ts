// Edit-to-race latency through the language server, as an editor sees it: the time from the
// last textDocument/didChange to the textDocument/publishDiagnostics that carries the race
// found in that version's own run, for a two-thread microbenchmark and an application-size
// program. The built server (dist/server.js, with its analysis worker) runs over stdio, driven
// by the tests' LSP client.
//
// - The debounce is excluded by setting `analysis.debounceMs` to 0, not by subtracting it: the
//   run then starts on the server's next turn, and nothing a timer adds (its granularity, its
//   firing late on a busy loop) is left in or taken out by estimate.
// - Every edit toggles a space at the end of the first line (a comment), so the text changes
//   and the races, and their lines, stay. Diagnostics published at once after the parse still
//   show the previous run's findings (that is by design: nothing flickers); they carry the
//   version they were computed for in `data.version`, so a sample ends only at diagnostics
//   whose race findings come from a run of the edited version.
// - Before each edit the previous run has finished, fixes verified included (a code-action
//   request waits for that), so each sample is an edit after a pause: the steady state with a
//   warm worker. (An edit while a run is still going cancels it, and costs a fresh worker.)
// - Warm-up edits come first and are not counted; percentiles are nearest-rank.
//
// On the clang path (a ScoR-size application the hand-written front end does not read: <iostream>,
// a class, std::vector, cin), two more figures: the first findings after opening it cold — a
// new server process whose clang cache is an empty folder (TMPDIR points the toolchain's
// default cache at a fresh temporary folder), so clang loads, precompiles the libc++ headers and
// compiles both passes — and edit-to-race after CLANG_EDITS warm edits, each a real compile of
// the edited text (the compile cache is keyed by content); and, for scale, the first findings
// of a new server process whose disk cache already holds the program.
//
// Memory: the peak resident size of the server's process tree (the server and its worker
// threads) while twelve documents are open and analysed with the default settings, against
// what the settings allow: maxParallelRuns × memoryLimitMb, plus 300 MB for the server.
//
// The measurement is asynchronous (JSON-RPC over a child's stdio) and the bench's metric list
// is not, so lspMetrics runs this same module, bundled on its own (dist/bench/lsp.js, built by
// `node esbuild.mjs --bench`), in a child node process and reads its figures back.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { LspTestClient } from '../test/support/lspClient';
import { treeRssBytes } from '../test/support/processMemory';
import { defaultParallelRuns } from '../server/analysis/workers';
import { DEFAULT_SETTINGS } from '../server/protocol';
import type { Metric } from './simulator';

const CHILD = 'SCORD_BENCH_LSP_CHILD';
/** Edits before the counted ones: the engine's code warms up in the worker. */
const WARMUP = 5;
/** The editing target: a race on screen within 150 ms of the edit (two-thread program). */
const TARGET_MS = 150;

interface Program {
  label: 'micro' | 'app' | 'clang';
  file: string;
  defines: string[];
}

/** The clang path's program: a ScoR-style application (122 lines) reading its input with cin. */
const CLANG_PROGRAM: Program = { label: 'clang', file: 'test/fixtures/clang/lsp/scor-histogram.cu', defines: ['RACEY', 'NBLOCKS=4', 'NTHREADS=64'] };
/** Counted edits on the clang path (each compiles both passes), after CLANG_WARMUP uncounted ones. */
const CLANG_EDITS = 20;
const CLANG_WARMUP = 2;
/** The clang path's targets: first findings of a cold open, and edit-to-race p95 when warm. */
const CLANG_COLD_TARGET_MS = 3000;
const CLANG_WARM_TARGET_MS = 600;

const PROGRAMS: Program[] = [
  { label: 'micro', file: 'test/fixtures/races/fence_block_interblock.cu', defines: [] },
  // Application-size (128 lines, 8 blocks of 256 threads), with its racy variant.
  { label: 'app', file: 'test/fixtures/races/app_reduction.cu', defines: ['RACEY'] },
];

/** The race codes a fixture states (`// expect: code line related`, or `expect-racey:` with RACEY). */
function expectedCodes(text: string, racey: boolean): string[] {
  const tag = racey && /\/\/ expect-racey:/.test(text) ? 'expect-racey' : 'expect';
  const codes = [...text.matchAll(new RegExp(`^// ${tag}: (\\S+)`, 'gm'))].map((m) => m[1]).filter((c) => c !== 'none');
  return [...new Set(codes)];
}

/** Nearest-rank percentile. */
function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

interface Samples {
  /** From didOpen to the first diagnostics with the race. */
  firstFindingsMs: number;
  editToRaceMs: number[];
  /** The run's own time in the worker (parse, simulate, detect), as the server reports it. */
  analysisMs: number[];
}

interface MeasureOptions {
  warmup: number;
  /** Settings besides the debounce, the budget and the defines. */
  settings?: Record<string, unknown>;
  /** The server process's environment. */
  env?: NodeJS.ProcessEnv;
  /**
   * Each edit makes a text not seen before (a number at the end of line 0), instead of
   * toggling a space: clang's results are cached by content, and a toggle would time the cache.
   */
  newTextEachEdit?: boolean;
}

async function measure(program: Program, runs: number, options: MeasureOptions = { warmup: WARMUP }): Promise<Samples> {
  const root = process.cwd();
  const file = path.join(root, program.file);
  const original = fs.readFileSync(file, 'utf8');
  const codes = expectedCodes(original, program.defines.includes('RACEY'));
  if (!codes.length) throw new Error(`bench: ${program.file} states no race`);
  const uri = pathToFileURL(file).toString();
  const firstLineEnd = original.indexOf('\n');
  if (firstLineEnd < 0 || !original.startsWith('//')) throw new Error(`bench: ${program.file} does not start with a comment line`);

  const client = await LspTestClient.start({ analysis: { debounceMs: 0, timeBudgetMs: 60_000 }, preprocessor: { defines: program.defines }, ...options.settings }, options.env ? { env: options.env } : {});
  try {
    const hasRaces = (p: PublishDiagnosticsParams, version: number): boolean =>
      codes.every((code) => p.diagnostics.some((d: Diagnostic) => d.code === code && (d.data as { version?: number } | undefined)?.version === version));
    // The run of `version` is over, its fixes verified (code actions wait for that).
    const settled = async (version: number): Promise<void> => {
      const state = await client.waitForRun(uri, version, 300_000);
      if (state.state !== 'done') throw new Error(`bench: the run of ${program.file} v${version} stopped: ${state.reason}`);
      await client.request('textDocument/codeAction', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [] } });
    };

    const opened = client.waitForDiagnostics(uri, (p) => p.version === 1 && hasRaces(p, 1), 300_000);
    const t0 = performance.now();
    await client.open(uri, original, 1);
    await opened;
    const out: Samples = { firstFindingsMs: performance.now() - t0, editToRaceMs: [], analysisMs: [] };
    await settled(1);
    let suffix = '';
    for (let i = 0; i < options.warmup + runs; i++) {
      const version = i + 2;
      // Toggle a space at the end of line 0 (a comment), or put a new number there.
      const next = options.newTextEachEdit ? ` ${i + 1}` : i % 2 === 0 ? ' ' : '';
      const change = { range: { start: { line: 0, character: firstLineEnd }, end: { line: 0, character: firstLineEnd + suffix.length } }, text: next };
      suffix = next;
      // Wait from before the send, so the arrival is seen as it happens.
      const raced = client.waitForDiagnostics(uri, (p) => p.version === version && hasRaces(p, version), 300_000, client.diagnostics.length);
      const t0 = performance.now();
      await client.change(uri, version, [change]);
      await raced;
      const ms = performance.now() - t0;
      await settled(version);
      if (i < options.warmup) continue;
      out.editToRaceMs.push(ms);
      const done = client.states.find((s) => s.uri === uri && s.version === version && s.state === 'done');
      if (done?.elapsedMs !== undefined) out.analysisMs.push(done.elapsedMs);
    }
    return out;
  } finally {
    await client.stop();
  }
}

/** Open documents in the memory figure. */
const OPEN_DOCUMENTS = 12;

/**
 * The peak RSS of the server tree with OPEN_DOCUMENTS race programs open at once (the five
 * application programs of the race suite and the first of the others), sampled every 20 ms
 * from the first didOpen until every document's run has ended; default settings.
 */
export async function memoryMetrics(): Promise<Metric[]> {
  const dir = path.join(process.cwd(), 'test', 'fixtures', 'races');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cu')).sort((a, b) => Number(b.startsWith('app_')) - Number(a.startsWith('app_')) || a.localeCompare(b)).slice(0, OPEN_DOCUMENTS);
  const client = await LspTestClient.start({ analysis: { debounceMs: 0 } });
  let peak = 0;
  const sample = (): void => void (peak = Math.max(peak, treeRssBytes(client.process.pid!) ?? 0));
  const timer = setInterval(sample, 20);
  try {
    const uris = files.map((f) => pathToFileURL(path.join(dir, f)).toString());
    for (const [i, uri] of uris.entries()) await client.open(uri, fs.readFileSync(path.join(dir, files[i]), 'utf8'));
    for (const uri of uris) await client.waitForRun(uri, 1, 600_000);
    sample();
  } finally {
    clearInterval(timer);
    await client.stop();
  }
  const allowedMb = defaultParallelRuns() * DEFAULT_SETTINGS.analysis.memoryLimitMb + 300;
  const peakMb = peak / 2 ** 20;
  return [
    { name: `lsp.memory.peak_rss_mb.${OPEN_DOCUMENTS}_documents`, value: +peakMb.toFixed(1), unit: 'MB' },
    { name: 'lsp.memory.allowed_mb', value: allowedMb, unit: 'MB' },
    { name: 'lsp.memory.peak_vs_allowed.ratio', value: +(peakMb / allowedMb).toFixed(3), unit: 'ratio' },
  ];
}

async function child(runs: number): Promise<Metric[]> {
  const metrics: Metric[] = [...(await memoryMetrics())];
  let microP95 = NaN;
  for (const program of PROGRAMS) {
    const s = await measure(program, runs);
    const p95 = percentile(s.editToRaceMs, 95);
    if (program.label === 'micro') microP95 = p95;
    metrics.push(
      { name: `lsp.edit_to_race_ms.p50.${program.label}`, value: +percentile(s.editToRaceMs, 50).toFixed(1), unit: 'ms' },
      { name: `lsp.edit_to_race_ms.p95.${program.label}`, value: +p95.toFixed(1), unit: 'ms' },
      { name: `lsp.analysis_ms.p50.${program.label}`, value: +percentile(s.analysisMs, 50).toFixed(1), unit: 'ms' },
    );
  }
  metrics.push({ name: 'lsp.edit_to_race_target.ratio', value: +(microP95 / TARGET_MS).toFixed(3), unit: 'ratio' });
  metrics.push(...(await clangMetrics()));
  return metrics;
}

/**
 * The clang path through the protocol: a cold open (new server, empty clang cache) and
 * CLANG_EDITS warm edits. The program reads its input from a generated file (scord.program.stdin).
 */
export async function clangMetrics(): Promise<Metric[]> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-bench-clang-'));
  try {
    const input = path.join(scratch, 'input.txt');
    fs.writeFileSync(input, `512\n${Array.from({ length: 512 }, (_, i) => (i * 7919) % 1000).join(' ')}\n`);
    // The toolchain's cache defaults to os.tmpdir()/scord-clang-cache: under this TMPDIR, an empty folder.
    const env = { ...process.env, TMPDIR: scratch, TMP: scratch, TEMP: scratch };
    const settings = { program: { stdin: input } };
    const s = await measure(CLANG_PROGRAM, CLANG_EDITS, { warmup: CLANG_WARMUP, settings, env, newTextEachEdit: true });
    // A new server again, its disk cache now holding this program (reopening the editor).
    const again = await measure(CLANG_PROGRAM, 0, { warmup: 0, settings, env });
    const p95 = percentile(s.editToRaceMs, 95);
    return [
      { name: 'lsp.clang.cold_first_findings_ms', value: +s.firstFindingsMs.toFixed(1), unit: 'ms' },
      { name: 'lsp.clang.restart_first_findings_ms', value: +again.firstFindingsMs.toFixed(1), unit: 'ms' },
      { name: 'lsp.clang.edit_to_race_ms.p50', value: +percentile(s.editToRaceMs, 50).toFixed(1), unit: 'ms' },
      { name: 'lsp.clang.edit_to_race_ms.p95', value: +p95.toFixed(1), unit: 'ms' },
      { name: 'lsp.clang.analysis_ms.p50', value: +percentile(s.analysisMs, 50).toFixed(1), unit: 'ms' },
      { name: 'lsp.clang.cold_target.ratio', value: +(s.firstFindingsMs / CLANG_COLD_TARGET_MS).toFixed(3), unit: 'ratio' },
      { name: 'lsp.clang.edit_to_race_target.ratio', value: +(p95 / CLANG_WARM_TARGET_MS).toFixed(3), unit: 'ratio' },
    ];
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Edit-to-race latency through the protocol (see the top of this file): `runs` counted edits
 * per program after the warm-up. Needs dist/server.js, dist/analysisHost.js, dist/analysisWorker.js and
 * dist/bench/lsp.js (`node esbuild.mjs --bench` builds all four); run from the repository root.
 */
export function lspMetrics(runs: number): Metric[] {
  const script = path.join(__dirname, 'bench', 'lsp.js');
  if (!fs.existsSync(script)) throw new Error(`bench: ${script} is missing (build with \`node esbuild.mjs --bench\`)`);
  const r = spawnSync(process.execPath, [script], { cwd: process.cwd(), env: { ...process.env, [CHILD]: String(runs) }, encoding: 'utf8', timeout: 1_800_000, maxBuffer: 16 << 20 });
  if (r.status !== 0) throw new Error(`bench: the LSP measurement failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`}):\n${r.stderr}`);
  const last = r.stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as Metric[];
}

// In the child (dist/bench/lsp.js): measure, print the figures as one JSON line, and exit.
if (process.env[CHILD]) {
  const runs = Number(process.env[CHILD]);
  child(Number.isInteger(runs) && runs > 0 ? runs : 30).then(
    (metrics) => {
      process.stdout.write(`${JSON.stringify(metrics)}\n`);
      process.exit(0);
    },
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}
