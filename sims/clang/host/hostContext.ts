// What the CUDA runtime imports of a host program share: the simulator's memory and runtime,
// the program's linear memory, its device code, the clock, and how to say where in the host
// program a call came from.
import type { Range } from '../../frontend/source';
import type { DeviceConfig } from '../../gpu/devices';
import type { FlatAddresses } from '../../gpu/flat';
import type { Memory } from '../../gpu/memory';
import type { RunFinding } from '../../host/run';
import type { CudaRuntime } from '../../runtime/runtime';
import type { DeviceProgram } from '../device/program';
import type { DebugLocation, LModule } from '../llvm/module';
import type { GridLauncher } from '../../host/gridLauncher';
import { currentStack, type HostSite, type HostSites } from './hostSites';
import type { LinearMemory } from './linearMemory';
import type { SimClock } from './simClock';

export type Finding = Omit<RunFinding, 'severity'>;

export interface HostContext {
  memory: Memory;
  flat: FlatAddresses;
  runtime: CudaRuntime;
  clock: SimClock;
  device: DeviceConfig;
  program: DeviceProgram;
  launcher: GridLauncher;
  linear: LinearMemory;
  sites: HostSites;
  rangeOf: (loc: DebugLocation | undefined) => Range;
  /** The run's findings (launches add theirs here too). */
  findings: Finding[];
  /** The host function table (exported by the link), for callbacks the program passes. */
  table?: WebAssembly.Table;
  /** The device modules (kernels' parameter names and uses). */
  modules: LModule[];
  /** The text of a source file, to name allocations as the program does (`d_data`). */
  sourceText?: (file: string) => string | undefined;
}

/** Ends the run from inside a runtime call: one finding and the exit status. */
export class HostStop extends Error {
  constructor(
    readonly finding: Finding | undefined,
    readonly exitCode: number,
  ) {
    super(finding?.message ?? `the run stopped with status ${exitCode}`);
  }
}

/** Where the runtime call being served was made: its source range and a readable place. */
export function callSite(ctx: HostContext): { range?: Range; site: HostSite } {
  const site = ctx.sites.site(currentStack());
  return { site, ...(site.location ? { range: ctx.rangeOf(site.location) } : {}) };
}

/** `in function 'main'`, for messages whose place has no source line (a program without line tables). */
export function placeText(site: HostSite): string {
  if (site.location) return site.inside ? ` (in ${site.inside})` : '';
  return site.function ? ` (in function '${site.function}')` : '';
}

/**
 * Gives the findings the runtime added since `before` the range of the call being served
 * (CudaRuntime records them without one; the call's place is only known here).
 */
export function locateRuntimeFindings(ctx: HostContext, before: number): void {
  const added = ctx.runtime.findings.slice(before).filter((f) => !f.at);
  if (added.length === 0) return;
  const { range, site } = callSite(ctx);
  for (const f of added) {
    if (range) f.at = range;
    else f.message += placeText(site);
  }
}

/**
 * The variable an allocation call at `range` stores its pointer in, read from the source:
 * `cudaMalloc(&d_data, …)`, `cudaMallocManaged((void **)&grid.cells, …)` → `d_data`, `grid.cells`.
 */
export function allocatedVariable(ctx: HostContext, range: Range | undefined): string | undefined {
  if (!range || !ctx.sourceText) return undefined;
  const text = ctx.sourceText(range.file);
  if (text === undefined) return undefined;
  const call = text.slice(range.start.offset, range.start.offset + 400);
  const m = /^[A-Za-z_]\w*\s*(?:<[^>()]*>\s*)?\(\s*(?:\([^()]*\)\s*)?&\s*([A-Za-z_]\w*(?:\s*(?:\.|->)\s*[A-Za-z_]\w*)*)\s*[,)]/.exec(call);
  return m ? m[1].replace(/\s+/g, '') : undefined;
}

/** Calls a host function of the program through its function table (stream callbacks, graph host nodes). */
export function callHostFunction(ctx: HostContext, index: number, ...args: number[]): void {
  const f = ctx.table?.get(index) as ((...a: number[]) => unknown) | null | undefined;
  if (typeof f === 'function') f(...args);
}
