// What a kernel's pointer parameter points at, read from how its code uses it. The IR's pointers
// are opaque (`ptr`), so the element type of an array a kernel receives shows only in the
// getelementptrs, loads, stores and atomics through it: entry launches size their made-up arrays
// by it, and allocations the host program named get `name[i]` names in reports.
import { sizeOf } from '../device/layout';
import type { LFunction, LModule, LType } from '../llvm/module';

/**
 * The type of the elements pointer parameter `index` addresses, as the kernel's code uses them:
 * the largest element type of a getelementptr, load, store or atomic through the parameter
 * (followed through the stack slot clang keeps it in at -O0, and into the functions it is passed
 * to). Undefined when the code does not say.
 */
export function pointeeOf(fn: LFunction, index: number, modules: LModule[] = [], depth = 0): LType | undefined {
  const param = fn.params[index]?.name;
  if (param === undefined) return undefined;
  const derived = new Set<string>([param]);
  const slots = new Set<string>();
  let best: LType | undefined;
  const consider = (t: LType | undefined): void => {
    if (!t || t.kind === 'void' || t.kind === 'function' || t.kind === 'label' || t.kind === 'metadata' || t.kind === 'token') return;
    if (!best || sizeOf(t) > sizeOf(best)) best = t;
  };
  const isDerived = (v: { kind: string; name?: string } | undefined): boolean => v?.kind === 'local' && derived.has(v.name!);
  // Two passes: -O0 code stores the parameter before every use, but blocks need not be in order.
  for (let pass = 0; pass < 2; pass++) {
    for (const b of fn.blocks) {
      for (const inst of b.instructions) {
        const [a, p] = inst.operands;
        if (inst.opcode === 'store') {
          if (isDerived(a) && p?.kind === 'local') slots.add(p.name);
          else if (isDerived(p)) consider(a?.type);
        } else if (inst.opcode === 'load') {
          if (a?.kind === 'local' && slots.has(a.name) && inst.result && inst.type.kind === 'ptr') derived.add(inst.result);
          else if (isDerived(a)) consider(inst.type);
        } else if (inst.opcode === 'getelementptr' && isDerived(a)) {
          consider(inst.elementType);
        } else if ((inst.opcode === 'atomicrmw' || inst.opcode === 'cmpxchg') && isDerived(a)) {
          consider(p?.type);
        } else if ((inst.opcode === 'bitcast' || inst.opcode === 'addrspacecast') && isDerived(a) && inst.result) {
          derived.add(inst.result);
        } else if (inst.opcode === 'call' && pass === 1 && inst.callee?.kind === 'global') {
          const arg = inst.operands.findIndex((o) => isDerived(o));
          if (arg < 0) continue;
          const callee = inst.callee.name;
          const target = depth < 3 ? modules.flatMap((m) => m.functions).find((f) => f.name === callee && !f.declaration) : undefined;
          // A defined function: what it does with the pointer; an intrinsic (atomics): the value type it returns.
          if (target) consider(pointeeOf(target, arg, modules, depth + 1));
          else if (inst.type.kind === 'int' || inst.type.kind === 'float') consider(inst.type);
        }
      }
    }
  }
  return best;
}

/**
 * How many arguments a call through pointer parameter `index` passes, when the kernel calls
 * through it (a function pointer it is handed; followed through its -O0 stack slot); undefined
 * when it never does.
 */
export function calledWith(fn: LFunction, index: number): number | undefined {
  const param = fn.params[index]?.name;
  if (param === undefined) return undefined;
  const derived = new Set<string>([param]);
  const slots = new Set<string>();
  for (let pass = 0; pass < 2; pass++) {
    for (const b of fn.blocks) {
      for (const inst of b.instructions) {
        const [a, p] = inst.operands;
        if (inst.opcode === 'store' && a?.kind === 'local' && derived.has(a.name) && p?.kind === 'local') slots.add(p.name);
        else if (inst.opcode === 'load' && a?.kind === 'local' && slots.has(a.name) && inst.result) derived.add(inst.result);
        else if (inst.opcode === 'call' && inst.callee?.kind === 'local' && derived.has(inst.callee.name)) return inst.operands.length;
      }
    }
  }
  return undefined;
}
