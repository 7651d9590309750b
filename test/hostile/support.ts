// Shared by the hostile-input tests: a scratch folder, and the CLI run in this process or as
// the built command (dist/cli.js, which `npm test` builds first) where its own stack matters.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { scord } from '../../sims/cli';

export function scratch(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `scord-hostile-${prefix}-`));
}

export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** `scord ARGV…` in this process, with its output captured. */
export async function cli(argv: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const t0 = performance.now();
  const status = await scord(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { status, stdout, stderr, ms: performance.now() - t0 };
}

/** `node dist/cli.js ARGV…`: the command as users run it, on its own analysis stack. */
export function builtCli(argv: string[]): Promise<CliRun> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [path.resolve(__dirname, '..', '..', 'dist', 'cli.js'), ...argv], { maxBuffer: 64 * 2 ** 20 }, (error, stdout, stderr) => {
      const status = error ? (typeof error.code === 'number' ? error.code : 2) : 0;
      resolve({ status, stdout, stderr, ms: performance.now() - t0 });
    });
  });
}

/** Writes `text` to `dir/name` and returns the path. */
export function write(dir: string, name: string, text: string | Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}
