// The C and CUDA math functions device code calls, over JS numbers (callers round the result
// to the type they return). Shared by the lowerings.

/** Math and bit functions by their C/CUDA name. */
export const MATH: Record<string, ((...xs: number[]) => number) | undefined> = Object.assign(Object.create(null), {
  sqrtf: Math.sqrt, sqrt: Math.sqrt, rsqrtf: (x: number) => 1 / Math.sqrt(x), rsqrt: (x: number) => 1 / Math.sqrt(x),
  expf: Math.exp, exp: Math.exp, __expf: Math.exp, exp2f: (x: number) => 2 ** x, exp2: (x: number) => 2 ** x,
  logf: Math.log, log: Math.log, __logf: Math.log, log2f: Math.log2, log2: Math.log2, log10f: Math.log10, log10: Math.log10,
  sinf: Math.sin, sin: Math.sin, __sinf: Math.sin, cosf: Math.cos, cos: Math.cos, __cosf: Math.cos, tanf: Math.tan, tan: Math.tan,
  fabsf: Math.abs, fabs: Math.abs, abs: Math.abs, floorf: Math.floor, floor: Math.floor, ceilf: Math.ceil, ceil: Math.ceil,
  roundf: (x: number) => Math.sign(x) * Math.round(Math.abs(x)), round: (x: number) => Math.sign(x) * Math.round(Math.abs(x)),
  truncf: Math.trunc, trunc: Math.trunc, powf: Math.pow, pow: Math.pow, __powf: Math.pow,
  fminf: Math.min, fmin: Math.min, fmaxf: Math.max, fmax: Math.max, min: Math.min, max: Math.max, umin: Math.min, umax: Math.max,
  __fdividef: (a: number, b: number) => a / b, fmaf: (a: number, b: number, c: number) => a * b + c, fma: (a: number, b: number, c: number) => a * b + c,
  __popc: (x: number) => popcount(x >>> 0), __popcll: (x: number) => popcount(x),
  __float_as_int: (x: number) => new Int32Array(new Float32Array([x]).buffer)[0],
  __float_as_uint: (x: number) => new Uint32Array(new Float32Array([x]).buffer)[0],
  __uint_as_float: (x: number) => new Float32Array(new Uint32Array([x]).buffer)[0],
  ...mathFamily({
    exp10: (x: number) => 10 ** x, expm1: Math.expm1, log1p: Math.log1p, asin: Math.asin, acos: Math.acos, atan: Math.atan,
    sinh: Math.sinh, cosh: Math.cosh, tanh: Math.tanh, asinh: Math.asinh, acosh: Math.acosh, atanh: Math.atanh, cbrt: Math.cbrt,
    hypot: Math.hypot, atan2: Math.atan2, fmod: (a: number, b: number) => a % b, copysign: (a: number, b: number) => Math.abs(a) * (Object.is(b, -0) || b < 0 ? -1 : 1),
    fdim: (a: number, b: number) => (a > b ? a - b : 0), rint: roundEven, nearbyint: roundEven, erf, erfc: (x: number) => 1 - erf(x),
    sinpi: (x: number) => Math.sin(Math.PI * x), cospi: (x: number) => Math.cos(Math.PI * x),
  }),
  __builtin_inff: () => Infinity, __builtin_inf: () => Infinity, __builtin_huge_valf: () => Infinity, __builtin_huge_val: () => Infinity,
  __builtin_nanf: () => NaN, __builtin_nan: () => NaN,
  isnan: (x: number) => +Number.isNaN(x), isinf: (x: number) => +(Math.abs(x) === Infinity), isfinite: (x: number) => +Number.isFinite(x),
  signbit: (x: number) => +(x < 0 || Object.is(x, -0)), labs: Math.abs, llabs: Math.abs,
  llmin: Math.min, llmax: Math.max, ullmin: Math.min, ullmax: Math.max,
  lrintf: roundEven, llrintf: roundEven, lrint: roundEven, lroundf: (x: number) => Math.sign(x) * Math.round(Math.abs(x)), llroundf: (x: number) => Math.sign(x) * Math.round(Math.abs(x)), lround: (x: number) => Math.sign(x) * Math.round(Math.abs(x)),
  __saturatef: (x: number) => Math.min(1, Math.max(0, Number.isNaN(x) ? 0 : x)), saturatef: (x: number) => Math.min(1, Math.max(0, Number.isNaN(x) ? 0 : x)),
  __mul24: (a: number, b: number) => Math.imul((a << 8) >> 8, (b << 8) >> 8), __umul24: (a: number, b: number) => Math.imul(a & 0xffffff, b & 0xffffff) >>> 0,
  __clz: (x: number) => Math.clz32(x), __ffs: (x: number) => (x === 0 ? 0 : 32 - Math.clz32(x & -x)), __brev: (x: number) => reverseBits(x >>> 0),
  __float2int_rn: roundEven, __float2int_rz: Math.trunc, __float2uint_rn: roundEven, __float2uint_rz: Math.trunc, __int2float_rn: (x: number) => x,
  __uint2float_rn: (x: number) => x, __double2float_rn: (x: number) => x, __double2int_rn: roundEven, __double2int_rz: Math.trunc,
  __int2double_rn: (x: number) => x, __uint2double_rn: (x: number) => x, __fadd_rn: (a: number, b: number) => a + b, __fmul_rn: (a: number, b: number) => a * b,
  __fsub_rn: (a: number, b: number) => a - b, __fdiv_rn: (a: number, b: number) => a / b, __dadd_rn: (a: number, b: number) => a + b, __dmul_rn: (a: number, b: number) => a * b,
  __fsqrt_rn: Math.sqrt, __frsqrt_rn: (x: number) => 1 / Math.sqrt(x), __log2f: Math.log2, __log10f: Math.log10, __tanf: Math.tan,
  __fmaf_rn: (a: number, b: number, c: number) => a * b + c, __fma_rn: (a: number, b: number, c: number) => a * b + c,
  __hadd: (a: number, b: number) => Math.floor((a + b) / 2), __rhadd: (a: number, b: number) => Math.floor((a + b + 1) / 2),
  __uhadd: (a: number, b: number) => Math.floor((a + b) / 2), __urhadd: (a: number, b: number) => Math.floor((a + b + 1) / 2),
  __sad: (a: number, b: number, c: number) => Math.abs(a - b) + c,
  __byte_perm: (x: number, y: number, sel: number) => {
    const bytes = [x & 255, (x >>> 8) & 255, (x >>> 16) & 255, (x >>> 24) & 255, y & 255, (y >>> 8) & 255, (y >>> 16) & 255, (y >>> 24) & 255];
    return (bytes[sel & 7] | (bytes[(sel >>> 4) & 7] << 8) | (bytes[(sel >>> 8) & 7] << 16) | (bytes[(sel >>> 12) & 7] << 24)) >>> 0;
  },
  __funnelshift_l: (lo: number, hi: number, s: number) => Number(((BigInt(hi >>> 0) << 32n | BigInt(lo >>> 0)) << BigInt(s & 31)) >> 32n & 0xffffffffn),
  __funnelshift_r: (lo: number, hi: number, s: number) => Number(((BigInt(hi >>> 0) << 32n | BigInt(lo >>> 0)) >> BigInt(s & 31)) & 0xffffffffn),
  __funnelshift_lc: (lo: number, hi: number, s: number) => Number(((BigInt(hi >>> 0) << 32n | BigInt(lo >>> 0)) << BigInt(Math.min(s >>> 0, 32))) >> 32n & 0xffffffffn),
  __funnelshift_rc: (lo: number, hi: number, s: number) => Number(((BigInt(hi >>> 0) << 32n | BigInt(lo >>> 0)) >> BigInt(Math.min(s >>> 0, 32))) & 0xffffffffn),
  __int_as_float: (x: number) => new Float32Array(new Int32Array([x]).buffer)[0],
});

