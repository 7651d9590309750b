// Arithmetic, comparisons and conversions of LLVM scalars over canonical register values (see
// ./numbers): each returns a closure over numbers, and the most frequent ones (32-bit integer
// and float arithmetic, compares) come as steps of their own, one function literal each, so the
// engine optimises each for its single operation.
import type { Range } from '../../frontend/source';
import type { FlatAddresses } from '../../gpu/flat';
import { pointerAllocation, pointerOffset } from '../../gpu/memory';
import type { Lanes, Step } from '../../ir/ir';
import * as Ops from '../../ir/pureOps';
import { box, isBoxed, plain, unbox } from '../../values/wide';
import type { LType } from '../llvm/module';
import { sizeOf, typeName } from './layout';
import { add64, floatRounder, fromBfloatBits, fromHalfBits, intNormalizer, mul64, signedBool, sub64, toBfloatBits, toHalfBits, unsignedView } from './numbers';

export type Binary = (a: number, b: number, w: Lanes) => number;

/** Reports undefined operations the run survives (division by zero, oversized shifts). */
function divisionByZero(w: Lanes, range: Range): number {
  w.ctx.runtime.undefinedOperation('division-by-zero', 'integer division by zero (the result is undefined; the run goes on with 0)', range);
  return 0;
}

function badShift(w: Lanes, amount: number, bits: number, range: Range): number {
  w.ctx.runtime.undefinedOperation('invalid-shift', `shift by ${amount}, outside 0..${bits - 1} for a ${bits}-bit value (undefined in C; the GPU clamps it)`, range);
  return amount < 0 ? 0 : bits;
}

/** An integer operation of `bits` bits on canonical values, giving a canonical value. */
export function intBinary(op: string, bits: number, range: Range): Binary {
  const norm = intNormalizer(bits);
  const u = unsignedView(bits);
  if (bits <= 32) {
    switch (op) {
      case 'add':
        return (a, b) => norm(a + b);
      case 'sub':
        return (a, b) => norm(a - b);
      case 'mul':
        return (a, b) => norm(Math.imul(a, b));
      case 'and':
        return (a, b) => a & b;
      case 'or':
        return (a, b) => a | b;
      case 'xor':
        return bits === 1 ? (a, b) => a ^ b : (a, b) => norm(a ^ b);
      case 'shl':
        return (a, b, w) => {
          const k = u(b) < bits ? u(b) : badShift(w, u(b), bits, range);
          return k >= bits ? 0 : norm(a << k);
        };
      case 'lshr':
        return (a, b, w) => {
          const k = u(b) < bits ? u(b) : badShift(w, u(b), bits, range);
          return k >= bits ? 0 : norm(u(a) >>> k);
        };
      case 'ashr':
        return (a, b, w) => {
          const k = u(b) < bits ? u(b) : badShift(w, u(b), bits, range);
          return bits === 1 ? a : norm(a >> Math.min(k, 31));
        };
      case 'udiv':
        return (a, b, w) => (u(b) === 0 ? divisionByZero(w, range) : norm(Math.floor(u(a) / u(b))));
      case 'sdiv':
        return (a, b, w) => (b === 0 ? divisionByZero(w, range) : norm(Math.trunc(a / b)));
      case 'urem':
        return (a, b, w) => (u(b) === 0 ? divisionByZero(w, range) : norm(u(a) % u(b)));
      case 'srem':
        return (a, b, w) => (b === 0 ? divisionByZero(w, range) : norm(a % b));
    }
  } else {
    const B = unbox;
    const wrap = (x: bigint): number => box(BigInt.asIntN(bits, x));
    const U = (x: number): bigint => BigInt.asUintN(bits, unbox(x));
    const shift = (b: number, w: Lanes): bigint => {
      const k = U(b);
      return k < BigInt(bits) ? k : BigInt(badShift(w, Number(k), bits, range));
    };
    switch (op) {
      case 'add':
        return bits === 64 ? add64 : (a, b) => wrap(B(a) + B(b));
      case 'sub':
        return bits === 64 ? sub64 : (a, b) => wrap(B(a) - B(b));
      case 'mul':
        return bits === 64 ? mul64 : (a, b) => wrap(B(a) * B(b));
      case 'and':
        return (a, b) => (isBoxed(a) || isBoxed(b) || a < 0 || b < 0 ? wrap(B(a) & B(b)) : Number(BigInt(a) & BigInt(b)));
      case 'or':
        return (a, b) => wrap(B(a) | B(b));
      case 'xor':
        return (a, b) => wrap(B(a) ^ B(b));
      case 'shl':
        return (a, b, w) => wrap(B(a) << shift(b, w));
      case 'lshr':
        return (a, b, w) => wrap(U(a) >> shift(b, w));
      case 'ashr':
        return (a, b, w) => wrap(B(a) >> shift(b, w));
      case 'udiv':
        return (a, b, w) => (U(b) === 0n ? divisionByZero(w, range) : wrap(U(a) / U(b)));
      case 'sdiv':
        return (a, b, w) => (B(b) === 0n ? divisionByZero(w, range) : wrap(B(a) / B(b)));
      case 'urem':
        return (a, b, w) => (U(b) === 0n ? divisionByZero(w, range) : wrap(U(a) % U(b)));
      case 'srem':
        return (a, b, w) => (B(b) === 0n ? divisionByZero(w, range) : wrap(B(a) % B(b)));
    }
  }
  throw new Error(`unknown integer operation ${op}`);
}

