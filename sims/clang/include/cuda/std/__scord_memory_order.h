/* cuda::std::memory_order: the C++ memory orders, numbered as clang's __ATOMIC_* orders. */
#ifndef __SCORD_CUDA_STD_MEMORY_ORDER_H__
#define __SCORD_CUDA_STD_MEMORY_ORDER_H__
namespace cuda {
namespace std {
enum memory_order : int {
  memory_order_relaxed = __ATOMIC_RELAXED,
  memory_order_consume = __ATOMIC_CONSUME,
  memory_order_acquire = __ATOMIC_ACQUIRE,
  memory_order_release = __ATOMIC_RELEASE,
  memory_order_acq_rel = __ATOMIC_ACQ_REL,
  memory_order_seq_cst = __ATOMIC_SEQ_CST
};
} // namespace std
} // namespace cuda
#endif
