// libcu++ atomics: `cuda::atomic` and `cuda::atomic_ref` with every member function and
// operator, the memory orders and thread scopes, and atomic_thread_fence. Programs run on the
// simulator and must compute what the C++ semantics say; the events a detector sees must carry
// the order and scope each operation names. The labelled programs in test/fixtures/ordered
// (libcu++ and inline PTX) must run cleanly and state where their races are.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatDiagnostic } from '../../../sims/frontend/diagnostics';
import type { ParseResult } from '../../../sims/frontend/index';
import { runProgram } from '../../../sims/host/run';
import type { SimEvent } from '../../../sims/ir/ir';
import { FIXTURES, parseFixture, parseVirtual } from '../../support/parseFile';

function compile(source: string): ParseResult {
  const parsed = parseVirtual({ 'main.cu': source });
  assert.deepEqual(parsed.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic), []);
  return parsed;
}

function run(parsed: ParseResult): { stdout: string; events: SimEvent[] } {
  const events: SimEvent[] = [];
  const r = runProgram(parsed, { events: (e) => events.push({ ...e }) });
  assert.deepEqual(r.findings, []);
  assert.equal(r.exitCode, 0);
  return { stdout: r.stdout, events };
}

/** `line:W strong Add/block acq_rel@block`, `line:fence device release`: what a detector reads. */
function describeEvent(e: SimEvent): string | undefined {
  if (e.kind === 'fence') return `${e.range.start.line + 1}:fence ${e.scope} ${e.order ?? '-'}`;
  if (e.kind !== 'access') return undefined;
  const atomic = e.atomic ? ` ${e.atomic.op}/${e.atomic.scope}${e.atomic.changed ? '' : ' unchanged'}` : '';
  const order = e.order ? ` ${e.order}@${e.orderScope}` : '';
  return `${e.range.start.line + 1}:${e.write ? 'W' : 'R'}${e.strong ? ' strong' : ''}${atomic}${order}`;
}

function deviceEvents(events: SimEvent[]): string[] {
  return events.filter((e) => !('space' in e) || e.space === 'device').flatMap((e) => describeEvent(e) ?? []);
}

/** `code@line:col` of every diagnostic. */
function diagnostics(source: string): string[] {
  return parseVirtual({ 'main.cu': source }).diagnostics.map((d) => `${d.severity === 'error' ? '' : 'warning:'}${d.code}@${d.range.start.line + 1}:${d.range.start.character + 1}`);
}

function messages(source: string): string[] {
  return parseVirtual({ 'main.cu': source }).diagnostics.map((d) => d.message);
}

