// Analysis workers: each run gets a worker thread with a time and memory budget. A worker
// that finishes goes back to wait for the next run (loading the engine takes a while, so one
// is always kept warm); a run that is cancelled, overruns its time or memory, or crashes ends
// its worker, and the next run starts on a fresh one.
import { Worker } from 'node:worker_threads';
import type { CheckReport } from '../../sims/check';
import type { LitmusOptions, LitmusReport } from '../../sims/litmus/types';
import type { AnalysisRequest, AnalysisResponse } from './messages';

/** How long a fresh worker may take to load the engine before its run's budget starts. */
const WORKER_START_ALLOWANCE_MS = 10_000;

/** A run that gave no report, and why. */
export type AnalysisFailure =
  | { kind: 'cancelled' }
  | { kind: 'timeout'; budgetMs: number }
  | { kind: 'out-of-memory'; limitMb: number }
  | { kind: 'failed'; message: string };

export type AnalysisOutcome = { kind: 'report'; report: CheckReport; elapsedMs: number; includes: string[] } | AnalysisFailure;

export type LitmusOutcome = { kind: 'litmus'; report: LitmusReport; elapsedMs: number } | AnalysisFailure;

/** What a worker can answer, whichever request it was given. */
type WorkerOutcome = AnalysisOutcome | LitmusOutcome;

export interface RunLimits {
  timeBudgetMs: number;
  memoryLimitMb: number;
}

export interface RunHandle {
  outcome: Promise<AnalysisOutcome>;
  /** With fix checking: which fixes stay preferred (undefined if the run ended before). */
  verified: Promise<boolean[][] | undefined>;
  cancel(): void;
}

export interface LitmusHandle {
  outcome: Promise<LitmusOutcome>;
  cancel(): void;
}

interface WarmWorker {
  worker: Worker;
  memoryLimitMb: number;
}

export class AnalysisWorkers {
  private warm: WarmWorker | undefined;
  private nextId = 1;
  private readonly live = new Set<Worker>();

  constructor(private readonly script: string) {}

  private spawn(memoryLimitMb: number): WarmWorker {
    const worker = new Worker(this.script, { resourceLimits: { maxOldGenerationSizeMb: memoryLimitMb } });
    // An idle worker must not keep the server alive, nor crash it by failing while idle.
    worker.unref();
    worker.on('error', () => undefined);
    this.live.add(worker);
    worker.once('exit', () => this.live.delete(worker));
    return { worker, memoryLimitMb };
  }

  /** Starts a worker ahead of the next run. */
  prewarm(memoryLimitMb: number): void {
    if (!this.warm || this.warm.memoryLimitMb !== memoryLimitMb) {
      if (this.warm) void this.warm.worker.terminate();
      this.warm = this.spawn(memoryLimitMb);
    }
  }

  /** A check of the request's text (parse, simulate, detect). */
  run(request: Omit<AnalysisRequest, 'id' | 'litmus'>, limits: RunLimits): RunHandle {
    const started = this.start(request, limits);
    const outcome = started.outcome.then((o): AnalysisOutcome => (o.kind === 'litmus' ? { kind: 'failed', message: 'the analysis worker answered a check with a litmus report' } : o));
    return { outcome, verified: started.verified, cancel: started.cancel };
  }

  /** A litmus exploration of the request's text (`scord/litmus`), under the same budgets as a run. */
  litmus(request: Omit<AnalysisRequest, 'id' | 'verifyFixes'>, options: LitmusOptions, limits: RunLimits): LitmusHandle {
    const started = this.start({ ...request, verifyFixes: false, litmus: options }, limits);
    const outcome = started.outcome.then((o): LitmusOutcome => (o.kind === 'report' ? { kind: 'failed', message: 'the analysis worker answered a litmus run with a check report' } : o));
    return { outcome, cancel: started.cancel };
  }

  private start(request: Omit<AnalysisRequest, 'id'>, limits: RunLimits): { outcome: Promise<WorkerOutcome>; verified: Promise<boolean[][] | undefined>; cancel(): void } {
    const id = this.nextId++;
    const taken = this.warm && this.warm.memoryLimitMb === limits.memoryLimitMb ? this.warm : this.spawn(limits.memoryLimitMb);
    if (taken === this.warm) this.warm = undefined;
    const { worker } = taken;
    let settle: (o: WorkerOutcome) => void = () => undefined;
    let settleVerified: (v: boolean[][] | undefined) => void = () => undefined;
    const verified = new Promise<boolean[][] | undefined>((resolve) => (settleVerified = resolve));
    let done = false;
    // The worker is busy until the report and, when fixes are checked, their verdicts are in.
    let finished = false;
    const detach = (): void => {
      finished = true;
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const outcome = new Promise<WorkerOutcome>((resolve) => {
      settle = (o) => {
        if (done) return;
        done = true;
        resolve(o);
      };
    });
    const end = (o: WorkerOutcome): void => {
      if (finished) return;
      detach();
      settle(o);
      settleVerified(undefined);
      void worker.terminate();
      // Keep one worker warm for the next edit.
      this.prewarm(limits.memoryLimitMb);
    };
    const onMessage = (m: AnalysisResponse): void => {
      if (m.id !== id) return;
      if (m.kind === 'started') {
        // The budget is the run's: a fresh worker's start (loading the engine) is not counted.
        clearTimeout(timer);
        timer = setTimeout(overBudget, limits.timeBudgetMs);
        return;
      }
      if (m.kind === 'failed') {
        end({ kind: 'failed', message: m.message });
        return;
      }
      if (m.kind === 'report') {
        settle({ kind: 'report', report: m.report, elapsedMs: m.elapsedMs, includes: m.includes });
        if (request.verifyFixes) return; // the verdicts on its fixes follow
      } else if (m.kind === 'litmus') settle({ kind: 'litmus', report: m.report, elapsedMs: m.elapsedMs });
      else settleVerified(m.preferred);
      detach();
      settleVerified(undefined);
      worker.unref();
      if (!this.warm) this.warm = taken;
      else void worker.terminate();
    };
    const onError = (e: Error & { code?: string }): void => {
      end(e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? { kind: 'out-of-memory', limitMb: limits.memoryLimitMb } : { kind: 'failed', message: e.message });
    };
    const onExit = (code: number): void => end({ kind: 'failed', message: `the analysis worker exited with code ${code}` });
    const overBudget = (): void => end({ kind: 'timeout', budgetMs: limits.timeBudgetMs });
    // Until the worker says it has started, allow for it to load the engine as well.
    let timer = setTimeout(overBudget, limits.timeBudgetMs + WORKER_START_ALLOWANCE_MS);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.ref();
    worker.postMessage({ ...request, id } satisfies AnalysisRequest);
    return { outcome, verified, cancel: () => end({ kind: 'cancelled' }) };
  }

  dispose(): void {
    for (const w of this.live) void w.terminate();
    this.warm = undefined;
  }
}
