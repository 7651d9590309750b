// Makes dist/clang-seed (sims/clang/toolchain/seed.ts) unless it is current; the build runs it.
import * as path from 'node:path';
import { makeSeed } from '../sims/clang/toolchain/seed';

const dir = path.resolve(process.argv[2] ?? path.join('dist', 'clang-seed'));
const t0 = Date.now();
makeSeed(dir).then(
  (made) => {
    if (made) console.log(`clang seed: made ${path.relative(process.cwd(), dir)} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  },
  (e: unknown) => {
    console.error(`clang seed: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
