// C printf format strings: parsed once here for both sides of the engine — the front end
// checks that arguments match their conversions (like GCC's -Wformat), and the runtime
// formats host and device printf output exactly as glibc and CUDA's device printf do.

/**
 * The widest field and the longest precision printed: `%999999999d` would otherwise make a
 * gigabyte of spaces of one call's output.
 */
export const MAX_FIELD = 4096;

export type Conversion = 'd' | 'i' | 'u' | 'o' | 'x' | 'X' | 'c' | 's' | 'f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A' | 'p' | 'n' | '%';
export type LengthModifier = '' | 'hh' | 'h' | 'l' | 'll' | 'j' | 'z' | 't' | 'L';

export interface FormatSpec {
  /** Index of the `%` in the (decoded) format string, and one past the conversion letter. */
  start: number;
  end: number;
  flags: string;
  width?: number | '*';
  precision?: number | '*';
  length: LengthModifier;
  conversion: Conversion;
}

export interface FormatProblem {
  message: string;
  start: number;
  end: number;
}

/** What kind of argument a conversion consumes. */
export type ArgumentClass = 'int' | 'float' | 'string' | 'char' | 'pointer' | 'count';

export function argumentClass(spec: FormatSpec): ArgumentClass | undefined {
  switch (spec.conversion) {
    case 'd':
    case 'i':
    case 'u':
    case 'o':
    case 'x':
    case 'X':
      return 'int';
    case 'c':
      return 'char';
    case 's':
      return 'string';
    case 'p':
      return 'pointer';
    case 'n':
      return 'count';
    case '%':
      return undefined;
    default:
      return 'float';
  }
}

const CONVERSIONS = new Set('diuoxXcsfFeEgGaApn%');

export function parseFormat(format: string): { specs: FormatSpec[]; problems: FormatProblem[] } {
  const specs: FormatSpec[] = [];
  const problems: FormatProblem[] = [];
  let i = 0;
  while (i < format.length) {
    const pct = format.indexOf('%', i);
    if (pct < 0) break;
    let j = pct + 1;
    let flags = '';
    while (j < format.length && '-+ #0'.includes(format[j])) flags += format[j++];
    let width: FormatSpec['width'];
    if (format[j] === '*') {
      width = '*';
      j++;
    } else {
      const m = /^\d+/.exec(format.slice(j));
      if (m) {
        width = Number(m[0]);
        j += m[0].length;
      }
    }
    let precision: FormatSpec['precision'];
    if (format[j] === '.') {
      j++;
      if (format[j] === '*') {
        precision = '*';
        j++;
      } else {
        const m = /^\d*/.exec(format.slice(j))!;
        precision = m[0] ? Number(m[0]) : 0;
        j += m[0].length;
      }
    }
    const lm = /^(hh|h|ll|l|j|z|t|L)/.exec(format.slice(j));
    const length = (lm ? lm[0] : '') as LengthModifier;
    j += length.length;
    const c = format[j];
    if (c === undefined || !CONVERSIONS.has(c)) {
      problems.push({ message: c === undefined ? "the format ends with an incomplete '%' conversion" : `unknown conversion '%${format.slice(pct + 1, j + 1)}'`, start: pct, end: Math.min(j + 1, format.length) });
      i = j + 1;
      continue;
    }
    specs.push({ start: pct, end: j + 1, flags, length, conversion: c as Conversion, ...(width !== undefined ? { width } : {}), ...(precision !== undefined ? { precision } : {}) });
    i = j + 1;
  }
  return { specs, problems };
}

export type PrintfArg =
  | { kind: 'int'; value: bigint }
  | { kind: 'float'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'pointer'; value: number };

/** Formats like glibc's printf. Missing arguments print as glibc would print zero bits. */
export function formatPrintf(format: string, args: PrintfArg[]): string {
  const { specs } = parseFormat(format);
  let out = '';
  let last = 0;
  let next = 0;
  const take = (): PrintfArg | undefined => args[next++];
  const asInt = (a: PrintfArg | undefined): bigint => (a === undefined ? 0n : a.kind === 'int' ? a.value : a.kind === 'float' ? BigInt(Math.trunc(a.value) || 0) : BigInt(Math.trunc(a.kind === 'pointer' ? a.value : 0)));
  for (const s of specs) {
    out += format.slice(last, s.start);
    last = s.end;
    if (s.conversion === '%') {
      out += '%';
      continue;
    }
    let flags = s.flags;
    let width = s.width === '*' ? Number(asInt(take())) : s.width;
    if (width !== undefined && width < 0) {
      flags += '-';
      width = -width;
    }
    if (width !== undefined) width = Math.min(width, MAX_FIELD);
    let precision = s.precision === '*' ? Number(asInt(take())) : s.precision;
    if (precision !== undefined && precision < 0) precision = undefined;
    if (precision !== undefined) precision = Math.min(precision, MAX_FIELD);
    const arg = take();
    out += pad(convert(s, flags, precision, arg, asInt), width, flags, s, precision);
  }
  return out + format.slice(last);
}

