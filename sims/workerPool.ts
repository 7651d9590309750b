// Work items spread over worker threads of the running script (the CLI's --schedules N on
// --jobs threads). Each thread loads the script again, with the same large stack the analyses
// need (largeStack.ts), takes the next item when it has finished one, and posts each result
// back; results come back in the items' order, whichever thread ran them and however many
// there were, so what is made of them does not depend on the number of threads.
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { ANALYSIS_STACK_MB } from './largeStack';

interface PoolData {
  pool: { argv: string[] };
}

type ToWorker = { item: number } | { done: true };
type FromWorker<T> = { ready: true } | { item: number; result: T } | { item: number; error: string };

/** Whether this thread is one of a pool's workers (started by runInWorkers). */
export function isPoolWorker(): boolean {
  return !!(workerData as Partial<PoolData> | undefined)?.pool;
}

/**
 * On a pool's worker thread: answers each item with `work(argv, item)` until told to stop.
 * `argv` is what the pool was started with (the command line, for the worker to read again).
 */
export function servePool<T>(work: (argv: string[], item: number) => Promise<T>): void {
  const { argv } = (workerData as PoolData).pool;
  const port = parentPort!;
  port.on('message', (m: ToWorker) => {
    if ('done' in m) {
      port.close();
      return;
    }
    work(argv, m.item).then(
      (result) => port.postMessage({ item: m.item, result } satisfies FromWorker<T>),
      (e: unknown) => port.postMessage({ item: m.item, error: e instanceof Error ? e.message : String(e) } satisfies FromWorker<T>),
    );
  });
  port.postMessage({ ready: true } satisfies FromWorker<T>);
}

/**
 * Runs items 0 … count - 1 on `jobs` threads of `script` (which must call servePool when
 * isPoolWorker()), and returns the results in item order. A thread that fails or dies fails
 * the whole run with its message.
 */
export function runInWorkers<T>(script: string, argv: string[], count: number, jobs: number): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  let finished = 0;
  const threads: Worker[] = [];
  return new Promise<T[]>((resolve, reject) => {
    let failed = false;
    const fail = (message: string): void => {
      if (failed) return;
      failed = true;
      for (const t of threads) void t.terminate();
      reject(new Error(message));
    };
    const feed = (t: Worker): void => {
      if (next < count) t.postMessage({ item: next++ } satisfies ToWorker);
      else t.postMessage({ done: true } satisfies ToWorker);
    };
    const started = Math.max(1, Math.min(jobs, count));
    for (let k = 0; k < started; k++) {
      // The workers' own output is not the command's (the report carries the program's).
      const t = new Worker(script, { workerData: { pool: { argv } } satisfies PoolData, resourceLimits: { stackSizeMb: ANALYSIS_STACK_MB }, stdout: true, stderr: true });
      t.stdout.resume();
      t.stderr.resume();
      threads.push(t);
      t.on('message', (m: FromWorker<T>) => {
        if ('ready' in m) return feed(t);
        if ('error' in m) return fail(m.error);
        results[m.item] = m.result;
        if (++finished === count) {
          for (const u of threads) u.postMessage({ done: true } satisfies ToWorker);
          resolve(results);
        } else feed(t);
      });
      t.on('error', (e) => fail(e.message));
      t.on('exit', (code) => {
        if (finished < count && code !== 0) fail(`a worker thread stopped (exit code ${code})`);
      });
    }
  });
}
