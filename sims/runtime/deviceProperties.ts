// What the simulated device says about itself: cudaGetDeviceProperties fills the program's
// `struct cudaDeviceProp` and cudaDeviceGetAttribute answers one attribute, both from the
// device preset (sims/gpu/devices.ts). The struct is laid out here as a wasm32 C compiler lays
// out the declaration in sims/clang/include/driver_types.h (size_t is 4 bytes): the field list
// below must follow that declaration's order (a unit test compares them).
import type { DeviceConfig } from '../gpu/devices';

type FieldKind = 'char' | 'int' | 'uint' | 'size_t';

/** cudaDeviceProp's fields in declaration order: name, element kind, element count. */
export const DEVICE_PROP_FIELDS: readonly (readonly [string, FieldKind, number])[] = [
  ['name', 'char', 256], ['uuid', 'char', 16], ['luid', 'char', 8], ['luidDeviceNodeMask', 'uint', 1],
  ['totalGlobalMem', 'size_t', 1], ['sharedMemPerBlock', 'size_t', 1], ['regsPerBlock', 'int', 1], ['warpSize', 'int', 1],
  ['memPitch', 'size_t', 1], ['maxThreadsPerBlock', 'int', 1], ['maxThreadsDim', 'int', 3], ['maxGridSize', 'int', 3],
  ['clockRate', 'int', 1], ['totalConstMem', 'size_t', 1], ['major', 'int', 1], ['minor', 'int', 1],
  ['textureAlignment', 'size_t', 1], ['texturePitchAlignment', 'size_t', 1], ['deviceOverlap', 'int', 1],
  ['multiProcessorCount', 'int', 1], ['kernelExecTimeoutEnabled', 'int', 1], ['integrated', 'int', 1],
  ['canMapHostMemory', 'int', 1], ['computeMode', 'int', 1], ['maxTexture1D', 'int', 1], ['maxTexture1DMipmap', 'int', 1],
  ['maxTexture1DLinear', 'int', 1], ['maxTexture2D', 'int', 2], ['maxTexture2DMipmap', 'int', 2], ['maxTexture2DLinear', 'int', 3],
  ['maxTexture2DGather', 'int', 2], ['maxTexture3D', 'int', 3], ['maxTexture3DAlt', 'int', 3], ['maxTextureCubemap', 'int', 1],
  ['maxTexture1DLayered', 'int', 2], ['maxTexture2DLayered', 'int', 3], ['maxTextureCubemapLayered', 'int', 2],
  ['maxSurface1D', 'int', 1], ['maxSurface2D', 'int', 2], ['maxSurface3D', 'int', 3], ['maxSurface1DLayered', 'int', 2],
  ['maxSurface2DLayered', 'int', 3], ['maxSurfaceCubemap', 'int', 1], ['maxSurfaceCubemapLayered', 'int', 2],
  ['surfaceAlignment', 'size_t', 1], ['concurrentKernels', 'int', 1], ['ECCEnabled', 'int', 1], ['pciBusID', 'int', 1],
  ['pciDeviceID', 'int', 1], ['pciDomainID', 'int', 1], ['tccDriver', 'int', 1], ['asyncEngineCount', 'int', 1],
  ['unifiedAddressing', 'int', 1], ['memoryClockRate', 'int', 1], ['memoryBusWidth', 'int', 1], ['l2CacheSize', 'int', 1],
  ['persistingL2CacheMaxSize', 'int', 1], ['maxThreadsPerMultiProcessor', 'int', 1], ['streamPrioritiesSupported', 'int', 1],
  ['globalL1CacheSupported', 'int', 1], ['localL1CacheSupported', 'int', 1], ['sharedMemPerMultiprocessor', 'size_t', 1],
  ['regsPerMultiprocessor', 'int', 1], ['managedMemory', 'int', 1], ['isMultiGpuBoard', 'int', 1], ['multiGpuBoardGroupID', 'int', 1],
  ['hostNativeAtomicSupported', 'int', 1], ['singleToDoublePrecisionPerfRatio', 'int', 1], ['pageableMemoryAccess', 'int', 1],
  ['concurrentManagedAccess', 'int', 1], ['computePreemptionSupported', 'int', 1], ['canUseHostPointerForRegisteredMem', 'int', 1],
  ['cooperativeLaunch', 'int', 1], ['cooperativeMultiDeviceLaunch', 'int', 1], ['sharedMemPerBlockOptin', 'size_t', 1],
  ['pageableMemoryAccessUsesHostPageTables', 'int', 1], ['directManagedMemAccessFromHost', 'int', 1],
  ['maxBlocksPerMultiProcessor', 'int', 1], ['accessPolicyMaxWindowSize', 'int', 1], ['reservedSharedMemPerBlock', 'size_t', 1],
  ['hostRegisterSupported', 'int', 1], ['sparseCudaArraySupported', 'int', 1], ['hostRegisterReadOnlySupported', 'int', 1],
  ['timelineSemaphoreInteropSupported', 'int', 1], ['memoryPoolsSupported', 'int', 1], ['gpuDirectRDMASupported', 'int', 1],
  ['gpuDirectRDMAFlushWritesOptions', 'uint', 1], ['gpuDirectRDMAWritesOrdering', 'int', 1], ['memoryPoolSupportedHandleTypes', 'uint', 1],
  ['deferredMappingCudaArraySupported', 'int', 1], ['ipcEventSupported', 'int', 1], ['clusterLaunch', 'int', 1],
  ['unifiedFunctionPointers', 'int', 1], ['reserved', 'int', 63],
];

