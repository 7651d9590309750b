/* cuda_runtime.h for clang (-x cuda, no CUDA SDK), written for the ScoRD simulator.
 *
 * nvcc includes this header into every CUDA translation unit; the simulator's toolchain does
 * the same with `-include cuda_runtime.h`, in both the device pass (nvptx) and the host pass
 * (wasm32). It gathers:
 *  - the CUDA C++ language macros and types (host_defines.h, vector_types.h, driver_types.h),
 *  - the runtime API (cuda_runtime_api.h; the simulator implements each function),
 *  - the device functions: clang's own resource headers (__clang_cuda_*.h: built-in variables,
 *    libdevice wrappers, math, shuffles and votes) plus this folder's atomics, warp and
 *    texture functions,
 *  - GPUVerify's specification annotations (gpuverify.h),
 *  - the C++ conveniences of the runtime API (templates over kernels and symbols). */
#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__

#if !defined(__CUDA__) || !defined(__cplusplus)
#error "cuda_runtime.h is for CUDA C++ compiled by clang (-x cuda)."
#endif

#define __CUDACC__ 1
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 8
#define __CUDACC_VER_BUILD__ 0
#ifndef CUDA_VERSION
#define CUDA_VERSION 12080
#endif
#define __SCORD_CUDA__ 1

#include "host_defines.h"

/* The PTX system calls behind printf, malloc, free and assert in device code. They precede the
 * standard headers: clang's <new> wrapper defines the device operator new with ::malloc as soon
 * as <new> is included. */
#include <stddef.h>
extern "C" {
__device__ int vprintf(const char *, const char *);
__device__ void free(void *) __attribute__((nothrow));
__device__ void *malloc(size_t) __attribute__((nothrow)) __attribute__((malloc));
__device__ void __assertfail(const char *__message, const char *__file, unsigned __line,
                             const char *__function, size_t __charSize);
}

/* Device declarations of the C math functions; must precede <cmath>. */
#include <__clang_cuda_math_forward_declares.h>

/* The C and C++ library headers nvcc's runtime header brings into every translation unit. */
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>

#include "builtin_types.h"
#include <__clang_cuda_builtin_vars.h>
#include "vector_functions.h"
#include "cuda_runtime_api.h"
#include "channel_descriptor.h"
#include "driver_functions.h"
#include "device_launch_parameters.h"

typedef uint32_t cuuint32_t;
typedef uint64_t cuuint64_t;

/* ---------------------------------------------------------------------------------------------
 * Device functions. */
#include <__clang_cuda_libdevice_declares.h>
#include <__clang_cuda_device_functions.h>
#include <__clang_cuda_math.h>

extern "C" {
/* assert() of the C library calls __assert_fail; in device code it reaches __assertfail. */
__device__ static inline void __assert_fail(const char *__message, const char *__file, int __line,
                                            const char *__function) {
  __assertfail(__message, __file, (unsigned)__line, __function, sizeof(char));
}
/* clang turns device printf into vprintf; it needs a device declaration to call. */
__device__ int printf(const char *, ...);
}

namespace std {
__device__ static inline void free(void *__ptr) { ::free(__ptr); }
__device__ static inline void *malloc(size_t __size) { return ::malloc(__size); }
} // namespace std

/* threadIdx, blockIdx, blockDim and gridDim convert to uint3 and dim3. */
__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const { return {x, y, z}; }

#include "sm_20_intrinsics.h"
#include <__clang_cuda_cmath.h>
#include <__clang_cuda_intrinsics.h>
#include <__clang_cuda_complex_builtins.h>
#include "math_minmax.h"
#include "device_atomic_functions.h"
#include "sm_60_atomic_functions.h"
#include "sm_61_intrinsics.h"
#include "texture_indirect_functions.h"
/* Texture references (the `texture<T, dim, mode>` template of CUDA 11 and older); a program
 * with its own global named `texture` compiles with -DSCORD_NO_TEXTURE_REFERENCES. */
#if !defined(SCORD_NO_TEXTURE_REFERENCES)
#include "texture_fetch_functions.h"
#endif
#include "surface_indirect_functions.h"
#include "gpuverify.h"

/* ---------------------------------------------------------------------------------------------
 * The C++ forms of the runtime API: typed pointers, symbols passed as variables, kernels passed
 * as functions (CUDA Runtime API reference, "C++ API Routines"). */

template <class T>
static __inline__ __host__ cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return ::cudaMalloc((void **)(void *)devPtr, size);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMallocHost(T **ptr, size_t size, unsigned int flags = 0) {
  return flags == 0 ? ::cudaMallocHost((void **)(void *)ptr, size)
                    : ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}
