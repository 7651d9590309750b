// Test helper: a fixture program of test/fixtures/clang compiled by clang (both passes, linked)
// once, in a `before` hook of the test file that asks for it, then run as the CLI runs it, with
// the arguments and options each test gives.
import { before } from 'node:test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compileProgram, type CompiledProgram } from '../../sims/clang/check';
import { runClangProgram, type ClangRunOptions, type ClangRunResult } from '../../sims/clang/host/runProgram';
import { SourceRanges } from '../../sims/clang/ranges';
import { ScordDetector } from '../../sims/detect/scord';
import type { RaceFinding } from '../../sims/detect/findings';
import { CLANG_FIXTURES } from './clangDevice';

export interface CompiledFixture {
  file: string;
  text: string;
  /** 1-based line of the first line of the fixture containing `snippet`. */
  lineOf(snippet: string): number;
  run(args: string[], options?: ClangRunOptions): ClangRunResult;
  /** A run with the ScoRD detector listening to every launch: its result and the races found. */
  runDetected(args: string[]): { result: ClangRunResult; races: RaceFinding[] };
  /** The compiled program (after the `before` hook). */
  readonly program: CompiledProgram;
}

/** `hostProgram`: the fixture has a main, and must link to a host program. */
export function compiledFixture(name: string, options: { hostProgram?: boolean } = {}): CompiledFixture {
  const file = path.join(CLANG_FIXTURES, name);
  const text = fs.readFileSync(file, 'utf8');
  const ranges = new SourceRanges((p) => (p === file ? text : undefined));
  let program: CompiledProgram | undefined;
  before(async () => {
    const compiled = await compileProgram([{ file, defines: [], includeDirs: [] }]);
    if ('failed' in compiled) throw new Error(compiled.failed.map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`).join('\n'));
    if (options.hostProgram && !compiled.wasm) throw new Error(`${name} does not link to a host program`);
    program = compiled;
  });
  const lineOf = (snippet: string): number => {
    const i = text.split('\n').findIndex((l) => l.includes(snippet));
    if (i < 0) throw new Error(`the fixture has no line with ${snippet}`);
    return i + 1;
  };
  const run = (args: string[], options: ClangRunOptions = {}): ClangRunResult => {
    if (!program) throw new Error(`${name} is not compiled yet`);
    return runClangProgram(
      { ...(program.wasm ? { wasm: program.wasm } : {}), device: program.device },
      {
        argv: args,
        programName: path.basename(name, '.cu'),
        rangeOf: (loc) => (loc ? ranges.rangeAt(loc.file, loc.line, loc.column) : ranges.rangeAt(file, 1, 1)),
        sourceText: (p) => (p === file ? text : undefined),
        ...options,
      },
    );
  };
  const runDetected = (args: string[]): { result: ClangRunResult; races: RaceFinding[] } => {
    const detectors: ScordDetector[] = [];
    const result = run(args, { listen: (memory) => { const d = new ScordDetector(memory, {}); detectors.push(d); return d.listener; } });
    return { result, races: detectors.flatMap((d) => d.findings()) };
  };
  return {
    file, text, lineOf, run, runDetected,
    get program(): CompiledProgram {
      if (!program) throw new Error(`${name} is not compiled yet`);
      return program;
    },
  };
}
