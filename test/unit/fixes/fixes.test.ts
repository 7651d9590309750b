// Fixes: each kind produces the edit a programmer would make, and the fix property — for
// every racy program, applying a finding's preferred fix and re-running removes that race and
// adds no finding of any kind.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkSource, type CheckReport } from '../../../sims/check';
import { applyEdits, applyPreferredFixes } from '../../../sims/fixes/apply';
import { judgeFix, mapOffset } from '../../../sims/fixes/verify';
import { loadRaceCases } from '../../support/raceCases';

const ROOT = path.resolve(__dirname, '..', '..', '..');

function check(text: string, defines: string[] = [], file = 'main.cu'): CheckReport {
  return checkSource({ fileName: file, text, defines });
}

/** The preferred fix of the only race of `text`, applied. */
function fixed(text: string, category: string): string {
  const races = check(text).findings.filter((f) => f.category === category);
  assert.equal(races.length, 1, JSON.stringify(check(text).findings.map((f) => f.message)));
  const fix = races[0].fixes.find((f) => f.preferred);
  assert.ok(fix, 'a preferred fix');
  assert.equal(races[0].fixes.filter((f) => f.preferred).length, 1);
  return applyEdits(text, fix.edits);
}

describe('fix kinds', () => {
  test('widen a block-scope atomic, everywhere it is used on that variable', () => {
    const src = `__device__ int counter;
__global__ void k() {
  atomicAdd_block(&counter, 1);
  if (threadIdx.x == 0) atomicSub_block(&counter, 1);
}
int main() { k<<<2, 32>>>(); cudaDeviceSynchronize(); return 0; }
`;
    const out = fixed(src, 'scoped-atomic');
    assert.match(out, /^ {2}atomicAdd\(&counter, 1\);$/m);
    assert.match(out, /atomicSub\(&counter, 1\);/);
  });
  /** Block 0 publishes `data` with a flag; `fence` is what stands between the two writes. */
  const handOff = (fence: string) => `__device__ volatile int data;
__device__ int flag;
__global__ void k() {
  if (blockIdx.x == 0) {
    data = 1;
${fence}    atomicExch(&flag, 1);
  } else {
    while (atomicAdd(&flag, 0) == 0) {}
    int v = data;
    (void)v;
  }
}
int main() { k<<<2, 1>>>(); cudaDeviceSynchronize(); return 0; }
`;
  test('widen a block-scope fence that a consumer in another block relies on', () => {
    assert.equal(fixed(handOff('    __threadfence_block();\n'), 'missing-device-fence'), handOff('    __threadfence();\n'));
  });
  test('insert the missing fence after the producer\'s store, before the flag', () => {
    assert.equal(fixed(handOff(''), 'missing-device-fence'), handOff('    __threadfence();\n'));
  });
  test('make weak accesses volatile: a global and a pointer parameter', () => {
    const global = `__device__ int data;
__device__ int flag;
__global__ void k() {
  if (blockIdx.x == 0) { data = 1; __threadfence(); atomicExch(&flag, 1); }
  else { while (atomicAdd(&flag, 0) == 0) {} __threadfence(); int v = data; (void)v; }
}
int main() { k<<<2, 1>>>(); cudaDeviceSynchronize(); return 0; }
`;
    assert.equal(fixed(global, 'non-strong-access'), global.replace('__device__ int data;', '__device__ volatile int data;'));
    const param = global.replace('__device__ int data;\n', '').replace('__global__ void k() {', '__global__ void k(int *data) {').replace(/data = 1/, '*data = 1').replace('int v = data', 'int v = *data').replace('k<<<2, 1>>>()', 'int *d; cudaMalloc(&d, 4); k<<<2, 1>>>(d)');
    assert.match(fixed(param, 'non-strong-access'), /__global__ void k\(volatile int \*data\)/);
  });
  test('promote a racy read-modify-write to the atomic', () => {
    const src = `__device__ unsigned int hits;
__global__ void k() {
  hits++;
}
int main() { k<<<2, 1>>>(); cudaDeviceSynchronize(); return 0; }
`;
    assert.match(fixed(src, 'missing-device-fence'), /^ {2}atomicAdd\(&hits, 1u\);$/m);
    assert.match(fixed(src.replace('hits++', 'hits = hits + 3'), 'missing-device-fence'), /^ {2}atomicAdd\(&hits, 3\);$/m);
  });
  test('insert __syncthreads() between shared-memory accesses of different warps', () => {
    const src = `__global__ void k(int *out) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  out[threadIdx.x] = s[63 - threadIdx.x];
}
int main() { int *d; cudaMalloc(&d, 256); k<<<1, 64>>>(d); cudaDeviceSynchronize(); return 0; }
`;
    const report = check(src);
    const fixes = report.findings.map((f) => f.fixes.find((x) => x.preferred)!.edits);
    assert.ok(fixes.length >= 1);
    for (const edits of fixes) assert.equal(applyEdits(src, edits), src.replace('  out[', '  __syncthreads();\n  out['));
  });
  test('a race between iterations of a loop gets a barrier at the end of each iteration', () => {
    const reduce = (threads: number) => `__global__ void k(int *out) {
  __shared__ int s[${threads}];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  for (int stride = ${threads / 2}; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      s[threadIdx.x] += s[threadIdx.x + stride];
  }
  if (threadIdx.x == 0) *out = s[0];
}
int main() { int *d; cudaMalloc(&d, 4); k<<<1, ${threads}>>>(d); cudaDeviceSynchronize(); return 0; }
`;
    const after = (src: string, barrier: string) => src.replace('      s[threadIdx.x] += s[threadIdx.x + stride];\n', `      s[threadIdx.x] += s[threadIdx.x + stride];\n    ${barrier}\n`);
    // Two warps: warp 0 reads what warp 1 wrote in the previous iteration.
    const big = reduce(128);
    assert.equal(fixed(big, 'shared-memory'), after(big, '__syncthreads();'));
    assert.deepEqual(check(after(big, '__syncthreads();')).findings, []);
    // Only warp 0 ever takes the branch: its diverged lanes race, and __syncwarp() orders them.
    const small = reduce(64);
    assert.equal(fixed(small, 'shared-memory'), after(small, '__syncwarp();'));
    assert.deepEqual(check(after(small, '__syncwarp();')).findings, []);
  });
  describe('lanes of one warp (intra-warp)', () => {
    const kernel = (body: string, threads = 32) => `__global__ void k(int *A, int *out) {
  int t = threadIdx.x;
${body}
}
int main() { int *a, *o; cudaMalloc(&a, 256); cudaMalloc(&o, 256); cudaMemset(a, 0, 256); k<<<1, ${threads}>>>(a, o); cudaDeviceSynchronize(); return 0; }
`;
    test('a read of the neighbour\'s word in the statement that writes its own: the read first, then __syncwarp()', () => {
      const src = kernel('  A[t] = A[(t + 1) % 32] + 1;');
      const out = fixed(src, 'intra-warp');
      assert.equal(out, kernel('  int value = A[(t + 1) % 32];\n  __syncwarp();\n  A[t] = value + 1;'));
      assert.deepEqual(check(out).findings, []);
    });
    test('the variable\'s name is one the function does not use', () => {
      const out = fixed(kernel('  int value = 0;\n  A[t] = A[(t + 1) % 32] + value;'), 'intra-warp');
      assert.match(out, /^ {2}int value2 = A\[\(t \+ 1\) % 32\];\n {2}__syncwarp\(\);\n {2}A\[t\] = value2 \+ value;$/m);
    });
    test('several lanes storing to one word, under a condition: the store becomes atomicExch', () => {
      const src = kernel('  if (t < 32)\n    out[0] = t;');
      const out = fixed(src, 'intra-warp');
      assert.equal(out, kernel('  if (t < 32)\n    atomicExch(&out[0], t);'));
      assert.deepEqual(check(out).findings, []);
    });
    test('several lanes updating one word: the update becomes the atomic', () => {
      const out = fixed(kernel('  out[0] += t;'), 'intra-warp');
      assert.equal(out, kernel('  atomicAdd(&out[0], t);'));
      assert.deepEqual(check(out).findings, []);
    });
    test('two statements: __syncwarp() between them', () => {
      const src = kernel('  int v = A[(t + 1) % 32];\n  A[t] = v;');
      const out = fixed(src, 'intra-warp');
      assert.equal(out, kernel('  int v = A[(t + 1) % 32];\n  __syncwarp();\n  A[t] = v;'));
      assert.deepEqual(check(out).findings, []);
    });
    test('a read only some lanes make (behind ?:) is not moved before the statement', () => {
      // Every lane takes the read's branch here, so the warp does not diverge: an intra-warp race.
      const races = check(kernel('  A[t] = t < 64 ? A[(t + 1) % 32] : 0;')).findings.filter((f) => f.category === 'intra-warp');
      assert.ok(races.length > 0);
      for (const r of races) for (const f of r.fixes) assert.doesNotMatch(f.title, /between the read and the write/);
    });
  });
  test('no fix inside a macro expansion or where a barrier would diverge', () => {
    const macro = `#define BUMP(c) atomicAdd_block(&c, 1)
__device__ int counter;
__global__ void k() { BUMP(counter); }
int main() { k<<<2, 1>>>(); cudaDeviceSynchronize(); return 0; }
`;
    const [race] = check(macro).findings;
    assert.equal(race.category, 'scoped-atomic');
    assert.deepEqual(race.fixes, []);
    const divergent = `__global__ void k(int *out) {
  __shared__ int s[64];
  if (out[0] == 0) {
    s[threadIdx.x] = threadIdx.x;
    out[threadIdx.x] = s[63 - threadIdx.x];
  }
}
int main() { int *d; cudaMalloc(&d, 256); cudaMemset(d, 0, 256); k<<<1, 64>>>(d); cudaDeviceSynchronize(); return 0; }
`;
    const shared = check(divergent).findings.filter((f) => f.category === 'shared-memory');
    assert.ok(shared.length > 0);
    assert.ok(shared.every((f) => f.fixes.length === 0));
  });
});

