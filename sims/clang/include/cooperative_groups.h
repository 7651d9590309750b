/* Cooperative groups (CUDA C++ Programming Guide, "Cooperative Groups"), written for the ScoRD
 * simulator in plain CUDA C++ over the warp intrinsics clang lowers to llvm.nvvm.* calls:
 *  - thread_block: __syncthreads(); thread_block_tile<N> and dynamic tiles: __syncwarp and
 *    __shfl*_sync/__ballot_sync/__match*_sync on the tile's lanes of its warp;
 *  - coalesced_group: the lanes __activemask() reports;
 *  - grid_group::sync(): the device hook __scord_grid_sync() (HOOKS.md), a barrier of every
 *    thread of the grid, as a cooperative launch provides.
 * Groups are plain values without virtual functions; a thread_group remembers which kind of
 * group it is and dispatches on that. */
#ifndef _COOPERATIVE_GROUPS_H_
#define _COOPERATIVE_GROUPS_H_

#include <type_traits>

extern "C" __device__ void __scord_grid_sync(void);

namespace cooperative_groups {

namespace __cg {
__device__ __forceinline__ unsigned int block_rank_of_thread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ __forceinline__ unsigned int block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
__device__ __forceinline__ unsigned int lane() { return block_rank_of_thread() & 31u; }
__device__ __forceinline__ unsigned int lanes_below() { return (1u << lane()) - 1u; }
/* The lanes of a tile of `n` (a power of two up to 32) that holds the calling lane. */
__device__ __forceinline__ unsigned int tile_mask(unsigned int n) {
  if (n >= 32) return 0xffffffffu;
  return ((1u << n) - 1u) << (lane() & ~(n - 1u));
}
/* The lane of the n-th (from 0) set bit of `mask`, or 32 when there is none. */
__device__ __forceinline__ unsigned int nth_lane(unsigned int mask, unsigned int n) {
  for (unsigned int l = 0; l < 32; ++l)
    if (mask & (1u << l)) {
      if (n == 0) return l;
      --n;
    }
  return 32;
}
/* The bits of `bits` at the set positions of `mask`, packed from bit 0. */
__device__ __forceinline__ unsigned int compress(unsigned int bits, unsigned int mask) {
  unsigned int r = 0, k = 0;
  for (unsigned int l = 0; l < 32; ++l)
    if (mask & (1u << l)) {
      if (bits & (1u << l)) r |= 1u << k;
      ++k;
    }
  return r;
}

/* Shuffles of any trivially copyable value, 32 bits at a time where no overload takes it whole. */
template <class T> struct shuffles_whole {
  static constexpr bool value = std::is_same<T, int>::value || std::is_same<T, unsigned int>::value ||
                                std::is_same<T, long>::value || std::is_same<T, unsigned long>::value ||
                                std::is_same<T, long long>::value ||
                                std::is_same<T, unsigned long long>::value || std::is_same<T, float>::value ||
                                std::is_same<T, double>::value;
};
enum shuffle_kind { shuffle_idx, shuffle_up, shuffle_down, shuffle_xor };
template <class T>
__device__ __forceinline__ T shuffle(shuffle_kind kind, unsigned int mask, T var, int arg, int width) {
  if constexpr (shuffles_whole<T>::value) {
    switch (kind) {
    case shuffle_up: return __shfl_up_sync(mask, var, (unsigned)arg, width);
    case shuffle_down: return __shfl_down_sync(mask, var, (unsigned)arg, width);
    case shuffle_xor: return __shfl_xor_sync(mask, var, arg, width);
    default: return __shfl_sync(mask, var, arg, width);
    }
  } else {
    static_assert(std::is_trivially_copyable<T>::value, "cooperative groups shuffle a trivially copyable type");
    constexpr unsigned int words = (sizeof(T) + 3) / 4;
    int w[words];
    __builtin_memset(w, 0, sizeof(w));
    __builtin_memcpy(w, &var, sizeof(T));
    for (unsigned int i = 0; i < words; ++i) w[i] = shuffle(kind, mask, w[i], arg, width);
    T r;
    __builtin_memcpy(&r, w, sizeof(T));
    return r;
  }
}
} // namespace __cg

/* Kinds of group a thread_group value can hold. */
namespace __cg {
enum group_kind : unsigned int { kind_block = 0, kind_tile = 1, kind_coalesced = 2, kind_grid = 3, kind_multi_grid = 4 };
}

class thread_group {
protected:
  unsigned int __kind;
  unsigned int __threads;   /* size of a tile or coalesced group */
  unsigned int __mask;      /* lanes of the calling warp in a tile or coalesced group */
  unsigned int __meta_rank; /* index of a tile among its parent's tiles */
  unsigned int __meta_size;

