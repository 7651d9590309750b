// The corpus measurement script (scripts/corpus): how it reads the corpora's own build files and
// test labels, how it classifies a run of the CLI, and that a run that never ends is killed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readCmake, readMakeBuild } from '../../../scripts/corpus/buildFiles';
import { classify, type FindingBrief } from '../../../scripts/corpus/classify';
import { checkArgs } from '../../../scripts/corpus/measure';
import { readGpuVerifyLabel } from '../../../scripts/corpus/gpuverify';
import { mapLimited, runCli, type CliRun } from '../../../scripts/corpus/runner';
import { matchRegions, raceyRegions } from '../../../scripts/corpus/scor';
import { SCOR_INPUTS } from '../../../scripts/corpus/scorInputs';

const ROOT = '/corpus';

function run(exitCode: number | null, report: unknown, extra: Partial<CliRun> = {}): CliRun {
  return { args: [], exitCode, signal: null, timedOut: false, stdout: report === undefined ? '' : JSON.stringify(report), stderr: '', ms: 5, ...extra };
}

const at = (file: string, line: number, column = 3) => ({ file, line, column, endLine: line, endColumn: column + 4 });

test('a GPUVerify label: pass, the launch options, and xfail tests named by the defect they carry', () => {
  const pass = readGpuVerifyLabel('//pass\n//--blockDim=64 --gridDim=2 --no-inline\n\n__global__ void k() {}\n', 'basic');
  assert.deepEqual(pass, { code: 'pass', options: ['--blockDim=64', '--gridDim=2', '--no-inline'], patterns: [], expectation: 'pass' });
  const race = readGpuVerifyLabel('//xfail:NOT_ALL_VERIFIED\n//--blockDim=2 --gridDim=1\n//possible write-write race on A\n\n__global__ void k(int *A) { A[0] = 1; }\n', 'fail/ww');
  assert.equal(race?.expectation, 'race');
  assert.deepEqual(race?.patterns, ['possible write-write race on A']);
  // No pattern: the folder or the kernel's name says it.
  assert.equal(readGpuVerifyLabel('//xfail:NOT_ALL_VERIFIED\n//--blockDim=2 --gridDim=1\n\n__global__ void race_test(int *A) {}\n', 'atomics/add')?.expectation, 'race');
  assert.equal(readGpuVerifyLabel('//xfail:NOT_ALL_VERIFIED\n//--blockDim=32 --gridDim=1\n\n__global__ void race(int *A) {}\n', 'groups/fail/divergence_block')?.expectation, 'barrier-divergence');
  assert.equal(readGpuVerifyLabel('//xfail:NOT_ALL_VERIFIED\n//--blockDim=8 --gridDim=1\n//error: possible null pointer access\n', 'p')?.expectation, 'null-pointer');
  assert.equal(readGpuVerifyLabel('//XFAIL:bugle_error\n//--blockDim=8 --gridDim=1\n', 'p')?.expectation, 'tool-error');
  assert.equal(readGpuVerifyLabel('//xfail:NOT_ALL_VERIFIED\n//--blockDim=8 --gridDim=1\n', 'misc/fail/one')?.expectation, 'unstated-defect');
  assert.equal(readGpuVerifyLabel('__global__ void k() {}\n', 'x'), undefined);
});

test('a CMake target: its sources and include folders, without variables or generator expressions', () => {
  const info = readCmake(`# Sample
include_directories(../../../Common)
add_executable(sorter sorter.cu main.cpp # the host part
  helpers.cpp)
target_include_directories(sorter PRIVATE \${CUDAToolkit_INCLUDE_DIRS} inc)
target_compile_options(sorter PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda>)
`);
  assert.deepEqual(info.targets, [{ name: 'sorter', sources: ['sorter.cu', 'main.cpp', 'helpers.cpp'] }]);
  assert.deepEqual(info.includeDirs, ['../../../Common', 'inc']);
});

