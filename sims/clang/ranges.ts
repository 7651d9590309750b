// Source ranges for what clang reports by line and column (!dbg locations, diagnostics): the
// hand-written lexer turns the start into the whole token there, which is what a squiggle, a
// related-information link and a fix's edit need. Clang counts columns in bytes; ranges count
// UTF-16 code units (LSP), so lines with non-ASCII text are converted.
import { lex } from '../frontend/lexer';
import type { Position, Range } from '../frontend/source';
import type { Token } from '../frontend/token';

interface FileIndex {
  text: string;
  lineStarts: number[];
  /** Tokens in text order (the lexer returns them so). */
  tokens: Token[];
}

export class SourceRanges {
  private readonly files = new Map<string, FileIndex | null>();
  /** One Range object per place: findings of several runs are merged by range identity. */
  private readonly made = new Map<string, Range>();

  constructor(private readonly readFile: (path: string) => string | undefined) {}

  /**
   * The token at 1-based `line` and byte `column` of `file`, or an empty range there when the
   * file cannot be read or no token starts at that place (column 0: the line's first token).
   */
  rangeAt(file: string, line: number, column: number): Range {
    const key = `${line}:${column}:${file}`;
    let r = this.made.get(key);
    if (!r) {
      r = this.compute(file, line, column);
      this.made.set(key, r);
    }
    return r;
  }

  private compute(file: string, line: number, column: number): Range {
    const index = this.index(file);
    if (!index) return empty(file, Math.max(0, line - 1), Math.max(0, column - 1), 0);
    const l = Math.min(Math.max(0, line - 1), index.lineStarts.length - 1);
    const lineStart = index.lineStarts[l];
    const lineEnd = l + 1 < index.lineStarts.length ? index.lineStarts[l + 1] : index.text.length;
    const character = column > 0 ? byteColumnToUtf16(index.text.slice(lineStart, lineEnd), column - 1) : firstNonBlank(index.text, lineStart, lineEnd);
    const offset = lineStart + character;
    const token = tokenAt(index.tokens, offset);
    if (token) return { file, start: token.range.start, end: token.range.end };
    return empty(file, l, character, offset);
  }

  /** The range of a !dbg location, or the start of `fallback` for code clang gave no place. */
  rangeOfLocation(loc: { file: string; line: number; column: number } | undefined, fallback: string): Range {
    return loc ? this.rangeAt(loc.file, loc.line, loc.column) : this.rangeAt(fallback, 1, 1);
  }

  private index(file: string): FileIndex | undefined {
    let index = this.files.get(file);
    if (index === undefined) {
      const text = this.readFile(file);
      index = text === undefined ? null : { text, lineStarts: lineStartsOf(text), tokens: lex(text, file).tokens };
      this.files.set(file, index);
    }
    return index ?? undefined;
  }
}

function empty(file: string, line: number, character: number, offset: number): Range {
  const p: Position = { line, character, offset };
  return { file, start: p, end: p };
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function firstNonBlank(text: string, from: number, to: number): number {
  let i = from;
  while (i < to && (text[i] === ' ' || text[i] === '\t')) i++;
  return i - from;
}

/** The UTF-16 index of byte `bytes` of a line (UTF-8). */
function byteColumnToUtf16(line: string, bytes: number): number {
  let b = 0;
  for (let i = 0; i < line.length; i++) {
    if (b >= bytes) return i;
    const c = line.charCodeAt(i);
    if (c < 0x80) b += 1;
    else if (c < 0x800) b += 2;
    else if (c >= 0xd800 && c < 0xdc00) {
      b += 4;
      i++;
    } else b += 3;
  }
  return line.length;
}

/** The token that starts at `offset`, or else the one that covers it. */
function tokenAt(tokens: Token[], offset: number): Token | undefined {
  let lo = 0;
  let hi = tokens.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (tokens[mid].range.start.offset <= offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (found < 0) return undefined;
  const t = tokens[found];
  return t.kind !== 'eof' && offset < t.range.end.offset + (t.range.start.offset === offset ? 1 : 0) ? t : undefined;
}
