/* Warp match functions and __nanosleep of compute capability 7.0 (CUDA C++ Programming Guide,
 * "Warp Match Functions", "Nanosleep Function"). clang's __clang_cuda_intrinsics.h includes
 * this file by this name; the __match32/__match64 primitives it calls come from there. */
#ifndef __SCORD_SM_70_RT_HPP__
#define __SCORD_SM_70_RT_HPP__

static __device__ __forceinline__ unsigned int __match_any_sync(unsigned mask, unsigned value) {
  return __match32_any_sync(mask, value);
}
static __device__ __forceinline__ unsigned int __match_any_sync(unsigned mask, int value) {
  return __match32_any_sync(mask, (unsigned)value);
}
static __device__ __forceinline__ unsigned int __match_any_sync(unsigned mask, unsigned long value) {
  return sizeof(long) == 8 ? __match64_any_sync(mask, (unsigned long long)value)
                           : __match32_any_sync(mask, (unsigned)value);
}
static __device__ __forceinline__ unsigned int __match_any_sync(unsigned mask, long value) {
  return __match_any_sync(mask, (unsigned long)value);
}
static __device__ __forceinline__ unsigned int __match_any_sync(unsigned mask, unsigned long long value) {
  return __match64_any_sync(mask, value);
}
static __device__ __forceinline__ unsigned int __match_any_sync(unsigned mask, long long value) {
  return __match64_any_sync(mask, (unsigned long long)value);
}
static __device__ __forceinline__ unsigned int __match_any_sync(unsigned mask, float value) {
  return __match32_any_sync(mask, __builtin_bit_cast(unsigned int, value));
}
static __device__ __forceinline__ unsigned int __match_any_sync(unsigned mask, double value) {
  return __match64_any_sync(mask, __builtin_bit_cast(unsigned long long, value));
}

static __device__ __forceinline__ unsigned int __match_all_sync(unsigned mask, unsigned value, int *pred) {
  return __match32_all_sync(mask, value, pred);
}
static __device__ __forceinline__ unsigned int __match_all_sync(unsigned mask, int value, int *pred) {
  return __match32_all_sync(mask, (unsigned)value, pred);
}
static __device__ __forceinline__ unsigned int __match_all_sync(unsigned mask, unsigned long value, int *pred) {
  return sizeof(long) == 8 ? __match64_all_sync(mask, (unsigned long long)value, pred)
                           : __match32_all_sync(mask, (unsigned)value, pred);
}
static __device__ __forceinline__ unsigned int __match_all_sync(unsigned mask, long value, int *pred) {
  return __match_all_sync(mask, (unsigned long)value, pred);
}
static __device__ __forceinline__ unsigned int __match_all_sync(unsigned mask, unsigned long long value,
                                                                int *pred) {
  return __match64_all_sync(mask, value, pred);
}
static __device__ __forceinline__ unsigned int __match_all_sync(unsigned mask, long long value, int *pred) {
  return __match64_all_sync(mask, (unsigned long long)value, pred);
}
static __device__ __forceinline__ unsigned int __match_all_sync(unsigned mask, float value, int *pred) {
  return __match32_all_sync(mask, __builtin_bit_cast(unsigned int, value), pred);
}
static __device__ __forceinline__ unsigned int __match_all_sync(unsigned mask, double value, int *pred) {
  return __match64_all_sync(mask, __builtin_bit_cast(unsigned long long, value), pred);
}

static __device__ __forceinline__ void __nanosleep(unsigned int ns) { __nvvm_nanosleep(ns); }

#endif
