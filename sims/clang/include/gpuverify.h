/* GPUVerify's specification language for CUDA kernels (GPUVerify documentation, "Annotation
 * language"), so that kernels annotated for GPUVerify compile and run here.
 *
 * A simulation runs one execution, so only what one thread can evaluate is checked:
 * __assert(e) and __global_assert(e) fail like assert() (through __assertfail) when e is
 * false. A precondition (__requires, __global_requires) that does not hold for the arguments a
 * run made up puts the run outside what the kernel promises: the thread says so through the
 * hook __scord_unmet_precondition (HOOKS.md) and stops there. Postconditions, invariants,
 * assumptions and axioms describe every execution; they are accepted and ignored. Predicates
 * that speak about other threads or about the accesses a verifier tracks (__other_int,
 * __uniform_bool, __read, __write_offset_bytes, ...) have no value in one execution: they yield
 * __gv_unknown, and an assertion or precondition that depends on one is not checked. */
#ifndef __SCORD_GPUVERIFY_H__
#define __SCORD_GPUVERIFY_H__

/* A value one execution cannot know. Every operator with an unknown operand is unknown. */
struct __gv_unknown {};
#define __GV_FN static __host__ __device__ __forceinline__
#define __GV_BINARY(op)                                                                              \
  template <class T> __GV_FN __gv_unknown operator op(__gv_unknown, const T &) { return {}; }        \
  template <class T> __GV_FN __gv_unknown operator op(const T &, __gv_unknown) { return {}; }        \
  __GV_FN __gv_unknown operator op(__gv_unknown, __gv_unknown) { return {}; }
__GV_BINARY(==) __GV_BINARY(!=) __GV_BINARY(<) __GV_BINARY(<=) __GV_BINARY(>) __GV_BINARY(>=)
__GV_BINARY(&&) __GV_BINARY(||) __GV_BINARY(&) __GV_BINARY(|) __GV_BINARY(^)
__GV_BINARY(+) __GV_BINARY(-) __GV_BINARY(*) __GV_BINARY(/) __GV_BINARY(%) __GV_BINARY(<<) __GV_BINARY(>>)
#undef __GV_BINARY
__GV_FN __gv_unknown operator!(__gv_unknown) { return {}; }
__GV_FN __gv_unknown operator-(__gv_unknown) { return {}; }
__GV_FN __gv_unknown operator~(__gv_unknown) { return {}; }

/* Checking an assertion. */
__GV_FN void __gv_check(bool holds, const char *text, const char *file, int line, const char *function) {
  if (!holds) {
#if defined(__CUDA_ARCH__)
    __assertfail(text, file, (unsigned)line, function, sizeof(char));
#else
    __assert_fail(text, file, line, function);
#endif
  }
}
__GV_FN void __gv_check(__gv_unknown, const char *, const char *, int, const char *) {}

#define __assert(e) __gv_check((e), #e, __FILE__, __LINE__, __func__)
#define __global_assert(e) __assert(e)
#define __assert_fail_gv(e) __assert(e)

/* Checking a precondition: a thread for which it does not hold stops (device code only). */
#if defined(__CUDA_ARCH__)
extern "C" __device__ void __scord_unmet_precondition(const char *text);
#endif
__GV_FN void __gv_require(bool holds, const char *text) {
#if defined(__CUDA_ARCH__)
  if (!holds) __scord_unmet_precondition(text);
#endif
}
__GV_FN void __gv_require(__gv_unknown, const char *) {}

#define __requires(e) __gv_require((e), #e)
#define __global_requires(e) __gv_require((e), #e)

/* Accepted and ignored: they describe all executions. Each is an expression, since GPUVerify
 * puts invariants in loop conditions (`while (__invariant(i < n), i < n)`). */
