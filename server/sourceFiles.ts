// Reading an #include from disk without trusting the name: only regular files, and only up to
// a size a source file has (`#include "/dev/zero"` must not hang the server or fill memory).
import * as fs from 'node:fs';

const MAX_SOURCE_BYTES = 16 * 2 ** 20;

export function readSourceFile(path: string): string | undefined {
  try {
    const st = fs.statSync(path);
    if (!st.isFile() || st.size > MAX_SOURCE_BYTES) return undefined;
    return fs.readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
