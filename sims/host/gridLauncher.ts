// Runs one kernel launch of a host program to completion, for both paths (sims/host/run.ts's
// lowered host code and the clang path's WebAssembly host): the launch event, the fairness
// search for launches that may never end, runGrid with the run's scheduler, seed (plus the
// launch count), memory model, block sampling and remaining step budget. Every detector
// therefore sees the same events on both paths.
import type * as A from '../frontend/ast';
import type { Range } from '../frontend/source';
import type { DeviceConfig } from '../gpu/devices';
import { runGrid, type BlockExecution, type GridFinding, type LaunchCheck, type SchedulerKind } from '../machine/executor';
import type { Memory } from '../gpu/memory';
import type { Chooser, WeakMemory } from '../gpu/weakMemory';
import type { EventListener, LaunchRequest, RunContext } from '../ir/ir';
import type { BlockSampling, SampledLaunch } from '../machine/blockSample';
import type { CudaRuntime } from '../runtime/runtime';
import { startLaunch, type UntilLaunch } from './describeLaunch';
import { LaunchReuse } from './launchReuse';
import type { LaunchDescription } from './launchDescription';

/** A launch that ran a sample of its blocks, and where the program launched it. */
export interface SampledKernelLaunch extends SampledLaunch {
  kernel: string;
  range: Range;
}

/** A launch the tool made that ran past the device's per-block limits (GridOutcome.beyondDevice). */
export interface BeyondDeviceLaunch {
  kernel: string;
  range: Range;
  /** What the device says of the shape. */
  message: string;
}

export interface LaunchSettings {
  device: DeviceConfig;
  memory: Memory;
  runtime: CudaRuntime;
  /** The host program's variables by declaration (the clang path's host keeps its own memory: none). */
  globals?: RunContext['globals'];
  /** Told the thread-steps of each launch (the clang path's simulated clock). */
  clock?: { kernel(steps: number, smCount: number): void };
  /** Thread-steps the run may take; `steps` counts them (the built-in path adds its host steps). */
  budget: number;
  events?: EventListener;
  weak?: WeakMemory;
  fairnessCheck?: LaunchCheck;
  scheduler?: SchedulerKind;
  chooser?: Chooser;
  onDecision?: (digest: () => number) => void;
  model?: 'independent' | 'lockstep';
  seed?: number;
  maxThreads?: number;
  sampleBlocks?: BlockSampling;
  /** RunOptions.untilLaunchOf: the program ends after the first launch of this kernel. */
  untilLaunchOf?: UntilLaunch;
  execution?: BlockExecution;
  /** Put back the result of a launch that repeats an earlier one instead of running it (default true; see launchReuse.ts). */
  reuseLaunches?: boolean;
}

const NO_GLOBALS = new Map<A.VarDecl, number>();

export class GridLauncher {
  steps = 0;
  launches = 0;
  /** The first launches, with their arguments in words (RunResult.launched). */
  readonly launched: LaunchDescription[] = [];
  /** Launches that ran a sample of their blocks (RunResult.sampled). */
  readonly sampled: SampledKernelLaunch[] = [];
  /** Launches the tool made past the device's per-block limits (RunResult.beyondDevice). */
  readonly beyondDevice: BeyondDeviceLaunch[] = [];
  /** Launches that repeated an earlier one and were not run again (RunResult.repeatedLaunches). */
  repeated = 0;
  /** Grids run so far (their 'launch' events), device-launched ones included. */
  private grids = 0;
  /** Only where a launch is a function of memory: one schedule, no search. */
  private readonly reuse: LaunchReuse | undefined;

  constructor(
    private readonly s: LaunchSettings,
    /** Where the launches' findings go (the run's list). */
    private readonly findings: GridFinding[],
  ) {
    // A sampled launch is never kept for reuse (it left blocks out), so sampling needs no exception.
    const deterministic = !s.weak && !s.chooser && !s.onDecision && !s.fairnessCheck && s.scheduler !== 'random';
    // The uninitialised-read check's marks are memory too (written bytes): not copied, so not reused.
    this.reuse = deterministic && s.reuseLaunches !== false && !s.memory.checkUninitialised ? new LaunchReuse(s.memory, s.runtime) : undefined;
  }