function convert(s: FormatSpec, flags: string, precision: number | undefined, arg: PrintfArg | undefined, asInt: (a: PrintfArg | undefined) => bigint): string {
  switch (s.conversion) {
    case 'd':
    case 'i': {
      const v = BigInt.asIntN(intBits(s.length), asInt(arg));
      const digits = withPrecision((v < 0n ? -v : v).toString(), precision);
      return sign(v < 0n, flags) + digits;
    }
    case 'u':
    case 'o':
    case 'x':
    case 'X': {
      const v = BigInt.asUintN(intBits(s.length), asInt(arg));
      const radix = s.conversion === 'u' ? 10 : s.conversion === 'o' ? 8 : 16;
      let digits = withPrecision(v.toString(radix), precision);
      if (s.conversion === 'X') digits = digits.toUpperCase();
      if (flags.includes('#')) {
        // '#' makes octal start with 0 (even when the precision printed no digit) and
        // prefixes non-zero hex with 0x.
        if (s.conversion === 'o' && !digits.startsWith('0')) digits = '0' + digits;
        if (v !== 0n && s.conversion === 'x') digits = '0x' + digits;
        if (v !== 0n && s.conversion === 'X') digits = '0X' + digits;
      }
      return digits;
    }
    case 'c':
      return String.fromCharCode(Number(BigInt.asUintN(8, asInt(arg))));
    case 's': {
      const text = arg?.kind === 'string' ? arg.value : '(null)';
      return precision !== undefined ? text.slice(0, precision) : text;
    }
    case 'p':
      return arg && arg.kind === 'pointer' && arg.value !== 0 ? '0x' + Math.trunc(arg.value).toString(16) : '(nil)';
    case 'n':
      return '';
    default: {
      const v = arg?.kind === 'float' ? arg.value : arg?.kind === 'int' ? Number(arg.value) : 0;
      return formatFloat(v, s.conversion, flags, precision);
    }
  }
}

function intBits(length: LengthModifier): number {
  switch (length) {
    case 'hh':
      return 8;
    case 'h':
      return 16;
    case 'l':
    case 'll':
    case 'j':
    case 'z':
    case 't':
      return 64;
    default:
      return 32;
  }
}

function withPrecision(digits: string, precision: number | undefined): string {
  if (precision === undefined) return digits;
  if (precision === 0 && digits === '0') return '';
  return digits.padStart(precision, '0');
}

function sign(negative: boolean, flags: string): string {
  return negative ? '-' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '';
}

function pad(body: string, width: number | undefined, flags: string, s: FormatSpec, precision: number | undefined): string {
  if (width === undefined || body.length >= width) return body;
  if (flags.includes('-')) return body.padEnd(width, ' ');
  const numeric = s.conversion !== 's' && s.conversion !== 'c' && s.conversion !== 'p';
  // An integer conversion with a precision ignores the 0 flag.
  const zeroAllowed = flags.includes('0') && numeric && !(precision !== undefined && 'diuoxX'.includes(s.conversion));
  if (zeroAllowed && /^[0-9a-fA-F]|^[+\- ]|^0[xX]/.test(body) && !/inf|nan/i.test(body)) {
    const m = /^[+\- ]?(?:0[xX])?/.exec(body)!;
    const prefix = m[0];
    return prefix + body.slice(prefix.length).padStart(width - prefix.length, '0');
  }
  return body.padStart(width, ' ');
}

/** %f %e %g %a with glibc's rounding (round-half-even on the exact binary value). */
export function formatFloat(v: number, conversion: string, flags: string, precision: number | undefined): string {
  const upper = conversion === conversion.toUpperCase();
  const negative = v < 0 || Object.is(v, -0);
  const a = Math.abs(v);
  let body: string;
  if (Number.isNaN(v)) body = 'nan';
  else if (!Number.isFinite(v)) body = 'inf';
  else {
    const c = conversion.toLowerCase();
    const p = precision ?? 6;
    if (c === 'f') body = fixed(a, p, flags.includes('#'));
    else if (c === 'e') body = exponential(a, p, flags.includes('#'));
    else if (c === 'g') body = general(a, p === 0 ? 1 : p, flags.includes('#'));
    else body = hexFloat(a, precision, flags.includes('#'));
  }
  if (upper) body = body.toUpperCase();
  return sign(negative && !Number.isNaN(v), flags) + body;
}

