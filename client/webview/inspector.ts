// The metadata inspector's webview script (bundled to dist/inspector.js, its styles to
// dist/inspector.css). It talks to the extension only through postMessage (messages.ts).
import './inspector.css';
import { InspectorApp } from './app';
import type { Persisted } from './model';
import { hostApi } from './vscode';

function start(): void {
  const root = document.getElementById('root') ?? document.body.appendChild(document.createElement('div'));
  new InspectorApp(root, hostApi<Persisted>());
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
