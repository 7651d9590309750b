/* The CUDA runtime API (CUDA Runtime API reference), declared for the ScoRD simulator. Every
 * function here is implemented by the simulator's host runtime: the program is compiled to
 * WebAssembly and each call becomes an import of module "env" named as the C function.
 * Functions the simulator cannot provide (graphics interoperability, IPC, peer access, external
 * resources) are declared too, so programs compile; the runtime answers them with a
 * `not supported: <feature>` diagnostic at the call.
 *
 * The functions the CUDA C++ Programming Guide lists as callable from device code (dynamic
 * parallelism) are declared __host__ __device__; in device code they are external device
 * functions for the simulator's device lowering to provide or refuse. */
#ifndef __CUDA_RUNTIME_API_H__
#define __CUDA_RUNTIME_API_H__

#include "host_defines.h"
#include "builtin_types.h"

#define CUDART_VERSION 12080
#define __CUDART_API_VERSION CUDART_VERSION

#if defined(__cplusplus)
extern "C" {
#endif

#define __SCORD_API extern __host__ cudaError_t CUDARTAPI
#define __SCORD_API_HD extern __host__ __device__ cudaError_t CUDARTAPI

/* Device management. */
__SCORD_API cudaDeviceReset(void);
__SCORD_API_HD cudaDeviceSynchronize(void);
__SCORD_API cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
__SCORD_API_HD cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit);
__SCORD_API cudaDeviceGetTexture1DLinearMaxWidth(size_t *maxWidthInElements, const struct cudaChannelFormatDesc *fmtDesc, int device);
__SCORD_API_HD cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig);
__SCORD_API cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
__SCORD_API cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
__SCORD_API cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig);
__SCORD_API cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
__SCORD_API cudaDeviceGetByPCIBusId(int *device, const char *pciBusId);
__SCORD_API cudaDeviceGetPCIBusId(char *pciBusId, int len, int device);
__SCORD_API cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle, cudaEvent_t event);
__SCORD_API cudaIpcOpenEventHandle(cudaEvent_t *event, cudaIpcEventHandle_t handle);
__SCORD_API cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *devPtr);
__SCORD_API cudaIpcOpenMemHandle(void **devPtr, cudaIpcMemHandle_t handle, unsigned int flags);
__SCORD_API cudaIpcCloseMemHandle(void *devPtr);
__SCORD_API cudaDeviceFlushGPUDirectRDMAWrites(int target, int scope);
__SCORD_API cudaDeviceRegisterAsyncNotification(int device, void *callbackFunc, void *userData, void *callback);
__SCORD_API cudaDeviceUnregisterAsyncNotification(int device, void *callback);
__SCORD_API cudaThreadExit(void);
__SCORD_API cudaThreadSynchronize(void);
__SCORD_API cudaThreadSetLimit(enum cudaLimit limit, size_t value);
__SCORD_API cudaThreadGetLimit(size_t *pValue, enum cudaLimit limit);
__SCORD_API cudaThreadGetCacheConfig(enum cudaFuncCache *pCacheConfig);
__SCORD_API cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig);

/* Errors. */
__SCORD_API_HD cudaGetLastError(void);
__SCORD_API_HD cudaPeekAtLastError(void);
extern __host__ __device__ const char *CUDARTAPI cudaGetErrorName(cudaError_t error);
extern __host__ __device__ const char *CUDARTAPI cudaGetErrorString(cudaError_t error);

/* Devices. */
__SCORD_API_HD cudaGetDeviceCount(int *count);
__SCORD_API cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
__SCORD_API cudaGetDeviceProperties_v2(struct cudaDeviceProp *prop, int device);
__SCORD_API_HD cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
__SCORD_API cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device);
__SCORD_API cudaDeviceSetMemPool(int device, cudaMemPool_t memPool);
__SCORD_API cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device);
__SCORD_API cudaDeviceGetNvSciSyncAttributes(void *nvSciSyncAttrList, int device, int flags);
__SCORD_API cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr, int srcDevice, int dstDevice);
__SCORD_API cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);
__SCORD_API cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags);
__SCORD_API cudaSetDevice(int device);
__SCORD_API_HD cudaGetDevice(int *device);
__SCORD_API cudaSetValidDevices(int *device_arr, int len);
__SCORD_API cudaSetDeviceFlags(unsigned int flags);
__SCORD_API cudaGetDeviceFlags(unsigned int *flags);

