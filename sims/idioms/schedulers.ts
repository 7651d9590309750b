// The schedulers of Sorensen, Evrard and Donaldson, "GPU schedulers: how fair is fair
// enough?" (CONCUR 2018), with a block of the grid as the paper's thread. Each is named by
// which blocks it must keep running (its thread fairness criterion, §3 and §5):
//
//   fair      every unfinished block (weak fairness)
//   lobe      every block whose index is at most the highest index that has started
//   hsa+obe   the blocks of hsa and of obe together
//   hsa       the unfinished block with the lowest index
//   obe       every block that has started (executed at least one step)
//   unfair    none
//
// Figure 1 orders them by the programs they guarantee to terminate:
// unfair < {HSA, OBE} (incomparable) < HSA+OBE < LOBE < fair.

export const FAIRNESS_KINDS = ['fair', 'obe', 'hsa', 'hsa+obe', 'lobe', 'unfair'] as const;

export type Fairness = (typeof FAIRNESS_KINDS)[number];

export function isFairness(v: unknown): v is Fairness {
  return typeof v === 'string' && (FAIRNESS_KINDS as readonly string[]).includes(v);
}

/** How reports name a scheduler. */
export const FAIRNESS_NAMES: Record<Fairness, string> = { fair: 'fair', lobe: 'LOBE', 'hsa+obe': 'HSA+OBE', hsa: 'HSA', obe: 'OBE', unfair: 'unfair' };

const RANK: Record<Fairness, number> = { unfair: 0, hsa: 1, obe: 1, 'hsa+obe': 2, lobe: 3, fair: 4 };

/** Does `s` guarantee termination to every program `t` does (is it at least as fair)? */
export function atLeastAsFair(s: Fairness, t: Fairness): boolean {
  return s === t || RANK[s] > RANK[t];
}

/** The weakest scheduler at least as fair as both (HSA and OBE join at HSA+OBE). */
export function joinFairness(a: Fairness, b: Fairness): Fairness {
  if (atLeastAsFair(a, b)) return a;
  if (atLeastAsFair(b, a)) return b;
  return 'hsa+obe';
}

/** Schedulers in the order reports list them. */
const LISTED: Fairness[] = ['hsa', 'obe', 'hsa+obe', 'lobe', 'fair', 'unfair'];

/** For an idiom that needs `weakest`: the schedulers it terminates under, and those it may starve under. */
export function verdictSets(weakest: Fairness): { terminates: Fairness[]; starves: Fairness[] } {
  const terminates = LISTED.filter((s) => atLeastAsFair(s, weakest));
  return { terminates, starves: LISTED.filter((s) => !terminates.includes(s)) };
}

/** `a, b and c` */
export function listed(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
