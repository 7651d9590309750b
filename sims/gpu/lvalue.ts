// Names an address the way the program does: `data[3]`, `stack.top`, `tile[1][7]`, from the
// variables laid out in its allocation. Races are reported on addresses; programmers think in
// lvalues.
import * as T from '../frontend/types';
import { pointerAllocation, pointerOffset, type Memory } from './memory';

/**
 * `size`: the bytes accessed there. A piece of a struct copy that spans two fields (the 4-byte
 * word of a `{short x; short y;}`) is named by the struct, not by its first field.
 */
export function nameAddress(memory: Memory, address: number, size = 1): string | undefined {
  const a = memory.allocation(pointerAllocation(address));
  if (!a?.layout) return undefined;
  const offset = pointerOffset(address);
  for (const region of a.layout) {
    const extent = region.unbounded ? Infinity : (T.sizeOf(region.type) ?? 0);
    if (offset < region.offset || offset >= region.offset + extent) continue;
    if (region.unbounded) {
      const es = T.sizeOf(region.type) || 1;
      const i = Math.floor((offset - region.offset) / es);
      return path(`${region.name}[${i}]`, region.type, offset - region.offset - i * es, size);
    }
    return path(region.name, region.type, offset - region.offset, size);
  }
  return undefined;
}

/** Walks arrays and structs down to the scalar at `offset` within `type`, as far as `size` bytes stay within one part. */
function path(name: string, type: T.Type, offset: number, size: number): string {
  for (;;) {
    const t = T.unqualified(type);
    if (t.kind === 'array') {
      const es = T.sizeOf(t.of) || 1;
      const i = Math.floor(offset / es);
      if (offset - i * es + size > es) return name;
      name += `[${i}]`;
      offset -= i * es;
      type = t.of;
      continue;
    }
    if (t.kind === 'struct') {
      const layout = T.structLayout(t.decl);
      const field = layout?.fields.filter((f) => f.offset <= offset).pop();
      if (!field) return name;
      const fieldSize = T.sizeOf(field.type) ?? 0;
      if (fieldSize > 0 && offset - field.offset + size > fieldSize) return name;
      name += `.${field.name}`;
      offset -= field.offset;
      type = field.type;
      continue;
    }
    if (t.kind === 'vector') {
      const es = T.sizeOf(t.elem) || 1;
      if ((offset % es) + size > es) return name;
      return `${name}.${'xyzw'[Math.floor(offset / es)] ?? '?'}`;
    }
    return name;
  }
}
