// Lowering of one kernel from the IR into a CompiledFunction: the kernel's body with every call
// to a defined function inlined (the executor has no call stack), SSA values in registers, phis
// as copies on the edges that reach them, and memory accesses, atomics, fences, barriers and
// warp operations as the steps and terminators the executor, the detectors and the weak memory
// model already know (./values, ./memory, ./intrinsics, ./warp, ./calls, ./asm; what is known of
// a function before it is lowered: ./analysis).
//
// Block 0 is a prologue that runs once per thread: it brings the arguments to their canonical
// form and fills the registers that hold constants, the addresses of __shared__ variables (they
// depend on the block) and of the thread's local-memory variables, so no step recomputes them.
//
// Locals: an alloca whose address is only ever the pointer of a load or store of its own scalar
// type lives in a register (clang's -O0 code keeps every local in one); any other lives in the
// thread's local memory, whose accesses no detector tracks.
import type * as A from '../../frontend/ast';
import type { Range } from '../../frontend/source';
import { DeviceFault } from '../../gpu/access';
import type { FlatAddresses } from '../../gpu/flat';
import type { Memory, NamedRegion } from '../../gpu/memory';
import { WARP, LowerError, pureStep, readingStep, type Block, type CompiledFunction, type Step, type Terminator } from '../../ir/ir';
import type { DebugLocation, LFunction, LInstruction, LModule, LType, LValue } from '../llvm/module';
import { ABSOLUTE, ConstantError, constLeaves, DYNAMIC_SHARED, intConstant, SHARED, type ConstEnv, type ConstScalar } from './constants';
import { functionName, variableName } from './demangle';
import type { DeviceGlobals } from './globals';
import { alignOf, isAggregate, memberRegisters, namingType, registerCount, roundUp, sizeOf, typeName } from './layout';
import { normalizerOf } from './numbers';
import { emitCopy, lowerAtomicRmw, lowerCmpxchg, lowerFence, lowerLoad, lowerStore } from './memory';
import { lowerIntrinsic } from './intrinsics';
import { lowerExternalCall } from './calls';
import { lowerAsm } from './asm';
import { lowerBinary, lowerCast, lowerCompare, lowerExtractElement, lowerGep, lowerInsertElement, lowerSelect, lowerShuffleVector, lowerUnary } from './values';
import { analyseFunction, localPointers, writesThrough, type FunctionInfo } from './analysis';
import type { Symbols } from './symbols';
import type { Lowering, Val } from './lowering';
import type { DeviceKernel } from './kernel';


export interface LoweringOptions {
  symbols: Symbols;
  globals: DeviceGlobals;
  memory: Memory;
  flat: FlatAddresses;
  events: boolean;
  switchAtMemory: boolean;
  rangeOf: (loc: DebugLocation | undefined) => Range;
  /** Headers of the toolchain: code there reports at the user's call instead. */
  isLibraryFile: (file: string) => boolean;
  /** The functions a call through a pointer with this many arguments may reach (see DeviceProgram.indirectTargets). */
  indirectTargets: (argc: number) => LFunction[];
  /** The program's kernels by mangled name, lowered when first asked for (a device-side launch's callee). */
  kernel: (name: string) => DeviceKernel | undefined;
}

/** One inlined copy of a function: its SSA values and blocks. */
interface Instance {
  fn: LFunction;
  module: LModule;
  env: ConstEnv;
  values: Map<string, Val>;
  /** Allocas kept in a register: name → register. */
  promoted: Map<string, number>;
  /** Values known to point into the thread's local memory. */
  local: Set<string>;
  blocks: Map<string, Block>;
  phis: Map<string, LInstruction[]>;
  edges: Map<string, Block>;
  /** The user-facing location of the call this copy stands for (undefined for the kernel). */
  callLoc?: DebugLocation;
  /** Where `ret` goes and where it leaves its value (undefined for the kernel: exit). */
  ret?: { block: Block; val?: Val };
}

const MAX_INLINE_DEPTH = 48;

