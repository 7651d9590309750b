// Lowering: the typed syntax tree of one function (with every call it makes inlined) becomes a
// CompiledFunction — basic blocks of steps over registers, with memory for what needs an
// address (arrays, structs, vectors, variables whose address is taken). Template functions
// are lowered from the concretely typed copy the semantic pass made for each instantiation.
//
// Values in registers are JS numbers kept in their C type's range: int wraps to 32 bits,
// unsigned to [0, 2^32), float is rounded with Math.fround, a pointer is a provenance-carrying
// number (sims/gpu/memory). 64-bit integers are exact up to 2^53.
import type * as A from '../frontend/ast';
import type { InstantiatedFunction } from '../frontend/sema/analyzer';
import { PRELUDE_FILE } from '../frontend/sema/prelude';
import type { Range } from '../frontend/source';
import * as T from '../frontend/types';
import { copyBytes, DeviceFault, load, readCString, store } from '../gpu/access';
import { scalarSize, type Memory, type NamedRegion, type ScalarKind } from '../gpu/memory';
import { occupancy } from '../gpu/devices';
import { cudaErrorString } from '../runtime/cudaErrors';
import { deviceAttribute, deviceProperties } from '../runtime/deviceProperties';
import { box, isBoxed, plain, unbox } from '../values/wide';
import { formatPrintf, parseFormat, type PrintfArg } from '../printf/format';
import { WARP, LowerError, pureStep, readingStep, type Block, type CompiledFunction, type Lanes, type PureStep, type MemoryOrder, type Scope, type Step, type Terminator } from './ir';
import { ATOMIC_COMPOUND_OPS, ATOMIC_METHODS, casFailureOrder, constantArgument, methodShape, orderOf, threadScopeOf } from '../frontend/libcu';
import { decodePtx, type PtxValue } from '../frontend/ptx';
import { accessEvent, copyStep, fenceStep, fill, modelLoad, modelStore, setStep, type Ordered } from './accessSteps';
import { plainAccessStep } from './plainAccess';
import * as Ops from './pureOps';
import { bigAtomic, narrowAtomic } from './atomicOps';
import { MATH } from './math';

/** What lowering needs from the whole program. */
export interface ProgramInfo {
  memory: Memory;
  instantiations: Map<string, InstantiatedFunction>;
  /** Compiles (once) the kernel a launch names. */
  kernel: (decl: A.FunctionDecl, inst: A.TemplateInstantiation | undefined, range: Range) => CompiledFunction;
  /** String literals used as data get one allocation each. */
  stringLiteral: (value: string, space: 'host' | 'constant') => number;
  /** Compile memory accesses, fences and barriers to report events (a detector listens). */
  events: boolean;
}

type Slot =
  | { kind: 'reg'; reg: number; type: T.Type }
  | { kind: 'frame'; offset: number; type: T.Type }
  | { kind: 'shared'; offset: number; type: T.Type }
  | { kind: 'dynamic-shared'; type: T.Type }
  | { kind: 'global'; decl: A.VarDecl; type: T.Type }
  /** A reference parameter: the register holds the address of the variable it names. */
  | { kind: 'ref'; reg: number; type: T.Type };

type LValue = { kind: 'reg'; reg: number; type: T.Type } | { kind: 'mem'; addr: number; type: T.Type };

interface InlineFrame {
  vars: Map<object, Slot>;
  bindings: Map<string, T.Type | number> | undefined;
  returnBlock?: Block;
  returnReg?: number;
  returnType: T.Type;
  decl: A.FunctionDecl;
}

const MAX_INLINE_DEPTH = 32;

export function scalarKind(t: T.Type): ScalarKind {
  switch (t.kind) {
    case 'bool':
      return 'u8';
    case 'int':
      return `${t.signed ? 'i' : 'u'}${t.bits}` as ScalarKind;
    case 'enum':
      return 'i32';
    case 'float':
      return t.bits === 32 ? 'f32' : 'f64';
    case 'atomic':
      // An atomic object is stored as its value; an atomic_ref as the address it refers to.
      return t.ref ? 'u64' : scalarKind(t.value);
    default:
      return 'u64';
  }
}

const TWO53 = 2 ** 53;

function wrap64(x: number, signed: boolean): number {
  if (Number.isSafeInteger(x) && (signed || x >= 0)) return x;
  const b = unbox(x);
  return box(signed ? BigInt.asIntN(64, b) : BigInt.asUintN(64, b));
}

/** Brings a number into the range of type `t`, as a C conversion does. */
export function normalizer(t: T.Type): (x: number) => number {
  switch (t.kind) {
    case 'bool':
      return (x) => (x ? 1 : 0);
    case 'enum':
      return (x) => x | 0;
    case 'float':
      return t.bits === 32 ? (x) => Math.fround(plain(x)) : plain;
    case 'int':
      switch (t.bits) {
        // JS's ToInt32 truncates and wraps modulo 2^32 exactly for any finite double (and gives
        // 0 for NaN and infinities, as good as any answer to C's undefined conversion); only a
        // boxed 64-bit value needs BigInt.
        case 8:
          return t.signed ? (x) => ((small(x) << 24) >> 24) : (x) => small(x) & 0xff;
        case 16:
          return t.signed ? (x) => ((small(x) << 16) >> 16) : (x) => small(x) & 0xffff;
        case 32:
          return t.signed ? (x) => small(x) | 0 : (x) => small(x) >>> 0;
        default:
          return (x) => wrap64(Number.isFinite(x) ? Math.trunc(x) : 0, t.signed);
      }
    default:
      return (x) => x;
  }
}

/** The low 32 bits of a value as a number ToInt32 reads exactly. */
function small(x: number): number {
  return isBoxed(x) ? Number(BigInt.asIntN(32, unbox(x))) : x;
}

/** Fast conversions for the common int/unsigned cases, as pure-step expressions (floats go through the general path). */
function intWrap(t: T.Type): PureStep['expr'] | undefined {
  if (t.kind === 'int' && t.bits === 32) return t.signed ? ([x]) => `${x} | 0` : ([x]) => `${x} >>> 0`;
  return undefined;
}

const UINT3_FIELDS = ['x', 'y', 'z'];

/**
 * Variables whose address is taken, passed by reference, or bound to an atomic_ref, in a body.
 * A tree is read once: every run lowers its kernels again from the same tree.
 */
const ADDRESS_TAKEN = new WeakMap<object, ReadonlySet<object>>();

/** Keys of tree nodes that hold no expressions (source positions, types, resolved targets). */
const NOT_CODE = new Set(['type', 'ref', 'resolvedType', 'resolvedTarget', 'instantiation', 'range', 'nameRange']);

function addressTakenIn(root: object): ReadonlySet<object> {
  const known = ADDRESS_TAKEN.get(root);
  if (known) return known;
  const taken = new Set<object>();
  const seen = new Set<unknown>();
  const visit = (x: unknown): void => {
    if (!x || typeof x !== 'object' || seen.has(x)) return;
    seen.add(x);
    if (Array.isArray(x)) return x.forEach(visit);
    const n = x as A.Expr;
    if (n.kind === 'Unary' && n.op === '&') {
      const r = rootVar(n.operand);
      if (r) taken.add(r);
    }
    // An atomic_ref (a variable or a temporary) holds the address of the object it names.
    const bound = atomicRefBinding(x as A.Expr | A.VarDecl);
    if (bound) {
      const r = rootVar(bound);
      if (r) taken.add(r);
    }
    if (n.kind === 'Call' && n.callee.kind === 'Identifier' && n.callee.ref?.kind === 'function') {
      const params = n.callee.ref.decl.params;
      n.args.forEach((a, i) => {
        if (params[i]?.type.kind === 'ReferenceType') {
          const r = rootVar(a);
          if (r) taken.add(r);
        }
      });
    }
    for (const k in n) if (!NOT_CODE.has(k)) visit((n as unknown as Record<string, unknown>)[k]);
  };
  visit(root);
  ADDRESS_TAKEN.set(root, taken);
  return taken;
}

export class FunctionLowerer {
  private readonly blocks: Block[] = [];
  private cur: Block;
  private nregs = 0;
  private frameSize = 0;
  private sharedSize = 0;
  private usesDynamicShared = false;
  /**
   * Device code reports its memory accesses when a detector listens. Host code does not:
   * kernels run to completion between host steps, so no host access can race with the GPU.
   */
  private get accessEvents(): boolean {
    return this.program.events && this.side === 'device';
  }
  private readonly sharedLayout: NamedRegion[] = [];
  private readonly frames: InlineFrame[] = [];
  private readonly loops: { breakTo: Block; continueTo?: Block }[] = [];
  private readonly addressTaken = new Set<object>();
  /** Registers that hold a constant (written once, by `constant`), with its value. */
  private readonly constants = new Map<number, number>();
  private readonly compiledName: string;

  constructor(
    private readonly program: ProgramInfo,
    private readonly root: A.FunctionDecl,
    private readonly side: 'host' | 'device',
    name?: string,
    /** End a block after every memory access, so a scheduler can switch warps there. */
    private readonly switchAtMemory = false,
  ) {
    this.cur = this.newBlock();
    this.compiledName = name ?? root.name;
  }

  // -------------------------------------------------------------------------------------------
  // Building blocks

  private newBlock(): Block {
    const b: Block = { id: this.blocks.length, steps: [], ranges: [], term: { kind: 'exit' } };
    this.blocks.push(b);
    return b;
  }
  private reg(): number {
    return this.nregs++;
  }
  private emit(step: Step, range: Range): void {
    this.cur.steps.push(step);
    this.cur.ranges.push(range);
  }

  /** A step that touches memory: with switch points on, the block ends after it. */
  private emitMemory(step: Step, range: Range): void {
    this.emit(step, range);
    if (this.switchAtMemory) {
      this.cur.visible = true;
      const next = this.newBlock();
      this.terminate({ kind: 'jump', to: next.id }, next);
    }
  }
  private terminate(term: Terminator, next?: Block): void {
    this.cur.term = term;
    this.cur = next ?? this.newBlock();
  }
  private jump(to: Block): void {
    this.terminate({ kind: 'jump', to: to.id });
  }
  private constant(value: number, range: Range): number {
    const r = this.reg();
    this.emit(pureStep(r * WARP, [], (_, lit) => lit(value)), range);
    this.constants.set(r, value);
    return r;
  }
  private frameSlot(size: number, align: number): number {
    this.frameSize = Math.ceil(this.frameSize / align) * align;
    const off = this.frameSize;
    this.frameSize += Math.max(size, 1);
    return off;
  }
  private get frame(): InlineFrame {
    return this.frames[this.frames.length - 1];
  }

  // -------------------------------------------------------------------------------------------
  // Entry

  compile(body: A.CompoundStmt, paramTypes: T.Type[], bindings: Map<string, T.Type | number> | undefined, returnType: T.Type): CompiledFunction {
    this.scanAddressTaken(body);
    const frame: InlineFrame = { vars: new Map(), bindings, returnType, decl: this.root };
    // The root's `return v` leaves v in a register the caller of the program reads (main's status).
    if (returnType.kind !== 'void' && !isAggregate(returnType)) {
      frame.returnReg = this.reg();
      frame.returnBlock = this.newBlock();
    }
    this.frames.push(frame);
    const paramRegs: number[] = [];
    this.root.params.forEach((p, i) => {
      const t = paramTypes[i];
      const r = this.reg();
      paramRegs.push(r);
      if (this.needsMemory(p, t)) {
        // A parameter that needs an address (or is a struct) lives in the frame; an aggregate
        // argument arrives as the address of its bytes and is copied in.
        const size = T.sizeOf(t) ?? 8;
        const off = this.frameSlot(size, T.alignOf(t));
        frame.vars.set(p, { kind: 'frame', offset: off, type: t });
        const ro = r * WARP;
        const range = p.range;
        if (isAggregate(t)) {
          // Into the frame from the caller's bytes (which may be global memory: f(a[i])).
          const to = this.reg();
          const tro = to * WARP;
          this.emit((w, l) => (w.regs[tro + l] = w.frame[l] + off), range);
          this.emit(copyStep(to, r, () => size, { dstLocal: true, volatile: false, events: this.accessEvents, space: this.side, range }), range);
        }
        else {
          const kind = scalarKind(t);
          this.emit((w, l) => store(w.ctx, w.frame[l] + off, kind, w.regs[ro + l], range), range);
        }
      } else frame.vars.set(p, { kind: 'reg', reg: r, type: t });
    });
    for (const s of body.body) this.stmt(s);
    this.terminate({ kind: 'exit' });
    this.frames.pop();
    return {
      name: this.compiledName,
      decl: this.root,
      blocks: this.blocks,
      numRegs: this.nregs,
      paramRegs,
      paramTypes,
      frameSize: this.frameSize,
      sharedSize: this.sharedSize,
      sharedLayout: this.sharedLayout,
      ...(this.usesDynamicShared ? { usesDynamicShared: true } : {}),
      ...(frame.returnReg !== undefined ? { returnReg: frame.returnReg } : {}),
    };
  }

  /** Variables whose address is taken, passed by reference, or that are aggregates. */
  private scanAddressTaken(root: object): void {
    for (const d of addressTakenIn(root)) this.addressTaken.add(d);
  }

  private needsMemory(decl: object, t: T.Type): boolean {
    return isAggregate(t) || (t.kind === 'atomic' && !t.ref) || this.addressTaken.has(decl);
  }

  // -------------------------------------------------------------------------------------------
  // Statements

