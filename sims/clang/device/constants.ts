// Constants of the IR as register values: numbers, undef/zero, aggregates (one value per leaf),
// strings, and constant expressions over the addresses of globals (`getelementptr (… @x …)`,
// `addrspacecast`, `ptrtoint`). The address of a __shared__ variable depends on the block that
// runs, so a constant may be relative to the block's shared memory and is resolved per block.
import type { LInstruction, LType, LValue } from '../llvm/module';
import { box, unbox } from '../../values/wide';
import { isAggregate, registerCount, sizeOf, structLayout, typeName } from './layout';
import { floatRounder } from './numbers';

/** Where a constant's value is relative to: nothing, the block's shared memory, its dynamic part. */
export const ABSOLUTE = 0;
export const SHARED = 1;
export const DYNAMIC_SHARED = 2;

export interface ConstScalar {
  base: typeof ABSOLUTE | typeof SHARED | typeof DYNAMIC_SHARED;
  value: number;
}

/** A construct a constant cannot be made of (reported at the instruction that uses it). */
export class ConstantError extends Error {}

export interface ConstEnv {
  /** The address of global `name`, or of function `name` when it is one. */
  address(name: string): ConstScalar;
  /** The 32-bit flat address of a provenance pointer (ptrtoint of a global). */
  flatOf(pointer: number): number;
  /** The provenance pointer of a 32-bit flat address (inttoptr of a constant), as at run time. */
  pointerOf(flat: number): number;
}

/** The canonical register value of integer `v` of `bits` bits (signed; i64 boxed beyond 2^53). */
export function intConstant(v: bigint, bits: number): number {
  if (bits === 1) return Number(v & 1n);
  return bits <= 32 ? Number(BigInt.asIntN(bits, v)) : box(BigInt.asIntN(bits, v));
}

const ZERO: ConstScalar = { base: ABSOLUTE, value: 0 };

/** The leaves of a constant, in register order. */
export function constLeaves(v: LValue, env: ConstEnv): ConstScalar[] {
  switch (v.kind) {
    case 'int':
      if (v.type.kind === 'vector') return Array.from({ length: v.type.length }, () => ({ base: ABSOLUTE, value: intConstant(v.value, intBits(v.type)) }));
      return [{ base: ABSOLUTE, value: intConstant(v.value, intBits(v.type)) }];
    case 'float':
      return [{ base: ABSOLUTE, value: v.type.kind === 'float' ? floatRounder(v.type)(v.value) : v.value }];
    case 'null':
    case 'undef':
    case 'poison':
    case 'zero':
      return Array.from({ length: Math.max(1, registerCount(v.type)) }, () => ZERO);
    case 'aggregate': {
      const out: ConstScalar[] = [];
      for (const e of v.elements) for (const leaf of constLeaves(e, env)) out.push(leaf);
      return out;
    }
    case 'bytes': {
      const out: ConstScalar[] = [];
      for (const b of v.bytes) out.push({ base: ABSOLUTE, value: (b << 24) >> 24 });
      // An i8 array longer than its text is padded with zeros.
      const n = registerCount(v.type);
      while (out.length < n) out.push(ZERO);
      return out;
    }
    case 'global':
      return [env.address(v.name)];
    case 'expr':
      return constExpr(v.inst, env);
    default:
      throw new ConstantError(`not supported: a constant of kind '${v.kind}'`);
  }
}

export function constScalar(v: LValue, env: ConstEnv): ConstScalar {
  const leaves = constLeaves(v, env);
  if (leaves.length !== 1) throw new ConstantError(`not supported: an aggregate constant where a scalar is needed`);
  return leaves[0];
}

function intBits(t: LType): number {
  const s = t.kind === 'vector' ? t.of : t;
  return s.kind === 'int' ? s.bits : 32;
}