  __device__ __forceinline__ thread_group(unsigned int kind, unsigned int threads = 0, unsigned int mask = 0,
                          unsigned int meta_rank = 0, unsigned int meta_size = 1)
      : __kind(kind), __threads(threads), __mask(mask), __meta_rank(meta_rank), __meta_size(meta_size) {}

public:
  __device__ __forceinline__ unsigned long long num_threads() const {
    switch (__kind) {
    case __cg::kind_block: return __cg::block_threads();
    case __cg::kind_grid:
    case __cg::kind_multi_grid:
      return (unsigned long long)__cg::block_threads() * gridDim.x * gridDim.y * gridDim.z;
    default: return __threads;
    }
  }
  __device__ __forceinline__ unsigned long long size() const { return num_threads(); }
  __device__ __forceinline__ unsigned long long thread_rank() const {
    switch (__kind) {
    case __cg::kind_block: return __cg::block_rank_of_thread();
    case __cg::kind_grid:
    case __cg::kind_multi_grid:
      return (unsigned long long)(blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)) *
                 __cg::block_threads() +
             __cg::block_rank_of_thread();
    default: return __popc(__mask & __cg::lanes_below());
    }
  }
  __device__ __forceinline__ void sync() const {
    switch (__kind) {
    case __cg::kind_block: __syncthreads(); break;
    case __cg::kind_grid:
    case __cg::kind_multi_grid: __scord_grid_sync(); break;
    default: __syncwarp(__mask); break;
    }
  }
  __device__ __forceinline__ unsigned int get_type() const { return __kind; }
  __device__ __forceinline__ bool is_valid() const { return true; }
  __device__ __forceinline__ unsigned int meta_group_rank() const { return __meta_rank; }
  __device__ __forceinline__ unsigned int meta_group_size() const { return __meta_size; }
};

