// Storage of a program's device globals: each __device__ (addrspace 1), __constant__
// (addrspace 4), __managed__ variable and each constant of the IR (strings for printf, tables)
// gets an allocation of its own, named as the program names it and written with its
// initializer before anything runs. Pointers inside initializers are written as flat addresses.
// __shared__ variables (addrspace 3) are laid out per kernel by the lowering instead.
import type { LFunction, LGlobal, LModule, LValue } from '../llvm/module';
import { Memory, pointerAllocation, pointerOffset, type MemorySpace, type NamedRegion } from '../../gpu/memory';
import type { FlatAddresses } from '../../gpu/flat';
import { ABSOLUTE, ConstantError, constLeaves, type ConstEnv, type ConstScalar } from './constants';
import { leavesOf, namingType, scalarKindOf, sizeOf } from './layout';
import { variableName } from './demangle';
import { toBfloatBits, toHalfBits } from './numbers';
import { unbox } from '../../values/wide';
import { isDefinition, Symbols } from './symbols';

export interface GlobalStorage {
  pointer: number;
  size: number;
  space: MemorySpace;
}

export class DeviceGlobals {
  private readonly storage = new Map<LGlobal, GlobalStorage>();
  /** Each defined function's address (a byte of one allocation), for function pointers. */
  private readonly functionAddresses = new Map<LFunction, number>();
  private readonly functionAt = new Map<number, LFunction>();

  constructor(
    private readonly symbols: Symbols,
    private readonly memory: Memory,
    private readonly flat: FlatAddresses,
  ) {
    const functions = symbols.modules.flatMap((m) => m.functions.filter((f) => !f.declaration));
    if (functions.length) {
      const table = memory.allocate('constant', functions.length, { label: 'device functions' });
      functions.forEach((f, i) => {
        const p = table + i;
        this.functionAddresses.set(f, p);
        this.functionAt.set(p, f);
      });
    }
    const managed = managedGlobals(symbols.modules);
    for (const m of symbols.modules) {
      for (const g of m.globals) {
        if (g.addrspace === 3 || !isDefinition(g) || g.name.startsWith('llvm.')) continue;
        if (this.symbols.global(m, g.name)?.global !== g) continue; // a duplicate definition
        const size = Math.max(1, sizeOf(g.valueType));
        const space: MemorySpace = managed.has(g) ? 'managed' : g.addrspace === 4 || (g.addrspace === 0 && g.constant) ? 'constant' : 'global';
        const label = g.debug?.name ?? labelOf(g);
        const type = namingType(g.valueType);
        const layout: NamedRegion[] | undefined = type && !g.name.startsWith('.') ? [{ name: label, offset: 0, type }] : undefined;
        const pointer = memory.allocate(space, size, { label, ...(layout ? { layout } : {}) });
        this.storage.set(g, { pointer, size, space });
      }
    }
    // Initializers last: they may point at any global.
    for (const m of symbols.modules) {
      for (const g of m.globals) {
        const s = this.storage.get(g);
        if (s && g.init) this.initialize(m, g, s.pointer, g.init);
      }
    }
  }

  /** Storage of a global (undefined for __shared__ ones and undefined externals). */
  storageOf(g: LGlobal): GlobalStorage | undefined {
    return this.storage.get(g);
  }

  /** Device globals the host may name, by symbol. */
  named(): Map<string, { pointer: number; size: number; space: 'global' | 'constant' | 'managed' }> {
    const out = new Map<string, { pointer: number; size: number; space: 'global' | 'constant' | 'managed' }>();
    for (const [g, s] of this.storage) {
      if (g.linkage === 'private' || s.space === 'shared' || s.space === 'local' || s.space === 'host') continue;
      if (g.addrspace === 0) continue; // the IR's own constants
      out.set(g.name, { pointer: s.pointer, size: s.size, space: s.space });
    }
    return out;
  }

  functionAddress(f: LFunction): number | undefined {
    return this.functionAddresses.get(f);
  }

  functionAtAddress(p: number): LFunction | undefined {
    return this.functionAt.get(p);
  }

