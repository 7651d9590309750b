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
  /** What it wrote to stdout and stderr, in order. */
  output: string;
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
    return { exitCode: undefined, files: undefined, output: '', crash: `the clang toolchain (@yowasp/clang) could not be loaded: ${message(e)}` };
  }
  const chunks: Uint8Array[] = [];
  const collect = (bytes: Uint8Array | null): void => {
    if (bytes) chunks.push(bytes.slice());
  };
  const text = (): string => new TextDecoder().decode(concat(chunks));
  try {
    const files = await clang.runLLVM(args, tree, { stdout: collect, stderr: collect, decodeASCII: false, fetchProgress: () => undefined });
    return { exitCode: 0, files, output: text() };
  } catch (e) {
    if (e instanceof clang.Exit) return { exitCode: e.code, files: e.files, output: text() };
    return { exitCode: undefined, files: undefined, output: text(), crash: message(e) };
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
