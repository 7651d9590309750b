// A temporary folder for tests that compile units with clang: files written into it, and the
// translation units that name them. Removed when the test file ends.
import { after } from 'node:test';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TranslationUnitSpec } from '../../sims/clang/toolchain';

export interface ScratchUnits {
  dir: string;
  /** Writes `text` at `name` under the folder; the file's path. */
  write(name: string, text: string): string;
}

export function scratchUnits(prefix: string): ScratchUnits {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    write(name, text) {
      const file = path.join(dir, name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      return file;
    },
  };
}

/** A unit of `file` with no flags, or those of `more`. */
export function unit(file: string, more: Partial<TranslationUnitSpec> = {}): TranslationUnitSpec {
  return { file, defines: [], includeDirs: [], ...more };
}