export class KernelLowering implements Lowering {
  readonly blocks: Block[] = [];
  cur!: Block;
  private prologue!: Block;
  private nregs = 0;
  private frameSize = 0;
  private sharedSize = 0;
  private usesDynamicShared = false;
  private readonly sharedLayout: NamedRegion[] = [];
  private readonly sharedOffsets = new Map<object, ConstScalar>();
  private readonly constRegs = new Map<string, number>();
  private readonly constAggregates = new Map<LValue, Val>();
  /** What the prologue sets, per thread: register offsets (r*32) and their values. */
  private readonly prologueValues: { o: number; v: number }[] = [];
  private readonly prologueShared: { o: number; v: number }[] = [];
  private readonly prologueDynamic: { o: number; v: number }[] = [];
  private readonly prologueFrame: { o: number; v: number }[] = [];
  private readonly prologueParams: { o: number; norm: (x: number) => number }[] = [];
  private readonly stack: Instance[] = [];
  private readonly infos = new Map<LFunction, FunctionInfo>();
  private readonly ranges = new Map<DebugLocation, Range>();
  /** The range of the instruction being lowered. */
  range!: Range;
  /** Its user-facing location. */
  loc: DebugLocation | undefined;

  constructor(readonly options: LoweringOptions) {}

  get events(): boolean {
    return this.options.events;
  }
  get flat(): FlatAddresses {
    return this.options.flat;
  }
  get memory(): Memory {
    return this.options.memory;
  }
  private get instance(): Instance {
    return this.stack[this.stack.length - 1];
  }

  // -------------------------------------------------------------------------------------------
  // Building blocks

  newBlock(): Block {
    const b: Block = { id: this.blocks.length, steps: [], ranges: [], term: { kind: 'exit' } };
    this.blocks.push(b);
    return b;
  }
  regs(n: number): number {
    const r = this.nregs;
    this.nregs += n;
    return r;
  }
  emit(step: Step): void {
    this.cur.steps.push(step);
    this.cur.ranges.push(this.range);
  }
  /** A step other threads can see (memory access, fence): a switch point when asked for. */
  emitMemory(step: Step): void {
    this.emit(step);
    if (this.options.switchAtMemory) {
      this.cur.visible = true;
      const next = this.newBlock();
      this.terminate({ kind: 'jump', to: next.id }, next);
    }
  }
  /** Ends the current block; `null`: the caller moves `cur` itself (an IR terminator). */
  terminate(term: Terminator, next?: Block | null): void {
    this.cur.term = term;
    if (next !== null) this.cur = next ?? this.newBlock();
  }
  /**
   * A call of a device function the program declares and never defines (GPUVerify's kernels
   * leave helpers abstract; nvcc would not link such a program). The run goes on as if the
   * call did nothing and returned 0, and says so once per call site, with a count.
   */
  private undefinedCall(i: LInstruction, name: string): void {
    const range = this.range;
    const ro = i.type.kind === 'void' ? -1 : this.result(i).reg * WARP;
    const message = `${functionName(name)} is declared but defined nowhere in the program: the call does nothing and returns 0 here (nvcc would not link it)`;
    this.emit((w, l) => {
      if (ro >= 0) w.regs[ro + l] = 0;
      w.ctx.runtime.undefinedOperation('undefined-function', message, range);
    });
  }

