// Loads and stores as the simulated threads perform them: checked against the allocation the
// pointer came from (a fault stops the thread with the fault and the source range), then read
// or written little-endian. 64-bit integers travel as JS numbers.
import type { Range } from '../frontend/source';
import type { RunContext } from '../ir/ir';
import { pointerOffset, SCALAR_SIZE, type Fault, type ScalarKind } from './memory';

export class DeviceFault extends Error {
  /** The lane that faulted, filled in by the executor. */
  lane?: number;

  constructor(
    readonly fault: Fault,
    readonly range: Range,
  ) {
    super(fault.message);
  }
}

export function load(ctx: RunContext, p: number, kind: ScalarKind, range: Range): number {
  const a = ctx.memory.resolve(p, SCALAR_SIZE[kind], ctx.accessor, false);
  if (!('bytes' in a)) throw new DeviceFault(a, range);
  const v = a.view;
  const off = pointerOffset(p);
  switch (kind) {
    case 'i8':
      return v.getInt8(off);
    case 'u8':
      return v.getUint8(off);
    case 'i16':
      return v.getInt16(off, true);
    case 'u16':
      return v.getUint16(off, true);
    case 'i32':
      return v.getInt32(off, true);
    case 'u32':
      return v.getUint32(off, true);
    case 'i64':
      return Number(v.getBigInt64(off, true));
    case 'u64':
      return Number(v.getBigUint64(off, true));
    case 'f32':
      return v.getFloat32(off, true);
    case 'f64':
      return v.getFloat64(off, true);
  }
}

export function store(ctx: RunContext, p: number, kind: ScalarKind, value: number, range: Range): void {
  const a = ctx.memory.resolve(p, SCALAR_SIZE[kind], ctx.accessor, true);
  if (!('bytes' in a)) throw new DeviceFault(a, range);
  const v = a.view;
  const off = pointerOffset(p);
  switch (kind) {
    case 'i8':
    case 'u8':
      v.setUint8(off, value & 0xff);
      return;
    case 'i16':
    case 'u16':
      v.setUint16(off, value & 0xffff, true);
      return;
    case 'i32':
    case 'u32':
      v.setUint32(off, value >>> 0, true);
      return;
    case 'i64':
    case 'u64':
      v.setBigUint64(off, BigInt.asUintN(64, BigInt(Math.trunc(value))), true);
      return;
    case 'f32':
      v.setFloat32(off, value, true);
      return;
    case 'f64':
      v.setFloat64(off, value, true);
      return;
  }
}

/** Bytes of a NUL-terminated string in memory (for printf's %s). */
export function readCString(ctx: RunContext, p: number, range: Range, limit = 4096): string {
  let s = '';
  for (let i = 0; i < limit; i++) {
    const c = load(ctx, p + i, 'u8', range);
    if (c === 0) break;
    s += String.fromCharCode(c);
  }
  return s;
}

export function copyBytes(ctx: RunContext, dst: number, src: number, n: number, range: Range): void {
  for (let i = 0; i < n; i++) store(ctx, dst + i, 'u8', load(ctx, src + i, 'u8', range), range);
}
