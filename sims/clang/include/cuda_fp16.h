/* Half precision (CUDA Math API, "Half Precision Intrinsics"), written for the ScoRD simulator.
 * __half holds the IEEE binary16 bits; arithmetic converts to float, computes, and rounds back
 * to nearest even, which gives the correctly rounded half result for +, -, *, / and fma of
 * halves. Everything is __host__ __device__ and plain C++ (no PTX), so the simulator needs
 * nothing beyond float arithmetic. */
#ifndef __CUDA_FP16_H__
#define __CUDA_FP16_H__

#define __CUDA_FP16_DECL__ static __host__ __device__ __forceinline__
#define __CUDA_HOSTDEVICE_FP16_DECL__ __CUDA_FP16_DECL__
#define __CUDA_FP16_TYPES_EXIST__

typedef struct __half_raw { unsigned short x; } __half_raw;
typedef struct __half2_raw { unsigned short x, y; } __half2_raw;

/* float <-> binary16 bits, rounding to nearest even. */
__CUDA_FP16_DECL__ unsigned short __scord_float_to_half_bits(float f) {
  unsigned int x = __builtin_bit_cast(unsigned int, f);
  unsigned int sign = (x >> 16) & 0x8000u;
  x &= 0x7fffffffu;
  if (x >= 0x7f800000u) return (unsigned short)(sign | 0x7c00u | (x > 0x7f800000u ? 0x200u : 0u));
  if (x >= 0x477ff000u) return (unsigned short)(sign | 0x7c00u);
  if (x < 0x38800000u) {
    if (x < 0x33000000u) return (unsigned short)sign;
    unsigned int e = x >> 23, m = (x & 0x7fffffu) | 0x800000u, shift = 126u - e;
    unsigned int r = m >> shift, rest = m & ((1u << shift) - 1u), half = 1u << (shift - 1u);
    if (rest > half || (rest == half && (r & 1u))) ++r;
    return (unsigned short)(sign | r);
  }
  unsigned int h = (((x >> 23) - 112u) << 10) | ((x & 0x7fffffu) >> 13), rest = x & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
  return (unsigned short)(sign | h);
}
__CUDA_FP16_DECL__ float __scord_half_bits_to_float(unsigned short h) {
  unsigned int sign = (unsigned int)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0) {
    float f = (float)m * (1.0f / 16777216.0f);
    return sign ? -f : f;
  }
  if (e == 31) return __builtin_bit_cast(float, sign | 0x7f800000u | (m << 13));
  return __builtin_bit_cast(float, sign | ((e + 112u) << 23) | (m << 13));
}

struct __half {
  unsigned short __x;
  __half() = default;
  __host__ __device__ constexpr __half(const __half_raw &r) : __x(r.x) {}
  __host__ __device__ __half(float f) : __x(__scord_float_to_half_bits(f)) {}
  __host__ __device__ __half(double f) : __x(__scord_float_to_half_bits((float)f)) {}
  __host__ __device__ __half(int i) : __x(__scord_float_to_half_bits((float)i)) {}
  __host__ __device__ __half(unsigned int i) : __x(__scord_float_to_half_bits((float)i)) {}
  __host__ __device__ __half(short i) : __x(__scord_float_to_half_bits((float)i)) {}
  __host__ __device__ __half(unsigned short i) : __x(__scord_float_to_half_bits((float)i)) {}
  __host__ __device__ __half(long long i) : __x(__scord_float_to_half_bits((float)i)) {}
  __host__ __device__ __half(unsigned long long i) : __x(__scord_float_to_half_bits((float)i)) {}
  __host__ __device__ __half &operator=(const __half_raw &r) { __x = r.x; return *this; }
  __host__ __device__ __half &operator=(float f) { __x = __scord_float_to_half_bits(f); return *this; }
  __host__ __device__ __half &operator=(double f) { __x = __scord_float_to_half_bits((float)f); return *this; }
  __host__ __device__ operator __half_raw() const { __half_raw r; r.x = __x; return r; }
  __host__ __device__ operator float() const { return __scord_half_bits_to_float(__x); }
  __host__ __device__ explicit operator bool() const { return (__x & 0x7fffu) != 0; }
};

