// LLVM and NVVM intrinsics: special registers (threadIdx, blockDim, clocks), barriers, fences,
// scoped atomics, warp operations (./warp), memcpy/memset, bit manipulation and math. Debug,
// lifetime and aliasing markers run nothing.
import { DeviceFault } from '../../gpu/access';
import { pointerAllocation, pointerOffset } from '../../gpu/memory';
import { readingStep, WARP, type Scope } from '../../ir/ir';
import { box, isBoxed, unbox } from '../../values/wide';
import type { LInstruction, LType } from '../llvm/module';
import { LLVM_MATH, nvvmConversion } from './libdevice';
import type { Lowering, Val } from './lowering';
import { emitAtomic, emitCopy, emitFence, emitLoad, emitSet } from './memory';
import { intNormalizer, normalizerOf, unsignedView } from './numbers';
import { lowerWarpIntrinsic } from './warp';

const IGNORED = /^llvm\.(lifetime\.|dbg\.|assume$|experimental\.noalias\.scope\.decl$|var\.annotation|invariant\.|sideeffect$|donothing$|stacksave|stackrestore|codeview|pseudoprobe|nvvm\.fence\.proxy|nvvm\.prefetch|prefetch|nvvm\.nanosleep)/;

const DIMS = ['x', 'y', 'z'];

/** Lowers a call of an `llvm.*` intrinsic; false when the simulator does not know it. */
export function lowerIntrinsic(L: Lowering, i: LInstruction, name: string): boolean {
  if (IGNORED.test(name)) return true;
  if (name.startsWith('llvm.nvvm.read.ptx.sreg.')) return emitSpecialRegister(L, L.result(i).reg, name.slice('llvm.nvvm.read.ptx.sreg.'.length));
  if (name.startsWith('llvm.nvvm.barrier') || name.startsWith('llvm.nvvm.bar.sync')) return barrier(L, i, name);
  if (lowerWarpIntrinsic(L, i, name)) return true;
  const ops = i.operands;
  switch (name) {
    case 'llvm.nvvm.membar.cta':
      emitFence(L, 'block', 'seq_cst');
      return true;
    case 'llvm.nvvm.membar.gl':
    case 'llvm.nvvm.fence.sc.cluster':
      emitFence(L, 'device', 'seq_cst');
      return true;
    case 'llvm.nvvm.membar.sys':
      emitFence(L, 'system', 'seq_cst');
      return true;
    case 'llvm.trap':
    case 'llvm.debugtrap':
    case 'llvm.ubsantrap': {
      const range = L.range;
      L.emit(() => {
        throw new DeviceFault({ kind: 'assertion-failed', message: 'the thread executed a trap instruction' }, range);
      });
      return true;
    }
    case 'llvm.nvvm.texsurf.handle.internal.p1':
    case 'llvm.nvvm.texsurf.handle.p1':
      return L.fail('not supported: textures');
    case 'llvm.expect':
    case 'llvm.expect.with.probability':
      L.copy(L.result(i), L.val(ops[0]));
      return true;
    case 'llvm.is.constant':
      L.copy(L.result(i), { reg: L.constReg(0), n: 1 });
      return true;
  }
  const base = name.replace(/^llvm\./, '').replace(/(\.(p\d+|i\d+|f\d+|v\d+[if]\d+|f16|bf16))+$/, '');
  if (base === 'memcpy' || base === 'memmove' || base === 'memcpy.inline') {
    emitCopy(L, L.reg(ops[0]), L.reg(ops[1]), sizeOperand(L, ops[2]), L.isLocal(ops[0]), L.isLocal(ops[1]), isTrue(ops[3]));
    return true;
  }
  if (base === 'memset' || base === 'memset.inline') {
    emitSet(L, L.reg(ops[0]), L.reg(ops[1]), sizeOperand(L, ops[2]), L.isLocal(ops[0]), isTrue(ops[3]));
    return true;
  }
  if (base.startsWith('nvvm.atomic.')) return nvvmAtomic(L, i, name);
  if (/^nvvm\.ld[gu]\.global\.[ifp]$/.test(base)) {
    // __ldg: a load through the read-only path, an ordinary load to the memory model.
    const r = L.result(i);
    emitLoad(L, r.reg, L.reg(ops[0]), 0, i.type, false, undefined, false);
    return true;
  }
  if (base.endsWith('.with.overflow')) return withOverflow(L, i, base);
  if (base === 'ptr.annotation') {
    L.copy(L.result(i), L.val(ops[0]));
    return true;
  }
  if (base === 'ptrmask') {
    // Masks the low bits of an address; allocations are 256-byte aligned in the flat space,
    // so the low bits of the offset are those of the address.
    const p = L.reg(ops[0]) * WARP;
    const m = L.reg(ops[1]) * WARP;
    const ro = L.result(i).reg * WARP;
    L.emit((w, l) => {
      const ptr = w.regs[p + l];
      const off = pointerOffset(ptr);
      w.regs[ro + l] = ptr + (((off & w.regs[m + l]) >>> 0) - (off >>> 0));
    });
    return true;
  }
  const space = /^nvvm\.isspacep\.(global|shared|const|local)$/.exec(base);
  if (space) {
    // Which memory a generic pointer points into: its allocation's space.
    const spaces = space[1] === 'global' ? ['global', 'managed'] : space[1] === 'const' ? ['constant'] : [space[1]];
    const p = L.reg(ops[0]) * WARP;
    const ro = L.result(i).reg * WARP;
    L.emit((w, l) => {
      const a = w.ctx.memory.allocation(pointerAllocation(w.regs[p + l]));
      w.regs[ro + l] = a && spaces.includes(a.space) ? 1 : 0;
    });
    return true;
  }
  const bits = bitOperation(base, i.type);
  if (bits) {
    elementwise(L, i, ops.length, bits, (x) => x);
    return true;
  }
  const f = LLVM_MATH[base] ?? nvvmConversion(base);
  if (f) {
    const rt = i.type.kind === 'vector' ? i.type.of : i.type;
    const n = ops.filter((o) => o.type.kind !== 'metadata').length;
    elementwise(L, i, n, f, normalizerOf(rt));
    return true;
  }
  return false;
}