export function floatBinary(op: string, t: Extract<LType, { kind: 'float' }>): Binary {
  const r = floatRounder(t);
  switch (op) {
    case 'fadd':
      return (a, b) => r(a + b);
    case 'fsub':
      return (a, b) => r(a - b);
    case 'fmul':
      return (a, b) => r(a * b);
    case 'fdiv':
      return (a, b) => r(a / b);
    case 'frem':
      return (a, b) => r(a % b);
  }
  throw new Error(`unknown floating-point operation ${op}`);
}

/** A comparison of integers (or pointers) of `bits` bits: 1 or 0. */
export function icmp(pred: string, bits: number): Binary {
  const u = unsignedView(bits);
  const wide = bits > 32;
  const s = bits === 1 ? signedBool : (x: number) => x;
  const cmp = (f: (a: number, b: number) => boolean, g: (a: bigint, b: bigint) => boolean, view: (x: number) => number): Binary =>
    wide ? (a, b) => {
      const x = view(a);
      const y = view(b);
      return (isBoxed(x) || isBoxed(y) ? g(unbox(x), unbox(y)) : f(x, y)) ? 1 : 0;
    } : (a, b) => (f(view(a), view(b)) ? 1 : 0);
  switch (pred) {
    case 'eq':
      return (a, b) => (a === b ? 1 : 0);
    case 'ne':
      return (a, b) => (a !== b ? 1 : 0);
    case 'slt':
      return cmp((a, b) => a < b, (a, b) => a < b, s);
    case 'sle':
      return cmp((a, b) => a <= b, (a, b) => a <= b, s);
    case 'sgt':
      return cmp((a, b) => a > b, (a, b) => a > b, s);
    case 'sge':
      return cmp((a, b) => a >= b, (a, b) => a >= b, s);
    case 'ult':
      return cmp((a, b) => a < b, (a, b) => a < b, u);
    case 'ule':
      return cmp((a, b) => a <= b, (a, b) => a <= b, u);
    case 'ugt':
      return cmp((a, b) => a > b, (a, b) => a > b, u);
    case 'uge':
      return cmp((a, b) => a >= b, (a, b) => a >= b, u);
  }
  throw new Error(`unknown icmp predicate ${pred}`);
}

/** Pointers compare as numbers: within one allocation that is the order of their offsets. */
export function pointerCompare(pred: string): Binary {
  switch (pred) {
    case 'eq':
      return (a, b) => (a === b ? 1 : 0);
    case 'ne':
      return (a, b) => (a !== b ? 1 : 0);
    case 'ult':
    case 'slt':
      return (a, b) => (a < b ? 1 : 0);
    case 'ule':
    case 'sle':
      return (a, b) => (a <= b ? 1 : 0);
    case 'ugt':
    case 'sgt':
      return (a, b) => (a > b ? 1 : 0);
    default:
      return (a, b) => (a >= b ? 1 : 0);
  }
}

