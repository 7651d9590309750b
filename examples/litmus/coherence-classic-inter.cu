// litmus: classical coherence violation across blocks (Sorensen, fig 3.1)
// outcome: r1=1 r2=2 r3=2 r4=1
// verdict sc: forbidden
// verdict gpu-weak: allowed
// verdict gpu-strong: forbidden
//
// Two threads store 1 and 2 to a; two threads each load a twice.
// r1=1 r2=2 r3=2 r4=1: the readers saw the two stores to one address in opposite orders.
// The weak model lets loads of one address leave program order (its load pool), so the
// violation may be seen (Table 4.2: ?); the strong model keeps coherence (Table 4.2: ×).
#include <stdio.h>

__device__ int a = 0;
// volatile: storing the registers writes through, adding no choices for the memory model.
__device__ volatile int r[4];

__global__ void litmus()
{
    // Thread i is the only thread of block i-1: 4 blocks.
    if (blockIdx.x == 0) {
        a = 1;
    } else if (blockIdx.x == 1) {
        a = 2;
    } else if (blockIdx.x == 2) {
        int r1 = a;
        int r2 = a;
        r[0] = r1;
        r[1] = r2;
    } else if (blockIdx.x == 3) {
        int r3 = a;
        int r4 = a;
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
