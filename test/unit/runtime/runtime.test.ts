// The host runtime: copies checked against allocations, and CUDA's error model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Memory } from '../../../sims/gpu/memory';
import { CUDA_ERRORS, cudaErrorName, cudaErrorString } from '../../../sims/runtime/cudaErrors';
import { CudaRuntime, MEMCPY_KIND } from '../../../sims/runtime/runtime';

const E = (n: keyof typeof CUDA_ERRORS) => CUDA_ERRORS[n].code;

function setup() {
  const memory = new Memory();
  const rt = new CudaRuntime(memory);
  const host = memory.allocate('host', 16, { label: 'h_data' });
  const { error, pointer: dev } = rt.malloc(16, 'd_data');
  assert.equal(error, 0);
  return { memory, rt, host, dev };
}

test('round trip through device memory', () => {
  const { memory, rt, host, dev } = setup();
  const h = memory.allocation(1)!;
  h.bytes.set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
  assert.equal(rt.memcpy(dev, host, 16, MEMCPY_KIND.HostToDevice), 0);
  assert.equal(rt.memset(dev + 4, 0xab, 4), 0);
  h.bytes.fill(0);
  assert.equal(rt.memcpy(host, dev, 16, MEMCPY_KIND.DeviceToHost), 0);
  assert.deepEqual([...h.bytes], [1, 2, 3, 4, 0xab, 0xab, 0xab, 0xab, 9, 10, 11, 12, 13, 14, 15, 16]);
  assert.equal(rt.memcpy(host, dev, 16, MEMCPY_KIND.Default), 0, 'cudaMemcpyDefault infers the direction');
  assert.equal(rt.getLastError(), 0);
});

test('an overrun copy fails with invalid argument and names the allocation', () => {
  const { rt, host, dev } = setup();
  assert.equal(rt.memcpy(dev + 8, host, 16, MEMCPY_KIND.HostToDevice), E('cudaErrorInvalidValue'));
  assert.equal(rt.findings[0].kind, 'memcpy-out-of-bounds');
  assert.match(rt.findings[0].message, /copying 16 bytes at offset 8 overruns the destination 'd_data' \(16 bytes, global memory\) by 8 bytes/);
  // A non-sticky error is reported once by cudaGetLastError, then cleared.
  assert.equal(rt.peekAtLastError(), E('cudaErrorInvalidValue'));
  assert.equal(rt.getLastError(), E('cudaErrorInvalidValue'));
  assert.equal(rt.getLastError(), 0);
});

test('a copy whose kind contradicts its pointers is refused', () => {
  const { rt, host, dev } = setup();
  assert.equal(rt.memcpy(host, dev, 4, MEMCPY_KIND.HostToDevice), E('cudaErrorInvalidValue'));
  assert.equal(rt.findings[0].kind, 'memcpy-direction');
  assert.match(rt.findings[0].message, /destination 'h_data' .* is host memory, but the copy kind says device memory/);
  assert.equal(rt.memcpy(dev, host, 4, 7), E('cudaErrorInvalidMemcpyDirection'));
});

test('after a device fault every call returns the sticky error', () => {
  const { rt, host, dev } = setup();
  rt.deviceFault('cudaErrorIllegalAddress');
  assert.equal(rt.memcpy(host, dev, 4, MEMCPY_KIND.DeviceToHost), E('cudaErrorIllegalAddress'));
  assert.equal(rt.malloc(4, 'late').error, E('cudaErrorIllegalAddress'));
  assert.equal(rt.getLastError(), E('cudaErrorIllegalAddress'));
  assert.equal(rt.getLastError(), E('cudaErrorIllegalAddress'), 'a sticky error is not cleared');
  assert.throws(() => rt.deviceFault('cudaErrorInvalidValue'));
});

test('cudaFree: double free and foreign pointers', () => {
  const { rt, host, dev } = setup();
  assert.equal(rt.free(dev), 0);
  assert.equal(rt.free(dev), E('cudaErrorInvalidValue'));
  assert.equal(rt.findings.at(-1)?.kind, 'use-after-free');
  assert.equal(rt.free(host), E('cudaErrorInvalidValue'));
  assert.match(rt.findings.at(-1)!.message, /host memory; free it with free\(\)/);
  assert.equal(rt.memcpy(host, dev, 4, MEMCPY_KIND.DeviceToHost), E('cudaErrorInvalidValue'));
  assert.equal(rt.findings.at(-1)?.kind, 'use-after-free');
  assert.equal(rt.free(0), 0, 'cudaFree(NULL) is a no-op');
});

test('error strings and names are CUDA’s', () => {
  assert.equal(cudaErrorString(0), 'no error');
  assert.equal(cudaErrorString(700), 'an illegal memory access was encountered');
  assert.equal(cudaErrorName(1), 'cudaErrorInvalidValue');
  assert.equal(cudaErrorString(12345), 'unrecognized error code');
});

test('output keeps its order and who printed it', () => {
  const { rt } = setup();
  rt.print('stdout', 'host says hi\n');
  rt.print('stdout', 'thread 3\n', { block: [1, 0, 0], thread: [3, 0, 0] });
  rt.print('stderr', 'oops\n');
  assert.equal(rt.stdout(), 'host says hi\nthread 3\n');
  assert.deepEqual(rt.output[1].from, { block: [1, 0, 0], thread: [3, 0, 0] });
});

test('device memory is limited: cudaMalloc beyond the limit fails as on a full GPU, cudaFree gives it back', () => {
  const rt = new CudaRuntime(new Memory(), 1000);
  const a = rt.malloc(600, 'a');
  assert.equal(a.error, 0);
  assert.equal(rt.malloc(600, 'b').error, E('cudaErrorMemoryAllocation'));
  assert.equal(rt.getLastError(), E('cudaErrorMemoryAllocation'));
  assert.equal(rt.free(a.pointer), 0);
  assert.equal(rt.malloc(600, 'b').error, 0);
});
