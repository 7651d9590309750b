// The ScoRD detector on two-thread microbenchmarks in the categories of the ScoR suite: each
// racy variant must be reported with its category, scope and both lines; each correct one not.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ScordDetector, type DetectorOptions } from '../../../sims/detect/scord';
import { type RaceFinding } from '../../../sims/detect/findings';
import { Memory } from '../../../sims/gpu/memory';
import { runProgram } from '../../../sims/host/run';
import { parseVirtual } from '../../support/parseFile';

/** Runs a program with the detector attached and returns what it found. */
function detect(source: string, options: DetectorOptions = {}, model?: 'lockstep' | 'independent'): RaceFinding[] {
  const parsed = parseVirtual({ 'main.cu': source });
  assert.deepEqual(parsed.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message), []);
  let detector: ScordDetector | undefined;
  const result = runProgram(parsed, {
    ...(model ? { model } : {}),
    events: (e) => detector!.listener(e),
    attach: (memory: Memory) => {
      detector = new ScordDetector(memory, { perThreadWhenDiverged: model !== 'lockstep', ...options });
    },
  });
  assert.deepEqual(result.findings, []);
  return detector!.findings();
}

/** `category/scope@line/previousLine` per race. */
function races(source: string, options: DetectorOptions = {}, model?: 'lockstep' | 'independent'): string[] {
  return detect(source, options, model).map((f) => `${f.category}/${f.scope}@${f.range.start.line + 1}/${f.previous.start.line + 1}`);
}

const messagePassing = (fence: string, data: string) => `
__device__ ${data} int data;
__device__ volatile int flag;
__global__ void mp() {
  if (blockIdx.x == 0) {
    data = 42;
    ${fence};
    atomicExch((int *)&flag, 1);
  } else {
    while (flag == 0) {}
    int v = data;
    (void)v;
  }
}
int main() { mp<<<2, 1>>>(); cudaDeviceSynchronize(); return 0; }`;

describe('fences', () => {
  test('a block-scope fence does not order a consumer in another block', () => {
    assert.deepEqual(races(messagePassing('__threadfence_block()', 'volatile')), ['missing-device-fence/device@11/6']);
  });
  test('a device-scope fence does', () => {
    assert.deepEqual(races(messagePassing('__threadfence()', 'volatile')), []);
  });
  test('no fence at all', () => {
    assert.deepEqual(races(messagePassing('(void)0', 'volatile')), ['missing-device-fence/device@11/6']);
  });
  test('fences order only strong accesses', () => {
    assert.deepEqual(races(messagePassing('__threadfence()', '')), ['non-strong-access/device@11/6']);
  });
  test('warps of one block: lanes 0 and 32 need a block fence', () => {
    const src = (fence: string) => `
__device__ volatile int data;
__device__ volatile int flag;
__global__ void k() {
  if (threadIdx.x == 0) { data = 1; ${fence}; atomicExch((int *)&flag, 1); }
  if (threadIdx.x == 32) { while (flag == 0) {} int v = data; (void)v; }
}
int main() { k<<<1, 33>>>(); return 0; }`;
    assert.deepEqual(races(src('(void)0')), ['missing-block-fence/block@6/5']);
    assert.deepEqual(races(src('__threadfence_block()')), []);
  });
});

describe('atomics', () => {
  const counter = (op: string) => `
__device__ int counter;
__global__ void k() { ${op}(&counter, 1); }
int main() { k<<<2, 1>>>(); return 0; }`;
  test('a block-scope atomic shared by two blocks is a scoped race', () => {
    assert.deepEqual(races(counter('atomicAdd_block')), ['scoped-atomic/device@3/3']);
  });
  test('device and system scope atomics are fine', () => {
    assert.deepEqual(races(counter('atomicAdd')), []);
    assert.deepEqual(races(counter('atomicAdd_system')), []);
  });
  test('a block-scope atomic inside one block is fine', () => {
    assert.deepEqual(races(`__device__ int counter;
__global__ void k() { atomicAdd_block(&counter, 1); }
int main() { k<<<1, 64>>>(); return 0; }`), []);
  });
});

