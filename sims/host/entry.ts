// What `scord check` runs: the program's `main`, or, for a kernel-only file (or when the
// command line names a kernel or a launch shape), one kernel launched directly. The launch
// comes from the command line (`--kernel`, `--grid`, `--block`, `--arg`) over the file's
// GPUVerify-style header (sims/host/kernelHeader.ts). Everything is checked here, before
// anything runs, so that a launch the simulator would refuse is reported up front.
import { functionsOf, type ParseResult } from '../frontend/index';
import type { Range } from '../frontend/source';
import * as T from '../frontend/types';
import { DEFAULT_MAX_THREADS } from '../machine/executor';
import type { Dim3, KernelHeader } from './kernelHeader';
import { kernelsOf, type KernelEntry } from './run';

/** What the command line asked for; `args` are `--arg NAME=VALUE`. */
export interface EntryRequest {
  kernel?: string;
  grid?: Dim3;
  block?: Dim3;
  args: Record<string, number>;
}

export type EntryChoice =
  | { kind: 'main' }
  | { kind: 'entry'; entry: KernelEntry }
  /** The file cannot be analysed as asked (a diagnostic; exit 2). */
  | { kind: 'problem'; message: string; range?: Range }
  /** The command line is wrong (exit 2). */
  | { kind: 'usage'; message: string };

export function chooseEntry(parsed: ParseResult, request: EntryRequest, header: KernelHeader): EntryChoice {
  const hasMain = functionsOf(parsed.ast).some((f) => f.name === 'main' && f.body);
  const explicit = request.kernel !== undefined || request.grid !== undefined || request.block !== undefined;
  const argNames = Object.keys(request.args);
  if (hasMain && !explicit) {
    if (argNames.length) return { kind: 'usage', message: `--arg sets parameters of a kernel run directly, but the file has a main function, which runs instead (name a kernel with --kernel to run it directly)` };
    return { kind: 'main' };
  }
  const kernels = kernelsOf(parsed);
  let name = request.kernel;
  if (name === undefined) {
    const names = [...kernels.keys()];
    if (names.length === 0) return { kind: 'problem', message: hasMain ? 'the program has no kernel to run' : 'the program has neither a main function nor a kernel to run' };
    if (names.length > 1) return { kind: 'problem', message: `the program has ${names.length} kernels (${names.join(', ')}); choose one with --kernel` };
    name = names[0];
  } else if (!kernels.has(name)) {
    const other = functionsOf(parsed.ast).find((f) => f.name === name);
    const known = kernels.size ? ` (its kernels: ${[...kernels.keys()].join(', ')})` : '';
    if (other && other.space === 'global') return { kind: 'problem', message: `kernel '${name}' is declared but never defined`, range: other.nameRange };
    return { kind: 'problem', message: other ? `'${name}' is a ${other.space} function, not a kernel (__global__)${known}` : `the program has no kernel named '${name}'${known}`, ...(other ? { range: other.nameRange } : {}) };
  }
  const decls = kernels.get(name)!;
  const grid = request.grid ?? header.grid;
  const block = request.block ?? header.block;
  if (!grid || !block) {
    const missing = [!grid ? 'grid' : '', !block ? 'block' : ''].filter(Boolean).join(' and ');
    return { kind: 'problem', message: `no ${missing} size to launch kernel '${name}' with: give ${!grid ? '--grid' : ''}${!grid && !block ? ' and ' : ''}${!block ? '--block' : ''}, or a header line such as //--blockDim=64 --gridDim=2 at the top of the file`, range: decls[0].nameRange };
  }

  // Parameters named by --arg must exist and be scalars.
  const params = new Map<string, T.Type>();
  for (const d of decls) for (const p of d.params) if (p.name) params.set(p.name, T.decay(p.resolvedType ?? T.ERROR));
  for (const arg of argNames) {
    const t = params.get(arg);
    if (!t) return { kind: 'usage', message: `--arg ${arg}: kernel '${name}' has no parameter named '${arg}'${params.size ? ` (its parameters: ${[...params.keys()].join(', ')})` : ''}` };
    if (!T.isArithmetic(T.unqualified(t))) return { kind: 'usage', message: `--arg ${arg}: parameter '${arg}' of kernel '${name}' has type '${T.typeToString(t)}'; only scalar parameters take values (pointers get zeroed allocations, structs zeroed copies)` };
  }

  const refused = launchLimitProblem(grid, block);
  if (refused) return { kind: 'problem', message: refused };
  return { kind: 'entry', entry: { kernel: name, grid, block, args: request.args } };
}

/**
 * Why the simulator cannot run a launch of this shape at all (more threads than it holds), said
 * before it runs; undefined if it can. A block shape the device refuses (too many threads per
 * block, a dimension beyond its maximum, too much shared memory) is not refused here: a kernel
 * run on its own is a verifier's configuration, simulated as asked up to the simulator's
 * MAX_BLOCK_THREADS with a warning that a GPU refuses it (sims/machine/executor.ts).
 */
export function launchLimitProblem(grid: Dim3, block: Dim3): string | undefined {
  const total = block[0] * block[1] * block[2] * grid[0] * grid[1] * grid[2];
  if (total > DEFAULT_MAX_THREADS) return `the launch asks for ${total} threads; the simulator's limit is ${DEFAULT_MAX_THREADS}`;
  return undefined;
}
