// Device presets and occupancy: the numbers that decide which blocks run at once.
import { deviceProperties } from '../../../sims/runtime/deviceProperties';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_DEVICE, DEVICE_PRESETS, devicePreset, occupancy } from '../../../sims/gpu/devices';

test('the default device is the ScoRD paper configuration', () => {
  const d = devicePreset(DEFAULT_DEVICE)!;
  assert.deepEqual([d.smCount, d.maxThreadsPerBlock, d.maxBlocksPerSM, d.maxWarpsPerSM, d.registersPerSM], [15, 1024, 8, 32, 32768]);
  assert.equal(devicePreset('nonesuch'), undefined);
  assert.equal(devicePreset('toString'), undefined);
});

test('occupancy follows the tightest limit', () => {
  const paper = DEVICE_PRESETS['scord-paper'];
  // One 1024-thread block fills an SM's 32 warps: 15 resident blocks in all.
  assert.deepEqual(occupancy(paper, 1024, 0), { blocksPerSM: 1, residentBlocks: 15, limitedBy: 'warps' });
  // Small blocks hit the 8-blocks-per-SM limit first.
  assert.deepEqual(occupancy(paper, 33, 0), { blocksPerSM: 8, residentBlocks: 120, limitedBy: 'blocks' });
  // 20 KB of shared memory per block: two blocks per 48 KB SM.
  assert.deepEqual(occupancy(paper, 64, 20 * 1024), { blocksPerSM: 2, residentBlocks: 30, limitedBy: 'shared memory' });
  // A block that needs more shared memory than an SM has never fits.
  assert.equal(occupancy(paper, 64, 64 * 1024), undefined);
  const volta = DEVICE_PRESETS.volta;
  assert.deepEqual(occupancy(volta, 256, 0), { blocksPerSM: 8, residentBlocks: 640, limitedBy: 'warps' });
  assert.deepEqual(occupancy(DEVICE_PRESETS.hopper, 32, 0), { blocksPerSM: 32, residentBlocks: 4224, limitedBy: 'blocks' });
});

test('a device reports the capability it executes, and the features that capability brings', () => {
  // Code is compiled for sm_70 and runs with independent thread scheduling on every preset.
  for (const preset of Object.values(DEVICE_PRESETS)) assert.ok(preset.computeCapability[0] >= 7, preset.name);
  const paper = deviceProperties(DEVICE_PRESETS['scord-paper'], 1 << 30);
  const ampere = deviceProperties(DEVICE_PRESETS.ampere, 1 << 30);
  assert.deepEqual([paper.major, paper.minor], [7, 0]);
  // Persisting L2 accesses came with 8.0: a program that waives without them runs on ampere.
  assert.equal(paper.persistingL2CacheMaxSize, 0);
  assert.ok((ampere.persistingL2CacheMaxSize as number) > 0 && (ampere.accessPolicyMaxWindowSize as number) > 0);
});

test('every preset allows the grid its compute capability allows: 2^31 - 1 blocks in x since 3.0', () => {
  for (const [name, d] of Object.entries(DEVICE_PRESETS)) {
    assert.ok(d.computeCapability[0] >= 3, name);
    assert.deepEqual(d.maxGridDim, [2147483647, 65535, 65535], name);
  }
});
