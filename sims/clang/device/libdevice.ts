// libdevice (`__nv_*`, what CUDA's math functions call) and LLVM's math intrinsics, as JS
// functions over register values. Callers round the result to the function's LLVM return type
// (float with Math.fround, integers wrapped), so a float function computed in double precision
// gives the correctly rounded float; integer arguments arrive in canonical (signed) form and the
// unsigned functions take their unsigned view here.
import { MATH, popcount, reverseBits, roundEven } from '../../ir/math';
import { box, plain, unbox } from '../../values/wide';
import { fromHalfBits, toHalfBits } from './numbers';

type Pure = (...xs: number[]) => number;

const u32 = (x: number): number => x >>> 0;
const u64 = (x: number): bigint => BigInt.asUintN(64, unbox(x));
const s64 = (x: number): bigint => BigInt.asIntN(64, unbox(x));
const f32buf = new Float32Array(1);
const i32buf = new Int32Array(f32buf.buffer);
const f64buf = new Float64Array(1);
const i64buf = new BigInt64Array(f64buf.buffer);

/** Rounding of a conversion: to nearest even, toward zero, up, down. */
const ROUND: Record<string, (x: number) => number> = { rn: roundEven, rz: Math.trunc, ru: Math.ceil, rd: Math.floor };

function saturate(lo: number, hi: number): (x: number) => number {
  return (x) => (Number.isNaN(x) ? 0 : x < lo ? lo : x > hi ? hi : x);
}

function to64(x: number, signed: boolean): number {
  if (Number.isNaN(x)) return 0;
  const lo = signed ? -(2 ** 63) : 0;
  const hi = signed ? 2 ** 63 - 1 : 2 ** 64 - 1;
  const v = x < lo ? lo : x > hi ? hi : Math.trunc(x);
  return Number.isSafeInteger(v) ? v : box(signed ? BigInt.asIntN(64, BigInt(v)) : BigInt.asIntN(64, BigInt.asUintN(64, BigInt(v))));
}

function clz64(x: number): number {
  const v = u64(x);
  if (v === 0n) return 64;
  return 64 - v.toString(2).length;
}

function ffs64(x: number): number {
  const v = u64(x);
  if (v === 0n) return 0;
  let n = 1;
  let b = v;
  while (!(b & 1n)) {
    b >>= 1n;
    n++;
  }
  return n;
}

function brev64(x: number): number {
  const s = u64(x).toString(2).padStart(64, '0');
  return box(BigInt.asIntN(64, BigInt('0b' + [...s].reverse().join(''))));
}

function sad(a: number, b: number, c: number): number {
  return Math.abs(a - b) + c;
}

