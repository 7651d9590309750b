// Texture fetches and surface accesses of device code: the hooks of texture_indirect_functions.h
// and surface_indirect_functions.h (sims/clang/include/HOOKS.md) on the runtime's texture
// objects (sims/runtime/textures.ts), as the CUDA C++ Programming Guide's "Texture Fetching"
// appendix describes the texture unit: coordinates normalised or not, wrap, clamp, mirror and
// border addressing, nearest-point and linear filtering with the hardware's 9-bit fixed-point
// weights (8 fractional bits), integer channels read as normalised floats, layers, cubemap faces
// chosen by the major axis of the direction, and gathers. Elements are read and written through
// the simulator's checked loads and stores, so a texture over freed memory faults and a launch
// that reads a CUDA array is known to read it.
import { DeviceFault, load, store, type AccessContext } from '../../gpu/access';
import type { ScalarKind } from '../../gpu/memory';
import type { Range } from '../../frontend/source';
import {
  ADDRESS_BORDER, ADDRESS_CLAMP, ADDRESS_MIRROR, ADDRESS_WRAP, elementSizeOfResource, formatOf, readsFloat, type ChannelFormat, type SurfaceObject, type TextureObject,
} from '../../runtime/textures';
import { fromHalfBits } from './numbers';

/** Each element a fetch reads or a surface access touches, for the detector. */
export type ElementVisit = (pointer: number, size: number, write: boolean) => void;

/** The `kind` argument of the hooks (texture_indirect_functions.h). */
const DIMENSIONS = 0x0f;
const CUBEMAP = 0x0c;
const LAYERED = 0xf0;
const GATHER = 0x200;

/** cudaSurfaceBoundaryMode. */
const BOUNDARY_ZERO = 0;
const BOUNDARY_CLAMP = 1;

/** Where the elements of a resource lie: element (x, y) of slice `slice` (a layer, face or 3D slice). */
interface Image {
  width: number;
  height: number;
  /** Slices: 3D depth, layers, or six faces per cubemap layer. */
  slices: number;
  elementSize: number;
  format: ChannelFormat;
  at(x: number, y: number, slice: number): number;
}

function imageOf(t: TextureObject, fetch: string, range: Range): Image {
  const r = t.resource;
  const format = formatOf(r);
  const elementSize = elementSizeOfResource(r);
  if (r.kind === 'array') {
    const a = r.array;
    return { width: a.width, height: a.rows, slices: a.slices, elementSize, format, at: (x, y, s) => a.pointer + ((s * a.rows + y) * a.width + x) * elementSize };
  }
  if (r.kind === 'pitch2D') return { width: r.width, height: r.height, slices: 1, elementSize, format, at: (x, y) => r.pointer + y * r.pitch + x * elementSize };
  throw new DeviceFault({ kind: 'invalid-pointer', message: `${fetch} of a texture object over linear memory (read it with tex1Dfetch)` }, range);
}

/** An index of a texel along one axis of `n` texels under an address mode; -1 for the border. */
function address(i: number, n: number, mode: number): number {
  if (!Number.isFinite(i)) i = Number.isNaN(i) ? 0 : i > 0 ? n - 1 : 0;
  switch (mode) {
    case ADDRESS_WRAP:
      return ((i % n) + n) % n;
    case ADDRESS_MIRROR: {
      const m = ((i % (2 * n)) + 2 * n) % (2 * n);
      return m < n ? m : 2 * n - 1 - m;
    }
    case ADDRESS_BORDER:
      return i < 0 || i >= n ? -1 : i;
    default:
      return Math.min(Math.max(i, 0), n - 1);
  }
}

/**
 * The two texels along one axis that a fetch at coordinate `c` combines, into `at[2k]` and
 * `at[2k + 1]`, and the weight of the second: point sampling takes one texel (twice, weight 0).
 */
function axis(c: number, n: number, mode: number, normalized: boolean, linear: boolean, at: Int32Array, k: number): number {
  // Wrap and mirror need normalised coordinates; otherwise they clamp (the guide's rule).
  if (!normalized && (mode === ADDRESS_WRAP || mode === ADDRESS_MIRROR)) mode = ADDRESS_CLAMP;
  const x = normalized ? c * n : c;
  if (!linear) {
    at[2 * k] = at[2 * k + 1] = address(Math.floor(x), n, mode);
    return 0;
  }
  const shifted = x - 0.5;
  const i = Math.floor(shifted);
  at[2 * k] = address(i, n, mode);
  at[2 * k + 1] = address(i + 1, n, mode);
  const frac = Number.isFinite(shifted) ? shifted - i : 0;
  return Math.round(frac * 256) / 256;
}

