/* The cuRAND device API (cuRAND documentation, "Device API Overview"), written for the ScoRD
 * simulator in plain CUDA C++.
 *
 * Generators:
 *  - XORWOW (curandState, curandStateXORWOW_t): Marsaglia's xorwow, five 32-bit xorshift words
 *    plus a Weyl sequence added to the output, as the cuRAND documentation describes it;
 *  - Philox4_32_10 (curandStatePhilox4_32_10_t): the counter-based generator of Salmon et al.
 *    (SC'11), ten rounds, key = seed, counter = (offset / 4, subsequence);
 *  - MRG32k3a (curandStateMRG32k3a_t): L'Ecuyer's combined multiple recursive generator;
 *  - MTGP32 (curandStateMtgp32_t): a stand-in with the same sharing rules (one state per block,
 *    at most 256 threads, thread t owning its own words of the state) but a simple
 *    xorshift-multiply mix instead of the Mersenne-twister recursion.
 * Seeding: curand_init(seed, subsequence, offset, state) hashes seed and subsequence
 * (splitmix64) into the state, then skips `offset` outputs one by one. Streams of different
 * subsequences are therefore distinct but are not cuRAND's exact 2^67-spaced subsequences, and
 * values differ from cuRAND's bit for bit; skipahead(n, state) advances by n outputs (in O(n)),
 * skipahead_sequence(n, state) rehashes to another subsequence. Philox is exact in its counter
 * arithmetic, so its subsequences and offsets are exact skips.
 * Normals use the Box-Muller transform, returning the second value of each pair on the next
 * call; curand_poisson uses Knuth's product of uniforms below lambda = 64 and a rounded normal
 * approximation above. */
#ifndef CURAND_KERNEL_H_
#define CURAND_KERNEL_H_

#include "curand.h"

#define QUALIFIERS static __forceinline__ __device__
#define CURAND_2POW32_INV (2.3283064e-10f)
#define CURAND_2POW32_INV_DOUBLE (2.3283064365386963e-10)
#define CURAND_2POW53_INV_DOUBLE (1.1102230246251565e-16)
#define CURAND_2POW32_INV_2PI (2.3283064e-10f * 6.2831855f)
#define CURAND_2POW53_INV_2PI_DOUBLE (1.1102230246251565e-16 * 6.2831853071795860)
#define CURAND_PI_DOUBLE (3.1415926535897932)
#define CURAND_SQRT2 (-1.4142135f)
#define CURAND_SQRT2_DOUBLE (-1.4142135623730951)

/* ---- state types ---- */
struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