describe('locks', () => {
  const locked = (cas: string, fence: string) => `
__device__ int lock;
__device__ volatile int shared;
__global__ void k() {
  while (${cas}(&lock, 0, 1) != 0) {}
  ${fence};
  shared = shared + 1;
  ${fence};
  atomicExch(&lock, 0);
}
int main() { k<<<2, 1>>>(); return 0; }`;
  test('a device-scope lock protects data shared by blocks', () => {
    assert.deepEqual(races(locked('atomicCAS', '__threadfence()')), []);
  });
  test('a block-scope lock is a different lock in each block', () => {
    assert.deepEqual(races(locked('atomicCAS_block', '__threadfence_block()')), ['lock-scope/device@7/7']);
  });
});

describe('test-and-set locks (atomicExch)', () => {
  const testAndSet = (fenceBeforeUnlock: string) => `
__device__ int lock;
__device__ int total;
__global__ void k() {
  while (atomicExch(&lock, 1) != 0) {}
  __threadfence();
  total = total + 1;
  ${fenceBeforeUnlock};
  atomicExch(&lock, 0);
}
int main() { k<<<2, 1>>>(); return 0; }`;
  test('a test-and-set lock orders plain data between blocks', () => {
    assert.deepEqual(races(testAndSet('__threadfence()')), []);
  });
  test('the paper\'s hardware infers locks from atomicCAS only', () => {
    assert.deepEqual(races(testAndSet('__threadfence()'), { hardwareFaithful: true }), ['non-strong-access/device@7/7']);
  });
  test('released with no fence before the unlock it orders nothing, and the fence is what is wrong', () => {
    assert.deepEqual(races(testAndSet('(void)0')), ['lock-release-fence/device@9/5']);
  });
  test('a value swapped in while another block holds the word is no lock: taken before the release, it is ordered by nothing', () => {
    // Block 1 swaps 2 in while block 0 holds the word, and writes after block 0 swapped 0 back.
    const swapped = `
__device__ int lock;
__device__ int total;
__device__ volatile int go;
__global__ void k() {
  if (blockIdx.x == 0) {
    while (atomicExch(&lock, 1) != 0) {}
    __threadfence();
    while (go == 0) {}
    total = 1;
    __threadfence();
    atomicExch(&lock, 0);
  } else {
    while (atomicAdd(&lock, 0) == 0) {}
    atomicExch(&lock, 2);
    __threadfence();
    go = 1;
    while (atomicAdd(&lock, 0) != 0) {}
    __threadfence();
    total = 2;
  }
}
int main() { k<<<2, 1>>>(); return 0; }`;
    assert.deepEqual(races(swapped), ['non-strong-access/device@20/10']);
  });
});

describe('unlocking with a store', () => {
  const storeUnlock = (unlock: string) => `
__device__ int lock;
__device__ volatile int shared;
__device__ int after;
__global__ void k() {
  while (atomicCAS(&lock, 0, 1) != 0) {}
  __threadfence();
  shared = shared + 1;
  ${unlock}
  after = blockIdx.x;
}
int main() { k<<<2, 1>>>(); return 0; }`;
  test('a volatile store after a fence releases the lock: what follows it is outside the lock', () => {
    assert.deepEqual(races(storeUnlock('__threadfence(); *(volatile int *)&lock = 0;')), ['missing-device-fence/device@10/10']);
  });
  test('a plain store releases it and publishes nothing, fenced or not; the fix names both', () => {
    const fenced = detect(storeUnlock('__threadfence(); lock = 0;'));
    assert.deepEqual(fenced.map((f) => `${f.category}@${f.range.start.line + 1}`), ['lock-release-fence@9', 'missing-device-fence@10']);
    assert.match(fenced[0].message, /the plain store at line 9 releases the lock, and a fence orders only volatile or atomic accesses.*release it with `atomicExch`$/);
    const unfenced = detect(storeUnlock('lock = 0;'));
    assert.match(unfenced[0].message, /release it with `atomicExch` after `__threadfence\(\);`$/);
    assert.deepEqual(unfenced[0].lockFaults?.map((f) => f.plainStore), [{ fenced: false }]);
  });
});

