// What the server and its analysis worker say to each other.
import type { FileLimits } from '../../sims/files/policy';
import type { CheckOptions, CheckReport } from '../../sims/check';
import type { LitmusOptions, LitmusReport } from '../../sims/litmus/types';
import type { ParseHandoff } from './parseHandoff';

/** Which front end a report came from: the hand-written one's run, or clang's. */
export type ReportFrontend = 'builtin' | 'clang';

/**
 * The program a document is analysed in, as the worker resolves it (its files are read
 * there, off the server's thread): the document's compile_commands.json entry, the sources
 * setting, or the file alone. Paths are absolute.
 */
export interface ProgramRequest {
  /** The compilation database to use; undefined: the nearest one to the file. */
  compileCommands?: string;
  /** Files that make one program with the document (the sources setting); empty: none. */
  sources: string[];
  /** The folder relative paths of the program are taken from (the workspace folder). */
  base: string;
  argv: string[];
  /** A file whose bytes are the program's standard input. */
  stdinFile?: string;
  /** The program may read files of its own folder (scord.program.allowRead). */
  allowRead?: boolean;
}

/**
 * Preprocessor output at most, for the server's parse and the worker's run alike: a runaway
 * macro stops here (5,000 real lines are ~50,000 tokens).
 */
export const MAX_EXPANDED_TOKENS = 1_000_000;

export interface AnalysisRequest {
  id: number;
  fileName: string;
  text: string;
  /** Open documents by path: they win over the disk for #include. */
  openFiles: Record<string, string>;
  options: Omit<CheckOptions, 'fileName' | 'text' | 'readFile' | 'parsed'>;
  /**
   * Check preferred fixes by re-running the fixed text. The report is sent first with no fix
   * preferred; a `verified` message follows with the fixes that removed their race.
   */
  verifyFixes: boolean;
  /** Explore the program's outcomes under a memory model (`scord/litmus`) instead of checking it. */
  litmus?: LitmusOptions;
  /** Which front end runs the program (the `scord.frontend` setting). */
  frontend: 'auto' | 'builtin' | 'clang';
  /** The program the document belongs to; undefined: the file alone. */
  program?: ProgramRequest;
  /** What the run may read from disk (sims/files/policy.ts): the file cap, and in an untrusted workspace the folders. */
  files?: { limits: FileLimits; allowedRoots?: string[] };
  /** The server's parse of `text`, which the worker takes when it is the one it would make (./parseHandoff.ts). */
  parse?: ParseHandoff;
}

/** Slots of the cancelled requests the worker's process shares with its thread (id % CANCEL_SLOTS). */
export const CANCEL_SLOTS = 64;

/** What the server may send a worker besides requests. */
export type WorkerControl =
  /**
   * Drop request `id` at the next point between compiles, or at once in a run (the worker
   * stays, clang loaded): the worker's process also marks it in the slots the thread shares.
   */
  | { control: 'cancel'; id: number }
  /** Load clang now, ahead of the next run (the documents use it). */
  | { control: 'warm-clang' };

export type AnalysisResponse =
  /** The worker has the engine loaded and begins the run: its time budget starts now. */
  | { id: number; kind: 'started' }
  /** Clang compiles the program: an edit now need not end the worker (see AnalysisWorkers). */
  | { id: number; kind: 'compiling' }
  /** The compiles are done (or were never needed): the run's time budget starts now. */
  | { id: number; kind: 'compiled' }
  /** The request was dropped after a `cancel`; the worker is free again. */
  | { id: number; kind: 'dropped' }
  | {
      id: number;
      kind: 'report';
      report: CheckReport;
      elapsedMs: number;
      includes: string[];
      frontend: ReportFrontend;
      /** Whether the text was parsed here or the server's parse was taken (./parseHandoff.ts). */
      parse: 'taken' | 'parsed';
      /** The checked file's preprocessor flags from its compile_commands.json entry (the server parses with them). */
      flags?: { defines: string[]; undefines: string[]; includeDirs: string[] };
    }
  | { id: number; kind: 'verified'; preferred: boolean[][] }
  /** The answer to a request with `litmus`. */
  | { id: number; kind: 'litmus'; report: LitmusReport; elapsedMs: number }
  | { id: number; kind: 'failed'; message: string };

/** What the server tells the process that hosts a worker (server/analysis/workerHost.ts), as its argument. */
export interface WorkerHostConfig {
  /** The worker thread's script (dist/analysisWorker.js). */
  workerScript: string;
  /** The worker's JavaScript heap limit. */
  memoryLimitMb: number;
  /** The worker's stack. */
  stackMb: number;
  /** The most resident memory the whole process may hold (the heap, clang, the program's memory). */
  residentCeilingMb: number;
  /** Load clang as the worker starts. */
  warmClang: boolean;
}

/**
 * What the host process says of its worker, besides passing on the worker's own messages: that
 * it failed (ERR_WORKER_OUT_OF_MEMORY: over its heap limit or the process's ceiling). Its exit
 * is the process's.
 */
export type HostMessage = { host: 'error'; code: string | undefined; message: string };
