// The analysis worker: runs one check (parse, simulate, detect) per request, off the server's
// thread, so an edit can stop a stale run by ending the worker. Preferred fixes are checked
// by re-running the fixed text: a fix stays preferred only if its race is then gone.
import * as fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { checkSource, type CheckReport } from '../../sims/check';
import { applyEdits } from '../../sims/fixes/apply';
import { judgeFix } from '../../sims/fixes/verify';
import type { AnalysisRequest, AnalysisResponse } from './messages';

/** Preferred fixes checked per run at most (each costs a run). */
const MAX_VERIFIED = 16;

function analyse(req: AnalysisRequest): AnalysisResponse {
  const t0 = performance.now();
  const read = (p: string): string | undefined => {
    if (p in req.openFiles) return req.openFiles[p];
    try {
      return fs.readFileSync(p, 'utf8');
    } catch {
      return undefined;
    }
  };
  const files = new Set<string>();
  const readFile = (p: string): string | undefined => {
    files.add(p);
    return read(p);
  };
  const check = (text: string): CheckReport => checkSource({ ...req.options, fileName: req.fileName, text, readFile });
  const report = check(req.text);
  if (req.verifyFixes) verifyPreferredFixes(req.text, report, check);
  return { id: req.id, kind: 'report', report, elapsedMs: performance.now() - t0, includes: [...files] };
}

function verifyPreferredFixes(text: string, report: CheckReport, check: (text: string) => CheckReport): void {
  let checked = 0;
  for (const finding of report.findings) {
    const fix = finding.fixes.find((f) => f.preferred);
    if (!fix) continue;
    if (checked++ >= MAX_VERIFIED) {
      fix.preferred = false;
      continue;
    }
    if (!judgeFix(report, finding, fix.edits, check(applyEdits(text, fix.edits))).ok) fix.preferred = false;
  }
}

parentPort!.on('message', (req: AnalysisRequest) => {
  let response: AnalysisResponse;
  try {
    response = analyse(req);
  } catch (e) {
    // An engine bug: say what failed; the server reports it and goes on.
    response = { id: req.id, kind: 'failed', message: e instanceof Error ? e.message : String(e) };
  }
  parentPort!.postMessage(response);
});