describe('atomic reads', () => {
  test('a CAS that cannot change memory polls a flag; it is not a lock', () => {
    // The consumer polls with atomicCAS(&flag, 1, 1); were that an acquire, the read of
    // `data` would be "under a lock" the producer never held and be reported as missing-lock.
    const src = `
__device__ volatile int data;
__device__ int flag;
__global__ void k() {
  if (blockIdx.x == 0) { data = 7; __threadfence(); atomicExch(&flag, 1); }
  else { while (atomicCAS(&flag, 1, 1) != 1) {} __threadfence(); int v = data; (void)v; }
}
int main() { k<<<2, 1>>>(); cudaDeviceSynchronize(); return 0; }`;
    assert.deepEqual(races(src), []);
    assert.deepEqual(races(src.replace('__threadfence(); atomicExch', 'atomicExch')), ['missing-device-fence/device@6/5']);
  });
});

describe('reports', () => {
  test('name the address as the program does and say what to change', () => {
    const [f] = detect(`
struct Stack { int items[4]; int top; };
__device__ Stack stack;
__device__ volatile int payload[8];
__device__ int flag;
__global__ void k() {
  if (blockIdx.x == 0) { payload[3] = 1; __threadfence_block(); atomicExch(&flag, 1); }
  else { while (atomicAdd(&flag, 0) == 0) {} int v = payload[3]; (void)v; }
}
int main() { k<<<2, 1>>>(); cudaDeviceSynchronize(); return 0; }`);
    assert.equal(f.address, 'payload[3]');
    assert.equal(f.message, 'read of `payload[3]` in block 1 races with the write at line 7 in block 0: `__threadfence_block()` at line 7 orders it only for block 0; use `__threadfence()`');
    assert.equal(f.previousMessage, 'the write of `payload[3]` in block 0 that it races with');
    assert.deepEqual([f.accessor.block, f.previousAccessor.block], [1, 0]);
    assert.equal(f.narrowFence?.start.line, 6);
    // The entry still holds the producer's fence IDs; its fence file has moved on only at block scope.
    assert.deepEqual(f.metadata, {
      accessor: { block: 0, warp: 0, lane: 0 }, barrierId: 0, blockFenceId: 0, deviceFenceId: 0, write: true, atomic: null, strong: true, locks: [],
      fenceFileNow: { blockFenceId: 1, deviceFenceId: 0 }, barrierIdNow: 0,
    });
  });
  test('struct fields and cudaMalloc arrays', () => {
    const names = detect(`
struct Stack { int items[4]; int top; };
__device__ Stack stack;
__global__ void k(int *buf) { stack.top = blockIdx.x; buf[5] = blockIdx.x; }
int main() { int *d; cudaMalloc(&d, 64); k<<<2, 1>>>(d); cudaDeviceSynchronize(); return 0; }`).map((f) => f.address);
    assert.deepEqual(names.sort(), ['d[5]', 'stack.top']);
  });
  test('one finding per pair of instructions and category, with a count', () => {
    const found = detect(`
__device__ int hits;
__global__ void k() { hits = hits + 1; }
int main() { k<<<4, 1>>>(); cudaDeviceSynchronize(); return 0; }`);
    assert.deepEqual(found.map((f) => f.category), ['missing-device-fence']);
    assert.ok(found[0].count >= 3, String(found[0].count));
  });
});

describe('granularity', () => {
  // Two blocks write neighbouring words: no race, unless entries are wider than a word.
  const neighbours = `
__device__ int a[16];
__global__ void k() { a[blockIdx.x] = 1; }
int main() { k<<<2, 1>>>(); cudaDeviceSynchronize(); return 0; }`;
  test('one entry per word tells neighbours apart', () => {
    assert.deepEqual(races(neighbours), []);
  });
  test('wider entries report false sharing as races, as in the paper\'s Table VII', () => {
    assert.deepEqual(races(neighbours, { granularity: 8 }), ['missing-device-fence/device@3/3']);
    assert.deepEqual(races(neighbours.replace('a[blockIdx.x]', 'a[blockIdx.x * 4]'), { granularity: 8 }), []);
    assert.deepEqual(races(neighbours.replace('a[blockIdx.x]', 'a[blockIdx.x * 4]'), { granularity: 32 }), ['missing-device-fence/device@3/3']);
  });
});

