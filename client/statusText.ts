// What the status bar item says for a document's last analysis state (no VS Code API here, so
// the wording is tested on its own).
import type { AnalysisStateParams } from '../server/protocol';

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

export function statusOf(s: AnalysisStateParams | undefined): { text: string; tooltip: string } {
  if (!s) return { text: '$(circle-outline) ScoRD', tooltip: 'ScoRD: not analysed yet' };
  if (s.state === 'running') return { text: '$(sync~spin) ScoRD', tooltip: 'ScoRD: running the program…' };
  if (s.state === 'stopped') return { text: '$(debug-pause) ScoRD: stopped', tooltip: `ScoRD: the last run stopped (${s.reason ?? 'edited'})` };
  if (s.notRun) {
    const why = s.notRun === 'syntax' ? 'syntax errors' : 'compile errors';
    return { text: `$(circle-slash) ScoRD: not analysed`, tooltip: `ScoRD: not analysed: ${why} (see Problems); the races shown are from the last run that could start` };
  }
  const races = s.races ?? 0;
  const others = (s.findings ?? 0) - races;
  const counted = races ? `$(bug) ScoRD: ${plural(races, 'race')}` : '$(check) ScoRD: no races';
  const found = races || others ? `${plural(races, 'race')}${others ? ` and ${plural(others, 'other finding')}` : ''}` : 'no races or other findings';
  const tooltip = `ScoRD: ${found} in ${(s.elapsedMs ?? 0).toFixed(1)} ms — click for the metadata inspector`;
  const sampled = s.sampled;
  if (!sampled) return { text: counted, tooltip };
  // A sampled run saw only some blocks: the count alone would claim more than it checked.
  const blocks = `simulated ${sampled.simulated.toLocaleString('en-US')} of ${sampled.blocks.toLocaleString('en-US')} blocks`;
  const more = sampled.launches > 1 ? ` (${sampled.launches} launches sampled)` : '';
  return {
    text: `${counted} · ${blocks}`,
    tooltip: `${tooltip}\n${blocks} of ${sampled.kernel}${more}: the grid would not finish within the step budget (scord.simulator.stepBudget), so races that need one of the other blocks are not seen`,
  };
}
