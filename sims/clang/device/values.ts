// The value instructions of the IR: arithmetic and comparisons (scalars and vectors, element by
// element), conversions, getelementptr, select and vector element operations. Each result goes
// to the registers the lowering assigned it; constants come from the prologue's registers.
import { pureStep, readingStep, WARP, type Step } from '../../ir/ir';
import type { LInstruction } from '../llvm/module';
import { conversion, fastBinary, fcmp, floatBinary, icmp, intBinary, pointerCompare, reinterpret, type Binary } from './arith';
import { ConstantError, gepOffsets } from './constants';
import { isAggregate, leavesOf, typeName } from './layout';
import type { Lowering, Val } from './lowering';

/**
 * Applies `f` to each scalar (vectors: each element) of operand 0 into the result. `f` is pure
 * (a function of its argument alone) unless `effects`: then the order in which lanes call it
 * matters, and the step is left to the interpreter's order.
 */
export function lowerUnary(L: Lowering, i: LInstruction, f: (x: number) => number, effects = false): void {
  const a = L.val(i.operands[0]);
  const r = L.result(i);
  for (let k = 0; k < r.n; k++) {
    const ao = (a.reg + k) * WARP;
    const ro = (r.reg + k) * WARP;
    if (!effects) {
      L.emit(pureStep(ro, [ao], ([x], lit) => `${lit(f)}(${x})`));
      continue;
    }
    L.emit((w, l) => {
      w.regs[ro + l] = f(w.regs[ao + l]);
    });
  }
}

/** Emits `result = f(a, b)` elementwise over registers. */
export function emitBinary(L: Lowering, r: Val, a: Val, b: Val, f: Binary, fast?: (ro: number, ao: number, bo: number) => Step | undefined): void {
  for (let k = 0; k < r.n; k++) {
    const ao = (a.reg + k) * WARP;
    const bo = (b.reg + k) * WARP;
    const ro = (r.reg + k) * WARP;
    const step = fast?.(ro, ao, bo);
    L.emit(
      step ??
        readingStep((w, l) => {
          const regs = w.regs;
          regs[ro + l] = f(regs[ao + l], regs[bo + l], w);
        }, [ao, bo]),
    );
  }
}

export function lowerBinary(L: Lowering, i: LInstruction): void {
  const t = i.type.kind === 'vector' ? i.type.of : i.type;
  const f = t.kind === 'float' ? floatBinary(i.opcode, t) : t.kind === 'int' ? intBinary(i.opcode, t.bits, L.range) : L.fail(`not supported: '${i.opcode}' on ${typeName(i.type)}`);
  const k = i.operands[1];
  const byConstant = t.kind === 'int' && t.bits === 32 && k.kind === 'int' ? int32ByConstant(i.opcode, BigInt.asIntN(32, k.value)) : undefined;
  emitBinary(L, L.result(i), L.val(i.operands[0]), L.val(i.operands[1]), f, (ro, ao, bo) => fastBinary(i.opcode, t, undefined, ro, ao, bo) ?? (byConstant && pureStep(ro, [ao], ([x], lit) => byConstant(x, lit))));
}

/**
 * `x op k` on i32 registers (held signed) for a constant `k` that divides by something other
 * than zero or shifts by 0 to 31, as intBinary computes it (which also reports the other cases).
 */
function int32ByConstant(op: string, k: bigint): ((x: string, lit: (v: unknown) => string) => string) | undefined {
  const s = Number(k);
  const u = s >>> 0;
  switch (op) {
    case 'shl':
      return u < 32 ? (x, lit) => `${x} << ${lit(u)}` : undefined;
    case 'lshr':
      return u < 32 ? (x, lit) => `(${x} >>> ${lit(u)}) | 0` : undefined;
    case 'ashr':
      return u < 32 ? (x, lit) => `${x} >> ${lit(u)}` : undefined;
    case 'sdiv':
      return s !== 0 ? (x, lit) => `((${x} | 0) / ${lit(s)}) | 0` : undefined;
    case 'udiv':
      return u !== 0 ? (x, lit) => `Math.floor((${x} >>> 0) / ${lit(u)}) | 0` : undefined;
    case 'srem':
      return s !== 0 ? (x, lit) => `((${x} | 0) % ${lit(s)}) | 0` : undefined;
    case 'urem':
      return u !== 0 ? (x, lit) => `((${x} >>> 0) % ${lit(u)}) | 0` : undefined;
  }
  return undefined;
}

export function lowerCompare(L: Lowering, i: LInstruction): void {
  const ot = i.operands[0].type;
  const t = ot.kind === 'vector' ? ot.of : ot;
  const pred = i.predicate ?? 'eq';
  const f = i.opcode === 'fcmp' ? fcmp(pred) : t.kind === 'ptr' ? pointerCompare(pred) : t.kind === 'int' ? icmp(pred, t.bits) : L.fail(`not supported: icmp on ${typeName(ot)}`);
  emitBinary(L, L.result(i), L.val(i.operands[0]), L.val(i.operands[1]), f, (ro, ao, bo) => (i.opcode === 'icmp' ? fastBinary('icmp', t, pred, ro, ao, bo) : undefined));
}

