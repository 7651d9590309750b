// nvcc passes inline PTX through as written, so programs name PTX special registers with a
// single '%' (`asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t))`); clang reads '%' in an asm
// string as an operand reference and refuses `%globaltimer`. Before clang sees a file, such a
// register name inside an asm statement's strings is written as clang wants it (`%%globaltimer`),
// which is what it meant. Operand references (`%0`, `%l1`, `%[name]`), `%%` and `%=` stay as
// they are. The text grows by one character per name, after it on its line.

const ASM = /\b(?:asm|__asm__|__asm)\b(?:\s+(?:volatile|__volatile__|goto|inline))*\s*\(/g;

/** The text with single-'%' register names in inline asm strings doubled; the same string when there are none. */
export function nvccInlineAsm(text: string): string {
  if (!text.includes('asm') || !text.includes('%')) return text;
  let out = '';
  let last = 0;
  ASM.lastIndex = 0;
  for (let m = ASM.exec(text); m; m = ASM.exec(text)) {
    const end = statementEnd(text, m.index + m[0].length);
    const body = text.slice(m.index + m[0].length, end);
    const fixed = body.replace(/"(?:[^"\\\n]|\\.)*"/g, (s) => s.replace(/%(%|[A-Za-z_][A-Za-z0-9_.]*)/g, (all, name: string) => (name === '%' || /^[A-Za-z]?\d/.test(name) || name.length < 2 ? all : `%${all}`)));
    if (fixed !== body) {
      out += text.slice(last, m.index + m[0].length) + fixed;
      last = end;
    }
    ASM.lastIndex = end;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** Where the parenthesised asm statement that starts at `from` (just after its '(') ends. */
function statementEnd(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"' && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return text.length;
}
