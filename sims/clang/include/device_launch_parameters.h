/* threadIdx, blockIdx, blockDim, gridDim and warpSize: clang provides them
 * (__clang_cuda_builtin_vars.h, included by cuda_runtime.h). */
#ifndef __DEVICE_LAUNCH_PARAMETERS_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__
#include <__clang_cuda_builtin_vars.h>
#endif
