// Analysis workers: each run gets a worker (a thread in a process of its own, so that nothing
// a run does can end the server: workerHost.ts) with a time and memory budget. A worker
// that finishes goes back to wait for the next run (loading the engine takes a while, so one
// is always kept warm); a run that overruns its time or memory, or crashes, ends its worker,
// and the next run starts on a fresh one.
//
// A cancelled run (an edit made it stale) ends its worker too, unless the worker has clang: a
// worker that has loaded clang (a 75 MB WebAssembly module whose compilation, and the tiering
// up of its hot code, cost seconds of CPU in every new thread) is worth more than the rest of a
// compile or a short run. It is told to drop the run at its next point between compiles and
// runs, and the next run waits for it; a run that does not get there within a second is ended
// after all. Once documents use clang, fresh workers load it as they start, ahead of their
// first run.
//
// At most `maxParallel` runs hold a worker at once (each may use the memory limit); the others
// wait in a queue, the most urgent first (the active editor's document, then visible ones).
import * as os from 'node:os';
import type { CheckReport } from '../../sims/check';
import type { LitmusOptions, LitmusReport } from '../../sims/litmus/types';
import type { AnalysisRequest, AnalysisResponse, ReportFrontend, WorkerControl } from './messages';
import { WorkerProcess } from './workerProcess';
import { ANALYSIS_STACK_MB } from '../../sims/largeStack';

/** How long a fresh worker may take to load the engine before its run's budget starts. */
const WORKER_START_ALLOWANCE_MS = 10_000;
/**
 * How long clang may compile one program (cold, with <iostream> and no cache, several
 * seconds on a slow machine). Compiles do not count against the run's time budget: they are
 * cached, and stopping one would only repeat it on the next run.
 */
export const COMPILE_ALLOWANCE_MS = 120_000;
/**
 * How long a stale run (not a compile) may take to stop by itself: a launch stops within a
 * scheduling round (setRunInterrupt), so only host code or a parse goes on. A worker with clang
 * is worth a second (a fresh one compiles seconds slower); one without, about what starting a
 * fresh worker takes.
 */
const RUN_GRACE_MS = 1_000;
const RUN_GRACE_NO_CLANG_MS = 200;
/**
 * How long a run waits for a worker that has compiled with clang to drop a stale run, rather
 * than take a warm worker that has not (whose compiles take seconds longer until V8 has tiered
 * clang's code up in that process).
 */
const HOT_WORKER_WAIT_MS = 2_000;


/**
 * What a worker's process may hold beyond its heap limit before its run is out of memory:
 * clang's instance and compiled code (about 700 MB while it compiles <iostream>), the engine's
 * code, the program's WebAssembly memory.
 */
const RESIDENT_ALLOWANCE_MB = 1536;

/** What a worker with clang loaded holds for it (instance, compiled code, caches) between runs. */
const CLANG_RESIDENT_MB = 768;

/** A run that gave no report, and why. */
export type AnalysisFailure =
  | { kind: 'cancelled' }
  | { kind: 'timeout'; budgetMs: number }
  | { kind: 'out-of-memory'; limitMb: number }
  | { kind: 'failed'; message: string };

export type AnalysisOutcome =
  | {
      kind: 'report';
      report: CheckReport;
      elapsedMs: number;
      includes: string[];
      frontend: ReportFrontend;
      /** Whether the worker took the server's parse of the text or parsed it itself. */
      parse: 'taken' | 'parsed';
      /** The checked file's flags from its compile_commands.json entry. */
      flags?: { defines: string[]; undefines: string[]; includeDirs: string[] };
    }
  | AnalysisFailure;

export type LitmusOutcome = { kind: 'litmus'; report: LitmusReport; elapsedMs: number } | AnalysisFailure;

/** What a worker can answer, whichever request it was given. */
type WorkerOutcome = AnalysisOutcome | LitmusOutcome;

export interface RunLimits {
  timeBudgetMs: number;
  memoryLimitMb: number;
  /**
   * Where the run stands in the queue when workers are all busy: lower goes first (read when a
   * worker frees up, so a document that becomes visible moves ahead). Default 0.
   */
  priority?: () => number;
}