  private stmt(s: A.Stmt): void {
    switch (s.kind) {
      case 'CompoundStmt':
        for (const x of s.body) this.stmt(x);
        return;
      case 'DeclStmt':
        for (const d of s.decls) if (d.kind === 'VarDecl') this.localVar(d);
        return;
      case 'ExprStmt':
        this.rv(s.expr);
        return;
      case 'NullStmt':
        return;
      case 'IfStmt': {
        if (s.conditionDecl) this.localVar(s.conditionDecl);
        const c = this.cond(s.condition);
        const thenB = this.newBlock();
        const elseB = s.else ? this.newBlock() : undefined;
        const join = this.newBlock();
        this.terminate({ kind: 'branch', cond: c, then: thenB.id, else: (elseB ?? join).id }, thenB);
        this.stmt(s.then);
        this.jump(join);
        if (elseB) {
          this.cur = elseB;
          this.stmt(s.else!);
          this.jump(join);
        }
        this.cur = join;
        return;
      }
      case 'WhileStmt':
      case 'ForStmt': {
        if (s.kind === 'ForStmt' && s.init) this.stmt(s.init);
        const head = this.newBlock();
        const body = this.newBlock();
        const step = this.newBlock();
        const exit = this.newBlock();
        this.jump(head);
        this.cur = head;
        const condition = s.condition;
        if (condition) this.terminate({ kind: 'branch', cond: this.cond(condition), then: body.id, else: exit.id }, body);
        else this.jump(body);
        this.cur = body;
        this.loops.push({ breakTo: exit, continueTo: step });
        this.stmt(s.body);
        this.loops.pop();
        this.jump(step);
        this.cur = step;
        if (s.kind === 'ForStmt' && s.step) this.rv(s.step);
        this.jump(head);
        this.cur = exit;
        return;
      }
      case 'DoStmt': {
        const body = this.newBlock();
        const check = this.newBlock();
        const exit = this.newBlock();
        this.jump(body);
        this.cur = body;
        this.loops.push({ breakTo: exit, continueTo: check });
        this.stmt(s.body);
        this.loops.pop();
        this.jump(check);
        this.cur = check;
        this.terminate({ kind: 'branch', cond: this.cond(s.condition), then: body.id, else: exit.id }, exit);
        return;
      }
      case 'SwitchStmt':
        this.switchStmt(s);
        return;
      case 'BreakStmt':
        this.jump(this.loops[this.loops.length - 1].breakTo);
        return;
      case 'ContinueStmt': {
        const target = [...this.loops].reverse().find((l) => l.continueTo);
        this.jump(target!.continueTo!);
        return;
      }
      case 'ReturnStmt': {
        const f = this.frame;
        if (s.value && f.returnReg !== undefined) {
          const v = this.rvAs(s.value, f.returnType);
          const dst = f.returnReg * WARP;
          if (isAggregate(f.returnType)) {
            const size = T.sizeOf(f.returnType) ?? 0;
            this.emit(copyStep(f.returnReg, v, () => size, { dstLocal: false, volatile: false, events: this.accessEvents, space: this.side, range: s.range }), s.range);
          } else {
            const vo = v * WARP;
            this.emit(pureStep(dst, [vo], ([x]) => x), s.range);
          }
        } else if (s.value) this.rv(s.value);
        if (f.returnBlock) this.jump(f.returnBlock);
        else this.terminate({ kind: 'exit' });
        return;
      }
      case 'CaseStmt':
      case 'DefaultStmt':
        // Handled by the enclosing switch, which splits its body at the labels.
        return;
      case 'AsmStmt':
        this.asm(s);
        return;
      case 'UnsupportedStmt':
        throw new LowerError(`the simulator cannot run this yet: ${s.what}`, s.range);
    }
  }

  private switchStmt(s: A.SwitchStmt): void {
    const value = this.rv(s.condition);
    const body = s.body.kind === 'CompoundStmt' ? s.body.body : [s.body];
    const exit = this.newBlock();
    // One block per label; statements fall through from one label's block to the next.
    const labelBlocks = new Map<A.Stmt, Block>();
    for (const st of body) if (st.kind === 'CaseStmt' || st.kind === 'DefaultStmt') labelBlocks.set(st, this.newBlock());
    let defaultBlock = exit;
    const vo = value * WARP;
    for (const [label, block] of labelBlocks) {
      if (label.kind === 'DefaultStmt') {
        defaultBlock = block;
        continue;
      }
      const c = (label as A.CaseStmt).constValue ?? 0;
      const r = this.reg();
      const ro = r * WARP;
      this.emit(pureStep(ro, [vo], ([x], lit) => `${x} === ${lit(c)} ? 1 : 0`), label.range);
      const next = this.newBlock();
      this.terminate({ kind: 'branch', cond: r, then: block.id, else: next.id }, next);
    }
    this.jump(defaultBlock);
    this.loops.push({ breakTo: exit });
    this.cur = this.newBlock(); // statements before the first label are unreachable
    for (const st of body) {
      const target = labelBlocks.get(st);
      if (target) {
        this.jump(target);
        this.cur = target;
      } else this.stmt(st);
    }
    this.loops.pop();
    this.jump(exit);
    this.cur = exit;
  }

  private localVar(d: A.VarDecl): void {
    const t = d.resolvedType ?? T.ERROR;
    const words = new Set(d.specifiers.map((x) => x.text));
    if (words.has('__shared__')) {
      if (words.has('extern')) {
        this.frame.vars.set(d, { kind: 'dynamic-shared', type: t });
        this.usesDynamicShared = true;
        this.sharedLayout.push({ name: d.name, offset: -1, type: t.kind === 'array' ? t.of : t, unbounded: true });
      } else {
        const align = T.alignOf(t);
        this.sharedSize = Math.ceil(this.sharedSize / align) * align;
        this.frame.vars.set(d, { kind: 'shared', offset: this.sharedSize, type: t });
        this.sharedLayout.push({ name: d.name, offset: this.sharedSize, type: t });
        this.sharedSize += T.sizeOf(t) ?? 0;
      }
      return;
    }
    if (words.has('static') || d.global) throw new LowerError('the simulator cannot run static local variables yet', d.range);
    if (this.needsMemory(d, t)) {
      const size = T.sizeOf(t);
      if (size === undefined) throw new LowerError(`the size of '${d.name}' is not known`, d.range);
      const off = this.frameSlot(size, T.alignOf(t));
      this.frame.vars.set(d, { kind: 'frame', offset: off, type: t });
      if (d.init) {
        const addr = this.slotAddress({ kind: 'frame', offset: off, type: t }, d.range);
        if (d.init.kind === 'InitList' || isAggregate(t)) {
          // Aggregates start zeroed, then the initializer writes what it lists.
          const ao = addr * WARP;
          const range = d.range;
          this.emit((w, l) => {
            const p = w.regs[ao + l];
            for (let i = 0; i < size; i++) store(w.ctx, p + i, 'u8', 0, range);
          }, d.range);
        }
        this.initialize({ kind: 'mem', addr, type: t }, d.init);
      }
      return;
    }
    const r = this.reg();
    this.frame.vars.set(d, { kind: 'reg', reg: r, type: t });
    if (d.init) {
      const init = d.init.kind === 'InitList' && d.init.elements.length > 0 ? d.init.elements[0].value : d.init;
      if (init.kind === 'InitList') this.assignReg(r, this.constant(0, d.range), d.range);
      else this.assignReg(r, this.rvAs(init, t), d.range);
    }
  }

  private assignReg(dst: number, src: number, range: Range): void {
    this.emit(pureStep(dst * WARP, [src * WARP], ([s]) => s), range);
  }

  /** Writes an initializer (scalar, string or brace list) into memory at `target`. */
  private initialize(target: { kind: 'mem'; addr: number; type: T.Type }, init: A.Expr): void {
    const t = target.type;
    if (init.kind === 'InitList') {
      if (t.kind === 'array') {
        const es = T.sizeOf(t.of) ?? 0;
        init.elements.forEach((el, i) => {
          const idx = el.designators[0]?.kind === 'index' ? this.constEval(el.designators[0].index) : i;
          this.initialize({ kind: 'mem', addr: this.offsetPointer(target.addr, idx * es, el.value.range), type: t.of }, el.value);
        });
        return;
      }
      if (t.kind === 'struct') {
        const layout = T.structLayout(t.decl);
        if (!layout) throw new LowerError(`the layout of '${t.name}' is not known`, init.range);
        let i = 0;
        for (const el of init.elements) {
          const d = el.designators[0];
          if (d?.kind === 'field') i = layout.fields.findIndex((f) => f.name === d.name);
          const f = layout.fields[i++];
          if (f) this.initialize({ kind: 'mem', addr: this.offsetPointer(target.addr, f.offset, el.value.range), type: f.type }, el.value);
        }
        return;
      }
      if (t.kind === 'vector') {
        const es = T.sizeOf(t.elem) ?? 4;
        init.elements.forEach((el, i) => this.initialize({ kind: 'mem', addr: this.offsetPointer(target.addr, i * es, el.value.range), type: t.elem }, el.value));
        // dim3(x, y) leaves z at 1, as its constructor's defaults say.
        if (t.name === 'dim3') for (let i = init.elements.length; i < 3; i++) this.storeTo({ kind: 'mem', addr: this.offsetPointer(target.addr, i * es, init.range), type: t.elem }, this.constant(1, init.range), init.range);
        return;
      }
      if (init.elements[0]) this.initialize(target, init.elements[0].value);
      return;
    }
    if (t.kind === 'array' && init.kind === 'StringLiteral') {
      const bytes = [...init.value].map((c) => c.charCodeAt(0) & 0xff).concat([0]);
      const ao = target.addr * WARP;
      const range = init.range;
      this.emit((w, l) => bytes.forEach((b, i) => store(w.ctx, w.regs[ao + l] + i, 'u8', b, range)), init.range);
      return;
    }
    if (t.kind === 'vector' && t.name === 'dim3' && T.isInteger(T.decay(this.typeOf(init)))) {
      // `dim3 block = 256;` / `dim3 block(256);`: the implicit constructor dim3(256, 1, 1).
      this.initialize(target, { kind: 'InitList', range: init.range, elements: [{ designators: [], value: init }] });
      return;
    }
    this.storeTo(target, this.rvAs(init, t), init.range);
  }

  private offsetPointer(base: number, offset: number, range: Range): number {
    if (offset === 0) return base;
    const r = this.reg();
    const ro = r * WARP;
    const bo = base * WARP;
    this.emit(pureStep(ro, [bo], ([x], lit) => `${x} + ${lit(offset)}`), range);
    return r;
  }

  private constEval(e: A.Expr): number {
    switch (e.kind) {
      case 'IntLiteral':
      case 'CharLiteral':
        return e.value;
      case 'Paren':
        return this.constEval(e.inner);
      case 'Identifier':
        if (e.ref?.kind === 'enumerator') return e.ref.decl.constValue ?? 0;
        break;
    }
    throw new LowerError('this designator must be a constant', e.range);
  }

  // -------------------------------------------------------------------------------------------
  // Expressions

  /** The type an expression has here (template parameters replaced by their arguments). */
  private typeOf(e: A.Expr): T.Type {
    const t = e.type ?? T.ERROR;
    return this.subst(T.stripReference(t));
  }

  private subst(t: T.Type): T.Type {
    if (t.kind === 'typeParam') {
      const b = this.frame.bindings?.get(t.name);
      if (b !== undefined && typeof b !== 'number') return b;
    }
    if (t.kind === 'pointer' && t.to.kind === 'typeParam') return { ...t, to: this.subst(t.to) };
    return t;
  }

  /** A condition as a 0/1 register. */
  private cond(e: A.Expr): number {
    const v = this.rv(e);
    const t = T.decay(this.typeOf(e));
    if (t.kind === 'bool') return v;
    const r = this.reg();
    const ro = r * WARP;
    const vo = v * WARP;
    this.emit(pureStep(ro, [vo], ([x]) => `${x} ? 1 : 0`), e.range);
    return r;
  }

  /** The value of `e` converted to `to`. Aggregates are passed as addresses. */
  private rvAs(e: A.Expr, to: T.Type): number {
    // Binding a reference to an atomic object, or an atomic_ref, is taking an address; an
    // atomic object is initialised with a value.
    const target = T.stripReference(to);
    if (target.kind === 'atomic') {
      if (to.kind === 'reference') return this.atomicObjectAddress(e);
      return target.ref ? this.boundAddress(e) : this.rvAs(e, target.value);
    }
    const v = this.rv(e);
    return this.convert(v, T.decay(this.typeOf(e)), T.stripReference(to), e.range);
  }

  private convert(v: number, from: T.Type, to: T.Type, range: Range): number {
    if (isAggregate(to) || to.kind === 'pointer' || to.kind === 'void' || to.kind === 'error' || to.kind === 'typeParam') return v;
    if (from.kind === 'pointer' && to.kind !== 'bool') return v;
    if (T.sameType(T.unqualified(from), T.unqualified(to)) && from.kind !== 'error') return v;
    // The quick int conversions are exact only for values that cannot be boxed (32-bit or less).
    const fast = (from.kind === 'int' && from.bits <= 32) || from.kind === 'bool' || from.kind === 'enum' ? intWrap(to) : undefined;
    const r = this.reg();
    this.emit(pureStep(r * WARP, [v * WARP], fast ?? (([x], lit) => `${lit(normalizer(to))}(${x})`)), range);
    return r;
  }

