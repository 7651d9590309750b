// What the instruction lowerings (values, memory, calls, intrinsics, warp, asm) use of the
// kernel being lowered: its registers, steps, blocks and the current source range. The kernel
// lowerer (./lowerer.ts) is one; the lowerings import this contract and not the lowerer, so the
// lowerer can import them without a loop.
import type { DeviceKernel } from './kernel';
import type { Range } from '../../frontend/source';
import type { FlatAddresses } from '../../gpu/flat';
import type { Block, Step, Terminator } from '../../ir/ir';
import type { LInstruction, LValue } from '../llvm/module';
import type { ConstScalar } from './constants';

/** A value in registers: `n` consecutive registers from `reg` (one for a scalar). */
export interface Val {
  reg: number;
  n: number;
}

export interface Lowering {
  /** Memory accesses report events (a detector listens). */
  readonly events: boolean;
  readonly flat: FlatAddresses;
  /** The source range of the instruction being lowered. */
  range: Range;
  /** The register of a scalar value, and the registers of any value. */
  reg(v: LValue): number;
  val(v: LValue): Val;
  /** The registers an instruction's result goes to. */
  result(inst: LInstruction): Val;
  /** `n` fresh registers. */
  regs(n: number): number;
  constReg(c: ConstScalar | number): number;
  emit(step: Step): void;
  /** A step that touches memory: with switch points on, the block ends after it. */
  emitMemory(step: Step): void;
  newBlock(): Block;
  terminate(term: Terminator, next?: Block | null): void;
  copy(dst: Val, src: Val): void;
  /** The value points into the thread's local memory. */
  isLocal(v: LValue): boolean;
  /** Stops lowering with a located `not supported` (or similar) error. */
  fail(message: string): never;
  /** The instruction that defines an SSA name of the function being lowered. */
  definition(name: string): LInstruction | undefined;
  /** The program's kernels by mangled name, lowered on first use: ask when the step runs (a kernel may launch itself). */
  readonly kernels: (name: string) => DeviceKernel | undefined;
}
