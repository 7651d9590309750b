// litmus: write atomicity violation (IRIW) within a block, __threadfence_block() in the readers (Sorensen, fig 1.2)
// outcome: r1=1 r2=0 r3=1 r4=0
// verdict sc: forbidden
// verdict gpu-weak: allowed
// verdict gpu-strong: forbidden
//
// Independent reads of independent writes: two threads store x and y; two readers load them
// in opposite orders, a fence between their loads. r1=1 r2=0 r3=1 r4=0: the readers saw
// the two stores in opposite orders, so there is no single order of stores.
// The weak model's fences are not cumulative and a store reaches each thread on its own,
// so the violation may be seen (Table 4.2: ?); the strong model is write-atomic (Table 4.2: ×).
#include <stdio.h>

__device__ int x = 0;
__device__ int y = 0;
// volatile: storing the registers writes through, adding no choices for the memory model.
__device__ volatile int r[4];

__global__ void litmus()
{
    // Thread i is lane 0 of warp i-1 (threadIdx.x 0, 32, 64, 96): one block, 4 warps.
    if (threadIdx.x == 0) {
        x = 1;
    } else if (threadIdx.x == 32) {
        y = 1;
    } else if (threadIdx.x == 64) {
        int r1 = x;
        __threadfence_block();
        int r2 = y;
        r[0] = r1;
        r[1] = r2;
    } else if (threadIdx.x == 96) {
        int r3 = y;
        __threadfence_block();
        int r4 = x;
        r[2] = r3;
        r[3] = r4;
    }
}

int main()
{
    int h[4];
    litmus<<<1, 128>>>();
    cudaDeviceSynchronize();
    cudaMemcpyFromSymbol(h, r, sizeof(h));
    printf("r1=%d r2=%d r3=%d r4=%d\n", h[0], h[1], h[2], h[3]);
    return 0;
}