  /** Evaluates `e` into a register (its value; for arrays, structs and vectors their address). */
  rv(e: A.Expr): number {
    // An atomic object used as a value is read by its conversion operator: a seq_cst load.
    if (e.type && isAtomicObject(this.typeOf(e))) return this.atomicValue(e);
    switch (e.kind) {
      case 'IntLiteral':
        return this.constant(Number.isSafeInteger(e.value) ? e.value : box(BigInt(e.exact)), e.range);
      case 'FloatLiteral':
        return this.constant(e.single ? Math.fround(e.value) : e.value, e.range);
      case 'CharLiteral':
        return this.constant(e.value, e.range);
      case 'BoolLiteral':
        return this.constant(e.value ? 1 : 0, e.range);
      case 'NullptrLiteral':
        return this.constant(0, e.range);
      case 'StringLiteral':
        return this.constant(this.program.stringLiteral(e.value, this.side === 'host' ? 'host' : 'constant'), e.range);
      case 'Paren':
        return this.rv(e.inner);
      case 'Identifier':
        return this.identifier(e);
      case 'Member':
      case 'Index': {
        const b = this.builtinMember(e);
        if (b !== undefined) return b;
        return this.loadLValue(this.lv(e), e.range);
      }
      case 'Unary':
        return this.unary(e);
      case 'Postfix':
        return this.incDec(e.operand, e.op, false, e.range);
      case 'Binary':
        return this.binary(e);
      case 'Assign':
        return this.assign(e);
      case 'Conditional': {
        const t = this.typeOf(e);
        const r = this.reg();
        const c = this.cond(e.condition);
        const a = this.newBlock();
        const b = this.newBlock();
        const join = this.newBlock();
        this.terminate({ kind: 'branch', cond: c, then: a.id, else: b.id }, a);
        this.assignReg(r, this.rvAs(e.then, t), e.then.range);
        this.jump(join);
        this.cur = b;
        this.assignReg(r, this.rvAs(e.else, t), e.else.range);
        this.jump(join);
        this.cur = join;
        return r;
      }
      case 'Cast': {
        const to = this.subst(e.resolvedTarget ?? T.ERROR);
        return this.convert(this.rv(e.operand), T.decay(this.typeOf(e.operand)), to, e.range);
      }
      case 'Construct':
        return this.construct(e);
      case 'Sizeof': {
        const t = this.subst(e.resolvedTarget ?? T.ERROR);
        const size = e.align ? T.alignOf(t) : T.sizeOf(t);
        if (size === undefined) throw new LowerError(`the size of '${T.typeToString(t)}' is not known`, e.range);
        return this.constant(size, e.range);
      }
      case 'Call':
        return this.call(e);
      case 'Launch':
        return this.launch(e);
      case 'InitList':
        throw new LowerError('the simulator cannot run a brace list here yet', e.range);
      case 'Error':
        throw new LowerError('the program has an error here', e.range);
    }
  }

  private identifier(e: A.IdentifierExpr): number {
    const ref = e.ref;
    if (ref?.kind === 'enumerator') return this.constant(ref.decl.constValue ?? 0, e.range);
    if (ref?.kind === 'templateValue') {
      const b = this.frame.bindings?.get(ref.param.name);
      if (typeof b !== 'number') throw new LowerError(`the value of template parameter '${ref.param.name}' is not known here`, e.range);
      return this.constant(b, e.range);
    }
    // A kernel named as a value is a handle for runtime queries (cudaFuncGetAttributes, …),
    // which the simulated runtime answers from the device preset alone.
    if (ref?.kind === 'function') return this.constant(0, e.range);
    // The runtime's flag constants and stream handles (cudaHostAllocMapped, cudaStreamPerThread)
    // are prelude declarations with no storage: their value is the initializer, or a null handle.
    if (ref?.kind === 'var' && ref.decl.kind === 'VarDecl' && ref.decl.range.file === PRELUDE_FILE) {
      const init = ref.decl.init;
      return this.constant(init?.kind === 'IntLiteral' ? init.value : 0, e.range);
    }
    if (ref?.kind === 'builtin') {
      if (e.name === 'warpSize') return this.constant(WARP, e.range);
      throw new LowerError(`the simulator cannot read '${e.name}' as a whole yet; use its .x/.y/.z`, e.range);
    }
    return this.loadLValue(this.lv(e), e.range);
  }

  /** threadIdx.x, blockIdx.y, blockDim.z, gridDim.x. */
  private builtinMember(e: A.MemberExpr | A.IndexExpr): number | undefined {
    if (e.kind !== 'Member' || e.object.kind !== 'Identifier' || e.object.ref?.kind !== 'builtin') return undefined;
    const idx = UINT3_FIELDS.indexOf(e.member);
    const r = this.reg();
    const ro = r * WARP;
    const name = e.object.name;
    if (name === 'threadIdx') {
      this.emit(pureStep(ro, [], () => `w.tid[${idx}][l]`), e.range);
      return r;
    }
    // blockIdx, blockDim and gridDim are the same for every thread of the block.
    if (name !== 'blockIdx' && name !== 'blockDim' && name !== 'gridDim') return undefined;
    this.emit(pureStep(ro, [], () => `w.ctx.${name}[${idx}]`), e.range);
    return r;
  }

  /** The register holding the address of a memory slot. */
  private slotAddress(slot: Slot, range: Range): number {
    const r = this.reg();
    const ro = r * WARP;
    switch (slot.kind) {
      case 'frame': {
        const off = slot.offset;
        this.emit(pureStep(ro, [], (_, lit) => `w.frame[l] + ${lit(off)}`), range);
        return r;
      }
      case 'shared': {
        const off = slot.offset;
        this.emit(pureStep(ro, [], (_, lit) => `w.ctx.shared + ${lit(off)}`), range);
        return r;
      }
      case 'dynamic-shared':
        this.emit(pureStep(ro, [], () => 'w.ctx.shared + w.ctx.dynamicSharedOffset'), range);
        return r;
      case 'global': {
        const decl = slot.decl;
        this.emit(
          readingStep((w, l) => {
            const p = w.ctx.globals.get(decl);
            if (p === undefined) throw new DeviceFault({ kind: 'invalid-pointer', message: `'${decl.name}' has no storage` }, range);
            w.regs[ro + l] = p;
          }, []),
          range,
        );
        return r;
      }
      case 'ref':
        return slot.reg;
      case 'reg':
        throw new LowerError('internal: a register has no address', range);
    }
  }

  private lookupVar(e: A.IdentifierExpr): Slot {
    const ref = e.ref;
    if (ref?.kind !== 'var') throw new LowerError(`the simulator cannot use '${e.name}' here`, e.range);
    const slot = this.frame.vars.get(ref.decl);
    if (slot) return slot;
    if (ref.decl.kind === 'VarDecl' && ref.decl.global) return { kind: 'global', decl: ref.decl, type: ref.decl.resolvedType ?? T.ERROR };
    throw new LowerError(`'${e.name}' is not available here`, e.range);
  }

  lv(e: A.Expr): LValue {
    switch (e.kind) {
      case 'Paren':
        return this.lv(e.inner);
      case 'Identifier': {
        const slot = this.lookupVar(e);
        if (slot.kind === 'reg') return slot;
        return { kind: 'mem', addr: this.slotAddress(slot, e.range), type: slot.type };
      }
      case 'Unary':
        if (e.op === '*') {
          const t = this.typeOf(e);
          return { kind: 'mem', addr: this.rv(e.operand), type: t };
        }
        break;
      case 'Index': {
        const bt = T.decay(this.typeOf(e.base));
        const it = T.decay(this.typeOf(e.index));
        const [ptrE, idxE] = bt.kind === 'pointer' ? [e.base, e.index] : [e.index, e.base];
        const pt = bt.kind === 'pointer' ? bt : it;
        const elem = this.subst(pt.kind === 'pointer' ? pt.to : T.ERROR);
        const size = T.sizeOf(elem);
        if (size === undefined) throw new LowerError(`the size of '${T.typeToString(elem)}' is not known`, e.range);
        const p = this.rv(ptrE);
        const i = this.rv(idxE);
        return { kind: 'mem', addr: this.ptrAdd(p, i, size, 1, e.range), type: elem };
      }
      case 'Member': {
        let base: number;
        let t: T.Type;
        if (e.arrow) {
          base = this.rv(e.object);
          const pt = T.decay(this.typeOf(e.object));
          t = pt.kind === 'pointer' ? this.subst(pt.to) : T.ERROR;
        } else {
          const obj = this.lv(e.object);
          if (obj.kind !== 'mem') throw new LowerError('internal: a member of a register value', e.range);
          base = obj.addr;
          t = obj.type;
        }
        if (t.kind === 'vector') {
          const idx = ['x', 'y', 'z', 'w'].indexOf(e.member);
          const es = T.sizeOf(t.elem) ?? 4;
          return { kind: 'mem', addr: this.offsetPointer(base, idx * es, e.range), type: T.qualified(t.elem, { const: !!t.const, volatile: !!t.volatile }) };
        }
        if (t.kind === 'struct') {
          const f = findFieldLayout(t.decl, e.member);
          if (!f) throw new LowerError(`the layout of '${t.name}' is not known`, e.range);
          return { kind: 'mem', addr: this.offsetPointer(base, f.offset, e.range), type: T.qualified(f.type, { const: !!t.const, volatile: !!t.volatile }) };
        }
        throw new LowerError(`the simulator cannot reach member '${e.member}' of '${T.typeToString(t)}'`, e.range);
      }
      case 'Assign': {
        this.assign(e);
        return this.lv(e.target);
      }
    }
    throw new LowerError('the simulator cannot use this expression as a memory location yet', e.range);
  }

  /** Reads an lvalue; `ordered` makes it a strong load with a memory order (atomic load, ld.acquire). */
  private loadLValue(lv: LValue, range: Range, ordered?: Ordered): number {
    if (lv.kind === 'reg') return lv.reg;
    const t = lv.type;
    // Arrays, structs and vectors are used through their address.
    if (isAggregate(t) || t.kind === 'array' || t.kind === 'function') return lv.addr;
    const kind = scalarKind(t);
    const strong = !!t.volatile || ordered !== undefined;
    const r = this.reg();
    const ro = r * WARP;
    const ao = lv.addr * WARP;
    if (this.accessEvents) {
      const event = accessEvent(false, scalarSize(kind), kind, strong, undefined, this.side, range, ordered);
      const step = (w: Lanes, l: number): void => {
        const address = w.regs[ao + l];
        w.regs[ro + l] = modelLoad(w, l, address, kind, strong, range, ordered);
        const listener = w.ctx.events;
        if (listener) listener(fill(event, w, l, address, undefined));
      };
      this.emitMemory(plainAccessStep(step, { write: false, reg: ro, ptr: ao, offset: 0, kind, event }), range);
      return r;
    }
    this.emitMemory(
      plainAccessStep((w, l) => {
        w.regs[ro + l] = modelLoad(w, l, w.regs[ao + l], kind, strong, range, ordered);
      }, { write: false, reg: ro, ptr: ao, offset: 0, kind }),
      range,
    );
    return r;
  }

  /** Writes an lvalue; `ordered` makes it a strong store with a memory order (atomic store, st.release). */
  private storeTo(lv: LValue, value: number, range: Range, ordered?: Ordered): void {
    if (lv.kind === 'reg') {
      this.assignReg(lv.reg, value, range);
      return;
    }
    const t = lv.type;
    const ao = lv.addr * WARP;
    const vo = value * WARP;
    if (isAggregate(t)) {
      // A struct assignment: the loads and stores a loop of scalar copies would make.
      const size = T.sizeOf(t) ?? 0;
      this.emitMemory(copyStep(lv.addr, value, () => size, { dstLocal: false, volatile: !!t.volatile, events: this.accessEvents, space: this.side, range }), range);
      return;
    }
    const kind = scalarKind(t);
    const strong = !!t.volatile || ordered !== undefined;
    if (this.accessEvents) {
      const event = accessEvent(true, scalarSize(kind), kind, strong, undefined, this.side, range, ordered);
      const step = (w: Lanes, l: number): void => {
        const address = w.regs[ao + l];
        modelStore(w, l, address, kind, w.regs[vo + l], strong, range, ordered);
        const listener = w.ctx.events;
        if (listener) listener(fill(event, w, l, address, undefined));
      };
      this.emitMemory(plainAccessStep(step, { write: true, reg: vo, ptr: ao, offset: 0, kind, event }), range);
      return;
    }
    this.emitMemory(plainAccessStep((w, l) => modelStore(w, l, w.regs[ao + l], kind, w.regs[vo + l], strong, range, ordered), { write: true, reg: vo, ptr: ao, offset: 0, kind }), range);
  }

  /** p + i * size * sign, keeping the pointer's provenance. */
  private ptrAdd(p: number, i: number, size: number, sign: 1 | -1, range: Range): number {
    const r = this.reg();
    this.emit(pureStep(r * WARP, [p * WARP, i * WARP], ([x, y], lit) => `${x} + ${y} * ${lit(size * sign)}`), range);
    return r;
  }