describe('cuda::atomic and cuda::atomic_ref compute what C++ says', () => {
  test('every member function and operator, on globals, struct members and references', () => {
    const { stdout } = run(
      compile(`#include <cuda/atomic>
#include <stdio.h>
struct Counters { cuda::atomic<int, cuda::thread_scope_device> hits; cuda::atomic<unsigned long long> total; };
__device__ Counters counters;
__device__ cuda::atomic<int, cuda::thread_scope_device> g(5);
__device__ cuda::atomic<float> fsum;
__global__ void k(int *out) {
  out[0] = g.load();
  g.store(10, cuda::memory_order_relaxed);
  out[1] = g.exchange(20);
  int expected = 99;
  out[2] = g.compare_exchange_weak(expected, 30);
  out[3] = expected;
  out[4] = g.compare_exchange_strong(expected, 30, cuda::memory_order_acq_rel);
  out[5] = g.fetch_add(5);
  out[6] = g.fetch_sub(3);
  out[7] = g.fetch_and(0x30);
  out[8] = g.fetch_or(1);
  out[9] = g.fetch_xor(3);
  out[10] = g.fetch_min(7);
  out[11] = g.fetch_max(40);
  out[12] = ++g;
  out[13] = g++;
  out[14] = --g;
  out[15] = g--;
  out[16] = (g += 10);
  out[17] = (g -= 5);
  out[18] = (g &= 0xF);
  out[19] = (g |= 0x10);
  out[20] = (g ^= 1);
  out[21] = g;
  out[22] = g + 1;
  out[23] = g.is_lock_free();
  counters.hits.fetch_add(2);
  counters.total.fetch_add(1ull << 40);
  out[24] = counters.hits.load();
  out[25] = (int)(counters.total.load() >> 40);
  fsum.fetch_add(1.5f);
  fsum.fetch_add(2.25f);
  out[26] = (int)(fsum.load() * 4);
  cuda::atomic_ref<int, cuda::thread_scope_device> r(out[27]);
  r = 3;
  r.fetch_add(4);
  out[28] = r;
  cuda::atomic_ref<int, cuda::thread_scope_device> copy = r;
  copy.fetch_add(1);
  out[29] = sizeof(cuda::atomic<long long>) + sizeof(cuda::atomic_ref<int>);
}
int main() {
  int *d, h[30];
  cudaMalloc(&d, sizeof(h));
  cudaMemset(d, 0, sizeof(h));
  k<<<1, 1>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 30; i++) printf("%d ", h[i]);
  printf("\\n");
  return 0;
}`),
    );
    // load 5; exchange returns 10; the weak CAS fails and reports 20; the strong one succeeds;
    // then the fetch_* return the old values 30, 35, 32, 32, 33, 34, 7; ++/--/+= … yield new
    // values; the ref adds up to 7 and its copy names the same int (8 at the end).
    assert.equal(stdout, '5 10 0 20 1 30 35 32 32 33 34 7 41 41 41 41 50 45 13 29 28 28 29 1 2 1 15 8 7 16 \n');
  });

  test('a temporary atomic_ref, a pointer to an atomic and a managed atomic shared with the host', () => {
    const { stdout } = run(
      compile(`#include <cuda/std/atomic>
#include <stdio.h>
__global__ void count(cuda::std::atomic<int> *n, int *hist) {
  n->fetch_add(1, cuda::std::memory_order_relaxed);
  cuda::std::atomic_ref<int>(hist[threadIdx.x % 4]).fetch_add(threadIdx.x);
}
int main() {
  cuda::std::atomic<int> *n;
  int *hist;
  cudaMallocManaged(&n, sizeof(*n));
  cudaMallocManaged(&hist, 4 * sizeof(int));
  for (int i = 0; i < 4; i++) hist[i] = 0;
  n->store(100);
  count<<<2, 32>>>(n, hist);
  cudaDeviceSynchronize();
  printf("%d %d %d %d %d\\n", n->load(), hist[0], hist[1], hist[2], hist[3]);
  return 0;
}`),
    );
    // 64 increments; hist[j] sums the threadIdx.x ≡ j (mod 4) of both blocks.
    const sums = [0, 1, 2, 3].map((j) => 2 * Array.from({ length: 32 }, (_, t) => t).filter((t) => t % 4 === j).reduce((a, b) => a + b, 0));
    assert.equal(stdout, `164 ${sums.join(' ')}\n`);
  });

  test('function templates deduce the value type of an atomic from a pointer or a reference', () => {
    const { stdout } = run(
      compile(`#include <cuda/atomic>
#include <stdio.h>
template <typename T> __global__ void k(cuda::atomic<T, cuda::thread_scope_device> *a) { a->fetch_add(1); T v = *a; a->store(v * 10, cuda::memory_order_release); }
template <typename T> __device__ T bump(cuda::atomic<T, cuda::thread_scope_device> &a) { return a.fetch_add(2) + 2; }
__global__ void j(cuda::atomic<long long, cuda::thread_scope_device> *a, long long *out) { out[0] = bump(*a); }
int main() {
  cuda::atomic<int, cuda::thread_scope_device> *a;
  cuda::atomic<long long, cuda::thread_scope_device> *b;
  long long *o;
  cudaMallocManaged(&a, sizeof(*a)); cudaMallocManaged(&b, sizeof(*b)); cudaMallocManaged(&o, 8);
  a->store(4); b->store(1ll << 40);
  k<<<1, 1>>>(a); j<<<1, 1>>>(b, o);
  cudaDeviceSynchronize();
  printf("%d %lld\\n", a->load(), o[0] - (1ll << 40));
  return 0;
}`),
    );
    assert.equal(stdout, '50 2\n');
  });

  test('wait() blocks until another block changes the value; notify_all() wakes nobody it needs to', () => {
    const parsed = compile(`#include <cuda/atomic>
#include <stdio.h>
__device__ cuda::atomic<int, cuda::thread_scope_device> flag;
__device__ int data;
__global__ void k(int *out) {
  if (blockIdx.x == 1) {
    flag.wait(0, cuda::memory_order_acquire);
    out[0] = data;
  } else {
    for (int i = 0; i < 50; i++) out[1] += i;
    data = 7;
    flag.store(1, cuda::memory_order_release);
    flag.notify_all();
  }
}
int main() { int *d, h; cudaMalloc(&d, 8); cudaMemset(d, 0, 8); k<<<2, 1>>>(d); cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost); printf("%d\\n", h); return 0; }`);
    const { stdout, events } = run(parsed);
    assert.equal(stdout, '7\n');
    const waits = deviceEvents(events).filter((e) => e.startsWith('7:'));
    assert.ok(waits.length >= 2, `the waiter polls until the store lands (${waits.length} loads)`);
    assert.ok(waits.every((e) => e === '7:R strong acquire@device'));
  });
});