function constExpr(inst: LInstruction, env: ConstEnv): ConstScalar[] {
  const ops = inst.operands;
  switch (inst.opcode) {
    case 'getelementptr': {
      const base = constScalar(ops[0], env);
      const { constant, terms } = gepOffsets(inst.elementType ?? inst.type, ops.slice(1));
      if (terms.length) throw new ConstantError('not supported: a constant getelementptr with a variable index');
      return [{ base: base.base, value: base.value + constant }];
    }
    case 'addrspacecast':
    case 'bitcast':
      if (inst.type.kind === 'ptr' || sameScalarShape(ops[0].type, inst.type)) return constLeaves(ops[0], env);
      throw new ConstantError(`not supported: a constant bitcast to ${typeName(inst.type)}`);
    case 'ptrtoint': {
      const p = constScalar(ops[0], env);
      if (p.base !== ABSOLUTE) throw new ConstantError('not supported: the integer value of a __shared__ address in a constant');
      const flat = env.flatOf(p.value);
      return [{ base: ABSOLUTE, value: intConstant(BigInt(flat), intBits(inst.type)) }];
    }
    case 'inttoptr': {
      // `(T *)5`: the pointer that flat address names, as an inttoptr at run time makes it;
      // one that names no allocation faults where it is used, as on a GPU.
      const i = constScalar(ops[0], env);
      if (i.base !== ABSOLUTE) throw new ConstantError('not supported: a constant pointer made from the integer value of a __shared__ address');
      if (i.value === 0) return [ZERO];
      return [{ base: ABSOLUTE, value: env.pointerOf(Number(BigInt.asUintN(32, unbox(i.value)))) }];
    }
    case 'trunc':
    case 'zext':
    case 'sext': {
      const i = constScalar(ops[0], env);
      if (i.base !== ABSOLUTE) throw new ConstantError(`not supported: constant '${inst.opcode}' of an address`);
      const from = intBits(ops[0].type);
      const unsigned = inst.opcode === 'zext' ? BigInt.asUintN(from, unbox(i.value)) : unbox(i.value);
      return [{ base: ABSOLUTE, value: intConstant(unsigned, intBits(inst.type)) }];
    }
    case 'add':
    case 'sub': {
      const a = constScalar(ops[0], env);
      const b = constScalar(ops[1], env);
      if (b.base !== ABSOLUTE || (a.base !== ABSOLUTE && inst.opcode === 'sub')) throw new ConstantError(`not supported: constant '${inst.opcode}' of addresses`);
      const bits = intBits(inst.type);
      const r = inst.opcode === 'add' ? unbox(a.value) + unbox(b.value) : unbox(a.value) - unbox(b.value);
      return [{ base: a.base, value: intConstant(r, bits) }];
    }
    default:
      throw new ConstantError(`not supported: constant expression '${inst.opcode}'`);
  }
}

function sameScalarShape(a: LType, b: LType): boolean {
  return !isAggregate(a) && !isAggregate(b) && sizeOf(a) === sizeOf(b) && a.kind === b.kind;
}

/** A getelementptr's byte offset: constant indices folded, variable ones as index × scale terms. */
export interface GepOffsets {
  constant: number;
  terms: { index: LValue; scale: number }[];
}

/** The offsets of getelementptr over `source` with `indices` (the first one steps over whole `source`s). */
export function gepOffsets(source: LType, indices: LValue[]): GepOffsets {
  let constant = 0;
  const terms: GepOffsets['terms'] = [];
  let t = source;
  indices.forEach((index, i) => {
    let scale: number;
    if (i === 0) scale = sizeOf(t);
    else if (t.kind === 'struct') {
      if (index.kind !== 'int') throw new ConstantError('not supported: a struct field chosen by a variable');
      const field = Number(index.value);
      constant += structLayout(t).offsets[field];
      t = t.fields[field];
      return;
    } else if (t.kind === 'array' || t.kind === 'vector') {
      t = t.of;
      scale = sizeOf(t);
    } else throw new ConstantError(`not supported: getelementptr into ${typeName(t)}`);
    if (index.kind === 'int') constant += Number(BigInt.asIntN(64, index.value)) * scale;
    else if (index.kind === 'zero' || index.kind === 'null' || index.kind === 'undef' || index.kind === 'poison') return;
    else if (index.type.kind === 'vector') throw new ConstantError('not supported: getelementptr over a vector of indices');
    else terms.push({ index, scale });
  });
  return { constant, terms };
}