/** `scord.analysis.maxParallelRuns`'s default: one fewer than the machine's cores, at least 1. */
export function defaultParallelRuns(): number {
  return Math.max(1, (os.availableParallelism?.() ?? os.cpus().length) - 1);
}

/** A run waiting for a worker. */
interface Waiting {
  priority: () => number;
  /** Arrival order, so equal priorities go first come, first served. */
  order: number;
  go(): void;
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

export interface PoolWorker {
  worker: WorkerProcess;
  memoryLimitMb: number;
  /** Told to load clang (at start or since). */
  clang: boolean;
  /**
   * Has compiled with clang: its clang is not only loaded but warmed up (V8 tiers up a
   * WebAssembly module's hot code as it runs, per process), so its compiles take a third of a
   * fresh worker's.
   */
  compiled: boolean;
  /** Has started a run: its engine is loaded. */
  ready?: boolean;
}

/** A worker finishing a compile for a cancelled run, and the run waiting to go next on it. */
interface Draining {
  pool: PoolWorker;
  waiter?: (pool: PoolWorker | undefined) => void;
}

export class AnalysisWorkers {
  private warm: PoolWorker | undefined;
  private draining: Draining | undefined;
  private nextId = 1;
  private readonly live = new Set<WorkerProcess>();
  /** Some run has compiled with clang: workers load it ahead of their runs. */
  private clangInUse = false;
  /** Runs holding a worker now, and the most allowed. */
  private active = 0;
  private maxParallel = defaultParallelRuns();
  private readonly queue: Waiting[] = [];
  private arrivals = 0;

  /** `hostScript` runs a worker's process (dist/analysisHost.js); `workerScript` its thread (dist/analysisWorker.js). */
  constructor(
    private readonly hostScript: string,
    private readonly workerScript: string,
  ) {}

  private spawn(memoryLimitMb: number): PoolWorker {
    const worker = new WorkerProcess(this.hostScript, {
      workerScript: this.workerScript,
      memoryLimitMb,
      stackMb: ANALYSIS_STACK_MB,
      residentCeilingMb: memoryLimitMb + RESIDENT_ALLOWANCE_MB,
      warmClang: this.clangInUse,
    });
    // An idle worker must not keep the server alive, nor crash it by failing while idle.
    worker.unref();
    worker.on('error', () => undefined);
    this.live.add(worker);
    worker.once('exit', () => this.live.delete(worker));
    return { worker, memoryLimitMb, clang: this.clangInUse, compiled: false };
  }

  /** Starts a worker ahead of the next run. */
  prewarm(memoryLimitMb: number): void {
    if (!this.warm || this.warm.memoryLimitMb !== memoryLimitMb) {
      if (this.warm) void this.warm.worker.terminate();
      this.warm = this.spawn(memoryLimitMb);
    }
  }

  /** A run compiles with clang (in `pool`): from now on workers load it ahead of their first run. */
  private clangUsed(pool: PoolWorker): void {
    pool.clang = true;
    pool.compiled = true;
    if (this.clangInUse) return;
    this.clangInUse = true;
    if (this.warm && !this.warm.clang) {
      this.warm.clang = true;
      this.warm.worker.postMessage({ control: 'warm-clang' } satisfies WorkerControl);
    }
  }

  /** How many runs may hold a worker at once (`scord.analysis.maxParallelRuns`). */
  setMaxParallel(n: number): void {
    this.maxParallel = Math.max(1, Math.floor(n));
    this.pump();
  }

  /** Runs holding a worker, and runs waiting for one (the server's tests and status follow these). */
  get load(): { active: number; queued: number } {
    return { active: this.active, queued: this.queue.length };
  }

