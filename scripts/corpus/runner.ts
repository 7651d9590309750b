// Runs `scord` in child processes: each one with a wall-clock limit and a heap cap, at most a
// few at a time. A child that runs past its limit is killed with its whole process group, so
// a measurement never hangs on one program.
import { spawn } from 'node:child_process';

export interface Limits {
  /** Wall-clock milliseconds a run may take before it is killed. */
  timeoutMs: number;
  /** Megabytes of JavaScript heap the CLI's process may use (`--max-old-space-size`). */
  memoryMb: number;
}

export interface CliRun {
  args: string[];
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Output kept per stream; a report bigger than this is cut (and then fails to parse as JSON). */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/** Runs `node CLI ARGS…` in `cwd`, with no standard input. */
export function runCli(cli: string, args: string[], cwd: string, limits: Limits): Promise<CliRun> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${limits.memoryMb}`, cli, ...args], {
      cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    child.stdout.on('data', (b: Buffer) => {
      if (outBytes < MAX_OUTPUT_BYTES) out.push(b);
      outBytes += b.length;
    });
    child.stderr.on('data', (b: Buffer) => {
      if (errBytes < MAX_OUTPUT_BYTES) err.push(b);
      errBytes += b.length;
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, limits.timeoutMs);
    let settled = false;
    const finish = (exitCode: number | null, signal: string | null, extra = ''): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({
        args,
        exitCode,
        signal,
        timedOut,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8') + extra,
        ms: Date.now() - started,
      });
    };
    child.on('error', (e) => finish(null, null, `\ncould not start the CLI: ${e.message}`));
    child.on('close', (code, signal) => finish(code, signal));
  });
}

/** Kills a detached child and everything it started (its process group). */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/**
 * Calls `work` on every item with at most `jobs` calls in flight; `done` hears each result as
 * it comes. The results come back in the items' order.
 */
export async function mapLimited<T, R>(items: readonly T[], jobs: number, work: (item: T, index: number) => Promise<R>, done?: (result: R, index: number) => void): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i], i);
      done?.(results[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, worker));
  return results;
}