  private unary(e: A.UnaryExpr): number {
    switch (e.op) {
      case '&': {
        const lv = this.lv(e.operand);
        if (lv.kind === 'reg') throw new LowerError('internal: the address of a register variable', e.range);
        return lv.addr;
      }
      case '*':
        return this.loadLValue(this.lv(e), e.range);
      case '++':
      case '--':
        return this.incDec(e.operand, e.op, true, e.range);
    }
    const t = this.typeOf(e);
    const v = this.rvAs(e.operand, e.op === '!' ? T.decay(this.typeOf(e.operand)) : t);
    const r = this.reg();
    const ro = r * WARP;
    const vo = v * WARP;
    const norm = normalizer(t);
    switch (e.op) {
      case '+':
        return v;
      case '-':
        if (t.kind === 'int' && t.bits === 64) {
          const signed = t.signed;
          this.emit((w, l) => {
            const v = -unbox(w.regs[vo + l]);
            w.regs[ro + l] = box(signed ? BigInt.asIntN(64, v) : BigInt.asUintN(64, v));
          }, e.range);
          return r;
        }
        this.emit(pureStep(ro, [vo], ([x], lit) => `${lit(norm)}(-${x})`), e.range);
        return r;
      case '!':
        this.emit(pureStep(ro, [vo], ([x]) => `${x} ? 0 : 1`), e.range);
        return r;
      case '~': {
        const wide = t.kind === 'int' && t.bits === 64;
        this.emit(
          wide
            ? readingStep((w, l) => {
                w.regs[ro + l] = norm(box(~unbox(w.regs[vo + l])));
              }, [vo])
            : readingStep((w, l) => {
                w.regs[ro + l] = norm(~w.regs[vo + l]);
              }, [vo]),
          e.range,
        );
        return r;
      }
    }
  }

  private incDec(target: A.Expr, op: '++' | '--', prefix: boolean, range: Range): number {
    const at = this.typeOf(target);
    if (at.kind === 'atomic') {
      // fetch_add(1) / fetch_sub(1), seq_cst; the prefix forms yield the new value.
      const old = this.atomicRmw(at, this.atomicObjectAddress(target), op === '++' ? 'Add' : 'Sub', this.constant(1, range), undefined, 'seq_cst', range);
      return prefix ? this.arith(op === '++' ? '+' : '-', old, this.constant(1, range), at.value, range) : old;
    }
    const lv = this.lv(target);
    const t = lv.type;
    const current = this.loadLValue(lv, range);
    // Keep the old value in a register of its own: a register variable is overwritten below.
    const old = this.reg();
    this.assignReg(old, current, range);
    const r = this.reg();
    const ro = r * WARP;
    const oo = old * WARP;
    const delta = op === '++' ? 1 : -1;
    if (t.kind === 'pointer') {
      const size = T.sizeOf(this.subst(t.to)) ?? 1;
      this.emit(pureStep(ro, [oo], ([x], lit) => `${x} + ${lit(delta * size)}`), range);
    } else if (t.kind === 'int' && t.bits === 64) {
      const signed = t.signed;
      const d = BigInt(delta);
      this.emit((w, l) => {
        const v = unbox(w.regs[oo + l]) + d;
        w.regs[ro + l] = box(signed ? BigInt.asIntN(64, v) : BigInt.asUintN(64, v));
      }, range);
    } else {
      const wrap = intWrap(t);
      this.emit(pureStep(ro, [oo], ([x], lit) => (wrap ? wrap([`(${x} + ${lit(delta)})`], lit) : `${lit(normalizer(t))}(${x} + ${lit(delta)})`)), range);
    }
    this.storeTo(lv, r, range);
    return prefix ? r : old;
  }

  private binary(e: A.BinaryExpr): number {
    const op = e.op;
    if (op === '&&' || op === '||') {
      const r = this.reg();
      const ro = r * WARP;
      const a = this.cond(e.left);
      const ao = a * WARP;
      this.emit(pureStep(ro, [ao], ([x]) => x), e.left.range);
      const rhs = this.newBlock();
      const join = this.newBlock();
      this.terminate(op === '&&' ? { kind: 'branch', cond: a, then: rhs.id, else: join.id } : { kind: 'branch', cond: a, then: join.id, else: rhs.id }, rhs);
      const b = this.cond(e.right);
      this.assignReg(r, b, e.right.range);
      this.jump(join);
      this.cur = join;
      return r;
    }
    if (op === ',') {
      this.rv(e.left);
      return this.rv(e.right);
    }
    const lt = T.decay(this.typeOf(e.left));
    const rt = T.decay(this.typeOf(e.right));
    // Pointer arithmetic and comparisons.
    if (lt.kind === 'pointer' || rt.kind === 'pointer') {
      const a = this.rv(e.left);
      const b = this.rv(e.right);
      if ((op === '+' || op === '-') && lt.kind === 'pointer' && rt.kind !== 'pointer') return this.ptrAdd(a, b, T.sizeOf(this.subst(lt.to)) ?? 1, op === '+' ? 1 : -1, e.range);
      if (op === '+' && rt.kind === 'pointer') return this.ptrAdd(b, a, T.sizeOf(this.subst(rt.to)) ?? 1, 1, e.range);
      const r = this.reg();
      const ro = r * WARP;
      const ao = a * WARP;
      const bo = b * WARP;
      if (op === '-') {
        const size = lt.kind === 'pointer' ? T.sizeOf(this.subst(lt.to)) ?? 1 : 1;
        this.emit(pureStep(ro, [ao, bo], ([x, y], lit) => `Math.trunc((${x} - ${y}) / ${lit(size)})`), e.range);
        return r;
      }
      const cmp = comparison(op);
      this.emit(pureStep(ro, [ao, bo], ([x, y], lit) => `${lit(cmp)}(${x}, ${y}) ? 1 : 0`), e.range);
      return r;
    }
    const isCompare = ['<', '>', '<=', '>=', '==', '!='].includes(op);
    const opType = isCompare ? T.usualArithmetic(lt, rt) : op === '<<' || op === '>>' ? T.integerPromotion(lt) : this.typeOf(e);
    const a = this.rvAs(e.left, opType);
    const b = this.rvAs(e.right, op === '<<' || op === '>>' ? T.integerPromotion(rt) : opType);
    return this.arith(op, a, b, opType, e.range);
  }

  /** `a op b` in type `t` (both already converted to it). */
  private arith(op: string, a: number, b: number, t: T.Type, range: Range): number {
    const r = this.reg();
    const ro = r * WARP;
    const ao = a * WARP;
    const bo = b * WARP;
    const fast = fastArithmetic(op, t, ro, ao, bo);
    if (fast) {
      this.emit(fast, range);
      return r;
    }
    const k = this.constants.get(b);
    const byConstant = k === undefined ? undefined : int32ByConstant(op, t, k);
    if (byConstant) {
      this.emit(pureStep(ro, [ao], ([x], lit) => byConstant(x, lit(k))), range);
      return r;
    }
    const f = arithmetic(op, t, range);
    this.emit(
      readingStep((w, l) => {
        w.regs[ro + l] = f(w.regs[ao + l], w.regs[bo + l], w);
      }, [ao, bo]),
      range,
    );
    return r;
  }

  private assign(e: A.AssignExpr): number {
    const at = this.typeOf(e.target);
    if (at.kind === 'atomic') return this.atomicAssign(e, at);
    const lv = this.lv(e.target);
    const t = lv.type;
    if (e.op === '=') {
      if (e.value.kind === 'InitList' && lv.kind === 'mem') {
        this.initialize(lv, e.value);
        return lv.addr;
      }
      const v = this.rvAs(e.value, t);
      this.storeTo(lv, v, e.range);
      return v;
    }
    const op = e.op.slice(0, -1);
    const old = this.loadLValue(lv, e.range);
    let result: number;
    if (t.kind === 'pointer') {
      const i = this.rv(e.value);
      result = this.ptrAdd(old, i, T.sizeOf(this.subst(t.to)) ?? 1, op === '+' ? 1 : -1, e.range);
    } else {
      const vt = T.decay(this.typeOf(e.value));
      const opType = op === '<<' || op === '>>' ? T.integerPromotion(t) : T.usualArithmetic(t, vt);
      const a = this.convert(old, t, opType, e.range);
      const b = this.rvAs(e.value, op === '<<' || op === '>>' ? T.integerPromotion(vt) : opType);
      result = this.convert(this.arith(op, a, b, opType, e.range), opType, t, e.range);
    }
    this.storeTo(lv, result, e.range);
    return result;
  }

  private construct(e: A.ConstructExpr): number {
    const t = this.subst(e.resolvedTarget ?? T.ERROR);
    if (!isAggregate(t)) {
      if (e.args.length === 0) return this.constant(0, e.range);
      return this.convert(this.rv(e.args[0]), T.decay(this.typeOf(e.args[0])), t, e.range);
    }
    const size = T.sizeOf(t) ?? 0;
    const off = this.frameSlot(size, T.alignOf(t));
    const addr = this.slotAddress({ kind: 'frame', offset: off, type: t }, e.range);
    if (t.kind === 'vector') {
      const es = T.sizeOf(t.elem) ?? 4;
      for (let i = 0; i < t.count; i++) {
        // dim3's missing components default to 1; other vectors' to 0.
        const v = i < e.args.length ? this.rvAs(e.args[i], t.elem) : this.constant(t.name === 'dim3' ? 1 : 0, e.range);
        this.storeTo({ kind: 'mem', addr: this.offsetPointer(addr, i * es, e.range), type: t.elem }, v, e.range);
      }
      return addr;
    }
    this.initialize({ kind: 'mem', addr, type: t }, { kind: 'InitList', range: e.range, elements: e.args.map((value) => ({ designators: [], value })) });
    return addr;
  }

  // -------------------------------------------------------------------------------------------
  // Calls

  private call(e: A.CallExpr): number {
    if (e.callee.kind === 'Member') {
      const at = this.memberAtomic(e.callee);
      if (at) return this.atomicMethod(e, e.callee, at);
    }
    if (e.callee.kind === 'Identifier' && e.callee.ref?.kind === 'builtin' && e.callee.qualifier?.startsWith('cuda')) return this.libcuFence(e);
    const callee = e.callee.kind === 'Paren' ? e.callee.inner : e.callee;
    if (callee.kind !== 'Identifier' || callee.ref?.kind !== 'function') throw new LowerError('the simulator cannot call through a function pointer yet', e.range);
    const decl = callee.ref.decl;
    if (decl.range.file === PRELUDE_FILE) return this.builtinCall(callee.name, e);
    return this.inline(decl, e.instantiation, e.args, e.range, this.typeOf(e));
  }

  /** Inlines a call of a user function: arguments by value, `return` jumps to the continuation. */
  private inline(decl: A.FunctionDecl, inst: A.TemplateInstantiation | undefined, args: A.Expr[], range: Range, callType: T.Type): number {
    if (this.frames.length > MAX_INLINE_DEPTH) throw new LowerError(`the simulator cannot run recursion yet ('${decl.name}' calls itself)`, range);
    let body = decl.body;
    let paramTypes = decl.params.map((p) => p.resolvedType ?? T.ERROR);
    let returnType = callType;
    let bindings: InlineFrame['bindings'];
    if (decl.template) {
      const found = inst?.key ? this.program.instantiations.get(inst.key) : undefined;
      if (!found) throw new LowerError(`the simulator cannot tell which instance of '${decl.name}' this call uses`, range);
      body = found.body;
      paramTypes = found.paramTypes;
      returnType = found.returnType;
      bindings = found.bindings;
    }
    if (!body) throw new LowerError(`'${decl.name}' is declared but never defined`, range);
    this.scanAddressTaken(body);
    const vars = new Map<object, Slot>();
    // Arguments are evaluated in the caller's frame, then bound to the callee's parameters.
    const values = args.map((a, i) => this.rvAs(a, paramTypes[i] ?? T.ERROR));
    decl.params.forEach((p, i) => {
      const t = paramTypes[i];
      const value = values[i] ?? this.rv(p.defaultValue ?? ({ kind: 'IntLiteral', range, value: 0, exact: '0', unsigned: false, longness: 0 } as A.IntLiteral));
      if (p.type.kind === 'ReferenceType') {
        const lv = this.lv(args[i]);
        // The slot has the type of the object the reference names (a `int &` parameter is an int).
        const named = T.stripReference(t);
        vars.set(p, lv.kind === 'reg' ? { kind: 'reg', reg: lv.reg, type: named } : { kind: 'ref', reg: lv.addr, type: named });
      } else if (this.needsMemory(p, t)) {
        const size = T.sizeOf(t) ?? 8;
        const off = this.frameSlot(size, T.alignOf(t));
        const slot: Slot = { kind: 'frame', offset: off, type: t };
        this.storeTo({ kind: 'mem', addr: this.slotAddress(slot, range), type: t }, value, range);
        vars.set(p, slot);
      } else {
        const r = this.reg();
        this.assignReg(r, value, range);
        vars.set(p, { kind: 'reg', reg: r, type: t });
      }
    });
    const returnBlock = this.newBlock();
    let returnReg: number | undefined;
    if (returnType.kind !== 'void') {
      returnReg = this.reg();
      if (isAggregate(returnType)) {
        const size = T.sizeOf(returnType) ?? 0;
        const off = this.frameSlot(size, T.alignOf(returnType));
        const a = this.slotAddress({ kind: 'frame', offset: off, type: returnType }, range);
        this.assignReg(returnReg, a, range);
      }
    }
    this.frames.push({ vars, bindings, returnBlock, ...(returnReg !== undefined ? { returnReg } : {}), returnType, decl });
    const savedLoops = this.loops.splice(0);
    for (const s of body.body) this.stmt(s);
    this.loops.push(...savedLoops);
    this.frames.pop();
    this.jump(returnBlock);
    this.cur = returnBlock;
    return returnReg ?? this.constant(0, range);
  }