describe('hardware-faithful', () => {
  test('6-bit fence IDs wrap: 64 fences look like none', () => {
    const src = (n: number) => `
__device__ volatile int data;
__device__ int flag;
__global__ void k() {
  if (blockIdx.x == 0) { data = 1; for (int i = 0; i < ${n}; i++) __threadfence(); atomicExch(&flag, 1); }
  else { while (atomicAdd(&flag, 0) == 0) {} int v = data; (void)v; }
}
int main() { k<<<2, 1>>>(); cudaDeviceSynchronize(); return 0; }`;
    assert.deepEqual(races(src(1), { hardwareFaithful: true }), []);
    assert.deepEqual(races(src(64), { hardwareFaithful: true }), ['missing-device-fence/device@6/5']);
    assert.deepEqual(races(src(64)), []);
  });
  test('one entry per 16 words: another word of the entry evicts the race', () => {
    const src = `
__device__ int a[32];
__global__ void k() {
  a[0] = blockIdx.x;
  a[1 + blockIdx.x] = 1;
}
int main() { k<<<2, 1>>>(); cudaDeviceSynchronize(); return 0; }`;
    assert.deepEqual(races(src), ['missing-device-fence/device@4/4']);
    assert.deepEqual(races(src, { hardwareFaithful: true }), []);
  });
  test('metadata size: 8 bytes per 16 words against 40 bytes per word', () => {
    const measure = (hardwareFaithful: boolean): number => {
      const parsed = parseVirtual({ 'main.cu': `
__global__ void k(int *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1; }
int main() { int *d; cudaMalloc(&d, 1024 * sizeof(int)); k<<<8, 128>>>(d); cudaDeviceSynchronize(); return 0; }` });
      let detector: ScordDetector | undefined;
      runProgram(parsed, { events: (e) => detector!.listener(e), attach: (m) => { detector = new ScordDetector(m, { hardwareFaithful, measureMetadata: true }); } });
      return detector!.metadataBytesPerTrackedByte();
    };
    assert.equal(measure(true), 0.125);
    assert.equal(measure(false), 10);
  });
});

describe('independent thread scheduling', () => {
  const diverged = (sync: string) => `
__device__ int data;
__global__ void k() {
  if (threadIdx.x == 0) data = 1;
  ${sync}
  if (threadIdx.x == 1) { int v = data; (void)v; }
}
int main() { k<<<1, 32>>>(); cudaDeviceSynchronize(); return 0; }`;
  test('diverged lanes of one warp race', () => {
    assert.deepEqual(races(diverged('')), ['missing-block-fence/block@6/4']);
  });
  test('__syncwarp orders them', () => {
    assert.deepEqual(races(diverged('__syncwarp();')), []);
  });
  test('lockstep execution orders a warp\'s lanes', () => {
    assert.deepEqual(races(diverged(''), {}, 'lockstep'), []);
  });
});

