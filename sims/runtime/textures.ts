// CUDA arrays, texture objects and surface objects as the runtime keeps them (CUDA C++
// Programming Guide, "Texture and Surface Memory"). A CUDA array is a device allocation whose
// elements lie row after row, slice after slice (a layer, a cubemap face or a 3D slice); a
// texture or surface object is a small handle the program passes to kernels, and what it reads
// (its resource) and how (filtering, addressing, read mode) stay here, where device code's
// fetches find them (sims/clang/device/textures.ts samples them).

/** cudaChannelFormatKind: how each channel's bits read. */
export type ChannelKind = 'signed' | 'unsigned' | 'float';

/** A cudaChannelFormatDesc: the bits of up to four channels (x, y, z, w), all of one kind. */
export interface ChannelFormat {
  bits: readonly [number, number, number, number];
  kind: ChannelKind;
}

/** cudaArrayLayered, cudaArraySurfaceLoadStore, cudaArrayCubemap (driver_types.h). */
export const ARRAY_LAYERED = 0x01;
export const ARRAY_SURFACE_LOAD_STORE = 0x02;
export const ARRAY_CUBEMAP = 0x04;

export interface CudaArray {
  /** The device allocation that holds the elements. */
  pointer: number;
  format: ChannelFormat;
  /** Bytes of one element (all its channels). */
  elementSize: number;
  /** The extent it was made with (cudaMallocArray: depth 0; a 1D array: height 0). */
  width: number;
  height: number;
  depth: number;
  flags: number;
  /** Rows per slice and slices (layers, faces, or 3D depth), each at least 1: where element (x, y, slice) lies. */
  rows: number;
  slices: number;
}

/** What a texture reads: a CUDA array, linear memory (tex1Dfetch), or pitched 2D memory. */
export type TextureResource =
  | { kind: 'array'; array: CudaArray }
  | { kind: 'linear'; pointer: number; format: ChannelFormat; elementSize: number; bytes: number }
  | { kind: 'pitch2D'; pointer: number; format: ChannelFormat; elementSize: number; width: number; height: number; pitch: number };

/** cudaTextureAddressMode. */
export const ADDRESS_WRAP = 0;
export const ADDRESS_CLAMP = 1;
export const ADDRESS_MIRROR = 2;
export const ADDRESS_BORDER = 3;

export interface TextureObject {
  resource: TextureResource;
  /** cudaTextureAddressMode per dimension (x, y, z). */
  addressModes: readonly [number, number, number];
  /** cudaFilterModeLinear (else point sampling). */
  linearFilter: boolean;
  /** cudaReadModeNormalizedFloat: 8- and 16-bit integer channels read as floats in [0, 1] or [-1, 1]. */
  normalizedRead: boolean;
  normalizedCoords: boolean;
  borderColor: readonly [number, number, number, number];
  /** The descriptors as the program wrote them, for cudaGetTextureObject*Desc. */
  resourceDesc: Uint8Array;
  textureDesc: Uint8Array;
  viewDesc: Uint8Array | undefined;
}

export interface SurfaceObject {
  array: CudaArray;
  resourceDesc: Uint8Array;
}

/** Bytes of one element of the format, or a reason it is not a format the runtime knows. */
export function elementSizeOf(format: ChannelFormat): number | string {
  let bytes = 0;
  let ended = false;
  for (const b of format.bits) {
    if (b === 0) {
      ended = true;
      continue;
    }
    if (ended) return 'a channel format with a gap between its channels';
    if (b !== 8 && b !== 16 && b !== 32) return `a ${b}-bit channel (channels are 8, 16 or 32 bits)`;
    if (format.kind === 'float' && b === 8) return 'an 8-bit float channel';
    bytes += b / 8;
  }
  return bytes === 0 ? 'a channel format with no channels' : bytes;
}

/** A texture fetch reads floats: float channels, or integers of 8 or 16 bits read normalised. */
export function readsFloat(t: TextureObject): boolean {
  const f = formatOf(t.resource);
  return f.kind === 'float' || (t.normalizedRead && f.bits.every((b) => b <= 16));
}

export function formatOf(r: TextureResource): ChannelFormat {
  return r.kind === 'array' ? r.array.format : r.format;
}

export function elementSizeOfResource(r: TextureResource): number {
  return r.kind === 'array' ? r.array.elementSize : r.elementSize;
}

/**
 * The program's CUDA arrays, texture objects and surface objects. Arrays are named by the
 * handle the program holds (cudaArray_t); texture and surface objects by 64-bit integers from
 * 1 (0 is no object), never reused within a run.
 */
export class TextureTable {
  private readonly arrays = new Map<number, CudaArray>();
  private readonly textures = new Map<number, TextureObject>();
  private readonly surfaces = new Map<number, SurfaceObject>();
  private nextObject = 1;

  addArray(handle: number, array: CudaArray): void {
    this.arrays.set(handle, array);
  }

  array(handle: number): CudaArray | undefined {
    return this.arrays.get(handle);
  }

  removeArray(handle: number): CudaArray | undefined {
    const a = this.arrays.get(handle);
    this.arrays.delete(handle);
    return a;
  }

  addTexture(t: TextureObject): number {
    const handle = this.nextObject++;
    this.textures.set(handle, t);
    return handle;
  }

  texture(handle: number): TextureObject | undefined {
    return this.textures.get(handle);
  }

  removeTexture(handle: number): boolean {
    return this.textures.delete(handle);
  }

  addSurface(s: SurfaceObject): number {
    const handle = this.nextObject++;
    this.surfaces.set(handle, s);
    return handle;
  }

  surface(handle: number): SurfaceObject | undefined {
    return this.surfaces.get(handle);
  }

  removeSurface(handle: number): boolean {
    return this.surfaces.delete(handle);
  }
}
