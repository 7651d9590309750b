// Steps that touch memory as a detector and the weak memory model see them: one event object
// per access site, refilled on every access; loads and stores through the weak model when one
// runs; fences. Shared by every lowering into the simulator's IR.
import type { Range } from '../frontend/source';
import { load, store } from '../gpu/access';
import type { ScalarKind } from '../gpu/memory';
import type { Lanes, MemoryOrder, Scope, SimEvent, Step } from './ir';

/** The event fields that name a thread: its block, its warp within the block, its lane. */
export type AccessEvent = Extract<SimEvent, { kind: 'access' }>;

/** The memory order (and the scope it orders with) of a load, store or read-modify-write that names one. */
export interface Ordered {
  order: MemoryOrder;
  scope: Scope;
}

/** The one event object of an access site, refilled on every access (no allocation per access). */
export function accessEvent(write: boolean, size: number, type: ScalarKind, strong: boolean, atomic: AccessEvent['atomic'], space: 'device' | 'host', range: Range, ordered?: Ordered): AccessEvent {
  return {
    kind: 'access', write, address: 0, size, type, strong, ...(atomic ? { atomic } : { atomic: undefined }),
    // For a read-modify-write the order's scope is its atomic scope.
    order: ordered?.order, orderScope: ordered?.scope,
    space, block: 0, warp: 0, lane: 0, range,
  };
}

/** A load as the memory model has it: through the weak model's views when one runs, else memory. */
export function modelLoad(w: Lanes, l: number, p: number, kind: ScalarKind, strong: boolean, range: Range, ordered?: Ordered): number {
  const weak = w.ctx.weak;
  return weak ? weak.load(w, l, p, kind, strong, range, ordered?.order, ordered?.scope) : load(w.ctx, p, kind, range);
}

export function modelStore(w: Lanes, l: number, p: number, kind: ScalarKind, value: number, strong: boolean, range: Range, ordered?: Ordered): void {
  const weak = w.ctx.weak;
  if (weak) weak.store(w, l, p, kind, value, strong, range, ordered?.order, ordered?.scope);
  else store(w.ctx, p, kind, value, range);
}

export function fill(e: AccessEvent, w: Lanes, l: number, address: number, atomic: AccessEvent['atomic']): AccessEvent {
  e.address = address;
  e.block = w.ctx.blockLinear;
  e.warp = w.warp;
  e.lane = l;
  if (atomic) e.atomic = atomic;
  return e;
}

/**
 * A fence of `scope` (__threadfence*, atomic_thread_fence, PTX fence and membar). Under
 * sequential consistency a fence orders nothing more, but a detector needs to see it; under a
 * weak memory model it pushes the thread's own values out. `events`: report it to a listener.
 */
export function fenceStep(scope: Scope, order: MemoryOrder, range: Range, events: boolean): Step {
  const fence: Extract<SimEvent, { kind: 'fence' }> = { kind: 'fence', scope, order, block: 0, warp: 0, lane: 0, range };
  return events
    ? (w, l) => {
        w.ctx.weak?.fence(w, l, scope, range);
        const listener = w.ctx.events;
        if (!listener) return;
        fence.block = w.ctx.blockLinear;
        fence.warp = w.warp;
        fence.lane = l;
        listener(fence);
      }
    : (w, l) => w.ctx.weak?.fence(w, l, scope, range);
}
