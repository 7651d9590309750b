// LLVM scalar values in registers. Integers are sign-agnostic in LLVM; registers keep them in one
// canonical form, the signed one, wrapped to the type's width (i1 is 0 or 1, i64 beyond 2^53 is a
// box of sims/values/wide), and operations that read them unsigned take the unsigned view. Floats are
// rounded to their format (float with Math.fround, half and bfloat to their 16-bit formats).
import type { LType } from '../llvm/module';
import { box, isBoxed, plain, unbox } from '../../values/wide';

const TWO53 = 2 ** 53;

/** The low 32 bits of a register value, as a number ToInt32 reads exactly. */
export function low32(x: number): number {
  return isBoxed(x) ? Number(BigInt.asIntN(32, unbox(x))) : x;
}

/** A value as a BigInt (plain numbers are truncated; NaN and infinities give 0). */
export function big(x: number): bigint {
  return unbox(x);
}

/** Brings a number to the canonical (signed, wrapped) form of an integer of `bits` bits. */
export function intNormalizer(bits: number): (x: number) => number {
  switch (bits) {
    case 1:
      return (x) => low32(x) & 1;
    case 8:
      return (x) => (low32(x) << 24) >> 24;
    case 16:
      return (x) => (low32(x) << 16) >> 16;
    case 32:
      return (x) => low32(x) | 0;
    case 64:
      return signed64;
    default:
      return (x) => box(BigInt.asIntN(bits, unbox(Number.isFinite(x) ? Math.trunc(x) : 0)));
  }
}

/** A number as a signed 64-bit register value. */
export function signed64(x: number): number {
  if (Number.isSafeInteger(x)) return x;
  return box(BigInt.asIntN(64, unbox(Number.isFinite(x) ? Math.trunc(x) : 0)));
}

/** The unsigned view of a canonical integer of `bits` bits (a box for 64-bit values ≥ 2^53). */
export function unsignedView(bits: number): (x: number) => number {
  switch (bits) {
    case 1:
      return (x) => x;
    case 8:
      return (x) => x & 0xff;
    case 16:
      return (x) => x & 0xffff;
    case 32:
      return (x) => x >>> 0;
    default:
      return (x) => (x >= 0 && !isBoxed(x) ? x : box(BigInt.asUintN(bits, unbox(x))));
  }
}

/** The signed view of an i1 (true is -1): what sext and signed compares see. */
export function signedBool(x: number): number {
  return x ? -1 : 0;
}

/** A 64-bit sum or difference exactly (plain numbers while they stay below 2^53). */
export function add64(a: number, b: number): number {
  const s = a + b;
  return Math.abs(s) < TWO53 && !isBoxed(a) && !isBoxed(b) ? s : box(BigInt.asIntN(64, unbox(a) + unbox(b)));
}

export function sub64(a: number, b: number): number {
  const s = a - b;
  return Math.abs(s) < TWO53 && !isBoxed(a) && !isBoxed(b) ? s : box(BigInt.asIntN(64, unbox(a) - unbox(b)));
}

export function mul64(a: number, b: number): number {
  const p = a * b;
  return Math.abs(p) < TWO53 && !isBoxed(a) && !isBoxed(b) ? p : box(BigInt.asIntN(64, unbox(a) * unbox(b)));
}

// -------------------------------------------------------------------------------------------
// 16-bit floats

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The IEEE half-precision bit pattern nearest to `x` (round to nearest even). */
export function toHalfBits(x: number): number {
  if (Number.isNaN(x)) return 0x7e00;
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a === Infinity) return sign | 0x7c00;
  if (a >= 65520) return sign | 0x7c00; // rounds to infinity
  if (a < 2 ** -24 / 2) return sign; // rounds to zero
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  else if (2 ** (e + 1) <= a) e++;
  if (e < -14) {
    // Subnormal: units of 2^-24.
    const m = roundHalfEven(a / 2 ** -24);
    return sign | m; // m may reach 1024, which is the smallest normal: the encoding carries over
  }
  let m = roundHalfEven((a / 2 ** e - 1) * 1024);
  if (m === 1024) {
    m = 0;
    e++;
  }
  if (e > 15) return sign | 0x7c00;
  return sign | ((e + 15) << 10) | m;
}

export function fromHalfBits(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return sign * m * 2 ** -24;
  if (e === 31) return m ? NaN : sign * Infinity;
  return sign * (1 + m / 1024) * 2 ** (e - 15);
}

/** bfloat16: the upper half of a float's bits, rounded to nearest even. */
export function toBfloatBits(x: number): number {
  f32[0] = x;
  const bits = u32[0];
  if (Number.isNaN(x)) return 0x7fc0;
  const rounded = bits + 0x7fff + ((bits >>> 16) & 1);
  return (rounded >>> 16) & 0xffff;
}

export function fromBfloatBits(h: number): number {
  u32[0] = (h & 0xffff) << 16;
  return f32[0];
}

function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** Rounds a number to the format of float type `t`. */
export function floatRounder(t: Extract<LType, { kind: 'float' }>): (x: number) => number {
  switch (t.name) {
    case 'float':
      return (x) => Math.fround(plain(x));
    case 'half':
      return (x) => fromHalfBits(toHalfBits(plain(x)));
    case 'bfloat':
      return (x) => fromBfloatBits(toBfloatBits(plain(x)));
    default:
      return plain;
  }
}

/** The canonical form of a value of scalar type `t` (integers wrapped, floats rounded). */
export function normalizerOf(t: LType): (x: number) => number {
  if (t.kind === 'int') return intNormalizer(t.bits);
  if (t.kind === 'float') return floatRounder(t);
  return (x) => x;
}
