// Choosing the preferred fix by re-running: each finding's candidates are tried best first, and
// the first whose edits remove the race and add nothing (judgeFix) is preferred. A finding none
// of whose candidates does that has no preferred fix, so neither `scord fix` nor Fix All applies
// a guess. The static order of fixesFor is only the order of trial.
import type { CheckReport } from '../check';
import type { TextEdit } from './fixes';
import { judgeFix } from './verify';

export interface ProofBudget {
  /** Re-runs in all (each is a whole check of the edited program). */
  runs: number;
  /** Candidates tried per finding. */
  perFinding: number;
}

/**
 * For each finding and fix of `report`: whether the fix is the one to prefer. `rerun` checks
 * the program again with the edits applied (to the checked file or a header). Candidates past
 * the budget are not tried, and count as unproven; `between` runs before each re-run (a
 * cancellation point).
 */
export async function proveFixes(report: CheckReport, rerun: (edits: TextEdit[]) => Promise<CheckReport>, budget: ProofBudget, between?: () => Promise<void>): Promise<boolean[][]> {
  let runs = 0;
  const out: boolean[][] = [];
  for (const finding of report.findings) {
    const verdicts = finding.fixes.map(() => false);
    // The one the static order prefers first, then the others in their order.
    const order = finding.fixes.map((_, j) => j).sort((a, b) => Number(finding.fixes[b].preferred) - Number(finding.fixes[a].preferred));
    for (const j of order.slice(0, budget.perFinding)) {
      const fix = finding.fixes[j];
      if (runs >= budget.runs) break;
      runs++;
      await between?.();
      if (judgeFix(report, finding, fix.edits, await rerun(fix.edits)).ok) {
        verdicts[j] = true;
        break;
      }
    }
    out.push(verdicts);
  }
  return out;
}
