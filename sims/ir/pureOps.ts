// The common scalar operations as pure-step expressions, one table for both lowerings (the
// built-in front end's C operators and clang's LLVM opcodes name them differently). Each is
// exact for operands of its type held in registers: 32-bit integers as JS numbers that ToInt32
// reads exactly, floats already rounded to their precision.
import { pureStep, type Step } from './ir';

type Binary = (a: string, b: string) => string;

export const INT32: Readonly<Record<'add' | 'sub' | 'mul' | 'and' | 'or' | 'xor', Binary>> = {
  add: (a, b) => `(${a} + ${b}) | 0`,
  sub: (a, b) => `(${a} - ${b}) | 0`,
  mul: (a, b) => `Math.imul(${a}, ${b})`,
  and: (a, b) => `${a} & ${b}`,
  or: (a, b) => `${a} | ${b}`,
  xor: (a, b) => `${a} ^ ${b}`,
};

export const UINT32: Readonly<Record<'add' | 'sub' | 'mul', Binary>> = {
  add: (a, b) => `(${a} + ${b}) >>> 0`,
  sub: (a, b) => `(${a} - ${b}) >>> 0`,
  mul: (a, b) => `Math.imul(${a}, ${b}) >>> 0`,
};

export const FLOAT: Readonly<Record<'add' | 'sub' | 'mul' | 'div', Binary>> = {
  add: (a, b) => `Math.fround(${a} + ${b})`,
  sub: (a, b) => `Math.fround(${a} - ${b})`,
  mul: (a, b) => `Math.fround(${a} * ${b})`,
  div: (a, b) => `Math.fround(${a} / ${b})`,
};

export const DOUBLE: Readonly<Record<'add' | 'sub' | 'mul' | 'div', Binary>> = {
  add: (a, b) => `${a} + ${b}`,
  sub: (a, b) => `${a} - ${b}`,
  mul: (a, b) => `${a} * ${b}`,
  div: (a, b) => `${a} / ${b}`,
};

/** Comparisons giving 1 or 0; the unsigned ones read their operands as 32-bit unsigned. */
export const COMPARE: Readonly<Record<'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge' | 'ult' | 'ule' | 'ugt' | 'uge', Binary>> = {
  eq: (a, b) => `${a} === ${b} ? 1 : 0`,
  ne: (a, b) => `${a} !== ${b} ? 1 : 0`,
  lt: (a, b) => `${a} < ${b} ? 1 : 0`,
  le: (a, b) => `${a} <= ${b} ? 1 : 0`,
  gt: (a, b) => `${a} > ${b} ? 1 : 0`,
  ge: (a, b) => `${a} >= ${b} ? 1 : 0`,
  ult: (a, b) => `${a} >>> 0 < ${b} >>> 0 ? 1 : 0`,
  ule: (a, b) => `${a} >>> 0 <= ${b} >>> 0 ? 1 : 0`,
  ugt: (a, b) => `${a} >>> 0 > ${b} >>> 0 ? 1 : 0`,
  uge: (a, b) => `${a} >>> 0 >= ${b} >>> 0 ? 1 : 0`,
};

/** `op` of `table` on registers `ao` and `bo` (offsets) into `ro`, or undefined when the table has no such operation. */
export function binaryStep<K extends string>(table: Readonly<Record<K, Binary>>, op: string, ro: number, ao: number, bo: number): Step | undefined {
  const f = (table as Readonly<Record<string, Binary | undefined>>)[op];
  return f && pureStep(ro, [ao, bo], ([a, b]) => f(a, b));
}
