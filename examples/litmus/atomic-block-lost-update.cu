// litmus: atomicAdd_block() from two blocks loses an update (ScoRD, scoped atomic)
// outcome: counter=1
// verdict sc: forbidden
// verdict gpu-weak: allowed
// verdict gpu-strong: allowed
//
// Two blocks each add 1 to one global counter with atomicAdd_block(). A "_block" atomic is
// atomic only with respect to its own block: each block may read-modify-write the counter
// without seeing the other block's add, and counter=1 shows an update was lost. The ScoRD
// detector reports this as a scoped-atomic race; atomicAdd() (device scope) is the fix, and
// atomic-device-add.cu shows that it cannot lose the update.
#include <stdio.h>

__device__ int counter = 0;

__global__ void litmus()
{
    // One thread per block: the race is between blocks, not within one.
    atomicAdd_block(&counter, 1);
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
