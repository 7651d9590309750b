// Where the project's own CUDA headers (cuda_runtime.h and the rest) are at run time: beside
// the bundle (dist/include, copied there by the build) or, run from source, in sims/clang/include.
import * as fs from 'node:fs';
import * as path from 'node:path';

let found: string | undefined;

/** The folder of the project's CUDA headers; `override` wins when given. */
export function headerFolder(override?: string): string {
  if (override) return path.resolve(override);
  if (found) return found;
  const candidates = [
    path.join(__dirname, 'include'), // dist/cli.js, dist/server.js, dist/analysisWorker.js
    path.join(__dirname, '..', 'include'), // sims/clang/toolchain/*.ts, dist/bench/*.js
  ];
  found = candidates.find((c) => fs.existsSync(path.join(c, 'cuda_runtime.h')));
  // Missing headers (a broken install) show up as clang's `'cuda_runtime.h' file not found`.
  return found ?? candidates[candidates.length - 1];
}
