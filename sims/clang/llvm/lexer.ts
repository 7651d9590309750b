// Tokens of LLVM's textual IR, read over character codes: one current token at a time, held in
// the lexer's fields rather than in objects, because a host module with libc++ is megabytes of
// text and allocation per token would dominate reading it.

/** Malformed IR: where (1-based line and column of the IR text) and what. */
export class LlvmParseError extends Error {
  constructor(
    readonly fileName: string,
    readonly line: number,
    readonly column: number,
    readonly detail: string,
  ) {
    super(`${fileName}:${line}:${column}: ${detail}`);
    this.name = 'LlvmParseError';
  }
}

export const T_EOF: number = 0;
/** Keyword, type name, enum value: `define`, `i32`, `DW_TAG_member`, `DIFlagPrototyped`. */
export const T_IDENT: number = 1;
/** `name:` or `12:` or `"quoted":` (text without the colon); also metadata field names. */
export const T_LABEL: number = 2;
/** `%name`, `%12`, `%"quoted"` (text without the sigil). */
export const T_LOCAL: number = 3;
/** `@name`, `@12`, `@"quoted"`. */
export const T_GLOBAL: number = 4;
/** `$comdat`. */
export const T_COMDAT: number = 5;
/** `!name` (`!dbg`, `!DILocation`, `!llvm.module.flags`). */
export const T_META_NAME: number = 6;
/** `!12` (text is the number). */
export const T_META_ID: number = 7;
/** `#12`: an attribute group. */
export const T_ATTR_GROUP: number = 8;
/** `#dbg_value` and other debug records. */
export const T_HASH_NAME: number = 9;
/** Decimal integer (text as written, sign included). */
export const T_INT: number = 10;
/** Decimal floating point literal. */
export const T_FLOAT: number = 11;
/** `0x…`, `0xK…`, `0xL…`, `0xM…`, `0xH…`, `0xR…` floating point bits (text as written). */
export const T_HEX_FLOAT: number = 12;
/** `u0x…`/`s0x…` hexadecimal integer (text as written). */
export const T_HEX_INT: number = 13;
/** `"…"` (text decoded, escapes resolved as Latin-1 bytes then UTF-8). */
export const T_STRING: number = 14;
/** `c"…"` byte string (raw source range kept; bytes decoded on demand). */
export const T_CSTRING: number = 15;
export const T_EQUAL: number = 16;
export const T_COMMA: number = 17;
export const T_LPAREN: number = 18;
export const T_RPAREN: number = 19;
export const T_LBRACKET: number = 20;
export const T_RBRACKET: number = 21;
export const T_LBRACE: number = 22;
export const T_RBRACE: number = 23;
export const T_LESS: number = 24;
export const T_GREATER: number = 25;
export const T_STAR: number = 26;
/** `!` alone: before `{` or `"…"`. */
export const T_EXCLAIM: number = 27;
export const T_BAR: number = 28;
export const T_ELLIPSIS: number = 29;
export const T_COLON: number = 30;
/** `^12`: summary entries (skipped). */
export const T_CARET: number = 31;

const TOKEN_NAMES = [
  'end of file', 'identifier', 'label', 'local name', 'global name', 'comdat name', 'metadata name',
  'metadata id', 'attribute group', 'debug record', 'integer', 'number', 'number', 'integer',
  'string', 'string', "'='", "','", "'('", "')'", "'['", "']'", "'{'", "'}'", "'<'", "'>'", "'*'",
  "'!'", "'|'", "'...'", "':'", "'^'",
];

export function tokenName(kind: number): string {
  return TOKEN_NAMES[kind] ?? 'token';
}

