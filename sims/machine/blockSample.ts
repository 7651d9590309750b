// Which blocks of a grid a launch simulates. By default every one, in index order. A grid too
// big to simulate whole within the run's budget can run a sample instead: the first block, the
// last, and a seeded random set between them, still in index order and still made resident as
// the device's occupancy allows. A race among the simulated blocks is a real race; one that
// needs a block left out is not seen.
import { seededRandom } from '../values/random';

/** How a launch samples its blocks (GridOptions.sampleBlocks). */
export interface BlockSampling {
  /** Blocks to simulate of a grid that has more (at least 2: the first and the last). */
  blocks: number;
  /**
   * Sample only a grid that would not finish within its step budget (projected from the
   * blocks run so far, when the first one finishes) or that has more threads than the
   * simulator runs at once; the blocks already started count among the simulated. Without
   * it, every grid with more blocks than `blocks` is sampled from the start.
   */
  whenOverBudget?: boolean;
}

/** What a sampled launch simulated (GridOutcome.sampled). */
export interface SampledLaunch {
  simulated: number;
  blocks: number;
}

/** The blocks still to start, in the order they start. */
export class BlockQueue {
  private taken = 0;
  /** After sampling: the blocks chosen to run, in index order, and how many have started. */
  private chosen?: number[];
  private next = 0;

  constructor(readonly blocks: number) {}

  /** Blocks started so far. */
  get started(): number {
    return this.taken;
  }

  get remaining(): number {
    return this.chosen ? this.chosen.length - this.next : this.blocks - this.taken;
  }

  /** Blocks this launch runs in all: every one, or the sample. */
  get simulated(): number {
    return this.taken + this.remaining;
  }

  get sampled(): boolean {
    return this.chosen !== undefined && this.simulated < this.blocks;
  }

  take(): number {
    this.taken++;
    return this.chosen ? this.chosen[this.next++] : this.taken - 1;
  }

  /**
   * The blocks not yet started become a sample, so that `total` blocks run in all (those
   * started count, so at least one more runs): the first block (unless it started), the last,
   * then seeded random ones between, in index order.
   */
  sampleRest(total: number, seed: number): void {
    if (this.chosen || total >= this.blocks || this.taken >= this.blocks) return;
    const last = this.blocks - 1;
    const picked = new Set<number>([last]);
    if (this.taken === 0) picked.add(0);
    const first = this.taken === 0 ? 1 : this.taken;
    const pool = last - first;
    // Floyd's algorithm: k distinct blocks of [first, last), each subset equally likely.
    const random = seededRandom(seed);
    const k = Math.max(0, Math.min(total - this.taken - picked.size, pool));
    for (let j = pool - k; j < pool; j++) {
      const t = first + Math.floor(random() * (j + 1));
      picked.add(picked.has(t) ? first + j : t);
    }
    this.chosen = [...picked].sort((a, b) => a - b);
    this.next = 0;
  }
}
