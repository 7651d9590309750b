// CUDA arrays, 3D copies, and texture and surface objects for a host program (CUDA Runtime API,
// "Memory Management" and "Texture Object Management"): arrays are device allocations the runtime
// lays out row by row and slice by slice (sims/runtime/textures.ts), copies to and from them go
// through the runtime's checked memcpy row by row, and texture and surface objects are handles
// whose descriptors the runtime keeps for device code's fetches. Structures are read with the
// wasm32 layouts of the project's headers (sims/clang/include/layouts.json). Mipmapped arrays
// and texture references stay refused (./cudaImports.ts).
import {
  ARRAY_CUBEMAP, ARRAY_LAYERED, ARRAY_SURFACE_LOAD_STORE, elementSizeOf, type ChannelFormat, type ChannelKind, type CudaArray, type TextureResource,
} from '../../runtime/textures';
import * as T from '../../frontend/types';
import { pointerAllocation } from '../../gpu/memory';
import { allocatedVariable, callSite, type HostContext } from './hostContext';

type Fn = (...args: number[]) => number;

/** Field offsets of the structures these calls read and write (wasm32; checked against layouts.json by the tests). */
export const TEXTURE_LAYOUTS = {
  cudaChannelFormatDesc: { size: 20, x: 0, y: 4, z: 8, w: 12, f: 16 },
  cudaExtent: { size: 12, width: 0, height: 4, depth: 8 },
  cudaPos: { size: 12, x: 0, y: 4, z: 8 },
  cudaPitchedPtr: { size: 16, ptr: 0, pitch: 4, xsize: 8, ysize: 12 },
  cudaMemcpy3DParms: { size: 80, srcArray: 0, srcPos: 4, srcPtr: 16, dstArray: 32, dstPos: 36, dstPtr: 48, extent: 64, kind: 76 },
  cudaResourceDesc: {
    size: 40, resType: 0, 'res.array.array': 4, 'res.linear.devPtr': 4, 'res.linear.desc': 8, 'res.linear.sizeInBytes': 28,
    'res.pitch2D.devPtr': 4, 'res.pitch2D.desc': 8, 'res.pitch2D.width': 28, 'res.pitch2D.height': 32, 'res.pitch2D.pitchInBytes': 36,
  },
  cudaTextureDesc: { size: 72, addressMode: 0, filterMode: 12, readMode: 16, borderColor: 24, normalizedCoords: 40 },
  cudaResourceViewDesc: { size: 32 },
} as const;
const L = TEXTURE_LAYOUTS;

/** cudaResourceType. */
const RESOURCE_ARRAY = 0;
const RESOURCE_MIPMAPPED = 1;
const RESOURCE_LINEAR = 2;
const RESOURCE_PITCH_2D = 3;
const CHANNEL_KINDS: Record<number, ChannelKind> = { 0: 'signed', 1: 'unsigned', 2: 'float' };
/** Rows of cudaMalloc3D start at multiples of this, as cudaMallocPitch's do. */
const PITCH_ALIGN = 512;

/** The C type of an array's elements, as a name for reports: channels innermost, then x, rows and slices. */
function elementType(format: ChannelFormat, rows: number, slices: number, width: number): T.Type | undefined {
  const bits = format.bits[0];
  const scalar =
    format.kind === 'float' ? (bits === 32 ? T.FLOAT : T.intType('unsigned short')) : T.intType(`${format.kind === 'unsigned' ? 'unsigned ' : ''}${bits === 8 ? 'char' : bits === 16 ? 'short' : 'int'}` as T.IntName);
  const channels = format.bits.filter((b) => b > 0).length;
  if (format.bits.some((b) => b !== 0 && b !== bits)) return undefined;
  let t: T.Type = channels > 1 ? { kind: 'array', of: scalar, size: channels } : scalar;
  t = { kind: 'array', of: t, size: width };
  if (rows > 1 || slices > 1) t = { kind: 'array', of: t, size: rows };
  if (slices > 1) t = { kind: 'array', of: t, size: slices };
  return t;
}

