// Which headers of a unit go into a precompiled header.
//
// libc++'s <iostream>, <vector>, <string> cost clang seconds per pass; a precompiled header of
// them costs that once and then a few hundred milliseconds. The headers taken are the leading
// run of the main file's includes that name standard or project CUDA headers (comments, blank
// lines and `#pragma once` between them are fine); the run ends at the first other line, so a
// macro defined or a user header included before a standard header still comes before it.
// The precompiled header holds cuda_runtime.h (nvcc's implicit first include, which itself
// brings <cmath>, <cstdlib>, <new>…) and, when the run has at least one C++ library header
// (C headers alone are cheap), that run, in order, compiled with the unit's own -D/-U/-std
// flags: the unit sees exactly what it would have seen.

const CXX_HEADERS = new Set(
  (
    'algorithm any array atomic barrier bit bitset charconv chrono codecvt compare complex concepts condition_variable ' +
    'coroutine deque exception execution expected filesystem format forward_list fstream functional future ' +
    'initializer_list iomanip ios iosfwd iostream istream iterator latch limits list locale map memory ' +
    'memory_resource mutex new numbers numeric optional ostream print queue random ranges ratio regex ' +
    'scoped_allocator semaphore set shared_mutex source_location span sstream stack stdexcept stop_token streambuf ' +
    'string string_view strstream syncstream system_error thread tuple type_traits typeindex typeinfo ' +
    'unordered_map unordered_set utility valarray variant vector version'
  ).split(' '),
);
const C_HEADERS = new Set(
  (
    'cassert cctype cerrno cfenv cfloat cinttypes climits clocale cmath csetjmp csignal cstdarg cstddef cstdint ' +
    'cstdio cstdlib cstring ctime cuchar cwchar cwctype ' +
    'assert.h ctype.h errno.h fenv.h float.h inttypes.h limits.h locale.h math.h setjmp.h signal.h stdarg.h ' +
    'stdbool.h stddef.h stdint.h stdio.h stdlib.h string.h time.h uchar.h wchar.h wctype.h ' +
    'unistd.h strings.h sys/time.h sys/types.h sys/stat.h fcntl.h getopt.h'
  ).split(' '),
);

/** Where an include of the prologue resolves: a user file, a project CUDA header, or neither (the sysroot). */
export type IncludeOrigin = 'user' | 'project' | 'none';

/**
 * The headers of the precompiled header for a main file's text, or undefined when it has no
 * C++ library header in its leading includes. `origin` says where an include resolves.
 */
export function precompiledHeaders(text: string, origin: (name: string, quoted: boolean) => IncludeOrigin): string[] | undefined {
  const headers: string[] = [];
  for (const line of stripComments(text).split('\n')) {
    const t = line.trim();
    if (t === '' || /^#\s*pragma\s+once$/.test(t)) continue;
    const m = /^#\s*include\s*(?:"([^"]+)"|<([^>]+)>)$/.exec(t);
    if (!m) break;
    const name = m[1] ?? m[2];
    const from = origin(name, m[1] !== undefined);
    if (from === 'user') break;
    if (from === 'none' && !CXX_HEADERS.has(name) && !C_HEADERS.has(name)) break;
    if (!headers.includes(name)) headers.push(name);
  }
  return headers.some((h) => CXX_HEADERS.has(h)) ? headers : undefined;
}

/** The text of the header that is precompiled. */
export function precompiledHeaderText(headers: string[], cuda: boolean): string {
  const lines = cuda ? ['#include <cuda_runtime.h>'] : [];
  for (const h of headers) if (!(cuda && h === 'cuda_runtime.h')) lines.push(`#include <${h}>`);
  return lines.join('\n') + '\n';
}

/** The text with comments replaced by spaces (newlines kept), strings and characters left alone. */
export function stripComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += ' ';
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}
