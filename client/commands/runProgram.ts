// ScoRD: Run Program — runs the active file's `main` on the simulated GPU with the detector.
import { RunRequest, type RunResult } from '../../server/protocol';
import type { ScordContext } from '../context';
import { cudaDocumentUri } from './activeCuda';
import { reportRun, withRunProgress } from './runResult';

export async function runProgram(ctx: ScordContext, args?: { uri?: string }): Promise<RunResult | undefined> {
  const uri = cudaDocumentUri(args?.uri);
  if (!uri) return;
  const name = uri.path.split('/').pop();
  const result = await withRunProgress(`ScoRD: running ${name}`, (token) => ctx.client.sendRequest(RunRequest, { uri: uri.toString(), entry: 'main' }, token));
  reportRun(ctx, `Run ${name}`, result);
  return result;
}
