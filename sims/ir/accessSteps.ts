// Steps that touch memory as a detector and the weak memory model see them: one event object
// per access site, refilled on every access; loads and stores through the weak model when one
// runs; fences. Shared by every lowering into the simulator's IR.
import type { Range } from '../frontend/source';
import { load, store } from '../gpu/access';
import { pointerAllocation, pointerOffset, type ScalarKind } from '../gpu/memory';
import { readingStep, WARP, type Lanes, type MemoryOrder, type Scope, type SimEvent, type Step } from './ir';

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
  return readingStep(
    events
      ? (w, l) => {
          w.ctx.weak?.fence(w, l, scope, range);
          const listener = w.ctx.events;
          if (!listener) return;
          fence.block = w.ctx.blockLinear;
          fence.warp = w.warp;
          fence.lane = l;
          listener(fence);
        }
      : (w, l) => w.ctx.weak?.fence(w, l, scope, range),
    [],
  );
}

/** Where a copy or a fill goes, and what sees it. */
export interface BytesAccess {
  /** The destination is the thread's own local memory: no events, no weak model. */
  dstLocal: boolean;
  /** The same of a copy's source. */
  srcLocal?: boolean;
  volatile: boolean;
  /** Report each access to the listener. */
  events: boolean;
  /** The side of the program the code runs on (device unless said). */
  space?: 'device' | 'host';
  range: Range;
}

/**
 * A copy of bytes (struct assignment, memcpy, memmove) from the address in register `src` to the
 * one in `dst`: as 4-byte words when both addresses and the length allow it, else 2-byte halves,
 * else bytes; a load and a store each, through the weak model, each an event of its own (local
 * memory aside), as a loop of scalar copies would be. Overlapping regions (memmove) copy
 * backwards when the destination is above the source.
 */
export function copyStep(dst: number, src: number, sizeOf: (w: Lanes, l: number) => number, a: BytesAccess): Step {
  const d = dst * WARP;
  const s = src * WARP;
  const { range, volatile, dstLocal, events } = a;
  const srcLocal = !!a.srcLocal;
  const space = a.space ?? 'device';
  // One event object per piece width, for each direction.
  const widths = (write: boolean) => ({ u8: accessEvent(write, 1, 'u8', volatile, undefined, space, range), u16: accessEvent(write, 2, 'u16', volatile, undefined, space, range), u32: accessEvent(write, 4, 'u32', volatile, undefined, space, range) });
  const reads = widths(false);
  const writes = widths(true);
  return (w, l) => {
    const to = w.regs[d + l];
    const from = w.regs[s + l];
    const n = sizeOf(w, l);
    const aligned = (k: number): boolean => (pointerOffset(to) & (k - 1)) === 0 && (pointerOffset(from) & (k - 1)) === 0 && n % k === 0;
    const width = aligned(4) ? 4 : aligned(2) ? 2 : 1;
    const kind = width === 4 ? 'u32' : width === 2 ? 'u16' : 'u8';
    const backwards = pointerAllocation(to) === pointerAllocation(from) && to > from && to < from + n;
    const listener = events ? w.ctx.events : undefined;
    for (let i = 0; i < n; i += width) {
      const k = backwards ? n - width - i : i;
      const v = srcLocal ? load(w.ctx, from + k, kind, range) : modelLoad(w, l, from + k, kind, volatile, range);
      if (listener && !srcLocal) listener(fill(reads[kind], w, l, from + k, undefined));
      if (dstLocal) store(w.ctx, to + k, kind, v, range);
      else modelStore(w, l, to + k, kind, v, volatile, range);
      if (listener && !dstLocal) listener(fill(writes[kind], w, l, to + k, undefined));
    }
  };
}

/** memset: the bytes at the address in register `dst` set to the low byte of register `value`, an event each (local memory aside). */
export function setStep(dst: number, value: number, sizeOf: (w: Lanes, l: number) => number, a: BytesAccess): Step {
  const d = dst * WARP;
  const vo = value * WARP;
  const { range, volatile, dstLocal, events } = a;
  const write = accessEvent(true, 1, 'u8', volatile, undefined, a.space ?? 'device', range);
  return (w, l) => {
    const to = w.regs[d + l];
    const n = sizeOf(w, l);
    const v = w.regs[vo + l] & 0xff;
    const listener = events && !dstLocal ? w.ctx.events : undefined;
    for (let k = 0; k < n; k++) {
      if (dstLocal) store(w.ctx, to + k, 'u8', v, range);
      else modelStore(w, l, to + k, 'u8', v, volatile, range);
      if (listener) listener(fill(write, w, l, to + k, undefined));
    }
  };
}
