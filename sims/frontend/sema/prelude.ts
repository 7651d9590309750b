// Declarations every CUDA program sees: the runtime API, atomics, fences, barriers, warp
// intrinsics, device math and the C library subset. They are written as CUDA source and read
// by our own parser, so overloads, templates (cudaMalloc's `T **`) and execution spaces follow
// exactly the rules user code follows — an atomic without a matching overload is simply a call
// with no viable candidate.

const VECTOR_ELEMENTS: [string, string][] = [
  ['char', 'signed char'], ['uchar', 'unsigned char'], ['short', 'short'], ['ushort', 'unsigned short'],
  ['int', 'int'], ['uint', 'unsigned int'], ['long', 'long'], ['ulong', 'unsigned long'],
  ['longlong', 'long long'], ['ulonglong', 'unsigned long long'], ['float', 'float'], ['double', 'double'],
];

function makeVectorFunctions(): string {
  const out: string[] = [];
  for (const [prefix, elem] of VECTOR_ELEMENTS) {
    for (let n = 1; n <= 4; n++) {
      const params = ['x', 'y', 'z', 'w'].slice(0, n).map((p) => `${elem} ${p}`).join(', ');
      out.push(`__host__ __device__ ${prefix}${n} make_${prefix}${n}(${params});`);
    }
  }
  return out.join('\n');
}

// CUDA's atomic overloads (CUDA C++ Programming Guide, "Atomic Functions"), each also in
// `_block` and `_system` scope.
const ATOMICS: [string, string[], number][] = [
  // name, value types, number of value parameters
  ['atomicAdd', ['int', 'unsigned int', 'unsigned long long', 'float', 'double'], 1],
  ['atomicSub', ['int', 'unsigned int'], 1],
  ['atomicExch', ['int', 'unsigned int', 'unsigned long long', 'float'], 1],
  ['atomicMin', ['int', 'unsigned int', 'unsigned long long', 'long long'], 1],
  ['atomicMax', ['int', 'unsigned int', 'unsigned long long', 'long long'], 1],
  ['atomicInc', ['unsigned int'], 1],
  ['atomicDec', ['unsigned int'], 1],
  ['atomicCAS', ['int', 'unsigned int', 'unsigned long long', 'unsigned short'], 2],
  ['atomicAnd', ['int', 'unsigned int', 'unsigned long long'], 1],
  ['atomicOr', ['int', 'unsigned int', 'unsigned long long'], 1],
  ['atomicXor', ['int', 'unsigned int', 'unsigned long long'], 1],
];

function makeAtomics(): string {
  const out: string[] = [];
  for (const [name, types, values] of ATOMICS) {
    for (const scope of ['', '_block', '_system']) {
      for (const t of types) {
        const vals = values === 2 ? `${t} compare, ${t} val` : `${t} val`;
        out.push(`__device__ ${t} ${name}${scope}(${t} *address, ${vals});`);
      }
    }
  }
  return out.join('\n');
}

const FLOAT_MATH_1 = [
  'sqrt', 'rsqrt', 'cbrt', 'exp', 'exp2', 'exp10', 'expm1', 'log', 'log2', 'log10', 'log1p', 'sin', 'cos', 'tan',
  'asin', 'acos', 'atan', 'sinh', 'cosh', 'tanh', 'asinh', 'acosh', 'atanh', 'fabs', 'floor', 'ceil', 'round',
  'trunc', 'rint', 'nearbyint', 'erf', 'erfc', 'tgamma', 'lgamma', 'logb',
];
const FLOAT_MATH_2 = ['pow', 'atan2', 'fmod', 'fmin', 'fmax', 'hypot', 'fdim', 'copysign', 'remainder', 'nextafter'];

