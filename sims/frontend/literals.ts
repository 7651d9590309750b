// Decoding of numeric, character and string literal spellings (C++17 rules, LP64 target).

export type NumberLiteral =
  | { kind: 'int'; value: number; exact: string; unsigned: boolean; longness: 0 | 1 | 2 }
  | { kind: 'float'; value: number; single: boolean }
  | { kind: 'invalid'; message: string };

const PLAIN_DECIMAL = /^(?:0|[1-9][0-9]{0,8})$/;

export function decodeNumber(text: string): NumberLiteral {
  // Most literals in kernels are small decimal ints: answer those without regex tables or BigInt.
  if (PLAIN_DECIMAL.test(text)) return { kind: 'int', value: +text, exact: text, unsigned: false, longness: 0 };
  const s = text.replace(/'/g, '');
  const isHex = /^0[xX]/.test(s);
  const looksFloat = isHex ? /[.pP]/.test(s) : /[.eE]/.test(s) && !/^0[bB]/.test(s);
  if (looksFloat) {
    const m = /^(.*?)([fFlL]?)$/.exec(s)!;
    const body = m[1];
    const value = isHex ? parseHexFloat(body) : Number(body);
    if (Number.isNaN(value) || !/^[0-9a-fA-FxX.pPeE+-]+$/.test(body)) return { kind: 'invalid', message: `invalid floating constant '${text}'` };
    return { kind: 'float', value, single: m[2] === 'f' || m[2] === 'F' };
  }
  const m = /^(0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)([uU]?(?:ll|LL|l|L)?|(?:ll|LL|l|L)[uU]?)?$/.exec(s);
  if (!m) {
    if (/^[0-9]+[fF]$/.test(s)) return { kind: 'invalid', message: `invalid suffix 'f' on integer constant '${text}'; write ${s.slice(0, -1)}.0f` };
    return { kind: 'invalid', message: `invalid integer constant '${text}'` };
  }
  const digits = m[1];
  const suffix = (m[2] ?? '').toLowerCase();
  let big: bigint;
  if (/^0[xXbB]/.test(digits)) big = BigInt(digits);
  else if (digits.length > 1 && digits[0] === '0') big = BigInt('0o' + digits.slice(1));
  else big = BigInt(digits);
  if (big > 0xffffffffffffffffn) return { kind: 'invalid', message: `integer constant '${text}' is too large for any integer type` };
  const longness: 0 | 1 | 2 = suffix.includes('ll') ? 2 : suffix.includes('l') ? 1 : 0;
  let unsigned = suffix.includes('u');
  const decimal = !/^0/.test(digits) || digits === '0';
  // The type is the first of int, long, (long long) that holds the value; octal and hex
  // constants may also become unsigned, decimal ones may not.
  let longnessOut = longness;
  if (!unsigned) {
    if (longness === 0 && big > 0x7fffffffn) {
      if (!decimal && big <= 0xffffffffn) unsigned = true;
      else longnessOut = 1;
    }
    if (longnessOut >= 1 && big > 0x7fffffffffffffffn) unsigned = true;
  } else if (longness === 0 && big > 0xffffffffn) {
    longnessOut = 1;
  }
  return { kind: 'int', value: Number(big), exact: big.toString(), unsigned, longness: longnessOut };
}

function parseHexFloat(body: string): number {
  const m = /^0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)$/.exec(body);
  if (!m) return NaN;
  const int = m[1] ? parseInt(m[1], 16) : 0;
  const frac = m[2] ? parseInt(m[2], 16) / 16 ** m[2].length : 0;
  return (int + frac) * 2 ** Number(m[3]);
}

const SIMPLE_ESCAPES: Record<string, number> = {
  n: 10, t: 9, r: 13, '0': 0, a: 7, b: 8, f: 12, v: 11, '\\': 92, "'": 39, '"': 34, '?': 63, e: 27,
};

/** Decodes the body of a quoted literal (without prefix and quotes) into code units. */
export function decodeEscapes(body: string): { value: string; bad?: string } {
  let out = '';
  let bad: string | undefined;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i];
    if (e === undefined) break;
    if (e === 'x') {
      const m = /^[0-9a-fA-F]+/.exec(body.slice(i + 1));
      if (!m) bad ??= '\\x used with no following hex digits';
      else {
        out += String.fromCharCode(parseInt(m[0], 16) & 0xff);
        i += m[0].length;
      }
    } else if (e >= '0' && e <= '7') {
      const m = /^[0-7]{1,3}/.exec(body.slice(i))!;
      out += String.fromCharCode(parseInt(m[0], 8) & 0xff);
      i += m[0].length - 1;
    } else if (e === 'u' || e === 'U') {
      const len = e === 'u' ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + len);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) bad ??= `incomplete universal character name \\${e}${hex}`;
      else out += String.fromCodePoint(parseInt(hex, 16));
      i += len;
    } else if (e in SIMPLE_ESCAPES) {
      out += String.fromCharCode(SIMPLE_ESCAPES[e]);
    } else {
      bad ??= `unknown escape sequence '\\${e}'`;
      out += e;
    }
  }
  return bad ? { value: out, bad } : { value: out };
}

/** Splits `u8"abc"` into its prefix and body; works for character literals too. */
export function literalBody(text: string): { prefix: string; body: string } {
  const q = text.search(/["']/);
  const quote = text[q];
  const end = text.endsWith(quote) && text.length - 1 > q ? text.length - 1 : text.length;
  return { prefix: text.slice(0, q), body: text.slice(q + 1, end) };
}