describe('judging a fix', () => {
  test('offsets move with insertions before them and stay inside replaced text', () => {
    const at = (o: number) => ({ line: 0, character: o, offset: o });
    const insert = { range: { file: 'f', start: at(10), end: at(10) }, newText: 'abc' };
    const replace = { range: { file: 'f', start: at(20), end: at(25) }, newText: 'xy' };
    assert.deepEqual([5, 10, 15, 20, 22, 25, 30].map((o) => mapOffset(o, [insert, replace])), [5, 13, 18, 23, 23, 25, 30]);
  });
  test('a fix that leaves the race, or adds one, is not ok', () => {
    const src = `__device__ int counter;
__device__ int other;
__global__ void k() { atomicAdd_block(&counter, 1); }
int main() { k<<<2, 1>>>(); cudaDeviceSynchronize(); return 0; }
`;
    const before = check(src);
    const [race] = before.findings;
    const noop = { range: { ...race.range!, end: race.range!.start }, newText: '' };
    assert.deepEqual(judgeFix(before, race, [noop], check(src)), { ok: false, added: [], remains: true });
    const worse = src.replace('atomicAdd_block(&counter, 1);', 'atomicAdd(&counter, 1); other = other + 1;');
    const edit = { range: { ...race.range!, end: { ...race.range!.end, offset: race.range!.end.offset + 1 } }, newText: 'atomicAdd(&counter, 1); other = other + 1;' };
    const outcome = judgeFix(before, race, [edit], check(worse));
    assert.equal(outcome.remains, false);
    assert.equal(outcome.ok, false);
    assert.equal(outcome.added.length, 1);
  });
});

