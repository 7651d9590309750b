// clang errors that stand for a feature the simulated machine lacks become one located
// `not supported: …` naming it; the program's own errors (a header it forgot, a typo) stay
// clang's errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clangDiagnostic } from '../../../sims/clang/check';
import { refusedFeature } from '../../../sims/clang/refusals';
import { SourceRanges } from '../../../sims/clang/ranges';
import type { ClangDiagnostic } from '../../../sims/clang/toolchain';

const SOURCE = '#include <sys/wait.h>\n#include <boost/numeric/interval.hpp>\nint main() { return 0; }\n';
const ranges = new SourceRanges((p) => (p === '/w/main.cu' ? SOURCE : undefined));
const error = (message: string, line = 1, column = 10): ClangDiagnostic => ({ severity: 'error', message, file: '/w/main.cu', line, column });

test('a missing header of a library or facility the machine lacks names it, at the #include', () => {
  const d = clangDiagnostic(error("'sys/wait.h' file not found"), ranges);
  assert.equal(d.code, 'not-supported');
  assert.equal(d.severity, 'error');
  assert.match(d.message, /^not supported: several host processes \(fork, wait.*\(<sys\/wait\.h>\); clang: 'sys\/wait\.h' file not found$/);
  assert.deepEqual([d.location?.line, d.location?.column], [1, 10]);
  const boost = clangDiagnostic(error("'boost/numeric/interval.hpp' file not found", 2), ranges);
  assert.equal(boost.code, 'not-supported');
  assert.match(boost.message, /^not supported: the Boost C\+\+ libraries \(<boost\/numeric\/interval\.hpp>\)/);
  assert.equal(boost.location?.line, 2);
});

test('each kind of refused header maps to its feature', () => {
  const cases: [string, RegExp][] = [
    ['thrust/iterator/transform_iterator.h', /Thrust/],
    ['cub/cub.cuh', /CUB/],
    ['cufft.h', /cuFFT/],
    ['GL/freeglut.h', /OpenGL/],
    ['EGL/egl.h', /EGL/],
    ['d3d11.h', /Direct3D/],
    ['windows.h', /Windows API/],
    ['Windows.h', /Windows API/],
    ['nvrtc.h', /NVRTC/],
    ['mpi.h', /MPI/],
  ];
  for (const [header, feature] of cases) assert.match(refusedFeature(error(`'${header}' file not found`)) ?? '(none)', feature, header);
});

test('a header the program itself should provide stays a compile error', () => {
  for (const header of ['helper_cuda.h', 'myhelpers.h', 'sys/types_typo.h', 'boostlike.h']) {
    assert.equal(refusedFeature(error(`'${header}' file not found`)), undefined, header);
    assert.equal(clangDiagnostic(error(`'${header}' file not found`), ranges).code, 'clang');
  }
  // A warning is never a refusal, and other errors are the program's.
  assert.equal(refusedFeature({ severity: 'warning', message: "'sys/wait.h' file not found" }), undefined);
  assert.equal(refusedFeature(error("use of undeclared identifier 'fork'")), undefined);
});

test("nvcc's single-% PTX register is refused by name, not as a syntax error", () => {
  const d = clangDiagnostic(error('invalid % escape in inline assembly string', 3, 14), ranges);
  assert.equal(d.code, 'not-supported');
  assert.match(d.message, /^not supported: a PTX register named with a single '%' in inline assembly \(nvcc accepts it; write '%%'\)/);
});
