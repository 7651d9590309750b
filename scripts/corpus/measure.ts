// What every corpus measurement shares: the CLI being measured and how it is run.
import { classify, type Classified } from './classify';
import type { Capabilities } from './capabilities';
import { runCli, type Limits } from './runner';

export interface MeasureContext {
  /** The CLI's bundle (dist/cli.js). */
  cli: string;
  /** `--frontend NAME` and the --check-arg arguments the measurement asked for; passed to every run. */
  extraArgs: string[];
  limits: Limits;
  /** Runs in flight at once. */
  jobs: number;
  caps: Capabilities;
  /** Rows of the reason tables. */
  top: number;
  /** Only programs whose name contains this. */
  filter?: string;
  log(line: string): void;
}

/** One program of a corpus: the files of one `scord check` and its flags. */
export interface Program {
  name: string;
  /** Source files, absolute, the one with `main` (or the kernel file) first. */
  files: string[];
  includeDirs: string[];
  defines: string[];
  /** The GPU architecture its build names (nvcc's -arch), passed on as --arch. */
  arch?: number;
  stdin?: string;
  /** It reads data files of its own folder (`cwd`): the run may read them (never write). */
  readsOwnFolder?: boolean;
  cwd: string;
}

export interface ProgramResult extends Classified {
  name: string;
  /** Files given to the CLI (relative to the corpus root). */
  files: string[];
  /** What the CLI could not be given (it takes one file per run, it has no --stdin). */
  limitations: string[];
}

/** The command line of one program's check, fitted to what the CLI accepts. */
export function checkArgs(p: Program, ctx: MeasureContext): { args: string[]; limitations: string[] } {
  const limitations: string[] = [];
  let files = p.files;
  if (files.length > 1 && !ctx.caps.multiFile) {
    files = [files[0]];
    limitations.push('main file only');
  }
  const args = ['check', ...files];
  for (const d of p.defines) args.push('-D', d);
  for (const i of p.includeDirs) args.push('-I', i);
  if (p.arch) args.push('--arch', `sm_${p.arch}`);
  args.push(...ctx.extraArgs, '--format', 'json');
  if (p.stdin && ctx.caps.stdin) args.push('--stdin', p.stdin);
  else if (p.stdin) limitations.push('no --stdin');
  if (p.readsOwnFolder && ctx.caps.allowRead) args.push('--allow-read');
  else if (p.readsOwnFolder) limitations.push('no --allow-read');
  return { args, limitations };
}

export async function measureProgram(p: Program, ctx: MeasureContext, root: string): Promise<ProgramResult> {
  const { args, limitations } = checkArgs(p, ctx);
  const run = await runCli(ctx.cli, args, p.cwd, ctx.limits);
  const files = args.slice(1, 1 + (limitations.includes('main file only') ? 1 : p.files.length)).map((f) => relativeTo(root, f));
  return { name: p.name, files, limitations, ...classify(run, root) };
}

function relativeTo(root: string, file: string): string {
  return file.startsWith(root + '/') ? file.slice(root.length + 1) : file;
}