describe('events carry the memory order and scope', () => {
  test('loads, stores, read-modify-writes and fences of cuda::atomic_ref, cuda::atomic and atomic_thread_fence', () => {
    const { events } = run(
      compile(`#include <cuda/atomic>
__device__ int x;
__device__ cuda::atomic<int, cuda::thread_scope_device> a;
__global__ void k() {
  cuda::atomic_ref<int, cuda::thread_scope_block> r(x);
  r.store(1, cuda::memory_order_release);
  int v = r.load(cuda::memory_order_acquire);
  v += r.fetch_add(2, cuda::memory_order_acq_rel);
  int e = 7;
  r.compare_exchange_strong(e, 9, cuda::memory_order_acq_rel, cuda::memory_order_relaxed);
  r.compare_exchange_strong(e, 9);
  a = v;
  v = a;
  a++;
  a.exchange(v, cuda::memory_order_consume);
  cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
  cuda::atomic_thread_fence(cuda::memory_order_relaxed, cuda::thread_scope_device);
  __threadfence_block();
  atomicAdd(&x, 1);
}
int main() { k<<<1, 1>>>(); cudaDeviceSynchronize(); return 0; }`),
    );
    assert.deepEqual(deviceEvents(events), [
      '6:W strong release@block',
      '7:R strong acquire@block',
      '8:W strong Add/block acq_rel@block',
      // x is 3, not 7: the CAS fails, reads with its failure order and sets e to 3 …
      '10:W strong CAS/block unchanged relaxed@block',
      // … so the next one succeeds (seq_cst by default).
      '11:W strong CAS/block seq_cst@block',
      // Assignment and conversion are seq_cst; ++ is fetch_add(1).
      '12:W strong seq_cst@device',
      '13:R strong seq_cst@device',
      '14:W strong Add/device seq_cst@device',
      // consume is read as acquire.
      '15:W strong Exch/device acquire@device',
      '16:fence device release',
      // A relaxed fence orders nothing and is not seen.
      '18:fence block seq_cst',
      // Legacy atomics name no order.
      '19:W strong Add/device',
    ]);
  });

  test('thread scope is a plain access; cuda::std:: forms have system scope', () => {
    const { events } = run(
      compile(`#include <cuda/atomic>
#include <cuda/std/atomic>
__global__ void k(int *p) {
  cuda::atomic_ref<int, cuda::thread_scope_thread> t(p[0]);
  t.store(1, cuda::memory_order_release);
  t.fetch_add(1);
  int v = t.load(cuda::memory_order_seq_cst);
  cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_thread);
  cuda::std::atomic_ref<int> s(p[1]);
  s.store(v, cuda::std::memory_order::release);
  cuda::std::atomic_thread_fence(cuda::std::memory_order_acquire);
  cuda::atomic<int> *sys = (cuda::atomic<int> *)(p + 2);
  sys->fetch_or(4, cuda::memory_order_release);
}
int main() { int *p; cudaMalloc(&p, 16); k<<<1, 1>>>(p); cudaDeviceSynchronize(); return 0; }`),
    );
    assert.deepEqual(deviceEvents(events), [
      '5:W',
      '6:W',
      '7:R',
      '10:W strong release@system',
      '11:fence system acquire',
      '13:W strong Or/system release@system',
    ]);
  });
});