export function lowerCast(L: Lowering, i: LInstruction): void {
  const from = i.operands[0].type;
  const to = i.type;
  if (i.opcode === 'bitcast' && (isAggregate(from) || isAggregate(to))) {
    const a = L.val(i.operands[0]);
    const r = L.result(i);
    const f = reinterpret(leavesOf(from).map((x) => x.type), leavesOf(to).map((x) => x.type), L.flat);
    const ins = Array.from({ length: a.n }, (_, k) => (a.reg + k) * WARP);
    const outs = Array.from({ length: r.n }, (_, k) => (r.reg + k) * WARP);
    const xs = new Array<number>(a.n);
    L.emit((w, l) => {
      for (let k = 0; k < ins.length; k++) xs[k] = w.regs[ins[k] + l];
      const ys = f(xs);
      for (let k = 0; k < outs.length; k++) w.regs[outs[k] + l] = ys[k];
    });
    return;
  }
  const f = conversion(i.opcode, from.kind === 'vector' ? from.of : from, to.kind === 'vector' ? to.of : to, L.flat);
  if (i.opcode === 'addrspacecast' || (i.opcode === 'bitcast' && from.kind === 'ptr')) return L.copy(L.result(i), L.val(i.operands[0]));
  // Converting between pointers and integers names flat addresses in the order it meets them.
  lowerUnary(L, i, f, i.opcode === 'ptrtoint' || i.opcode === 'inttoptr');
}

export function lowerGep(L: Lowering, i: LInstruction): void {
  if (i.type.kind === 'vector') L.fail('not supported: getelementptr over a vector of pointers');
  let offsets;
  try {
    offsets = gepOffsets(i.elementType ?? { kind: 'int', bits: 8 }, i.operands.slice(1));
  } catch (e) {
    if (e instanceof ConstantError) L.fail(e.message);
    throw e;
  }
  const base = L.reg(i.operands[0]);
  const r = L.result(i).reg;
  const ro = r * WARP;
  const bo = base * WARP;
  const c = offsets.constant;
  const terms = offsets.terms.map((t) => ({ o: L.reg(t.index) * WARP, s: t.scale }));
  // base + constant + index * scale + …, added left to right.
  L.emit(pureStep(ro, [bo, ...terms.map((t) => t.o)], ([b, ...xs], lit) => [`${b} + ${lit(c)}`, ...xs.map((x, k) => `${x} * ${lit(terms[k].s)}`)].join(' + ')));
}

export function lowerSelect(L: Lowering, i: LInstruction): void {
  const c = L.val(i.operands[0]);
  const a = L.val(i.operands[1]);
  const b = L.val(i.operands[2]);
  const r = L.result(i);
  const vectorCond = c.n > 1;
  for (let k = 0; k < r.n; k++) {
    const co = (c.reg + (vectorCond ? k : 0)) * WARP;
    const ao = (a.reg + k) * WARP;
    const bo = (b.reg + k) * WARP;
    const ro = (r.reg + k) * WARP;
    L.emit(pureStep(ro, [co, ao, bo], ([x, y, z]) => `${x} ? ${y} : ${z}`));
  }
}

export function lowerExtractElement(L: Lowering, i: LInstruction): void {
  const v = L.val(i.operands[0]);
  const idx = i.operands[1];
  const r = L.result(i);
  if (idx.kind === 'int') {
    const k = Number(idx.value);
    if (k >= 0 && k < v.n) return L.copy(r, { reg: v.reg + k, n: 1 });
    return L.copy(r, { reg: L.constReg(0), n: 1 });
  }
  const io = L.reg(idx) * WARP;
  const ro = r.reg * WARP;
  const base = v.reg;
  const n = v.n;
  L.emit((w, l) => {
    const k = w.regs[io + l];
    w.regs[ro + l] = k >= 0 && k < n ? w.regs[(base + k) * WARP + l] : 0;
  });
}

export function lowerInsertElement(L: Lowering, i: LInstruction): void {
  const v = L.val(i.operands[0]);
  const e = L.val(i.operands[1]);
  const idx = i.operands[2];
  const r = L.result(i);
  L.copy(r, v);
  if (idx.kind === 'int') {
    const k = Number(idx.value);
    if (k >= 0 && k < r.n) L.copy({ reg: r.reg + k, n: 1 }, e);
    return;
  }
  const io = L.reg(idx) * WARP;
  const eo = e.reg * WARP;
  const base = r.reg;
  const n = r.n;
  L.emit((w, l) => {
    const k = w.regs[io + l];
    if (k >= 0 && k < n) w.regs[(base + k) * WARP + l] = w.regs[eo + l];
  });
}

export function lowerShuffleVector(L: Lowering, i: LInstruction): void {
  const a = L.val(i.operands[0]);
  const b = L.val(i.operands[1]);
  const mask = i.operands[2];
  const r = L.result(i);
  const lanes: number[] =
    mask.kind === 'aggregate' ? mask.elements.map((m) => (m.kind === 'int' ? Number(m.value) : -1))
    : mask.kind === 'zero' ? Array.from({ length: r.n }, () => 0)
    : mask.kind === 'int' ? Array.from({ length: r.n }, () => Number(mask.value))
    : Array.from({ length: r.n }, () => -1);
  lanes.forEach((m, k) => {
    const src = m < 0 ? L.constReg(0) : m < a.n ? a.reg + m : b.reg + (m - a.n);
    L.copy({ reg: r.reg + k, n: 1 }, { reg: src, n: 1 });
  });
}
