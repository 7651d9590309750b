// clang as the front end: both passes and the link, located messages, the cache, refused
// includes, and the program model (several files, compile_commands.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compileDevice, compileHost, configureToolchain, linkHost, toolchainCache } from '../../sims/clang/toolchain';
import { parseClangOutput } from '../../sims/clang/toolchain/diagnostics';
import { toReal, toVirtual } from '../../sims/clang/toolchain/paths';
import { precompiledHeaders } from '../../sims/clang/toolchain/pch';
import { flagsOf, parseCompileCommands, splitCommand } from '../../sims/clang/compileCommands';
import { findCompileCommands, programForFile, programFromCompileCommands, programFromFiles, programFromSourcesSetting } from '../../sims/clang/program';
import { scratchUnits, unit } from '../support/scratchUnits';

const FIXTURES = path.resolve(__dirname, '..', 'fixtures', 'clang');
const { dir: scratch, write } = scratchUnits('scord-clang-toolchain-');
// Precompiled headers cost more than they save in a file of a dozen compiles; one test turns them on.
const CACHE = path.join(scratch, 'cache');
configureToolchain({ dir: CACHE, precompiledHeaders: false });


test('a kernel file compiles in both passes and links into a WebAssembly program', async () => {
  const file = path.join(FIXTURES, 'toolchain-kernel.cu');
  const device = await compileDevice(unit(file));
  assert.ok(device.ok, JSON.stringify(device.diagnostics));
  assert.match(device.ll, /define .*ptx_kernel void @_Z6addAllPKii\(/);
  assert.match(device.ll, /@total = addrspace\(1\)/);
  // Debug locations name the real file.
  assert.ok(device.ll.includes(`!DIFile(filename: "${file}"`), 'the IR names the source file by its path');

  const host = await compileHost(unit(file));
  assert.ok(host.ok, JSON.stringify(host.diagnostics));
  const linked = await linkHost([{ object: host.object, file }]);
  assert.ok(linked.ok, JSON.stringify(linked.diagnostics));
  assert.equal(linked.mainFile, file);
  const module = new WebAssembly.Module(new Uint8Array(linked.wasm));
  const imports = WebAssembly.Module.imports(module).map((i) => `${i.module}.${i.name}`);
  for (const name of ['env.__cudaRegisterFatBinary', 'env.__cudaRegisterFunction', 'env.__cudaRegisterVar', 'env.cudaLaunchKernel', 'env.cudaMalloc']) assert.ok(imports.includes(name), `${name} in ${imports.join(' ')}`);
  const exports = WebAssembly.Module.exports(module).map((e) => e.name);
  for (const name of ['_start', 'memory', 'malloc', 'free', '__indirect_function_table']) assert.ok(exports.includes(name), `${name} exported`);
  // The placeholder GPU binary names the unit, and the kernel's name is there for registration.
  const bytes = Buffer.from(linked.wasm);
  assert.ok(bytes.includes(`scord-unit:${file}\0`), 'the registration names its unit');
  assert.ok(bytes.includes('_Z6addAllPKii\0'), 'the kernel is registered under its mangled name');

  // The same unit again: from memory; after memory is dropped, from disk.
  const again = await compileDevice(unit(file));
  assert.equal(again.cached, 'memory');
  assert.equal(again.ok && again.ll, device.ll);
  toolchainCache().clearMemory();
  const fromDisk = await compileHost(unit(file));
  assert.equal(fromDisk.cached, 'disk');
  assert.deepEqual(fromDisk.ok && Buffer.from(fromDisk.object), Buffer.from(host.object));
});

test('a syntax error in unsaved text is a located error; so is one inside an included header', async () => {
  const file = path.join(FIXTURES, 'toolchain-kernel.cu');
  const text = fs.readFileSync(file, 'utf8').replace('atomicAdd(&total, values[i]);', 'atomicAdd(&total, values[i]) +;');
  const r = await compileDevice(unit(file, { text }));
  assert.equal(r.ok, false);
  const error = r.diagnostics.find((d) => d.severity === 'error');
  assert.ok(error, JSON.stringify(r.diagnostics));
  assert.deepEqual([error.file, error.line, error.column], [file, 8, 44]);
  assert.match(error.message, /expected expression/);

  const header = write('inc/broken.h', 'int broken = ;\n');
  const main = write('uses-header.cu', '#include "broken.h"\n__global__ void k() {}\n');
  const h = await compileDevice(unit(main, { includeDirs: [path.dirname(header)] }));
  const inHeader = h.diagnostics.find((d) => d.severity === 'error');
  assert.deepEqual(inHeader && [inHeader.file, inHeader.line, inHeader.column], [header, 1, 14]);
  assert.deepEqual(inHeader?.includedFrom, [{ file: main, line: 1 }]);
});

test('includes of special files are refused with a located reason, and nothing hangs', async () => {
  const lines = ['#include "/proc/self/pagemap"'];
  let fifo: string | undefined;
  if (process.platform !== 'win32') {
    fifo = path.join(scratch, 'pipe.h');
    execFileSync('mkfifo', [fifo]);
    lines.push('#include "pipe.h"');
  }
  const file = write('hostile.cu', `${lines.join('\n')}\n__global__ void k() {}\n`);
  const r = await compileDevice(unit(file));
  assert.equal(r.ok, false);
  const proc = r.diagnostics.find((d) => d.line === 1 && d.file === file);
  assert.ok(proc, JSON.stringify(r.diagnostics));
  assert.equal(proc.column, 10);
  assert.match(proc.message, /'\/proc\/self\/pagemap' is not read: it is in a system folder/);
  if (fifo) {
    // clang stops at the first missing include; alone, the pipe is refused the same way.
    const second = write('hostile-pipe.cu', '#include "pipe.h"\n');
    const p = await compileDevice(unit(second));
    assert.match(p.diagnostics[0]?.message ?? '', /'pipe.h' is not read: it is a pipe/);
    assert.deepEqual([p.diagnostics[0]?.line, p.diagnostics[0]?.column], [1, 10]);
  }
});

test('an include named by a macro is found by running clang again', async () => {
  write('computed/impl.h', '#define FROM_IMPL 3\n');
  const file = write('computed/main.cu', '#define HEADER "impl.h"\n#include HEADER\n__device__ int x = FROM_IMPL;\n');
  const r = await compileDevice(unit(file));
  assert.ok(r.ok, JSON.stringify(r.diagnostics));
  assert.match(r.ll, /@x = addrspace\(1\) externally_initialized global i32 3/);
});

test('precompiled headers (leading standard headers, or cuda_runtime.h alone) are made the second time they are wanted', async (t) => {
  configureToolchain({ dir: CACHE });
  t.after(() => configureToolchain({ dir: CACHE, precompiledHeaders: false }));
  const file = write('pch/uses-new.cu', '// comment\n#include <new>\n#include <cstdio>\n__global__ void k(int *p) { p[0] = 1; }\nint main() { k<<<1, 1>>>(nullptr); printf("x\\n"); }\n');
  const first = await compileHost(unit(file));
  assert.ok(first.ok, JSON.stringify(first.diagnostics));
  assert.equal(first.precompiled, undefined, 'the first compile pays for no precompiled header, not even cuda_runtime.h alone');
  // A different file with the same leading headers and flags: now it is made and used.
  const other = write('pch/other.cu', '#include <new>\n#include <cstdio>\nint main() { return 0; }\n');
  const second = await compileHost(unit(other));
  assert.ok(second.ok, JSON.stringify(second.diagnostics));
  assert.deepEqual(second.precompiled, ['new', 'cstdio']);
  // Other leading headers, wanted for the first time: cuda_runtime.h alone, wanted before, is made and used.
  const third = await compileHost(unit(write('pch/third.cu', '#include <cstdlib>\nint main() { return 0; }\n')));
  assert.ok(third.ok, JSON.stringify(third.diagnostics));
  assert.deepEqual(third.precompiled, []);
  // The first file's result is still a hit, though it was made without one.
  assert.equal((await compileHost(unit(file))).cached, 'memory');
});

test('libc++ is read without its compatibility includes; a unit that relies on one compiles again with them', async (t) => {
  // std::sort with <vector> alone: libc++ (and libstdc++) include <algorithm> for it only for compatibility.
  const text = '#include <vector>\n__global__ void k(int *p) { p[0] = 1; }\nint main() { std::vector<int> v{3, 1, 2}; std::sort(v.begin(), v.end()); return v[0]; }\n';
  const file = write('compat/sort.cu', text);
  for (const pass of [compileDevice, compileHost]) {
    const r = await pass(unit(file));
    assert.ok(r.ok, JSON.stringify(r.diagnostics));
    assert.equal(r.attempts, 2, 'without the compatibility includes, then with them');
    assert.equal((await pass(unit(file))).cached, 'memory', 'the unit as written finds the result at once');
    // Edited, the unit starts with them: no failed compile first.
    const edited = await pass(unit(file, { text: `${text}// edited\n` }));
    assert.ok(edited.ok, JSON.stringify(edited.diagnostics));
    assert.equal(edited.attempts, 1);
  }
  // A genuine error is reported once, located, whichever way it was compiled.
  const bad = write('compat/bad.cu', '#include <vector>\nint main() { std::vector<int> v; return v.nosuch(); }\n');
  const b = await compileHost(unit(bad));
  assert.equal(b.ok, false);
  assert.deepEqual(b.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.line, d.message]), [[2, "no member named 'nosuch' in 'std::vector<int>'"]]);
  // With precompiled headers made at once, the unit gets one made with the compatibility includes.
  configureToolchain({ dir: CACHE, precompiledHeaders: 'eager' });
  t.after(() => configureToolchain({ dir: CACHE, precompiledHeaders: false }));
  // (<deque> first: a unit leading with the standard prelude's headers alone uses the prelude, clang-prelude.test.ts.)
  const h = await compileHost(unit(write('compat/sort-pch.cu', `#include <deque>\n${text}`)));
  assert.ok(h.ok, JSON.stringify(h.diagnostics));
  assert.deepEqual(h.precompiled, ['deque', 'vector']);
});