describe('shared memory', () => {
  test('a read racing with a write that left the word as it was is benign, named by the value the write left', () => {
    // Warp 0 writes 7, warp 1 writes 7 again (the same value), then warp 0 reads: flags without
    // fences order the steps in the run but not in the memory model.
    const found = detect(`
__global__ void k(int *out) {
  __shared__ int s;
  __shared__ volatile int step;
  if (threadIdx.x == 0) step = 0;
  __syncthreads();
  if (threadIdx.x == 0) { s = 7; step = 1; while (step != 2) {} out[0] = s; }
  if (threadIdx.x == 32) { while (step != 1) {} s = 7; step = 2; }
}
int main() { int *d; cudaMalloc(&d, 4); k<<<1, 64>>>(d); cudaDeviceSynchronize(); return 0; }`);
    const read = found.find((f) => !f.current.write && f.address === 's');
    assert.ok(read, found.map((f) => f.message).join('\n'));
    assert.equal(read.category, 'benign-same-value');
    assert.match(read.message, /holding 7,/);
  });
  test('volatile stores that follow a fence only at a distance raise no flag: a warp-synchronous reduction still races', () => {
    const found = races(`
__global__ void k(int *out) {
  __shared__ volatile int s[64];
  s[threadIdx.x] = threadIdx.x;
  __threadfence_block();
  __syncthreads();
  if (threadIdx.x < 32) {
    s[threadIdx.x] += s[threadIdx.x + 32];
    s[threadIdx.x] += s[threadIdx.x + 16];
  }
  if (threadIdx.x == 0) out[0] = s[0];
}
int main() { int *d; cudaMalloc(&d, 4); k<<<1, 64>>>(d); cudaDeviceSynchronize(); return 0; }`);
    assert.ok(found.some((r) => r.startsWith('intra-warp/block@9/')), found.join(', '));
  });
  const neighbour = (sync: string) => `
__global__ void k(int *out) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  ${sync}
  out[threadIdx.x] = s[(threadIdx.x + 32) % 64];
}
int main() { int *d; cudaMalloc(&d, 256); k<<<1, 64>>>(d); cudaDeviceSynchronize(); return 0; }`;
  test('reading another warp\'s element without a barrier races (read after write)', () => {
    const found = detect(neighbour(''));
    // Warp 1's write after warp 0's read and warp 1's read after warp 0's write: one pair of
    // instructions, so one finding.
    assert.deepEqual(found.map((f) => `${f.category}@${f.range.start.line + 1}/${f.previous.start.line + 1}`), ['shared-memory@4/6']);
    assert.ok(found[0].count > 1);
    assert.ok(found.every((f) => f.space === 'shared' && f.scope === 'block'));
  });
  test('a barrier between them orders them', () => {
    assert.deepEqual(races(neighbour('__syncthreads();')), []);
  });
  test('a write and another warp\'s read of it in one interval race, whichever comes first', () => {
    assert.deepEqual(races(`
__global__ void k(int *out) {
  __shared__ int s[64];
  s[threadIdx.x] = 0;
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
  s[threadIdx.x] = 1;
}
int main() { int *d; cudaMalloc(&d, 256); k<<<1, 64>>>(d); cudaDeviceSynchronize(); return 0; }`), ['shared-memory/block@6/7']);
  });
  test('shared atomics do not race with each other', () => {
    assert.deepEqual(races(`
__global__ void k(int *out) {
  __shared__ int count;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  atomicAdd(&count, 1);
  __syncthreads();
  if (threadIdx.x == 0) *out = count;
}
int main() { int *d; cudaMalloc(&d, 4); k<<<1, 64>>>(d); cudaDeviceSynchronize(); return 0; }`), []);
  });
});

describe('a write after reads of two threads', () => {
  // Each thread reads its neighbour's word, then adds it to its own: thread 32 (warp 1) reads
  // and writes A[32], which thread 31 (warp 0) read first. The writer's own read is the last
  // access; the other warp's read before it must still be checked.
  const neighbours = (before: string) => `
__global__ void k(int *A) {
  int t = threadIdx.x;
  ${before}
  int temp = A[t + 1];
  A[t] += temp;
}
int main() { int *a; cudaMalloc(&a, 256 * sizeof(int)); k<<<1, 64>>>(a); cudaDeviceSynchronize(); return 0; }
`;
  test('of a word nothing had written: the first write races with the other warp\'s read', () => {
    assert.deepEqual(races(neighbours('')), ['missing-block-fence/block@6/5']);
  });
  test('of a word written before a barrier: the same race', () => {
    assert.deepEqual(races(neighbours('A[t] = t;\n  __syncthreads();')), ['missing-block-fence/block@7/6']);
  });
  test('with a barrier between the reads and the writes: ordered', () => {
    assert.deepEqual(races(neighbours('').replace('  A[t] += temp;', '  __syncthreads();\n  A[t] += temp;')), []);
  });
});

