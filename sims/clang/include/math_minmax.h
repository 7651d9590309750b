/* min and max of CUDA's math_functions (CUDA Math API: "min", "max", and the integer and
 * floating-point overloads nvcc provides in host and device code). clang already has
 * min(int, int) and max(int, int) for the device; the host gets them here, and both sides get
 * the other overloads. Mixed operands follow C++'s usual arithmetic conversions. */
#ifndef __SCORD_MATH_MINMAX_H__
#define __SCORD_MATH_MINMAX_H__

static __inline__ __host__ int min(int a, int b) { return a < b ? a : b; }
static __inline__ __host__ int max(int a, int b) { return a > b ? a : b; }

#define __SCORD_MINMAX(A, B, R)                                                                      \
  static __inline__ __host__ __device__ R min(A a, B b) { return (R)a < (R)b ? (R)a : (R)b; }       \
  static __inline__ __host__ __device__ R max(A a, B b) { return (R)a > (R)b ? (R)a : (R)b; }
__SCORD_MINMAX(unsigned int, unsigned int, unsigned int)
__SCORD_MINMAX(int, unsigned int, unsigned int)
__SCORD_MINMAX(unsigned int, int, unsigned int)
__SCORD_MINMAX(long, long, long)
__SCORD_MINMAX(unsigned long, unsigned long, unsigned long)
__SCORD_MINMAX(long, unsigned long, unsigned long)
__SCORD_MINMAX(unsigned long, long, unsigned long)
__SCORD_MINMAX(long long, long long, long long)
__SCORD_MINMAX(unsigned long long, unsigned long long, unsigned long long)
__SCORD_MINMAX(long long, unsigned long long, unsigned long long)
__SCORD_MINMAX(unsigned long long, long long, unsigned long long)
#undef __SCORD_MINMAX

#define __SCORD_FMINMAX(A, B, R, MIN, MAX)                                                           \
  static __inline__ __host__ __device__ R min(A a, B b) { return MIN((R)a, (R)b); }                  \
  static __inline__ __host__ __device__ R max(A a, B b) { return MAX((R)a, (R)b); }
__SCORD_FMINMAX(float, float, float, __builtin_fminf, __builtin_fmaxf)
__SCORD_FMINMAX(double, double, double, __builtin_fmin, __builtin_fmax)
__SCORD_FMINMAX(float, double, double, __builtin_fmin, __builtin_fmax)
__SCORD_FMINMAX(double, float, double, __builtin_fmin, __builtin_fmax)
#undef __SCORD_FMINMAX

#endif