test('the precompiled header stops at the first line that could change what a standard header means', () => {
  const origin = (name: string): 'user' | 'project' | 'none' => (name === 'mine.h' ? 'user' : name === 'cuda_runtime.h' ? 'project' : 'none');
  assert.deepEqual(precompiledHeaders('#include <vector>\n/* c */ #include <cuda_runtime.h>\n#include <string>\n#define X\n#include <map>\n', origin), ['vector', 'cuda_runtime.h', 'string']);
  assert.deepEqual(precompiledHeaders('#include "mine.h"\n#include <vector>\n', origin), undefined);
  assert.deepEqual(precompiledHeaders('#define _USE_MATH_DEFINES\n#include <vector>\n', origin), undefined);
  assert.deepEqual(precompiledHeaders('#include <stdio.h>\n#include <cstdlib>\n', origin), undefined, 'C headers alone are cheap');
  assert.deepEqual(precompiledHeaders('#include <thrust/device_vector.h>\n#include <vector>\n', origin), undefined, 'only known library headers');
});

test("clang's messages are read with their place, range, flag and include chain", () => {
  const out = [
    'In file included from /a/main.cu:3:',
    'In file included from /a/inc/x.h:7:',
    '/a/inc/y.h:2:5:{2:5-2:9}: warning: unused variable \'z\' [-Wunused-variable]',
    '/.scord/host/usr/local/inc/q.h:4:1: error: unknown type name \'foo\'',
    'error: unknown argument: \'-fbogus\'',
    '2 errors generated.',
  ].join('\n');
  const d = parseClangOutput(out, '/a/main.cu');
  assert.equal(d.length, 3);
  assert.deepEqual(d[0], { severity: 'warning', message: "unused variable 'z'", flag: '-Wunused-variable', file: '/a/inc/y.h', line: 2, column: 5, endLine: 2, endColumn: 9, includedFrom: [{ file: '/a/inc/x.h', line: 7 }, { file: '/a/main.cu', line: 3 }] });
  assert.equal(d[1].file, '/usr/local/inc/q.h');
  assert.deepEqual([d[2].file, d[2].line, d[2].unlocated], ['/a/main.cu', 1, true]);
});

