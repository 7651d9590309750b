// The CUDA document a command works on: the one named by the caller (a code lens), else the
// active editor's.
import * as vscode from 'vscode';

export function cudaDocumentUri(uri?: string): vscode.Uri | undefined {
  if (uri) return vscode.Uri.parse(uri);
  const doc = vscode.window.activeTextEditor?.document;
  if (doc?.languageId === 'cuda-cpp') return doc.uri;
  void vscode.window.showInformationMessage('ScoRD: open a CUDA file (.cu) first.');
  return undefined;
}
