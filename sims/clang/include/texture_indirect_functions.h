/* Texture fetches through texture objects (CUDA C++ Programming Guide, "Texture Object API").
 *
 * A fetch reaches the simulator through two device hooks (sims/clang/include/HOOKS.md): the
 * texture object's resource, filtering, addressing and read mode are known to the runtime that
 * created it, so the hook returns the four components of the texel as 32-bit words, floats when
 * the texture reads as float (float channels or cudaReadModeNormalizedFloat) and integers
 * otherwise; the template below narrows them to the type the program asked for. */
#ifndef __TEXTURE_INDIRECT_FUNCTIONS_H__
#define __TEXTURE_INDIRECT_FUNCTIONS_H__

#include "driver_types.h"
#include "vector_types.h"

/* Kinds of fetch: the texture type's dimensionality, plus flags. */
#define __SCORD_TEX_1D 0x01
#define __SCORD_TEX_2D 0x02
#define __SCORD_TEX_3D 0x03
#define __SCORD_TEX_CUBEMAP 0x0C
#define __SCORD_TEX_LAYERED 0xF0
#define __SCORD_TEX_LOD 0x100
#define __SCORD_TEX_GATHER 0x200

extern "C" {
__device__ void __scord_tex1Dfetch(cudaTextureObject_t tex, int x, unsigned int *texel);
__device__ void __scord_tex_fetch(cudaTextureObject_t tex, int kind, float x, float y, float z, int layer,
                                  float level, unsigned int *texel);
}

/* The scalar type and component count of a texel type. */
template <class T> struct __scord_texel;
#define __SCORD_TEXEL(T, S, N)                                                                   \
  template <> struct __scord_texel<T> {                                                          \
    typedef S scalar;                                                                            \
    enum { components = N };                                                                     \
  };
