// Device presets: the limits that decide how many blocks are resident at once (occupancy),
// and so whether a grid-wide spin barrier can ever complete.
//
// `scord-paper` is the configuration the ScoRD paper evaluates (its Table V, a Fermi-class
// GPU under GPGPU-Sim). The others follow NVIDIA's published limits for the compute
// capability of each architecture's flagship (V100, A100, H100 SXM).

export interface DeviceConfig {
  name: string;
  description: string;
  computeCapability: [number, number];
  smCount: number;
  warpSize: 32;
  maxThreadsPerBlock: number;
  maxThreadsPerSM: number;
  maxBlocksPerSM: number;
  maxWarpsPerSM: number;
  registersPerSM: number;
  /** Shared memory one SM holds for all its resident blocks, in bytes. */
  sharedMemPerSM: number;
  /** The most shared memory one block may use (with the opt-in attribute), in bytes. */
  sharedMemPerBlock: number;
  maxGridDim: [number, number, number];
  maxBlockDim: [number, number, number];
}

const KB = 1024;
const GRID: [number, number, number] = [2147483647, 65535, 65535];
const BLOCK: [number, number, number] = [1024, 1024, 64];

export const DEVICE_PRESETS: Readonly<Record<string, DeviceConfig>> = {
  'scord-paper': {
    name: 'scord-paper',
    description: "ScoRD paper, Table V: 15 SMs, 32 warps and 8 blocks per SM (GPGPU-Sim's Fermi-class GPU)",
    // Table V sizes the machine; as a CUDA device it runs what the paper's programs need (scoped
    // atomics: PTX 5.0, compute capability 6.0) under independent thread scheduling (the
    // simulator's default model, Volta's), and code is compiled for sm_70, so it says 7.0.
    // Programs that test the capability (cuda-samples waive below 3.5) then run.
    computeCapability: [7, 0],
    smCount: 15,
    warpSize: 32,
    maxThreadsPerBlock: 1024,
    maxThreadsPerSM: 1024,
    maxBlocksPerSM: 8,
    maxWarpsPerSM: 32,
    registersPerSM: 32768,
    // Table V gives no shared-memory size; 48 KB is the Fermi configuration GPGPU-Sim ships.
    sharedMemPerSM: 48 * KB,
    sharedMemPerBlock: 48 * KB,
    // As the compute capability it reports: a grid of up to 2^31 - 1 blocks in x since 3.0.
    maxGridDim: GRID,
    maxBlockDim: BLOCK,
  },
  volta: {
    name: 'volta',
    description: 'Volta (V100, compute capability 7.0): 80 SMs',
    computeCapability: [7, 0],
    smCount: 80,
    warpSize: 32,
    maxThreadsPerBlock: 1024,
    maxThreadsPerSM: 2048,
    maxBlocksPerSM: 32,
    maxWarpsPerSM: 64,
    registersPerSM: 65536,
    sharedMemPerSM: 96 * KB,
    sharedMemPerBlock: 96 * KB,
    maxGridDim: GRID,
    maxBlockDim: BLOCK,
  },
  ampere: {
    name: 'ampere',
    description: 'Ampere (A100, compute capability 8.0): 108 SMs',
    computeCapability: [8, 0],
    smCount: 108,
    warpSize: 32,
    maxThreadsPerBlock: 1024,
    maxThreadsPerSM: 2048,
    maxBlocksPerSM: 32,
    maxWarpsPerSM: 64,
    registersPerSM: 65536,
    sharedMemPerSM: 164 * KB,
    sharedMemPerBlock: 163 * KB,
    maxGridDim: GRID,
    maxBlockDim: BLOCK,
  },
  hopper: {
    name: 'hopper',
    description: 'Hopper (H100 SXM, compute capability 9.0): 132 SMs',
    computeCapability: [9, 0],
    smCount: 132,
    warpSize: 32,
    maxThreadsPerBlock: 1024,
    maxThreadsPerSM: 2048,
    maxBlocksPerSM: 32,
    maxWarpsPerSM: 64,
    registersPerSM: 65536,
    sharedMemPerSM: 228 * KB,
    sharedMemPerBlock: 227 * KB,
    maxGridDim: GRID,
    maxBlockDim: BLOCK,
  },
};

export const DEFAULT_DEVICE = 'scord-paper';

/**
 * How the lanes of a warp are scheduled on code built for an architecture (compute capability
 * times ten): independently from Volta (sm_70) on; before it in lockstep, one program counter
 * per warp, so the lanes of a warp cannot race with each other (warp-synchronous code written
 * for sm_60 is correct there and racy on sm_70).
 */
export function warpSchedulingOf(arch: number): 'independent' | 'lockstep' {
  return arch < 70 ? 'lockstep' : 'independent';
}

export function devicePreset(name: string): DeviceConfig | undefined {
  return Object.prototype.hasOwnProperty.call(DEVICE_PRESETS, name) ? DEVICE_PRESETS[name] : undefined;
}

export interface Occupancy {
  /** Blocks of this launch that one SM can hold at once. */
  blocksPerSM: number;
  /** Blocks resident on the whole device at once. */
  residentBlocks: number;
  /** Which limit decides `blocksPerSM`, for explanations. */
  limitedBy: 'blocks' | 'warps' | 'threads' | 'shared memory';
}

/**
 * How many blocks of a launch fit on the device at once. Registers are not modelled (we do
 * not compile to machine code), so occupancy here is an upper bound on the hardware's.
 * Returns undefined when a single block does not fit on an SM at all.
 */
export function occupancy(device: DeviceConfig, threadsPerBlock: number, sharedBytesPerBlock: number): Occupancy | undefined {
  const warpsPerBlock = Math.ceil(threadsPerBlock / device.warpSize);
  const limits: [Occupancy['limitedBy'], number][] = [
    ['blocks', device.maxBlocksPerSM],
    ['warps', Math.floor(device.maxWarpsPerSM / warpsPerBlock)],
    ['threads', Math.floor(device.maxThreadsPerSM / (warpsPerBlock * device.warpSize))],
    ['shared memory', sharedBytesPerBlock > 0 ? Math.floor(device.sharedMemPerSM / sharedBytesPerBlock) : Infinity],
  ];
  let best = limits[0];
  for (const l of limits) if (l[1] < best[1]) best = l;
  if (best[1] < 1) return undefined;
  return { blocksPerSM: best[1], residentBlocks: best[1] * device.smCount, limitedBy: best[0] };
}
