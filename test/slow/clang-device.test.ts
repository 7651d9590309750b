// Device code through clang: kernels compiled to NVVM IR, read, lowered by sims/clang/device and
// run by the executor directly. What a kernel computes, the events a detector hears (scopes of
// atomics and fences, strong accesses, barriers, none for local variables), warp operations,
// printf and faults, and races found at the source line that made them.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { ScordDetector } from '../../sims/detect/scord';
import { LowerError, type SimEvent } from '../../sims/ir/ir';
import { CLANG_FIXTURES, deviceArray, globalPointer, kernelNamed, launch, loadDevice, read, type LoadedDevice } from '../support/clangDevice';

type Access = Extract<SimEvent, { kind: 'access' }>;

/** Every event of a launch, copied (event objects are reused by the engine). */
function recorder(): { events: SimEvent[]; listener: (e: SimEvent) => void } {
  const events: SimEvent[] = [];
  return { events, listener: (e) => events.push({ ...e } as SimEvent) };
}

const accessesAt = (events: SimEvent[], line: number): Access[] => events.filter((e): e is Access => e.kind === 'access' && e.range.start.line + 1 === line);

const FILE = '/virtual/clang-device/kernels.cu';

const KERNELS = `struct Pair { int a; float b; };
__device__ int counters[4];
__constant__ float scale[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__device__ int *aliases[2] = { &counters[1], &counters[3] };
__device__ int sum4(int x) { int parts[4]; for (int i = 0; i < 4; i++) parts[i] = x + i; return parts[0] + parts[1] + parts[2] + parts[3]; }
__device__ Pair makePair(int a) { Pair p; p.a = a; p.b = a * 0.5f; return p; }
__global__ void compute(int *out, int n, Pair bias) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  Pair p = makePair(i);
  out[i] = sum4(i) + p.a + (int)(p.b * 4.0f) + (int)scale[i & 3] + bias.a;
}
__global__ void locals(int *out) {
  int acc = 0;
  int table[8];
  for (int k = 0; k < 8; k++) table[k] = k * threadIdx.x;
  for (int k = 0; k < 8; k++) acc += table[k];
  out[threadIdx.x] = acc;
}
__global__ void scopes() {
  atomicAdd(&counters[0], 1);
  atomicAdd_block(&counters[1], 2);
  atomicAdd_system(&counters[2], 3);
  atomicCAS(&counters[3], 0, 7);
}
__global__ void fences(volatile int *flag, int *data) {
  data[threadIdx.x] = 1;
  __threadfence_block();
  __threadfence();
  __threadfence_system();
  *flag = 1;
}
__global__ void reverse(int *out) {
  __shared__ int tile[64];
  tile[threadIdx.x] = threadIdx.x * 10;
  __syncthreads();
  out[threadIdx.x] = tile[63 - threadIdx.x];
}
__global__ void dynamicShared(int *out) {
  extern __shared__ int buffer[];
  buffer[threadIdx.x] = threadIdx.x + 1;
  __syncthreads();
  out[threadIdx.x] = buffer[(threadIdx.x + 1) % blockDim.x] + *aliases[1];
}
__global__ void wide(unsigned long long *out) {
  unsigned long long h = 1469598103934665603ull;
  for (int k = 0; k < 4; k++) { h ^= (unsigned long long)(threadIdx.x + k); h *= 1099511628211ull; }
  out[threadIdx.x] = h;
}
__global__ void hello(int n) {
  if (threadIdx.x == 1) printf("thread %d of %d: %.2f %s\\n", threadIdx.x, n, 1.5, "ok");
}
__global__ void checks(int *out) {
  assert(threadIdx.x < 3);
  out[threadIdx.x] = 1;
}
`;

