// The project's import graph, read with TypeScript's own pre-processor: every static import and
// re-export (type-only included) and every dynamic import() of a relative module. The layer test
// and the cycle test read it; docs/architecture.md describes the floors it is checked against.
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

export const ROOT = path.resolve(__dirname, '..', '..');

/** Source folders whose imports are checked. */
export const CHECKED = ['sims', 'server', 'client'];

export interface Import {
  /** Importing file, relative to the repository root, with '/' separators. */
  from: string;
  /** Imported file, relative to the repository root. */
  to: string;
  line: number;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    // sims/clang/include holds the C++ headers clang reads, not TypeScript.
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'include') sourceFiles(p, out);
    } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function resolveModule(fromFile: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(fromFile), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

const relative = (p: string): string => path.relative(ROOT, p).split(path.sep).join('/');

/** Every relative import of the checked folders; `unresolved` lists the ones that name no file. */
export function importGraph(): { files: string[]; imports: Import[]; unresolved: Import[] } {
  const files = CHECKED.flatMap((d) => sourceFiles(path.join(ROOT, d)));
  const imports: Import[] = [];
  const unresolved: Import[] = [];
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const info = ts.preProcessFile(text, true, true);
    for (const ref of info.importedFiles) {
      if (!ref.fileName.startsWith('.')) continue;
      const line = text.slice(0, ref.pos).split('\n').length;
      const target = resolveModule(file, ref.fileName);
      const edge = { from: relative(file), to: target ? relative(target) : ref.fileName, line };
      (target ? imports : unresolved).push(edge);
    }
  }
  return { files: files.map(relative), imports, unresolved };
}

/** Groups of files that import each other, directly or round a loop (Tarjan's algorithm). */
export function cycles(files: string[], imports: Import[]): string[][] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const i of imports) next.get(i.from)?.push(i.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || next.get(v)?.includes(v)) found.push(group.sort());
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return found;
}
