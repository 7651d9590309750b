// The 32-bit integer PTX instructions that inline asm uses for bit tricks (clang's own
// __funnelshift_l is `shf.l.wrap.b32`; libraries write prmt, bfe, mul.hi, …): each statement
// becomes a function of its operands, over canonical (signed 32-bit) register values.
import { MATH, popcount, reverseBits } from '../../ir/math';

/** A source operand: asm operand index or an immediate. */
export type PtxSource = { operand: number } | { immediate: number };

export interface PtxArithmetic {
  dst: number;
  sources: PtxSource[];
  f: (...xs: number[]) => number;
}

const u = (x: number): number => x >>> 0;

function funnel(left: boolean, clamp: boolean): (lo: number, hi: number, n: number) => number {
  return (lo, hi, n) => {
    const k = clamp ? Math.min(u(n), 32) : u(n) & 31;
    const wide = (BigInt(u(hi)) << 32n) | BigInt(u(lo));
    const r = left ? (wide << BigInt(k)) >> 32n : wide >> BigInt(k);
    return Number(BigInt.asIntN(32, r));
  };
}

function bitfieldExtract(signed: boolean): (a: number, pos: number, len: number) => number {
  return (a, pos, len) => {
    const p = pos & 0xff;
    const l = len & 0xff;
    if (l === 0) return 0;
    const v = BigInt(u(a)) >> BigInt(Math.min(p, 32));
    const field = BigInt.asUintN(Math.min(l, 32), v);
    return Number(signed ? BigInt.asIntN(Math.min(l, 32), field) : BigInt.asIntN(32, field));
  };
}

/** The function of opcode `op` (qualifiers included), or undefined when it is not one of these. */
function operation(op: string): ((...xs: number[]) => number) | undefined {
  switch (op) {
    case 'shf.l.wrap.b32': return funnel(true, false);
    case 'shf.l.clamp.b32': return funnel(true, true);
    case 'shf.r.wrap.b32': return funnel(false, false);
    case 'shf.r.clamp.b32': return funnel(false, true);
    case 'prmt.b32': return (a, b, c) => MATH.__byte_perm!(u(a), u(b), u(c)) | 0;
    case 'mov.b32': case 'mov.u32': case 'mov.s32': return (a) => a | 0;
    case 'add.u32': case 'add.s32': return (a, b) => (a + b) | 0;
    case 'sub.u32': case 'sub.s32': return (a, b) => (a - b) | 0;
    case 'mul.lo.u32': case 'mul.lo.s32': return (a, b) => Math.imul(a, b);
    case 'mul.hi.u32': return (a, b) => Number((BigInt(u(a)) * BigInt(u(b))) >> 32n) | 0;
    case 'mul.hi.s32': return (a, b) => Number((BigInt(a | 0) * BigInt(b | 0)) >> 32n) | 0;
    case 'mad.lo.u32': case 'mad.lo.s32': return (a, b, c) => (Math.imul(a, b) + c) | 0;
    case 'and.b32': return (a, b) => a & b;
    case 'or.b32': return (a, b) => a | b;
    case 'xor.b32': return (a, b) => a ^ b;
    case 'not.b32': return (a) => ~a;
    case 'neg.s32': return (a) => -a | 0;
    case 'abs.s32': return (a) => Math.abs(a | 0) | 0;
    case 'shl.b32': return (a, b) => (u(b) >= 32 ? 0 : a << u(b));
    case 'shr.u32': case 'shr.b32': return (a, b) => (u(b) >= 32 ? 0 : u(a) >>> u(b)) | 0;
    case 'shr.s32': return (a, b) => (a | 0) >> Math.min(u(b), 31);
    case 'min.u32': return (a, b) => Math.min(u(a), u(b)) | 0;
    case 'max.u32': return (a, b) => Math.max(u(a), u(b)) | 0;
    case 'min.s32': return (a, b) => Math.min(a | 0, b | 0);
    case 'max.s32': return (a, b) => Math.max(a | 0, b | 0);
    case 'popc.b32': return (a) => popcount(u(a));
    case 'clz.b32': return (a) => Math.clz32(a);
    // The most significant (non-sign) bit's position, or 0xffffffff when there is none; .shiftamt: the left shift that makes it the top bit.
    case 'bfind.u32': return (a) => (u(a) === 0 ? -1 : 31 - Math.clz32(a));
    case 'bfind.s32': return (a) => ((a | 0) === 0 || (a | 0) === -1 ? -1 : 31 - Math.clz32((a | 0) < 0 ? ~a : a));
    case 'bfind.shiftamt.u32': return (a) => (u(a) === 0 ? -1 : Math.clz32(a));
    case 'bfind.shiftamt.s32': return (a) => ((a | 0) === 0 || (a | 0) === -1 ? -1 : Math.clz32((a | 0) < 0 ? ~a : a));
    case 'brev.b32': return (a) => reverseBits(u(a)) | 0;
    case 'bfe.u32': return bitfieldExtract(false);
    case 'bfe.s32': return bitfieldExtract(true);
    case 'bfi.b32':
      return (f, b, pos, len) => {
        const p = pos & 0xff;
        const l = len & 0xff;
        if (l === 0 || p >= 32) return b | 0;
        const mask = Number(BigInt.asUintN(32, ((1n << BigInt(Math.min(l, 32 - p))) - 1n) << BigInt(p)));
        return ((u(b) & ~mask) | ((u(f) << p) & mask)) | 0;
      };
  }
  return undefined;
}

/** One statement (`shf.l.wrap.b32 %0, %1, %2, %3`) as arithmetic, or undefined. */
export function ptxArithmetic(statement: string): PtxArithmetic | undefined {
  const text = statement.replace(/\s+/g, ' ').trim();
  const space = text.indexOf(' ');
  if (space < 0) return undefined;
  const f = operation(text.slice(0, space));
  if (!f) return undefined;
  const args = text.slice(space + 1).split(',').map((a) => a.trim());
  const dst = /^%(\d+)$/.exec(args[0] ?? '');
  if (!dst) return undefined;
  const sources: PtxSource[] = [];
  for (const a of args.slice(1)) {
    const reg = /^%(\d+)$/.exec(a);
    if (reg) sources.push({ operand: Number(reg[1]) });
    else if (/^-?(0[xX][0-9a-fA-F]+|\d+)[uU]?$/.test(a)) sources.push({ immediate: Number(a.replace(/[uU]$/, '')) | 0 });
    else return undefined;
  }
  if (sources.length !== f.length) return undefined;
  return { dst: Number(dst[1]), sources, f };
}
