// The server's handle on one analysis worker, which runs in a process of its own (see
// workerHost.ts for why). It speaks as a worker thread does — messages in and out, an error, an
// exit, terminate — so the pool need not know where its workers live.
import * as fs from 'node:fs';
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import type { AnalysisRequest, AnalysisResponse, HostMessage, WorkerControl, WorkerHostConfig } from './messages';

export interface WorkerProcessEvents {
  message: [AnalysisResponse];
  /** The worker failed; `code` is ERR_WORKER_OUT_OF_MEMORY when it ran out of memory. */
  error: [Error & { code?: string }];
  /** The worker is gone: how it ended, in words ("exit code 1", "killed by SIGSEGV"). */
  exit: [string];
}

export class WorkerProcess extends EventEmitter<WorkerProcessEvents> {
  private readonly child: ChildProcess;
  private readonly ended: Promise<void>;

  constructor(hostScript: string, config: WorkerHostConfig) {
    super();
    // Its own stdout must never reach the server's, which is the client's connection: both of
    // its streams go to the server's stderr (the extension's output). Debugger flags are not
    // passed on (a second process would claim the same port).
    this.child = fork(hostScript, [JSON.stringify(config)], { serialization: 'advanced', stdio: ['ignore', 'pipe', 'pipe', 'ipc'], execArgv: [] });
    this.child.stdout!.on('data', (d: Buffer) => process.stderr.write(d));
    this.child.stderr!.on('data', (d: Buffer) => process.stderr.write(d));
    this.child.on('message', (m: AnalysisResponse | HostMessage) => {
      if ('host' in m) this.emit('error', Object.assign(new Error(m.message), { code: m.code }));
      else this.emit('message', m);
    });
    // A process that cannot start (or be signalled) says so here; its exit follows.
    this.child.on('error', (e) => this.emit('error', e));
    this.ended = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.emit('exit', signal ? `killed by ${signal}` : `exit code ${code}`);
        resolve();
      });
    });
  }

  postMessage(m: AnalysisRequest | WorkerControl): void {
    if (this.child.connected) this.child.send(m);
  }

  /** The process's resident memory now, where the system tells it (Linux); undefined elsewhere. */
  residentBytes(): number | undefined {
    try {
      const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${this.child.pid}/status`, 'utf8'))?.[1];
      return kb === undefined ? undefined : Number(kb) * 1024;
    } catch {
      return undefined;
    }
  }

  /** Ends the worker at once, whatever it is doing. */
  terminate(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    return this.ended;
  }

  /** Whether the worker keeps the server's event loop alive (while a run is on). */
  ref(): void {
    for (const h of this.handles()) h.ref();
  }

  unref(): void {
    for (const h of this.handles()) h.unref();
  }

  /** What holds the event loop: the process, its message channel, its two output pipes. */
  private handles(): { ref(): void; unref(): void }[] {
    const { channel, stdout, stderr } = this.child as ChildProcess & { channel?: { ref(): void; unref(): void } | null; stdout: Socket; stderr: Socket };
    return [this.child, ...(channel ? [channel] : []), stdout, stderr];
  }
}
