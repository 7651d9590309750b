// Kernel-only files and the SARIF converter, in process: the GPUVerify-style header, a
// kernel launched directly by runProgram, and a hand-built report turned into SARIF.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkParsedEntry, type CheckReport } from '../../../sims/check';
import type { Range } from '../../../sims/frontend/source';
import type { Memory } from '../../../sims/gpu/memory';
import { chooseEntry } from '../../../sims/host/entry';
import { parseDim3, readKernelHeader } from '../../../sims/host/kernelHeader';
import { entryAllocationSize, ENTRY_MAX_BYTES, runProgram, type KernelEntry } from '../../../sims/host/run';
import { documentedAnchor, toSarif } from '../../../sims/report/sarif';
import { parseVirtual } from '../../support/parseFile';
import { sarifErrors } from '../../support/sarifSchema';

const ROOT = path.resolve(__dirname, '..', '..', '..');

test('parseDim3: one to three positive integers, bracketed or not', () => {
  assert.deepEqual(parseDim3('64'), [64, 1, 1]);
  assert.deepEqual(parseDim3('[8,8]'), [8, 8, 1]);
  assert.deepEqual(parseDim3('[2, 2, 1]'), [2, 2, 1]);
  assert.deepEqual(parseDim3('4,2'), [4, 2, 1]);
  for (const bad of ['', '0', '[8,0]', '[8,x]', '-1', '1.5', '[1,2,3,4]', '[]', '8,', '2147483648'])
    assert.equal(typeof parseDim3(bad), 'string', `'${bad}' is not a dimension`);
});

test('readKernelHeader: GPUVerify header lines only, --warp-sync read, unknown flags ignored', () => {
  const { header, problems } = readKernelHeader(
    '//pass\n//--blockDim=[8, 8] --gridDim=2 --no-inline --warp-sync=32 -DWIDTH=256 -D FAST\n// --gridDim=[3,1,2]\n\n__global__ void k() {}\n//--blockDim=1\n',
  );
  assert.deepEqual(problems, []);
  assert.deepEqual(header, { block: [8, 8, 1], grid: [3, 1, 2], defines: ['WIDTH=256', 'FAST'], warpSync: 32 });
  // Prose and test-status lines are not headers; code ends the header.
  assert.deepEqual(readKernelHeader('// this kernel uses --blockDim=oops\n//xfail:BOOGIE_ERROR\n').problems, []);
  assert.deepEqual(readKernelHeader('#include <x.h>\n//--blockDim=64 --gridDim=2\n').header, { defines: [] });
  assert.deepEqual(readKernelHeader('/* c */\n//--blockDim=64\n').header, { defines: [] });
  assert.deepEqual(readKernelHeader('\uFEFF//--blockDim=64 --gridDim=2\r\n__global__ void k() {}\r\n').header, { block: [64, 1, 1], grid: [2, 1, 1], defines: [] });
});

