/* bfloat16 (CUDA Math API, "Bfloat16 Precision Intrinsics"), written for the ScoRD simulator:
 * the upper 16 bits of a float, rounded to nearest even; arithmetic through float. */
#ifndef __CUDA_BF16_H__
#define __CUDA_BF16_H__

#include "cuda_fp16.h"

#define __CUDA_BF16_DECL__ static __host__ __device__ __forceinline__
#define __CUDA_BF16_TYPES_EXIST__

typedef struct __nv_bfloat16_raw { unsigned short x; } __nv_bfloat16_raw;
typedef struct __nv_bfloat162_raw { unsigned short x, y; } __nv_bfloat162_raw;

__CUDA_BF16_DECL__ unsigned short __scord_float_to_bf16_bits(float f) {
  unsigned int x = __builtin_bit_cast(unsigned int, f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return (unsigned short)(x >> 16);
}
__CUDA_BF16_DECL__ float __scord_bf16_bits_to_float(unsigned short b) {
  return __builtin_bit_cast(float, (unsigned int)b << 16);
}

struct __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  __host__ __device__ constexpr __nv_bfloat16(const __nv_bfloat16_raw &r) : __x(r.x) {}
  __host__ __device__ __nv_bfloat16(float f) : __x(__scord_float_to_bf16_bits(f)) {}
  __host__ __device__ __nv_bfloat16(double f) : __x(__scord_float_to_bf16_bits((float)f)) {}
  __host__ __device__ __nv_bfloat16(int i) : __x(__scord_float_to_bf16_bits((float)i)) {}
  __host__ __device__ __nv_bfloat16(unsigned int i) : __x(__scord_float_to_bf16_bits((float)i)) {}
  __host__ __device__ __nv_bfloat16(__half h) : __x(__scord_float_to_bf16_bits((float)h)) {}
  __host__ __device__ __nv_bfloat16 &operator=(float f) { __x = __scord_float_to_bf16_bits(f); return *this; }
  __host__ __device__ __nv_bfloat16 &operator=(const __nv_bfloat16_raw &r) { __x = r.x; return *this; }
  __host__ __device__ operator __nv_bfloat16_raw() const { __nv_bfloat16_raw r; r.x = __x; return r; }
  __host__ __device__ operator float() const { return __scord_bf16_bits_to_float(__x); }
  __host__ __device__ explicit operator bool() const { return (__x & 0x7fffu) != 0; }
};

struct __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  __host__ __device__ __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b) : x(a), y(b) {}
  __host__ __device__ __nv_bfloat162(const __nv_bfloat162_raw &r) { x.__x = r.x; y.__x = r.y; }
  __host__ __device__ operator __nv_bfloat162_raw() const { __nv_bfloat162_raw r; r.x = x.__x; r.y = y.__x; return r; }
};
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

