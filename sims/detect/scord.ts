// The ScoRD scoped race detector (Kamath, George and Basu; seed 000, §IV), in its exact form:
// one metadata entry per 4-byte word of global memory, a fence file per warp, a barrier ID
// per block, locks inferred from atomicCAS + fence and released by atomicExch, and the
// preliminary checks and race conditions (a)–(f) of the paper's Tables III and IV. It
// listens to the simulator's event stream and reports each racing pair of instructions once.
import type { Range } from '../frontend/source';
import type { Memory } from '../gpu/memory';
import { pointerAllocation } from '../gpu/memory';
import type { EventListener, Scope, SimEvent } from '../ir/ir';

export type RaceCategory = 'missing-block-fence' | 'missing-device-fence' | 'non-strong-access' | 'scoped-atomic' | 'missing-lock';

export interface RaceFinding {
  kind: 'race';
  category: RaceCategory;
  /** The scope the conflict spans: two warps of one block, or two blocks. */
  scope: 'block' | 'device';
  message: string;
  range: Range;
  previous: Range;
  accessor: { block: number; warp: number; lane: number };
  previousAccessor: { block: number; warp: number; lane: number };
  /** How often this pair raced. */
  count: number;
}

interface Meta {
  block: number;
  warp: number;
  lane: number;
  barrier: number;
  blkFence: number;
  devFence: number;
  modified: boolean;
  blkShared: boolean;
  devShared: boolean;
  isAtom: boolean;
  atomScope: 'block' | 'device';
  strong: boolean;
  locks: Set<string>;
  range: Range;
  write: boolean;
}

interface LockEntry {
  key: string;
  scope: Scope;
  active: boolean;
}

type Access = Extract<SimEvent, { kind: 'access' }>;

export class ScordDetector {
  private meta = new Map<number, Meta>();
  private fences = new Map<string, { blk: number; dev: number }>();
  private barriers = new Map<number, number>();
  private locks = new Map<string, LockEntry[]>();
  private readonly found = new Map<string, RaceFinding>();

  constructor(
    private readonly memory: Memory,
    /** Bytes per metadata entry (4 = one word, the paper's exact design). */
    private readonly granularity = 4,
  ) {}

  readonly listener: EventListener = (e) => {
    switch (e.kind) {
      case 'launch':
        // Kernels run to completion one after another: nothing races across launches.
        this.meta = new Map();
        this.fences = new Map();
        this.barriers = new Map();
        this.locks = new Map();
        return;
      case 'barrier':
        this.barriers.set(e.block, (this.barriers.get(e.block) ?? 0) + 1);
        return;
      case 'fence': {
        const f = this.fenceFile(e.block, e.warp);
        if (e.scope === 'block') f.blk++;
        else f.dev++;
        // A fence after atomicCAS makes the inferred lock held (entries of its scope or less).
        for (const entry of this.locks.get(`${e.block}:${e.warp}`) ?? []) if (scopeRank(entry.scope) <= scopeRank(e.scope)) entry.active = true;
        return;
      }
      case 'access':
        if (e.space !== 'device') return;
        if (!this.tracked(e.address)) return;
        this.access(e);
        return;
    }
  };

  findings(): RaceFinding[] {
    return [...this.found.values()];
  }

  private tracked(address: number): boolean {
    const a = this.memory.allocation(pointerAllocation(address));
    return !!a && (a.space === 'global' || a.space === 'managed');
  }

  private fenceFile(block: number, warp: number): { blk: number; dev: number } {
    const key = `${block}:${warp}`;
    let f = this.fences.get(key);
    if (!f) {
      f = { blk: 0, dev: 0 };
      this.fences.set(key, f);
    }
    return f;
  }

  private heldLocks(block: number, warp: number): Set<string> {
    const out = new Set<string>();
    for (const e of this.locks.get(`${block}:${warp}`) ?? []) if (e.active) out.add(e.key);
    return out;
  }

  private access(e: Access): void {
    const word = Math.floor(e.address / this.granularity);
    // Lock inference: atomicCAS adds a candidate lock, atomicExch on a held lock releases it.
    if (e.atomic?.op === 'CAS' || e.atomic?.op === 'Exch') {
      const key = e.atomic.scope === 'block' ? `${word}@${e.block}` : `${word}`;
      const table = this.locks.get(`${e.block}:${e.warp}`) ?? [];
      this.locks.set(`${e.block}:${e.warp}`, table);
      if (e.atomic.op === 'CAS') {
        if (!table.some((t) => t.key === key)) table.push({ key, scope: e.atomic.scope, active: false });
      } else {
        // Released by address: the unlock's own scope does not have to match the lock's.
        const i = table.findIndex((t) => (t.key === `${word}` || t.key === `${word}@${e.block}`) && t.active);
        if (i >= 0) {
          table.splice(i, 1);
          return; // the release itself is the lock's own synchronisation
        }
      }
      if (e.atomic.op === 'CAS') return; // lock words are synchronisation, not data
    }
    const span = Math.max(1, Math.ceil(e.size / this.granularity));
    for (let k = 0; k < span; k++) this.check(word + k, e);
  }

