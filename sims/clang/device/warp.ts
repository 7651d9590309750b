// Warp-wide operations (shuffles, votes, match, redux, __syncwarp, __activemask) as the
// executor's 'collective' terminators: the *_sync forms name a mask register, and the lanes wait
// until every live lane of the mask has arrived; then `run` computes every lane's result at once.
import { WARP, type Lanes, type SimEvent } from '../../ir/ir';
import { unbox } from '../../values/wide';
import type { LInstruction } from '../llvm/module';
import type { Lowering } from './lowering';

type Run = (w: Lanes, lanes: number[]) => void;

/** Ends the block with a warp-wide operation; code after it runs when the warp has done it. */
export function emitCollective(L: Lowering, run: Run, mask: number | undefined, anySite = false): void {
  const next = L.newBlock();
  L.terminate({ kind: 'collective', to: next.id, range: L.range, run, ...(mask !== undefined ? { mask } : {}), ...(anySite ? { anySite } : {}) }, next);
}

/** The bit mask of `lanes`, as a canonical (signed) i32. */
function laneMask(lanes: number[]): number {
  let m = 0;
  for (const l of lanes) m |= 1 << l;
  return m | 0;
}

const scratch = new Float64Array(WARP);

/**
 * PTX shfl: lane j of `c`'s segment (its clamp in bits 0–4, segment mask in bits 8–12) is read;
 * out-of-range sources read the lane's own value and clear the predicate.
 */
function shuffle(mode: string, ao: number, bo: number, co: number, ro: number, po: number | undefined): Run {
  return (w, lanes) => {
    const regs = w.regs;
    for (let l = 0; l < WARP; l++) scratch[l] = regs[ao + l];
    for (const l of lanes) {
      const b = regs[bo + l] & 31;
      const c = regs[co + l];
      const seg = (c >> 8) & 31;
      const maxLane = (l & seg) | (c & 31 & ~seg);
      const minLane = l & seg;
      let j: number;
      let ok: boolean;
      if (mode === 'up') {
        j = l - b;
        ok = j >= maxLane;
      } else if (mode === 'down') {
        j = l + b;
        ok = j <= maxLane;
      } else if (mode === 'bfly') {
        j = l ^ b;
        ok = j <= maxLane;
      } else {
        j = minLane | (b & ~seg);
        ok = j <= maxLane;
      }
      if (!ok || j < 0 || j >= WARP) j = l;
      regs[ro + l] = scratch[j];
      if (po !== undefined) regs[po + l] = ok ? 1 : 0;
    }
  };
}

