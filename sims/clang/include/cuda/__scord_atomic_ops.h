/* The memory operations behind cuda::atomic, cuda::atomic_ref and cuda::atomic_thread_fence,
 * each with a C++ memory order and a thread scope, written so that the simulator sees both:
 *
 *  - device and system scope: clang's __scoped_atomic_* builtins with the order and
 *    __MEMORY_SCOPE_DEVICE / __MEMORY_SCOPE_SYSTEM. clang 22 prints NVPTX atomics without a
 *    syncscope, so the IR shows `atomicrmw add ptr %p, i32 %v release`, `load atomic ... acquire`,
 *    `cmpxchg ... acq_rel acquire`, `fence seq_cst`: ordered, and device scope (an unscoped atomic
 *    in this IR means device scope to the simulator). Should clang start printing syncscopes for
 *    NVPTX, these builtins carry them with no change here;
 *  - block scope (and thread scope, which is treated as block scope) in device code: inline PTX
 *    with the order and `.cta` scope spelled out (`atom.release.cta.add.u32`,
 *    `ld.acquire.cta.b32`, `st.relaxed.cta.b32`, `fence.acq_rel.cta`), because no builtin carries a
 *    block scope together with an order. seq_cst is `fence.sc.cta` followed by the acquire (or,
 *    for stores, relaxed) form. 1- and 2-byte objects have no PTX atomics; at block scope they use
 *    the device-scope builtins;
 *  - host code: the builtins (the host program is single-threaded WebAssembly).
 * The order of an operation is a run-time argument, so at -O0 clang and the code below select the
 * instruction with a switch over the orders. */
#ifndef __SCORD_CUDA_ATOMIC_OPS_H__
#define __SCORD_CUDA_ATOMIC_OPS_H__

#include <stddef.h>
#include <type_traits>