struct __half2 {
  __half x, y;
  __half2() = default;
  __host__ __device__ __half2(const __half &a, const __half &b) : x(a), y(b) {}
  __host__ __device__ __half2(const __half2_raw &r) { x.__x = r.x; y.__x = r.y; }
  __host__ __device__ __half2 &operator=(const __half2_raw &r) { x.__x = r.x; y.__x = r.y; return *this; }
  __host__ __device__ operator __half2_raw() const { __half2_raw r; r.x = x.__x; r.y = y.__x; return r; }
};

typedef __half half;
typedef __half2 half2;
typedef __half __nv_half;
typedef __half2 __nv_half2;
typedef __half_raw __nv_half_raw;
typedef __half2_raw __nv_half2_raw;

/* Conversions. */
__CUDA_FP16_DECL__ __half __float2half(float a) { return __half(a); }
__CUDA_FP16_DECL__ __half __float2half_rn(float a) { return __half(a); }
__CUDA_FP16_DECL__ __half __float2half_rz(float a) {
  __half h(a);
  if (__builtin_fabsf((float)h) > __builtin_fabsf(a)) h.__x -= 1;
  return h;
}
__CUDA_FP16_DECL__ __half __float2half_rd(float a) {
  __half h(a);
  if ((float)h > a) h.__x = (h.__x & 0x8000u) ? h.__x + 1 : (h.__x == 0 ? 0x8001u : h.__x - 1);
  return h;
}
__CUDA_FP16_DECL__ __half __float2half_ru(float a) {
  __half h(a);
  if ((float)h < a) h.__x = (h.__x & 0x8000u) ? (h.__x == 0x8000u ? 1u : h.__x - 1) : h.__x + 1;
  return h;
}
__CUDA_FP16_DECL__ __half __double2half(double a) { return __half((float)a); }
__CUDA_FP16_DECL__ float __half2float(__half a) { return (float)a; }
__CUDA_FP16_DECL__ __half2 __float2half2_rn(float a) { return __half2(__half(a), __half(a)); }
__CUDA_FP16_DECL__ __half2 __floats2half2_rn(float a, float b) { return __half2(__half(a), __half(b)); }
__CUDA_FP16_DECL__ __half2 __float22half2_rn(float2 a) { return __half2(__half(a.x), __half(a.y)); }
__CUDA_FP16_DECL__ float2 __half22float2(__half2 a) { return make_float2((float)a.x, (float)a.y); }
__CUDA_FP16_DECL__ float __low2float(__half2 a) { return (float)a.x; }
__CUDA_FP16_DECL__ float __high2float(__half2 a) { return (float)a.y; }
__CUDA_FP16_DECL__ __half __low2half(__half2 a) { return a.x; }
__CUDA_FP16_DECL__ __half __high2half(__half2 a) { return a.y; }
__CUDA_FP16_DECL__ __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
__CUDA_FP16_DECL__ __half2 __half2half2(__half a) { return __half2(a, a); }
__CUDA_FP16_DECL__ __half2 __lowhigh2highlow(__half2 a) { return __half2(a.y, a.x); }
__CUDA_FP16_DECL__ __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
__CUDA_FP16_DECL__ __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
__CUDA_FP16_DECL__ __half2 __low2half2(__half2 a) { return __half2(a.x, a.x); }
__CUDA_FP16_DECL__ __half2 __high2half2(__half2 a) { return __half2(a.y, a.y); }
__CUDA_FP16_DECL__ __half2 make_half2(__half x, __half y) { return __half2(x, y); }
__CUDA_FP16_DECL__ short __half_as_short(__half h) { return (short)h.__x; }
__CUDA_FP16_DECL__ unsigned short __half_as_ushort(__half h) { return h.__x; }
__CUDA_FP16_DECL__ __half __short_as_half(short i) { __half_raw r; r.x = (unsigned short)i; return __half(r); }
__CUDA_FP16_DECL__ __half __ushort_as_half(unsigned short i) { __half_raw r; r.x = i; return __half(r); }
#define __SCORD_HALF_INT(T, NAME_TO, NAME_FROM)                                                       \
  __CUDA_FP16_DECL__ __half NAME_FROM##_rn(T i) { return __half((float)i); }                          \
  __CUDA_FP16_DECL__ __half NAME_FROM##_rz(T i) { return __float2half_rz((float)i); }                  \
  __CUDA_FP16_DECL__ __half NAME_FROM##_rd(T i) { return __float2half_rd((float)i); }                  \
  __CUDA_FP16_DECL__ __half NAME_FROM##_ru(T i) { return __float2half_ru((float)i); }                  \
  __CUDA_FP16_DECL__ T NAME_TO##_rz(__half h) { return (T)(float)h; }                                  \
  __CUDA_FP16_DECL__ T NAME_TO##_rn(__half h) { return (T)__builtin_rintf((float)h); }                 \
  __CUDA_FP16_DECL__ T NAME_TO##_rd(__half h) { return (T)__builtin_floorf((float)h); }                \
  __CUDA_FP16_DECL__ T NAME_TO##_ru(__half h) { return (T)__builtin_ceilf((float)h); }
