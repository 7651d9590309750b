/* The atomic functions of CUDA C++ (CUDA C++ Programming Guide, "Atomic Functions"), with their
 * _block and _system forms.
 *
 * The guide says these functions are relaxed: they order nothing around them. So that the
 * simulator sees exactly that in the IR:
 *  - device scope (atomicAdd, ...) uses clang's __scoped_atomic_* builtins with a relaxed order:
 *    `atomicrmw <op> ... monotonic` / `cmpxchg ... monotonic monotonic`; LLVM prints no
 *    syncscope for NVPTX, and an unscoped atomic in this IR means device scope;
 *  - block scope (atomicAdd_block, ...) uses the NVVM builtins clang lowers to
 *    `llvm.nvvm.atomic.<op>.gen.<i|f>.cta.*` (PTX `atom.cta`, relaxed);
 *  - system scope (atomicAdd_system, ...) uses those lowered to `llvm.nvvm.atomic.*.sys.*`.
 * (clang's own __nvvm_atom_<op>_gen_* builtins give seq_cst atomics, which would wrongly make
 * every atomicAdd a release/acquire; they are not used for device scope.) */
#ifndef __SCORD_DEVICE_ATOMIC_FUNCTIONS_H__
#define __SCORD_DEVICE_ATOMIC_FUNCTIONS_H__

#define __SCORD_ATOMIC static __device__ __forceinline__
#define __SCORD_RELAXED_DEVICE __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE

/* An RMW operation on int, unsigned int and unsigned long long in the three scopes. NAME is the
 * CUDA name, OP the scoped builtin's operation, NVVM the NVVM operation name. */
#define __SCORD_ATOMIC_INT_OP(NAME, OP, NVVM)                                                     \
  __SCORD_ATOMIC int NAME(int *p, int v) { return __scoped_atomic_fetch_##OP(p, v, __SCORD_RELAXED_DEVICE); } \
  __SCORD_ATOMIC unsigned int NAME(unsigned int *p, unsigned int v) {                             \
    return __scoped_atomic_fetch_##OP(p, v, __SCORD_RELAXED_DEVICE);                              \
  }                                                                                               \
  __SCORD_ATOMIC int NAME##_block(int *p, int v) { return __nvvm_atom_cta_##NVVM##_gen_i(p, v); } \
  __SCORD_ATOMIC unsigned int NAME##_block(unsigned int *p, unsigned int v) {                     \
    return (unsigned int)__nvvm_atom_cta_##NVVM##_gen_i((int *)p, (int)v);                        \
  }                                                                                               \
  __SCORD_ATOMIC int NAME##_system(int *p, int v) { return __nvvm_atom_sys_##NVVM##_gen_i(p, v); } \
  __SCORD_ATOMIC unsigned int NAME##_system(unsigned int *p, unsigned int v) {                    \
    return (unsigned int)__nvvm_atom_sys_##NVVM##_gen_i((int *)p, (int)v);                        \
  }
#define __SCORD_ATOMIC_ULL_OP(NAME, OP, NVVM)                                                     \
  __SCORD_ATOMIC unsigned long long NAME(unsigned long long *p, unsigned long long v) {           \
    return __scoped_atomic_fetch_##OP(p, v, __SCORD_RELAXED_DEVICE);                              \
  }                                                                                               \
  __SCORD_ATOMIC unsigned long long NAME##_block(unsigned long long *p, unsigned long long v) {    \
    return (unsigned long long)__nvvm_atom_cta_##NVVM##_gen_ll((long long *)p, (long long)v);     \
  }                                                                                               \
  __SCORD_ATOMIC unsigned long long NAME##_system(unsigned long long *p, unsigned long long v) {   \
    return (unsigned long long)__nvvm_atom_sys_##NVVM##_gen_ll((long long *)p, (long long)v);     \
  }

__SCORD_ATOMIC_INT_OP(atomicAdd, add, add)
__SCORD_ATOMIC_ULL_OP(atomicAdd, add, add)
__SCORD_ATOMIC_INT_OP(atomicAnd, and, and)
__SCORD_ATOMIC_ULL_OP(atomicAnd, and, and)
__SCORD_ATOMIC_INT_OP(atomicOr, or, or)
__SCORD_ATOMIC_ULL_OP(atomicOr, or, or)
__SCORD_ATOMIC_INT_OP(atomicXor, xor, xor)
__SCORD_ATOMIC_ULL_OP(atomicXor, xor, xor)

