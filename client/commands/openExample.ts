// ScoRD: Open Example — one of the bundled programs (those with a scoped race, and the litmus
// tests of examples/litmus/) as an untitled copy the user can edit and fix.
import * as vscode from 'vscode';
import { litmusTitle, programTitle } from './exampleTitles';

async function cudaFiles(dir: vscode.Uri): Promise<string[]> {
  try {
    return (await vscode.workspace.fs.readDirectory(dir)).filter(([f, t]) => t === vscode.FileType.File && f.endsWith('.cu')).map(([f]) => f).sort();
  } catch {
    return [];
  }
}

/** `name` is a file of examples/ (`scoped-counter.cu`) or of its litmus library (`litmus/iriw-inter.cu`). */
export async function openExample(context: vscode.ExtensionContext, name?: string): Promise<void> {
  const dir = vscode.Uri.joinPath(context.extensionUri, 'examples');
  const read = async (file: string): Promise<string> => new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(dir, ...file.split('/'))));
  const programs = await cudaFiles(dir);
  const litmus = (await cudaFiles(vscode.Uri.joinPath(dir, 'litmus'))).map((f) => `litmus/${f}`);
  let file = name && [...programs, ...litmus].includes(name) ? name : undefined;
  if (!file) {
    type Item = vscode.QuickPickItem & { file?: string };
    const items: Item[] = [
      { label: 'Programs with a scoped race', kind: vscode.QuickPickItemKind.Separator },
    ];
    for (const f of programs) items.push({ label: f, description: programTitle(await read(f).catch(() => '')), file: f });
    if (litmus.length) {
      items.push({ label: 'Litmus tests (ScoRD: Run Litmus Test)', kind: vscode.QuickPickItemKind.Separator });
      for (const f of litmus) items.push({ label: f.slice('litmus/'.length), description: litmusTitle(await read(f).catch(() => '')), file: f });
    }
    const pick = await vscode.window.showQuickPick(items, { title: 'ScoRD: Open Example', placeHolder: 'A CUDA program with a scoped race, or a litmus test', matchOnDescription: true });
    file = pick?.file;
  }
  if (!file) return;
  const doc = await vscode.workspace.openTextDocument({ language: 'cuda-cpp', content: await read(file) });
  await vscode.window.showTextDocument(doc);
}
