// litmus: simple visibility in shared memory, no fence (Sorensen, fig 3.5)
// outcome: r1=2 r2=0
// verdict sc: forbidden
// verdict gpu-weak: allowed
// verdict gpu-strong: allowed
//
// Thread 1 stores a, then b, both in the block's shared memory; thread 2 loads b, then a (its
// __threadfence_block() only keeps its two loads in program order). r1=2 r2=0: thread 2 saw
// the second store but not the first.
// With no fence in thread 1, nothing is promised: the violation may be seen (Table 4.2: ?).
// Stores to different addresses need not become visible in program order.
#include <stdio.h>

// volatile: storing the registers writes through, adding no choices for the memory model.
__device__ volatile int r[2];

__global__ void litmus()
{
    __shared__ int a;
    __shared__ int b;
    // Shared memory starts undefined: zero it, and let the barrier publish the zeros.
    if (threadIdx.x == 0) {
        a = 0;
        b = 0;
    }
    __syncthreads();
    // Thread 1 is lane 0 of warp 0 and thread 2 lane 0 of warp 1: one block, two warps.
    if (threadIdx.x == 0) {
        a = 1;
        // No fence: nothing orders the two stores for other threads.
        b = 2;
    } else if (threadIdx.x == 32) {
        int r1 = b;
        __threadfence_block();
        int r2 = a;
        r[0] = r1;
        r[1] = r2;
    }
}

int main()
{
    int h[2];
    litmus<<<1, 64>>>();
    cudaDeviceSynchronize();
    cudaMemcpyFromSymbol(h, r, sizeof(h));
    printf("r1=%d r2=%d\n", h[0], h[1]);
    return 0;
}