/* atomicSub: PTX has no atom.sub; the narrower scopes add the negation, as CUDA does. */
__SCORD_ATOMIC int atomicSub(int *p, int v) { return __scoped_atomic_fetch_sub(p, v, __SCORD_RELAXED_DEVICE); }
__SCORD_ATOMIC unsigned int atomicSub(unsigned int *p, unsigned int v) {
  return __scoped_atomic_fetch_sub(p, v, __SCORD_RELAXED_DEVICE);
}
__SCORD_ATOMIC int atomicSub_block(int *p, int v) { return __nvvm_atom_cta_add_gen_i(p, -v); }
__SCORD_ATOMIC unsigned int atomicSub_block(unsigned int *p, unsigned int v) {
  return (unsigned int)__nvvm_atom_cta_add_gen_i((int *)p, -(int)v);
}
__SCORD_ATOMIC int atomicSub_system(int *p, int v) { return __nvvm_atom_sys_add_gen_i(p, -v); }
__SCORD_ATOMIC unsigned int atomicSub_system(unsigned int *p, unsigned int v) {
  return (unsigned int)__nvvm_atom_sys_add_gen_i((int *)p, -(int)v);
}

/* Floating-point addition. */
__SCORD_ATOMIC float atomicAdd(float *p, float v) { return __scoped_atomic_fetch_add(p, v, __SCORD_RELAXED_DEVICE); }
__SCORD_ATOMIC float atomicAdd_block(float *p, float v) { return __nvvm_atom_cta_add_gen_f(p, v); }
__SCORD_ATOMIC float atomicAdd_system(float *p, float v) { return __nvvm_atom_sys_add_gen_f(p, v); }
__SCORD_ATOMIC double atomicAdd(double *p, double v) {
  return __scoped_atomic_fetch_add(p, v, __SCORD_RELAXED_DEVICE);
}
__SCORD_ATOMIC double atomicAdd_block(double *p, double v) { return __nvvm_atom_cta_add_gen_d(p, v); }
__SCORD_ATOMIC double atomicAdd_system(double *p, double v) { return __nvvm_atom_sys_add_gen_d(p, v); }

/* Exchange. */
__SCORD_ATOMIC int atomicExch(int *p, int v) { return __scoped_atomic_exchange_n(p, v, __SCORD_RELAXED_DEVICE); }
__SCORD_ATOMIC unsigned int atomicExch(unsigned int *p, unsigned int v) {
  return __scoped_atomic_exchange_n(p, v, __SCORD_RELAXED_DEVICE);
}
__SCORD_ATOMIC unsigned long long atomicExch(unsigned long long *p, unsigned long long v) {
  return __scoped_atomic_exchange_n(p, v, __SCORD_RELAXED_DEVICE);
}
__SCORD_ATOMIC float atomicExch(float *p, float v) {
  return __builtin_bit_cast(float, __scoped_atomic_exchange_n((int *)p, __builtin_bit_cast(int, v), __SCORD_RELAXED_DEVICE));
}
__SCORD_ATOMIC int atomicExch_block(int *p, int v) { return __nvvm_atom_cta_xchg_gen_i(p, v); }
__SCORD_ATOMIC unsigned int atomicExch_block(unsigned int *p, unsigned int v) {
  return (unsigned int)__nvvm_atom_cta_xchg_gen_i((int *)p, (int)v);
}
__SCORD_ATOMIC unsigned long long atomicExch_block(unsigned long long *p, unsigned long long v) {
  return (unsigned long long)__nvvm_atom_cta_xchg_gen_ll((long long *)p, (long long)v);
}
__SCORD_ATOMIC float atomicExch_block(float *p, float v) {
  return __builtin_bit_cast(float, __nvvm_atom_cta_xchg_gen_i((int *)p, __builtin_bit_cast(int, v)));
}
__SCORD_ATOMIC int atomicExch_system(int *p, int v) { return __nvvm_atom_sys_xchg_gen_i(p, v); }
__SCORD_ATOMIC unsigned int atomicExch_system(unsigned int *p, unsigned int v) {
  return (unsigned int)__nvvm_atom_sys_xchg_gen_i((int *)p, (int)v);
}
__SCORD_ATOMIC unsigned long long atomicExch_system(unsigned long long *p, unsigned long long v) {
  return (unsigned long long)__nvvm_atom_sys_xchg_gen_ll((long long *)p, (long long)v);
}
__SCORD_ATOMIC float atomicExch_system(float *p, float v) {
  return __builtin_bit_cast(float, __nvvm_atom_sys_xchg_gen_i((int *)p, __builtin_bit_cast(int, v)));
}

