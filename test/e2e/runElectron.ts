// Runs the extension-host suite (test/e2e/suite) in desktop VS Code through
// @vscode/test-electron, for machines that have a VS Code build. Which one:
//
//   SCORD_E2E_VSCODE=/path/to/code            a VS Code (or VSCodium/Code - OSS) executable
//   SCORD_E2E_VSCODE_VERSION=stable|1.x.y     let test-electron download that version (needs
//                                             network access to update.code.visualstudio.com)
//
// On a Linux machine without a display run it under `xvfb-run -a`. Build first:
// `npm run package && node scripts/e2e/build.mjs` (or `npm run test:e2e:electron`).
// Exit status: 0 when every test passed, 1 otherwise (also when no VS Code is named).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { ARTIFACTS, ROOT, makeRunDir, requireFile } from './codeServer';
import type { SuiteResults } from './suite/index';

const SUITE = path.join(ROOT, '.e2e', 'out', 'suite', 'index.js');

async function main(): Promise<number> {
  const executable = process.env.SCORD_E2E_VSCODE;
  const version = process.env.SCORD_E2E_VSCODE_VERSION;
  if (!executable && !version) {
    console.error('e2e: set SCORD_E2E_VSCODE to a VS Code executable (or SCORD_E2E_VSCODE_VERSION to download one) to run the suite in desktop VS Code');
    return 1;
  }
  if (executable) requireFile(executable, 'The VS Code executable named by SCORD_E2E_VSCODE');
  requireFile(SUITE, 'The built extension-host suite (node scripts/e2e/build.mjs)');
  requireFile(path.join(ROOT, 'dist', 'extension.js'), 'The built extension (npm run build)');
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const results = path.join(ARTIFACTS, 'electron-results.json');
  fs.rmSync(results, { force: true });
  const { dir, workspace } = makeRunDir('electron');
  let code: number;
  try {
    code = await runTests({
      ...(executable ? { vscodeExecutablePath: executable } : { version }),
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: SUITE,
      extensionTestsEnv: { SCORD_E2E_RESULTS: results },
      launchArgs: [
        workspace,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        '--disable-telemetry',
        `--user-data-dir=${path.join(dir, 'user-data')}`,
        `--extensions-dir=${path.join(dir, 'extensions')}`,
      ],
    });
  } catch (e) {
    console.error(`e2e: desktop VS Code run failed: ${e instanceof Error ? e.message : String(e)}`);
    code = 1;
  } finally {
    if (!process.env.SCORD_E2E_KEEP) fs.rmSync(dir, { recursive: true, force: true });
  }
  if (!fs.existsSync(results)) {
    console.error(`e2e: the suite wrote no results to ${results}: it did not run`);
    return 1;
  }
  const r = JSON.parse(fs.readFileSync(results, 'utf8')) as SuiteResults;
  console.log(`e2e: desktop VS Code (${r.host.appName}, Node ${r.host.node}): ${r.passes} passed, ${r.failures} failed, ${r.pending} pending`);
  for (const n of r.notes ?? []) console.log(`  note: ${n}`);
  return code === 0 && r.failures === 0 && r.pending === 0 && r.tests.length > 0 ? 0 : 1;
}

void main().then((code) => process.exit(code));
