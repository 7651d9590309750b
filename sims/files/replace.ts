// Replacing a source file with new text without ever losing a byte, as `scord fix` does:
//
// - only if the file still holds exactly the bytes that were analysed (anything saved since,
//   a rewrite, a deletion: the fix is not applied, and the user is told to run again);
// - the new text goes to a temporary file in the same folder, is flushed to the disk, and
//   replaces the file by a rename, so a reader sees the old file or the new one, never half;
//   a write that fails (a full disk) removes the temporary file and leaves the original alone;
// - a symbolic link stays a link (its target is replaced); the file's permissions are kept,
//   and a file that is not writable is left alone.
import * as fs from 'node:fs';
import * as path from 'node:path';

export type ReplaceResult = { ok: true } | { ok: false; changed: boolean; reason: string };

/** The file system calls that write, replaceable so a failing disk can be simulated. */
export interface WriteOps {
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number): number;
}

const REAL_OPS: WriteOps = { writeSync: (fd, buffer, offset, length) => fs.writeSync(fd, buffer, offset, length) };

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

function errorText(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC') return 'the disk is full';
  if (code === 'EDQUOT') return 'the disk quota is exceeded';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'the file system is read-only';
  return code ?? (e instanceof Error ? e.message : String(e));
}

/**
 * Replaces `file` (through any link) with `text` if it still holds `expected`. On failure
 * the file is exactly as it was, and `changed` says whether it had changed since it was read.
 */
export function replaceIfUnchanged(file: string, expected: Uint8Array, text: string, ops: WriteOps = REAL_OPS): ReplaceResult {
  const changed = (): ReplaceResult => ({ ok: false, changed: true, reason: 'changed since it was read; run again' });
  let target: string;
  try {
    target = fs.realpathSync(file);
  } catch {
    return changed();
  }
  const stillSame = (): boolean => {
    try {
      return sameBytes(fs.readFileSync(target), expected);
    } catch {
      return false;
    }
  };
  if (!stillSame()) return changed();
  const st = fs.statSync(target);
  // Read-only as an editor sees it: no write permission bit (which even an administrator's
  // access check would pass), or no write access for this user.
  let writable = (st.mode & 0o222) !== 0;
  try {
    fs.accessSync(target, fs.constants.W_OK);
  } catch {
    writable = false;
  }
  if (!writable) return { ok: false, changed: false, reason: 'the file is read-only' };
  const dir = path.dirname(target);
  const temp = path.join(dir, `.${path.basename(target)}.scord-fix-${process.pid}-${Date.now().toString(36)}.tmp`);
  const bytes = Buffer.from(text, 'utf8');
  let fd: number | undefined;
  try {
    fd = fs.openSync(temp, 'wx', st.mode & 0o7777);
    for (let at = 0; at < bytes.length; ) at += ops.writeSync(fd, bytes, at, bytes.length - at);
    fs.fsyncSync(fd);
    fs.fchmodSync(fd, st.mode & 0o7777);
    try {
      fs.fchownSync(fd, st.uid, st.gid);
    } catch {
      // Only the owner's group may differ for a file another user owns; the mode is kept.
    }
    fs.closeSync(fd);
    fd = undefined;
    // Checked again just before the rename: a save during the write is not overwritten.
    if (!stillSame()) {
      fs.rmSync(temp, { force: true });
      return changed();
    }
    fs.renameSync(temp, target);
  } catch (e) {
    if (fd !== undefined) fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    return { ok: false, changed: false, reason: `it could not be written (${errorText(e)}); the file is unchanged` };
  }
  try {
    const dirFd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(dirFd);
    } finally {
      fs.closeSync(dirFd);
    }
  } catch {
    // Not every platform can flush a folder; the rename itself is done.
  }
  return { ok: true };
}
