// The resident memory of a process and every process below it, as the hostile-input tests
// and the bench measure the language server (its worker threads live in the same process),
// and the server's analysis processes.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';

/** The server's analysis processes (dist/analysisHost.js) now, by pid. */
export function analysisProcesses(serverPid: number): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(serverPid)], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((l) => l.includes('analysisHost.js'))
    .map((l) => Number.parseInt(l.trim(), 10));
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
