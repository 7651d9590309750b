// Which files a program may make the analysis read, and how much of them: the one policy for
// every reader of source files (the built-in preprocessor's includes in the CLI and the
// language server, and the clang path's collection of a unit's files).
//
// - Only regular files: never /proc, /sys or /dev (their files look regular and can be endless,
//   block, or hold the machine's secrets), never a pipe, socket or device. A file is opened
//   without blocking and checked on the open descriptor, so nothing swapped in after a check
//   is read either.
// - A size cap per file and for the whole program; a file is read to its end, not to the size
//   it reports (some report 0), and refused as soon as it passes the cap.
// - Optionally, only files inside some folders (the editor's workspace and include paths,
//   when the workspace is not trusted).
// A refusal says why, so a diagnostic can say "refused: …" rather than "not found".
import * as fs from 'node:fs';
import * as path from 'node:path';

export const MB = 1024 * 1024;
/** `scord.limits.maxFileMb`'s default. */
export const DEFAULT_MAX_FILE_MB = 8;
/** The whole program's sources (main file and every include). */
export const DEFAULT_MAX_TOTAL_MB = 64;
export const MAX_FILES = 4096;

export interface FileLimits {
  maxFileBytes: number;
  maxTotalBytes: number;
}

export const DEFAULT_LIMITS: FileLimits = { maxFileBytes: DEFAULT_MAX_FILE_MB * MB, maxTotalBytes: DEFAULT_MAX_TOTAL_MB * MB };

/** Limits for a per-file cap in megabytes; the total is eight files' worth, at least the default. */
export function limitsForFileMb(maxFileMb: number): FileLimits {
  const file = Math.max(1, Math.floor(maxFileMb)) * MB;
  return { maxFileBytes: file, maxTotalBytes: Math.max(DEFAULT_LIMITS.maxTotalBytes, 8 * file) };
}

/** Why a file was not read. */
export interface Refusal {
  reason: string;
}

/** Folders whose files are not files: reading them can block, never end, or leak the machine. */
const SPECIAL_ROOTS = ['/proc', '/sys', '/dev'];
/** Windows device names, reserved in every folder. */
const WINDOWS_DEVICES = /^(con|prn|aux|nul|com\d|lpt\d|conin\$|conout\$)(\..*)?$/i;

/** Why a path is never read, or undefined when it may be. */
export function specialPath(file: string): string | undefined {
  const inSpecial = (p: string): boolean => SPECIAL_ROOTS.some((r) => p === r || p.startsWith(r + '/'));
  if (inSpecial(path.posix.normalize(file.replace(/\\/g, '/')))) return 'it is in a system folder of devices and kernel files, not a source file';
  if (/^[\\/]{2}[.?][\\/]/.test(file)) return 'it names a device, not a source file';
  if (process.platform === 'win32' && WINDOWS_DEVICES.test(path.basename(file))) return 'it names a device, not a source file';
  let real: string;
  try {
    real = fs.realpathSync(file);
  } catch {
    return undefined;
  }
  if (real !== file && inSpecial(real)) return `it leads to ${real}, a system folder of devices and kernel files`;
  return undefined;
}

function openRefusal(e: unknown): Refusal {
  const code = (e as NodeJS.ErrnoException).code;
  return { reason: code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : `it cannot be opened (${code ?? 'error'})` };
}

function kindRefusal(st: fs.Stats): Refusal {
  return { reason: st.isFIFO() ? 'it is a pipe, not a source file' : st.isDirectory() ? 'it is a folder' : 'it is a device or socket, not a source file' };
}

function sizeRefusal(limit: number, limits: FileLimits): Refusal {
  return { reason: limit < limits.maxFileBytes ? `the program's sources would exceed ${limits.maxTotalBytes / MB} MB` : `it is larger than ${limits.maxFileBytes / MB} MB` };
}

const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

/**
 * A regular file's bytes, at most `limit` of them. Opened non-blocking and checked on the open
 * descriptor, so a pipe, socket or device swapped in after a check is still refused.
 */
