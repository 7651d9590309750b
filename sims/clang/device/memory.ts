// Loads, stores, atomics and fences of the IR as steps: each access of global, shared or generic
// memory is one access (one event, at its own instruction's range) through the weak memory model
// when one runs; an access that certainly goes to the thread's local memory is a plain, checked
// access that no detector hears about.
//
// Scopes and orders. clang prints NVPTX atomics without a syncscope, so the headers
// (sims/clang/include/device_atomic_functions.h, cuda/__scord_atomic_ops.h) keep to this
// reading of the IR: an atomic without a syncscope is device scope; `monotonic` is CUDA's
// relaxed legacy atomic (atomicAdd …: no memory order), any stronger ordering is an ordered
// operation (cuda::atomic, __scoped_atomic_*). Block and system scope come as
// `llvm.nvvm.atomic.*.gen.*.cta/.sys` calls or inline PTX. A syncscope, when clang prints one,
// wins. `load atomic`/`store atomic` and `fence` without a syncscope are device scope too.
import { load, store } from '../../gpu/access';
import type { FlatAddresses } from '../../gpu/flat';
import { scalarSize, type ScalarKind } from '../../gpu/memory';
import { accessEvent, copyStep, fenceStep, fill, modelLoad, modelStore, setStep, type Ordered } from '../../ir/accessSteps';
import { plainAccessStep } from '../../ir/plainAccess';
import { bigAtomic, narrowAtomic } from '../../ir/atomicOps';
import { readingStep, WARP, type Lanes, type MemoryOrder, type Scope } from '../../ir/ir';
import { unbox } from '../../values/wide';
import type { LInstruction, LType } from '../llvm/module';
import { pointerFlat } from './arith';
import { leavesOf, scalarKindOf, typeName } from './layout';
import type { Lowering } from './lowering';
import { fromBfloatBits, fromHalfBits, intNormalizer, normalizerOf, toBfloatBits, toHalfBits, unsignedView } from './numbers';

/** The memory order LLVM names (`unordered` reads like a relaxed atomic access). */
export function memoryOrder(ordering: string | undefined): MemoryOrder | undefined {
  switch (ordering) {
    case 'unordered':
    case 'monotonic':
      return 'relaxed';
    case 'acquire':
    case 'release':
    case 'acq_rel':
    case 'seq_cst':
      return ordering;
    default:
      return undefined;
  }
}

/** The scope of an LLVM syncscope; `undefined` (absent) is `fallback`; singlethread: no scope. */
export function syncScope(name: string | undefined, fallback: Scope): Scope | 'thread' {
  if (name === undefined || name === '') return fallback;
  if (name === 'singlethread') return 'thread';
  if (name === 'block' || name === 'cta' || name === 'workgroup' || name === 'wavefront' || name === 'warp') return 'block';
  if (name === 'device' || name === 'cluster' || name === 'gpu' || name === 'agent') return 'device';
  return 'system';
}

/** How a register value becomes what memory holds, and back, for scalar type `t`. */
function converters(t: LType, flat: FlatAddresses): { toMemory?: (x: number) => number; fromMemory?: (x: number) => number } {
  if (t.kind === 'ptr') return { toMemory: (x) => pointerFlat(x, flat), fromMemory: (x) => flat.pointerOf(x) };
  if (t.kind === 'float' && t.name === 'half') return { toMemory: toHalfBits, fromMemory: fromHalfBits };
  if (t.kind === 'float' && t.name === 'bfloat') return { toMemory: toBfloatBits, fromMemory: fromBfloatBits };
  if (t.kind === 'int' && t.bits === 1) return { fromMemory: (x) => x & 1 };
  return {};
}

function kindOf(L: Lowering, t: LType): ScalarKind {
  const kind = scalarKindOf(t);
  if (!kind) L.fail(`not supported: memory access of type ${typeName(t)}`);
  return kind;
}

/**
 * One scalar load into register `dst` from the address in register `ptr` plus `offset`.
 * `local`: the pointer is known to point into the thread's local memory.
 */
