// Inline PTX (`call … asm "…", "=r,l,~{memory}"(…)`): libcu++-style ordered loads and stores,
// atomics and fences are decoded by the hand-written front end's PTX reader (sims/frontend/ptx)
// and become the same steps as the IR's own; special-register reads (`mov.u32 $0, %laneid;`),
// `activemask`, barriers and the empty compiler barrier are recognised here.
import { DeviceFault } from '../../gpu/access';
import { decodePtx, type PtxInstruction, type PtxValue } from '../../frontend/ptx';
import type * as T from '../../frontend/types';
import { readingStep, WARP } from '../../ir/ir';
import { unbox } from '../../values/wide';
import type { LInstruction, LType, LValue } from '../llvm/module';
import { emitSpecialRegister } from './intrinsics';
import type { Lowering } from './lowering';
import { emitAtomic, emitFence, emitLoad, emitStore } from './memory';
import { intNormalizer } from './numbers';
import { emitActiveMask } from './warp';
import { ptxArithmetic, type PtxArithmetic } from './ptxArithmetic';

interface Constraint {
  text: string;
  output: boolean;
  /** An input tied to output N (`+r` becomes `=r` and `0`). */
  tied?: number;
}

function constraintsOf(text: string): Constraint[] {
  const out: Constraint[] = [];
  for (const c of text.split(',')) {
    if (c.startsWith('~') || c === '') continue;
    const output = c.startsWith('=');
    const tied = /^\d+$/.test(c) ? Number(c) : undefined;
    out.push({ text: c, output, ...(tied !== undefined ? { tied } : {}) });
  }
  return out;
}

/** LLVM's asm template (`$0`, `${1:r}`, `$$`, literal `%`) in GCC's syntax, which decodePtx reads. */
function gccTemplate(text: string): string {
  return text.replace(/%/g, '%%').replace(/\$\{(\d+)(?::[a-zA-Z]+)?\}/g, '%$1').replace(/\$(\d+)/g, '%$1').replace(/\$\$/g, '$');
}

/** The LLVM type of a PTX operand type (.u32, .s8, .f64, …). */
function ptxType(t: T.Type): LType {
  if (t.kind === 'float') return { kind: 'float', name: t.bits === 32 ? 'float' : 'double' };
  return { kind: 'int', bits: t.kind === 'int' ? t.bits : 32 };
}

