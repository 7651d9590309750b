// The toolchain's own headers, read without running it: @yowasp/clang mounts a tar archive of
// its sysroot at /usr, which sits beside its module. Used to read what a precompiled header was
// made of (prelude.ts); a missing or unreadable archive reads as no file.
import * as fs from 'node:fs';
import * as path from 'node:path';

const ARCHIVE = 'llvm-resources.tar';

let index: { data: Buffer; files: Map<string, [number, number]> } | null | undefined;

function archive(): typeof index {
  if (index !== undefined) return index;
  try {
    const data = fs.readFileSync(path.join(path.dirname(require.resolve('@yowasp/clang')), ARCHIVE));
    const files = new Map<string, [number, number]>();
    // POSIX tar: a 512-byte header per entry (name at 0, octal size at 124, type at 156), then the data in 512-byte blocks.
    for (let at = 0; at + 512 <= data.length; ) {
      const name = data.toString('latin1', at, at + 100).replace(/\0[^]*$/, '');
      if (!name) break;
      // The name's prefix field exists in POSIX (ustar) headers only, not in GNU ones.
      const ustar = data.toString('latin1', at + 257, at + 263) === 'ustar\0';
      const prefix = ustar ? data.toString('latin1', at + 345, at + 500).replace(/\0[^]*$/, '') : '';
      const size = parseInt(data.toString('latin1', at + 124, at + 136).replace(/\0/g, '').trim() || '0', 8);
      const type = data[at + 156];
      if (type === 0 || type === 48) files.set(`/usr/${prefix ? `${prefix}/` : ''}${name}`.replace(/\/+/g, '/'), [at + 512, size]);
      at += 512 + Math.ceil(size / 512) * 512;
    }
    index = { data, files };
  } catch {
    index = null;
  }
  return index;
}

/** The text of a sysroot file by the path clang sees it at (/usr/include/…), if there is one. */
export function sysrootText(virtualPath: string): string | undefined {
  const a = archive();
  const at = a?.files.get(path.posix.normalize(virtualPath));
  return a && at ? a.data.toString('latin1', at[0], at[0] + at[1]) : undefined;
}

/** Lets the archive's memory go (it is read again if needed). */
export function releaseSysroot(): void {
  index = undefined;
}