describe('kernels compiled by clang', () => {
  let d: LoadedDevice;
  before(async () => {
    d = await loadDevice(FILE, KERNELS);
  });

  test('arithmetic, calls, structs returned and passed by value, constant memory', () => {
    const out = deviceArray(d, 40);
    const bias = d.memory.allocate('global', 8, { label: 'bias' });
    d.memory.allocation(Math.floor(bias / 2 ** 32))!.view.setInt32(0, 100, true);
    const r = launch(d, 'compute', 2, 20, [out, 37, bias]);
    assert.deepEqual(r.findings, []);
    const expected = Array.from({ length: 40 }, (_, i) => (i >= 37 ? 0 : 4 * i + 6 + i + 2 * i + [1, 2, 3, 4][i & 3] + 100));
    assert.deepEqual(read(d, out, 40), expected);
  });

  test('local variables and arrays make no memory events; the one store to global memory does', () => {
    const out = deviceArray(d, 32);
    const rec = recorder();
    launch(d, 'locals', 1, 32, [out], { events: rec.listener });
    assert.deepEqual(read(d, out, 4), [0, 28, 56, 84]);
    const accesses = rec.events.filter((e) => e.kind === 'access') as Access[];
    assert.equal(accesses.length, 32);
    assert.deepEqual([...new Set(accesses.map((a) => `${a.write}@${a.range.start.line + 1}`))], ['true@18']);
  });

  test('atomicAdd is device scope, atomicAdd_block block scope, atomicAdd_system system scope', () => {
    const rec = recorder();
    launch(d, 'scopes', 2, 32, [], { events: rec.listener });
    assert.deepEqual(read(d, globalPointer(d, 'counters'), 4), [64, 128, 192, 7]);
    const scopeAt = (line: number) => [...new Set(accessesAt(rec.events, line).map((a) => `${a.atomic?.op}/${a.atomic?.scope}/${a.strong}/${a.order ?? '-'}`))];
    assert.deepEqual(scopeAt(21), ['Add/device/true/-']);
    assert.deepEqual(scopeAt(22), ['Add/block/true/-']);
    assert.deepEqual(scopeAt(23), ['Add/system/true/-']);
    // Only the first CAS changes the word; the others only read it.
    assert.deepEqual(accessesAt(rec.events, 24).map((a) => a.atomic?.changed).filter(Boolean).length, 1);
  });

  test('fences have the scope of their kind, and a volatile store is strong', () => {
    const rec = recorder();
    const flag = deviceArray(d, 1);
    launch(d, 'fences', 1, 2, [flag, deviceArray(d, 2)], { events: rec.listener });
    const fences = rec.events.filter((e): e is Extract<SimEvent, { kind: 'fence' }> => e.kind === 'fence');
    assert.deepEqual(fences.map((f) => `${f.scope}@${f.range.start.line + 1}`), ['block@28', 'block@28', 'device@29', 'device@29', 'system@30', 'system@30']);
    assert.deepEqual(accessesAt(rec.events, 27).map((a) => a.strong), [false, false]);
    assert.deepEqual(accessesAt(rec.events, 31).map((a) => a.strong), [true, true]);
    assert.deepEqual(read(d, flag, 1), [1]);
  });

  test('__syncthreads is a barrier of the block, over shared memory laid out per block', () => {
    const rec = recorder();
    const out = deviceArray(d, 64);
    const r = launch(d, 'reverse', 1, 64, [out], { events: rec.listener });
    assert.deepEqual(r.findings, []);
    assert.deepEqual(read(d, out, 64), Array.from({ length: 64 }, (_, i) => (63 - i) * 10));
    assert.deepEqual(rec.events.filter((e) => e.kind === 'barrier').map((e) => (e as { range: { start: { line: number } } }).range.start.line + 1), [36]);
    assert.deepEqual(kernelNamed(d, 'reverse').compiled.sharedLayout.map((s) => [s.name, s.offset]), [['tile', 0]]);
  });

  test('extern __shared__ is the dynamic part the launch sizes; pointers in initializers are addresses', () => {
    const out = deviceArray(d, 8);
    const counters = globalPointer(d, 'counters');
    d.memory.allocation(Math.floor(counters / 2 ** 32))!.view.setInt32(12, 1000, true);
    const r = launch(d, 'dynamicShared', 1, 8, [out], { dynamicShared: 32 });
    assert.deepEqual(r.findings, []);
    assert.deepEqual(read(d, out, 8), [1002, 1003, 1004, 1005, 1006, 1007, 1008, 1001]);
  });

  test('64-bit integers are exact', () => {
    const out = d.memory.allocate('global', 8 * 2, { label: 'out' });
    launch(d, 'wide', 1, 2, [out]);
    const fnv = (t: number): bigint => {
      let h = 1469598103934665603n;
      for (let k = 0; k < 4; k++) h = BigInt.asUintN(64, (h ^ BigInt(t + k)) * 1099511628211n);
      return h;
    };
    assert.deepEqual(read(d, out, 2, 'u64').map((x) => BigInt(x)), [fnv(0), fnv(1)].map((x) => BigInt(Number(x))));
  });

  test('printf prints for the thread that calls it', () => {
    launch(d, 'hello', 1, 4, [7]);
    assert.deepEqual(d.runtime.output.map((o) => [o.text, o.from]), [['thread 1 of 7: 1.50 ok\n', { block: [0, 0, 0], thread: [1, 0, 0] }]]);
  });

  test('a failed assert stops the thread with an assertion fault at the assert', () => {
    const r = launch(d, 'checks', 1, 4, [deviceArray(d, 4)]);
    assert.equal(r.findings.length, 1);
    assert.equal(r.findings[0].kind, 'assertion-failed');
    assert.match(r.findings[0].message, /threadIdx.x < 3/);
    assert.deepEqual([r.findings[0].range?.start.line, r.findings[0].thread], [53, [3, 0, 0]]);
  });
});

