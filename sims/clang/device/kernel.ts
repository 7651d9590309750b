// A kernel of a program compiled by clang, as the host launches it and device code launches it
// (dynamic parallelism): its lowered code and the parameters its arguments are read by.
import type { CompiledFunction } from '../../ir/ir';
import type { LType } from '../llvm/module';

export interface DeviceKernel {
  /** Mangled name, as __cudaRegisterFunction and the .ll name it. */
  name: string;
  /** Demangled, for messages: `countEvents(int*, int)`; or the DISubprogram name. */
  displayName: string;
  compiled: CompiledFunction;
  /**
   * One per kernel parameter, in order: its LLVM type, byte size and alignment in the argument
   * buffer; `pointer` when its registers hold a provenance pointer. byval structs are copied
   * into a fresh device allocation by the launcher, whose pointer is the arg.
   */
  params: { type: LType; size: number; align: number; pointer: boolean; byval?: LType }[];
}
