// ScoRD: Run Kernel — pick a kernel of the active file, then its grid, block, seed and
// scheduling (each remembered per kernel, or taken from a GPUVerify-style header), and run it
// with a cancellable progress notification. From a code lens above `main` it runs the program.
import * as vscode from 'vscode';
import { KernelsRequest, RunRequest, type LaunchParams, type RunResult } from '../../server/protocol';
import { parseDim3 } from '../../sims/host/kernelHeader';
import type { ScordContext } from '../context';
import { cudaDocumentUri } from './activeCuda';
import { runProgram } from './runProgram';
import { reportRun, withRunProgress } from './runResult';

export interface LaunchChoice {
  grid: string;
  block: string;
  seed: string;
  scheduling: 'independent' | 'lockstep';
}

const dims = (d: [number, number, number] | undefined, fallback: string): string => (d ? d.filter((x, i) => i === 0 || x !== 1 || d.slice(i).some((y) => y !== 1)).join(',') : fallback);

async function ask(title: string, prompt: string, value: string, validate: (v: string) => string | undefined): Promise<string | undefined> {
  return vscode.window.showInputBox({ title, prompt, value, validateInput: validate, ignoreFocusOut: true });
}

const dimProblem = (v: string): string | undefined => {
  const d = parseDim3(v.trim());
  return typeof d === 'string' ? d : undefined;
};

/**
 * `args.launch` skips the questions (a caller that knows the launch: tests, other commands);
 * the result is returned as well as shown.
 */
export async function runKernel(ctx: ScordContext, args?: { uri?: string; entry?: string; launch?: LaunchChoice }): Promise<RunResult | undefined> {
  const uri = cudaDocumentUri(args?.uri);
  if (!uri) return;
  if (args?.entry === 'main') return runProgram(ctx, { uri: uri.toString() });
  // The server lists the kernels of open documents only: a caller may name a file not open yet.
  await vscode.workspace.openTextDocument(uri);
  const info = await ctx.client.sendRequest(KernelsRequest, { uri: uri.toString() });
  if (!info.kernels.length) {
    void vscode.window.showInformationMessage(`ScoRD: ${uri.path.split('/').pop()} has no __global__ kernel to run.`);
    return;
  }
  let kernel = args?.entry ? info.kernels.find((k) => k.name === args.entry) : info.kernels.length === 1 ? info.kernels[0] : undefined;
  if (!kernel && args?.entry) {
    void vscode.window.showInformationMessage(`ScoRD: no kernel named ${args.entry} in ${uri.path.split('/').pop()}.`);
    return;
  }
  if (!kernel) {
    const pick = await vscode.window.showQuickPick(
      info.kernels.map((k) => ({ label: k.name, description: `(${k.params.join(', ')})`, detail: `line ${k.line + 1}`, kernel: k })),
      { title: 'ScoRD: Run Kernel', placeHolder: 'Which kernel?' },
    );
    if (!pick) return;
    kernel = pick.kernel;
  }
  const key = `scord.launch:${uri.toString()}#${kernel.name}`;
  const remembered = ctx.extension.workspaceState.get<LaunchChoice>(key);
  const defaults: LaunchChoice = remembered ?? { grid: dims(info.headerLaunch?.grid, '2'), block: dims(info.headerLaunch?.block, '64'), seed: '1', scheduling: 'independent' };
  const choice = args?.launch ?? (await askLaunch(`ScoRD: Run ${kernel.name}`, defaults));
  if (!choice || dimProblem(choice.grid) || dimProblem(choice.block)) return;
  await ctx.extension.workspaceState.update(key, choice);
  const entry: LaunchParams = { kernel: kernel.name, grid: parseDim3(choice.grid) as [number, number, number], block: parseDim3(choice.block) as [number, number, number] };
  const launch = `${kernel.name}<<<${choice.grid}, ${choice.block}>>>`;
  const result = await withRunProgress(`ScoRD: running ${launch}`, (token) =>
    ctx.client.sendRequest(RunRequest, { uri: uri.toString(), entry, options: { seed: Number(choice.seed), scheduling: choice.scheduling } }, token),
  );
  reportRun(ctx, `Run ${launch}`, result);
  return result;
}

async function askLaunch(title: string, defaults: LaunchChoice): Promise<LaunchChoice | undefined> {
  const grid = await ask(title, 'Grid size: X, X,Y or X,Y,Z blocks', defaults.grid, dimProblem);
  if (!grid) return undefined;
  const block = await ask(title, 'Block size: X, X,Y or X,Y,Z threads', defaults.block, dimProblem);
  if (!block) return undefined;
  const seed = await ask(title, 'Seed of the scheduler', defaults.seed, (v) => (/^\d+$/.test(v.trim()) ? undefined : 'a whole number'));
  if (!seed) return undefined;
  const order: LaunchChoice['scheduling'][] = defaults.scheduling === 'lockstep' ? ['lockstep', 'independent'] : ['independent', 'lockstep'];
  const scheduling = await vscode.window.showQuickPick(
    order.map((s) => ({ label: s, description: s === 'independent' ? 'Volta and later: diverged lanes advance separately' : 'pre-Volta SIMT: one path at a time' })),
    { title, placeHolder: 'Scheduling of a warp’s lanes' },
  );
  if (!scheduling) return undefined;
  return { grid: grid.trim(), block: block.trim(), seed: seed.trim(), scheduling: scheduling.label as LaunchChoice['scheduling'] };
}
