// Evaluation of `#if` / `#elif` controlling expressions, as C and C++ define it: every value is
// intmax_t or uintmax_t (64 bits here), the usual arithmetic conversions make a mixed operation
// unsigned (so `-1 > 0u` holds), and operands that are not evaluated (`0 && 1/0`) raise no
// errors. The caller has already macro-expanded the line and replaced `defined X` and
// `__has_include(...)` by `1`/`0` number tokens.
import type { Range } from '../source';
import type { Token } from '../token';

export interface PPValue {
  v: bigint;
  u: boolean;
}

export class PPExpressionError extends Error {
  constructor(
    message: string,
    readonly range: Range,
  ) {
    super(message);
  }
}

const MAX_U = (1n << 64n) - 1n;
const MAX_S = (1n << 63n) - 1n;

function norm(v: bigint, u: boolean): bigint {
  return u ? BigInt.asUintN(64, v) : BigInt.asIntN(64, v);
}
function asU(x: PPValue): bigint {
  return x.u ? x.v : BigInt.asUintN(64, x.v);
}
const ZERO: PPValue = { v: 0n, u: false };
const ONE: PPValue = { v: 1n, u: false };
function bool(b: boolean): PPValue {
  return b ? ONE : ZERO;
}

// C++ alternative tokens (`and`, `or`, ...) are operators even in #if.
const ALT_OPS: Record<string, string> = {
  and: '&&',
  or: '||',
  not: '!',
  bitand: '&',
  bitor: '|',
  xor: '^',
  compl: '~',
  not_eq: '!=',
};

const BINARY_PREC: Record<string, number> = {
  '||': 1,
  '&&': 2,
  '|': 3,
  '^': 4,
  '&': 5,
  '==': 6,
  '!=': 6,
  '<': 7,
  '>': 7,
  '<=': 7,
  '>=': 7,
  '<<': 8,
  '>>': 8,
  '+': 9,
  '-': 9,
  '*': 10,
  '/': 10,
  '%': 10,
};

function opOf(t: Token): string | undefined {
  if (t.kind === 'punct') return t.text;
  if (t.kind === 'ident') return ALT_OPS[t.text];
  return undefined;
}

/** Evaluates the tokens of a controlling expression; throws PPExpressionError when malformed. */
export function evaluatePPExpression(tokens: Token[], directive: Token, end: Token): PPValue {
  if (tokens.length === 0) throw new PPExpressionError(`#${directive.text} with no expression`, directive.range);
  const p = new ExprParser(tokens, end);
  const v = p.comma();
  if (p.pos < tokens.length) {
    const t = tokens[p.pos];
    if (t.kind === 'punct' && t.text === ')') throw new PPExpressionError("missing '(' in expression", t.range);
    if (t.kind === 'punct' && t.text === ':') throw new PPExpressionError("':' without preceding '?'", t.range);
    throw new PPExpressionError(`missing binary operator before token "${t.text}"`, t.range);
  }
  return v;
}

class ExprParser {
  pos = 0;
  private skip = 0;
  private depth = 0;

  constructor(
    private readonly toks: Token[],
    private readonly end: Token,
  ) {}

  private peek(): Token {
    return this.pos < this.toks.length ? this.toks[this.pos] : this.end;
  }