export function readBounded(file: string, limit: number, limits: FileLimits = DEFAULT_LIMITS): Uint8Array | Refusal {
  let fd: number;
  try {
    fd = fs.openSync(file, OPEN_FLAGS);
  } catch (e) {
    return openRefusal(e);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return kindRefusal(st);
    if (st.size > limit) return sizeRefusal(limit, limits);
    // Read to the end, not to st.size: a file may grow, and some report size 0.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 20, limit + 1 - total));
      const n = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      total += n;
      if (total > limit) return { reason: `${sizeRefusal(limit, limits).reason}, or grows while read` };
      chunks.push(chunk.subarray(0, n));
    }
    return new Uint8Array(Buffer.concat(chunks, total));
  } catch (e) {
    return { reason: `it cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
  } finally {
    fs.closeSync(fd);
  }
}

/** `readBounded` without blocking the calling thread (the language server's main thread). */
export async function readBoundedAsync(file: string, limit: number, limits: FileLimits = DEFAULT_LIMITS): Promise<Uint8Array | Refusal> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, OPEN_FLAGS);
  } catch (e) {
    return openRefusal(e);
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) return kindRefusal(st);
    if (st.size > limit) return sizeRefusal(limit, limits);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 20, limit + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > limit) return { reason: `${sizeRefusal(limit, limits).reason}, or grows while read` };
      chunks.push(chunk.subarray(0, bytesRead));
    }
    return new Uint8Array(Buffer.concat(chunks, total));
  } catch (e) {
    return { reason: `it cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
  } finally {
    await handle.close();
  }
}

/** Whether `file` lies inside `folder` (both absolute). */
export function isInside(file: string, folder: string): boolean {
  const rel = path.relative(folder, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The real path of a file (links followed), or the path itself when it cannot be resolved. */
function realOrSelf(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

/**
 * Why a path may not be read at all, before opening it: a special folder, or (when `allowedRoots`
 * is given) a place outside those folders, links followed. Undefined: it may be tried.
 */
export function refusedPath(file: string, allowedRoots?: string[]): string | undefined {
  const special = specialPath(file);
  if (special) return special;
  if (allowedRoots && !allowedRoots.some((r) => isInside(realOrSelf(file), realOrSelf(r)))) {
    return 'it is outside the workspace and the include paths, and this workspace is not trusted';
  }
  return undefined;
}

/** A read's result as the preprocessor takes it (ReadSourceFile). */
export function asSourceText(r: SourceRead): string | undefined | { refused: string } {
  return r === undefined ? undefined : 'text' in r ? r.text : r;
}

export interface SourceReaderOptions {
  limits?: FileLimits;
  /**
   * Folders files must lie in (after following links), or undefined: anywhere. The editor sets
   * it to the workspace and include folders in a workspace that is not trusted.
   */
  allowedRoots?: string[];
}

/** Text read, or why not; undefined: no such file (the search goes on). */
export type SourceRead = { text: string } | { refused: string } | undefined;

/**
 * One program's reader of source files: each file within the per-file cap and all of them
 * within the total, each read once.
 */
export class SourceReader {
  readonly limits: FileLimits;
  private total = 0;
  private readonly seen = new Map<string, SourceRead>();

  constructor(private readonly options: SourceReaderOptions = {}) {
    this.limits = options.limits ?? DEFAULT_LIMITS;
  }

  /** Why `file` may not be read before opening it (special folders, outside the allowed ones). */
  precheck(file: string): string | undefined {
    return refusedPath(file, this.options.allowedRoots);
  }

  /** Counts text already in hand (an open editor's buffer) against the program's total. */
  account(file: string, text: string): SourceRead {
    const known = this.seen.get(file);
    if (known) return known;
    const bytes = Buffer.byteLength(text, 'utf8');
    const result: SourceRead = bytes > this.limits.maxFileBytes ? { refused: `it is larger than ${this.limits.maxFileBytes / MB} MB` } : this.total + bytes > this.limits.maxTotalBytes ? { refused: `the program's sources would exceed ${this.limits.maxTotalBytes / MB} MB` } : { text };
    if ('text' in result) this.total += bytes;
    this.seen.set(file, result);
    return result;
  }

  /** Reads a file from disk under the policy. */
  read(file: string): SourceRead {
    if (this.seen.has(file)) return this.seen.get(file);
    const result = this.readUncached(file);
    this.seen.set(file, result);
    return result;
  }

  private readUncached(file: string): SourceRead {
    if (!fs.existsSync(file)) return undefined;
    const why = this.precheck(file);
    if (why) return { refused: why };
    if (this.seen.size >= MAX_FILES) return { refused: `the program reads more than ${MAX_FILES} files` };
    const limit = Math.min(this.limits.maxFileBytes, this.limits.maxTotalBytes - this.total);
    const read = readBounded(file, limit, this.limits);
    if ('reason' in read) return read.reason === 'no such file' ? undefined : { refused: read.reason };
    this.total += read.length;
    return { text: Buffer.from(read.buffer, read.byteOffset, read.byteLength).toString('utf8') };
  }
}
