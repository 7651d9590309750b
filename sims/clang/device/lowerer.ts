// Lowering of one kernel from the IR into a CompiledFunction: the kernel's body with every call
// to a defined function inlined (the executor has no call stack), SSA values in registers, phis
// as copies on the edges that reach them, and memory accesses, atomics, fences, barriers and
// warp operations as the steps and terminators the executor, the detectors and the weak memory
// model already know (see ./memory, ./intrinsics, ./warp, ./calls).
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
import { WARP, LowerError, type Block, type CompiledFunction, type Step, type Terminator } from '../../ir/ir';
import type { DebugLocation, LFunction, LInstruction, LModule, LType, LValue } from '../llvm/module';
import { conversion, fastBinary, fcmp, floatBinary, icmp, intBinary, pointerCompare, reinterpret, type Binary } from './arith';
import { ABSOLUTE, ConstantError, constLeaves, DYNAMIC_SHARED, gepOffsets, intConstant, SHARED, type ConstEnv, type ConstScalar } from './constants';
import { functionName, variableName } from './demangle';
import type { DeviceGlobals } from './globals';
import { alignOf, isAggregate, leavesOf, memberRegisters, namingType, registerCount, roundUp, sizeOf, typeName } from './layout';
import { normalizerOf } from './numbers';
import { emitCopy, lowerAtomicRmw, lowerCmpxchg, lowerFence, lowerLoad, lowerStore } from './memory';
import { lowerIntrinsic } from './intrinsics';
import { lowerExternalCall } from './calls';
import { lowerAsm } from './asm';
import type { Symbols } from './symbols';

/** A value in registers: `n` consecutive registers from `reg` (one for a scalar). */
export interface Val {
  reg: number;
  n: number;
}

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
  /** Defined functions whose address the program takes (candidates of an indirect call). */
  addressTaken: () => Set<LFunction>;
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

interface FunctionInfo {
  promotable: Set<string>;
  phis: Map<string, LInstruction[]>;
  /** The instruction that defines each value. */
  defs: Map<string, LInstruction>;
  /** Loads of promoted allocas that can read the alloca's register directly (see aliasableLoads). */
  aliasLoads: Set<string>;
}

const MAX_INLINE_DEPTH = 48;

const IGNORED_USES = /^llvm\.(lifetime|dbg|assume|experimental\.noalias|var\.annotation|invariant)/;

export class KernelLowering {
  readonly blocks: Block[] = [];
  cur!: Block;
  private prologue!: Block;
  private nregs = 0;
  private frameSize = 0;
  private sharedSize = 0;
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
    this.prologue.steps.push((w, l) => {
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
    });
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
  markLocal(inst: LInstruction): void {
    if (inst.result !== undefined) this.instance.local.add(inst.result);
  }

