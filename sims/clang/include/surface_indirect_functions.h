/* Surface loads and stores through surface objects (CUDA C++ Programming Guide, "Surface Object
 * API"). Coordinates are in bytes along x, as the guide says; one device hook moves the bytes
 * (sims/clang/include/HOOKS.md). */
#ifndef __SURFACE_INDIRECT_FUNCTIONS_H__
#define __SURFACE_INDIRECT_FUNCTIONS_H__

#include "driver_types.h"

extern "C" __device__ void __scord_surf_access(cudaSurfaceObject_t surf, int kind, int x, int y, int z, int layer,
                                               void *data, unsigned int size, int store, int boundaryMode);

#define __SCORD_SURF_READ(NAME, KIND, PARAMS, ARGS)                                                        \
  template <class T>                                                                                       \
  static __device__ __forceinline__ T NAME(cudaSurfaceObject_t surf, PARAMS,                               \
                                           cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {          \
    T value;                                                                                               \
    __scord_surf_access(surf, KIND, ARGS, &value, sizeof(T), 0, mode);                                     \
    return value;                                                                                          \
  }                                                                                                        \
  template <class T>                                                                                       \
  static __device__ __forceinline__ void NAME(T *value, cudaSurfaceObject_t surf, PARAMS,                  \
                                              cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {       \
    __scord_surf_access(surf, KIND, ARGS, value, sizeof(T), 0, mode);                                      \
  }
#define __SCORD_SURF_WRITE(NAME, KIND, PARAMS, ARGS)                                                       \
  template <class T>                                                                                       \
  static __device__ __forceinline__ void NAME(T value, cudaSurfaceObject_t surf, PARAMS,                   \
                                              cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {       \
    __scord_surf_access(surf, KIND, ARGS, &value, sizeof(T), 1, mode);                                     \
  }
#define __SCORD_COMMA ,
__SCORD_SURF_READ(surf1Dread, 0x01, int x, x __SCORD_COMMA 0 __SCORD_COMMA 0 __SCORD_COMMA 0)
__SCORD_SURF_READ(surf2Dread, 0x02, int x __SCORD_COMMA int y, x __SCORD_COMMA y __SCORD_COMMA 0 __SCORD_COMMA 0)
__SCORD_SURF_READ(surf3Dread, 0x03, int x __SCORD_COMMA int y __SCORD_COMMA int z,
                  x __SCORD_COMMA y __SCORD_COMMA z __SCORD_COMMA 0)
__SCORD_SURF_READ(surf1DLayeredread, 0xF1, int x __SCORD_COMMA int layer,
                  x __SCORD_COMMA 0 __SCORD_COMMA 0 __SCORD_COMMA layer)
__SCORD_SURF_READ(surf2DLayeredread, 0xF2, int x __SCORD_COMMA int y __SCORD_COMMA int layer,
                  x __SCORD_COMMA y __SCORD_COMMA 0 __SCORD_COMMA layer)
__SCORD_SURF_READ(surfCubemapread, 0x0C, int x __SCORD_COMMA int y __SCORD_COMMA int face,
                  x __SCORD_COMMA y __SCORD_COMMA face __SCORD_COMMA 0)
__SCORD_SURF_WRITE(surf1Dwrite, 0x01, int x, x __SCORD_COMMA 0 __SCORD_COMMA 0 __SCORD_COMMA 0)
__SCORD_SURF_WRITE(surf2Dwrite, 0x02, int x __SCORD_COMMA int y, x __SCORD_COMMA y __SCORD_COMMA 0 __SCORD_COMMA 0)
__SCORD_SURF_WRITE(surf3Dwrite, 0x03, int x __SCORD_COMMA int y __SCORD_COMMA int z,
                   x __SCORD_COMMA y __SCORD_COMMA z __SCORD_COMMA 0)
__SCORD_SURF_WRITE(surf1DLayeredwrite, 0xF1, int x __SCORD_COMMA int layer,
                   x __SCORD_COMMA 0 __SCORD_COMMA 0 __SCORD_COMMA layer)
__SCORD_SURF_WRITE(surf2DLayeredwrite, 0xF2, int x __SCORD_COMMA int y __SCORD_COMMA int layer,
                   x __SCORD_COMMA y __SCORD_COMMA 0 __SCORD_COMMA layer)
__SCORD_SURF_WRITE(surfCubemapwrite, 0x0C, int x __SCORD_COMMA int y __SCORD_COMMA int face,
                   x __SCORD_COMMA y __SCORD_COMMA face __SCORD_COMMA 0)
#undef __SCORD_COMMA
#undef __SCORD_SURF_READ
#undef __SCORD_SURF_WRITE

#endif
