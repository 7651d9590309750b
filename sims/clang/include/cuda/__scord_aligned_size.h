/* cuda::aligned_size_t (libcu++): a byte count with a promised alignment. */
#ifndef __SCORD_CUDA_ALIGNED_SIZE_H__
#define __SCORD_CUDA_ALIGNED_SIZE_H__
#include <stddef.h>
namespace cuda {
template <size_t Alignment> struct aligned_size_t {
  static constexpr size_t align = Alignment;
  size_t value;
  __host__ __device__ constexpr explicit aligned_size_t(size_t size) : value(size) {}
  __host__ __device__ constexpr operator size_t() const { return value; }
};
} // namespace cuda
#endif
