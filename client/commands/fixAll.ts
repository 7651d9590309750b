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
  if (!fix?.edit) {
    void vscode.window.showInformationMessage('ScoRD: no race in this file has a fix (or the analysis has not finished yet).');
    return;
  }
  await vscode.workspace.applyEdit(fix.edit);
}