static __inline__ __host__ cudaError_t cudaMallocHost(void **ptr, size_t size, unsigned int flags) {
  return ::cudaHostAlloc(ptr, size, flags);
}
template <class T>
static __inline__ __host__ cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags) {
  return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <class T>
static __inline__ __host__ cudaError_t cudaHostGetDevicePointer(T **pDevice, void *pHost, unsigned int flags) {
  return ::cudaHostGetDevicePointer((void **)(void *)pDevice, pHost, flags);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMallocManaged(T **devPtr, size_t size,
                                                         unsigned int flags = cudaMemAttachGlobal) {
  return ::cudaMallocManaged((void **)(void *)devPtr, size, flags);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMallocPitch(T **devPtr, size_t *pitch, size_t width, size_t height) {
  return ::cudaMallocPitch((void **)(void *)devPtr, pitch, width, height);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaStream_t stream) {
  return ::cudaMallocAsync((void **)(void *)ptr, size, stream);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
  return ::cudaMallocFromPoolAsync((void **)(void *)ptr, size, memPool, stream);
}
static __inline__ __host__ cudaError_t cudaMallocAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
  return ::cudaMallocFromPoolAsync(ptr, size, memPool, stream);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMallocFromPoolAsync(T **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
  return ::cudaMallocFromPoolAsync((void **)(void *)ptr, size, memPool, stream);
}
template <class T>
static __inline__ __host__ cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, T *devPtr, size_t length = 0,
                                                                unsigned int flags = cudaMemAttachSingle) {
  return ::cudaStreamAttachMemAsync(stream, (void *)devPtr, length, flags);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
                                                          size_t offset = 0,
                                                          enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return ::cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count,
                                                               size_t offset = 0,
                                                               enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                                               cudaStream_t stream = 0) {
  return ::cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset, kind, stream);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count,
                                                            size_t offset = 0,
                                                            enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return ::cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count,
                                                                 size_t offset = 0,
                                                                 enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                                                 cudaStream_t stream = 0) {
  return ::cudaMemcpyFromSymbolAsync(dst, (const void *)&symbol, count, offset, kind, stream);
}
template <class T>
static __inline__ __host__ cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol) {
  return ::cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}
template <class T>
static __inline__ __host__ cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol) {
  return ::cudaGetSymbolSize(size, (const void *)&symbol);
}
template <class T>
static __inline__ __host__ cudaError_t cudaGraphAddMemcpyNodeToSymbol(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies,
    const T &symbol, const void *src, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return ::cudaGraphAddMemcpyNodeToSymbol(pGraphNode, graph, pDependencies, numDependencies, (const void *)&symbol,
                                          src, count, offset, kind);
}
template <class T>
static __inline__ __host__ cudaError_t cudaGraphAddMemcpyNodeFromSymbol(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies,
    void *dst, const T &symbol, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return ::cudaGraphAddMemcpyNodeFromSymbol(pGraphNode, graph, pDependencies, numDependencies, dst,
                                            (const void *)&symbol, count, offset, kind);
}

template <class T>
static __inline__ __host__ cudaError_t cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
                                                        size_t sharedMem = 0, cudaStream_t stream = 0) {
  return ::cudaLaunchKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}
template <class T>
static __inline__ __host__ cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
                                                                   size_t sharedMem = 0, cudaStream_t stream = 0) {
  return ::cudaLaunchCooperativeKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}
/* cudaLaunchKernelEx: the arguments are passed as they are; their addresses form the argument
 * array cudaLaunchKernelExC takes. */