describe('judging a fix by the pair of instructions', () => {
  const at = (o: number) => ({ file: 'f.cu', start: { line: 0, character: o, offset: o }, end: { line: 0, character: o + 1, offset: o + 1 } });
  const finding = (category: string, here: number, there: number) => ({ kind: 'race', category, message: `${category} ${here} ${there}`, range: at(here), relatedRanges: [at(there)] }) as unknown as CheckReport['findings'][number];
  const report = (...findings: CheckReport['findings']) => ({ analysed: true, findings, diagnostics: [] }) as unknown as CheckReport;
  const before = report(finding('missing-block-fence', 10, 20), finding('missing-device-fence', 30, 20));
  const none: [] = [];
  test('the same race reported the other way round (the fix changed who ran first) is not new, and is still there', () => {
    const other = judgeFix(before, before.findings[0], none, report(finding('missing-device-fence', 20, 30)));
    assert.deepEqual(other, { ok: true, added: [], remains: false });
    const same = judgeFix(before, before.findings[0], none, report(finding('missing-block-fence', 20, 10)));
    assert.equal(same.remains, true);
  });
  test('an intra-warp race of the fixed pair is the race left between lanes; of another old pair it is not new', () => {
    assert.deepEqual(judgeFix(before, before.findings[0], none, report(finding('intra-warp', 20, 10))), { ok: false, added: [], remains: true });
    assert.deepEqual(judgeFix(before, before.findings[0], none, report(finding('intra-warp', 30, 20))), { ok: true, added: [], remains: false });
    assert.deepEqual(judgeFix(before, before.findings[0], none, report(finding('intra-warp', 40, 20))).added, ['intra-warp@f.cu#40|f.cu#20']);
  });
});

