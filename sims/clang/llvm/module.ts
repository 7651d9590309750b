// The LLVM IR module as clang prints it (`-emit-llvm -S`), read into plain data: the contract
// between the text reader (./parse.ts) and everything that executes or inspects the IR
// (device lowering, the host launcher). Only what those consumers need is kept; attributes,
// comdats and most metadata are dropped by the reader.

export type FloatKind = 'half' | 'bfloat' | 'float' | 'double' | 'x86_fp80' | 'fp128' | 'ppc_fp128';

export type LType =
  | { kind: 'void' }
  | { kind: 'int'; bits: number }
  | { kind: 'float'; name: FloatKind }
  | { kind: 'ptr'; addrspace: number }
  | { kind: 'array'; length: number; of: LType }
  | { kind: 'vector'; length: number; of: LType }
  /**
   * A literal struct, or a named one (`%struct.S`). Named structs are one shared object per
   * name, so a recursive type refers to itself; `opaque` when the module never defines it.
   */
  | { kind: 'struct'; name?: string; fields: LType[]; packed: boolean; opaque?: boolean }
  | { kind: 'function'; ret: LType; params: LType[]; varargs: boolean }
  | { kind: 'label' }
  | { kind: 'metadata' }
  | { kind: 'token' };

/** An operand: a register, a global, or a constant. Every value knows its type. */
export type LValue =
  | { kind: 'local'; name: string; type: LType }
  | { kind: 'global'; name: string; type: LType }
  | { kind: 'int'; value: bigint; type: LType }
  | { kind: 'float'; value: number; type: LType }
  | { kind: 'null' | 'undef' | 'poison' | 'zero'; type: LType }
  /** A struct, array or vector constant: `{ i32 1, ptr @x }`, `[2 x i32] [...]`, `<4 x float> <...>`. */
  | { kind: 'aggregate'; elements: LValue[]; type: LType }
  /** `c"text\00"`: an i8 array constant. */
  | { kind: 'bytes'; bytes: Uint8Array; type: LType }
  /** A constant expression (`getelementptr inbounds (...)`, `addrspacecast (...)`, `ptrtoint (...)`). */
  | { kind: 'expr'; inst: LInstruction; type: LType }
  /** The callee of `call void asm sideeffect "...", "constraints"(...)`. */
  | { kind: 'asm'; text: string; constraints: string; sideEffect: boolean; type: LType }
  /** A metadata operand (`metadata !12`, `metadata i32 %x`): arguments of debug intrinsics. */
  | { kind: 'metadata'; type: LType }
  /** A basic block used as a value (`label %bb`, `blockaddress`). */
  | { kind: 'label'; name: string; type: LType };

/** Where an instruction came from: `!DILocation`, resolved to a file through its scope chain. */
export interface DebugLocation {
  /** 1-based, as in the metadata. */
  line: number;
  /** 1-based; 0 when clang records none. */
  column: number;
  /** Path as the metadata names it: the DIFile's directory joined with its filename. */
  file: string;
  /** The call site this location was inlined into (always absent at -O0). */
  inlinedAt?: DebugLocation;
}

