// Results of clang and wasm-ld, kept by a content hash of everything they read.
//
// A key covers the toolchain's version, the exact command line and every input file's bytes,
// so a hit is always the result the tools would give again. Entries live in memory (a
// least-recently-used map bounded by bytes) and on disk (one file per key, written to a
// temporary name and renamed, so concurrent processes never read half an entry), which lets a
// second `scord check` of an unchanged program skip clang entirely.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';

/** One stored result: a small JSON part and a binary part. */
export interface CacheEntry {
  meta: unknown;
  payload: Uint8Array;
}

export interface CacheOptions {
  /** Folder of the disk cache; null: memory only. Default os.tmpdir()/scord-clang-cache. */
  dir?: string | null;
  /** Bytes kept in memory. */
  memoryBytes?: number;
  /** Bytes kept on disk before the least recently used entries are removed. */
  diskBytes?: number;
  /**
   * Read-only folders of entries made beforehand (the build's seed: seed.ts), consulted after
   * memory and `dir`, each entry compressed (seedFile). Default: the seed beside the bundles,
   * if it is there.
   */
  seeds?: string[];
}

const MAGIC = 'SCORDCC1';

export function defaultCacheDir(): string {
  return path.join(os.tmpdir(), 'scord-clang-cache');
}

/** A hash that builds a key from parts; parts are length-prefixed so they cannot run together. */
export class KeyBuilder {
  private readonly hash = createHash('sha256');

