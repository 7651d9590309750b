// Text helpers for the corpus summaries: counts with percentages, tables of the most frequent
// reasons, durations.
import { OUTCOMES, OUTCOME_TITLES, type Classified, type Outcome } from './classify';

export function percent(part: number, whole: number): string {
  return whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)} %`;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

/** Counts of each outcome, every outcome present (zeros included). */
export function outcomeCounts(results: readonly Classified[]): Record<Outcome, number> {
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  for (const r of results) counts[r.outcome]++;
  return counts;
}

/** `  ran to completion        12   17.4 %` for each outcome that occurred (and completion always). */
export function outcomeTable(results: readonly Classified[]): string[] {
  const counts = outcomeCounts(results);
  return OUTCOMES.filter((o) => o === 'completed' || counts[o] > 0).map((o) => `  ${OUTCOME_TITLES[o].padEnd(28)}${String(counts[o]).padStart(5)}  ${percent(counts[o], results.length).padStart(7)}`);
}

export interface Tally {
  reason: string;
  count: number;
  /** Up to three names of the programs it stopped. */
  examples: string[];
}

/** The `top` most frequent reasons, most frequent first; ties by reason. */
export function tally(items: readonly { reason: string; name: string }[], top: number): Tally[] {
  const byReason = new Map<string, Tally>();
  for (const { reason, name } of items) {
    const t = byReason.get(reason) ?? { reason, count: 0, examples: [] };
    t.count++;
    if (t.examples.length < 3) t.examples.push(name);
    byReason.set(reason, t);
  }
  return [...byReason.values()].sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)).slice(0, top);
}

export function tallyLines(title: string, tallies: readonly Tally[]): string[] {
  if (!tallies.length) return [];
  return [title, ...tallies.map((t) => `  ${String(t.count).padStart(4)}  ${t.reason}  [${t.examples.join(', ')}]`)];
}

/** The short tail of a program's line: the reason it stopped and where, or what it found. */
export function detail(r: Classified): string {
  if (r.outcome === 'completed') {
    const races = r.findings.filter((f) => f.kind === 'race').length;
    const others = r.findings.length - races;
    return `exit ${r.exitCode}, ${races} race${races === 1 ? '' : 's'}${others ? `, ${others} other finding${others === 1 ? '' : 's'}` : ''}${r.programExit !== undefined && r.programExit !== 0 ? `, program exit ${r.programExit}` : ''}`;
  }
  if (r.outcome === 'timeout') return 'killed at the time limit';
  return `${r.reason ?? ''}${r.where ? ` (${r.where})` : ''}`;
}

/** Each feature refused anywhere in a program, counted once per program. */
export function refusedAnywhere(results: readonly (Classified & { name: string })[], top: number): Tally[] {
  return tally(results.flatMap((r) => (r.refused ?? []).map((reason) => ({ reason, name: r.name }))), top);
}
