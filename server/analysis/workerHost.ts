// The process an analysis worker lives in (dist/analysisHost.js, forked by the server): it
// starts the worker thread with its heap limit and deep stack, passes messages both ways, and
// watches the process's resident memory.
//
// Why a process of its own: a worker thread shares its process with the server, so anything
// that ends a process — a crash in native code, the kernel's out-of-memory killer choosing the
// largest process, which is the one holding clang — would end the language server too. Here it
// ends this process; the server reports the run as failed and starts another.
//
// Why a thread inside it: clang in WebAssembly recurses on the JavaScript stack, and only a
// worker thread can be given a stack deeper than the main thread's.
import { Worker } from 'node:worker_threads';
import { CANCEL_SLOTS, type HostMessage, type WorkerControl, type WorkerHostConfig } from './messages';

const config = JSON.parse(process.argv[2] ?? '{}') as WorkerHostConfig;

/** How often the resident memory is looked at. */
const WATCH_MS = 200;

function send(m: unknown): void {
  if (process.connected) process.send!(m);
}

/**
 * Requests the server has cancelled, seen by the worker even while a run keeps its thread busy
 * (a message waits for the run to end): slot id % CANCEL_SLOTS holds id.
 */
const cancelled = new Int32Array(new SharedArrayBuffer(CANCEL_SLOTS * 4));

const worker = new Worker(config.workerScript, {
  resourceLimits: { maxOldGenerationSizeMb: config.memoryLimitMb, maxYoungGenerationSizeMb: 16, stackSizeMb: config.stackMb },
  workerData: { warmClang: config.warmClang, cancelled },
});

worker.on('message', send);
process.on('message', (m) => {
  const control = m as Partial<WorkerControl>;
  if (control.control === 'cancel' && typeof control.id === 'number') Atomics.store(cancelled, control.id % CANCEL_SLOTS, control.id);
  worker.postMessage(m);
});

/** Set once a failure is being told: the process ends when the message is out, not before. */
let failing = false;

/** Says why the worker failed (for the server) and ends the process once the message is out. */
function fail(m: HostMessage): void {
  if (failing) return;
  failing = true;
  if (!process.connected) process.exit(1);
  process.send!(m, () => process.exit(1));
}

worker.on('error', (e: Error & { code?: string }) => fail({ host: 'error', code: e.code, message: e.message }));
// The process's exit code is the worker's: the server sees it as the process's end.
worker.on('exit', (code) => {
  if (!failing) process.exit(code);
});

// What the heap limit cannot see (clang's and the program's WebAssembly memories, the engine's
// compiled code) is bounded here: past the ceiling the run is out of memory.
const ceiling = config.residentCeilingMb * 2 ** 20;
setInterval(() => {
  const rss = process.memoryUsage.rss();
  if (rss > ceiling) {
    fail({ host: 'error', code: 'ERR_WORKER_OUT_OF_MEMORY', message: `the analysis process held ${Math.round(rss / 2 ** 20)} MB, over its ceiling of ${config.residentCeilingMb} MB` });
  }
}, WATCH_MS).unref();

// The server is gone (or has let this process go): nothing is left to answer.
process.on('disconnect', () => process.exit(0));
