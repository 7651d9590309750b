// Which path the `auto` front end takes for a file: the hand-written front end when it runs the
// file or when its error is a plain syntax error in code it knows; clang for everything else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSource } from '../../../sims/check';
import { clangsPart, withClangsPart } from '../../../sims/clang/check';
import type { CheckReport } from '../../../sims/check';

const builtin = (text: string) => checkSource({ fileName: 'route.cu', text, readFile: () => undefined });

const KERNEL = `
__global__ void add(int *out) { atomicAdd(out, 1); }
int main() {
  int *d;
  cudaMalloc(&d, sizeof(int));
  add<<<2, 32>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
`;

test('a program the hand-written front end runs stays with it', () => {
  const report = builtin(KERNEL);
  assert.equal(report.analysed, true);
  assert.equal(clangsPart(report), 'keep');
});

test('a syntax error is instant, and stands unless clang runs the file: a half-typed line, or C++ the parser does not know', () => {
  const report = builtin(KERNEL.replace('atomicAdd(out, 1);', 'atomicAdd(out, 1'));
  assert.equal(report.analysed, false);
  assert.ok(report.diagnostics.some((d) => d.severity === 'error' && d.code !== 'not-supported'));
  assert.equal(clangsPart(report), 'clang-if-it-runs');
  // A range-based for loop is C++11 the hand-written parser reads as a syntax error.
  const rangeFor = builtin(KERNEL.replace('int *d;', 'int a[3] = {1, 2, 3}, s = 0;\n  for (int x : a) s += x;\n  int *d;'));
  assert.equal(clangsPart(rangeFor), 'clang-if-it-runs');
});

test("clang's report wins when clang runs the file, or when the file was clang's to judge; otherwise the instant one stays", async () => {
  const instant = builtin(KERNEL.replace('atomicAdd(out, 1);', 'atomicAdd(out, 1'));
  const ran = { ...instant, analysed: true, diagnostics: [] } as CheckReport;
  const refused = { ...instant, diagnostics: [] } as CheckReport;
  assert.equal(await withClangsPart(instant, async () => ran), ran);
  assert.equal(await withClangsPart(instant, async () => refused), instant);
  const unknownHeader = builtin(`#include <unordered_map>\n${KERNEL.replace('int *d;', 'std::unordered_map<int, int> seen; int *d;')}`);
  assert.equal(await withClangsPart(unknownHeader, async () => refused), refused);
  const kept = builtin(KERNEL);
  assert.equal(await withClangsPart(kept, async () => assert.fail('a file the hand-written front end ran is not compiled again')), kept);
});

test('syntax errors that follow a construct the parser does not know are its cascade: clang judges the file', () => {
  // A class template with an operator and a member template: the hand-written parser refuses it
  // and resynchronises inside its body, reporting syntax errors clang would not.
  const text = `
template <class T> class Box {
 public:
  template <class U> Box &operator<<(const U &u) { value += T(u); return *this; }
  T value{};
};
${KERNEL}`;
  const report = builtin(text);
  assert.equal(report.analysed, false);
  assert.ok(report.diagnostics.some((d) => d.code === 'not-supported'));
  assert.equal(clangsPart(report), 'clang');
});

test('a system header the hand-written front end has no declarations for leaves the file to clang', () => {
  const report = builtin(`#include <unordered_map>\n${KERNEL.replace('int *d;', 'std::unordered_map<int, int> seen; int *d;')}`);
  assert.equal(report.analysed, false);
  assert.ok(report.diagnostics.some((d) => d.code === 'unknown-system-header'));
  assert.equal(clangsPart(report), 'clang');
});

test('a file with nothing to run stays with the hand-written front end: clang would find nothing either', () => {
  const report = builtin('__device__ int twice(int x) { return 2 * x; }\n');
  assert.equal(report.analysed, false);
  assert.equal(clangsPart(report), 'keep');
});