  private launch(e: A.LaunchExpr): number {
    if (this.side !== 'host') throw new LowerError('the simulator cannot launch kernels from device code (dynamic parallelism)', e.range);
    const callee = e.kernel.kind === 'Identifier' && e.kernel.ref?.kind === 'function' ? e.kernel.ref.decl : undefined;
    if (!callee) throw new LowerError('the simulator cannot tell which kernel this launch runs', e.range);
    const kernel = this.program.kernel(callee, e.instantiation, e.range);
    const dims = e.config.slice(0, 2).map((c) => ({ v: this.rv(c), t: T.decay(this.typeOf(c)) }));
    const shmem = e.config[2] ? this.rv(e.config[2]) : undefined;
    const args = e.args.map((a, i) => this.rvAs(a, kernel.paramTypes[i] ?? T.ERROR));
    const range = e.range;
    // Arguments are passed by value: a struct argument is copied to device memory, as the
    // launch copies kernel parameters to the GPU.
    const aggregateSizes = kernel.paramTypes.map((t) => (isAggregate(t) ? T.sizeOf(t) ?? 0 : undefined));
    this.emit((w, l) => {
      const dim = (d: { v: number; t: T.Type }): [number, number, number] => {
        const x = w.regs[d.v * WARP + l];
        if (d.t.kind !== 'vector') return [x, 1, 1];
        return [load(w.ctx, x, 'u32', range), load(w.ctx, x + 4, 'u32', range), load(w.ctx, x + 8, 'u32', range)];
      };
      w.ctx.launch!({
        kernel,
        grid: dim(dims[0]),
        block: dim(dims[1]),
        dynamicShared: shmem === undefined ? 0 : w.regs[shmem * WARP + l],
        args: args.map((a, i) => {
          const v = w.regs[a * WARP + l];
          const size = aggregateSizes[i];
          if (size === undefined) return v;
          const copy = w.ctx.memory.allocate('global', size, { label: `argument ${i + 1} of ${kernel.name}`, origin: range });
          const ctx = w.ctx;
          for (let b = 0; b < size; b++) {
            // Read on the host side, write as the launch does (into device memory).
            const byte = load(ctx, v + b, 'u8', range);
            const dst = ctx.memory.allocation(Math.floor(copy / 2 ** 32))!;
            dst.bytes[b] = byte;
          }
          return copy;
        }),
        range,
      });
    }, e.range);
    return this.constant(0, e.range);
  }

  private builtinCall(name: string, e: A.CallExpr): number {
    const range = e.range;
    const argRegs = (): number[] => e.args.map((a) => this.rv(a));
    const result = this.reg();
    const ro = result * WARP;
    const resultType = this.typeOf(e);
    const math = MATH[name];
    if (math) {
      const regs = e.args.map((a) => this.rvAs(a, T.DOUBLE));
      const norm = normalizer(resultType.kind === 'error' ? T.DOUBLE : resultType);
      const os = regs.map((r) => r * WARP);
      this.emit(pureStep(ro, os, (xs, lit) => `${lit(norm)}(${lit(math)}(${xs.join(', ')}))`), range);
      return result;
    }
    if (/^make_[a-z]+[1-4]$/.test(name) && resultType.kind === 'vector') {
      return this.construct({ kind: 'Construct', range, target: { kind: 'NamedType', range, name: resultType.name, qualifiers: [] }, args: e.args, braces: true, resolvedTarget: resultType });
    }
    const gcc = /^__sync_(fetch_and_(add|sub|or|and|xor)|val_compare_and_swap|lock_test_and_set)$/.exec(name);
    if (gcc) {
      // GCC's host atomics, as system-scope RMW operations returning the old value.
      const op = gcc[2] ? { add: 'Add', sub: 'Sub', or: 'Or', and: 'And', xor: 'Xor' }[gcc[2]]! : gcc[1] === 'val_compare_and_swap' ? 'CAS' : 'Exch';
      return this.atomic(op, e, result, 'system');
    }
    if (name === '__builtin_expect') return this.rv(e.args[0]);
    if (name === '__sync_synchronize') return result;
    if (/^__st(cg|wb|cs|wt)$/.test(name)) {
      const pt = T.decay(this.typeOf(e.args[0]));
      const elem = pt.kind === 'pointer' ? this.subst(pt.to) : T.INT;
      this.storeTo({ kind: 'mem', addr: this.rv(e.args[0]), type: elem }, this.rvAs(e.args[1], elem), range);
      return result;
    }
    const atomic = /^atomic(Add|Sub|Exch|Min|Max|Inc|Dec|CAS|And|Or|Xor)(_block|_system)?$/.exec(name);
    if (atomic) return this.atomic(atomic[1], e, result, atomic[2] === '_block' ? 'block' : atomic[2] === '_system' ? 'system' : 'device');
    switch (name) {
      case '__syncthreads':
      case '__syncthreads_count':
      case '__syncthreads_and':
      case '__syncthreads_or': {
        const next = this.newBlock();
        const reduce = name === '__syncthreads' ? undefined : (name.slice('__syncthreads_'.length) as 'count' | 'and' | 'or');
        const pred = reduce ? this.cond(e.args[0]) : undefined;
        this.terminate({ kind: 'barrier', to: next.id, range, ...(reduce ? { reduce, pred: pred!, dst: result } : {}) }, next);
        return result;
      }
      case '__threadfence':
      case '__threadfence_block':
      case '__threadfence_system':
        this.fence(name === '__threadfence_block' ? 'block' : name === '__threadfence_system' ? 'system' : 'device', 'seq_cst', range);
        return result;
      case '__syncwarp': {
        const mask = e.args[0] ? this.rv(e.args[0]) : this.constant(0xffffffff, range);
        const sync = this.program.events ? (w: Lanes) => w.ctx.events?.({ kind: 'warp-sync', block: w.ctx.blockLinear, warp: w.warp, range }) : () => undefined;
        return this.collective(range, sync, result, mask, true);
      }
      case '__activemask':
        return this.collective(range, (w, lanes) => {
          const m = lanes.reduce((acc, l) => (acc | (1 << l)) >>> 0, 0);
          for (const l of lanes) w.regs[ro + l] = m;
        }, result);
      case '__ballot_sync':
      case '__any_sync':
      case '__all_sync': {
        const [m, p] = argRegs();
        const po = p * WARP;
        return this.collective(range, (w, lanes) => {
          let ballot = 0;
          for (const l of lanes) if (w.regs[po + l]) ballot = (ballot | (1 << l)) >>> 0;
          const v = name === '__ballot_sync' ? ballot : name === '__any_sync' ? +(ballot !== 0) : +lanes.every((l) => w.regs[po + l]);
          for (const l of lanes) w.regs[ro + l] = v;
        }, result, m);
      }
      case '__shfl_sync':
      case '__shfl_up_sync':
      case '__shfl_down_sync':
      case '__shfl_xor_sync': {
        const regs = argRegs();
        const vo = regs[1] * WARP;
        const so = regs[2] * WARP;
        const wo = regs[3] !== undefined ? regs[3] * WARP : undefined;
        return this.collective(range, (w, lanes) => {
          const values = new Float64Array(WARP);
          for (let l = 0; l < WARP; l++) values[l] = w.regs[vo + l];
          for (const l of lanes) {
            const width = wo !== undefined ? w.regs[wo + l] : WARP;
            const s = w.regs[so + l];
            const base = l - (l % width);
            let src: number;
            if (name === '__shfl_sync') src = base + (((s % width) + width) % width);
            else if (name === '__shfl_up_sync') src = l - s < base ? l : l - s;
            else if (name === '__shfl_down_sync') src = l + s >= base + width ? l : l + s;
            else src = (l ^ s) >= base + width ? l : l ^ s;
            w.regs[ro + l] = values[src];
          }
        }, result, regs[0]);
      }
      case '__ldg':
      case '__ldcg':
      case '__ldca':
      case '__ldcs':
      case '__ldlu':
      case '__ldcv': {
        const [p] = argRegs();
        const po = p * WARP;
        const kind = scalarKind(resultType);
        this.emit((w, l) => {
          w.regs[ro + l] = load(w.ctx, w.regs[po + l], kind, range);
        }, range);
        return result;
      }
      case 'printf':
      case 'fprintf':
        return this.printf(name, e, result);
      case 'malloc':
      case 'calloc': {
        const regs = e.args.map((a) => this.rvAs(a, T.SIZE_T));
        const os = regs.map((r) => r * WARP);
        const space = this.side === 'host' ? 'host' : 'global';
        this.emit((w, l) => {
          const n = name === 'calloc' ? w.regs[os[0] + l] * w.regs[os[1] + l] : w.regs[os[0] + l];
          // Beyond the run's memory, malloc returns NULL as on a machine without that memory.
          w.regs[ro + l] = w.ctx.memory.account.fits(n) ? w.ctx.memory.allocate(space, n, { label: `${name}(${n})`, origin: range }) : 0;
        }, range);
        return result;
      }
      case 'free': {
        const [p] = argRegs();
        const po = p * WARP;
        this.emit((w, l) => {
          const fault = w.ctx.memory.free(w.regs[po + l], this.side === 'host' ? 'host' : 'device');
          if (fault) throw new DeviceFault(fault, range);
        }, range);
        return result;
      }
      case 'memset': {
        const [p, v, n] = argRegs();
        const no = n * WARP;
        this.emitMemory(setStep(p, v, (w, l) => w.regs[no + l], { dstLocal: false, volatile: false, events: this.accessEvents, space: this.side, range }), range);
        const po = p * WARP;
        this.emit((w, l) => (w.regs[ro + l] = w.regs[po + l]), range);
        return result;
      }
      case 'memcpy': {
        const [d, s, n] = argRegs();
        const no = n * WARP;
        this.emitMemory(copyStep(d, s, (w, l) => w.regs[no + l], { dstLocal: false, volatile: false, events: this.accessEvents, space: this.side, range }), range);
        const dO = d * WARP;
        this.emit((w, l) => (w.regs[ro + l] = w.regs[dO + l]), range);
        return result;
      }
      case 'assert': {
        const c = this.cond(e.args[0]);
        const co = c * WARP;
        this.emit((w, l) => {
          if (!w.regs[co + l]) throw new DeviceFault({ kind: 'assertion-failed', message: 'assertion failed' }, range);
        }, range);
        return result;
      }
      case 'exit': {
        const [c] = argRegs();
        const co = c * WARP;
        this.emit((w, l) => {
          throw new ProgramExit(w.regs[co + l]);
        }, range);
        return result;
      }
      case 'cudaMalloc':
      case 'cudaMallocAsync':
      case 'cudaMallocManaged':
      case 'cudaMallocHost':
      case 'cudaHostAlloc': {
        const [pp, n] = argRegs().map((r) => r * WARP);
        const label = exprLabel(e.args[0]);
        const element = mallocElementType(e.args[0], (x) => this.typeOf(x));
        const layout = element ? [{ name: label, offset: 0, type: element, unbounded: true }] : undefined;
        // Pinned host memory is reachable from the device too: model it as managed memory.
        const space = name === 'cudaMalloc' || name === 'cudaMallocAsync' ? 'global' : 'managed';
        this.emit((w, l) => {
          const r = w.ctx.runtime.malloc(w.regs[n + l], label, range, space, layout);
          if (r.error === 0) store(w.ctx, w.regs[pp + l], 'u64', r.pointer, range);
          w.regs[ro + l] = r.error;
        }, range);
        return result;
      }
      case 'cudaFree':
      case 'cudaFreeHost':
      case 'cudaFreeAsync': {
        const [p] = argRegs().map((r) => r * WARP);
        this.emit((w, l) => {
          w.regs[ro + l] = w.ctx.runtime.free(w.regs[p + l], range);
        }, range);
        return result;
      }
      case 'cudaMemcpy':
      case 'cudaMemcpyAsync': {
        // Streams run in order and kernels finish at launch: an async copy is a copy.
        const [d, s, n, k] = argRegs().map((r) => r * WARP);
        this.emit((w, l) => {
          w.regs[ro + l] = w.ctx.runtime.memcpy(w.regs[d + l], w.regs[s + l], w.regs[n + l], w.regs[k + l], range);
        }, range);
        return result;
      }
      case 'cudaMemset':
      case 'cudaMemsetAsync': {
        const [d, v, n] = argRegs().map((r) => r * WARP);
        this.emit((w, l) => {
          w.regs[ro + l] = w.ctx.runtime.memset(w.regs[d + l], w.regs[v + l], w.regs[n + l], range);
        }, range);
        return result;
      }
      case 'cudaMemcpyToSymbol':
      case 'cudaMemcpyFromSymbol': {
        const toSymbol = name === 'cudaMemcpyToSymbol';
        const symIndex = toSymbol ? 0 : 1;
        const sym = this.lv(e.args[symIndex]);
        if (sym.kind !== 'mem') throw new LowerError('the symbol must be a __device__ or __constant__ variable', e.args[symIndex].range);
        const other = this.rv(e.args[toSymbol ? 1 : 0]) * WARP;
        const n = this.rv(e.args[2]) * WARP;
        const off = e.args[3] ? this.rv(e.args[3]) * WARP : undefined;
        const so = sym.addr * WARP;
        this.emit((w, l) => {
          const symbol = w.regs[so + l] + (off === undefined ? 0 : w.regs[off + l]);
          const [dst, src] = toSymbol ? [symbol, w.regs[other + l]] : [w.regs[other + l], symbol];
          w.regs[ro + l] = w.ctx.runtime.memcpy(dst, src, w.regs[n + l], 4, range, name);
        }, range);
        return result;
      }
      case 'cudaHostGetDevicePointer':
        return this.answer(argRegs(), result, range, (_w, arg) => [[arg(0), 'u64', arg(1)]]);
      case 'cudaMemcpyToSymbolAsync':
      case 'cudaMemcpyFromSymbolAsync':
        return this.builtinCall(name.replace('Async', ''), { ...e, args: e.args.slice(0, 4) });
      case 'cudaStreamCreate':
      case 'cudaStreamCreateWithFlags':
      case 'cudaEventCreate':
      case 'cudaEventCreateWithFlags': {
        // Streams and events are handles; each gets a small allocation of its own.
        const what = name.includes('Stream') ? 'stream' : 'event';
        return this.answer(argRegs(), result, range, (w, arg) => [[arg(0), 'u64', w.ctx.memory.allocate('host', 8, { label: what, origin: range })]]);
      }
      case 'cudaEventElapsedTime':
        // There is no wall clock on a simulated GPU; elapsed time is reported as 0 ms.
        return this.answer(argRegs(), result, range, (_w, arg) => [[arg(0), 'f32', 0]]);
      case 'cudaGetDeviceProperties':
        return this.deviceProperties(e, result);
      case 'cudaDeviceGetAttribute': {
        // The runtime's answer (sims/runtime/deviceProperties.ts), as on the clang path.
        const [out, attr, dev] = argRegs().map((r) => r * WARP);
        this.emit((w, l) => {
          const value = w.regs[dev + l] === 0 ? deviceAttribute(w.ctx.device, w.ctx.runtime.memoryLimit, w.regs[attr + l]) : undefined;
          if (value !== undefined) store(w.ctx, w.regs[out + l], 'i32', value, range);
          w.regs[ro + l] = value !== undefined ? 0 : w.ctx.runtime.status(w.regs[dev + l] === 0 ? 'cudaErrorInvalidValue' : 'cudaErrorInvalidDevice');
        }, range);
        return result;
      }
      case 'cudaGetDeviceCount':
      case 'cudaGetDevice':
      case 'cudaRuntimeGetVersion':
      case 'cudaDriverGetVersion': {
        const value = name === 'cudaGetDeviceCount' ? 1 : name === 'cudaGetDevice' ? 0 : 12000;
        return this.answer(argRegs(), result, range, (_w, arg) => [[arg(0), 'i32', value]]);
      }
      case 'cudaMemGetInfo':
        return this.answer(argRegs(), result, range, (w, arg) => {
          const { free, total } = w.ctx.runtime.memInfo();
          return [[arg(0), 'u64', free], [arg(1), 'u64', total]];
        });
      case 'cudaOccupancyMaxActiveBlocksPerMultiprocessor':
        return this.answer(argRegs(), result, range, (w, arg) => [[arg(0), 'i32', occupancy(w.ctx.device, arg(2), arg(3))?.blocksPerSM ?? 0]]);
      case 'cudaFuncGetAttributes':
        // maxThreadsPerBlock sits after three size_t fields.
        return this.answer(argRegs(), result, range, (w, arg) => [[arg(0) + 24, 'i32', w.ctx.device.maxThreadsPerBlock]]);
      case 'cudaDeviceGetLimit': {
        const [out, limit] = argRegs().map((r) => r * WARP);
        this.emit((w, l) => {
          const value = w.ctx.runtime.limit(w.regs[limit + l]);
          if (value !== undefined) store(w.ctx, w.regs[out + l], 'u64', value, range);
          w.regs[ro + l] = w.ctx.runtime.status(value === undefined ? 'cudaErrorInvalidValue' : 'cudaSuccess');
        }, range);
        return result;
      }
      case 'cudaDeviceSetLimit': {
        const [limit, value] = argRegs().map((r) => r * WARP);
        this.emit((w, l) => {
          w.regs[ro + l] = w.ctx.runtime.status(w.ctx.runtime.setLimit(w.regs[limit + l], w.regs[value + l]) ? 'cudaSuccess' : 'cudaErrorInvalidValue');
        }, range);
        return result;
      }
      case 'cudaSetDevice':
      case 'cudaSetDeviceFlags':
      case 'cudaStreamDestroy':
      case 'cudaStreamSynchronize':
      case 'cudaStreamQuery':
      case 'cudaStreamWaitEvent':
      case 'cudaEventDestroy':
      case 'cudaEventRecord':
      case 'cudaEventSynchronize':
      case 'cudaEventQuery':
      case 'cudaFuncSetCacheConfig':
      case 'cudaProfilerStart':
      case 'cudaProfilerStop':
      case 'cudaHostRegister':
      case 'cudaHostUnregister':
      case 'cudaDeviceCanAccessPeer':
      case 'cudaDeviceEnablePeerAccess':
        // Everything is synchronous and in order on one simulated device: nothing to wait for;
        // a broken context (a kernel faulted) answers with its sticky error.
        argRegs();
        this.emit((w, l) => {
          w.regs[ro + l] = w.ctx.runtime.status('cudaSuccess');
        }, range);
        return result;
      case 'cudaDeviceSynchronize':
      case 'cudaThreadSynchronize':
      case 'cudaDeviceReset':
        this.emit((w, l) => {
          w.regs[ro + l] = w.ctx.runtime.status('cudaSuccess');
        }, range);
        return result;
      case 'cudaGetLastError':
        this.emit((w, l) => {
          w.regs[ro + l] = w.ctx.runtime.getLastError();
        }, range);
        return result;
      case 'cudaPeekAtLastError':
        this.emit((w, l) => {
          w.regs[ro + l] = w.ctx.runtime.peekAtLastError();
        }, range);
        return result;
      case 'cudaGetErrorString': {
        const [c] = argRegs().map((r) => r * WARP);
        this.emit((w, l) => {
          w.regs[ro + l] = this.program.stringLiteral(cudaErrorString(w.regs[c + l]), 'host');
        }, range);
        return result;
      }
      case 'clock':
      case 'clock64': {
        this.emit((w, l) => {
          w.regs[ro + l] = w.ctx.runtime.deviceClock(4);
        }, range);
        return result;
      }
      case 'strlen': {
        const [p] = argRegs().map((r) => r * WARP);
        this.emit((w, l) => {
          w.regs[ro + l] = readCString(w.ctx, w.regs[p + l], range).length;
        }, range);
        return result;
      }
      case 'strcmp':
      case 'strncmp':
      case 'memcmp': {
        const [a2, b2, n] = argRegs().map((r) => r * WARP);
        this.emit((w, l) => {
          const limit = n === undefined ? Infinity : w.regs[n + l];
          let d = 0;
          for (let i = 0; i < limit; i++) {
            const x = load(w.ctx, w.regs[a2 + l] + i, 'u8', range);
            const y = load(w.ctx, w.regs[b2 + l] + i, 'u8', range);
            d = x - y;
            if (d !== 0 || (name !== 'memcmp' && x === 0)) break;
          }
          w.regs[ro + l] = d;
        }, range);
        return result;
      }
      case 'strcpy':
      case 'strncpy': {
        const [d, s2, n] = argRegs().map((r) => r * WARP);
        this.emit((w, l) => {
          const text = readCString(w.ctx, w.regs[s2 + l], range);
          const limit = n === undefined ? text.length + 1 : w.regs[n + l];
          for (let i = 0; i < limit; i++) store(w.ctx, w.regs[d + l] + i, 'u8', i < text.length ? text.charCodeAt(i) : 0, range);
          w.regs[ro + l] = w.regs[d + l];
        }, range);
        return result;
      }
      case 'atoi':
      case 'atol':
      case 'atof':
      case 'strtol': {
        const regs = argRegs().map((r) => r * WARP);
        this.emit((w, l) => {
          const text = readCString(w.ctx, w.regs[regs[0] + l], range).trim();
          const base = name === 'strtol' ? w.regs[regs[2] + l] || 10 : 10;
          const v = name === 'atof' ? parseFloat(text) : parseInt(text, base);
          w.regs[ro + l] = Number.isNaN(v) ? 0 : v;
        }, range);
        return result;
      }
      case 'putchar': {
        const [c] = argRegs().map((r) => r * WARP);
        this.emit((w, l) => {
          w.ctx.runtime.print('stdout', String.fromCharCode(w.regs[c + l] & 0xff));
          w.regs[ro + l] = w.regs[c + l];
        }, range);
        return result;
      }
      case 'fflush':
      case 'time':
        argRegs();
        this.emit((w, l) => {
          w.regs[ro + l] = 0;
        }, range);
        return result;
      case 'abort':
        this.emit(() => {
          throw new ProgramExit(134);
        }, range);
        return result;
      case 'realloc': {
        const [p, n] = argRegs().map((r) => r * WARP);
        this.emit((w, l) => {
          const old = w.regs[p + l];
          const size = w.regs[n + l];
          if (!w.ctx.memory.account.fits(size)) {
            // realloc that cannot grow returns NULL and leaves the old block alone.
            w.regs[ro + l] = 0;
            return;
          }
          const fresh = w.ctx.memory.allocate('host', size, { label: `realloc(${size})`, origin: range });
          if (old !== 0) {
            const a = w.ctx.memory.allocation(Math.floor(old / 2 ** 32));
            if (a) copyBytes(w.ctx, fresh, old, Math.min(a.size, size), range);
            w.ctx.memory.free(old, 'host');
          }
          w.regs[ro + l] = fresh;
        }, range);
        return result;
      }
      case 'sprintf':
      case 'snprintf':
        return this.printf(name, e, result);
      case 'puts': {
        const [s] = argRegs().map((r) => r * WARP);
        this.emit((w, l) => w.ctx.runtime.print('stdout', readCString(w.ctx, w.regs[s + l], range) + '\n'), range);
        return result;
      }
      case 'srand':
        argRegs();
        return result;
      case 'rand': {
        let state = 1;
        this.emit((w, l) => {
          state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
          w.regs[ro + l] = state;
        }, range);
        return result;
      }
    }
    throw new LowerError(`the simulator does not implement '${name}' yet`, range);
  }

