// Loads, stores and 32-bit atomics that compiled blocks do inline. A step's closure goes
// through the memory model, resolve's checks and the fault paths for every access; nearly
// every access of a run with no weak model is in bounds, aligned and of memory the thread may
// touch, and then all it does is read or write a few bytes (and give the site's event to a
// listener). The block compiler writes that case out (Memory.plainTarget says whether it
// applies) and calls the step for anything else, so faults, warnings, watched writes and the
// weak model keep their one implementation. The differential test holds the inline form to
// the closures' results, events included.
import { FIRST_READ, FIRST_WRITTEN, makePointer, type ScalarKind } from '../gpu/memory';
import { narrowAtomicText } from './atomicOps';
import type { Lanes, PlainAccess, Step } from './ir';

/** `step` marked as the access `access` (which must be what the step does). */
export function plainAccessStep(step: (w: Lanes, lane: number) => void, access: PlainAccess): Step {
  return Object.assign(step, { plain: access });
}

/** The text that reads register `offset` (register * WARP) for lane `l`. */
export type RegisterRead = (offset: number) => string;

/** Registers read from the register file. */
const fromRegisters: RegisterRead = (offset) => `R[${offset} + l]`;

/** Kinds whose value a register holds as the typed read gives it (64-bit integers travel boxed: not inline). */
const INLINE: Partial<Record<ScalarKind, { size: number; get: string; set: string; toMemory: string }>> = {
  i8: { size: 1, get: 'getInt8', set: 'setUint8', toMemory: '& 0xff' },
  u8: { size: 1, get: 'getUint8', set: 'setUint8', toMemory: '& 0xff' },
  i16: { size: 2, get: 'getInt16', set: 'setUint16', toMemory: '& 0xffff' },
  u16: { size: 2, get: 'getUint16', set: 'setUint16', toMemory: '& 0xffff' },
  i32: { size: 4, get: 'getInt32', set: 'setUint32', toMemory: '>>> 0' },
  u32: { size: 4, get: 'getUint32', set: 'setUint32', toMemory: '>>> 0' },
  f32: { size: 4, get: 'getFloat32', set: 'setFloat32', toMemory: '' },
  f64: { size: 8, get: 'getFloat64', set: 'setFloat64', toMemory: '' },
};

/** The first bytes of a scalar as the store compares them before and after (Memory.version counts changes). */
const LOW: Record<number, string> = { 1: 'getUint8(o)', 2: 'getUint16(o, true)', 4: 'getUint32(o, true)', 8: 'getUint32(o, true)' };

/**
 * The loop over the group's lanes for the access step `k` of `stepArray`, or undefined when its
 * kind is not inlined. Constants the text needs (an event object) go in through `lit`; the
 * block's scratch variables are PLAIN_ACCESS_SCOPE's.
 */
export function plainAccessText(access: PlainAccess, k: number, stepArray: string, lit: (value: unknown) => string, read: RegisterRead = fromRegisters): string | undefined {
  const kind = INLINE[access.kind];
  if (!kind) return undefined;
  if (access.rmw) return rmwText(access, access.rmw, k, stepArray, lit, read);
  const { size } = kind;
  const head = headText(access, size, `${access.write}`, k, stepArray, read);
  const first = firstTouch(size, access.write ? FIRST_WRITTEN : FIRST_READ);
  const unwritten = `u = a.unwritten;
    if (u !== undefined) for (x2 = o; x2 < o + ${size}; x2++) u[x2] = 0;`;
  const body = !access.write
    ? `a.read = true;
    ${first}
    R[${access.reg} + l] = a.view.${kind.get}(o${size > 1 ? ', true' : ''});`
    : kind.toMemory
      ? // An integer's bits are what is stored: the change is seen without reading it back.
        `${first}
    x = a.view.${LOW[size]};
    z = ${read(access.reg)} ${kind.toMemory};
    a.view.${kind.set}(o, z${size > 1 ? ', true' : ''});
    ${unwritten}
    if (z !== x) M.version++;`
      : `${first}
    x = a.view.${LOW[size]};
    a.view.${kind.set}(o, ${read(access.reg)}${size > 1 ? ', true' : ''});
    ${unwritten}
    if (a.view.${LOW[size]} !== x${size === 8 ? ' || a.view.getUint32(o + 4, true) !== h' : ''}) M.version++;`;
  const high = access.write && size === 8 ? 'h = a.view.getUint32(o + 4, true);\n    ' : '';
  return `${head}
    ${high}${body}${heard(access, lit)}
  }`;
}