/** Lowers `llvm.nvvm.{shfl,vote,match,redux,bar.warp.sync,activemask}…`; false when not one. */
export function lowerWarpIntrinsic(L: Lowering, i: LInstruction, name: string): boolean {
  const ops = i.operands;
  const shfl = /^llvm\.nvvm\.shfl\.(sync\.)?(idx|up|down|bfly)\.(i32|f32)(p)?$/.exec(name);
  if (shfl) {
    const sync = !!shfl[1];
    const args = sync ? ops.slice(1) : ops;
    const r = L.result(i);
    const run = shuffle(shfl[2], L.reg(args[0]) * WARP, L.reg(args[1]) * WARP, L.reg(args[2]) * WARP, r.reg * WARP, shfl[4] ? (r.reg + 1) * WARP : undefined);
    emitCollective(L, run, sync ? L.reg(ops[0]) : undefined);
    return true;
  }
  const vote = /^llvm\.nvvm\.vote\.(all|any|uni|ballot)(\.sync)?$/.exec(name);
  if (vote) {
    const sync = !!vote[2];
    const po = L.reg(ops[sync ? 1 : 0]) * WARP;
    const ro = L.result(i).reg * WARP;
    const kind = vote[1];
    emitCollective(L, (w, lanes) => {
      let ballot = 0;
      let count = 0;
      for (const l of lanes) if (w.regs[po + l]) {
        ballot |= 1 << l;
        count++;
      }
      const v = kind === 'ballot' ? ballot | 0 : kind === 'any' ? +(count > 0) : kind === 'all' ? +(count === lanes.length) : +(count === 0 || count === lanes.length);
      for (const l of lanes) w.regs[ro + l] = v;
    }, sync ? L.reg(ops[0]) : undefined);
    return true;
  }
  const match = /^llvm\.nvvm\.match\.(any|all)\.sync\.(i32|i64)(p)?$/.exec(name);
  if (match) {
    const vo = L.reg(ops[1]) * WARP;
    const r = L.result(i);
    const ro = r.reg * WARP;
    const po = match[3] ? (r.reg + 1) * WARP : undefined;
    const wide = match[2] === 'i64';
    const same = (a: number, b: number): boolean => (wide ? unbox(a) === unbox(b) : a === b);
    emitCollective(L, (w, lanes) => {
      if (match[1] === 'any') {
        for (const l of lanes) w.regs[ro + l] = laneMask(lanes.filter((k) => same(w.regs[vo + k], w.regs[vo + l])));
        return;
      }
      const all = lanes.every((k) => same(w.regs[vo + k], w.regs[vo + lanes[0]]));
      const m = all ? laneMask(lanes) : 0;
      for (const l of lanes) {
        w.regs[ro + l] = m;
        if (po !== undefined) w.regs[po + l] = all ? 1 : 0;
      }
    }, L.reg(ops[0]));
    return true;
  }
  const redux = /^llvm\.nvvm\.redux\.sync\.(add|min|max|umin|umax|and|or|xor)$/.exec(name);
  if (redux) {
    const vo = L.reg(ops[0]) * WARP;
    const ro = L.result(i).reg * WARP;
    const op = redux[1];
    emitCollective(L, (w, lanes) => {
      let acc = op === 'and' ? -1 : op === 'min' ? 2147483647 : op === 'max' ? -2147483648 : op === 'umin' ? 4294967295 : 0;
      for (const l of lanes) {
        const v = w.regs[vo + l];
        switch (op) {
          case 'add': acc = (acc + v) | 0; break;
          case 'min': acc = Math.min(acc, v | 0); break;
          case 'max': acc = Math.max(acc, v | 0); break;
          case 'umin': acc = Math.min(acc, v >>> 0); break;
          case 'umax': acc = Math.max(acc, v >>> 0); break;
          case 'and': acc &= v; break;
          case 'or': acc |= v; break;
          default: acc ^= v;
        }
      }
      for (const l of lanes) w.regs[ro + l] = acc | 0;
    }, L.reg(ops[1]));
    return true;
  }
  if (name === 'llvm.nvvm.bar.warp.sync') {
    emitWarpSync(L, L.reg(ops[0]));
    return true;
  }
  if (name === 'llvm.nvvm.activemask') {
    emitActiveMask(L, L.result(i).reg);
    return true;
  }
  return false;
}

/** __syncwarp(mask): the lanes of the mask meet; a detector hears that their accesses are ordered. */
export function emitWarpSync(L: Lowering, mask: number): void {
  const range = L.range;
  const event: Extract<SimEvent, { kind: 'warp-sync' }> = { kind: 'warp-sync', block: 0, warp: 0, range };
  emitCollective(L, L.events ? (w) => {
    const listener = w.ctx.events;
    if (!listener) return;
    event.block = w.ctx.blockLinear;
    event.warp = w.warp;
    listener(event);
  } : () => undefined, mask, true);
}

/** __activemask(): the lanes that arrive together. */
export function emitActiveMask(L: Lowering, dst: number): void {
  const ro = dst * WARP;
  emitCollective(L, (w, lanes) => {
    const m = laneMask(lanes);
    for (const l of lanes) w.regs[ro + l] = m;
  }, undefined);
}
