/* Warp matrix multiply-accumulate (CUDA C++ Programming Guide, "Warp Matrix Functions"),
 * written for the ScoRD simulator in plain CUDA C++ (no tensor-core PTX).
 *
 * Fragment contents are this simulator's own arrangement, which the guide leaves unspecified:
 *  - matrix_a and matrix_b fragments hold the whole tile in every lane (num_elements = rows x
 *    columns); load_matrix_sync has every lane read the tile;
 *  - accumulator fragments hold, in lane l, the elements l, l + 32, l + 64, ... of the M x N tile in
 *    row-major order (num_elements = M x N / 32); stores write only those, so each element of the
 *    tile is written by one lane, as on the hardware.
 * Element-wise loops over x[0..num_elements) therefore work as the guide promises, mma_sync
 * computes D = A x B + C exactly (in the accumulator's type), and the memory accesses the
 * simulator sees are reads of whole tiles and one write per stored element. */
#ifndef __CUDA_MMA_H__
#define __CUDA_MMA_H__

#include "cuda_fp16.h"
#include "cuda_bf16.h"

namespace nvcuda {
namespace wmma {

struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };

namespace precision {
struct tf32 {};
} // namespace precision
namespace experimental {
namespace precision {
struct u4 {};
struct s4 {};
struct b1 {};
} // namespace precision
enum bmmaBitOp { bmmaBitOpXOR = 1, bmmaBitOpAND = 2 };
enum bmmaAccumulateOp { bmmaAccumulateOpPOPC = 1 };
} // namespace experimental

/* How an element type is stored in a fragment. */
template <class T> struct __storage { typedef T type; };
template <> struct __storage<precision::tf32> { typedef float type; };
template <> struct __storage<experimental::precision::u4> { typedef int type; };
template <> struct __storage<experimental::precision::s4> { typedef int type; };
template <> struct __storage<experimental::precision::b1> { typedef int type; };

/* Rows and columns of each operand of an M x N x K operation. */
template <class Use, int M, int N, int K> struct __shape;
template <int M, int N, int K> struct __shape<matrix_a, M, N, K> { enum { rows = M, cols = K, per_lane = M * K }; };
template <int M, int N, int K> struct __shape<matrix_b, M, N, K> { enum { rows = K, cols = N, per_lane = K * N }; };
template <int M, int N, int K> struct __shape<accumulator, M, N, K> {
  enum { rows = M, cols = N, per_lane = (M * N + 31) / 32 };
};

template <class Use, int M, int N, int K, class T, class Layout = void> class fragment {
public:
  typedef typename __storage<T>::type storage_element_type;
  typedef T element_type;
  enum { num_elements = __shape<Use, M, N, K>::per_lane, num_rows = __shape<Use, M, N, K>::rows,
         num_cols = __shape<Use, M, N, K>::cols };
  storage_element_type x[num_elements];
};

static __device__ __forceinline__ unsigned int __lane() {
  return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & 31u;
}

template <class T> static __device__ __forceinline__ float __as_float(const T &v) { return (float)v; }
static __device__ __forceinline__ double __as_float(const double &v) { return v; }

template <class Use, int M, int N, int K, class T, class Layout, class V>
static __device__ __forceinline__ void fill_fragment(fragment<Use, M, N, K, T, Layout> &f, const V &value) {
  typedef typename fragment<Use, M, N, K, T, Layout>::storage_element_type S;
  for (int i = 0; i < f.num_elements; ++i) f.x[i] = (S)value;
}

/* matrix_a / matrix_b: every lane reads the whole tile. */
template <class Use, int M, int N, int K, class T, class Layout, class P>
static __device__ __forceinline__ void load_matrix_sync(fragment<Use, M, N, K, T, Layout> &f, const P *p, unsigned ldm) {
  typedef fragment<Use, M, N, K, T, Layout> F;
  typedef typename F::storage_element_type S;
  for (int r = 0; r < F::num_rows; ++r)
    for (int c = 0; c < F::num_cols; ++c) {
      const unsigned at = __is_same(Layout, col_major) ? c * ldm + r : r * ldm + c;
      f.x[r * F::num_cols + c] = (S)p[at];
    }
}

/* accumulator: lane l reads its own elements. */
template <int M, int N, int K, class T, class P>
static __device__ __forceinline__ void load_matrix_sync(fragment<accumulator, M, N, K, T> &f, const P *p, unsigned ldm,
                                                        layout_t layout) {
  typedef typename fragment<accumulator, M, N, K, T>::storage_element_type S;
  const unsigned lane = __lane();
  for (int i = 0; i < f.num_elements; ++i) {
    const unsigned e = lane + 32u * i, r = e / N, c = e % N;
    if (r < (unsigned)M) f.x[i] = (S)p[layout == mem_col_major ? c * ldm + r : r * ldm + c];
  }
}

template <int M, int N, int K, class T, class P>
static __device__ __forceinline__ void store_matrix_sync(P *p, const fragment<accumulator, M, N, K, T> &f, unsigned ldm,
                                                         layout_t layout) {
  const unsigned lane = __lane();
  for (int i = 0; i < f.num_elements; ++i) {
    const unsigned e = lane + 32u * i, r = e / N, c = e % N;
    if (r < (unsigned)M) p[layout == mem_col_major ? c * ldm + r : r * ldm + c] = (P)f.x[i];
  }
}

/* D = A x B + C, each lane computing its own elements of D. */
template <int M, int N, int K, class TA, class LA, class TB, class LB, class TC, class TD>
static __device__ __forceinline__ void mma_sync(fragment<accumulator, M, N, K, TD> &d,
                                                const fragment<matrix_a, M, N, K, TA, LA> &a,
                                                const fragment<matrix_b, M, N, K, TB, LB> &b,
                                                const fragment<accumulator, M, N, K, TC> &c, bool satf = false) {
  typedef typename fragment<accumulator, M, N, K, TD>::storage_element_type SD;
  const unsigned lane = __lane();
  for (int i = 0; i < d.num_elements; ++i) {
    const unsigned e = lane + 32u * i, r = e / N, col = e % N;
    if (r >= (unsigned)M) continue;
    if constexpr (__is_same(SD, int)) {
      int sum = (int)c.x[i];
      for (int k = 0; k < K; ++k) sum += (int)a.x[r * K + k] * (int)b.x[k * N + col];
      d.x[i] = sum;
    } else if constexpr (__is_same(SD, double)) {
      double sum = (double)c.x[i];
      for (int k = 0; k < K; ++k) sum += (double)a.x[r * K + k] * (double)b.x[k * N + col];
      d.x[i] = sum;
    } else {
      float sum = __as_float(c.x[i]);
      for (int k = 0; k < K; ++k) sum += __as_float(a.x[r * K + k]) * __as_float(b.x[k * N + col]);
      if (satf) sum = sum != sum ? 0.0f : sum < 0.0f ? 0.0f : sum > 1.0f ? 1.0f : sum;
      d.x[i] = (SD)sum;
    }
  }
}

/* Rounds a float to the 10-bit mantissa of TF32 (to nearest, ties away from zero). */
static __device__ __forceinline__ float __float_to_tf32(float in) {
  unsigned int bits = __builtin_bit_cast(unsigned int, in);
  if ((bits & 0x7f800000u) != 0x7f800000u) bits = (bits + 0x1000u) & 0xffffe000u;
  return __builtin_bit_cast(float, bits);
}

} // namespace wmma
} // namespace nvcuda

#endif /* __CUDA_MMA_H__ */
