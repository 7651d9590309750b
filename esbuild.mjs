// One build for every bundle the extension ships: the VS Code client, the language server,
// the `scord` command line, and the inspector webview. `--production` minifies and drops
// source maps (what `npm run package` ships); `--watch` rebuilds on change; `--sizes` lists the
// bundles and their sizes (otherwise only warnings and errors are printed, so the demo's and the
// tests' output is their own).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: process.argv.includes('--sizes') ? 'info' : 'warning',
  legalComments: 'none',
};

// clang in WebAssembly finds its .wasm files beside its own module: it is loaded from
// node_modules at run time, never bundled.
const clang = ['@yowasp/clang'];

/** @type {import('esbuild').BuildOptions[]} */
const targets = [
  { ...common, entryPoints: ['client/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', target: 'node18', external: ['vscode'] },
  { ...common, entryPoints: ['server/server.ts'], outfile: 'dist/server.js', platform: 'node', format: 'cjs', target: 'node18', external: clang },
  // The server's analysis runs in worker threads, each in a process of its own, from these bundles beside it.
  { ...common, entryPoints: ['server/analysis/worker.ts'], outfile: 'dist/analysisWorker.js', platform: 'node', format: 'cjs', target: 'node18', external: clang },
  { ...common, entryPoints: ['server/analysis/workerHost.ts'], outfile: 'dist/analysisHost.js', platform: 'node', format: 'cjs', target: 'node18' },
  { ...common, entryPoints: ['sims/cli.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', target: 'node18', external: clang, banner: { js: '#!/usr/bin/env node' } },
  { ...common, entryPoints: ['client/webview/inspector.ts'], outfile: 'dist/inspector.js', platform: 'browser', format: 'iife', target: 'es2022' },
];

// The benchmark runs the bundled engine, as the server and CLI do (a loader such as tsx
// would add getter indirection to every cross-module access and skew the numbers).
// The LSP figures (bench/lsp.ts) are taken through dist/server.js and its worker, and the
// schedules' figures (bench/schedules.ts) through dist/cli.js, so those are built too (the
// bench must not time a stale server or CLI, nor a missing one), and bench/lsp.ts also on its
// own: the bench runs it in a child process. It sits two levels down, at dist/bench/lsp.js,
// because the test client it bundles finds dist/server.js at ../.. from itself.
if (process.argv.includes('--bench')) {
  const server = targets.filter((t) => ['dist/server.js', 'dist/analysisWorker.js', 'dist/analysisHost.js', 'dist/cli.js'].includes(t.outfile)).map((t) => ({ ...t, logLevel: 'warning' }));
  targets.length = 0;
  targets.push({ ...common, sourcemap: false, entryPoints: ['bench/run.ts'], outfile: 'dist/bench.js', platform: 'node', format: 'cjs', target: 'node18', logLevel: 'warning', external: clang });
  targets.push({ ...common, sourcemap: false, entryPoints: ['bench/lsp.ts'], outfile: 'dist/bench/lsp.js', platform: 'node', format: 'cjs', target: 'node18', logLevel: 'warning', external: clang });
  targets.push(...server);
}

// The project's CUDA headers, which clang reads, beside the bundles (sims/clang/toolchain/headers.ts).
fs.rmSync('dist/include', { recursive: true, force: true });
fs.cpSync('sims/clang/include', 'dist/include', { recursive: true });

// The packaged extension has no node_modules: clang (its module and the .wasm files beside it)
// ships in dist/node_modules, where the bundles' import('@yowasp/clang') finds it first.
if (production) {
  const from = 'node_modules/@yowasp/clang';
  const to = 'dist/node_modules/@yowasp/clang';
  fs.rmSync(to, { recursive: true, force: true });
  fs.mkdirSync(to, { recursive: true });
  fs.cpSync(`${from}/package.json`, `${to}/package.json`);
  fs.cpSync(`${from}/gen`, `${to}/gen`, { recursive: true });
}

if (watch) {
  const contexts = await Promise.all(targets.map((t) => esbuild.context(t)));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(targets.map((t) => esbuild.build(t)));
  // The clang cache's seed beside the bundles (sims/clang/toolchain/seed.ts): made once, and
  // again when the headers or the toolchain change; a check of its keys otherwise.
  await esbuild.build({ ...common, sourcemap: false, entryPoints: ['scripts/clang-seed.ts'], outfile: 'dist/tools/clang-seed.js', platform: 'node', format: 'cjs', target: 'node18', external: clang });
  const seed = spawnSync(process.execPath, ['dist/tools/clang-seed.js', 'dist/clang-seed'], { stdio: 'inherit' });
  if (seed.status !== 0) process.exit(seed.status ?? 1);
}
