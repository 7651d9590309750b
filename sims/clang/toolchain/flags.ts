// The clang -cc1 and wasm-ld command lines of the two passes, in one place.
//
// Device: nvptx-nvidia-cuda (32-bit, so device pointers are as wide as the wasm32 host's),
// -O0 so every access the source wrote reaches the IR, line-table debug info for locations.
// Host: wasm32-unknown-wasip1 objects, with the registration constructors clang emits only
// when it is given a GPU binary (a placeholder naming the unit; see GPU_BINARY below).
// Both: the flags the clang driver would add for these targets, nvcc's predefined macros, the
// project's CUDA headers searched after the -I folders, and `-include cuda_runtime.h` as nvcc
// does implicitly.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GENERATED, toVirtual } from './paths';
import type { TranslationUnitSpec, UnitLanguage } from './unit';

/** The CUDA version the macros present: nvcc 12.8, as the project's cuda_runtime.h says (keep the two equal). */
export const CUDA_VERSION = { major: 12, minor: 8, build: 0 };
/** The GPU architecture compiled for unless a unit says otherwise (sm_70: Volta, the first with independent thread scheduling). */
export const DEFAULT_ARCH = 70;
/** The oldest architecture the toolchain builds for (Maxwell; CUDA 12 dropped Kepler). */
export const OLDEST_ARCH = 50;

/**
 * The architecture an nvcc or clang spelling names, as its compute capability times ten:
 * `sm_60`, `compute_60`, `lto_60`, `sm_90a`, `sm_100f` and `60` give 60, 90, 100; what names no
 * single architecture (`native`, `all`, `all-major`) or one older than OLDEST_ARCH gives undefined.
 */
export function gpuArchOf(spelling: string): number | undefined {
  const m = /^(?:sm_|compute_|lto_)?(\d{2,3})[af]?$/.exec(spelling.trim());
  const arch = m ? Number(m[1]) : undefined;
  return arch !== undefined && arch >= OLDEST_ARCH ? arch : undefined;
}

/**
 * The architectures of one -arch / -gencode / --cuda-gpu-arch value: a list (`sm_60,sm_70`) or
 * nvcc's `arch=compute_60,code=[sm_60,sm_70]` form (its `code=` names what runs; `arch=`
 * alone, the virtual architecture, when there is no `code=`).
 */
export function gpuArchsOf(value: string): number[] {
  const code = /code\s*=\s*(\[[^\]]*\]|[^,\s]+)/.exec(value)?.[1] ?? /arch\s*=\s*(\[[^\]]*\]|[^,\s]+)/.exec(value)?.[1];
  const list = (code ?? value).replace(/[[\]]/g, '').split(',');
  return list.map(gpuArchOf).filter((a): a is number => a !== undefined);
}
/**
 * nvcc reads host code with the host compiler's default dialect, GNU C++17 for g++ 11 and later;
 * wasi-libc also declares some POSIX names (`uint`, `ushort`) only in GNU mode.
 */
export const DEFAULT_STD = 'gnu++17';

/**
 * wasi-libc declares mmap, signal, clock() and getpid() only when their emulations are asked for;
 * programs use them (timers, helper headers), so both passes ask and the link adds the libraries.
 */
const WASI_EMULATIONS = ['mman', 'signal', 'process-clocks', 'getpid'];
const WASI_EMULATION_DEFINES = WASI_EMULATIONS.map((e) => `_WASI_EMULATED_${e.toUpperCase().replace(/-/g, '_')}`);

export type Pass = 'device' | 'host';
export type DebugInfo = 'line-tables-only' | 'constructor';

/** Where clang's sysroot keeps its headers and libraries. */
const SYSROOT_INCLUDES = ['/usr/include/wasm32-wasip1/c++/v1', '/usr/include/c++/v1', '/usr/include/wasm32-wasip1', '/usr/include'];
/** clang's own __device__ overloads of <algorithm>, <cmath>, <complex>, <new>: searched first in CUDA, as the driver does. */
const CUDA_WRAPPERS = '/usr/include/cuda_wrappers';

/**
 * The placeholder GPU binary of a unit. Its bytes (`scord-unit:<path>` and a NUL) are what
 * `__cudaRegisterFatBinary` receives through the wrapper's third field, so the host runtime
 * knows which unit's device code a registration belongs to.
 */
export const GPU_BINARY = `${GENERATED}/gpu-binary`;
export function gpuBinaryBytes(file: string): Uint8Array {
  return new TextEncoder().encode(`scord-unit:${file}\0`);
}