export function emitLoad(L: Lowering, dst: number, ptr: number, offset: number, t: LType, strong: boolean, ordered: Ordered | undefined, local: boolean): void {
  const kind = kindOf(L, t);
  const { fromMemory } = converters(t, L.flat);
  const range = L.range;
  const ro = dst * WARP;
  const po = ptr * WARP;
  if (local) {
    L.emit(readingStep(fromMemory
      ? (w, l) => { w.regs[ro + l] = fromMemory(load(w.ctx, w.regs[po + l] + offset, kind, range)); }
      : (w, l) => { w.regs[ro + l] = load(w.ctx, w.regs[po + l] + offset, kind, range); }, [po]));
    return;
  }
  if (L.events) {
    const event = accessEvent(false, scalarSize(kind), kind, strong, undefined, 'device', range, ordered);
    const step = (w: Lanes, l: number): void => {
      const address = w.regs[po + l] + offset;
      const v = modelLoad(w, l, address, kind, strong, range, ordered);
      w.regs[ro + l] = fromMemory ? fromMemory(v) : v;
      const listener = w.ctx.events;
      if (listener) listener(fill(event, w, l, address, undefined));
    };
    L.emitMemory(fromMemory ? step : plainAccessStep(step, { write: false, reg: ro, ptr: po, offset, kind, event }));
    return;
  }
  L.emitMemory(fromMemory
    ? readingStep((w, l) => { w.regs[ro + l] = fromMemory(modelLoad(w, l, w.regs[po + l] + offset, kind, strong, range, ordered)); }, [po])
    : plainAccessStep((w, l) => { w.regs[ro + l] = modelLoad(w, l, w.regs[po + l] + offset, kind, strong, range, ordered); }, { write: false, reg: ro, ptr: po, offset, kind }));
}

/** One scalar store of register `src` to the address in register `ptr` plus `offset`. */
export function emitStore(L: Lowering, src: number, ptr: number, offset: number, t: LType, strong: boolean, ordered: Ordered | undefined, local: boolean): void {
  const kind = kindOf(L, t);
  const { toMemory } = converters(t, L.flat);
  const range = L.range;
  const vo = src * WARP;
  const po = ptr * WARP;
  if (local) {
    L.emit(readingStep(toMemory
      ? (w, l) => store(w.ctx, w.regs[po + l] + offset, kind, toMemory(w.regs[vo + l]), range)
      : (w, l) => store(w.ctx, w.regs[po + l] + offset, kind, w.regs[vo + l], range), [po, vo]));
    return;
  }
  if (L.events) {
    const event = accessEvent(true, scalarSize(kind), kind, strong, undefined, 'device', range, ordered);
    const step = (w: Lanes, l: number): void => {
      const address = w.regs[po + l] + offset;
      modelStore(w, l, address, kind, toMemory ? toMemory(w.regs[vo + l]) : w.regs[vo + l], strong, range, ordered);
      const listener = w.ctx.events;
      if (listener) listener(fill(event, w, l, address, undefined));
    };
    L.emitMemory(toMemory ? step : plainAccessStep(step, { write: true, reg: vo, ptr: po, offset, kind, event }));
    return;
  }
  L.emitMemory(toMemory
    ? readingStep((w, l) => modelStore(w, l, w.regs[po + l] + offset, kind, toMemory(w.regs[vo + l]), strong, range, ordered), [po, vo])
    : plainAccessStep((w, l) => modelStore(w, l, w.regs[po + l] + offset, kind, w.regs[vo + l], strong, range, ordered), { write: true, reg: vo, ptr: po, offset, kind }));
}

/** The order and scope of a `load atomic`/`store atomic` (none for a plain access). */
function accessOrder(i: LInstruction): Ordered | undefined {
  const order = memoryOrder(i.ordering);
  if (!order) return undefined;
  const scope = syncScope(i.syncScope, 'device');
  return scope === 'thread' ? undefined : { order, scope };
}

export function lowerLoad(L: Lowering, i: LInstruction): void {
  const p = L.reg(i.operands[0]);
  const r = L.result(i);
  const local = L.isLocal(i.operands[0]);
  const ordered = accessOrder(i);
  const strong = !!i.volatile || ordered !== undefined;
  leavesOf(i.type).forEach((leaf, k) => emitLoad(L, r.reg + k, p, leaf.offset, leaf.type, strong, ordered, local));
}

export function lowerStore(L: Lowering, i: LInstruction): void {
  const v = L.val(i.operands[0]);
  const p = L.reg(i.operands[1]);
  const local = L.isLocal(i.operands[1]);
  const ordered = accessOrder(i);
  const strong = !!i.volatile || ordered !== undefined;
  leavesOf(i.operands[0].type).forEach((leaf, k) => emitStore(L, v.reg + k, p, leaf.offset, leaf.type, strong, ordered, local));
}

/**
 * memcpy/memmove: `size` bytes (a number, or a register holding it) from the address in `src` to
 * the one in `dst` (sims/ir/accessSteps.ts copyStep), and one switch point after the copy.
 */