test('paths clang cannot see as they are are mapped there and back', () => {
  for (const real of ['/home/u/a.cu', '/usr/local/cuda/samples/x.cu', 'C:\\Users\\u\\a.cu', '\\\\server\\share\\a.cu']) {
    const virtual = toVirtual(real);
    assert.ok(virtual.startsWith('/') && !virtual.startsWith('/usr/'), virtual);
    assert.equal(toReal(virtual), real);
  }
  assert.equal(toVirtual('/home/u/a.cu'), '/home/u/a.cu');
});

test('compile_commands.json entries give each unit its flags, and a file its target', () => {
  const dir = path.join(scratch, 'db');
  const build = path.join(dir, 'build');
  fs.mkdirSync(build, { recursive: true });
  fs.writeFileSync(path.join(build, 'includes.rsp'), '-I../rsp-include "-DFROM_RSP=a b"');
  for (const f of ['toolchain-main.cu', 'toolchain-kernels.cu', 'toolchain-shared.h']) fs.copyFileSync(path.join(FIXTURES, f), path.join(dir, f));
  fs.writeFileSync(path.join(dir, 'other.cu'), 'int main() { return 0; }\n');
  const entries = [
    { directory: build, file: '../toolchain-main.cu', output: 'CMakeFiles/app.dir/toolchain-main.cu.o', arguments: ['/usr/local/cuda/bin/nvcc', '-DN=64', '-I', '../include', '--std', 'c++14', '-x', 'cu', '-c', '../toolchain-main.cu', '-o', 'CMakeFiles/app.dir/toolchain-main.cu.o'] },
    { directory: build, file: '../toolchain-kernels.cu', command: 'nvcc -DSCALE=3 --define-macro "MSG=\\"hi there\\"" -isystem=/opt/x --options-file includes.rsp -Xcompiler -DHOSTONLY,-O2 -include pre.h -c ../toolchain-kernels.cu -o CMakeFiles/app.dir/toolchain-kernels.cu.o' },
    { directory: build, file: '../other.cu', command: 'nvcc -c ../other.cu -o CMakeFiles/tool.dir/other.cu.o' },
  ];
  const json = path.join(build, 'compile_commands.json');
  fs.writeFileSync(json, JSON.stringify(entries, null, 2));

  const { entries: read, errors } = parseCompileCommands(fs.readFileSync(json, 'utf8'), json);
  assert.deepEqual(errors, []);
  assert.deepEqual(read.map((e) => [e.file, e.output]), [
    [path.join(dir, 'toolchain-main.cu'), path.join(build, 'CMakeFiles/app.dir/toolchain-main.cu.o')],
    [path.join(dir, 'toolchain-kernels.cu'), path.join(build, 'CMakeFiles/app.dir/toolchain-kernels.cu.o')],
    [path.join(dir, 'other.cu'), path.join(build, 'CMakeFiles/tool.dir/other.cu.o')],
  ]);
  assert.deepEqual(flagsOf(read[1].args, build), {
    defines: ['SCALE=3', 'MSG="hi there"', 'FROM_RSP=a b', 'HOSTONLY'],
    undefines: [],
    includeDirs: ['/opt/x', path.join(dir, 'rsp-include')],
    includes: [path.join(build, 'pre.h')],
  });

  // The database is found from the file's folder (in build/), and the file's program is its target.
  assert.equal(findCompileCommands(path.join(dir, 'toolchain-main.cu')), json);
  const r = programForFile(path.join(dir, 'toolchain-main.cu'));
  assert.equal(r.origin, 'compile-commands');
  assert.deepEqual(r.program.units.map((u) => path.basename(u.file)), ['toolchain-main.cu', 'toolchain-kernels.cu']);
  assert.deepEqual(r.program.units[0], { file: path.join(dir, 'toolchain-main.cu'), defines: ['N=64'], includeDirs: [path.join(dir, 'include')], std: 'c++14', language: 'cuda' });
  assert.deepEqual(programForFile(path.join(dir, 'other.cu')).program.units.map((u) => path.basename(u.file)), ['other.cu']);
  // Several targets and no file: which one is ambiguous.
  const all = programFromCompileCommands(json);
  assert.match(all?.errors[0]?.message ?? '', /2 link targets \(app, tool\)/);

  // A broken database is a located error.
  const bad = parseCompileCommands('[\n  { "directory": "/x" }\n]', json);
  assert.deepEqual(bad.errors.map((e) => [e.line, e.message]), [[1, 'entry 1: needs a "file" string']]);
  const missing = programFromCompileCommands(writeDatabase(dir, [{ directory: dir, file: 'gone.cu', command: 'nvcc -c gone.cu' }]), path.join(dir, 'gone.cu'));
  assert.deepEqual(missing?.errors.map((e) => [e.line, e.column, e.message]), [[4, 13, `cannot read ${path.join(dir, 'gone.cu')}: no such file`]]);
  assert.deepEqual(splitCommand(`nvcc -D'A=1 2' "B=\\"q\\"" C\\ D`), ['nvcc', '-DA=1 2', 'B="q"', 'C D']);
});

