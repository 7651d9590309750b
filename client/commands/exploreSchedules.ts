// ScoRD: Explore Schedules — runs the program under N seeded random interleavings and
// reports the union of their findings (races some schedules show and others hide).
import * as vscode from 'vscode';
import { RunRequest } from '../../server/protocol';
import type { ScordContext } from '../context';
import { cudaDocumentUri } from './activeCuda';
import { reportRun, withRunProgress } from './runResult';

export async function exploreSchedules(ctx: ScordContext, args?: { uri?: string }): Promise<void> {
  const uri = cudaDocumentUri(args?.uri);
  if (!uri) return;
  const last = ctx.extension.workspaceState.get<string>('scord.schedules', '8');
  const n = await vscode.window.showInputBox({
    title: 'ScoRD: Explore Schedules',
    prompt: 'How many seeded random interleavings to run',
    value: last,
    validateInput: (v) => (/^\d+$/.test(v.trim()) && +v >= 1 && +v <= 1000 ? undefined : 'a whole number from 1 to 1000'),
  });
  if (!n) return;
  await ctx.extension.workspaceState.update('scord.schedules', n.trim());
  const schedules = Number(n);
  const name = uri.path.split('/').pop();
  const result = await withRunProgress(`ScoRD: ${schedules} schedules of ${name}`, (token) => ctx.client.sendRequest(RunRequest, { uri: uri.toString(), entry: 'main', options: { schedules } }, token));
  reportRun(ctx, `${schedules} schedules of ${name}`, result);
}