/** Byte offset of each field and the struct's size, with wasm32 alignment (4 for every non-char field). */
export function devicePropLayout(): { offsets: Map<string, number>; size: number } {
  const offsets = new Map<string, number>();
  let at = 0;
  for (const [name, kind, count] of DEVICE_PROP_FIELDS) {
    const size = kind === 'char' ? 1 : 4;
    at = Math.ceil(at / size) * size;
    offsets.set(name, at);
    at += size * count;
  }
  return { offsets, size: Math.ceil(at / 4) * 4 };
}

/** Device memory a 32-bit program can be told about (size_t is 4 bytes in wasm32). */
const SIZE_T_MAX = 0xffff_ffff;
/** The default per-block limit of static shared memory; more takes the opt-in attribute. */
const DEFAULT_SHARED_PER_BLOCK = 48 * 1024;
/** The L2 cache the device reports (the simulator has no caches; programs size tiles by it). */
const L2_BYTES = 6 * 1024 * 1024;
/** The simulated clock runs a thread-step per nanosecond: a 1 GHz device. */
const CLOCK_KHZ = 1_000_000;

/** The value of each property, by field name (fields not listed are 0). */
export function deviceProperties(device: DeviceConfig, totalMemory: number): Record<string, number | number[] | string> {
  const [major, minor] = device.computeCapability;
  return {
    name: `ScoRD simulated GPU (${device.name})`,
    totalGlobalMem: Math.min(SIZE_T_MAX, totalMemory),
    sharedMemPerBlock: Math.min(DEFAULT_SHARED_PER_BLOCK, device.sharedMemPerBlock),
    regsPerBlock: Math.min(65536, device.registersPerSM),
    warpSize: device.warpSize,
    memPitch: 2147483647,
    maxThreadsPerBlock: device.maxThreadsPerBlock,
    maxThreadsDim: [...device.maxBlockDim],
    maxGridSize: [...device.maxGridDim],
    clockRate: CLOCK_KHZ,
    totalConstMem: 65536,
    major,
    minor,
    textureAlignment: 512,
    texturePitchAlignment: 32,
    deviceOverlap: 1,
    multiProcessorCount: device.smCount,
    canMapHostMemory: 1,
    maxTexture1D: 131072,
    maxTexture1DMipmap: 32768,
    maxTexture1DLinear: 268435456,
    maxTexture2D: [131072, 65536],
    maxTexture2DMipmap: [32768, 32768],
    maxTexture2DLinear: [131072, 65000, 2097120],
    maxTexture2DGather: [32768, 32768],
    maxTexture3D: [16384, 16384, 16384],
    maxTexture3DAlt: [8192, 8192, 32768],
    maxTextureCubemap: 32768,
    maxTexture1DLayered: [32768, 2048],
    maxTexture2DLayered: [32768, 32768, 2048],
    maxTextureCubemapLayered: [32768, 2046],
    maxSurface1D: 32768,
    maxSurface2D: [131072, 65536],
    maxSurface3D: [16384, 16384, 16384],
    maxSurface1DLayered: [32768, 2048],
    maxSurface2DLayered: [32768, 32768, 2048],
    maxSurfaceCubemap: 32768,
    maxSurfaceCubemapLayered: [32768, 2046],
    surfaceAlignment: 512,
    concurrentKernels: 1,
    asyncEngineCount: 1,
    unifiedAddressing: 1,
    memoryClockRate: 877000,
    memoryBusWidth: 4096,
    l2CacheSize: L2_BYTES,
    // Persisting L2 accesses (cudaStreamAttributeAccessPolicyWindow) came with compute capability 8.0.
    persistingL2CacheMaxSize: major >= 8 ? (L2_BYTES * 3) / 4 : 0,
    accessPolicyMaxWindowSize: major >= 8 ? 128 * 1024 * 1024 - 4096 : 0,
    maxThreadsPerMultiProcessor: device.maxThreadsPerSM,
    streamPrioritiesSupported: 1,
    globalL1CacheSupported: 1,
    localL1CacheSupported: 1,
    sharedMemPerMultiprocessor: device.sharedMemPerSM,
    regsPerMultiprocessor: device.registersPerSM,
    managedMemory: 1,
    singleToDoublePrecisionPerfRatio: 2,
    concurrentManagedAccess: 1,
    computePreemptionSupported: 1,
    cooperativeLaunch: 1,
    sharedMemPerBlockOptin: device.sharedMemPerBlock,
    maxBlocksPerMultiProcessor: device.maxBlocksPerSM,
    hostRegisterSupported: 1,
  };
}

