// An analysis worker's process, on its own: what its host says when the process outgrows its
// resident ceiling (memory the worker's heap limit cannot see: clang's and the program's
// WebAssembly memories), and that a terminated worker is gone with its process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { WorkerProcess } from '../../server/analysis/workerProcess';
import { ROOT } from '../support/lspKit';

function start(residentCeilingMb: number): WorkerProcess {
  return new WorkerProcess(path.join(ROOT, 'dist', 'analysisHost.js'), {
    workerScript: path.join(ROOT, 'dist', 'analysisWorker.js'),
    memoryLimitMb: 256,
    stackMb: 64,
    residentCeilingMb,
    warmClang: false,
  });
}

test('a process over its resident ceiling ends its worker as out of memory, and says by how much', async () => {
  // No Node process fits in 8 MB: the first look over the ceiling ends it.
  const w = start(8);
  const exited = new Promise<string>((resolve) => w.once('exit', resolve));
  const [error] = (await Promise.race([
    new Promise((resolve) => w.once('error', (e) => resolve([e]))),
    new Promise((_, reject) => setTimeout(() => reject(new Error('no error within 20 s')), 20_000)),
  ])) as [Error & { code?: string }];
  assert.equal(error.code, 'ERR_WORKER_OUT_OF_MEMORY');
  assert.match(error.message, /the analysis process held \d+ MB, over its ceiling of 8 MB/);
  assert.equal(await exited, 'exit code 1');
});

test('a worker within its ceiling answers, and terminate ends its process', async () => {
  const w = start(4096);
  const answer = new Promise<unknown>((resolve) => w.on('message', resolve));
  w.postMessage({ id: 1, fileName: '/x.cu', text: 'int main() { return 0; }\n', options: {}, openFiles: {}, verifyFixes: false } as never);
  const first = (await answer) as { id: number; kind: string };
  assert.deepEqual({ id: first.id, kind: first.kind }, { id: 1, kind: 'started' });
  const exited = new Promise<string>((resolve) => w.once('exit', resolve));
  await w.terminate();
  assert.equal(await exited, 'killed by SIGKILL');
});
