// Further schedules in the editor (scord.analysis.schedules): the first run's findings are
// published first; seeded schedules then run in the background, and a race that only some
// interleavings reach joins the same diagnostics. With 1, only the first run counts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { doneDiagnostics, startSession, stopSession, type Session } from '../support/lspKit';

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