/** `name`, `namef` (float) and the plain overloads share one implementation. */
function mathFamily(fs: Record<string, (...xs: number[]) => number>): Record<string, (...xs: number[]) => number> {
  const out: Record<string, (...xs: number[]) => number> = {};
  for (const [name, f] of Object.entries(fs)) {
    out[name] = f;
    out[`${name}f`] = f;
  }
  return out;
}

/** Round half to even, as rint/lrint and the _rn conversions do. */
export function roundEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

export function reverseBits(x: number): number {
  let r = 0;
  for (let i = 0; i < 32; i++) r = (r << 1) | ((x >>> i) & 1);
  return r >>> 0;
}

/** The error function (Abramowitz-Stegun 7.1.26 is too coarse; use a series/continued form). */
export function erf(x: number): number {
  const t = Math.abs(x);
  if (t < 2.5) {
    // Maclaurin series: converges quickly for small |x|.
    let sum = t;
    let term = t;
    for (let n = 1; n < 60; n++) {
      term *= (-t * t) / n;
      sum += term / (2 * n + 1);
    }
    return Math.sign(x) * (2 / Math.sqrt(Math.PI)) * sum;
  }
  // Continued fraction for erfc at larger |x|.
  let f = 0;
  for (let n = 60; n > 0; n--) f = (n / 2) / (t + f);
  const erfc = Math.exp(-t * t) / Math.sqrt(Math.PI) / (t + f);
  return Math.sign(x) * (1 - erfc);
}

export function popcount(x: number): number {
  let n = 0;
  let b = BigInt(Math.trunc(x));
  if (b < 0n) b = BigInt.asUintN(64, b);
  while (b) {
    n += Number(b & 1n);
    b >>= 1n;
  }
  return n;
}
