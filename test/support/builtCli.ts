// The built command line (dist/cli.js), as users run it. `npm test` builds it first; a test file
// run on its own after an edit would otherwise test yesterday's build, so a stale or missing build
// is an error that says what to do.
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
export const BUILT_CLI = path.join(ROOT, 'dist', 'cli.js');

function newestUnder(dir: string): number {
  let newest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestUnder(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

/** The path of dist/cli.js, checked to be there and newer than every source it is built from. */
export function builtCli(): string {
  if (!fs.existsSync(BUILT_CLI)) throw new Error('dist/cli.js is missing: build it with `node esbuild.mjs` (npm test does)');
  if (fs.statSync(BUILT_CLI).mtimeMs < newestUnder(path.join(ROOT, 'sims'))) throw new Error('dist/cli.js is older than sims/: rebuild it with `node esbuild.mjs` (npm test does)');
  return BUILT_CLI;
}
