// Runs the extension-host suite (test/e2e/suite, built by scripts/e2e/build.mjs) inside
// code-server: the workbench is opened in chromium with the same payload a desktop VS Code gets
// from --extensionDevelopmentPath/--extensionTestsPath, the suite's runner writes its results
// to a file, and the workbench reports the exit code through `codeAutomationExit` (the
// smoke-test driver's hook). Exit status: 0 when every test passed, 1 otherwise.
//
//   node --import tsx test/e2e/runCodeServer.ts
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SuiteResults } from './suite/index';
import { ARTIFACTS, ROOT, openBrowser, remoteUri, requireFile, startCodeServer, workbenchUrl, type BrowserSession, type CodeServer } from './codeServer';

const SUITE = path.join(ROOT, '.e2e', 'out', 'suite', 'index.js');
const TIMEOUT_MS = Number(process.env.SCORD_E2E_SUITE_TIMEOUT_MS ?? 5 * 60_000);

function report(results: SuiteResults | undefined): void {
  if (!results) return;
  console.log(`\nextension-host suite in ${results.host.appName} (${results.host.uiKind}, remote ${results.host.remoteName ?? 'none'}, Node ${results.host.node}):`);
  for (const t of results.tests) {
    console.log(`  ${t.state === 'passed' ? '✔' : t.state === 'failed' ? '✘' : '-'} ${t.title} (${t.durationMs} ms)`);
    if (t.error) console.log(t.error.replace(/^/gm, '      '));
  }
  for (const n of results.notes ?? []) console.log(`  note: ${n}`);
  console.log(`  ${results.passes} passed, ${results.failures} failed, ${results.pending} pending in ${(results.durationMs / 1000).toFixed(1)} s`);
}

async function main(): Promise<number> {
  const t0 = Date.now();
  requireFile(SUITE, 'The built extension-host suite (node scripts/e2e/build.mjs)');
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const resultsFile = path.join(ARTIFACTS, 'suite-results.json');
  fs.rmSync(resultsFile, { force: true });

  let server: CodeServer | undefined;
  let session: BrowserSession | undefined;
  try {
    server = await startCodeServer('suite', { smokeTestDriver: true });
    session = await openBrowser('suite');
    const { page } = session;
    const exit = new Promise<number>((resolve) => {
      void page.exposeFunction('codeAutomationExit', (code: number) => {
        resolve(code);
      });
    });
    const payload: [string, string][] = [
      ['extensionDevelopmentPath', remoteUri(server, ROOT)],
      ['extensionTestsPath', remoteUri(server, SUITE)],
      ['extensionEnvironment', JSON.stringify({ SCORD_E2E_RESULTS: resultsFile })],
    ];
    const tLoad = Date.now();
    await page.goto(workbenchUrl(server, payload));
    void page
      .locator('.monaco-workbench')
      .waitFor({ timeout: 120_000 })
      .then(
        () => console.log(`e2e: workbench loaded in ${((Date.now() - tLoad) / 1000).toFixed(1)} s`),
        () => undefined,
      );
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the extension-host suite did not finish within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
    });
    let code: number;
    try {
      code = await Promise.race([exit, timeout]);
    } finally {
      clearTimeout(timer);
      await page.screenshot({ path: path.join(ARTIFACTS, 'suite-final.png') }).catch(() => undefined);
    }
    const results = fs.existsSync(resultsFile) ? (JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as SuiteResults) : undefined;
    report(results);
    console.log(`e2e: extension-host suite exited ${code} after ${((Date.now() - t0) / 1000).toFixed(1)} s in all`);
    if (!results) {
      console.error(`e2e: the suite wrote no results to ${resultsFile}: it did not run (see ${path.relative(ROOT, server.log)})`);
      return 1;
    }
    if (results.tests.length === 0 || results.pending > 0) {
      console.error('e2e: the suite ran no test, or skipped some');
      return 1;
    }
    return code === 0 && results.failures === 0 ? 0 : 1;
  } catch (e) {
    console.error(`e2e: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    if (fs.existsSync(resultsFile)) report(JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as SuiteResults);
    return 1;
  } finally {
    const tStop = Date.now();
    await session?.close();
    await server?.stop();
    console.log(`e2e: browser and code-server stopped in ${((Date.now() - tStop) / 1000).toFixed(1)} s`);
  }
}

void main().then((code) => process.exit(code));