/** Reads one element's four components into `c` (floats when `asFloat`, else integers). */
function readElement(ctx: AccessContext, p: number, format: ChannelFormat, normalizedRead: boolean, asFloat: boolean, range: Range, c: Float64Array): void {
  let off = 0;
  for (let i = 0; i < 4; i++) {
    const bits = format.bits[i];
    if (bits === 0) {
      c[i] = asFloat && i === 3 ? 1 : 0;
      continue;
    }
    let v: number;
    if (format.kind === 'float') v = bits === 16 ? fromHalfBits(load(ctx, p + off, 'u16', range)) : load(ctx, p + off, 'f32', range);
    else {
      const kind = `${format.kind === 'signed' ? 'i' : 'u'}${bits}` as ScalarKind;
      v = load(ctx, p + off, kind, range);
      if (asFloat && normalizedRead) v = format.kind === 'unsigned' ? v / (2 ** bits - 1) : Math.max(v / (2 ** (bits - 1) - 1), -1);
    }
    c[i] = v;
    off += bits / 8;
  }
}

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

/** The four words a fetch hands back: floats as their bits, integers as themselves. */
function writeTexel(c: Float64Array, asFloat: boolean, out: Uint32Array): void {
  for (let i = 0; i < 4; i++) {
    if (asFloat) {
      F32[0] = c[i];
      out[i] = U32[0];
    } else out[i] = c[i] >>> 0;
  }
}

/** The cubemap face a direction points at and the normalised coordinates on it (the guide's cubemap table). */
function cubeFace(x: number, y: number, z: number): [number, number, number] {
  const ax = Math.abs(x);
  const ay = Math.abs(y);
  const az = Math.abs(z);
  let face: number;
  let s: number;
  let t: number;
  let m: number;
  if (ax >= ay && ax >= az) {
    m = ax;
    face = x >= 0 ? 0 : 1;
    s = x >= 0 ? -z : z;
    t = -y;
  } else if (ay >= az) {
    m = ay;
    face = y >= 0 ? 2 : 3;
    s = x;
    t = y >= 0 ? z : -z;
  } else {
    m = az;
    face = z >= 0 ? 4 : 5;
    s = z >= 0 ? x : -x;
    t = -y;
  }
  if (!(m > 0)) return [0, 0.5, 0.5];
  return [face, (s / m + 1) / 2, (t / m + 1) / 2];
}

const CORNERS = new Int32Array(6);
const TEXEL = new Float64Array(4);
const SUM = new Float64Array(4);

/**
 * A texture fetch (tex1D, tex2D, tex3D, their layered, cubemap, level-of-detail and gather
 * forms): the texel at the coordinates into `out`, as four words. There are no mipmaps: a
 * level of detail reads level 0.
 */
export function fetchTexture(ctx: AccessContext, t: TextureObject, kind: number, x: number, y: number, z: number, layer: number, out: Uint32Array, range: Range, visit?: ElementVisit): void {
  const dims = kind & DIMENSIONS;
  const cubemap = dims === CUBEMAP;
  const image = imageOf(t, 'a texture fetch', range);
  const asFloat = readsFloat(t);
  const gather = (kind & GATHER) !== 0;
  // Filtering needs floats; an integer texture is always point-sampled.
  const linear = (t.linearFilter && asFloat) || gather;
  let normalized = t.normalizedCoords;
  let modes: readonly number[] = t.addressModes;
  let slice = 0;
  let depth = 1;
  if (cubemap) {
    const [face, s, u] = cubeFace(x, y, z);
    const layers = Math.max(1, Math.floor(image.slices / 6));
    slice = face + ((kind & LAYERED) !== 0 ? 6 * Math.min(Math.max(layer, 0), layers - 1) : 0);
    x = s;
    y = u;
    normalized = true;
    modes = [ADDRESS_CLAMP, ADDRESS_CLAMP, ADDRESS_CLAMP];
  } else if ((kind & LAYERED) !== 0) slice = Math.min(Math.max(layer, 0), image.slices - 1);
  else if (dims === 3) depth = image.slices;
  const plane = cubemap ? 2 : Math.min(dims, 3);
  const ax = axis(x, image.width, modes[0], normalized, linear, CORNERS, 0);
  const ay = plane >= 2 ? axis(y, image.height, modes[1], normalized, linear, CORNERS, 1) : ((CORNERS[2] = CORNERS[3] = 0), 0);
  const az = plane === 3 ? axis(z, depth, modes[2], normalized, linear, CORNERS, 2) : ((CORNERS[4] = CORNERS[5] = 0), 0);
  const texel = (i: number, j: number, k: number): Float64Array => {
    if (i < 0 || j < 0 || k < 0) {
      for (let c = 0; c < 4; c++) TEXEL[c] = asFloat ? t.borderColor[c] : Math.trunc(t.borderColor[c]);
      return TEXEL;
    }
    const p = image.at(i, j, plane === 3 ? k : slice);
    visit?.(p, image.elementSize, false);
    readElement(ctx, p, image.format, t.normalizedRead, asFloat, range, TEXEL);
    return TEXEL;
  };
  if (gather) {
    // The four texels bilinear filtering would combine, component `layer` of each, in the
    // order (x0, y1), (x1, y1), (x1, y0), (x0, y0).
    const comp = Math.min(Math.max(layer, 0), 3);
    const order = [[0, 1], [1, 1], [1, 0], [0, 0]];
    for (let q = 0; q < 4; q++) SUM[q] = texel(CORNERS[order[q][0]], CORNERS[2 + order[q][1]], 0)[comp];
    writeTexel(SUM, asFloat, out);
    return;
  }
  if (!linear) {
    writeTexel(texel(CORNERS[0], CORNERS[2], CORNERS[4]), asFloat, out);
    return;
  }
  SUM.fill(0);
  for (let k = 0; k < (plane === 3 ? 2 : 1); k++) {
    for (let j = 0; j < (plane >= 2 ? 2 : 1); j++) {
      for (let i = 0; i < 2; i++) {
        const w = (i ? ax : 1 - ax) * (plane >= 2 ? (j ? ay : 1 - ay) : 1) * (plane === 3 ? (k ? az : 1 - az) : 1);
        if (w === 0) continue;
        const v = texel(CORNERS[i], CORNERS[2 + j], CORNERS[4 + k]);
        for (let c = 0; c < 4; c++) SUM[c] += w * v[c];
      }
    }
  }
  writeTexel(SUM, asFloat, out);
}

