// litmus: simple visibility in global memory across blocks, no fence (Sorensen, fig 3.5)
// outcome: r1=2 r2=0
// verdict sc: forbidden
// verdict gpu-weak: allowed
// verdict gpu-strong: allowed
//
// Thread 1 stores a, then b; thread 2 loads b, then a (its __threadfence_block() only keeps
// its two loads in program order). r1=2 r2=0: thread 2 saw the second store but not the first.
// With no fence in thread 1, nothing is promised: the violation may be seen (Table 4.2: ?).
// Stores to different addresses need not become visible in program order.
#include <stdio.h>

__device__ int a = 0;
__device__ int b = 0;
// volatile: storing the registers writes through, adding no choices for the memory model.
__device__ volatile int r[2];

__global__ void litmus()
{
    // Thread 1 is block 0 and thread 2 is block 1.
    if (blockIdx.x == 0) {
        a = 1;
        // No fence: nothing orders the two stores for other threads.
        b = 2;
    } else if (blockIdx.x == 1) {
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
    litmus<<<2, 1>>>();
    cudaDeviceSynchronize();
    cudaMemcpyFromSymbol(h, r, sizeof(h));
    printf("r1=%d r2=%d\n", h[0], h[1]);
    return 0;
}