const WARPS = `__global__ void warps(int *out) {
  int lane = threadIdx.x;
  int down = __shfl_down_sync(0xffffffff, lane * 2, 1);
  int x = __shfl_xor_sync(0xffffffff, lane, 16);
  int from3 = __shfl_sync(0xffffffff, lane, 3);
  unsigned odd = __ballot_sync(0xffffffff, lane & 1);
  int any = __any_sync(0xffffffff, lane == 5);
  int all = __all_sync(0xffffffff, lane < 31);
  __syncwarp();
  out[lane] = down;
  out[32 + lane] = x;
  out[64 + lane] = from3;
  out[96 + lane] = (int)odd;
  out[128 + lane] = any * 10 + all;
}
__global__ void halves(int *out) {
  if (threadIdx.x < 16) out[threadIdx.x] = __activemask();
}
`;

describe('warp operations', () => {
  let d: LoadedDevice;
  before(async () => {
    d = await loadDevice('/virtual/clang-device/warps.cu', WARPS);
  });

  test('shuffles and votes give each lane the value of the lane it names', () => {
    const out = deviceArray(d, 160);
    const r = launch(d, 'warps', 1, 32, [out]);
    assert.deepEqual(r.findings, []);
    const v = read(d, out, 160);
    assert.deepEqual(v.slice(0, 32), Array.from({ length: 32 }, (_, l) => (l < 31 ? (l + 1) * 2 : 62)));
    assert.deepEqual(v.slice(32, 64), Array.from({ length: 32 }, (_, l) => l ^ 16));
    assert.deepEqual(v.slice(64, 96), Array.from({ length: 32 }, () => 3));
    assert.deepEqual(v.slice(96, 128), Array.from({ length: 32 }, () => 0xaaaaaaaa | 0));
    assert.deepEqual(v.slice(128, 160), Array.from({ length: 32 }, () => 10));
  });

  test('__activemask names the lanes that reach it together', () => {
    const out = deviceArray(d, 16);
    launch(d, 'halves', 1, 32, [out]);
    assert.deepEqual(read(d, out, 16), Array.from({ length: 16 }, () => 0xffff));
  });
});