/* All threads of the block. */
class thread_block : public thread_group {
  friend __device__ thread_block this_thread_block();
  __device__ __forceinline__ thread_block() : thread_group(__cg::kind_block) {}

public:
  __device__ __forceinline__ static void sync() { __syncthreads(); }
  __device__ __forceinline__ static unsigned int thread_rank() { return __cg::block_rank_of_thread(); }
  __device__ __forceinline__ static unsigned int size() { return __cg::block_threads(); }
  __device__ __forceinline__ static unsigned int num_threads() { return __cg::block_threads(); }
  __device__ __forceinline__ static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __device__ __forceinline__ static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  __device__ __forceinline__ static dim3 dim_threads() { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  __device__ __forceinline__ static dim3 group_dim() { return dim_threads(); }
};
__device__ __forceinline__ thread_block this_thread_block() { return thread_block(); }

/* All threads of the grid; sync() needs a cooperative launch. */
class grid_group : public thread_group {
  friend __device__ grid_group this_grid();
  __device__ __forceinline__ grid_group() : thread_group(__cg::kind_grid) {}

public:
  __device__ __forceinline__ static void sync() { __scord_grid_sync(); }
  __device__ __forceinline__ static bool is_valid() { return true; }
  __device__ __forceinline__ static unsigned long long size() {
    return (unsigned long long)__cg::block_threads() * gridDim.x * gridDim.y * gridDim.z;
  }
  __device__ __forceinline__ static unsigned long long num_threads() { return size(); }
  __device__ __forceinline__ static unsigned long long thread_rank() {
    return (unsigned long long)block_rank() * __cg::block_threads() + __cg::block_rank_of_thread();
  }
  __device__ __forceinline__ static unsigned int num_blocks() { return gridDim.x * gridDim.y * gridDim.z; }
  __device__ __forceinline__ static unsigned int block_rank() {
    return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  }
  __device__ __forceinline__ static dim3 block_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __device__ __forceinline__ static dim3 dim_blocks() { return dim3(gridDim.x, gridDim.y, gridDim.z); }
  __device__ __forceinline__ static dim3 group_dim() { return dim_blocks(); }
  __device__ __forceinline__ static dim3 dim_threads() { return dim3(blockDim.x, blockDim.y, blockDim.z); }
};
__device__ __forceinline__ grid_group this_grid() { return grid_group(); }

/* The grids of a multi-device cooperative launch: one device here, so the grid. */
class multi_grid_group : public thread_group {
  friend __device__ multi_grid_group this_multi_grid();
  __device__ __forceinline__ multi_grid_group() : thread_group(__cg::kind_multi_grid) {}

public:
  __device__ __forceinline__ static void sync() { __scord_grid_sync(); }
  __device__ __forceinline__ static bool is_valid() { return true; }
  __device__ __forceinline__ static unsigned int num_grids() { return 1; }
  __device__ __forceinline__ static unsigned int grid_rank() { return 0; }
};
__device__ __forceinline__ multi_grid_group this_multi_grid() { return multi_grid_group(); }

/* Operations of groups that live in one warp: tiles and coalesced groups. `mask` holds the
 * group's lanes; ranks are positions among those lanes. */
class __warp_group : public thread_group {
protected:
  __device__ __forceinline__ __warp_group(unsigned int kind, unsigned int threads, unsigned int mask, unsigned int meta_rank,
                          unsigned int meta_size)
      : thread_group(kind, threads, mask, meta_rank, meta_size) {}
  /* Lane of rank `r`: tiles are contiguous runs of lanes; coalesced groups are any lanes. */
  __device__ __forceinline__ unsigned int lane_of(unsigned int r) const {
    if (__kind == __cg::kind_tile) return (__cg::lane() & ~(__threads - 1u)) + r;
    return __cg::nth_lane(__mask, r);
  }
  __device__ __forceinline__ bool contiguous() const { return __kind == __cg::kind_tile; }

public:
  __device__ __forceinline__ unsigned long long num_threads() const { return __threads; }
  __device__ __forceinline__ unsigned long long size() const { return __threads; }
  __device__ __forceinline__ unsigned long long thread_rank() const { return __popc(__mask & __cg::lanes_below()); }
  __device__ __forceinline__ void sync() const { __syncwarp(__mask); }

