// A check of N schedules, made of the checks of its seeded schedules one by one (each a check
// with the random scheduler and one seed), merged in seed order. Whether the schedules ran on
// one thread or on several (the CLI's --jobs), and in which order they finished, the merged
// report is the same.
import type { CheckFinding, CheckOptions, CheckReport } from './check';

/** The options of schedule `k` (0-based) of a check of `options.schedules` schedules. */
export function scheduleOptions<T extends Pick<CheckOptions, 'seed' | 'schedules' | 'scheduler'>>(options: T, k: number): T {
  return { ...options, schedules: 1, scheduler: 'random', seed: (options.seed ?? 1) + k };
}

const at = (l: { file: string; line: number; column: number } | undefined): string => (l ? `${l.file}:${l.line}:${l.column}` : '-');

/** The keys of a race: one pair of accesses is one race whichever of the two a schedule ran first. */
export function raceKeys(f: CheckFinding): [string, string] {
  return [`${f.category}@${at(f.location)}/${at(f.related[0]?.location)}`, `${f.category}@${at(f.related[0]?.location)}/${at(f.location)}`];
}

/** Adds to `report` the races of `more` it does not have (as the first schedule that found each reported it); how many. */
export function addNewRaces(report: CheckReport, more: CheckReport, adapt: (f: CheckFinding) => CheckFinding = (f) => f): number {
  const known = new Set(report.findings.filter((f) => f.kind === 'race').flatMap(raceKeys));
  let added = 0;
  for (const f of more.findings) {
    if (f.kind !== 'race') continue;
    const [key, reversed] = raceKeys(f);
    if (known.has(key)) continue;
    known.add(key);
    known.add(reversed);
    report.findings.push(adapt(f));
    added++;
  }
  return added;
}

/**
 * The reports of a check's schedules, in seed order, as one: the first schedule's output, exit
 * status and findings, then each later schedule's new races and new other findings (a fault
 * or hang that only some interleavings meet), and the steps of all of them.
 */
export function mergeScheduleReports(reports: CheckReport[]): CheckReport {
  const [first, ...rest] = reports;
  const merged: CheckReport = { ...first, findings: [...first.findings], diagnostics: [...first.diagnostics], stats: { ...first.stats, schedules: reports.length } };
  delete merged.state;
  const otherKey = (f: CheckFinding): string => `${f.kind}|${at(f.location)}|${f.message}`;
  const others = new Set(merged.findings.filter((f) => f.kind !== 'race').map(otherKey));
  const diagnosticKey = (d: CheckReport['diagnostics'][number]): string => `${d.code}|${at(d.location)}|${d.message}`;
  const diagnostics = new Set(merged.diagnostics.map(diagnosticKey));
  for (const r of rest) {
    addNewRaces(merged, r);
    for (const f of r.findings) {
      if (f.kind === 'race' || others.has(otherKey(f))) continue;
      others.add(otherKey(f));
      merged.findings.push(f);
    }
    for (const d of r.diagnostics) {
      if (diagnostics.has(diagnosticKey(d))) continue;
      diagnostics.add(diagnosticKey(d));
      merged.diagnostics.push(d);
    }
    merged.stats.steps += r.stats.steps;
  }
  return merged;
}
