// A document version is parsed once (server/analysis/parseHandoff.ts): the worker takes the
// server's parse when it is the one it would make — same text, flags and reads — and it runs
// the same as its own; any difference and it is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkSource } from '../../../sims/check';
import { parse } from '../../../sims/frontend/index';
import type { ReadSourceFile } from '../../../sims/frontend/preprocessor';
import { RecordedReads, takeHandoff, type ParseInputs } from '../../../server/analysis/parseHandoff';

const MAIN = '/w/main.cu';
const HEADER = '/w/util.cuh';
const TEXT = `#include "util.cuh"
__global__ void k(int *out) { bump(out); }
int main() {
  int *d;
  cudaMalloc(&d, sizeof(int));
  k<<<2, 32>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
`;
const UTIL = `#pragma once
__device__ void bump(int *p) { atomicAdd_block(p, N); }
`;
const INPUTS: ParseInputs = { fileName: MAIN, defines: ['N=1'], undefines: [], includePaths: ['/w'], maxOutputTokens: 1_000_000 };

function reader(files: Record<string, string | { refused: string }>): ReadSourceFile {
  return (p) => files[p];
}

/** The server's side: a parse made through a recording reader, packed. */
function handed(files: Record<string, string | { refused: string }>, text = TEXT, inputs = INPUTS) {
  const reads = new RecordedReads(reader(files));
  const parsed = parse(text, { ...inputs, readFile: reads.reader });
  return { parsed, handoff: reads.handoff(parsed, text, inputs) };
}

test('the worker takes the parse it would have made, and sees each file it read', () => {
  const { parsed, handoff } = handed({ [HEADER]: UTIL });
  assert.ok(handoff);
  const seen: string[] = [];
  const taken = takeHandoff(handoff, TEXT, INPUTS, reader({ [HEADER]: UTIL }), (p) => seen.push(p));
  assert.deepEqual(taken, parsed);
  assert.ok(seen.includes(HEADER), `the header is a dependency of the run: ${seen.join(', ')}`);
  // The runs are the same: the scoped race in the header, found from the taken parse.
  const options = { fileName: MAIN, text: TEXT, defines: INPUTS.defines, includePaths: INPUTS.includePaths, readFile: reader({ [HEADER]: UTIL }) };
  const own = checkSource(options);
  const fromTaken = checkSource({ ...options, parsed: taken! });
  assert.equal(own.findings.length, 1);
  assert.deepEqual(JSON.parse(JSON.stringify(fromTaken)), JSON.parse(JSON.stringify(own)));
});

test('a parse of other text, other flags or other reads is refused', () => {
  const { handoff } = handed({ [HEADER]: UTIL });
  const read = reader({ [HEADER]: UTIL });
  const none = (): void => undefined;
  assert.equal(takeHandoff(undefined, TEXT, INPUTS, read, none), undefined, 'no parse handed');
  assert.equal(takeHandoff(handoff, TEXT + ' ', INPUTS, read, none), undefined, 'the text differs');
  assert.equal(takeHandoff(handoff, TEXT, { ...INPUTS, defines: ['N=2'] }, read, none), undefined, 'a define differs');
  assert.equal(takeHandoff(handoff, TEXT, { ...INPUTS, undefines: ['N'] }, read, none), undefined, 'an undefine differs');
  assert.equal(takeHandoff(handoff, TEXT, { ...INPUTS, includePaths: [] }, read, none), undefined, 'the include paths differ');
  assert.equal(takeHandoff(handoff, TEXT, { ...INPUTS, maxOutputTokens: 10 }, read, none), undefined, 'the expansion limit differs');
  assert.equal(takeHandoff({ ...handoff!, bytes: new Uint8Array([1, 2, 3]) }, TEXT, INPUTS, read, none), undefined, 'bytes that are no parse');
  // The header changed since the server read it, is refused here, or is gone.
  const seen: string[] = [];
  assert.equal(takeHandoff(handoff, TEXT, INPUTS, reader({ [HEADER]: UTIL.replace('_block', '') }), (p) => seen.push(p)), undefined, 'the header changed');
  assert.ok(seen.includes(HEADER), 'a refused parse still names the reads (the worker parses, and reads them again)');
  assert.equal(takeHandoff(handoff, TEXT, INPUTS, reader({ [HEADER]: { refused: 'outside the workspace' } }), none), undefined, 'the header is refused');
  assert.equal(takeHandoff(handoff, TEXT, INPUTS, reader({}), none), undefined, 'the header is gone');
  // A file the server could not read, that the worker can: refused too.
  const missing = handed({});
  assert.ok(missing.handoff);
  assert.equal(takeHandoff(missing.handoff, TEXT, INPUTS, read, none), undefined, 'the header appeared');
  assert.ok(takeHandoff(missing.handoff, TEXT, INPUTS, reader({}), none), 'still missing: the same parse');
});

