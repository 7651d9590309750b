// Type names every CUDA translation unit knows without declaring them: the fixed-width and
// size types of the C headers, CUDA's vector types and the runtime's handle and enum types.
import { PRELUDE_TYPE_NAMES } from './sema/prelude';
import { DOUBLE, FLOAT, INT, intType, LLONG, LONG, ULLONG, ULONG, UINT, type Type } from './types';

const ALIASES: Record<string, Type> = {
  size_t: ULONG,
  ssize_t: LONG,
  ptrdiff_t: LONG,
  intptr_t: LONG,
  uintptr_t: ULONG,
  intmax_t: LONG,
  uintmax_t: ULONG,
  int8_t: intType('signed char'),
  uint8_t: intType('unsigned char'),
  int16_t: intType('short'),
  uint16_t: intType('unsigned short'),
  int32_t: INT,
  uint32_t: UINT,
  int64_t: LONG,
  uint64_t: ULONG,
  clock_t: LONG,
  time_t: LONG,
};

// CUDA vector types: char1..4, uchar1..4, …, double1..4, and dim3 (a uint3 whose missing
// components default to 1).
const VECTOR_ELEMENTS: [string, Type][] = [
  ['char', intType('signed char')],
  ['uchar', intType('unsigned char')],
  ['short', intType('short')],
  ['ushort', intType('unsigned short')],
  ['int', INT],
  ['uint', UINT],
  ['long', LONG],
  ['ulong', ULONG],
  ['longlong', LLONG],
  ['ulonglong', ULLONG],
  ['float', FLOAT],
  ['double', DOUBLE],
];

const VECTORS = new Map<string, Type>();
for (const [prefix, elem] of VECTOR_ELEMENTS) {
  for (const count of [1, 2, 3, 4] as const) {
    const name = `${prefix}${count}`;
    VECTORS.set(name, { kind: 'vector', name, elem, count });
  }
}
VECTORS.set('dim3', { kind: 'vector', name: 'dim3', elem: UINT, count: 3 });

/** Every type name a file may use without declaring it (the prelude's typedefs included). */
export const BUILTIN_TYPE_NAMES: ReadonlySet<string> = new Set([...Object.keys(ALIASES), ...VECTORS.keys(), ...PRELUDE_TYPE_NAMES]);

export function builtinNamedType(name: string): Type | undefined {
  return (Object.prototype.hasOwnProperty.call(ALIASES, name) ? ALIASES[name] : undefined) ?? VECTORS.get(name);
}

export function vectorType(name: string): Type | undefined {
  return VECTORS.get(name);
}
