// Source locations shared by every stage of the engine. Positions are 0-based and count
// UTF-16 code units, like LSP, so the server can pass them through unchanged; `offset` is the
// index into the file's text, which is what edit-producing code (fixes, formatting) needs.

export interface Position {
  line: number;
  character: number;
  offset: number;
}

/** A span in one file. `file` is the path the caller gave (or an include path we resolved). */
export interface Range {
  file: string;
  start: Position;
  end: Position;
}

export function makeRange(file: string, start: Position, end: Position): Range {
  return { file, start, end };
}

/** The range from the start of `a` to the end of `b`; `a` wins when they lie in different files. */
export function spanRanges(a: Range, b: Range): Range {
  if (a.file !== b.file || b.end.offset < a.start.offset) return a;
  return { file: a.file, start: a.start, end: b.end };
}

export function containsOffset(r: Range, offset: number): boolean {
  return r.start.offset <= offset && offset <= r.end.offset;
}

/** `file:line:col` with 1-based line and column, the form compilers and editors print. */
export function formatLocation(r: Range): string {
  return `${r.file}:${r.start.line + 1}:${r.start.character + 1}`;
}
