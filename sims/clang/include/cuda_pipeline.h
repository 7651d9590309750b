/* The primitives interface of pipelines (CUDA C++ Programming Guide, "Pipeline Primitives
 * Interface"): copies happen at once, so commits and waits have nothing to do. */
#ifndef __SCORD_CUDA_PIPELINE_H__
#define __SCORD_CUDA_PIPELINE_H__
static __device__ __forceinline__ void __pipeline_memcpy_async(void *dst, const void *src, size_t size,
                                                               size_t zfill = 0) {
  char *d = (char *)dst;
  const char *s = (const char *)src;
  for (size_t i = 0; i < size; ++i) d[i] = s[i];
  for (size_t i = 0; i < zfill; ++i) d[size + i] = 0;
}
static __device__ __forceinline__ void __pipeline_commit() {}
static __device__ __forceinline__ void __pipeline_wait_prior(size_t) {}
static __device__ __forceinline__ void __pipeline_arrive_on(void *) {}
#endif