describe('mistakes are reported where they are written', () => {
  const header = '#include <cuda/atomic>\n__device__ cuda::atomic<int, cuda::thread_scope_device> a;\n__device__ cuda::atomic<float> f;\n';
  const inKernel = (body: string) => `${header}__global__ void k(int *p) {\n${body}\n}\n`;

  test('orders a load or a store cannot take, and orders that are not constants', () => {
    assert.deepEqual(diagnostics(inKernel('  a.load(cuda::memory_order_release);')), ['memory-order@5:10']);
    assert.deepEqual(diagnostics(inKernel('  a.store(1, cuda::memory_order_acquire);')), ['memory-order@5:14']);
    assert.deepEqual(diagnostics(inKernel('  int e = 0;\n  a.compare_exchange_strong(e, 1, cuda::memory_order_acq_rel, cuda::memory_order_release);')), ['memory-order@6:63']);
    assert.deepEqual(diagnostics(inKernel('  cuda::memory_order o = p[0] ? cuda::memory_order_acquire : cuda::memory_order_relaxed;\n  a.load(o);')), ['memory-order@6:10']);
    // A constant variable is a constant.
    assert.deepEqual(diagnostics(inKernel('  const cuda::memory_order o = cuda::memory_order_acquire;\n  p[0] = a.load(o);')), []);
    assert.deepEqual(diagnostics(inKernel('  a.load(2);')), ['type-mismatch@5:10']);
    assert.match(messages(inKernel('  a.load(cuda::memory_order_release);'))[0], /memory_order_release is not a valid order for a load/);
  });

  test('unknown members, wrong argument counts and operations the value type does not have', () => {
    assert.deepEqual(diagnostics(inKernel('  a.fetch_ad(1);')), ['no-member@5:5']);
    assert.match(messages(inKernel('  a.fetch_ad(1);'))[0], /has no member function 'fetch_ad'; did you mean 'fetch_add'\?/);
    assert.deepEqual(diagnostics(inKernel('  a.store();')), ['argument-count@5:11']);
    assert.deepEqual(diagnostics(inKernel('  a.load(cuda::memory_order_relaxed, cuda::memory_order_relaxed);')), ['argument-count@5:38']);
    assert.deepEqual(diagnostics(inKernel('  f.fetch_and(1);')), ['invalid-operand@5:5']);
    assert.deepEqual(diagnostics(inKernel('  a *= 2;')), ['invalid-operands@5:5']);
    assert.deepEqual(diagnostics(inKernel('  int v = a.load;')), ['member-access@5:13']);
    assert.deepEqual(diagnostics(inKernel('  a.compare_exchange_strong(3, 1);')), ['type-mismatch@5:29']);
  });

  test('atomics are not copied, and an atomic_ref needs a variable to refer to', () => {
    assert.deepEqual(diagnostics(inKernel('  cuda::atomic<int, cuda::thread_scope_device> *q = (cuda::atomic<int, cuda::thread_scope_device> *)p;\n  *q = a;')), ['type-mismatch@6:8']);
    assert.deepEqual(diagnostics(inKernel('  cuda::atomic_ref<int, cuda::thread_scope_device> r(p[0] + 1);')), ['type-mismatch@5:54']);
    assert.deepEqual(diagnostics(inKernel('  cuda::atomic_ref<int, cuda::thread_scope_device> r;')), ['uninitialized-reference@5:52']);
    assert.deepEqual(diagnostics(inKernel('  float x = 0;\n  cuda::atomic_ref<int, cuda::thread_scope_device> r(x);')), ['type-mismatch@6:54']);
  });

  test('template arguments and names the library does not have', () => {
    assert.deepEqual(diagnostics('#include <cuda/atomic>\n__device__ cuda::atomic<int, 3> a;'), ['template-arguments@2:30']);
    assert.deepEqual(diagnostics('#include <cuda/atomic>\n__device__ cuda::std::atomic<int, cuda::thread_scope_device> a;'), ['template-arguments@2:12']);
    assert.deepEqual(diagnostics('#include <cuda/atomic>\nstruct S { int a, b; };\n__device__ cuda::atomic<S> a;'), ['not-supported@3:25']);
    assert.deepEqual(diagnostics(inKernel('  cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_gpu);')), ['not-supported@5:57']);
    assert.match(messages(inKernel('  cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_gpu);'))[0], /did you mean 'thread_scope_device'\?/);
    assert.deepEqual(diagnostics(inKernel('  cuda::atomic_thread_fence();')), ['argument-count@5:29']);
    assert.match(messages('#include <cuda/atomic>\nusing namespace cuda;\n__global__ void k() { atomic_thread_fence(memory_order_seq_cst); }')[0], /'atomic_thread_fence' without its namespace; write cuda::atomic_thread_fence/);
  });
});

