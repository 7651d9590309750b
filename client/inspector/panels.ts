// The metadata inspector's host side: one webview panel, locked down — a strict
// Content-Security-Policy with a nonce, resources only from dist/ — fed with the detector's
// state after the last run (`scord/inspect`) and the histogram of the last litmus run of the
// shown document, revived after a reload by its serializer.
import * as crypto from 'node:crypto';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { InspectRequest, type LitmusResult } from '../../server/protocol';
import { onAnalysisState } from '../analysisState';
import type { FromWebview, ToWebview } from '../webview/messages';

const VIEW_TYPE = 'scord.inspector';

/** How the server names a document in ranges: its path, or its URI when it has none. */
function fileNameOf(uri: string): string {
  const u = vscode.Uri.parse(uri);
  return u.scheme === 'file' ? u.fsPath : uri;
}

export class InspectorPanels implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  /** The document the panel shows. */
  private uri: string | undefined;
  /** The last litmus run's histogram, sent after the detector's state while its document is shown. */
  private litmus: { uri: string; message: Extract<ToWebview, { type: 'litmus' }> } | undefined;
  private litmusRuns = 0;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly client: LanguageClient,
  ) {
    this.disposables.push(
      vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
        deserializeWebviewPanel: async (panel, state: { file?: string } | undefined) => {
          this.adopt(panel);
          // The webview keeps the file as the server names it: a path, or a URI for an untitled file.
          const file = state?.file;
          this.uri = file === undefined ? undefined : file.startsWith('/') ? vscode.Uri.file(file).toString() : file;
          await this.refresh();
        },
      }),
      // A run that finishes for the shown document refreshes the panel.
      onAnalysisState(client, (s) => {
        if (this.panel && s.uri === this.uri && s.state === 'done') void this.refresh();
      }),
    );
  }

  async show(uri: string | undefined, finding?: number): Promise<void> {
    this.uri = uri ?? this.uri;
    if (!this.panel) {
      const panel = vscode.window.createWebviewPanel(VIEW_TYPE, 'ScoRD Metadata Inspector', vscode.ViewColumn.Beside, {
        enableScripts: true,
        retainContextWhenHidden: false,
        localResourceRoots: [vscode.Uri.joinPath(this.context.extensionUri, 'dist')],
      });
      this.adopt(panel);
    } else this.panel.reveal(vscode.ViewColumn.Beside, true);
    // A new panel's script may not listen yet: the selection is sent again when it says `ready`.
    this.pendingSelect = finding;
    await this.refresh();
    if (finding !== undefined) this.post({ type: 'select', finding });
  }

  private pendingSelect: number | undefined;

  /** Shows a litmus run's histogram (the Litmus tab) for the document it ran. */
  async showLitmus(uri: string, result: LitmusResult): Promise<void> {
    const { uri: _uri, ...report } = result;
    // A new id per run: the webview brings a new histogram to the front, not a re-sent one.
    this.litmus = { uri, message: { type: 'litmus', file: fileNameOf(uri), id: Date.now() * 1000 + (++this.litmusRuns % 1000), report } };
    await this.show(uri);
  }

  private adopt(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    panel.webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.context.extensionUri, 'dist')] };
    panel.webview.html = this.html(panel.webview);
    panel.onDidDispose(() => (this.panel = undefined), undefined, this.disposables);
    panel.webview.onDidReceiveMessage((m: FromWebview) => void this.receive(m), undefined, this.disposables);
  }

  private html(webview: vscode.Webview): string {
    const nonce = crypto.randomBytes(16).toString('base64');
    const script = webview.asWebviewUri(vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'inspector.js'));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'inspector.css'));
    const csp = [`default-src 'none'`, `img-src ${webview.cspSource} data:`, `style-src ${webview.cspSource} 'nonce-${nonce}'`, `script-src 'nonce-${nonce}'`, `font-src ${webview.cspSource}`].join('; ');
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style}" nonce="${nonce}">
<title>ScoRD Metadata Inspector</title>
</head>
<body>
<div id="root"></div>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
  }

  /** The last message sent to the webview (what it shows; the extension's tests read it). */
  lastPosted: ToWebview | undefined;

  private post(m: ToWebview): void {
    this.lastPosted = m;
    void this.panel?.webview.postMessage(m);
  }

  get visible(): boolean {
    return !!this.panel;
  }

  async refresh(): Promise<void> {
    if (!this.panel) return;
    const uri = this.uri ?? vscode.window.activeTextEditor?.document.uri.toString();
    if (!uri) {
      this.post({ type: 'empty', reason: 'Open a CUDA file: the inspector shows the race detector’s state after its last run.' });
      return;
    }
    this.uri = uri;
    try {
      const r = await this.client.sendRequest(InspectRequest, { uri });
      if (!r.state) this.post({ type: 'empty', reason: 'No run yet: the inspector fills in when the analysis of this file finishes.' });
      else this.post({ type: 'state', file: fileNameOf(uri), version: r.version, state: r.state, findings: r.findings, elapsedMs: r.stats?.elapsedMs ?? null, finishedAt: r.finishedAt, ...(r.stats?.launched ? { launched: r.stats.launched } : {}) });
      this.panel.title = `ScoRD: ${uri.split('/').pop()}`;
    } catch (e) {
      this.post({ type: 'empty', reason: `The detector's state could not be read: ${e instanceof Error ? e.message : String(e)}` });
    }
    if (this.litmus?.uri === uri) this.post(this.litmus.message);
  }

  private async receive(m: FromWebview): Promise<void> {
    switch (m.type) {
      case 'ready':
        await this.refresh();
        if (this.pendingSelect !== undefined) this.post({ type: 'select', finding: this.pendingSelect });
        this.pendingSelect = undefined;
        return;
      case 'refresh':
        await this.refresh();
        return;
      case 'reveal': {
        // The server names the shown document by its path, or by its URI when it has none (untitled).
        const shown = this.uri && (vscode.Uri.parse(this.uri).fsPath === m.target.file || this.uri === m.target.file);
        const doc = await vscode.workspace.openTextDocument(shown ? vscode.Uri.parse(this.uri!) : vscode.Uri.file(m.target.file));
        const at = new vscode.Position(m.target.line, m.target.character);
        await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, selection: new vscode.Range(at, at) });
        return;
      }
      case 'inspectAddress': {
        if (!this.uri) return;
        const r = await this.client.sendRequest(InspectRequest, { uri: this.uri, address: m.address });
        const trace = r.state?.trace;
        if (trace) this.post({ type: 'trace', file: fileNameOf(this.uri), address: trace.address, accesses: trace.accesses, truncated: trace.truncated });
        return;
      }
    }
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
