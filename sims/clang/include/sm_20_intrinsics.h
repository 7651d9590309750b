/* Address-space predicates and conversions (CUDA C++ Programming Guide, "Address Space
 * Predicate Functions" and "Address Space Conversion Functions"). */
#ifndef __SCORD_SM_20_INTRINSICS_H__
#define __SCORD_SM_20_INTRINSICS_H__

#define __SCORD_AS(n) __attribute__((address_space(n)))

static __device__ __forceinline__ __attribute__((const)) unsigned int __isGlobal(const void *p) {
  return __nvvm_isspacep_global(p);
}
static __device__ __forceinline__ __attribute__((const)) unsigned int __isShared(const void *p) {
  return __nvvm_isspacep_shared(p);
}
static __device__ __forceinline__ __attribute__((const)) unsigned int __isConstant(const void *p) {
  return __nvvm_isspacep_const(p);
}
static __device__ __forceinline__ __attribute__((const)) unsigned int __isLocal(const void *p) {
  return __nvvm_isspacep_local(p);
}

static __device__ __forceinline__ size_t __cvta_generic_to_global(const void *p) {
  return (size_t)(const void __SCORD_AS(1) *)p;
}
static __device__ __forceinline__ size_t __cvta_generic_to_shared(const void *p) {
  return (size_t)(const void __SCORD_AS(3) *)p;
}
static __device__ __forceinline__ size_t __cvta_generic_to_constant(const void *p) {
  return (size_t)(const void __SCORD_AS(4) *)p;
}
static __device__ __forceinline__ size_t __cvta_generic_to_local(const void *p) {
  return (size_t)(const void __SCORD_AS(5) *)p;
}
static __device__ __forceinline__ void *__cvta_global_to_generic(size_t a) {
  return (void *)(void __SCORD_AS(1) *)a;
}
static __device__ __forceinline__ void *__cvta_shared_to_generic(size_t a) {
  return (void *)(void __SCORD_AS(3) *)a;
}
static __device__ __forceinline__ void *__cvta_constant_to_generic(size_t a) {
  return (void *)(void __SCORD_AS(4) *)a;
}
static __device__ __forceinline__ void *__cvta_local_to_generic(size_t a) {
  return (void *)(void __SCORD_AS(5) *)a;
}
#undef __SCORD_AS

#endif