  comma(): PPValue {
    let v = this.cond();
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'punct' || t.text !== ',') return v;
      this.pos++;
      v = this.cond();
    }
  }

  private cond(): PPValue {
    const c = this.binary(1);
    const q = this.peek();
    if (q.kind !== 'punct' || q.text !== '?') return c;
    this.pos++;
    const truth = c.v !== 0n;
    if (!truth) this.skip++;
    const a = this.comma();
    if (!truth) this.skip--;
    const colon = this.peek();
    if (colon.kind !== 'punct' || colon.text !== ':') {
      throw new PPExpressionError(`'?' without following ':'`, colon === this.end ? q.range : colon.range);
    }
    this.pos++;
    if (truth) this.skip++;
    const b = this.cond();
    if (truth) this.skip--;
    const u = a.u || b.u;
    const r = truth ? a : b;
    return { v: norm(r.v, u), u };
  }

  private binary(minPrec: number): PPValue {
    let left = this.unary();
    for (;;) {
      const t = this.peek();
      const op = opOf(t);
      if (op === undefined) return left;
      const prec = BINARY_PREC[op];
      if (prec === undefined || prec < minPrec) return left;
      this.pos++;
      if (op === '&&' || op === '||') {
        const shortCircuit = op === '&&' ? left.v === 0n : left.v !== 0n;
        if (shortCircuit) this.skip++;
        const right = this.binary(prec + 1);
        if (shortCircuit) this.skip--;
        left = op === '&&' ? bool(left.v !== 0n && right.v !== 0n) : bool(left.v !== 0n || right.v !== 0n);
        continue;
      }
      const right = this.binary(prec + 1);
      left = this.apply(op, t, left, right);
    }
  }

  private apply(op: string, t: Token, a: PPValue, b: PPValue): PPValue {
    if (op === '<<' || op === '>>') return shift(op === '<<', a, b);
    const u = a.u || b.u;
    const x = u ? asU(a) : a.v;
    const y = u ? asU(b) : b.v;
    switch (op) {
      case '*':
        return { v: norm(x * y, u), u };
      case '/':
      case '%':
        if (y === 0n) {
          if (this.skip > 0) return { v: 0n, u };
          throw new PPExpressionError('division by zero in #if', t.range);
        }
        return { v: norm(op === '/' ? x / y : x % y, u), u };
      case '+':
        return { v: norm(x + y, u), u };
      case '-':
        return { v: norm(x - y, u), u };
      case '<':
        return bool(x < y);
      case '>':
        return bool(x > y);
      case '<=':
        return bool(x <= y);
      case '>=':
        return bool(x >= y);
      case '==':
        return bool(x === y);
      case '!=':
        return bool(x !== y);
      case '&':
        return { v: norm(x & y, u), u };
      case '^':
        return { v: norm(x ^ y, u), u };
      case '|':
        return { v: norm(x | y, u), u };
    }
    throw new PPExpressionError(`token "${t.text}" is not valid in preprocessor expressions`, t.range);
  }

  private unary(): PPValue {
    const t = this.peek();
    if (++this.depth > 2000) throw new PPExpressionError('#if expression nested too deeply', t.range);
    try {
      const op = opOf(t);
      if (op === '+' || op === '-' || op === '~' || op === '!') {
        this.pos++;
        const a = this.unary();
        if (op === '+') return a;
        if (op === '-') return { v: norm(-a.v, a.u), u: a.u };
        if (op === '~') return { v: norm(~a.v, a.u), u: a.u };
        return bool(a.v === 0n);
      }
      if (op === '(') {
        this.pos++;
        const v = this.comma();
        const close = this.peek();
        if (close.kind !== 'punct' || close.text !== ')') {
          throw new PPExpressionError("missing ')' in expression", close === this.end ? t.range : close.range);
        }
        this.pos++;
        return v;
      }
      return this.primary();
    } finally {
      this.depth--;
    }
  }

  private primary(): PPValue {
    const t = this.peek();
    if (t === this.end) {
      const prev = this.pos > 0 ? this.toks[this.pos - 1] : t;
      throw new PPExpressionError(`operator '${prev.text}' has no right operand`, prev.range);
    }
    this.pos++;
    switch (t.kind) {
      case 'number':
        return parseIntegerLiteral(t);
      case 'char':
        return parseCharLiteral(t);
      case 'ident':
        if (t.text === 'true') return ONE;
        return ZERO; // `false` and identifiers left after expansion.
      case 'string':
        throw new PPExpressionError(`token ${t.text} is not valid in preprocessor expressions`, t.range);
      default:
        if (t.kind === 'punct' && (t.text === ')' || t.text === ':' || BINARY_PREC[t.text] !== undefined)) {
          throw new PPExpressionError(`expected value in expression before '${t.text}'`, t.range);
        }
        throw new PPExpressionError(`token "${t.text}" is not valid in preprocessor expressions`, t.range);
    }
  }
}

function shift(left: boolean, a: PPValue, b: PPValue): PPValue {
  let n = b.u ? asU(b) : b.v;
  if (n < 0n) {
    left = !left;
    n = -n;
  }
  if (left) {
    if (n >= 64n) return { v: 0n, u: a.u };
    return { v: norm(a.v << n, a.u), u: a.u };
  }
  if (n >= 64n) return { v: a.u || a.v >= 0n ? 0n : -1n, u: a.u };
  return { v: norm(a.v >> n, a.u), u: a.u };
}

const INT_SUFFIXES = new Set(['', 'u', 'l', 'ul', 'lu', 'll', 'ull', 'llu', 'z', 'uz', 'zu']);