  fail(message: string): never {
    throw new LowerError(message, this.range);
  }
  frameSlot(size: number, align: number): number {
    this.frameSize = roundUp(this.frameSize, Math.max(1, align));
    const off = this.frameSize;
    this.frameSize += Math.max(size, 1);
    return off;
  }
  /**
   * The prologue's one step: per thread, arguments to canonical form, then constants, addresses
   * of shared variables and of local-memory variables into their registers.
   */
  private finishPrologue(): void {
    const params = this.prologueParams;
    const values = this.prologueValues;
    const shared = this.prologueShared;
    const dynamic = this.prologueDynamic;
    const frame = this.prologueFrame;
    this.prologue.steps.push(readingStep((w, l) => {
      const regs = w.regs;
      for (let k = 0; k < params.length; k++) regs[params[k].o + l] = params[k].norm(regs[params[k].o + l]);
      for (let k = 0; k < values.length; k++) regs[values[k].o + l] = values[k].v;
      if (shared.length) {
        const base = w.ctx.shared;
        for (let k = 0; k < shared.length; k++) regs[shared[k].o + l] = base + shared[k].v;
      }
      if (dynamic.length) {
        const base = w.ctx.shared + w.ctx.dynamicSharedOffset;
        for (let k = 0; k < dynamic.length; k++) regs[dynamic[k].o + l] = base + dynamic[k].v;
      }
      if (frame.length) {
        const base = w.frame[l];
        for (let k = 0; k < frame.length; k++) regs[frame[k].o + l] = base + frame[k].v;
      }
    }, params.map((p) => p.o)));
    this.prologue.ranges.push(this.prologueRange);
  }
  private prologueRange!: Range;

  /** A register that holds the address of `offset` in the thread's local memory. */
  frameAddress(offset: number): number {
    const r = this.regs(1);
    this.prologueFrame.push({ o: r * WARP, v: offset });
    return r;
  }

  // -------------------------------------------------------------------------------------------
  // Values

  /** The registers of an operand (constants are materialised once, in the prologue). */
  val(v: LValue): Val {
    if (v.kind === 'local') {
      const found = this.instance.values.get(v.name);
      if (!found) this.fail(`internal: %${v.name} is used before it is defined`);
      return found;
    }
    let leaves: ConstScalar[];
    try {
      leaves = constLeaves(v, this.instance.env);
    } catch (e) {
      if (e instanceof ConstantError) this.fail(e.message);
      throw e;
    }
    if (leaves.length === 1) return { reg: this.constReg(leaves[0]), n: 1 };
    const known = this.constAggregates.get(v);
    if (known) return known;
    const reg = this.regs(leaves.length);
    leaves.forEach((c, i) => this.setInPrologue(reg + i, c));
    const val = { reg, n: leaves.length };
    this.constAggregates.set(v, val);
    return val;
  }

  /** The register of a scalar operand. */
  reg(v: LValue): number {
    return this.val(v).reg;
  }

  /** A register that holds constant `c` (for `value`: a plain number). */
  constReg(c: ConstScalar | number): number {
    const k = typeof c === 'number' ? { base: ABSOLUTE, value: c } : c;
    const key = `${k.base}:${Object.is(k.value, -0) ? '-0' : k.value}`;
    let r = this.constRegs.get(key);
    if (r === undefined) {
      r = this.regs(1);
      this.setInPrologue(r, k as ConstScalar);
      this.constRegs.set(key, r);
    }
    return r;
  }

  private setInPrologue(r: number, c: ConstScalar): void {
    const o = r * WARP;
    if (c.base === SHARED) this.prologueShared.push({ o, v: c.value });
    else if (c.base === DYNAMIC_SHARED) this.prologueDynamic.push({ o, v: c.value });
    else if (c.value !== 0 || Object.is(c.value, -0)) this.prologueValues.push({ o, v: c.value });
  }

  /** The pre-assigned registers of an instruction's result. */
  result(inst: LInstruction): Val {
    const v = inst.result !== undefined ? this.instance.values.get(inst.result) : undefined;
    return v ?? { reg: this.regs(Math.max(1, registerCount(inst.type))), n: Math.max(1, registerCount(inst.type)) };
  }

  /** Does this operand certainly point into the thread's own local memory? */
  isLocal(v: LValue): boolean {
    return v.kind === 'local' && this.instance.local.has(v.name);
  }

  copy(dst: Val, src: Val): void {
    for (let i = 0; i < Math.min(dst.n, src.n); i++) {
      if (dst.reg + i === src.reg + i) continue;
      this.emit(pureStep((dst.reg + i) * WARP, [(src.reg + i) * WARP], ([x]) => x));
    }
  }