struct curandStateMRG32k3a {
  unsigned int s1[3];
  unsigned int s2[3];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;

#define MTGP32_STATE_SIZE 1024
#define MTGP32_STATE_MASK 1023
#define CURAND_NUM_MTGP32_PARAMS 200
#define MTGP32_MAX_NUM_BLOCKS 200
#define THREAD_NUM 256
struct mtgp32_kernel_params {
  unsigned int seed_mix[CURAND_NUM_MTGP32_PARAMS];
};
typedef struct mtgp32_kernel_params mtgp32_kernel_params_t;
struct curandStateMtgp32 {
  unsigned int s[MTGP32_STATE_SIZE];
  int offset;
  int pIdx;
  mtgp32_kernel_params_t *k;
  int precise_double_flag;
};
typedef struct curandStateMtgp32 curandStateMtgp32_t;

/* ---- seeding ---- */
QUALIFIERS unsigned long long __scord_splitmix64(unsigned long long &x) {
  unsigned long long z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

QUALIFIERS unsigned int curand(curandStateXORWOW_t *state) {
  unsigned int t = state->v[0] ^ (state->v[0] >> 2);
  state->v[0] = state->v[1];
  state->v[1] = state->v[2];
  state->v[2] = state->v[3];
  state->v[3] = state->v[4];
  state->v[4] = (state->v[4] ^ (state->v[4] << 4)) ^ (t ^ (t << 1));
  state->d += 362437u;
  return state->v[4] + state->d;
}

QUALIFIERS void skipahead(unsigned long long n, curandStateXORWOW_t *state) {
  for (unsigned long long i = 0; i < n; ++i) curand(state);
}

QUALIFIERS void __scord_xorwow_seed(unsigned long long seed, unsigned long long subsequence, curandStateXORWOW_t *state) {
  unsigned long long x = seed ^ (subsequence * 0xD1B54A32D192ED03ull);
  unsigned long long a = __scord_splitmix64(x), b = __scord_splitmix64(x), c = __scord_splitmix64(x);
  state->v[0] = (unsigned int)a;
  state->v[1] = (unsigned int)(a >> 32);
  state->v[2] = (unsigned int)b;
  state->v[3] = (unsigned int)(b >> 32);
  state->v[4] = (unsigned int)c;
  state->d = (unsigned int)(c >> 32);
  if ((state->v[0] | state->v[1] | state->v[2] | state->v[3] | state->v[4]) == 0) state->v[0] = 0x6c078965u;
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.f;
  state->boxmuller_extra_double = 0.;
}

QUALIFIERS void skipahead_sequence(unsigned long long n, curandStateXORWOW_t *state) {
  unsigned long long seed = ((unsigned long long)state->v[1] << 32) | state->v[0];
  __scord_xorwow_seed(seed ^ ((unsigned long long)state->d << 17), n, state);
}

QUALIFIERS void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                            curandStateXORWOW_t *state) {
  __scord_xorwow_seed(seed, subsequence, state);
  skipahead(offset, state);
}

/* ---- Philox4x32-10 ---- */
QUALIFIERS void __scord_philox_round(uint4 &ctr, uint2 key) {
  const unsigned long long p0 = (unsigned long long)0xD2511F53u * ctr.x;
  const unsigned long long p1 = (unsigned long long)0xCD9E8D57u * ctr.z;
  const unsigned int hi0 = (unsigned int)(p0 >> 32), lo0 = (unsigned int)p0;
  const unsigned int hi1 = (unsigned int)(p1 >> 32), lo1 = (unsigned int)p1;
  ctr = make_uint4(hi1 ^ ctr.y ^ key.x, lo1, hi0 ^ ctr.w ^ key.y, lo0);
}
QUALIFIERS uint4 __scord_philox4x32_10(uint4 ctr, uint2 key) {
  for (int i = 0; i < 10; ++i) {
    if (i > 0) {
      key.x += 0x9E3779B9u;
      key.y += 0xBB67AE85u;
    }
    __scord_philox_round(ctr, key);
  }
  return ctr;
}
QUALIFIERS void __scord_philox_advance(curandStatePhilox4_32_10_t *state, unsigned long long n) {
  unsigned long long lo = ((unsigned long long)state->ctr.y << 32) | state->ctr.x;
  unsigned long long sum = lo + n;
  if (sum < lo && ++state->ctr.z == 0) ++state->ctr.w;
  state->ctr.x = (unsigned int)sum;
  state->ctr.y = (unsigned int)(sum >> 32);
}
QUALIFIERS void skipahead(unsigned long long n, curandStatePhilox4_32_10_t *state) {
  unsigned long long position = (unsigned long long)state->STATE + n;
  __scord_philox_advance(state, position / 4);
  state->STATE = (unsigned int)(position % 4);
  state->output = __scord_philox4x32_10(state->ctr, state->key);
}
QUALIFIERS void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t *state) {
  unsigned long long sub = (((unsigned long long)state->ctr.w << 32) | state->ctr.z) + n;
  state->ctr.z = (unsigned int)sub;
  state->ctr.w = (unsigned int)(sub >> 32);
  state->output = __scord_philox4x32_10(state->ctr, state->key);
}
QUALIFIERS void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                            curandStatePhilox4_32_10_t *state) {
  state->key = make_uint2((unsigned int)seed, (unsigned int)(seed >> 32));
  state->ctr = make_uint4(0u, 0u, (unsigned int)subsequence, (unsigned int)(subsequence >> 32));
  state->STATE = 0;
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.f;
  state->boxmuller_extra_double = 0.;
  state->output = __scord_philox4x32_10(state->ctr, state->key);
  skipahead(offset, state);
}
QUALIFIERS unsigned int curand(curandStatePhilox4_32_10_t *state) {
  unsigned int r = state->STATE == 0 ? state->output.x
                 : state->STATE == 1 ? state->output.y
                 : state->STATE == 2 ? state->output.z
                                     : state->output.w;
  if (++state->STATE == 4) {
    state->STATE = 0;
    __scord_philox_advance(state, 1);
    state->output = __scord_philox4x32_10(state->ctr, state->key);
  }
  return r;
}
QUALIFIERS uint4 curand4(curandStatePhilox4_32_10_t *state) {
  uint4 r;
  r.x = curand(state);
  r.y = curand(state);
  r.z = curand(state);
  r.w = curand(state);
  return r;
}

