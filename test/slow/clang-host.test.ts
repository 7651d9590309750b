// Host code as a real WebAssembly program: a CUDA program compiled by clang (both passes, linked
// with libc++) runs main under the project's own WASI and CUDA runtime. What the user sees:
// output in order with device printf, argv, stdin, files kept in memory, exit statuses, kernels
// launched through the simulator (managed memory, copies, races found by the detector), and
// faults, overruns and unsupported calls as located findings.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkWithClang, compileProgram } from '../../sims/clang/check';
import { readKernelHeader } from '../../sims/host/kernelHeader';
import { checkSource, type CheckReport } from '../../sims/check';
import { DEFAULT_MEMORY_LIMIT } from '../../sims/gpu/memory';
import { scord } from '../../sims/cli';
import { unsupportedFeature } from '../../sims/clang/host/cudaImports';
import { DEVICE_PROP_FIELDS, devicePropLayout } from '../../sims/runtime/deviceProperties';
import { SandboxFiles } from '../../sims/clang/host/sandboxFiles';
import { runClangProgram } from '../../sims/clang/host/runProgram';
import { SourceRanges } from '../../sims/clang/ranges';
import { ScordDetector } from '../../sims/detect/scord';
import { CLANG_FIXTURES } from '../support/clangDevice';
import { compiledFixture } from '../support/clangProgram';


const fixture = compiledFixture('host-program.cu', { hostProgram: true });
const { run, lineOf } = fixture;