describe('fix property', () => {
  const programs: { name: string; text: string; defines: string[] }[] = [];
  for (const c of loadRaceCases()) {
    if (c.expect.length) programs.push({ name: c.file, text: c.text, defines: [] });
    if (c.expectRacey?.length) programs.push({ name: `${c.file} -DRACEY`, text: c.text, defines: ['RACEY'] });
  }
  for (const f of fs.readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.cu'))) programs.push({ name: `examples/${f}`, text: fs.readFileSync(path.join(ROOT, 'examples', f), 'utf8'), defines: [] });

  test('the suite has racy programs with fixes to try', () => {
    assert.ok(programs.length >= 25, String(programs.length));
  });
  for (const p of programs) {
    test(`${p.name}: each preferred fix removes its race and adds nothing`, () => {
      const before = check(p.text, p.defines, p.name);
      const fixable = before.findings.filter((f) => f.kind === 'race' && f.fixes.some((x) => x.preferred));
      for (const finding of fixable) {
        const fix = finding.fixes.find((x) => x.preferred)!;
        const after = check(applyEdits(p.text, fix.edits), p.defines, p.name);
        assert.ok(after.analysed, `${finding.message}: the fixed program must still be analysable`);
        const outcome = judgeFix(before, finding, fix.edits, after);
        assert.ok(!outcome.remains, `fix "${fix.title}" left the race: ${finding.message}`);
        assert.deepEqual(outcome.added, [], `fix "${fix.title}" added findings`);
      }
    });
  }
  test('quick-fix titles are short imperatives without markup (the explanation is in the diagnostic)', () => {
    const titles = new Set<string>();
    for (const p of programs) for (const f of check(p.text, p.defines, p.name).findings) for (const x of f.fixes) titles.add(x.title);
    assert.ok(titles.size >= 5, `only ${titles.size} distinct titles: ${[...titles].join(' | ')}`);
    for (const t of titles) {
      assert.doesNotMatch(t, /`/, t);
      assert.match(t, /^(Use|Widen|Insert|Make|Declare|Take|Hold) /, t);
      assert.ok(t.length <= 80, `${t.length} characters: ${t}`);
    }
  });

  test('applying every preferred fix at once leaves the examples clean', () => {
    const file = path.join(ROOT, 'examples', 'scoped-counter.cu');
    const text = fs.readFileSync(file, 'utf8');
    const report = check(text, [], file);
    assert.ok(report.findings.length > 0);
    const out = applyPreferredFixes(text, file, report.findings.map((f) => f.fixes));
    assert.deepEqual(check(out.text, [], file).findings.map((f) => f.message), []);
  });
});