#define __ensures(e) ((void)0)
#define __global_ensures(e) ((void)0)
#define __invariant(e) ((void)0)
#define __global_invariant(e) ((void)0)
#define __candidate_invariant(e) ((void)0)
#define __candidate_global_invariant(e) ((void)0)
#define __function_wide_invariant(e) ((void)0)
#define __function_wide_candidate_invariant(e) ((void)0)
#define __assume(e) ((void)0)
#define __requires_fresh_array(a) ((void)0)
#define __non_temporal(e) ((void)0)
#define __array_snapshot(dst, src) ((void)0)
/* An axiom may stand where a declaration does. */
#define __axiom(e) static_assert(true, "GPUVerify axiom")

/* Logic. */
__GV_FN bool __implies(bool a, bool b) { return !a || b; }
__GV_FN __gv_unknown __implies(__gv_unknown, bool) { return {}; }
__GV_FN __gv_unknown __implies(bool, __gv_unknown) { return {}; }
__GV_FN __gv_unknown __implies(__gv_unknown, __gv_unknown) { return {}; }
__GV_FN unsigned int __mod_pow2(unsigned int x, unsigned int y) { return x & (y - 1); }
template <class T> __GV_FN T __add_noovfl(T a, T b) { return a + b; }
template <class T> __GV_FN bool __add_noovfl_unsigned(T a, T b) { return a + b >= a; }

/* Facts about other threads or about tracked accesses: unknown in one execution. */
__GV_FN __gv_unknown __enabled(void) { return {}; }
__GV_FN __gv_unknown __same_group(void) { return {}; }
template <class T> __GV_FN __gv_unknown __other_int(const T &) { return {}; }
template <class T> __GV_FN __gv_unknown __other_bool(const T &) { return {}; }
template <class T> __GV_FN __gv_unknown __other_ptr(const T &) { return {}; }
template <class T> __GV_FN __gv_unknown __uniform_int(const T &) { return {}; }
template <class T> __GV_FN __gv_unknown __uniform_bool(const T &) { return {}; }
template <class T> __GV_FN __gv_unknown __distinct_int(const T &) { return {}; }
template <class T> __GV_FN __gv_unknown __distinct_bool(const T &) { return {}; }
template <class T> __GV_FN __gv_unknown __read(const T &) { return {}; }
template <class T> __GV_FN __gv_unknown __write(const T &) { return {}; }
template <class T> __GV_FN __gv_unknown __atomic(const T &) { return {}; }
template <class T> __GV_FN __gv_unknown __no_read(const T &) { return {}; }
template <class T> __GV_FN __gv_unknown __no_write(const T &) { return {}; }
template <class T> __GV_FN __gv_unknown __read_offset(const T &) { return {}; }
template <class T> __GV_FN __gv_unknown __write_offset(const T &) { return {}; }
template <class T> __GV_FN __gv_unknown __read_offset_bytes(const T &) { return {}; }
template <class T> __GV_FN __gv_unknown __write_offset_bytes(const T &) { return {}; }
template <class T> __GV_FN __gv_unknown __ptr_base(const T &) { return {}; }
template <class T> __GV_FN __gv_unknown __ptr_offset(const T &) { return {}; }
template <class T> __GV_FN __gv_unknown __ptr_offset_bytes(const T &) { return {}; }
template <class T, class U> __GV_FN __gv_unknown __read_implies(const T &, const U &) { return {}; }
template <class T, class U> __GV_FN __gv_unknown __write_implies(const T &, const U &) { return {}; }
template <class T, class U> __GV_FN __gv_unknown __atomic_implies(const T &, const U &) { return {}; }
__GV_FN __gv_unknown __return_val_int(void) { return {}; }
__GV_FN __gv_unknown __return_val_bool(void) { return {}; }
__GV_FN __gv_unknown __return_val_ptr(void) { return {}; }
#define __return_val_funptr(T) (__gv_unknown())
#define __return_val(T) (__gv_unknown())
__GV_FN __gv_unknown __old_int(int) { return {}; }
__GV_FN __gv_unknown __old_bool(bool) { return {}; }

#undef __GV_FN

#endif
