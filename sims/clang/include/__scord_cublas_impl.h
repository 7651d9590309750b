/* The cuBLAS routines the simulator provides, written from the cuBLAS documentation ("cuBLAS
 * Helper Function Reference", "cuBLAS Level-1/2/3 Function Reference"): each is a plain CUDA
 * kernel over the caller's device memory, launched on the handle's stream, so the program's own
 * kernels and these meet in one simulated device (their accesses are checked like any other).
 * Matrices are column-major, as in cuBLAS; scalars are read on the host or, with
 * CUBLAS_POINTER_MODE_DEVICE, by the kernel; results of reductions go where the pointer mode
 * says. Included by cublas_api.h; routines declared there but not defined here (half precision,
 * cublasGemmEx) are refused by the runtime with `not supported: cuBLAS`. */
#ifndef __SCORD_CUBLAS_IMPL_H__
#define __SCORD_CUBLAS_IMPL_H__

#include <stdlib.h>

struct cublasContext {
  cudaStream_t stream;
  cublasPointerMode_t pointerMode;
  cublasMath_t mathMode;
  cublasAtomicsMode_t atomicsMode;
  /* Device memory for a reduction's result in host pointer mode. */
  void *result;
};

namespace __scord_cublas {

enum { THREADS = 256, REDUCE_THREADS = 256 };

/* A scalar argument: the host's value, or the device's at `dev` in device pointer mode. */
template <class T> struct scalar {
  T value;
  const T *dev;
  __device__ __forceinline__ T get() const { return dev ? *dev : value; }
};

template <class T> static scalar<T> take(cublasHandle_t h, const T *p) {
  scalar<T> s;
  s.value = h->pointerMode == CUBLAS_POINTER_MODE_DEVICE ? T(0) : *p;
  s.dev = h->pointerMode == CUBLAS_POINTER_MODE_DEVICE ? p : 0;
  return s;
}

static inline unsigned int blocks(long long n) {
  long long b = (n + THREADS - 1) / THREADS;
  return (unsigned int)(b < 1 ? 1 : b > 65535 ? 65535 : b);
}

static inline cublasStatus_t launched() {
  return cudaGetLastError() == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_EXECUTION_FAILED;
}

/* Level 1. */
template <class T> __global__ void axpy(int n, scalar<T> alpha, const T *x, int incx, T *y, int incy) {
  const T a = alpha.get();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    y[(long long)i * incy] += a * x[(long long)i * incx];
}
template <class T> __global__ void copy(int n, const T *x, int incx, T *y, int incy) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    y[(long long)i * incy] = x[(long long)i * incx];
}
template <class T> __global__ void scal(int n, scalar<T> alpha, T *x, int incx) {
  const T a = alpha.get();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[(long long)i * incx] *= a;
}

enum Reduction { DOT, NRM2, ASUM };

/* One block: each thread sums a strided share, then the shares are added up in a tree. */
template <class T> __global__ void reduce(int kind, int n, const T *x, int incx, const T *y, int incy, T *result) {
  __shared__ T part[REDUCE_THREADS];
  T sum = T(0);
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    const T v = x[(long long)i * incx];
    sum += kind == DOT ? v * y[(long long)i * incy] : kind == NRM2 ? v * v : (v < T(0) ? -v : v);
  }
  part[threadIdx.x] = sum;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) part[threadIdx.x] += part[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) *result = kind == NRM2 ? sqrt(part[0]) : part[0];
}

/* The 1-based index of the first element of largest absolute value (0 when n <= 0). */
template <class T> __global__ void iamax(int n, const T *x, int incx, int *result) {
  __shared__ T best[REDUCE_THREADS];
  __shared__ int at[REDUCE_THREADS];
  T b = T(-1);
  int k = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    T v = x[(long long)i * incx];
    v = v < T(0) ? -v : v;
    if (v > b) {
      b = v;
      k = i + 1;
    }
  }
  best[threadIdx.x] = b;
  at[threadIdx.x] = k;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      const T o = best[threadIdx.x + half];
      const int ok = at[threadIdx.x + half];
      if (ok != 0 && (o > best[threadIdx.x] || (o == best[threadIdx.x] && (at[threadIdx.x] == 0 || ok < at[threadIdx.x])))) {
        best[threadIdx.x] = o;
        at[threadIdx.x] = ok;
      }
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) *result = at[0];
}