export function languageOf(unit: TranslationUnitSpec): UnitLanguage {
  if (unit.language) return unit.language;
  const ext = path.extname(unit.file).toLowerCase();
  if (ext === '.c') return 'c';
  if (ext === '.cpp' || ext === '.cc' || ext === '.cxx' || ext === '.c++') return 'c++';
  return 'cuda';
}

/**
 * Whether a pass reads the unit as CUDA. C++ files (.cpp) are, in the host pass: nvcc hands
 * them to the host compiler, but they include cuda_runtime.h for the runtime API, and the
 * project's cuda_runtime.h is written for clang's CUDA mode. They have no device pass.
 */
export function compiledAsCuda(unit: TranslationUnitSpec, pass: Pass): boolean {
  const lang = languageOf(unit);
  return lang === 'cuda' || (lang === 'c++' && pass === 'host');
}

/** A -std value clang accepts for the unit's language; the default when it names none. */
export function standardOf(unit: TranslationUnitSpec): string {
  const lang = languageOf(unit);
  if (unit.std) return unit.std;
  return lang === 'c' ? 'gnu17' : DEFAULT_STD;
}

/** The macros nvcc defines in both of its passes (clang defines __CUDA_ARCH__ on the device side itself). */
export function nvccDefines(arch: number): string[] {
  return [
    '__CUDACC__',
    '__NVCC__',
    `__CUDACC_VER_MAJOR__=${CUDA_VERSION.major}`,
    `__CUDACC_VER_MINOR__=${CUDA_VERSION.minor}`,
    `__CUDACC_VER_BUILD__=${CUDA_VERSION.build}`,
    `__CUDA_ARCH_LIST__=${arch * 10}`,
  ];
}

export interface CommandInputs {
  pass: Pass;
  unit: TranslationUnitSpec;
  /** The project's CUDA headers (a real folder). */
  headerFolder: string;
  arch: number;
  /** Virtual path of a precompiled header to use, or to make (`emitPch`). */
  pch?: string;
  emitPch?: boolean;
  /** Device debug info: locations only, or also variables (`#dbg_declare` records naming locals). */
  debugInfo?: DebugInfo;
  /**
   * Relocatable device code (nvcc -rdc, clang -fgpu-rdc): needed by kernels that launch kernels
   * (dynamic parallelism); clang says so when a unit needs it.
   */
  relocatable?: boolean;
  /**
   * Keep the headers libc++ includes only for programs that rely on them without including them
   * (its transitive includes for older standards). Left out by default: `#include <vector>` then
   * costs a third; a unit that fails without them is compiled again with them (compile.ts).
   */
  compatIncludes?: boolean;
  /** Virtual input and output paths. */
  input: string;
  output: string;
}

/** The clang -cc1 command line of one pass over one unit. */
export function clangCommand(c: CommandInputs): string[] {
  const lang = languageOf(c.unit);
  const cuda = compiledAsCuda(c.unit, c.pass);
  const args = ['clang', '-cc1'];
  if (c.pass === 'device') {
    // The PTX ISA the builtins of clang's and the project's headers need (*_sync warp operations,
    // __nanosleep, __match_*_sync; see sims/clang/include/HOOKS.md), as the clang driver passes it.
    args.push('-triple', 'nvptx-nvidia-cuda', '-aux-triple', 'wasm32-unknown-wasip1', '-fcuda-is-device', '-target-cpu', `sm_${c.arch}`, '-target-feature', '+ptx87');
    args.push('-fno-threadsafe-statics', '-mframe-pointer=all', '-O0', `-debug-info-kind=${c.debugInfo ?? 'line-tables-only'}`);
  } else {
    // Line tables: the host runtime locates traps and runtime calls through them (DWARF .debug_line).
    args.push('-triple', 'wasm32-unknown-wasip1', '-target-cpu', 'generic', '-mrelocation-model', 'static', '-mconstructor-aliases', '-fvisibility=hidden', '-O0', '-debug-info-kind=line-tables-only');
    if (cuda) args.push('-aux-triple', 'nvptx-nvidia-cuda', '-fcuda-include-gpubinary', GPU_BINARY);
  }
  if (cuda) args.push(`-target-sdk-version=${CUDA_VERSION.major}.${CUDA_VERSION.minor}`);
  if (cuda && c.relocatable) args.push('-fgpu-rdc');
  args.push(c.emitPch ? '-emit-pch' : c.pass === 'device' ? '-emit-llvm' : '-emit-obj');
  // The templates the headers' own inline code uses (string constructors of every character type,
  // copy_n, …) are instantiated once, in the precompiled header, instead of at the end of every
  // unit that uses it: a fifth off each warm compile of a program that includes <iostream>.
  if (c.emitPch) args.push('-fpch-instantiate-templates');
  args.push('-x', cuda ? 'cuda' : lang === 'c' ? 'c' : 'c++', `-std=${standardOf(c.unit)}`);
  // A precompiled header is shared by every unit with the same flags: it names no unit.
  args.push('-fgnuc-version=4.2.1', '-fdeprecated-macro', '-fdebug-compilation-dir=/', '-main-file-name', c.emitPch ? path.posix.basename(c.input) : path.basename(c.unit.file));
  if (lang !== 'c') args.push('-fcxx-exceptions', '-fexceptions');
  args.push('-fno-caret-diagnostics', '-fdiagnostics-print-source-range-info', '-fmessage-length=0', '-ferror-limit', '20');
  if (cuda) for (const d of nvccDefines(c.arch)) args.push('-D', d);
  for (const d of WASI_EMULATION_DEFINES) args.push('-D', d);
  if (!c.compatIncludes) args.push('-D', '_LIBCPP_REMOVE_TRANSITIVE_INCLUDES');
  for (const d of c.unit.defines) args.push('-D', d);
  for (const u of c.unit.undefines ?? []) args.push('-U', u);
  for (const dir of includeDirsOf(c.unit)) args.push('-I', toVirtual(dir));
  if (cuda) args.push('-internal-isystem', CUDA_WRAPPERS);
  args.push('-internal-isystem', toVirtual(c.headerFolder));
  for (const dir of SYSROOT_INCLUDES) {
    if (lang === 'c' && dir.includes('c++')) continue;
    args.push('-internal-isystem', dir);
  }
  if (c.pch && !c.emitPch) args.push('-include-pch', c.pch);
  // A precompiled header starts with cuda_runtime.h itself (see pch.ts).
  else if (cuda && !c.emitPch) args.push('-include', 'cuda_runtime.h');
  if (!c.emitPch) for (const f of forcedIncludesOf(c.unit)) args.push('-include', toVirtual(f));
  args.push(c.input, '-o', c.output);
  return args;
}