test('readKernelHeader: malformed values are reported at their line and column', () => {
  const { problems } = readKernelHeader('//pass\n//--gridDim=2 --blockDim=[8,x]  --gridDim= -D3X\n');
  assert.deepEqual(
    problems.map((p) => `${p.line}:${p.column}-${p.endColumn} ${p.message}`),
    [
      "2:26-31 malformed --blockDim: '[8,x]' is not a dimension: expected a positive integer or [x,y,z] with one to three of them",
      '2:33-43 --gridDim needs a value: --gridDim=N or --gridDim=[x,y,z]',
      "2:44-48 malformed -D '-D3X': expected -DNAME or -DNAME=VALUE",
    ],
  );
  assert.match(readKernelHeader('//--warp-sync=x').problems[0].message, /--warp-sync needs the warp's size/);
  assert.match(readKernelHeader('//--blockDim=[0,4]').problems[0].message, /zero dimension/);
  assert.match(readKernelHeader('//--blockDim=[8,8').problems[0].message, /is not a dimension/);
});

/** Runs `entry` on main.cu and returns the run and the allocations named after parameters. */
function runEntry(source: string, entry: KernelEntry) {
  let memory: Memory | undefined;
  const parsed = parseVirtual({ 'main.cu': source });
  assert.deepEqual(parsed.diagnostics.filter((d) => d.severity === 'error'), []);
  const run = runProgram(parsed, { entry, attach: (m) => (memory = m) });
  const allocation = (label: string) => {
    for (let id = 1; ; id++) {
      const a = memory!.allocation(id);
      if (!a) return undefined;
      if (a.label === label) return a;
    }
  };
  return { run, allocation };
}

test('runProgram runs an entry kernel: zeroed pointer arguments, scalars converted, structs zeroed', () => {
  const source = [
    '#include <stdio.h>',
    'struct P { int a; float b; };',
    '__global__ void k(double *d, const int *in, int n, short s, float f, struct P p, bool flag) {',
    '  unsigned t = threadIdx.x + blockIdx.x * blockDim.x;',
    '  d[t] = in[t] + n;',
    '  if (t == 0) printf("n=%d s=%d f=%.2f p=%d/%.1f flag=%d in=%d\\n", n, s, f, p.a, p.b, flag, in[5]);',
    '}',
    '',
  ].join('\n');
  const { run, allocation } = runEntry(source, { kernel: 'k', grid: [2, 1, 1], block: [32, 1, 1], args: { n: 7, s: 70000, f: 0.125, flag: 3 } });
  assert.deepEqual(run.findings, []);
  assert.equal(run.exitCode, 0);
  assert.equal(run.launches, 1);
  assert.equal(run.stdout, 'n=7 s=4464 f=0.12 p=0/0.0 flag=1 in=0\n');
  // 64 threads: 256 elements each, of the pointee's size.
  const d = allocation('d')!;
  assert.equal(d.space, 'global');
  assert.equal(d.size, 64 * 8 * 256);
  assert.equal(d.view.getFloat64(8 * 5, true), 7, 'each thread wrote its element');
  assert.equal(allocation('in')!.size, 64 * 4 * 256);
  assert.equal(allocation('in')!.layout?.[0].name, 'in');
});

test('runProgram reports a missing, overloaded or template entry kernel', () => {
  const launch = { grid: [1, 1, 1] as [number, number, number], block: [32, 1, 1] as [number, number, number], args: {} };
  const missing = runEntry('__global__ void k(int *p) { p[0] = 1; }\n', { kernel: 'nope', ...launch }).run;
  assert.deepEqual(missing.findings.map((f) => [f.kind, f.message]), [['no-kernel', "the program has no kernel named 'nope'"]]);
  assert.equal(missing.launches, 0);
  const device = runEntry('__device__ int f(int x) { return x; }\n__global__ void k() {}\n', { kernel: 'f', ...launch }).run;
  assert.deepEqual(device.findings.map((f) => [f.kind, f.message]), [['no-kernel', "'f' is a device function, not a kernel (__global__)"]]);
  const overloaded = runEntry('__global__ void k(int *p) { p[0] = 1; }\n__global__ void k(float *p) { p[0] = 1; }\n', { kernel: 'k', ...launch }).run;
  assert.equal(overloaded.findings[0].kind, 'not-supported');
  assert.match(overloaded.findings[0].message, /overloaded \(2 definitions\)/);
  assert.equal(overloaded.findings[0].range?.start.line, 1);
  const template = runEntry('template <int N> __global__ void k(int *p) { p[0] = N; }\n', { kernel: 'k', ...launch }).run;
  assert.equal(template.findings[0].kind, 'not-supported');
  assert.match(template.findings[0].message, /is a template/);
});

test('entry pointer arguments: one element per thread at least, 256 up to 64 MiB', () => {
  assert.equal(entryAllocationSize(1, 1), 256);
  assert.equal(entryAllocationSize(1, 0), 256, 'void pointers count bytes');
  assert.equal(entryAllocationSize(1024, 4), 1024 * 4 * 256);
  assert.equal(entryAllocationSize(1 << 20, 8), ENTRY_MAX_BYTES);
  assert.equal(entryAllocationSize(1 << 22, 32), (1 << 22) * 32, 'never less than one element per thread');
  // The arrays of one struct argument share the cap: 42 pointers do not ask for 42 × 64 MiB.
  assert.equal(entryAllocationSize(1 << 20, 8, 42), Math.max((1 << 20) * 8, ENTRY_MAX_BYTES / 42));
  assert.equal(entryAllocationSize(64, 4, 2), 64 * 4 * 256, 'small launches keep their 256 elements per thread');
});

test('chooseEntry: main, the only kernel, or what is missing', () => {
  const withMain = parseVirtual({ 'main.cu': '__global__ void k(int n) {}\nint main() { k<<<1, 1>>>(1); return 0; }\n' });
  assert.deepEqual(chooseEntry(withMain, { args: {} }, { grid: [2, 1, 1], block: [4, 1, 1], defines: [] }), { kind: 'main' }, 'a header does not replace main');
  assert.equal(chooseEntry(withMain, { args: { n: 1 } }, { defines: [] }).kind, 'usage');
  assert.deepEqual(chooseEntry(withMain, { kernel: 'k', grid: [2, 1, 1], block: [4, 1, 1], args: { n: 3 } }, { defines: [] }), {
    kind: 'entry',
    entry: { kernel: 'k', grid: [2, 1, 1], block: [4, 1, 1], args: { n: 3 } },
  });
  const only = parseVirtual({ 'main.cu': '__global__ void k(int *p);\n__global__ void k(int *p) { p[0] = 1; }\n' });
  assert.deepEqual(chooseEntry(only, { block: [64, 1, 1], args: {} }, { grid: [2, 1, 1], block: [8, 1, 1], defines: [] }), {
    kind: 'entry',
    entry: { kernel: 'k', grid: [2, 1, 1], block: [64, 1, 1], args: {} },
  });
  const noGrid = chooseEntry(only, { args: {} }, { block: [8, 1, 1], defines: [] });
  assert.equal(noGrid.kind, 'problem');
  assert.match((noGrid as { message: string }).message, /no grid size to launch kernel 'k' with: give --grid, or a header line/);
  const nothing = chooseEntry(parseVirtual({ 'main.cu': 'int x;\n' }), { args: {} }, { defines: [] });
  assert.deepEqual(nothing, { kind: 'problem', message: 'the program has neither a main function nor a kernel to run' });
  // A block shape the device refuses is decided when the launch runs (a verifier's shape, run
  // as asked up to the simulator's block size); only more threads than the simulator holds is refused up front.
  const tooWide = chooseEntry(only, { args: {} }, { grid: [2, 1, 1], block: [2048, 1, 1], defines: [] });
  assert.equal(tooWide.kind, 'entry');
  const total = chooseEntry(only, { args: {} }, { grid: [65535, 65535, 1], block: [1024, 1, 1], defines: [] });
  assert.match((total as { message: string }).message, /the launch asks for \d+ threads; the simulator's limit is 33554432/);
});

function range(file: string, line: number, character: number, endLine: number, endCharacter: number): Range {
  return { file, start: { line, character, offset: 0 }, end: { line: endLine, character: endCharacter, offset: 0 } };
}

test('SARIF from a hand-built report: fixes across files, insertions, notifications', () => {
  const loc = (file: string, line: number, column: number, endLine: number, endColumn: number) => ({ file, line, column, endLine, endColumn });
  const report: CheckReport = {
    file: 'src/my kernel.cu',
    analysed: true,
    findings: [
      {
        kind: 'race',
        category: 'missing-lock',
        scope: 'block',
        severity: 'warning',
        message: 'write races with the write at line 3',
        location: loc('src/my kernel.cu', 4, 5, 4, 12),
        related: [
          { location: loc('/abs/inc/lock.cuh', 3, 1, 3, 9), message: 'the other write' },
          { location: loc('src/my kernel.cu', 2, 1, 2, 2), message: 'the lock' },
        ],
        address: 'stack.top',
        accessor: { block: 0, warp: 1, lane: 2 },
        previousAccessor: { block: 0, warp: 0, lane: 0 },
        count: 2,
        fixes: [
          {
            title: 'Take the lock at device scope',
            preferred: true,
            edits: [
              { range: range('src/my kernel.cu', 1, 4, 1, 19), newText: 'atomicCAS' },
              { range: range('/abs/inc/lock.cuh', 9, 0, 9, 0), newText: '__threadfence();\n' },
              { range: range('src/my kernel.cu', 6, 2, 7, 0), newText: '' },
            ],
          },
          { title: 'Something else', preferred: false, edits: [{ range: range('src/my kernel.cu', 0, 0, 0, 0), newText: '#include "lock.cuh"\n' }] },
        ],
      },
      { kind: 'out-of-bounds', category: 'out-of-bounds', scope: null, severity: 'error', message: 'write past the end', location: loc('src/my kernel.cu', 5, 3, 5, 9), related: [], count: 1, fixes: [] },
    ],
    diagnostics: [
      { severity: 'warning', code: 'format-mismatch', message: 'too many arguments', location: loc('src/my kernel.cu', 8, 1, 8, 7) },
      { severity: 'information', message: 'no location, no code' },
    ],
    output: '',
    stats: { launches: 1, steps: 10, device: 'scord-paper', detection: 'exact', granularity: 4, schedules: 1, exitCode: 0 },
  };
  const log = toSarif(report, { cwd: '/work/repo', exitCode: 1 });
  assert.deepEqual(sarifErrors(log), []);
  const run = log.runs[0];
  assert.deepEqual(run.originalUriBaseIds, { '%SRCROOT%': { uri: 'file:///work/repo/' } });
  assert.deepEqual(
    run.tool.driver.rules?.map((r) => [r.id, r.helpUri, r.defaultConfiguration?.level]),
    [
      ['missing-lock', undefined, 'warning'],
      ['out-of-bounds', undefined, 'error'],
    ],
  );
  const [race, oob] = run.results!;
  assert.equal(race.ruleIndex, 0);
  assert.equal(oob.ruleIndex, 1);
  assert.equal(oob.level, 'error');
  assert.deepEqual(race.locations, [{ physicalLocation: { artifactLocation: { uri: 'src/my%20kernel.cu', uriBaseId: '%SRCROOT%' }, region: { startLine: 4, startColumn: 5, endLine: 4, endColumn: 12 } } }]);
  assert.deepEqual(race.relatedLocations, [
    { id: 1, physicalLocation: { artifactLocation: { uri: 'file:///abs/inc/lock.cuh' }, region: { startLine: 3, startColumn: 1, endLine: 3, endColumn: 9 } }, message: { text: 'the other write' } },
    { id: 2, physicalLocation: { artifactLocation: { uri: 'src/my%20kernel.cu', uriBaseId: '%SRCROOT%' }, region: { startLine: 2, startColumn: 1, endLine: 2, endColumn: 2 } }, message: { text: 'the lock' } },
  ]);
  assert.deepEqual(race.properties, { kind: 'race', scope: 'block', count: 2, address: 'stack.top', accessor: { block: 0, warp: 1, lane: 2 }, previousAccessor: { block: 0, warp: 0, lane: 0 } });
  assert.deepEqual(race.fixes, [
    {
      description: { text: 'Take the lock at device scope' },
      artifactChanges: [
        {
          artifactLocation: { uri: 'src/my%20kernel.cu', uriBaseId: '%SRCROOT%' },
          replacements: [
            { deletedRegion: { startLine: 2, startColumn: 5, endLine: 2, endColumn: 20 }, insertedContent: { text: 'atomicCAS' } },
            { deletedRegion: { startLine: 7, startColumn: 3, endLine: 8, endColumn: 1 }, insertedContent: { text: '' } },
          ],
        },
        {
          artifactLocation: { uri: 'file:///abs/inc/lock.cuh' },
          replacements: [{ deletedRegion: { startLine: 10, startColumn: 1, endLine: 10, endColumn: 1 }, insertedContent: { text: '__threadfence();\n' } }],
        },
      ],
      properties: { preferred: true },
    },
    {
      description: { text: 'Something else' },
      artifactChanges: [
        { artifactLocation: { uri: 'src/my%20kernel.cu', uriBaseId: '%SRCROOT%' }, replacements: [{ deletedRegion: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 }, insertedContent: { text: '#include "lock.cuh"\n' } }] },
      ],
    },
  ]);
  assert.equal(oob.fixes, undefined);
  assert.equal(oob.relatedLocations, undefined);
  assert.deepEqual(run.invocations, [
    {
      executionSuccessful: true,
      exitCode: 1,
      toolExecutionNotifications: [
        {
          level: 'warning',
          message: { text: 'too many arguments' },
          locations: [{ physicalLocation: { artifactLocation: { uri: 'src/my%20kernel.cu', uriBaseId: '%SRCROOT%' }, region: { startLine: 8, startColumn: 1, endLine: 8, endColumn: 7 } } }],
          descriptor: { id: 'format-mismatch', index: 0 },
        },
        { level: 'note', message: { text: 'no location, no code' } },
      ],
    },
  ]);
  // No help address: the project has none that would resolve for a reader of the log.
  assert.deepEqual(run.tool.driver.notifications?.map((n) => [n.id, n.helpUri]), [['format-mismatch', undefined]]);
  assert.equal(run.tool.driver.informationUri, undefined);
});

test('every documented code has its anchor in docs/diagnostic-codes.md (the editor links them)', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'docs', 'diagnostic-codes.md'), 'utf8');
  for (const id of ['missing-block-fence', 'missing-device-fence', 'non-strong-access', 'scoped-atomic', 'missing-lock', 'lock-scope', 'shared-memory', 'launch', 'launch-header', 'undeclared-identifier']) {
    assert.equal(documentedAnchor(id), id);
    assert.ok(readme.includes(`<a id="${id}"></a>`), `docs/diagnostic-codes.md has an anchor for ${id}`);
  }
  assert.equal(documentedAnchor('no-such-code'), undefined);
});

