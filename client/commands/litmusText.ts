// A litmus run as text for the "ScoRD Program Output" channel: a histogram with a bar per
// outcome, its count and share, whether the model allows it, and the verdict the file
// declares for the model (`// verdict <model>: allowed|forbidden`) beside what the run found.
// No 'vscode' import, so the tests can check it against a real report.
import type { LitmusOutcome, LitmusReport, MemoryModelName } from '../../server/protocol';

/** Width of the longest bar, in characters. */
const BAR_WIDTH = 30;

/** The verdict a file declares for a model, if it declares one. */
export function declaredVerdict(text: string, model: MemoryModelName): 'allowed' | 'forbidden' | undefined {
  for (const line of text.split('\n')) {
    const m = /^\s*\/\/\s*verdict\s+([\w-]+)\s*:\s*(allowed|forbidden)\b/.exec(line);
    if (m && m[1] === model) return m[2] as 'allowed' | 'forbidden';
  }
  return undefined;
}

/** The outcome on one line (a program may print several). */
export function outcomeLine(outcome: string): string {
  return outcome.replace(/\r?\n/g, ' ⏎ ') || '(no output)';
}

function share(count: number, runs: number): string {
  return runs > 0 ? `${((100 * count) / runs).toFixed(1)}%` : '-';
}

/** What the declared outcomes came to, against the file's verdict for the model. */
export function verdictLines(report: LitmusReport, fileVerdict: 'allowed' | 'forbidden' | undefined): string[] {
  const lines: string[] = [];
  for (const o of report.outcomes.filter((x) => x.declared)) {
    const found = o.allowed ? 'allowed' : 'forbidden';
    const seen = o.count > 0 ? `seen ${o.count} time${o.count === 1 ? '' : 's'}` : 'never seen';
    const check = fileVerdict === undefined ? '' : fileVerdict === found ? `, as the file declares` : `, but the file declares it ${fileVerdict}`;
    const partial = !report.exhaustive && !o.allowed ? ' in these runs (an exhaustive run decides)' : report.exhaustive && !report.complete && !o.allowed ? ' so far (the exploration was cut short)' : '';
    lines.push(`declared outcome "${outcomeLine(o.outcome)}": ${found} under ${report.model}${partial} — ${seen}${check}`);
  }
  return lines;
}

/** The lines to print for a run titled `title`, most frequent outcome first. */
export function litmusHistogramText(title: string, report: LitmusReport & { elapsedMs?: number }, fileVerdict?: 'allowed' | 'forbidden'): string[] {
  const lines = [`── ${title} ──`];
  for (const e of report.errors) lines.push(`error: ${e.range ? `${e.range.file}:${e.range.start.line + 1}:${e.range.start.character + 1}: ` : ''}${e.message}`);
  const outcomes: LitmusOutcome[] = [...report.outcomes].sort((a, b) => b.count - a.count);
  const max = Math.max(1, ...outcomes.map((o) => o.count));
  const textWidth = Math.max(7, ...outcomes.map((o) => outcomeLine(o.outcome).length));
  const countWidth = Math.max(5, ...outcomes.map((o) => String(o.count).length));
  for (const o of outcomes) {
    const cells = o.count > 0 ? Math.max(1, Math.round((BAR_WIDTH * o.count) / max)) : 0;
    const bar = '█'.repeat(cells).padEnd(BAR_WIDTH, ' ');
    const marks = [o.allowed ? 'allowed' : 'forbidden', ...(o.declared ? ['declared'] : [])].join(', ');
    lines.push(`  ${outcomeLine(o.outcome).padEnd(textWidth)}  ${bar}  ${String(o.count).padStart(countWidth)}  ${share(o.count, report.runs).padStart(6)}  ${marks}`);
  }
  const how = report.exhaustive ? (report.complete ? 'every execution explored' : 'exploration cut short at its execution limit (incomplete)') : 'random executions';
  const reached = report.outcomes.filter((o) => o.count > 0).length;
  const elapsed = report.elapsedMs === undefined ? '' : `, ${report.elapsedMs.toFixed(0)} ms`;
  lines.push(`${report.runs} ${report.exhaustive ? 'executions' : 'runs'} under ${report.model}: ${how}; ${reached} distinct outcome${reached === 1 ? '' : 's'}${elapsed}`);
  lines.push(...verdictLines(report, fileVerdict));
  return lines;
}