const C_TAB = 9, C_LF = 10, C_CR = 13, C_SPACE = 32, C_BANG = 33, C_QUOTE = 34, C_HASH = 35,
  C_DOLLAR = 36, C_PERCENT = 37, C_LPAREN = 40, C_RPAREN = 41, C_STAR = 42, C_PLUS = 43,
  C_COMMA = 44, C_MINUS = 45, C_DOT = 46, C_0 = 48, C_9 = 57, C_COLON = 58, C_SEMI = 59,
  C_LESS = 60, C_EQUAL = 61, C_GREATER = 62, C_AT = 64, C_LBRACKET = 91, C_BACKSLASH = 92,
  C_RBRACKET = 93, C_CARET = 94, C_UNDERSCORE = 95, C_LBRACE = 123, C_BAR = 124, C_RBRACE = 125;

/** Characters of identifiers after the first: `[-a-zA-Z$._0-9]`. */
const NAME_CHAR = new Uint8Array(128);
/** Characters that may start a bare identifier: `[a-zA-Z$._]`. */
const NAME_START = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  const digit = c >= C_0 && c <= C_9;
  if (letter || c === C_DOLLAR || c === C_DOT || c === C_UNDERSCORE) NAME_START[c] = 1;
  if (letter || digit || c === C_DOLLAR || c === C_DOT || c === C_UNDERSCORE || c === C_MINUS) NAME_CHAR[c] = 1;
}

function isDigit(c: number): boolean {
  return c >= C_0 && c <= C_9;
}