  /** cudaGetDeviceProperties: the fields programs read, from the device preset. */
  private deviceProperties(e: A.CallExpr, result: number): number {
    const range = e.range;
    const propType = this.typeOf(e.args[0]);
    const decl = propType.kind === 'pointer' && propType.to.kind === 'struct' ? propType.to.decl : undefined;
    const layout = decl ? T.structLayout(decl) : undefined;
    if (!layout) throw new LowerError('cudaGetDeviceProperties needs a cudaDeviceProp', range);
    const p = this.rv(e.args[0]) * WARP;
    const ro = result * WARP;
    this.emit((w, l) => {
      // The runtime's answers (sims/runtime/deviceProperties.ts), as on the clang path, into the
      // fields this program's cudaDeviceProp declares.
      const base = w.regs[p + l];
      // Fields the runtime does not name are 0, as it writes them on the clang path.
      for (let i = 0; i < layout.size; i++) store(w.ctx, base + i, 'u8', 0, range);
      const values = deviceProperties(w.ctx.device, w.ctx.runtime.memoryLimit);
      for (const f of layout.fields) {
        const v = values[f.name];
        if (v === undefined) continue;
        const elem = f.type.kind === 'array' ? f.type.of : f.type;
        if (typeof v === 'string') {
          // The name, cut to leave its terminating NUL.
          const size = T.sizeOf(f.type) ?? 0;
          for (let i = 0; i < Math.min(v.length, size - 1); i++) store(w.ctx, base + f.offset + i, 'u8', v.charCodeAt(i), range);
        } else if (Array.isArray(v)) {
          const step = T.sizeOf(elem) ?? 4;
          v.forEach((x, i) => store(w.ctx, base + f.offset + step * i, scalarKind(elem), x, range));
        } else store(w.ctx, base + f.offset, scalarKind(elem), v, range);
      }
      w.regs[ro + l] = 0;
    }, range);
    return result;
  }

  /**
   * A runtime call that answers through pointer arguments and returns cudaSuccess: `writes`
   * gives [address, kind, value] for each answer, from the lane's argument values.
   */
  private answer(args: number[], result: number, range: Range, writes: (w: Lanes, arg: (i: number) => number) => [number, ScalarKind, number][]): number {
    const offsets = args.map((r) => r * WARP);
    const ro = result * WARP;
    this.emit((w, l) => {
      for (const [address, kind, value] of writes(w, (i) => w.regs[offsets[i] + l])) store(w.ctx, address, kind, value, range);
      w.regs[ro + l] = 0;
    }, range);
    return result;
  }

  private collective(range: Range, run: (w: Lanes, lanes: number[]) => void, result: number, mask?: number, anySite = false): number {
    const next = this.newBlock();
    this.terminate({ kind: 'collective', to: next.id, range, run, ...(mask !== undefined ? { mask } : {}), ...(anySite ? { anySite } : {}) }, next);
    return result;
  }

  // -------------------------------------------------------------------------------------------
  // libcu++ atomics (cuda::atomic, cuda::atomic_ref, atomic_thread_fence) and inline PTX.
  // They lower to the same load, store, read-modify-write and fence steps as everything else,
  // with the memory order they name; thread-scope ones are plain accesses.

  /** The atomic type whose member `m` names (`a.load`, `p->store`), if it is one. */
  private memberAtomic(m: A.MemberExpr): AtomicType | undefined {
    let t = this.typeOf(m.object);
    if (m.arrow) {
      const p = T.decay(t);
      t = p.kind === 'pointer' ? this.subst(p.to) : T.ERROR;
    }
    return isAtomicObject(t) ? t : undefined;
  }

  /** The address of the value an atomic-typed expression names (for an atomic_ref, the one it refers to). */
  private atomicObjectAddress(e: A.Expr): number {
    if (e.kind === 'Paren') return this.atomicObjectAddress(e.inner);
    const t = this.typeOf(e);
    if (isAtomicObject(t) && t.ref) {
      if (e.kind === 'Construct') return this.boundAddress(e.args[0]);
      // The atomic_ref itself holds the address.
      return this.loadLValue(this.lv(e), e.range);
    }
    const lv = this.lv(e);
    if (lv.kind !== 'mem') throw new LowerError('internal: an atomic object without an address', e.range);
    return lv.addr;
  }