__SCORD_HALF_INT(int, __half2int, __int2half)
__SCORD_HALF_INT(unsigned int, __half2uint, __uint2half)
__SCORD_HALF_INT(short, __half2short, __short2half)
__SCORD_HALF_INT(unsigned short, __half2ushort, __ushort2half)
__SCORD_HALF_INT(long long, __half2ll, __ll2half)
__SCORD_HALF_INT(unsigned long long, __half2ull, __ull2half)
#undef __SCORD_HALF_INT

/* Arithmetic. */
__CUDA_FP16_DECL__ __half __scord_sat(__half a) {
  float f = (float)a;
  return __half(f != f ? 0.0f : f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f);
}
__CUDA_FP16_DECL__ __half __hadd(__half a, __half b) { return __half((float)a + (float)b); }
__CUDA_FP16_DECL__ __half __hsub(__half a, __half b) { return __half((float)a - (float)b); }
__CUDA_FP16_DECL__ __half __hmul(__half a, __half b) { return __half((float)a * (float)b); }
__CUDA_FP16_DECL__ __half __hdiv(__half a, __half b) { return __half((float)a / (float)b); }
__CUDA_FP16_DECL__ __half __hadd_rn(__half a, __half b) { return __hadd(a, b); }
__CUDA_FP16_DECL__ __half __hsub_rn(__half a, __half b) { return __hsub(a, b); }
__CUDA_FP16_DECL__ __half __hmul_rn(__half a, __half b) { return __hmul(a, b); }
__CUDA_FP16_DECL__ __half __hfma(__half a, __half b, __half c) {
  return __half((float)((double)(float)a * (double)(float)b + (double)(float)c));
}
__CUDA_FP16_DECL__ __half __hadd_sat(__half a, __half b) { return __scord_sat(__hadd(a, b)); }
__CUDA_FP16_DECL__ __half __hsub_sat(__half a, __half b) { return __scord_sat(__hsub(a, b)); }
__CUDA_FP16_DECL__ __half __hmul_sat(__half a, __half b) { return __scord_sat(__hmul(a, b)); }
__CUDA_FP16_DECL__ __half __hfma_sat(__half a, __half b, __half c) { return __scord_sat(__hfma(a, b, c)); }
__CUDA_FP16_DECL__ __half __hfma_relu(__half a, __half b, __half c) {
  __half r = __hfma(a, b, c);
  return (float)r < 0.0f ? __half(0.0f) : r;
}
__CUDA_FP16_DECL__ __half __hneg(__half a) { a.__x ^= 0x8000u; return a; }
__CUDA_FP16_DECL__ __half __habs(__half a) { a.__x &= 0x7fffu; return a; }
__CUDA_FP16_DECL__ bool __hisnan(__half a) { return (a.__x & 0x7fffu) > 0x7c00u; }
__CUDA_FP16_DECL__ int __hisinf(__half a) { return (a.__x & 0x7fffu) == 0x7c00u ? ((a.__x & 0x8000u) ? -1 : 1) : 0; }
__CUDA_FP16_DECL__ __half __hmax(__half a, __half b) {
  if (__hisnan(a)) return b;
  if (__hisnan(b)) return a;
  return (float)a > (float)b ? a : b;
}
__CUDA_FP16_DECL__ __half __hmin(__half a, __half b) {
  if (__hisnan(a)) return b;
  if (__hisnan(b)) return a;
  return (float)a < (float)b ? a : b;
}
__CUDA_FP16_DECL__ __half __hmax_nan(__half a, __half b) { return __hisnan(a) ? a : __hisnan(b) ? b : __hmax(a, b); }
__CUDA_FP16_DECL__ __half __hmin_nan(__half a, __half b) { return __hisnan(a) ? a : __hisnan(b) ? b : __hmin(a, b); }