function isHexDigit(c: number): boolean {
  return (c >= C_0 && c <= C_9) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

function hexValue(c: number): number {
  if (c <= C_9) return c - C_0;
  if (c >= 97) return c - 87;
  return c - 55;
}

export class Lexer {
  /** Kind of the current token (one of the T_* constants). */
  kind = T_EOF;
  /** Offset of the current token's first character. */
  start = 0;
  /** Offset just past the current token. */
  end = 0;
  /** Text of the current token: a name without sigil, a decoded string, a literal as written. */
  text = '';
  /** Offset just past the previous token. */
  prevEnd = 0;
  /** For T_INT and T_META_ID: the value (exact below 2^53). */
  num = 0;
  /** For T_STRING and T_CSTRING: the raw contents (between the quotes) in the source. */
  rawStart = 0;
  rawEnd = 0;
  /** Kind and text of the token after the current one, set by peek(). */
  peekKind = T_EOF;
  peekText = '';
  private pos = 0;

  constructor(
    readonly src: string,
    readonly fileName: string,
    /** Where to start reading (the first token is read at once). */
    start = 0,
    /** Names seen so far, shared by the lexers of one module. */
    private readonly names = new NameTable(),
  ) {
    // A byte order mark before the first token is not text.
    this.pos = start === 0 && src.charCodeAt(0) === 0xfeff ? 1 : start;
    this.next();
  }

  /** A lexer over the same text from `offset`, sharing this one's names. */
  at(offset: number): Lexer {
    return new Lexer(this.src, this.fileName, offset, this.names);
  }

  /**
   * Skips, without making tokens, from the current token to the end of its line, or further
   * while brackets or parentheses stay open: one metadata definition as printed. Strings are
   * stepped over whole, so brackets inside them do not count.
   */
  skipLine(): void {
    const src = this.src;
    const n = src.length;
    let p = this.start;
    let depth = 0;
    while (p < n) {
      const c = src.charCodeAt(p);
      if (c === C_QUOTE) {
        const close = src.indexOf('"', p + 1);
        if (close < 0) throw this.error('unterminated string', p);
        p = close + 1;
        continue;
      }
      if (c === C_LPAREN || c === C_LBRACE || c === C_LBRACKET) depth++;
      else if (c === C_RPAREN || c === C_RBRACE || c === C_RBRACKET) depth--;
      else if ((c === C_LF || c === C_SEMI) && depth <= 0) break;
      p++;
    }
    if (depth > 0) throw this.error('unbalanced brackets in this metadata definition');
    this.pos = p;
    this.next();
  }

  /** An error at the current token (or at `offset`). */
  error(detail: string, offset = this.start): LlvmParseError {
    const { line, column } = this.lineColumn(offset);
    return new LlvmParseError(this.fileName, line, column, detail);
  }

  lineColumn(offset: number): { line: number; column: number } {
    const src = this.src;
    let line = 1;
    let lineStart = 0;
    const stop = Math.min(offset, src.length);
    for (let i = 0; i < stop; i++) {
      if (src.charCodeAt(i) === C_LF) {
        line++;
        lineStart = i + 1;
      }
    }
    return { line, column: stop - lineStart + 1 };
  }

  /** Looks at the token after the current one without moving: sets peekKind and peekText. */
  peek(): number {
    const { kind, start, end, prevEnd, text, num, rawStart, rawEnd, pos } = this;
    this.next();
    this.peekKind = this.kind;
    this.peekText = this.text;
    this.kind = kind;
    this.start = start;
    this.end = end;
    this.prevEnd = prevEnd;
    this.text = text;
    this.num = num;
    this.rawStart = rawStart;
    this.rawEnd = rawEnd;
    this.pos = pos;
    return this.peekKind;
  }

  /** The bytes of the current T_STRING/T_CSTRING token, escapes resolved. */
  bytes(): Uint8Array {
    return decodeBytes(this.src, this.rawStart, this.rawEnd);
  }

  next(): void {
    const src = this.src;
    const n = src.length;
    this.prevEnd = this.end;
    let p = this.pos;
    // Whitespace and `;` comments.
    for (;;) {
      if (p >= n) {
        this.kind = T_EOF;
        this.start = this.end = this.pos = n;
        return;
      }
      const c = src.charCodeAt(p);
      if (c === C_SPACE || c === C_LF || c === C_TAB || c === C_CR) {
        p++;
      } else if (c === C_SEMI) {
        while (p < n && src.charCodeAt(p) !== C_LF) p++;
      } else {
        break;
      }
    }
    this.start = p;
    const c = src.charCodeAt(p);
    switch (c) {
      case C_EQUAL: return this.punct(T_EQUAL, p + 1);
      case C_COMMA: return this.punct(T_COMMA, p + 1);
      case C_LPAREN: return this.punct(T_LPAREN, p + 1);
      case C_RPAREN: return this.punct(T_RPAREN, p + 1);
      case C_LBRACKET: return this.punct(T_LBRACKET, p + 1);
      case C_RBRACKET: return this.punct(T_RBRACKET, p + 1);
      case C_LBRACE: return this.punct(T_LBRACE, p + 1);
      case C_RBRACE: return this.punct(T_RBRACE, p + 1);
      case C_LESS: return this.punct(T_LESS, p + 1);
      case C_GREATER: return this.punct(T_GREATER, p + 1);
      case C_STAR: return this.punct(T_STAR, p + 1);
      case C_BAR: return this.punct(T_BAR, p + 1);
      case C_COLON: return this.punct(T_COLON, p + 1);
      case C_PERCENT: return this.sigilName(T_LOCAL, p);
      case C_AT: return this.sigilName(T_GLOBAL, p);
      case C_DOLLAR: {
        // `$name` is a comdat; a bare identifier may also start with `$` but never does in
        // printed IR outside comdat names.
        return this.sigilName(T_COMDAT, p);
      }
      case C_BANG: return this.exclaim(p);
      case C_HASH: return this.hash(p);
      case C_CARET: {
        let q = p + 1;
        while (q < n && isDigit(src.charCodeAt(q))) q++;
        this.text = src.slice(p + 1, q);
        return this.punct(T_CARET, q);
      }
      case C_QUOTE: {
        this.string(p);
        if (src.charCodeAt(this.pos) === C_COLON) {
          this.kind = T_LABEL;
          this.pos++;
          this.end = this.pos;
        }
        return;
      }
      case C_DOT:
        if (src.charCodeAt(p + 1) === C_DOT && src.charCodeAt(p + 2) === C_DOT) return this.punct(T_ELLIPSIS, p + 3);
        return this.identifier(p);
      default:
        break;
    }
    if (isDigit(c) || c === C_MINUS || c === C_PLUS) return this.number(p);
    if (c < 128 && NAME_START[c]) return this.identifier(p);
    throw this.error(`unexpected character '${String.fromCharCode(c)}'`, p);
  }

  private punct(kind: number, end: number): void {
    this.kind = kind;
    this.end = this.pos = end;
  }

  /** `%name`, `%12`, `%"quoted"` and the same after `@` and `$`. */
  private sigilName(kind: number, p: number): void {
    const src = this.src;
    const q0 = p + 1;
    const c = src.charCodeAt(q0);
    if (c === C_QUOTE) {
      this.string(q0);
      this.kind = kind;
      this.start = p;
      return;
    }
    let q = q0;
    const n = src.length;
    let h = kind;
    while (q < n) {
      const d = src.charCodeAt(q);
      if (d >= 128 || !NAME_CHAR[d]) break;
      h = (Math.imul(h, 31) + d) | 0;
      q++;
    }
    if (q === q0) throw this.error(`expected a name after '${String.fromCharCode(src.charCodeAt(p))}'`, p);
    this.kind = kind;
    this.text = this.names.get(src, q0, q, h);
    this.end = this.pos = q;
  }

  private exclaim(p: number): void {
    const src = this.src;
    const n = src.length;
    const c = src.charCodeAt(p + 1);
    if (isDigit(c)) {
      let q = p + 1;
      let v = 0;
      while (q < n) {
        const d = src.charCodeAt(q);
        if (!isDigit(d)) break;
        v = v * 10 + (d - C_0);
        q++;
      }
      this.kind = T_META_ID;
      this.num = v;
      this.text = '';
      this.end = this.pos = q;
      return;
    }
    if ((c < 128 && NAME_START[c]) || c === C_MINUS || c === C_BACKSLASH) {
      let q = p + 1;
      let h = C_BANG;
      let escaped = false;
      while (q < n) {
        const d = src.charCodeAt(q);
        if (d === C_BACKSLASH && isHexDigit(src.charCodeAt(q + 1)) && isHexDigit(src.charCodeAt(q + 2))) {
          escaped = true;
          q += 3;
          continue;
        }
        if (d >= 128 || !NAME_CHAR[d]) break;
        h = (Math.imul(h, 31) + d) | 0;
        q++;
      }
      this.kind = T_META_NAME;
      this.text = escaped ? decodeString(src, p + 1, q) : this.names.get(src, p + 1, q, h);
      this.end = this.pos = q;
      return;
    }
    this.punct(T_EXCLAIM, p + 1);
  }

  private hash(p: number): void {
    const src = this.src;
    const n = src.length;
    let q = p + 1;
    if (isDigit(src.charCodeAt(q))) {
      while (q < n && isDigit(src.charCodeAt(q))) q++;
      this.kind = T_ATTR_GROUP;
    } else {
      while (q < n) {
        const d = src.charCodeAt(q);
        if (d >= 128 || !NAME_CHAR[d]) break;
        q++;
      }
      if (q === p + 1) throw this.error("unexpected character '#'", p);
      this.kind = T_HASH_NAME;
    }
    this.text = src.slice(p + 1, q);
    this.end = this.pos = q;
  }

  /** `"…"` starting at the quote: sets text, rawStart/rawEnd, kind T_STRING, pos past it. */
  private string(p: number): void {
    const src = this.src;
    const close = src.indexOf('"', p + 1);
    if (close < 0) throw this.error('unterminated string', p);
    this.rawStart = p + 1;
    this.rawEnd = close;
    this.kind = T_STRING;
    this.text = decodeString(src, p + 1, close);
    this.end = this.pos = close + 1;
  }

  private identifier(p: number): void {
    const src = this.src;
    const n = src.length;
    const c0 = src.charCodeAt(p);
    // c"…" byte strings.
    if (c0 === 99 /* c */ && src.charCodeAt(p + 1) === C_QUOTE) {
      this.string(p + 1);
      this.kind = T_CSTRING;
      this.start = p;
      return;
    }
    // u0x… / s0x… hexadecimal integers.
    if ((c0 === 117 || c0 === 115) && src.charCodeAt(p + 1) === C_0 && src.charCodeAt(p + 2) === 120 &&
      isHexDigit(src.charCodeAt(p + 3))) {
      let q = p + 3;
      while (q < n && isHexDigit(src.charCodeAt(q))) q++;
      this.kind = T_HEX_INT;
      this.text = src.slice(p, q);
      this.end = this.pos = q;
      return;
    }
    let q = p + 1;
    let h = c0;
    while (q < n) {
      const d = src.charCodeAt(q);
      if (d >= 128 || !NAME_CHAR[d]) break;
      h = (Math.imul(h, 31) + d) | 0;
      q++;
    }
    this.text = this.names.get(src, p, q, h);
    if (src.charCodeAt(q) === C_COLON) {
      this.kind = T_LABEL;
      this.end = this.pos = q + 1;
      return;
    }
    this.kind = T_IDENT;
    this.end = this.pos = q;
  }

  private number(p: number): void {
    const src = this.src;
    const n = src.length;
    // A label made of name characters (`12:`, `-foo:`) wins over a number.
    let q = p;
    let h = 0;
    while (q < n) {
      const d = src.charCodeAt(q);
      if (d >= 128 || !NAME_CHAR[d]) break;
      h = (Math.imul(h, 31) + d) | 0;
      q++;
    }
    if (q > p && src.charCodeAt(q) === C_COLON && src.charCodeAt(p) !== C_PLUS) {
      this.kind = T_LABEL;
      this.text = this.names.get(src, p, q, h);
      this.end = this.pos = q + 1;
      return;
    }
    let r = p;
    const c0 = src.charCodeAt(r);
    if (c0 === C_MINUS || c0 === C_PLUS) r++;
    if (!isDigit(src.charCodeAt(r))) {
      throw this.error(`unexpected character '${String.fromCharCode(c0)}'`, p);
    }
    // 0x hexadecimal floating point bits, with an optional kind letter.
    if (src.charCodeAt(r) === C_0 && src.charCodeAt(r + 1) === 120 /* x */) {
      let h = r + 2;
      const k = src.charCodeAt(h);
      if (k === 75 || k === 76 || k === 77 || k === 72 || k === 82) h++; // K L M H R
      const digitsStart = h;
      while (h < n && isHexDigit(src.charCodeAt(h))) h++;
      if (h === digitsStart) throw this.error('expected hexadecimal digits', p);
      this.kind = T_HEX_FLOAT;
      this.text = src.slice(p, h);
      this.end = this.pos = h;
      return;
    }
    const digitsStart = r;
    let v = 0;
    while (r < n) {
      const d = src.charCodeAt(r);
      if (!isDigit(d)) break;
      v = v * 10 + (d - C_0);
      r++;
    }
    if (src.charCodeAt(r) !== C_DOT) {
      this.kind = T_INT;
      this.num = c0 === C_MINUS ? -v : v;
      // Short integers are interned: `0`, `1`, `4` make up most of them.
      this.text = r - digitsStart < 6 ? this.names.get(src, p, r, v * 2 + (c0 === C_MINUS ? 1 : 0)) : src.slice(p, r);
      this.end = this.pos = r;
      return;
    }
    r++;
    while (r < n && isDigit(src.charCodeAt(r))) r++;
    const e = src.charCodeAt(r);
    if (e === 101 || e === 69) {
      let s = r + 1;
      const sign = src.charCodeAt(s);
      if (sign === C_PLUS || sign === C_MINUS) s++;
      if (isDigit(src.charCodeAt(s))) {
        while (s < n && isDigit(src.charCodeAt(s))) s++;
        r = s;
      }
    }
    this.kind = T_FLOAT;
    this.text = src.slice(p, r);
    this.end = this.pos = r;
  }
}

/**
 * One string per distinct name: keywords, registers (`%0`, `%call`), globals. Reading them
 * through this table makes repeated names allocate nothing, and the parsed module holds one
 * copy of each name.
 */
export class NameTable {
  private keys: (string | undefined)[] = new Array<string | undefined>(1 << 12);
  private hashes = new Int32Array(1 << 12);
  private count = 0;

  /** The text of src[from, to) whose hash the caller computed (any function of the text). */
  get(src: string, from: number, to: number, hash: number): string {
    const keys = this.keys;
    const mask = keys.length - 1;
    const len = to - from;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const k = keys[i];
      if (k === undefined) {
        const s = src.slice(from, to);
        keys[i] = s;
        this.hashes[i] = hash;
        if (++this.count * 2 > keys.length) this.grow();
        return s;
      }
      if (this.hashes[i] === hash && k.length === len) {
        let j = 0;
        while (j < len && k.charCodeAt(j) === src.charCodeAt(from + j)) j++;
        if (j === len) return k;
      }
    }
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldHashes = this.hashes;
    const size = oldKeys.length * 2;
    this.keys = new Array<string | undefined>(size);
    this.hashes = new Int32Array(size);
    const mask = size - 1;
    for (let i = 0; i < oldKeys.length; i++) {
      const k = oldKeys[i];
      if (k === undefined) continue;
      let j = oldHashes[i] & mask;
      while (this.keys[j] !== undefined) j = (j + 1) & mask;
      this.keys[j] = k;
      this.hashes[j] = oldHashes[i];
    }
  }
}