/** Per-byte/half SIMD video instructions are rare enough to be refused rather than guessed. */
const SPECIAL: Record<string, Pure> = {
  abs: (x) => Math.abs(x | 0),
  llabs: (x) => (unbox(x) < 0n ? box(-unbox(x)) : x),
  min: (a, b) => Math.min(a, b),
  max: (a, b) => Math.max(a, b),
  umin: (a, b) => Math.min(u32(a), u32(b)),
  umax: (a, b) => Math.max(u32(a), u32(b)),
  llmin: (a, b) => (s64(a) < s64(b) ? a : b),
  llmax: (a, b) => (s64(a) > s64(b) ? a : b),
  ullmin: (a, b) => (u64(a) < u64(b) ? a : b),
  ullmax: (a, b) => (u64(a) > u64(b) ? a : b),
  mulhi: (a, b) => Number((BigInt(a | 0) * BigInt(b | 0)) >> 32n),
  umulhi: (a, b) => Number((BigInt(u32(a)) * BigInt(u32(b))) >> 32n),
  mul64hi: (a, b) => box(BigInt.asIntN(64, (s64(a) * s64(b)) >> 64n)),
  umul64hi: (a, b) => box(BigInt.asIntN(64, (u64(a) * u64(b)) >> 64n)),
  mul24: (a, b) => Math.imul((a << 8) >> 8, (b << 8) >> 8),
  umul24: (a, b) => Math.imul(a & 0xffffff, b & 0xffffff),
  hadd: (a, b) => Math.floor(((a | 0) + (b | 0)) / 2),
  rhadd: (a, b) => Math.floor(((a | 0) + (b | 0) + 1) / 2),
  uhadd: (a, b) => Math.floor((u32(a) + u32(b)) / 2),
  urhadd: (a, b) => Math.floor((u32(a) + u32(b) + 1) / 2),
  sad: (a, b, c) => sad(a | 0, b | 0, u32(c)),
  usad: (a, b, c) => sad(u32(a), u32(b), u32(c)),
  popc: (x) => popcount(u32(x)),
  popcll: (x) => popcount64(x),
  clz: (x) => Math.clz32(x),
  clzll: clz64,
  ffs: (x) => (x === 0 ? 0 : 32 - Math.clz32(x & -x)),
  ffsll: ffs64,
  brev: (x) => reverseBits(u32(x)),
  brevll: brev64,
  byte_perm: MATH.__byte_perm!,
  saturatef: (x) => Math.min(1, Math.max(0, Number.isNaN(x) ? 0 : x)),
  isnanf: (x) => +Number.isNaN(x),
  isnand: (x) => +Number.isNaN(x),
  isinff: (x) => +(Math.abs(x) === Infinity),
  isinfd: (x) => +(Math.abs(x) === Infinity),
  finitef: (x) => +Number.isFinite(x),
  isfinited: (x) => +Number.isFinite(x),
  signbitf: (x) => +(x < 0 || Object.is(x, -0)),
  signbitd: (x) => +(x < 0 || Object.is(x, -0)),
  float_as_int: (x) => {
    f32buf[0] = x;
    return i32buf[0];
  },
  float_as_uint: (x) => {
    f32buf[0] = x;
    return i32buf[0];
  },
  int_as_float: (x) => {
    i32buf[0] = x;
    return f32buf[0];
  },
  uint_as_float: (x) => {
    i32buf[0] = x;
    return f32buf[0];
  },
  double_as_longlong: (x) => {
    f64buf[0] = x;
    return box(i64buf[0]);
  },
  longlong_as_double: (x) => {
    i64buf[0] = s64(x);
    return f64buf[0];
  },
  double2hiint: (x) => {
    f64buf[0] = x;
    return Number(i64buf[0] >> 32n);
  },
  double2loint: (x) => {
    f64buf[0] = x;
    return Number(BigInt.asIntN(32, i64buf[0]));
  },
  hiloint2double: (hi, lo) => {
    i64buf[0] = (BigInt(hi | 0) << 32n) | BigInt(u32(lo));
    return f64buf[0];
  },
  fdividef: (a, b) => a / b,
  fast_fdividef: (a, b) => a / b,
  frcp_rn: (x) => 1 / x,
  drcp_rn: (x) => 1 / x,
  frsqrt_rn: (x) => 1 / Math.sqrt(x),
  rsqrtf: (x) => 1 / Math.sqrt(x),
  rsqrt: (x) => 1 / Math.sqrt(x),
  rcbrtf: (x) => 1 / Math.cbrt(x),
  rcbrt: (x) => 1 / Math.cbrt(x),
  powif: (x, n) => x ** (n | 0),
  powi: (x, n) => x ** (n | 0),
  ldexpf: (x, n) => x * 2 ** (n | 0),
  ldexp: (x, n) => x * 2 ** (n | 0),
  scalbnf: (x, n) => x * 2 ** (n | 0),
  scalbn: (x, n) => x * 2 ** (n | 0),
  ilogbf: (x) => (x === 0 ? -2147483648 : Math.floor(Math.log2(Math.abs(x)))),
  ilogb: (x) => (x === 0 ? -2147483648 : Math.floor(Math.log2(Math.abs(x)))),
  logbf: (x) => Math.floor(Math.log2(Math.abs(x))),
  logb: (x) => Math.floor(Math.log2(Math.abs(x))),
  remainderf: (a, b) => a - b * roundEven(a / b),
  remainder: (a, b) => a - b * roundEven(a / b),
  norm3df: (a, b, c) => Math.hypot(a, b, c),
  norm3d: (a, b, c) => Math.hypot(a, b, c),
  norm4df: (a, b, c, d) => Math.hypot(a, b, c, d),
  norm4d: (a, b, c, d) => Math.hypot(a, b, c, d),
  rhypotf: (a, b) => 1 / Math.hypot(a, b),
  rhypot: (a, b) => 1 / Math.hypot(a, b),
  rnorm3df: (a, b, c) => 1 / Math.hypot(a, b, c),
  rnorm3d: (a, b, c) => 1 / Math.hypot(a, b, c),
  nanf: () => NaN,
  nan: () => NaN,
  normcdff: (x) => 0.5 * (1 + (MATH.erf as Pure)(x / Math.SQRT2)),
  normcdf: (x) => 0.5 * (1 + (MATH.erf as Pure)(x / Math.SQRT2)),
  nextafterf: (a, b) => nextAfter32(a, b),
  nextafter: (a, b) => nextAfter64(a, b),
  lgammaf: lgamma,
  lgamma,
  tgammaf: tgamma,
  tgamma,
  erfinvf: erfinv,
  erfinv,
  erfcinvf: (x) => erfinv(1 - x),
  erfcinv: (x) => erfinv(1 - x),
  erfcxf: (x) => Math.exp(x * x) * (1 - (MATH.erf as Pure)(x)),
  erfcx: (x) => Math.exp(x * x) * (1 - (MATH.erf as Pure)(x)),
  normcdfinvf: (p) => Math.SQRT2 * erfinv(2 * p - 1),
  normcdfinv: (p) => Math.SQRT2 * erfinv(2 * p - 1),
  float2half_rn: (x) => toHalfBits(x),
  half2float: (x) => fromHalfBits(x & 0xffff),
};

