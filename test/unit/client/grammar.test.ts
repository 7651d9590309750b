// The injection grammar gives scoped synchronisation its own scopes, so themes can colour
// block, device and system scope differently. Its patterns use only syntax that JavaScript
// and Oniguruma read alike, so they are checked here with JavaScript's engine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const grammar = JSON.parse(fs.readFileSync(path.join(ROOT, 'syntaxes', 'cuda-scopes.tmLanguage.json'), 'utf8'));
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

interface Rule {
  match: string;
  name: string;
}
const rules: Rule[] = Object.values(grammar.repository as Record<string, { patterns: Rule[] }>).flatMap((r) => r.patterns);

/** The scope the first matching rule gives each identifier-like word of `line`. */
function scopes(line: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const word of line.match(/[A-Za-z_]\w*/g) ?? []) {
    const rule = rules.find((r) => new RegExp(`^(?:${r.match})$`).test(word));
    if (rule) out[word] = rule.name;
  }
  return out;
}

test('the grammar is an injection into VS Code’s cuda-cpp, contributed as such', () => {
  assert.equal(grammar.injectionSelector, 'L:source.cuda-cpp -comment -string');
  const contributed = manifest.contributes.grammars.find((g: { scopeName: string }) => g.scopeName === grammar.scopeName);
  assert.deepEqual(contributed.injectTo, ['source.cuda-cpp']);
  assert.ok(fs.existsSync(path.join(ROOT, contributed.path)));
  assert.equal(manifest.contributes.languages, undefined, 'never contribute the cuda-cpp language itself');
});

test('block, device and system scopes are told apart', () => {
  assert.deepEqual(scopes('atomicAdd_block(&c, 1); atomicAdd(&c, 1); atomicCAS_system(&l, 0, 1); atomicExch(&l, 0);'), {
    atomicAdd_block: 'support.function.cuda.atomic.scope-block.scord',
    atomicAdd: 'support.function.cuda.atomic.scope-device.scord',
    atomicCAS_system: 'support.function.cuda.atomic.scope-system.scord',
    atomicExch: 'support.function.cuda.atomic.scope-device.scord',
  });
  assert.deepEqual(scopes('__threadfence_block(); __threadfence(); __threadfence_system(); __syncthreads_count(p); __syncwarp();'), {
    __threadfence_block: 'support.function.cuda.fence.scope-block.scord',
    __threadfence: 'support.function.cuda.fence.scope-device.scord',
    __threadfence_system: 'support.function.cuda.fence.scope-system.scord',
    __syncthreads_count: 'support.function.cuda.barrier.scope-block.scord',
    __syncwarp: 'support.function.cuda.barrier.scope-warp.scord',
  });
  assert.deepEqual(scopes('myatomicAdd atomicAddition atomicAdd_blocks threadfence'), {});
});

test('vscode-tmgrammar-test: the scopes each construct gets, injected into cuda-cpp', () => {
  // The injection is loaded from package.json's contribution, as VS Code loads it; the base
  // grammar is a stand-in for VS Code's own cuda-cpp grammar (comments, strings).
  const tool = path.join(ROOT, 'node_modules', 'vscode-tmgrammar-test', 'dist', 'unit.js');
  const r = spawnSync(process.execPath, [tool, '-g', 'test/grammar/cuda-cpp.base.tmLanguage.json', 'test/grammar/scopes.test.cu'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /scopes\.test\.cu run successfuly/);
});