test("a header's --warp-sync runs lockstep warps when the simulator's 32-lane warps hold its warps", () => {
  // The first half of the block reads what the second half wrote a step before: racy unless
  // the block's one warp runs in lockstep.
  const kernel =
    '__global__ void k(int *A) {\n  int t = threadIdx.y * blockDim.x + threadIdx.x, half = blockDim.x * blockDim.y / 2;\n  A[t] = t;\n  if (t < half) A[t] += A[t + half];\n}\n';
  const categories = (header: string): string[] => {
    const text = header + kernel;
    const report = checkParsedEntry(parseVirtual({ 'main.cu': text }), { fileName: 'main.cu', text }, readKernelHeader(text).header) as CheckReport;
    assert.equal(report.analysed, true);
    return report.findings.map((f) => f.category);
  };
  assert.deepEqual(categories('//--blockDim=32 --gridDim=1\n'), ['intra-warp']);
  assert.deepEqual(categories('//--blockDim=32 --gridDim=1 --warp-sync=32\n'), []);
  // Warps of 16 in a block of 32: two of them in one simulated warp would hide their races.
  assert.deepEqual(categories('//--blockDim=32 --gridDim=1 --warp-sync=16\n'), ['intra-warp']);
  assert.deepEqual(categories('//--blockDim=[4,4] --gridDim=1\n'), ['intra-warp']);
  assert.deepEqual(categories('//--blockDim=[4,4] --gridDim=1 --warp-sync=16\n'), []);
});