  /** Starts the most urgent waiting runs while there is room. */
  private pump(): void {
    while (this.active < this.maxParallel && this.queue.length > 0) {
      let best = 0;
      for (let i = 1; i < this.queue.length; i++) {
        const a = this.queue[i];
        const b = this.queue[best];
        const pa = a.priority();
        const pb = b.priority();
        if (pa < pb || (pa === pb && a.order < b.order)) best = i;
      }
      const [next] = this.queue.splice(best, 1);
      this.active++;
      next.go();
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

  /**
   * A worker for a run, as `workerChoice` says: the warm one, a fresh one, or the one
   * finishing a dropped run (for good, or for up to HOT_WORKER_WAIT_MS before the warm one).
   * Returns a function that withdraws a wait.
   */
  private acquire(memoryLimitMb: number, use: (pool: PoolWorker) => void): () => void {
    // The warm worker when one fits (looked at when it is taken: a wait may have changed it), else a fresh one.
    const takeWarm = (): PoolWorker => {
      const warm = this.warm;
      if (!warm || warm.memoryLimitMb !== memoryLimitMb) return this.spawn(memoryLimitMb);
      this.warm = undefined;
      return warm;
    };
    const d = this.draining;
    const choice = workerChoice(memoryLimitMb, this.warm, d && !d.waiter ? d.pool : undefined);
    if (!d || (choice !== 'drain' && choice !== 'hot')) {
      use(takeWarm());
      return () => undefined;
    }
    let waiting = true;
    const giveUp = (): void => {
      waiting = false;
      clearTimeout(fallback);
      if (d.waiter === waiter) d.waiter = undefined;
    };
    const waiter = (pool: PoolWorker | undefined): void => {
      giveUp();
      use(pool ?? takeWarm());
    };
    const fallback =
      choice === 'hot'
        ? setTimeout(() => {
            if (!waiting) return;
            giveUp();
            use(takeWarm());
          }, HOT_WORKER_WAIT_MS)
        : undefined;
    d.waiter = waiter;
    return giveUp;
  }

  /** A worker is free again: to the run waiting for it, else kept warm, else ended. */
  private release(pool: PoolWorker): void {
    pool.worker.unref();
    if (this.holdsTooMuch(pool)) {
      if (this.warm === pool) this.warm = undefined;
      void pool.worker.terminate();
      return;
    }
    if (this.warm === pool) return;
    // One idle worker is kept: the better one for clang.
    if (this.warm && this.warm.memoryLimitMb === pool.memoryLimitMb && betterIdle(pool, this.warm)) {
      void this.warm.worker.terminate();
      this.warm = undefined;
    }
    if (!this.warm) this.warm = pool;
    else void pool.worker.terminate();
  }

  /**
   * Whether an idle worker holds more resident memory than it should keep between runs: half
   * its memory limit, plus clang's instance when it has one loaded (a fresh worker holds about
   * 100 MB). A run that went deep (a 50,000-operator expression touches tens of MB of stack) or
   * grew the heap leaves that memory with the process, and the next run would start from it;
   * ending the worker gives it back, and the next run starts fresh.
   */
  private holdsTooMuch(pool: PoolWorker): boolean {
    const resident = pool.worker.residentBytes();
    return resident !== undefined && resident > (pool.memoryLimitMb / 2 + (pool.clang ? CLANG_RESIDENT_MB : 0)) * 2 ** 20;
  }

  /**
   * Lets a worker finish the step it is in for a cancelled run (request `id`): it drops the run
   * at its next point between compiles, or within a scheduling round of a launch. A compile may
   * take its allowance; a stale run (the request's own, or past its compiles) has its grace
   * (RUN_GRACE_MS), after which the worker is ended.
   */
  private drain(pool: PoolWorker, id: number, verifyFixes: boolean, compiling: boolean): void {
    // Ended instead: one still loading its engine (a background schedule given a fresh
    // worker), which has nothing to keep (the next run would wait for the load, and it would
    // take the draining place from a loaded one cancelled with it); and any while another
    // drains (one at a time: a second might hold a second copy of clang).
    if ((!pool.ready && !pool.clang) || this.draining) {
      void pool.worker.terminate();
      this.prewarm(pool.memoryLimitMb);
      return;
    }
    const d: Draining = { pool };
    this.draining = d;
    const { worker } = pool;
    const finish = (keep: boolean): void => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      if (this.draining === d) this.draining = undefined;
      if (!keep) void worker.terminate();
      const waiter = d.waiter;
      d.waiter = undefined;
      if (waiter) waiter(keep ? pool : undefined);
      else if (keep) this.release(pool);
      else this.prewarm(pool.memoryLimitMb);
    };
    const onMessage = (m: AnalysisResponse): void => {
      if (m.id !== id) return;
      // Past its compiles into a stale run, which may be long: it has a moment to end.
      if (m.kind === 'compiled') {
        clearTimeout(timer);
        timer = setTimeout(() => finish(false), grace);
      } else if (m.kind === 'dropped' || m.kind === 'failed' || m.kind === 'verified' || m.kind === 'litmus') finish(true);
      // Only a report without fixes to check is a request's last word.
      else if (m.kind === 'report' && !verifyFixes) finish(true);
    };
    const onExit = (): void => finish(false);
    const grace = pool.clang ? RUN_GRACE_MS : RUN_GRACE_NO_CLANG_MS;
    let timer = setTimeout(() => finish(false), compiling ? COMPILE_ALLOWANCE_MS : grace);
    worker.on('message', onMessage);
    worker.on('exit', onExit);
    worker.postMessage({ control: 'cancel', id } satisfies WorkerControl);
  }

  private start(request: Omit<AnalysisRequest, 'id'>, limits: RunLimits): { outcome: Promise<WorkerOutcome>; verified: Promise<boolean[][] | undefined>; cancel(): void } {
    const id = this.nextId++;
    let settle: (o: WorkerOutcome) => void = () => undefined;
    let settleVerified: (v: boolean[][] | undefined) => void = () => undefined;
    const verified = new Promise<boolean[][] | undefined>((resolve) => (settleVerified = resolve));
    let done = false;
    const outcome = new Promise<WorkerOutcome>((resolve) => {
      settle = (o) => {
        if (done) return;
        done = true;
        resolve(o);
      };
    });
    // The run's place among those allowed at once: given back when it ends, however it ends.
    let holdsSlot = false;
    const freeSlot = (): void => {
      if (!holdsSlot) return;
      holdsSlot = false;
      this.active--;
      this.pump();
    };
    // Until a worker is assigned, a cancel only withdraws the wait.
    let withdraw: () => void = () => undefined;
    const waiting: Waiting = {
      priority: limits.priority ?? (() => 0),
      order: this.arrivals++,
      go: () => {
        holdsSlot = true;
        withdraw = this.acquire(limits.memoryLimitMb, (pool) => {
          if (finished) {
            this.release(pool);
            freeSlot();
            return;
          }
          cancel = this.dispatch(pool, id, request, limits, {
            settle: (o) => settle(o),
            settleVerified: (v) => settleVerified(v),
            finished: () => {
              finished = true;
              freeSlot();
            },
          });
        });
      },
    };
    let cancel: () => void = () => {
      const queued = this.queue.indexOf(waiting);
      if (queued >= 0) this.queue.splice(queued, 1);
      withdraw();
      finished = true;
      freeSlot();
      settle({ kind: 'cancelled' });
      settleVerified(undefined);
    };
    // The worker is busy until the report and, when fixes are checked, their verdicts are in.
    let finished = false;
    this.queue.push(waiting);
    this.pump();
    return { outcome, verified, cancel: () => cancel() };
  }

  /** Sends a request to a worker and follows it to its end; returns its cancel. */
  private dispatch(
    pool: PoolWorker,
    id: number,
    request: Omit<AnalysisRequest, 'id'>,
    limits: RunLimits,
    result: { settle(o: WorkerOutcome): void; settleVerified(v: boolean[][] | undefined): void; finished(): void },
  ): () => void {
    const { worker } = pool;
    let finished = false;
    /** Between `compiling` and `compiled`: clang is at work, and a cancel lets it finish. */
    let compiling = false;
    // The budget counts the run, not clang's compiles: it pauses while they go on.
    let budgetLeft = limits.timeBudgetMs;
    let runningSince: number | undefined;
    const detach = (): void => {
      finished = true;
      result.finished();
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const end = (o: WorkerOutcome): void => {
      if (finished) return;
      detach();
      result.settle(o);
      result.settleVerified(undefined);
      void worker.terminate();
      // Keep one worker warm for the next edit.
      this.prewarm(limits.memoryLimitMb);
    };
    const runBudget = (): void => {
      clearTimeout(timer);
      runningSince = Date.now();
      timer = setTimeout(overBudget, Math.max(0, budgetLeft));
    };
    const pauseBudget = (): void => {
      clearTimeout(timer);
      if (runningSince !== undefined) budgetLeft -= Date.now() - runningSince;
      runningSince = undefined;
      timer = setTimeout(overCompile, COMPILE_ALLOWANCE_MS);
    };
    const onMessage = (m: AnalysisResponse): void => {
      if (m.id !== id) return;
      switch (m.kind) {
        case 'started':
          pool.ready = true;
          // The budget is the run's: a fresh worker's start (loading the engine) is not counted.
          runBudget();
          return;
        case 'compiling':
          compiling = true;
          this.clangUsed(pool);
          pauseBudget();
          return;
        case 'compiled':
          compiling = false;
          runBudget();
          return;
        case 'dropped':
          return;
        case 'failed':
          end({ kind: 'failed', message: m.message });
          return;
        case 'report':
          result.settle({ kind: 'report', report: m.report, elapsedMs: m.elapsedMs, includes: m.includes, frontend: m.frontend, parse: m.parse, ...(m.flags ? { flags: m.flags } : {}) });
          if (request.verifyFixes) return; // the verdicts on its fixes follow
          break;
        case 'litmus':
          result.settle({ kind: 'litmus', report: m.report, elapsedMs: m.elapsedMs });
          break;
        case 'verified':
          result.settleVerified(m.preferred);
          break;
      }
      detach();
      result.settleVerified(undefined);
      this.release(pool);
    };
    const onError = (e: Error & { code?: string }): void => {
      end(e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? { kind: 'out-of-memory', limitMb: limits.memoryLimitMb } : { kind: 'failed', message: e.message });
    };
    const onExit = (how: string): void => end({ kind: 'failed', message: `the analysis worker ended (${how})` });
    const overBudget = (): void => end({ kind: 'timeout', budgetMs: limits.timeBudgetMs });
    const overCompile = (): void => end({ kind: 'failed', message: `clang did not finish compiling the program within ${COMPILE_ALLOWANCE_MS / 1000} s` });
    // Until the worker says it has started, allow for it to load the engine as well.
    let timer = setTimeout(overBudget, limits.timeBudgetMs + WORKER_START_ALLOWANCE_MS);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.ref();
    worker.postMessage({ ...request, id } satisfies AnalysisRequest);
    return () => {
      if (finished) return;
      // Kept: the stale run stops at once (see RUN_GRACE_MS), and the worker is warm.
      detach();
      result.settle({ kind: 'cancelled' });
      result.settleVerified(undefined);
      this.drain(pool, id, request.verifyFixes, compiling);
    };
  }

  dispose(): void {
    this.queue.length = 0;
    for (const w of this.live) void w.terminate();
    this.warm = undefined;
    this.draining = undefined;
  }
}

/** What a run takes (AnalysisWorkers.acquire). */
export type WorkerChoice = 'warm' | 'spawn' | 'drain' | 'hot';

/**
 * Which worker a run with this memory limit takes, given the warm worker and the one finishing
 * a dropped run that no run waits for yet: the warm one if it fits, else the draining one (it
 * is loaded, clang too if it used it; the run waits for it), else a fresh one — except that a
 * draining worker that has compiled with clang goes before a warm one that has not (`hot`:
 * waited for, for a while). An edit cancels the runs after its predecessor's report, and the
 * warm worker then is the one just started, whose first compiles cost seconds more than the wait (V8 tiers clang's
 * WebAssembly up per process, as it runs).
 */
export function workerChoice(memoryLimitMb: number, warm: Pick<PoolWorker, 'memoryLimitMb' | 'compiled'> | undefined, draining: Pick<PoolWorker, 'memoryLimitMb' | 'compiled'> | undefined): WorkerChoice {
  const warmFits = warm !== undefined && warm.memoryLimitMb === memoryLimitMb;
  if (draining && draining.memoryLimitMb === memoryLimitMb) {
    if (!warmFits) return 'drain';
    if (draining.compiled && !warm.compiled) return 'hot';
  }
  return warmFits ? 'warm' : 'spawn';
}

/** Of two idle workers, whether `a` is the one to keep over `b`: warmed up by clang's compiles, else with clang loaded. */
export function betterIdle(a: Pick<PoolWorker, 'clang' | 'compiled'>, b: Pick<PoolWorker, 'clang' | 'compiled'>): boolean {
  return a.compiled ? !b.compiled : a.clang && !b.clang && !b.compiled;
}
