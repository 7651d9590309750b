// What the lowering needs to know of a function before it lowers a copy of it: which allocas can
// live in registers, the phis of each block, which loads can read a local's register directly,
// which pointers can only point into the thread's local memory, and whether a struct passed by
// value is written.
import type { LFunction, LInstruction, LType, LValue } from '../llvm/module';
import { isAggregate, sizeOf } from './layout';

/** Calls that use a pointer without reading or writing through it. */
const IGNORED_USES = /^llvm\.(lifetime|dbg|assume|experimental\.noalias|var\.annotation|invariant)/;

export interface FunctionInfo {
  promotable: Set<string>;
  phis: Map<string, LInstruction[]>;
  /** The instruction that defines each value. */
  defs: Map<string, LInstruction>;
  /** Loads of promoted allocas that can read the alloca's register directly (see aliasableLoads). */
  aliasLoads: Set<string>;
}

/** Allocas kept in registers, phis, definitions and aliasable loads of `fn`. */
export function analyseFunction(fn: LFunction): FunctionInfo {
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
  return { promotable, phis, defs, aliasLoads: aliasableLoads(fn, promotable) };
}

/**
 * Adds to `local` the pointer values of `fn` that can only point into the thread's local memory:
 * its (not promoted) allocas, what is derived from local pointers (getelementptr, casts,
 * select, phi) and loads of promoted allocas every store to which stores a local pointer, given
 * which parameters are local (already in `local`). The greatest such set: a value stays unless
 * some source of it may be something else (a global, memory, a call, an integer).
 */
export function localPointers(fn: LFunction, promotable: Set<string>, local: Set<string>): void {
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
export function writesThrough(fn: LFunction, name: string): boolean {
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
