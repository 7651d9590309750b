// Runs the inspector webview on its own: builds dist/inspector.js (and .css) from
// client/webview/, serves it from a local HTTP server inside a page with the strict CSP the
// extension host uses, stubs acquireVsCodeApi (posted messages collected, getState/setState
// backed by a variable the harness carries over reloads, as VS Code does) and drives it in
// headless Debian chromium through playwright-core.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { FromWebview, ToWebview } from '../../client/webview/messages';
import { THEME_CLASS, THEMES, type ThemeName } from './themes';

export const ROOT = path.resolve(__dirname, '..', '..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'];

declare global {
  interface Window {
    __posted: FromWebview[];
    __violations: string[];
    __getState: () => unknown;
    __applyTheme: (name: ThemeName) => void;
  }
}

/** The same bundle esbuild.mjs makes for the webview (its last target), built alone. */
export async function buildWebview(): Promise<void> {
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'client/webview/inspector.ts')],
    outfile: path.join(ROOT, 'dist/inspector.js'),
    bundle: true,
    sourcemap: true,
    legalComments: 'none',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    logLevel: 'warning',
  });
}

/** The page as the extension host writes it: meta CSP, nonce'd scripts, the CSS from dist/. */
function pageHtml(origin: string, nonce: string, saved: unknown, theme: ThemeName): string {
  // The host's policy, with this server standing in for webview.cspSource.
  const csp = `default-src 'none'; script-src 'nonce-${nonce}'; style-src ${origin} 'nonce-${nonce}';`;
  const json = (v: unknown) => JSON.stringify(v ?? null).replace(/</g, '\\u003c');
  const stub = `(() => {
  const themes = ${json(THEMES)};
  const classes = ${json(THEME_CLASS)};
  let state = ${json(saved)} ?? undefined;
  window.__posted = [];
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__violations.push(e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') + ' ' + (e.sample || ''));
  });
  window.__applyTheme = (name) => {
    const root = document.documentElement;
    for (const p of Array.from(root.style)) if (p.startsWith('--vscode-')) root.style.removeProperty(p);
    for (const [k, v] of Object.entries(themes[name])) root.style.setProperty(k, v);
    if (document.body) {
      document.body.classList.remove(...Object.values(classes));
      document.body.classList.add(classes[name]);
    }
  };
  window.__applyTheme(${json(theme)});
  window.__getState = () => state;
  let acquired = false;
  window.acquireVsCodeApi = () => {
    if (acquired) throw new Error('acquireVsCodeApi may only be called once');
    acquired = true;
    return Object.freeze({
      postMessage: (m) => { window.__posted.push(JSON.parse(JSON.stringify(m))); },
      getState: () => state,
      setState: (s) => { state = JSON.parse(JSON.stringify(s)); return s; },
    });
  };
})();`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${origin}/dist/inspector.css">
<script nonce="${nonce}">${stub}</script>
<title>ScoRD metadata</title>
</head>
<body class="${THEME_CLASS[theme]}">
<div id="root"></div>
<script nonce="${nonce}" src="${origin}/dist/inspector.js"></script>
</body>
</html>`;
}

export class Harness {
  page!: Page;
  /** Console errors and uncaught exceptions in the page. */
  readonly errors: string[] = [];
  /** What the next page load's getState() returns (VS Code's saved webview state). */
  saved: unknown = undefined;
  theme: ThemeName = 'light';
  private browser!: Browser;
  private server!: Server;
  private origin = '';

  async start(): Promise<void> {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`Chromium not found at ${CHROMIUM}: the webview tests need it. Install it with \`apt-get update && apt-get install -y chromium\` (or set CHROMIUM_PATH).`);
    }
    await buildWebview();
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', this.origin);
      if (url.pathname === '/') {
        const nonce = randomBytes(16).toString('base64');
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(pageHtml(this.origin, nonce, this.saved, this.theme));
        return;
      }
      const m = /^\/dist\/(inspector\.(?:js|css)(?:\.map)?)$/.exec(url.pathname);
      if (!m) {
        res.writeHead(404).end();
        return;
      }
      const type = m[1]!.endsWith('.js') ? 'text/javascript' : m[1]!.endsWith('.css') ? 'text/css' : 'application/json';
      res.writeHead(200, { 'content-type': `${type}; charset=utf-8` });
      res.end(readFileSync(path.join(ROOT, 'dist', m[1]!)));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
    this.page = await this.browser.newPage({ viewport: { width: 1100, height: 720 } });
    this.page.on('console', (m) => {
      if (m.type() === 'error') this.errors.push(m.text());
    });
    this.page.on('pageerror', (e) => this.errors.push(String(e)));
    await this.load();
  }

  async stop(): Promise<void> {
    await this.browser?.close();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** (Re)load the page, as VS Code does when the webview is restored. */
  async load(): Promise<void> {
    await this.page.goto(`${this.origin}/`);
    await this.page.waitForSelector('#root > header.toolbar');
  }

  /** A message from the host, delivered through window.postMessage; resolves once handled. */
  async send(message: ToWebview): Promise<void> {
    await this.page.evaluate(
      (m) =>
        new Promise<void>((resolve) => {
          // Listeners run in the order they were added: the inspector's ran before this one.
          window.addEventListener('message', () => resolve(), { once: true });
          window.postMessage(m, '*');
        }),
      message,
    );
  }

  async posted(): Promise<FromWebview[]> {
    return this.page.evaluate(() => window.__posted);
  }

  async clearPosted(): Promise<void> {
    await this.page.evaluate(() => void (window.__posted = []));
  }

  async lastPosted(): Promise<FromWebview | undefined> {
    const all = await this.posted();
    return all[all.length - 1];
  }

  async violations(): Promise<string[]> {
    return this.page.evaluate(() => window.__violations);
  }

  async state(): Promise<unknown> {
    return this.page.evaluate(() => window.__getState());
  }

  async applyTheme(name: ThemeName): Promise<void> {
    this.theme = name;
    await this.page.evaluate((n) => window.__applyTheme(n), name);
  }
}
