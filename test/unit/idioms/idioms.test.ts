// Blocking idioms between thread blocks, recognised in the syntax tree: which idiom a wait
// loop is, and the weakest GPU scheduler under which it terminates (Sorensen et al., "GPU
// schedulers: how fair is fair enough?", Table 2 and Figure 1). Loops that compute, walk a
// structure or hand out work are not waits; waits between the threads of one block are not
// the schedulers' concern.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from '../../../sims/frontend/index';
import { recogniseIdioms, verdictText, type Idiom } from '../../../sims/idioms/recognise';
import { verdictSets } from '../../../sims/idioms/schedulers';
import { waitLoops, waitTarget } from '../../../sims/idioms/waits';

const ROOT = path.resolve(__dirname, '..', '..', '..');

function idioms(text: string, fileName = 'idioms.cu'): Idiom[] {
  const p = parse(text, { fileName });
  assert.deepEqual(p.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message), [], 'the program reads cleanly');
  return recogniseIdioms(p.deviceAst, p.ast);
}

const summary = (list: Idiom[]): [string, string, number, string | undefined][] => list.map((i) => [i.kind, i.weakest, i.range.start.line + 1, i.location]);

function fixture(name: string): Idiom[] {
  const file = `test/fixtures/fairness/${name}.cu`;
  return idioms(fs.readFileSync(path.join(ROOT, file), 'utf8'), file);
}

test('the fixtures: each idiom and the weakest scheduler it terminates under', () => {
  assert.deepEqual(summary(fixture('spin_lock')), [['spin-lock', 'obe', 13, 'lock']]);
  assert.deepEqual(summary(fixture('one_way_pc')), [['one-way-pc', 'hsa', 16, 'flags[b - 1]']]);
  assert.deepEqual(summary(fixture('two_way_pc')), [['two-way-pc', 'fair', 15, 'ready[other]']]);
  assert.deepEqual(summary(fixture('grid_barrier')), [['grid-barrier', 'fair', 14, 'arrived']]);
  assert.deepEqual(summary(fixture('discovery_barrier')), [
    ['spin-lock', 'obe', 16, 'm'],
    ['discovery-protocol', 'obe', 27, 'count'],
    ['discovery-barrier', 'obe', 53, 'arrived'],
  ]);
  assert.deepEqual(summary(fixture('lobe_discovery_barrier')), [
    ['spin-lock', 'obe', 16, 'm'],
    ['lobe-discovery-protocol', 'lobe', 27, 'count'],
    ['lobe-discovery-barrier', 'lobe', 51, 'arrived'],
  ]);
  // The kernel as a whole needs both guarantees: the combination's lens sits on the kernel.
  assert.deepEqual(summary(fixture('mutex_one_way_pc')), [
    ['mutex-one-way-pc', 'hsa+obe', 10, undefined],
    ['spin-lock', 'obe', 14, 'lock'],
    ['one-way-pc', 'hsa', 21, 'flags[b - 1]'],
  ]);
});

test('the verdict a lens shows: where it terminates, where it may starve, and where the paper says so', () => {
  assert.equal(verdictText('spin-lock'), "Spin lock — terminates under OBE, HSA+OBE, LOBE and fair schedulers; may starve under HSA and unfair (Sorensen et al., 'GPU schedulers: how fair is fair enough?', Table 2)");
  assert.equal(verdictText('one-way-pc'), "One-way producer-consumer — terminates under HSA, HSA+OBE, LOBE and fair schedulers; may starve under OBE and unfair (Sorensen et al., 'GPU schedulers: how fair is fair enough?', Table 2)");
  assert.equal(verdictText('grid-barrier'), "Grid barrier — terminates only under a fair scheduler; may starve under HSA, OBE, HSA+OBE, LOBE and unfair (Sorensen et al., 'GPU schedulers: how fair is fair enough?', Table 2)");
  assert.equal(verdictText('mutex-one-way-pc'), "Spin lock with one-way producer-consumer — terminates under HSA+OBE, LOBE and fair schedulers; may starve under HSA, OBE and unfair (Sorensen et al., 'GPU schedulers: how fair is fair enough?', Figure 1)");
  assert.equal(verdictText('lobe-discovery-barrier'), "Barrier among LOBE-discovered blocks — terminates under LOBE and fair schedulers; may starve under HSA, OBE, HSA+OBE and unfair (Sorensen et al., 'GPU schedulers: how fair is fair enough?', Figure 1)");
  // Table 2's rows, as the verdicts' sets.
  assert.deepEqual(verdictSets('obe'), { terminates: ['obe', 'hsa+obe', 'lobe', 'fair'], starves: ['hsa', 'unfair'] });
  assert.deepEqual(verdictSets('hsa'), { terminates: ['hsa', 'hsa+obe', 'lobe', 'fair'], starves: ['obe', 'unfair'] });
  assert.deepEqual(verdictSets('fair'), { terminates: ['fair'], starves: ['hsa', 'obe', 'hsa+obe', 'lobe', 'unfair'] });
});