test('a read that throws (a name too long for the file system) reads nothing on both sides, as the preprocessor takes it', () => {
  const throwing: ReadSourceFile = (p) => {
    if (p === HEADER) throw Object.assign(new Error('ENAMETOOLONG: name too long'), { code: 'ENAMETOOLONG' });
    return undefined;
  };
  const reads = new RecordedReads(throwing);
  const parsed = parse(TEXT, { ...INPUTS, readFile: reads.reader });
  const handoff = reads.handoff(parsed, TEXT, INPUTS);
  assert.ok(handoff);
  assert.deepEqual(handoff.reads, [[HEADER, 'none']]);
  assert.deepEqual(takeHandoff(handoff, TEXT, INPUTS, throwing, () => undefined), parsed);
  assert.deepEqual(parsed, parse(TEXT, { ...INPUTS, readFile: throwing }), 'the same parse as with the throwing reader itself');
});

test('a file that read differently within one parse is never handed on', () => {
  // A file that tests __CUDA_ARCH__ is read for the host and for the device: twice.
  const X = '/w/x.h';
  const text = '#include "x.h"\n#ifdef __CUDA_ARCH__\n#endif\nint main() { return 0; }\n';
  let n = 0;
  const reads = new RecordedReads((p) => (p === X ? (n++ === 0 ? 'int a;\n' : 'int b;\n') : undefined));
  const parsed = parse(text, { ...INPUTS, readFile: reads.reader });
  assert.ok(n >= 2, `the header is read for each side: ${n}`);
  assert.equal(reads.handoff(parsed, text, INPUTS), undefined);
  // Read the same each time: handed on.
  const steady = new RecordedReads((p) => (p === X ? 'int a;\n' : undefined));
  assert.ok(steady.handoff(parse(text, { ...INPUTS, readFile: steady.reader }), text, INPUTS));
});

test('taken parses run as the worker’s own on the race fixtures', () => {
  const dir = path.join(__dirname, '..', '..', 'fixtures', 'races');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cu')).sort();
  assert.ok(files.length >= 40, `fixtures: ${files.length}`);
  const readFile: ReadSourceFile = (p) => (fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : undefined);
  let withFindings = 0;
  for (const f of files) {
    const fileName = path.join(dir, f);
    const text = fs.readFileSync(fileName, 'utf8');
    const inputs: ParseInputs = { fileName, defines: [], undefines: [], includePaths: [dir], maxOutputTokens: 1_000_000 };
    const reads = new RecordedReads(readFile);
    const packed = reads.handoff(parse(text, { ...inputs, readFile: reads.reader }), text, inputs);
    assert.ok(packed, f);
    const taken = takeHandoff(packed, text, inputs, readFile, () => undefined);
    assert.ok(taken, f);
    const options = { fileName, text, includePaths: [dir], readFile };
    const own = JSON.stringify(checkSource(options));
    assert.equal(JSON.stringify(checkSource({ ...options, parsed: taken })), own, f);
    if (own.includes('"kind":"race"')) withFindings++;
  }
  assert.ok(withFindings >= 20, `fixtures with races: ${withFindings}`);
});
