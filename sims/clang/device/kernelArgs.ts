// A kernel's arguments, from memory into the values its registers start with. clang's host stub
// passes cudaLaunchKernel an array of pointers, one per parameter, each to the argument's bytes
// in the host program's linear memory; a launch in device code fills a parameter buffer, each
// argument at its alignment. The kernel's parameter list (its LLVM types) says how to read them.
// Integers are kept signed (./numbers.ts), 64-bit ones beyond 2^53 boxed, pointers become
// provenance pointers through the flat address space, and a struct passed by value is copied
// into a fresh device allocation whose pointer is the argument.
import type { FlatAddresses } from '../../gpu/flat';
import { Memory, pointerAllocation } from '../../gpu/memory';
import { box } from '../../values/wide';
import type { DeviceKernel } from './kernel';
import { sizeOf } from './layout';
import { fromBfloatBits, fromHalfBits } from './numbers';
import type { LType } from '../llvm/module';

/** Why an argument cannot be passed (a type the launcher does not know how to read). */
export class ArgumentError extends Error {}

/**
 * The register value of each parameter of `kernel`, reading argument i at address
 * `addressOf(i)` of `view`; addresses below `lowest` are not the program's (the host's null page).
 */
export function kernelArguments(kernel: DeviceKernel, view: DataView, addressOf: (i: number) => number, memory: Memory, flat: FlatAddresses, lowest = 1): number[] {
  return kernel.params.map((param, i) => {
    const at = addressOf(i);
    if (param.byval) {
      const size = Math.max(1, sizeOf(param.byval));
      check(view, at, size, i, lowest);
      const p = memory.allocate('global', size, { label: `argument ${i + 1} of ${kernel.displayName}` });
      memory.allocation(pointerAllocation(p))!.bytes.set(new Uint8Array(view.buffer, view.byteOffset + at, size));
      return p;
    }
    check(view, at, Math.max(1, sizeOf(param.type)), i, lowest);
    return scalarValue(param.type, view, at, flat, i);
  });
}

function scalarValue(t: LType, view: DataView, at: number, flat: FlatAddresses, index: number): number {
  switch (t.kind) {
    case 'ptr':
      return flat.pointerOf(view.getUint32(at, true));
    case 'int':
      if (t.bits === 1) return view.getUint8(at) & 1;
      if (t.bits <= 8) return view.getInt8(at);
      if (t.bits <= 16) return view.getInt16(at, true);
      if (t.bits <= 32) return view.getInt32(at, true);
      if (t.bits <= 64) return box(view.getBigInt64(at, true));
      break;
    case 'float':
      if (t.name === 'float') return view.getFloat32(at, true);
      if (t.name === 'double') return view.getFloat64(at, true);
      if (t.name === 'half') return fromHalfBits(view.getUint16(at, true));
      if (t.name === 'bfloat') return fromBfloatBits(view.getUint16(at, true));
      break;
    default:
      break;
  }
  throw new ArgumentError(`argument ${index + 1} has a type the simulator cannot pass to a kernel (${t.kind})`);
}

function check(view: DataView, at: number, size: number, index: number, lowest: number): void {
  if (at < lowest || at + size > view.byteLength) throw new ArgumentError(`argument ${index + 1} lies outside the program's memory (address 0x${(at >>> 0).toString(16)})`);
}