export function emitCopy(L: Lowering, dst: number, src: number, size: { constant: number } | { reg: number }, dstLocal: boolean, srcLocal: boolean, volatile = false): void {
  const step = copyStep(dst, src, byteCount(size), { dstLocal, srcLocal, volatile, events: L.events, range: L.range });
  if (dstLocal && srcLocal) L.emit(step);
  else L.emitMemory(step);
}

/** memset: `size` bytes of the address in `dst` set to the low byte of register `value`. */
export function emitSet(L: Lowering, dst: number, value: number, size: { constant: number } | { reg: number }, dstLocal: boolean, volatile = false): void {
  const step = setStep(dst, value, byteCount(size), { dstLocal, volatile, events: L.events, range: L.range });
  if (dstLocal) L.emit(step);
  else L.emitMemory(step);
}

/** A size operand as each lane reads it: a constant, or a register. */
function byteCount(size: { constant: number } | { reg: number }): (w: Lanes, l: number) => number {
  if ('constant' in size) {
    const n = size.constant;
    return () => n;
  }
  const o = size.reg * WARP;
  return (w, l) => w.regs[o + l];
}

/** An atomic read-modify-write of register `ptr`'s address; the old value into `dst`. */
export interface AtomicSpec {
  /** Access-event name: Add, Sub, Exch, Min, Max, Inc, Dec, CAS, And, Or, Xor. */
  op: string;
  type: LType;
  /** Unsigned comparison or wrap (umax, umin, uinc_wrap, udec_wrap). */
  unsigned?: boolean;
  /** undefined: thread scope (a plain access). */
  scope: Scope | undefined;
  order?: MemoryOrder;
  /** A CAS that fails has this order. */
  failureOrder?: MemoryOrder;
  ptr: number;
  value: number;
  /** The new value of a CAS. */
  replacement?: number;
  dst: number;
  /** Register that receives 1 when a CAS succeeded. */
  success?: number;
}

export function emitAtomic(L: Lowering, a: AtomicSpec): void {
  const t = a.type;
  const bits = t.kind === 'int' ? t.bits : 32;
  const isFloat = t.kind === 'float';
  const isPtr = t.kind === 'ptr';
  if (t.kind === 'float' && t.name !== 'float' && t.name !== 'double') L.fail(`not supported: atomic operation on ${typeName(t)}`);
  // Unsigned operations read memory unsigned: their results are turned back to canonical form.
  const kind: ScalarKind = isFloat ? (t.name === 'double' ? 'f64' : 'f32') : isPtr ? 'u32' : bits === 64 ? (a.unsigned ? 'u64' : 'i64') : bits === 32 ? (a.unsigned ? 'u32' : 'i32') : bits === 16 ? (a.unsigned ? 'u16' : 'i16') : bits === 8 ? (a.unsigned ? 'u8' : 'i8') : L.fail(`not supported: atomic operation on ${typeName(t)}`);
  const wide = kind === 'i64' || kind === 'u64';
  const norm = isFloat ? normalizerOf(t) : isPtr ? (x: number) => x >>> 0 : a.unsigned ? unsignedView(bits) : intNormalizer(bits);
  const canonical = isFloat || isPtr ? (x: number) => x : intNormalizer(bits);
  const operand = isPtr ? (x: number) => pointerFlat(x, L.flat) : a.unsigned ? unsignedView(bits) : (x: number) => x;
  const result = isPtr ? (x: number) => L.flat.pointerOf(x) : canonical;
  const f = narrowAtomic(a.op);
  const bigOp = wide ? bigAtomic(a.op, !a.unsigned) : undefined;
  const scope = a.scope;
  const changed = scope && { op: a.op, scope, changed: true };
  const unchanged = scope && { op: a.op, scope, changed: false };
  const ordered = scope && a.order ? { order: a.order, scope } : undefined;
  const range = L.range;
  const event = L.events ? accessEvent(true, scalarSize(kind), kind, scope !== undefined, changed, 'device', range, ordered) : undefined;
  const modelScope = scope ?? 'block';
  const po = a.ptr * WARP;
  const vo = a.value * WARP;
  const co = a.replacement === undefined ? undefined : a.replacement * WARP;
  const ro = a.dst * WARP;
  const so = a.success === undefined ? undefined : a.success * WARP;
  const failureOrder = a.failureOrder;
  const rmw = (old: number, v: number, c: number): number => (bigOp ? bigOp(old, v, c) : norm(f(old, v, c)));
  const step = (w: Lanes, l: number): void => {
    const addr = w.regs[po + l];
    const v = operand(w.regs[vo + l]);
    const c = co === undefined ? 0 : operand(w.regs[co + l]);
    let old: number;
    let stored: number;
    const weak = w.ctx.weak;
    if (weak) [old, stored] = weak.atomic(w, l, addr, kind, modelScope, (o) => rmw(o, v, c), range, ordered?.order);
    else {
      old = load(w.ctx, addr, kind, range);
      stored = rmw(old, v, c);
      store(w.ctx, addr, kind, stored, range);
    }
    w.regs[ro + l] = result(old);
    const succeeded = wide ? unbox(old) === unbox(v) : old === v;
    if (so !== undefined) w.regs[so + l] = succeeded ? 1 : 0;
    if (event && w.ctx.events) {
      if (failureOrder && ordered) event.order = succeeded ? ordered.order : failureOrder;
      w.ctx.events(fill(event, w, l, addr, stored === old ? unchanged : changed));
    }
  };
  // Signed 32-bit and float atomics hold their operands and old value in registers as memory
  // has them (no conversion either way): the block compiler may inline them.
  // A CAS whose event names its failure order sets the order as it goes: the step does that.
  const inline = so === undefined && !isPtr && !a.unsigned && (kind === 'i32' || kind === 'f32') && !(event && failureOrder && ordered);
  L.emitMemory(inline ? plainAccessStep(step, { write: true, reg: ro, ptr: po, offset: 0, kind, rmw: { op: a.op, operand: vo, ...(co === undefined ? {} : { compare: co }), changed, unchanged }, ...(event ? { event } : {}) }) : step);
}