  add(part: string | Uint8Array): this {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
    this.hash.update(`${typeof part === 'string' ? 's' : 'b'}${bytes.length}:`);
    this.hash.update(bytes);
    return this;
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

/** The hash of one file's bytes, remembered per byte array (headers are hashed once per unit set). */
const fileHashes = new WeakMap<Uint8Array, string>();
export function contentHash(bytes: Uint8Array): string {
  let h = fileHashes.get(bytes);
  if (!h) {
    h = createHash('sha256').update(bytes).digest('hex');
    fileHashes.set(bytes, h);
  }
  return h;
}

export class ResultCache {
  private readonly memory = new Map<string, CacheEntry & { size: number }>();
  private memoryUsed = 0;
  private readonly dir: string | null;
  private readonly memoryBytes: number;
  private readonly diskBytes: number;
  /** The seeds' keys, each with the seeds that hold it, in the seeds' order (listed once: seeds are read-only). */
  private readonly seeded: Map<string, string[]>;
  /** Seed entries being inflated, by key (inflate). */
  private readonly inflating = new Map<string, Promise<CacheEntry | undefined>>();
  private writes = 0;

  constructor(options: CacheOptions = {}) {
    this.dir = options.dir === undefined ? defaultCacheDir() : options.dir;
    this.memoryBytes = options.memoryBytes ?? 192 * 1024 * 1024;
    this.diskBytes = options.diskBytes ?? 1024 * 1024 * 1024;
    this.seeded = seedIndex(options.seeds ?? defaultSeeds());
    this.inflateSeeds();
  }

  /**
   * A seed's entries are compressed (a precompiled header is 13 MB, 6 MB compressed: the
   * packaged extension stays under 40 MB), and inflating one costs a sixth of a second. So a
   * new cache starts inflating into its folder, on zlib's threads, every seed entry the folder
   * lacks, and a compile that wants one waits for it there (getAsync): the two passes' headers
   * inflate side by side while the calling thread goes on. A synchronous `get` inflates on the
   * spot (readSeed).
   */
  private inflateSeeds(): void {
    if (!this.dir) return;
    for (const [key, seeds] of this.seeded) if (!fs.existsSync(this.fileOf(key))) void this.inflate(seeds, key);
  }

  /**
   * The seed's entry of `key` inflated (calls while it inflates share it), kept in the cache's
   * folder. Once inflated it is forgotten here: the folder and the memory hold it, and a
   * promise kept would hold its megabytes for the cache's life.
   */
  private inflate(seeds: string[], key: string): Promise<CacheEntry | undefined> {
    let inflating = this.inflating.get(key);
    if (!inflating) {
      inflating = (async () => {
        for (const seed of seeds) {
          const bytes = await new Promise<Buffer | undefined>((resolve) =>
            fs.readFile(seedFile(seed, key), (error, packed) => (error ? resolve(undefined) : zlib.brotliDecompress(packed, (failed, inflated) => resolve(failed ? undefined : inflated)))),
          );
          const entry = bytes && this.keepInflated(key, bytes);
          if (entry) return entry;
        }
        return undefined;
      })().finally(() => this.inflating.delete(key));
      this.inflating.set(key, inflating);
    }
    return inflating;
  }

  /** As `get`, but a seed entry is inflated off the calling thread (or its inflating in the background awaited). */
  async getAsync(key: string): Promise<CacheEntry | undefined> {
    const hit = this.memoryOrFolder(key);
    if (hit) return hit;
    const seeds = this.seeded.get(key);
    const entry = seeds && (await this.inflate(seeds, key));
    if (entry) this.remember(key, entry);
    return entry;
  }
  get folder(): string | null {
    return this.dir;
  }

  inMemory(key: string): boolean {
    return this.memory.has(key);
  }

  get(key: string): CacheEntry | undefined {
    const hit = this.memoryOrFolder(key);
    if (hit) return hit;
    const seeded = this.readSeed(key);
    if (seeded) this.remember(key, seeded);
    return seeded;
  }

  private memoryOrFolder(key: string): CacheEntry | undefined {
    const hit = this.memory.get(key);
    if (hit) {
      this.memory.delete(key);
      this.memory.set(key, hit);
      return hit;
    }
    const disk = this.dir ? readEntry(this.fileOf(key), true) : undefined;
    if (disk) this.remember(key, disk);
    return disk;
  }

  /** A seed's entry, inflated on the spot (and kept in the cache's folder, so that it is inflated once). */
  private readSeed(key: string): CacheEntry | undefined {
    for (const seed of this.seeded.get(key) ?? []) {
      let bytes: Buffer;
      try {
        bytes = zlib.brotliDecompressSync(fs.readFileSync(seedFile(seed, key)));
      } catch {
        continue;
      }
      const entry = this.keepInflated(key, bytes);
      if (entry) return entry;
    }
    return undefined;
  }

  /** An inflated seed entry's bytes as the entry, written into the cache's folder unless it has it; undefined when they are not whole. */
  private keepInflated(key: string, bytes: Buffer): CacheEntry | undefined {
    const entry = parseEntry(bytes);
    if (entry && this.dir && !fs.existsSync(this.fileOf(key))) writeBytes(this.fileOf(key), bytes);
    return entry;
  }

  put(key: string, entry: CacheEntry, options: { disk?: boolean } = {}): void {
    this.remember(key, entry);
    if (options.disk !== false) this.writeDisk(key, entry);
  }

  /** Drops the in-memory entries (tests use this to see the disk cache work). */
  clearMemory(): void {
    this.memory.clear();
    this.memoryUsed = 0;
  }

  private remember(key: string, entry: CacheEntry): void {
    const size = entry.payload.byteLength + JSON.stringify(entry.meta).length * 2 + 256;
    if (size > this.memoryBytes / 2) return;
    const old = this.memory.get(key);
    if (old) {
      this.memoryUsed -= old.size;
      this.memory.delete(key);
    }
    this.memory.set(key, { ...entry, size });
    this.memoryUsed += size;
    for (const [k, v] of this.memory) {
      if (this.memoryUsed <= this.memoryBytes) break;
      this.memory.delete(k);
      this.memoryUsed -= v.size;
    }
  }

  private fileOf(key: string): string {
    return entryFile(this.dir!, key);
  }

  private writeDisk(key: string, entry: CacheEntry): void {
    if (!this.dir) return;
    if (!writeEntry(this.fileOf(key), entry)) return;
    if (++this.writes % 32 === 1) this.prune();
  }

  /** Keeps the disk cache under its size: removes the least recently used entries. */
  private prune(): void {
    try {
      const entries: { file: string; size: number; time: number }[] = [];
      for (const sub of fs.readdirSync(this.dir!)) {
        const folder = path.join(this.dir!, sub);
        let names: string[];
        try {
          names = fs.readdirSync(folder);
        } catch {
          continue;
        }
        for (const name of names) {
          const file = path.join(folder, name);
          const st = fs.statSync(file, { throwIfNoEntry: false });
          if (!st?.isFile()) continue;
          // Temporary files of a writer that died are removed after an hour.
          if (name.endsWith('.tmp') && Date.now() - st.mtimeMs > 3600_000) fs.rmSync(file, { force: true });
          else if (name.endsWith('.bin')) entries.push({ file, size: st.size, time: st.mtimeMs });
        }
      }
      let total = entries.reduce((n, e) => n + e.size, 0);
      if (total <= this.diskBytes) return;
      entries.sort((a, b) => a.time - b.time);
      for (const e of entries) {
        if (total <= this.diskBytes * 0.8) break;
        fs.rmSync(e.file, { force: true });
        total -= e.size;
      }
    } catch {
      // Pruning is best effort.
    }
  }
}

/** Where an entry of `key` is kept in a cache folder. */
export function entryFile(dir: string, key: string): string {
  return path.join(dir, key.slice(0, 2), `${key}.bin`);
}

/** Where a seed keeps the entry of `key`: the entry's file, compressed with brotli. */
export function seedFile(dir: string, key: string): string {
  return path.join(dir, key.slice(0, 2), `${key}.br`);
}

/** Each key the seeds hold, with the seeds that hold it (in their order). */
function seedIndex(seeds: string[]): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const seed of seeds) {
    try {
      for (const sub of fs.readdirSync(seed)) {
        for (const name of fs.readdirSync(path.join(seed, sub))) {
          if (!name.endsWith('.br')) continue;
          const key = name.slice(0, -3);
          index.set(key, [...(index.get(key) ?? []), seed]);
        }
      }
    } catch {
      // A seed that cannot be listed holds nothing this cache will read.
    }
  }
  return index;
}

