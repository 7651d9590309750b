// Floating point constants as LLVM prints them in hexadecimal: the bits of a double (`0x…`), or
// of the type itself behind a letter (`0xH` half, `0xR` bfloat, `0xK` x86_fp80, `0xL` fp128,
// `0xM` ppc_fp128), read into the nearest JavaScript number.

const scratch = new DataView(new ArrayBuffer(16));

/** `0x…` (a double's bits), `0xH…` half, `0xR…` bfloat, `0xK…` x86_fp80, `0xL…` fp128, `0xM…` ppc_fp128. */
export function hexFloatValue(text: string): number {
  let s = text;
  let sign = 1;
  if (s.charCodeAt(0) === 45) {
    sign = -1;
    s = s.slice(1);
  } else if (s.charCodeAt(0) === 43) {
    s = s.slice(1);
  }
  const letter = s.charAt(2);
  if (letter === 'H') return sign * halfValue(parseInt(s.slice(3), 16));
  if (letter === 'R') {
    scratch.setUint32(0, (parseInt(s.slice(3), 16) & 0xffff) << 16);
    return sign * scratch.getFloat32(0);
  }
  if (letter === 'K') {
    const digits = s.slice(3).padStart(20, '0');
    const se = parseInt(digits.slice(0, 4), 16);
    const mant = BigInt('0x' + digits.slice(4));
    const exp = se & 0x7fff;
    const neg = (se & 0x8000) !== 0 ? -1 : 1;
    if (exp === 0x7fff) return sign * neg * ((mant & ((1n << 63n) - 1n)) === 0n ? Infinity : NaN);
    return sign * neg * Number(mant) * Math.pow(2, (exp === 0 ? 1 : exp) - 16383 - 63);
  }
  if (letter === 'L') {
    const digits = s.slice(3).padStart(32, '0');
    const lo = BigInt('0x' + digits.slice(0, 16));
    const hi = BigInt('0x' + digits.slice(16));
    const neg = (hi >> 63n) !== 0n ? -1 : 1;
    const exp = Number((hi >> 48n) & 0x7fffn);
    const mant = ((hi & ((1n << 48n) - 1n)) << 64n) | lo;
    if (exp === 0x7fff) return sign * neg * (mant === 0n ? Infinity : NaN);
    const frac = Number(mant) / 2 ** 112;
    return sign * neg * (exp === 0 ? frac * Math.pow(2, -16382) : (1 + frac) * Math.pow(2, exp - 16383));
  }
  if (letter === 'M') {
    // Two doubles (high part first as printed); their sum is the value.
    const digits = s.slice(3).padStart(32, '0');
    return sign * (doubleFromHex(digits.slice(0, 16)) + doubleFromHex(digits.slice(16)));
  }
  return sign * doubleFromHex(s.slice(2));
}

function doubleFromHex(hex: string): number {
  const h = hex.padStart(16, '0');
  scratch.setUint32(0, parseInt(h.slice(0, 8), 16));
  scratch.setUint32(4, parseInt(h.slice(8, 16), 16));
  return scratch.getFloat64(0);
}

function halfValue(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const mant = bits & 0x3ff;
  if (exp === 0) return sign * mant * Math.pow(2, -24);
  if (exp === 0x1f) return mant === 0 ? sign * Infinity : NaN;
  return sign * (1 + mant / 1024) * Math.pow(2, exp - 15);
}
