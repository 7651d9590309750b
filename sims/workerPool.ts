// Work items spread over threads (the CLI's --schedules N on --jobs threads): the calling
// thread and jobs - 1 worker threads of the running script, which load it again with the same
// large stack the analyses need (largeStack.ts). Every thread takes the next item from one
// shared counter when it has finished one, so no thread waits for a message to get work and
// the calling thread, already warm, starts at once while the workers are still loading.
// Results come back in the items' order, whichever thread ran them and however many there
// were, so what is made of them does not depend on the number of threads.
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { ANALYSIS_STACK_MB } from './largeStack';

interface PoolData {
  pool: {
    argv: string[];
    /** One Int32: the next item to take, shared by every thread of the pool. */
    next: SharedArrayBuffer;
    count: number;
  };
}

type FromWorker<T> = { item: number; result: T } | { error: string };

/** Whether this thread is one of a pool's workers (started by runInWorkers). */
export function isPoolWorker(): boolean {
  return !!(workerData as Partial<PoolData> | undefined)?.pool;
}

/** The next item of a pool, or -1 when every item is taken. */
function take(next: Int32Array, count: number): number {
  const item = Atomics.add(next, 0, 1);
  return item < count ? item : -1;
}

/**
 * One thread's share of a pool: takes items until none is left (or `stop()`), hands each
 * result to `done`, and stops at the first failure, handed to `failed`. It yields between two
 * items, so that a thread that also receives the others' results (the calling one) lets them in.
 */
async function takeItems<T>(next: Int32Array, count: number, work: (item: number) => Promise<T>, done: (item: number, result: T) => void, failed: (message: string) => void, stop: () => boolean = () => false): Promise<void> {
  for (let item = take(next, count); item >= 0 && !stop(); item = take(next, count)) {
    let result: T;
    try {
      result = await work(item);
    } catch (e) {
      failed(e instanceof Error ? e.message : String(e));
      return;
    }
    done(item, result);
    await new Promise((r) => setImmediate(r));
  }
}

/**
 * On a pool's worker thread: answers items with `work(argv, item)` until none is left.
 * `argv` is what the pool was started with (the command line, for the worker to read again).
 */
export function servePool<T>(work: (argv: string[], item: number) => Promise<T>): void {
  const { argv, next, count } = (workerData as PoolData).pool;
  const port = parentPort!;
  void takeItems(
    new Int32Array(next),
    count,
    (item) => work(argv, item),
    (item, result) => port.postMessage({ item, result } satisfies FromWorker<T>),
    (error) => port.postMessage({ error } satisfies FromWorker<T>),
  ).then(() => port.close());
}

/**
 * Runs items 0 … count - 1 on `jobs` threads: this one, with `here(item)`, and jobs - 1
 * threads of `script` (which must call servePool when isPoolWorker()); returns the results in
 * item order. A thread that fails or dies fails the whole run with its message.
 */
export function runInWorkers<T>(script: string, argv: string[], count: number, jobs: number, here: (item: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  const next = new SharedArrayBuffer(4);
  const counter = new Int32Array(next);
  let finished = 0;
  const threads: Worker[] = [];
  return new Promise<T[]>((resolve, reject) => {
    let settled = false;
    const end = (error?: string): void => {
      if (settled) return;
      settled = true;
      // Every result is in (or the run failed): a worker still loading has nothing left to do.
      for (const t of threads) void t.terminate();
      if (error === undefined) resolve(results);
      else reject(new Error(error));
    };
    const done = (item: number, result: T): void => {
      results[item] = result;
      if (++finished === count) end();
    };
    const workers = Math.max(0, Math.min(jobs, count) - 1);
    for (let k = 0; k < workers; k++) {
      // The workers' own output is not the command's (the report carries the program's).
      const t = new Worker(script, { workerData: { pool: { argv, next, count } } satisfies PoolData, resourceLimits: { stackSizeMb: ANALYSIS_STACK_MB }, stdout: true, stderr: true });
      t.stdout.resume();
      t.stderr.resume();
      threads.push(t);
      t.on('message', (m: FromWorker<T>) => ('error' in m ? end(m.error) : done(m.item, m.result)));
      t.on('error', (e) => end(e.message));
      t.on('exit', (code) => {
        if (finished < count && code !== 0) end(`a worker thread stopped (exit code ${code})`);
      });
    }
    void takeItems(counter, count, here, done, end, () => settled);
  });
}
