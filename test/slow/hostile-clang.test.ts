// The hostile-input limits on the clang path (slow: each case compiles with clang): the memory
// account refuses a device variable beyond --memory-limit with a finding, and --initcheck
// reports a read of cudaMalloc'd memory nothing wrote, as on the built-in path.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { cli, scratch, write } from '../hostile/support';

const dir = scratch('clang');
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('clang path: a __device__ array beyond the memory limit is a memory-limit finding, not a crash', async () => {
  const file = write(dir, 'big.cu', '#include <cstdio>\n__device__ char big[1 << 28];\n__global__ void k() { big[threadIdx.x] = 1; }\nint main() { k<<<1, 1>>>(); cudaDeviceSynchronize(); printf("ok\\n"); return 0; }\n');
  const r = await cli(['check', '--frontend', 'clang', '--memory-limit', '64M', file]);
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /error: big needs 256 MB, .*the memory limit is 64 MB \[scord\/memory-limit\]/);
});

test('clang path: --initcheck reports a device read of memory nothing wrote', async () => {
  const file = write(dir, 'uninit.cu', '#include <cstdio>\n__global__ void k(int *in, int *out) {\n  out[threadIdx.x] = in[threadIdx.x] + 1;\n}\nint main() {\n  int *in, *out, h[4];\n  cudaMalloc(&in, 4 * sizeof(int));\n  cudaMalloc(&out, 4 * sizeof(int));\n  cudaMemset(in, 0, 2 * sizeof(int));\n  k<<<1, 4>>>(in, out);\n  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);\n  printf("%d\\n", h[0]);\n  return 0;\n}\n');
  const r = await cli(['check', '--frontend', 'clang', '--initcheck', file]);
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /uninit\.cu:3:22: warning: read of 'in' .* at offset 8, which nothing has written .*\[scord\/uninitialized-read\]/);
});