describe('libcu++ atomics, math, struct copies', () => {
  let d: LoadedDevice;
  before(async () => {
    d = await loadDevice(path.join(CLANG_FIXTURES, 'ordered_math_copies.cu'));
  });

  test('cuda::atomic_ref operations are strong accesses with their order and scope; the ref itself is local', () => {
    const rec = recorder();
    const out = deviceArray(d, 2);
    launch(d, 'ordered', 1, 2, [out], { events: rec.listener });
    const named = rec.events
      .filter((e): e is Access => e.kind === 'access')
      .map((a) => `${a.range.start.line + 1}:${a.write ? 'W' : 'R'}${a.atomic ? `/${a.atomic.op}` : ''}/${a.order}/${a.orderScope}`);
    assert.deepEqual(named, ['11:W/release/device', '14:R/acquire/device', '14:W/undefined/undefined', '12:W/Add/acq_rel/block', '16:R/relaxed/block', '16:W/undefined/undefined']);
    assert.deepEqual(rec.events.filter((e) => e.kind === 'fence').map((e) => `${(e as { scope: string }).scope}`), ['block']);
    assert.deepEqual(read(d, globalPointer(d, 'word'), 1), [2]);
  });

  test('math functions give the float (or double) result of the C function', () => {
    const out = deviceArray(d, 9);
    const dbl = d.memory.allocate('global', 16, { label: 'd' });
    launch(d, 'math', 1, 1, [out, dbl]);
    const f = Math.fround;
    assert.deepEqual(read(d, out, 8, 'f32'), [f(Math.sin(0)), f(Math.exp(0)), 0, 0, f(0.7), 0, 0, 0.5]);
    assert.deepEqual(read(d, out + 32, 1, 'i32'), [8 + 31 + 4 + (1 << 31)]);
    assert.deepEqual(read(d, dbl, 2, 'f64'), [Math.log(2), Math.cos(1)]);
  });

  test('struct copies are word accesses; a by-value parameter the kernel writes is its own copy', () => {
    const rec = recorder();
    const dst = d.memory.allocate('global', 24 * 2, { label: 'dst' });
    const s = d.memory.allocate('global', 24, { label: 's' });
    d.memory.allocation(Math.floor(s / 2 ** 32))!.view.setInt32(0, 5, true);
    launch(d, 'copy', 1, 2, [dst, s], { events: rec.listener });
    assert.deepEqual(read(d, dst, 12), [5, 0, 0, 0, 0, 7, 0, 5, 0, 0, 0, 7]);
    assert.deepEqual(read(d, s, 6), [5, 0, 0, 0, 0, 0]);
    const lines = rec.events.filter((e): e is Access => e.kind === 'access').map((a) => `${a.range.start.line + 1}${a.write ? 'W' : 'R'}${a.size}`);
    assert.deepEqual([...new Set(lines)], ['27R4', '30W4', '31W4']);
    assert.equal(lines.length, 12 + 12 + 2);
  });

  test('half values are 16-bit in memory; device malloc gives global memory of its own', () => {
    const rec = recorder();
    const out = deviceArray(d, 2);
    const hs = d.memory.allocate('global', 4, { label: 'hs' });
    const r = launch(d, 'halfHeap', 1, 2, [out, hs], { events: rec.listener });
    assert.deepEqual(r.findings, []);
    assert.deepEqual(read(d, hs, 2, 'u16'), [0x4380, 0x4380]);
    assert.deepEqual(read(d, out, 2, 'f32'), [43.75, 44.75]);
    assert.deepEqual(rec.events.filter((e): e is Access => e.kind === 'access' && e.range.start.line + 1 === 35).map((a) => a.size), [2, 2]);
  });
});

describe('grid-wide synchronization', () => {
  let d: LoadedDevice;
  before(async () => {
    d = await loadDevice(path.join(CLANG_FIXTURES, 'grid_sync.cu'));
  });

  test('grid.sync() orders every block before every block: right values, no race', () => {
    const a = deviceArray(d, 128);
    const out = deviceArray(d, 128);
    const detector = new ScordDetector(d.memory);
    const r = launch(d, 'phases', 4, 32, [a, out, 1], { events: detector.listener });
    assert.deepEqual(r.findings, []);
    assert.deepEqual(read(d, out, 128), Array.from({ length: 128 }, (_, i) => ((i + 32) % 128) * 3));
    assert.deepEqual(detector.findings(), []);
  });

  test('without it the read races with the other block\'s write', () => {
    const detector = new ScordDetector(d.memory);
    launch(d, 'phases', 4, 32, [deviceArray(d, 128), deviceArray(d, 128), 0], { events: detector.listener });
    // One race between the write (line 6) and the other block's read (line 8), whichever ran first.
    assert.deepEqual([...new Set(detector.findings().map((f) => [f.range.start.line + 1, f.previous.start.line + 1].sort((x, y) => x - y).join('/')))], ['6/8']);
  });

  test('a grid larger than the device can hold at once deadlocks at the grid barrier, and says why', () => {
    const r = launch(d, 'phases', 130, 32, [deviceArray(d, 130 * 32), deviceArray(d, 130 * 32), 1]);
    assert.equal(r.findings.length, 1);
    assert.equal(r.findings[0].kind, 'deadlock');
    assert.match(r.findings[0].message, /grid-wide barrier on line 7 .*can never start/);
  });
});

