// Litmus runs: a small program run many times under a memory model — with random schedules
// and propagation choices, or exhaustively — and the histogram of its final outcomes.
//
// Exhaustive exploration is stateless model checking: every decision the scheduler and the
// memory system make goes through one chooser, each execution replays a prefix of decisions
// and takes the first option after it, and the next execution backtracks to the deepest
// decision with an option left (depth-first). States already seen at a decision (a digest of
// warps, memory, weak-memory state and output) are not explored again: their futures were
// (or, on a cycle, are being) explored from the first visit, so no final outcome is lost,
// and spin loops end.
import { parse, type ParseOptions, type ParseResult } from '../frontend/index';
import type { Chooser, WeakStep } from '../gpu/weakMemory';
import { runProgram, type RunResult } from '../host/run';
import type { LitmusOptions, LitmusOutcome, LitmusReport } from './types';

const DEFAULT_RUNS = 1000;
const DEFAULT_MAX_EXECUTIONS = 100_000;
/** Litmus programs are tiny; an execution longer than this spins (and is cut). */
const STEP_BUDGET = 2_000_000;

/** The outcomes a file names with `// outcome: <text>` lines. */
export function declaredOutcomes(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*\/\/\s*outcome:\s*(.*?)\s*$/.exec(line);
    if (m && m[1]) out.push(m[1]);
  }
  return out;
}

/** Parses `text` and runs it as a litmus test, with the outcomes it names declared. */
export function runLitmusSource(text: string, parseOptions: ParseOptions, options: LitmusOptions): LitmusReport {
  return runLitmus(parse(text, parseOptions), { ...options, declared: options.declared ?? declaredOutcomes(text) });
}

/** Thrown to abandon an execution at a state already explored (not an Error: no stack trace to build). */
class Pruned {}

/** Replays a prefix of decisions, then takes option 0; remembers every decision it made. */
class ReplayChooser implements Chooser {
  readonly taken: { choice: number; options: number }[] = [];
  constructor(private readonly prefix: number[]) {}
  choose(n: number): number {
    const i = this.taken.length;
    const choice = i < this.prefix.length ? Math.min(this.prefix[i], n - 1) : 0;
    this.taken.push({ choice, options: n });
    return choice;
  }
  /** Decisions past the replayed prefix are new ground. */
  get exploring(): boolean {
    return this.taken.length >= this.prefix.length;
  }
  /** The next prefix in depth-first order, or undefined when every branch is done. */
  next(): number[] | undefined {
    const t = this.taken;
    for (let i = t.length - 1; i >= 0; i--) {
      if (t[i].choice + 1 < t[i].options) return [...t.slice(0, i).map((x) => x.choice), t[i].choice + 1];
    }
    return undefined;
  }
}

export function runLitmus(parsed: ParseResult, options: LitmusOptions): LitmusReport {
  const errors = parsed.diagnostics.filter((d) => d.severity === 'error').map((d) => ({ message: d.message, range: d.range }));
  const report: LitmusReport = { model: options.model, runs: 0, exhaustive: !!options.exhaustive, complete: false, outcomes: [], errors };
  if (errors.length) return report;
  const outcomes = new Map<string, LitmusOutcome>();
  const record = (result: RunResult, trace: WeakStep[]): void => {
    const unanalysable = result.findings.find((f) => f.kind === 'not-supported' || f.kind === 'no-main' || f.kind === 'no-kernel');
    if (unanalysable) {
      if (!report.errors.some((e) => e.message === unanalysable.message)) report.errors.push({ message: unanalysable.message, ...(unanalysable.range ? { range: unanalysable.range } : {}) });
      return;
    }
    report.runs++;
    const key = outcomeOf(result);
    const o = outcomes.get(key);
    if (o) o.count++;
    else outcomes.set(key, { outcome: key, count: 1, allowed: true, witness: collapse(trace) });
  };
  const base = {
    memoryModel: options.model,
    scheduler: 'random' as const,
    stepBudget: STEP_BUDGET,
    ...(options.switches ? { weakSwitches: options.switches } : {}),
    ...(options.observe?.length ? { observe: options.observe } : {}),
  };

  if (options.exhaustive) {
    const max = options.maxExecutions ?? DEFAULT_MAX_EXECUTIONS;
    let seen = new Set<number>();
    let prefix: number[] | undefined = [];
    let executions = 0;
    // Accesses to addresses only one thread touches are not interleaved. When a run finds an
    // address shared after all, the runs before treated it wrongly: start again, knowing it.
    const shared = new Set<number>();
    while (prefix && executions < max) {
      const known = shared.size;
      const chooser: ReplayChooser = new ReplayChooser(prefix);
      const trace: WeakStep[] = [];
      executions++;
      try {
        const result = runProgram(parsed, {
          ...base,
          chooser,
          sharedAddresses: shared,
          weakTrace: trace,
          onDecision: (digest) => {
            if (!chooser.exploring) return;
            const h = digest();
            if (seen.has(h)) throw new Pruned();
            seen.add(h);
          },
        });
        record(result, trace);
        if (report.errors.length) return report;
      } catch (e) {
        if (!(e instanceof Pruned)) throw e;
      }
      if (shared.size !== known) {
        outcomes.clear();
        seen = new Set();
        report.runs = 0;
        prefix = [];
        continue;
      }
      prefix = chooser.next();
    }
    report.complete = prefix === undefined;
    report.executions = executions;
  } else {
    const runs = options.runs ?? DEFAULT_RUNS;
    const first = options.seed ?? 1;
    for (let i = 0; i < runs; i++) {
      const trace: WeakStep[] = [];
      record(runProgram(parsed, { ...base, seed: first + i, weakTrace: trace }), trace);
      if (report.errors.length) return report;
    }
  }

  for (const d of options.declared ?? []) {
    const key = d.trim();
    if (!outcomes.has(key)) outcomes.set(key, { outcome: key, count: 0, allowed: false, declared: true, witness: [] });
    else outcomes.get(key)!.declared = true;
  }
  report.outcomes = [...outcomes.values()].sort((a, b) => b.count - a.count || a.outcome.localeCompare(b.outcome));
  return report;
}

/** A witness with repeated steps (a spin loop's reads) given once, with how many times. */
function collapse(trace: WeakStep[]): WeakStep[] {
  const out: WeakStep[] = [];
  let times = 0;
  for (let i = 0; i < trace.length; i++) {
    const s = trace[i];
    const next = trace[i + 1];
    times++;
    if (next && next.actor === s.actor && next.action === s.action && next.range?.start.offset === s.range?.start.offset) continue;
    out.push({ ...s, ...(times > 1 ? { action: `${s.action} (${times} times)` } : {}) });
    times = 0;
  }
  return out;
}

/** The printed output (or the observed variables), and how the run ended if not normally. */
function outcomeOf(result: RunResult): string {
  const text = result.observed ? result.observed.join(' ') : result.stdout.trim();
  const failure = result.findings.find((f) => f.severity === 'error');
  return failure ? `${text}${text ? ' ' : ''}⟨${failure.kind}⟩` : text;
}