#define __SCORD_HALF2_BINARY(NAME2, NAME)                                                              \
  __CUDA_FP16_DECL__ __half2 NAME2(__half2 a, __half2 b) { return __half2(NAME(a.x, b.x), NAME(a.y, b.y)); }
__SCORD_HALF2_BINARY(__hadd2, __hadd)
__SCORD_HALF2_BINARY(__hsub2, __hsub)
__SCORD_HALF2_BINARY(__hmul2, __hmul)
__SCORD_HALF2_BINARY(__h2div, __hdiv)
__SCORD_HALF2_BINARY(__hadd2_rn, __hadd)
__SCORD_HALF2_BINARY(__hsub2_rn, __hsub)
__SCORD_HALF2_BINARY(__hmul2_rn, __hmul)
__SCORD_HALF2_BINARY(__hadd2_sat, __hadd_sat)
__SCORD_HALF2_BINARY(__hsub2_sat, __hsub_sat)
__SCORD_HALF2_BINARY(__hmul2_sat, __hmul_sat)
__SCORD_HALF2_BINARY(__hmax2, __hmax)
__SCORD_HALF2_BINARY(__hmin2, __hmin)
__SCORD_HALF2_BINARY(__hmax2_nan, __hmax_nan)
__SCORD_HALF2_BINARY(__hmin2_nan, __hmin_nan)
#undef __SCORD_HALF2_BINARY
__CUDA_FP16_DECL__ __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
__CUDA_FP16_DECL__ __half2 __hfma2_sat(__half2 a, __half2 b, __half2 c) {
  return __half2(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y));
}
__CUDA_FP16_DECL__ __half2 __hfma2_relu(__half2 a, __half2 b, __half2 c) {
  return __half2(__hfma_relu(a.x, b.x, c.x), __hfma_relu(a.y, b.y, c.y));
}
__CUDA_FP16_DECL__ __half2 __hneg2(__half2 a) { return __half2(__hneg(a.x), __hneg(a.y)); }
__CUDA_FP16_DECL__ __half2 __habs2(__half2 a) { return __half2(__habs(a.x), __habs(a.y)); }
__CUDA_FP16_DECL__ __half2 __hcmadd(__half2 a, __half2 b, __half2 c) {
  /* (a.x + i a.y)(b.x + i b.y) + c */
  return __half2(__half((float)a.x * (float)b.x - (float)a.y * (float)b.y + (float)c.x),
                 __half((float)a.x * (float)b.y + (float)a.y * (float)b.x + (float)c.y));
}
__CUDA_FP16_DECL__ __half2 __hisnan2(__half2 a) {
  return __half2(__half(__hisnan(a.x) ? 1.0f : 0.0f), __half(__hisnan(a.y) ? 1.0f : 0.0f));
}