describe('state for the inspector', () => {
  test('entries, fence files, lock tables, barrier IDs and a trace of one address', () => {
    const parsed = parseVirtual({ 'main.cu': `
__device__ int lock, kept;
__device__ volatile int total[2];
__global__ void k() {
  while (atomicCAS(&lock, 0, 1) != 0) {}
  __threadfence();
  total[1] = total[1] + 1;
  __threadfence();
  atomicExch(&lock, 0);
  if (blockIdx.x == 0) { atomicCAS_block(&kept, 0, 1); __threadfence_block(); }
  __syncthreads();
}
int main() { k<<<2, 1>>>(); cudaDeviceSynchronize(); return 0; }` });
    let detector: ScordDetector | undefined;
    const run = runProgram(parsed, { events: (e) => detector!.listener(e), attach: (m) => { detector = new ScordDetector(m, { trace: 'total[1]' }); } });
    assert.deepEqual(run.findings, []);
    const state = detector!.state();
    // Lock words are atomically written words too (a plain access of one is no lock).
    assert.deepEqual(state.entries.map((e) => e.address), ['lock', 'kept', 'total[1]']);
    assert.deepEqual(state.entries[2].last.locks, ['lock']);
    assert.deepEqual(state.entries[0].last.access, 'atomicCAS');
    assert.deepEqual(state.barriers, [{ block: 0, barrierId: 1 }, { block: 1, barrierId: 1 }]);
    assert.deepEqual(state.lockTables.map((t) => [t.block, t.locks.map((l) => `${l.name} ${l.scope} ${l.held}`)]), [[0, ['kept (block 0) block true']]]);
    assert.deepEqual(state.fenceFiles.map((f) => `${f.block}:${f.blockFenceId}/${f.deviceFenceId}`).sort(), ['0:1/2', '1:0/2']);
    assert.deepEqual(state.trace?.accesses.map((a) => a.access), ['read', 'write', 'read', 'write']);
    assert.deepEqual(detector!.findings(), []);
  });
});

describe('the advice of a race between two threads at one statement', () => {
  const host = (kernel: string, launch: string) => `${kernel}\nint main() { int *a, *b; cudaMalloc(&a, 1024); cudaMalloc(&b, 1024); ${launch}; cudaDeviceSynchronize(); return 0; }\n`;
  const advice = (source: string): string[] => detect(source).map((f) => f.message.replace(/^.*?races with .*?: /, ''));
  test('one store of several threads to one word: their own words, one writer, or atomicExch, not a fence or barrier', () => {
    const [store] = advice(host('__global__ void k(int *a, int *b) { b[threadIdx.x % 4] = threadIdx.x; }', 'k<<<2, 32>>>(a, b)'));
    assert.match(store, /^both are this one store, so which value stays is undefined \(in lockstep too\); give each thread its own element, let one thread store it, or use `atomicExch`/);
  });
  test('one read-modify-write (`x++`) of several threads: an atomic', () => {
    const messages = advice(host('__global__ void k(int *a, int *b) { a[threadIdx.x % 4]++; }', 'k<<<2, 32>>>(a, b)'));
    assert.ok(messages.length > 0);
    for (const m of messages) assert.match(m, /^both are this one (read-modify-write, which is not atomic: .*use an atomic \(`atomicAdd` for `\+=` and `\+\+`\)|store)/);
    assert.ok(messages.some((m) => m.startsWith('both are this one read-modify-write')));
  });
  test('two statements keep the advice that orders them', () => {
    const [apart] = advice(host('__global__ void k(int *a, int *b) { if (threadIdx.x == 0) a[0] = 1; if (threadIdx.x == 40) b[0] = a[0]; }', 'k<<<1, 64>>>(a, b)'));
    assert.match(apart, /__threadfence_block\(\)|__syncthreads\(\)/);
  });
});

describe('__syncwarp in each branch of an if', () => {
  const kernel = (elseBranch: string) => `
__device__ int g;
__global__ void k(int *out) {
  int lane = threadIdx.x % 32;
  if (lane == 0) {
    g = 77;
    __syncwarp();
  } else {
${elseBranch}
  }
}
int main() { int *o; cudaMalloc(&o, 4); k<<<1, 32>>>(o); cudaDeviceSynchronize(); return 0; }
`;
  test('is one barrier for the mask since Volta: the lanes meet there, and the write is ordered before the read', () => {
    assert.deepEqual(races(kernel('    __syncwarp();\n    if (lane == 5) out[0] = g;')), []);
    // Without the other branch's __syncwarp nothing orders them.
    assert.deepEqual(races(kernel('    if (lane == 5) out[0] = g;')), ['missing-block-fence/block@9/6']);
  });
  test('hangs in lockstep (before sm_70), where the lanes must meet at one call', () => {
    const run = runProgram(parseVirtual({ 'main.cu': kernel('    __syncwarp();\n    if (lane == 5) out[0] = g;') }), { model: 'lockstep' });
    assert.deepEqual(run.findings.map((f) => [f.kind, f.range!.start.line + 1]), [['deadlock', 7]]);
  });
});
