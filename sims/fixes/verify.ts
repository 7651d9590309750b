// Whether a fix did what it promised: after its edits, a re-run no longer reports the race it
// was made for and reports nothing the original run did not (offsets moved by the edits are
// mapped back first). The language server checks preferred fixes with this before offering
// them as preferred; the fix property test holds every preferred fix to it.
import type { CheckFinding, CheckReport } from '../check';
import type { TextEdit } from './fixes';

/** Where an offset of the text before `edits` lands after them. */
export function mapOffset(offset: number, edits: TextEdit[]): number {
  let shift = 0;
  for (const e of edits) {
    const delta = e.newText.length - (e.range.end.offset - e.range.start.offset);
    if (e.range.start.offset === e.range.end.offset ? offset >= e.range.start.offset : offset >= e.range.end.offset) shift += delta;
    else if (offset > e.range.start.offset) shift += e.range.start.offset - offset;
  }
  return offset + shift;
}

/** A finding as `category@file#offset|file#relatedOffset`, with offsets mapped through the edits of their file. */
export function findingKey(f: CheckFinding, edits: TextEdit[] = []): string {
  if (!f.range) return `${f.kind}: ${f.message}`;
  const related = f.relatedRanges?.[0];
  // Edits move offsets only in their own file (a fix may edit a header).
  const at = (r: NonNullable<CheckFinding['range']>) => `${r.file}#${mapOffset(r.start.offset, edits.filter((e) => e.range.file === r.file))}`;
  return `${f.category}@${at(f.range)}|${related ? at(related) : '-'}`;
}

export interface FixOutcome {
  /** The race is gone and nothing new appeared. */
  ok: boolean;
  /** Findings after the fix that the original run did not have. */
  added: string[];
  /** The fixed finding is still reported. */
  remains: boolean;
}

export function judgeFix(before: CheckReport, finding: CheckFinding, edits: TextEdit[], after: CheckReport): FixOutcome {
  if (!after.analysed) return { ok: false, added: after.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message), remains: false };
  const old = new Set(before.findings.map((f) => findingKey(f, edits)));
  // A pair of instructions is reported once, in its most serious category: its race between
  // lanes of one warp, or its same-value writes, were counted with that finding. Once the fix
  // removes it they show on their own: an intra-warp race of the fixed pair is the race still
  // there (a fence that satisfies the cross-warp rule does not order lanes of one warp either);
  // either kind on any other old pair is not new.
  const pair = (k: string) => k.slice(k.indexOf('@') + 1);
  const bothWays = (k: string) => [pair(k), pair(k).split('|').reverse().join('|')];
  const category = (k: string) => k.slice(0, k.indexOf('@'));
  // The same two instructions in the other order (the fix changed which thread ran first) are the same race.
  const sameRace = (k: string) => (k.includes('@') ? bothWays(k).map((p) => `${category(k)}@${p}`) : [k]);
  const oldRaces = new Set([...old].flatMap(sameRace));
  const oldPairs = new Set([...old].flatMap(bothWays));
  const fixed = findingKey(finding, edits);
  const fixedRace = new Set(sameRace(fixed));
  const fixedPair = new Set(bothWays(fixed));
  const now = after.findings.map((f) => findingKey(f));
  const remains = now.some((k) => fixedRace.has(k) || (k.startsWith('intra-warp@') && fixedPair.has(pair(k))));
  const added = now.filter((k) => !oldRaces.has(k) && !(/^(benign-same-value|intra-warp)@/.test(k) && oldPairs.has(pair(k))));
  return { ok: !remains && added.length === 0, added, remains };
}
