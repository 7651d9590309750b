// A realistic CUDA file of a given length for the parse benchmark: headers, macros, structs,
// templated and plain kernels with shared memory, atomics, fences and warp intrinsics, device
// helpers, and a host main that allocates, copies and launches everything.

function unit(i: number): string {
  return `
#define TILE_${i} 16
#define IDX_${i}(r, c) ((r) * TILE_${i} + (c))
struct Cell${i} { int count; float sum; unsigned int flags; };

__device__ __forceinline__ float helper${i}(float x, int k) {
  float acc = 0.0f;
  #pragma unroll
  for (int j = 0; j < 4; ++j) {
    acc += x * (float)(k + j) / (1.0f + fabsf(x));
  }
  return acc > 100.0f ? 100.0f : acc;
}

template <unsigned int blockSize>
__global__ void reduce${i}(const float *__restrict__ in, float *out, unsigned int n) {
  __shared__ float sdata[blockSize];
  unsigned int tid = threadIdx.x;
  unsigned int idx = blockIdx.x * blockSize * 2 + threadIdx.x;
  float v = (idx < n ? in[idx] : 0.0f) + (idx + blockSize < n ? in[idx + blockSize] : 0.0f);
  sdata[tid] = helper${i}(v, ${i});
  __syncthreads();
  for (unsigned int s = blockSize / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    float w = sdata[tid] + sdata[tid + 32];
    for (int off = 16; off > 0; off /= 2) w += __shfl_down_sync(0xffffffff, w, off);
    if (tid == 0) atomicAdd(out, w);
  }
}

__global__ void update${i}(struct Cell${i} *cells, volatile int *flag, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __shared__ int tile[TILE_${i} * TILE_${i}];
  tile[IDX_${i}(threadIdx.x % TILE_${i}, threadIdx.x / TILE_${i} % TILE_${i})] = i;
  __syncthreads();
  if (i < n) {
    atomicAdd_block(&cells[i % 64].count, 1);
    cells[i % 64].sum += (float)tile[threadIdx.x % (TILE_${i} * TILE_${i})];
    __threadfence();
    if (threadIdx.x == 0) *flag = 1;
  }
}
`;
}

function host(units: number): string {
  const launches: string[] = [];
  for (let i = 0; i < units; i++) {
    launches.push(`  reduce${i}<256><<<(N + 511) / 512, 256>>>(d_in, d_out, N);`);
    launches.push(`  update${i}<<<dim3(4, 1), dim3(128)>>>((struct Cell${i} *)d_cells, d_flag, N);`);
  }
  return `
int main(int argc, char **argv) {
  const unsigned int N = 1 << 16;
  float *d_in, *d_out;
  void *d_cells;
  int *d_flag;
  cudaMalloc(&d_in, N * sizeof(float));
  cudaMalloc(&d_out, sizeof(float));
  cudaMalloc(&d_cells, 64 * 16);
  cudaMalloc(&d_flag, sizeof(int));
${launches.join('\n')}
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    fprintf(stderr, "error: %s\\n", cudaGetErrorString(err));
    return 1;
  }
  return 0;
}
`;
}

/** A file of at least `lines` lines. */
export function generateCudaFile(lines: number): string {
  let body = '#include <stdio.h>\n#include <cuda_runtime.h>\n';
  let units = 0;
  const count = (s: string) => s.split('\n').length;
  while (count(body) + count(host(units)) < lines) body += unit(units++);
  return body + host(units);
}
