// litmus: message passing across blocks with a volatile flag, __threadfence_block() in the producer (ScoRD, message passing)
// outcome: r=0
// verdict sc: forbidden
// verdict gpu-weak: allowed
// verdict gpu-strong: allowed
//
// Block 0 writes data, fences, and raises a volatile flag; block 1 spins until it sees the
// flag, fences, and reads data. r=0: the consumer saw the flag but not the data.
// __threadfence_block() publishes data only within block 0, so block 1 may see the flag
// first (as Table 4.2's global visibility across blocks with TFB: ?). The ScoRD detector
// reports the too-narrow fence; mp-volatile-tf.cu is the fix.
#include <stdio.h>

__device__ int data = 0;
__device__ volatile int flag = 0;
// volatile: storing the register writes through, adding no choices for the memory model.
__device__ volatile int r;

__global__ void litmus()
{
    if (blockIdx.x == 0) {
        data = 42;
        __threadfence_block();
        flag = 1;
    } else {
        // volatile: the flag is loaded again on every turn of the loop.
        while (flag == 0)
            ;
        __threadfence();
        r = data;
    }
}

int main()
{
    int h = -1;
    // Two one-thread blocks, both resident at once, so the spin ends.
    litmus<<<2, 1>>>();
    cudaDeviceSynchronize();
    cudaMemcpyFromSymbol(&h, r, sizeof(h));
    printf("r=%d\n", h);
    return 0;
}
