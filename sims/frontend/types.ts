// Semantic types: their constructors, sizes and layouts, conversions and names. The `Type`
// union itself lives with the tree (./ast.ts), because a struct's type and its declaration
// refer to each other.
import type { IntName, StructDecl, Type } from './ast';

export type { IntName, ThreadScope, Type } from './ast';

export const VOID: Type = { kind: 'void' };
export const BOOL: Type = { kind: 'bool' };
export const FLOAT: Type = { kind: 'float', bits: 32 };
export const DOUBLE: Type = { kind: 'float', bits: 64 };
export const NULLPTR: Type = { kind: 'nullptr' };
export const ERROR: Type = { kind: 'error' };

const INT_INFO: Record<IntName, { bits: 8 | 16 | 32 | 64; signed: boolean }> = {
  char: { bits: 8, signed: true },
  'signed char': { bits: 8, signed: true },
  'unsigned char': { bits: 8, signed: false },
  short: { bits: 16, signed: true },
  'unsigned short': { bits: 16, signed: false },
  int: { bits: 32, signed: true },
  'unsigned int': { bits: 32, signed: false },
  long: { bits: 64, signed: true },
  'unsigned long': { bits: 64, signed: false },
  'long long': { bits: 64, signed: true },
  'unsigned long long': { bits: 64, signed: false },
};

// One shared object per integer type: types are compared by content, but sharing saves
// an allocation for every literal and declaration.
const INT_TYPES = Object.fromEntries(
  (Object.keys(INT_INFO) as IntName[]).map((name) => [name, { kind: 'int', name, ...INT_INFO[name] } as Type]),
) as Record<IntName, Type>;
export function intType(name: IntName): Type {
  return INT_TYPES[name];
}
export const INT = intType('int');
export const UINT = intType('unsigned int');
export const LONG = intType('long');
export const ULONG = intType('unsigned long');
export const LLONG = intType('long long');
export const ULLONG = intType('unsigned long long');
export const CHAR = intType('char');
export const UCHAR = intType('unsigned char');
export const SIZE_T = ULONG;

export function pointerTo(to: Type): Type {
  return { kind: 'pointer', to };
}

export function isIntName(s: string): s is IntName {
  return Object.prototype.hasOwnProperty.call(INT_INFO, s);
}

export function qualified(t: Type, q: { const?: boolean; volatile?: boolean; restrict?: boolean }): Type {
  if (!q.const && !q.volatile && !q.restrict) return t;
  const out: Type = { ...t };
  if (q.const) out.const = true;
  if (q.volatile) out.volatile = true;
  if (q.restrict && out.kind === 'pointer') out.restrict = true;
  return out;
}

export function unqualified(t: Type): Type {
  if (!t.const && !t.volatile && !(t.kind === 'pointer' && t.restrict)) return t;
  const out = { ...t } as Type & { restrict?: boolean };
  delete out.const;
  delete out.volatile;
  delete out.restrict;
  return out;
}

export function stripReference(t: Type): Type {
  return t.kind === 'reference' ? t.to : t;
}

export const isInteger = (t: Type): boolean => t.kind === 'int' || t.kind === 'bool' || t.kind === 'enum';
export const isFloating = (t: Type): boolean => t.kind === 'float';
export const isArithmetic = (t: Type): boolean => isInteger(t) || isFloating(t);
export const isPointerLike = (t: Type): boolean => t.kind === 'pointer' || t.kind === 'array' || t.kind === 'nullptr';
export const isScalar = (t: Type): boolean => isArithmetic(t) || isPointerLike(t);
/** Types inside a template whose meaning depends on its parameters: checks are deferred. */
export const isDependentOrError = (t: Type): boolean => t.kind === 'typeParam' || t.kind === 'error';

/**
 * Array-to-pointer and function-to-pointer decay, as for an rvalue use. An atomic object used
 * as a value is read through its conversion operator, so it decays to the value it holds.
 */
export function decay(t: Type): Type {
  t = stripReference(t);
  if (t.kind === 'array') return pointerTo(t.of);
  if (t.kind === 'function') return pointerTo(t);
  if (t.kind === 'atomic') return unqualified(t.value);
  return t;
}

export function integerPromotion(t: Type): Type {
  if (t.kind === 'bool' || t.kind === 'enum') return INT;
  if (t.kind === 'int' && t.bits < 32) return INT;
  return unqualified(t);
}

/** C's usual arithmetic conversions for a binary operator's operands. */
export function usualArithmetic(a: Type, b: Type): Type {
  if (a.kind === 'error' || b.kind === 'error') return ERROR;
  if (a.kind === 'typeParam') return a;
  if (b.kind === 'typeParam') return b;
  if (a.kind === 'float' || b.kind === 'float') {
    const bits = Math.max(a.kind === 'float' ? a.bits : 0, b.kind === 'float' ? b.bits : 0);
    return bits === 64 ? DOUBLE : FLOAT;
  }
  const pa = integerPromotion(a);
  const pb = integerPromotion(b);
  if (pa.kind !== 'int' || pb.kind !== 'int') return pa;
  if (pa.bits !== pb.bits) {
    const wide = pa.bits > pb.bits ? pa : pb;
    return wide;
  }
  if (!pa.signed) return pa;
  return pb;
}

