/* cg::inclusive_scan and cg::exclusive_scan over warp-sized groups (CUDA C++ Programming
 * Guide, "Cooperative Groups: scan"). */
#ifndef _COOPERATIVE_GROUPS_SCAN_H_
#define _COOPERATIVE_GROUPS_SCAN_H_

#include <cooperative_groups.h>

namespace cooperative_groups {

template <class G, class T, class Op> __device__ __forceinline__ T inclusive_scan(const G &group, T value, Op op) {
  const unsigned int rank = (unsigned int)group.thread_rank();
  for (unsigned int offset = 1; offset < group.num_threads(); offset *= 2) {
    T other = group.shfl_up(value, offset);
    if (rank >= offset) value = op(other, value);
  }
  return value;
}
template <class G, class T> __device__ __forceinline__ T inclusive_scan(const G &group, T value) {
  return inclusive_scan(group, value, plus<T>());
}
template <class G, class T, class Op> __device__ __forceinline__ T exclusive_scan(const G &group, T value, Op op) {
  T inclusive = inclusive_scan(group, value, op);
  T previous = group.shfl_up(inclusive, 1);
  return group.thread_rank() == 0 ? T() : previous;
}
template <class G, class T> __device__ __forceinline__ T exclusive_scan(const G &group, T value) {
  return exclusive_scan(group, value, plus<T>());
}

} // namespace cooperative_groups

#endif