/* Streams. */
__SCORD_API cudaStreamCreate(cudaStream_t *pStream);
__SCORD_API_HD cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags);
__SCORD_API cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority);
__SCORD_API cudaStreamGetPriority(cudaStream_t hStream, int *priority);
__SCORD_API cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags);
__SCORD_API cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId);
__SCORD_API cudaStreamGetDevice(cudaStream_t hStream, int *device);
__SCORD_API cudaCtxResetPersistingL2Cache(void);
__SCORD_API cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src);
__SCORD_API cudaStreamGetAttribute(cudaStream_t hStream, cudaStreamAttrID attr, cudaStreamAttrValue *value_out);
__SCORD_API cudaStreamSetAttribute(cudaStream_t hStream, cudaStreamAttrID attr, const cudaStreamAttrValue *value);
__SCORD_API_HD cudaStreamDestroy(cudaStream_t stream);
__SCORD_API_HD cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags __dv(0));
__SCORD_API cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData, unsigned int flags);
__SCORD_API cudaStreamSynchronize(cudaStream_t stream);
__SCORD_API cudaStreamQuery(cudaStream_t stream);
__SCORD_API cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length __dv(0), unsigned int flags __dv(cudaMemAttachSingle));
__SCORD_API cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode);
__SCORD_API cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t *dependencies, const cudaGraphEdgeData *dependencyData, size_t numDependencies, enum cudaStreamCaptureMode mode);
__SCORD_API cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode);
__SCORD_API cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph);
__SCORD_API cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus);
/* The capture queries with edge data are the CUDA 13 forms; cuda_runtime.h adds the CUDA 12 forms
 * without it. */
__SCORD_API cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out, unsigned long long *id_out __dv(0), cudaGraph_t *graph_out __dv(0), const cudaGraphNode_t **dependencies_out __dv(0), const cudaGraphEdgeData **edgeData_out __dv(0), size_t *numDependencies_out __dv(0));
__SCORD_API cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies, const cudaGraphEdgeData *dependencyData, size_t numDependencies, unsigned int flags __dv(0));

/* Events. */
__SCORD_API cudaEventCreate(cudaEvent_t *event);
__SCORD_API_HD cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
__SCORD_API_HD cudaEventRecord(cudaEvent_t event, cudaStream_t stream __dv(0));
__SCORD_API cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream __dv(0), unsigned int flags __dv(0));
__SCORD_API cudaEventQuery(cudaEvent_t event);
__SCORD_API cudaEventSynchronize(cudaEvent_t event);
__SCORD_API_HD cudaEventDestroy(cudaEvent_t event);
__SCORD_API cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);

/* External resources (refused). */
__SCORD_API cudaImportExternalMemory(cudaExternalMemory_t *extMem_out, const struct cudaExternalMemoryHandleDesc *memHandleDesc);
__SCORD_API cudaExternalMemoryGetMappedBuffer(void **devPtr, cudaExternalMemory_t extMem, const struct cudaExternalMemoryBufferDesc *bufferDesc);
__SCORD_API cudaDestroyExternalMemory(cudaExternalMemory_t extMem);
__SCORD_API cudaImportExternalSemaphore(cudaExternalSemaphore_t *extSem_out, const struct cudaExternalSemaphoreHandleDesc *semHandleDesc);
__SCORD_API cudaSignalExternalSemaphoresAsync(const cudaExternalSemaphore_t *extSemArray, const struct cudaExternalSemaphoreSignalParams *paramsArray, unsigned int numExtSems, cudaStream_t stream __dv(0));
__SCORD_API cudaWaitExternalSemaphoresAsync(const cudaExternalSemaphore_t *extSemArray, const struct cudaExternalSemaphoreWaitParams *paramsArray, unsigned int numExtSems, cudaStream_t stream __dv(0));
__SCORD_API cudaDestroyExternalSemaphore(cudaExternalSemaphore_t extSem);