function writeDatabase(dir: string, entries: object[]): string {
  const file = path.join(dir, 'compile_commands.json');
  fs.writeFileSync(file, JSON.stringify(entries, null, 2));
  return file;
}

test('a program of several files on the command line compiles and links as one', async () => {
  const files = ['toolchain-main.cu', 'toolchain-kernels.cu', 'no-such-file.cu'];
  const r = programFromFiles(files, { defines: ['SCALE=5'], includeDirs: ['.'] }, { base: FIXTURES });
  assert.deepEqual(r.errors, [{ message: `cannot read ${path.join(FIXTURES, 'no-such-file.cu')}: no such file`, file: path.join(FIXTURES, 'no-such-file.cu'), line: 1, column: 1 }]);
  assert.deepEqual(r.program.units.map((u) => [path.basename(u.file), u.defines, u.includeDirs]), [
    ['toolchain-main.cu', ['SCALE=5'], [FIXTURES]],
    ['toolchain-kernels.cu', ['SCALE=5'], [FIXTURES]],
  ]);
  const objects = [];
  for (const u of r.program.units) {
    const h = await compileHost(u);
    assert.ok(h.ok, JSON.stringify(h.diagnostics));
    objects.push({ object: h.object, file: u.file });
  }
  const kernels = await compileDevice(r.program.units[1]);
  assert.ok(kernels.ok && /mul i32 5,/.test(kernels.ll), 'SCALE=5 reached the device pass');
  const linked = await linkHost(objects);
  assert.ok(linked.ok, JSON.stringify(linked.diagnostics));
  assert.equal(linked.mainFile, r.program.units[0].file, 'main is in toolchain-main.cu');
  // Without it, nothing defines main: the program links but must not be started.
  const kernelsOnly = await linkHost([objects[1]]);
  assert.ok(kernelsOnly.ok, JSON.stringify(kernelsOnly.diagnostics));
  assert.equal(kernelsOnly.mainFile, undefined);
  // The same objects twice: a duplicate `main`, named with both files.
  const twice = await linkHost([...objects, { object: objects[0].object, file: path.join(FIXTURES, 'copy-of-main.cu') }]);
  assert.equal(twice.ok, false);
  assert.match(twice.diagnostics[0]?.message ?? '', /duplicate symbol: .*main.*toolchain-main\.cu.*copy-of-main\.cu/);
});

