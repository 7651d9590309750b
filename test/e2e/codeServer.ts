// Runs the extension in a real VS Code workbench without a desktop VS Code: code-server (the
// VS Code server and web workbench, installed by scripts/e2e/setup.sh into .e2e/) opened in
// Debian's chromium driven by playwright-core. Each run gets its own folder with the user-data
// and extensions directories, HOME, TMPDIR and XDG_* inside it, so nothing leaks into the real
// home; the server runs in its own process group, which is killed at exit.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const ROOT = path.resolve(__dirname, '..', '..');
export const E2E_DIR = path.join(ROOT, '.e2e');
export const ARTIFACTS = path.join(ROOT, 'test', 'e2e', 'artifacts');
export const VSIX = path.join(ROOT, 'dist', 'scord-vscode.vsix');
const NODE24 = process.env.SCORD_E2E_NODE ?? path.join(E2E_DIR, 'node24', 'bin', 'node');
const CODE_SERVER = process.env.SCORD_E2E_CODE_SERVER ?? path.join(E2E_DIR, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const CHROMIUM = process.env.SCORD_E2E_CHROMIUM ?? '/usr/bin/chromium';

export function requireFile(file: string, what: string): void {
  if (!fs.existsSync(file)) throw new Error(`${what} is missing (${file}): run \`bash scripts/e2e/setup.sh\` and \`npm run package\` first, or \`npm run test:e2e\`, which does both`);
}

/**
 * One racy program per race category that has a fix, from the labelled suite: the workbench
 * applies each one's preferred quick fix (the suite reads the category from its `// expect:`).
 */
const QUICK_FIX_PROGRAMS = [
  'fence_none_interwarp.cu', // missing-block-fence
  'fence_block_interblock.cu', // missing-device-fence
  'fence_nonvolatile_interblock.cu', // non-strong-access
  'atomic_block_counter_interblock.cu', // scoped-atomic
  'lock_missing_one_side_interwarp.cu', // missing-lock
  'lock_block_scope_interblock.cu', // lock-scope
  'lock_acquire_nofence_one_side_interblock.cu', // lock-fence-scope
  'lock_unfenced_unlock_interblock.cu', // lock-release-fence
  'shared_war_racy.cu', // shared-memory
  'intra_warp_global_shift.cu', // intra-warp
];

/**
 * A fresh per-run folder, with a workspace holding a copy of examples/ (and examples/litmus/),
 * and quickfix/ with a racy program per category.
 */
export function makeRunDir(name: string): { dir: string; workspace: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `scord-e2e-${name}-`));
  const workspace = path.join(dir, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });
  for (const f of fs.readdirSync(path.join(ROOT, 'examples'))) {
    if (f.endsWith('.cu')) fs.copyFileSync(path.join(ROOT, 'examples', f), path.join(workspace, f));
  }
  // The litmus library, as Open Example offers it.
  fs.mkdirSync(path.join(workspace, 'litmus'));
  for (const f of fs.readdirSync(path.join(ROOT, 'examples', 'litmus'))) {
    if (f.endsWith('.cu')) fs.copyFileSync(path.join(ROOT, 'examples', 'litmus', f), path.join(workspace, 'litmus', f));
  }
  fs.mkdirSync(path.join(workspace, 'quickfix'));
  for (const f of QUICK_FIX_PROGRAMS) fs.copyFileSync(path.join(ROOT, 'test', 'fixtures', 'races', f), path.join(workspace, 'quickfix', f));
  return { dir, workspace };
}

export interface CodeServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  port: number;
  workspace: string;
  runDir: string;
  /** The server's log (stdout and stderr), under the artifacts folder. */
  log: string;
  stop(): Promise<void>;
}

/** Kills a process group: TERM, then KILL when it is still there after `graceMs`. */
async function killGroup(pid: number, graceMs = 12_000): Promise<void> {
  const alive = (): boolean => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    return;
  }
  const until = Date.now() + graceMs;
  while (alive() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  if (alive()) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* gone meanwhile */
    }
  }
}

/** Process groups to kill, and run folders to remove, if this process exits without stopping them. */
const groups = new Set<number>();
const runDirs = new Set<string>();
let exitHooked = false;
function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.on('exit', () => {
    for (const pid of groups) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    if (!process.env.SCORD_E2E_KEEP) for (const dir of runDirs) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(sig, () => process.exit(128 + (os.constants.signals[sig] ?? 1)));
  }
}

/**
 * Installs dist/scord-vscode.vsix into a fresh extensions folder (unless `install` is false) and
 * starts code-server on a free port of 127.0.0.1, offline and quiet. `smokeTestDriver` enables
 * VS Code's smoke-test driver, without which the workbench ignores an extension-test payload in
 * its URL; it also stops notification toasts from showing, so UI tests run without it.
 */
