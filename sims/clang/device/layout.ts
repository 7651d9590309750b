// Data layout of 32-bit nvptx (`e-p:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64`): sizes,
// alignments and field offsets of LLVM types, and how a value of each type sits in registers.
//
// Registers: a first-class scalar (integer up to 64 bits, float, pointer) is one register. An
// aggregate or vector value is flattened into consecutive registers, one per scalar leaf in
// memory order (struct fields, then array and vector elements, recursively), so
// extractvalue/insertvalue pick a sub-range and a vector's element i is register base + i.
import type { LType } from '../llvm/module';
import type { ScalarKind } from '../../gpu/memory';
import * as T from '../../frontend/types';

export const POINTER_SIZE = 4;

/** Bytes an object of type `t` occupies in memory, padding included (LLVM's alloc size). */
export function sizeOf(t: LType): number {
  switch (t.kind) {
    case 'int':
      return t.bits <= 8 ? 1 : t.bits <= 16 ? 2 : t.bits <= 32 ? 4 : t.bits <= 64 ? 8 : Math.ceil(t.bits / 128) * 16;
    case 'float':
      return t.name === 'half' || t.name === 'bfloat' ? 2 : t.name === 'float' ? 4 : t.name === 'double' ? 8 : 16;
    case 'ptr':
      return POINTER_SIZE;
    case 'array':
      return t.length * sizeOf(t.of);
    case 'vector': {
      const bytes = t.length * sizeOf(t.of);
      return roundUp(bytes, alignOf(t));
    }
    case 'struct':
      return structLayout(t).size;
    default:
      return 0;
  }
}

export function alignOf(t: LType): number {
  switch (t.kind) {
    case 'int':
      return t.bits <= 8 ? 1 : t.bits <= 16 ? 2 : t.bits <= 32 ? 4 : t.bits <= 64 ? 8 : 16;
    case 'float':
      return sizeOf(t);
    case 'ptr':
      return POINTER_SIZE;
    case 'array':
      return alignOf(t.of);
    case 'vector': {
      // Vectors are aligned to their size rounded up to a power of two.
      const bytes = t.length * sizeOf(t.of);
      let a = 1;
      while (a < bytes) a *= 2;
      return a;
    }
    case 'struct':
      return structLayout(t).align;
    default:
      return 1;
  }
}

interface StructLayout {
  size: number;
  align: number;
  offsets: number[];
}

const structLayouts = new WeakMap<LType, StructLayout>();

export function structLayout(t: Extract<LType, { kind: 'struct' }>): StructLayout {
  let l = structLayouts.get(t);
  if (l) return l;
  let offset = 0;
  let align = 1;
  const offsets: number[] = [];
  for (const f of t.fields) {
    const a = t.packed ? 1 : alignOf(f);
    align = Math.max(align, a);
    offset = roundUp(offset, a);
    offsets.push(offset);
    offset += sizeOf(f);
  }
  l = { size: roundUp(offset, align), align, offsets };
  structLayouts.set(t, l);
  return l;
}

export function roundUp(n: number, a: number): number {
  return Math.ceil(n / a) * a;
}

/** A scalar leaf of a value: its type and byte offset within the value's memory image. */
export interface Leaf {
  type: LType;
  offset: number;
}

const leafCache = new WeakMap<LType, Leaf[]>();

/** The scalar leaves of `t` in register order (one for a scalar type). */
export function leavesOf(t: LType): Leaf[] {
  let leaves = leafCache.get(t);
  if (leaves) return leaves;
  leaves = [];
  const walk = (u: LType, base: number): void => {
    switch (u.kind) {
      case 'struct': {
        const { offsets } = structLayout(u);
        u.fields.forEach((f, i) => walk(f, base + offsets[i]));
        return;
      }
      case 'array':
      case 'vector': {
        const es = sizeOf(u.of);
        for (let i = 0; i < u.length; i++) walk(u.of, base + i * es);
        return;
      }
      default:
        leaves!.push({ type: u, offset: base });
    }
  };
  walk(t, 0);
  leafCache.set(t, leaves);
  return leaves;
}

/** How many registers a value of type `t` takes (void: 0). */
export function registerCount(t: LType): number {
  if (t.kind === 'void' || t.kind === 'label' || t.kind === 'metadata' || t.kind === 'token') return 0;
  if (isAggregate(t)) return leavesOf(t).length;
  return 1;
}

export function isAggregate(t: LType): boolean {
  return t.kind === 'struct' || t.kind === 'array' || t.kind === 'vector';
}

/** The first register (relative to the value's base) and count of member `indices` of `t`. */
export function memberRegisters(t: LType, indices: number[]): { first: number; count: number; type: LType } {
  let first = 0;
  let u = t;
  for (const i of indices) {
    if (u.kind === 'struct') {
      for (let k = 0; k < i; k++) first += registerCount(u.fields[k]);
      u = u.fields[i];
    } else if (u.kind === 'array' || u.kind === 'vector') {
      first += i * registerCount(u.of);
      u = u.of;
    } else throw new Error(`index into a scalar type`);
  }
  return { first, count: registerCount(u), type: u };
}

/**
 * How a scalar of type `t` is read and written in memory. Integers are kept signed in
 * registers (i1 as 0/1); half and bfloat are 16-bit patterns in memory (see toHalf/fromHalf);
 * pointers are 32-bit flat addresses in memory.
 */
export function scalarKindOf(t: LType): ScalarKind | undefined {
  switch (t.kind) {
    case 'int':
      return t.bits === 1 ? 'u8' : t.bits <= 8 ? 'i8' : t.bits <= 16 ? 'i16' : t.bits <= 32 ? 'i32' : t.bits <= 64 ? 'i64' : undefined;
    case 'float':
      return t.name === 'float' ? 'f32' : t.name === 'double' ? 'f64' : t.name === 'half' || t.name === 'bfloat' ? 'u16' : undefined;
    case 'ptr':
      return 'u32';
    default:
      return undefined;
  }
}

/** A frontend type for naming addresses in reports (`data[3]`), where one is cheap to give. */
export function namingType(t: LType): T.Type | undefined {
  switch (t.kind) {
    case 'int':
      return t.bits === 1 || t.bits === 8 ? T.CHAR : t.bits === 16 ? T.intType('short') : t.bits === 32 ? T.INT : t.bits === 64 ? T.LLONG : undefined;
    case 'float':
      return t.name === 'float' ? T.FLOAT : t.name === 'double' ? T.DOUBLE : t.name === 'half' || t.name === 'bfloat' ? T.intType('unsigned short') : undefined;
    case 'ptr':
      // Frontend pointers are 8 bytes; a 4-byte integer names the same slots.
      return T.UINT;
    case 'array': {
      const of = namingType(t.of);
      return of ? { kind: 'array', of, size: t.length } : undefined;
    }
    default:
      return undefined;
  }
}

export function typeName(t: LType): string {
  switch (t.kind) {
    case 'int':
      return `i${t.bits}`;
    case 'float':
      return t.name;
    case 'ptr':
      return t.addrspace ? `ptr addrspace(${t.addrspace})` : 'ptr';
    case 'array':
      return `[${t.length} x ${typeName(t.of)}]`;
    case 'vector':
      return `<${t.length} x ${typeName(t.of)}>`;
    case 'struct':
      return t.name ? `%${t.name}` : `{ ${t.fields.map(typeName).join(', ')} }`;
    case 'function':
      return `${typeName(t.ret)} (${t.params.map(typeName).join(', ')})`;
    default:
      return t.kind;
  }
}