export function fcmp(pred: string): Binary {
  const uno = (a: number, b: number): boolean => Number.isNaN(a) || Number.isNaN(b);
  switch (pred) {
    case 'false':
      return () => 0;
    case 'true':
      return () => 1;
    case 'oeq':
      return (a, b) => (a === b ? 1 : 0);
    case 'ogt':
      return (a, b) => (a > b ? 1 : 0);
    case 'oge':
      return (a, b) => (a >= b ? 1 : 0);
    case 'olt':
      return (a, b) => (a < b ? 1 : 0);
    case 'ole':
      return (a, b) => (a <= b ? 1 : 0);
    case 'one':
      return (a, b) => (!uno(a, b) && a !== b ? 1 : 0);
    case 'ord':
      return (a, b) => (uno(a, b) ? 0 : 1);
    case 'ueq':
      return (a, b) => (uno(a, b) || a === b ? 1 : 0);
    case 'ugt':
      return (a, b) => (uno(a, b) || a > b ? 1 : 0);
    case 'uge':
      return (a, b) => (uno(a, b) || a >= b ? 1 : 0);
    case 'ult':
      return (a, b) => (uno(a, b) || a < b ? 1 : 0);
    case 'ule':
      return (a, b) => (uno(a, b) || a <= b ? 1 : 0);
    case 'une':
      return (a, b) => (a !== b ? 1 : 0);
    case 'uno':
      return (a, b) => (uno(a, b) ? 1 : 0);
  }
  throw new Error(`unknown fcmp predicate ${pred}`);
}

/**
 * A step for the hottest binary operations on scalars in registers `ao`/`bo` (offsets r*32)
 * into `ro`, or undefined for the general path.
 */
export function fastBinary(op: string, t: LType, pred: string | undefined, ro: number, ao: number, bo: number): Step | undefined {
  if (t.kind === 'int' && t.bits === 32) return op === 'icmp' ? Ops.binaryStep(Ops.COMPARE, ICMP[pred ?? ''] ?? '', ro, ao, bo) : Ops.binaryStep(Ops.INT32, op, ro, ao, bo);
  if (t.kind === 'float' && (t.name === 'float' || t.name === 'double') && op.startsWith('f')) return Ops.binaryStep(t.name === 'float' ? Ops.FLOAT : Ops.DOUBLE, op.slice(1), ro, ao, bo);
  return undefined;
}

/** icmp's predicates by the names of sims/ir/pureOps.ts. */
const ICMP: Readonly<Record<string, string | undefined>> = { eq: 'eq', ne: 'ne', slt: 'lt', sle: 'le', sgt: 'gt', sge: 'ge', ult: 'ult', ule: 'ule', ugt: 'ugt', uge: 'uge' };

const scratch = new DataView(new ArrayBuffer(16));

/** The bits of scalar `x` of type `t` written into the scratch buffer at `at`. */
function writeBits(t: LType, x: number, at: number, flat: FlatAddresses): void {
  switch (t.kind) {
    case 'int':
      if (t.bits <= 8) scratch.setUint8(at, x & 0xff);
      else if (t.bits <= 16) scratch.setUint16(at, x & 0xffff, true);
      else if (t.bits <= 32) scratch.setUint32(at, x >>> 0, true);
      else scratch.setBigUint64(at, BigInt.asUintN(64, unbox(x)), true);
      return;
    case 'float':
      if (t.name === 'float') scratch.setFloat32(at, x, true);
      else if (t.name === 'double') scratch.setFloat64(at, plain(x), true);
      else scratch.setUint16(at, t.name === 'half' ? toHalfBits(x) : toBfloatBits(x), true);
      return;
    case 'ptr':
      scratch.setUint32(at, pointerFlat(x, flat), true);
      return;
  }
}

function readBits(t: LType, at: number, flat: FlatAddresses): number {
  switch (t.kind) {
    case 'int':
      if (t.bits === 1) return scratch.getUint8(at) & 1;
      if (t.bits <= 8) return scratch.getInt8(at);
      if (t.bits <= 16) return scratch.getInt16(at, true);
      if (t.bits <= 32) return scratch.getInt32(at, true);
      return box(scratch.getBigInt64(at, true));
    case 'float':
      if (t.name === 'float') return scratch.getFloat32(at, true);
      if (t.name === 'double') return scratch.getFloat64(at, true);
      return t.name === 'half' ? fromHalfBits(scratch.getUint16(at, true)) : fromBfloatBits(scratch.getUint16(at, true));
    case 'ptr':
      return flat.pointerOf(scratch.getUint32(at, true));
  }
  return 0;
}

