// litmus: atomicAdd() from two blocks keeps both updates (ScoRD, scoped atomic, fixed)
// outcome: counter=1
// verdict sc: forbidden
// verdict gpu-weak: forbidden
// verdict gpu-strong: forbidden
//
// atomic-block-lost-update.cu with the scope widened: a device-scope atomicAdd() is atomic
// with respect to every thread of the grid, so the two adds cannot overwrite each other and
// counter=1 (a lost update) cannot be seen under any model.
#include <stdio.h>

__device__ int counter = 0;

__global__ void litmus()
{
    // One thread per block: the two adds come from different blocks.
    atomicAdd(&counter, 1);
}

int main()
{
    int h = -1;
    litmus<<<2, 1>>>();
    cudaDeviceSynchronize();
    cudaMemcpyFromSymbol(&h, counter, sizeof(h));
    printf("counter=%d\n", h);
    return 0;
}
