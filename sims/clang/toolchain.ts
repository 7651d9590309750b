// clang as the front end: the device pass (NVVM IR text with debug locations), the host pass
// (a wasm32-wasip1 object) and the link (a WebAssembly program), each cached by content.
//
// The pieces are in ./toolchain/: the lazily loaded WebAssembly toolchain (wasm.ts), the
// bounded collection of a unit's files (sources.ts), the command lines (flags.ts), the cache
// (cache.ts), precompiled headers (pch.ts) and clang's messages (diagnostics.ts).
import { compilePass, linkPass, precompilePass, type CacheState } from './toolchain/compile';
import type { ClangDiagnostic } from './toolchain/diagnostics';
import { languageOf } from './toolchain/flags';
import type { TranslationUnitSpec } from './toolchain/unit';

export type { TranslationUnitSpec, UnitLanguage } from './toolchain/unit';
export type { ClangDiagnostic, ClangSeverity } from './toolchain/diagnostics';
export { configureToolchain, toolchainCache, type ToolchainOptions, type CacheState } from './toolchain/compile';
export { CUDA_VERSION, DEFAULT_ARCH, DEFAULT_STD, nvccDefines, languageOf } from './toolchain/flags';
export { headerFolder } from './toolchain/headers';

/** How a result was made: from the cache or not, and with which precompiled headers. */
export interface ResultOrigin {
  cached: CacheState;
  /**
   * When a precompiled header was used: the unit's leading headers it held besides
   * cuda_runtime.h (an empty list: cuda_runtime.h alone).
   */
  precompiled?: string[];
  /** How many times clang compiled the unit for this result; absent when cached. */
  attempts?: number;
}

export type DeviceResult = ({ ok: true; ll: string; diagnostics: ClangDiagnostic[] } | { ok: false; diagnostics: ClangDiagnostic[] }) & ResultOrigin;

export type HostResult = ({ ok: true; object: Uint8Array; diagnostics: ClangDiagnostic[] } | { ok: false; diagnostics: ClangDiagnostic[] }) & ResultOrigin;

export type LinkResult =
  | {
      ok: true;
      wasm: Uint8Array;
      diagnostics: ClangDiagnostic[];
      cached: CacheState;
      /**
       * The unit that defines `main`; undefined when none does (a kernel-only program: it
       * links, but its start traps, so it must not be run).
       */
      mainFile?: string;
    }
  | { ok: false; diagnostics: ClangDiagnostic[]; cached: CacheState };

/**
 * The unit's device code as NVVM IR text (nvptx-nvidia-cuda, -O0, line tables). A unit that is
 * not CUDA (.cpp, .c) has no device code: its module is empty.
 */
export async function compileDevice(unit: TranslationUnitSpec): Promise<DeviceResult> {
  if (languageOf(unit) !== 'cuda') return { ok: true, ll: emptyModule(unit.file), diagnostics: [], cached: false };
  const r = await compilePass('device', unit);
  const origin = originOf(r);
  if (!r.ok || !r.output) return { ok: false, diagnostics: r.diagnostics, ...origin };
  return { ok: true, ll: new TextDecoder().decode(r.output), diagnostics: r.diagnostics, ...origin };
}

/**
 * The unit's host code as a wasm32-wasip1 object. For CUDA units it carries clang's module
 * constructor, which at start-up calls __cudaRegisterFatBinary (with the placeholder binary
 * `scord-unit:<file>\0`), __cudaRegisterFunction per kernel (stub → mangled kernel name) and
 * __cudaRegisterVar per __device__/__constant__ variable (host shadow → mangled device name).
 */
export async function compileHost(unit: TranslationUnitSpec): Promise<HostResult> {
  const r = await compilePass('host', unit);
  const origin = originOf(r);
  if (!r.ok || !r.output) return { ok: false, diagnostics: r.diagnostics, ...origin };
  return { ok: true, object: r.output, diagnostics: r.diagnostics, ...origin };
}

/**
 * Makes the precompiled headers the unit's passes use, unless they exist (they are otherwise
 * made the second time they are wanted). For idle time: the next compile is then fast.
 */
export async function precompileHeaders(unit: TranslationUnitSpec): Promise<void> {
  if (languageOf(unit) === 'cuda') await precompilePass('device', unit);
  await precompilePass('host', unit);
}

/** Functions of the program the host runtime calls (its heap holds device memory). */
export const HOST_EXPORTS = ['malloc', 'free'];

/**
 * Links host objects with libc++, libc and crt1 into a WASI command module. CUDA runtime calls
 * stay imports from `env`; the function table and `HOST_EXPORTS` are exported. An object may
 * name its unit, so that linker messages (duplicate symbols) say which file.
 */
export async function linkHost(objects: (Uint8Array | { object: Uint8Array; file: string })[], options: { exports?: string[] } = {}): Promise<LinkResult> {
  const list = objects.map((o) => (o instanceof Uint8Array ? { object: o } : o));
  const r = await linkPass(list, options.exports ?? HOST_EXPORTS);
  if (!r.ok || !r.output) return { ok: false, diagnostics: r.diagnostics, cached: r.cached };
  return { ok: true, wasm: r.output, diagnostics: r.diagnostics, cached: r.cached, ...(r.mainFile ? { mainFile: r.mainFile } : {}) };
}

function originOf(r: { cached: CacheState; precompiled?: string[]; attempts?: number }): ResultOrigin {
  return { cached: r.cached, ...(r.precompiled ? { precompiled: r.precompiled } : {}), ...(r.attempts !== undefined ? { attempts: r.attempts } : {}) };
}

function emptyModule(file: string): string {
  return `; ModuleID = '${file}'\nsource_filename = "${file.replace(/\\/g, '\\5C').replace(/"/g, '\\22')}"\ntarget triple = "nvptx-nvidia-cuda"\n`;
}
