// One interface for the race engines: a detector listens to a run's events and reports races
// when it is over. The checker takes a list of them (sims/check.ts); the metadata inspector
// shows what one holds (`state`), in the form below, which the protocol turns into its own.
import type { Range } from '../frontend/source';
import type { Scope } from '../gpu/memoryOrder';
import type { EventListener, SimEvent } from '../ir/ir';
import type { Accessor, RaceFinding } from './findings';

export interface Detector {
  /** Receives every event of the run it was made for. */
  readonly listener: EventListener;
  /** The races found, one per pair of instructions and category, once the run is over (what it held for the run may be let go). */
  findings(): RaceFinding[];
  /** What the detector holds now, for the metadata inspector; undefined for an engine that shows none. */
  state(limit?: number): DetectorState | undefined;
}

/** An event a detector handles its own way: neither an access nor a repeated launch. */
export type ControlEvent = Exclude<SimEvent, { kind: 'access' } | { kind: 'launch-repeat' }>;

/**
 * A detector's listener. Accesses, nearly all of a run's events, take the first test; a launch
 * repeated without running (launch reuse) counts that launch's races again, which every
 * detector does alike through its findings; the rest is the detector's own.
 */
export function detectorListener(onAccess: (e: Extract<SimEvent, { kind: 'access' }>) => void, repeatLaunch: (of: number) => void, onControl: (e: ControlEvent) => void): EventListener {
  return (e) => {
    if (e.kind === 'access') onAccess(e);
    else if (e.kind === 'launch-repeat') repeatLaunch(e.of);
    else onControl(e);
  };
}

/** Listens with every detector, in order. */
export function listenAll(detectors: readonly Detector[]): EventListener {
  if (detectors.length === 1) return detectors[0].listener;
  const listeners = detectors.map((d) => d.listener);
  return (e) => {
    for (const l of listeners) l(e);
  };
}

/** One access as the inspector shows it. */
export interface AccessView {
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

export interface DetectorState {
  precision: 'exact' | 'hardware-faithful';
  granularity: number;
  entries: { address: string; last: AccessView; lastWrite?: AccessView; flags?: { modified: boolean; blkShared: boolean; devShared: boolean; strong: boolean } }[];
  entriesTotal: number;
  /** Per thread (exact) or per warp (hardware-faithful). */
  fenceFiles: { block: number; warp: number; lane?: number; blockFenceId: number; deviceFenceId: number }[];
  lockTables: { block: number; warp: number; lane: number; locks: { name: string; scope: Scope; held: boolean; acquire: Range }[] }[];
  barriers: { block: number; barrierId: number }[];
  trace?: { address: string; accesses: { launch: number; accessor: Accessor; access: string; range: Range; strong: boolean }[]; truncated: boolean };
}
