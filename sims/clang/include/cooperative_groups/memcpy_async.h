/* cg::memcpy_async and cg::wait (CUDA C++ Programming Guide, "Cooperative Groups:
 * memcpy_async"). Here the copy is done at once by the group's threads, each copying its share;
 * wait() is the group's barrier, after which every thread sees the whole copy, as it would after
 * the asynchronous copy completes. */
#ifndef _COOPERATIVE_GROUPS_MEMCPY_ASYNC_H_
#define _COOPERATIVE_GROUPS_MEMCPY_ASYNC_H_

#include <cooperative_groups.h>

#include <cuda/__scord_aligned_size.h>

namespace cooperative_groups {

template <class G>
__device__ __forceinline__ void __copy_share(const G &group, void *dst, const void *src, size_t bytes) {
  const size_t rank = (size_t)group.thread_rank(), threads = (size_t)group.num_threads();
  if (((size_t)dst % 4) == 0 && ((size_t)src % 4) == 0 && bytes % 4 == 0) {
    unsigned int *d = (unsigned int *)dst;
    const unsigned int *s = (const unsigned int *)src;
    for (size_t i = rank; i < bytes / 4; i += threads) d[i] = s[i];
  } else {
    char *d = (char *)dst;
    const char *s = (const char *)src;
    for (size_t i = rank; i < bytes; i += threads) d[i] = s[i];
  }
}

template <class G> __device__ __forceinline__ void memcpy_async(const G &group, void *dst, const void *src, size_t bytes) {
  __copy_share(group, dst, src, bytes);
}
template <class G, size_t A>
__device__ __forceinline__ void memcpy_async(const G &group, void *dst, const void *src, cuda::aligned_size_t<A> bytes) {
  __copy_share(group, dst, src, (size_t)bytes);
}
template <class G, class T>
__device__ __forceinline__ void memcpy_async(const G &group, T *dst, size_t dstCount, const T *src, size_t srcCount) {
  __copy_share(group, dst, src, (dstCount < srcCount ? dstCount : srcCount) * sizeof(T));
}
template <class G> __device__ __forceinline__ void wait(const G &group) { group.sync(); }
template <unsigned int N, class G> __device__ __forceinline__ void wait_prior(const G &group) { group.sync(); }

} // namespace cooperative_groups

#endif