test('a .cpp unit is host code only: it may use the runtime API, and has no device module', async () => {
  const file = write('host-only/main.cpp', '#include <cuda_runtime.h>\nint main() { int *p; cudaMalloc(&p, 4); return 0; }\n');
  const device = await compileDevice(unit(file));
  assert.ok(device.ok && !/define /.test(device.ll), 'no device code');
  const host = await compileHost(unit(file));
  assert.ok(host.ok, JSON.stringify(host.diagnostics));
});

test('the program.sources setting lists a program; the file being analysed is always in it', () => {
  const r = programFromSourcesSetting(['toolchain-kernels.cu'], FIXTURES, { defines: ['N=8'] }, { file: path.join(FIXTURES, 'toolchain-main.cu') });
  assert.equal(r.origin, 'sources-setting');
  assert.deepEqual(r.program.units.map((u) => [path.basename(u.file), u.defines]), [['toolchain-main.cu', ['N=8']], ['toolchain-kernels.cu', ['N=8']]]);
  // With no database and no setting, a file is a program alone, with the settings' flags.
  const lone = write('alone/lone.cu', '__global__ void k() {}\n');
  const alone = programForFile(lone, { flags: { includeDirs: ['inc'] } });
  assert.equal(alone.origin, 'alone');
  assert.deepEqual(alone.program.units.map((u) => u.includeDirs), [[path.join(scratch, 'alone', 'inc')]]);
});