function makeMath(): string {
  const out: string[] = [];
  for (const f of FLOAT_MATH_1) {
    out.push(`__host__ __device__ double ${f}(double x);`);
    out.push(`__host__ __device__ float ${f}f(float x);`);
    out.push(`__host__ __device__ float ${f}(float x);`);
  }
  for (const f of FLOAT_MATH_2) {
    out.push(`__host__ __device__ double ${f}(double x, double y);`);
    out.push(`__host__ __device__ float ${f}f(float x, float y);`);
    out.push(`__host__ __device__ float ${f}(float x, float y);`);
  }
  for (const f of ['__expf', '__logf', '__log2f', '__log10f', '__sinf', '__cosf', '__tanf', '__saturatef', '__frsqrt_rn', '__fsqrt_rn']) {
    out.push(`__device__ float ${f}(float x);`);
  }
  for (const f of ['__fdividef', '__powf', '__fadd_rn', '__fsub_rn', '__fmul_rn', '__fdiv_rn', '__fadd_rz', '__fmul_rz']) {
    out.push(`__device__ float ${f}(float x, float y);`);
  }
  for (const [t, suffix] of [['int', ''], ['unsigned int', ''], ['long', ''], ['unsigned long', ''], ['long long', ''], ['unsigned long long', ''], ['float', ''], ['double', '']]) {
    out.push(`__host__ __device__ ${t} min(${t} a, ${t} b)${suffix};`);
    out.push(`__host__ __device__ ${t} max(${t} a, ${t} b)${suffix};`);
  }
  return out.join('\n');
}

export const PRELUDE_FILE = '<cuda builtins>';

