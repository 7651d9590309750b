// One build for every bundle the extension ships: the VS Code client, the language server,
// the `scord` command line, and the inspector webview. `--production` minifies and drops
// source maps (what `npm run package` ships); `--watch` rebuilds on change.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
  legalComments: 'none',
};

/** @type {import('esbuild').BuildOptions[]} */
const targets = [
  { ...common, entryPoints: ['client/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', target: 'node18', external: ['vscode'] },
  { ...common, entryPoints: ['server/server.ts'], outfile: 'dist/server.js', platform: 'node', format: 'cjs', target: 'node18' },
  // The server's analysis runs in worker threads, from this bundle beside it.
  { ...common, entryPoints: ['server/analysis/worker.ts'], outfile: 'dist/analysisWorker.js', platform: 'node', format: 'cjs', target: 'node18' },
  { ...common, entryPoints: ['sims/cli.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', target: 'node18', banner: { js: '#!/usr/bin/env node' } },
  { ...common, entryPoints: ['client/webview/inspector.ts'], outfile: 'dist/inspector.js', platform: 'browser', format: 'iife', target: 'es2022' },
];

// The benchmark runs the bundled engine, as the server and CLI do (a loader such as tsx
// would add getter indirection to every cross-module access and skew the numbers).
if (process.argv.includes('--bench')) {
  targets.length = 0;
  targets.push({ ...common, sourcemap: false, entryPoints: ['bench/run.ts'], outfile: 'dist/bench.js', platform: 'node', format: 'cjs', target: 'node18', logLevel: 'warning' });
}

if (watch) {
  const contexts = await Promise.all(targets.map((t) => esbuild.context(t)));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(targets.map((t) => esbuild.build(t)));
}
