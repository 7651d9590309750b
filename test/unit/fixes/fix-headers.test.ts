// Fixes in the program's own headers: `scord fix` edits a header included with quotes (the race
// is in it), writes it as it writes the file, and checks the result with the header as written;
// a system header (<…>) or a macro's expansion is never edited.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { scord } from '../../../sims/cli';
import { checkSource } from '../../../sims/check';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-fix-headers-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const HEADER = `#pragma once
__device__ int lock = 0;
__device__ volatile int total = 0;

__device__ void add(int v)
{
    while (atomicCAS(&lock, 0, 1) != 0) {}
    __threadfence_block();
    total = total + v;
    __threadfence();
    atomicExch(&lock, 0);
}
`;

const MAIN = `#include <stdio.h>
#include "counter.cuh"

__global__ void k() { add(blockIdx.x + 1); }

int main()
{
    k<<<2, 1>>>();
    cudaDeviceSynchronize();
    return 0;
}
`;

async function run(argv: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const status = await scord(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { status, stdout, stderr };
}

function project(name: string): { main: string; header: string } {
  const d = path.join(dir, name);
  fs.mkdirSync(d);
  fs.writeFileSync(path.join(d, 'counter.cuh'), HEADER);
  fs.writeFileSync(path.join(d, 'main.cu'), MAIN);
  return { main: path.join(d, 'main.cu'), header: path.join(d, 'counter.cuh') };
}

test('scord fix edits the header that holds the race, and the re-check reads it as written', async () => {
  const p = project('own');
  const r = await run(['fix', '--frontend', 'builtin', p.main]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /counter\.cuh: fixed: Widen the fence at line 8 to __threadfence\(\)/);
  assert.match(r.stdout, /0 findings in/);
  assert.equal(fs.readFileSync(p.header, 'utf8'), HEADER.replace('__threadfence_block()', '__threadfence()'));
  assert.equal(fs.readFileSync(p.main, 'utf8'), MAIN, 'the file itself needed no edit');
  assert.deepEqual(fs.readdirSync(path.dirname(p.main)).sort(), ['counter.cuh', 'main.cu'], 'no temporary file left');
});

test('scord fix --dry-run shows the header\'s diff and writes nothing', async () => {
  const p = project('dry');
  const r = await run(['fix', '--dry-run', '--frontend', 'builtin', p.main]);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /counter\.cuh\tbefore/);
  assert.match(r.stdout, /^-    __threadfence_block\(\);$/m);
  assert.match(r.stdout, /^\+    __threadfence\(\);$/m);
  assert.equal(fs.readFileSync(p.header, 'utf8'), HEADER);
});

test('a header included with angle brackets is not the program\'s own: no fix edits it', () => {
  const d = path.join(dir, 'system');
  fs.mkdirSync(d);
  fs.writeFileSync(path.join(d, 'counter.cuh'), HEADER);
  const text = MAIN.replace('#include "counter.cuh"', '#include <counter.cuh>');
  const report = checkSource({ fileName: path.join(d, 'main.cu'), text, includePaths: [d], readFile: (f) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : undefined) });
  assert.equal(report.findings.length, 1, report.findings.map((f) => f.message).join('\n'));
  assert.deepEqual(report.findings[0].fixes, []);
  // The same header included with quotes gets its fix.
  const own = checkSource({ fileName: path.join(d, 'main.cu'), text: MAIN, readFile: (f) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : undefined) });
  assert.equal(own.findings[0].fixes[0]?.edits[0].range.file, path.join(d, 'counter.cuh'));
});