  /** The effective location of an instruction: in the user's code, never inside a header. */
  private locate(inst: LInstruction): DebugLocation | undefined {
    const lib = this.options.isLibraryFile;
    let loc = inst.loc;
    while (loc && lib(loc.file) && loc.inlinedAt) loc = loc.inlinedAt;
    const inst0 = this.instance;
    if (!loc || lib(loc.file)) {
      if (inst0.callLoc) return inst0.callLoc;
      if (loc) return loc;
      const d = inst0.fn.debug;
      return d ? { file: d.file, line: d.line, column: 0 } : undefined;
    }
    return loc;
  }

  rangeAt(loc: DebugLocation | undefined): Range {
    if (!loc) return this.options.rangeOf(undefined);
    let r = this.ranges.get(loc);
    if (!r) {
      r = this.options.rangeOf(loc);
      this.ranges.set(loc, r);
    }
    return r;
  }

  // -------------------------------------------------------------------------------------------
  // Kernels and inlining

  compileKernel(fn: LFunction, module: LModule, env: ConstEnv, displayName: string): CompiledFunction {
    this.loc = fn.debug ? { file: fn.debug.file, line: fn.debug.line, column: 0 } : undefined;
    this.range = this.rangeAt(this.loc);
    this.prologue = this.newBlock();
    this.prologueRange = this.range;
    this.cur = this.newBlock();
    this.prologue.term = { kind: 'jump', to: this.cur.id };
    const paramRegs: number[] = [];
    const values = new Map<string, Val>();
    for (const p of fn.params) {
      if (isAggregate(p.type)) this.fail(`not supported: kernel parameter %${p.name} of type ${typeName(p.type)} passed in registers`);
      const r = this.regs(1);
      paramRegs.push(r);
      values.set(p.name, { reg: r, n: 1 });
      // The launch passes host numbers (unsigned, wide); registers keep the canonical form.
      if (p.type.kind === 'int' || p.type.kind === 'float') this.prologueParams.push({ o: r * WARP, norm: normalizerOf(p.type) });
    }
    // A struct passed by value is the thread's own copy: one the kernel writes to is copied into
    // its local memory first (reads can go to the launch's copy).
    const local = new Set<string>();
    for (const p of fn.params) {
      if (!p.byval || !writesThrough(fn, p.name)) continue;
      const v = values.get(p.name)!;
      const copy = this.frameAddress(this.frameSlot(sizeOf(p.byval), alignOf(p.byval)));
      emitCopy(this, copy, v.reg, { constant: sizeOf(p.byval) }, true, true);
      values.set(p.name, { reg: copy, n: 1 });
      local.add(p.name);
    }
    this.lowerInstance(fn, module, env, values, local, undefined, undefined);
    this.finishPrologue();
    const range = this.rangeAt(fn.debug ? { file: fn.debug.file, line: fn.debug.line, column: 0 } : undefined);
    // The dynamic part of shared memory starts aligned for any type.
    const sharedSize = this.sharedSize > 0 ? roundUp(this.sharedSize, 16) : 0;
    return {
      name: displayName,
      decl: kernelDecl(displayName, range),
      blocks: this.blocks,
      numRegs: Math.max(1, this.nregs),
      paramRegs,
      paramTypes: [],
      frameSize: this.frameSize,
      sharedSize,
      sharedLayout: this.sharedLayout,
      ...(this.usesDynamicShared ? { usesDynamicShared: true } : {}),
    };
  }

  /** The offset of __shared__ variable `g` in this kernel's shared memory (laid out on first use). */
  sharedAddress(g: { name: string; valueType: LType; align?: number; linkage?: string; debug?: { name: string } }): ConstScalar {
    let c = this.sharedOffsets.get(g);
    if (c) return c;
    const name = g.debug?.name ?? variableName(g.name);
    const t = g.valueType;
    if (g.linkage === 'external' || (t.kind === 'array' && t.length === 0 && g.linkage === 'extern_weak')) {
      // extern __shared__: the dynamic part, sized by the launch.
      c = { base: DYNAMIC_SHARED, value: 0 };
      this.usesDynamicShared = true;
      const elem = namingType(t.kind === 'array' ? t.of : t);
      if (elem && !this.sharedLayout.some((r) => r.offset < 0 && r.name === name)) this.sharedLayout.push({ name, offset: -1, type: elem, unbounded: true });
    } else {
      const off = roundUp(this.sharedSize, Math.max(g.align ?? 1, alignOf(t)));
      this.sharedSize = off + sizeOf(t);
      c = { base: SHARED, value: off };
      const type = namingType(t);
      if (type) this.sharedLayout.push({ name, offset: off, type });
    }
    this.sharedOffsets.set(g, c);
    return c;
  }

