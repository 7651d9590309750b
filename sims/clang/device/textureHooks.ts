// The texture and surface hooks as device code calls them (sims/clang/include/HOOKS.md):
// `__scord_tex_fetch`, `__scord_tex1Dfetch` and `__scord_surf_access` become steps that look
// the object up in the runtime's table and sample or copy through ./textures.ts. Every element
// they read or write is an access the detector hears, so a texture read of memory a surface
// write (or a plain store) of another thread changes in the same launch is a race like any other.
import { DeviceFault } from '../../gpu/access';
import { accessEvent, fill } from '../../ir/accessSteps';
import { WARP, type Lanes } from '../../ir/ir';
import { unbox } from '../../values/wide';
import type { LInstruction } from '../llvm/module';
import type { Lowering } from './lowering';
import { emitStore } from './memory';
import { accessSurface, fetchLinear, fetchTexture, type ElementVisit } from './textures';

const WORD = { kind: 'int', bits: 32 } as const;

/** An object handle (cudaTextureObject_t, cudaSurfaceObject_t: 64-bit) from its register. */
function handle(w: Lanes, offset: number, l: number): number {
  return Number(unbox(w.regs[offset + l]));
}

/** Reports each element a hook touches to the listener, as accesses of the lane. */
function visitor(L: Lowering): (w: Lanes, l: number) => ElementVisit | undefined {
  if (!L.events) return () => undefined;
  const read = accessEvent(false, 4, 'u32', false, undefined, 'device', L.range);
  const write = accessEvent(true, 4, 'u32', false, undefined, 'device', L.range);
  return (w, l) => {
    const listener = w.ctx.events;
    if (!listener) return undefined;
    return (p, size, isWrite) => {
      const e = isWrite ? write : read;
      e.size = size;
      listener(fill(e, w, l, p, undefined));
    };
  };
}

/** `__scord_tex_fetch(tex, kind, x, y, z, layer, level, texel)` and `__scord_tex1Dfetch(tex, x, texel)`. */
export function lowerTextureFetch(L: Lowering, i: LInstruction, oneD: boolean): void {
  const ops = i.operands.map((o) => L.reg(o) * WARP);
  const out = i.operands[oneD ? 2 : 7];
  const words = L.regs(4);
  const range = L.range;
  const visit = visitor(L);
  const texel = new Uint32Array(4);
  L.emitMemory((w, l) => {
    const id = handle(w, ops[0], l);
    const t = w.ctx.runtime.textures.texture(id);
    if (!t) throw new DeviceFault({ kind: 'invalid-pointer', message: `a texture fetch through ${id === 0 ? 'texture object 0 (none)' : `texture object ${id}, which is not one (never created, or destroyed)`}` }, range);
    const R = w.regs;
    if (oneD) fetchLinear(w.ctx, t, R[ops[1] + l], texel, range, visit(w, l));
    else fetchTexture(w.ctx, t, R[ops[1] + l], R[ops[2] + l], R[ops[3] + l], R[ops[4] + l], R[ops[5] + l], texel, range, visit(w, l));
    for (let k = 0; k < 4; k++) R[(words + k) * WARP + l] = texel[k] | 0;
  });
  for (let k = 0; k < 4; k++) emitStore(L, words + k, L.reg(out), 4 * k, WORD, false, undefined, L.isLocal(out));
}

/** `__scord_surf_access(surf, kind, x, y, z, layer, data, size, store, boundaryMode)`. */
export function lowerSurfaceAccess(L: Lowering, i: LInstruction): void {
  const ops = i.operands.map((o) => L.reg(o) * WARP);
  const range = L.range;
  const visit = visitor(L);
  L.emitMemory((w, l) => {
    const id = handle(w, ops[0], l);
    const s = w.ctx.runtime.textures.surface(id);
    if (!s) throw new DeviceFault({ kind: 'invalid-pointer', message: `a surface access through ${id === 0 ? 'surface object 0 (none)' : `surface object ${id}, which is not one (never created, or destroyed)`}` }, range);
    const R = w.regs;
    accessSurface(w.ctx, s, R[ops[1] + l], R[ops[2] + l], R[ops[3] + l], R[ops[4] + l], R[ops[5] + l], R[ops[6] + l], R[ops[7] + l] >>> 0, R[ops[8] + l] !== 0, R[ops[9] + l], range, visit(w, l));
  });
}
