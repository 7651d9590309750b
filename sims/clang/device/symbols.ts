// Which definition a name refers to across the translation units of a program: private and
// internal symbols belong to their own module; the others are shared, and a declaration in one
// module finds the definition another module gives (separate compilation of device code).
import type { LFunction, LGlobal, LModule } from '../llvm/module';

export interface ModuleFunction {
  fn: LFunction;
  module: LModule;
}

export interface ModuleGlobal {
  global: LGlobal;
  module: LModule;
}

function isLocal(linkage: string | undefined): boolean {
  return linkage === 'internal' || linkage === 'private';
}

export class Symbols {
  private readonly localFunctions = new Map<LModule, Map<string, LFunction>>();
  private readonly localGlobals = new Map<LModule, Map<string, LGlobal>>();
  private readonly sharedFunctions = new Map<string, ModuleFunction>();
  private readonly sharedGlobals = new Map<string, ModuleGlobal>();

  constructor(readonly modules: LModule[]) {
    for (const m of modules) {
      const fs = new Map<string, LFunction>();
      for (const f of m.functions) {
        fs.set(f.name, f);
        if (!f.declaration && !isLocal(f.linkage) && !this.sharedFunctions.has(f.name)) this.sharedFunctions.set(f.name, { fn: f, module: m });
      }
      this.localFunctions.set(m, fs);
      const gs = new Map<string, LGlobal>();
      for (const g of m.globals) {
        gs.set(g.name, g);
        if (isDefinition(g) && !isLocal(g.linkage)) {
          const prev = this.sharedGlobals.get(g.name);
          // A tentative or weak definition gives way to one with an initializer.
          if (!prev || (prev.global.init === undefined && g.init !== undefined)) this.sharedGlobals.set(g.name, { global: g, module: m });
        }
      }
      this.localGlobals.set(m, gs);
    }
  }

  /** The function `name` as seen from `module`: its own definition, or another module's. */
  func(module: LModule, name: string): ModuleFunction | undefined {
    const own = this.localFunctions.get(module)?.get(name);
    if (own && !own.declaration) return { fn: own, module };
    return this.sharedFunctions.get(name) ?? (own ? { fn: own, module } : undefined);
  }

  /** The global `name` as seen from `module`: its definition wherever it is, or the declaration. */
  global(module: LModule, name: string): ModuleGlobal | undefined {
    const own = this.localGlobals.get(module)?.get(name);
    if (own && (isLocal(own.linkage) || isDefinition(own))) {
      if (isLocal(own.linkage)) return { global: own, module };
      return this.sharedGlobals.get(name) ?? { global: own, module };
    }
    return this.sharedGlobals.get(name) ?? (own ? { global: own, module } : undefined);
  }
}

/**
 * A global that has storage here: an initializer, or a definition without one (`global i32
 * undef` has an init; `external global` does not). Shared-memory variables always have storage.
 */
export function isDefinition(g: LGlobal): boolean {
  if (g.addrspace === 3) return true;
  if (g.linkage === 'external' || g.linkage === 'extern_weak') return false;
  return g.init !== undefined || g.linkage === 'common';
}