const RMW_OPS: Record<string, { op: string; unsigned?: boolean }> = {
  xchg: { op: 'Exch' }, add: { op: 'Add' }, sub: { op: 'Sub' }, and: { op: 'And' }, or: { op: 'Or' }, xor: { op: 'Xor' },
  max: { op: 'Max' }, min: { op: 'Min' }, umax: { op: 'Max', unsigned: true }, umin: { op: 'Min', unsigned: true },
  fadd: { op: 'Add' }, fsub: { op: 'Sub' }, fmax: { op: 'Max' }, fmin: { op: 'Min' },
  uinc_wrap: { op: 'Inc', unsigned: true }, udec_wrap: { op: 'Dec', unsigned: true },
};

/** The scope and order of an atomicrmw/cmpxchg: a monotonic one is a relaxed CUDA atomic (no order). */
function rmwScope(i: LInstruction): { scope: Scope | undefined; order?: MemoryOrder } {
  const s = syncScope(i.syncScope, 'device');
  if (s === 'thread') return { scope: undefined };
  const order = i.ordering === 'monotonic' || i.ordering === 'unordered' ? undefined : memoryOrder(i.ordering);
  return { scope: s, ...(order ? { order } : {}) };
}

export function lowerAtomicRmw(L: Lowering, i: LInstruction): void {
  const op = RMW_OPS[i.atomicOp ?? ''];
  if (!op) L.fail(`not supported: atomicrmw ${i.atomicOp}`);
  const { scope, order } = rmwScope(i);
  emitAtomic(L, { ...op, type: i.operands[1].type, scope, ...(order ? { order } : {}), ptr: L.reg(i.operands[0]), value: L.reg(i.operands[1]), dst: L.result(i).reg });
}

export function lowerCmpxchg(L: Lowering, i: LInstruction): void {
  const { scope, order } = rmwScope(i);
  const r = L.result(i);
  const failure = order ? memoryOrder(i.failureOrdering) : undefined;
  emitAtomic(L, {
    op: 'CAS', type: i.operands[1].type, scope, ...(order ? { order } : {}), ...(failure ? { failureOrder: failure } : {}),
    ptr: L.reg(i.operands[0]), value: L.reg(i.operands[1]), replacement: L.reg(i.operands[2]), dst: r.reg, success: r.reg + 1,
  });
}

export function lowerFence(L: Lowering, i: LInstruction): void {
  const scope = syncScope(i.syncScope, 'device');
  const order = memoryOrder(i.ordering) ?? 'seq_cst';
  // A relaxed or thread-scope fence orders nothing another thread can see.
  if (scope === 'thread' || order === 'relaxed') return;
  emitFence(L, scope, order);
}

export function emitFence(L: Lowering, scope: Scope, order: MemoryOrder): void {
  L.emitMemory(fenceStep(scope, order, L.range, L.events));
}

