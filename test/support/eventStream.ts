// Synthetic event streams for the race engines: one launch's events, as the simulator emits
// them, fed to any detectors that implement the Detector interface. Each source line is one
// instruction (one range object, as the simulator shares a site's range between its events),
// and a write stores a new value before it is reported, as the simulator reports an access once
// it is done (so no race looks like a benign same-value write unless a test makes it one).
// Each suite names its own steps on top (`write`, `volatileRead`, …) in a subclass.
import type { Detector } from '../../sims/detect/detector';
import type { Range } from '../../sims/frontend/source';
import { Memory, pointerAllocation, pointerOffset } from '../../sims/gpu/memory';
import type { MemoryOrder, Scope, SimEvent } from '../../sims/ir/ir';

/** A thread: its block, its warp in the block, its lane (0 when not given). */
export interface Thread {
  block: number;
  warp: number;
  lane?: number;
}

export interface AccessOptions {
  /** Volatile or atomic; an atomic or an ordered access is strong whatever this says. */
  strong?: boolean;
  atomic?: { op: string; scope: Scope; changed?: boolean };
  order?: MemoryOrder;
  orderScope?: Scope;
  /** Store this value (default: a new one each write). */
  value?: number;
}

type Access = Extract<SimEvent, { kind: 'access' }>;

export class EventStream {
  readonly memory = new Memory();
  readonly detectors: Detector[];
  private readonly ranges = new Map<number, Range>();
  private stored = 0;

  constructor(
    detectors: (memory: Memory) => Detector[],
    private readonly file = '/virtual/kernel.cu',
  ) {
    this.detectors = detectors(this.memory);
  }

  /** One range object per line. */
  at(line: number): Range {
    let r = this.ranges.get(line);
    if (!r) this.ranges.set(line, (r = { file: this.file, start: { line: line - 1, character: 2, offset: line * 100 }, end: { line: line - 1, character: 20, offset: line * 100 + 18 } }));
    return r;
  }

  send(e: SimEvent): void {
    for (const d of this.detectors) d.listener(e);
  }

  launchEvent(grid: number, threads: number, line = 1): this {
    this.send({ kind: 'launch', kernel: 'k', grid: [grid, 1, 1], block: [threads, 1, 1], range: this.at(line) });
    return this;
  }

  accessEvent(t: Thread, write: boolean, address: number, line: number, o: AccessOptions = {}): this {
    const changed = o.atomic?.changed ?? true;
    if (write && changed) {
      const a = this.memory.allocation(pointerAllocation(address));
      a?.view.setUint32(pointerOffset(address), o.value ?? ++this.stored, true);
    }
    const e: Access = {
      kind: 'access', write, address, size: 4, type: 'i32', strong: o.strong ?? !!(o.atomic || o.order),
      ...(o.atomic ? { atomic: { op: o.atomic.op, scope: o.atomic.scope, changed } } : {}),
      ...(o.order ? { order: o.order, orderScope: o.orderScope ?? o.atomic?.scope ?? 'system' } : {}),
      space: 'device', block: t.block, warp: t.warp, lane: t.lane ?? 0, range: this.at(line),
    };
    this.send(e);
    return this;
  }

  /** `__threadfence*` (order undefined) or `atomic_thread_fence(order, scope)`. */
  fenceEvent(t: Thread, scope: Scope, line: number, order?: MemoryOrder): this {
    this.send({ kind: 'fence', scope, ...(order ? { order } : {}), block: t.block, warp: t.warp, lane: t.lane ?? 0, range: this.at(line) });
    return this;
  }

  barrierEvent(block: number, line: number): this {
    this.send({ kind: 'barrier', block, range: this.at(line) });
    return this;
  }

  syncwarpEvent(block: number, warp: number, line: number): this {
    this.send({ kind: 'warp-sync', block, warp, range: this.at(line) });
    return this;
  }

  divergeEvent(block: number, warp: number): this {
    this.send({ kind: 'diverge', block, warp, paths: 2 });
    return this;
  }
}