test('under --warp-sync the lanes of one store still race: lockstep orders instructions, not the lanes of one', () => {
  const categories = (body: string): string[] => {
    const text = `//--blockDim=32 --gridDim=1 --warp-sync=32\n__global__ void k(int *A) {\n  __shared__ int s[32];\n${body}\n}\n`;
    const report = checkParsedEntry(parseVirtual({ 'main.cu': text }), { fileName: 'main.cu', text }, readKernelHeader(text).header) as CheckReport;
    assert.equal(report.analysed, true);
    return report.findings.map((f) => `${f.category}@${f.location.line}`);
  };
  assert.deepEqual(categories('  A[0] = threadIdx.x;'), ['intra-warp@4']);
  assert.deepEqual(categories('  A[0] = 5;'), ['benign-same-value@4']);
  assert.deepEqual(categories('  s[threadIdx.x / 2] = threadIdx.x;\n  A[threadIdx.x] = s[threadIdx.x / 2];'), ['intra-warp@4']);
  // A 16-byte store is several accesses of each lane, one lane after the other: still one store.
  assert.deepEqual(categories('  ((int4 *)A)[threadIdx.x / 2] = make_int4(threadIdx.x, 0, 0, 0);'), ['intra-warp@4']);
  // One lane a turn of a loop: each store is its own instruction, and lockstep orders them.
  assert.deepEqual(categories('  for (int i = 0; i < 32; i++) if (threadIdx.x == i) A[1] = i;'), []);
  // Lanes writing their own words, and a store after a load of the same site's word (`+=`): no conflict in one instruction.
  assert.deepEqual(categories('  A[threadIdx.x] = threadIdx.x;\n  A[threadIdx.x] += 1;'), []);
  // Bytes of one word written by different lanes: no byte in common.
  assert.deepEqual(categories('  ((char *)A)[threadIdx.x] = (char)threadIdx.x;'), []);
});

