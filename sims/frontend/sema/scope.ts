// Names in scope during semantic analysis. One namespace for values and types (C++), plus
// struct/union/enum tags under `tag:` keys so `struct S` and a variable `S` can coexist.
import type * as A from '../ast';
import type { Type } from '../types';

/** Where a variable lives; decides which memory space the simulator puts it in. */
export type Storage = 'host-global' | 'device' | 'constant' | 'shared' | 'managed' | 'local' | 'static-local' | 'param' | 'builtin';

export type Symbol =
  | { kind: 'var'; name: string; decl: A.VarDecl | A.ParamDecl | undefined; type: Type; storage: Storage }
  | { kind: 'functions'; name: string; decls: A.FunctionDecl[] }
  | { kind: 'typedef'; name: string; type: Type; decl: A.TypedefDecl }
  | { kind: 'tag'; name: string; type: Type; decl: A.StructDecl | A.EnumDecl }
  | { kind: 'enumerator'; name: string; decl: A.Enumerator; type: Type }
  | { kind: 'templateType'; name: string; param: A.TemplateParam }
  | { kind: 'templateValue'; name: string; param: A.TemplateParam; type: Type };

export class Scope {
  private readonly names = new Map<string, Symbol>();

  constructor(
    readonly parent: Scope | undefined,
    /** A function body or file scope: where `static` locals and labels stop. */
    readonly kind: 'file' | 'function' | 'block' | 'template' | 'prelude',
  ) {}

  lookup(name: string): Symbol | undefined {
    for (let s: Scope | undefined = this; s; s = s.parent) {
      const sym = s.names.get(name);
      if (sym) return sym;
    }
    return undefined;
  }

  lookupTag(name: string): Symbol | undefined {
    return this.lookup(`tag:${name}`);
  }

  own(name: string): Symbol | undefined {
    return this.names.get(name);
  }

  define(sym: Symbol, key = sym.name): void {
    this.names.set(key, sym);
  }

  /** Every visible name, innermost first, for "did you mean" suggestions. */
  *visibleNames(): Iterable<string> {
    for (let s: Scope | undefined = this; s; s = s.parent) {
      for (const k of s.names.keys()) if (!k.startsWith('tag:')) yield k;
    }
  }
}

/** The closest name within a small edit distance, for "did you mean 'x'?" hints. */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDist = Math.max(1, Math.min(3, Math.floor(name.length / 3)));
  for (const c of candidates) {
    if (c === name || Math.abs(c.length - name.length) > bestDist) continue;
    const d = editDistance(name, c, bestDist);
    if (d <= bestDist && (best === undefined || d < bestDist)) {
      best = c;
      bestDist = d;
    }
  }
  return best;
}

/** Edit distance where swapping two neighbours (`flaot`) costs 1 and a case change 0.5. */
function editDistance(a: string, b: string, limit: number): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? (a[i - 1] === b[j - 1] ? 0 : 0.5) : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cur[j] = Math.min(cur[j], before[j - 2] + 1);
      rowMin = Math.min(rowMin, cur[j]);
    }
    if (rowMin > limit) return limit + 1;
    before = prev;
    prev = cur;
  }
  return prev[b.length];
}