function isTrue(v: LInstruction['operands'][number] | undefined): boolean {
  return v?.kind === 'int' && v.value !== 0n;
}

function sizeOperand(L: Lowering, v: LInstruction['operands'][number]): { constant: number } | { reg: number } {
  if (v.kind === 'int') return { constant: Number(v.value) };
  const bits = v.type.kind === 'int' ? v.type.bits : 32;
  // The length is unsigned: take its unsigned view once, into a register of its own.
  const u = unsignedView(bits);
  const src = L.reg(v) * WARP;
  const dst = L.regs(1);
  const o = dst * WARP;
  L.emit((w, l) => {
    const x = u(w.regs[src + l]);
    w.regs[o + l] = isBoxed(x) ? Number(unbox(x)) : x;
  });
  return { reg: dst };
}

/** `result = f(operands…)` elementwise (vectors: per element), rounded to the result type. */
function elementwise(L: Lowering, i: LInstruction, argc: number, f: (...xs: number[]) => number, norm: (x: number) => number): void {
  const args: Val[] = i.operands.slice(0, argc).map((o) => L.val(o));
  const r = L.result(i);
  for (let k = 0; k < r.n; k++) {
    const ro = (r.reg + k) * WARP;
    const os = args.map((a) => (a.n > 1 ? a.reg + k : a.reg) * WARP);
    if (os.length === 1) {
      const a = os[0];
      L.emit((w, l) => {
        w.regs[ro + l] = norm(f(w.regs[a + l]));
      });
    } else if (os.length === 2) {
      const [a, b] = os;
      L.emit((w, l) => {
        w.regs[ro + l] = norm(f(w.regs[a + l], w.regs[b + l]));
      });
    } else {
      const xs = new Array<number>(os.length);
      L.emit((w, l) => {
        for (let j = 0; j < os.length; j++) xs[j] = w.regs[os[j] + l];
        w.regs[ro + l] = norm(f(...xs));
      });
    }
  }
}