describe('the program as its user sees it', () => {
  test('host and device output come out in the order they were printed, with argv', () => {
    const r = run(['order', 'extra']);
    assert.equal(r.stdout, 'host before\ndevice says 0\ndevice says 1\nhost after, argc=3 argv[2]=extra\n');
    assert.equal(r.exitCode, 0);
    assert.equal(r.launches, 1);
    assert.deepEqual(r.findings, []);
  });

  test('standard input is read with cin; main’s return value is the exit status', () => {
    const r = run(['stdin'], { stdin: new TextEncoder().encode('4 8 15 16 23 42\n') });
    assert.equal(r.stdout, '6 numbers, sum 108\n');
    assert.equal(r.exitCode, 6);
    assert.equal(run(['stdin']).stdout, '0 numbers, sum 0\n', 'no stdin given: end of file at once');
  });

  test('exit(n) ends the run with status n', () => {
    assert.equal(run(['exit', '42']).exitCode, 42);
    assert.equal(run(['nothing']).exitCode, 5);
  });

  test('a file written with ofstream is in the result and never on disk; other paths are refused', () => {
    const cwdBefore = fs.readdirSync(process.cwd());
    const r = run(['file']);
    assert.equal(r.stdout, 'passwd refused\n');
    assert.deepEqual(Object.keys(r.files ?? {}), ['result.txt']);
    assert.equal(new TextDecoder().decode(r.files!['result.txt']), 'written by the program\n');
    assert.deepEqual(fs.readdirSync(process.cwd()), cwdBefore);
    assert.ok(!fs.existsSync(path.join(CLANG_FIXTURES, 'result.txt')));
  });

  test('with a read folder the program reads its own files, and nothing above that folder', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-host-'));
    try {
      const folder = path.join(root, 'program');
      fs.mkdirSync(folder);
      fs.writeFileSync(path.join(folder, 'input.txt'), 'first line\nsecond\n');
      fs.writeFileSync(path.join(root, 'outside.txt'), 'secret\n');
      const r = run(['readfile'], { readFolder: folder });
      assert.equal(r.stdout, "input: 'first line', outside refused\n");
      assert.equal(run(['readfile']).stdout, "input: '', outside refused\n", 'no folder given: nothing to read');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  test('time, events and rand are the same on every run', () => {
    const a = run(['clock']);
    const b = run(['clock']);
    assert.equal(a.stdout, b.stdout);
    const m = /^([\d.]+) ms, rand \d+, time (\d+)\n$/.exec(a.stdout);
    assert.ok(m, a.stdout);
    assert.ok(Number(m[1]) > 0, 'a kernel between two events takes simulated time');
    assert.ok(Number(m[2]) > 1_700_000_000, 'the wall clock reads a plausible date');
  });
});

describe('kernels launched by main', () => {
  test('cudaMalloc, cudaMemcpy both ways and a kernel: the host reads the results', () => {
    const r = run(['roundtrip']);
    assert.equal(r.stdout, '0 3 189\n');
    assert.deepEqual(r.findings, []);
  });

  test('arguments of every kind reach the kernel: 64-bit, double, a struct by value, char, float', () => {
    const r = run(['args']);
    assert.equal(r.stdout, `${(1n << 60n) + 1n} -9 7022 69\n`);
    assert.deepEqual(r.findings, []);
  });

  test('a managed array is written by a kernel and read directly by host code', () => {
    const r = run(['managed']);
    assert.equal(r.stdout, '2.25 56.25\n');
    assert.deepEqual(r.findings, []);
  });

  test('cudaMemcpyToSymbol and cudaMemcpyFromSymbol reach the __constant__ and __device__ variables', () => {
    const r = run(['symbol']);
    assert.equal(r.stdout, '2 4 6 8\n');
    assert.deepEqual(r.findings, []);
  });

  test('a kernel that faults: the device finding at its line, and the sticky error for every later call', () => {
    const r = run(['fault']);
    assert.equal(r.stdout, 'sync: cudaErrorIllegalAddress; later: an illegal memory access was encountered\n');
    assert.equal(r.exitCode, 1);
    assert.equal(r.findings.length, 1);
    assert.equal(r.findings[0].kind, 'out-of-bounds');
    assert.match(r.findings[0].message, /'dev'/, 'the allocation is named after its variable');
    assert.equal(r.findings[0].range?.start.line! + 1, lineOf('data[threadIdx.x + 8] = 1'));
  });

  test('a __managed__ variable (with __device__ or alone) is one object for host and device code', () => {
    const r = run(['managedvar']);
    assert.equal(r.stdout, 'hits 164, misses 9\n');
    assert.deepEqual(r.findings, []);
  });

  test('host memory that grows while managed memory lives in it: both sides keep seeing the same bytes', () => {
    const r = run(['grow']);
    assert.equal(r.stdout, `${0x01010101 * 2} 9.0\n`);
    assert.deepEqual(r.findings, []);
  });

  test('the detector hears the launch: a block-scope atomic across blocks is a scoped race at its line', () => {
    const { result: r, races } = fixture.runDetected(['race']);
    assert.equal(r.exitCode, 0);
    assert.ok(races.length > 0, 'a race is found');
    assert.equal(races[0].category, 'scoped-atomic');
    assert.equal(races[0].range.start.line + 1, lineOf('atomicAdd_block(counter, 1)'));
    assert.equal(races[0].address, 'counter[0]', 'the allocation is named after the variable cudaMalloc filled');
  });
});

describe('cuBLAS', () => {
  const blas = compiledFixture('cublas.cu', { hostProgram: true });

  test('gemm, gemv, the helpers and level-1 routines compute what the host computes, as kernels with no race', () => {
    const { result: r, races } = blas.runDetected([]);
    assert.match(r.stdout, /^err 0 dot 9430\/9430 nrm 56\.2139\/56\.2139 asum 270\/270 imax 64\n$/);
    assert.equal(r.exitCode, 0);
    assert.deepEqual(r.findings, []);
    assert.deepEqual(races, []);
    assert.ok(r.launches >= 8, `${r.launches} launches: each routine is a kernel`);
  });
});

describe('what goes wrong becomes a finding, never a crash', () => {
  test('host code dereferencing a device pointer: one finding at the line, the output before it kept', () => {
    const r = run(['deref']);
    assert.equal(r.stdout, 'about to touch device memory\n');
    assert.equal(r.exitCode, 139);
    assert.equal(r.findings.length, 1);
    const f = r.findings[0];
    assert.equal(f.kind, 'host-dereferences-device');
    assert.match(f.message, /4-byte write outside the host program's memory.*device pointer/);
    assert.equal(f.range?.start.line! + 1, lineOf('dev[1] = 7'));
  });

  test('a cudaMemcpy that overruns its source is the runtime’s finding, at the call, and returns the error', () => {
    const r = run(['overrun']);
    assert.equal(r.stdout, 'copy: invalid argument\n');
    assert.equal(r.exitCode, 0);
    assert.equal(r.findings.length, 1);
    assert.equal(r.findings[0].kind, 'memcpy-out-of-bounds');
    assert.match(r.findings[0].message, /copying 32 bytes at offset 0 overruns the source .* by 16 bytes/);
    assert.equal(r.findings[0].range?.start.line! + 1, lineOf('cudaError_t e = cudaMemcpy(host, dev'));
  });

  test('a throw, and a std::thread (whose constructor libc++ would throw from), are located `not supported`s that name the feature', () => {
    const thrown = run(['throw']);
    assert.equal(thrown.exitCode, 2);
    assert.deepEqual(thrown.findings.map((f) => [f.kind, f.range?.start.line! + 1]), [['not-supported', lineOf('throw std::runtime_error("boom")')]]);
    assert.match(thrown.findings[0].message, /^not supported: __cxa_allocate_exception \(C\+\+ exceptions: /);
    const thread = run(['thread']);
    assert.equal(thread.exitCode, 2);
    assert.equal(thread.stdout, '');
    assert.deepEqual(thread.findings.map((f) => [f.kind, f.range?.start.line! + 1, f.message]), [['not-supported', lineOf('std::thread t('), 'not supported: std::thread (the host program runs on one thread)']]);
  });

  test('a runtime call the simulator does not provide ends the run with one located `not supported`', () => {
    const r = run(['driver']);
    assert.equal(r.exitCode, 2);
    assert.equal(r.stdout, '');
    assert.equal(r.findings.length, 1);
    assert.equal(r.findings[0].kind, 'not-supported');
    assert.equal(r.findings[0].message, 'not supported: cuDeviceGet (the CUDA driver API)');
    assert.equal(r.findings[0].range?.start.line! + 1, lineOf('cuDeviceGet(&device, 0)'));
  });
});

describe('a kernel that launches kernels', () => {
  test('compiles as relocatable device code, registers, and its child grid runs after it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-rdc-'));
    try {
      const file = path.join(dir, 'nested.cu');
      const text = `#include <cstdio>
__global__ void child(int *p) { p[threadIdx.x] = 1; }
__global__ void parent(int *p) {
  printf("parent\\n");
  child<<<1, 4>>>(p);
}
int main() {
  int *p, h[4];
  cudaMalloc(&p, 16);
  parent<<<1, 1>>>(p);
  cudaDeviceSynchronize();
  cudaMemcpy(h, p, 16, cudaMemcpyDeviceToHost);
  printf("%d %d\\n", h[0], h[3]);
  return 0;
}
`;
      fs.writeFileSync(file, text);
      const compiled = await compileProgram([{ file, defines: [], includeDirs: [] }]);
      if ('failed' in compiled) throw new Error(compiled.failed.map((d) => d.message).join('\n'));
      const at = new SourceRanges((p) => (p === file ? text : undefined));
      const r = runClangProgram({ wasm: compiled.wasm!, device: compiled.device }, { rangeOf: (loc) => (loc ? at.rangeAt(loc.file, loc.line, loc.column) : at.rangeAt(file, 1, 1)) });
      assert.deepEqual(r.findings, []);
      assert.equal(r.stdout, 'parent\n1 1\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the runtime answers as on the built-in path', () => {
  test('memory info, limits and device attributes come from the one runtime', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-runtime-'));
    try {
      const file = path.join(dir, 'queries.cu');
      const text = `#include <cstdio>
int main() {
  char *held; cudaMalloc(&held, 1 << 20);
  size_t freeB = 0, totalB = 0; cudaMemGetInfo(&freeB, &totalB);
  size_t heap = 0, stack = 0; cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 22);
  cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize); cudaDeviceGetLimit(&stack, cudaLimitStackSize);
  int unknown = (int)cudaDeviceSetLimit((cudaLimit)99, 1);
  int clock = 0, sms = 0; cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, 0); cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  printf("%zu %zu %zu %zu %d %d %d\\n", totalB - freeB, totalB, heap, stack, unknown, clock, sms);
  return 0;
}
`;
      fs.writeFileSync(file, text);
      const compiled = await compileProgram([{ file, defines: [], includeDirs: [] }]);
      if ('failed' in compiled) throw new Error(compiled.failed.map((d) => d.message).join('\n'));
      const clang = runClangProgram({ wasm: compiled.wasm!, device: compiled.device }, {});
      const builtin = checkSource({ fileName: file, text: text.replace('<cstdio>', '<stdio.h>'), detect: false });
      assert.deepEqual(clang.findings, []);
      // The MiB held, the whole memory limit (it fits the clang side's 32-bit size_t), the heap
      // limit as set, the stack limit's default, cudaErrorInvalidValue for an unknown limit, the
      // clock in kHz and the SM count: the same on both paths.
      assert.match(clang.stdout, new RegExp(`^1048576 ${DEFAULT_MEMORY_LIMIT} 4194304 1024 1 1000000 \\d+\n$`));
      assert.equal(clang.stdout, builtin.output);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a program of several files', () => {
  test('main in one file launches a kernel of another through its wrapper', async () => {
    const units = ['host-multi-main.cu', 'host-multi-kernels.cu'].map((f) => ({ file: path.join(CLANG_FIXTURES, f), defines: [], includeDirs: [] }));
    const compiled = await compileProgram(units);
    if ('failed' in compiled) throw new Error(compiled.failed.map((d) => d.message).join('\n'));
    const r = runClangProgram({ wasm: compiled.wasm!, device: compiled.device }, {});
    assert.equal(r.stdout, '100 131\n');
    assert.equal(r.launches, 1);
    assert.deepEqual(r.findings, []);
  });

  test('device variables one file defines and another declares extern are one variable (relocatable device code)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-extern-vars-'));
    try {
      const use = path.join(dir, 'use.cu');
      const define = path.join(dir, 'define.cu');
      fs.writeFileSync(use, `#include <cstdio>
extern __constant__ float weights[4];
extern __device__ int offset;
__global__ void k(float *o) { o[threadIdx.x] = weights[threadIdx.x] + offset; }
int main() {
  float h[4] = {1, 2, 3, 4}, *d;
  int n = 10;
  cudaError_t a = cudaMemcpyToSymbol(weights, h, sizeof h), b = cudaMemcpyToSymbol(offset, &n, sizeof n);
  cudaMalloc(&d, sizeof h);
  k<<<1, 4>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%s %s %g %g %g %g\\n", cudaGetErrorName(a), cudaGetErrorName(b), h[0], h[1], h[2], h[3]);
  return 0;
}
`);
      fs.writeFileSync(define, '__constant__ float weights[4];\n__device__ int offset;\n');
      const units = [use, define].map((file) => ({ file, defines: [], includeDirs: [] }));
      const compiled = await compileProgram(units);
      if ('failed' in compiled) throw new Error(compiled.failed.map((d) => d.message).join('\n'));
      const r = runClangProgram({ wasm: compiled.wasm!, device: compiled.device }, {});
      assert.equal(r.stdout, 'cudaSuccess cudaSuccess 11 12 13 14\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a kernel run without a host program', () => {
  test('the entry kernel gets zeroed arrays and the scalars given', () => {
    const detectors: ScordDetector[] = [];
    const r = runClangProgram(
      { device: fixture.program.device },
      {
        entry: { kernel: 'countAll', grid: [2, 1, 1], block: [32, 1, 1], args: {} },
        listen: (memory) => {
          const d = new ScordDetector(memory, {});
          detectors.push(d);
          return d.listener;
        },
      },
    );
    assert.equal(r.exitCode, 0);
    assert.equal(r.launches, 1);
    assert.ok(detectors.flatMap((d) => d.findings()).some((f) => f.category === 'scoped-atomic'));
    const missing = runClangProgram({ device: fixture.program.device }, { entry: { kernel: 'nosuch', grid: [1, 1, 1], block: [1, 1, 1], args: {} } });
    assert.equal(missing.exitCode, 2);
    assert.match(missing.findings[0].message, /no kernel named 'nosuch' \(its kernels: .*countAll/);
  });
});

describe('a kernel-only file', () => {
  test('runs from its launch header even when its host side does not compile, as GPUVerify reads it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-kernel-only-'));
    try {
      const file = path.join(dir, 'arch.cu');
      // Written for a device-only reader: the host pass has no __CUDA_ARCH__ and stops at #error.
      const body = `#if __CUDA_ARCH__ < 350
#error Unexpected __CUDA_ARCH__
#endif
__global__ void bump(int *p) { atomicAdd_block(&p[0], 1); }
`;
      const check = (text: string) => checkWithClang({ fileName: file, text }, { units: [{ file, text, defines: [], includeDirs: [] }], launch: { request: { args: {} }, header: readKernelHeader(text).header } });
      const withHeader = await check(`//--blockDim=32 --gridDim=2\n${body}`);
      assert.equal(withHeader.analysed, true, JSON.stringify(withHeader.diagnostics));
      assert.deepEqual(withHeader.findings.map((f) => [f.category, f.range?.start.line]), [['scoped-atomic', 4]]);
      assert.ok(withHeader.diagnostics.some((d) => d.severity === 'warning' && /Unexpected __CUDA_ARCH__ \(host pass; ignored/.test(d.message)));
      // Without a header it is a whole program, and its host side must compile.
      const plain = await check(body);
      assert.equal(plain.analysed, false);
      assert.ok(plain.diagnostics.some((d) => d.severity === 'error' && /Unexpected __CUDA_ARCH__/.test(d.message)));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Kernel-only files of the tests below live here (clang reads them as text; the path names them). */
const KERNELS = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-kernels-'));
after(() => fs.rmSync(KERNELS, { recursive: true, force: true }));

/** A kernel-only file run from its header on the clang path, with the scalar arguments `args`. */
function checkKernelFile(name: string, text: string, args: Record<string, number> = {}): Promise<CheckReport> {
  const file = path.join(KERNELS, name);
  return checkWithClang({ fileName: file, text }, { units: [{ file, text, defines: [], includeDirs: [] }], launch: { request: { args }, header: readKernelHeader(text).header } });
}

describe('a kernel run from its header on the clang path', () => {
  test('is also run with its unset integer scalars at 1, as on the hand-written path: a race any non-zero offset shows is found', async () => {
    // GPUVerify's __requires (which the hand-written front end does not know) leaves it to clang.
    const text = `//--blockDim=64 --gridDim=1
__global__ void shift(int *A, int offset) {
  __requires(offset >= 0);
  int temp = A[threadIdx.x + offset];
  A[threadIdx.x] += temp;
}
`;
    const r = await checkKernelFile('shift.cu', text);
    assert.equal(r.analysed, true, JSON.stringify(r.diagnostics));
    // At the write of A[threadIdx.x] (line 5; ranges count from 0).
    assert.deepEqual(r.findings.map((f) => [f.category, f.range?.start.line]), [['missing-block-fence', 4]]);
    // A value given is the one that runs: offset 0 races with nothing.
    const given = await checkKernelFile('shift.cu', text, { offset: 0 });
    assert.equal(given.analysed, true);
    assert.deepEqual(given.findings, []);
  });

  test("is run a third time at a scalar its preconditions allow: a meeting they rule out is not the one run", async () => {
    // Thread 3 writes A[3 + x], thread 50 reads A[20]: they meet at x = 17 and, nearer to 0, the
    // write meets the store to A[0] at x = -3, which `__requires(x >= 0)` rules out.
    const text = `//--blockDim=64 --gridDim=1
__global__ void k(int *A, int x) {
  __requires(x >= 0);
  if (threadIdx.x == 3) A[threadIdx.x + x] = 7;
  if (threadIdx.x == 50) A[0] = A[20];
}
`;
    const r = await checkKernelFile('meet-required.cu', text);
    assert.equal(r.analysed, true, JSON.stringify(r.diagnostics));
    assert.deepEqual(r.findings.map((f) => [f.category, f.range?.start.line, f.related[0]?.location.line]), [['missing-block-fence', 4, 4]]);
    // Without the precondition the nearer meeting is the one run: the stores to A[0].
    const free = await checkKernelFile('meet-free.cu', text.replace('  __requires(x >= 0);\n', ''));
    assert.deepEqual(free.findings.map((f) => [f.category, f.range?.start.line, f.related[0]?.location.line]), [['missing-block-fence', 3, 3]]);
  });

  test('runs on made-up data too, as the hand-written path does: a race only some contents show is found', async () => {
    const text = `//--blockDim=64 --gridDim=1
__global__ void k(const int *in, float *f, int *out) {
  if (in[threadIdx.x] > 0 && f[threadIdx.x] < 0.0f) out[0] = threadIdx.x;
}
`;
    const r = await checkKernelFile('data.cu', text);
    assert.equal(r.analysed, true, JSON.stringify(r.diagnostics));
    assert.deepEqual(r.findings.map((f) => [f.category, f.range?.start.line]), [['missing-block-fence', 2]]);
  });

  test('a template kernel instantiated explicitly runs by the instance clang names, or by its plain name', async () => {
    const text = `//--blockDim=32 --gridDim=1
template <typename T> __global__ void fill(T *A) { A[threadIdx.x % 16] = (T)threadIdx.x; }
template __global__ void fill<int>(int *);
`;
    const r = await checkKernelFile('fill.cu', text);
    assert.equal(r.analysed, true, JSON.stringify(r.diagnostics));
    assert.deepEqual(r.findings.map((f) => f.category), ['intra-warp']);
    const file = path.join(KERNELS, 'fill.cu');
    const named = await checkWithClang({ fileName: file, text }, { units: [{ file, text, defines: [], includeDirs: [] }], launch: { request: { kernel: 'fill', args: {} }, header: readKernelHeader(text).header } });
    assert.deepEqual(named.findings.map((f) => f.category), ['intra-warp']);
  });

  test('using extern __shared__, gets the 48 KB a launch may ask without opting in', async () => {
    const text = (read: string): string => `//--blockDim=32 --gridDim=1
__global__ void k(int *A) {
  extern __shared__ int s[];
  s[threadIdx.x] = A[threadIdx.x];
  __syncthreads();
  A[threadIdx.x] = ${read};
}
`;
    const mirrored = await checkKernelFile('dyn-shared.cu', text('s[31 - threadIdx.x]'));
    assert.equal(mirrored.analysed, true, JSON.stringify(mirrored.diagnostics));
    assert.deepEqual(mirrored.findings, []);
    assert.deepEqual((await checkKernelFile('dyn-shared-last.cu', text('s[threadIdx.x + 12256]'))).findings, []);
    assert.deepEqual((await checkKernelFile('dyn-shared-past.cu', text('s[threadIdx.x + 12257]'))).findings.map((f) => f.category), ['out-of-bounds']);
  });

  test('asking for blocks the device refuses (GPUVerify writes 2,048 threads), runs them as asked with a note, as the hand-written path does', async () => {
    const text = `//--blockDim=2048 --gridDim=2
__global__ void mirror(int *out) {
  __shared__ int s[2048];
  s[threadIdx.x] = threadIdx.x;
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[2047 - threadIdx.x];
}
`;
    const r = await checkKernelFile('mirror.cu', text);
    assert.equal(r.analysed, true, JSON.stringify(r.diagnostics));
    assert.deepEqual(r.findings.map((f) => f.category), ['shared-memory']);
    const note = r.diagnostics.find((d) => d.code === 'beyond-device');
    assert.equal(note?.severity, 'information');
    assert.match(note?.message ?? '', /^block size 2048 in x exceeds the 1024 that scord-paper allows: a GPU refuses this launch \(cudaErrorInvalidConfiguration\)/);
  });
});

describe("a kernel's GPUVerify precondition", () => {
  test('that names its scalars and the launch chooses the arguments: the run meets it and checks the kernel', async () => {
    // A stride of blockDim.x keeps the threads apart; at 0 or 1 (made up) they would overlap.
    const text = `//--blockDim=64 --gridDim=1
__global__ void stride(float *A, int sz) {
  __requires(sz == blockDim.x);
  for (int i = threadIdx.x; i < 4 * sz; i += sz) A[i] *= 2.0f;
}
`;
    const chosen = await checkKernelFile('stride.cu', text);
    assert.equal(chosen.analysed, true, JSON.stringify(chosen.diagnostics));
    assert.deepEqual(chosen.findings, []);
    // A stride one short of it makes neighbouring threads meet: the race is found, so the run did check the kernel.
    const racy = await checkKernelFile('stride-racy.cu', text.replace('sz == blockDim.x', 'sz == blockDim.x - 1'));
    assert.deepEqual(racy.findings.map((f) => [f.kind, f.range?.start.line]), [['race', 3]]);
  });

  test('that the arguments cannot be read from stops the threads it fails for, with a warning, and no race from them', async () => {
    const text = `//--blockDim=64 --gridDim=1
__global__ void stride(float *A, int sz) {
  __requires(sz > threadIdx.x);
  for (int i = threadIdx.x; i < 4 * sz; i += sz) A[i] *= 2.0f;
}
`;
    const madeUp = await checkKernelFile('stride-thread.cu', text);
    assert.equal(madeUp.analysed, true, JSON.stringify(madeUp.diagnostics));
    assert.deepEqual(madeUp.findings.map((f) => [f.kind, f.severity, f.range?.start.line]), [['unmet-precondition', 'warning', 2]]);
    assert.match(madeUp.findings[0].message, /precondition `sz > threadIdx.x` does not hold .*--arg NAME=VALUE; met 64 times here/);
    const given = await checkKernelFile('stride-thread.cu', text, { sz: 64 });
    assert.equal(given.analysed, true);
    assert.deepEqual(given.findings, []);
  });
});

describe('a kernel handed a struct', () => {
  test('run from its header, each pointer the struct holds points to fresh memory: its accesses are checked, not null dereferences', async () => {
    const kernel = (store: string) => `//--blockDim=32 --gridDim=2
struct S { int *p; struct { float *q; } in; };
__global__ void k(struct S s) {
  ${store}
}
`;
    const apart = await checkKernelFile('struct-apart.cu', kernel('s.p[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x; s.in.q[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;'));
    assert.equal(apart.analysed, true, JSON.stringify(apart.diagnostics));
    assert.deepEqual(apart.findings, []);
    const racy = await checkKernelFile('struct-racy.cu', kernel('s.p[0] = threadIdx.x; s.in.q[0] = 1.0f;'));
    assert.deepEqual(racy.findings.map((f) => [f.kind, f.range?.start.line]), [['race', 3], ['race', 3]]);
  });
});

describe('a kernel handed a function pointer', () => {
  test('run from its header, the pointer is a device function of the right arity, and the call runs', async () => {
    const text = `//--blockDim=32 --gridDim=2
__device__ float twice(float *v, unsigned i) { return v[i] * 2.0f; }
typedef float (*op)(float *, unsigned);
__global__ void apply(float *v, op f) {
  v[0] = f(v, threadIdx.x);
}
`;
    const r = await checkKernelFile('apply.cu', text);
    assert.equal(r.analysed, true, JSON.stringify(r.diagnostics));
    // The call ran (no fault at it): every thread of both blocks writes v[0], a race there.
    assert.ok(!r.findings.some((f) => f.category === 'invalid-pointer'), JSON.stringify(r.findings.map((f) => f.message)));
    assert.ok(r.findings.some((f) => f.kind === 'race' && f.range?.start.line === 4), JSON.stringify(r.findings.map((f) => [f.kind, f.category, f.range?.start.line])));
  });

  test('the function its __requires names is the one passed, called or only compared', async () => {
    // shared() writes one word from every thread (a race); own() a word per thread. The integer
    // scalar makes a second run (x at 1), which must pass the same function.
    const kernel = (requires: string) => `//--blockDim=32 --gridDim=1
__device__ void shared(int *v, unsigned i) { v[0] = i; }
__device__ void own(int *v, unsigned i) { v[i] = i; }
typedef void (*op)(int *, unsigned);
__global__ void apply(int *v, op f, op g, int x) {
  ${requires}
  f(v, threadIdx.x + x);
}
`;
    const first = await checkKernelFile('requires-none.cu', kernel(''));
    assert.deepEqual(first.findings.map((f) => f.kind), ['race'], 'unnamed: the first device function of the arity');
    const named = await checkKernelFile('requires-own.cu', kernel('__requires(f == own);'));
    assert.deepEqual(named.findings, [], JSON.stringify(named.findings.map((f) => f.message)));
    // g is never called: named in a disjunction, it is still the function its first alternative names.
    const compared = await checkKernelFile('requires-compared.cu', kernel('__requires(f == own); __requires(g == shared | g == own);'));
    assert.deepEqual(compared.findings, [], JSON.stringify(compared.findings.map((f) => f.message)));
  });
});

describe('a device function declared and never defined', () => {
  test('its call does nothing and returns 0, said once at the call with a count; the kernel runs on', async () => {
    const kernel = `__device__ int bar(int x);
__global__ void k(int *p) {
  p[threadIdx.x] = bar(threadIdx.x) + 1;
}
`;
    // A kernel-only file leaves helpers abstract on purpose (GPUVerify's uninterpreted functions): a note.
    const r = await checkKernelFile('abstract.cu', `//--blockDim=32 --gridDim=1\n${kernel}`);
    assert.equal(r.analysed, true, JSON.stringify(r.diagnostics));
    assert.deepEqual(r.findings, []);
    const notes = r.diagnostics.filter((d) => d.code === 'undefined-function');
    assert.deepEqual(notes.map((d) => [d.severity, d.range?.start.line]), [['information', 3]]);
    assert.match(notes[0].message, /^bar is declared but defined nowhere in the program: the call does nothing and returns 0 here .*; met 32 times here/);
    // In a whole program it is the program's defect (nvcc would not link it): a finding.
    const file = path.join(KERNELS, 'abstract-main.cu');
    const text = `${kernel}int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  k<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
`;
    const whole = await checkWithClang({ fileName: file, text }, { units: [{ file, text, defines: [], includeDirs: [] }] });
    assert.equal(whole.analysed, true, JSON.stringify(whole.diagnostics));
    assert.deepEqual(whole.findings.map((f) => [f.category, f.severity, f.range?.start.line]), [['undefined-function', 'warning', 2]]);
  });
});

describe('pieces that need no compiler', () => {
  /** `type name[count];` lines of a struct in the project's driver_types.h. */
  function headerStruct(name: string): { field: string; type: string; count: number }[] {
    const header = fs.readFileSync(path.join(__dirname, '..', '..', 'sims', 'clang', 'include', 'driver_types.h'), 'utf8');
    const body = new RegExp(`struct ${name} \\{([^}]*)\\};`).exec(header);
    assert.ok(body, `driver_types.h declares struct ${name}`);
    return body[1]
      .split(';')
      .map((d) => d.replace(/\/\*[^]*?\*\//g, '').trim())
      .filter(Boolean)
      .map((d) => {
        const m = /^(.*?)\s*(\w+)(?:\[(\d+)\])?$/.exec(d)!;
        return { field: m[2], type: m[1], count: m[3] ? Number(m[3]) : 1 };
      });
  }

  test('cudaDeviceProp is written with the layout of the header the program compiles against', () => {
    const kinds: Record<string, [string, number]> = { char: ['char', 1], cudaUUID_t: ['char', 16], int: ['int', 1], 'unsigned int': ['uint', 1], size_t: ['size_t', 1] };
    const fromHeader = headerStruct('cudaDeviceProp').map((f) => [f.field, kinds[f.type]?.[0] ?? f.type, f.count * (kinds[f.type]?.[1] ?? 1)]);
    assert.deepEqual(DEVICE_PROP_FIELDS.map((f) => [...f]), fromHeader);
    const { offsets, size } = devicePropLayout();
    assert.equal(offsets.get('totalGlobalMem'), 284, 'wasm32: name[256], uuid, luid[8], a 4-byte mask, then size_t');
    assert.equal(size % 4, 0);
  });

  test('cudaFuncAttributes is as large as the runtime writes', () => {
    const words = headerStruct('cudaFuncAttributes').reduce((n, f) => n + f.count, 0);
    assert.equal(words * 4, 128);
  });

  test('the sandbox resolves paths inside its root only', () => {
    const files = new SandboxFiles();
    assert.equal(files.resolve('', 'a/./b/../c.txt'), 'a/c.txt');
    assert.equal(files.resolve('', '../etc/passwd'), undefined);
    assert.equal(files.resolve('a', '../../x'), undefined);
    assert.deepEqual(files.preopens(), ['.']);
    assert.equal(files.lookup('etc/passwd').kind, 'missing', 'no read folder: nothing of the disk is visible');
  });

  test('a link inside the read folder that points outside it is refused', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-host-'));
    try {
      fs.mkdirSync(path.join(root, 'program'));
      fs.writeFileSync(path.join(root, 'secret.txt'), 'secret');
      fs.symlinkSync(path.join(root, 'secret.txt'), path.join(root, 'program', 'link.txt'));
      const files = new SandboxFiles(path.join(root, 'program'));
      assert.equal(files.lookup('link.txt').kind, 'escapes');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  test('refused functions are named with what they belong to', () => {
    assert.equal(unsupportedFeature('cuCtxCreate'), 'cuCtxCreate (the CUDA driver API)');
    assert.equal(unsupportedFeature('cudaGraphicsMapResources'), 'cudaGraphicsMapResources (graphics interoperability)');
    assert.equal(unsupportedFeature('cudaGraphLaunch'), 'cudaGraphLaunch (CUDA graphs)');
    assert.equal(unsupportedFeature('cublasSgemm'), 'cublasSgemm (the cuBLAS library)');
    assert.equal(unsupportedFeature('helper'), 'helper (a function that no file of the program defines)');
    assert.equal(unsupportedFeature('fork'), 'fork (processes and interprocess communication)');
    assert.equal(unsupportedFeature('forklift'), 'forklift (a function that no file of the program defines)');
  });
});

describe('reading files of the program’s folder', () => {
  test('only with --allow-read (scord.program.allowRead), and never writing them', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-allow-read-'));
    try {
      const file = path.join(dir, 'reader.cu');
      fs.writeFileSync(path.join(dir, 'input.dat'), '41\n');
      fs.writeFileSync(file, `#include <cstdio>
__global__ void add(int *v) { *v += 1; }
int main() {
  FILE *f = fopen("input.dat", "r");
  if (!f) { printf("cannot open\\n"); return 3; }
  int x = 0;
  fscanf(f, "%d", &x);
  fclose(f);
  FILE *o = fopen("input.dat", "w");
  printf("write %s\\n", o ? "opened" : "refused");
  int *d;
  cudaMalloc(&d, sizeof(int));
  cudaMemcpy(d, &x, sizeof(int), cudaMemcpyHostToDevice);
  add<<<1, 1>>>(d);
  cudaMemcpy(&x, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d\\n", x);
  return 0;
}
`);
      const run = async (...extra: string[]) => {
        let stdout = '';
        const status = await scord(['run', file, ...extra], { stdout: (t) => (stdout += t), stderr: () => undefined });
        return { status, stdout };
      };
      const refused = await run();
      assert.match(refused.stdout, /^cannot open\n/);
      const allowed = await run('--allow-read');
      assert.match(allowed.stdout, /write (opened|refused)\n42\n/);
      // Whatever the program wrote stayed in memory: the file on disk is as it was.
      assert.equal(fs.readFileSync(path.join(dir, 'input.dat'), 'utf8'), '41\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('names libc++ declares where libstdc++ does not', () => {
  test("a global `array` under `using namespace std` (nvcc compiles it) is the program's own, with a warning", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-names-'));
    try {
      const file = path.join(dir, 'names.cu');
      fs.writeFileSync(file, `#include <cstdio>
#include <iostream>
using namespace std;
float *array;
__global__ void fill(float *a) { a[threadIdx.x] = threadIdx.x; }
int main() {
  cudaMallocManaged(&array, 4 * sizeof(float));
  fill<<<1, 4>>>(array);
  cudaDeviceSynchronize();
  cout << array[3] << endl;
  return 0;
}
`);
      let stdout = '';
      assert.equal(await scord(['check', file, '--frontend', 'clang', '--format', 'json'], { stdout: (t) => (stdout += t), stderr: () => undefined }), 0);
      const report = JSON.parse(stdout);
      assert.equal(report.output, '3\n');
      const warnings = report.diagnostics.filter((d: { severity: string }) => d.severity === 'warning');
      assert.equal(warnings.length, 1);
      assert.match(warnings[0].message, /^`array` is read as the program's own `::array`/);
      assert.deepEqual([warnings[0].location.line, warnings[0].location.column], [7, 22], 'at the first reference');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Programs of the tests below are written here (clang reads them from disk, by their names). */
const PROGRAMS = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-programs-'));
after(() => fs.rmSync(PROGRAMS, { recursive: true, force: true }));

/** `scord check` of `text` saved as `name`, with `--format json` and `extra`: the exit status, the report, and the text output when not JSON. */
async function checkText(name: string, text: string, ...extra: string[]): Promise<{ status: number; report: CheckJson; out: string }> {
  const file = path.join(PROGRAMS, name);
  fs.writeFileSync(file, text);
  let stdout = '';
  let stderr = '';
  const json = !extra.includes('--format');
  const status = await scord(['check', file, ...(json ? ['--format', 'json'] : []), ...extra], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { status, report: json && status !== 2 ? JSON.parse(stdout) : ({} as CheckJson), out: stdout + stderr };
}

interface CheckJson {
  output: string;
  findings: { category: string; location: { line: number } }[];
}

describe('C++ the hand-written parser reads as a syntax error', () => {
  test('runs through clang by default when clang compiles it; a real syntax error keeps the instant report', async () => {
    // A range-based for, a structured binding and decltype: nvcc compiles them all.
    const modern = await checkText('modern.cu', `#include <cstdio>
struct Pair { int a, b; };
__global__ void k(int *p) { p[threadIdx.x % 16] = threadIdx.x; }
int main() {
  int v[3] = {1, 2, 3}, s = 0;
  for (int x : v) s += x;
  auto [a, b] = Pair{4, 5};
  decltype(s) t = s + a + b;
  int *d; cudaMalloc(&d, 32 * sizeof(int)); k<<<1, 32>>>(d); cudaDeviceSynchronize();
  printf("%d\\n", t);
  return 0;
}
`);
    assert.equal(modern.status, 1);
    assert.equal(modern.report.output, '15\n');
    assert.deepEqual(modern.report.findings.map((f) => [f.category, f.location.line]), [['intra-warp', 3]]);
    // A device lambda local to main(int, char **) passed to a template kernel.
    const lambda = await checkText('lambda.cu', `#include <cstdio>
template <class F> __global__ void apply(int *out, F f) { out[threadIdx.x] = f(threadIdx.x); }
int main(int argc, char **argv) {
  int *d, h[2];
  cudaMalloc(&d, sizeof h);
  apply<<<1, 2>>>(d, [] __device__ (int i) { return 4 * i + 2; });
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d\\n", h[0], h[1]);
  return 0;
}
`);
    assert.equal(lambda.status, 0, lambda.out);
    assert.equal(lambda.report.output, '2 6\n');
    // A missing semicolon: both front ends reject it, and the error is the hand-written one's, located.
    const typo = await checkText('typo.cu', 'int main() { int x = 1 return x; }\n', '--format', 'text');
    assert.equal(typo.status, 2);
    assert.match(typo.out, /typo\.cu:1:23: error: expected ';'/);
  });
});

describe('headers that include one another', () => {
  test('<cuda/std/atomic> alone, and the crt/ headers nvcc programs name, compile: includes between them name the header, not a relative path', async () => {
    // <cuda/atomic> brings cuda::std::atomic too, as libcu++'s does.
    const r = await checkText('paths.cu', `#include <cuda/std/atomic>
#include <crt/host_defines.h>
#include <crt/device_functions.h>
#include <crt/math_functions.h>
#include <cstdio>
__device__ cuda::std::atomic<int> hits;
__device__ cuda::atomic<int, cuda::thread_scope_block> near;
__global__ void k() { hits.fetch_add(1); near.fetch_add(__popc(threadIdx.x)); }
int main() { k<<<1, 32>>>(); cudaDeviceSynchronize(); int h = 0; cudaMemcpyFromSymbol(&h, hits, sizeof h); printf("%d\\n", h); return 0; }
`, '--frontend', 'clang');
    assert.equal(r.status, 0, r.out);
    assert.equal(r.report.output, '32\n');
  });
});

describe('pinned host memory', () => {
  test('memory the program registers is reached by kernels through its own pointer; pinned memory says it is the host\'s', async () => {
    const r = await checkText('pinned.cu', `#include <cstdio>
#include <cstdlib>
__global__ void twice(int *a) { a[threadIdx.x] = 2 * threadIdx.x; }
int main() {
  int *h = (int *)malloc(64 * sizeof(int)), *d = nullptr, *pinned;
  cudaError_t r = cudaHostRegister(h, 64 * sizeof(int), cudaHostRegisterMapped);
  cudaError_t again = cudaHostRegister(h, 64 * sizeof(int), cudaHostRegisterMapped);
  cudaHostGetDevicePointer((void **)&d, h, 0);
  twice<<<1, 64>>>(d);
  cudaDeviceSynchronize();
  cudaMallocHost(&pinned, 16);
  cudaPointerAttributes a, b;
  cudaPointerGetAttributes(&a, pinned);
  cudaPointerGetAttributes(&b, h);
  cudaError_t off = cudaHostUnregister(h), twiceOff = cudaHostUnregister(h);
  printf("%d %d %d %d %d %d %d\\n", r, again, h[63], a.type == cudaMemoryTypeHost, b.type == cudaMemoryTypeHost, off, twiceOff);
  return 0;
}
`, '--frontend', 'clang');
    assert.equal(r.status, 0, r.out);
    assert.equal(r.report.output, '0 712 126 1 1 0 713\n');
  });
});

describe('the architecture a program is built for', () => {
  test("the --device preset's GPU when nothing else names one: clang's device pass is built for it", async () => {
    const text = `#include <cstdio>
__global__ void k(int *out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  out[0] = __reduce_add_sync(0xffffffffu, 1);
#endif
}
int main() { int *d, h = 0; cudaMalloc(&d, 4); cudaMemset(d, 0, 4); k<<<1, 32>>>(d); cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost); printf("%d\\n", h); return 0; }
`;
    const output = async (...extra: string[]): Promise<string> => (await checkText('arch.cu', text, '--frontend', 'clang', ...extra)).report.output;
    assert.equal(await output(), '0\n');
    assert.equal(await output('--device', 'ampere'), '32\n');
    assert.equal(await output('--device', 'ampere', '--arch', 'sm_70'), '0\n');
  });
});