/** The labelled programs of test/fixtures/ordered: `// race: <line> <line>` or `// race: none`. */
describe('the ordered fixtures run cleanly and state their races at real accesses', () => {
  const dir = path.join(FIXTURES, 'ordered');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cu')).sort();

  test('there is one for each pattern, scope combination and notation', () => {
    for (const pattern of ['mp', 'lock']) {
      for (const notation of ['ref', 'ptx']) {
        for (const combination of ['block_intrablock_ok', 'device_interblock_ok', 'block_interblock', 'devrel_blockacq_interblock', 'relaxed_interblock']) {
          assert.ok(files.includes(`${pattern}_${notation}_${combination}.cu`), `${pattern}_${notation}_${combination}.cu`);
        }
      }
    }
    assert.ok(files.filter((f) => f.startsWith('late_fence_masks_')).length >= 2);
  });

  for (const file of files) {
    test(file, () => {
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      const lines = text.split('\n');
      const races = [...text.matchAll(/^\/\/ race: (.*)$/gm)].map((m) => m[1].trim());
      assert.ok(races.length >= 1, 'states its races');
      assert.equal([...text.matchAll(/^\/\/ about: .+$/gm)].length, 1, 'says what it shows');
      assert.equal(races.includes('none'), file.endsWith('_ok.cu'), 'only the _ok programs are race-free');
      const { stdout, events } = run(parseFixture(path.join('ordered', file)));
      if (file.endsWith('_ok.cu')) assert.match(stdout, /= (42 \(expected 42\)|2 \(expected 2\))\n$/);
      // Each race names two lines with device accesses to one address by different threads,
      // at least one of them a write.
      const accesses = events.filter((e): e is Extract<SimEvent, { kind: 'access' }> => e.kind === 'access' && e.space === 'device');
      for (const race of races.filter((r) => r !== 'none')) {
        const [a, b] = race.split(/\s+/).map(Number);
        assert.match(lines[a - 1], /\((R|X)\)/, `line ${a} is the marked racing access`);
        assert.match(lines[b - 1], /\((W|X)\)/, `line ${b} is the marked other access`);
        const at = (line: number) => accesses.filter((e) => e.range.start.line + 1 === line);
        const conflict = at(a).some((x) => at(b).some((y) => x.address === y.address && (x.write || y.write) && (x.block !== y.block || x.warp !== y.warp)));
        assert.ok(conflict, `lines ${a} and ${b} access one address from two threads`);
      }
    });
  }
});
