// The GPU architecture a build names (nvcc's -arch, -gencode, clang's --cuda-gpu-arch), read from
// command lines and compilation databases, and what it decides: the device pass's target and
// how a warp's lanes are scheduled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { flagsOf } from '../../../sims/clang/compileCommands';
import { programArch } from '../../../sims/clang/program';
import { clangCommand, gpuArchOf, gpuArchsOf } from '../../../sims/clang/toolchain/flags';
import { warpSchedulingOf } from '../../../sims/gpu/devices';

test('an architecture is read from each spelling nvcc and clang accept', () => {
  assert.equal(gpuArchOf('sm_60'), 60);
  assert.equal(gpuArchOf('compute_70'), 70);
  assert.equal(gpuArchOf('sm_90a'), 90);
  assert.equal(gpuArchOf('sm_100f'), 100);
  assert.equal(gpuArchOf('75'), 75);
  // What names no one architecture, or one the toolchain no longer builds for.
  for (const none of ['native', 'all', 'all-major', 'sm_35', 'sm_', 'gfx90a', '']) assert.equal(gpuArchOf(none), undefined, none);
  assert.deepEqual(gpuArchsOf('sm_60,sm_80'), [60, 80]);
  // -gencode: what runs is `code=`; `arch=` (the virtual architecture) when no code is named.
  assert.deepEqual(gpuArchsOf('arch=compute_60,code=sm_60'), [60]);
  assert.deepEqual(gpuArchsOf('arch=compute_70,code=[compute_70,sm_70]'), [70, 70]);
  assert.deepEqual(gpuArchsOf('arch=compute_52'), [52]);
});

test('a compile command names its architecture; several -gencode lines give the newest', () => {
  assert.equal(flagsOf(['nvcc', '-arch=sm_60', '-c', 'a.cu'], '/p').arch, 60);
  assert.equal(flagsOf(['nvcc', '-arch', 'compute_61', '-c', 'a.cu'], '/p').arch, 61);
  assert.equal(flagsOf(['nvcc', '--gpu-architecture=sm_75', 'a.cu'], '/p').arch, 75);
  assert.equal(flagsOf(['nvcc', '-gencode', 'arch=compute_60,code=sm_60', '-gencode=arch=compute_80,code=sm_80', 'a.cu'], '/p').arch, 80);
  assert.equal(flagsOf(['nvcc', '--generate-code=arch=compute_70,code=[compute_70,sm_70]', 'a.cu'], '/p').arch, 70);
  assert.equal(flagsOf(['clang++', '--cuda-gpu-arch=sm_86', 'a.cu'], '/p').arch, 86);
  assert.equal(flagsOf(['nvcc', '-arch=native', 'a.cu'], '/p').arch, undefined);
  assert.equal(flagsOf(['nvcc', '-c', 'a.cu'], '/p').arch, undefined);
});

test("a program's architecture is its units' newest; it is the device pass's target", () => {
  assert.equal(programArch([{ file: '/a.cu', defines: [], includeDirs: [], arch: 60 }, { file: '/b.cu', defines: [], includeDirs: [], arch: 75 }]), 75);
  assert.equal(programArch([{ file: '/a.cu', defines: [], includeDirs: [] }]), undefined);
  const args = clangCommand({ pass: 'device', unit: { file: '/a.cu', defines: [], includeDirs: [] }, headerFolder: '/h', arch: 60, input: '/a.cu', output: '-' });
  assert.deepEqual(args.slice(args.indexOf('-target-cpu'), args.indexOf('-target-cpu') + 2), ['-target-cpu', 'sm_60']);
  assert.ok(args.includes('__CUDA_ARCH_LIST__=600'));
});

test("libc++'s compatibility includes are left out unless a unit is compiled again for them", () => {
  const unit = { file: '/a.cu', defines: [], includeDirs: [] };
  for (const pass of ['device', 'host'] as const) {
    const lean = clangCommand({ pass, unit, headerFolder: '/h', arch: 70, input: '/a.cu', output: '-' });
    assert.ok(lean.includes('_LIBCPP_REMOVE_TRANSITIVE_INCLUDES'), pass);
    const compat = clangCommand({ pass, unit, headerFolder: '/h', arch: 70, input: '/a.cu', output: '-', compatIncludes: true });
    assert.ok(!compat.includes('_LIBCPP_REMOVE_TRANSITIVE_INCLUDES'), pass);
  }
});

test('warps run in lockstep before Volta and independently from it on', () => {
  assert.equal(warpSchedulingOf(52), 'lockstep');
  assert.equal(warpSchedulingOf(61), 'lockstep');
  assert.equal(warpSchedulingOf(70), 'independent');
  assert.equal(warpSchedulingOf(90), 'independent');
});
