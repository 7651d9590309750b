/* Integer dot products of compute capability 6.1 (CUDA Math API, "Integer Intrinsics"): plain
 * arithmetic on the byte and half-word lanes. */
#ifndef __SCORD_SM_61_INTRINSICS_H__
#define __SCORD_SM_61_INTRINSICS_H__

static __device__ __forceinline__ int __dp4a(int srcA, int srcB, int c) {
  int sum = c;
  for (int i = 0; i < 4; ++i) sum += (int)(signed char)(srcA >> (8 * i)) * (int)(signed char)(srcB >> (8 * i));
  return sum;
}
static __device__ __forceinline__ unsigned int __dp4a(unsigned int srcA, unsigned int srcB, unsigned int c) {
  unsigned int sum = c;
  for (int i = 0; i < 4; ++i) sum += ((srcA >> (8 * i)) & 0xffu) * ((srcB >> (8 * i)) & 0xffu);
  return sum;
}
static __device__ __forceinline__ int __dp4a(char4 a, char4 b, int c) {
  return c + a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}
static __device__ __forceinline__ unsigned int __dp4a(uchar4 a, uchar4 b, unsigned int c) {
  return c + a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}
/* Two 16-bit lanes of A times two bytes of B (the low or high pair, by `hi`). */
static __device__ __forceinline__ int __dp2a_lo(int srcA, int srcB, int c) {
  return c + (int)(short)srcA * (int)(signed char)srcB + (int)(short)(srcA >> 16) * (int)(signed char)(srcB >> 8);
}
static __device__ __forceinline__ unsigned int __dp2a_lo(unsigned int srcA, unsigned int srcB, unsigned int c) {
  return c + (srcA & 0xffffu) * (srcB & 0xffu) + (srcA >> 16) * ((srcB >> 8) & 0xffu);
}
static __device__ __forceinline__ int __dp2a_hi(int srcA, int srcB, int c) {
  return c + (int)(short)srcA * (int)(signed char)(srcB >> 16) +
         (int)(short)(srcA >> 16) * (int)(signed char)(srcB >> 24);
}
static __device__ __forceinline__ unsigned int __dp2a_hi(unsigned int srcA, unsigned int srcB, unsigned int c) {
  return c + (srcA & 0xffffu) * ((srcB >> 16) & 0xffu) + (srcA >> 16) * (srcB >> 24);
}

#endif