  copy(dst: Val, src: Val): void {
    for (let i = 0; i < Math.min(dst.n, src.n); i++) {
      if (dst.reg + i === src.reg + i) continue;
      const d = (dst.reg + i) * WARP;
      const s = (src.reg + i) * WARP;
      this.emit((w, l) => {
        w.regs[d + l] = w.regs[s + l];
      });
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
    if (info) return info;
    const allocaType = new Map<string, LType>();
    const phis = new Map<string, LInstruction[]>();
    const defs = new Map<string, LInstruction>();
    for (const b of fn.blocks) {
      for (const i of b.instructions) {
        if (i.result !== undefined) defs.set(i.result, i);
        if (i.opcode === 'alloca' && i.result !== undefined && i.elementType && !isAggregate(i.elementType) && (i.elementType.kind === 'int' || i.elementType.kind === 'float' || i.elementType.kind === 'ptr') && !i.count) allocaType.set(i.result, i.elementType);
        if (i.opcode === 'phi') {
          const list = phis.get(b.label) ?? [];
          list.push(i);
          phis.set(b.label, list);
        }
      }
    }
    const promotable = new Set(allocaType.keys());
    const escape = (v: LValue | undefined): void => {
      if (!v) return;
      if (v.kind === 'local') promotable.delete(v.name);
      else if (v.kind === 'aggregate') v.elements.forEach(escape);
      else if (v.kind === 'expr') v.inst.operands.forEach(escape);
    };
    const sameType = (a: LType, b: LType): boolean => a.kind === b.kind && sizeOf(a) === sizeOf(b) && (a.kind !== 'float' || (b.kind === 'float' && a.name === b.name));
    for (const b of fn.blocks) {
      for (const i of b.instructions) {
        if (i.opcode === 'load' && i.operands[0]?.kind === 'local') {
          const t = allocaType.get(i.operands[0].name);
          if (t && !sameType(t, i.type)) promotable.delete(i.operands[0].name);
          continue;
        }
        if (i.opcode === 'store' && i.operands[1]?.kind === 'local') {
          escape(i.operands[0]);
          const t = allocaType.get(i.operands[1].name);
          if (t && !sameType(t, i.operands[0].type)) promotable.delete(i.operands[1].name);
          continue;
        }
        if (i.opcode === 'call' && i.callee?.kind === 'global' && IGNORED_USES.test(i.callee.name)) continue;
        i.operands.forEach(escape);
        i.incoming?.forEach((x) => escape(x.value));
        if (i.callee) escape(i.callee);
      }
    }
    info = { promotable, phis, defs, aliasLoads: aliasableLoads(fn, promotable) };
    this.infos.set(fn, info);
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
  definition(name: string): LInstruction | undefined {
    return this.info(this.instance.fn).defs.get(name);
  }

  /** The module of the code being lowered (where its names are resolved). */
  get module(): LModule {
    return this.instance.module;
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
        return this.gep(i);
      case 'select':
        return this.select(i);
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
        return this.extractElement(i);
      case 'insertelement':
        return this.insertElement(i);
      case 'shufflevector':
        return this.shuffleVector(i);
      case 'freeze':
        return this.copy(this.result(i), this.val(i.operands[0]));
      case 'fneg':
        return this.unary(i, (x) => -x);
      case 'icmp':
      case 'fcmp':
        return this.compare(i);
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
        return this.binary(i);
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
        return this.cast(i);
      default:
        this.fail(`not supported: the '${i.opcode}' instruction`);
    }
  }

  /** Applies `f` to each scalar (vectors: each element) of operand 0 into the result. */
  private unary(i: LInstruction, f: (x: number) => number): void {
    const a = this.val(i.operands[0]);
    const r = this.result(i);
    for (let k = 0; k < r.n; k++) {
      const ao = (a.reg + k) * WARP;
      const ro = (r.reg + k) * WARP;
      this.emit((w, l) => {
        w.regs[ro + l] = f(w.regs[ao + l]);
      });
    }
  }

  /** Emits `result = f(a, b)` elementwise over registers. */
  emitBinary(r: Val, a: Val, b: Val, f: Binary, fast?: (ro: number, ao: number, bo: number) => Step | undefined): void {
    for (let k = 0; k < r.n; k++) {
      const ao = (a.reg + k) * WARP;
      const bo = (b.reg + k) * WARP;
      const ro = (r.reg + k) * WARP;
      const step = fast?.(ro, ao, bo);
      this.emit(
        step ??
          ((w, l) => {
            const regs = w.regs;
            regs[ro + l] = f(regs[ao + l], regs[bo + l], w);
          }),
      );
    }
  }

  private binary(i: LInstruction): void {
    const t = i.type.kind === 'vector' ? i.type.of : i.type;
    const f = t.kind === 'float' ? floatBinary(i.opcode, t) : t.kind === 'int' ? intBinary(i.opcode, t.bits, this.range) : this.fail(`not supported: '${i.opcode}' on ${typeName(i.type)}`);
    this.emitBinary(this.result(i), this.val(i.operands[0]), this.val(i.operands[1]), f, (ro, ao, bo) => fastBinary(i.opcode, t, undefined, ro, ao, bo));
  }

  private compare(i: LInstruction): void {
    const ot = i.operands[0].type;
    const t = ot.kind === 'vector' ? ot.of : ot;
    const pred = i.predicate ?? 'eq';
    const f = i.opcode === 'fcmp' ? fcmp(pred) : t.kind === 'ptr' ? pointerCompare(pred) : t.kind === 'int' ? icmp(pred, t.bits) : this.fail(`not supported: icmp on ${typeName(ot)}`);
    this.emitBinary(this.result(i), this.val(i.operands[0]), this.val(i.operands[1]), f, (ro, ao, bo) => (i.opcode === 'icmp' ? fastBinary('icmp', t, pred, ro, ao, bo) : undefined));
  }

  private cast(i: LInstruction): void {
    const from = i.operands[0].type;
    const to = i.type;
    if ((i.opcode === 'addrspacecast' || (i.opcode === 'bitcast' && from.kind === 'ptr' && to.kind === 'ptr')) && this.isLocal(i.operands[0])) this.markLocal(i);
    if (i.opcode === 'bitcast' && (isAggregate(from) || isAggregate(to))) {
      const a = this.val(i.operands[0]);
      const r = this.result(i);
      const f = reinterpret(leavesOf(from).map((x) => x.type), leavesOf(to).map((x) => x.type), this.flat);
      const ins = Array.from({ length: a.n }, (_, k) => (a.reg + k) * WARP);
      const outs = Array.from({ length: r.n }, (_, k) => (r.reg + k) * WARP);
      const xs = new Array<number>(a.n);
      this.emit((w, l) => {
        for (let k = 0; k < ins.length; k++) xs[k] = w.regs[ins[k] + l];
        const ys = f(xs);
        for (let k = 0; k < outs.length; k++) w.regs[outs[k] + l] = ys[k];
      });
      return;
    }
    const f = conversion(i.opcode, from.kind === 'vector' ? from.of : from, to.kind === 'vector' ? to.of : to, this.flat);
    if (i.opcode === 'addrspacecast' || (i.opcode === 'bitcast' && from.kind === 'ptr')) return this.copy(this.result(i), this.val(i.operands[0]));
    this.unary(i, f);
  }

  private gep(i: LInstruction): void {
    if (i.type.kind === 'vector') this.fail('not supported: getelementptr over a vector of pointers');
    let offsets;
    try {
      offsets = gepOffsets(i.elementType ?? { kind: 'int', bits: 8 }, i.operands.slice(1));
    } catch (e) {
      if (e instanceof ConstantError) this.fail(e.message);
      throw e;
    }
    if (this.isLocal(i.operands[0])) this.markLocal(i);
    const base = this.reg(i.operands[0]);
    const r = this.result(i).reg;
    const ro = r * WARP;
    const bo = base * WARP;
    const c = offsets.constant;
    const terms = offsets.terms.map((t) => ({ o: this.reg(t.index) * WARP, s: t.scale }));
    if (terms.length === 0) {
      this.emit((w, l) => {
        w.regs[ro + l] = w.regs[bo + l] + c;
      });
    } else if (terms.length === 1) {
      const io = terms[0].o;
      const s = terms[0].s;
      this.emit((w, l) => {
        const regs = w.regs;
        regs[ro + l] = regs[bo + l] + c + regs[io + l] * s;
      });
    } else {
      this.emit((w, l) => {
        const regs = w.regs;
        let p = regs[bo + l] + c;
        for (const t of terms) p += regs[t.o + l] * t.s;
        regs[ro + l] = p;
      });
    }
  }

  private select(i: LInstruction): void {
    const c = this.val(i.operands[0]);
    const a = this.val(i.operands[1]);
    const b = this.val(i.operands[2]);
    const r = this.result(i);
    if (this.isLocal(i.operands[1]) && this.isLocal(i.operands[2])) this.markLocal(i);
    const vectorCond = c.n > 1;
    for (let k = 0; k < r.n; k++) {
      const co = (c.reg + (vectorCond ? k : 0)) * WARP;
      const ao = (a.reg + k) * WARP;
      const bo = (b.reg + k) * WARP;
      const ro = (r.reg + k) * WARP;
      this.emit((w, l) => {
        const regs = w.regs;
        regs[ro + l] = regs[co + l] ? regs[ao + l] : regs[bo + l];
      });
    }
  }

  private extractElement(i: LInstruction): void {
    const v = this.val(i.operands[0]);
    const idx = i.operands[1];
    const r = this.result(i);
    if (idx.kind === 'int') {
      const k = Number(idx.value);
      if (k >= 0 && k < v.n) return this.copy(r, { reg: v.reg + k, n: 1 });
      return this.copy(r, { reg: this.constReg(0), n: 1 });
    }
    const io = this.reg(idx) * WARP;
    const ro = r.reg * WARP;
    const base = v.reg;
    const n = v.n;
    this.emit((w, l) => {
      const k = w.regs[io + l];
      w.regs[ro + l] = k >= 0 && k < n ? w.regs[(base + k) * WARP + l] : 0;
    });
  }

  private insertElement(i: LInstruction): void {
    const v = this.val(i.operands[0]);
    const e = this.val(i.operands[1]);
    const idx = i.operands[2];
    const r = this.result(i);
    this.copy(r, v);
    if (idx.kind === 'int') {
      const k = Number(idx.value);
      if (k >= 0 && k < r.n) this.copy({ reg: r.reg + k, n: 1 }, e);
      return;
    }
    const io = this.reg(idx) * WARP;
    const eo = e.reg * WARP;
    const base = r.reg;
    const n = r.n;
    this.emit((w, l) => {
      const k = w.regs[io + l];
      if (k >= 0 && k < n) w.regs[(base + k) * WARP + l] = w.regs[eo + l];
    });
  }

  private shuffleVector(i: LInstruction): void {
    const a = this.val(i.operands[0]);
    const b = this.val(i.operands[1]);
    const mask = i.operands[2];
    const r = this.result(i);
    const lanes: number[] =
      mask.kind === 'aggregate' ? mask.elements.map((m) => (m.kind === 'int' ? Number(m.value) : -1))
      : mask.kind === 'zero' ? Array.from({ length: r.n }, () => 0)
      : mask.kind === 'int' ? Array.from({ length: r.n }, () => Number(mask.value))
      : Array.from({ length: r.n }, () => -1);
    lanes.forEach((m, k) => {
      const src = m < 0 ? this.constReg(0) : m < a.n ? a.reg + m : b.reg + (m - a.n);
      this.copy({ reg: r.reg + k, n: 1 }, { reg: src, n: 1 });
    });
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
      this.emit((w, l) => {
        w.regs[to + l] = w.regs[vo + l] === value ? 1 : 0;
      });
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
      if (!lowerExternalCall(this, i, name)) this.fail(`not supported: ${functionName(name)}`);
      return;
    }
    if (callee.kind === 'local') return this.indirectCall(i, callee);
    this.fail('not supported: this kind of call');
  }

