// clang, lld and their sysroot, compiled to WebAssembly (@yowasp/clang), loaded on first use.
//
// The package is an ES module that finds its .wasm and .tar files beside itself
// (import.meta.url), so the bundles keep it external and load it with a real dynamic import
// from node_modules. Loading costs about a second and a half (a 75 MB module), so nothing
// imports it until a compile actually runs.
//
// Each call instantiates the module afresh with its own memory and file tree. Calls run in
// lanes, one call at a time each: this thread, and on a machine with a second core a worker
// thread of its own, so that a unit's device and host passes (asked for together) compile side
// by side. At most one instance per lane exists at once (each is hundreds of MB).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import { ANALYSIS_STACK_MB } from '../../largeStack';
import type { FileTree } from './paths';

type YowaspClang = typeof import('@yowasp/clang', { with: { 'resolution-mode': 'import' } });

let loading: Promise<YowaspClang> | undefined;

/** What one clang or wasm-ld invocation gave back. */
export interface ToolRun {
  /** The process's exit status; undefined when it stopped abnormally (a trap, an assertion). */
  exitCode: number | undefined;
  /** Its whole file tree after the run (outputs included), when it ran to an exit and was asked for. */
  files: unknown;
  /** What it wrote to stdout (an output written to `-o -`, wasm-ld's symbol traces). */
  stdout: Uint8Array;
  /** What it wrote to stderr (messages). */
  stderr: string;
  /** Why it stopped abnormally. */
  crash?: string;
  /** The lane that ran it: 0 this thread, 1 the worker thread. */
  lane: number;
}

/** What a tool left behind, before its output is joined and decoded (the same in either lane). */
interface RawRun {
  exitCode: number | undefined;
  files: unknown;
  out: Uint8Array[];
  err: Uint8Array[];
  crash?: string;
}

/**
 * Runs one tool with a loaded module (`clang`, the package). Both lanes run this same text: the
 * worker lane has nothing else of this module, so it is JavaScript source, made a function here.
 * Outputs go to stdout where the tool allows (`-o -`): the package's in-memory files copy
 * themselves whole on every write, which is quadratic in a large output (a precompiled header
 * of <iostream> is 15 MB); a stream of chunks is not.
 */
const RUN_LOADED = `async function runLoaded(clang, args, tree) {
  const out = [];
  const err = [];
  const stdout = (bytes) => { if (bytes) out.push(bytes.slice()); };
  const stderr = (bytes) => { if (bytes) err.push(bytes.slice()); };
  try {
    const files = await clang.runLLVM(args, tree, { stdout, stderr, decodeASCII: false, fetchProgress: () => undefined });
    return { exitCode: 0, files, out, err };
  } catch (e) {
    if (e instanceof clang.Exit) return { exitCode: e.code, files: e.files, out, err };
    return { exitCode: undefined, files: undefined, out, err, crash: e instanceof Error ? e.message : String(e) };
  }
}`;
const runLoaded = new Function(`return ${RUN_LOADED}`)() as (clang: YowaspClang, args: string[], tree: unknown) => Promise<RawRun>;

/** One tool at a time, in this thread or in a worker thread. */
interface Lane {
  index: number;
  /** Calls given to it and not yet finished. */
  pending: number;
  queue: Promise<unknown>;
  invoke(args: string[], tree: FileTree, wantFiles: boolean): Promise<RawRun>;
}

const here: Lane = {
  index: 0,
  pending: 0,
  queue: Promise.resolve(),
  async invoke(args, tree, wantFiles) {
    let clang: YowaspClang;
    try {
      clang = await loadClang();
    } catch (e) {
      return { exitCode: undefined, files: undefined, out: [], err: [], crash: `the clang toolchain (@yowasp/clang) could not be loaded: ${message(e)}` };
    }
    const r = await runLoaded(clang, args, tree);
    return wantFiles ? r : { ...r, files: undefined };
  },
};

/**
 * Above this resident size a call waits for this thread's lane instead of taking the worker
 * lane: two instances of a large unit at once could pass an analysis process's ceiling (its
 * heap limit plus 1.5 GB, server/analysis/workers.ts), where one at a time stays under it.
 */
const SECOND_LANE_MAX_RSS = 1024 * 2 ** 20;

/** The worker lane, made when two calls first overlap; undefined on a single core. */
let second: Lane | undefined | null = null;

function lanes(): Lane[] {
  if (second === null) second = os.availableParallelism() > 1 ? workerLane() : undefined;
  return second ? [here, second] : [here];
}

/**
 * Runs `args` (argv[0] names the tool: `clang`, `wasm-ld`) over `tree` in the lane with the
 * fewest calls waiting (this thread on a tie: it is loaded first; always, in a large process).
 * Never rejects. `wantFiles`: the file tree after the run comes back too (it holds the inputs:
 * a worker lane copies it back only when asked).
 */
export function runTool(args: string[], tree: FileTree, wantFiles = false): Promise<ToolRun> {
  coldStart();
  const lane = here.pending === 0 || process.memoryUsage.rss() > SECOND_LANE_MAX_RSS ? here : lanes().reduce((a, b) => (b.pending < a.pending ? b : a));
  lane.pending++;
  const run = lane.queue.then(() => lane.invoke(args, tree, wantFiles)).then((r) => toolRun(r, lane.index));
  lane.queue = run.catch(() => undefined);
  void run.finally(() => {
    lane.pending--;
    if (++finished === COLD_RUNS) warmStart();
  });
  return run;
}

