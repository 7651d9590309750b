// `npm run corpus -- DIR [options]`: measures `scord check` on a public corpus nobody here
// wrote — NVIDIA's CUDA samples, GPUVerify's CUDA test suite, or ScoR — extracted into DIR
// (outside this repository; its files are never committed). One line per program, then a
// summary; `--json OUT` writes every result and the summary as JSON too.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { probeCapabilities } from './capabilities';
import { isCudaSamples, measureCudaSamples } from './cudaSamples';
import { gpuverifyTestDir, measureGpuVerify } from './gpuverify';
import type { MeasureContext } from './measure';
import { isScor, measureScor } from './scor';
import { seconds } from './report';

const KINDS = ['cuda-samples', 'gpuverify', 'scor'] as const;
type Kind = (typeof KINDS)[number];

const USAGE = `usage: npm run corpus -- DIR [--kind ${KINDS.join('|')}] [--frontend NAME] [--check-arg ARG]... [--json OUT]
                            [--timeout SECONDS] [--memory MB] [--jobs N] [--cli PATH] [--filter TEXT] [--top N]
  DIR         the corpus, extracted from its repository (the kind is recognised from its layout)
  --frontend  passed to every 'scord check' as --frontend NAME (default: none, the CLI's own default)
  --check-arg one more argument for every 'scord check' (repeatable: --check-arg=--sample-blocks=32)
  --json      also write the results and the summary to OUT as JSON
  --timeout   seconds a program may run before it is killed (default 120)
  --memory    megabytes of JavaScript heap per run (default 4096)
  --jobs      programs run at once (default 2)
  --cli       the CLI to measure (default dist/cli.js of this project: npm run build)
  --filter    only the programs whose name contains TEXT
  --top       rows of the reason tables (default 12)`;

interface Options {
  dir: string;
  kind?: Kind;
  frontend?: string;
  checkArgs: string[];
  json?: string;
  timeoutS: number;
  memoryMb: number;
  jobs: number;
  cli: string;
  filter?: string;
  top: number;
}

