// Test helper: a CUDA source string compiled by clang (WebAssembly) to device LLVM IR text, with
// the device command line of the clang notes and a small header of its own (no CUDA SDK).

type YowaspClang = typeof import('@yowasp/clang', { with: { 'resolution-mode': 'import' } });
let clang: Promise<YowaspClang> | undefined;

/** Attribute macros, builtin variables, clang's device functions, and two atomics. */
export const MINI_CUDA_HEADER = `#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __host__ __attribute__((host))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define CUDA_VERSION 12000
#include <stddef.h>
#include <__clang_cuda_builtin_vars.h>
#include <__clang_cuda_libdevice_declares.h>
#include <__clang_cuda_device_functions.h>
__device__ inline int atomicAdd(int *p, int v) { return __iAtomicAdd(p, v); }
__device__ inline int atomicAdd_block(int *p, int v) { return __iAtomicAdd_block(p, v); }
__device__ inline int atomicCAS(int *p, int c, int v) { return __iAtomicCAS(p, c, v); }
__device__ inline int atomicExch(int *p, int v) { return __iAtomicExch(p, v); }
`;

export interface DeviceIrOptions {
  /** `-O0` unless given. */
  optimize?: '-O0' | '-O1' | '-O2';
  /** `line-tables-only` unless given. */
  debugInfo?: 'line-tables-only' | 'constructor';
}

/** `source` as `k.cu` compiled for nvptx (32-bit, sm_70) to `-emit-llvm -S` text; throws with clang's messages. */
export async function cudaToDeviceIr(source: string, options: DeviceIrOptions = {}): Promise<string> {
  clang ??= import('@yowasp/clang');
  const { runLLVM } = await clang;
  const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
  const tree = { 'k.cu': bytes(source), inc: { 'cuda_runtime.h': bytes(MINI_CUDA_HEADER) } };
  const args = [
    'clang', '-cc1', '-triple', 'nvptx-nvidia-cuda', '-aux-triple', 'wasm32-unknown-wasip1', '-fcuda-is-device',
    '-target-cpu', 'sm_70', '-x', 'cuda', '-std=c++17', '-emit-llvm', options.optimize ?? '-O0',
    `-debug-info-kind=${options.debugInfo ?? 'line-tables-only'}`, '-I', 'inc',
    '-internal-isystem', '/usr/include/wasm32-wasip1/c++/v1', '-internal-isystem', '/usr/include/c++/v1',
    '-internal-isystem', '/usr/include/wasm32-wasip1', '-internal-isystem', '/usr/include',
    '-include', 'cuda_runtime.h', 'k.cu', '-o', 'k.ll',
  ];
  let messages = '';
  const collect = (b: Uint8Array | null): void => {
    if (b) messages += new TextDecoder().decode(b);
  };
  try {
    const out = await runLLVM(args, tree, { stdout: collect, stderr: collect, fetchProgress: () => undefined });
    const ll = (out as Record<string, unknown>)['k.ll'];
    if (typeof ll === 'string') return ll;
    if (ll instanceof Uint8Array) return new TextDecoder().decode(ll);
    throw new Error('clang produced no k.ll');
  } catch (e) {
    throw new Error(`clang failed: ${messages || String(e)}`);
  }
}