/** Integer intrinsics (min/max, abs, bit counts, byte swaps, funnel shifts, saturation) of `t`. */
function bitOperation(base: string, t: LType): ((...xs: number[]) => number) | undefined {
  const e = t.kind === 'vector' ? t.of : t;
  if (e.kind !== 'int') return undefined;
  const bits = e.bits;
  const u = unsignedView(bits);
  const norm = intNormalizer(bits);
  const B = (x: number): bigint => BigInt.asUintN(bits, unbox(x));
  const S = (x: number): bigint => BigInt.asIntN(bits, unbox(x));
  const out = (x: bigint): number => norm(box(BigInt.asIntN(bits, x)));
  const small = bits <= 32;
  switch (base) {
    case 'smax':
      return small ? (a, b) => Math.max(a, b) : (a, b) => (S(a) > S(b) ? a : b);
    case 'smin':
      return small ? (a, b) => Math.min(a, b) : (a, b) => (S(a) < S(b) ? a : b);
    case 'umax':
      return small ? (a, b) => norm(Math.max(u(a), u(b))) : (a, b) => (B(a) > B(b) ? a : b);
    case 'umin':
      return small ? (a, b) => norm(Math.min(u(a), u(b))) : (a, b) => (B(a) < B(b) ? a : b);
    case 'abs':
      return small ? (a) => norm(Math.abs(a)) : (a) => out(S(a) < 0n ? -S(a) : S(a));
    case 'ctpop':
      return (a) => {
        let v = B(a);
        let n = 0;
        while (v) {
          n += Number(v & 1n);
          v >>= 1n;
        }
        return n;
      };
    case 'ctlz':
      return (a) => (B(a) === 0n ? bits : bits - B(a).toString(2).length);
    case 'cttz':
      return (a) => {
        let v = B(a);
        if (v === 0n) return bits;
        let n = 0;
        while (!(v & 1n)) {
          v >>= 1n;
          n++;
        }
        return n;
      };
    case 'bswap':
      return (a) => {
        let v = B(a);
        let r = 0n;
        for (let k = 0; k < bits / 8; k++) {
          r = (r << 8n) | (v & 0xffn);
          v >>= 8n;
        }
        return out(r);
      };
    case 'bitreverse':
      return (a) => out(BigInt('0b' + ([...B(a).toString(2).padStart(bits, '0')].reverse().join('') || '0')));
    case 'fshl':
    case 'fshr':
      return (a, b, c) => {
        const k = B(c) % BigInt(bits);
        const wide = (B(a) << BigInt(bits)) | B(b);
        const r = base === 'fshl' ? (wide << k) >> BigInt(bits) : wide >> k;
        return out(BigInt.asUintN(bits, r));
      };
    case 'sadd.sat':
    case 'ssub.sat':
    case 'uadd.sat':
    case 'usub.sat': {
      const signed = base[0] === 's';
      const lo = signed ? -(1n << BigInt(bits - 1)) : 0n;
      const hi = signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n;
      const V = signed ? S : B;
      return (a, b) => {
        const r = base.includes('add') ? V(a) + V(b) : V(a) - V(b);
        return out(r < lo ? lo : r > hi ? hi : r);
      };
    }
  }
  return undefined;
}

/** `{sadd,uadd,ssub,usub,smul,umul}.with.overflow`: { result, overflowed }. */
function withOverflow(L: Lowering, i: LInstruction, base: string): boolean {
  const t = i.operands[0].type;
  if (t.kind !== 'int') return false;
  const bits = t.bits;
  const signed = base[0] === 's';
  const op = base.slice(1, 4);
  const V = (x: number): bigint => (signed ? BigInt.asIntN(bits, unbox(x)) : BigInt.asUintN(bits, unbox(x)));
  const norm = intNormalizer(bits);
  const a = L.reg(i.operands[0]) * WARP;
  const b = L.reg(i.operands[1]) * WARP;
  const r = L.result(i);
  const ro = r.reg * WARP;
  const oo = (r.reg + 1) * WARP;
  L.emit((w, l) => {
    const x = V(w.regs[a + l]);
    const y = V(w.regs[b + l]);
    const exact = op === 'add' ? x + y : op === 'sub' ? x - y : x * y;
    const wrapped = signed ? BigInt.asIntN(bits, exact) : BigInt.asUintN(bits, exact);
    w.regs[ro + l] = norm(box(BigInt.asIntN(bits, wrapped)));
    w.regs[oo + l] = wrapped === exact ? 0 : 1;
  });
  return true;
}

/** Reads PTX special register `reg` (`tid.x`, `laneid`, `clock64`, …) into register `dst`; false when unknown. */
export function emitSpecialRegister(L: Lowering, dst: number, reg: string): boolean {
  const ro = dst * WARP;
  const m = /^(tid|ntid|ctaid|nctaid)\.([xyz])$/.exec(reg);
  if (m) {
    const d = DIMS.indexOf(m[2]);
    switch (m[1]) {
      case 'tid':
        L.emit(readingStep((w, l) => {
          w.regs[ro + l] = w.tid[d][l];
        }, []));
        return true;
      case 'ntid':
        L.emit(readingStep((w, l) => {
          w.regs[ro + l] = w.ctx.blockDim[d];
        }, []));
        return true;
      case 'ctaid':
        L.emit(readingStep((w, l) => {
          w.regs[ro + l] = w.ctx.blockIdx[d];
        }, []));
        return true;
      default:
        L.emit(readingStep((w, l) => {
          w.regs[ro + l] = w.ctx.gridDim[d];
        }, []));
        return true;
    }
  }
  const lanemask = /^lanemask\.(eq|lt|le|gt|ge)$/.exec(reg);
  if (lanemask) {
    const which = lanemask[1];
    L.emit((w, l) => {
      const bit = 2 ** l;
      const v = which === 'eq' ? bit : which === 'lt' ? bit - 1 : which === 'le' ? 2 * bit - 1 : which === 'gt' ? 2 ** 32 - 2 * bit : 2 ** 32 - bit;
      w.regs[ro + l] = v | 0;
    });
    return true;
  }
  switch (reg) {
    case 'warpsize':
      L.emit((w, l) => {
        w.regs[ro + l] = WARP;
      });
      return true;
    case 'laneid':
      L.emit((w, l) => {
        w.regs[ro + l] = l;
      });
      return true;
    case 'warpid':
      L.emit((w, l) => {
        w.regs[ro + l] = w.warp;
      });
      return true;
    case 'nwarpid':
      L.emit((w, l) => {
        w.regs[ro + l] = 64;
      });
      return true;
    case 'smid':
      L.emit((w, l) => {
        w.regs[ro + l] = w.ctx.blockLinear % w.ctx.device.smCount;
      });
      return true;
    case 'nsmid':
      L.emit((w, l) => {
        w.regs[ro + l] = w.ctx.device.smCount;
      });
      return true;
    case 'gridid':
      L.emit((w, l) => {
        w.regs[ro + l] = 0;
      });
      return true;
    case 'clock':
    case 'clock64':
    case 'globaltimer':
    case 'globaltimer.lo': {
      const step = reg === 'globaltimer' ? 1000 : 4;
      L.emit((w, l) => {
        const ticks = w.ctx.runtime.deviceClock(step);
        w.regs[ro + l] = reg === 'clock' || reg === 'globaltimer.lo' ? ticks | 0 : ticks;
      });
      return true;
    }
  }
  return false;
}

