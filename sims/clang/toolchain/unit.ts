// What one translation unit is: a source file and the flags it is compiled with.

export type UnitLanguage = 'cuda' | 'c++' | 'c';

export interface TranslationUnitSpec {
  /** Absolute path of the source file. */
  file: string;
  /** The editor's unsaved text of `file`; it replaces the file on disk. */
  text?: string;
  /** `NAME` or `NAME=VALUE`, as -D. */
  defines: string[];
  /** -I folders, absolute (a relative one is taken from the file's folder), searched in order. */
  includeDirs: string[];
  /** `c++17` (the default), `c++14`, `gnu++17`, …, as -std=. */
  std?: string;
  /**
   * Unsaved editor text of other files the unit includes (open headers); undefined: the file
   * is read from disk, by the toolchain, with its limits. Never called for special paths.
   */
  readFile?: (path: string) => string | undefined;
  /** Names to undefine, as -U. */
  undefines?: string[];
  /** Files included before the first line, as -include (after the implicit cuda_runtime.h). */
  includes?: string[];
  /**
   * How the file is compiled: `cuda` (both passes; the default for .cu and anything not below),
   * `c++` (.cpp, .cc, .cxx: the host compiler only, as nvcc hands them over) or `c` (.c).
   */
  language?: UnitLanguage;
  /**
   * The GPU architecture the unit is built for (nvcc's -arch, as a compute capability times ten:
   * 60 for sm_60); the toolchain's default (sm_70) otherwise.
   */
  arch?: number;
  /**
   * Compiled as relocatable device code (nvcc -rdc=true, clang -fgpu-rdc), as a program whose
   * units share device variables (`extern __constant__` in one, defined in another) is built.
   */
  relocatable?: boolean;
}