__CUDA_BF16_DECL__ __nv_bfloat16 __float2bfloat16(float a) { return __nv_bfloat16(a); }
__CUDA_BF16_DECL__ __nv_bfloat16 __float2bfloat16_rn(float a) { return __nv_bfloat16(a); }
__CUDA_BF16_DECL__ __nv_bfloat16 __float2bfloat16_rz(float a) {
  __nv_bfloat16_raw r;
  r.x = (unsigned short)(__builtin_bit_cast(unsigned int, a) >> 16);
  return __nv_bfloat16(r);
}
__CUDA_BF16_DECL__ __nv_bfloat16 __double2bfloat16(double a) { return __nv_bfloat16((float)a); }
__CUDA_BF16_DECL__ float __bfloat162float(__nv_bfloat16 a) { return (float)a; }
__CUDA_BF16_DECL__ __nv_bfloat162 __float2bfloat162_rn(float a) { return __nv_bfloat162(a, a); }
__CUDA_BF16_DECL__ __nv_bfloat162 __floats2bfloat162_rn(float a, float b) { return __nv_bfloat162(a, b); }
__CUDA_BF16_DECL__ __nv_bfloat162 __float22bfloat162_rn(float2 a) { return __nv_bfloat162(a.x, a.y); }
__CUDA_BF16_DECL__ float2 __bfloat1622float2(__nv_bfloat162 a) { return make_float2((float)a.x, (float)a.y); }
__CUDA_BF16_DECL__ float __low2float(__nv_bfloat162 a) { return (float)a.x; }
__CUDA_BF16_DECL__ float __high2float(__nv_bfloat162 a) { return (float)a.y; }
__CUDA_BF16_DECL__ __nv_bfloat16 __low2bfloat16(__nv_bfloat162 a) { return a.x; }
__CUDA_BF16_DECL__ __nv_bfloat16 __high2bfloat16(__nv_bfloat162 a) { return a.y; }
__CUDA_BF16_DECL__ __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
__CUDA_BF16_DECL__ __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) { return __nv_bfloat162(a, a); }
__CUDA_BF16_DECL__ __nv_bfloat162 make_bfloat162(__nv_bfloat16 x, __nv_bfloat16 y) { return __nv_bfloat162(x, y); }
__CUDA_BF16_DECL__ unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
__CUDA_BF16_DECL__ short __bfloat16_as_short(__nv_bfloat16 h) { return (short)h.__x; }
__CUDA_BF16_DECL__ __nv_bfloat16 __ushort_as_bfloat16(unsigned short i) {
  __nv_bfloat16_raw r;
  r.x = i;
  return __nv_bfloat16(r);
}
__CUDA_BF16_DECL__ __nv_bfloat16 __short_as_bfloat16(short i) { return __ushort_as_bfloat16((unsigned short)i); }
__CUDA_BF16_DECL__ int __bfloat162int_rz(__nv_bfloat16 h) { return (int)(float)h; }
__CUDA_BF16_DECL__ __nv_bfloat16 __int2bfloat16_rn(int i) { return __nv_bfloat16((float)i); }

__CUDA_BF16_DECL__ __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat16((float)a + (float)b); }
__CUDA_BF16_DECL__ __nv_bfloat16 __hsub(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat16((float)a - (float)b); }
__CUDA_BF16_DECL__ __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat16((float)a * (float)b); }
__CUDA_BF16_DECL__ __nv_bfloat16 __hdiv(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat16((float)a / (float)b); }
__CUDA_BF16_DECL__ __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  return __nv_bfloat16(__builtin_fmaf((float)a, (float)b, (float)c));
}
__CUDA_BF16_DECL__ __nv_bfloat16 __hneg(__nv_bfloat16 a) { a.__x ^= 0x8000u; return a; }
__CUDA_BF16_DECL__ __nv_bfloat16 __habs(__nv_bfloat16 a) { a.__x &= 0x7fffu; return a; }
__CUDA_BF16_DECL__ bool __hisnan(__nv_bfloat16 a) { return (a.__x & 0x7fffu) > 0x7f80u; }
__CUDA_BF16_DECL__ __nv_bfloat16 __hmax(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __hisnan(a) ? b : __hisnan(b) ? a : ((float)a > (float)b ? a : b);
}
__CUDA_BF16_DECL__ __nv_bfloat16 __hmin(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __hisnan(a) ? b : __hisnan(b) ? a : ((float)a < (float)b ? a : b);
}
#define __SCORD_BF162_BINARY(NAME2, NAME)                                                              \
  __CUDA_BF16_DECL__ __nv_bfloat162 NAME2(__nv_bfloat162 a, __nv_bfloat162 b) {                        \
    return __nv_bfloat162(NAME(a.x, b.x), NAME(a.y, b.y));                                             \
  }