#define __SCORD_TEXELS(base, S)                                                                  \
  __SCORD_TEXEL(S, S, 1)                                                                         \
  __SCORD_TEXEL(base##1, S, 1) __SCORD_TEXEL(base##2, S, 2) __SCORD_TEXEL(base##4, S, 4)
__SCORD_TEXEL(char, char, 1)
__SCORD_TEXELS(char, signed char)
__SCORD_TEXELS(uchar, unsigned char)
__SCORD_TEXELS(short, short)
__SCORD_TEXELS(ushort, unsigned short)
__SCORD_TEXELS(int, int)
__SCORD_TEXELS(uint, unsigned int)
__SCORD_TEXELS(float, float)
#undef __SCORD_TEXELS
#undef __SCORD_TEXEL

template <class T> static __device__ __forceinline__ T __scord_texel_from(const unsigned int *texel) {
  typedef typename __scord_texel<T>::scalar S;
  T result;
  S *component = (S *)&result;
  for (int i = 0; i < __scord_texel<T>::components; ++i) {
    if ((S)0.5f != (S)0)
      component[i] = (S)__builtin_bit_cast(float, texel[i]);
    else
      component[i] = (S)(int)texel[i];
  }
  return result;
}

template <class T> static __device__ __forceinline__ T __scord_tex(cudaTextureObject_t tex, int kind, float x,
                                                                     float y, float z, int layer, float level) {
  unsigned int texel[4];
  __scord_tex_fetch(tex, kind, x, y, z, layer, level, texel);
  return __scord_texel_from<T>(texel);
}

template <class T> static __device__ __forceinline__ T tex1Dfetch(cudaTextureObject_t tex, int x) {
  unsigned int texel[4];
  __scord_tex1Dfetch(tex, x, texel);
  return __scord_texel_from<T>(texel);
}
template <class T> static __device__ __forceinline__ T tex1D(cudaTextureObject_t tex, float x) {
  return __scord_tex<T>(tex, __SCORD_TEX_1D, x, 0, 0, 0, 0);
}
template <class T> static __device__ __forceinline__ T tex2D(cudaTextureObject_t tex, float x, float y) {
  return __scord_tex<T>(tex, __SCORD_TEX_2D, x, y, 0, 0, 0);
}
template <class T> static __device__ __forceinline__ T tex3D(cudaTextureObject_t tex, float x, float y, float z) {
  return __scord_tex<T>(tex, __SCORD_TEX_3D, x, y, z, 0, 0);
}
template <class T> static __device__ __forceinline__ T tex1DLayered(cudaTextureObject_t tex, float x, int layer) {
  return __scord_tex<T>(tex, __SCORD_TEX_1D | __SCORD_TEX_LAYERED, x, 0, 0, layer, 0);
}
template <class T>
static __device__ __forceinline__ T tex2DLayered(cudaTextureObject_t tex, float x, float y, int layer) {
  return __scord_tex<T>(tex, __SCORD_TEX_2D | __SCORD_TEX_LAYERED, x, y, 0, layer, 0);
}
template <class T>
static __device__ __forceinline__ T texCubemap(cudaTextureObject_t tex, float x, float y, float z) {
  return __scord_tex<T>(tex, __SCORD_TEX_CUBEMAP, x, y, z, 0, 0);
}
template <class T>
static __device__ __forceinline__ T texCubemapLayered(cudaTextureObject_t tex, float x, float y, float z, int layer) {
  return __scord_tex<T>(tex, __SCORD_TEX_CUBEMAP | __SCORD_TEX_LAYERED, x, y, z, layer, 0);
}
template <class T> static __device__ __forceinline__ T tex1DLod(cudaTextureObject_t tex, float x, float level) {
  return __scord_tex<T>(tex, __SCORD_TEX_1D | __SCORD_TEX_LOD, x, 0, 0, 0, level);
}
template <class T>
static __device__ __forceinline__ T tex2DLod(cudaTextureObject_t tex, float x, float y, float level) {
  return __scord_tex<T>(tex, __SCORD_TEX_2D | __SCORD_TEX_LOD, x, y, 0, 0, level);
}
template <class T>
static __device__ __forceinline__ T tex3DLod(cudaTextureObject_t tex, float x, float y, float z, float level) {
  return __scord_tex<T>(tex, __SCORD_TEX_3D | __SCORD_TEX_LOD, x, y, z, 0, level);
}
template <class T>
static __device__ __forceinline__ T tex2DLayeredLod(cudaTextureObject_t tex, float x, float y, int layer, float level) {
  return __scord_tex<T>(tex, __SCORD_TEX_2D | __SCORD_TEX_LAYERED | __SCORD_TEX_LOD, x, y, 0, layer, level);
}
template <class T>
static __device__ __forceinline__ T texCubemapLod(cudaTextureObject_t tex, float x, float y, float z, float level) {
  return __scord_tex<T>(tex, __SCORD_TEX_CUBEMAP | __SCORD_TEX_LOD, x, y, z, 0, level);
}
/* tex2Dgather: the component number travels in `layer`. */
template <class T>
static __device__ __forceinline__ T tex2Dgather(cudaTextureObject_t tex, float x, float y, int comp = 0) {
  return __scord_tex<T>(tex, __SCORD_TEX_2D | __SCORD_TEX_GATHER, x, y, 0, comp, 0);
}

/* The forms that store through a pointer. */
template <class T> static __device__ __forceinline__ void tex1Dfetch(T *out, cudaTextureObject_t tex, int x) {
  *out = tex1Dfetch<T>(tex, x);
}
template <class T> static __device__ __forceinline__ void tex1D(T *out, cudaTextureObject_t tex, float x) {
  *out = tex1D<T>(tex, x);
}
template <class T> static __device__ __forceinline__ void tex2D(T *out, cudaTextureObject_t tex, float x, float y) {
  *out = tex2D<T>(tex, x, y);
}
template <class T>
static __device__ __forceinline__ void tex3D(T *out, cudaTextureObject_t tex, float x, float y, float z) {
  *out = tex3D<T>(tex, x, y, z);
}

#endif