describe('races and what cannot run', () => {
  test('ScoRD reports a message-passing race without a fence at the reading line', async () => {
    const d = await loadDevice(path.join(CLANG_FIXTURES, 'message_passing_racy.cu'));
    const detector = new ScordDetector(d.memory);
    launch(d, 'mp', 2, 1, [], { events: detector.listener });
    assert.deepEqual(detector.findings().map((f) => `${f.category}/${f.scope}@${f.range.start.line + 1}/${f.previous.start.line + 1}`), ['missing-device-fence/device@11/7']);
  });

  test('recursion is refused at the call, when the kernel is first used; other kernels still run', async () => {
    const source = `__device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__global__ void recursive(int *out) { out[0] = fact(5); }
__global__ void fine(int *out) { out[0] = 5; }
`;
    const d = await loadDevice('/virtual/clang-device/recursion.cu', source);
    const out = deviceArray(d, 1);
    launch(d, 'fine', 1, 1, [out]);
    assert.deepEqual(read(d, out, 1), [5]);
    assert.throws(() => kernelNamed(d, 'recursive'), (e: unknown) => e instanceof LowerError && /not supported: recursion \(fact calls itself\)/.test(e.message) && e.range.start.line === 0);
  });

  test('a call through a function pointer runs the function it points to', async () => {
    const source = `__device__ int twice(int x) { return 2 * x; }
__device__ int square(int x) { return x * x; }
typedef int (*op_t)(int);
__device__ op_t ops[2] = { twice, square };
__global__ void apply(int *out) { out[threadIdx.x] = ops[threadIdx.x & 1](threadIdx.x + 3); }
`;
    const d = await loadDevice('/virtual/clang-device/pointers.cu', source);
    const out = deviceArray(d, 4);
    const r = launch(d, 'apply', 1, 4, [out]);
    assert.deepEqual(r.findings, []);
    assert.deepEqual(read(d, out, 4), [6, 16, 10, 36]);
  });

  test('a pointer made from an integer constant runs: it faults where it is used, and a call through it faults when it runs', async () => {
    const source = `__device__ float half(float *v, unsigned i) { return v[i] * 0.5f; }
typedef float (*fn_t)(float *, unsigned);
__global__ void untouched(float *v) { float *p = (float *)0x10; if (v[0] > 1.0f) v[0] = *p; v[threadIdx.x] = 2.0f; }
__global__ void touched(float *v) { float *p = (float *)0x10; if (threadIdx.x == 0) v[0] = *p; }
__global__ void called(float *v) { fn_t f = (fn_t)5; v[threadIdx.x] = (*f)(v, threadIdx.x); }
`;
    const d = await loadDevice('/virtual/clang-device/int-pointers.cu', source);
    const v = deviceArray(d, 4);
    // Never dereferenced (v[0] is 0): the kernel runs as written.
    const quiet = launch(d, 'untouched', 1, 4, [v]);
    assert.deepEqual(quiet.findings, []);
    assert.deepEqual(read(d, v, 4, 'f32'), [2, 2, 2, 2]);
    const read10 = launch(d, 'touched', 1, 4, [v]);
    assert.equal(read10.findings.length, 1, JSON.stringify(read10.findings));
    assert.equal(read10.findings[0].range?.start.line, 3);
    // A call through a pointer to no device function (none has its address taken) faults at the call.
    const call = launch(d, 'called', 1, 4, [v]);
    assert.deepEqual(call.findings.map((f) => [f.kind, f.message, f.range?.start.line]), [['invalid-pointer', 'call through a pointer that does not point to a device function', 4]]);
  });
});