/* Level 2: y = alpha op(A) x + beta y, A m x n; y is not read when beta is 0. */
template <class T>
__global__ void gemv(bool trans, int m, int n, scalar<T> alpha, const T *A, int lda, const T *x, int incx, scalar<T> beta,
                     T *y, int incy) {
  const int rows = trans ? n : m, inner = trans ? m : n;
  const T a = alpha.get(), b = beta.get();
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += gridDim.x * blockDim.x) {
    T sum = T(0);
    for (int k = 0; k < inner; k++) {
      const T e = trans ? A[k + (long long)r * lda] : A[r + (long long)k * lda];
      sum += e * x[(long long)k * incx];
    }
    T *out = &y[(long long)r * incy];
    *out = b == T(0) ? a * sum : a * sum + b * *out;
  }
}

/* Level 3: C = alpha op(A) op(B) + beta C, C m x n, k inner; batch z at the given strides. */
template <class T>
__global__ void gemm(bool transa, bool transb, int m, int n, int k, scalar<T> alpha, const T *A, int lda, long long strideA,
                     const T *B, int ldb, long long strideB, scalar<T> beta, T *C, int ldc, long long strideC) {
  A += blockIdx.z * strideA;
  B += blockIdx.z * strideB;
  C += blockIdx.z * strideC;
  const T a = alpha.get(), b = beta.get();
  const long long cells = (long long)m * n;
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < cells; c += (long long)gridDim.x * blockDim.x) {
    const int i = (int)(c % m), j = (int)(c / m);
    T sum = T(0);
    for (int l = 0; l < k; l++) {
      const T ea = transa ? A[l + (long long)i * lda] : A[i + (long long)l * lda];
      const T eb = transb ? B[j + (long long)l * ldb] : B[l + (long long)j * ldb];
      sum += ea * eb;
    }
    T *out = &C[i + (long long)j * ldc];
    *out = b == T(0) ? a * sum : a * sum + b * *out;
  }
}

