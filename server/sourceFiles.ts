// Reading a source file from disk without trusting its name, under the one file policy
// (sims/files/policy.ts): only regular files, never /proc, /sys or /dev, never a pipe or a
// device, and only up to the size a source file has (`#include "/dev/zero"` must not hang the
// server or fill its memory).
import * as fs from 'node:fs';
import { DEFAULT_LIMITS, readBounded, refusedPath, type FileLimits } from '../sims/files/policy';

/** A file's text, undefined when there is no such file, or why the policy refuses it. */
export function readSourceChecked(file: string, limits: FileLimits = DEFAULT_LIMITS, allowedRoots?: string[]): string | undefined | { refused: string } {
  const st = fs.statSync(file, { throwIfNoEntry: false });
  if (!st || st.isDirectory()) return undefined;
  const why = refusedPath(file, allowedRoots);
  if (why) return { refused: why };
  const bytes = readBounded(file, limits.maxFileBytes, limits);
  if ('reason' in bytes) return bytes.reason === 'no such file' ? undefined : { refused: bytes.reason };
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** The text of a file the policy lets be read, else undefined. */
export function readSourceFile(file: string): string | undefined {
  const r = readSourceChecked(file);
  return typeof r === 'string' ? r : undefined;
}