test('a Makefile build: prerequisites, -D, -I and -arch of its nvcc line, with ifeq deciding the RACEY flags', () => {
  const makefile = `RACEY    ?=
NBLOCKS  ?= 15
NTHREADS ?= 256
ARCH ?= -arch=compute_60
INCL := -I.

ifeq ($(RACEY),1)
  NVCC_FLAGS  := $(ARCH) -std=c++11 -D RACEY
else
  NVCC_FLAGS  := $(ARCH) -std=c++11
endif

FILES := app_main.cu app_kernel.cu
EXEC  := app

all: $(EXEC)

$(EXEC): $(FILES)
\tnvcc $(NVCC_FLAGS) $(INCL) -D NTHREADS=$(NTHREADS) -D NBLOCKS=$(NBLOCKS) $^ -o $@
`;
  assert.deepEqual(readMakeBuild(makefile, {}), { sources: ['app_main.cu', 'app_kernel.cu'], defines: ['NTHREADS=256', 'NBLOCKS=15'], includeDirs: ['.'], arch: 60 });
  assert.equal(readMakeBuild(makefile, { ARCH: '-arch=sm_80' })?.arch, 80);
  assert.deepEqual(readMakeBuild(makefile, { RACEY: '1' })?.defines, ['RACEY', 'NTHREADS=256', 'NBLOCKS=15']);
  assert.deepEqual(readMakeBuild(makefile, { NBLOCKS: '2' })?.defines, ['NTHREADS=256', 'NBLOCKS=2']);
});

test('#ifdef RACEY blocks, and whether the races a run reports point at them', () => {
  const text = ['#if FAST', '#endif', 'x = 1;', '#ifdef RACEY', '  a();', '#else', '  #if defined(B)', '  b();', '  #endif', '#endif', 'y = 2;', '#if defined(RACEY)', '#endif'].join('\n');
  const regions = raceyRegions(text, 'k.cu');
  assert.deepEqual(regions, [{ file: 'k.cu', ifdef: 4, endif: 10 }, { file: 'k.cu', ifdef: 12, endif: 13 }]);
  const race = (line: number, relatedLine?: number): FindingBrief => ({ kind: 'race', category: 'scoped-atomic', at: `k.cu:${line}:1`, file: 'dir/k.cu', line, related: relatedLine ? [{ file: 'k.cu', line: relatedLine }] : [], message: '' });
  const { hits, away } = matchRegions([{ file: 'k.cu', ifdef: 4, endif: 10 }, { file: 'k.cu', ifdef: 40, endif: 42 }, { file: 'other.cu', ifdef: 1, endif: 3 }], [race(5), race(80, 50), race(200)]);
  assert.deepEqual(hits.map((h) => h.hit), ['at', 'near', 'none']);
  assert.deepEqual(away.map((f) => f.line), [200]);
});

