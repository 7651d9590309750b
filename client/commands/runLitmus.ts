// ScoRD: Run Litmus Test — runs the active file as a litmus test under a memory model (sc,
// gpu-weak or gpu-strong), either N random executions or every execution, with a cancellable
// progress notification; the histogram goes to the "ScoRD Program Output" channel and to the
// metadata inspector's Litmus tab.
import * as vscode from 'vscode';
import { LitmusRequest, type LitmusResult, type MemoryModelName } from '../../server/protocol';
import type { ScordContext } from '../context';
import { cudaDocumentUri } from './activeCuda';
import { declaredVerdict, litmusHistogramText, outcomeLine } from './litmusText';
import { withRunProgress } from './runResult';

export interface LitmusArgs {
  uri?: string;
  /** Given with `exhaustive` or `runs`, the questions are skipped (callers that know: tests). */
  model?: MemoryModelName;
  exhaustive?: boolean;
  runs?: number;
}

const MODELS: { model: MemoryModelName; description: string; detail: string }[] = [
  { model: 'sc', description: 'sequential consistency', detail: 'Every access reaches memory at once, in program order: the simulator’s usual runs.' },
  { model: 'gpu-weak', description: 'Sorensen’s weak GPU model', detail: 'Per-thread views of memory, stores that propagate per address, loads that may leave program order, fences that push only their own thread’s stores.' },
  { model: 'gpu-strong', description: 'Sorensen’s strong GPU model', detail: 'One view of memory per block and loads in program order: coherent and write-atomic.' },
];

const MAX_RUNS = 1_000_000;

async function askModel(title: string, last: MemoryModelName): Promise<MemoryModelName | undefined> {
  const items = MODELS.map((m) => ({ label: m.model, description: m.description, detail: m.detail, model: m.model }));
  // The last choice first, so Enter repeats it.
  items.sort((a, b) => Number(b.model === last) - Number(a.model === last));
  return (await vscode.window.showQuickPick(items, { title, placeHolder: 'Memory model', matchOnDescription: true, matchOnDetail: true }))?.model;
}

async function askMode(title: string, lastRuns: string): Promise<{ exhaustive: boolean; runs?: number } | undefined> {
  const pick = await vscode.window.showQuickPick(
    [
      { label: 'Random runs', description: `${lastRuns} seeded random executions`, detail: 'Fast; the histogram shows how often each outcome comes up. A rare outcome may be missed.', exhaustive: false },
      { label: 'Every execution', description: 'exhaustive', detail: 'Explores every schedule and propagation order (merging repeated states): decides what the model allows.', exhaustive: true },
    ],
    { title, placeHolder: 'How to explore' },
  );
  if (!pick) return undefined;
  if (pick.exhaustive) return { exhaustive: true };
  const n = await vscode.window.showInputBox({
    title,
    prompt: 'How many random executions',
    value: lastRuns,
    validateInput: (v) => (/^\d+$/.test(v.trim()) && +v >= 1 && +v <= MAX_RUNS ? undefined : `a whole number from 1 to ${MAX_RUNS}`),
  });
  return n ? { exhaustive: false, runs: Number(n.trim()) } : undefined;
}

/** A request that failed, in words; a cancelled one says nothing. */
function failed(e: unknown): string | undefined {
  if (e instanceof vscode.CancellationError) return undefined;
  const err = e as { code?: number; message?: string };
  // -32800 is LSP's RequestCancelled: the user pressed Cancel.
  if (err?.code === -32800) return undefined;
  return err?.message ?? String(e);
}

export async function runLitmus(ctx: ScordContext, args?: LitmusArgs): Promise<LitmusResult | undefined> {
  const uri = cudaDocumentUri(args?.uri);
  if (!uri) return;
  const name = uri.path.split('/').pop() ?? uri.toString();
  const title = `ScoRD: Run Litmus Test — ${name}`;
  const state = ctx.extension.workspaceState;
  const model = args?.model ?? (await askModel(title, state.get<MemoryModelName>('scord.litmus.model', 'gpu-weak')));
  if (!model) return;
  const mode = args?.exhaustive !== undefined || args?.runs !== undefined ? { exhaustive: !!args.exhaustive, runs: args.runs } : await askMode(title, state.get<string>('scord.litmus.runs', '1000'));
  if (!mode) return;
  await state.update('scord.litmus.model', model);
  if (mode.runs !== undefined) await state.update('scord.litmus.runs', String(mode.runs));
  // The server reads the text of open documents: a caller may name a file not open yet.
  const doc = await vscode.workspace.openTextDocument(uri);
  const how = mode.exhaustive ? 'every execution' : `${mode.runs ?? 1000} runs`;
  let result: LitmusResult;
  try {
    result = await withRunProgress(`ScoRD: litmus ${name} under ${model} (${how})`, (token) =>
      ctx.client.sendRequest(LitmusRequest, { uri: uri.toString(), model, exhaustive: mode.exhaustive, ...(mode.runs !== undefined ? { runs: mode.runs } : {}) }, token),
    );
  } catch (e) {
    const message = failed(e);
    if (message) void vscode.window.showErrorMessage(`ScoRD: the litmus run of ${name} failed: ${message}`);
    return;
  }
  const verdict = declaredVerdict(doc.getText(), model);
  const out = ctx.programOutput;
  for (const line of litmusHistogramText(`Litmus ${name} under ${model} (${how})`, result, verdict)) out.appendLine(line);
  out.show(true);
  await ctx.inspector.showLitmus(uri.toString(), result);
  void vscode.window.showInformationMessage(summary(name, result, verdict));
  return result;
}

function summary(name: string, r: LitmusResult, verdict: 'allowed' | 'forbidden' | undefined): string {
  if (r.errors.length) return `Litmus ${name}: the program could not run (${r.errors[0]!.message})`;
  const declared = r.outcomes.find((o) => o.declared);
  const reached = r.outcomes.filter((o) => o.count > 0).length;
  const base = `Litmus ${name} under ${r.model}: ${reached} outcome${reached === 1 ? '' : 's'} in ${r.runs} ${r.exhaustive ? 'executions' : 'runs'}`;
  if (!declared) return base;
  // Only a complete exploration proves an outcome forbidden; random runs may just miss it.
  const decided = declared.count > 0 || (r.exhaustive && r.complete);
  const found = declared.count > 0 ? 'allowed' : 'forbidden';
  const what = decided ? `is ${found}` : `was not seen`;
  const against = verdict === undefined || !decided ? '' : verdict === found ? ' (as declared)' : ` (the file declares it ${verdict})`;
  return `${base}; "${outcomeLine(declared.outcome)}" ${what}${against}`;
}