/* Comparisons: ordered ones are false with a NaN; the ...u forms are true. */
__CUDA_FP16_DECL__ bool __heq(__half a, __half b) { return (float)a == (float)b; }
__CUDA_FP16_DECL__ bool __hne(__half a, __half b) { return !__hisnan(a) && !__hisnan(b) && (float)a != (float)b; }
__CUDA_FP16_DECL__ bool __hle(__half a, __half b) { return (float)a <= (float)b; }
__CUDA_FP16_DECL__ bool __hge(__half a, __half b) { return (float)a >= (float)b; }
__CUDA_FP16_DECL__ bool __hlt(__half a, __half b) { return (float)a < (float)b; }
__CUDA_FP16_DECL__ bool __hgt(__half a, __half b) { return (float)a > (float)b; }
__CUDA_FP16_DECL__ bool __hequ(__half a, __half b) { return __hisnan(a) || __hisnan(b) || (float)a == (float)b; }
__CUDA_FP16_DECL__ bool __hneu(__half a, __half b) { return (float)a != (float)b; }
__CUDA_FP16_DECL__ bool __hleu(__half a, __half b) { return !((float)a > (float)b); }
__CUDA_FP16_DECL__ bool __hgeu(__half a, __half b) { return !((float)a < (float)b); }
__CUDA_FP16_DECL__ bool __hltu(__half a, __half b) { return !((float)a >= (float)b); }
__CUDA_FP16_DECL__ bool __hgtu(__half a, __half b) { return !((float)a <= (float)b); }
#define __SCORD_HALF2_CMP(NAME)                                                                        \
  __CUDA_FP16_DECL__ __half2 NAME##2(__half2 a, __half2 b) {                                           \
    return __half2(__half(NAME(a.x, b.x) ? 1.0f : 0.0f), __half(NAME(a.y, b.y) ? 1.0f : 0.0f));        \
  }
__SCORD_HALF2_CMP(__heq) __SCORD_HALF2_CMP(__hne) __SCORD_HALF2_CMP(__hle) __SCORD_HALF2_CMP(__hge)
__SCORD_HALF2_CMP(__hlt) __SCORD_HALF2_CMP(__hgt) __SCORD_HALF2_CMP(__hequ) __SCORD_HALF2_CMP(__hneu)
__SCORD_HALF2_CMP(__hleu) __SCORD_HALF2_CMP(__hgeu) __SCORD_HALF2_CMP(__hltu) __SCORD_HALF2_CMP(__hgtu)
#undef __SCORD_HALF2_CMP
#define __SCORD_HALF2_BCMP(NAME, BNAME)                                                                \
  __CUDA_FP16_DECL__ bool BNAME(__half2 a, __half2 b) { return NAME(a.x, b.x) && NAME(a.y, b.y); }
__SCORD_HALF2_BCMP(__heq, __hbeq2) __SCORD_HALF2_BCMP(__hne, __hbne2) __SCORD_HALF2_BCMP(__hle, __hble2)
__SCORD_HALF2_BCMP(__hge, __hbge2) __SCORD_HALF2_BCMP(__hlt, __hblt2) __SCORD_HALF2_BCMP(__hgt, __hbgt2)
__SCORD_HALF2_BCMP(__hequ, __hbequ2) __SCORD_HALF2_BCMP(__hneu, __hbneu2) __SCORD_HALF2_BCMP(__hleu, __hbleu2)
__SCORD_HALF2_BCMP(__hgeu, __hbgeu2) __SCORD_HALF2_BCMP(__hltu, __hbltu2) __SCORD_HALF2_BCMP(__hgtu, __hbgtu2)
#undef __SCORD_HALF2_BCMP

/* Math functions through float. */
#define __SCORD_HALF_MATH(NAME, EXPR)                                                                  \
  __CUDA_FP16_DECL__ __half NAME(__half h) { float x = (float)h; return __half(EXPR); }                \
  __CUDA_FP16_DECL__ __half2 NAME##2_scord(__half2 h) { return __half2(NAME(h.x), NAME(h.y)); }
__SCORD_HALF_MATH(hsqrt, __builtin_sqrtf(x))
__SCORD_HALF_MATH(hrsqrt, 1.0f / __builtin_sqrtf(x))
__SCORD_HALF_MATH(hrcp, 1.0f / x)
__SCORD_HALF_MATH(hexp, __builtin_expf(x))
__SCORD_HALF_MATH(hexp2, __builtin_exp2f(x))
__SCORD_HALF_MATH(hexp10, __builtin_expf(x * 2.302585093f))
__SCORD_HALF_MATH(hlog, __builtin_logf(x))
__SCORD_HALF_MATH(hlog2, __builtin_log2f(x))
__SCORD_HALF_MATH(hlog10, __builtin_log10f(x))
__SCORD_HALF_MATH(hsin, __builtin_sinf(x))
__SCORD_HALF_MATH(hcos, __builtin_cosf(x))
__SCORD_HALF_MATH(htanh, __builtin_tanhf(x))
__SCORD_HALF_MATH(hfloor, __builtin_floorf(x))
__SCORD_HALF_MATH(hceil, __builtin_ceilf(x))
__SCORD_HALF_MATH(htrunc, __builtin_truncf(x))
__SCORD_HALF_MATH(hrint, __builtin_rintf(x))
#undef __SCORD_HALF_MATH
#define __SCORD_HALF2_MATH(NAME)                                                                       \
  __CUDA_FP16_DECL__ __half2 h2##NAME(__half2 h) { return h##NAME##2_scord(h); }