export const PRELUDE_TEXT = `
enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3, cudaErrorLaunchFailure = 4, cudaErrorLaunchTimeout = 6,
  cudaErrorLaunchOutOfResources = 7, cudaErrorInvalidDeviceFunction = 8, cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevice = 10, cudaErrorInvalidSymbol = 13, cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21, cudaErrorNoDevice = 100, cudaErrorNotReady = 600, cudaErrorIllegalAddress = 700,
  cudaErrorAssert = 710, cudaErrorUnknown = 999 };
typedef enum cudaError cudaError_t;
enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4 };
struct CUstream_st;
typedef struct CUstream_st *cudaStream_t;
struct CUevent_st;
typedef struct CUevent_st *cudaEvent_t;
struct _IO_FILE;
typedef struct _IO_FILE FILE;
enum cudaMemAttach { cudaMemAttachGlobal = 1, cudaMemAttachHost = 2, cudaMemAttachSingle = 4 };

struct cudaDeviceProp {
  char name[256]; size_t totalGlobalMem; size_t sharedMemPerBlock; int regsPerBlock; int warpSize;
  size_t memPitch; int maxThreadsPerBlock; int maxThreadsDim[3]; int maxGridSize[3]; int clockRate;
  size_t totalConstMem; int major; int minor; size_t textureAlignment; int deviceOverlap;
  int multiProcessorCount; int kernelExecTimeoutEnabled; int integrated; int canMapHostMemory;
  int computeMode; int concurrentKernels; int ECCEnabled; int pciBusID; int pciDeviceID;
  int asyncEngineCount; int unifiedAddressing; int memoryClockRate; int memoryBusWidth; int l2CacheSize;
  int maxThreadsPerMultiProcessor; int managedMemory; int concurrentManagedAccess;
  size_t sharedMemPerMultiprocessor; int regsPerMultiprocessor; int cooperativeLaunch;
  size_t sharedMemPerBlockOptin; int maxBlocksPerMultiProcessor; int pageableMemoryAccess;
};
struct cudaFuncAttributes { size_t sharedSizeBytes; size_t constSizeBytes; size_t localSizeBytes;
  int maxThreadsPerBlock; int numRegs; int ptxVersion; int binaryVersion; int maxDynamicSharedSizeBytes; };
enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2, cudaFuncCachePreferEqual = 3 };
enum cudaComputeMode { cudaComputeModeDefault = 0, cudaComputeModeExclusive = 1, cudaComputeModeProhibited = 2, cudaComputeModeExclusiveProcess = 3 };
enum cudaDeviceAttr { cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxSharedMemoryPerBlock = 8, cudaDevAttrWarpSize = 10,
  cudaDevAttrClockRate = 13, cudaDevAttrMultiProcessorCount = 16, cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76, cudaDevAttrConcurrentManagedAccess = 89, cudaDevAttrCooperativeLaunch = 95 };
enum cudaLimit { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2 };
const unsigned int cudaStreamDefault = 0; const unsigned int cudaStreamNonBlocking = 1;
const unsigned int cudaEventDefault = 0; const unsigned int cudaEventBlockingSync = 1; const unsigned int cudaEventDisableTiming = 2;
const unsigned int cudaHostAllocDefault = 0; const unsigned int cudaHostAllocPortable = 1; const unsigned int cudaHostAllocMapped = 2;
const unsigned int cudaHostAllocWriteCombined = 4; const unsigned int cudaHostRegisterDefault = 0; const unsigned int cudaHostRegisterMapped = 2;
const unsigned int cudaDeviceScheduleAuto = 0; const unsigned int cudaDeviceScheduleSpin = 1; const unsigned int cudaDeviceScheduleYield = 2;
const unsigned int cudaDeviceScheduleBlockingSync = 4; const unsigned int cudaDeviceMapHost = 8;
extern const cudaStream_t cudaStreamLegacy;
extern const cudaStream_t cudaStreamPerThread;

extern FILE *stdout;
extern FILE *stderr;

// ---- runtime API (host)
template <typename T> __host__ cudaError_t cudaMalloc(T **devPtr, size_t size);
template <typename T> __host__ cudaError_t cudaMallocManaged(T **devPtr, size_t size, unsigned int flags = 1);
template <typename T> __host__ cudaError_t cudaMallocHost(T **ptr, size_t size);
__host__ cudaError_t cudaFree(void *devPtr);
__host__ cudaError_t cudaFreeHost(void *ptr);
__host__ cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind);
__host__ cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, cudaMemcpyKind kind, cudaStream_t stream = 0);
__host__ cudaError_t cudaMemset(void *devPtr, int value, size_t count);
template <typename T> __host__ cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyHostToDevice);
template <typename T> __host__ cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
__host__ cudaError_t cudaDeviceSynchronize(void);
__host__ cudaError_t cudaDeviceReset(void);
__host__ cudaError_t cudaThreadSynchronize(void);
__host__ __device__ cudaError_t cudaGetLastError(void);
__host__ __device__ cudaError_t cudaPeekAtLastError(void);
__host__ __device__ const char *cudaGetErrorString(cudaError_t error);
__host__ __device__ const char *cudaGetErrorName(cudaError_t error);
__host__ cudaError_t cudaSetDevice(int device);
__host__ cudaError_t cudaGetDevice(int *device);
__host__ cudaError_t cudaGetDeviceCount(int *count);
__host__ cudaError_t cudaStreamCreate(cudaStream_t *stream);
__host__ cudaError_t cudaStreamDestroy(cudaStream_t stream);
__host__ cudaError_t cudaStreamSynchronize(cudaStream_t stream);
__host__ cudaError_t cudaEventCreate(cudaEvent_t *event);
__host__ cudaError_t cudaEventDestroy(cudaEvent_t event);
__host__ cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
__host__ cudaError_t cudaEventSynchronize(cudaEvent_t event);
__host__ cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
__host__ cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
__host__ cudaError_t cudaEventQuery(cudaEvent_t event);
__host__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
__host__ cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
__host__ cudaError_t cudaStreamQuery(cudaStream_t stream);
__host__ cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream = 0);
template <typename T> __host__ cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count, size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t stream = 0);
template <typename T> __host__ cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count, size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t stream = 0);
template <typename T> __host__ cudaError_t cudaMallocAsync(T **devPtr, size_t size, cudaStream_t stream);
__host__ cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream);
template <typename T> __host__ cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags);
template <typename T> __host__ cudaError_t cudaHostGetDevicePointer(T **devPtr, void *hostPtr, unsigned int flags);
__host__ cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags);
__host__ cudaError_t cudaHostUnregister(void *ptr);
__host__ cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
__host__ cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device);
__host__ cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device);
__host__ cudaError_t cudaSetDeviceFlags(unsigned int flags);
__host__ cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value);
__host__ cudaError_t cudaDeviceGetLimit(size_t *value, cudaLimit limit);
__host__ cudaError_t cudaDeviceCanAccessPeer(int *canAccess, int device, int peerDevice);
__host__ cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
__host__ cudaError_t cudaRuntimeGetVersion(int *version);
__host__ cudaError_t cudaDriverGetVersion(int *version);
template <typename F> __host__ cudaError_t cudaFuncSetCacheConfig(F func, cudaFuncCache config);
template <typename F> __host__ cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attr, F func);
template <typename F> __host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, F func, int blockSize, size_t dynamicSMemSize);
__host__ cudaError_t cudaProfilerStart(void);
__host__ cudaError_t cudaProfilerStop(void);

// GCC's atomic builtins, used by host code next to CUDA's system-scope atomics.
template <typename T> __host__ T __sync_fetch_and_add(T *p, T v);
template <typename T> __host__ T __sync_fetch_and_sub(T *p, T v);
template <typename T> __host__ T __sync_fetch_and_or(T *p, T v);
template <typename T> __host__ T __sync_fetch_and_and(T *p, T v);
template <typename T> __host__ T __sync_fetch_and_xor(T *p, T v);
template <typename T> __host__ T __sync_add_and_fetch(T *p, T v);
template <typename T> __host__ T __sync_sub_and_fetch(T *p, T v);
template <typename T> __host__ T __sync_val_compare_and_swap(T *p, T oldval, T newval);
template <typename T> __host__ bool __sync_bool_compare_and_swap(T *p, T oldval, T newval);
template <typename T> __host__ T __sync_lock_test_and_set(T *p, T v);
template <typename T> __host__ void __sync_lock_release(T *p);
__host__ void __sync_synchronize(void);
__host__ __device__ long __builtin_expect(long exp, long c);

// ---- C library (host; printf, malloc, free, memset, memcpy also on the device)
__host__ __device__ int printf(const char *format, ...);
__host__ int fprintf(FILE *stream, const char *format, ...);
__host__ int sprintf(char *str, const char *format, ...);
__host__ int snprintf(char *str, size_t size, const char *format, ...);
__host__ int puts(const char *s);
__host__ int putchar(int c);
__host__ int fflush(FILE *stream);
__host__ __device__ void *malloc(size_t size);
__host__ void *calloc(size_t count, size_t size);
__host__ void *realloc(void *ptr, size_t size);
__host__ __device__ void free(void *ptr);
__host__ __device__ void *memset(void *s, int c, size_t n);
__host__ __device__ void *memcpy(void *dst, const void *src, size_t n);
__host__ int memcmp(const void *a, const void *b, size_t n);
__host__ size_t strlen(const char *s);
__host__ int strcmp(const char *a, const char *b);
__host__ int strncmp(const char *a, const char *b, size_t n);
__host__ char *strcpy(char *dst, const char *src);
__host__ char *strncpy(char *dst, const char *src, size_t n);
__host__ int rand(void);
__host__ void srand(unsigned int seed);
__host__ void exit(int status);
__host__ void abort(void);
__host__ int atoi(const char *s);
__host__ long atol(const char *s);
__host__ double atof(const char *s);
__host__ long strtol(const char *s, char **end, int base);
__host__ __host__ time_t time(time_t *t);
__host__ __device__ int abs(int x);
__host__ __device__ long labs(long x);
__host__ __device__ long long llabs(long long x);
__host__ __device__ void assert(bool condition);
__host__ __device__ void __assert_fail(const char *expr, const char *file, unsigned int line, const char *fn);
__host__ __device__ float __builtin_inff(void);
__host__ __device__ double __builtin_inf(void);
__host__ __device__ float __builtin_nanf(const char *tag);
__host__ __device__ double __builtin_nan(const char *tag);
__host__ __device__ double __builtin_huge_val(void);
__host__ __device__ float __builtin_huge_valf(void);
__host__ __device__ int isnan(double x);
__host__ __device__ int isinf(double x);
__host__ __device__ int isfinite(double x);

// ---- synchronisation (device)
__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int predicate);
__device__ int __syncthreads_and(int predicate);
__device__ int __syncthreads_or(int predicate);
__device__ void __syncwarp(unsigned int mask = 0xffffffff);
__device__ void __threadfence_block(void);
__device__ void __threadfence(void);
__device__ void __threadfence_system(void);
__device__ void __nanosleep(unsigned int ns);

// ---- warp intrinsics (device)
template <typename T> __device__ T __shfl_sync(unsigned int mask, T var, int srcLane, int width = 32);
template <typename T> __device__ T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32);
template <typename T> __device__ T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32);
template <typename T> __device__ T __shfl_xor_sync(unsigned int mask, T var, int laneMask, int width = 32);
__device__ unsigned int __ballot_sync(unsigned int mask, int predicate);
__device__ int __any_sync(unsigned int mask, int predicate);
__device__ int __all_sync(unsigned int mask, int predicate);
__device__ unsigned int __activemask(void);
__device__ unsigned int __match_any_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __match_all_sync(unsigned int mask, unsigned int value, int *pred);
__device__ unsigned int __uni_sync(unsigned int mask, int predicate);
__device__ void __trap(void);
__device__ void __brkpt(void);
__device__ void __prof_trigger(int counter);

// ---- loads, clocks and bit tricks (device)
template <typename T> __device__ T __ldg(const T *ptr);
template <typename T> __device__ T __ldcg(const T *ptr);
template <typename T> __device__ T __ldca(const T *ptr);
template <typename T> __device__ T __ldcs(const T *ptr);
template <typename T> __device__ T __ldlu(const T *ptr);
template <typename T> __device__ T __ldcv(const T *ptr);
template <typename T> __device__ void __stcg(T *ptr, T value);
template <typename T> __device__ void __stwb(T *ptr, T value);
template <typename T> __device__ void __stcs(T *ptr, T value);
template <typename T> __device__ void __stwt(T *ptr, T value);
__device__ unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s);
__device__ unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift);
__device__ unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift);
__device__ unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift);
__device__ unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift);
__device__ int __hadd(int x, int y);
__device__ int __rhadd(int x, int y);
__device__ unsigned int __uhadd(unsigned int x, unsigned int y);
__device__ unsigned int __urhadd(unsigned int x, unsigned int y);
__device__ long long __mul64hi(long long x, long long y);
__device__ unsigned long long __umul64hi(unsigned long long x, unsigned long long y);
__device__ unsigned long long __brevll(unsigned long long x);
__device__ unsigned int umin(unsigned int a, unsigned int b);
__device__ unsigned int umax(unsigned int a, unsigned int b);
__host__ __device__ long long llmin(long long a, long long b);
__host__ __device__ long long llmax(long long a, long long b);
__host__ __device__ unsigned long long ullmin(unsigned long long a, unsigned long long b);
__host__ __device__ unsigned long long ullmax(unsigned long long a, unsigned long long b);
__host__ __device__ long lrintf(float x);
__host__ __device__ long long llrintf(float x);
__host__ __device__ long lroundf(float x);
__host__ __device__ long long llroundf(float x);
__host__ __device__ long lrint(double x);
__host__ __device__ long lround(double x);
__device__ float sinpif(float x);
__device__ float cospif(float x);
__device__ double sinpi(double x);
__device__ double cospi(double x);
__device__ void sincos(double x, double *s, double *c);
__device__ void sincospi(double x, double *s, double *c);
__device__ void sincospif(float x, float *s, float *c);
__device__ void __sincosf(float x, float *s, float *c);
__device__ float normf(int dim, const float *a);
__device__ float norm3df(float a, float b, float c);
__device__ float rnorm3df(float a, float b, float c);
__device__ float rhypotf(float x, float y);
__host__ __device__ int signbit(double x);
__device__ float __uint2float_rn(unsigned int x);
__device__ float __ll2float_rn(long long x);
__device__ float __ull2float_rn(unsigned long long x);
__device__ double __int2double_rn(int x);
__device__ double __uint2double_rn(unsigned int x);
__device__ double __ll2double_rn(long long x);
__device__ float __double2float_rn(double x);
__device__ int __double2int_rn(double x);
__device__ int __double2int_rz(double x);
__device__ unsigned int __double2uint_rn(double x);
__device__ long long __double2ll_rn(double x);
__device__ long long __float2ll_rn(float x);
__device__ long long __float2ll_rz(float x);
__device__ unsigned int __float2uint_rz(float x);
__device__ double __dadd_rn(double x, double y);
__device__ double __dmul_rn(double x, double y);
__device__ double __ddiv_rn(double x, double y);
__device__ double __dsub_rn(double x, double y);
__device__ double __fma_rn(double x, double y, double z);
__host__ __device__ clock_t clock(void);
__device__ long long clock64(void);
__device__ int __popc(unsigned int x);
__device__ int __popcll(unsigned long long x);
__device__ int __clz(int x);
__device__ int __clzll(long long x);
__device__ int __ffs(int x);
__device__ int __ffsll(long long x);
__device__ unsigned int __brev(unsigned int x);
__device__ int __mul24(int x, int y);
__device__ unsigned int __umul24(unsigned int x, unsigned int y);
__device__ int __mulhi(int x, int y);
__device__ unsigned int __umulhi(unsigned int x, unsigned int y);
__device__ int __float2int_rn(float x);
__device__ int __float2int_rz(float x);
__device__ unsigned int __float2uint_rn(float x);
__device__ float __int2float_rn(int x);
__device__ float __int_as_float(int x);
__device__ int __float_as_int(float x);
__device__ float __uint_as_float(unsigned int x);
__device__ unsigned int __float_as_uint(float x);
__device__ double __longlong_as_double(long long x);
__device__ long long __double_as_longlong(double x);
__device__ float fmaf(float a, float b, float c);
__host__ __device__ double fma(double a, double b, double c);
__device__ float __fmaf_rn(float a, float b, float c);
__device__ float rsqrtf(float x);
__device__ float saturatef(float x);
__device__ void sincosf(float x, float *s, float *c);
__device__ unsigned int __sad(int x, int y, unsigned int z);

${makeAtomics()}
${makeMath()}
${makeVectorFunctions()}
`;

/** Type names the prelude declares, which the parser must know before it reads any file. */
export const PRELUDE_TYPE_NAMES = ['cudaError_t', 'cudaError', 'cudaMemcpyKind', 'cudaStream_t', 'cudaEvent_t', 'FILE', 'cudaMemAttach', 'cudaDeviceProp', 'cudaFuncAttributes', 'cudaFuncCache', 'cudaComputeMode', 'cudaDeviceAttr', 'cudaLimit'];

/** Device-side variables: threadIdx and friends. */
export const BUILTIN_VARIABLES: Record<string, { type: 'uint3' | 'dim3' | 'int'; description: string }> = {
  threadIdx: { type: 'uint3', description: 'index of this thread within its block' },
  blockIdx: { type: 'uint3', description: 'index of this block within the grid' },
  blockDim: { type: 'dim3', description: 'number of threads in each dimension of a block' },
  gridDim: { type: 'dim3', description: 'number of blocks in each dimension of the grid' },
  warpSize: { type: 'int', description: 'threads per warp (32)' },
};