/**
 * Compresses the cache entry in `file` into a seed's entry (seedFile) and removes it: brotli
 * at its best (`quality` 11; tests that make a seed of their own take less), with a window
 * that holds all of a precompiled header.
 */
export async function packSeedEntry(file: string, packed: string, quality = 11): Promise<void> {
  const bytes = fs.readFileSync(file);
  const params = { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, [zlib.constants.BROTLI_PARAM_LGWIN]: 24, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length };
  const out = await new Promise<Buffer>((resolve, reject) => zlib.brotliCompress(bytes, { params }, (e, b) => (e ? reject(e) : resolve(b))));
  if (!writeBytes(packed, out)) throw new Error(`could not write ${packed}`);
  fs.rmSync(file);
}

/** An entry's file, if it is whole; `touch`: mark it used, so pruning removes what has not been read for longest. */
function readEntry(file: string, touch: boolean): CacheEntry | undefined {
  try {
    const entry = parseEntry(fs.readFileSync(file));
    if (entry && touch) {
      const now = new Date();
      fs.utimes(file, now, now, () => undefined);
    }
    return entry;
  } catch {
    return undefined;
  }
}

/** An entry from its file's bytes, if they are whole. */
function parseEntry(data: Buffer): CacheEntry | undefined {
  try {
    if (data.length < 12 || data.toString('latin1', 0, 8) !== MAGIC) return undefined;
    const metaLength = data.readUInt32LE(8);
    if (12 + metaLength > data.length) return undefined;
    const meta: unknown = JSON.parse(data.toString('utf8', 12, 12 + metaLength));
    const payload = new Uint8Array(data.buffer, data.byteOffset + 12 + metaLength, data.length - 12 - metaLength);
    return { meta, payload };
  } catch {
    return undefined;
  }
}

/** Writes an entry's file whole or not at all (a temporary name, then renamed); whether it was written. */
function writeEntry(file: string, entry: CacheEntry): boolean {
  const meta = Buffer.from(JSON.stringify(entry.meta), 'utf8');
  const header = Buffer.alloc(12);
  header.write(MAGIC, 0, 'latin1');
  header.writeUInt32LE(meta.length, 8);
  return writeBytes(file, Buffer.concat([header, meta, entry.payload]));
}

/** Writes a file whole or not at all (a temporary name, then renamed); whether it was written. */
function writeBytes(file: string, bytes: Uint8Array): boolean {
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(temp, bytes);
    fs.renameSync(temp, file);
    return true;
  } catch {
    // A cache that cannot be written only costs time.
    try {
      fs.rmSync(temp, { force: true });
    } catch {
      /* nothing to remove */
    }
    return false;
  }
}

/** The folder of the build's seed (seed.ts): beside the bundles, or in dist/ when run from the sources. */
const SEED_FOLDER = 'clang-seed';

function defaultSeeds(): string[] {
  const candidates = [path.join(__dirname, SEED_FOLDER), path.join(__dirname, '..', '..', '..', 'dist', SEED_FOLDER)];
  return candidates.filter((c) => fs.existsSync(c));
}
