// The lexer turns one file's text into preprocessing tokens with exact original positions.
// Backslash-newline splices are removed before scanning (as translation phase 2 says) and a
// small table maps spliced offsets back to the original text, so `line`/`character` always
// point at what the user wrote. Positions are computed incrementally as the scan advances (no
// per-token search), and files without splices pay nothing for the mapping.
import type { Position, Range } from './source';
import type { Token, TokenKind } from './token';

export interface LexResult {
  tokens: Token[];
  /** Problems that are not tied to one token (an unterminated block comment). */
  problems: { code: 'unterminated-comment'; message: string; range: Range }[];
}

// Punctuators: <<< >>> ... <<= >>= ->* -> ++ -- << >> <= >= == != && || += -= *= /= %= &= ^= |=
// ## :: .* and the single characters { } [ ] ( ) ; : , . ? ~ ! + - * / % ^ & | = < > #.
// `<<<` and `>>>` are CUDA's kernel launch brackets. punctLength matches them greedily.
/** Length of the punctuator starting at i (first char code c), or 0. Longest match. */
function punctLength(text: string, i: number, c: number): number {
  const d = text.charCodeAt(i + 1);
  switch (c) {
    case 123: case 125: case 91: case 93: case 40: case 41: case 59: case 44: case 63: case 126:
      return 1; // { } [ ] ( ) ; , ? ~
    case 60: // <
      if (d === 60) return text.charCodeAt(i + 2) === 60 || text.charCodeAt(i + 2) === 61 ? 3 : 2;
      return d === 61 ? 2 : 1;
    case 62: // >
      if (d === 62) return text.charCodeAt(i + 2) === 62 || text.charCodeAt(i + 2) === 61 ? 3 : 2;
      return d === 61 ? 2 : 1;
    case 46: // .
      if (d === 46 && text.charCodeAt(i + 2) === 46) return 3;
      return d === 42 ? 2 : 1;
    case 45: // -
      if (d === 62) return text.charCodeAt(i + 2) === 42 ? 3 : 2;
      return d === 45 || d === 61 ? 2 : 1;
    case 43: // +
      return d === 43 || d === 61 ? 2 : 1;
    case 38: // &
      return d === 38 || d === 61 ? 2 : 1;
    case 124: // |
      return d === 124 || d === 61 ? 2 : 1;
    case 61: case 33: case 42: case 47: case 37: case 94: // = ! * / % ^
      return d === 61 ? 2 : 1;
    case 35: // #
      return d === 35 ? 2 : 1;
    case 58: // :
      return d === 58 ? 2 : 1;
    default:
      return 0;
  }
}

function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36 || c > 127;
}
function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57);
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Removes backslash-newline pairs. `points[k]` is the offset in the spliced text where the
 *  k-th removal happened and `removed[k]` the number of characters removed up to and including
 *  it, so positions can be mapped back to the original text. */
/**
 * Where the line that `i` is on ends: the next LF, or a CR that no LF follows (old Mac files);
 * the text's length when it does not. A CRLF ends at its CR, and the LF is the new line.
 */
function lineEnd(text: string, i: number): number {
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i;
  }
  return text.length;
}

/** Whether the character at `i` starts a new line: an LF, or a CR without an LF after it. */
function isNewline(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10);
}

function splice(text: string): { text: string; points: number[]; removed: number[] } {
  const points: number[] = [];
  const removedBefore: number[] = [];
  if (text.indexOf('\\') < 0) return { text, points, removed: removedBefore };
  let out = '';
  let last = 0;
  let removed = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) !== 92) continue;
    // The backslash ends its line: LF, CRLF or a lone CR.
    let j = i + 1;
    if (text.charCodeAt(j) === 13) {
      if (text.charCodeAt(j + 1) === 10) j++;
    } else if (text.charCodeAt(j) !== 10) continue;
    out += text.slice(last, i);
    removed += j + 1 - i;
    last = j + 1;
    points.push(out.length);
    removedBefore.push(removed);
    i = j;
  }
  return { text: removed === 0 ? text : out + text.slice(last), points, removed: removedBefore };
}

