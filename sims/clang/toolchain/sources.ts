// The files a translation unit may read, collected before clang runs.
//
// clang in WebAssembly reads only the tree it is given, so the unit's files are found first:
// its #include lines are followed transitively (relative to the including file, then the -I
// folders, then the project's CUDA headers), over-approximating (an include inside `#if 0` is
// collected too; a name not found is left for clang to report). Reading follows the one file
// policy (sims/files/policy.ts): regular files only, at most 8 MB each and 64 MB in all, never
// /proc, /sys or /dev, never a pipe or a device (opened without blocking, checked with fstat),
// so a hostile `#include` cannot hang or exhaust the analysis; what is refused is remembered and explained where clang reports it.
import { nvccInlineAsm } from './inlineAsm';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_LIMITS, MAX_FILES, readBounded, specialPath, type Refusal } from '../../files/policy';

export { readBounded, specialPath, type Refusal };
export const MAX_FILE_BYTES = DEFAULT_LIMITS.maxFileBytes;
export const MAX_TOTAL_BYTES = DEFAULT_LIMITS.maxTotalBytes;
export { MAX_FILES };

export interface SourceSearch {
  /** -I folders, absolute, in order. */
  includeDirs: string[];
  /** The project's CUDA headers: searched after the -I folders. */
  systemDirs: string[];
  /** Text that replaces a file's contents on disk (an editor's unsaved buffer); undefined: read the disk. */
  overlay?: (file: string) => string | undefined;
}

/** The unit's files: real absolute path → bytes; and the paths refused, with why. */
export class SourceSet {
  readonly files = new Map<string, Uint8Array>();
  readonly refused = new Map<string, Refusal>();
  private total = 0;
  private readonly scanned = new Set<string>();

  constructor(private readonly search: SourceSearch) {}

  /** Adds a root file (the unit, a forced include) with its text if it is not on disk. */
  addRoot(file: string, text?: string): Refusal | undefined {
    if (text !== undefined) {
      this.files.set(file, new TextEncoder().encode(nvccInlineAsm(text)));
      this.scan(file);
      return undefined;
    }
    const refusal = this.read(file);
    if (!refusal) this.scan(file);
    return refusal;
  }

  /**
   * Adds every file under a folder (the project's CUDA headers: clang's own headers include
   * some of them, which a scan of the user's files cannot see).
   */
  addFolder(dir: string): void {
    let names: string[];
    try {
      names = fs.readdirSync(dir, { recursive: true }) as string[];
    } catch {
      return;
    }
    for (const name of names.sort()) {
      const file = path.join(dir, name);
      if (this.files.has(file) || probe(file) !== 'other') continue;
      this.read(file);
    }
  }

  /**
   * Finds `name` as an `#include` in `includer` would (quoted: the includer's folder first)
   * and adds it and what it includes: the path found (read or refused), or undefined when no
   * folder has it.
   */
  include(name: string, quoted: boolean, includer: string | undefined): string | undefined {
    const found = this.locate(name, quoted, includer);
    if (found && this.files.has(found)) this.scan(found);
    return found;
  }

  /** Where `#include name` may be found, in clang's order. */
  candidates(name: string, quoted: boolean, includer: string | undefined): string[] {
    if (path.isAbsolute(name)) return [path.normalize(name)];
    const dirs = [...(quoted && includer ? [path.dirname(includer)] : []), ...this.search.includeDirs, ...this.search.systemDirs];
    return dirs.map((d) => path.resolve(d, name));
  }

  /** Reads one file into the set, within the limits; the refusal when it may not be read. */
  private read(file: string): Refusal | undefined {
    const refusal = this.readChecked(file);
    if (refusal) this.refused.set(file, refusal);
    return refusal;
  }

  private readChecked(file: string): Refusal | undefined {
    const remembered = rememberedRead(file);
    if (remembered && !this.search.overlay) return this.accept(file, remembered);
    const special = specialPath(file);
    if (special) return { reason: special };
    const text = this.search.overlay?.(file);
    if (text !== undefined) {
      const bytes = new TextEncoder().encode(nvccInlineAsm(text));
      const over = this.budget(bytes.length);
      if (over) return over;
      this.files.set(file, bytes);
      return undefined;
    }
    if (remembered) return this.accept(file, remembered);
    const read = readBounded(file, Math.min(MAX_FILE_BYTES, MAX_TOTAL_BYTES - this.total));
    if (typeof read === 'object' && 'reason' in read) return read;
    remember(file, read);
    return this.accept(file, read);
  }

