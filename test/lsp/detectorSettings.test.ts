// scord.detector.warpSync and scord.detector.reportBenign reach the analysis, as --warp-sync and
// --no-benign do on the command line: the same documents, with the settings per document.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { doneDiagnostics, startSession, stopSession, type Session } from '../support/lspKit';

let session: Session;
before(async () => {
  session = await startSession({ analysis: { debounceMs: 0, schedules: 1 }, frontend: 'builtin' });
});
after(() => stopSession(session));

/** Opens `text` as `uri` with `detector` settings and returns the codes of its diagnostics. */
async function codes(uri: string, text: string, detector: Record<string, boolean>): Promise<string[]> {
  session.perUri.set(uri, { ...session.client.settings, analysis: { debounceMs: 0, schedules: 1 }, frontend: 'builtin', detector });
  const since = session.client.states.length;
  await session.client.open(uri, text);
  const p = await doneDiagnostics(session.client, uri, 1, since);
  await session.client.close(uri);
  return p.diagnostics.map((d) => String(d.code)).sort();
}

// Lanes of one warp read and write neighbouring words in one instruction, with no __syncwarp().
const WARP_SYNCHRONOUS = `__global__ void shift(int *a)
{
    a[threadIdx.x] = a[threadIdx.x + 1];
}
int main() { int *d; cudaMalloc(&d, 64 * sizeof(int)); shift<<<1, 32>>>(d); cudaDeviceSynchronize(); return 0; }
`;

// Every thread writes the same value to one word.
const SAME_VALUE = `__global__ void flag(int *done)
{
    *done = 1;
}
int main() { int *d; cudaMalloc(&d, sizeof(int)); flag<<<2, 64>>>(d); cudaDeviceSynchronize(); return 0; }
`;

test('scord.detector.warpSync: conflicts between lanes of an undiverged warp are reported unless it is set', async () => {
  assert.ok((await codes('file:///virtual/warp-default.cu', WARP_SYNCHRONOUS, {})).includes('intra-warp'));
  assert.ok(!(await codes('file:///virtual/warp-sync.cu', WARP_SYNCHRONOUS, { warpSync: true })).includes('intra-warp'));
});

test('scord.detector.reportBenign: same-value races are information by default, hidden when it is off', async () => {
  assert.ok((await codes('file:///virtual/benign-default.cu', SAME_VALUE, {})).includes('benign-same-value'));
  assert.deepEqual(await codes('file:///virtual/benign-off.cu', SAME_VALUE, { reportBenign: false }), []);
});
