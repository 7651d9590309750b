/* Part of cuda_runtime.h here (nvcc brings this header into every CUDA file). */
#include <cuda_runtime.h>