  /** The address an atomic_ref made from `e` refers to: `e`'s own, or that of the atomic_ref `e` is. */
  private boundAddress(e: A.Expr): number {
    if (isAtomicObject(this.typeOf(e))) return this.atomicObjectAddress(e);
    const lv = this.lv(e);
    if (lv.kind !== 'mem') throw new LowerError('the simulator needs the object of an atomic_ref to be in memory', e.range);
    return lv.addr;
  }

  /** The implicit conversion of an atomic object to its value: load(seq_cst). */
  private atomicValue(e: A.Expr): number {
    const t = this.typeOf(e) as AtomicType;
    return this.loadLValue({ kind: 'mem', addr: this.atomicObjectAddress(e), type: t.value }, e.range, orderedFor(t, 'seq_cst'));
  }

  /** A read-modify-write of the atomic object at `addr`; the old value comes back. */
  private atomicRmw(t: AtomicType, addr: number, op: string, v: number, c: number | undefined, order: MemoryOrder, range: Range, failureOrder?: MemoryOrder): number {
    const scope = t.scope === 'thread' ? undefined : t.scope;
    return this.atomicAt(op, t.value, addr, v, c, this.reg(), scope, range, scope && order, scope && failureOrder);
  }

  /** `a = v` stores (seq_cst); `a += v`, `a &= v`, … are read-modify-writes. Both yield the new value. */
  private atomicAssign(e: A.AssignExpr, t: AtomicType): number {
    const addr = this.atomicObjectAddress(e.target);
    const v = this.rvAs(e.value, t.value);
    if (e.op === '=') {
      this.storeTo({ kind: 'mem', addr, type: t.value }, v, e.range, orderedFor(t, 'seq_cst'));
      return v;
    }
    const op = ATOMIC_COMPOUND_OPS.get(e.op);
    if (!op) throw new LowerError(`'${T.typeToString(t)}' has no operator '${e.op}'`, e.opRange);
    const old = this.atomicRmw(t, addr, op, v, undefined, 'seq_cst', e.range);
    return this.arith(e.op.slice(0, -1), old, v, t.value, e.range);
  }

  /** The memory order argument `a` of a libcu++ call (the semantic pass checked it is a constant). */
  private orderArgument(a: A.Expr | undefined, fallback: MemoryOrder): MemoryOrder {
    if (!a) return fallback;
    const v = constantArgument(a);
    const order = v === undefined ? undefined : orderOf(v);
    if (!order) throw new LowerError('the simulator needs a constant memory order here', a.range);
    return order;
  }

  /** A member function of cuda::atomic / cuda::atomic_ref. */
  private atomicMethod(e: A.CallExpr, m: A.MemberExpr, t: AtomicType): number {
    const method = ATOMIC_METHODS.get(m.member);
    if (!method) throw new LowerError(`'${T.typeToString(t)}' has no member function '${m.member}'`, m.memberRange);
    const range = e.range;
    const addr = m.arrow ? this.rv(m.object) : this.atomicObjectAddress(m.object);
    const value = t.value;
    const at: LValue = { kind: 'mem', addr, type: value };
    const shape = methodShape(method);
    const order = (i: number, fallback: MemoryOrder = 'seq_cst'): MemoryOrder => this.orderArgument(e.args[shape.values + i], fallback);
    switch (method.kind) {
      case 'load':
        return this.loadLValue(at, range, orderedFor(t, order(0)));
      case 'store':
        this.storeTo(at, this.rvAs(e.args[0], value), range, orderedFor(t, order(0)));
        return this.constant(0, range);
      case 'rmw':
        return this.atomicRmw(t, addr, method.op, this.rvAs(e.args[0], value), undefined, order(0), range);
      case 'cas': {
        // compare_exchange(expected, desired[, success[, failure]]): on failure, expected
        // receives the value found.
        const expected = this.lv(e.args[0]);
        const compare = this.reg();
        this.assignReg(compare, this.loadLValue(expected, range), range);
        const desired = this.rvAs(e.args[1], value);
        const success = order(0);
        const failure = e.args[shape.values + 1] ? order(1) : casFailureOrder(success);
        const old = this.atomicRmw(t, addr, 'CAS', compare, desired, success, range, failure);
        const ok = this.arith('==', old, compare, value, range);
        const failed = this.newBlock();
        const join = this.newBlock();
        this.terminate({ kind: 'branch', cond: ok, then: join.id, else: failed.id }, failed);
        this.storeTo(expected, old, range);
        this.jump(join);
        this.cur = join;
        return ok;
      }
      case 'wait': {
        // Spins, loading with the given order, until the value differs from `old`.
        const old = this.rvAs(e.args[0], value);
        const ordered = orderedFor(t, order(0));
        const head = this.newBlock();
        const exit = this.newBlock();
        this.jump(head);
        this.cur = head;
        const same = this.arith('==', this.loadLValue(at, range, ordered), old, value, range);
        this.terminate({ kind: 'branch', cond: same, then: head.id, else: exit.id }, exit);
        return this.constant(0, range);
      }
      case 'notify':
        // Nothing sleeps in wait() here (it spins), so there is nobody to wake.
        this.emit(() => undefined, range);
        return this.constant(0, range);
      case 'lock-free':
        return this.constant(1, range);
    }
  }

  /** `cuda::atomic_thread_fence(order, scope)` and the signal fence. */
  private libcuFence(e: A.CallExpr): number {
    const range = e.range;
    const order = this.orderArgument(e.args[0], 'seq_cst');
    const scope = e.args[1] ? threadScopeOf(constantArgument(e.args[1]) ?? -1) : 'system';
    if (!scope) throw new LowerError('the simulator needs a constant thread scope here', e.args[1].range);
    // A relaxed fence orders nothing; a thread-scope or signal fence orders only the thread
    // against itself, which its program order already does.
    const callee = e.callee as A.IdentifierExpr;
    if (order !== 'relaxed' && scope !== 'thread' && callee.name === 'atomic_thread_fence') this.fence(scope, order, range);
    return this.constant(0, range);
  }

  /**
   * `asm("…" : outputs : inputs)`: operands are registers. Inputs are read before the
   * instructions run, outputs written back after them, as nvcc moves values in and out.
   */
  private asm(s: A.AsmStmt): void {
    const range = s.range;
    if (this.side === 'host') throw new LowerError('inline PTX runs only on the device', range);
    const operands = [...s.outputs, ...s.inputs];
    const decoded = decodePtx(s.template, s.outputs.length, operands.length);
    if (decoded.errors.length) throw new LowerError(decoded.errors[0], s.templateRange ?? range);
    const outputs = s.outputs.map((op) => this.lv(op.expr));
    const types = operands.map((op) => T.decay(this.typeOf(op.expr)));
    const regs = operands.map((op, i) => {
      if (i >= s.outputs.length) return this.rv(op.expr);
      const r = this.reg();
      if (op.constraint.includes('+')) this.assignReg(r, this.loadLValue(outputs[i], op.range), op.range);
      return r;
    });
    const value = (v: PtxValue, as: T.Type): number => (v.kind === 'immediate' ? this.constant(v.value, range) : this.convert(regs[v.index], types[v.index], as, range));
    const address = (a: { operand: number; offset: number }): number => this.offsetPointer(regs[a.operand], a.offset, range);
    const result = (dst: number, r: number, t: T.Type): void => {
      regs[dst] = r;
      types[dst] = t;
    };
    for (const ins of decoded.instructions) {
      switch (ins.kind) {
        case 'ld': {
          const type = ins.volatile ? T.qualified(ins.type, { volatile: true }) : ins.type;
          result(ins.dst, this.loadLValue({ kind: 'mem', addr: address(ins.addr), type }, range, ins.order && ins.scope ? { order: ins.order, scope: ins.scope } : undefined), ins.type);
          break;
        }
        case 'st': {
          const type = ins.volatile ? T.qualified(ins.type, { volatile: true }) : ins.type;
          const addr = address(ins.addr);
          this.storeTo({ kind: 'mem', addr, type }, value(ins.src, ins.type), range, ins.order && ins.scope ? { order: ins.order, scope: ins.scope } : undefined);
          break;
        }
        case 'atom': {
          const addr = address(ins.addr);
          const a = value(ins.a, ins.type);
          const b = ins.b ? value(ins.b, ins.type) : undefined;
          const old = this.atomicAt(ins.op, ins.type, addr, a, b, this.reg(), ins.scope, range, ins.order);
          if (ins.dst !== undefined) result(ins.dst, old, ins.type);
          break;
        }
        case 'fence':
          this.fence(ins.scope, ins.order, range);
          break;
      }
    }
    s.outputs.forEach((op, i) => this.storeTo(outputs[i], this.convert(regs[i], types[i], T.stripReference(outputs[i].type), op.range), op.range));
  }

  /** A fence of `scope` (__threadfence*, atomic_thread_fence, PTX fence and membar). */
  private fence(scope: Scope, order: MemoryOrder, range: Range): void {
    // A fence is a switch point for the random scheduler, like a memory access.
    this.emitMemory(fenceStep(scope, order, range, this.program.events), range);
  }

  private atomic(op: string, e: A.CallExpr, result: number, scope: Scope): number {
    const pt = T.decay(this.typeOf(e.args[0]));
    const t = pt.kind === 'pointer' ? this.subst(pt.to) : T.INT;
    const p = this.rv(e.args[0]);
    const v = this.rvAs(e.args[1], t);
    const c = e.args[2] ? this.rvAs(e.args[2], t) : undefined;
    return this.atomicAt(op, t, p, v, c, result, scope, e.range);
  }

  /**
   * A read-modify-write of the `t` at the address in register `pr`, with operand `vr` (a CAS
   * compares with `vr` and writes `cr`); the old value goes to `result`. A `scope` of undefined
   * is libcu++'s thread scope: atomic only to the thread itself, so a plain access. `order` is
   * the memory order the operation names (libcu++, PTX); a CAS that fails has `failureOrder`.
   */
  private atomicAt(op: string, t: T.Type, pr: number, vr: number, cr: number | undefined, result: number, scope: Scope | undefined, range: Range, order?: MemoryOrder, failureOrder?: MemoryOrder): number {
    const kind = scalarKind(t);
    const norm = normalizer(T.unqualified(t));
    const p = pr * WARP;
    const v = vr * WARP;
    const c = cr === undefined ? undefined : cr * WARP;
    const ro = result * WARP;
    const f = narrowAtomic(op);
    // Whether the atomic changed memory: a CAS that failed (or atomicAdd(&x, 0)) only reads.
    const changed = scope && { op, scope, changed: true };
    const unchanged = scope && { op, scope, changed: false };
    const ordered = scope && order ? { order, scope } : undefined;
    const event = this.accessEvents ? accessEvent(true, scalarSize(kind), kind, scope !== undefined, changed, this.side, range, ordered) : undefined;
    // The weak model knows no thread scope; the narrowest scope it knows stands for it.
    const modelScope = scope ?? 'block';
    const wide = kind === 'i64' || kind === 'u64';
    const bigOp = wide ? bigAtomic(op, kind === 'i64') : undefined;
    const rmw = (old: number, w: Lanes, l: number): number => {
      const next = bigOp ? bigOp(old, w.regs[v + l], c === undefined ? 0 : w.regs[c + l]) : c === undefined ? f(old, w.regs[v + l], 0) : f(old, w.regs[v + l], w.regs[c + l]);
      return bigOp ? next : norm(next);
    };
    const step = (w: Lanes, l: number): void => {
      const addr = w.regs[p + l];
      let old: number;
      let stored: number;
      const weak = w.ctx.weak;
      if (weak) [old, stored] = weak.atomic(w, l, addr, kind, modelScope, (o) => rmw(o, w, l), range, ordered?.order);
      else {
        old = load(w.ctx, addr, kind, range);
        stored = rmw(old, w, l);
        store(w.ctx, addr, kind, stored, range);
      }
      w.regs[ro + l] = old;
      if (event && w.ctx.events) {
        if (failureOrder && ordered) event.order = old === w.regs[v + l] ? ordered.order : failureOrder;
        w.ctx.events(fill(event, w, l, addr, stored === old ? unchanged : changed));
      }
    };
    // A CAS whose event names its failure order sets the order as it goes: the step does that.
    const inline = !(event && failureOrder && ordered);
    this.emitMemory(inline ? plainAccessStep(step, { write: true, reg: ro, ptr: p, offset: 0, kind, rmw: { op, operand: v, ...(c === undefined ? {} : { compare: c }), changed, unchanged }, ...(event ? { event } : {}) }) : step, range);
    return result;
  }