/**
 * V8 compiles clang's functions lazily, with its baseline compiler, as they first run, and
 * moves the ones that keep running to its optimising compiler in background threads. On the
 * first compiles of a process (a unit's two passes side by side, then its link) that
 * optimising work competes with the baseline compiling that the compiles wait for, on a
 * machine whose cores both run clang: a budget fifty times the default before a function is
 * optimised, and validation as each function is first compiled rather than of the whole
 * module at load, take a second off the first findings of a new editor session. From then on
 * (new instances read the budget as they start) the default budget holds, which the warm
 * compiles of later edits are fastest with. Skipped when the process was started with a
 * budget of its own.
 */
const COLD_TIERING_BUDGET = 100_000_000;
const DEFAULT_TIERING_BUDGET = 1_800_000;
/** Tool runs (a unit's device and host passes and its link) before the default budget holds again. */
const COLD_RUNS = 3;
let finished = 0;
let tuned: boolean | undefined;

function coldStart(): void {
  if (tuned !== undefined) return;
  const own = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((a) => a.startsWith('--wasm-tiering-budget') || a.startsWith('--wasm-lazy-validation'));
  tuned = !own;
  if (!tuned) return;
  v8.setFlagsFromString(`--wasm-tiering-budget=${COLD_TIERING_BUDGET}`);
  v8.setFlagsFromString('--wasm-lazy-validation');
}

function warmStart(): void {
  if (tuned) v8.setFlagsFromString(`--wasm-tiering-budget=${DEFAULT_TIERING_BUDGET}`);
}

function toolRun(r: RawRun, lane: number): ToolRun {
  return {
    lane,
    exitCode: r.exitCode,
    files: r.files,
    stdout: concat(r.out),
    stderr: new TextDecoder().decode(concat(r.err)),
    ...(r.crash !== undefined ? { crash: r.crash } : {}),
  };
}

/**
 * A lane in a worker thread that loads the package itself and runs runLoaded's source. The
 * thread does not keep the process alive; a thread that dies fails its calls with why, and
 * the next call starts a new one.
 */
function workerLane(): Lane {
  let thread: Worker | undefined;
  let nextId = 0;
  const waiting = new Map<number, (r: RawRun) => void>();
  const fail = (why: string): void => {
    for (const done of waiting.values()) done({ exitCode: undefined, files: undefined, out: [], err: [], crash: why });
    waiting.clear();
    thread = undefined;
  };
  const start = (): Worker => {
    let entry: string;
    try {
      entry = pathToFileURL(require.resolve('@yowasp/clang')).href;
    } catch {
      entry = '@yowasp/clang';
    }
    const source = `const { parentPort, workerData } = require('node:worker_threads');
const runLoaded = ${RUN_LOADED};
let loading;
parentPort.on('message', async ({ id, args, tree, wantFiles }) => {
  let r;
  try {
    loading ??= import(workerData.entry);
    r = await runLoaded(await loading, args, tree);
    if (!wantFiles) r.files = undefined;
  } catch (e) {
    loading = undefined;
    r = { exitCode: undefined, files: undefined, out: [], err: [], crash: 'the clang toolchain (@yowasp/clang) could not be loaded: ' + (e && e.message ? e.message : String(e)) };
  }
  // The output's chunks are this thread's own copies: moved, not copied again.
  parentPort.postMessage({ id, r }, [...r.out, ...r.err].map((b) => b.buffer));
});`;
    // clang recurses on the JavaScript stack: the same deep stack as the analyses' own thread.
    const t = new Worker(source, { eval: true, workerData: { entry }, resourceLimits: { stackSizeMb: ANALYSIS_STACK_MB } });
    t.unref();
    t.on('message', ({ id, r }: { id: number; r: RawRun }) => {
      const done = waiting.get(id);
      waiting.delete(id);
      done?.(r);
      if (waiting.size === 0) t.unref();
    });
    t.on('error', (e) => fail(`the clang thread stopped: ${message(e)}`));
    t.on('exit', (code) => {
      if (thread === t) fail(`the clang thread exited (${code})`);
    });
    return t;
  };
  return {
    index: 1,
    pending: 0,
    queue: Promise.resolve(),
    invoke(args, tree, wantFiles) {
      thread ??= start();
      const t = thread;
      const id = nextId++;
      return new Promise<RawRun>((resolve) => {
        waiting.set(id, resolve);
        t.ref();
        t.postMessage({ id, args, tree, wantFiles });
      });
    },
  };
}

function loadClang(): Promise<YowaspClang> {
  loading ??= import('@yowasp/clang');
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

let version: string | undefined;

/**
 * The toolchain's version, read from its package without loading it (a cache hit must not
 * pay for loading clang). Part of every cache key.
 */
export function toolchainVersion(): string {
  if (version !== undefined) return version;
  try {
    const entry = require.resolve('@yowasp/clang');
    const manifest = JSON.parse(fs.readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as { version?: unknown };
    version = typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    version = 'missing';
  }
  return version;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
