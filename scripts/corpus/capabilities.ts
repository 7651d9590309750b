// What the CLI being measured accepts, found by asking it once on tiny programs: several source
// files per run, `--stdin FILE`, `--allow-read`, and the `--frontend` the measurement asked for. Programs are
// then measured with what it has (a multi-file program by its `main` file alone when it takes
// one file), and the summary says so.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli, type Limits } from './runner';

export interface Capabilities {
  multiFile: boolean;
  stdin: boolean;
  /** The program may read files of its own folder. */
  allowRead: boolean;
}

const MAIN = 'int main() { return 0; }\n';
const DEVICE = '__device__ int twice(int x) { return 2 * x; }\n';

/** The CLI's own refusal of an option or of a second file, if that is what it answered. */
function refusal(exitCode: number | null, stdout: string, stderr: string): string | undefined {
  if (exitCode !== 2 || stdout.trim().startsWith('{')) return undefined;
  const m = /^scord: (.*)$/m.exec(stderr);
  return m && /unknown option|only one file|unknown front ?end|usage/i.test(m[1]) ? m[1] : undefined;
}

/**
 * Asks the CLI what it accepts. Throws with the CLI's message when `extraArgs` themselves are
 * refused (a measurement with a front end the CLI does not have would measure nothing).
 */
export async function probeCapabilities(cli: string, extraArgs: string[], limits: Limits): Promise<Capabilities> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-corpus-probe-'));
  try {
    const a = path.join(dir, 'a.cu');
    const b = path.join(dir, 'b.cu');
    const input = path.join(dir, 'in.txt');
    fs.writeFileSync(a, MAIN);
    fs.writeFileSync(b, DEVICE);
    fs.writeFileSync(input, '1 2 3\n');
    const probeLimits = { ...limits, timeoutMs: Math.min(limits.timeoutMs, 120_000) };
    const single = await runCli(cli, ['check', a, ...extraArgs, '--format', 'json'], dir, probeLimits);
    const refusedFrontEnd = refusal(single.exitCode, single.stdout, single.stderr);
    if (refusedFrontEnd) throw new Error(`the CLI refused ${extraArgs.join(' ') || 'a plain check'}: ${refusedFrontEnd}`);
    if (!single.stdout.trim().startsWith('{')) throw new Error(`the CLI did not answer a plain check of a one-line program with a JSON report (exit ${single.exitCode}): ${single.stderr.trim().split('\n')[0] ?? ''}`);
    const multi = await runCli(cli, ['check', a, b, ...extraArgs, '--format', 'json'], dir, probeLimits);
    const withStdin = await runCli(cli, ['check', a, ...extraArgs, '--stdin', input, '--format', 'json'], dir, probeLimits);
    const reading = await runCli(cli, ['check', a, ...extraArgs, '--allow-read', '--format', 'json'], dir, probeLimits);
    return {
      multiFile: !refusal(multi.exitCode, multi.stdout, multi.stderr),
      stdin: !refusal(withStdin.exitCode, withStdin.stdout, withStdin.stderr),
      allowRead: !refusal(reading.exitCode, reading.stdout, reading.stderr),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
