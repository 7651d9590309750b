// The stack every analysis runs on, in the editor and in the CLI alike, so that both read the
// same files: clang in WebAssembly and the hand-written passes recurse on the JavaScript stack
// (a 100,000-term sum, or clang's parser on 10,000 terms), and the main thread's default of
// about 1 MB overflows long before the front ends' own limits (parser.ts: MAX_NESTING,
// MAX_CHAIN) stop an input with a located error.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

export const ANALYSIS_STACK_MB = 64;

interface Finished {
  status: number;
}

/**
 * Runs `entry(argv)` on a thread with ANALYSIS_STACK_MB of stack and ends the process with
 * the status it returns. The thread's stdout and stderr are the process's own (written through
 * this thread, in order); `script` is the module that calls this, loaded again on that thread.
 */
export function runOnLargeStack(script: string, argv: string[], entry: (argv: string[]) => Promise<number>): void {
  if (!isMainThread) {
    const args = (workerData as { argv: string[] }).argv;
    void entry(args).then((status) => parentPort!.postMessage({ status } satisfies Finished));
    return;
  }
  // A reader that stopped reading (`scord check … | head`) gets no more output, and no stack
  // trace: the command still finishes and exits with its own status (1 when it found races).
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
    });
  }
  const thread = new Worker(script, { argv, workerData: { argv }, resourceLimits: { stackSizeMb: ANALYSIS_STACK_MB } });
  let status: number | undefined;
  thread.on('message', (m: Finished) => (status = m.status));
  thread.on('error', (e) => {
    process.stderr.write(`scord: internal error: ${e.message}\n`);
    status = 2;
  });
  thread.on('exit', (code) => (process.exitCode = status ?? (code || 2)));
}
