// The files a simulated program can see. Files it writes (fopen("out.txt", "w"), ofstream) live
// in memory only and come back in the run's result; nothing is ever written to disk. With a
// read folder (the program's own folder, when the user allows it) the program may also read
// the files there — read-only: writing a file of that folder gives an in-memory copy. No other
// path of the machine is reachable: a path is resolved inside the sandbox's root and one that
// climbs out of it (`../x`, a symbolic link pointing elsewhere) is refused.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A file's contents; `size` bytes of `bytes` are used (it grows by doubling). */
export interface FileData {
  bytes: Uint8Array;
  size: number;
  /** Created or changed by the program (so it belongs in the result). */
  written: boolean;
}

export type Lookup = { kind: 'file'; file: FileData; inFolder: boolean } | { kind: 'directory' } | { kind: 'missing' } | { kind: 'escapes' };

/** Bytes of a file read from the folder at most (a larger one reads as missing). */
const MAX_READ_BYTES = 256 * 1024 * 1024;

export class SandboxFiles {
  private readonly files = new Map<string, FileData>();
  private readonly dirs = new Set<string>(['']);
  private readonly removed = new Set<string>();
  private readonly folder: string | undefined;

  constructor(readFolder?: string) {
    this.folder = readFolder !== undefined ? safeRealpath(path.resolve(readFolder)) : undefined;
  }

  /**
   * The directories the program is given (WASI preopens): the sandbox's root as `.`, and, with
   * a read folder, the same root at the folder's real path too (a program may open files by
   * absolute path, e.g. one taken from its argv).
   */
  preopens(): string[] {
    return this.folder ? ['.', this.folder] : ['.'];
  }

  /**
   * `relative` resolved against directory `base` (both relative to the root), normalised; or
   * undefined when it climbs out of the root.
   */
  resolve(base: string, relative: string): string | undefined {
    const parts = relative.startsWith('/') ? [] : base.split('/').filter(Boolean);
    for (const p of relative.split('/')) {
      if (p === '' || p === '.') continue;
      if (p === '..') {
        if (parts.length === 0) return undefined;
        parts.pop();
      } else parts.push(p);
    }
    return parts.join('/');
  }

  lookup(rel: string): Lookup {
    const mem = this.files.get(rel);
    if (mem) return { kind: 'file', file: mem, inFolder: false };
    if (this.dirs.has(rel)) return { kind: 'directory' };
    if (this.removed.has(rel) || !this.folder) return { kind: 'missing' };
    const full = path.join(this.folder, rel);
    let real: string;
    try {
      real = fs.realpathSync(full);
    } catch {
      return { kind: 'missing' };
    }
    if (real !== this.folder && !real.startsWith(this.folder + path.sep)) return { kind: 'escapes' };
    try {
      const st = fs.statSync(real);
      if (st.isDirectory()) return { kind: 'directory' };
      if (!st.isFile() || st.size > MAX_READ_BYTES) return { kind: 'missing' };
      const bytes = new Uint8Array(fs.readFileSync(real));
      // Read once: later opens see the same bytes even if the disk changes meanwhile.
      const file: FileData = { bytes, size: bytes.length, written: false };
      this.files.set(rel, file);
      return { kind: 'file', file, inFolder: true };
    } catch {
      return { kind: 'missing' };
    }
  }

  /** A new empty in-memory file at `rel` (replacing any, which is never touched on disk). */
  create(rel: string): FileData {
    const file: FileData = { bytes: new Uint8Array(256), size: 0, written: true };
    this.files.set(rel, file);
    this.removed.delete(rel);
    return file;
  }

  createDirectory(rel: string): boolean {
    if (this.lookup(rel).kind !== 'missing') return false;
    this.dirs.add(rel);
    return true;
  }

  /** Removes an in-memory file; a file of the read folder only disappears from the program's view. */
  unlink(rel: string): boolean {
    const found = this.lookup(rel);
    if (found.kind !== 'file') return false;
    this.files.delete(rel);
    this.removed.add(rel);
    return true;
  }

  /** The files the program created or changed, by path relative to the root. */
  written(): Record<string, Uint8Array> {
    const out: Record<string, Uint8Array> = {};
    for (const [name, f] of [...this.files].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
      if (f.written) out[name] = f.bytes.slice(0, f.size);
    }
    return out;
  }
}

/** Writes `data` at `pos` of `file`, growing it as needed. */
export function writeAt(file: FileData, pos: number, data: Uint8Array): void {
  const end = pos + data.length;
  if (end > file.bytes.length) {
    const grown = new Uint8Array(Math.max(end, file.bytes.length * 2));
    grown.set(file.bytes.subarray(0, file.size));
    file.bytes = grown;
  }
  if (pos > file.size) file.bytes.fill(0, file.size, pos);
  file.bytes.set(data, pos);
  file.size = Math.max(file.size, end);
  file.written = true;
}

export function truncate(file: FileData, size: number): void {
  if (size > file.size) writeAt(file, size, new Uint8Array(0));
  else file.size = size;
  file.written = true;
}

function safeRealpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}