export function lowerAsm(L: Lowering, i: LInstruction, callee: Extract<LValue, { kind: 'asm' }>): void {
  const template = callee.text.trim();
  const constraints = constraintsOf(callee.constraints);
  const outputs = constraints.filter((c) => c.output).length;
  const result = i.type.kind === 'void' ? undefined : L.result(i);
  // Output k's register: the result itself (one output) or its k-th leaf (several).
  const outReg = (k: number): number => result!.reg + k;
  if (template === '' || /^(nanosleep\.u32\s+\S+|pmevent\s+\d+);?$/.test(template)) return;
  const special = /^mov\.[usb](32|64)\s+\$0\s*,\s*%([a-z_0-9.]+)\s*;?$/.exec(template);
  if (special && result) {
    const reg = special[2].replace('_', '.');
    if (!emitSpecialRegister(L, outReg(0), reg)) L.fail(`not supported: the special register %${special[2]}`);
    return;
  }
  if (/^activemask\.b32\s+\$0\s*;?$/.test(template) && result) return emitActiveMask(L, outReg(0));
  if (/^(bar|barrier)(\.cta)?\.sync(\.aligned)?\s+0\s*;?$/.test(template)) {
    const next = L.newBlock();
    L.terminate({ kind: 'barrier', to: next.id, range: L.range }, next);
    return;
  }
  if (/^trap\s*;?$/.test(template)) {
    const range = L.range;
    L.emit(() => {
      throw new DeviceFault({ kind: 'assertion-failed', message: 'the thread executed a trap instruction' }, range);
    });
    return;
  }
  if (/^exit\s*;?$/.test(template)) {
    L.terminate({ kind: 'exit' });
    return;
  }
  // Statement by statement: integer arithmetic here, memory operations and fences through decodePtx.
  const statements = gccTemplate(template).replace(/\/\/[^\n]*/g, '').split(';').map((t) => t.trim()).filter((t) => t !== '');
  const steps: (PtxArithmetic | PtxInstruction)[] = [];
  for (const statement of statements) {
    const arithmetic = ptxArithmetic(statement.replace(/%%/g, '%'));
    if (arithmetic) {
      steps.push(arithmetic);
      continue;
    }
    const decoded = decodePtx(statement, outputs, constraints.length);
    if (decoded.errors.length) L.fail(`not supported: inline PTX \`${template.replace(/\s+/g, ' ')}\`: ${decoded.errors[0]}`);
    steps.push(...decoded.instructions);
  }
  // Operand registers: outputs get registers of their own (tied inputs start them), inputs are
  // the call's arguments in order.
  const regs: number[] = [];
  const types: LType[] = [];
  let input = 0;
  const resultTypes = result ? (i.type.kind === 'struct' ? i.type.fields : [i.type]) : [];
  constraints.forEach((c, k) => {
    if (c.output) {
      regs.push(L.regs(1));
      types.push(resultTypes[k] ?? { kind: 'int', bits: 32 });
      return;
    }
    const arg = i.operands[input++];
    if (!arg) L.fail('internal: an asm operand without a value');
    regs.push(L.reg(arg));
    types.push(arg.type);
    if (c.tied !== undefined && c.tied < outputs) L.copy({ reg: regs[c.tied], n: 1 }, { reg: regs[k], n: 1 });
  });
  const address = (a: { operand: number; offset: number }): number => {
    const r = regs[a.operand];
    if (types[a.operand].kind === 'ptr') return r;
    // An integer address ("l"((uintptr_t)p)): the flat address as a pointer.
    const p = L.regs(1);
    const po = p * WARP;
    const ro = r * WARP;
    const flat = L.flat;
    L.emit((w, l) => {
      w.regs[po + l] = flat.pointerOf(Number(BigInt.asUintN(32, unbox(w.regs[ro + l]))));
    });
    return p;
  };
  const value = (v: PtxValue): number => (v.kind === 'immediate' ? L.constReg(v.value) : regs[v.index]);
  for (const ins of steps) {
    if (!('kind' in ins)) {
      emitArithmetic(L, ins, regs);
      continue;
    }
    switch (ins.kind) {
      case 'ld': {
        const t = ptxType(ins.type);
        const ordered = ins.order && ins.scope ? { order: ins.order, scope: ins.scope } : undefined;
        emitLoad(L, regs[ins.dst], address(ins.addr), ins.addr.offset, t, ins.volatile || !!ordered, ordered, false);
        // An unsigned narrow load zero-extends into its register.
        if (ins.type.kind === 'int' && !ins.type.signed && ins.type.bits < 32) {
          const o = regs[ins.dst] * WARP;
          const mask = (1 << ins.type.bits) - 1;
          L.emit((w, l) => {
            w.regs[o + l] &= mask;
          });
        }
        break;
      }
      case 'st': {
        const t = ptxType(ins.type);
        const ordered = ins.order && ins.scope ? { order: ins.order, scope: ins.scope } : undefined;
        emitStore(L, value(ins.src), address(ins.addr), ins.addr.offset, t, ins.volatile || !!ordered, ordered, false);
        break;
      }
      case 'atom': {
        const t = ptxType(ins.type);
        const p = address(ins.addr);
        const at = ins.addr.offset ? offsetPointer(L, p, ins.addr.offset) : p;
        const unsigned = ins.type.kind === 'int' && !ins.type.signed && (ins.op === 'Min' || ins.op === 'Max' || ins.op === 'Inc' || ins.op === 'Dec');
        emitAtomic(L, {
          op: ins.op, type: t, scope: ins.scope, ...(ins.order ? { order: ins.order } : {}), ...(unsigned ? { unsigned } : {}),
          ptr: at, value: value(ins.a), ...(ins.b ? { replacement: value(ins.b) } : {}), dst: ins.dst !== undefined ? regs[ins.dst] : L.regs(1),
        });
        break;
      }
      case 'fence':
        emitFence(L, ins.scope, ins.order);
        break;
    }
  }
  // Outputs back into the call's result, in their LLVM type's canonical form.
  for (let k = 0; k < outputs; k++) {
    const t = types[k];
    const norm = t.kind === 'int' ? intNormalizer(t.bits) : (x: number) => x;
    const from = regs[k] * WARP;
    const to = outReg(k) * WARP;
    L.emit(readingStep((w, l) => {
      w.regs[to + l] = norm(w.regs[from + l]);
    }, [from]));
  }
}

function emitArithmetic(L: Lowering, a: PtxArithmetic, regs: number[]): void {
  const known = (k: number): boolean => k >= 0 && k < regs.length;
  if (!known(a.dst) || a.sources.some((x) => 'operand' in x && !known(x.operand))) L.fail(`not supported: inline PTX that names an operand the asm statement does not have`);
  const ro = regs[a.dst] * WARP;
  const srcs = a.sources.map((x) => ('operand' in x ? regs[x.operand] : L.constReg(x.immediate)) * WARP);
  const f = a.f;
  const xs = new Array<number>(srcs.length);
  L.emit((w, l) => {
    for (let k = 0; k < srcs.length; k++) xs[k] = w.regs[srcs[k] + l];
    w.regs[ro + l] = f(...xs);
  });
}

function offsetPointer(L: Lowering, p: number, offset: number): number {
  const r = L.regs(1);
  const ro = r * WARP;
  const po = p * WARP;
  L.emit((w, l) => {
    w.regs[ro + l] = w.regs[po + l] + offset;
  });
  return r;
}