/** log|Γ(x)| by the Lanczos approximation (g = 7, 9 terms), with the reflection formula below 0.5. */
function lgamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lgamma(1 - x);
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  const z = x - 1;
  let a = c[0];
  const t = z + 7.5;
  for (let k = 1; k < 9; k++) a += c[k] / (z + k);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

function tgamma(x: number): number {
  if (x === Math.floor(x) && x <= 0) return NaN;
  if (x < 0.5) return Math.PI / (Math.sin(Math.PI * x) * tgamma(1 - x));
  return Math.exp(lgamma(x));
}

/** The inverse of erf on (-1, 1), by Newton's method from a rational first guess. */
function erfinv(y: number): number {
  if (y <= -1) return y === -1 ? -Infinity : NaN;
  if (y >= 1) return y === 1 ? Infinity : NaN;
  const erf = MATH.erf as Pure;
  const w = -Math.log((1 - y) * (1 + y));
  let x = Math.sign(y) * Math.sqrt(Math.max(0, Math.sqrt((2 / (Math.PI * 0.147) + w / 2) ** 2 - w / 0.147) - (2 / (Math.PI * 0.147) + w / 2)));
  for (let k = 0; k < 4; k++) x -= (erf(x) - y) / ((2 / Math.sqrt(Math.PI)) * Math.exp(-x * x));
  return x;
}

function popcount64(x: number): number {
  let v = u64(x);
  let n = 0;
  while (v) {
    n += Number(v & 1n);
    v >>= 1n;
  }
  return n;
}

function nextAfter32(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return NaN;
  if (a === b) return b;
  if (a === 0) return b > 0 ? 2 ** -149 : -(2 ** -149);
  f32buf[0] = a;
  i32buf[0] += (b > a) === (a > 0) ? 1 : -1;
  return f32buf[0];
}

