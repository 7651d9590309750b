/* cg::reduce (CUDA C++ Programming Guide, "Cooperative Groups: reduce"): every thread of the
 * group gets op applied over the values of all its threads. Tiles use a butterfly of shuffles;
 * other warp-sized groups gather the values rank by rank. */
#ifndef _COOPERATIVE_GROUPS_REDUCE_H_
#define _COOPERATIVE_GROUPS_REDUCE_H_

#include <cooperative_groups.h>

namespace cooperative_groups {

template <class T, class Op, unsigned int N, class P>
__device__ __forceinline__ T reduce(const thread_block_tile<N, P> &group, T value, Op op) {
  for (unsigned int offset = N / 2; offset > 0; offset /= 2) value = op(value, group.shfl_xor(value, offset));
  return value;
}
template <class T, class Op> __device__ __forceinline__ T reduce(const coalesced_group &group, T value, Op op) {
  T result = group.shfl(value, 0);
  for (unsigned int r = 1; r < group.num_threads(); ++r) result = op(result, group.shfl(value, (int)r));
  return result;
}

/* Asynchronous reductions into memory are done at once: the group's rank-0 thread combines
 * the group's result into dst. */
template <class T, class Op, class G>
__device__ __forceinline__ void reduce_update_async(const G &group, T &dst, const T &value, Op op) {
  T total = reduce(group, value, op);
  if (group.thread_rank() == 0) dst = op(dst, total);
}

} // namespace cooperative_groups

#endif
