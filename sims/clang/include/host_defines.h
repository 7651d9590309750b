/* Attribute macros of CUDA C++ for clang (-x cuda). Written for the ScoRD simulator from the
 * CUDA C++ Programming Guide's description of the function and variable qualifiers. */
#ifndef __HOST_DEFINES_H__
#define __HOST_DEFINES_H__

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
/* A managed variable is a device variable (alone, __managed__ implies __device__) that host code
 * reads and writes directly. clang keeps the `managed` attribute for HIP only; the annotation is
 * what the simulator reads (sims/clang/device/globals.ts managedGlobals). */
#define __managed__ __attribute__((device)) __attribute__((annotate("managed")))
#define __grid_constant__ __attribute__((grid_constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __cluster_dims__(...) __attribute__((cluster_dims(__VA_ARGS__)))
/* Names that GNU attributes also spell (__noreturn__, __noinline__, ...) must not be macros:
 * the C library writes `__attribute__((__noreturn__))`. clang treats __noinline__ as a keyword in CUDA mode, so `__attribute__((__noinline__))`
 * in standard headers keeps working; it must not be a macro. */
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __align__(n)
#define __CUDA_ALIGN__(n) __align__(n)
#define __nv_pure__ __attribute__((pure))

/* Markers NVIDIA's headers put on declarations; they carry no meaning for clang. */
#define __device_builtin__
#define __device_builtin_texture_type__
#define __device_builtin_surface_type__
#define __cudart_builtin__
#define __cuda_builtin_vector_align8(tag, members) \
  struct __align__(8) tag { members }
#define CUDARTAPI
#define CUDART_CB
#define CUDARTAPI_CDECL
#define CUDAAPI
#define __CUDA_DEPRECATED
#define __CUDART_API_PTDS(api) api
#define __CUDART_API_PTSZ(api) api

#if defined(__cplusplus)
#define __dv(v) = v
#else
#define __dv(v)
#endif

#endif /* __HOST_DEFINES_H__ */