/** Bytes of a quoted string's contents: `\XX` is a byte, `\\` a backslash, other text UTF-8. */
export function decodeBytes(src: string, from: number, to: number): Uint8Array {
  const out: number[] = [];
  for (let i = from; i < to; i++) {
    const c = src.charCodeAt(i);
    if (c === C_BACKSLASH) {
      const h1 = src.charCodeAt(i + 1);
      if (h1 === C_BACKSLASH) {
        out.push(C_BACKSLASH);
        i++;
        continue;
      }
      const h2 = src.charCodeAt(i + 2);
      if (i + 2 < to && isHexDigit(h1) && isHexDigit(h2)) {
        out.push(hexValue(h1) * 16 + hexValue(h2));
        i += 2;
        continue;
      }
      out.push(c);
    } else if (c < 128) {
      out.push(c);
    } else {
      // Raw non-ASCII text: its UTF-8 bytes (surrogate pairs kept together).
      let end = i + 1;
      if (c >= 0xd800 && c < 0xdc00 && end < to) end++;
      for (const b of new TextEncoder().encode(src.slice(i, end))) out.push(b);
      i = end - 1;
    }
  }
  return Uint8Array.from(out);
}

/** A quoted string's contents as text (names, metadata strings), escapes decoded as UTF-8. */
export function decodeString(src: string, from: number, to: number): string {
  for (let i = from; i < to; i++) {
    if (src.charCodeAt(i) === C_BACKSLASH) return new TextDecoder().decode(decodeBytes(src, from, to));
  }
  return src.slice(from, to);
}

/**
 * Every token kind in one object: importing modules copy the kinds into local constants, which
 * stay plain variable reads when the modules are compiled one by one (as CommonJS, where a named
 * import is a property getter).
 */
export const TOKENS = {
  T_EOF,
  T_IDENT,
  T_LABEL,
  T_LOCAL,
  T_GLOBAL,
  T_COMDAT,
  T_META_NAME,
  T_META_ID,
  T_ATTR_GROUP,
  T_HASH_NAME,
  T_INT,
  T_FLOAT,
  T_HEX_FLOAT,
  T_HEX_INT,
  T_STRING,
  T_CSTRING,
  T_EQUAL,
  T_COMMA,
  T_LPAREN,
  T_RPAREN,
  T_LBRACKET,
  T_RBRACKET,
  T_LBRACE,
  T_RBRACE,
  T_LESS,
  T_GREATER,
  T_STAR,
  T_EXCLAIM,
  T_BAR,
  T_ELLIPSIS,
  T_COLON,
  T_CARET,
};
