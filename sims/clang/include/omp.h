/* The OpenMP runtime functions (OpenMP API specification, "Runtime Library Routines") for
 * programs that use OpenMP on the host beside CUDA. The simulated host program is one
 * WebAssembly thread and is compiled without -fopenmp, so `#pragma omp` directives are ignored
 * and these functions describe a team of one thread: what an OpenMP program sees when it runs
 * with OMP_NUM_THREADS=1. */
#ifndef __SCORD_OMP_H__
#define __SCORD_OMP_H__

#include <time.h>

#if defined(__cplusplus)
extern "C" {
#endif

typedef struct { int __owner; } omp_lock_t;
typedef struct { int __owner, __depth; } omp_nest_lock_t;
typedef enum omp_sched_t { omp_sched_static = 1, omp_sched_dynamic = 2, omp_sched_guided = 3, omp_sched_auto = 4 } omp_sched_t;

static inline void omp_set_num_threads(int n) { (void)n; }
static inline int omp_get_num_threads(void) { return 1; }
static inline int omp_get_max_threads(void) { return 1; }
static inline int omp_get_thread_num(void) { return 0; }
static inline int omp_get_num_procs(void) { return 1; }
static inline int omp_in_parallel(void) { return 0; }
static inline void omp_set_dynamic(int d) { (void)d; }
static inline int omp_get_dynamic(void) { return 0; }
static inline void omp_set_nested(int n) { (void)n; }
static inline int omp_get_nested(void) { return 0; }
static inline int omp_get_level(void) { return 0; }
static inline int omp_get_thread_limit(void) { return 1; }
static inline void omp_set_schedule(omp_sched_t kind, int chunk) { (void)kind; (void)chunk; }
static inline void omp_get_schedule(omp_sched_t *kind, int *chunk) { *kind = omp_sched_static; *chunk = 0; }
static inline double omp_get_wtime(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static inline double omp_get_wtick(void) { return 1e-9; }
static inline void omp_init_lock(omp_lock_t *l) { l->__owner = 0; }
static inline void omp_destroy_lock(omp_lock_t *l) { (void)l; }
static inline void omp_set_lock(omp_lock_t *l) { l->__owner = 1; }
static inline void omp_unset_lock(omp_lock_t *l) { l->__owner = 0; }
static inline int omp_test_lock(omp_lock_t *l) { return l->__owner ? 0 : (l->__owner = 1); }
static inline void omp_init_nest_lock(omp_nest_lock_t *l) { l->__owner = l->__depth = 0; }
static inline void omp_destroy_nest_lock(omp_nest_lock_t *l) { (void)l; }
static inline void omp_set_nest_lock(omp_nest_lock_t *l) { ++l->__depth; }
static inline void omp_unset_nest_lock(omp_nest_lock_t *l) { --l->__depth; }
static inline int omp_test_nest_lock(omp_nest_lock_t *l) { return ++l->__depth; }

#if defined(__cplusplus)
}
#endif

#endif