/* Minimum and maximum: signedness follows the pointee type. */
#define __SCORD_ATOMIC_MINMAX(NAME, OP)                                                           \
  __SCORD_ATOMIC int NAME(int *p, int v) { return __scoped_atomic_fetch_##OP(p, v, __SCORD_RELAXED_DEVICE); } \
  __SCORD_ATOMIC unsigned int NAME(unsigned int *p, unsigned int v) {                             \
    return __scoped_atomic_fetch_##OP(p, v, __SCORD_RELAXED_DEVICE);                              \
  }                                                                                               \
  __SCORD_ATOMIC long long NAME(long long *p, long long v) {                                      \
    return __scoped_atomic_fetch_##OP(p, v, __SCORD_RELAXED_DEVICE);                              \
  }                                                                                               \
  __SCORD_ATOMIC unsigned long long NAME(unsigned long long *p, unsigned long long v) {           \
    return __scoped_atomic_fetch_##OP(p, v, __SCORD_RELAXED_DEVICE);                              \
  }                                                                                               \
  __SCORD_ATOMIC int NAME##_block(int *p, int v) { return __nvvm_atom_cta_##OP##_gen_i(p, v); }   \
  __SCORD_ATOMIC unsigned int NAME##_block(unsigned int *p, unsigned int v) {                     \
    return __nvvm_atom_cta_##OP##_gen_ui(p, v);                                                   \
  }                                                                                               \
  __SCORD_ATOMIC long long NAME##_block(long long *p, long long v) {                              \
    return __nvvm_atom_cta_##OP##_gen_ll(p, v);                                                   \
  }                                                                                               \
  __SCORD_ATOMIC unsigned long long NAME##_block(unsigned long long *p, unsigned long long v) {    \
    return __nvvm_atom_cta_##OP##_gen_ull(p, v);                                                  \
  }                                                                                               \
  __SCORD_ATOMIC int NAME##_system(int *p, int v) { return __nvvm_atom_sys_##OP##_gen_i(p, v); }  \
  __SCORD_ATOMIC unsigned int NAME##_system(unsigned int *p, unsigned int v) {                    \
    return __nvvm_atom_sys_##OP##_gen_ui(p, v);                                                   \
  }                                                                                               \
  __SCORD_ATOMIC long long NAME##_system(long long *p, long long v) {                             \
    return __nvvm_atom_sys_##OP##_gen_ll(p, v);                                                   \
  }                                                                                               \
  __SCORD_ATOMIC unsigned long long NAME##_system(unsigned long long *p, unsigned long long v) {   \
    return __nvvm_atom_sys_##OP##_gen_ull(p, v);                                                  \
  }
__SCORD_ATOMIC_MINMAX(atomicMin, min)
__SCORD_ATOMIC_MINMAX(atomicMax, max)

/* Wrapping increment and decrement: ((old >= v) ? 0 : old + 1) and
 * ((old == 0 || old > v) ? v : old - 1). */
__SCORD_ATOMIC unsigned int atomicInc(unsigned int *p, unsigned int v) {
  return __scoped_atomic_fetch_uinc(p, v, __SCORD_RELAXED_DEVICE);
}
__SCORD_ATOMIC unsigned int atomicDec(unsigned int *p, unsigned int v) {
  return __scoped_atomic_fetch_udec(p, v, __SCORD_RELAXED_DEVICE);
}
__SCORD_ATOMIC unsigned int atomicInc_block(unsigned int *p, unsigned int v) { return __nvvm_atom_cta_inc_gen_ui(p, v); }
__SCORD_ATOMIC unsigned int atomicDec_block(unsigned int *p, unsigned int v) { return __nvvm_atom_cta_dec_gen_ui(p, v); }
__SCORD_ATOMIC unsigned int atomicInc_system(unsigned int *p, unsigned int v) { return __nvvm_atom_sys_inc_gen_ui(p, v); }
__SCORD_ATOMIC unsigned int atomicDec_system(unsigned int *p, unsigned int v) { return __nvvm_atom_sys_dec_gen_ui(p, v); }

/* Compare and swap: returns the old value; stores v where it equalled compare. */
#define __SCORD_ATOMIC_CAS(T, NVVM_T, SUFFIX)                                                     \
  __SCORD_ATOMIC T atomicCAS(T *p, T compare, T v) {                                              \
    __scoped_atomic_compare_exchange_n(p, &compare, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED, \
                                       __MEMORY_SCOPE_DEVICE);                                    \
    return compare;                                                                               \
  }                                                                                               \
  __SCORD_ATOMIC T atomicCAS_block(T *p, T compare, T v) {                                        \
    return (T)__nvvm_atom_cta_cas_gen_##SUFFIX((NVVM_T *)p, (NVVM_T)compare, (NVVM_T)v);          \
  }                                                                                               \
  __SCORD_ATOMIC T atomicCAS_system(T *p, T compare, T v) {                                       \
    return (T)__nvvm_atom_sys_cas_gen_##SUFFIX((NVVM_T *)p, (NVVM_T)compare, (NVVM_T)v);          \
  }
__SCORD_ATOMIC_CAS(int, int, i)
__SCORD_ATOMIC_CAS(unsigned int, int, i)
__SCORD_ATOMIC_CAS(unsigned long long, long long, ll)
__SCORD_ATOMIC_CAS(unsigned short, unsigned short, us)

#undef __SCORD_ATOMIC_CAS
#undef __SCORD_ATOMIC_MINMAX
#undef __SCORD_ATOMIC_INT_OP
#undef __SCORD_ATOMIC_ULL_OP
#undef __SCORD_RELAXED_DEVICE
#undef __SCORD_ATOMIC

#endif
