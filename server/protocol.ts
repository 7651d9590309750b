// The language server's extensions to LSP, typed once for both sides: the client sends these
// requests and the server answers them. What they carry is in ./wire.ts. Nothing here imports
// the engine at run time.
import { NotificationType, ProtocolRequestType } from 'vscode-languageserver-protocol';
import type { CheckDiagnostic, CheckReport, Engine, PublicFinding } from '../sims/check';
import type { LaunchDescription } from '../sims/host/launchDescription';
import type { PointerArgument } from '../sims/host/run';
import type { Fairness } from '../sims/idioms/schedulers';
import type { LitmusReport } from '../sims/litmus/types';
import type { MemoryModelName } from '../sims/gpu/memoryModels';
import type { InspectorState } from './wire';

export * from './wire';

/** Every setting of the `scord` section, as the server reads it for one document. */
export interface ScordSettings {
  analysis: {
    /** When to run the simulation and race detection. */
    trigger: 'onType' | 'onSave' | 'off';
    /** Milliseconds after the last edit before a run starts. */
    debounceMs: number;
    /** Milliseconds a run may take before it is stopped. */
    timeBudgetMs: number;
    /** Memory a run may use: MB of JavaScript heap, and of simulated device memory. */
    memoryLimitMb: number;
    /** Runs at once, each in its own worker; 0: one fewer than the machine's cores (at least 1). */
    maxParallelRuns: number;
    /**
     * Schedules explored per version of a document: after the first run's findings are shown,
     * further seeded schedules run in the background and their new races join them (1: none).
     */
    schedules: number;
  };
  limits: {
    /** The largest source file read, in MB (a program's sources together: eight times it, at least 64 MB). */
    maxFileMb: number;
  };
  preprocessor: {
    defines: string[];
    includePaths: string[];
  };
  simulator: {
    device: string;
    scheduling: 'independent' | 'lockstep';
    schedules: number;
    seed: number;
    stepBudget: number;
    /**
     * A launch that would not finish within the step budget runs this many of its blocks (the
     * first, the last, a seeded random set); 0: never sample, report the budget instead.
     */
    sampleBlocks: number;
    /** The memory model device code runs under (weak ones make races observable). */
    memoryModel: MemoryModelName;
  };
  detector: {
    hardwareFaithful: boolean;
    /** Device reads of cudaMalloc'd memory nothing has written are warnings (memcheck's initcheck). */
    initCheck: boolean;
    /** Assume pre-Volta lockstep warps: conflicts between lanes of an undiverged warp are not races (`--warp-sync`). */
    warpSync: boolean;
    /** Report races whose writes store the same value (as information); false hides them (`--no-benign`). */
    reportBenign: boolean;
  };
  /** The race detection engine: ScoRD, happens-before over the PTX memory model, or both. */
  engine: Engine;
  /**
   * The GPU scheduler's fairness (Sorensen et al.): under one weaker than `fair`, launches
   * that may never end (spin locks, flags, grid barriers) are reported as deadlocks.
   */
  fairness: Fairness;
  diagnostics: {
    raceSeverity: 'error' | 'warning' | 'information' | 'hint';
  };
  /**
   * Which front end reads the program: `auto` (the hand-written one when it reads and runs
   * the file alone, clang otherwise), `builtin` or `clang`.
   */
  frontend: 'auto' | 'builtin' | 'clang';
  /** The program a document is analysed in (the clang path), and how it runs. */
  program: {
    /** A compile_commands.json (or the folder holding one); empty: the nearest one to the file. */
    compileCommands: string;
    /** Files that make one program with the document (relative ones from the workspace folder). */
    sources: string[];
    /** The program's arguments after its name. */
    args: string[];
    /** A file whose bytes are the program's standard input; empty: none. */
    stdin: string;
    /** Let the program read files of its own folder (never write them); off: it reads no file. */
    allowRead: boolean;
  };
}

export const DEFAULT_SETTINGS: ScordSettings = {
  analysis: { trigger: 'onType', debounceMs: 300, timeBudgetMs: 10_000, memoryLimitMb: 1024, maxParallelRuns: 0, schedules: 8 },
  limits: { maxFileMb: 8 },
  preprocessor: { defines: [], includePaths: [] },
  simulator: { device: 'scord-paper', scheduling: 'independent', schedules: 1, seed: 1, stepBudget: 50_000_000, sampleBlocks: 32, memoryModel: 'sc' },
  detector: { hardwareFaithful: false, initCheck: false, warpSync: false, reportBenign: true },
  engine: 'scord',
  fairness: 'fair',
  diagnostics: { raceSeverity: 'warning' },
  frontend: 'auto',
  program: { compileCommands: '', sources: [], args: [], stdin: '', allowRead: false },
};

/** A kernel launch to run instead of `main` (kernel-only files, or one kernel of a program). */
export interface LaunchParams {
  kernel: string;
  grid: [number, number, number];
  block: [number, number, number];
  /** Scalar arguments by parameter name (a kernel run on its own; those not given are 0). */
  args?: Record<string, number>;
  /** Pointer arguments by parameter name: how many elements, and what they hold at the start. */
  pointers?: Record<string, PointerArgument>;
  /**
   * Run `main` up to its first launch of the kernel and that launch (with this grid and block),
   * so the kernel gets the arguments and memory the program gives it; `args`/`pointers` unused.
   */
  fromMain?: boolean;
}

export interface RunParams {
  uri: string;
  /** `main` (the default) or one kernel with its launch. */
  entry?: 'main' | LaunchParams;
  /** Overrides of the document's settings for this run. */
  options?: { schedules?: number; seed?: number; scheduling?: 'independent' | 'lockstep'; hardwareFaithful?: boolean; device?: string; fairness?: Fairness; engine?: Engine; memoryModel?: MemoryModelName };
  workDoneToken?: string | number;
}

