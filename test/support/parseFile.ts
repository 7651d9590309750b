// Test helpers: parse a fixture from disk (includes resolved on disk) or an in-memory file set.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse, type ParseOptions, type ParseResult } from '../../sims/frontend/index';

export const FIXTURES = path.resolve(__dirname, '..', 'fixtures');

export function readOrUndefined(p: string): string | undefined {
  try {
    return fs.readFileSync(p, 'utf8');
  } catch {
    return undefined;
  }
}

export function parseFixture(relative: string, options: Partial<ParseOptions> = {}): ParseResult {
  const file = path.join(FIXTURES, relative);
  return parse(fs.readFileSync(file, 'utf8'), { fileName: file, readFile: readOrUndefined, ...options });
}

/** Parses `main.cu` from an in-memory set of files (paths relative to /virtual). */
export function parseVirtual(files: Record<string, string>, options: Partial<ParseOptions> = {}): ParseResult {
  const root = '/virtual';
  const abs = (p: string) => path.posix.join(root, p);
  const table = new Map(Object.entries(files).map(([k, v]) => [abs(k), v]));
  return parse(files['main.cu'], { fileName: abs('main.cu'), readFile: (p) => table.get(p), ...options });
}

/** `line:col` (1-based) of a diagnostic's start, the way an editor shows it. */
export function at(d: { range: { start: { line: number; character: number } } }): string {
  return `${d.range.start.line + 1}:${d.range.start.character + 1}`;
}