__SCORD_HALF2_MATH(sqrt) __SCORD_HALF2_MATH(rsqrt) __SCORD_HALF2_MATH(rcp) __SCORD_HALF2_MATH(exp)
__SCORD_HALF2_MATH(exp2) __SCORD_HALF2_MATH(exp10) __SCORD_HALF2_MATH(log) __SCORD_HALF2_MATH(log2)
__SCORD_HALF2_MATH(log10) __SCORD_HALF2_MATH(sin) __SCORD_HALF2_MATH(cos) __SCORD_HALF2_MATH(tanh)
__SCORD_HALF2_MATH(floor) __SCORD_HALF2_MATH(ceil) __SCORD_HALF2_MATH(trunc) __SCORD_HALF2_MATH(rint)
#undef __SCORD_HALF2_MATH

/* Operators. */
__CUDA_FP16_DECL__ __half operator+(const __half &a, const __half &b) { return __hadd(a, b); }
__CUDA_FP16_DECL__ __half operator-(const __half &a, const __half &b) { return __hsub(a, b); }
__CUDA_FP16_DECL__ __half operator*(const __half &a, const __half &b) { return __hmul(a, b); }
__CUDA_FP16_DECL__ __half operator/(const __half &a, const __half &b) { return __hdiv(a, b); }
__CUDA_FP16_DECL__ __half &operator+=(__half &a, const __half &b) { return a = __hadd(a, b); }
__CUDA_FP16_DECL__ __half &operator-=(__half &a, const __half &b) { return a = __hsub(a, b); }
__CUDA_FP16_DECL__ __half &operator*=(__half &a, const __half &b) { return a = __hmul(a, b); }
__CUDA_FP16_DECL__ __half &operator/=(__half &a, const __half &b) { return a = __hdiv(a, b); }
__CUDA_FP16_DECL__ __half &operator++(__half &h) { return h = __hadd(h, __half(1.0f)); }
__CUDA_FP16_DECL__ __half &operator--(__half &h) { return h = __hsub(h, __half(1.0f)); }
__CUDA_FP16_DECL__ __half operator++(__half &h, int) { __half r = h; ++h; return r; }
__CUDA_FP16_DECL__ __half operator--(__half &h, int) { __half r = h; --h; return r; }
__CUDA_FP16_DECL__ __half operator+(const __half &h) { return h; }
__CUDA_FP16_DECL__ __half operator-(const __half &h) { return __hneg(h); }
__CUDA_FP16_DECL__ bool operator==(const __half &a, const __half &b) { return __heq(a, b); }
__CUDA_FP16_DECL__ bool operator!=(const __half &a, const __half &b) { return __hneu(a, b); }
__CUDA_FP16_DECL__ bool operator<(const __half &a, const __half &b) { return __hlt(a, b); }
__CUDA_FP16_DECL__ bool operator>(const __half &a, const __half &b) { return __hgt(a, b); }
__CUDA_FP16_DECL__ bool operator<=(const __half &a, const __half &b) { return __hle(a, b); }
__CUDA_FP16_DECL__ bool operator>=(const __half &a, const __half &b) { return __hge(a, b); }
__CUDA_FP16_DECL__ __half2 operator+(const __half2 &a, const __half2 &b) { return __hadd2(a, b); }
__CUDA_FP16_DECL__ __half2 operator-(const __half2 &a, const __half2 &b) { return __hsub2(a, b); }
__CUDA_FP16_DECL__ __half2 operator*(const __half2 &a, const __half2 &b) { return __hmul2(a, b); }
__CUDA_FP16_DECL__ __half2 operator/(const __half2 &a, const __half2 &b) { return __h2div(a, b); }
__CUDA_FP16_DECL__ __half2 &operator+=(__half2 &a, const __half2 &b) { return a = __hadd2(a, b); }
__CUDA_FP16_DECL__ __half2 &operator-=(__half2 &a, const __half2 &b) { return a = __hsub2(a, b); }
__CUDA_FP16_DECL__ __half2 &operator*=(__half2 &a, const __half2 &b) { return a = __hmul2(a, b); }
__CUDA_FP16_DECL__ __half2 &operator/=(__half2 &a, const __half2 &b) { return a = __h2div(a, b); }
__CUDA_FP16_DECL__ __half2 operator+(const __half2 &h) { return h; }
__CUDA_FP16_DECL__ __half2 operator-(const __half2 &h) { return __hneg2(h); }
__CUDA_FP16_DECL__ bool operator==(const __half2 &a, const __half2 &b) { return __hbeq2(a, b); }
__CUDA_FP16_DECL__ bool operator!=(const __half2 &a, const __half2 &b) { return __hbneu2(a, b); }

