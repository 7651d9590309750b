/* Texture references (CUDA C++ Programming Guide of CUDA 11, "Texture Reference API"; removed
 * in CUDA 12 but still found in older programs and in GPUVerify's tests). clang treats a class
 * template marked device_builtin_texture_type as a texture reference: a namespace-scope
 * variable of it is usable in device code, where its value is the 64-bit handle
 * `llvm.nvvm.texsurf.handle.internal(@variable)` gives, and the host registers it with
 * __cudaRegisterTexture. Fetches pass that handle to the texture hooks of
 * texture_indirect_functions.h. */
#ifndef __TEXTURE_FETCH_FUNCTIONS_H__
#define __TEXTURE_FETCH_FUNCTIONS_H__

#include "texture_indirect_functions.h"

struct textureReference {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int __cudaReserved[14];
};

template <class T, int texType = cudaTextureType1D, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture : public textureReference {
  __host__ texture(int norm = 0, enum cudaTextureFilterMode fMode = cudaFilterModePoint,
                   enum cudaTextureAddressMode aMode = cudaAddressModeClamp) {
    normalized = norm;
    filterMode = fMode;
    addressMode[0] = addressMode[1] = addressMode[2] = aMode;
    channelDesc = cudaCreateChannelDesc<T>();
    sRGB = 0;
  }
  __host__ texture(int norm, enum cudaTextureFilterMode fMode, enum cudaTextureAddressMode aMode,
                   struct cudaChannelFormatDesc desc) {
    normalized = norm;
    filterMode = fMode;
    addressMode[0] = addressMode[1] = addressMode[2] = aMode;
    channelDesc = desc;
    sRGB = 0;
  }
};

/* What a fetch returns: the element type, or floats of as many components for
 * cudaReadModeNormalizedFloat. */
template <class T, enum cudaTextureReadMode M> struct __scord_texref_result { typedef T type; };
template <class T, int N> struct __scord_float_of;
template <class T> struct __scord_float_of<T, 1> { typedef float type; };
template <class T> struct __scord_float_of<T, 2> { typedef float2 type; };
template <class T> struct __scord_float_of<T, 4> { typedef float4 type; };
template <class T> struct __scord_texref_result<T, cudaReadModeNormalizedFloat> {
  typedef typename __scord_float_of<T, __scord_texel<T>::components>::type type;
};

/* The handle clang passes for a texture reference. */
template <class T, int D, enum cudaTextureReadMode M>
static __device__ __forceinline__ cudaTextureObject_t __scord_texref_handle(const texture<T, D, M> &t) {
  cudaTextureObject_t handle;
  __builtin_memcpy(&handle, &t, sizeof(handle));
  return handle;
}

template <class T, enum cudaTextureReadMode M>
static __device__ __forceinline__ typename __scord_texref_result<T, M>::type tex1Dfetch(texture<T, cudaTextureType1D, M> t,
                                                                                          int x) {
  return tex1Dfetch<typename __scord_texref_result<T, M>::type>(__scord_texref_handle(t), x);
}
template <class T, enum cudaTextureReadMode M>
static __device__ __forceinline__ typename __scord_texref_result<T, M>::type tex1D(texture<T, cudaTextureType1D, M> t,
                                                                                     float x) {
  return tex1D<typename __scord_texref_result<T, M>::type>(__scord_texref_handle(t), x);
}
template <class T, enum cudaTextureReadMode M>
static __device__ __forceinline__ typename __scord_texref_result<T, M>::type tex2D(texture<T, cudaTextureType2D, M> t,
                                                                                     float x, float y) {
  return tex2D<typename __scord_texref_result<T, M>::type>(__scord_texref_handle(t), x, y);
}
template <class T, enum cudaTextureReadMode M>
static __device__ __forceinline__ typename __scord_texref_result<T, M>::type tex3D(texture<T, cudaTextureType3D, M> t,
                                                                                     float x, float y, float z) {
  return tex3D<typename __scord_texref_result<T, M>::type>(__scord_texref_handle(t), x, y, z);
}
template <class T, enum cudaTextureReadMode M>
static __device__ __forceinline__ typename __scord_texref_result<T, M>::type
tex1DLayered(texture<T, cudaTextureType1DLayered, M> t, float x, int layer) {
  return tex1DLayered<typename __scord_texref_result<T, M>::type>(__scord_texref_handle(t), x, layer);
}
template <class T, enum cudaTextureReadMode M>
static __device__ __forceinline__ typename __scord_texref_result<T, M>::type
tex2DLayered(texture<T, cudaTextureType2DLayered, M> t, float x, float y, int layer) {
  return tex2DLayered<typename __scord_texref_result<T, M>::type>(__scord_texref_handle(t), x, y, layer);
}
template <class T, enum cudaTextureReadMode M>
static __device__ __forceinline__ typename __scord_texref_result<T, M>::type
texCubemap(texture<T, cudaTextureTypeCubemap, M> t, float x, float y, float z) {
  return texCubemap<typename __scord_texref_result<T, M>::type>(__scord_texref_handle(t), x, y, z);
}

/* Binding memory to texture references (imports; the runtime may refuse them). */
extern "C" {
extern __host__ cudaError_t cudaBindTexture(size_t *offset, const struct textureReference *texref, const void *devPtr,
                                            const struct cudaChannelFormatDesc *desc, size_t size);
extern __host__ cudaError_t cudaBindTexture2D(size_t *offset, const struct textureReference *texref,
                                              const void *devPtr, const struct cudaChannelFormatDesc *desc,
                                              size_t width, size_t height, size_t pitch);
extern __host__ cudaError_t cudaBindTextureToArray(const struct textureReference *texref, cudaArray_const_t array,
                                                   const struct cudaChannelFormatDesc *desc);
extern __host__ cudaError_t cudaUnbindTexture(const struct textureReference *texref);
extern __host__ cudaError_t cudaGetTextureAlignmentOffset(size_t *offset, const struct textureReference *texref);
}
template <class T, int D, enum cudaTextureReadMode M>
static __inline__ __host__ cudaError_t cudaBindTexture(size_t *offset, const texture<T, D, M> &tex, const void *devPtr,
                                                       size_t size = (size_t)-1) {
  return ::cudaBindTexture(offset, &tex, devPtr, &tex.channelDesc, size);
}
template <class T, int D, enum cudaTextureReadMode M>
static __inline__ __host__ cudaError_t cudaBindTexture2D(size_t *offset, const texture<T, D, M> &tex,
                                                         const void *devPtr, size_t width, size_t height,
                                                         size_t pitch) {
  return ::cudaBindTexture2D(offset, &tex, devPtr, &tex.channelDesc, width, height, pitch);
}
template <class T, int D, enum cudaTextureReadMode M>
static __inline__ __host__ cudaError_t cudaBindTextureToArray(const texture<T, D, M> &tex, cudaArray_const_t array) {
  return ::cudaBindTextureToArray(&tex, array, &tex.channelDesc);
}
template <class T, int D, enum cudaTextureReadMode M>
static __inline__ __host__ cudaError_t cudaUnbindTexture(const texture<T, D, M> &tex) {
  return ::cudaUnbindTexture(&tex);
}

#endif