export function lex(original: string, file: string): LexResult {
  const spliced = splice(original);
  const text = spliced.text;
  const splicePoints = spliced.points;
  const spliceRemoved = spliced.removed;
  const tokens: Token[] = [];
  const problems: LexResult['problems'] = [];
  const n = text.length;
  let i = 0;
  let lineStart = true;
  let spaceBefore = false;

  // Positions are computed incrementally, as tokens arrive in order: `line` and `lineBegin`
  // (original coordinates) follow every newline, including those removed by splices, which are
  // applied when the scan passes their splice point.
  let line = 0;
  let lineBegin = 0;
  let removed = 0;
  let nextSplice = 0;
  /** Applies the splices at spliced offsets < s (strict: a token ending at a splice keeps its
   *  end before the backslash) or <= s. */
  const passSplices = (s: number, strict: boolean): void => {
    while (nextSplice < splicePoints.length) {
      const p = splicePoints[nextSplice];
      if (strict ? p >= s : p > s) break;
      removed = spliceRemoved[nextSplice++];
      line++;
      lineBegin = p + removed;
    }
  };
  const position = (s: number, strict: boolean): Position => {
    if (nextSplice < splicePoints.length) passSplices(s, strict);
    const offset = s + removed;
    return { line, character: offset - lineBegin, offset };
  };
  /** A newline character at spliced offset s. */
  const newline = (s: number): void => {
    if (nextSplice < splicePoints.length) passSplices(s, false);
    line++;
    lineBegin = s + removed + 1;
  };
  const rangeOf = (start: number, end: number): Range => {
    const startPos = position(start, false);
    return { file, start: startPos, end: position(end, true) };
  };
  const push = (kind: TokenKind, start: number, end: number, problem?: Token['problem']): void => {
    const tok: Token = { kind, text: text.slice(start, end), range: rangeOf(start, end), spaceBefore, lineStart };
    if (problem) tok.problem = problem;
    tokens.push(tok);
    lineStart = false;
    spaceBefore = false;
  };

  while (i < n) {
    const c = text.charCodeAt(i);
    // Newlines end directives, so they are remembered as `lineStart` on the next token.
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      newline(i);
      i++;
      lineStart = true;
      spaceBefore = false;
      continue;
    }
    if (c === 32 || c === 9 || c === 13 || c === 12 || c === 11) {
      i++;
      spaceBefore = true;
      continue;
    }
    if (c === 47 /* / */) {
      const d = text.charCodeAt(i + 1);
      if (d === 47) {
        i = lineEnd(text, i);
        spaceBefore = true;
        continue;
      }
      if (d === 42) {
        const close = text.indexOf('*/', i + 2);
        if (close < 0) {
          problems.push({ code: 'unterminated-comment', message: 'unterminated /* comment', range: rangeOf(i, i + 2) });
          for (let k = i + 2; k < n; k++) if (isNewline(text, k)) newline(k);
          i = n;
        } else {
          for (let k = i + 2; k < close; k++) if (isNewline(text, k)) newline(k);
          i = close + 2;
        }
        spaceBefore = true;
        continue;
      }
    }
    const start = i;
    if (isIdentStart(c)) {
      i++;
      while (i < n && isIdentPart(text.charCodeAt(i))) i++;
      // Encoding prefixes of string and character literals: u8"", u"", U"", L"", L''.
      const q = text.charCodeAt(i);
      const word = text.slice(start, i);
      if ((q === 34 || q === 39) && (word === 'u8' || word === 'u' || word === 'U' || word === 'L')) {
        const open = i;
        i = scanQuoted(text, i, q);
        push(q === 34 ? 'string' : 'char', start, i, quotedProblem(text, open, i, q));
        continue;
      }
      push('ident', start, i);
      continue;
    }
    if (isDigit(c) || (c === 46 && isDigit(text.charCodeAt(i + 1)))) {
      // pp-number: digits, letters, '.', digit separators and signed exponents.
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if ((d === 43 || d === 45) && /[eEpP]/.test(text[i - 1])) i++;
        else if (isIdentPart(d) || d === 46) i++;
        else if (d === 39 && isIdentPart(text.charCodeAt(i + 1))) i += 2;
        else break;
      }
      push('number', start, i);
      continue;
    }
    if (c === 34 || c === 39) {
      i = scanQuoted(text, i, c);
      push(c === 34 ? 'string' : 'char', start, i, quotedProblem(text, start, i, c));
      continue;
    }
    const plen = punctLength(text, i, c);
    if (plen > 0) {
      i += plen;
      push('punct', start, i);
      continue;
    }
    i++;
    push('other', start, i, { code: 'stray-character', message: `stray '${text[start]}' in program` });
  }
  const eof: Token = { kind: 'eof', text: '', range: rangeOf(n, n), spaceBefore, lineStart: true };
  tokens.push(eof);
  return { tokens, problems };
}

/** Scans a quoted literal starting at the quote; returns the offset after the closing quote, or
 *  the offset of the newline (or end of text) where an unterminated literal stops. */
function scanQuoted(text: string, i: number, quote: number): number {
  i++;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === quote) return i + 1;
    if (c === 10 || c === 13) return i;
    if (c === 92) i++;
    i++;
  }
  return text.length;
}

function quotedProblem(text: string, open: number, end: number, quote: number): Token['problem'] {
  if (end - 1 > open && text.charCodeAt(end - 1) === quote) {
    // Closed only if the last character is an unescaped quote other than the opening one.
    let j = end - 2;
    let backslashes = 0;
    while (j >= 0 && text.charCodeAt(j) === 92) {
      backslashes++;
      j--;
    }
    if (backslashes % 2 === 0) return undefined;
  }
  const message = quote === 34 ? 'missing terminating " character' : "missing terminating ' character";
  return { code: 'unterminated-literal', message };
}
