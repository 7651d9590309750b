// The standard prelude: one precompiled header of cuda_runtime.h and the C and C++ library
// headers CUDA programs start with, shared by every CUDA unit that may use it.
//
// A unit's own precompiled header (pch.ts) holds exactly its leading includes, compiled with its
// own -D flags, so a new program (or new defines) pays for <iostream> in full on its first
// compile and again to make its header. The prelude is made once per toolchain and flags, and
// ships made (the build's seed of the cache, seed.ts): the first compile of a program after
// installing is as fast as a warm one.
//
// A unit compiled with the prelude sees every header in it, not only those it includes. The
// C++ standard lets its headers be included in any order with the same effect, so what can
// differ is only (1) names the unit did not include being visible, which can make an
// unqualified call ambiguous under `using namespace std` (a compile error: the unit is then
// compiled without the prelude, exactly as written) and (2) macros: the headers were compiled
// without the unit's -D and before its own #defines. The prelude is therefore used only when no
// macro the unit defines or undefines anywhere (-D, -U, #define, #undef in its own files) is an
// identifier of any file the prelude read, and none is a reserved name (the implementation's).
import { identifierTokens } from './identifiers';

/** The headers after cuda_runtime.h, in order: C headers in both spellings, then C++. */
export const PRELUDE_HEADERS: readonly string[] = (
  'cstdio cstdlib cstring cmath cassert ctime climits cfloat cstdint cstddef ' +
  'stdio.h stdlib.h string.h math.h assert.h time.h limits.h float.h stdint.h stddef.h ' +
  'iostream fstream sstream iomanip string vector algorithm utility'
).split(' ');

const PRELUDE = new Set(PRELUDE_HEADERS);

/** The prelude's source. */
export function preludeText(): string {
  return ['#include <cuda_runtime.h>', ...PRELUDE_HEADERS.map((h) => `#include <${h}>`)].join('\n') + '\n';
}

/** Whether every one of a unit's leading headers (pch.ts) is in the prelude. */
export function inPrelude(leading: readonly string[]): boolean {
  return leading.every((h) => h === 'cuda_runtime.h' || PRELUDE.has(h));
}

/** Names the implementation may use: `__x`, `_X`. */
function reserved(name: string): boolean {
  return /^_[A-Z_]/.test(name);
}

/** The names of `-D NAME[=VALUE]` and `-U NAME` flags. */
export function flagMacroNames(defines: readonly string[], undefines: readonly string[] = []): string[] {
  return [...defines.map((d) => d.split('=')[0].replace(/\(.*$/s, '').trim()), ...undefines.map((u) => u.trim())];
}

/** The names a file's `#define` and `#undef` directives name. */
export function directiveMacroNames(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(/^[ \t]*#[ \t]*(?:define|undef)[ \t]+([A-Za-z_]\w*)/gm)) names.push(m[1]);
  return names;
}

/**
 * Whether macros of these names leave the prelude's headers as they would be: none is reserved
 * and none is an identifier of a file the prelude read.
 */
export function macrosLeavePrelude(names: Iterable<string>, identifiers: ReadonlySet<string>): boolean {
  for (const n of names) if (reserved(n) || identifiers.has(n)) return false;
  return true;
}

/** The identifiers of files (their text), reserved ones left out: what macrosLeavePrelude compares with. */
export function preludeIdentifiers(texts: Iterable<string>): Set<string> {
  const ids = new Set<string>();
  for (const t of texts) identifierTokens(t, ids);
  for (const id of ids) if (reserved(id)) ids.delete(id);
  return ids;
}
