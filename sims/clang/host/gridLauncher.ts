// Runs one kernel launch of a host program to completion, exactly as the hand-written path's
// runner does (sims/host/run.ts): the launch event, the fairness search for launches that may
// never end, runGrid with the run's scheduler, seed (plus the launch count), memory model and
// remaining step budget. Every detector therefore sees the same events on both paths.
import type * as A from '../../frontend/ast';
import type { DeviceConfig } from '../../gpu/devices';
import { runGrid, type GridFinding, type LaunchCheck, type SchedulerKind } from '../../machine/executor';
import type { Memory } from '../../gpu/memory';
import type { Chooser, WeakMemory } from '../../gpu/weakMemory';
import type { EventListener, LaunchRequest } from '../../ir/ir';
import type { RunFinding, SampledKernelLaunch } from '../../host/run';
import type { BlockSampling } from '../../machine/blockSample';
import type { CudaRuntime } from '../../runtime/runtime';
import { startLaunch, type UntilLaunch } from '../../host/describeLaunch';
import type { LaunchDescription } from '../../host/launchDescription';
import { ProcExit } from './wasi';
import type { SimClock } from './simClock';

export interface LaunchSettings {
  device: DeviceConfig;
  memory: Memory;
  runtime: CudaRuntime;
  clock: SimClock;
  /** Thread-steps all launches may take together. */
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
}

/** Host variables by declaration: the clang path has none (host code keeps its own memory). */
const NO_GLOBALS = new Map<A.VarDecl, number>();

export class GridLauncher {
  steps = 0;
  launches = 0;
  /** The first launches, with their arguments in words (RunResult.launched). */
  readonly launched: LaunchDescription[] = [];
  /** Launches that ran a sample of their blocks (RunResult.sampled). */
  readonly sampled: SampledKernelLaunch[] = [];

  constructor(
    private readonly s: LaunchSettings,
    /** Where the launches' findings go (the run's list). */
    private readonly findings: Omit<RunFinding, 'severity'>[],
  ) {}

  /** Runs the launch; `refused` when the device would not start it (its configuration). */
  launch(asked: LaunchRequest): { refused: boolean } {
    const s = this.s;
    const { req, last } = startLaunch(asked, s.untilLaunchOf, this.launched, s.memory);
    this.launches++;
    s.events?.({ kind: 'launch', kernel: req.kernel.name, grid: req.grid, block: req.block, range: req.range });
    const hang = s.fairnessCheck?.(req, { memory: s.memory, globals: NO_GLOBALS });
    if (hang) this.findings.push(hang);
    const outcome = runGrid(req, { device: s.device, memory: s.memory, runtime: s.runtime, globals: NO_GLOBALS, ...(s.events ? { events: s.events } : {}), ...(s.weak ? { weak: s.weak } : {}) }, {
      device: s.device,
      stepBudget: Math.max(0, s.budget - this.steps),
      ...(s.scheduler ? { scheduler: s.scheduler } : {}),
      ...(s.chooser ? { chooser: s.chooser } : {}),
      ...(s.onDecision ? { onDecision: s.onDecision } : {}),
      ...(s.model ? { model: s.model } : {}),
      ...(s.seed !== undefined ? { seed: s.seed + this.launches } : {}),
      ...(s.maxThreads !== undefined ? { maxThreads: s.maxThreads } : {}),
      ...(s.sampleBlocks ? { sampleBlocks: s.sampleBlocks } : {}),
    });
    this.steps += outcome.steps;
    if (outcome.sampled) this.sampled.push({ kernel: req.kernel.name, range: req.range, ...outcome.sampled });
    s.clock.kernel(outcome.steps, s.device.smCount);
    this.findings.push(...outcome.findings.map((f: GridFinding) => ({ ...f })));
    if (last) throw new ProcExit(0);
    return { refused: outcome.findings.some((f) => f.kind === 'launch-configuration') };
  }

  /** The launches have used up the run's step budget. */
  get exhausted(): boolean {
    return this.findings.some((f) => f.kind === 'step-budget');
  }
}
