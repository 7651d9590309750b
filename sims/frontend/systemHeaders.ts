// Built-in system headers. The preprocessor serves these texts for `#include <...>` (and for a
// quoted include that is found nowhere else, as compilers search system directories last). They
// provide only the MACROS the real headers define: declarations of functions, types and
// variables (printf, malloc, int32_t, cudaMalloc, ...) are known to the semantic analyser, so
// most C++ headers here are empty. Tokens from these texts carry `range.file` = `<name>`.
//
// `assert` is deliberately not a macro unless NDEBUG is defined: `assert(cond)` then stays a call
// the analyser knows, so the memory reads in `cond` remain visible to race detection.

const STDDEF = `#pragma once
#define NULL 0L
#define offsetof(type, member) __builtin_offsetof(type, member)
`;

const STDIO = `#pragma once
#define NULL 0L
#define EOF (-1)
#define BUFSIZ 8192
#define FILENAME_MAX 4096
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
`;

const STDLIB = `#pragma once
#define NULL 0L
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
`;

const STRING = `#pragma once
#define NULL 0L
`;

const MATH = `#pragma once
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))
#define HUGE_VAL (__builtin_huge_val())
#define HUGE_VALF (__builtin_huge_valf())
#define FP_NAN 0
#define FP_INFINITE 1
#define FP_ZERO 2
#define FP_SUBNORMAL 3
#define FP_NORMAL 4
`;

// Re-includable on purpose: the meaning of assert follows NDEBUG at each inclusion.
const ASSERT = `#undef assert
#ifdef NDEBUG
#define assert(expr) ((void)0)
#endif
`;

const STDINT = `#pragma once
#define INT8_MIN (-128)
#define INT16_MIN (-32767-1)
#define INT32_MIN (-2147483647-1)
#define INT64_MIN (-9223372036854775807L-1)
#define INT8_MAX (127)
#define INT16_MAX (32767)
#define INT32_MAX (2147483647)
#define INT64_MAX (9223372036854775807L)
#define UINT8_MAX (255)
#define UINT16_MAX (65535)
#define UINT32_MAX (4294967295U)
#define UINT64_MAX (18446744073709551615UL)
#define INT_LEAST8_MIN INT8_MIN
#define INT_LEAST16_MIN INT16_MIN
#define INT_LEAST32_MIN INT32_MIN
#define INT_LEAST64_MIN INT64_MIN
#define INT_LEAST8_MAX INT8_MAX
#define INT_LEAST16_MAX INT16_MAX
#define INT_LEAST32_MAX INT32_MAX
#define INT_LEAST64_MAX INT64_MAX
#define UINT_LEAST8_MAX UINT8_MAX
#define UINT_LEAST16_MAX UINT16_MAX
#define UINT_LEAST32_MAX UINT32_MAX
#define UINT_LEAST64_MAX UINT64_MAX
#define INT_FAST8_MIN INT8_MIN
#define INT_FAST16_MIN (-9223372036854775807L-1)
#define INT_FAST32_MIN (-9223372036854775807L-1)
#define INT_FAST64_MIN INT64_MIN
#define INT_FAST8_MAX INT8_MAX
#define INT_FAST16_MAX (9223372036854775807L)
#define INT_FAST32_MAX (9223372036854775807L)
#define INT_FAST64_MAX INT64_MAX
#define UINT_FAST8_MAX UINT8_MAX
#define UINT_FAST16_MAX (18446744073709551615UL)
#define UINT_FAST32_MAX (18446744073709551615UL)
#define UINT_FAST64_MAX UINT64_MAX
#define INTPTR_MIN (-9223372036854775807L-1)
#define INTPTR_MAX (9223372036854775807L)
#define UINTPTR_MAX (18446744073709551615UL)
#define INTMAX_MIN (-9223372036854775807L-1)
#define INTMAX_MAX (9223372036854775807L)
#define UINTMAX_MAX (18446744073709551615UL)
#define PTRDIFF_MIN (-9223372036854775807L-1)
#define PTRDIFF_MAX (9223372036854775807L)
#define SIZE_MAX (18446744073709551615UL)
#define INT8_C(c) c
#define INT16_C(c) c
#define INT32_C(c) c
#define INT64_C(c) c ## L
#define UINT8_C(c) c
#define UINT16_C(c) c
#define UINT32_C(c) c ## U
#define UINT64_C(c) c ## UL
#define INTMAX_C(c) c ## L
#define UINTMAX_C(c) c ## UL
`;

const LIMITS = `#pragma once
#define CHAR_BIT 8
#define MB_LEN_MAX 16
#define SCHAR_MIN (-128)
#define SCHAR_MAX 127
#define UCHAR_MAX 255
#define CHAR_MIN SCHAR_MIN
#define CHAR_MAX SCHAR_MAX
#define SHRT_MIN (-32768)
#define SHRT_MAX 32767
#define USHRT_MAX 65535
#define INT_MIN (-INT_MAX - 1)
#define INT_MAX 2147483647
#define UINT_MAX 4294967295U
#define LONG_MAX 9223372036854775807L
#define LONG_MIN (-LONG_MAX - 1L)
#define ULONG_MAX 18446744073709551615UL
#define LLONG_MAX 9223372036854775807LL
#define LLONG_MIN (-LLONG_MAX - 1LL)
#define ULLONG_MAX 18446744073709551615ULL
`;

