// The CUDA headers of sims/clang/include, compiled by clang in the device pass (nvptx) and the
// host pass (wasm32) over two fixtures: a program using the runtime API, atomics of every scope,
// cooperative groups, cuRAND, half precision, libcu++ atomics, barriers, pipelines, warp matrix
// functions and textures; and a kernel annotated for GPUVerify. The checks are the operations
// the simulator relies on finding in the IR.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const HEADERS = path.join(ROOT, 'sims/clang/include');
const FIXTURES = path.join(ROOT, 'test/fixtures/clang');

type Tree = { [name: string]: Tree | Uint8Array };
type YowaspClang = typeof import('@yowasp/clang', { with: { 'resolution-mode': 'import' } });
let clang: Promise<YowaspClang> | undefined;

function load(dir: string): Tree {
  const tree: Tree = {};
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) tree[e.name] = load(p);
    else if (e.isFile() && !e.name.endsWith('.json') && !e.name.endsWith('.md')) tree[e.name] = new Uint8Array(fs.readFileSync(p));
  }
  return tree;
}

const SHARED = [
  '-x', 'cuda', '-std=gnu++17', '-O0', '-fgnuc-version=4.2.1', '-target-sdk-version=12.8', '-fcxx-exceptions',
  '-I', '/headers',
  '-internal-isystem', '/usr/include/cuda_wrappers',
  '-internal-isystem', '/usr/include/wasm32-wasip1/c++/v1',
  '-internal-isystem', '/usr/include/c++/v1',
  '-internal-isystem', '/usr/include/wasm32-wasip1',
  '-internal-isystem', '/usr/include',
  '-include', 'cuda_runtime.h',
];
const DEVICE = ['-triple', 'nvptx-nvidia-cuda', '-aux-triple', 'wasm32-unknown-wasip1', '-fcuda-is-device',
  '-target-cpu', 'sm_70', '-target-feature', '+ptx87', '-debug-info-kind=line-tables-only'];
const HOST = ['-triple', 'wasm32-unknown-wasip1', '-aux-triple', 'nvptx-nvidia-cuda'];

interface Compiled {
  ir: string;
  errors: string[];
}

async function compile(fixture: string, pass: 'device' | 'host'): Promise<Compiled> {
  const tree: Tree = { headers: load(HEADERS), src: { [fixture]: new Uint8Array(fs.readFileSync(path.join(FIXTURES, fixture))) } };
  const stdout: Uint8Array[] = [];
  let stderr = '';
  clang ??= import('@yowasp/clang');
  const { runLLVM } = await clang;
  try {
    // The IR goes to stdout: writing it to a file of clang's virtual file system is many times slower.
    await runLLVM(['clang', '-cc1', ...(pass === 'device' ? DEVICE : HOST), ...SHARED, '-emit-llvm', `src/${fixture}`, '-o', '-'], tree, {
      stdout: (b: Uint8Array | null) => { if (b) stdout.push(b.slice()); },
      stderr: (b: Uint8Array | null) => { if (b) stderr += new TextDecoder().decode(b); },
      fetchProgress: () => undefined,
    });
  } catch {
    // clang's messages say why; the tests report them.
  }
  const ir = Buffer.concat(stdout).toString('utf8');
  return { ir, errors: stderr.split('\n').filter((l) => / error: /.test(l)) };
}

/** The body of the first function whose name contains all of `parts`. */
function functionBody(ir: string, ...parts: string[]): string {
  const defs = ir.split(/\n(?=define )/);
  const found = defs.find((d) => {
    const head = d.slice(0, d.indexOf('\n'));
    return d.startsWith('define ') && parts.every((p) => head.includes(p));
  });
  assert.ok(found, `a function named with ${parts.join(', ')} in the IR`);
  return found.slice(0, found.indexOf('\n}') + 2);
}

/** The instructions of basic block `label` of a function body. */
function block(body: string, label: string): string {
  const start = body.indexOf(`\n${label}:`);
  assert.ok(start >= 0, `block ${label}`);
  const end = body.indexOf('\n\n', start + 1);
  return body.slice(start, end < 0 ? undefined : end);
}

/**
 * The blocks a `switch` of the body sends `value` to. A memory order is a run-time argument of
 * the atomic functions, so at -O0 the order the source passed selects its instruction this way.
 */
function switchTargets(body: string, value: number): string[] {
  const targets: string[] = [];
  for (const sw of body.matchAll(/switch i32 %[\w.]+, label %[\w.]+ \[([^\]]*)\]/g)) {
    for (const c of sw[1].matchAll(/i32 (-?\d+), label %([\w.]+)/g)) if (Number(c[1]) === value) targets.push(block(body, c[2]));
  }
  return targets;
}