  /** A call through a function pointer: a compare against each function whose address is taken. */
  private indirectCall(i: LInstruction, callee: LValue): void {
    const argc = i.operands.length;
    const candidates = [...this.options.addressTaken()].filter((f) => f.params.length === argc || (f.varargs && f.params.length <= argc));
    if (!candidates.length) this.fail('not supported: a call through a function pointer that points to no device function of the program');
    const p = this.reg(callee) * WARP;
    const result = i.type.kind === 'void' ? undefined : this.result(i);
    const join = this.newBlock();
    const range = this.range;
    const loc = this.loc;
    for (const f of candidates) {
      const address = this.options.globals.functionAddress(f)!;
      const t = this.regs(1);
      const to = t * WARP;
      this.emit((w, l) => {
        w.regs[to + l] = w.regs[p + l] === address ? 1 : 0;
      });
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

/**
 * Adds to `local` the pointer values of `fn` that can only point into the thread's local memory:
 * its (not promoted) allocas, what is derived from local pointers (getelementptr, casts,
 * select, phi) and loads of promoted allocas every store to which stores a local pointer, given
 * which parameters are local (already in `local`). The greatest such set: a value stays unless
 * some source of it may be something else (a global, memory, a call, an integer).
 */
function localPointers(fn: LFunction, promotable: Set<string>, local: Set<string>): void {
  const params = new Set(fn.params.map((p) => p.name));
  const sources = new Map<string, LValue[]>();
  const candidates = new Set<string>();
  const add = (name: string, from: LValue[]): void => {
    candidates.add(name);
    const list = sources.get(name);
    if (list) list.push(...from);
    else sources.set(name, [...from]);
  };
  for (const b of fn.blocks) {
    for (const i of b.instructions) {
      if (i.opcode === 'store' && i.operands[1]?.kind === 'local' && promotable.has(i.operands[1].name) && i.operands[0].type.kind === 'ptr') add(i.operands[1].name, [i.operands[0]]);
      if (i.result === undefined || i.type.kind !== 'ptr') continue;
      switch (i.opcode) {
        case 'alloca':
          if (!promotable.has(i.result)) local.add(i.result);
          break;
        case 'getelementptr':
        case 'addrspacecast':
        case 'bitcast':
        case 'freeze':
          add(i.result, [i.operands[0]]);
          break;
        case 'select':
          add(i.result, [i.operands[1], i.operands[2]]);
          break;
        case 'phi':
          add(i.result, (i.incoming ?? []).map((x) => x.value));
          break;
        case 'load':
          if (i.operands[0].kind === 'local' && promotable.has(i.operands[0].name)) add(i.result, [i.operands[0]]);
          break;
      }
    }
  }
  // Promoted allocas stand for the values stored in them; one never stored holds nothing.
  for (const name of promotable) if (!sources.has(name)) sources.set(name, []);
  const isLocal = (v: LValue): boolean => {
    if (v.kind === 'null' || v.kind === 'undef' || v.kind === 'poison' || v.kind === 'zero') return true;
    if (v.kind !== 'local') return false;
    return local.has(v.name) || (candidates.has(v.name) && !params.has(v.name));
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (const name of candidates) {
      if (!sources.get(name)!.every(isLocal)) {
        candidates.delete(name);
        changed = true;
      }
    }
  }
  for (const name of candidates) if (!promotable.has(name)) local.add(name);
}

/**
 * Loads of promoted allocas whose value can be read from the alloca's own register: every use
 * is later in the same block (not a phi), with no store to the alloca in between. clang's -O0
 * code loads a local just before each use; this spares those copies.
 */
function aliasableLoads(fn: LFunction, promotable: Set<string>): Set<string> {
  const out = new Set<string>();
  // Where each value is used: its block (or '' for several blocks or a phi).
  const usedIn = new Map<string, string>();
  for (const b of fn.blocks) {
    for (const i of b.instructions) {
      const use = (v: LValue | undefined, where: string): void => {
        if (v?.kind !== 'local') return;
        const seen = usedIn.get(v.name);
        usedIn.set(v.name, seen === undefined || seen === where ? where : '');
      };
      i.operands.forEach((v) => use(v, b.label));
      if (i.callee) use(i.callee, b.label);
      i.incoming?.forEach((x) => use(x.value, ''));
    }
  }
  for (const b of fn.blocks) {
    const loads = new Map<string, { at: number; alloca: string; last: number }>();
    b.instructions.forEach((i, at) => {
      if (i.opcode === 'load' && i.result !== undefined && i.operands[0]?.kind === 'local' && promotable.has(i.operands[0].name)) {
        const where = usedIn.get(i.result);
        if (where === undefined || where === b.label) loads.set(i.result, { at, alloca: i.operands[0].name, last: at });
      }
    });
    if (!loads.size) continue;
    b.instructions.forEach((i, at) => {
      for (const v of i.operands) {
        const l = v.kind === 'local' ? loads.get(v.name) : undefined;
        if (l) l.last = Math.max(l.last, at);
      }
    });
    for (const [name, l] of loads) {
      let stored = false;
      for (let k = l.at + 1; k < l.last && !stored; k++) {
        const i = b.instructions[k];
        if (i.opcode === 'store' && i.operands[1]?.kind === 'local' && i.operands[1].name === l.alloca) stored = true;
      }
      if (!stored) out.add(name);
    }
  }
  return out;
}

/**
 * Might code write through pointer `name` or a pointer derived from it (a store, an atomic, the
 * destination of memcpy/memset, or any call it is passed to)?
 */
function writesThrough(fn: LFunction, name: string): boolean {
  const derived = new Set([name]);
  const uses = (v: LValue | undefined): boolean => v?.kind === 'local' && derived.has(v.name);
  for (let changed = true; changed; ) {
    changed = false;
    for (const b of fn.blocks) {
      for (const i of b.instructions) {
        if (i.result === undefined || derived.has(i.result)) continue;
        if ((i.opcode === 'getelementptr' || i.opcode === 'addrspacecast' || i.opcode === 'bitcast' || i.opcode === 'select' || i.opcode === 'phi') && (i.operands.some(uses) || i.incoming?.some((x) => uses(x.value)))) {
          derived.add(i.result);
          changed = true;
        }
      }
    }
  }
  for (const b of fn.blocks) {
    for (const i of b.instructions) {
      switch (i.opcode) {
        case 'load':
        case 'getelementptr':
        case 'addrspacecast':
        case 'bitcast':
        case 'select':
        case 'phi':
        case 'icmp':
        case 'ptrtoint':
          continue;
        case 'store':
          if (uses(i.operands[1]) || uses(i.operands[0])) return true;
          continue;
        case 'call': {
          const callee = i.callee?.kind === 'global' ? i.callee.name : '';
          if (/^llvm\.(memcpy|memmove)/.test(callee)) {
            if (uses(i.operands[0])) return true;
            continue;
          }
          if (/^llvm\.(lifetime|dbg)/.test(callee)) continue;
          if (i.operands.some(uses)) return true;
          continue;
        }
        default:
          if (i.operands.some(uses)) return true;
      }
    }
  }
  return false;
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