template <class T> static cublasStatus_t axpy_(cublasHandle_t h, int n, const T *alpha, const T *x, int incx, T *y, int incy) {
  if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  axpy<T><<<blocks(n), THREADS, 0, h->stream>>>(n, take(h, alpha), x, incx, y, incy);
  return launched();
}
template <class T> static cublasStatus_t copy_(cublasHandle_t h, int n, const T *x, int incx, T *y, int incy) {
  if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  copy<T><<<blocks(n), THREADS, 0, h->stream>>>(n, x, incx, y, incy);
  return launched();
}
template <class T> static cublasStatus_t scal_(cublasHandle_t h, int n, const T *alpha, T *x, int incx) {
  if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (n <= 0 || incx <= 0) return CUBLAS_STATUS_SUCCESS;
  scal<T><<<blocks(n), THREADS, 0, h->stream>>>(n, take(h, alpha), x, incx);
  return launched();
}
/* A reduction's result: into the handle's device word, then to the host, unless the pointer mode is device. */
template <class T, class R, class Launch> static cublasStatus_t reduced(cublasHandle_t h, R *result, Launch launch) {
  if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!result) return CUBLAS_STATUS_INVALID_VALUE;
  const bool device = h->pointerMode == CUBLAS_POINTER_MODE_DEVICE;
  R *out = device ? result : (R *)h->result;
  launch(out);
  if (cudaGetLastError() != cudaSuccess) return CUBLAS_STATUS_EXECUTION_FAILED;
  if (!device && cudaMemcpy(result, out, sizeof(R), cudaMemcpyDeviceToHost) != cudaSuccess) return CUBLAS_STATUS_EXECUTION_FAILED;
  return CUBLAS_STATUS_SUCCESS;
}
template <class T> struct reduceLaunch {
  cudaStream_t stream;
  int kind, n;
  const T *x;
  int incx;
  const T *y;
  int incy;
  void operator()(T *out) const { reduce<T><<<1, REDUCE_THREADS, 0, stream>>>(kind, n, x, incx, y, incy, out); }
};
template <class T> struct iamaxLaunch {
  cudaStream_t stream;
  int n;
  const T *x;
  int incx;
  void operator()(int *out) const { iamax<T><<<1, REDUCE_THREADS, 0, stream>>>(n, x, incx, out); }
};
template <class T> static cublasStatus_t reduce_(cublasHandle_t h, int kind, int n, const T *x, int incx, const T *y, int incy, T *result) {
  if (n > 0 && incx <= 0 && kind != DOT) n = 0;
  reduceLaunch<T> l = {h ? h->stream : 0, kind, n < 0 ? 0 : n, x, incx, y, incy};
  return reduced<T>(h, result, l);
}
template <class T> static cublasStatus_t iamax_(cublasHandle_t h, int n, const T *x, int incx, int *result) {
  iamaxLaunch<T> l = {h ? h->stream : 0, n <= 0 || incx <= 0 ? 0 : n, x, incx};
  return reduced<T>(h, result, l);
}
template <class T>
static cublasStatus_t gemv_(cublasHandle_t h, cublasOperation_t trans, int m, int n, const T *alpha, const T *A, int lda, const T *x,
                            int incx, const T *beta, T *y, int incy) {
  if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (m < 0 || n < 0 || lda < (m > 1 ? m : 1) || incx == 0 || incy == 0 || (int)trans < 0 || (int)trans > 2) return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  const bool t = trans != CUBLAS_OP_N;
  gemv<T><<<blocks(t ? n : m), THREADS, 0, h->stream>>>(t, m, n, take(h, alpha), A, lda, x, incx, take(h, beta), y, incy);
  return launched();
}
template <class T>
static cublasStatus_t gemm_(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const T *alpha,
                            const T *A, int lda, long long strideA, const T *B, int ldb, long long strideB, const T *beta, T *C, int ldc,
                            long long strideC, int batch) {
  if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
  const bool ta = transa != CUBLAS_OP_N, tb = transb != CUBLAS_OP_N;
  const int rowsA = ta ? k : m, rowsB = tb ? n : k;
  if (m < 0 || n < 0 || k < 0 || batch < 0 || lda < (rowsA > 1 ? rowsA : 1) || ldb < (rowsB > 1 ? rowsB : 1) || ldc < (m > 1 ? m : 1))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0 || batch == 0) return CUBLAS_STATUS_SUCCESS;
  dim3 grid(blocks((long long)m * n), 1, (unsigned int)batch);
  gemm<T><<<grid, THREADS, 0, h->stream>>>(ta, tb, m, n, k, take(h, alpha), A, lda, strideA, B, ldb, strideB, take(h, beta), C, ldc, strideC);
  return launched();
}

/* Strided copies between host and device for Set/GetVector and Set/GetMatrix. */
static cublasStatus_t strided(const void *src, int incSrc, void *dst, int incDst, int n, int elemSize) {
  if (n < 0 || elemSize <= 0 || incSrc == 0 || incDst == 0) return CUBLAS_STATUS_INVALID_VALUE;
  if (incSrc == 1 && incDst == 1) return cudaMemcpy(dst, src, (size_t)n * elemSize, cudaMemcpyDefault) == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_MAPPING_ERROR;
  for (int i = 0; i < n; i++)
    if (cudaMemcpy((char *)dst + (long long)i * incDst * elemSize, (const char *)src + (long long)i * incSrc * elemSize, elemSize, cudaMemcpyDefault) != cudaSuccess)
      return CUBLAS_STATUS_MAPPING_ERROR;
  return CUBLAS_STATUS_SUCCESS;
}
static cublasStatus_t matrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb) {
  if (rows < 0 || cols < 0 || elemSize <= 0 || lda < (rows > 1 ? rows : 1) || ldb < (rows > 1 ? rows : 1)) return CUBLAS_STATUS_INVALID_VALUE;
  for (int j = 0; j < cols; j++) {
    cublasStatus_t s = strided((const char *)A + (long long)j * lda * elemSize, 1, (char *)B + (long long)j * ldb * elemSize, 1, rows, elemSize);
    if (s != CUBLAS_STATUS_SUCCESS) return s;
  }
  return CUBLAS_STATUS_SUCCESS;
}

} // namespace __scord_cublas

