// The clang cache's seed as the cache reads it (sims/clang/toolchain/cache.ts): entries stored
// compressed, inflated into the cache's own folder once (in the background from the cache's
// start, awaited by a compile that wants one, or on the spot by a synchronous lookup), and a
// damaged one read as no entry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { entryFile, packSeedEntry, ResultCache, seedFile } from '../../../sims/clang/toolchain/cache';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-seed-cache-'));
test.after(() => fs.rmSync(scratch, { recursive: true, force: true }));

const KEY = 'ab'.repeat(32);
const PAYLOAD = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7) % 251);

/** A seed folder holding one entry, compressed. */
async function seedWithEntry(name: string): Promise<string> {
  const seed = path.join(scratch, name);
  new ResultCache({ dir: seed, seeds: [] }).put(KEY, { meta: { ok: true, note: name }, payload: PAYLOAD });
  await packSeedEntry(entryFile(seed, KEY), seedFile(seed, KEY), 1);
  assert.ok(!fs.existsSync(entryFile(seed, KEY)) && fs.existsSync(seedFile(seed, KEY)), 'the seed keeps the entry compressed only');
  return seed;
}

test('an entry wanted at once is inflated on the spot and kept in the cache folder', async () => {
  const seed = await seedWithEntry('seed-now');
  const dir = path.join(scratch, 'cache-now');
  const entry = new ResultCache({ dir, seeds: [seed] }).get(KEY);
  assert.deepEqual(entry?.meta, { ok: true, note: 'seed-now' });
  assert.deepEqual(entry?.payload, PAYLOAD);
  assert.ok(fs.existsSync(entryFile(dir, KEY)), 'inflated into the folder');
  // A new cache of the same folder reads it from there, seed or not.
  assert.deepEqual(new ResultCache({ dir, seeds: [] }).get(KEY)?.payload, PAYLOAD);
});

test('a new cache inflates the seed into its folder in the background', async () => {
  const seed = await seedWithEntry('seed-background');
  const dir = path.join(scratch, 'cache-background');
  new ResultCache({ dir, seeds: [seed] });
  for (let waited = 0; !fs.existsSync(entryFile(dir, KEY)) && waited < 10_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(new ResultCache({ dir, seeds: [] }).get(KEY)?.payload, PAYLOAD);
});

test('a compile that wants a seed entry waits for it off the calling thread, and it is kept', async () => {
  const seed = await seedWithEntry('seed-async');
  const dir = path.join(scratch, 'cache-async');
  const cache = new ResultCache({ dir, seeds: [seed] });
  const [a, b] = await Promise.all([cache.getAsync(KEY), cache.getAsync(KEY)]);
  assert.deepEqual(a?.payload, PAYLOAD);
  assert.deepEqual(b?.meta, { ok: true, note: 'seed-async' });
  assert.ok(fs.existsSync(entryFile(dir, KEY)));
  assert.equal(await cache.getAsync('cd'.repeat(32)), undefined, 'a key the seed does not have');
});

test('a memory-only cache reads the seed too', async () => {
  const seed = await seedWithEntry('seed-memory');
  assert.deepEqual(new ResultCache({ dir: null, seeds: [seed] }).get(KEY)?.payload, PAYLOAD);
  assert.deepEqual((await new ResultCache({ dir: null, seeds: [seed] }).getAsync(KEY))?.payload, PAYLOAD);
});

test('a damaged seed entry is no entry, and nothing is written for it', async () => {
  const seed = path.join(scratch, 'seed-damaged');
  fs.mkdirSync(path.dirname(seedFile(seed, KEY)), { recursive: true });
  fs.writeFileSync(seedFile(seed, KEY), Buffer.from('not brotli at all'));
  const dir = path.join(scratch, 'cache-damaged');
  const cache = new ResultCache({ dir, seeds: [seed] });
  assert.equal(cache.get(KEY), undefined);
  await new Promise((r) => setTimeout(r, 200));
  assert.ok(!fs.existsSync(entryFile(dir, KEY)));
});