/* Execution control. */
__SCORD_API cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem, cudaStream_t stream);
__SCORD_API cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args);
__SCORD_API cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem, cudaStream_t stream);
__SCORD_API cudaLaunchCooperativeKernelMultiDevice(void *launchParamsList, unsigned int numDevices, unsigned int flags __dv(0));
__SCORD_API cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig);
__SCORD_API cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config);
__SCORD_API_HD cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
__SCORD_API cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
__SCORD_API cudaFuncGetName(const char **name, const void *func);
__SCORD_API cudaFuncGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset, size_t *paramSize);
__SCORD_API cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);
__SCORD_API cudaSetDoubleForDevice(double *d);
__SCORD_API cudaSetDoubleForHost(double *d);

/* Occupancy. */
__SCORD_API_HD cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize);
__SCORD_API cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func, int numBlocks, int blockSize);
__SCORD_API_HD cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize, unsigned int flags);
__SCORD_API cudaOccupancyMaxPotentialClusterSize(int *clusterSize, const void *func, const cudaLaunchConfig_t *launchConfig);
__SCORD_API cudaOccupancyMaxActiveClusters(int *numClusters, const void *func, const cudaLaunchConfig_t *launchConfig);

/* Memory management. */
__SCORD_API cudaMallocManaged(void **devPtr, size_t size, unsigned int flags __dv(cudaMemAttachGlobal));
__SCORD_API_HD cudaMalloc(void **devPtr, size_t size);
__SCORD_API cudaMallocHost(void **ptr, size_t size);
__SCORD_API cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
__SCORD_API cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width, size_t height __dv(0), unsigned int flags __dv(0));
__SCORD_API_HD cudaFree(void *devPtr);
__SCORD_API cudaFreeHost(void *ptr);
__SCORD_API cudaFreeArray(cudaArray_t array);
__SCORD_API cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray);
__SCORD_API cudaHostAlloc(void **pHost, size_t size, unsigned int flags);
__SCORD_API cudaHostRegister(void *ptr, size_t size, unsigned int flags);
__SCORD_API cudaHostUnregister(void *ptr);
__SCORD_API cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
__SCORD_API cudaHostGetFlags(unsigned int *pFlags, void *pHost);
__SCORD_API cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent);
__SCORD_API cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, struct cudaExtent extent, unsigned int flags __dv(0));
__SCORD_API cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmappedArray, const struct cudaChannelFormatDesc *desc, struct cudaExtent extent, unsigned int numLevels, unsigned int flags __dv(0));
__SCORD_API cudaGetMipmappedArrayLevel(cudaArray_t *levelArray, cudaMipmappedArray_const_t mipmappedArray, unsigned int level);
__SCORD_API cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
__SCORD_API cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *p);
__SCORD_API_HD cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream __dv(0));
__SCORD_API cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream __dv(0));
__SCORD_API cudaMemGetInfo(size_t *free, size_t *total);
__SCORD_API cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent, unsigned int *flags, cudaArray_t array);
__SCORD_API cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
__SCORD_API cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count);
__SCORD_API cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
__SCORD_API cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
__SCORD_API cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind);
__SCORD_API cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc, size_t width, size_t height, enum cudaMemcpyKind kind __dv(cudaMemcpyDeviceToDevice));
__SCORD_API cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset __dv(0), enum cudaMemcpyKind kind __dv(cudaMemcpyHostToDevice));
__SCORD_API cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset __dv(0), enum cudaMemcpyKind kind __dv(cudaMemcpyDeviceToHost));
__SCORD_API_HD cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream __dv(0));
__SCORD_API cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count, cudaStream_t stream __dv(0));
__SCORD_API cudaMemcpyBatchAsync(void **dsts, void **srcs, size_t *sizes, size_t count, void *attrs, size_t *attrsIdxs, size_t numAttrs, size_t *failIdx, cudaStream_t stream);
__SCORD_API_HD cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream __dv(0));
__SCORD_API cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream __dv(0));
__SCORD_API cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream __dv(0));
__SCORD_API cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream __dv(0));
__SCORD_API cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream __dv(0));
__SCORD_API cudaMemset(void *devPtr, int value, size_t count);
__SCORD_API cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
__SCORD_API cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent);
__SCORD_API_HD cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream __dv(0));
__SCORD_API_HD cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream __dv(0));
__SCORD_API_HD cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent, cudaStream_t stream __dv(0));
__SCORD_API cudaGetSymbolAddress(void **devPtr, const void *symbol);
__SCORD_API cudaGetSymbolSize(size_t *size, const void *symbol);
__SCORD_API cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice, cudaStream_t stream __dv(0));
__SCORD_API cudaMemPrefetchAsync_v2(const void *devPtr, size_t count, struct cudaMemLocation location, unsigned int flags, cudaStream_t stream __dv(0));
__SCORD_API cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice, int device);
__SCORD_API cudaMemAdvise_v2(const void *devPtr, size_t count, enum cudaMemoryAdvise advice, struct cudaMemLocation location);
__SCORD_API cudaMemRangeGetAttribute(void *data, size_t dataSize, enum cudaMemRangeAttribute attribute, const void *devPtr, size_t count);
__SCORD_API cudaMemRangeGetAttributes(void **data, size_t *dataSizes, enum cudaMemRangeAttribute *attributes, size_t numAttributes, const void *devPtr, size_t count);
__SCORD_API cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count, enum cudaMemcpyKind kind);
__SCORD_API cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count, enum cudaMemcpyKind kind);
__SCORD_API cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc, size_t count, enum cudaMemcpyKind kind __dv(cudaMemcpyDeviceToDevice));
__SCORD_API cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream __dv(0));
__SCORD_API cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream __dv(0));