/* ---- MRG32k3a ---- */
QUALIFIERS double __scord_mrg32k3a_next(curandStateMRG32k3a_t *state) {
  const long long m1 = 4294967087ll, m2 = 4294944443ll;
  long long p1 = (1403580ll * state->s1[1] - 810728ll * state->s1[0]) % m1;
  if (p1 < 0) p1 += m1;
  state->s1[0] = state->s1[1];
  state->s1[1] = state->s1[2];
  state->s1[2] = (unsigned int)p1;
  long long p2 = (527612ll * state->s2[2] - 1370589ll * state->s2[0]) % m2;
  if (p2 < 0) p2 += m2;
  state->s2[0] = state->s2[1];
  state->s2[1] = state->s2[2];
  state->s2[2] = (unsigned int)p2;
  long long r = p1 - p2;
  if (r <= 0) r += m1;
  return (double)r * (1.0 / 4294967088.0);
}
QUALIFIERS unsigned int curand(curandStateMRG32k3a_t *state) {
  return (unsigned int)(__scord_mrg32k3a_next(state) * 4294967296.0);
}
QUALIFIERS void skipahead(unsigned long long n, curandStateMRG32k3a_t *state) {
  for (unsigned long long i = 0; i < n; ++i) __scord_mrg32k3a_next(state);
}
QUALIFIERS void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                            curandStateMRG32k3a_t *state) {
  unsigned long long x = seed ^ (subsequence * 0xD1B54A32D192ED03ull);
  for (int i = 0; i < 3; ++i) {
    state->s1[i] = (unsigned int)(__scord_splitmix64(x) % 4294967087ull) + (i == 0 ? 1u : 0u);
    state->s2[i] = (unsigned int)(__scord_splitmix64(x) % 4294944443ull) + (i == 0 ? 1u : 0u);
  }
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.f;
  state->boxmuller_extra_double = 0.;
  skipahead(offset, state);
}
QUALIFIERS void skipahead_sequence(unsigned long long n, curandStateMRG32k3a_t *state) {
  unsigned long long seed = ((unsigned long long)state->s1[0] << 32) | state->s2[0];
  curand_init(seed, n, 0, state);
}
QUALIFIERS void skipahead_subsequence(unsigned long long n, curandStateMRG32k3a_t *state) {
  skipahead_sequence(n, state);
}

/* ---- MTGP32 stand-in: thread t of the block reads word offset+t+256 and rewrites word
 * offset+t, so one state serves one block of at most 256 threads without conflicts. ---- */
QUALIFIERS unsigned int curand(curandStateMtgp32_t *state) {
  const unsigned int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned int own = ((unsigned int)state->offset + t) & MTGP32_STATE_MASK;
  const unsigned int other = ((unsigned int)state->offset + t + THREAD_NUM) & MTGP32_STATE_MASK;
  unsigned int x = state->s[own] ^ (state->s[other] * 0x9E3779B9u);
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  x += 0x6D2B79F5u;
  state->s[own] = x;
  unsigned int o = x * 0x85EBCA6Bu;
  return o ^ (o >> 16);
}

