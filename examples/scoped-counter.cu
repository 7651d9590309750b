// scoped-counter.cu - a scoped race on a global event counter.
//
// BUG: every block counts its events into ONE global counter using
// atomicAdd_block(). A "_block" atomic is only atomic with respect to other
// threads of the same thread block. Threads of different blocks updating the
// same word are not synchronised with each other, so increments can be lost:
// this is a scoped race (the operations are atomic, but at too narrow a scope).
//
// FIX: use a device-scope atomic, atomicAdd(&counter, 1), for any location
// shared by more than one block (or keep a per-block counter in __shared__
// memory with atomicAdd_block and add it to the global once per block).
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define NBLOCKS 4
#define THREADS 128

// One counter for the whole grid.
__device__ unsigned int counter = 0;

// Each thread decides whether it observed an "event" and counts it.
__global__ void countEvents(const int *values, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && values[i] % 3 == 0) {
        // RACE: block scope is too narrow, `counter` is shared by all blocks.
        atomicAdd_block(&counter, 1u);
    }
}

int main()
{
    const int n = NBLOCKS * THREADS;
    int *h_values = (int *)malloc(n * sizeof(int));
    int *d_values;
    unsigned int expected = 0, result = 0;

    // Host-side input and the reference answer.
    for (int i = 0; i < n; i++) {
        h_values[i] = i;
        if (i % 3 == 0)
            expected++;
    }

    cudaMalloc(&d_values, n * sizeof(int));
    cudaMemcpy(d_values, h_values, n * sizeof(int), cudaMemcpyHostToDevice);

    countEvents<<<NBLOCKS, THREADS>>>(d_values, n);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        fprintf(stderr, "kernel failed: %s\n", cudaGetErrorString(err));
        return 1;
    }

    // Read the counter back from its __device__ symbol.
    cudaMemcpyFromSymbol(&result, counter, sizeof(result));
    printf("counted %u events, expected %u%s\n", result, expected,
           result == expected ? "" : "  <-- lost updates (scoped race)");

    free(h_values);
    cudaFree(d_values);
    return 0;
}