#if defined(__CUDACC__)
/* Warp shuffles, loads and atomics of halves. */
#define __SCORD_HALF_SHFL(NAME, ARG_T)                                                                 \
  static __device__ __forceinline__ __half NAME(unsigned mask, __half v, ARG_T a, int width = warpSize) { \
    return __ushort_as_half((unsigned short)NAME(mask, (int)v.__x, a, width));                         \
  }                                                                                                    \
  static __device__ __forceinline__ __half2 NAME(unsigned mask, __half2 v, ARG_T a, int width = warpSize) { \
    unsigned int bits = (unsigned int)v.x.__x | ((unsigned int)v.y.__x << 16);                         \
    bits = (unsigned int)NAME(mask, (int)bits, a, width);                                              \
    return __half2(__ushort_as_half((unsigned short)bits), __ushort_as_half((unsigned short)(bits >> 16))); \
  }
__SCORD_HALF_SHFL(__shfl_sync, int)
__SCORD_HALF_SHFL(__shfl_up_sync, unsigned int)
__SCORD_HALF_SHFL(__shfl_down_sync, unsigned int)
__SCORD_HALF_SHFL(__shfl_xor_sync, int)
#undef __SCORD_HALF_SHFL
static __device__ __forceinline__ __half __ldg(const __half *p) { return __ushort_as_half(__ldg((const unsigned short *)p)); }
static __device__ __forceinline__ __half2 __ldg(const __half2 *p) {
  unsigned int bits = __ldg((const unsigned int *)p);
  return __half2(__ushort_as_half((unsigned short)bits), __ushort_as_half((unsigned short)(bits >> 16)));
}

/* Atomic addition of halves: a compare-and-swap loop on the 16 or 32 bits that hold them. */
static __device__ __forceinline__ __half atomicAdd(__half *address, __half val) {
  unsigned short *p = (unsigned short *)address;
  unsigned short old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __hadd(__ushort_as_half(assumed), val).__x);
  } while (assumed != old);
  return __ushort_as_half(old);
}
static __device__ __forceinline__ __half2 atomicAdd(__half2 *address, __half2 val) {
  unsigned int *p = (unsigned int *)address;
  unsigned int old = *p, assumed;
  do {
    assumed = old;
    __half2 sum = __hadd2(__half2(__ushort_as_half((unsigned short)assumed), __ushort_as_half((unsigned short)(assumed >> 16))), val);
    old = atomicCAS(p, assumed, (unsigned int)sum.x.__x | ((unsigned int)sum.y.__x << 16));
  } while (assumed != old);
  return __half2(__ushort_as_half((unsigned short)old), __ushort_as_half((unsigned short)(old >> 16)));
}
#endif

/* Channel descriptor of half-precision textures. */
static __inline__ __host__ struct cudaChannelFormatDesc cudaCreateChannelDescHalf(void) {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindFloat);
}
static __inline__ __host__ struct cudaChannelFormatDesc cudaCreateChannelDescHalf2(void) {
  return cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindFloat);
}
static __inline__ __host__ struct cudaChannelFormatDesc cudaCreateChannelDescHalf4(void) {
  return cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindFloat);
}

#endif /* __CUDA_FP16_H__ */
