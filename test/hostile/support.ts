// Shared by the hostile-input tests: a scratch folder, the CLI run in this process, and the
// resident memory of a process and its descendants.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { scord } from '../../sims/cli';

export function scratch(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `scord-hostile-${prefix}-`));
}

export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** `scord ARGV…` in this process, with its output captured. */
export async function cli(argv: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const t0 = performance.now();
  const status = await scord(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { status, stdout, stderr, ms: performance.now() - t0 };
}

/** Writes `text` to `dir/name` and returns the path. */
export function write(dir: string, name: string, text: string | Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

/** Bytes resident for `pid` and every process below it (Linux /proc); undefined elsewhere. */
export function treeRssBytes(pid: number): number | undefined {
  const status = (p: number): string | undefined => {
    try {
      return fs.readFileSync(`/proc/${p}/status`, 'utf8');
    } catch {
      return undefined;
    }
  };
  if (!status(pid)) return undefined;
  let total = 0;
  const pending = [pid];
  const seen = new Set<number>();
  while (pending.length) {
    const p = pending.pop()!;
    if (seen.has(p)) continue;
    seen.add(p);
    const m = /VmRSS:\s+(\d+) kB/.exec(status(p) ?? '');
    if (m) total += Number(m[1]) * 1024;
    let tasks: string[] = [];
    try {
      tasks = fs.readdirSync(`/proc/${p}/task`);
    } catch {
      continue;
    }
    for (const t of tasks) {
      let children = '';
      try {
        children = fs.readFileSync(`/proc/${p}/task/${t}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const c of children.split(/\s+/).filter(Boolean)) pending.push(Number(c));
    }
  }
  return total;
}