  /**
   * Runs the launch; `refused` when the device would not start it (its configuration), `last`
   * when the program is to end after it (RunOptions.untilLaunchOf: the caller ends it).
   */
  launch(asked: LaunchRequest): { refused: boolean; last: boolean } {
    const s = this.s;
    const { req, last } = startLaunch(asked, s.untilLaunchOf, this.launched, s.memory);
    this.launches++;
    const repeated = this.reuse?.repeat(req, this.grids);
    if (repeated) {
      this.repeated++;
      s.events?.({ kind: 'launch-repeat', kernel: req.kernel.name, range: req.range, of: repeated.grid });
      s.clock?.kernel(repeated.steps, s.device.smCount);
      return { refused: false, last };
    }
    this.reuse?.begin(req, this.grids);
    // Grids device code launches (dynamic parallelism) run after the grid that launched them,
    // in the order they were launched, before the host goes on.
    const children: LaunchRequest[] = [];
    const first = this.runOne(req, children);
    // A launch that launched grids is not a function of its own memory alone: never reused.
    this.reuse?.end(first.clean && children.length === 0, first.steps);
    if (first.clean) {
      for (let k = 0; k < children.length && !this.exhausted && !s.runtime.status('cudaSuccess'); k++) this.runOne(children[k], children);
    }
    return { refused: first.refused, last };
  }

  /** Runs one grid; grids its device code launches are added to `children`. */
  private runOne(req: LaunchRequest, children: LaunchRequest[]): { clean: boolean; refused: boolean; steps: number } {
    const s = this.s;
    const globals = s.globals ?? NO_GLOBALS;
    this.grids++;
    s.events?.({ kind: 'launch', kernel: req.kernel.name, grid: req.grid, block: req.block, range: req.range });
    const hang = s.fairnessCheck?.(req, { memory: s.memory, globals });
    if (hang) this.findings.push(hang);
    // This grid's own launches, so that device code knows whether it has launched any.
    const launched: LaunchRequest[] = [];
    const env = { device: s.device, memory: s.memory, runtime: s.runtime, globals, deviceLaunches: launched, ...(s.events ? { events: s.events } : {}), ...(s.weak ? { weak: s.weak } : {}) };
    const outcome = runGrid(req, env, {
      device: s.device,
      stepBudget: Math.max(0, s.budget - this.steps),
      ...(s.scheduler ? { scheduler: s.scheduler } : {}),
      ...(s.chooser ? { chooser: s.chooser } : {}),
      ...(s.onDecision ? { onDecision: s.onDecision } : {}),
      ...(s.model ? { model: s.model } : {}),
      ...(s.seed !== undefined ? { seed: s.seed + this.launches } : {}),
      ...(s.maxThreads !== undefined ? { maxThreads: s.maxThreads } : {}),
      ...(s.sampleBlocks ? { sampleBlocks: s.sampleBlocks } : {}),
      ...(s.execution ? { execution: s.execution } : {}),
    });
    this.steps += outcome.steps;
    // One by one: a grid may launch more children than a call takes arguments.
    for (const child of launched) children.push(child);
    if (outcome.sampled) this.sampled.push({ kernel: req.kernel.name, range: req.range, ...outcome.sampled });
    if (outcome.beyondDevice && !this.beyondDevice.some((b) => b.range === req.range)) this.beyondDevice.push({ kernel: req.kernel.name, range: req.range, message: outcome.beyondDevice });
    s.clock?.kernel(outcome.steps, s.device.smCount);
    this.findings.push(...outcome.findings.map((f: GridFinding) => ({ ...f })));
    return { clean: outcome.completed && !outcome.findings.length && !outcome.sampled, refused: outcome.findings.some((f) => f.kind === 'launch-configuration'), steps: outcome.steps };
  }

  /** The launches have used up the run's step budget. */
  get exhausted(): boolean {
    return this.findings.some((f) => f.kind === 'step-budget');
  }
}