/** A report with 1-based locations (as the CLI prints it). */
export interface RunResult {
  uri: string;
  analysed: boolean;
  findings: PublicFinding[];
  diagnostics: Omit<CheckDiagnostic, 'range'>[];
  output: string;
  stats: CheckReport['stats'] & { elapsedMs: number };
}

/** `scord/run`: run the program (or a kernel) now, with progress and cancellation. */
export const RunRequest = new ProtocolRequestType<RunParams, RunResult, never, void, void>('scord/run');

export interface InspectParams {
  uri: string;
  /** An address as reports name it (`data[3]`): every access to it, in order. */
  address?: string;
}

export interface InspectResult {
  uri: string;
  /** Document version the state belongs to; null when there is no run yet. */
  version: number | null;
  state: InspectorState | null;
  findings: PublicFinding[];
  stats: (CheckReport['stats'] & { elapsedMs: number }) | null;
  /** When that run ended (epoch milliseconds); null when there is no run yet. */
  finishedAt: number | null;
}

/** `scord/inspect`: the detector's state after the document's last run (the inspector's data). */
export const InspectRequest = new ProtocolRequestType<InspectParams, InspectResult, never, void, void>('scord/inspect');

/** Commands the server's code lenses and code actions invoke; the client implements them. */
export const ClientCommands = {
  runKernel: 'scord.runKernel',
  showInspector: 'scord.showInspector',
} as const;

/** What a race diagnostic's `data` carries for code actions and the inspector. */
export interface RaceDiagnosticData {
  /** The document version the finding was computed for; fixes apply only to it. */
  version: number;
  /** Index of the finding in the run's report. */
  finding: number;
  /** Shown in a header: the document whose run found it (its run holds the finding and fixes). */
  owner?: string;
  address?: string;
}

/** Where a document's analysis stands: the status bar shows it, and tests wait on it. */
export interface AnalysisStateParams {
  uri: string;
  version: number;
  state: 'running' | 'done' | 'stopped';
  /**
   * With `done`: the program could not run — errors in its text (`syntax`: all from reading it;
   * `compile`: types, names, clang's) — so the findings on screen are the last run's.
   */
  notRun?: 'syntax' | 'compile';
  /** With `done`: races and other findings of the run, and how long it took. */
  races?: number;
  findings?: number;
  elapsedMs?: number;
  /**
   * With `done`: the run simulated a sample of a big grid's blocks (the first sampled launch),
   * and how many launches were sampled in all.
   */
  sampled?: { kernel: string; simulated: number; blocks: number; launches: number };
  /**
   * With `done`: whether the run took the server's parse of this version (a version is parsed
   * once) or parsed the text itself (its flags or headers differed from the server's parse).
   */
  parse?: 'taken' | 'parsed';
  /** With `stopped`: why (cancelled by an edit, over budget, crashed). */
  reason?: string;
}

export const AnalysisStateNotification = new NotificationType<AnalysisStateParams>('scord/analysisState');

/**
 * The client's editors (client → server): the documents visible now, the active one first.
 * Runs waiting for a worker go in this order.
 */
export interface VisibleDocumentsParams {
  uris: string[];
}
export const VisibleDocumentsNotification = new NotificationType<VisibleDocumentsParams>('scord/visibleDocuments');

/**
 * Whether the workspace is trusted (client → server; also `initializationOptions.trusted`).
 * In a workspace that is not, `#include` reads only files inside the workspace folders and
 * the include paths.
 */
export interface WorkspaceTrustParams {
  trusted: boolean;
}
export const WorkspaceTrustNotification = new NotificationType<WorkspaceTrustParams>('scord/workspaceTrust');

export interface KernelsParams {
  uri: string;
}

export interface KernelsResult {
  /** The file has a host `main` (Run Program runs it). */
  hasMain: boolean;
  /**
   * `launchedInProgram`: the host code launches it (Run Kernel then runs the program up to that
   * launch); `launch`: its first launch in the last run of the program, with its arguments in words.
   */
  kernels: { name: string; params: string[]; line: number; launchedInProgram: boolean; launch?: LaunchDescription }[];
  /** The launch a kernel-only file's GPUVerify-style header gives (`//--gridDim=2 --blockDim=64`). */
  headerLaunch?: { grid?: [number, number, number]; block?: [number, number, number] };
}

/** `scord/kernels`: the kernels of a document, for the Run Kernel picker. */
export const KernelsRequest = new ProtocolRequestType<KernelsParams, KernelsResult, never, void, void>('scord/kernels');

export interface LitmusParams {
  uri: string;
  model: MemoryModelName;
  /** Random executions (default 1000); ignored with `exhaustive`. */
  runs?: number;
  /** Explore every execution instead of sampling. */
  exhaustive?: boolean;
  /** `__device__` variables whose final values are the outcome, instead of the printed output. */
  observe?: string[];
  /** Seed of the first random execution (default: the document's `scord.simulator.seed`). */
  seed?: number;
  /** Exhaustive only: executions explored at most before the report says it is incomplete. */
  maxExecutions?: number;
  /** Milliseconds the run may take (default: the document's `scord.analysis.timeBudgetMs`). */
  timeBudgetMs?: number;
  workDoneToken?: string | number;
}

/** The histogram of outcomes, for the document named by `uri`, and how long it took. */
export interface LitmusResult extends LitmusReport {
  uri: string;
  elapsedMs: number;
}

/** `scord/litmus`: run a litmus test under a memory model, with progress and cancellation. */
export const LitmusRequest = new ProtocolRequestType<LitmusParams, LitmusResult, never, void, void>('scord/litmus');