template <class... ExpTypes, class... ActTypes>
static __inline__ __host__ cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config,
                                                          void (*kernel)(ExpTypes...), ActTypes &&...args) {
  return [&](ExpTypes... coerced) -> cudaError_t {
    void *pArgs[] = {&coerced..., nullptr};
    return ::cudaLaunchKernelExC(config, (const void *)kernel, pArgs);
  }(static_cast<ActTypes &&>(args)...);
}
template <class T>
static __inline__ __host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *entry) {
  return ::cudaFuncGetAttributes(attr, (const void *)entry);
}
template <class T>
static __inline__ __host__ cudaError_t cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute attr, int value) {
  return ::cudaFuncSetAttribute((const void *)entry, attr, value);
}
template <class T>
static __inline__ __host__ cudaError_t cudaFuncSetCacheConfig(T *func, enum cudaFuncCache cacheConfig) {
  return ::cudaFuncSetCacheConfig((const void *)func, cacheConfig);
}
template <class T>
static __inline__ __host__ cudaError_t cudaFuncSetSharedMemConfig(T *func, enum cudaSharedMemConfig config) {
  return ::cudaFuncSetSharedMemConfig((const void *)func, config);
}
template <class T>
static __inline__ __host__ cudaError_t cudaFuncGetName(const char **name, T *func) {
  return ::cudaFuncGetName(name, (const void *)func);
}
template <class T>
static __inline__ __host__ cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, T *func) {
  return ::cudaGetKernel(kernelPtr, (const void *)func);
}
template <class T>
static __inline__ __host__ cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr, T *symbolPtr) {
  return ::cudaGetFuncBySymbol(functionPtr, (const void *)symbolPtr);
}
template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func,
                                                                                     int blockSize,
                                                                                     size_t dynamicSMemSize) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, (const void *)func, blockSize,
                                                                  dynamicSMemSize, cudaOccupancyDefault);
}
template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, T func, int blockSize, size_t dynamicSMemSize, unsigned int flags) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, (const void *)func, blockSize,
                                                                  dynamicSMemSize, flags);
}
template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, T func,
                                                                                 int numBlocks, int blockSize) {
  return ::cudaOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize, (const void *)func, numBlocks, blockSize);
}
template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialClusterSize(int *clusterSize, T *func,
                                                                            const cudaLaunchConfig_t *config) {
  return ::cudaOccupancyMaxPotentialClusterSize(clusterSize, (const void *)func, config);
}
template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxActiveClusters(int *numClusters, T *func,
                                                                      const cudaLaunchConfig_t *config) {
  return ::cudaOccupancyMaxActiveClusters(numClusters, (const void *)func, config);
}

/* The block size with the most resident threads per multiprocessor, searched as the CUDA
 * runtime's helper does: every multiple of the warp size up to the kernel's and the device's
 * limit, with the dynamic shared memory the caller needs for each block size. */
class __cudaOccupancyB2DHelper {
  size_t n;

public:
  inline __host__ __device__ __cudaOccupancyB2DHelper(size_t n_) : n(n_) {}
  inline __host__ __device__ size_t operator()(int) const { return n; }
};

template <typename UnaryFunction, class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
    int *minGridSize, int *blockSize, T func, UnaryFunction blockSizeToDynamicSMemSize, int blockSizeLimit = 0,
    unsigned int flags = 0) {
  if (!minGridSize || !blockSize || !func) return cudaErrorInvalidValue;
  int device = 0;
  cudaError_t status = ::cudaGetDevice(&device);
  if (status != cudaSuccess) return status;
  int maxThreadsPerMultiProcessor = 0, warpSize = 0, multiProcessorCount = 0, devMaxThreadsPerBlock = 0;
  if ((status = ::cudaDeviceGetAttribute(&maxThreadsPerMultiProcessor, cudaDevAttrMaxThreadsPerMultiProcessor,
                                         device)) != cudaSuccess ||
      (status = ::cudaDeviceGetAttribute(&warpSize, cudaDevAttrWarpSize, device)) != cudaSuccess ||
      (status = ::cudaDeviceGetAttribute(&devMaxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock, device)) !=
          cudaSuccess ||
      (status = ::cudaDeviceGetAttribute(&multiProcessorCount, cudaDevAttrMultiProcessorCount, device)) !=
          cudaSuccess)
    return status;
  struct cudaFuncAttributes attr;
  if ((status = ::cudaFuncGetAttributes(&attr, (const void *)func)) != cudaSuccess) return status;
  int funcMaxThreadsPerBlock = attr.maxThreadsPerBlock;
  int limit = devMaxThreadsPerBlock < funcMaxThreadsPerBlock ? devMaxThreadsPerBlock : funcMaxThreadsPerBlock;
  if (blockSizeLimit > 0 && blockSizeLimit < limit) limit = blockSizeLimit;
  if (warpSize <= 0) warpSize = 32;
  int bestBlockSize = 0, bestOccupancy = 0;
  for (int size = (limit / warpSize) * warpSize; size > 0; size -= warpSize) {
    int blocks = 0;
    status = ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        &blocks, (const void *)func, size, blockSizeToDynamicSMemSize(size), flags);
    if (status != cudaSuccess) return status;
    if (blocks * size > bestOccupancy) {
      bestOccupancy = blocks * size;
      bestBlockSize = size;
    }
    if (bestOccupancy == maxThreadsPerMultiProcessor) break;
  }
  *minGridSize = bestBlockSize > 0 ? (bestOccupancy / bestBlockSize) * multiProcessorCount : 0;
  *blockSize = bestBlockSize;
  return cudaSuccess;
}
template <typename UnaryFunction, class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(
    int *minGridSize, int *blockSize, T func, UnaryFunction blockSizeToDynamicSMemSize, int blockSizeLimit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(minGridSize, blockSize, func,
                                                                 blockSizeToDynamicSMemSize, blockSizeLimit, 0);
}
template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, T func,
                                                                          size_t dynamicSMemSize = 0,
                                                                          int blockSizeLimit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      minGridSize, blockSize, func, __cudaOccupancyB2DHelper(dynamicSMemSize), blockSizeLimit, 0);
}
template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize,
                                                                                   T func, size_t dynamicSMemSize = 0,
                                                                                   int blockSizeLimit = 0,
                                                                                   unsigned int flags = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      minGridSize, blockSize, func, __cudaOccupancyB2DHelper(dynamicSMemSize), blockSizeLimit, flags);
}

