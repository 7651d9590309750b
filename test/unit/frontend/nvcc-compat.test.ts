// Constructs found in real nvcc programs (CUDA samples, race-detection benchmark suites) that
// the front end must accept exactly as nvcc does, or report in one clear diagnostic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDiagnostic } from '../../../sims/frontend/diagnostics';
import { summarize } from '../../../sims/frontend/summary';
import { parseVirtual } from '../../support/parseFile';

const accepted: Record<string, string> = {
  'device properties': `#include <cuda_runtime.h>
int main() { cudaDeviceProp prop; cudaGetDeviceProperties(&prop, 0);
  printf("%s %d.%d %d\\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount); return 0; }`,
  'streams, events and flags': `#include <cuda_runtime.h>
__global__ void k(int *p) { p[threadIdx.x] = 1; }
int main() { int *d; cudaStream_t s; cudaEvent_t e;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking); cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  cudaMalloc(&d, 128); cudaMemsetAsync(d, 0, 128, s); k<<<1, 32, 0, s>>>(d); cudaEventRecord(e, s);
  cudaStreamWaitEvent(cudaStreamPerThread, e, 0);
  while (cudaEventQuery(e) == cudaErrorNotReady) {} return 0; }`,
  'profiler API': `#include <cuda_profiler_api.h>
int main() { cudaProfilerStart(); cudaProfilerStop(); return 0; }`,
  'integer and conversion intrinsics': `__global__ void k(unsigned int *p, long long *q, float *f) {
  p[0] = umin(p[1], p[2]) + umax(p[4], p[5]) + __byte_perm(p[8], p[9], 0x3210) + __funnelshift_l(p[8], p[9], 3);
  q[0] = llmin(q[1], q[2]); f[0] = lrintf(f[1]) + sinpif(f[2]) + __uint2float_rn(p[6]); }`,
  'a template and a plain function with one name': `template <int N> __global__ void reduce(float *p) { p[0] = N; }
extern "C" void reduce(int n, float *p) { reduce<1><<<1, 1>>>(p); }`,
  'a prototype, then a template of the same name': `void reduce(float *p);
template <int N> __global__ void reduce(float *p) { p[0] = N; }
void reduce(float *p) { reduce<1><<<1, 1>>>(p); }`,
  'extern "C" declaration, then definition': `extern "C" const unsigned int MAX_BATCH;
extern "C" const unsigned int MAX_BATCH = 64 * 1048576;
int main() { return MAX_BATCH > 0 ? 0 : 1; }`,
  'constexpr sizes in device code': `constexpr int N = 256;
__global__ void k(float *p) { __shared__ float s[N]; s[threadIdx.x] = p[threadIdx.x]; __syncthreads(); p[threadIdx.x] = s[N - 1 - threadIdx.x]; }
int main() { k<<<1, N>>>(nullptr); return 0; }`,
  'explicit instantiations': `template <typename T> __global__ void fill(T *p, T v) { p[threadIdx.x] = v; }
template __global__ void fill<float>(float *p, float v);
template <typename T> void run(T *p) { fill<<<1, 32>>>(p, T(1)); }
template void run<int>(int *p);`,
  '__func__ and friends': `#include <stdio.h>
__global__ void k() { printf("in %s\\n", __func__); }
int main() { printf("%s %s\\n", __FUNCTION__, __PRETTY_FUNCTION__); k<<<1, 1>>>(); return 0; }`,
  'an empty asm with a memory clobber (a compiler barrier)': '__global__ void k(int *p) { p[0] = 1; asm volatile("" ::: "memory"); p[1] = 2; }',
  'GCC atomic builtins in host code': `int main() { int x = 0; __sync_fetch_and_add(&x, 10); __sync_val_compare_and_swap(&x, 10, 11);
  __sync_lock_test_and_set(&x, 1); return __builtin_expect(x, 1); }`,
};

for (const [name, source] of Object.entries(accepted)) {
  test(`accepted like nvcc: ${name}`, () => {
    const r = parseVirtual({ 'main.cu': source });
    assert.deepEqual(r.diagnostics.map(formatDiagnostic), []);
  });
}

const reported: Record<string, { source: string; expect: string[] }> = {
  'long double is read as double, with a warning': {
    source: 'int main() { long double avg = 0; return (int)avg; }',
    expect: ['warning:not-supported@1:14'],
  },
  'function pointers: one message each, no cascade': {
    source: `__global__ void k(const int *in, int *out, int a) { out[0] = in[0] * a; }
void (*gfp)(const int *, int *, int) = k;
int main() { void (*fp)(const int *, int *, int); fp = k; return 0; }`,
    expect: ['error:not-supported@2:6', 'error:not-supported@3:19'],
  },
  'a namespace-qualified parameter type keeps the function intact': {
    source: `namespace ns { struct S { int a; }; }
__device__ int f(const int &x, const ns::S &s) { int r = x; for (int i = 0; i < 4; i++) r += i; return r; }`,
    expect: ['error:not-supported@1:1', 'error:not-supported@2:38'],
  },
  'cooperative groups: the alias, the type and the call are named once each': {
    source: `#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *p) { cg::thread_block cta = cg::this_thread_block(); p[0] = 1; cg::sync(cta); }`,
    expect: ['warning:unknown-system-header@1:10', 'error:not-supported@2:1', 'error:not-supported@3:29', 'error:not-supported@3:52', 'error:not-supported@3:87'],
  },
  'class templates and their uses': {
    source: `template <typename T> struct SharedMemory { T *p; };
template <> struct SharedMemory<int> { int *p; };
template <class T> __global__ void k(T *g) { SharedMemory<T> smem; g[0] = smem.p[0]; }`,
    expect: ['error:not-supported@1:23', 'error:not-supported@2:13'],
  },
};

for (const [name, c] of Object.entries(reported)) {
  test(`reported precisely: ${name}`, () => {
    const r = parseVirtual({ 'main.cu': c.source });
    assert.deepEqual(r.diagnostics.map((d) => `${d.severity}:${d.code}@${d.range.start.line + 1}:${d.range.start.character + 1}`), c.expect, r.diagnostics.map(formatDiagnostic).join('\n'));
  });
}

test('overloaded kernels are listed separately and each launch knows its overload', () => {
  const r = parseVirtual({
    'main.cu': `__global__ void scale(float *p, float s) { p[threadIdx.x] *= s; }
__global__ void scale(int *p, int s) { p[threadIdx.x] *= s; }
int main() { float *f = 0; int *i = 0; scale<<<1, 32>>>(f, 2.0f); scale<<<1, 32>>>(i, 2); return 0; }`,
  });
  const s = summarize(r);
  assert.deepEqual(s.kernels.map((k) => k.params.join(', ')), ['float *p, float s', 'int *p, int s']);
  assert.deepEqual(s.launches.map((l) => l.kernelParams), [['float *', 'float'], ['int *', 'int']]);
});
