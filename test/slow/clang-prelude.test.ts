// The standard prelude (sims/clang/toolchain/prelude.ts) through clang: the build's seed makes
// a new cache's first compile of a C++ CUDA program use it without making it; a unit whose
// macros a prelude header reads, or whose names clash with ones it did not include, is
// compiled as written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compileDevice, compileHost, configureToolchain, linkHost } from '../../sims/clang/toolchain';
import { PRELUDE_HEADERS } from '../../sims/clang/toolchain/prelude';
import { makeSeed } from '../../sims/clang/toolchain/seed';
import { scratchUnits, unit } from '../support/scratchUnits';

const { dir: scratch, write } = scratchUnits('scord-clang-prelude-');
const SEED = path.join(scratch, 'seed');

/** The names and sizes of the files of a cache folder. */
function entryNames(dir: string): { name: string; size: number }[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => ({ name: e.name, size: fs.statSync(path.join(e.parentPath, e.name)).size }));
}

const PROGRAM = `#include <cstdlib>
#include <iostream>
#include <vector>
using namespace std;
__global__ void fill(int *out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = SCALE * i; }
int main() {
  vector<int> host(64);
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  fill<<<2, 32>>>(d, 64);
  cudaMemcpy(host.data(), d, 64 * sizeof(int), cudaMemcpyDeviceToHost);
  cout << host[63] << endl;
  return 0;
}
`;

test('the seed is made once; a new cache then compiles a C++ CUDA program with its prelude without making one', async () => {
  // (Compressed quickly: the build's own seed is compressed at brotli's best, which takes a minute.)
  assert.equal(await makeSeed(SEED, { quality: 1 }), true);
  assert.equal(await makeSeed(SEED, { quality: 1 }), false, 'a current seed is left as it is');
  const cache = path.join(scratch, 'cache-seeded');
  configureToolchain({ dir: cache, seeds: [SEED] });
  const file = write('seeded/scale.cu', PROGRAM);
  const [device, host] = await Promise.all([compileDevice(unit(file, { defines: ['SCALE=3'] })), compileHost(unit(file, { defines: ['SCALE=3'] }))]);
  assert.ok(device.ok && host.ok, JSON.stringify([device.diagnostics, host.diagnostics]));
  assert.deepEqual(device.precompiled, [...PRELUDE_HEADERS]);
  assert.deepEqual(host.precompiled, [...PRELUDE_HEADERS]);
  assert.match(device.ll, /mul nsw i32 3,/, 'the -D the prelude was made without reaches the unit');
  // The precompiled headers (megabytes each) came from the seed: the new cache holds the unit's
  // results and the seed's entries inflated, none made.
  const seedKeys = new Set(fs.readdirSync(SEED, { recursive: true }).map(String).filter((f) => f.endsWith('.br')).map((f) => path.basename(f, '.br')));
  const big = entryNames(cache).filter((e) => e.size >= 1 << 20);
  assert.equal(big.length, 2, JSON.stringify(big));
  assert.ok(big.every((e) => seedKeys.has(path.basename(e.name, '.bin'))), JSON.stringify(big));
  const link = await linkHost([host.object]);
  assert.ok(link.ok, JSON.stringify(link.diagnostics));
});

test("a unit defining a macro one of the prelude's files reads is compiled with its own headers", async () => {
  configureToolchain({ dir: path.join(scratch, 'cache-macros'), seeds: [SEED], precompiledHeaders: 'eager' });
  // ('eager': its own precompiled header is made at once, so it says which headers the unit was compiled with.)
  // BUFSIZ is stdio.h's (in the prelude, not included here): defined first, the header keeps the program's.
  const flagged = await compileHost(unit(write('macros/flag.cu', PROGRAM), { defines: ['SCALE=2', 'BUFSIZ=64'] }));
  assert.ok(flagged.ok, JSON.stringify(flagged.diagnostics));
  assert.deepEqual(flagged.precompiled, ['cstdlib', 'iostream', 'vector']);
  const defined = await compileHost(unit(write('macros/define.cu', PROGRAM.replace('using namespace std;', 'using namespace std;\n#define BUFSIZ 64\n#define SCALE 2'))));
  assert.ok(defined.ok, JSON.stringify(defined.diagnostics));
  assert.deepEqual(defined.precompiled, ['cstdlib', 'iostream', 'vector']);
  // A macro no prelude file names: the prelude, until the unit's own header is made.
  configureToolchain({ dir: path.join(scratch, 'cache-macros'), seeds: [SEED] });
  const other = await compileHost(unit(write('macros/other.cu', PROGRAM), { defines: ['SCALE=2', 'NBLOCKS=4'] }));
  assert.deepEqual(other.precompiled, [...PRELUDE_HEADERS]);
});

test('the prelude stands in for a unit\'s own precompiled header until that is made, the second time it is wanted', async () => {
  configureToolchain({ dir: path.join(scratch, 'cache-own'), seeds: [SEED] });
  const file = write('own/scale.cu', PROGRAM);
  const first = await compileHost(unit(file, { defines: ['SCALE=5'] }));
  assert.deepEqual(first.precompiled, [...PRELUDE_HEADERS]);
  const edited = await compileHost(unit(file, { defines: ['SCALE=5'], text: `${PROGRAM}// edited\n` }));
  assert.ok(edited.ok, JSON.stringify(edited.diagnostics));
  assert.deepEqual(edited.precompiled, ['cstdlib', 'iostream', 'vector']);
});

test('a name the prelude makes ambiguous under using namespace std: compiled again as written, and the result kept for the next time', async () => {
  configureToolchain({ dir: path.join(scratch, 'cache-ambiguous'), seeds: [SEED] });
  // std::count is <algorithm>'s, which the prelude holds and this file does not include.
  const text = '#include <vector>\nusing namespace std;\nint count = 0;\n__global__ void k(int *p) { p[0] = 1; }\nint main() { vector<int> v(3); count += v.size(); return count; }\n';
  const file = write('ambiguous/count.cu', text);
  for (const pass of [compileDevice, compileHost]) {
    const r = await pass(unit(file));
    assert.ok(r.ok, JSON.stringify(r.diagnostics));
    assert.equal(r.attempts, 2, 'with the prelude (ambiguous), then as written');
    assert.equal(r.precompiled, undefined);
    assert.equal((await pass(unit(file))).cached, 'memory', 'the next compile of the same text finds the result at once');
  }
  // A genuine error (in a unit whose own header is not wanted yet) is reported from the compile with the prelude.
  const bad = await compileHost(unit(write('ambiguous/bad.cu', '#include <string>\nint main() { std::string s; return s.size() }\n')));
  assert.equal(bad.ok, false);
  assert.deepEqual(bad.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.line, d.message]), [[2, "expected ';' after return statement"]]);
  assert.deepEqual(bad.precompiled, [...PRELUDE_HEADERS]);
  assert.equal(bad.attempts, 1, 'an error the prelude cannot cause is not compiled twice');
});
