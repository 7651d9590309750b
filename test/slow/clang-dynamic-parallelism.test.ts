// Kernels that launch kernels, end to end (test/fixtures/clang/dynamic-parallelism.cu): child
// grids run after the grid that launched them with the arguments it gave (a struct by value
// included), recursion to a depth, device-side cudaMalloc, cudaMemcpyAsync and cudaFree, and an
// error text in device code; a child grid's race is reported at its line; a parent that waits
// for its child is a located `not supported`, since children run after their parent.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compileProgram, type CompiledProgram } from '../../sims/clang/check';
import { runClangProgram, type ClangRunOptions, type ClangRunResult } from '../../sims/clang/host/runProgram';
import { SourceRanges } from '../../sims/clang/ranges';
import { ScordDetector } from '../../sims/detect/scord';
import { CLANG_FIXTURES } from '../support/clangDevice';

const FILE = path.join(CLANG_FIXTURES, 'dynamic-parallelism.cu');
const TEXT = fs.readFileSync(FILE, 'utf8');
const ranges = new SourceRanges((p) => (p === FILE ? TEXT : undefined));
let program: CompiledProgram;
const lineOf = (snippet: string): number => TEXT.split('\n').findIndex((l) => l.includes(snippet)) + 1;

function run(args: string[], options: ClangRunOptions = {}): ClangRunResult {
  return runClangProgram(
    { ...(program.wasm ? { wasm: program.wasm } : {}), device: program.device },
    {
      argv: args,
      programName: 'dynamic-parallelism',
      rangeOf: (loc) => (loc ? ranges.rangeAt(loc.file, loc.line, loc.column) : ranges.rangeAt(FILE, 1, 1)),
      sourceText: (p) => (p === FILE ? TEXT : undefined),
      ...options,
    },
  );
}

before(async () => {
  const compiled = await compileProgram([{ file: FILE, defines: [], includeDirs: [] }]);
  if ('failed' in compiled) throw new Error(compiled.failed.map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`).join('\n'));
  program = compiled;
});

describe('dynamic parallelism', () => {
  test('child grids run with their arguments, recursively; device code allocates, copies and frees', () => {
    const r = run([]);
    assert.deepEqual(r.stdout.split('\n').filter(Boolean), ['ok recursion', 'ok child-grid', 'ok device-memory', 'ok no-errors']);
    assert.equal(r.exitCode, 0);
    assert.deepEqual(r.findings, []);
  });

  test('a race inside a child grid is found at its line', () => {
    const detectors: ScordDetector[] = [];
    const r = run(['race'], { listen: (memory) => { const d = new ScordDetector(memory, {}); detectors.push(d); return d.listener; } });
    assert.equal(r.exitCode, 0);
    const races = detectors.flatMap((d) => d.findings());
    assert.ok(races.length > 0, 'the child grid was run and heard');
    assert.equal(races[0].range.start.line + 1, lineOf('*counter += 1'));
  });

  test('a parent that waits for its child grid is refused at the wait, and the run ends there', () => {
    const r = run(['wait']);
    assert.equal(r.findings.length, 1);
    assert.equal(r.findings[0].kind, 'not-supported');
    assert.match(r.findings[0].message, /^not supported: cudaDeviceSynchronize in device code after a launch/);
    assert.equal(r.findings[0].range?.start.line! + 1, lineOf('dst[0] = 2;') - 1, 'at the cudaDeviceSynchronize before it');
  });
});