/** Functions the IR declares but does not define. */
function externals(ir: string): string[] {
  return [...ir.matchAll(/^declare [^@]*@([\w.$]+)\(/gm)].map((m) => m[1]);
}

describe('CUDA headers for clang', () => {
  const program = { device: { ir: '', errors: [] } as Compiled, host: { ir: '', errors: [] } as Compiled };
  const annotated = { device: { ir: '', errors: [] } as Compiled, host: { ir: '', errors: [] } as Compiled };

  before(async () => {
    program.device = await compile('headers-program.cu', 'device');
    program.host = await compile('headers-program.cu', 'host');
    annotated.device = await compile('headers-gpuverify.cu', 'device');
    annotated.host = await compile('headers-gpuverify.cu', 'host');
  });

  test('a program using the runtime API, cooperative groups, cuRAND, fp16, libcu++ and wmma compiles in both passes', () => {
    assert.deepEqual(program.device.errors, []);
    assert.deepEqual(program.host.errors, []);
    assert.match(program.device.ir, /define .*ptx_kernel void @_Z7atomicsPiPfPy\(/);
    assert.match(program.host.ir, /define .*i32 @main\(/);
  });

  test('atomicAdd_block is a block-scope atomic and atomicAdd a relaxed one of device scope', () => {
    const kernel = functionBody(program.device.ir, '@_Z7atomicsPiPfPy(');
    assert.match(kernel, /call (noundef )?i32 @llvm\.nvvm\.atomic\.add\.gen\.i\.cta\.i32\.p0\(/);
    assert.match(kernel, /call (noundef )?i32 @llvm\.nvvm\.atomic\.add\.gen\.i\.sys\.i32\.p0\(/);
    // The first read-modify-write of the kernel is atomicAdd(&data[1], 1): relaxed, no scope named.
    assert.equal(/atomicrmw (\w+) ptr %[\w.]+, i32 %[\w.]+ (\w+)/.exec(kernel)?.slice(1).join(' '), 'add monotonic');
    assert.match(kernel, /cmpxchg ptr %[\w.]+, i32 %[\w.]+, i32 %[\w.]+ monotonic monotonic/);
    assert.doesNotMatch(kernel, /syncscope/);
  });

  test('atomic_ref<int, thread_scope_device>::fetch_add(1, memory_order_release) is a release atomicrmw of device scope', () => {
    const kernel = functionBody(program.device.ir, '@_Z7atomicsPiPfPy(');
    // memory_order_release is 3: the order switch sends it to a release atomicrmw, not to PTX.
    const targets = switchTargets(kernel, 3);
    assert.ok(targets.some((b) => /atomicrmw add ptr %[\w.]+, i32 %[\w.]+ release/.test(b)), 'release selects atomicrmw add ... release');
    assert.ok(targets.every((b) => !/atomicrmw add [^\n]*(monotonic|acquire|seq_cst)/.test(b)));
  });

  test('a block-scope atomic_ref carries its order and scope as PTX', () => {
    const kernel = functionBody(program.device.ir, '@_Z7atomicsPiPfPy(');
    assert.ok(switchTargets(kernel, 3).some((b) => /asm sideeffect "atom\.release\.cta\.add\.u32 \$0, \[\$1\], \$2;"/.test(b)),
      'release selects atom.release.cta.add.u32');
    assert.match(kernel, /asm sideeffect "st\.relaxed\.cta\.b32 \[\$0\], \$1;"/);
    assert.match(kernel, /asm sideeffect "fence\.acq_rel\.cta;"/);
  });

  test('grid_group::sync() calls the grid-barrier hook', () => {
    const kernel = functionBody(program.device.ir, '@_Z6groupsPi(');
    assert.match(kernel, /call void @__scord_grid_sync\(\)/);
    assert.match(kernel, /@llvm\.nvvm\.barrier\.cta\.sync\.aligned\.all\(i32 0\)|@llvm\.nvvm\.barrier0\(\)/);
    assert.match(program.device.ir, /@llvm\.nvvm\.shfl\.sync\.bfly\.i32/);
    assert.match(program.device.ir, /@llvm\.nvvm\.match\.any\.sync\.i32/);
  });

  test('device code needs only LLVM intrinsics, libdevice, PTX system calls and the documented hooks', () => {
    const allowed = /^(llvm\..*|__nv_\w+|vprintf|malloc|free|__assertfail|__scord_grid_sync|__scord_tex1Dfetch|__scord_tex_fetch|__scord_surf_access)$/;
    assert.deepEqual(externals(program.device.ir).filter((f) => !allowed.test(f)), []);
    assert.ok(externals(program.device.ir).includes('__scord_tex_fetch'), 'tex2D reaches the texture hook');
  });

  test('the host pass launches kernels through __cudaPushCallConfiguration and cudaLaunchKernel, and the runtime API is imported', () => {
    assert.match(program.host.ir, /call i32 @__cudaPushCallConfiguration\(/);
    assert.match(program.host.ir, /call (noundef )?i32 @cudaLaunchKernel\(ptr noundef @_Z22__device_stub__atomicsPiPfPy/);
    assert.match(program.host.ir, /call (noundef )?i32 @cudaLaunchCooperativeKernel\(/);
    for (const name of ['cudaMalloc', 'cudaMallocManaged', 'cudaMemcpyToSymbol', 'cudaEventElapsedTime', 'cudaGetDeviceProperties', 'cudaFuncGetAttributes']) {
      assert.ok(externals(program.host.ir).includes(name), `${name} is an import`);
    }
    // cudaMemcpyToSymbol(scale, ...) passes the variable's address to the runtime.
    assert.match(functionBody(program.host.ir, '@main('), /call noundef i32 @\w*cudaMemcpyToSymbol\w*\(ptr noundef [^,]*@scale,/);
  });

  test('GPUVerify annotations compile; assertions one thread can evaluate are checked', () => {
    assert.deepEqual(annotated.device.errors, []);
    assert.deepEqual(annotated.host.errors, []);
    const kernel = functionBody(annotated.device.ir, '@_Z9annotatedPiP17curandStateXORWOW(');
    // __assert(i < 64) fails through __assertfail; the __other_int one cannot be evaluated.
    assert.equal([...kernel.matchAll(/call void @__assertfail\(/g)].length, 1);
    // __requires(A != 0) stops a thread it is false for, through the hook.
    assert.match(kernel, /call void @__scord_unmet_precondition\(/);
    assert.match(kernel, /call void @__scord_grid_sync\(\)/);
  });
});