/** A double as an exact fraction num / den (every double is a dyadic rational). */
function exact(a: number): { num: bigint; den: bigint } {
  const { mantissa, exponent } = decompose(a);
  return exponent >= 0 ? { num: mantissa << BigInt(exponent), den: 1n } : { num: mantissa, den: 1n << BigInt(-exponent) };
}

/** num / den rounded half-to-even, as glibc rounds the exact binary value. */
function roundDiv(num: bigint, den: bigint): bigint {
  const q = num / den;
  const r = num % den;
  return r * 2n > den || (r * 2n === den && q % 2n === 1n) ? q + 1n : q;
}

/** %f: exact decimal digits, rounded half-to-even at `digits` after the point. */
function fixed(a: number, digits: number, alt: boolean): string {
  const { num, den } = exact(a);
  const q = roundDiv(num * 10n ** BigInt(digits), den);
  const s = q.toString().padStart(digits + 1, '0');
  const intPart = s.slice(0, s.length - digits);
  const frac = s.slice(s.length - digits);
  return digits > 0 ? `${intPart}.${frac}` : alt ? `${intPart}.` : intPart;
}

/** %e: `digits` digits after the point of the exact value's decimal mantissa. */
function exponential(a: number, digits: number, alt: boolean): string {
  if (a === 0) return `${fixed(0, digits, alt)}e+00`;
  const { num, den } = exact(a);
  let exp = Math.floor(Math.log10(a));
  // Scale so the mantissa has digits+1 integer digits: q = round(v * 10^(digits - exp)).
  const scaled = (e: number): bigint => {
    const shift = digits - e;
    return shift >= 0 ? roundDiv(num * 10n ** BigInt(shift), den) : roundDiv(num, den * 10n ** BigInt(-shift));
  };
  let q = scaled(exp);
  const lower = 10n ** BigInt(digits);
  // log10 may be off by one near powers of ten, and rounding may carry into a new digit.
  while (q < lower) q = scaled(--exp);
  while (q >= lower * 10n) q = scaled(++exp);
  const m = q.toString();
  const mant = digits > 0 ? `${m[0]}.${m.slice(1)}` : alt ? `${m}.` : m;
  const e = Math.abs(exp).toString().padStart(2, '0');
  return `${mant}e${exp < 0 ? '-' : '+'}${e}`;
}

function general(a: number, p: number, alt: boolean): string {
  if (a === 0) return alt ? fixed(0, p - 1, true) : '0';
  const e = exponential(a, p - 1, alt);
  const x = Number(e.slice(e.indexOf('e') + 1));
  let body = x < -4 || x >= p ? e : fixed(a, p - 1 - x, alt);
  if (!alt) {
    // %g drops trailing zeros of the fraction (and a bare point).
    body = body.replace(/(\.\d*?)0+(e|$)/, '$1$2').replace(/\.(e|$)/, '$1');
  }
  return body;
}

function hexFloat(a: number, precision: number | undefined, alt: boolean): string {
  if (a === 0) return `0x0${precision ? '.' + '0'.repeat(precision) : alt ? '.' : ''}p+0`;
  const { mantissa, exponent } = decompose(a);
  // glibc prints normal numbers as 0x1.<52 bits>p<e> and subnormals as 0x0.<52 bits>p-1022.
  const subnormal = exponent === -1074 && mantissa < 1n << 52n;
  const e = subnormal ? -1022 : exponent + 52;
  const full = mantissa; // lead digit and 52 fraction bits
  let lead: bigint;
  let hex: string;
  if (precision === undefined || precision >= 13) {
    lead = full >> 52n;
    hex = (full & ((1n << 52n) - 1n)).toString(16).padStart(13, '0');
    hex = precision === undefined ? hex.replace(/0+$/, '') : hex.padEnd(precision, '0');
  } else {
    // Round half-to-even to `precision` hex digits; a carry can make the leading digit 2.
    const kept = roundDiv(full, 1n << BigInt(52 - 4 * precision));
    lead = kept >> BigInt(4 * precision);
    hex = precision ? (kept & ((1n << BigInt(4 * precision)) - 1n)).toString(16).padStart(precision, '0') : '';
  }
  return `0x${lead.toString(16)}${hex ? '.' + hex : alt ? '.' : ''}p${e < 0 ? '-' : '+'}${Math.abs(e)}`;
}

function decompose(a: number): { mantissa: bigint; exponent: number } {
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, a);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  const frac = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (biased === 0) return { mantissa: frac, exponent: -1074 };
  return { mantissa: frac | (1n << 52n), exponent: biased - 1075 };
}
