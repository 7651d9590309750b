// Bundles the extension-host test suite (test/e2e/suite) into .e2e/out/suite, inside the
// extension's folder so that `require('vscode')` there resolves to the extension's API.
// `vscode` and `mocha` stay external: the host provides the first, node_modules the second.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');
const suite = path.join(root, 'test', 'e2e', 'suite');
const outdir = path.join(root, '.e2e', 'out', 'suite');
fs.rmSync(outdir, { recursive: true, force: true });
await esbuild.build({
  entryPoints: fs.readdirSync(suite).filter((f) => f.endsWith('.ts')).map((f) => path.join(suite, f)),
  outdir,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node18',
  sourcemap: 'inline',
  external: ['vscode', 'mocha'],
  logLevel: 'warning',
});
console.log(`e2e: built the extension-host suite into ${path.relative(root, outdir)}`);
