// CUDA graphs end to end: a program (test/fixtures/clang/graphs.cu) builds a graph by hand and
// one by capturing three streams that fork and join through events, clones, instantiates and
// launches them, and checks the results, the node counts and the capture status on the host;
// conditional nodes (if/else, while, switch) run their bodies as device code sets their handles.
// A kernel node that races is reported like any launch.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compileProgram, type CompiledProgram } from '../../sims/clang/check';
import { runClangProgram, type ClangRunOptions, type ClangRunResult } from '../../sims/clang/host/runProgram';
import { SourceRanges } from '../../sims/clang/ranges';
import { ScordDetector } from '../../sims/detect/scord';
import { CLANG_FIXTURES } from '../support/clangDevice';

const FILE = path.join(CLANG_FIXTURES, 'graphs.cu');
const TEXT = fs.readFileSync(FILE, 'utf8');
const ranges = new SourceRanges((p) => (p === FILE ? TEXT : undefined));
let program: CompiledProgram;

function run(args: string[], options: ClangRunOptions = {}): ClangRunResult {
  return runClangProgram(
    { ...(program.wasm ? { wasm: program.wasm } : {}), device: program.device },
    {
      argv: args,
      programName: 'graphs',
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

describe('CUDA graphs', () => {
  test('hand-built, cloned and captured graphs run their nodes in dependency order, each launch', () => {
    const r = run([]);
    const checks = ['node-count', 'roots', 'node-type', 'manual', 'memset-node', 'clone', 'capturing', 'nothing-ran', 'captured-nodes', 'capture-ended', 'captured', 'conditional', 'no-errors'];
    assert.deepEqual(r.stdout.split('\n').filter(Boolean), checks.map((c) => `ok ${c}`));
    assert.equal(r.exitCode, 0);
    assert.deepEqual(r.findings, []);
  });

  test('a kernel node that races is reported at its line', () => {
    const detectors: ScordDetector[] = [];
    const r = run(['race'], { listen: (memory) => { const d = new ScordDetector(memory, {}); detectors.push(d); return d.listener; } });
    assert.equal(r.exitCode, 0);
    const races = detectors.flatMap((d) => d.findings());
    assert.ok(races.length > 0, 'the race in the captured kernel is found');
    const line = TEXT.split('\n').findIndex((l) => l.includes('*total += data[i]')) + 1;
    assert.equal(races[0].range.start.line + 1, line);
    assert.equal(races[0].address, 'total[0]');
  });
});