const FLOAT = `#pragma once
#define FLT_RADIX 2
#define FLT_MANT_DIG 24
#define DBL_MANT_DIG 53
#define FLT_DIG 6
#define DBL_DIG 15
#define FLT_MIN_EXP (-125)
#define DBL_MIN_EXP (-1021)
#define FLT_MAX_EXP 128
#define DBL_MAX_EXP 1024
#define FLT_MAX 3.40282346638528859811704183484516925e+38F
#define FLT_MIN 1.17549435082228750796873653722224568e-38F
#define FLT_EPSILON 1.19209289550781250000000000000000000e-7F
#define DBL_MAX ((double)1.79769313486231570814527423731704357e+308L)
#define DBL_MIN ((double)2.22507385850720138309023271733240406e-308L)
#define DBL_EPSILON ((double)2.22044604925031308084726333618164062e-16L)
`;

const STDBOOL = `#pragma once
#define __bool_true_false_are_defined 1
`;

const TIME = `#pragma once
#define NULL 0L
#define CLOCKS_PER_SEC 1000000L
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
`;

const STDARG = `#pragma once
#define va_start(v, l) __builtin_va_start(v, l)
#define va_end(v) __builtin_va_end(v)
#define va_arg(v, l) __builtin_va_arg(v, l)
#define va_copy(d, s) __builtin_va_copy(d, s)
`;

// GPUVerify's kernels include cuda.h for its annotations too (the clang path's cuda.h includes
// them all). The one that stands where a declaration does is an empty declaration here, so the
// file parses; the expression forms are left to the clang path, which evaluates __assert.
const CUDA_VERSION = `#pragma once
#define CUDA_VERSION 12000
#define __axiom(e)
`;

const CUDA_RUNTIME = `#pragma once
#define CUDART_VERSION 12000
#define __CUDA_RUNTIME_H__
`;

const MATH_CONSTANTS = `#pragma once
#define CUDART_INF_F __int_as_float(0x7f800000U)
#define CUDART_NAN_F __int_as_float(0x7fffffffU)
#define CUDART_PI_F 3.141592654F
#define CUDART_PIO2_F 1.570796327F
#define CUDART_SQRT_2_F 1.414213562F
#define CUDART_INF __longlong_as_double(0x7ff0000000000000ULL)
#define CUDART_NAN __longlong_as_double(0xfff8000000000000ULL)
#define CUDART_PI 3.1415926535897931e+0
`;

// libcu++: its types, constants and functions are built into the semantic analyser
// (sims/frontend/libcu.ts), so the headers have nothing to declare.
const LIBCUDACXX = `#pragma once
`;

const EMPTY = '';

const TABLE: [string[], string][] = [
  [['stdio.h', 'cstdio'], STDIO],
  [['stdlib.h', 'cstdlib'], STDLIB],
  [['string.h', 'cstring', 'strings.h'], STRING],
  [['math.h', 'cmath'], MATH],
  [['assert.h', 'cassert'], ASSERT],
  [['stdint.h', 'cstdint', 'inttypes.h', 'cinttypes'], STDINT],
  [['stddef.h', 'cstddef'], STDDEF],
  [['limits.h', 'climits'], LIMITS],
  [['float.h', 'cfloat'], FLOAT],
  [['stdbool.h', 'cstdbool'], STDBOOL],
  [['time.h', 'ctime'], TIME],
  [['stdarg.h', 'cstdarg'], STDARG],
  [['ctype.h', 'cctype'], EMPTY],
  [['cuda.h'], CUDA_VERSION],
  [['cuda_runtime.h', 'cuda_runtime_api.h'], CUDA_RUNTIME],
  [['device_launch_parameters.h', 'device_functions.h', 'vector_types.h', 'builtin_types.h', 'cuda_profiler_api.h', 'driver_types.h', 'sm_20_atomic_functions.h', 'sm_60_atomic_functions.h'], EMPTY],
  [['math_constants.h'], MATH_CONSTANTS],
  [['cuda/atomic', 'cuda/std/atomic'], LIBCUDACXX],
  [
    [
      'iostream', 'algorithm', 'utility', 'unistd.h', 'sys/time.h', 'chrono', 'vector', 'string',
      'cstdarg', 'new', 'cerrno', 'errno.h',
    ],
    EMPTY,
  ],
];

/** Header name (as written between `<` and `>`) → source text. */
export const SYSTEM_HEADERS: ReadonlyMap<string, string> = (() => {
  const m = new Map<string, string>();
  for (const [names, text] of TABLE) for (const n of names) if (!m.has(n)) m.set(n, text);
  return m;
})();

export function systemHeaderText(name: string): string | undefined {
  return SYSTEM_HEADERS.get(name);
}