  private accept(file: string, bytes: Uint8Array): Refusal | undefined {
    const over = this.budget(bytes.length);
    if (over) return over;
    this.files.set(file, withNvccInlineAsm(bytes));
    return undefined;
  }

  private budget(bytes: number): Refusal | undefined {
    if (bytes > MAX_FILE_BYTES) return { reason: `it is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB` };
    if (this.total + bytes > MAX_TOTAL_BYTES) return { reason: `the program's sources would exceed ${MAX_TOTAL_BYTES / 1024 / 1024} MB` };
    if (this.files.size >= MAX_FILES) return { reason: `the program reads more than ${MAX_FILES} files` };
    this.total += bytes;
    return undefined;
  }

  /** Follows the #include lines of a file already in the set. */
  private scan(file: string): void {
    const pending = [file];
    while (pending.length) {
      const current = pending.pop()!;
      if (this.scanned.has(current)) continue;
      this.scanned.add(current);
      const bytes = this.files.get(current);
      if (!bytes) continue;
      for (const d of includeDirectives(latin1(bytes))) {
        const found = this.locate(d.name, d.quoted, current);
        if (found && this.files.has(found) && !this.scanned.has(found)) pending.push(found);
      }
    }
  }

  private locate(name: string, quoted: boolean, includer: string | undefined): string | undefined {
    for (const candidate of this.candidates(name, quoted, includer)) {
      if (this.files.has(candidate) || this.refused.has(candidate)) return candidate;
      const kind = probe(candidate);
      if (kind === 'missing' || kind === 'folder') continue;
      this.read(candidate);
      return candidate;
    }
    return undefined;
  }
}

/** An `#include` (or `#include_next`, `#import`, `__has_include`) naming a file. */
export interface IncludeDirective {
  name: string;
  quoted: boolean;
  /** 1-based line of the directive. */
  line: number;
}

const DIRECTIVE = /^[ \t]*#[ \t]*(?:include|include_next|import)[ \t]*(?:"([^"\n]+)"|<([^>\n]+)>)/;
const HAS_INCLUDE = /__has_include(?:_next)?\s*\(\s*(?:"([^"\n]+)"|<([^>\n]+)>)\s*\)/g;

/** Every include a file's text names, in order (conditions are not evaluated). */
export function includeDirectives(text: string): IncludeDirective[] {
  const out: IncludeDirective[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.includes('include') && !line.includes('import')) continue;
    const m = DIRECTIVE.exec(line);
    if (m) out.push({ name: m[1] ?? m[2], quoted: m[1] !== undefined, line: i + 1 });
    for (const h of line.matchAll(HAS_INCLUDE)) out.push({ name: h[1] ?? h[2], quoted: h[1] !== undefined, line: i + 1 });
  }
  return out;
}

/**
 * Files read before, by identity (device, inode, size, modification time): a header read for
 * every compile is read once while it does not change. A path that now leads elsewhere (a
 * replaced file, a re-pointed link) has another identity and is checked and read again.
 */
const reads = new Map<string, { dev: number; ino: number; size: number; mtimeMs: number; bytes: Uint8Array }>();
const MAX_REMEMBERED = 4096;

function rememberedRead(file: string): Uint8Array | undefined {
  const known = reads.get(file);
  if (!known) return undefined;
  const st = fs.statSync(file, { throwIfNoEntry: false });
  if (st && st.isFile() && st.dev === known.dev && st.ino === known.ino && st.size === known.size && st.mtimeMs === known.mtimeMs) return known.bytes;
  reads.delete(file);
  return undefined;
}

function remember(file: string, bytes: Uint8Array): void {
  const st = fs.statSync(file, { throwIfNoEntry: false });
  if (!st || !st.isFile() || st.size !== bytes.length) return;
  if (reads.size >= MAX_REMEMBERED) reads.clear();
  reads.set(file, { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, bytes });
}

/** Whether a path names nothing, a folder, or something to try reading. Never blocks. */
function probe(file: string): 'missing' | 'folder' | 'other' {
  try {
    const st = fs.statSync(file, { throwIfNoEntry: false });
    if (!st) return 'missing';
    return st.isDirectory() ? 'folder' : 'other';
  } catch {
    return 'other';
  }
}

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** A file's bytes with its inline asm as clang wants it (./inlineAsm.ts); the same bytes when nothing changes. */
function withNvccInlineAsm(bytes: Uint8Array): Uint8Array {
  const text = latin1(bytes);
  if (!text.includes('asm')) return bytes;
  const fixed = nvccInlineAsm(text);
  if (fixed === text) return bytes;
  return new Uint8Array(Buffer.from(fixed, 'latin1'));
}
