// RunOptions.observe on the clang path: the final values of device globals named as the source
// names them (`x=1`, `r=[1,0]`), read from their storage when the run ends (litmus tests).
import { Memory, pointerAllocation, pointerOffset } from '../../gpu/memory';
import { plain } from '../../values/wide';
import type { DeviceProgram } from '../device/program';
import { variableName } from '../device/demangle';
import { scalarKindOf, sizeOf } from '../device/layout';
import type { LModule, LType } from '../llvm/module';

export function observeDeviceGlobals(names: string[], program: DeviceProgram, modules: LModule[], memory: Memory): string[] {
  const types = new Map<string, LType>();
  for (const m of modules) for (const g of m.globals) if (!types.has(g.name)) types.set(g.name, g.valueType);
  return names.map((name) => {
    const symbol = [...program.globals.keys()].find((k) => k === name || variableName(k) === name);
    const storage = symbol !== undefined ? program.globals.get(symbol) : undefined;
    const type = symbol !== undefined ? types.get(symbol) : undefined;
    const a = storage && memory.allocation(pointerAllocation(storage.pointer));
    if (!storage || !type || !a) return `${name}=?`;
    const base = pointerOffset(storage.pointer);
    const read = (t: LType, off: number): string | undefined => {
      const kind = scalarKindOf(t);
      if (!kind || t.kind === 'ptr') return undefined;
      const v = Memory.read(a, base + off, kind);
      return String(typeof v === 'bigint' ? v : plain(v));
    };
    if (type.kind === 'array') {
      const es = sizeOf(type.of);
      const items = Array.from({ length: type.length }, (_, i) => read(type.of, i * es));
      return items.every((x) => x !== undefined) ? `${name}=[${items.join(',')}]` : `${name}=?`;
    }
    return `${name}=${read(type, 0) ?? '?'}`;
  });
}
