// What travels between the language server, the extension and the inspector webview, and
// the only door through which the client reaches the engine: the engine's plain records that
// travel as they are (reports, findings, launches, litmus histograms) are named here, the
// inspector's state has a wire form of its own (built by `inspectorState`), and the few pure
// helpers the client formats with are passed on. The requests that carry them are in
// ./protocol.ts; the webview imports this module alone (it has no LSP connection).
import type { AccessView, DetectorState } from '../sims/detect/detector';
import type { Accessor } from '../sims/detect/findings';
import type { Range } from '../sims/frontend/source';
import type { Scope } from '../sims/gpu/memoryOrder';

export type { CheckDiagnostic, CheckReport, Engine, Location, PublicFinding } from '../sims/check';
export type { Accessor, MetadataSnapshot } from '../sims/detect/findings';
export type { Range } from '../sims/frontend/source';
export type { LaunchDescription } from '../sims/host/launchDescription';
export type { PointerArgument } from '../sims/host/run';
export type { LitmusOutcome, LitmusReport, WitnessStep } from '../sims/litmus/types';
export type { MemoryModelName } from '../sims/gpu/memoryModels';
export { dimText, launchText } from '../sims/host/launchDescription';
export { parseDim3 } from '../sims/host/kernelHeader';

/** One access as the inspector shows it: who, what, where, and the metadata it left. */
export interface InspectorAccess {
  accessor: Accessor;
  /** `read`, `write` or the atomic (`atomicAdd_block`). */
  access: string;
  range: Range;
  barrierId: number;
  blockFenceId: number;
  deviceFenceId: number;
  strong: boolean;
  locks: string[];
}

/** One metadata entry: a word's last access and last write (hardware-faithful: its flags). */
export interface InspectorEntry {
  address: string;
  last: InspectorAccess;
  lastWrite?: InspectorAccess;
  flags?: { modified: boolean; blkShared: boolean; devShared: boolean; strong: boolean };
}

export interface InspectorFenceFile {
  block: number;
  warp: number;
  /** Exact mode keeps a file per thread; hardware-faithful, one per warp. */
  lane?: number;
  blockFenceId: number;
  deviceFenceId: number;
}

export interface InspectorLockTable {
  block: number;
  warp: number;
  lane: number;
  locks: { name: string; scope: Scope; held: boolean; acquire: Range }[];
}

export interface InspectorTraceAccess {
  launch: number;
  accessor: Accessor;
  access: string;
  range: Range;
  strong: boolean;
}

/** What the metadata inspector shows of a run: the ScoRD detector's state after its last launch. */
export interface InspectorState {
  precision: 'exact' | 'hardware-faithful';
  /** Bytes per metadata entry. */
  granularity: number;
  /** The entries sent (at most the detector's limit), and how many there were. */
  entries: InspectorEntry[];
  entriesTotal: number;
  fenceFiles: InspectorFenceFile[];
  lockTables: InspectorLockTable[];
  barriers: { block: number; barrierId: number }[];
  /** With an address asked for: every access to it, in order. */
  trace?: { address: string; accesses: InspectorTraceAccess[]; truncated: boolean };
}

/** The detector's state in its wire form: plain copies, so the engine's own objects never travel. */
export function inspectorState(state: DetectorState): InspectorState {
  const access = (a: AccessView): InspectorAccess => ({ ...a, accessor: { ...a.accessor }, locks: [...a.locks] });
  return {
    precision: state.precision,
    granularity: state.granularity,
    entries: state.entries.map((e) => ({ address: e.address, last: access(e.last), ...(e.lastWrite ? { lastWrite: access(e.lastWrite) } : {}), ...(e.flags ? { flags: { ...e.flags } } : {}) })),
    entriesTotal: state.entriesTotal,
    fenceFiles: state.fenceFiles.map((f) => ({ ...f })),
    lockTables: state.lockTables.map((t) => ({ block: t.block, warp: t.warp, lane: t.lane, locks: t.locks.map((l) => ({ ...l })) })),
    barriers: state.barriers.map((b) => ({ ...b })),
    ...(state.trace ? { trace: { address: state.trace.address, truncated: state.trace.truncated, accesses: state.trace.accesses.map((a) => ({ ...a, accessor: { ...a.accessor } })) } } : {}),
  };
}
