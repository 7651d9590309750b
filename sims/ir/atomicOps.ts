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

/**
 * The new value of a 32-bit atomic `op` as JS text over the old value `o`, the operand `v` and a
 * CAS's replacement `c`, already in the range of `kind` (what narrowAtomic and the kind's
 * normaliser give together), for the block compiler; undefined for what it leaves to the step.
 */
export function narrowAtomicText(op: string, kind: 'i32' | 'u32' | 'f32'): ((o: string, v: string, c: string) => string) | undefined {
  const norm = (x: string): string => (kind === 'f32' ? `Math.fround(${x})` : kind === 'i32' ? `(${x}) | 0` : `(${x}) >>> 0`);
  const bits = (f: (o: string, v: string) => string) => (kind === 'f32' ? undefined : (o: string, v: string) => norm(f(o, v)));
  switch (op) {
    case 'Add':
      return (o, v) => norm(`${o} + ${v}`);
    case 'Sub':
      return (o, v) => norm(`${o} - ${v}`);
    case 'Exch':
      return (_o, v) => norm(v);
    case 'Min':
      return (o, v) => norm(`Math.min(${o}, ${v})`);
    case 'Max':
      return (o, v) => norm(`Math.max(${o}, ${v})`);
    case 'Inc':
      return (o, v) => norm(`${o} >= ${v} ? 0 : ${o} + 1`);
    case 'Dec':
      return (o, v) => norm(`${o} === 0 || ${o} > ${v} ? ${v} : ${o} - 1`);
    case 'CAS':
      return (o, v, c) => norm(`${o} === ${v} ? ${c} : ${o}`);
    case 'And':
      return bits((o, v) => `${o} & ${v}`);
    case 'Or':
      return bits((o, v) => `${o} | ${v}`);
    case 'Xor':
      return bits((o, v) => `${o} ^ ${v}`);
  }
  return undefined;
}
