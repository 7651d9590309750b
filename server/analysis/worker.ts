// The analysis worker: runs one check (parse, simulate, detect) or one litmus exploration per
// request, off the server's thread, so an edit can stop a stale run by ending the worker.
// Preferred fixes are checked by re-running the fixed text: a fix stays preferred only if its
// race is then gone.
import { parentPort } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { readSourceFile } from '../sourceFiles';
import { checkSource, type CheckReport } from '../../sims/check';
import { applyEdits } from '../../sims/fixes/apply';
import { judgeFix } from '../../sims/fixes/verify';
import { parse } from '../../sims/frontend/index';
import { declaredOutcomes, runLitmus } from '../../sims/litmus/run';
import { MAX_EXPANDED_TOKENS, type AnalysisRequest, type AnalysisResponse } from './messages';

/** Preferred fixes checked per run at most (each costs a run). */
const MAX_VERIFIED = 16;

/** Open documents win over the disk for #include. */
function readerFor(req: AnalysisRequest): (p: string) => string | undefined {
  return (p) => (p in req.openFiles ? req.openFiles[p] : readSourceFile(p));
}

/**
 * A litmus run: the histogram of the program's outcomes under the requested memory model, with
 * the outcomes the file names (`// outcome:` lines) always listed.
 */
function exploreLitmus(req: AnalysisRequest & { litmus: NonNullable<AnalysisRequest['litmus']> }): void {
  const t0 = performance.now();
  const { defines = [], undefines = [], includePaths = [] } = req.options;
  const parsed = parse(req.text, { fileName: req.fileName, defines, undefines, includePaths, readFile: readerFor(req), maxOutputTokens: MAX_EXPANDED_TOKENS });
  const report = runLitmus(parsed, { ...req.litmus, declared: req.litmus.declared ?? declaredOutcomes(req.text) });
  post({ id: req.id, kind: 'litmus', report, elapsedMs: performance.now() - t0 });
}

function analyse(req: AnalysisRequest): void {
  const t0 = performance.now();
  const read = readerFor(req);
  const files = new Set<string>();
  const readFile = (p: string): string | undefined => {
    files.add(p);
    return read(p);
  };
  const check = (text: string): CheckReport => {
    // Parsed here with the server's expansion limit, so a runaway macro ends the run at once
    // (as an error, as the server shows it) instead of expanding until the time budget.
    const { defines = [], undefines = [], includePaths = [] } = req.options;
    const parsed = parse(text, { fileName: req.fileName, defines, undefines, includePaths, readFile, maxOutputTokens: MAX_EXPANDED_TOKENS });
    return checkSource({ ...req.options, fileName: req.fileName, text, readFile, parsed });
  };
  const report = check(req.text);
  if (!req.verifyFixes) {
    post({ id: req.id, kind: 'report', report, elapsedMs: performance.now() - t0, includes: [...files] });
    return;
  }
  // The findings go out at once, with no fix preferred until it has been checked.
  const claimed = report.findings.map((f) => f.fixes.map((x) => x.preferred));
  for (const f of report.findings) for (const x of f.fixes) x.preferred = false;
  post({ id: req.id, kind: 'report', report, elapsedMs: performance.now() - t0, includes: [...files] });
  post({ id: req.id, kind: 'verified', preferred: verifyPreferredFixes(req.text, report, claimed, check) });
}

/** For each finding and fix: preferred, and its race gone when the fixed text is re-run. */
function verifyPreferredFixes(text: string, report: CheckReport, claimed: boolean[][], check: (text: string) => CheckReport): boolean[][] {
  let checked = 0;
  return report.findings.map((finding, i) =>
    finding.fixes.map((fix, j) => {
      if (!claimed[i][j] || checked++ >= MAX_VERIFIED) return false;
      return judgeFix(report, finding, fix.edits, check(applyEdits(text, fix.edits))).ok;
    }),
  );
}

function post(m: AnalysisResponse): void {
  parentPort!.postMessage(m);
}

// A cold engine's first run spends ~100 ms compiling the engine itself. Do that once here, as
// the worker starts (workers are started ahead of runs), not inside the first run's budget.
const WARM_UP = `__device__ int c = 0;
__global__ void k(int *a) { a[threadIdx.x] = threadIdx.x; __threadfence_block(); atomicAdd_block(&c, a[0]); }
int main() { int *d; cudaMalloc(&d, 256); k<<<2, 64>>>(d); cudaDeviceSynchronize(); printf("%d\\n", 1); return 0; }
`;
try {
  checkSource({ fileName: '/scord-warm-up.cu', text: WARM_UP, readFile: () => undefined, inspect: {} });
} catch {
  // Only a warm-up: a real run reports its own failures.
}

parentPort!.on('message', (req: AnalysisRequest) => {
  post({ id: req.id, kind: 'started' });
  try {
    if (req.litmus) exploreLitmus({ ...req, litmus: req.litmus });
    else analyse(req);
  } catch (e) {
    // An engine bug: say what failed; the server reports it and goes on.
    post({ id: req.id, kind: 'failed', message: e instanceof Error ? e.message : String(e) });
  }
});