/** Writes the whole struct at `at` of `view` (the program's cudaDeviceProp). */
export function writeDeviceProp(view: DataView, at: number, device: DeviceConfig, totalMemory: number): void {
  const { offsets, size } = devicePropLayout();
  new Uint8Array(view.buffer, view.byteOffset + at, size).fill(0);
  const values = deviceProperties(device, totalMemory);
  for (const [name, kind] of DEVICE_PROP_FIELDS) {
    const v = values[name];
    const off = at + offsets.get(name)!;
    if (v === undefined) continue;
    if (typeof v === 'string') {
      const bytes = new TextEncoder().encode(v).subarray(0, 255);
      new Uint8Array(view.buffer, view.byteOffset + off, bytes.length).set(bytes);
    } else if (kind !== 'char') {
      (Array.isArray(v) ? v : [v]).forEach((x, i) => view.setUint32(off + i * 4, x >>> 0, true));
    }
  }
}

/** cudaDeviceAttr values (CUDA Runtime API) → the property (and element) that answers them. */
const ATTRIBUTES: Record<number, [string, number?]> = {
  1: ['maxThreadsPerBlock'], 2: ['maxThreadsDim', 0], 3: ['maxThreadsDim', 1], 4: ['maxThreadsDim', 2],
  5: ['maxGridSize', 0], 6: ['maxGridSize', 1], 7: ['maxGridSize', 2], 8: ['sharedMemPerBlock'], 9: ['totalConstMem'],
  10: ['warpSize'], 11: ['memPitch'], 12: ['regsPerBlock'], 13: ['clockRate'], 14: ['textureAlignment'], 15: ['deviceOverlap'],
  16: ['multiProcessorCount'], 17: ['kernelExecTimeoutEnabled'], 18: ['integrated'], 19: ['canMapHostMemory'], 20: ['computeMode'],
  21: ['maxTexture1D'], 22: ['maxTexture2D', 0], 23: ['maxTexture2D', 1], 24: ['maxTexture3D', 0], 25: ['maxTexture3D', 1],
  26: ['maxTexture3D', 2], 27: ['maxTexture2DLayered', 0], 28: ['maxTexture2DLayered', 1], 29: ['maxTexture2DLayered', 2],
  30: ['surfaceAlignment'], 31: ['concurrentKernels'], 32: ['ECCEnabled'], 33: ['pciBusID'], 34: ['pciDeviceID'], 35: ['tccDriver'],
  36: ['memoryClockRate'], 37: ['memoryBusWidth'], 38: ['l2CacheSize'], 39: ['maxThreadsPerMultiProcessor'], 40: ['asyncEngineCount'],
  41: ['unifiedAddressing'], 42: ['maxTexture1DLayered', 0], 43: ['maxTexture1DLayered', 1], 45: ['maxTexture2DGather', 0],
  46: ['maxTexture2DGather', 1], 47: ['maxTexture3DAlt', 0], 48: ['maxTexture3DAlt', 1], 49: ['maxTexture3DAlt', 2],
  50: ['pciDomainID'], 51: ['texturePitchAlignment'], 52: ['maxTextureCubemap'], 53: ['maxTextureCubemapLayered', 0],
  54: ['maxTextureCubemapLayered', 1], 55: ['maxSurface1D'], 56: ['maxSurface2D', 0], 57: ['maxSurface2D', 1], 58: ['maxSurface3D', 0],
  59: ['maxSurface3D', 1], 60: ['maxSurface3D', 2], 61: ['maxSurface1DLayered', 0], 62: ['maxSurface1DLayered', 1],
  63: ['maxSurface2DLayered', 0], 64: ['maxSurface2DLayered', 1], 65: ['maxSurface2DLayered', 2], 66: ['maxSurfaceCubemap'],
  67: ['maxSurfaceCubemapLayered', 0], 68: ['maxSurfaceCubemapLayered', 1], 69: ['maxTexture1DLinear'],
  70: ['maxTexture2DLinear', 0], 71: ['maxTexture2DLinear', 1], 72: ['maxTexture2DLinear', 2], 73: ['maxTexture2DMipmap', 0],
  74: ['maxTexture2DMipmap', 1], 75: ['major'], 76: ['minor'], 77: ['maxTexture1DMipmap'], 78: ['streamPrioritiesSupported'],
  79: ['globalL1CacheSupported'], 80: ['localL1CacheSupported'], 81: ['sharedMemPerMultiprocessor'], 82: ['regsPerMultiprocessor'],
  83: ['managedMemory'], 84: ['isMultiGpuBoard'], 85: ['multiGpuBoardGroupID'], 86: ['hostNativeAtomicSupported'],
  87: ['singleToDoublePrecisionPerfRatio'], 88: ['pageableMemoryAccess'], 89: ['concurrentManagedAccess'],
  90: ['computePreemptionSupported'], 91: ['canUseHostPointerForRegisteredMem'], 95: ['cooperativeLaunch'],
  96: ['cooperativeMultiDeviceLaunch'], 97: ['sharedMemPerBlockOptin'], 99: ['hostRegisterSupported'],
  100: ['pageableMemoryAccessUsesHostPageTables'], 101: ['directManagedMemAccessFromHost'], 106: ['maxBlocksPerMultiProcessor'],
  108: ['persistingL2CacheMaxSize'], 109: ['accessPolicyMaxWindowSize'], 111: ['reservedSharedMemPerBlock'],
  112: ['sparseCudaArraySupported'], 113: ['hostRegisterReadOnlySupported'], 114: ['timelineSemaphoreInteropSupported'],
  115: ['memoryPoolsSupported'], 116: ['gpuDirectRDMASupported'], 117: ['gpuDirectRDMAFlushWritesOptions'],
  118: ['gpuDirectRDMAWritesOrdering'], 119: ['memoryPoolSupportedHandleTypes'], 120: ['clusterLaunch'],
  121: ['deferredMappingCudaArraySupported'], 125: ['ipcEventSupported'],
};

/** The value of attribute `attr` (an int), or undefined for an attribute the runtime does not know. */
export function deviceAttribute(device: DeviceConfig, totalMemory: number, attr: number): number | undefined {
  const a = ATTRIBUTES[attr];
  if (!a) return undefined;
  const v = deviceProperties(device, totalMemory)[a[0]];
  if (v === undefined) return 0;
  if (typeof v === 'string') return 0;
  const n = Array.isArray(v) ? v[a[1] ?? 0] : v;
  // An int attribute: larger values (the grid's x limit is 2^31 - 1) still fit.
  return n | 0;
}