function nextAfter64(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return NaN;
  if (a === b) return b;
  if (a === 0) return b > 0 ? Number.MIN_VALUE : -Number.MIN_VALUE;
  f64buf[0] = a;
  i64buf[0] += (b > a) === (a > 0) ? 1n : -1n;
  return f64buf[0];
}

/** Conversions `float2int_rn`, `double2ull_rz`, `ll2float_rd`, `fadd_ru`, `fmaf_rn` and the like. */
function conversion(name: string): Pure | undefined {
  const m = /^(float|double|int|uint|ll|ull)2(int|uint|ll|ull|float|double)_(rn|rz|ru|rd)$/.exec(name);
  if (m) {
    const round = ROUND[m[3]];
    const from = m[1];
    const view = from === 'uint' ? u32 : from === 'll' ? (x: number) => Number(s64(x)) : from === 'ull' ? (x: number) => Number(u64(x)) : plain;
    switch (m[2]) {
      case 'int':
        return (x) => saturate(-(2 ** 31), 2 ** 31 - 1)(round(view(x)));
      case 'uint':
        return (x) => saturate(0, 2 ** 32 - 1)(round(view(x)));
      case 'll':
        return (x) => to64(round(view(x)), true);
      case 'ull':
        return (x) => to64(round(view(x)), false);
      default:
        // To floating point: the caller rounds to the result type (directed modes approximated).
        return (x) => view(x);
    }
  }
  const a = /^([fd])(add|sub|mul|div|sqrt|rcp)_(rn|rz|ru|rd)$/.exec(name);
  if (a) {
    switch (a[2]) {
      case 'add':
        return (x, y) => x + y;
      case 'sub':
        return (x, y) => x - y;
      case 'mul':
        return (x, y) => x * y;
      case 'div':
        return (x, y) => x / y;
      case 'sqrt':
        return Math.sqrt;
      default:
        return (x) => 1 / x;
    }
  }
  if (/^fmaf?(_ieee)?_(rn|rz|ru|rd)$/.test(name) || name === 'fmaf' || name === 'fma') return (x, y, z) => x * y + z;
  return undefined;
}

/**
 * The function behind libdevice's `__nv_<name>` (name without the prefix), or undefined when the
 * simulator does not implement it.
 */
export function libdeviceFunction(name: string): Pure | undefined {
  const special = SPECIAL[name] ?? conversion(name);
  if (special) return special;
  if (name.startsWith('fast_')) return libdeviceFunction(name.slice(5));
  const math = MATH[name];
  if (math) return math;
  return undefined;
}