namespace cuda {

/* libcu++'s values: the scopes of the __ATOMIC_* names nvcc defines. */
enum thread_scope { thread_scope_system = 0, thread_scope_device = 1, thread_scope_block = 2, thread_scope_thread = 3 };

namespace __scord {

enum order : int { o_relaxed = 0, o_consume = 1, o_acquire = 2, o_release = 3, o_acq_rel = 4, o_seq_cst = 5 };
enum rmw : int { rmw_add, rmw_and, rmw_or, rmw_xor, rmw_min, rmw_max, rmw_exch };

template <class T> using bits_t = typename ::std::conditional<sizeof(T) == 8, unsigned long long, unsigned int>::type;

template <class To, class From> __host__ __device__ __forceinline__ To bits_as(From from) {
  static_assert(sizeof(To) == sizeof(From), "same size");
  To to;
  __builtin_memcpy(&to, &from, sizeof(To));
  return to;
}

/* The order a compare-exchange failure may have: not release, not stronger than success. */
__host__ __device__ __forceinline__ int failure_order(int success) {
  return success == o_acq_rel ? o_acquire : success == o_release ? o_relaxed : success;
}

/* Builtins for device and system scope, and for host code. */
template <int MemoryScope> struct builtin_ops {
  template <class T> static __host__ __device__ __forceinline__ T load(const T *p, int o) {
    T r;
    __scoped_atomic_load(p, &r, o, MemoryScope);
    return r;
  }
  template <class T> static __host__ __device__ __forceinline__ void store(T *p, T v, int o) {
    __scoped_atomic_store(p, &v, o, MemoryScope);
  }
  template <class T> static __host__ __device__ __forceinline__ T exchange(T *p, T v, int o) {
    T r;
    __scoped_atomic_exchange(p, &v, &r, o, MemoryScope);
    return r;
  }
  template <class T>
  static __host__ __device__ __forceinline__ bool compare_exchange(T *p, T *expected, T desired, bool weak, int success,
                                                                   int failure) {
    return __scoped_atomic_compare_exchange(p, expected, &desired, weak, success, failure, MemoryScope);
  }
  template <int Op, class T> static __host__ __device__ __forceinline__ T fetch(T *p, T v, int o) {
    if constexpr (Op == rmw_exch) {
      return exchange(p, v, o);
    } else if constexpr (::std::is_floating_point<T>::value && Op != rmw_add) {
      T expected = load(p, o_relaxed);
      for (;;) {
        T desired = Op == rmw_min ? (v < expected ? v : expected) : (expected < v ? v : expected);
        if (compare_exchange(p, &expected, desired, false, o, failure_order(o))) return expected;
      }
    } else if constexpr (Op == rmw_add) {
      return __scoped_atomic_fetch_add(p, v, o, MemoryScope);
    } else if constexpr (Op == rmw_and) {
      return __scoped_atomic_fetch_and(p, v, o, MemoryScope);
    } else if constexpr (Op == rmw_or) {
      return __scoped_atomic_fetch_or(p, v, o, MemoryScope);
    } else if constexpr (Op == rmw_xor) {
      return __scoped_atomic_fetch_xor(p, v, o, MemoryScope);
    } else if constexpr (Op == rmw_min) {
      return __scoped_atomic_fetch_min(p, v, o, MemoryScope);
    } else {
      return __scoped_atomic_fetch_max(p, v, o, MemoryScope);
    }
  }
  static __host__ __device__ __forceinline__ void fence(int o) { __scoped_atomic_thread_fence(o, MemoryScope); }
};

#if defined(__CUDA_ARCH__)
/* Inline PTX for block scope. SEM_SWITCH expands one asm statement per order. */
#define __SCORD_SEM_SWITCH(o, STMT)                                                                        \
  switch (o) {                                                                                            \
  case o_relaxed: STMT("relaxed", ""); break;                                                             \
  case o_release: STMT("release", ""); break;                                                             \
  case o_acq_rel: STMT("acq_rel", ""); break;                                                             \
  case o_seq_cst: STMT("acquire", "fence.sc.cta;\n\t"); break;                                            \
  default: STMT("acquire", ""); break;                                                                    \
  }

struct cta_ops {
  template <class T> static __device__ __forceinline__ T load(const T *p, int o) {
    if constexpr (sizeof(T) != 4 && sizeof(T) != 8) {
      return builtin_ops<__MEMORY_SCOPE_WRKGRP>::load(p, o);
    } else if constexpr (sizeof(T) == 4) {
      unsigned int r;
      if (o == o_relaxed)
        asm volatile("ld.relaxed.cta.b32 %0, [%1];" : "=r"(r) : "r"(p) : "memory");
      else if (o == o_seq_cst)
        asm volatile("fence.sc.cta;\n\tld.acquire.cta.b32 %0, [%1];" : "=r"(r) : "r"(p) : "memory");
      else
        asm volatile("ld.acquire.cta.b32 %0, [%1];" : "=r"(r) : "r"(p) : "memory");
      return bits_as<T>(r);
    } else {
      unsigned long long r;
      if (o == o_relaxed)
        asm volatile("ld.relaxed.cta.b64 %0, [%1];" : "=l"(r) : "r"(p) : "memory");
      else if (o == o_seq_cst)
        asm volatile("fence.sc.cta;\n\tld.acquire.cta.b64 %0, [%1];" : "=l"(r) : "r"(p) : "memory");
      else
        asm volatile("ld.acquire.cta.b64 %0, [%1];" : "=l"(r) : "r"(p) : "memory");
      return bits_as<T>(r);
    }
  }
  template <class T> static __device__ __forceinline__ void store(T *p, T v, int o) {
    if constexpr (sizeof(T) != 4 && sizeof(T) != 8) {
      builtin_ops<__MEMORY_SCOPE_WRKGRP>::store(p, v, o);
    } else if constexpr (sizeof(T) == 4) {
      unsigned int b = bits_as<unsigned int>(v);
      if (o == o_relaxed)
        asm volatile("st.relaxed.cta.b32 [%0], %1;" ::"r"(p), "r"(b) : "memory");
      else if (o == o_seq_cst)
        asm volatile("fence.sc.cta;\n\tst.relaxed.cta.b32 [%0], %1;" ::"r"(p), "r"(b) : "memory");
      else
        asm volatile("st.release.cta.b32 [%0], %1;" ::"r"(p), "r"(b) : "memory");
    } else {
      unsigned long long b = bits_as<unsigned long long>(v);
      if (o == o_relaxed)
        asm volatile("st.relaxed.cta.b64 [%0], %1;" ::"r"(p), "l"(b) : "memory");
      else if (o == o_seq_cst)
        asm volatile("fence.sc.cta;\n\tst.relaxed.cta.b64 [%0], %1;" ::"r"(p), "l"(b) : "memory");
      else
        asm volatile("st.release.cta.b64 [%0], %1;" ::"r"(p), "l"(b) : "memory");
    }
  }
  template <class T>
  static __device__ __forceinline__ bool compare_exchange(T *p, T *expected, T desired, bool weak, int success,
                                                          int failure) {
    if constexpr (sizeof(T) != 4 && sizeof(T) != 8) {
      return builtin_ops<__MEMORY_SCOPE_WRKGRP>::compare_exchange(p, expected, desired, weak, success, failure);
    } else {
      /* One PTX order for both outcomes: the stronger of the two. */
      int o = success;
      if (failure == o_seq_cst) o = o_seq_cst;
      else if ((failure == o_acquire || failure == o_consume) && o == o_release) o = o_acq_rel;
      else if ((failure == o_acquire || failure == o_consume) && o == o_relaxed) o = o_acquire;
      typedef bits_t<T> B;
      B cmp = bits_as<B>(*expected), des = bits_as<B>(desired), old;
      if constexpr (sizeof(T) == 4) {
#define __SCORD_STMT(SEM, PRE)                                                                             \
  asm volatile(PRE "atom." SEM ".cta.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "r"(p), "r"(cmp), "r"(des) : "memory")
        __SCORD_SEM_SWITCH(o, __SCORD_STMT)
#undef __SCORD_STMT
      } else {
#define __SCORD_STMT(SEM, PRE)                                                                             \
  asm volatile(PRE "atom." SEM ".cta.cas.b64 %0, [%1], %2, %3;" : "=l"(old) : "r"(p), "l"(cmp), "l"(des) : "memory")
        __SCORD_SEM_SWITCH(o, __SCORD_STMT)
#undef __SCORD_STMT
      }
      if (old == cmp) return true;
      *expected = bits_as<T>(old);
      return false;
    }
  }
  template <class T> static __device__ __forceinline__ T exchange(T *p, T v, int o) { return fetch<rmw_exch>(p, v, o); }

  template <int Op, class T> static __device__ __forceinline__ T fetch(T *p, T v, int o) {
    if constexpr (sizeof(T) != 4 && sizeof(T) != 8) {
      return builtin_ops<__MEMORY_SCOPE_WRKGRP>::template fetch<Op>(p, v, o);
    } else if constexpr (::std::is_floating_point<T>::value) {
      if constexpr (Op == rmw_add) {
        T r;
        if constexpr (sizeof(T) == 4) {
#define __SCORD_STMT(SEM, PRE)                                                                             \
  asm volatile(PRE "atom." SEM ".cta.add.f32 %0, [%1], %2;" : "=f"(r) : "r"(p), "f"(v) : "memory")
          __SCORD_SEM_SWITCH(o, __SCORD_STMT)
#undef __SCORD_STMT
        } else {
#define __SCORD_STMT(SEM, PRE)                                                                             \
  asm volatile(PRE "atom." SEM ".cta.add.f64 %0, [%1], %2;" : "=d"(r) : "r"(p), "d"(v) : "memory")
          __SCORD_SEM_SWITCH(o, __SCORD_STMT)
#undef __SCORD_STMT
        }
        return r;
      } else if constexpr (Op == rmw_exch) {
        return bits_as<T>(fetch<rmw_exch>((bits_t<T> *)p, bits_as<bits_t<T>>(v), o));
      } else {
        T expected = load(p, o_relaxed);
        for (;;) {
          T desired = Op == rmw_min ? (v < expected ? v : expected) : (expected < v ? v : expected);
          if (compare_exchange(p, &expected, desired, false, o, failure_order(o))) return expected;
        }
      }
    } else {
      typedef bits_t<T> B;
      B b = (B)v, r;
      constexpr bool is_signed = ::std::is_signed<T>::value;
      if constexpr (sizeof(T) == 4) {
#define __SCORD_RMW32(OPTYPE) { __SCORD_SEM_SWITCH(o, __SCORD_STMT32_##OPTYPE) }
#define __SCORD_STMT(SEM, PRE, OPTYPE)                                                                     \
  asm volatile(PRE "atom." SEM ".cta." OPTYPE " %0, [%1], %2;" : "=r"(r) : "r"(p), "r"(b) : "memory")
#define __SCORD_STMT32_add(SEM, PRE) __SCORD_STMT(SEM, PRE, "add.u32")
#define __SCORD_STMT32_and(SEM, PRE) __SCORD_STMT(SEM, PRE, "and.b32")
#define __SCORD_STMT32_or(SEM, PRE) __SCORD_STMT(SEM, PRE, "or.b32")
#define __SCORD_STMT32_xor(SEM, PRE) __SCORD_STMT(SEM, PRE, "xor.b32")
#define __SCORD_STMT32_mins(SEM, PRE) __SCORD_STMT(SEM, PRE, "min.s32")
#define __SCORD_STMT32_minu(SEM, PRE) __SCORD_STMT(SEM, PRE, "min.u32")
#define __SCORD_STMT32_maxs(SEM, PRE) __SCORD_STMT(SEM, PRE, "max.s32")
#define __SCORD_STMT32_maxu(SEM, PRE) __SCORD_STMT(SEM, PRE, "max.u32")
#define __SCORD_STMT32_exch(SEM, PRE) __SCORD_STMT(SEM, PRE, "exch.b32")
        if constexpr (Op == rmw_add) __SCORD_RMW32(add)
        else if constexpr (Op == rmw_and) __SCORD_RMW32(and)
        else if constexpr (Op == rmw_or) __SCORD_RMW32(or)
        else if constexpr (Op == rmw_xor) __SCORD_RMW32(xor)
        else if constexpr (Op == rmw_min && is_signed) __SCORD_RMW32(mins)
        else if constexpr (Op == rmw_min) __SCORD_RMW32(minu)
        else if constexpr (Op == rmw_max && is_signed) __SCORD_RMW32(maxs)
        else if constexpr (Op == rmw_max) __SCORD_RMW32(maxu)
        else __SCORD_RMW32(exch)
#undef __SCORD_STMT
#define __SCORD_STMT(SEM, PRE, OPTYPE)                                                                     \
  asm volatile(PRE "atom." SEM ".cta." OPTYPE " %0, [%1], %2;" : "=l"(r) : "r"(p), "l"(b) : "memory")
      } else {
#define __SCORD_STMT64_add(SEM, PRE) __SCORD_STMT(SEM, PRE, "add.u64")
#define __SCORD_STMT64_and(SEM, PRE) __SCORD_STMT(SEM, PRE, "and.b64")
#define __SCORD_STMT64_or(SEM, PRE) __SCORD_STMT(SEM, PRE, "or.b64")
#define __SCORD_STMT64_xor(SEM, PRE) __SCORD_STMT(SEM, PRE, "xor.b64")
#define __SCORD_STMT64_mins(SEM, PRE) __SCORD_STMT(SEM, PRE, "min.s64")
#define __SCORD_STMT64_minu(SEM, PRE) __SCORD_STMT(SEM, PRE, "min.u64")
#define __SCORD_STMT64_maxs(SEM, PRE) __SCORD_STMT(SEM, PRE, "max.s64")
#define __SCORD_STMT64_maxu(SEM, PRE) __SCORD_STMT(SEM, PRE, "max.u64")
#define __SCORD_STMT64_exch(SEM, PRE) __SCORD_STMT(SEM, PRE, "exch.b64")
#define __SCORD_RMW64(OPTYPE) { __SCORD_SEM_SWITCH(o, __SCORD_STMT64_##OPTYPE) }
        if constexpr (Op == rmw_add) __SCORD_RMW64(add)
        else if constexpr (Op == rmw_and) __SCORD_RMW64(and)
        else if constexpr (Op == rmw_or) __SCORD_RMW64(or)
        else if constexpr (Op == rmw_xor) __SCORD_RMW64(xor)
        else if constexpr (Op == rmw_min && is_signed) __SCORD_RMW64(mins)
        else if constexpr (Op == rmw_min) __SCORD_RMW64(minu)
        else if constexpr (Op == rmw_max && is_signed) __SCORD_RMW64(maxs)
        else if constexpr (Op == rmw_max) __SCORD_RMW64(maxu)
        else __SCORD_RMW64(exch)
      }
#undef __SCORD_STMT
      return (T)r;
    }
  }
  static __device__ __forceinline__ void fence(int o) {
    if (o == o_seq_cst)
      asm volatile("fence.sc.cta;" ::: "memory");
    else if (o != o_relaxed)
      asm volatile("fence.acq_rel.cta;" ::: "memory");
  }
};
#undef __SCORD_SEM_SWITCH
#undef __SCORD_RMW32
#undef __SCORD_RMW64
#undef __SCORD_STMT32_add
#undef __SCORD_STMT32_and
#undef __SCORD_STMT32_or
#undef __SCORD_STMT32_xor
#undef __SCORD_STMT32_mins
#undef __SCORD_STMT32_minu
#undef __SCORD_STMT32_maxs
#undef __SCORD_STMT32_maxu
#undef __SCORD_STMT32_exch
#undef __SCORD_STMT64_add
#undef __SCORD_STMT64_and
#undef __SCORD_STMT64_or
#undef __SCORD_STMT64_xor
#undef __SCORD_STMT64_mins
#undef __SCORD_STMT64_minu
#undef __SCORD_STMT64_maxs
#undef __SCORD_STMT64_maxu
#undef __SCORD_STMT64_exch
#endif

/* The operations of one thread scope. */
template <int Scope> struct scope_ops : builtin_ops<__MEMORY_SCOPE_SYSTEM> {};
template <> struct scope_ops<thread_scope_device> : builtin_ops<__MEMORY_SCOPE_DEVICE> {};
#if defined(__CUDA_ARCH__)
template <> struct scope_ops<thread_scope_block> : cta_ops {};
template <> struct scope_ops<thread_scope_thread> : cta_ops {};
#else
template <> struct scope_ops<thread_scope_block> : builtin_ops<__MEMORY_SCOPE_WRKGRP> {};
template <> struct scope_ops<thread_scope_thread> : builtin_ops<__MEMORY_SCOPE_SINGLE> {};
#endif

} // namespace __scord
} // namespace cuda

#endif