/** tex1Dfetch: element `x` of a texture over linear memory (no filtering; outside it, zeros). */
export function fetchLinear(ctx: AccessContext, t: TextureObject, x: number, out: Uint32Array, range: Range, visit?: ElementVisit): void {
  const r = t.resource;
  if (r.kind !== 'linear') throw new DeviceFault({ kind: 'invalid-pointer', message: 'tex1Dfetch of a texture object over a CUDA array or pitched memory (read it with tex1D or tex2D)' }, range);
  const asFloat = readsFloat(t);
  if (!(x >= 0 && (x + 1) * r.elementSize <= r.bytes)) {
    out.fill(0);
    return;
  }
  const p = r.pointer + x * r.elementSize;
  visit?.(p, r.elementSize, false);
  readElement(ctx, p, r.format, t.normalizedRead, asFloat, range, TEXEL);
  writeTexel(TEXEL, asFloat, out);
}

/**
 * surf*Dread / surf*Dwrite: `size` bytes at byte column `x`, row `y`, and slice (3D depth,
 * layer, or cubemap face in `z`) of the surface's array, copied from (`write`) or into `data`.
 * Outside the array the boundary mode decides: a fault (trap), the nearest element (clamp),
 * or nothing written and zeros read (zero).
 */
export function accessSurface(ctx: AccessContext, s: SurfaceObject, kind: number, x: number, y: number, z: number, layer: number, data: number, size: number, write: boolean, boundary: number, range: Range, visit?: ElementVisit): void {
  const a = s.array;
  const es = a.elementSize;
  const dims = kind & DIMENSIONS;
  const what = `${write ? 'a surface write' : 'a surface read'} at byte ${x}${dims >= 2 ? `, row ${y}` : ''}`;
  if (x % es !== 0) throw new DeviceFault({ kind: 'misaligned', message: `${what}: the column is not a multiple of the ${es}-byte element` }, range);
  const slice = dims === CUBEMAP ? z + 6 * Math.max(layer, 0) : (kind & LAYERED) !== 0 ? layer : dims === 3 ? z : 0;
  const coords: [number, number, number] = [x / es, dims >= 2 ? y : 0, slice];
  const extent: [number, number, number] = [a.width, a.rows, a.slices];
  for (let d = 0; d < 3; d++) {
    if (coords[d] >= 0 && coords[d] < extent[d]) continue;
    if (boundary === BOUNDARY_CLAMP) coords[d] = Math.min(Math.max(coords[d], 0), extent[d] - 1);
    else if (boundary === BOUNDARY_ZERO) {
      if (!write) for (let i = 0; i < size; i++) store(ctx, data + i, 'u8', 0, range);
      return;
    } else throw new DeviceFault({ kind: 'out-of-bounds', message: `${what} is outside the ${extent[0]}×${extent[1]}${extent[2] > 1 ? `×${extent[2]}` : ''} array of the surface` }, range);
  }
  const p = a.pointer + ((coords[2] * a.rows + coords[1]) * a.width + coords[0]) * es;
  visit?.(p, size, write);
  const step: ScalarKind = size % 4 === 0 ? 'u32' : size % 2 === 0 ? 'u16' : 'u8';
  const n = step === 'u32' ? 4 : step === 'u16' ? 2 : 1;
  for (let off = 0; off < size; off += n) {
    if (write) store(ctx, p + off, step, load(ctx, data + off, step, range), range);
    else store(ctx, data + off, step, load(ctx, p + off, step, range), range);
  }
}