const launch = (kernel: string, grid = 4): string => `\nint main() { ${kernel}<<<${grid}, 32>>>(); cudaDeviceSynchronize(); return 0; }\n`;

test('other shapes of the same idioms', () => {
  // A lock taken in a for(;;) with the critical section inside the if, and a do-while acquire.
  const breakLock = `__device__ int l;
__device__ int total;
__global__ void k()
{
    for (;;) {
        if (atomicCAS(&l, 0, 1) == 0) {
            total += 1;
            atomicExch(&l, 0);
            break;
        }
    }
}` + launch('k');
  assert.deepEqual(summary(idioms(breakLock)), [['spin-lock', 'obe', 5, 'l']]);
  const doLock = `__device__ int l;
__global__ void k()
{
    int old;
    do {
        old = atomicCAS(&l, 0, 1);
    } while (old != 0);
    atomicExch(&l, 0);
}` + launch('k');
  assert.deepEqual(summary(idioms(doLock)), [['spin-lock', 'obe', 5, 'l']]);
  // A ticket lock: wait until `serving` reaches the ticket drawn from `next`.
  const ticket = `__device__ unsigned int next, serving;
__global__ void k()
{
    unsigned int my = atomicAdd(&next, 1);
    while (atomicAdd(&serving, 0) != my)
        ;
    atomicAdd(&serving, 1);
}` + launch('k');
  assert.deepEqual(summary(idioms(ticket)), [['spin-lock', 'obe', 5, 'serving']]);
  // A sense-reversing grid barrier: the last block to arrive flips the sense.
  const sense = `__device__ unsigned int count;
__device__ volatile int sense;
__global__ void k()
{
    int mine = !sense;
    if (atomicAdd(&count, 1) == gridDim.x - 1) {
        count = 0;
        sense = mine;
    } else {
        while (sense != mine)
            ;
    }
}` + launch('k');
  assert.deepEqual(summary(idioms(sense)), [['grid-barrier', 'fair', 10, 'sense']]);
  // Hand-over by branches on the block index: 0 → 1 → 2 is one-way; 1 → 0 is not.
  const chain = `__device__ volatile int f1, f2;
__global__ void k()
{
    if (blockIdx.x == 0) {
        f1 = 1;
    } else if (blockIdx.x == 1) {
        while (f1 == 0)
            ;
        f2 = 1;
    } else if (blockIdx.x == 2) {
        while (f2 == 0)
            ;
    }
}` + launch('k', 3);
  assert.deepEqual(summary(idioms(chain)), [['one-way-pc', 'hsa', 7, 'f1'], ['one-way-pc', 'hsa', 11, 'f2']]);
  const backwards = `__device__ volatile int f;
__global__ void k()
{
    if (blockIdx.x == 1)
        f = 1;
    else
        while (f == 0)
            ;
}` + launch('k', 2);
  assert.deepEqual(summary(idioms(backwards)), [['two-way-pc', 'fair', 7, 'f']]);
  // Guards with `&&`, and a flag polled through a local pointer to it.
  const guarded = `__device__ int flag;
__global__ void k()
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        atomicExch(&flag, 1);
    } else if (blockIdx.x == 1 && threadIdx.x == 0) {
        volatile int *f = &flag;
        while (*f == 0)
            ;
    }
}` + launch('k', 2);
  assert.deepEqual(summary(idioms(guarded)), [['one-way-pc', 'hsa', 8, 'flag']]);
  // Taking turns: block b waits for turn == b, then hands the turn to b + 1.
  const turns = `__device__ int turn;
__global__ void k()
{
    int me = blockIdx.x;
    while (atomicCAS(&turn, me, me) != me)
        ;
    atomicExch(&turn, (me + 1) % (int)gridDim.x);
}` + launch('k');
  assert.deepEqual(summary(idioms(turns)), [['one-way-pc', 'hsa', 5, 'turn']]);
});

