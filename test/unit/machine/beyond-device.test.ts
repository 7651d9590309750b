// A kernel run on its own (a kernel-only file's launch header, as GPUVerify's suite writes them,
// or --kernel/--grid/--block) is a verifier's configuration, not a launch a GPU makes: blocks the
// device refuses (more threads or shared memory than it allows per block) are simulated as asked,
// one block per SM, up to the simulator's own block size, with a note that a GPU would refuse
// the launch. The program's own launch of such a shape stays its launch-configuration defect.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkParsedEntry, readLaunchHeader, type CheckReport } from '../../../sims/check';
import { runProgram } from '../../../sims/host/run';
import { MAX_BLOCK_THREADS } from '../../../sims/machine/executor';
import { parseVirtual } from '../../support/parseFile';

/** The check of a kernel-only file, launched from its header as `scord check` launches it. */
function checkKernelFile(text: string): CheckReport {
  const launch = readLaunchHeader('/virtual/main.cu', text, [], []);
  assert.deepEqual(launch.problems, []);
  const parsed = parseVirtual({ 'main.cu': text }, { defines: launch.defines });
  const report = checkParsedEntry(parsed, { fileName: '/virtual/main.cu', text }, launch.header);
  assert.ok(!('usage' in report), JSON.stringify(report));
  return report;
}

/** Each thread writes its own slot of shared memory and reads the mirror slot, `sync` between. */
function mirror(block: string, sync: boolean): string {
  return `//--blockDim=${block} --gridDim=2
__global__ void mirror(int *out) {
  __shared__ int s[${MAX_BLOCK_THREADS}];
  unsigned t = threadIdx.x + threadIdx.y * blockDim.x;
  unsigned n = blockDim.x * blockDim.y;
  s[t] = t;
  ${sync ? '__syncthreads();' : ''}
  out[blockIdx.x * n + t] = s[n - 1 - t];
}
`;
}

test('a header asking for blocks of 2,048 threads runs as asked, with a note, and its races are found', () => {
  const racy = checkKernelFile(mirror('2048', false));
  assert.equal(racy.analysed, true);
  const notes = racy.diagnostics.filter((d) => d.code === 'beyond-device');
  assert.equal(notes.length, 1, JSON.stringify(racy.diagnostics));
  assert.equal(notes[0].severity, 'information');
  assert.equal(notes[0].message, "block size 2048 in x exceeds the 1024 that scord-paper allows: a GPU refuses this launch (cudaErrorInvalidConfiguration); kernel 'mirror' run on its own is simulated with the shape asked for, one block per SM");
  assert.deepEqual(racy.findings.map((f) => f.category), ['shared-memory']);
  assert.equal(racy.stats.launched?.[0].block.join(), '2048,1,1');
  // With the barrier, 64 warps a block meet at it: nothing races.
  const fenced = checkKernelFile(mirror('2048', true));
  assert.deepEqual(fenced.findings, []);
  assert.equal(fenced.diagnostics.filter((d) => d.code === 'beyond-device').length, 1);
});

test('the same kernel within the device’s limits runs without a note', () => {
  const report = checkKernelFile(mirror('1024', true));
  assert.deepEqual(report.findings, []);
  assert.deepEqual(report.diagnostics.filter((d) => d.code === 'beyond-device'), []);
});

test('two-dimensional blocks and shared memory past the device’s per-block limit run the same way', () => {
  const wide = checkKernelFile(mirror('[64,32]', true));
  assert.deepEqual(wide.findings, []);
  assert.match(wide.diagnostics.find((d) => d.code === 'beyond-device')?.message ?? '', /^2048 threads per block exceed the 1024 that scord-paper allows: a GPU refuses this launch/);
  const shared = checkKernelFile(`//--blockDim=64 --gridDim=1
__global__ void big(int *out) {
  __shared__ int tile[16384];
  tile[threadIdx.x * 256] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[(63 - threadIdx.x) * 256];
}
`);
  assert.deepEqual(shared.findings, []);
  assert.match(shared.diagnostics.find((d) => d.code === 'beyond-device')?.message ?? '', /^65536 bytes of shared memory per block exceed the 49152 that scord-paper allows/);
});

test('blocks larger than the simulator holds are refused, naming its limit', () => {
  const report = checkKernelFile(mirror('[64,64]', true));
  assert.deepEqual(report.findings.map((f) => f.category), ['launch-configuration']);
  assert.equal(report.findings[0].message, `4096 threads per block exceed the 1024 that scord-paper allows; a kernel run on its own may have blocks of up to ${MAX_BLOCK_THREADS} threads in the simulator`);
});

test('the program’s own launch of blocks the device refuses fails as on a GPU', () => {
  const parsed = parseVirtual({
    'main.cu': `__global__ void k(int *p) { p[threadIdx.x] = 1; }
int main() {
  int *d;
  cudaMalloc(&d, 2048 * sizeof(int));
  k<<<1, 2048>>>(d);
  return cudaGetLastError() == cudaErrorInvalidConfiguration ? 0 : 1;
}
`,
  });
  const r = runProgram(parsed);
  assert.deepEqual(r.findings.map((f) => [f.kind, f.message]), [['launch-configuration', 'block size 2048 in x exceeds the 1024 that scord-paper allows']]);
  assert.equal(r.exitCode, 0, 'the launch returned cudaErrorInvalidConfiguration');
  assert.equal(r.beyondDevice, undefined);
});