  private info(fn: LFunction): FunctionInfo {
    let info = this.infos.get(fn);
    if (!info) {
      info = analyseFunction(fn);
      this.infos.set(fn, info);
    }
    return info;
  }

  /**
   * Lowers a copy of `fn` starting at the current block, with its parameters bound to `params`.
   * Returns with `cur` at the continuation (for an inlined call) or at the end (the kernel).
   */
  private lowerInstance(fn: LFunction, module: LModule, env: ConstEnv, values: Map<string, Val>, local: Set<string>, callLoc: DebugLocation | undefined, ret: Instance['ret']): void {
    const info = this.info(fn);
    const inst: Instance = { fn, module, env, values, promoted: new Map(), local, blocks: new Map(), phis: info.phis, edges: new Map(), ...(callLoc ? { callLoc } : {}), ...(ret ? { ret } : {}) };
    this.stack.push(inst);
    try {
      // Registers for every value first: phis and loops use values defined further down.
      for (const b of fn.blocks) for (const i of b.instructions) if (i.opcode === 'alloca' && i.result !== undefined) this.alloca(i, info);
      for (const b of fn.blocks) {
        for (const i of b.instructions) {
          if (i.result === undefined || i.opcode === 'alloca') continue;
          const promoted = info.aliasLoads.has(i.result) && i.operands[0].kind === 'local' ? inst.promoted.get(i.operands[0].name) : undefined;
          if (promoted !== undefined) {
            values.set(i.result, { reg: promoted, n: 1 });
            continue;
          }
          const n = registerCount(i.type);
          values.set(i.result, { reg: this.regs(Math.max(1, n)), n });
        }
      }
      localPointers(fn, info.promotable, local);
      fn.blocks.forEach((b, k) => inst.blocks.set(b.label, k === 0 ? this.cur : this.newBlock()));
      for (const b of fn.blocks) {
        this.cur = inst.blocks.get(b.label)!;
        for (const i of b.instructions) {
          this.loc = this.locate(i);
          this.range = this.rangeAt(this.loc);
          this.instruction(i, b.label);
        }
      }
    } finally {
      this.stack.pop();
    }
    if (ret) this.cur = ret.block;
  }

  private alloca(i: LInstruction, info: FunctionInfo): void {
    const inst = this.instance;
    const name = i.result!;
    if (info.promotable.has(name)) {
      inst.promoted.set(name, this.regs(1));
      return;
    }
    const t = i.elementType ?? { kind: 'int', bits: 8 };
    let count = 1;
    if (i.count) {
      if (i.count.kind !== 'int') {
        this.range = this.rangeAt(this.locate(i));
        this.fail('not supported: a local array whose size is known only at run time');
      }
      count = Number(i.count.value);
    }
    const off = this.frameSlot(sizeOf(t) * count, Math.max(i.align ?? 1, alignOf(t)));
    inst.values.set(name, { reg: this.frameAddress(off), n: 1 });
    inst.local.add(name);
  }

