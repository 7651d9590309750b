// Loads and stores as the simulated threads perform them: checked against the allocation the
// pointer came from (a fault stops the thread with the fault and the source range), then read
// or written little-endian. 64-bit integers travel as JS numbers.
import type { Range } from '../frontend/source';
import { box, isBoxed, unbox } from '../values/wide';
import { describe, markRead, markWritten, Memory, pointerOffset, scalarSize, type Allocation, type Fault, type ScalarKind } from './memory';

/**
 * What an access needs of the thread that makes it: the memory, the side it runs on (host code
 * may not touch device memory, nor device code host memory), and where a warning goes. The
 * simulator's run context is one.
 */
export interface AccessContext {
  memory: Memory;
  accessor: 'host' | 'device';
  runtime: { undefinedOperation(code: 'uninitialized-read', message: string, range: Range): void };
}

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

export function load(ctx: AccessContext, p: number, kind: ScalarKind, range: Range): number {
  const a = ctx.memory.resolve(p, scalarSize(kind), ctx.accessor, false);
  if (!('bytes' in a)) throw new DeviceFault(a, range);
  markRead(a, pointerOffset(p), scalarSize(kind));
  if (a.unwritten) checkWritten(ctx, a, pointerOffset(p), scalarSize(kind), range);
  return readResolved(a, pointerOffset(p), kind);
}

/** A read of bytes nothing has written (with the uninitialised-read check): a warning, and the run goes on. */
function checkWritten(ctx: AccessContext, a: Allocation, off: number, size: number, range: Range): void {
  const unwritten = a.unwritten!;
  for (let i = 0; i < size; i++) {
    if (unwritten[off + i]) {
      ctx.runtime.undefinedOperation('uninitialized-read', `read of ${describe(a)} at offset ${off}, which nothing has written (cudaMalloc does not clear memory; the run reads 0)`, range);
      return;
    }
  }
}

export function store(ctx: AccessContext, p: number, kind: ScalarKind, value: number, range: Range): void {
  const a = ctx.memory.resolve(p, scalarSize(kind), ctx.accessor, true);
  if (!('bytes' in a)) throw new DeviceFault(a, range);
  writeResolved(ctx.memory, a, pointerOffset(p), kind, value);
}

/** Reads a value at a checked place (64-bit integers come back boxed). */
export function readResolved(a: Allocation, off: number, kind: ScalarKind): number {
  const v = Memory.read(a, off, kind);
  return typeof v === 'bigint' ? box(v) : v;
}

/** Writes a value at a checked place, counting the writes that change memory. */
export function writeResolved(memory: Memory, a: Allocation, off: number, kind: ScalarKind, value: number): void {
  const size = scalarSize(kind);
  const view = a.view;
  // Count writes that change memory: threads that only spin, and change nothing, cannot
  // release each other (the progress monitor's deadlock test).
  const low = low32(view, off, size);
  const high = size === 8 ? view.getUint32(off + 4, true) : 0;
  markWritten(a, off, size);
  Memory.write(a, off, kind, (kind === 'i64' || kind === 'u64') && isBoxed(value) ? unbox(value) : value);
  const unwritten = a.unwritten;
  // A scalar's few bytes one by one: TypedArray.fill is a call out of optimised code.
  if (unwritten) for (let i = 0; i < size; i++) unwritten[off + i] = 0;
  if (low32(view, off, size) !== low || (size === 8 && view.getUint32(off + 4, true) !== high)) memory.version++;
}

/** The first (up to) four bytes of a scalar as an unsigned number. */
function low32(view: DataView, off: number, size: number): number {
  return size === 1 ? view.getUint8(off) : size === 2 ? view.getUint16(off, true) : view.getUint32(off, true);
}

/** Bytes of a NUL-terminated string in memory (for printf's %s). */
export function readCString(ctx: AccessContext, p: number, range: Range, limit = 4096): string {
  let s = '';
  for (let i = 0; i < limit; i++) {
    const c = load(ctx, p + i, 'u8', range);
    if (c === 0) break;
    s += String.fromCharCode(c);
  }
  return s;
}

export function copyBytes(ctx: AccessContext, dst: number, src: number, n: number, range: Range): void {
  for (let i = 0; i < n; i++) store(ctx, dst + i, 'u8', load(ctx, src + i, 'u8', range), range);
}