function parseOptions(argv: string[]): Options {
  const projectRoot = path.resolve(__dirname, '..', '..');
  const o: Partial<Options> & { timeoutS: number; memoryMb: number; jobs: number; top: number; cli: string; checkArgs: string[] } = { timeoutS: 120, memoryMb: 4096, jobs: 2, top: 12, checkArgs: [], cli: path.join(projectRoot, 'dist', 'cli.js') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const m = /^(--[a-z][a-z-]*)(?:=(.*))?$/.exec(a);
    const value = (): string => {
      const v = m?.[2] ?? argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value\n${USAGE}`);
      return v;
    };
    const positive = (): number => {
      const text = value();
      const v = Number(text);
      if (!Number.isFinite(v) || v <= 0) throw new Error(`${m?.[1]} needs a positive number (got '${text}')`);
      return v;
    };
    if (a === '--help' || a === '-h') throw new Error(USAGE);
    else if (m?.[1] === '--kind') {
      const k = value();
      if (!(KINDS as readonly string[]).includes(k)) throw new Error(`unknown corpus kind '${k}'; choose ${KINDS.join(', ')}`);
      o.kind = k as Kind;
    } else if (m?.[1] === '--frontend') o.frontend = value();
    else if (m?.[1] === '--check-arg') o.checkArgs.push(value());
    else if (m?.[1] === '--json') o.json = path.resolve(value());
    else if (m?.[1] === '--timeout') o.timeoutS = positive();
    else if (m?.[1] === '--memory') o.memoryMb = Math.round(positive());
    else if (m?.[1] === '--jobs') o.jobs = Math.max(1, Math.round(positive()));
    else if (m?.[1] === '--cli') o.cli = path.resolve(value());
    else if (m?.[1] === '--filter') o.filter = value();
    else if (m?.[1] === '--top') o.top = Math.round(positive());
    else if (a.startsWith('-')) throw new Error(`unknown option '${a}'\n${USAGE}`);
    else if (!o.dir) o.dir = path.resolve(a);
    else throw new Error(`one corpus folder at a time (got '${o.dir}' and '${a}')`);
  }
  if (!o.dir) throw new Error(`no corpus folder\n${USAGE}`);
  return o as Options;
}

function recognise(dir: string): Kind | undefined {
  if (isCudaSamples(dir)) return 'cuda-samples';
  if (gpuverifyTestDir(dir)) return 'gpuverify';
  if (isScor(dir)) return 'scor';
  return undefined;
}

async function main(argv: string[]): Promise<number> {
  const o = parseOptions(argv);
  if (!fs.existsSync(o.dir) || !fs.statSync(o.dir).isDirectory()) throw new Error(`${o.dir} is not a folder`);
  if (!fs.existsSync(o.cli)) throw new Error(`${o.cli} does not exist: run 'npm run build' first (or give --cli PATH)`);
  const kind = o.kind ?? recognise(o.dir);
  if (!kind) throw new Error(`${o.dir} is none of the known corpora (NVIDIA/cuda-samples, mc-imperial/gpuverify, csl-iisc/ScoR); give --kind ${KINDS.join('|')} if it is one of them`);
  const layout: Record<Kind, [(d: string) => boolean, string]> = {
    'cuda-samples': [isCudaSamples, 'Samples/ and Common/helper_cuda.h'],
    gpuverify: [(d) => !!gpuverifyTestDir(d), 'testsuite/CUDA'],
    scor: [isScor, 'microbenchmarks/src and benchmarks/'],
  };
  if (!layout[kind][0](o.dir)) throw new Error(`${o.dir} does not look like the ${kind} corpus: it has no ${layout[kind][1]}`);
  const limits = { timeoutMs: o.timeoutS * 1000, memoryMb: o.memoryMb };
  const extraArgs = [...(o.frontend ? ['--frontend', o.frontend] : []), ...o.checkArgs];
  const caps = await probeCapabilities(o.cli, extraArgs, limits);
  const log = (line: string): void => void process.stdout.write(line + '\n');
  log(`corpus ${kind} at ${o.dir}`);
  log(`cli ${o.cli}${extraArgs.length ? ` ${extraArgs.join(' ')}` : ''}; ${o.jobs} at a time, ${o.timeoutS} s and ${o.memoryMb} MB heap per program`);
  log(`the CLI ${caps.multiFile ? 'takes several files per run' : 'takes one file per run (multi-file programs are checked by their main file)'}, ${caps.stdin ? 'has --stdin' : 'has no --stdin'} and ${caps.allowRead ? 'has --allow-read' : 'has no --allow-read'}`);
  const ctx: MeasureContext = { cli: o.cli, extraArgs, limits, jobs: o.jobs, caps, top: o.top, ...(o.filter ? { filter: o.filter } : {}), log };
  const started = Date.now();
  const measured = kind === 'cuda-samples' ? await measureCudaSamples(o.dir, ctx) : kind === 'gpuverify' ? await measureGpuVerify(o.dir, ctx) : await measureScor(o.dir, ctx);
  const elapsed = Date.now() - started;
  log('');
  for (const line of measured.text) log(line);
  log(`measured in ${seconds(elapsed)}`);
  if (o.json) {
    const json = {
      corpus: kind,
      dir: o.dir,
      cli: o.cli,
      frontend: o.frontend ?? null,
      checkArgs: o.checkArgs,
      capabilities: caps,
      limits: { timeoutS: o.timeoutS, memoryMb: o.memoryMb, jobs: o.jobs },
      ...(o.filter ? { filter: o.filter } : {}),
      measuredAt: new Date(started).toISOString(),
      elapsedMs: elapsed,
      ...measured.json,
    };
    fs.mkdirSync(path.dirname(o.json), { recursive: true });
    fs.writeFileSync(o.json, JSON.stringify(json, null, 2) + '\n');
    log(`wrote ${o.json}`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`corpus: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 2;
  },
);