  /** Inlines a call of defined function `callee` (module `module`) with `args`, result into `result`. */
  inlineCall(callee: LFunction, module: LModule, args: LValue[], result: Val | undefined): void {
    if (this.stack.some((s) => s.fn === callee)) this.fail(`not supported: recursion (${displayName(callee)} calls itself)`);
    if (this.stack.length > MAX_INLINE_DEPTH) this.fail(`not supported: calls nested more than ${MAX_INLINE_DEPTH} deep`);
    const values = new Map<string, Val>();
    const local = new Set<string>();
    callee.params.forEach((p, k) => {
      const a = args[k];
      if (!a) {
        values.set(p.name, { reg: this.constReg(0), n: Math.max(1, registerCount(p.type)) });
        return;
      }
      let v = this.val(a);
      if (p.byval) {
        // The callee gets its own copy of a struct passed by value.
        const size = sizeOf(p.byval);
        const r = this.frameAddress(this.frameSlot(size, alignOf(p.byval)));
        emitCopy(this, r, v.reg, { constant: size }, true, this.isLocal(a));
        v = { reg: r, n: 1 };
        local.add(p.name);
      } else if (this.isLocal(a)) local.add(p.name);
      values.set(p.name, v);
    });
    const ret = { block: this.newBlock(), ...(result ? { val: result } : {}) };
    const env = module === this.instance.module ? this.instance.env : this.options.globals.constEnv(module, (g) => this.sharedAddress(g));
    this.lowerInstance(callee, module, env, values, local, this.loc, ret);
  }

  /** The instruction that defines local value `name` in the code being lowered. */
  get kernels(): (name: string) => DeviceKernel | undefined {
    return this.options.kernel;
  }

  definition(name: string): LInstruction | undefined {
    return this.info(this.instance.fn).defs.get(name);
  }

  // -------------------------------------------------------------------------------------------
  // Instructions