test('a kernel run on its own is also run with its unset integer scalars at 1: a race that any non-zero offset shows is found', () => {
  // Thread t reads A[t + offset] and thread t + offset writes it: a race for every offset but 0.
  const text = '//--blockDim=64 --gridDim=1\n__global__ void shift(int *A, int offset) {\n  int temp = A[threadIdx.x + offset];\n  A[threadIdx.x] += temp;\n}\n';
  const parsed = parseVirtual({ 'main.cu': text });
  const header = readKernelHeader(text).header;
  const report = checkParsedEntry(parsed, { fileName: 'main.cu', text }, header) as CheckReport;
  assert.equal(report.analysed, true);
  assert.deepEqual(report.findings.map((f) => [f.category, f.location.line]), [['missing-block-fence', 4]]);
  // A value given (--arg, or the header's -D) is the one that runs: offset 0 races with nothing.
  const given = checkParsedEntry(parsed, { fileName: 'main.cu', text }, header, { args: { offset: 0 } }) as CheckReport;
  assert.equal(given.analysed, true);
  assert.deepEqual(given.findings, []);
});

test('a kernel run on its own is run a third time at the scalar where two threads would meet: a race only one value shows is found', () => {
  // Thread 3 writes A[3 + offset], thread 40 writes A[40]: they meet at offset 37 only, which
  // neither 0 nor 1 shows; the first two runs' addresses give it.
  const text = '//--blockDim=64 --gridDim=1\n__global__ void meet(float *A, int offset) {\n  if (threadIdx.x == 3) A[threadIdx.x + offset] = 1.0f;\n  if (threadIdx.x == 40) A[threadIdx.x] = 2.0f;\n}\n';
  const parsed = parseVirtual({ 'main.cu': text });
  const header = readKernelHeader(text).header;
  const report = checkParsedEntry(parsed, { fileName: 'main.cu', text }, header) as CheckReport;
  assert.equal(report.analysed, true);
  assert.deepEqual(report.findings.map((f) => [f.category, f.location.line, f.related[0]?.location.line]), [['missing-block-fence', 4, 3]]);
  // Ordered by a barrier, the same meeting is no race.
  const ordered = text.replace('  if (threadIdx.x == 40)', '  __syncthreads();\n  if (threadIdx.x == 40)');
  const clean = checkParsedEntry(parseVirtual({ 'main.cu': ordered }), { fileName: 'main.cu', text: ordered }, readKernelHeader(ordered).header) as CheckReport;
  assert.equal(clean.analysed, true);
  assert.deepEqual(clean.findings, []);
});