export async function startCodeServer(name: string, opts: { install?: boolean; smokeTestDriver?: boolean } = {}): Promise<CodeServer> {
  requireFile(NODE24, 'Node 24 for code-server');
  requireFile(CODE_SERVER, 'code-server');
  if (opts.install !== false) requireFile(VSIX, 'The packaged extension');
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const { dir, workspace } = makeRunDir(name);
  hookExit();
  runDirs.add(dir);
  const d = (sub: string): string => {
    const p = path.join(dir, sub);
    fs.mkdirSync(p, { recursive: true });
    return p;
  };
  const home = d('home');
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    // Nothing of a VS Code or npm the tests were started from, nor a host Electron setting.
    if (/^(VSCODE_|ELECTRON_|npm_|NODE_OPTIONS$|TS_NODE|TSX)/.test(k)) continue;
    env[k] = v;
  }
  Object.assign(env, {
    PATH: `${path.dirname(NODE24)}:${process.env.PATH ?? ''}`,
    HOME: home,
    TMPDIR: d('tmp'),
    XDG_CONFIG_HOME: d('xdg/config'),
    XDG_DATA_HOME: d('xdg/data'),
    XDG_CACHE_HOME: d('xdg/cache'),
    XDG_STATE_HOME: d('xdg/state'),
    XDG_RUNTIME_DIR: d('xdg/runtime'),
    EXTENSIONS_GALLERY: '{}',
  });
  const config = path.join(dir, 'config.yaml');
  fs.writeFileSync(config, 'auth: none\ncert: false\n');
  const common = ['--config', config, '--user-data-dir', d('user-data'), '--extensions-dir', d('extensions')];
  const log = path.join(ARTIFACTS, `${name}-code-server.log`);
  fs.writeFileSync(log, '');

  if (opts.install !== false) {
    const t = Date.now();
    const r = spawnSync(NODE24, [CODE_SERVER, ...common, '--install-extension', VSIX], { env, encoding: 'utf8', timeout: 120_000 });
    fs.appendFileSync(log, `$ code-server --install-extension ${VSIX}\n${r.stdout}${r.stderr}\n`);
    if (r.status !== 0 || !/successfully installed/i.test(`${r.stdout}${r.stderr}`)) {
      throw new Error(`code-server could not install ${VSIX} (status ${r.status}${r.error ? `, ${r.error.message}` : ''}):\n${r.stdout}${r.stderr}`);
    }
    console.log(`e2e: installed ${path.relative(ROOT, VSIX)} into code-server in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }

  // (A file's settings: quiet, no welcome page, nothing restored.)
  const settings = path.join(dir, 'user-data', 'User');
  fs.mkdirSync(settings, { recursive: true });
  fs.writeFileSync(
    path.join(settings, 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'workbench.enableExperiments': false,
        'telemetry.telemetryLevel': 'off',
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'update.mode': 'none',
        'security.workspace.trust.enabled': false,
        'window.restoreWindows': 'none',
        'files.hotExit': 'off',
        'chat.disableAIFeatures': true,
        'workbench.editor.enablePreview': false,
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
      },
      null,
      2,
    ),
  );

  const t0 = Date.now();
  const child: ChildProcess = spawn(
    NODE24,
    [
      CODE_SERVER,
      ...common,
      '--auth',
      'none',
      '--bind-addr',
      '127.0.0.1:0',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--ignore-last-opened',
      ...(opts.smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
      workspace,
    ],
    { env, cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error('code-server did not start');
  groups.add(pid);
  const stop = async (): Promise<void> => {
    await killGroup(pid);
    groups.delete(pid);
    // The workbench's and extension host's logs (the language server's output among them) are
    // artifacts; the rest of the run folder goes unless SCORD_E2E_KEEP is set.
    const logs = path.join(dir, 'user-data', 'logs');
    const keptLogs = path.join(ARTIFACTS, `${name}-logs`);
    fs.rmSync(keptLogs, { recursive: true, force: true });
    if (fs.existsSync(logs)) fs.cpSync(logs, keptLogs, { recursive: true });
    if (process.env.SCORD_E2E_KEEP) console.log(`e2e: kept ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
    runDirs.delete(dir);
  };

  try {
    const port = await new Promise<number>((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(() => reject(new Error(`code-server printed no port within 60 s; its log:\n${seen}`)), 60_000);
      const onData = (chunk: Buffer): void => {
        const s = chunk.toString();
        fs.appendFileSync(log, s);
        seen += s;
        const m = /HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(seen);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`code-server exited (${code ?? signal}) before it listened; its log:\n${seen}`));
      });
    });
    const url = `http://127.0.0.1:${port}`;
    // /healthz answers before the workbench is served: wait for both.
    for (const p of ['/healthz', '/']) {
      const until = Date.now() + 60_000;
      for (;;) {
        const ok = await fetch(url + p).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) break;
        if (Date.now() > until) throw new Error(`code-server did not answer ${p} within 60 s`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    console.log(`e2e: code-server ${url} ready in ${((Date.now() - t0) / 1000).toFixed(1)} s (workspace ${workspace})`);
    return { url, port, workspace, runDir: dir, log, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

export interface BrowserSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Browser console and page errors, under the artifacts folder. */
  log: string;
  close(): Promise<void>;
}

/** Debian's chromium, headless, with one page of 1600×1000. */
export async function openBrowser(name: string): Promise<BrowserSession> {
  requireFile(CHROMIUM, 'chromium');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic', '--disable-dev-shm-usage'],
  });
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const page = await context.newPage();
  const log = path.join(ARTIFACTS, `${name}-browser.log`);
  fs.writeFileSync(log, '');
  page.on('console', (m) => fs.appendFileSync(log, `[console.${m.type()}] ${m.text()}\n`));
  page.on('pageerror', (e) => fs.appendFileSync(log, `[pageerror] ${e.stack ?? e.message}\n`));
  return {
    browser,
    context,
    page,
    log,
    close: async () => {
      await browser.close().catch(() => undefined);
    },
  };
}

/** The workbench URL for the server's workspace, with an extension-test payload if given. */
export function workbenchUrl(server: CodeServer, payload?: [string, string][]): string {
  const q = new URLSearchParams({ folder: server.workspace });
  if (payload) q.set('payload', JSON.stringify(payload));
  return `${server.url}/?${q.toString()}`;
}

/** A local path as the workbench names it on the server: `vscode-remote://127.0.0.1:PORT/abs/path`. */
export function remoteUri(server: CodeServer, absPath: string): string {
  return `vscode-remote://127.0.0.1:${server.port}${absPath}`;
}
