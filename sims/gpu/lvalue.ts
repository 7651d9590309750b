// Names an address the way the program does: `data[3]`, `stack.top`, `tile[1][7]`, from the
// variables laid out in its allocation. Races are reported on addresses; programmers think in
// lvalues.
import * as T from '../frontend/types';
import { pointerAllocation, pointerOffset, type Memory } from './memory';

export function nameAddress(memory: Memory, address: number): string | undefined {
  const a = memory.allocation(pointerAllocation(address));
  if (!a?.layout) return undefined;
  const offset = pointerOffset(address);
  for (const region of a.layout) {
    const size = region.unbounded ? Infinity : (T.sizeOf(region.type) ?? 0);
    if (offset < region.offset || offset >= region.offset + size) continue;
    if (region.unbounded) {
      const es = T.sizeOf(region.type) || 1;
      const i = Math.floor((offset - region.offset) / es);
      return path(`${region.name}[${i}]`, region.type, offset - region.offset - i * es);
    }
    return path(region.name, region.type, offset - region.offset);
  }
  return undefined;
}

/** Walks arrays and structs down to the scalar at `offset` within `type`. */
function path(name: string, type: T.Type, offset: number): string {
  for (;;) {
    const t = T.unqualified(type);
    if (t.kind === 'array') {
      const es = T.sizeOf(t.of) || 1;
      const i = Math.floor(offset / es);
      name += `[${i}]`;
      offset -= i * es;
      type = t.of;
      continue;
    }
    if (t.kind === 'struct') {
      const layout = T.structLayout(t.decl);
      const field = layout?.fields.filter((f) => f.offset <= offset).pop();
      if (!field) return name;
      name += `.${field.name}`;
      offset -= field.offset;
      type = field.type;
      continue;
    }
    if (t.kind === 'vector') {
      const es = T.sizeOf(t.elem) || 1;
      return `${name}.${'xyzw'[Math.floor(offset / es)] ?? '?'}`;
    }
    return name;
  }
}
