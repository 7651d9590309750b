// Preprocessing tokens. A token's range is where a user sees it: its own spelling for tokens
// written in the file (macro arguments included), the macro invocation for tokens that come
// from a macro body. `expansion` then says which macro produced it and where that macro's body is.
import type { Range } from './source';

export type TokenKind = 'ident' | 'number' | 'string' | 'char' | 'punct' | 'other' | 'eof';

export interface MacroExpansion {
  macro: string;
  /** The spelling of the token inside the `#define`. */
  definedAt: Range;
  /** The expansion this one happened inside, for macros used in macro bodies. */
  parent?: MacroExpansion;
}

export interface Token {
  kind: TokenKind;
  text: string;
  range: Range;
  /** Whitespace or a comment came before it on the same line (matters for `#x` and output). */
  spaceBefore: boolean;
  /** First token on its line (directives start here). */
  lineStart: boolean;
  expansion?: MacroExpansion;
  /** Lexical problem found while scanning (unterminated literal, stray character). Reported only
   *  if the token survives preprocessing, so text in `#if 0` blocks stays quiet, as in nvcc. */
  problem?: { code: 'unterminated-literal' | 'stray-character'; message: string };
}

export function isIdent(t: Token, text?: string): boolean {
  return t.kind === 'ident' && (text === undefined || t.text === text);
}

export function isPunct(t: Token, text: string): boolean {
  return t.kind === 'punct' && t.text === text;
}

/** The outermost macro that produced `t`, for messages like "in expansion of macro 'CHECK'". */
export function outermostMacro(t: Token): string | undefined {
  let e = t.expansion;
  if (!e) return undefined;
  while (e.parent) e = e.parent;
  return e.macro;
}

/** " (in expansion of macro 'X')" for a token produced by a macro, else "". */
export function macroNote(t: Token): string {
  const m = outermostMacro(t);
  return m ? ` (in expansion of macro '${m}')` : '';
}
