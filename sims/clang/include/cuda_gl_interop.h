/* OpenGL interoperability (CUDA Runtime API reference, "OpenGL Interoperability"): declared so
 * programs compile; the simulator has no graphics, and its runtime answers every call with
 * `not supported: graphics interoperability`. */
#ifndef __CUDA_GL_INTEROP_H__
#define __CUDA_GL_INTEROP_H__

#include "cuda_runtime_api.h"

typedef unsigned int __scord_GLuint;
typedef unsigned int __scord_GLenum;

#if defined(__cplusplus)
extern "C" {
#endif
enum cudaGLDeviceList { cudaGLDeviceListAll = 1, cudaGLDeviceListCurrentFrame = 2, cudaGLDeviceListNextFrame = 3 };
extern __host__ cudaError_t cudaGLGetDevices(unsigned int *pCudaDeviceCount, int *pCudaDevices,
                                             unsigned int cudaDeviceCount, enum cudaGLDeviceList deviceList);
extern __host__ cudaError_t cudaGraphicsGLRegisterImage(struct cudaGraphicsResource **resource, __scord_GLuint image,
                                                        __scord_GLenum target, unsigned int flags);
extern __host__ cudaError_t cudaGraphicsGLRegisterBuffer(struct cudaGraphicsResource **resource,
                                                         __scord_GLuint buffer, unsigned int flags);
extern __host__ cudaError_t cudaGLSetGLDevice(int device);
extern __host__ cudaError_t cudaGLRegisterBufferObject(__scord_GLuint bufObj);
extern __host__ cudaError_t cudaGLMapBufferObject(void **devPtr, __scord_GLuint bufObj);
extern __host__ cudaError_t cudaGLUnmapBufferObject(__scord_GLuint bufObj);
extern __host__ cudaError_t cudaGLUnregisterBufferObject(__scord_GLuint bufObj);
#if defined(__cplusplus)
}
#endif

#endif