  private check(word: number, e: Access): void {
    const barrier = this.barriers.get(e.block) ?? 0;
    const fence = this.fenceFile(e.block, e.warp);
    const held = this.heldLocks(e.block, e.warp);
    const md = this.meta.get(word);
    const write = e.write;
    if (!md) {
      this.meta.set(word, {
        block: e.block, warp: e.warp, lane: e.lane, barrier, blkFence: fence.blk, devFence: fence.dev,
        modified: write, blkShared: false, devShared: false, isAtom: !!e.atomic, atomScope: e.atomic?.scope === 'block' ? 'block' : 'device',
        strong: e.strong, locks: held, range: e.range, write,
      });
      return;
    }
    const sameBlock = md.block === e.block;
    const sameWarp = sameBlock && md.warp === e.warp;
    // Preliminary checks (Table III): program order within a warp, a barrier within a block.
    const ordered = (sameWarp && !md.blkShared && !md.devShared) || (sameBlock && barrier !== md.barrier && !md.devShared);
    if (!ordered && !sameWarp) this.races(md, e, sameBlock, held, write);
    // Metadata updates after every access.
    if (!write) {
      if (!sameBlock) md.devShared = true;
      else if (!sameWarp) md.blkShared = true;
    } else {
      md.blkShared = false;
      md.devShared = false;
    }
    md.block = e.block;
    md.warp = e.warp;
    md.lane = e.lane;
    md.barrier = barrier;
    md.blkFence = fence.blk;
    md.devFence = fence.dev;
    if (write) md.modified = true;
    md.isAtom = !!e.atomic;
    if (e.atomic) md.atomScope = e.atomic.scope === 'block' ? 'block' : 'device';
    md.strong = md.strong && e.strong;
    md.locks = md.locks.size === 0 && held.size === 0 ? md.locks : new Set([...md.locks].filter((l) => held.has(l)));
    md.range = e.range;
    md.write = write;
  }

  /** Race conditions (a)–(f) of Table IV between the recorded access `md` and `e`. */
  private races(md: Meta, e: Access, sameBlock: boolean, held: Set<string>, write: boolean): void {
    const scope = sameBlock ? 'block' : 'device';
    if (md.locks.size > 0 || held.size > 0) {
      const common = [...md.locks].some((l) => held.has(l));
      if (!common && (write || md.modified)) this.report('missing-lock', scope, md, e);
      return;
    }
    if (e.atomic && md.isAtom) {
      if (md.atomScope === 'block' && !sameBlock) this.report('scoped-atomic', 'device', md, e);
      else if (e.atomic.scope === 'block' && !sameBlock) this.report('scoped-atomic', 'device', md, e);
      return;
    }
    if (md.isAtom) {
      // A plain access after an atomic: racy only if the atomic's scope did not cover us.
      if (md.atomScope === 'block' && !sameBlock) this.report('scoped-atomic', 'device', md, e);
      return;
    }
    if (e.atomic?.scope === 'block' && !sameBlock && md.modified) {
      this.report('scoped-atomic', 'device', md, e);
      return;
    }
    const modified = write || md.modified;
    if (!modified) return;
    const f = this.fenceFile(md.block, md.warp);
    if (sameBlock && md.blkFence === f.blk && md.devFence === f.dev) this.report('missing-block-fence', 'block', md, e);
    else if (!sameBlock && md.devFence === f.dev) this.report('missing-device-fence', 'device', md, e);
    else if (!md.strong || !e.strong) this.report('non-strong-access', scope, md, e);
  }

  private report(category: RaceCategory, scope: 'block' | 'device', md: Meta, e: Access): void {
    const key = `${category}|${e.range.start.offset}|${md.range.start.offset}`;
    const existing = this.found.get(key);
    if (existing) {
      existing.count++;
      return;
    }
    const what = e.atomic ? 'atomic' : e.write ? 'write' : 'read';
    const prev = md.isAtom ? 'atomic' : md.write ? 'write' : 'read';
    const where = (b: number) => `block ${b}`;
    const line = md.range.start.line + 1;
    const advice: Record<RaceCategory, string> = {
      'missing-block-fence': `no fence orders them within the block; add __threadfence_block() (or a barrier) between them`,
      'missing-device-fence': `no device-scope fence orders them across blocks${md.blkFence !== this.fenceFile(md.block, md.warp).blk ? ' (a __threadfence_block() orders only within the writer\'s block)' : ''}; use __threadfence()`,
      'non-strong-access': `fences order only strong accesses; make both volatile or atomic`,
      'scoped-atomic': `a block-scope atomic is atomic only within its block; use the device-scope atomic (drop the _block suffix)`,
      'missing-lock': `they hold no common lock (a block-scope lock is a different lock in each block)`,
    };
    this.found.set(key, {
      kind: 'race',
      category,
      scope,
      message: `${what} in ${where(e.block)} races with the ${prev} at line ${line} in ${where(md.block)}: ${advice[category]}`,
      range: e.range,
      previous: md.range,
      accessor: { block: e.block, warp: e.warp, lane: e.lane },
      previousAccessor: { block: md.block, warp: md.warp, lane: md.lane },
      count: 1,
    });
  }
}

function scopeRank(s: Scope): number {
  return s === 'block' ? 0 : s === 'device' ? 1 : 2;
}
