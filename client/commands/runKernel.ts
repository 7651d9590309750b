// ScoRD: Run Kernel — pick a kernel of the active file, then its grid, block, seed and
// scheduling, and run it with a cancellable progress notification. A kernel the program
// launches runs as the program launches it: `main` runs up to that launch, which runs with the
// grid and block chosen (by default the program's own) and the program's arguments and memory,
// so it finds what the program's run found. Any other kernel gets each argument asked for: a
// scalar's value, a pointer's element count and contents (zeros, 0, 1, 2, … or seeded random).
// Defaults: the program's launch, else a GPUVerify-style header, else the last choice. The
// result line names the launch: `countEvents<<<4,128>>>(values: int[512], n = 512)`. From a
// code lens above `main` it runs the program.
import * as vscode from 'vscode';
import { dimText, KernelsRequest, launchText, parseDim3, RunRequest, type LaunchDescription, type LaunchParams, type PointerArgument, type RunResult } from '../../server/protocol';
import type { ScordContext } from '../context';
import { cudaDocumentUri } from './activeCuda';
import { runProgram } from './runProgram';
import { reportRun, withRunProgress } from './runResult';

export interface LaunchChoice {
  grid: string;
  block: string;
  seed: string;
  scheduling: 'independent' | 'lockstep';
  /** For a kernel the program never launches: each parameter's value (see askArguments). */
  args?: Record<string, ArgumentChoice>;
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
  // The program's own launch first (what the squiggles came from), then the file's GPUVerify
  // header, then what was chosen last time.
  const launch = kernel.launch;
  const defaults: LaunchChoice = {
    grid: launch ? dimText(launch.grid) : remembered?.grid ?? dims(info.headerLaunch?.grid, '2'),
    block: launch ? dimText(launch.block) : remembered?.block ?? dims(info.headerLaunch?.block, '64'),
    seed: remembered?.seed ?? '1',
    scheduling: remembered?.scheduling ?? 'independent',
    ...(remembered?.args ? { args: remembered.args } : {}),
  };
  const title = `ScoRD: Run ${kernel.name}`;
  const choice = args?.launch ?? (await askLaunch(title, defaults));
  if (!choice || dimProblem(choice.grid) || dimProblem(choice.block)) return;
  const grid = parseDim3(choice.grid) as [number, number, number];
  const block = parseDim3(choice.block) as [number, number, number];
  // A kernel the program launches runs with the arguments and memory the program gives it;
  // one it never launches gets the arguments asked for here.
  let entry: LaunchParams;
  if (kernel.launchedInProgram) entry = { kernel: kernel.name, grid, block, fromMain: true };
  else {
    const asked = args?.launch?.args ?? (await askArguments(title, kernel.params, grid[0] * grid[1] * grid[2] * block[0] * block[1] * block[2], defaults.args, Number(choice.seed)));
    if (!asked) return;
    choice.args = asked;
    entry = { kernel: kernel.name, grid, block, ...argumentsOf(asked, Number(choice.seed)) };
  }
  await ctx.extension.workspaceState.update(key, choice);
  const pending = `${kernel.name}<<<${dimText(grid)},${dimText(block)}>>>`;
  const result = await withRunProgress(`ScoRD: running ${pending}${kernel.launchedInProgram ? ' with the program’s arguments' : ''}`, (token) =>
    ctx.client.sendRequest(RunRequest, { uri: uri.toString(), entry, options: { seed: Number(choice.seed), scheduling: choice.scheduling } }, token),
  );
  const ran = result.stats.launched?.find((l) => l.kernel === kernel.name);
  const label = ran ? launchText(withContents(ran, choice.args, choice.seed)) : kernel.launchedInProgram ? `${pending} (the program never reached its launch)` : pending;
  reportRun(ctx, `Run ${label}`, result);
  return result;
}

/** The value asked for one parameter: a number for a scalar; element count and contents for a pointer. */
export type ArgumentChoice = { value: string } | { elements: string; fill: PointerArgument['fill'] };

/** A parameter as the kernel summary prints it (`const int *values`): its name, and whether it is a pointer. */
function parameter(text: string, i: number): { name: string; pointer: boolean; floating: boolean } {
  const name = /([A-Za-z_]\w*)\s*(\[[^\]]*\])?$/.exec(text)?.[1] ?? `arg${i + 1}`;
  return { name, pointer: /[*[]/.test(text), floating: /\b(float|double|half)\b/.test(text) };
}

/** Asks each parameter's value (scalars) or element count and contents (pointers). */
async function askArguments(title: string, params: string[], threads: number, remembered: Record<string, ArgumentChoice> | undefined, seed: number): Promise<Record<string, ArgumentChoice> | undefined> {
  const out: Record<string, ArgumentChoice> = {};
  for (const [i, text] of params.entries()) {
    const p = parameter(text, i);
    const before = remembered?.[p.name];
    if (p.pointer) {
      const elements = await ask(title, `${text}: how many elements`, before && 'elements' in before ? before.elements : String(threads), (v) => (/^\d+$/.test(v.trim()) && Number(v) > 0 ? undefined : 'a positive whole number'));
      if (!elements) return undefined;
      const fills: { label: PointerArgument['fill']; description: string }[] = [
        { label: 'zeros', description: 'every element 0' },
        { label: 'sequence', description: '0, 1, 2, …' },
        { label: 'random', description: `seeded random values (seed ${seed})` },
      ];
      const first = before && 'fill' in before ? before.fill : 'sequence';
      const fill = await vscode.window.showQuickPick([...fills.filter((f) => f.label === first), ...fills.filter((f) => f.label !== first)], { title, placeHolder: `${text}: what the ${elements.trim()} elements hold at the start` });
      if (!fill) return undefined;
      out[p.name] = { elements: elements.trim(), fill: fill.label };
    } else {
      const fallback = p.floating ? '1.0' : String(threads);
      const value = await ask(title, `${text}: its value`, before && 'value' in before ? before.value : fallback, (v) => (v.trim() !== '' && Number.isFinite(Number(v)) ? undefined : 'a number'));
      if (value === undefined) return undefined;
      out[p.name] = { value: value.trim() };
    }
  }
  return out;
}

function argumentsOf(asked: Record<string, ArgumentChoice>, seed: number): Pick<LaunchParams, 'args' | 'pointers'> {
  const args: Record<string, number> = {};
  const pointers: Record<string, PointerArgument> = {};
  for (const [name, a] of Object.entries(asked)) {
    if ('value' in a) args[name] = Number(a.value);
    else pointers[name] = { elements: Number(a.elements), fill: a.fill, seed };
  }
  return { args, pointers };
}

/** The launch's words with each pointer's starting contents added: `values: int[512] random seed 1`. */
function withContents(d: LaunchDescription, asked: Record<string, ArgumentChoice> | undefined, seed: string): LaunchDescription {
  if (!asked) return d;
  return {
    ...d,
    args: d.args.map((text) => {
      const name = /^(\w+):/.exec(text)?.[1];
      const a = name ? asked[name] : undefined;
      return a && 'fill' in a ? `${text} ${a.fill}${a.fill === 'random' ? ` seed ${seed}` : ''}` : text;
    }),
  };
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
