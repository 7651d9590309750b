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

test('clang path: the host program\'s heap shares the memory limit: malloc fails past it, and a program too big to start is a finding', async () => {
  // Each malloc(1 MB) grows the program's linear memory; past the limit malloc returns NULL.
  const heap = write(dir, 'heap.cu', '#include <cstdio>\n#include <cstdlib>\nint main() {\n  int n = 0;\n  while (malloc(1 << 20)) n++;\n  printf("%d\\n", n);\n  return 0;\n}\n');
  const r = await cli(['run', '--frontend', 'clang', '--memory-limit', '64M', heap]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const n = Number(r.stdout.trim());
  assert.ok(n >= 40 && n < 64, `${n} allocations of 1 MB under a 64 MB limit`);
  // The host heap and device allocations count together: after 48 MB of heap, 32 MB of device memory does not fit.
  const both = write(dir, 'both.cu', '#include <cstdio>\n#include <cstdlib>\nint main() {\n  for (int i = 0; i < 48; i++) malloc(1 << 20);\n  int *d;\n  printf("%d\\n", (int)cudaMalloc(&d, 32 << 20));\n  return 0;\n}\n');
  const b = await cli(['run', '--frontend', 'clang', '--memory-limit', '64M', both]);
  assert.match(b.stdout, /^2\n$/, b.stdout + b.stderr); // cudaErrorMemoryAllocation
  // A static host array larger than the limit: the program cannot start.
  const array = write(dir, 'array.cu', '#include <cstdio>\nchar big[100 << 20];\nint main() { big[5] = 1; printf("%d\\n", big[5]); return 0; }\n');
  const a = await cli(['run', '--frontend', 'clang', '--memory-limit', '64M', array]);
  assert.notEqual(a.status, 0, a.stdout + a.stderr);
  assert.match(a.stderr, /memory-limit: the host program needs 10\d(\.\d)? MB of memory to start; the memory limit is 64 MB/);
});
