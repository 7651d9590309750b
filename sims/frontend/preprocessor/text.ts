// Spelling helpers shared by the preprocessor: `#` stringification, checking whether two
// adjacent spellings would lex as something else (to insert a space when printing), and the
// `cpp -P`-like printer.
import type { Token } from '../token';

/** `#arg`: spellings joined by one space where there was whitespace (newlines count), with `"`
 *  and `\` escaped inside string and character literals, as C11 6.10.3.2 says. */
export function stringifyTokens(tokens: readonly Token[]): string {
  let s = '"';
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (i > 0 && (t.spaceBefore || t.lineStart)) s += ' ';
    if (t.kind === 'string' || t.kind === 'char') {
      const x = t.text;
      for (let k = 0; k < x.length; k++) {
        const c = x[k];
        if (c === '"' || c === '\\') s += '\\';
        s += c;
      }
    } else s += t.text;
  }
  // A trailing odd backslash would escape the closing quote; gcc drops it.
  let n = 0;
  for (let k = s.length - 1; k > 0 && s.charCodeAt(k) === 92; k--) n++;
  if (n % 2 === 1) s = s.slice(0, -1);
  return s + '"';
}

/** Inverse of a string literal's escaping for `_Pragma("...")`: `\"` → `"`, `\\` → `\`. */
export function destringize(text: string): string {
  const q = text.indexOf('"');
  const body = text.slice(q + 1, text.length - 1);
  return body.replace(/\\(["\\])/g, '$1');
}

// Every punctuator the lexer knows; used to decide if `a` followed by `b` would merge.
const PUNCTS = [
  '<<<', '>>>', '...', '<<=', '>>=', '->*', '->', '++', '--', '<<', '>>', '<=', '>=', '==', '!=', '&&',
  '||', '+=', '-=', '*=', '/=', '%=', '&=', '^=', '|=', '##', '::', '.*',
];
const MERGES = new Set<string>();
for (const p of PUNCTS) for (let k = 1; k < p.length; k++) MERGES.add(p.slice(0, k) + '\u0000' + p[k]);

function isIdentChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36 || c > 127 || (c >= 48 && c <= 57);
}

/** True when printing `b` right after `a` with no space would lex differently. */
export function wouldPaste(a: Token, b: Token): boolean {
  const bt = b.text;
  if (bt.length === 0) return false;
  const b0 = bt.charCodeAt(0);
  switch (a.kind) {
    case 'ident':
      return isIdentChar(b0) || ((b.kind === 'string' || b.kind === 'char') && /^(u8|u|U|L)$/.test(a.text));
    case 'number':
      return isIdentChar(b0) || b0 === 46 || ((b0 === 43 || b0 === 45) && /[eEpP]$/.test(a.text));
    case 'punct': {
      const at = a.text;
      if (at === '/' && (b0 === 47 || b0 === 42)) return true;
      if (at === '.' && b0 >= 48 && b0 <= 57) return true;
      return MERGES.has(at + '\u0000' + bt[0]);
    }
    default:
      return false;
  }
}

/** Spellings with one space where `spaceBefore` (or where two tokens would otherwise merge) and a
 *  newline where `lineStart`, like `cpp -P` output. The eof token is ignored. */
export function tokensToText(tokens: readonly Token[]): string {
  const parts: string[] = [];
  let prev: Token | undefined;
  for (const t of tokens) {
    if (t.kind === 'eof') continue;
    if (prev !== undefined) {
      if (t.lineStart) parts.push('\n');
      else if (t.spaceBefore || wouldPaste(prev, t)) parts.push(' ');
    }
    parts.push(t.text);
    prev = t;
  }
  if (prev !== undefined) parts.push('\n');
  return parts.join('');
}
