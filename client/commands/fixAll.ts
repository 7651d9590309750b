// ScoRD: Fix All Scoped Races — applies every preferred fix of the active file at once (the
// server's `source.fixAll.scord` action).
import * as vscode from 'vscode';

export async function fixAll(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (editor?.document.languageId !== 'cuda-cpp') {
    void vscode.window.showInformationMessage('ScoRD: open a CUDA file (.cu) first.');
    return;
  }
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', editor.document.uri, new vscode.Range(0, 0, editor.document.lineCount, 0), 'source.fixAll.scord');
  const fix = actions?.find((a) => a.kind?.value === 'source.fixAll.scord' && a.edit);
  const name = editor.document.uri.path.slice(editor.document.uri.path.lastIndexOf('/') + 1) || 'this file';
  if (!fix?.edit) {
    void vscode.window.showInformationMessage(`ScoRD: nothing to fix in ${name} (no race of its last run has a fix proven by re-running).`);
    return;
  }
  const applied = await vscode.workspace.applyEdit(fix.edit);
  // The server's title counts the fixes: "Fix all scoped races (2 fixes)".
  const count = Number(/\((\d+) fix/.exec(fix.title)?.[1] ?? 0);
  const files = fix.edit.size;
  void (applied
    ? vscode.window.showInformationMessage(`ScoRD: fixed ${count} race${count === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'} (${name}).`)
    : vscode.window.showWarningMessage(`ScoRD: the fixes could not be applied to ${name} (it changed meanwhile?); run Fix All again.`));
}
