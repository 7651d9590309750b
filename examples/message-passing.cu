// message-passing.cu - a scoped race in inter-block message passing.
//
// BUG: the producer (block 0) writes `data`, executes __threadfence_block(),
// then sets `flag`. The consumer (block 1) spins on the volatile flag and then
// reads `data`. __threadfence_block() only orders the producer's writes as
// seen by threads of ITS OWN block; a thread in another block may observe
// flag == 1 and still read the old value of `data`. The fence is at too
// narrow a scope: a scoped race.
//
// FIX: use __threadfence() (device scope) in the producer between the data
// write and the flag write, and a __threadfence() in the consumer after it
// sees the flag and before it reads the data.
//
// Note: the spin-wait assumes both blocks are resident at the same time,
// which holds for this tiny two-block launch.
#include <stdio.h>
#include <cuda_runtime.h>

__device__ int data = 0;
__device__ volatile int flag = 0;

__global__ void messagePassing(int *result)
{
    if (threadIdx.x != 0)
        return;

    if (blockIdx.x == 0) {
        // Producer.
        data = 42;
        __threadfence_block();      // BUG: needs __threadfence()
        flag = 1;
    } else if (blockIdx.x == 1) {
        // Consumer: wait for the flag (volatile, so it is re-read each time).
        while (flag == 0)
            ;
        // (fixed version: __threadfence() here)
        *result = data;             // may read the stale value 0
    }
}

int main()
{
    int *d_result, h_result = -1;

    cudaMalloc(&d_result, sizeof(int));
    cudaMemset(d_result, 0xff, sizeof(int));

    messagePassing<<<2, 32>>>(d_result);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        fprintf(stderr, "kernel failed: %s\n", cudaGetErrorString(err));
        return 1;
    }

    cudaMemcpy(&h_result, d_result, sizeof(int), cudaMemcpyDeviceToHost);
    printf("consumer read data = %d (expected 42)\n", h_result);

    cudaFree(d_result);
    return 0;
}