__SCORD_BF162_BINARY(__hadd2, __hadd)
__SCORD_BF162_BINARY(__hsub2, __hsub)
__SCORD_BF162_BINARY(__hmul2, __hmul)
__SCORD_BF162_BINARY(__h2div, __hdiv)
__SCORD_BF162_BINARY(__hmax2, __hmax)
__SCORD_BF162_BINARY(__hmin2, __hmin)
#undef __SCORD_BF162_BINARY
__CUDA_BF16_DECL__ __nv_bfloat162 __hfma2(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) {
  return __nv_bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
__CUDA_BF16_DECL__ bool __heq(__nv_bfloat16 a, __nv_bfloat16 b) { return (float)a == (float)b; }
__CUDA_BF16_DECL__ bool __hne(__nv_bfloat16 a, __nv_bfloat16 b) { return !__hisnan(a) && !__hisnan(b) && (float)a != (float)b; }
__CUDA_BF16_DECL__ bool __hlt(__nv_bfloat16 a, __nv_bfloat16 b) { return (float)a < (float)b; }
__CUDA_BF16_DECL__ bool __hgt(__nv_bfloat16 a, __nv_bfloat16 b) { return (float)a > (float)b; }
__CUDA_BF16_DECL__ bool __hle(__nv_bfloat16 a, __nv_bfloat16 b) { return (float)a <= (float)b; }
__CUDA_BF16_DECL__ bool __hge(__nv_bfloat16 a, __nv_bfloat16 b) { return (float)a >= (float)b; }

__CUDA_BF16_DECL__ __nv_bfloat16 operator+(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hadd(a, b); }
__CUDA_BF16_DECL__ __nv_bfloat16 operator-(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hsub(a, b); }
__CUDA_BF16_DECL__ __nv_bfloat16 operator*(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hmul(a, b); }
__CUDA_BF16_DECL__ __nv_bfloat16 operator/(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hdiv(a, b); }
__CUDA_BF16_DECL__ __nv_bfloat16 &operator+=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { return a = __hadd(a, b); }
__CUDA_BF16_DECL__ __nv_bfloat16 &operator-=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { return a = __hsub(a, b); }
__CUDA_BF16_DECL__ __nv_bfloat16 &operator*=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { return a = __hmul(a, b); }
__CUDA_BF16_DECL__ __nv_bfloat16 &operator/=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { return a = __hdiv(a, b); }
__CUDA_BF16_DECL__ __nv_bfloat16 operator-(const __nv_bfloat16 &h) { return __hneg(h); }
__CUDA_BF16_DECL__ __nv_bfloat16 operator+(const __nv_bfloat16 &h) { return h; }
__CUDA_BF16_DECL__ bool operator==(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __heq(a, b); }
__CUDA_BF16_DECL__ bool operator!=(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return !__heq(a, b); }
__CUDA_BF16_DECL__ bool operator<(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hlt(a, b); }
__CUDA_BF16_DECL__ bool operator>(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hgt(a, b); }
__CUDA_BF16_DECL__ bool operator<=(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hle(a, b); }
__CUDA_BF16_DECL__ bool operator>=(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hge(a, b); }
__CUDA_BF16_DECL__ __nv_bfloat162 operator+(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hadd2(a, b); }
__CUDA_BF16_DECL__ __nv_bfloat162 operator-(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hsub2(a, b); }
__CUDA_BF16_DECL__ __nv_bfloat162 operator*(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hmul2(a, b); }
__CUDA_BF16_DECL__ __nv_bfloat162 operator/(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __h2div(a, b); }
__CUDA_BF16_DECL__ __nv_bfloat162 &operator+=(__nv_bfloat162 &a, const __nv_bfloat162 &b) { return a = __hadd2(a, b); }

#if defined(__CUDACC__)
static __device__ __forceinline__ __nv_bfloat16 atomicAdd(__nv_bfloat16 *address, __nv_bfloat16 val) {
  unsigned short *p = (unsigned short *)address;
  unsigned short old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __hadd(__ushort_as_bfloat16(assumed), val).__x);
  } while (assumed != old);
  return __ushort_as_bfloat16(old);
}
#define __SCORD_BF16_SHFL(NAME, ARG_T)                                                                 \
  static __device__ __forceinline__ __nv_bfloat16 NAME(unsigned mask, __nv_bfloat16 v, ARG_T a,       \
                                                       int width = warpSize) {                          \
    return __ushort_as_bfloat16((unsigned short)NAME(mask, (int)v.__x, a, width));                     \
  }
__SCORD_BF16_SHFL(__shfl_sync, int)
__SCORD_BF16_SHFL(__shfl_up_sync, unsigned int)
__SCORD_BF16_SHFL(__shfl_down_sync, unsigned int)
__SCORD_BF16_SHFL(__shfl_xor_sync, int)
#undef __SCORD_BF16_SHFL
#endif

#endif /* __CUDA_BF16_H__ */