/**
 * The -I folders of a unit, absolute (relative ones are taken from the unit's folder). A folder
 * of the CUDA toolkit's own headers (with cuda_runtime_api.h; build files often name it) is
 * left out: the project's headers stand in for the toolkit's, which clang cannot use as they are.
 */
export function includeDirsOf(unit: TranslationUnitSpec): string[] {
  return unit.includeDirs.map((d) => path.resolve(path.dirname(unit.file), d)).filter((d) => !isToolkitFolder(d));
}

const toolkitFolders = new Map<string, boolean>();
function isToolkitFolder(dir: string): boolean {
  let known = toolkitFolders.get(dir);
  if (known === undefined) {
    known = fs.existsSync(path.join(dir, 'cuda_runtime_api.h')) && fs.existsSync(path.join(dir, 'crt'));
    toolkitFolders.set(dir, known);
  }
  return known;
}

export function forcedIncludesOf(unit: TranslationUnitSpec): string[] {
  return (unit.includes ?? []).map((f) => path.resolve(path.dirname(unit.file), f));
}

/** wasm-ld over the units' objects, against the sysroot's libc++ and libc. */
export function linkCommand(objects: string[], output: string, exports: string[]): string[] {
  return [
    'wasm-ld',
    '/usr/lib/wasm32-wasip1/crt1-command.o',
    ...objects,
    '-L/usr/lib/wasm32-wasip1',
    '-lc++',
    '-lc++abi',
    // printf's %Lf (wasi-libc leaves long double formatting out of libc.a).
    '-lc-printscan-long-double',
    '-lc',
    ...WASI_EMULATIONS.map((e) => `-lwasi-emulated-${e}`),
    '/usr/lib/wasm32-unknown-wasip1/libclang_rt.builtins.a',
    // CUDA runtime calls, and the rest the sysroot does not define, become `env` imports.
    '--allow-undefined',
    // The host's table holds the kernel stubs whose indices registrations and launches pass.
    '--export-table',
    // The runner makes the memory, with the run's memory limit as its maximum: a heap that
    // grows past it fails as on a full machine (malloc returns NULL) instead of growing to 4 GB.
    '--import-memory',
    '--export-memory',
    // Host programs assume a native stack; wasm-ld's default is 64 KB.
    '-z',
    'stack-size=8388608',
    // Functions the host runtime calls (malloc and free, to place device memory in the program's heap).
    ...exports.map((e) => `--export=${e}`),
    // Reports which object defines main (a kernel-only program has none): see linkPass.
    '--trace-symbol=main',
    '--trace-symbol=__main_argc_argv',
    '--trace-symbol=__main_void',
    '-o',
    output,
  ];
}