/**
 * The integer a pointer stands for (ptrtoint): its flat address. Pointers into no allocation
 * (arithmetic on null) keep their offset, so `(char *)0 + 16` is 16.
 */
export function pointerFlat(p: number, flat: FlatAddresses): number {
  if (pointerAllocation(p) === 0) return p === 0 ? 0 : (pointerOffset(p) + 2 ** 31) >>> 0;
  return flat.flatOf(p);
}

/** bitcast between same-sized vectors and scalars: `from` leaves in, `to` leaves out. */
export function reinterpret(from: LType[], to: LType[], flat: FlatAddresses): (xs: number[]) => number[] {
  const fromOffsets: number[] = [];
  let at = 0;
  for (const t of from) {
    fromOffsets.push(at);
    at += sizeOf(t);
  }
  const toOffsets: number[] = [];
  at = 0;
  for (const t of to) {
    toOffsets.push(at);
    at += sizeOf(t);
  }
  return (xs) => {
    from.forEach((t, i) => writeBits(t, xs[i], fromOffsets[i], flat));
    return to.map((t, i) => readBits(t, toOffsets[i], flat));
  };
}

/** A conversion of a scalar: trunc, zext, sext, fp conversions, ptrtoint, inttoptr, bitcast. */
export function conversion(opcode: string, from: LType, to: LType, flat: FlatAddresses): (x: number) => number {
  const toBits = to.kind === 'int' ? to.bits : 32;
  const fromBits = from.kind === 'int' ? from.bits : 32;
  switch (opcode) {
    case 'trunc':
      return intNormalizer(toBits);
    case 'zext': {
      const u = unsignedView(fromBits);
      const n = intNormalizer(toBits);
      return (x) => n(u(x));
    }
    case 'sext': {
      if (fromBits === 1) return signedBool;
      return (x) => x;
    }
    case 'fptrunc':
    case 'fpext':
      return to.kind === 'float' ? floatRounder(to) : (x) => x;
    case 'fptosi':
    case 'fptoui': {
      const n = intNormalizer(toBits);
      const unsigned = opcode === 'fptoui';
      const max = unsigned ? 2 ** toBits - 1 : 2 ** (toBits - 1) - 1;
      const min = unsigned ? 0 : -(2 ** (toBits - 1));
      // Out-of-range values saturate, as PTX's cvt.rzi does.
      return (x) => {
        const v = plain(x);
        if (Number.isNaN(v)) return 0;
        const t = Math.trunc(v);
        if (toBits > 53) return t >= max ? n(box(unsigned ? (1n << BigInt(toBits)) - 1n : (1n << BigInt(toBits - 1)) - 1n)) : t <= min ? n(box(unsigned ? 0n : -(1n << BigInt(toBits - 1)))) : n(t);
        return n(t > max ? max : t < min ? min : t);
      };
    }
    case 'sitofp':
    case 'uitofp': {
      const r = to.kind === 'float' ? floatRounder(to) : (x: number) => x;
      const view = opcode === 'uitofp' ? unsignedView(fromBits) : fromBits === 1 ? signedBool : (x: number) => x;
      return (x) => r(plain(view(x)));
    }
    case 'ptrtoint': {
      const n = intNormalizer(toBits);
      return (x) => n(pointerFlat(x, flat));
    }
    case 'inttoptr': {
      const u = unsignedView(Math.min(fromBits, 32));
      return (x) => flat.pointerOf(u(toBits > 0 && fromBits > 32 ? Number(BigInt.asUintN(32, unbox(x))) : x));
    }
    case 'addrspacecast':
    case 'freeze':
      return (x) => x;
    case 'bitcast': {
      if (from.kind === to.kind && (from.kind !== 'float' || (to.kind === 'float' && from.name === to.name)) && (from.kind !== 'int' || fromBits === toBits)) return (x) => x;
      const r = reinterpret([from], [to], flat);
      const one = [0];
      return (x) => {
        one[0] = x;
        return r(one)[0];
      };
    }
  }
  throw new Error(`unknown conversion ${opcode} from ${typeName(from)}`);
}

