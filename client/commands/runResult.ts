// A run's result for the user: the program's output and a summary in the output channel, and
// a notification with the race count that leads to the Problems view or the inspector.
import * as vscode from 'vscode';
import type { RunResult } from '../../server/protocol';
import type { ScordContext } from '../context';

export function reportRun(ctx: ScordContext, title: string, result: RunResult): void {
  const out = ctx.programOutput;
  const races = result.findings.filter((f) => f.kind === 'race');
  const other = result.findings.filter((f) => f.kind !== 'race');
  out.appendLine(`── ${title} ──`);
  if (result.output) out.append(result.output.endsWith('\n') ? result.output : `${result.output}\n`);
  for (const d of result.diagnostics.filter((x) => x.severity === 'error')) out.appendLine(`error: ${d.location ? `${d.location.file}:${d.location.line}:${d.location.column}: ` : ''}${d.message}`);
  for (const f of result.findings) out.appendLine(`${f.location.file}:${f.location.line}:${f.location.column}: ${f.severity}: ${f.message} [scord/${f.category}]`);
  const s = result.stats;
  out.appendLine(
    result.analysed
      ? `${races.length} race${races.length === 1 ? '' : 's'}, ${other.length} other finding${other.length === 1 ? '' : 's'}; exit status ${s.exitCode ?? '-'}, ${s.launches} launch${s.launches === 1 ? '' : 'es'}, ${s.steps} thread-steps on ${s.device}, ${s.schedules} schedule${s.schedules === 1 ? '' : 's'}, ${result.stats.elapsedMs.toFixed(1)} ms`
      : 'not analysed: see the errors above',
  );
  out.show(true);
  const summary = !result.analysed ? `${title}: could not be analysed` : races.length ? `${title}: ${races.length} race${races.length === 1 ? '' : 's'}` : `${title}: no races`;
  const show = races.length || other.length ? vscode.window.showWarningMessage(summary, 'Show Problems', 'Show Inspector') : vscode.window.showInformationMessage(summary);
  void show.then((choice) => {
    if (choice === 'Show Problems') void vscode.commands.executeCommand('workbench.actions.view.problems');
    if (choice === 'Show Inspector') void vscode.commands.executeCommand('scord.showInspector', { uri: result.uri });
  });
}

/** Runs a request with a cancellable progress notification. */
export function withRunProgress<T>(title: string, run: (token: vscode.CancellationToken) => Thenable<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_progress, token) => run(token));
}
