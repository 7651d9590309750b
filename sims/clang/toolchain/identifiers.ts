// The identifiers of C or C++ source text as the preprocessor would see them: comments, string
// and character literals (their encoding prefixes included) and numbers are not identifiers.

const LITERAL_PREFIXES = new Set(['L', 'u', 'U', 'u8', 'R', 'LR', 'uR', 'UR', 'u8R']);

function identifierStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function identifierPart(c: number): boolean {
  return identifierStart(c) || (c >= 48 && c <= 57);
}

/** Adds the identifiers of `text` to `into`. */
export function identifierTokens(text: string, into: Set<string>): Set<string> {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 47 && text.charCodeAt(i + 1) === 47) {
      // A line comment, continued by a backslash at the end of a line.
      while (i < n && !(text.charCodeAt(i) === 10 && text.charCodeAt(i - 1) !== 92)) i++;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === 34 || c === 39) {
      i = literalEnd(text, i);
    } else if (identifierStart(c)) {
      let j = i + 1;
      while (j < n && identifierPart(text.charCodeAt(j))) j++;
      const word = text.slice(i, j);
      const next = text.charCodeAt(j);
      if ((next === 34 || next === 39) && LITERAL_PREFIXES.has(word)) i = literalEnd(text, j);
      else {
        into.add(word);
        i = j;
      }
    } else if (c >= 48 && c <= 57) {
      // A preprocessing number: digits, letters, dots and signed exponents (1e-5f, 0x1p3).
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (identifierPart(d) || d === 46) j++;
        else if ((d === 43 || d === 45) && /[eEpP]/.test(text[j - 1])) j++;
        else break;
      }
      i = j;
    } else i++;
  }
  return into;
}

/** The index after the string or character literal that starts at `i` (a quote). */
function literalEnd(text: string, i: number): number {
  const quote = text.charCodeAt(i);
  let j = i + 1;
  while (j < text.length) {
    const d = text.charCodeAt(j);
    if (d === quote || d === 10) return j + 1;
    j += d === 92 ? 2 : 1;
  }
  return j;
}
