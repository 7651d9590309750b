// clang, lld and their sysroot, compiled to WebAssembly (@yowasp/clang), loaded on first use.
//
// The package is an ES module that finds its .wasm and .tar files beside itself
// (import.meta.url), so the bundles keep it external and load it with a real dynamic import
// from node_modules. Loading costs about a second and a half (a 75 MB module), so nothing
// imports it until a compile actually runs.
//
// Each call instantiates the module afresh with its own memory and file tree; calls are
// queued so that one process never holds two instances (each is hundreds of MB) at once.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileTree } from './paths';

type YowaspClang = typeof import('@yowasp/clang', { with: { 'resolution-mode': 'import' } });

let loading: Promise<YowaspClang> | undefined;
let queue: Promise<unknown> = Promise.resolve();

/** What one clang or wasm-ld invocation gave back. */
export interface ToolRun {
  /** The process's exit status; undefined when it stopped abnormally (a trap, an assertion). */
  exitCode: number | undefined;
  /** Its whole file tree after the run (outputs included), when it ran to an exit. */
  files: unknown;
  /** What it wrote to stdout (an output written to `-o -`, wasm-ld's symbol traces). */
  stdout: Uint8Array;
  /** What it wrote to stderr (messages). */
  stderr: string;
  /** Why it stopped abnormally. */
  crash?: string;
}

/** Runs `args` (argv[0] names the tool: `clang`, `wasm-ld`) over `tree`. Never rejects. */
export function runTool(args: string[], tree: FileTree): Promise<ToolRun> {
  const run = queue.then(() => invoke(args, tree));
  queue = run.catch(() => undefined);
  return run;
}

async function invoke(args: string[], tree: FileTree): Promise<ToolRun> {
  let clang: YowaspClang;
  try {
    clang = await loadClang();
  } catch (e) {
    return { exitCode: undefined, files: undefined, stdout: new Uint8Array(0), stderr: '', crash: `the clang toolchain (@yowasp/clang) could not be loaded: ${message(e)}` };
  }
  // Outputs go to stdout where the tool allows (`-o -`): the package's in-memory files copy
  // themselves whole on every write, which is quadratic in a large output (a precompiled
  // header of <iostream> is 15 MB); a stream of chunks is not.
  const out: Uint8Array[] = [];
  const err: Uint8Array[] = [];
  const stdout = (bytes: Uint8Array | null): void => void (bytes && out.push(bytes.slice()));
  const stderr = (bytes: Uint8Array | null): void => void (bytes && err.push(bytes.slice()));
  const result = (exitCode: number | undefined, files: unknown, crash?: string): ToolRun => ({
    exitCode,
    files,
    stdout: concat(out),
    stderr: new TextDecoder().decode(concat(err)),
    ...(crash !== undefined ? { crash } : {}),
  });
  try {
    const files = await clang.runLLVM(args, tree, { stdout, stderr, decodeASCII: false, fetchProgress: () => undefined });
    return result(0, files);
  } catch (e) {
    if (e instanceof clang.Exit) return result(e.code, e.files);
    return result(undefined, undefined, message(e));
  }
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
