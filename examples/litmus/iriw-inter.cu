// litmus: write atomicity violation (IRIW) across blocks, __threadfence() in the readers (Sorensen, fig 1.2)
// outcome: r1=1 r2=0 r3=1 r4=0
// verdict sc: forbidden
// verdict gpu-weak: allowed
// verdict gpu-strong: forbidden
//
// Independent reads of independent writes: two threads store x and y; two readers load them
// in opposite orders, a fence between their loads. r1=1 r2=0 r3=1 r4=0: the readers saw
// the two stores in opposite orders, so there is no single order of stores.
// The weak model's fences are not cumulative and a store reaches each block on its own,
// so the violation may be seen (Table 4.2: ?); the strong model is write-atomic (Table 4.2: ×).
#include <stdio.h>

__device__ int x = 0;
__device__ int y = 0;
// volatile: storing the registers writes through, adding no choices for the memory model.
__device__ volatile int r[4];

__global__ void litmus()
{
    // Thread i is the only thread of block i-1: 4 blocks.
    if (blockIdx.x == 0) {
        x = 1;
    } else if (blockIdx.x == 1) {
        y = 1;
    } else if (blockIdx.x == 2) {
        int r1 = x;
        __threadfence();
        int r2 = y;
        r[0] = r1;
        r[1] = r2;
    } else if (blockIdx.x == 3) {
        int r3 = y;
        __threadfence();
        int r4 = x;
        r[2] = r3;
        r[3] = r4;
    }
}

int main()
{
    int h[4];
    litmus<<<4, 1>>>();
    cudaDeviceSynchronize();
    cudaMemcpyFromSymbol(h, r, sizeof(h));
    printf("r1=%d r2=%d r3=%d r4=%d\n", h[0], h[1], h[2], h[3]);
    return 0;
}