/* Stream-ordered allocation and memory pools. */
__SCORD_API cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream);
__SCORD_API cudaFreeAsync(void *devPtr, cudaStream_t hStream);
__SCORD_API cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep);
__SCORD_API cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value);
__SCORD_API cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value);
__SCORD_API cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList, size_t count);
__SCORD_API cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool, struct cudaMemLocation *location);
__SCORD_API cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps);
__SCORD_API cudaMemPoolDestroy(cudaMemPool_t memPool);
__SCORD_API cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream);
__SCORD_API cudaMemPoolExportToShareableHandle(void *shareableHandle, cudaMemPool_t memPool, enum cudaMemAllocationHandleType handleType, unsigned int flags);
__SCORD_API cudaMemPoolImportFromShareableHandle(cudaMemPool_t *memPool, void *shareableHandle, enum cudaMemAllocationHandleType handleType, unsigned int flags);
__SCORD_API cudaMemPoolExportPointer(struct cudaMemPoolPtrExportData *exportData, void *ptr);
__SCORD_API cudaMemPoolImportPointer(void **ptr, cudaMemPool_t memPool, struct cudaMemPoolPtrExportData *exportData);

/* Unified addressing and peer access (peer access refused: one simulated device). */
__SCORD_API cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr);
__SCORD_API cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);
__SCORD_API cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
__SCORD_API cudaDeviceDisablePeerAccess(int peerDevice);

/* Graphics interoperability (refused). */
__SCORD_API cudaGraphicsUnregisterResource(cudaGraphicsResource_t resource);
__SCORD_API cudaGraphicsResourceSetMapFlags(cudaGraphicsResource_t resource, unsigned int flags);
__SCORD_API cudaGraphicsMapResources(int count, cudaGraphicsResource_t *resources, cudaStream_t stream __dv(0));
__SCORD_API cudaGraphicsUnmapResources(int count, cudaGraphicsResource_t *resources, cudaStream_t stream __dv(0));
__SCORD_API cudaGraphicsResourceGetMappedPointer(void **devPtr, size_t *size, cudaGraphicsResource_t resource);
__SCORD_API cudaGraphicsSubResourceGetMappedArray(cudaArray_t *array, cudaGraphicsResource_t resource, unsigned int arrayIndex, unsigned int mipLevel);
__SCORD_API cudaGraphicsResourceGetMappedMipmappedArray(cudaMipmappedArray_t *mipmappedArray, cudaGraphicsResource_t resource);