  private printf(name: string, e: A.CallExpr, result: number): number {
    const range = e.range;
    const fmtIndex = name === 'fprintf' || name === 'sprintf' ? 1 : name === 'snprintf' ? 2 : 0;
    const target = name === 'sprintf' || name === 'snprintf' ? this.rv(e.args[0]) * WARP : undefined;
    const limit = name === 'snprintf' ? this.rv(e.args[1]) * WARP : undefined;
    let fmt = e.args[fmtIndex];
    while (fmt?.kind === 'Paren') fmt = fmt.inner;
    if (fmt?.kind !== 'StringLiteral') throw new LowerError('the simulator needs printf formats to be string literals', range);
    const format = fmt.value;
    const stream = name === 'fprintf' && e.args[0].kind === 'Identifier' && e.args[0].name === 'stderr' ? 'stderr' : 'stdout';
    const { specs } = parseFormat(format);
    // Which printf argument kind each value is: by the conversion it meets.
    const classes: string[] = [];
    for (const s of specs) {
      if (s.width === '*') classes.push('int');
      if (s.precision === '*') classes.push('int');
      if (s.conversion !== '%') classes.push(s.conversion === 's' ? 'string' : s.conversion === 'p' ? 'pointer' : 'diouxXc'.includes(s.conversion) ? 'int' : 'float');
    }
    const rest = e.args.slice(fmtIndex + 1);
    const regs = rest.map((a) => {
      const t = T.decay(this.typeOf(a));
      return this.convert(this.rv(a), t, t.kind === 'float' ? T.DOUBLE : t, a.range) * WARP;
    });
    const side = this.side;
    this.emit((w, l) => {
      const args: PrintfArg[] = regs.map((o, i) => {
        const v = w.regs[o + l];
        switch (classes[i]) {
          case 'string':
            return { kind: 'string', value: readCString(w.ctx, v, range) };
          case 'pointer':
            return { kind: 'pointer', value: v };
          case 'float':
            return { kind: 'float', value: plain(v) };
          default:
            return { kind: 'int', value: unbox(v) };
        }
      });
      const text = formatPrintf(format, args);
      w.regs[result * WARP + l] = text.length;
      if (target !== undefined) {
        // sprintf/snprintf write the text (truncated to the limit) and a terminating NUL.
        const max = limit === undefined ? text.length + 1 : w.regs[limit + l];
        const n = Math.min(text.length, Math.max(0, max - 1));
        for (let i = 0; i < n; i++) store(w.ctx, w.regs[target + l] + i, 'u8', text.charCodeAt(i), range);
        if (max > 0) store(w.ctx, w.regs[target + l] + n, 'u8', 0, range);
        return;
      }
      const from = side === 'host' ? 'host' : { block: w.ctx.blockIdx, thread: [w.tid[0][l], w.tid[1][l], w.tid[2][l]] as [number, number, number] };
      w.ctx.runtime.print(stream, text, from);
    }, range);
    return result;
  }
}

/** A call of exit(): ends the program with its status. */
export class ProgramExit extends Error {
  constructor(readonly status: number) {
    super(`exit(${status})`);
  }
}

function c2(op: string, a: bigint, b: bigint): boolean {
  switch (op) {
    case '<':
      return a < b;
    case '>':
      return a > b;
    case '<=':
      return a <= b;
    case '>=':
      return a >= b;
    case '==':
      return a === b;
    default:
      return a !== b;
  }
}

function comparison(op: string): (a: number, b: number) => boolean {
  switch (op) {
    case '<':
      return (a, b) => a < b;
    case '>':
      return (a, b) => a > b;
    case '<=':
      return (a, b) => a <= b;
    case '>=':
      return (a, b) => a >= b;
    case '==':
      return (a, b) => a === b;
    default:
      return (a, b) => a !== b;
  }
}

/**
 * The most frequent operations as steps of their own: each is a separate function literal, so
 * the engine optimises each one for its single operation instead of calling through a shared,
 * megamorphic `f(a, b)`.
 */
function fastArithmetic(op: string, t: T.Type, ro: number, ao: number, bo: number): Step | undefined {
  if (t.kind === 'int' && t.bits === 64) return undefined; // may hold boxed values
  const compare = COMPARISONS[op];
  if (compare) return Ops.binaryStep(Ops.COMPARE, compare, ro, ao, bo);
  const name = ARITHMETIC[op];
  if (!name) return undefined;
  if (t.kind === 'int' && t.bits === 32) return Ops.binaryStep(t.signed ? Ops.INT32 : Ops.UINT32, name, ro, ao, bo);
  if (t.kind === 'float') return Ops.binaryStep(t.bits === 32 ? Ops.FLOAT : Ops.DOUBLE, name, ro, ao, bo);
  return undefined;
}

/**
 * `x op k` for a 32-bit integer type and a constant `k` that divides by something other than
 * zero or shifts by 0 to 31, as `arithmetic` computes it (which also reports the other cases).
 */
function int32ByConstant(op: string, t: T.Type, k: number): ((x: string, k: string) => string) | undefined {
  if (t.kind !== 'int' || t.bits !== 32 || !Number.isInteger(k)) return undefined;
  const s = t.signed;
  switch (op) {
    case '/':
      if (k === 0) return undefined;
      return s ? (x, c) => `((${x} | 0) / ${c}) | 0` : (x, c) => `Math.floor(${x} / ${c}) >>> 0`;
    case '%':
      if (k === 0) return undefined;
      return s ? (x, c) => `((${x} | 0) % ${c}) | 0` : (x, c) => `((${x} >>> 0) % ${c}) >>> 0`;
    case '<<':
      if (k < 0 || k >= 32) return undefined;
      return s ? (x, c) => `${x} << ${c}` : (x, c) => `(${x} << ${c}) >>> 0`;
    case '>>':
      if (k < 0 || k >= 32) return undefined;
      return s ? (x, c) => `${x} >> ${c}` : (x, c) => `${x} >>> ${c}`;
  }
  return undefined;
}

/** C's operators by the names of sims/ir/pureOps.ts. */
const ARITHMETIC: Readonly<Record<string, string | undefined>> = { '+': 'add', '-': 'sub', '*': 'mul', '/': 'div', '&': 'and', '|': 'or', '^': 'xor' };
const COMPARISONS: Readonly<Record<string, string | undefined>> = { '<': 'lt', '>': 'gt', '<=': 'le', '>=': 'ge', '==': 'eq', '!=': 'ne' };

/** The operation `op` in type `t`, with C's wrapping, truncation and rounding. */
function arithmetic(op: string, t: T.Type, range: Range): (a: number, b: number, w: Lanes) => number {
  if (['<', '>', '<=', '>=', '==', '!='].includes(op)) {
    const c = comparison(op);
    if (t.kind === 'int' && t.bits === 64) return (a, b) => (isBoxed(a) || isBoxed(b) ? (c2(op, unbox(a), unbox(b)) ? 1 : 0) : c(a, b) ? 1 : 0);
    return (a, b) => (c(a, b) ? 1 : 0);
  }
  const divByZero = (w: Lanes): number => {
    w.ctx.runtime.undefinedOperation('division-by-zero', 'integer division by zero (the result is undefined; the run goes on with 0)', range);
    return 0;
  };
  // A shift by a negative amount or by the width or more is undefined in C; the GPU clamps
  // the amount to the width (shl gives 0, a signed shr gives the sign).
  const badShift = (w: Lanes, amount: number, bits: number): number => {
    w.ctx.runtime.undefinedOperation('invalid-shift', `shift by ${amount}, outside 0..${bits - 1} for a ${bits}-bit value (undefined in C; the GPU clamps it)`, range);
    return amount < 0 ? 0 : bits;
  };
  if (t.kind === 'float') {
    const r = t.bits === 32 ? Math.fround : (x: number) => x;
    switch (op) {
      case '+':
        return (a, b) => r(a + b);
      case '-':
        return (a, b) => r(a - b);
      case '*':
        return (a, b) => r(a * b);
      case '/':
        return (a, b) => r(a / b);
    }
    throw new LowerError(`'${op}' on floating-point values`, range);
  }
  if (t.kind === 'int' && t.bits === 32) {
    const s = t.signed;
    switch (op) {
      case '+':
        return s ? (a, b) => (a + b) | 0 : (a, b) => (a + b) >>> 0;
      case '-':
        return s ? (a, b) => (a - b) | 0 : (a, b) => (a - b) >>> 0;
      case '*':
        return s ? (a, b) => Math.imul(a, b) : (a, b) => Math.imul(a, b) >>> 0;
      case '/':
        return s ? (a, b, w) => (b === 0 ? divByZero(w) : (a / b) | 0) : (a, b, w) => (b === 0 ? divByZero(w) : Math.floor(a / b) >>> 0);
      case '%':
        return s ? (a, b, w) => (b === 0 ? divByZero(w) : a % b | 0) : (a, b, w) => (b === 0 ? divByZero(w) : (a % b) >>> 0);
      case '<<':
        return (a, b, w) => {
          const k = b >= 0 && b < 32 ? b : badShift(w, b, 32);
          const v = k >= 32 ? 0 : a << k;
          return s ? v : v >>> 0;
        };
      case '>>':
        return (a, b, w) => {
          const k = b >= 0 && b < 32 ? b : badShift(w, b, 32);
          if (k >= 32) return s ? (a < 0 ? -1 : 0) : 0;
          return s ? a >> k : a >>> k;
        };
      case '&':
        return s ? (a, b) => a & b : (a, b) => (a & b) >>> 0;
      case '|':
        return s ? (a, b) => a | b : (a, b) => (a | b) >>> 0;
      case '^':
        return s ? (a, b) => a ^ b : (a, b) => (a ^ b) >>> 0;
    }
  }
  // 64-bit (and anything else integral): exact through BigInt where it matters.
  const signed = t.kind === 'int' ? t.signed : true;
  const wrap = (x: bigint) => box(signed ? BigInt.asIntN(64, x) : BigInt.asUintN(64, x));
  const B = unbox;
  switch (op) {
    case '+':
      return (a, b) => (Math.abs(a + b) < TWO53 && (signed || a + b >= 0) ? a + b : wrap(B(a) + B(b)));
    case '-':
      return (a, b) => (Math.abs(a - b) < TWO53 && (signed || a - b >= 0) ? a - b : wrap(B(a) - B(b)));
    case '*':
      return (a, b) => wrap(B(a) * B(b));
    case '/':
      return (a, b, w) => (b === 0 ? divByZero(w) : wrap(B(a) / B(b)));
    case '%':
      return (a, b, w) => (b === 0 ? divByZero(w) : wrap(B(a) % B(b)));
    case '<<':
      return (a, b) => wrap(B(a) << B(b & 63));
    case '>>':
      return (a, b) => wrap(B(a) >> B(b & 63));
    case '&':
      return (a, b) => wrap(B(a) & B(b));
    case '|':
      return (a, b) => wrap(B(a) | B(b));
    case '^':
      return (a, b) => wrap(B(a) ^ B(b));
  }
  throw new LowerError(`the simulator cannot compute '${op}' on '${T.typeToString(t)}' yet`, range);
}

type AtomicType = Extract<T.Type, { kind: 'atomic' }>;

/** The object an atomic_ref variable or temporary is bound to: `x` in `atomic_ref<int> r(x)`. */
function atomicRefBinding(n: A.Expr | A.VarDecl): A.Expr | undefined {
  if (n.kind === 'Construct') return n.resolvedTarget?.kind === 'atomic' && n.resolvedTarget.ref ? n.args[0] : undefined;
  if (n.kind !== 'VarDecl' || n.resolvedType?.kind !== 'atomic' || !n.resolvedType.ref) return undefined;
  return n.init?.kind === 'InitList' ? n.init.elements[0]?.value : n.init;
}

function isAtomicObject(t: T.Type): t is AtomicType {
  return t.kind === 'atomic';
}

/** The order of an operation on an atomic of type `t`; none at thread scope, which is a plain access. */
function orderedFor(t: AtomicType, order: MemoryOrder): Ordered | undefined {
  return t.scope === 'thread' ? undefined : { order, scope: t.scope };
}

export function isAggregate(t: T.Type): boolean {
  return t.kind === 'struct' || t.kind === 'vector' || t.kind === 'array';
}

function rootVar(e: A.Expr): object | undefined {
  switch (e.kind) {
    case 'Identifier':
      return e.ref?.kind === 'var' ? e.ref.decl : undefined;
    case 'Paren':
      return rootVar(e.inner);
    case 'Member':
      return e.arrow ? undefined : rootVar(e.object);
    case 'Index':
      return e.base.type?.kind === 'array' ? rootVar(e.base) : undefined;
    default:
      return undefined;
  }
}

function findFieldLayout(decl: A.StructDecl, name: string): { offset: number; type: T.Type } | undefined {
  const layout = T.structLayout(decl);
  if (!layout) return undefined;
  for (const f of layout.fields) {
    if (f.name === name) return f;
    if (!f.name && f.type.kind === 'struct') {
      const inner = findFieldLayout(f.type.decl, name);
      if (inner) return { offset: f.offset + inner.offset, type: inner.type };
    }
  }
  return undefined;
}

/** `d_data` for `&d_data` or `(void **)&d_data`: the name an allocation is known by. */
/** What `cudaMalloc(&p, …)` allocates elements of: p's pointee (through casts such as `(void **)`). */
function mallocElementType(e: A.Expr, typeOf: (e: A.Expr) => T.Type): T.Type | undefined {
  while (e.kind === 'Cast' || e.kind === 'Paren') e = e.kind === 'Cast' ? e.operand : e.inner;
  if (e.kind !== 'Unary' || e.op !== '&') return undefined;
  const p = T.unqualified(typeOf(e.operand));
  if (p.kind !== 'pointer') return undefined;
  const to = T.unqualified(p.to);
  return to.kind === 'void' ? undefined : to;
}

function exprLabel(e: A.Expr): string {
  switch (e.kind) {
    case 'Unary':
      return exprLabel(e.operand);
    case 'Cast':
      return exprLabel(e.operand);
    case 'Paren':
      return exprLabel(e.inner);
    case 'Identifier':
      return e.name;
    case 'Member':
      return `${exprLabel(e.object)}${e.arrow ? '->' : '.'}${e.member}`;
    default:
      return 'allocation';
  }
}