  template <class T> __device__ T shfl(T var, int srcRank) const {
    if (contiguous()) return __cg::shuffle(__cg::shuffle_idx, __mask, var, srcRank, (int)__threads);
    return __cg::shuffle(__cg::shuffle_idx, __mask, var, (int)lane_of((unsigned)srcRank % __threads), 32);
  }
  template <class T> __device__ T shfl_down(T var, unsigned int delta) const {
    if (contiguous()) return __cg::shuffle(__cg::shuffle_down, __mask, var, (int)delta, (int)__threads);
    unsigned int r = (unsigned int)thread_rank() + delta;
    return __cg::shuffle(__cg::shuffle_idx, __mask, var, (int)(r < __threads ? lane_of(r) : __cg::lane()), 32);
  }
  template <class T> __device__ T shfl_up(T var, unsigned int delta) const {
    if (contiguous()) return __cg::shuffle(__cg::shuffle_up, __mask, var, (int)delta, (int)__threads);
    unsigned int rank = (unsigned int)thread_rank();
    return __cg::shuffle(__cg::shuffle_idx, __mask, var, (int)(rank >= delta ? lane_of(rank - delta) : __cg::lane()),
                         32);
  }
  template <class T> __device__ T shfl_xor(T var, unsigned int laneMask) const {
    if (contiguous()) return __cg::shuffle(__cg::shuffle_xor, __mask, var, (int)laneMask, (int)__threads);
    unsigned int r = (unsigned int)thread_rank() ^ laneMask;
    return __cg::shuffle(__cg::shuffle_idx, __mask, var, (int)(r < __threads ? lane_of(r) : __cg::lane()), 32);
  }
  __device__ __forceinline__ int any(int predicate) const { return __any_sync(__mask, predicate); }
  __device__ __forceinline__ int all(int predicate) const { return __all_sync(__mask, predicate); }
  __device__ __forceinline__ unsigned int ballot(int predicate) const {
    return __cg::compress(__ballot_sync(__mask, predicate), __mask);
  }
  template <class T> __device__ unsigned int match_any(T value) const {
    return __cg::compress(__match_any_sync(__mask, value), __mask);
  }
  template <class T> __device__ unsigned int match_all(T value, int &predicate) const {
    return __cg::compress(__match_all_sync(__mask, value, &predicate), __mask);
  }
};

/* A tile of N threads (a power of two up to 32) of its parent. */
template <unsigned int N, class ParentT = void> class thread_block_tile;

template <unsigned int N> class thread_block_tile<N, void> : public __warp_group {
  static_assert(N > 0 && N <= 32 && (N & (N - 1)) == 0, "a thread_block_tile holds a power of two up to 32 threads");

protected:
  __device__ __forceinline__ thread_block_tile(unsigned int meta_rank, unsigned int meta_size)
      : __warp_group(__cg::kind_tile, N, __cg::tile_mask(N), meta_rank, meta_size) {}

public:
  __device__ __forceinline__ static constexpr unsigned long long num_threads() { return N; }
  __device__ __forceinline__ static constexpr unsigned long long size() { return N; }
  __device__ __forceinline__ unsigned long long thread_rank() const { return __cg::lane() & (N - 1u); }
  __device__ __forceinline__ unsigned int meta_group_rank() const { return __meta_rank; }
  __device__ __forceinline__ unsigned int meta_group_size() const { return __meta_size; }

  template <unsigned int M, class P> friend __device__ thread_block_tile<M, P> __make_tile(unsigned int, unsigned int);
};

template <unsigned int N, class ParentT> class thread_block_tile : public thread_block_tile<N, void> {
  __device__ __forceinline__ thread_block_tile(unsigned int meta_rank, unsigned int meta_size)
      : thread_block_tile<N, void>(meta_rank, meta_size) {}
  template <unsigned int M, class P> friend __device__ thread_block_tile<M, P> __make_tile(unsigned int, unsigned int);
};

template <unsigned int N, class ParentT>
__device__ thread_block_tile<N, ParentT> __make_tile(unsigned int meta_rank, unsigned int meta_size) {
  return thread_block_tile<N, ParentT>(meta_rank, meta_size);
}

template <unsigned int N, class ParentT>
__device__ __forceinline__ thread_block_tile<N, ParentT> tiled_partition(const ParentT &parent) {
  const unsigned int rank = (unsigned int)parent.thread_rank();
  const unsigned int threads = (unsigned int)parent.num_threads();
  return __make_tile<N, ParentT>(rank / N, (threads + N - 1) / N);
}

/* A tile whose size is known only at run time. */
__device__ __forceinline__ thread_group __tile_group(unsigned int n, unsigned int rank, unsigned int threads);
class __dynamic_tile : public __warp_group {
  friend __device__ thread_group __tile_group(unsigned int, unsigned int, unsigned int);
  __device__ __forceinline__ __dynamic_tile(unsigned int n, unsigned int rank, unsigned int threads)
      : __warp_group(__cg::kind_tile, n, __cg::tile_mask(n), rank / n, (threads + n - 1) / n) {}
};
__device__ __forceinline__ thread_group __tile_group(unsigned int n, unsigned int rank, unsigned int threads) {
  return __dynamic_tile(n, rank, threads);
}
__device__ __forceinline__ thread_group tiled_partition(const thread_group &parent, unsigned int tilesz) {
  return __tile_group(tilesz, (unsigned int)parent.thread_rank(), (unsigned int)parent.num_threads());
}
__device__ __forceinline__ thread_group tiled_partition(const thread_block &parent, unsigned int tilesz) {
  return __tile_group(tilesz, parent.thread_rank(), parent.num_threads());
}

/* The threads of the warp that are active together. */
class coalesced_group : public __warp_group {
  friend __device__ coalesced_group coalesced_threads();
  template <class G> friend __device__ coalesced_group binary_partition(const G &, bool);
  template <class G, class L> friend __device__ coalesced_group labeled_partition(const G &, L);