static __inline__ __host__ cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned int flags) {
  return ::cudaEventCreateWithFlags(event, flags);
}
static __inline__ __host__ cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                            cudaGraphNode_t *pErrorNode, char *pLogBuffer,
                                                            size_t bufferSize) {
  (void)pLogBuffer;
  (void)bufferSize;
  if (pErrorNode) *pErrorNode = 0;
  return ::cudaGraphInstantiate(pGraphExec, graph, 0);
}
/* The graph and capture functions of CUDA 12, without edge data (the declarations are CUDA 13's). */
static __inline__ __host__ cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
                                                                enum cudaStreamCaptureStatus *captureStatus_out,
                                                                unsigned long long *id_out, cudaGraph_t *graph_out,
                                                                const cudaGraphNode_t **dependencies_out,
                                                                size_t *numDependencies_out) {
  return ::cudaStreamGetCaptureInfo(stream, captureStatus_out, id_out, graph_out, dependencies_out, 0,
                                    numDependencies_out);
}
static __inline__ __host__ cudaError_t cudaStreamGetCaptureInfo_v3(
    cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out, unsigned long long *id_out = 0,
    cudaGraph_t *graph_out = 0, const cudaGraphNode_t **dependencies_out = 0,
    const cudaGraphEdgeData **edgeData_out = 0, size_t *numDependencies_out = 0) {
  return ::cudaStreamGetCaptureInfo(stream, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
                                    numDependencies_out);
}
static __inline__ __host__ cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
                                                                           cudaGraphNode_t *dependencies,
                                                                           size_t numDependencies,
                                                                           unsigned int flags = 0) {
  return ::cudaStreamUpdateCaptureDependencies(stream, dependencies, 0, numDependencies, flags);
}
static __inline__ __host__ cudaError_t cudaStreamUpdateCaptureDependencies_v2(cudaStream_t stream,
                                                                              cudaGraphNode_t *dependencies,
                                                                              const cudaGraphEdgeData *dependencyData,
                                                                              size_t numDependencies,
                                                                              unsigned int flags = 0) {
  return ::cudaStreamUpdateCaptureDependencies(stream, dependencies, dependencyData, numDependencies, flags);
}
static __inline__ __host__ cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                                                         size_t *numEdges) {
  return ::cudaGraphGetEdges(graph, from, to, 0, numEdges);
}
static __inline__ __host__ cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                                                    size_t *pNumDependencies) {
  return ::cudaGraphNodeGetDependencies(node, pDependencies, 0, pNumDependencies);
}
static __inline__ __host__ cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node,
                                                                      cudaGraphNode_t *pDependentNodes,
                                                                      size_t *pNumDependentNodes) {
  return ::cudaGraphNodeGetDependentNodes(node, pDependentNodes, 0, pNumDependentNodes);
}
static __inline__ __host__ cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                                const cudaGraphNode_t *to, size_t numDependencies) {
  return ::cudaGraphAddDependencies(graph, from, to, 0, numDependencies);
}
static __inline__ __host__ cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                                   const cudaGraphNode_t *to, size_t numDependencies) {
  return ::cudaGraphRemoveDependencies(graph, from, to, 0, numDependencies);
}
static __inline__ __host__ cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                        const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                        struct cudaGraphNodeParams *nodeParams) {
  return ::cudaGraphAddNode(pGraphNode, graph, pDependencies, 0, numDependencies, nodeParams);
}
static __inline__ __host__ cudaError_t cudaGraphAddNode_v2(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                           const cudaGraphNode_t *pDependencies,
                                                           const cudaGraphEdgeData *dependencyData,
                                                           size_t numDependencies,
                                                           struct cudaGraphNodeParams *nodeParams) {
  return ::cudaGraphAddNode(pGraphNode, graph, pDependencies, dependencyData, numDependencies, nodeParams);
}
static __inline__ __host__ cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                                                     struct cudaMemLocation location) {
  return ::cudaMemAdvise_v2(devPtr, count, advice, location);
}
static __inline__ __host__ cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                                            struct cudaMemLocation location, unsigned int flags,
                                                            cudaStream_t stream = 0) {
  return ::cudaMemPrefetchAsync_v2(devPtr, count, location, flags, stream);
}

#endif /* __CUDA_RUNTIME_H__ */