test('loops that are not waits between blocks', () => {
  const notWaits = `__device__ int head, count;
__device__ float sum;
struct Node { Node *next; int v; };
__global__ void k(float *y, const float *x, int n, Node *list)
{
    // A grid-stride loop: it computes.
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = 2.0f * x[i];
    // A lock-free add: the CAS retries on a value the loop itself computes.
    int *p = (int *)&sum;
    int old = *p, assumed;
    do {
        assumed = old;
        old = atomicCAS(p, assumed, __float_as_int(__int_as_float(assumed) + 1.0f));
    } while (assumed != old);
    // A list walk.
    Node *q = list;
    while (q->next != 0)
        q = q->next;
    // Handing out work: every turn takes a new item.
    while (true) {
        int t = atomicAdd(&head, 1);
        if (t >= count)
            break;
    }
}` + `\nint main() { k<<<4, 32>>>(0, 0, 0, 0); return 0; }\n`;
  assert.deepEqual(summary(idioms(notWaits)), []);
  // Warps of one block handing over: a one-block launch, or an element each thread indexes
  // by its own block and thread and writes itself.
  const oneBlock = `__device__ volatile int flag;
__global__ void k()
{
    if (threadIdx.x == 0) flag = 1;
    else if (threadIdx.x == 32) while (flag == 0) ;
}
int main() { k<<<1, 64>>>(); return 0; }
`;
  assert.deepEqual(summary(idioms(oneBlock)), []);
  const perWarp = `__global__ void k(int *flag)
{
    int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if (threadIdx.x % 32 == 0) atomicExch(&flag[w], 1);
    else if (threadIdx.x % 32 == 1) while (((volatile int *)flag)[w] == 0) ;
}
int main() { int *f; cudaMalloc(&f, 64); k<<<4, 64>>>(f); return 0; }
`;
  assert.deepEqual(summary(idioms(perWarp)), []);
  const shared = `__global__ void k()
{
    __shared__ volatile int ready;
    if (threadIdx.x == 0) ready = 1;
    else while (ready == 0) ;
}
int main() { k<<<4, 64>>>(); return 0; }
`;
  assert.deepEqual(summary(idioms(shared)), []);
});

test('what a wait loop waits for, read from its exit condition', () => {
  const text = `__device__ int l, c;
__device__ volatile int f[4];
__global__ void k(int n)
{
    while (atomicCAS(&l, 0, 1) != 0) ;
    while (f[blockIdx.x - 1] == 0) ;
    while (!f[2]) ;
    while (atomicAdd(&c, 0) < gridDim.x) ;
    while (n > atomicOr(&c, 0)) ;
    for (;;) { if (f[3] == 7) break; }
}` + launch('k');
  const p = parse(text, { fileName: 'w.cu' });
  const targets = waitLoops(p.deviceAst).map((w) => {
    const t = waitTarget(w, w.reads[0]);
    return `${w.reads[0].key} ${t?.op} ${t?.text}`;
  });
  assert.deepEqual(targets, ['l == 0', 'f[blockIdx.x - 1] != 0', 'f[2] != 0', 'c >= gridDim.x', 'c >= n', 'f[3] == 7']);
});