  __device__ __forceinline__ explicit coalesced_group(unsigned int mask)
      : __warp_group(__cg::kind_coalesced, (unsigned int)__popc(mask), mask, 0, 1) {}
};
__device__ __forceinline__ coalesced_group coalesced_threads() { return coalesced_group(__activemask()); }

/* The threads of a warp-sized group split by a predicate or a label. */
template <class G> __device__ __forceinline__ coalesced_group binary_partition(const G &group, bool pred) {
  const unsigned int mask = __cg::tile_mask(32) & __activemask();
  const unsigned int ballot = __ballot_sync(mask, pred);
  (void)group;
  return coalesced_group(pred ? (ballot & mask) : (~ballot & mask));
}
template <class G, class L> __device__ __forceinline__ coalesced_group labeled_partition(const G &group, L label) {
  const unsigned int mask = __activemask();
  (void)group;
  return coalesced_group(__match_any_sync(mask, label) & mask);
}

/* Free functions of groups. */
template <class G> __device__ __forceinline__ void sync(const G &group) { group.sync(); }
template <class G> __device__ __forceinline__ void synchronize(const G &group) { group.sync(); }
template <class G> __device__ __forceinline__ unsigned long long thread_rank(const G &group) {
  return group.thread_rank();
}
template <class G> __device__ __forceinline__ unsigned long long group_size(const G &group) {
  return group.num_threads();
}

/* Functors for reduce and scan (CUDA C++ Programming Guide, "Reduce Operators"). */
template <class T> struct plus {
  __device__ __forceinline__ __host__ T operator()(const T &a, const T &b) const { return a + b; }
};
template <class T> struct less {
  __device__ __forceinline__ __host__ T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
template <class T> struct greater {
  __device__ __forceinline__ __host__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
template <class T> struct bit_and {
  __device__ __forceinline__ __host__ T operator()(const T &a, const T &b) const { return a & b; }
};
template <class T> struct bit_or {
  __device__ __forceinline__ __host__ T operator()(const T &a, const T &b) const { return a | b; }
};
template <class T> struct bit_xor {
  __device__ __forceinline__ __host__ T operator()(const T &a, const T &b) const { return a ^ b; }
};

/* Calls `fn` in one thread of the group (rank 0). */
template <class G, class Fn, class... Args>
__device__ __forceinline__ void invoke_one(const G &group, Fn &&fn, Args &&...args) {
  if (group.thread_rank() == 0) fn(static_cast<Args &&>(args)...);
}
template <class G, class Fn, class... Args>
__device__ __forceinline__ auto invoke_one_broadcast(const G &group, Fn &&fn, Args &&...args)
    -> decltype(fn(static_cast<Args &&>(args)...)) {
  decltype(fn(static_cast<Args &&>(args)...)) result{};
  if (group.thread_rank() == 0) result = fn(static_cast<Args &&>(args)...);
  return group.shfl(result, 0);
}

} // namespace cooperative_groups


#include "cooperative_groups/reduce.h"
#include "cooperative_groups/scan.h"
#include "cooperative_groups/memcpy_async.h"

#endif /* _COOPERATIVE_GROUPS_H_ */