export interface LInstruction {
  /** `load`, `store`, `call`, `getelementptr`, `icmp`, `add`, `br`, `phi`, `atomicrmw`, … */
  opcode: string;
  /** The register it defines, without `%`; absent for void instructions. */
  result?: string;
  /** The type of the result (`void` when none). */
  type: LType;
  /**
   * Operands in textual order, with these conventions:
   * - load: [pointer]; store: [value, pointer]
   * - getelementptr: [base, ...indices]
   * - call: [...arguments] (the callee is `callee`)
   * - atomicrmw: [pointer, value]; cmpxchg: [pointer, expected, replacement]
   * - br: [condition] when conditional; switch: [condition]; ret: [value] or []
   * - select: [cond, a, b]; binary ops and compares: [a, b]; casts: [value]
   * - extractvalue: [aggregate]; insertvalue: [aggregate, element]
   * - extractelement: [vector, index]; insertelement: [vector, element, index]
   * - shufflevector: [a, b, mask]
   * - invoke/callbr: [...arguments], like call; fneg, freeze, resume, va_arg: [value]
   * - indirectbr: [address]; landingpad: its clause values; cleanuppad/catchpad: [parent, ...args];
   *   catchret/cleanupret/catchswitch: [pad or parent]; phi, fence, unreachable: []
   */
  operands: LValue[];
  /** icmp/fcmp predicate (`slt`, `oeq`, …). */
  predicate?: string;
  /** nsw, nuw, exact, inbounds, fast-math flags, `tail`, … as written. */
  flags?: string[];
  volatile?: boolean;
  /** Atomic ordering: `monotonic`, `acquire`, `release`, `acq_rel`, `seq_cst`, `unordered`. */
  ordering?: string;
  /** cmpxchg's failure ordering. */
  failureOrdering?: string;
  /** `syncscope("block")` etc.; absent for the default (system) scope. */
  syncScope?: string;
  /** atomicrmw's operation (`add`, `xchg`, `fadd`, `umax`, …). */
  atomicOp?: string;
  /** cmpxchg weak. */
  weak?: boolean;
  align?: number;
  /** getelementptr's source element type; alloca's allocated type; load's result type. */
  elementType?: LType;
  /** alloca's element count when not 1. */
  count?: LValue;
  /** call/invoke: the calling convention when not the default (`ptx_kernel`, `fastcc`, `cc 10`). */
  callingConv?: string;
  /** landingpad: its catch/filter clauses in order (their values are also the operands). */
  clauses?: { kind: 'catch' | 'filter'; value: LValue }[];
  /** call/invoke: the function called (usually a `global`, or `asm`). */
  callee?: LValue;
  /** call: the function type it was called with. */
  calleeType?: LType;
  /** phi: one value per predecessor block (block labels without `%`). */
  incoming?: { value: LValue; block: string }[];
  /**
   * br (unconditional: [dest]; conditional: [then, else]), switch default first, invoke
   * [normal, unwind], callbr [fallthrough, ...indirect], indirectbr its destinations,
   * catchswitch its handlers (then the unwind block when flags has `unwind-label`), catchret [dest],
   * cleanupret [unwind block] or [] for `unwind to caller`.
   */
  targets?: string[];
  /** switch cases. */
  cases?: { value: LValue; block: string }[];
  /** extractvalue/insertvalue indices. */
  indices?: number[];
  loc?: DebugLocation;
}

export interface LBasicBlock {
  /** Label without `%`; the entry block of an unnamed function body is `0` style numbering as printed. */
  label: string;
  instructions: LInstruction[];
}

export interface LParam {
  name: string;
  type: LType;
  /** Attributes that matter to callers: `byval(<ty>)`, `sret(<ty>)`, `noundef`, … as written. */
  attrs: string[];
  /** The pointee type of a `byval`/`sret` pointer parameter. */
  byval?: LType;
  sret?: LType;
}

export interface LFunction {
  name: string;
  ret: LType;
  params: LParam[];
  varargs: boolean;
  /** `ptx_kernel` for kernels on nvptx; absent for the default convention. */
  callingConv?: string;
  linkage?: string;
  /** No body (`declare`). */
  declaration: boolean;
  blocks: LBasicBlock[];
  /** From its DISubprogram, when there is debug information. */
  debug?: { name: string; linkageName?: string; file: string; line: number };
}

export interface LGlobal {
  name: string;
  /** The type of the value it holds (the global itself is a `ptr addrspace(addrspace)`). */
  valueType: LType;
  addrspace: number;
  /** `constant` rather than `global`. */
  constant: boolean;
  externallyInitialized: boolean;
  linkage?: string;
  init?: LValue;
  align?: number;
  /** From its DIGlobalVariable, when there is debug information. */
  debug?: { name: string; file: string; line: number };
}

export interface LAlias {
  name: string;
  /** The type the alias names (`alias i32, ptr @x` → i32). */
  valueType: LType;
  aliasee: LValue;
  linkage?: string;
}

export interface LModule {
  /** Named struct types by name, with `%` stripped (`struct.S`). */
  types: Map<string, LType>;
  globals: LGlobal[];
  functions: LFunction[];
  /** `@a = alias …` definitions (host code; device code has none at -O0). */
  aliases?: LAlias[];
  /** `target triple`. */
  triple?: string;
  /** `target datalayout`. */
  dataLayout?: string;
}