/* ---- distributions, for every generator ---- */
#define __SCORD_CURAND_DISTRIBUTIONS(STATE)                                                              \
  QUALIFIERS float curand_uniform(STATE *state) { return curand(state) * CURAND_2POW32_INV + CURAND_2POW32_INV / 2.0f; } \
  QUALIFIERS double curand_uniform_double(STATE *state) {                                                \
    unsigned int x = curand(state), y = curand(state);                                                   \
    unsigned long long z = (unsigned long long)x ^ ((unsigned long long)y << (53 - 32));                  \
    return z * CURAND_2POW53_INV_DOUBLE + CURAND_2POW53_INV_DOUBLE / 2.0;                                 \
  }                                                                                                      \
  QUALIFIERS float2 curand_normal2(STATE *state) {                                                       \
    float u = curand_uniform(state), v = curand(state) * CURAND_2POW32_INV_2PI;                          \
    float s = sqrtf(-2.0f * logf(u));                                                                    \
    return make_float2(s * sinf(v), s * cosf(v));                                                        \
  }                                                                                                      \
  QUALIFIERS double2 curand_normal2_double(STATE *state) {                                               \
    double u = curand_uniform_double(state), v = curand_uniform_double(state) * 2.0 * CURAND_PI_DOUBLE;   \
    double s = sqrt(-2.0 * log(u));                                                                      \
    return make_double2(s * sin(v), s * cos(v));                                                         \
  }                                                                                                      \
  QUALIFIERS float curand_normal(STATE *state) {                                                         \
    if (state->boxmuller_flag) {                                                                         \
      state->boxmuller_flag = 0;                                                                         \
      return state->boxmuller_extra;                                                                     \
    }                                                                                                    \
    float2 v = curand_normal2(state);                                                                    \
    state->boxmuller_extra = v.y;                                                                        \
    state->boxmuller_flag = 1;                                                                           \
    return v.x;                                                                                          \
  }                                                                                                      \
  QUALIFIERS double curand_normal_double(STATE *state) {                                                 \
    if (state->boxmuller_flag_double) {                                                                  \
      state->boxmuller_flag_double = 0;                                                                  \
      return state->boxmuller_extra_double;                                                              \
    }                                                                                                    \
    double2 v = curand_normal2_double(state);                                                            \
    state->boxmuller_extra_double = v.y;                                                                 \
    state->boxmuller_flag_double = 1;                                                                    \
    return v.x;                                                                                          \
  }                                                                                                      \
  QUALIFIERS float curand_log_normal(STATE *state, float mean, float stddev) {                           \
    return expf(mean + stddev * curand_normal(state));                                                   \
  }                                                                                                      \
  QUALIFIERS double curand_log_normal_double(STATE *state, double mean, double stddev) {                 \
    return exp(mean + stddev * curand_normal_double(state));                                             \
  }                                                                                                      \
  QUALIFIERS float2 curand_log_normal2(STATE *state, float mean, float stddev) {                         \
    float2 v = curand_normal2(state);                                                                    \
    return make_float2(expf(mean + stddev * v.x), expf(mean + stddev * v.y));                            \
  }                                                                                                      \
  QUALIFIERS unsigned int curand_poisson(STATE *state, double lambda) {                                  \
    if (lambda < 64.0) {                                                                                 \
      double limit = exp(-lambda), product = curand_uniform_double(state);                              \
      unsigned int k = 0;                                                                                \
      while (product > limit) {                                                                          \
        ++k;                                                                                             \
        product *= curand_uniform_double(state);                                                         \
      }                                                                                                  \
      return k;                                                                                          \
    }                                                                                                    \
    double x = floor(lambda + sqrt(lambda) * curand_normal_double(state) + 0.5);                         \
    return x < 0.0 ? 0u : (unsigned int)x;                                                               \
  }
__SCORD_CURAND_DISTRIBUTIONS(curandStateXORWOW_t)
__SCORD_CURAND_DISTRIBUTIONS(curandStatePhilox4_32_10_t)
__SCORD_CURAND_DISTRIBUTIONS(curandStateMRG32k3a_t)
#undef __SCORD_CURAND_DISTRIBUTIONS

