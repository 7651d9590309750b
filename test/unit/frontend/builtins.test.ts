// Every built-in the front end promises is declared, in the right execution space, with
// CUDA's overloads: a program that uses each of them reads without a diagnostic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDiagnostic } from '../../../sims/frontend/diagnostics';
import { parseVirtual } from '../../support/parseFile';

const HEADERS = ['stdio.h', 'stdlib.h', 'string.h', 'math.h', 'assert.h', 'stdint.h', 'cuda_runtime.h', 'cstdio', 'cstdlib', 'cstring', 'cmath', 'cassert', 'cstdint', 'iostream', 'limits.h', 'float.h'];

const DEVICE = `
__device__ int gi; __device__ unsigned int gu; __device__ unsigned long long gull; __device__ float gf; __device__ double gd;
__constant__ float table[4];
__global__ void everything(int *out) {
  int tid = threadIdx.x + blockIdx.x * blockDim.x + blockDim.y * gridDim.x + threadIdx.z + blockIdx.y + gridDim.z + warpSize;
  ${['atomicAdd', 'atomicSub', 'atomicExch', 'atomicMin', 'atomicMax', 'atomicAnd', 'atomicOr', 'atomicXor']
    .flatMap((a) => ['', '_block', '_system'].map((s) => `${a}${s}(&gi, 1); ${a}${s}(&gu, 1u);`))
    .join('\n  ')}
  ${['', '_block', '_system'].map((s) => `atomicAdd${s}(&gull, 1ull); atomicAdd${s}(&gf, 1.0f); atomicAdd${s}(&gd, 1.0); atomicExch${s}(&gf, 2.0f); atomicExch${s}(&gull, 2ull); atomicMin${s}(&gull, 1ull); atomicMax${s}(&gull, 1ull);`).join('\n  ')}
  ${['', '_block', '_system'].map((s) => `atomicInc${s}(&gu, 10u); atomicDec${s}(&gu, 10u); atomicCAS${s}(&gi, 0, 1); atomicCAS${s}(&gu, 0u, 1u); atomicCAS${s}(&gull, 0ull, 1ull); atomicAnd${s}(&gull, 1ull); atomicOr${s}(&gull, 1ull); atomicXor${s}(&gull, 1ull);`).join('\n  ')}
  __threadfence_block(); __threadfence(); __threadfence_system();
  __syncthreads(); tid += __syncthreads_count(tid > 0) + __syncthreads_and(1) + __syncthreads_or(0);
  __syncwarp(); __syncwarp(0xffffffffu);
  float f = __shfl_sync(0xffffffff, 1.0f, 0) + __shfl_up_sync(0xffffffff, 2.0f, 1) + __shfl_down_sync(0xffffffff, 3.0f, 1, 16) + __shfl_xor_sync(0xffffffff, 4.0f, 1);
  int i = __shfl_sync(0xffffffff, tid, 0);
  unsigned int b = __ballot_sync(0xffffffff, tid & 1) + __activemask();
  i += __any_sync(0xffffffff, tid) + __all_sync(0xffffffff, tid);
  f += __ldg(&table[0]) + __ldg(out);
  long long t0 = clock64(); clock_t t1 = clock();
  f += sqrtf(f) + expf(f) + fabsf(f) + __fdividef(f, 2.0f) + sinf(f) + cosf(f) + powf(f, 2.0f) + logf(f) + floorf(f) + rsqrtf(f) + fminf(f, 1.0f) + fmaxf(f, 0.0f);
  double d = sqrt(2.0) + exp(1.0) + fabs(-1.0) + pow(2.0, 3.0);
  i = min(i, tid) + max(i, 3) + (int)min(f, 1.0f) + abs(i) + __popc(b) + __clz(i) + __ffs(i);
  printf("%d %f %f %lld %ld\\n", i, f, d, t0, (long)t1);
  assert(i >= 0);
  out[tid] = i + (int)b;
}`;

const HOST = `
#define N 64
void errCheck(const char *msg) {
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) { fprintf(stderr, "%s: %s\\n", msg, cudaGetErrorString(e)); exit(1); }
  e = cudaPeekAtLastError();
}
int main(int argc, char **argv) {
  int *d, *m, *h = (int *)malloc(N * sizeof(int)), *z = (int *)calloc(N, sizeof(int));
  float host[4] = {1, 2, 3, 4};
  srand(42); int r = rand() + atoi("7"); puts("start");
  memset(h, 0, N * sizeof(int)); memcpy(z, h, N * sizeof(int));
  cudaMalloc(&d, N * sizeof(int)); cudaMallocManaged(&m, N * sizeof(int));
  cudaMemset(d, 0, N * sizeof(int));
  cudaMemcpy(d, h, N * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(table, host, sizeof(host));
  everything<<<2, N / 2>>>(d);
  errCheck("launch");
  cudaDeviceSynchronize();
  cudaMemcpy(h, d, N * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(m, d, N * sizeof(int), cudaMemcpyDeviceToDevice);
  cudaMemcpy(h, m, N * sizeof(int), cudaMemcpyDefault);
  cudaMemcpyFromSymbol(host, table, sizeof(host));
  int hostCopy = 0; cudaMemcpyFromSymbol(&hostCopy, gi, sizeof(int));
  printf("%d %d %d\\n", h[0], r, hostCopy); assert(h != 0);
  cudaFree(d); cudaFree(m); free(h); free(z);
  return INT_MAX > 0 && FLT_MAX > 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}`;

test('every promised built-in is declared and typed', () => {
  const source = HEADERS.map((h) => `#include <${h}>`).join('\n') + DEVICE + HOST;
  const r = parseVirtual({ 'main.cu': source });
  assert.deepEqual(r.diagnostics.map(formatDiagnostic), []);
});

test('device-only built-ins are refused in host code, host-only ones in device code', () => {
  const r = parseVirtual({ 'main.cu': '__global__ void k(int *p) { p[0] = rand(); cudaDeviceSynchronize(); }\nint main() { __threadfence(); int x = __shfl_sync(0xffffffff, 1, 0); return x + atomicAdd((int *)0, 1); }\n' });
  const names = r.diagnostics.filter((d) => d.code === 'wrong-execution-space').map((d) => d.message.split(' ')[0]);
  assert.deepEqual(names, ['rand()', 'cudaDeviceSynchronize()', '__threadfence()', '__shfl_sync()', 'atomicAdd()']);
});
