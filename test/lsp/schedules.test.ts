// Further schedules in the editor (scord.analysis.schedules): the first run's findings are
// published first; seeded schedules then run in the background, and a race that only some
// interleavings reach joins the same diagnostics. With 1, only the first run counts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { doneDiagnostics, startSession, stopSession, type Session } from '../support/lspKit';
import { analysisProcesses } from '../support/processMemory';

let session: Session;

before(async () => {
  session = await startSession({ analysis: { debounceMs: 20 } });
});

after(async () => {
  await stopSession(session);
});

// Block 1 writes `data` only when it polls the flag before block 0 raises it: the round-robin
// first run has block 0 first (no race); other interleavings race on `data`.
const RACE_IN_SOME_SCHEDULES = `__device__ int flag = 0;
__device__ int data = 0;
__global__ void k()
{
    if (blockIdx.x == 0) {
        atomicExch(&flag, 1);
        data = 2;
    } else if (atomicAdd(&flag, 0) == 0) {
        data = 1;
    }
}
int main() { k<<<2, 1>>>(); cudaDeviceSynchronize(); return 0; }
`;

const races = <D extends { code?: string | number }>(list: D[]): D[] => list.filter((d) => d.code === 'missing-device-fence');

test('background schedules add a race the first run did not reach, after the first publish', async () => {
  const { client } = session;
  const uri = 'file:///virtual/schedules-8.cu';
  session.perUri.set(uri, { analysis: { debounceMs: 20, schedules: 8 } });
  await client.open(uri, RACE_IN_SOME_SCHEDULES);
  const first = await doneDiagnostics(client, uri, 1);
  assert.deepEqual(races(first.diagnostics), [], 'the first (round-robin) run does not reach the race');
  const later = await client.waitForDiagnostics(uri, (p) => races(p.diagnostics).length > 0, 30_000);
  const [race] = races(later.diagnostics);
  assert.match(race.message ?? '', /`data`/);
});

test('scord.analysis.schedules 1: only the first run', async () => {
  const { client } = session;
  const uri = 'file:///virtual/schedules-1.cu';
  session.perUri.set(uri, { analysis: { debounceMs: 20, schedules: 1 } });
  await client.open(uri, RACE_IN_SOME_SCHEDULES);
  const first = await doneDiagnostics(client, uri, 1);
  assert.deepEqual(races(first.diagnostics), []);
  // Long enough for seven background runs of this small program to have published (each takes
  // well under 100 ms once a worker is warm).
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.deepEqual(client.diagnostics.filter((p) => p.uri === uri).flatMap((p) => races(p.diagnostics)), []);
});

test('an edit stops the background schedules without starting the waiting ones, and keeps their worker', async () => {
  const { client } = session;
  const uri = 'file:///virtual/schedules-edits.cu';
  session.perUri.set(uri, { analysis: { debounceMs: 0, schedules: 8 } });
  await client.open(uri, RACE_IN_SOME_SCHEDULES);
  await doneDiagnostics(client, uri, 1);
  // Every analysis process seen while the edits come, each as soon as the background schedules
  // of the version before have started: a stale schedule started only to be cancelled would
  // show as processes started for it and ended.
  const seen = new Set<number>();
  const look = setInterval(() => analysisProcesses(client.process.pid!).forEach((p) => seen.add(p)), 10);
  try {
    for (let version = 2; version <= 6; version++) {
      await client.change(uri, version, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: ' ' }]);
      await doneDiagnostics(client, uri, version);
    }
  } finally {
    clearInterval(look);
  }
  analysisProcesses(client.process.pid!).forEach((p) => seen.add(p));
  // The session's workers, and now and then one that replaces a worker whose stale run did not
  // stop within its grace (a fresh worker still loading the engine on a busy machine): fewer
  // than one per edit. Each cancel starting the next stale schedule made over twenty.
  assert.ok(seen.size <= 6, `${seen.size} analysis processes over five edits`);
});