export function textureCalls(ctx: HostContext): { calls: Record<string, Fn>; prepareCopy3D: (parms: number) => (() => number) | number } {
  const { runtime, linear, flat, clock } = ctx;
  const table = runtime.textures;
  const invalid = (): number => runtime.status('cudaErrorInvalidValue');
  const ok = (): number => runtime.status('cudaSuccess');
  const u32 = (at: number): number => linear.view().getUint32(at, true);
  const readable = (at: number, size: number): boolean => linear.contains(at, size);
  /** A cudaExtent's width, height and depth. */
  const extentAt = (at: number): number[] => [L.cudaExtent.width, L.cudaExtent.height, L.cudaExtent.depth].map((o) => u32(at + o));

  const readFormat = (at: number): ChannelFormat | undefined => {
    const v = linear.view();
    const kind = CHANNEL_KINDS[v.getInt32(at + L.cudaChannelFormatDesc.f, true)];
    if (!kind) return undefined;
    const bits = [L.cudaChannelFormatDesc.x, L.cudaChannelFormatDesc.y, L.cudaChannelFormatDesc.z, L.cudaChannelFormatDesc.w].map((o) => v.getInt32(at + o, true));
    return { bits: bits as unknown as ChannelFormat['bits'], kind };
  };
  const writeFormat = (at: number, f: ChannelFormat): void => {
    const v = linear.view();
    [L.cudaChannelFormatDesc.x, L.cudaChannelFormatDesc.y, L.cudaChannelFormatDesc.z, L.cudaChannelFormatDesc.w].forEach((o, i) => v.setInt32(at + o, f.bits[i], true));
    v.setInt32(at + L.cudaChannelFormatDesc.f, f.kind === 'signed' ? 0 : f.kind === 'unsigned' ? 1 : 2, true);
  };

  /** A new array of `width` × `rows` × `slices` elements; its handle written through `out`. */
  const makeArray = (out: number, formatAt: number, width: number, height: number, depth: number, flags: number, rows: number, slices: number, what: string): number => {
    if (!readable(out, 4) || !readable(formatAt, L.cudaChannelFormatDesc.size)) return invalid();
    const format = readFormat(formatAt);
    const elementSize = format ? elementSizeOf(format) : 'an unknown channel kind';
    if (typeof elementSize === 'string' || width <= 0 || rows <= 0 || slices <= 0) return invalid();
    const at = callSite(ctx).range;
    const dims = `${width}${height ? `×${height}` : ''}${depth ? `×${depth}` : ''}`;
    const r = runtime.malloc(elementSize * width * rows * slices, allocatedVariable(ctx, at) ?? `${what}(${dims})`, at);
    if (r.error) return r.error;
    const handle = flat.flatOf(r.pointer);
    const array: CudaArray = { pointer: r.pointer, format: format!, elementSize, width, height, depth, flags, rows, slices };
    // Reports name an element as the program would index a C array of it (`image[y][x]`).
    const a = ctx.memory.allocation(pointerAllocation(r.pointer));
    const type = elementType(format!, rows, slices, width);
    if (a && type && /^[A-Za-z_]\w*$/.test(a.label)) a.layout = [{ name: a.label, offset: 0, type }];
    table.addArray(handle, array);
    linear.setU32(out, handle);
    return 0;
  };

  /** The array a handle names; undefined (and the error recorded by the caller) when it names none. */
  const arrayOf = (handle: number): CudaArray | undefined => table.array(handle);

  /** Copies `height` rows of `width` bytes between two places with their own row pitches (pointers of the runtime). */
  const copyRows = (dst: number, dpitch: number, src: number, spitch: number, width: number, height: number, kind: number): number => {
    clock.copy(width * height);
    for (let row = 0; row < height; row++) {
      const e = runtime.memcpy(dst + row * dpitch, src + row * spitch, width, kind);
      if (e) return e;
    }
    return ok();
  };

  /** The runtime pointer of byte `xBytes` of row `y` of slice 0 of an array, if `height` rows of `width` bytes from there are in it. */
  const arrayAt = (a: CudaArray, xBytes: number, y: number, width: number, height: number): number | undefined => {
    const rowBytes = a.width * a.elementSize;
    // The 2D copies reach the first slice (layer, face) only, as CUDA's do.
    if (xBytes < 0 || y < 0 || xBytes + width > rowBytes || y + height > a.rows) return undefined;
    return a.pointer + y * rowBytes + xBytes;
  };

  const toArray2D = (dst: number, wOffset: number, hOffset: number, src: number, spitch: number, width: number, height: number, kind: number): number => {
    const a = arrayOf(dst);
    const at = a && arrayAt(a, wOffset, hOffset, width, height);
    if (at === undefined || width > spitch) return invalid();
    return copyRows(at, a!.width * a!.elementSize, flat.pointerOf(src), spitch, width, height, kind);
  };
  const fromArray2D = (dst: number, dpitch: number, src: number, wOffset: number, hOffset: number, width: number, height: number, kind: number): number => {
    const a = arrayOf(src);
    const at = a && arrayAt(a, wOffset, hOffset, width, height);
    if (at === undefined || width > dpitch) return invalid();
    return copyRows(flat.pointerOf(dst), dpitch, at, a!.width * a!.elementSize, width, height, kind);
  };
  /** The deprecated 1D forms: `count` bytes from byte `wOffset` of row `hOffset`, running on across rows. */
  const linearCopy = (array: number, wOffset: number, hOffset: number, other: number, count: number, kind: number, into: boolean): number => {
    const a = arrayOf(array);
    if (!a) return invalid();
    const rowBytes = a.width * a.elementSize;
    const start = hOffset * rowBytes + wOffset;
    if (wOffset < 0 || wOffset >= rowBytes || start + count > rowBytes * a.rows * a.slices) return invalid();
    clock.copy(count);
    return into ? runtime.memcpy(a.pointer + start, flat.pointerOf(other), count, kind) : runtime.memcpy(flat.pointerOf(other), a.pointer + start, count, kind);
  };
  const arrayToArray2D = (dst: number, wDst: number, hDst: number, src: number, wSrc: number, hSrc: number, width: number, height: number, kind: number): number => {
    const d = arrayOf(dst);
    const s = arrayOf(src);
    const dAt = d && arrayAt(d, wDst, hDst, width, height);
    const sAt = s && arrayAt(s, wSrc, hSrc, width, height);
    if (dAt === undefined || sAt === undefined) return invalid();
    return copyRows(dAt, d!.width * d!.elementSize, sAt, s!.width * s!.elementSize, width, height, kind);
  };

  /**
   * cudaMemcpy3D: a box of `extent` between two arrays or pitched pointers. With an array on
   * either side the extent's width (and an array side's x position) counts elements; with
   * pitched pointers on both sides, bytes.
   */
  const prepareCopy3D = (parms: number): (() => number) | number => {
    if (!readable(parms, L.cudaMemcpy3DParms.size)) return invalid();
    const P = L.cudaMemcpy3DParms;
    const side = (arrayAt: number, posAt: number, ptrAt: number) => {
      const handle = u32(parms + arrayAt);
      const pos = [0, 4, 8].map((o) => u32(parms + posAt + o));
      if (handle) {
        const a = arrayOf(handle);
        return a ? { base: a.pointer, pitch: a.width * a.elementSize, rows: a.rows, elementSize: a.elementSize, pos, limit: a.width * a.elementSize, slices: a.slices } : undefined;
      }
      const p = u32(parms + ptrAt + L.cudaPitchedPtr.ptr);
      const pitch = u32(parms + ptrAt + L.cudaPitchedPtr.pitch);
      const rows = u32(parms + ptrAt + L.cudaPitchedPtr.ysize);
      return { base: flat.pointerOf(p), pitch, rows: Math.max(rows, 1), elementSize: 0, pos, limit: pitch, slices: Infinity };
    };
    const src = side(P.srcArray, P.srcPos, P.srcPtr);
    const dst = side(P.dstArray, P.dstPos, P.dstPtr);
    if (!src || !dst) return invalid();
    const es = dst.elementSize || src.elementSize;
    if (dst.elementSize && src.elementSize && dst.elementSize !== src.elementSize) return invalid();
    const [w, h, d] = [0, 4, 8].map((o) => u32(parms + P.extent + o));
    const widthBytes = es ? w * es : w;
    const height = Math.max(h, 1);
    const depth = Math.max(d, 1);
    const kind = linear.view().getInt32(parms + P.kind, true);
    const startOf = (s: NonNullable<typeof src>): number => (s.elementSize ? s.pos[0] * s.elementSize : s.pos[0]);
    for (const s of [src, dst]) if (startOf(s) + widthBytes > s.limit || s.pos[1] + height > s.rows || s.pos[2] + depth > s.slices) return invalid();
    return () => {
      clock.copy(widthBytes * height * depth);
      for (let z = 0; z < depth; z++) {
        for (let y = 0; y < height; y++) {
          const row = (s: NonNullable<typeof src>): number => s.base + ((s.pos[2] + z) * s.rows + s.pos[1] + y) * s.pitch + startOf(s);
          const e = runtime.memcpy(row(dst), row(src), widthBytes, kind);
          if (e) return e;
        }
      }
      return ok();
    };
  };
  const copy3D = (parms: number): number => {
    const prepared = prepareCopy3D(parms);
    return typeof prepared === 'number' ? prepared : prepared();
  };

  /** The resource a cudaResourceDesc describes, or why it is not one the runtime can read. */
  const readResource = (at: number): TextureResource | number => {
    const R = L.cudaResourceDesc;
    const v = linear.view();
    const type = v.getInt32(at + R.resType, true);
    if (type === RESOURCE_ARRAY) {
      const array = arrayOf(u32(at + R['res.array.array']));
      return array ? { kind: 'array', array } : invalid();
    }
    if (type === RESOURCE_MIPMAPPED) return runtime.status('cudaErrorNotSupported');
    const pitched = type === RESOURCE_PITCH_2D;
    if (type !== RESOURCE_LINEAR && !pitched) return invalid();
    const format = readFormat(at + (pitched ? R['res.pitch2D.desc'] : R['res.linear.desc']));
    const elementSize = format ? elementSizeOf(format) : 'unknown';
    if (typeof elementSize === 'string') return invalid();
    const pointer = flat.pointerOf(u32(at + (pitched ? R['res.pitch2D.devPtr'] : R['res.linear.devPtr'])));
    if (!pitched) return { kind: 'linear', pointer, format: format!, elementSize, bytes: u32(at + R['res.linear.sizeInBytes']) };
    const width = u32(at + R['res.pitch2D.width']);
    const height = u32(at + R['res.pitch2D.height']);
    const pitch = u32(at + R['res.pitch2D.pitchInBytes']);
    if (width * elementSize > pitch) return invalid();
    return { kind: 'pitch2D', pointer, format: format!, elementSize, width, height, pitch };
  };

  const copyOut = (bytes: Uint8Array | undefined, out: number, size: number): number => {
    if (!readable(out, size)) return invalid();
    linear.bytes(out, size).set(bytes ?? new Uint8Array(size));
    return ok();
  };
  /** A 64-bit object handle written through `out`. */
  const writeHandle = (out: number, handle: number): void => {
    linear.setU32(out, handle);
    linear.setU32(out + 4, 0);
  };

  const calls: Record<string, Fn> = {
    cudaMallocArray: (out, format, width, height, flags) => makeArray(out, format, width, height, 0, flags, Math.max(height, 1), 1, 'cudaMallocArray'),
    cudaMalloc3DArray: (out, format, extent, flags) => {
      if (!readable(extent, L.cudaExtent.size)) return invalid();
      const [w, h, d] = extentAt(extent);
      const layered = (flags & ARRAY_LAYERED) !== 0;
      if (flags & ARRAY_CUBEMAP) {
        // A cubemap: square faces, six of them (six per layer when layered).
        if (w !== h || d === 0 || d % 6 !== 0 || (!layered && d !== 6)) return invalid();
        return makeArray(out, format, w, h, d, flags, h, d, 'cudaMalloc3DArray');
      }
      // Layered: depth counts layers (a 1D layered array has no height); otherwise a 1D, 2D or 3D array.
      if (layered && d === 0) return invalid();
      return makeArray(out, format, w, h, d, flags, Math.max(h, 1), Math.max(d, 1), 'cudaMalloc3DArray');
    },
    cudaFreeArray: (handle) => {
      if (handle === 0) return ok();
      const a = table.removeArray(handle);
      return a ? runtime.free(a.pointer) : invalid();
    },
    cudaArrayGetInfo: (formatOut, extentOut, flagsOut, handle) => {
      const a = arrayOf(handle);
      if (!a) return invalid();
      if (formatOut && readable(formatOut, L.cudaChannelFormatDesc.size)) writeFormat(formatOut, a.format);
      if (extentOut && readable(extentOut, L.cudaExtent.size)) {
        linear.setU32(extentOut + L.cudaExtent.width, a.width);
        linear.setU32(extentOut + L.cudaExtent.height, a.height);
        linear.setU32(extentOut + L.cudaExtent.depth, a.depth);
      }
      if (flagsOut && readable(flagsOut, 4)) linear.setU32(flagsOut, a.flags);
      return ok();
    },
    cudaGetChannelDesc: (out, handle) => {
      const a = arrayOf(handle);
      if (!a || !readable(out, L.cudaChannelFormatDesc.size)) return invalid();
      writeFormat(out, a.format);
      return ok();
    },
    cudaMemcpyToArray: (dst, wOffset, hOffset, src, count, kind) => linearCopy(dst, wOffset, hOffset, src, count, kind, true),
    cudaMemcpyToArrayAsync: (dst, wOffset, hOffset, src, count, kind) => linearCopy(dst, wOffset, hOffset, src, count, kind, true),
    cudaMemcpyFromArray: (dst, src, wOffset, hOffset, count, kind) => linearCopy(src, wOffset, hOffset, dst, count, kind, false),
    cudaMemcpyFromArrayAsync: (dst, src, wOffset, hOffset, count, kind) => linearCopy(src, wOffset, hOffset, dst, count, kind, false),
    cudaMemcpy2DToArray: toArray2D,
    cudaMemcpy2DToArrayAsync: toArray2D,
    cudaMemcpy2DFromArray: fromArray2D,
    cudaMemcpy2DFromArrayAsync: fromArray2D,
    cudaMemcpy2DArrayToArray: arrayToArray2D,
    cudaMemcpyArrayToArray: (dst, wDst, hDst, src, wSrc, hSrc, count, kind) => {
      const d = arrayOf(dst);
      const s = arrayOf(src);
      if (!d || !s) return invalid();
      const dStart = hDst * d.width * d.elementSize + wDst;
      const sStart = hSrc * s.width * s.elementSize + wSrc;
      clock.copy(count);
      return runtime.memcpy(d.pointer + dStart, s.pointer + sStart, count, kind);
    },
    cudaMemcpy3D: copy3D,
    cudaMemcpy3DAsync: copy3D,
    cudaMalloc3D: (out, extent) => {
      if (!readable(out, L.cudaPitchedPtr.size) || !readable(extent, L.cudaExtent.size)) return invalid();
      const [w, h, d] = extentAt(extent);
      const pitch = Math.max(PITCH_ALIGN, Math.ceil(w / PITCH_ALIGN) * PITCH_ALIGN);
      const at = callSite(ctx).range;
      const r = runtime.malloc(pitch * Math.max(h, 1) * Math.max(d, 1), allocatedVariable(ctx, at) ?? `cudaMalloc3D(${w}×${h}×${d})`, at);
      if (r.error) return r.error;
      linear.setU32(out + L.cudaPitchedPtr.ptr, flat.flatOf(r.pointer));
      linear.setU32(out + L.cudaPitchedPtr.pitch, pitch);
      linear.setU32(out + L.cudaPitchedPtr.xsize, w);
      linear.setU32(out + L.cudaPitchedPtr.ysize, h);
      return ok();
    },
    cudaMemset3D: (pitched, value, extent) => {
      if (!readable(pitched, L.cudaPitchedPtr.size) || !readable(extent, L.cudaExtent.size)) return invalid();
      const base = flat.pointerOf(u32(pitched + L.cudaPitchedPtr.ptr));
      const pitch = u32(pitched + L.cudaPitchedPtr.pitch);
      const rows = Math.max(u32(pitched + L.cudaPitchedPtr.ysize), 1);
      const [w, h, d] = extentAt(extent);
      if (w > pitch) return invalid();
      for (let z = 0; z < Math.max(d, 1); z++) {
        for (let y = 0; y < Math.max(h, 1); y++) {
          const e = runtime.memset(base + (z * rows + y) * pitch, value, w);
          if (e) return e;
        }
      }
      return ok();
    },
    cudaCreateTextureObject: (out, resAt, texAt, viewAt) => {
      if (!readable(out, 8) || !readable(resAt, L.cudaResourceDesc.size) || !readable(texAt, L.cudaTextureDesc.size)) return invalid();
      const resource = readResource(resAt);
      if (typeof resource === 'number') return resource;
      const v = linear.view();
      const T = L.cudaTextureDesc;
      const modes = [0, 4, 8].map((o) => v.getInt32(texAt + T.addressMode + o, true));
      const border = [0, 4, 8, 12].map((o) => v.getFloat32(texAt + T.borderColor + o, true));
      const handle = table.addTexture({
        resource,
        addressModes: modes as unknown as [number, number, number],
        linearFilter: v.getInt32(texAt + T.filterMode, true) === 1,
        normalizedRead: v.getInt32(texAt + T.readMode, true) === 1,
        normalizedCoords: v.getInt32(texAt + T.normalizedCoords, true) !== 0,
        borderColor: border as unknown as [number, number, number, number],
        resourceDesc: linear.bytes(resAt, L.cudaResourceDesc.size).slice(),
        textureDesc: linear.bytes(texAt, L.cudaTextureDesc.size).slice(),
        viewDesc: viewAt && readable(viewAt, L.cudaResourceViewDesc.size) ? linear.bytes(viewAt, L.cudaResourceViewDesc.size).slice() : undefined,
      });
      writeHandle(out, handle);
      return ok();
    },
    cudaDestroyTextureObject: (handle) => (handle === 0 || table.removeTexture(handle) ? ok() : invalid()),
    cudaGetTextureObjectResourceDesc: (out, handle) => {
      const t = table.texture(handle);
      return t ? copyOut(t.resourceDesc, out, L.cudaResourceDesc.size) : invalid();
    },
    cudaGetTextureObjectTextureDesc: (out, handle) => {
      const t = table.texture(handle);
      return t ? copyOut(t.textureDesc, out, L.cudaTextureDesc.size) : invalid();
    },
    cudaGetTextureObjectResourceViewDesc: (out, handle) => {
      const t = table.texture(handle);
      return t ? copyOut(t.viewDesc, out, L.cudaResourceViewDesc.size) : invalid();
    },
    cudaCreateSurfaceObject: (out, resAt) => {
      if (!readable(out, 8) || !readable(resAt, L.cudaResourceDesc.size)) return invalid();
      const resource = readResource(resAt);
      if (typeof resource === 'number') return resource;
      // A surface is a CUDA array made for surface loads and stores.
      if (resource.kind !== 'array' || (resource.array.flags & ARRAY_SURFACE_LOAD_STORE) === 0) return invalid();
      writeHandle(out, table.addSurface({ array: resource.array, resourceDesc: linear.bytes(resAt, L.cudaResourceDesc.size).slice() }));
      return ok();
    },
    cudaDestroySurfaceObject: (handle) => (handle === 0 || table.removeSurface(handle) ? ok() : invalid()),
    cudaGetSurfaceObjectResourceDesc: (out, handle) => {
      const s = table.surface(handle);
      return s ? copyOut(s.resourceDesc, out, L.cudaResourceDesc.size) : invalid();
    },
  };
  return { calls, prepareCopy3D };
}
