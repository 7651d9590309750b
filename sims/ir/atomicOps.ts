// The read-modify-write of each atomic operation (atomicAdd, atomicCAS, …, by the names access
// events carry: Add, Sub, Exch, Min, Max, Inc, Dec, CAS, And, Or, Xor).
import { box, unbox } from '../values/wide';

/** The new value of a 32-bit or floating-point atomic `op` (unrounded: callers normalise it). */
export function narrowAtomic(op: string): (old: number, v: number, c: number) => number {
  return op === 'Add' ? (o, x) => o + x
    : op === 'Sub' ? (o, x) => o - x
    : op === 'Exch' ? (_o, x) => x
    : op === 'Min' ? (o, x) => Math.min(o, x)
    : op === 'Max' ? (o, x) => Math.max(o, x)
    : op === 'Inc' ? (o, x) => (o >= x ? 0 : o + 1)
    : op === 'Dec' ? (o, x) => (o === 0 || o > x ? x : o - 1)
    : op === 'CAS' ? (o, cmp, x) => (o === cmp ? x : o)
    : op === 'And' ? (o, x) => Number(BigInt(o) & BigInt(x))
    : op === 'Or' ? (o, x) => Number(BigInt(o) | BigInt(x))
    : (o, x) => Number(BigInt(o) ^ BigInt(x));
}

/** 64-bit atomics, exactly: operands unboxed, the result boxed. */
export function bigAtomic(op: string, signed: boolean): (old: number, v: number, c: number) => number {
  const wrap = (x: bigint) => box(signed ? BigInt.asIntN(64, x) : BigInt.asUintN(64, x));
  return (o, x, cmp) => {
    const a = unbox(o);
    const b = unbox(x);
    switch (op) {
      case 'Add':
        return wrap(a + b);
      case 'Sub':
        return wrap(a - b);
      case 'Exch':
        return x;
      case 'Min':
        return a < b ? o : x;
      case 'Max':
        return a > b ? o : x;
      case 'CAS':
        return a === b ? cmp : o;
      case 'And':
        return wrap(a & b);
      case 'Or':
        return wrap(a | b);
      case 'Xor':
        return wrap(a ^ b);
      case 'Inc':
        return a >= b ? 0 : wrap(a + 1n);
      default:
        return a === 0n || a > b ? x : wrap(a - 1n);
    }
  };
}