  /** The constant environment of code in `module` (shared variables are the lowering's). */
  constEnv(module: LModule, shared?: (g: LGlobal) => ConstScalar): ConstEnv {
    return {
      address: (name) => {
        const g = this.symbols.global(module, name);
        if (g) {
          if (g.global.addrspace === 3) {
            if (!shared) throw new ConstantError(`not supported: the address of __shared__ '${variableName(name)}' outside a kernel`);
            return shared(g.global);
          }
          const s = this.storage.get(g.global);
          if (!s) throw new ConstantError(`not supported: '${variableName(name)}' is declared but never defined in device code`);
          return { base: ABSOLUTE, value: s.pointer };
        }
        const f = this.symbols.func(module, name);
        const p = f && this.functionAddresses.get(f.fn);
        if (p !== undefined) return { base: ABSOLUTE, value: p };
        throw new ConstantError(`not supported: '${name}' has no definition in device code`);
      },
      flatOf: (p) => this.flat.flatOf(p),
      pointerOf: (flat) => this.flat.pointerOf(flat),
    };
  }

  private initialize(module: LModule, g: LGlobal, p: number, init: LValue): void {
    let leaves: ConstScalar[];
    try {
      leaves = constLeaves(init, this.constEnv(module));
    } catch (e) {
      if (e instanceof ConstantError) return; // left zero; code that reads it still runs
      throw e;
    }
    const a = this.memory.allocation(pointerAllocation(p))!;
    const base = pointerOffset(p);
    leavesOf(g.valueType).forEach((leaf, i) => {
      const c = leaves[i];
      const kind = scalarKindOf(leaf.type);
      if (!c || !kind) return;
      let v = c.value;
      if (leaf.type.kind === 'ptr') v = c.base === ABSOLUTE && v !== 0 ? this.flat.flatOf(v) : 0;
      else if (leaf.type.kind === 'float' && leaf.type.name === 'half') v = toHalfBits(v);
      else if (leaf.type.kind === 'float' && leaf.type.name === 'bfloat') v = toBfloatBits(v);
      Memory.write(a, base + leaf.offset, kind, kind === 'i64' || kind === 'u64' ? unbox(v) : v);
    });
  }
}

/** How an allocation is labelled: the variable's name, or a string constant's text. */
function labelOf(g: LGlobal): string {
  if (g.init?.kind === 'bytes') {
    const text = String.fromCharCode(...g.init.bytes).replace(/\0+$/, '');
    return JSON.stringify(text);
  }
  return variableName(g.name);
}

/**
 * Globals the headers mark `__managed__`: clang keeps CUDA's `managed` attribute for HIP only, so
 * the marking is an annotation (`__attribute__((annotate("…managed…")))`), which the module
 * lists in `llvm.global.annotations` as { the global, its annotation string, … }.
 */
function managedGlobals(modules: LModule[]): Set<LGlobal> {
  const out = new Set<LGlobal>();
  for (const m of modules) {
    const table = m.globals.find((g) => g.name === 'llvm.global.annotations');
    if (table?.init?.kind !== 'aggregate') continue;
    const byName = new Map(m.globals.map((g) => [g.name, g]));
    for (const entry of table.init.elements) {
      if (entry.kind !== 'aggregate') continue;
      const target = globalName(entry.elements[0]);
      const note = globalName(entry.elements[1]);
      const text = note ? byName.get(note)?.init : undefined;
      if (!target || text?.kind !== 'bytes' || !/managed/.test(String.fromCharCode(...text.bytes))) continue;
      const g = byName.get(target);
      if (g) out.add(g);
    }
  }
  return out;
}

/** The global a constant names, through casts and zero-offset getelementptrs. */
function globalName(v: LValue | undefined): string | undefined {
  if (!v) return undefined;
  if (v.kind === 'global') return v.name;
  if (v.kind === 'expr' && (v.inst.opcode === 'addrspacecast' || v.inst.opcode === 'bitcast' || v.inst.opcode === 'getelementptr')) return globalName(v.inst.operands[0]);
  return undefined;
}