test('a kernel run on its own that uses extern __shared__ gets the 48 KB a launch may ask without opting in', () => {
  const text = (read: string): string => `//--blockDim=32 --gridDim=1\n__global__ void k(int *A) {\n  extern __shared__ int s[];\n  s[threadIdx.x] = A[threadIdx.x];\n  __syncthreads();\n  A[threadIdx.x] = ${read};\n}\n`;
  const check = (source: string): CheckReport => checkParsedEntry(parseVirtual({ 'main.cu': source }), { fileName: 'main.cu', text: source }, readKernelHeader(source).header) as CheckReport;
  assert.deepEqual(check(text('s[31 - threadIdx.x]')).findings, []);
  // The last word of the 48 KB is in bounds, the next one is not.
  assert.deepEqual(check(text('s[threadIdx.x + 12256]')).findings, []);
  assert.deepEqual(check(text('s[threadIdx.x + 12257]')).findings.map((f) => f.category), ['out-of-bounds']);
});

test('a kernel run on its own also runs on made-up data: races and barriers that only some contents show are found', () => {
  const check = (body: string, params = 'const int *in, int *out'): CheckReport => {
    const text = `//--blockDim=64 --gridDim=1\n__global__ void k(${params}) {\n${body}\n}\n`;
    const report = checkParsedEntry(parseVirtual({ 'main.cu': text }), { fileName: 'main.cu', text }, readKernelHeader(text).header) as CheckReport;
    assert.equal(report.analysed, true);
    return report;
  };
  const kinds = (r: CheckReport): string[] => r.findings.map((f) => `${f.category}@${f.location.line}`);
  // Zeros take neither branch; made-up data takes both.
  assert.deepEqual(kinds(check('  if (in[threadIdx.x] > 0) out[0] = threadIdx.x;')), ['missing-block-fence@3']);
  assert.deepEqual(kinds(check('  if (in[threadIdx.x] != 0) __syncthreads();\n  out[threadIdx.x] = 1;')), ['barrier-divergence@3']);
  // Contents used as indices may meet: a verifier takes them as arbitrary too.
  assert.deepEqual(kinds(check('  out[in[threadIdx.x]] = threadIdx.x;')), ['missing-block-fence@3']);
  // What made-up data cannot make racy stays clean, and only races and barriers come from that run.
  assert.deepEqual(kinds(check('  out[threadIdx.x] = in[threadIdx.x] * 2;\n  for (int i = 0; i < in[threadIdx.x]; i++) out[threadIdx.x] += i;')), []);
  assert.deepEqual(kinds(check('  float s = 0;\n  for (int i = 0; i < 4; i++) s += in[threadIdx.x * 4 + i];\n  out[threadIdx.x] = s > 0;', 'const float *in, int *out')), []);
});

test('a struct argument made up for a kernel holds pointers to fresh allocations, so its accesses are checked, not null dereferences', () => {
  const check = (store: string): CheckReport => {
    const text = `//--blockDim=32 --gridDim=2\nstruct Inner { float *q; };\nstruct S { int *p; struct Inner in[2]; };\n__global__ void k(struct S s) {\n  ${store}\n}\n`;
    return checkParsedEntry(parseVirtual({ 'main.cu': text }), { fileName: 'main.cu', text }, readKernelHeader(text).header) as CheckReport;
  };
  const apart = check('s.p[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x; s.in[1].q[threadIdx.x + blockIdx.x * 32] = 1.0f;');
  assert.equal(apart.analysed, true);
  assert.deepEqual(apart.findings.map((f) => f.kind), []);
  // Every thread writes s.p[0] (a race between blocks), and s.in[1].q[0] the same: each field is memory of its own.
  const racy = check('s.p[0] = threadIdx.x; s.in[1].q[0] = threadIdx.x;');
  assert.deepEqual(racy.findings.map((f) => [f.kind, f.range?.start.character]).sort(), [['race', 2], ['race', 24]]);
});
