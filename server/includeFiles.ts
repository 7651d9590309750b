// The files open documents include, read off the server's main thread. The front end parses
// on the main thread and reads synchronously, so what it may include is read ahead, in the
// background, under the file policy (sims/files/policy.ts): before a document is parsed, its
// #include lines are followed (transitively) and each file found is read without blocking.
// A file the parse asks for that was not read ahead (a computed #include) counts as missing
// for that parse and is read now; when it arrives, the documents are parsed again.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { includeDirectives } from '../sims/clang/toolchain/sources';
import { MAX_FILES, readBoundedAsync, refusedPath, type FileLimits, type SourceRead } from '../sims/files/policy';

export interface IncludePolicy {
  limits: FileLimits;
  /** Folders includes must lie in (an untrusted workspace), or undefined: anywhere. */
  allowedRoots?: string[];
}

/** Why the policy refuses a path outright (a special folder, outside the allowed ones). */
function refusal(file: string, policy: IncludePolicy): SourceRead {
  const why = refusedPath(file, policy.allowedRoots);
  return why ? { refused: why } : undefined;
}

export class IncludeFiles {
  /** Path → what reading it gave (null: there is no such file). */
  private readonly cache = new Map<string, SourceRead | null>();
  private readonly reading = new Map<string, Promise<SourceRead | null>>();
  private policyKey = '';
  /** Characters of text held; past the limits' program total, the cache starts again. */
  private held = 0;

  constructor(
    /** A file that was not read ahead has arrived: parse what may include it again. */
    private readonly arrived: (file: string) => void,
  ) {}

  /** Sets the limits; files read under other ones are read again. */
  private configure(policy: IncludePolicy): void {
    const key = JSON.stringify(policy.limits);
    if (key === this.policyKey) return;
    this.policyKey = key;
    this.cache.clear();
    this.held = 0;
  }

  /** A file changed on disk: read it again when next asked. */
  invalidate(file: string): void {
    const known = this.cache.get(file);
    if (known && 'text' in known) this.held -= known.text.length;
    this.cache.delete(file);
  }

  /**
   * Reads, off the main thread, what `text` (the document `fileName`) may include: quoted
   * names from the includer's folder, then the include paths. `open` gives open documents'
   * text, which wins over the disk.
   */
  async prefetch(fileName: string, text: string, includePaths: string[], policy: IncludePolicy, open: (file: string) => string | undefined): Promise<void> {
    this.configure(policy);
    // A document a broken client opened without text has nothing to include.
    if (typeof text !== 'string') return;
    const pending: { file: string; text: string }[] = [{ file: fileName, text }];
    const scanned = new Set<string>();
    while (pending.length > 0 && scanned.size < MAX_FILES) {
      const current = pending.pop()!;
      if (scanned.has(current.file)) continue;
      scanned.add(current.file);
      for (const d of includeDirectives(current.text)) {
        const dirs = path.isAbsolute(d.name) ? [''] : [...(d.quoted ? [path.dirname(current.file)] : []), ...includePaths];
        for (const dir of dirs) {
          const candidate = path.resolve(dir, d.name);
          const opened = open(candidate);
          if (opened !== undefined) {
            pending.push({ file: candidate, text: opened });
            break;
          }
          if (refusal(candidate, policy)) break;
          const r = await this.load(candidate, policy);
          if (r === null) continue;
          if (r && 'text' in r) pending.push({ file: candidate, text: r.text });
          break;
        }
      }
    }
  }

  /**
   * What the front end gets for `file`: its text, why it is refused, or undefined when there
   * is no such file — or when it has not been read yet, in which case it is read now and
   * `arrived` follows.
   */
  read(file: string, policy: IncludePolicy): SourceRead {
    this.configure(policy);
    const known = this.cache.get(file);
    if (known !== undefined) return known === null ? undefined : (refusal(file, policy) ?? known);
    // A refused path is said at once (a stat: it never blocks); only reads wait.
    if (fs.existsSync(file)) {
      const refused = refusal(file, policy);
      if (refused) return refused;
    }
    void this.load(file, policy).then((r) => {
      if (r !== null) this.arrived(file);
    });
    return undefined;
  }

  private load(file: string, policy: IncludePolicy): Promise<SourceRead | null> {
    const known = this.cache.get(file);
    if (known !== undefined) return Promise.resolve(known);
    let p = this.reading.get(file);
    if (!p) {
      p = readUnderPolicy(file, policy).then((r) => {
        this.reading.delete(file);
        const size = r && 'text' in r ? r.text.length : 0;
        if (this.held + size > policy.limits.maxTotalBytes) {
          this.cache.clear();
          this.held = 0;
        }
        this.held += size;
        this.cache.set(file, r);
        return r;
      });
      this.reading.set(file, p);
    }
    return p;
  }
}

/** One file under the policy, without blocking: null when there is no such file. */
async function readUnderPolicy(file: string, policy: IncludePolicy): Promise<SourceRead | null> {
  const st = await fs.promises.stat(file).catch(() => undefined);
  if (!st || st.isDirectory()) return null;
  const why = refusedPath(file);
  if (why) return { refused: why };
  const bytes = await readBoundedAsync(file, policy.limits.maxFileBytes, policy.limits);
  if ('reason' in bytes) return bytes.reason === 'no such file' ? null : { refused: bytes.reason };
  return { text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') };
}