export function parseIntegerLiteral(t: Token): PPValue {
  let s = t.text;
  if (s.indexOf("'") >= 0) s = s.split("'").join('');
  let base = 10;
  let i = 0;
  const c1 = s.charCodeAt(1) | 0x20;
  if (s[0] === '0' && c1 === 0x78 /* x */) {
    base = 16;
    i = 2;
  } else if (s[0] === '0' && c1 === 0x62 /* b */) {
    base = 2;
    i = 2;
  } else if (s[0] === '0') base = 8;
  const isFloat =
    s.indexOf('.') >= 0 ||
    (base === 16 ? /[pP]/.test(s) : base !== 2 && /^[0-9]*[eE]/.test(s));
  if (isFloat) throw new PPExpressionError('floating constant in preprocessor expression', t.range);
  const digitsStart = i;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const d = c >= 48 && c <= 57 ? c - 48 : (c | 0x20) >= 97 && (c | 0x20) <= 102 ? (c | 0x20) - 87 : 99;
    if (base === 16 ? d >= 16 : d >= 10) break;
    if (d >= base) {
      throw new PPExpressionError(`invalid digit "${s[i]}" in ${base === 8 ? 'octal' : 'binary'} constant`, t.range);
    }
  }
  const digits = s.slice(digitsStart, i);
  const suffix = s.slice(i).toLowerCase();
  if (!INT_SUFFIXES.has(suffix) || (digits === '' && base !== 8)) {
    throw new PPExpressionError(`invalid suffix "${s.slice(i)}" on integer constant`, t.range);
  }
  let v = 0n;
  if (digits !== '') v = base === 10 ? BigInt(digits) : BigInt((base === 16 ? '0x' : base === 8 ? '0o' : '0b') + digits);
  if (v > MAX_U) throw new PPExpressionError('integer constant is too large for its type', t.range);
  const u = suffix.indexOf('u') >= 0 || v > MAX_S;
  return { v, u };
}

/** Value of a character constant as gcc computes it for x86-64 Linux (signed char, 32-bit wchar_t). */
export function parseCharLiteral(t: Token): PPValue {
  const text = t.text;
  const q = text.indexOf("'");
  const prefix = text.slice(0, q);
  if (text.length < q + 2 || text[text.length - 1] !== "'") {
    throw new PPExpressionError('missing terminating \' character', t.range);
  }
  const body = text.slice(q + 1, -1);
  const chars: number[] = [];
  for (let i = 0; i < body.length; ) {
    let c = body.charCodeAt(i);
    if (c !== 92) {
      const cp = body.codePointAt(i)!;
      i += cp > 0xffff ? 2 : 1;
      pushChar(chars, cp, prefix);
      continue;
    }
    i++;
    const e = body[i++];
    switch (e) {
      case 'n': c = 10; break;
      case 't': c = 9; break;
      case 'r': c = 13; break;
      case 'a': c = 7; break;
      case 'b': c = 8; break;
      case 'f': c = 12; break;
      case 'v': c = 11; break;
      case 'e': case 'E': c = 27; break;
      case 'x': {
        let v = 0;
        const st = i;
        while (i < body.length && /[0-9a-fA-F]/.test(body[i])) v = v * 16 + parseInt(body[i++], 16);
        if (i === st) throw new PPExpressionError('\\x used with no following hex digits', t.range);
        chars.push(v);
        continue;
      }
      case 'u': case 'U': {
        const n = e === 'u' ? 4 : 8;
        const hex = body.slice(i, i + n);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== n) {
          throw new PPExpressionError(`incomplete universal character name \\${e}${hex}`, t.range);
        }
        i += n;
        pushChar(chars, parseInt(hex, 16), prefix);
        continue;
      }
      default:
        if (e >= '0' && e <= '7') {
          let v = e.charCodeAt(0) - 48;
          for (let k = 0; k < 2 && i < body.length && body[i] >= '0' && body[i] <= '7'; k++) v = v * 8 + body.charCodeAt(i++) - 48;
          chars.push(v);
          continue;
        }
        c = e === undefined ? 92 : e.charCodeAt(0); // \\ \' \" \? and unknown escapes
    }
    chars.push(c);
  }
  if (chars.length === 0) throw new PPExpressionError('empty character constant', t.range);
  if (prefix === 'L' || prefix === 'U' || prefix === 'u') {
    const width = prefix === 'u' ? 16 : 32;
    const last = BigInt(chars[chars.length - 1]) & ((1n << BigInt(width)) - 1n);
    if (prefix === 'L') return { v: BigInt.asIntN(32, last), u: false };
    return { v: last, u: true };
  }
  if (chars.length === 1) return { v: BigInt.asIntN(8, BigInt(chars[0] & 0xff)), u: false };
  let v = 0n;
  for (const c of chars) v = (v << 8n) | BigInt(c & 0xff);
  return { v: BigInt.asIntN(32, v), u: false };
}

function pushChar(chars: number[], cp: number, prefix: string): void {
  if (prefix === 'L' || prefix === 'U' || prefix === 'u' || cp < 0x80) {
    chars.push(cp);
    return;
  }
  // Narrow literals hold the UTF-8 encoding.
  for (const b of Buffer.from(String.fromCodePoint(cp), 'utf8')) chars.push(b);
}