/* The handle and its settings. */
static inline cublasStatus_t cublasCreate(cublasHandle_t *handle) {
  if (!handle) return CUBLAS_STATUS_INVALID_VALUE;
  cublasHandle_t h = (cublasHandle_t)malloc(sizeof(struct cublasContext));
  if (!h) return CUBLAS_STATUS_ALLOC_FAILED;
  h->stream = 0;
  h->pointerMode = CUBLAS_POINTER_MODE_HOST;
  h->mathMode = CUBLAS_DEFAULT_MATH;
  h->atomicsMode = CUBLAS_ATOMICS_NOT_ALLOWED;
  if (cudaMalloc(&h->result, 16) != cudaSuccess) {
    free(h);
    return CUBLAS_STATUS_ALLOC_FAILED;
  }
  *handle = h;
  return CUBLAS_STATUS_SUCCESS;
}
static inline cublasStatus_t cublasDestroy(cublasHandle_t handle) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  cudaFree(handle->result);
  free(handle);
  return CUBLAS_STATUS_SUCCESS;
}
static inline cublasStatus_t cublasGetVersion(cublasHandle_t handle, int *version) {
  (void)handle;
  if (!version) return CUBLAS_STATUS_INVALID_VALUE;
  *version = CUBLAS_VERSION;
  return CUBLAS_STATUS_SUCCESS;
}
static inline cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t streamId) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  handle->stream = streamId;
  return CUBLAS_STATUS_SUCCESS;
}
static inline cublasStatus_t cublasGetStream(cublasHandle_t handle, cudaStream_t *streamId) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!streamId) return CUBLAS_STATUS_INVALID_VALUE;
  *streamId = handle->stream;
  return CUBLAS_STATUS_SUCCESS;
}
static inline cublasStatus_t cublasSetPointerMode(cublasHandle_t handle, cublasPointerMode_t mode) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE) return CUBLAS_STATUS_INVALID_VALUE;
  handle->pointerMode = mode;
  return CUBLAS_STATUS_SUCCESS;
}
static inline cublasStatus_t cublasGetPointerMode(cublasHandle_t handle, cublasPointerMode_t *mode) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!mode) return CUBLAS_STATUS_INVALID_VALUE;
  *mode = handle->pointerMode;
  return CUBLAS_STATUS_SUCCESS;
}
static inline cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  handle->mathMode = mode;
  return CUBLAS_STATUS_SUCCESS;
}
static inline cublasStatus_t cublasSetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t mode) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  handle->atomicsMode = mode;
  return CUBLAS_STATUS_SUCCESS;
}
static inline cublasStatus_t cublasSetVector(int n, int elemSize, const void *x, int incx, void *y, int incy) {
  return __scord_cublas::strided(x, incx, y, incy, n, elemSize);
}
static inline cublasStatus_t cublasGetVector(int n, int elemSize, const void *x, int incx, void *y, int incy) {
  return __scord_cublas::strided(x, incx, y, incy, n, elemSize);
}
static inline cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb) {
  return __scord_cublas::matrix(rows, cols, elemSize, A, lda, B, ldb);
}
static inline cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb) {
  return __scord_cublas::matrix(rows, cols, elemSize, A, lda, B, ldb);
}