/* Textures and surfaces (object API). */
__SCORD_API cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array);
__SCORD_API cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc, const struct cudaTextureDesc *pTexDesc, const struct cudaResourceViewDesc *pResViewDesc);
__SCORD_API cudaDestroyTextureObject(cudaTextureObject_t texObject);
__SCORD_API cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaTextureObject_t texObject);
__SCORD_API cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc, cudaTextureObject_t texObject);
__SCORD_API cudaGetTextureObjectResourceViewDesc(struct cudaResourceViewDesc *pResViewDesc, cudaTextureObject_t texObject);
__SCORD_API cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc);
__SCORD_API cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);
__SCORD_API cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaSurfaceObject_t surfObject);

/* Versions. */
__SCORD_API cudaDriverGetVersion(int *driverVersion);
__SCORD_API_HD cudaRuntimeGetVersion(int *runtimeVersion);

/* Graphs. */
__SCORD_API cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags);
__SCORD_API cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, const struct cudaKernelNodeParams *pNodeParams);
__SCORD_API cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *pNodeParams);
__SCORD_API cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct cudaKernelNodeParams *pNodeParams);
__SCORD_API cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hSrc, cudaGraphNode_t hDst);
__SCORD_API cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr, cudaKernelNodeAttrValue *value_out);
__SCORD_API cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr, const cudaKernelNodeAttrValue *value);
__SCORD_API cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, const struct cudaMemcpy3DParms *pCopyParams);
__SCORD_API cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind);
__SCORD_API cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind);
__SCORD_API cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
__SCORD_API cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, struct cudaMemcpy3DParms *pNodeParams);
__SCORD_API cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const struct cudaMemcpy3DParms *pNodeParams);
__SCORD_API cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
__SCORD_API cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, const struct cudaMemsetParams *pMemsetParams);
__SCORD_API cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, struct cudaMemsetParams *pNodeParams);
__SCORD_API cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const struct cudaMemsetParams *pNodeParams);
__SCORD_API cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, const struct cudaHostNodeParams *pNodeParams);
__SCORD_API cudaGraphHostNodeGetParams(cudaGraphNode_t node, struct cudaHostNodeParams *pNodeParams);
__SCORD_API cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams *pNodeParams);
__SCORD_API cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, cudaGraph_t childGraph);
__SCORD_API cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph);
__SCORD_API cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies);
__SCORD_API cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, cudaEvent_t event);
__SCORD_API cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out);
__SCORD_API cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event);
__SCORD_API cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, cudaEvent_t event);
__SCORD_API cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out);
__SCORD_API cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event);
__SCORD_API cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, struct cudaMemAllocNodeParams *nodeParams);
__SCORD_API cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, struct cudaMemAllocNodeParams *params_out);
__SCORD_API cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dptr);
__SCORD_API cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out);
__SCORD_API cudaDeviceGraphMemTrim(int device);
__SCORD_API cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value);
__SCORD_API cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value);
__SCORD_API cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph);
__SCORD_API cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode, cudaGraph_t clonedGraph);
__SCORD_API cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType);
__SCORD_API cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes);
__SCORD_API cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes, size_t *pNumRootNodes);
__SCORD_API cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to, cudaGraphEdgeData *edgeData, size_t *numEdges);
__SCORD_API cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies, cudaGraphEdgeData *edgeData, size_t *pNumDependencies);
__SCORD_API cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes, cudaGraphEdgeData *edgeData, size_t *pNumDependentNodes);
__SCORD_API cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData, size_t numDependencies);
__SCORD_API cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData, size_t numDependencies);
__SCORD_API cudaGraphDestroyNode(cudaGraphNode_t node);
__SCORD_API cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags __dv(0));
__SCORD_API cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags __dv(0));
__SCORD_API cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, cudaGraphInstantiateParams *instantiateParams);
__SCORD_API cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long *flags);
__SCORD_API cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, const struct cudaKernelNodeParams *pNodeParams);
__SCORD_API cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, const struct cudaMemcpy3DParms *pNodeParams);
__SCORD_API cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
__SCORD_API cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, const struct cudaMemsetParams *pNodeParams);
__SCORD_API cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, const struct cudaHostNodeParams *pNodeParams);
__SCORD_API cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, cudaGraph_t childGraph);
__SCORD_API cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, cudaEvent_t event);
__SCORD_API cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, cudaEvent_t event);
__SCORD_API cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, unsigned int isEnabled);
__SCORD_API cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, unsigned int *isEnabled);
__SCORD_API cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph, cudaGraphExecUpdateResultInfo *resultInfo);
__SCORD_API cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream);
__SCORD_API_HD cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream);
__SCORD_API cudaGraphExecDestroy(cudaGraphExec_t graphExec);
__SCORD_API cudaGraphDestroy(cudaGraph_t graph);
__SCORD_API cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags);
__SCORD_API cudaUserObjectCreate(cudaUserObject_t *object_out, void *ptr, cudaHostFn_t destroy, unsigned int initialRefcount, unsigned int flags);
__SCORD_API cudaUserObjectRetain(cudaUserObject_t object, unsigned int count __dv(1));
__SCORD_API cudaUserObjectRelease(cudaUserObject_t object, unsigned int count __dv(1));
__SCORD_API cudaGraphRetainUserObject(cudaGraph_t graph, cudaUserObject_t object, unsigned int count __dv(1), unsigned int flags __dv(0));
__SCORD_API cudaGraphReleaseUserObject(cudaGraph_t graph, cudaUserObject_t object, unsigned int count __dv(1));
__SCORD_API cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, const cudaGraphEdgeData *dependencyData, size_t numDependencies, struct cudaGraphNodeParams *nodeParams);
__SCORD_API cudaGraphNodeSetParams(cudaGraphNode_t node, struct cudaGraphNodeParams *nodeParams);
__SCORD_API cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node, struct cudaGraphNodeParams *nodeParams);
__SCORD_API cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out, cudaGraph_t graph, unsigned int defaultLaunchValue __dv(0), unsigned int flags __dv(0));

