// The seed of the clang cache: what every new installation would otherwise make on its first
// compile of a C++ CUDA program (the standard prelude's precompiled headers for both passes,
// with the default flags, and the identifiers of the files they read), made by the build and
// shipped beside the bundles. The cache reads it after its own folder (cache.ts); its keys name
// the project's headers by their mounted path, so it holds wherever the extension is installed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { entryFile, packSeedEntry, seedFile } from './cache';
import { configureToolchain, preludeIdentifierKey, preludeIdentifierSet, preludePlan, projectHeaderFiles } from './compile';
import { DEFAULT_ARCH } from './flags';
import { headerFolder } from './headers';
import { mountProjectHeaders } from './paths';

/** The unit the seed is made for: a CUDA file with the default standard and architecture. */
const SEED_UNIT = { file: 'prelude.cu' };

/**
 * Makes the seed in `dir` unless it is there and current (every entry the default flags would
 * look up), each entry compressed (cache.ts seedFile; `quality`: brotli's, 11 unless given).
 * Written in a folder beside it, then renamed: a seed is whole or absent. Returns whether it
 * had to be made; throws when the prelude cannot be made.
 */
export async function makeSeed(dir: string, options: { quality?: number } = {}): Promise<boolean> {
  const headers = headerFolder();
  mountProjectHeaders(headers);
  const projectHeaders = projectHeaderFiles(headers);
  const device = preludePlan('device', SEED_UNIT, headers, projectHeaders, DEFAULT_ARCH);
  const host = preludePlan('host', SEED_UNIT, headers, projectHeaders, DEFAULT_ARCH);
  const keys = [device.key, host.key, preludeIdentifierKey(device, host)];
  if (keys.every((k) => fs.existsSync(seedFile(dir, k)))) return false;
  const temp = `${dir}.${process.pid}.tmp`;
  fs.rmSync(temp, { recursive: true, force: true });
  configureToolchain({ dir: temp, seeds: [] });
  if (!(await preludeIdentifierSet(device, host))) throw new Error('the standard prelude could not be precompiled');
  const missing = keys.filter((k) => !fs.existsSync(entryFile(temp, k)));
  if (missing.length) throw new Error(`the seed lacks ${missing.length} of its entries`);
  await Promise.all(keys.map((k) => packSeedEntry(entryFile(temp, k), seedFile(temp, k), options.quality)));
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  fs.renameSync(temp, dir);
  return true;
}