/* Level 1. */
#define __SCORD_CUBLAS_LEVEL1(P, p, T)                                                                                           \
  static inline cublasStatus_t cublas##P##axpy(cublasHandle_t h, int n, const T *alpha, const T *x, int incx, T *y, int incy) { \
    return __scord_cublas::axpy_<T>(h, n, alpha, x, incx, y, incy);                                                          \
  }                                                                                                                           \
  static inline cublasStatus_t cublas##P##copy(cublasHandle_t h, int n, const T *x, int incx, T *y, int incy) {               \
    return __scord_cublas::copy_<T>(h, n, x, incx, y, incy);                                                                 \
  }                                                                                                                           \
  static inline cublasStatus_t cublas##P##scal(cublasHandle_t h, int n, const T *alpha, T *x, int incx) {                     \
    return __scord_cublas::scal_<T>(h, n, alpha, x, incx);                                                                   \
  }                                                                                                                           \
  static inline cublasStatus_t cublas##P##dot(cublasHandle_t h, int n, const T *x, int incx, const T *y, int incy, T *r) {    \
    return __scord_cublas::reduce_<T>(h, __scord_cublas::DOT, n, x, incx, y, incy, r);                                       \
  }                                                                                                                           \
  static inline cublasStatus_t cublas##P##nrm2(cublasHandle_t h, int n, const T *x, int incx, T *r) {                         \
    return __scord_cublas::reduce_<T>(h, __scord_cublas::NRM2, n, x, incx, x, incx, r);                                      \
  }                                                                                                                           \
  static inline cublasStatus_t cublas##P##asum(cublasHandle_t h, int n, const T *x, int incx, T *r) {                         \
    return __scord_cublas::reduce_<T>(h, __scord_cublas::ASUM, n, x, incx, x, incx, r);                                      \
  }                                                                                                                           \
  static inline cublasStatus_t cublasI##p##amax(cublasHandle_t h, int n, const T *x, int incx, int *r) {                      \
    return __scord_cublas::iamax_<T>(h, n, x, incx, r);                                                                      \
  }
__SCORD_CUBLAS_LEVEL1(S, s, float)
__SCORD_CUBLAS_LEVEL1(D, d, double)
#undef __SCORD_CUBLAS_LEVEL1

/* Level 2 and 3. */
static inline cublasStatus_t cublasSgemv(cublasHandle_t h, cublasOperation_t trans, int m, int n, const float *alpha, const float *A,
                                         int lda, const float *x, int incx, const float *beta, float *y, int incy) {
  return __scord_cublas::gemv_<float>(h, trans, m, n, alpha, A, lda, x, incx, beta, y, incy);
}
static inline cublasStatus_t cublasDgemv(cublasHandle_t h, cublasOperation_t trans, int m, int n, const double *alpha, const double *A,
                                         int lda, const double *x, int incx, const double *beta, double *y, int incy) {
  return __scord_cublas::gemv_<double>(h, trans, m, n, alpha, A, lda, x, incx, beta, y, incy);
}
static inline cublasStatus_t cublasSgemm(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
                                         const float *alpha, const float *A, int lda, const float *B, int ldb, const float *beta, float *C,
                                         int ldc) {
  return __scord_cublas::gemm_<float>(h, transa, transb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, 1);
}
static inline cublasStatus_t cublasDgemm(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
                                         const double *alpha, const double *A, int lda, const double *B, int ldb, const double *beta,
                                         double *C, int ldc) {
  return __scord_cublas::gemm_<double>(h, transa, transb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, 1);
}
static inline cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                                                       int k, const float *alpha, const float *A, int lda, long long strideA,
                                                       const float *B, int ldb, long long strideB, const float *beta, float *C, int ldc,
                                                       long long strideC, int batchCount) {
  return __scord_cublas::gemm_<float>(h, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc, strideC,
                                      batchCount);
}

#endif /* __SCORD_CUBLAS_IMPL_H__ */
