// ScoRD: Open Example — one of the bundled programs with a scoped race, as an untitled copy
// the user can edit and fix.
import * as vscode from 'vscode';

export async function openExample(context: vscode.ExtensionContext, name?: string): Promise<void> {
  const dir = vscode.Uri.joinPath(context.extensionUri, 'examples');
  const files = (await vscode.workspace.fs.readDirectory(dir)).filter(([f, t]) => t === vscode.FileType.File && f.endsWith('.cu')).map(([f]) => f);
  const file =
    name && files.includes(name)
      ? name
      : (await vscode.window.showQuickPick(files, { title: 'ScoRD: Open Example', placeHolder: 'A CUDA program with a scoped race' }));
  if (!file) return;
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(dir, file)));
  const doc = await vscode.workspace.openTextDocument({ language: 'cuda-cpp', content: text });
  await vscode.window.showTextDocument(doc);
}