/** The launch's first touch of each byte (`how`), while a launch whose result may be reused runs (Allocation.firstAccess). */
function firstTouch(size: number, how: number): string {
  return `u = a.firstAccess;
    if (u !== undefined && a.firstUntouched !== 0) for (x2 = o; x2 < o + ${size}; x2++) if (u[x2] === 0) { u[x2] = ${how}; a.firstUntouched--; }`;
}

/** The address, the allocation when the inline form applies (else the step, for the lane), and the offset in it. */
function headText(access: PlainAccess, size: number, target: string, k: number, stepArray: string, read: RegisterRead): string {
  // A pointer is its allocation's number times a stride, plus a bias, plus the offset (sims/gpu/memory.ts).
  const base = makePointer(0, 0);
  const stride = makePointer(1, 0) - base;
  // The lanes of a group mostly reach one allocation: the one the last lane's access was
  // allowed into (no unwritten bytes to check) answers for the next by its bounds alone.
  return `p = ${read(access.ptr)} + ${access.offset < 0 ? `(${access.offset})` : access.offset};
  o = p - cb;
  if (c !== undefined && o >= 0 && o + ${size} <= c.size && (o & ${size - 1}) === 0) a = c;
  else {
    a = weak === undefined ? M.plainTarget(p, ${size}, acc, ${target}) : undefined;
    if (a !== undefined) {
      o = p - a.id * ${stride} - ${base};
      if (a.unwritten === undefined) {
        c = a;
        cb = a.id * ${stride} + ${base};
      }
    }
  }
  if (a === undefined) ${stepArray}[${k}](w, l);
  else {`;
}

/**
 * After the access, its event to the listener, when the site reports one: the site's one event
 * object refilled (accessSteps' fill), `atomic` the read-modify-write's kind of change.
 */
function heard(access: PlainAccess, lit: (value: unknown) => string, atomic?: string): string {
  if (!access.event) return '';
  return `
    if (L !== undefined) {
      e = ${lit(access.event)};
      e.address = p;
      e.block = w.ctx.blockLinear;
      e.warp = w.warp;
      e.lane = l;${atomic ? `\n      ch = ${atomic};\n      if (ch) e.atomic = ch;` : ''}
      L(e);
    }`;
}

/**
 * An atomic read-modify-write of a 32-bit kind: the load's marks, the old value into `reg`, the
 * new one stored (no byte can be unwritten: plainTarget checked them for the read).
 */
function rmwText(access: PlainAccess, rmw: NonNullable<PlainAccess['rmw']>, k: number, stepArray: string, lit: (value: unknown) => string, read: RegisterRead): string | undefined {
  if (access.kind !== 'i32' && access.kind !== 'u32' && access.kind !== 'f32') return undefined;
  const next = narrowAtomicText(rmw.op, access.kind);
  if (!next || (rmw.op === 'CAS' && rmw.compare === undefined)) return undefined;
  const value = next('y', read(rmw.operand), rmw.compare === undefined ? '0' : read(rmw.compare));
  return `${headText(access, 4, 'true, true', k, stepArray, read)}
    a.read = true;
    ${firstTouch(4, FIRST_READ)}
    ${
      access.kind === 'f32'
        ? `x = a.view.getUint32(o, true);
    y = a.view.getFloat32(o, true);
    z = ${value};
    a.view.setFloat32(o, z, true);
    if (a.view.getUint32(o, true) !== x) M.version++;`
        : // An integer's bits are its value (>>> 0): one read, and the change seen without reading back.
          `x = a.view.getUint32(o, true);
    y = ${access.kind === 'i32' ? 'x | 0' : 'x'};
    z = ${value};
    a.view.setUint32(o, z >>> 0, true);
    if (z >>> 0 !== x) M.version++;`
    }
    R[${access.reg} + l] = y;${heard(access, lit, `z === y ? ${lit(rmw.unchanged)} : ${lit(rmw.changed)}`)}
  }`;
}

/** The scratch declarations plainAccessText's loops expect, for a function whose warp is `w`. */
export const PLAIN_ACCESS_SCOPE = 'const M = w.ctx.memory, acc = w.ctx.accessor, weak = w.ctx.weak, L = w.ctx.events;\nlet p = 0, a, o = 0, x = 0, x2 = 0, h = 0, y = 0, z = 0, u, e, ch, c, cb = 0;';