/** LLVM math intrinsics by base name (`llvm.sqrt.f32` → `sqrt`), over numbers. */
export const LLVM_MATH: Record<string, Pure> = {
  sqrt: Math.sqrt, fabs: Math.abs, sin: Math.sin, cos: Math.cos, tan: Math.tan, exp: Math.exp, exp2: (x) => 2 ** x, exp10: (x) => 10 ** x,
  log: Math.log, log2: Math.log2, log10: Math.log10, pow: Math.pow, powi: (x, n) => x ** (n | 0), ldexp: (x, n) => x * 2 ** (n | 0),
  floor: Math.floor, ceil: Math.ceil, trunc: Math.trunc, rint: roundEven, nearbyint: roundEven, roundeven: roundEven,
  round: (x) => Math.sign(x) * Math.round(Math.abs(x)),
  lround: (x) => Math.sign(x) * Math.round(Math.abs(x)), llround: (x) => Math.sign(x) * Math.round(Math.abs(x)), lrint: roundEven, llrint: roundEven,
  fma: (a, b, c) => a * b + c, fmuladd: (a, b, c) => a * b + c,
  minnum: (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b)),
  maxnum: (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b)),
  minimum: Math.min, maximum: Math.max,
  copysign: (a, b) => Math.abs(a) * (b < 0 || Object.is(b, -0) ? -1 : 1),
  'nvvm.fabs': Math.abs, 'nvvm.sqrt.f': Math.sqrt, 'nvvm.sqrt.rn.f': Math.sqrt, 'nvvm.sqrt.rn.d': Math.sqrt, 'nvvm.sqrt.approx.f': Math.sqrt,
  'nvvm.rsqrt.approx.f': (x) => 1 / Math.sqrt(x), 'nvvm.rsqrt.approx.d': (x) => 1 / Math.sqrt(x),
  'nvvm.rcp.rn.f': (x) => 1 / x, 'nvvm.rcp.rn.d': (x) => 1 / x, 'nvvm.rcp.approx.ftz.f': (x) => 1 / x, 'nvvm.rcp.approx.ftz.d': (x) => 1 / x,
  'nvvm.div.approx.f': (a, b) => a / b, 'nvvm.div.rn.f': (a, b) => a / b, 'nvvm.div.full': (a, b) => a / b,
  'nvvm.sin.approx.f': Math.sin, 'nvvm.cos.approx.f': Math.cos, 'nvvm.lg2.approx.f': Math.log2, 'nvvm.ex2.approx.f': (x) => 2 ** x,
  'nvvm.ex2.approx.d': (x) => 2 ** x, 'nvvm.lg2.approx.d': Math.log2,
  'nvvm.fmin.f': (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b)), 'nvvm.fmax.f': (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b)),
  'nvvm.fmin.d': (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b)), 'nvvm.fmax.d': (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b)),
  'nvvm.fma.rn.f': (a, b, c) => a * b + c, 'nvvm.fma.rn.d': (a, b, c) => a * b + c,
  'nvvm.saturate.f': (x) => Math.min(1, Math.max(0, Number.isNaN(x) ? 0 : x)), 'nvvm.saturate.d': (x) => Math.min(1, Math.max(0, Number.isNaN(x) ? 0 : x)),
  'nvvm.mulhi.i': SPECIAL.mulhi, 'nvvm.mulhi.ui': SPECIAL.umulhi, 'nvvm.mulhi.ll': SPECIAL.mul64hi, 'nvvm.mulhi.ull': SPECIAL.umul64hi,
  'nvvm.mul24.i': SPECIAL.mul24, 'nvvm.mul24.ui': SPECIAL.umul24, 'nvvm.sad.i': SPECIAL.sad, 'nvvm.sad.ui': SPECIAL.usad,
  'nvvm.brev32': SPECIAL.brev, 'nvvm.brev64': SPECIAL.brevll, 'nvvm.prmt': SPECIAL.byte_perm,
  'nvvm.bitcast.f2i': SPECIAL.float_as_int, 'nvvm.bitcast.i2f': SPECIAL.int_as_float, 'nvvm.bitcast.d2ll': SPECIAL.double_as_longlong, 'nvvm.bitcast.ll2d': SPECIAL.longlong_as_double,
  'nvvm.d2i.hi': SPECIAL.double2hiint, 'nvvm.d2i.lo': SPECIAL.double2loint, 'nvvm.lohi.i2d': (lo, hi) => SPECIAL.hiloint2double(hi, lo),
};

/** The function of an `llvm.nvvm.*` conversion intrinsic (`llvm.nvvm.f2i.rn`, `llvm.nvvm.d2ull.rz`). */
export function nvvmConversion(name: string): Pure | undefined {
  const m = /^nvvm\.(f|d|i|ui|ll|ull)2(i|ui|ll|ull|f|d)\.(rn|rz|rm|rp)(?:\.ftz)?$/.exec(name);
  if (!m) return undefined;
  const names: Record<string, string> = { f: 'float', d: 'double', i: 'int', ui: 'uint', ll: 'll', ull: 'ull' };
  const mode = { rn: 'rn', rz: 'rz', rm: 'rd', rp: 'ru' }[m[3]]!;
  return conversion(`${names[m[1]]}2${names[m[2]]}_${mode}`);
}