  private instruction(i: LInstruction, label: string): void {
    switch (i.opcode) {
      case 'alloca':
      case 'phi':
        return;
      case 'load': {
        const p = i.operands[0];
        const promoted = p.kind === 'local' ? this.instance.promoted.get(p.name) : undefined;
        // copy() skips a load that reads the alloca's register directly (aliasLoads).
        if (promoted !== undefined) return this.copy(this.result(i), { reg: promoted, n: 1 });
        return lowerLoad(this, i);
      }
      case 'store': {
        const p = i.operands[1];
        const promoted = p.kind === 'local' ? this.instance.promoted.get(p.name) : undefined;
        if (promoted !== undefined) return this.copy({ reg: promoted, n: 1 }, this.val(i.operands[0]));
        return lowerStore(this, i);
      }
      case 'atomicrmw':
        return lowerAtomicRmw(this, i);
      case 'cmpxchg':
        return lowerCmpxchg(this, i);
      case 'fence':
        return lowerFence(this, i);
      case 'br':
        return this.branch(i, label);
      case 'switch':
        return this.switchTerm(i, label);
      case 'ret':
        return this.ret(i);
      case 'unreachable': {
        const range = this.range;
        this.emit(() => {
          throw new DeviceFault({ kind: 'assertion-failed', message: 'the thread reached code the program marks unreachable (after a call that should not return, or __builtin_unreachable)' }, range);
        });
        this.terminate({ kind: 'exit' }, null);
        return;
      }
      case 'call':
        return this.call(i);
      case 'invoke': {
        // Device code throws nothing: an invoke is a call that always returns normally.
        this.call(i);
        const to = this.edge(label, (i.targets ?? [])[0]);
        this.terminate({ kind: 'jump', to: to.id }, null);
        return;
      }
      case 'landingpad':
        return;
      case 'resume':
        this.terminate({ kind: 'exit' }, null);
        return;
      case 'getelementptr':
        return lowerGep(this, i);
      case 'select':
        return lowerSelect(this, i);
      case 'extractvalue': {
        const agg = this.val(i.operands[0]);
        const m = memberRegisters(i.operands[0].type, i.indices ?? []);
        return this.copy(this.result(i), { reg: agg.reg + m.first, n: m.count });
      }
      case 'insertvalue': {
        const r = this.result(i);
        const m = memberRegisters(i.operands[0].type, i.indices ?? []);
        const agg = this.val(i.operands[0]);
        const el = this.val(i.operands[1]);
        this.copy(r, agg);
        this.copy({ reg: r.reg + m.first, n: m.count }, el);
        return;
      }
      case 'extractelement':
        return lowerExtractElement(this, i);
      case 'insertelement':
        return lowerInsertElement(this, i);
      case 'shufflevector':
        return lowerShuffleVector(this, i);
      case 'freeze':
        return this.copy(this.result(i), this.val(i.operands[0]));
      case 'fneg':
        return lowerUnary(this, i, (x) => -x);
      case 'icmp':
      case 'fcmp':
        return lowerCompare(this, i);
      case 'add':
      case 'sub':
      case 'mul':
      case 'udiv':
      case 'sdiv':
      case 'urem':
      case 'srem':
      case 'shl':
      case 'lshr':
      case 'ashr':
      case 'and':
      case 'or':
      case 'xor':
      case 'fadd':
      case 'fsub':
      case 'fmul':
      case 'fdiv':
      case 'frem':
        return lowerBinary(this, i);
      case 'trunc':
      case 'zext':
      case 'sext':
      case 'fptrunc':
      case 'fpext':
      case 'fptoui':
      case 'fptosi':
      case 'uitofp':
      case 'sitofp':
      case 'ptrtoint':
      case 'inttoptr':
      case 'bitcast':
      case 'addrspacecast':
        return lowerCast(this, i);
      default:
        this.fail(`not supported: the '${i.opcode}' instruction`);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Control flow

  /** The block that control enters to go from LLVM block `from` to `to`: phi copies on the way. */
  private edge(from: string, to: string): Block {
    const inst = this.instance;
    const target = inst.blocks.get(to);
    if (!target) this.fail(`internal: branch to unknown block %${to}`);
    const phis = inst.phis.get(to);
    if (!phis?.length) return target;
    const key = `${from}\u0000${to}`;
    const existing = inst.edges.get(key);
    if (existing) return existing;
    const saved = this.cur;
    const block = this.newBlock();
    inst.edges.set(key, block);
    this.cur = block;
    const moves: { dst: Val; src: Val }[] = [];
    for (const phi of phis) {
      const incoming = phi.incoming?.find((x) => x.block === from);
      if (!incoming || incoming.value.kind === 'undef' || incoming.value.kind === 'poison') continue;
      moves.push({ dst: inst.values.get(phi.result!)!, src: this.val(incoming.value) });
    }
    // Phis take their values all at once: when one phi's value is another's result, go through
    // temporaries so no copy reads a register an earlier copy of the edge overwrote.
    const written = new Set<number>();
    for (const m of moves) for (let k = 0; k < m.dst.n; k++) written.add(m.dst.reg + k);
    const clash = moves.some((m) => Array.from({ length: m.src.n }, (_, k) => m.src.reg + k).some((r) => written.has(r)));
    if (clash) {
      const temps = moves.map((m) => {
        const t = { reg: this.regs(m.src.n), n: m.src.n };
        this.copy(t, m.src);
        return t;
      });
      moves.forEach((m, k) => this.copy(m.dst, temps[k]));
    } else for (const m of moves) this.copy(m.dst, m.src);
    this.terminate({ kind: 'jump', to: target.id }, null);
    this.cur = saved;
    return block;
  }

  private branch(i: LInstruction, label: string): void {
    const targets = i.targets ?? [];
    if (targets.length === 1) {
      const to = this.edge(label, targets[0]);
      this.terminate({ kind: 'jump', to: to.id }, null);
      return;
    }
    const cond = i.operands[0];
    if (cond.kind === 'int') {
      const to = this.edge(label, cond.value ? targets[0] : targets[1]);
      this.terminate({ kind: 'jump', to: to.id }, null);
      return;
    }
    const c = this.reg(cond);
    const then = this.edge(label, targets[0]);
    const otherwise = this.edge(label, targets[1]);
    this.terminate({ kind: 'branch', cond: c, then: then.id, else: otherwise.id }, null);
  }

  /** A switch is a chain of compares: one branch per case, the default last. */
  private switchTerm(i: LInstruction, label: string): void {
    const targets = i.targets ?? [];
    const v = this.reg(i.operands[0]);
    const vo = v * WARP;
    const cases = i.cases ?? [];
    const bits = i.operands[0].type.kind === 'int' ? i.operands[0].type.bits : 32;
    for (const c of cases) {
      const value = c.value.kind === 'int' ? intConstant(c.value.value, bits) : 0;
      const t = this.regs(1);
      const to = t * WARP;
      this.emit(readingStep((w, l) => {
        w.regs[to + l] = w.regs[vo + l] === value ? 1 : 0;
      }, [vo]));
      const hit = this.edge(label, c.block);
      const next = this.newBlock();
      this.terminate({ kind: 'branch', cond: t, then: hit.id, else: next.id }, next);
    }
    const def = this.edge(label, targets[0]);
    this.terminate({ kind: 'jump', to: def.id }, null);
  }

  private ret(i: LInstruction): void {
    const ret = this.instance.ret;
    if (!ret) {
      this.terminate({ kind: 'exit' }, null);
      return;
    }
    if (ret.val && i.operands[0]) this.copy(ret.val, this.val(i.operands[0]));
    this.terminate({ kind: 'jump', to: ret.block.id }, null);
  }

  // -------------------------------------------------------------------------------------------
  // Calls

  private call(i: LInstruction): void {
    const callee = i.callee;
    if (!callee) this.fail('internal: a call without a callee');
    if (callee.kind === 'asm') return lowerAsm(this, i, callee);
    if (callee.kind === 'global') {
      const name = callee.name;
      if (name.startsWith('llvm.')) {
        if (!lowerIntrinsic(this, i, name)) this.fail(`not supported: ${name}`);
        return;
      }
      const f = this.options.symbols.func(this.instance.module, name);
      if (f && !f.fn.declaration) {
        this.inlineCall(f.fn, f.module, i.operands, i.type.kind === 'void' ? undefined : this.result(i));
        return;
      }
      if (lowerExternalCall(this, i, name)) return;
      if (f?.fn.declaration && registerCount(i.type) <= 1) return this.undefinedCall(i, name);
      this.fail(`not supported: ${functionName(name)}`);
      return;
    }
    if (callee.kind === 'local') return this.indirectCall(i, callee);
    this.fail('not supported: this kind of call');
  }

  /** A call through a function pointer: a compare against each function whose address is taken. */
  private indirectCall(i: LInstruction, callee: LValue): void {
    // With no candidate, every call faults when it runs (as one through any pointer that is no
    // device function does): a call that never runs does not stop the program from running.
    const candidates = this.options.indirectTargets(i.operands.length);
    const p = this.reg(callee) * WARP;
    const result = i.type.kind === 'void' ? undefined : this.result(i);
    const join = this.newBlock();
    const range = this.range;
    const loc = this.loc;
    for (const f of candidates) {
      const address = this.options.globals.functionAddress(f)!;
      const t = this.regs(1);
      const to = t * WARP;
      this.emit(readingStep((w, l) => {
        w.regs[to + l] = w.regs[p + l] === address ? 1 : 0;
      }, [p]));
      const body = this.newBlock();
      const next = this.newBlock();
      this.terminate({ kind: 'branch', cond: t, then: body.id, else: next.id }, body);
      const module = this.options.symbols.modules.find((m) => m.functions.includes(f))!;
      this.inlineCall(f, module, i.operands, result);
      this.range = range;
      this.loc = loc;
      this.terminate({ kind: 'jump', to: join.id }, next);
    }
    this.emit(() => {
      throw new DeviceFault({ kind: 'invalid-pointer', message: 'call through a pointer that does not point to a device function' }, range);
    });
    this.terminate({ kind: 'exit' }, join);
  }
}

/** The name a kernel or function is reported by. */
export function displayName(fn: LFunction): string {
  return fn.debug?.name ?? functionName(fn.name);
}

/** A declaration for CompiledFunction.decl: kernels read from the IR have no syntax tree. */
function kernelDecl(name: string, range: Range): A.FunctionDecl {
  return {
    kind: 'FunctionDecl',
    range,
    name,
    nameRange: range,
    returnType: { kind: 'NamedType', range, name: 'void', qualifiers: [] },
    params: [],
    variadic: false,
    specifiers: [],
    space: 'global',
    externC: false,
  };
}