/** __syncthreads and its _count/_and/_or forms: the block's 'barrier' terminator. */
function barrier(L: Lowering, i: LInstruction, name: string): boolean {
  const n = name.slice('llvm.nvvm.'.length);
  const ops = i.operands;
  let reduce: 'count' | 'and' | 'or' | undefined;
  let pred: number | undefined;
  if (/^barrier0\.(popc|and|or)$/.test(n)) {
    reduce = n.endsWith('popc') ? 'count' : n.endsWith('and') ? 'and' : 'or';
    pred = L.reg(ops[0]);
  } else if (/^barrier\.cta\.red\.(popc|and|or)(\.aligned)?\.all$/.test(n)) {
    reduce = n.includes('popc') ? 'count' : n.includes('.and') ? 'and' : 'or';
    pred = L.reg(ops[1]);
  } else if (n.includes('.cnt') || n.includes('count') || n.includes('arrive')) {
    L.fail(`not supported: ${name} (a barrier for part of the block)`);
  } else if (!/^(barrier0|barrier\.sync|barrier\.cta\.sync(\.aligned)?(\.all)?|barrier|bar\.sync|barrier\.n)$/.test(n)) return false;
  const dst = reduce ? L.result(i).reg : undefined;
  const next = L.newBlock();
  L.terminate({ kind: 'barrier', to: next.id, range: L.range, ...(reduce ? { reduce, pred: pred!, dst: dst! } : {}) }, next);
  return true;
}

/**
 * `llvm.nvvm.atomic.<op>.gen.<i|f>.<cta|sys>.<type>.<ptr>` (the _block and _system atomics) and
 * `llvm.nvvm.atomic.load.{inc,dec}.32` (atomicInc/atomicDec on older LLVMs).
 */
function nvvmAtomic(L: Lowering, i: LInstruction, name: string): boolean {
  const ops = i.operands;
  const m = /^llvm\.nvvm\.atomic\.(add|exch|max|min|inc|dec|and|or|xor|cas)\.gen\.(i|ui|f)\.(cta|sys)(?:\.(acquire|release|acq\.rel))?\./.exec(name);
  const old = /^llvm\.nvvm\.atomic\.load\.(inc|dec)\.32/.exec(name);
  if (!m && !old) return false;
  const op = m ? m[1] : old![1];
  const scope: Scope = m ? (m[3] === 'cta' ? 'block' : 'system') : 'device';
  const order = m?.[4] === 'acq.rel' ? 'acq_rel' : (m?.[4] as 'acquire' | 'release' | undefined);
  const names: Record<string, string> = { add: 'Add', exch: 'Exch', max: 'Max', min: 'Min', inc: 'Inc', dec: 'Dec', and: 'And', or: 'Or', xor: 'Xor', cas: 'CAS' };
  const r = L.result(i);
  // `gen.ui` names unsigned min/max; clang 22 gives the unsigned builtins (__nvvm_atom_cta_max_gen_ui)
  // the signed `gen.i` intrinsic, so they are signed here, as the IR says.
  const unsigned = op === 'inc' || op === 'dec' || m?.[2] === 'ui';
  emitAtomic(L, {
    op: names[op], type: ops[1].type, scope, ...(unsigned ? { unsigned } : {}), ...(order ? { order } : {}),
    ptr: L.reg(ops[0]), value: L.reg(ops[1]), ...(op === 'cas' ? { replacement: L.reg(ops[2]) } : {}), dst: r.reg,
  });
  return true;
}