test('a run is classified by its report: completed, refused with the feature and where, compile errors, crashes', () => {
  const completed = classify(run(1, { findings: [{ kind: 'race', category: 'scoped-atomic', message: 'm', location: at('/corpus/src/k.cu', 9), related: [{ location: at('/corpus/src/k.cu', 7) }] }], diagnostics: [], stats: { exitCode: 0 } }), ROOT);
  assert.equal(completed.outcome, 'completed');
  // A run the simulator stopped (its step budget) did not run to completion, whatever its exit status.
  const budget = classify(run(1, { findings: [{ kind: 'step-budget', category: 'step-budget', message: 'the launch did not finish within 200 thread-steps', location: at('/corpus/src/k.cu', 4) }], diagnostics: [], stats: { exitCode: 124 } }), ROOT);
  assert.deepEqual([budget.outcome, budget.where], ['limit', 'src/k.cu:4:3']);
  const invalidShape = classify(run(1, { findings: [{ kind: 'launch-configuration', category: 'launch-configuration', message: 'a block of 2048 threads is more than the device allows', location: at('/corpus/src/k.cu', 4) }], diagnostics: [] }), ROOT);
  assert.equal(invalidShape.outcome, 'completed', "the program's own launch error is a result, not a limit of the simulator");
  assert.deepEqual(completed.findings[0], { kind: 'race', category: 'scoped-atomic', at: 'src/k.cu:9:3', file: 'src/k.cu', line: 9, related: [{ file: 'src/k.cu', line: 7 }], message: 'm' });

  const refused = classify(run(2, { findings: [], diagnostics: [{ severity: 'error', code: 'undeclared-identifier', message: "use of undeclared identifier 'x'", location: at('/corpus/a.cu', 3) }, { severity: 'error', code: 'not-supported', message: 'not supported yet: class templates', location: at('/corpus/inc/e.h', 42, 1) }] }), ROOT);
  assert.deepEqual([refused.outcome, refused.reason, refused.where], ['not-supported', 'class templates', 'inc/e.h:42:1']);
  // The wording of the clang path, without a code.
  assert.equal(classify(run(2, { diagnostics: [{ severity: 'error', message: 'not supported: texture objects', location: at('/corpus/a.cu', 3) }] }), ROOT).reason, 'texture objects');

  const errors = classify(run(2, { findings: [], diagnostics: [{ severity: 'warning', message: 'unused' }, { severity: 'error', code: 'syntax', message: "expected ';'", location: at('/corpus/a.cu', 8, 10) }] }), ROOT);
  assert.deepEqual([errors.outcome, errors.reason, errors.where], ['compile-error', "expected ';'", 'a.cu:8:10']);
  assert.equal(classify(run(2, { diagnostics: [{ severity: 'error', code: 'launch', message: 'block size 2048 in x exceeds the 1024 that scord-paper allows' }] }), ROOT).outcome, 'not-analysed');

  const crash = classify(run(2, undefined, { stderr: 'scord: internal error: cannot read properties of undefined\n' }), ROOT);
  assert.deepEqual([crash.outcome, crash.reason], ['crash', 'scord: internal error: cannot read properties of undefined']);
  assert.equal(classify(run(134, undefined, { stderr: 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n' }), ROOT).reason, 'out of memory (heap cap)');
  assert.equal(classify(run(2, undefined, { stderr: "scord: unknown option '--stdin'\n" }), ROOT).outcome, 'usage');
  assert.equal(classify(run(null, undefined, { timedOut: true, signal: 'SIGKILL' }), ROOT).outcome, 'timeout');
});

test('a run that never ends is killed at its time limit, and at most `jobs` runs are in flight', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'corpus-test-'));
  try {
    const forever = path.join(dir, 'forever.js');
    fs.writeFileSync(forever, 'setInterval(() => {}, 1000); process.stdout.write("started");\n');
    const started = Date.now();
    const r = await runCli(forever, [], dir, { timeoutMs: 400, memoryMb: 64 });
    assert.equal(r.timedOut, true);
    assert.ok(Date.now() - started < 5000, 'killed promptly');
    let inFlight = 0;
    let most = 0;
    await mapLimited([1, 2, 3, 4, 5], 2, async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 10));
      inFlight--;
    });
    assert.equal(most, 2);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the ScoR inputs are the same on every run, in the format each reader expects', () => {
  const graph = SCOR_INPUTS['graph-coloring'].make();
  assert.equal(graph, SCOR_INPUTS['graph-coloring'].make());
  const [header, ...edges] = graph.trim().split('\n');
  const [v, e] = header.split(' ').map(Number);
  assert.equal(edges.length, e);
  assert.ok(edges.every((l) => l.split(' ').map(Number).every((x) => x >= 0 && x < v)));
  const reduction = SCOR_INPUTS.reduction.make().trim().split(/\s+/).map(Number);
  assert.equal(reduction.length, reduction[0] + 1);
});

test('a program that reads its own folder is run with --allow-read when the CLI has it, and the summary says when it has not', () => {
  const program = { name: 'simpleTexture', files: ['/corpus/s/simpleTexture.cu'], includeDirs: ['/corpus/Common'], defines: [], cwd: '/corpus/s', readsOwnFolder: true };
  const ctx = (allowRead: boolean) => ({ cli: 'cli.js', extraArgs: [], limits: { timeoutMs: 1000, memoryMb: 100 }, jobs: 1, top: 1, log: () => undefined, caps: { multiFile: true, stdin: true, allowRead } });
  assert.deepEqual(checkArgs(program, ctx(true)), { args: ['check', '/corpus/s/simpleTexture.cu', '-I', '/corpus/Common', '--format', 'json', '--allow-read'], limitations: [] });
  assert.deepEqual(checkArgs(program, ctx(false)).limitations, ['no --allow-read']);
  assert.ok(!checkArgs({ ...program, readsOwnFolder: false }, ctx(true)).args.includes('--allow-read'));
});