/* Driver entry points and the profiler. */
__SCORD_API cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags, enum cudaDriverEntryPointQueryResult *driverStatus __dv(NULL));
__SCORD_API cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr, unsigned int cudaVersion, unsigned long long flags, enum cudaDriverEntryPointQueryResult *driverStatus __dv(NULL));
__SCORD_API cudaGetExportTable(const void **ppExportTable, const cudaUUID_t *pExportTableId);
__SCORD_API cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr);
__SCORD_API cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr);
__SCORD_API cudaProfilerStart(void);
__SCORD_API cudaProfilerStop(void);

/* Conditional graph nodes: a kernel sets the value its node's condition reads. */
extern __device__ void CUDARTAPI cudaGraphSetConditional(cudaGraphConditionalHandle handle, unsigned int value);

/* Device-side launch (dynamic parallelism, PTX ABI): refused by the simulator. */
extern __device__ void *CUDARTAPI cudaGetParameterBuffer(size_t alignment, size_t size);
extern __device__ void *CUDARTAPI cudaGetParameterBufferV2(void *func, dim3 gridDimension, dim3 blockDimension, unsigned int sharedMemSize);
extern __device__ cudaError_t CUDARTAPI cudaLaunchDevice(void *func, void *parameterBuffer, dim3 gridDimension, dim3 blockDimension, unsigned int sharedMemSize, cudaStream_t stream);
extern __device__ cudaError_t CUDARTAPI cudaLaunchDeviceV2(void *parameterBuffer, cudaStream_t stream);

/* The kernel-launch ABI clang uses for `kernel<<<grid, block, shmem, stream>>>(args)`: the
 * configuration is pushed here, then the kernel's host stub calls cudaLaunchKernel. */
extern __host__ __device__ unsigned CUDARTAPI __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem __dv(0), void *stream __dv(0));

#undef __SCORD_API
#undef __SCORD_API_HD

#if defined(__cplusplus)
} /* extern "C" */
#endif

#endif /* __CUDA_RUNTIME_API_H__ */