QUALIFIERS float curand_uniform(curandStateMtgp32_t *state) {
  return curand(state) * CURAND_2POW32_INV + CURAND_2POW32_INV / 2.0f;
}
QUALIFIERS double curand_uniform_double(curandStateMtgp32_t *state) {
  return curand(state) * CURAND_2POW32_INV_DOUBLE + CURAND_2POW32_INV_DOUBLE / 2.0;
}
QUALIFIERS float curand_normal(curandStateMtgp32_t *state) {
  float u = curand_uniform(state), v = curand(state) * CURAND_2POW32_INV_2PI;
  return sqrtf(-2.0f * logf(u)) * sinf(v);
}
QUALIFIERS double curand_normal_double(curandStateMtgp32_t *state) {
  double u = curand_uniform_double(state), v = curand_uniform_double(state) * 2.0 * CURAND_PI_DOUBLE;
  return sqrt(-2.0 * log(u)) * sin(v);
}

QUALIFIERS float4 curand_uniform4(curandStatePhilox4_32_10_t *state) {
  uint4 r = curand4(state);
  return make_float4(r.x * CURAND_2POW32_INV + CURAND_2POW32_INV / 2.0f, r.y * CURAND_2POW32_INV + CURAND_2POW32_INV / 2.0f,
                     r.z * CURAND_2POW32_INV + CURAND_2POW32_INV / 2.0f, r.w * CURAND_2POW32_INV + CURAND_2POW32_INV / 2.0f);
}
QUALIFIERS float4 curand_normal4(curandStatePhilox4_32_10_t *state) {
  float2 a = curand_normal2(state), b = curand_normal2(state);
  return make_float4(a.x, a.y, b.x, b.y);
}
QUALIFIERS uint4 curand_poisson4(curandStatePhilox4_32_10_t *state, double lambda) {
  uint4 r;
  r.x = curand_poisson(state, lambda);
  r.y = curand_poisson(state, lambda);
  r.z = curand_poisson(state, lambda);
  r.w = curand_poisson(state, lambda);
  return r;
}

/* Preparing MTGP32 states on the host (curand_mtgp32_host.h): each state's words come from
 * the seed and the state's index; the states are copied to the device. */
typedef struct mtgp32_params_fast { unsigned int seed_mix; } mtgp32_params_fast_t;
static const mtgp32_params_fast_t mtgp32dc_params_fast_11213[1] = {{0x9E3779B9u}};

static inline __host__ curandStatus_t curandMakeMTGP32Constants(const mtgp32_params_fast_t params[],
                                                                mtgp32_kernel_params_t *p) {
  (void)params;
  (void)p;
  return CURAND_STATUS_SUCCESS;
}
static inline __host__ curandStatus_t curandMakeMTGP32KernelState(curandStateMtgp32_t *s,
                                                                  const mtgp32_params_fast_t params[],
                                                                  mtgp32_kernel_params_t *k, int n,
                                                                  unsigned long long seed) {
  if (n < 0 || n > MTGP32_MAX_NUM_BLOCKS) return CURAND_STATUS_OUT_OF_RANGE;
  curandStateMtgp32_t *host = (curandStateMtgp32_t *)malloc(sizeof(curandStateMtgp32_t));
  if (!host) return CURAND_STATUS_ALLOCATION_FAILED;
  for (int i = 0; i < n; ++i) {
    unsigned long long x = seed ^ ((unsigned long long)(i + 1) * 0xD1B54A32D192ED03ull) ^ params[0].seed_mix;
    for (int j = 0; j < MTGP32_STATE_SIZE; ++j) {
      unsigned long long z = (x += 0x9E3779B97F4A7C15ull);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      host->s[j] = (unsigned int)(z ^ (z >> 31));
    }
    host->offset = 0;
    host->pIdx = i;
    host->k = k;
    host->precise_double_flag = 0;
    if (cudaMemcpy(&s[i], host, sizeof(curandStateMtgp32_t), cudaMemcpyHostToDevice) != cudaSuccess) {
      free(host);
      return CURAND_STATUS_INITIALIZATION_FAILED;
    }
  }
  free(host);
  return CURAND_STATUS_SUCCESS;
}

#endif /* CURAND_KERNEL_H_ */
