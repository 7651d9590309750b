// Readable names for mangled C++ symbols, as far as reports need them: a variable's name
// (`_ZN2ns4dataE` → `ns::data`, a function-local static `_ZZ1kPiE4tile` → `tile`). Anything this
// does not understand keeps its mangled name, which is still a correct, if ugly, name.

/** The name a program gives a variable, from its mangled symbol. */
export function variableName(symbol: string): string {
  if (!symbol.startsWith('_Z')) return symbol;
  let s = symbol.slice(2);
  if (s.startsWith('L')) s = s.slice(1);
  if (s.startsWith('Z')) return localEntityName(symbol) ?? symbol;
  if (s.startsWith('N')) return nestedName(s.slice(1)) ?? symbol;
  const one = sourceName(s, 0);
  return one && one.end === s.length ? one.name : symbol;
}

/** A function's name without its parameter types (`_ZN2ns3fooEi` → `ns::foo`). */
export function functionName(symbol: string): string {
  if (!symbol.startsWith('_Z')) return symbol;
  let s = symbol.slice(2);
  if (s.startsWith('L')) s = s.slice(1);
  if (s.startsWith('N')) return nestedName(s.slice(1)) ?? symbol;
  const one = sourceName(s, 0);
  return one ? one.name : symbol;
}

function sourceName(s: string, at: number): { name: string; end: number } | undefined {
  const m = /^\d+/.exec(s.slice(at));
  if (!m) return undefined;
  const n = Number(m[0]);
  const start = at + m[0].length;
  if (start + n > s.length || n === 0) return undefined;
  return { name: s.slice(start, start + n), end: start + n };
}

/** `N [K|V|r]* <source-name>+ E`: the parts joined with `::` (templates and the rest: undefined). */
function nestedName(s: string): string | undefined {
  let i = 0;
  while (s[i] === 'K' || s[i] === 'V' || s[i] === 'r') i++;
  const parts: string[] = [];
  while (i < s.length && s[i] !== 'E') {
    const one = sourceName(s, i);
    if (!one) return undefined;
    parts.push(one.name);
    i = one.end;
  }
  return parts.length ? parts.join('::') : undefined;
}

/** `Z <function encoding> E <source-name> [_ <discriminator>]`: the local entity's own name. */
function localEntityName(symbol: string): string | undefined {
  const m = /E(\d+)([A-Za-z_$][A-Za-z0-9_$]*?)(?:_\d*)?$/.exec(symbol);
  if (!m) return undefined;
  const n = Number(m[1]);
  return m[2].length >= n ? m[2].slice(0, n) : undefined;
}