export function sameType(a: Type, b: Type): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'int':
      return a.name === (b as typeof a).name;
    case 'float':
      return a.bits === (b as typeof a).bits;
    case 'pointer':
    case 'reference':
      return sameType(a.to, (b as typeof a).to) && !!a.to.const === !!(b as typeof a).to.const && !!a.to.volatile === !!(b as typeof a).to.volatile;
    case 'array':
      return sameType(a.of, (b as typeof a).of) && a.size === (b as typeof a).size;
    case 'struct':
    case 'enum':
      return a.decl === (b as typeof a).decl;
    case 'vector':
    case 'typeParam':
      return a.name === (b as typeof a).name;
    case 'atomic': {
      const g = b as typeof a;
      return a.ref === g.ref && a.scope === g.scope && sameType(a.value, g.value);
    }
    case 'function': {
      const g = b as typeof a;
      return a.variadic === g.variadic && a.params.length === g.params.length && sameType(a.returns, g.returns) && a.params.every((p, i) => sameType(p, g.params[i]));
    }
    default:
      return true;
  }
}

/** The C spelling of a type, for messages: `volatile unsigned int *`, `float4`, `int[8]`. */
export function typeToString(t: Type): string {
  const q = (t.const ? 'const ' : '') + (t.volatile ? 'volatile ' : '');
  switch (t.kind) {
    case 'void':
      return q + 'void';
    case 'bool':
      return q + 'bool';
    case 'int':
      return q + t.name;
    case 'float':
      return q + (t.bits === 32 ? 'float' : 'double');
    case 'nullptr':
      return 'std::nullptr_t';
    case 'pointer': {
      const inner = typeToString(t.to);
      const pq = (t.const ? ' const' : '') + (t.volatile ? ' volatile' : '') + (t.restrict ? ' __restrict__' : '');
      return `${inner} *${pq}`.replace('* *', '**');
    }
    case 'reference':
      return `${typeToString(t.to)} &`;
    case 'array':
      return `${typeToString(t.of)}[${t.size ?? ''}]`;
    case 'struct':
    case 'enum':
    case 'vector':
    case 'typeParam':
      return q + t.name;
    case 'function':
      return `${typeToString(t.returns)} (${t.params.map(typeToString).join(', ')}${t.variadic ? ', ...' : ''})`;
    case 'atomic':
      return `${q}cuda::${t.ref ? 'atomic_ref' : 'atomic'}<${typeToString(t.value)}, cuda::thread_scope_${t.scope}>`;
    case 'error':
      return '<error>';
  }
}

/** Size in bytes on a 64-bit Linux target (LP64), as nvcc lays data out; undefined if unknown. */
export function sizeOf(t: Type): number | undefined {
  switch (t.kind) {
    case 'bool':
      return 1;
    case 'int':
      return t.bits / 8;
    case 'float':
      return t.bits / 8;
    case 'pointer':
    case 'nullptr':
      return 8;
    case 'enum':
      return 4;
    case 'array': {
      const e = sizeOf(t.of);
      return e === undefined || t.size === undefined ? undefined : e * t.size;
    }
    case 'vector': {
      const e = sizeOf(t.elem)!;
      // CUDA vector types of 3 elements are not padded; 2- and 4-element ones are aligned to
      // their full size (int4: 16 bytes), which keeps sizeof = count * element size.
      return e * t.count;
    }
    case 'struct':
      return structLayout(t.decl)?.size;
    case 'atomic':
      // An atomic object is laid out as the value it holds; an atomic_ref holds a pointer.
      return t.ref ? 8 : sizeOf(t.value);
    default:
      return undefined;
  }
}

export function alignOf(t: Type): number {
  switch (t.kind) {
    case 'array':
      return alignOf(t.of);
    case 'vector': {
      const e = sizeOf(t.elem)!;
      if (t.count === 3 || t.count === 1) return e;
      return Math.min(16, e * t.count);
    }
    case 'struct':
      return structLayout(t.decl)?.align ?? 1;
    default:
      return sizeOf(t) ?? 1;
  }
}

export interface FieldLayout {
  name: string;
  type: Type;
  offset: number;
}

const layoutCache = new WeakMap<StructDecl, { size: number; align: number; fields: FieldLayout[] } | null>();

/** Field offsets of a struct or union whose fields' types have been resolved (semantic pass). */
export function structLayout(decl: StructDecl): { size: number; align: number; fields: FieldLayout[] } | undefined {
  const cached = layoutCache.get(decl);
  if (cached !== undefined) return cached ?? undefined;
  if (!decl.fields || decl.fields.some((f) => !f.resolvedType)) return undefined;
  layoutCache.set(decl, null); // guards against a struct that contains itself
  let offset = 0;
  let align = 1;
  let size = 0;
  const fields: FieldLayout[] = [];
  for (const f of decl.fields) {
    const ft = f.resolvedType!;
    const fs = sizeOf(ft);
    if (fs === undefined) {
      layoutCache.delete(decl);
      return undefined;
    }
    const fa = alignOf(ft);
    align = Math.max(align, fa);
    if (decl.tag === 'union') {
      fields.push({ name: f.name ?? '', type: ft, offset: 0 });
      size = Math.max(size, fs);
    } else {
      offset = Math.ceil(offset / fa) * fa;
      fields.push({ name: f.name ?? '', type: ft, offset });
      offset += fs;
      size = offset;
    }
  }
  size = Math.ceil(Math.max(size, 1) / align) * align;
  const result = { size, align, fields };
  layoutCache.set(decl, result);
  return result;
}
