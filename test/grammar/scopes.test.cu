// SYNTAX TEST "source.cuda-cpp" "scoped atomics, fences and barriers get scopes of their own"
__global__ void k(unsigned int *c, int *flag) {
  atomicAdd_block(c, 1u);
//^^^^^^^^^^^^^^^ support.function.cuda.atomic.scope-block.scord
  atomicAdd(c, 1u);
//^^^^^^^^^ support.function.cuda.atomic.scope-device.scord
  atomicCAS_system(flag, 0, 1);
//^^^^^^^^^^^^^^^^ support.function.cuda.atomic.scope-system.scord
  atomicExch_block(flag, 0);
//^^^^^^^^^^^^^^^^ support.function.cuda.atomic.scope-block.scord
  __threadfence_block();
//^^^^^^^^^^^^^^^^^^^ support.function.cuda.fence.scope-block.scord
  __threadfence();
//^^^^^^^^^^^^^ support.function.cuda.fence.scope-device.scord
  __threadfence_system();
//^^^^^^^^^^^^^^^^^^^^ support.function.cuda.fence.scope-system.scord
  __syncthreads();
//^^^^^^^^^^^^^ support.function.cuda.barrier.scope-block.scord
  int n = __syncthreads_count(1);
//        ^^^^^^^^^^^^^^^^^^^ support.function.cuda.barrier.scope-block.scord
  __syncwarp();
//^^^^^^^^^^ support.function.cuda.barrier.scope-warp.scord
  myatomicAdd(c);
//^^^^^^^^^^^ - support.function.cuda.atomic.scope-device.scord
  atomicAdd_blocked(c);
//^^^^^^^^^^^^^^^^^ - support.function.cuda.atomic.scope-block.scord
//^^^^^^^^^^^^^^^^^ - support.function.cuda.atomic.scope-device.scord
  int z = 0; // atomicAdd_block in a comment stays a comment
//              ^^^^^^^^^^^^^^^ comment.line.double-slash.cuda-cpp - support.function.cuda.atomic.scope-block.scord
  const char *s = "__threadfence_block()";
//                 ^^^^^^^^^^^^^^^^^^^ string.quoted.double.cuda-cpp - support.function.cuda.fence.scope-block.scord
}
