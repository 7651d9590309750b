// Independent thread scheduling (ScoRD §VI): lanes of one warp are ordered by program order
// while the warp is converged; once it diverges, two different lanes that access memory in
// the same divergence (epoch, -1 while converged) are unordered until a barrier or __syncwarp.
import { MAX_BLOCK_THREADS } from '../machine/executor';

export function unorderedLanes(laneA: number, divergenceA: number, laneB: number, divergenceB: number): boolean {
  return laneA !== laneB && divergenceA >= 0 && divergenceA === divergenceB;
}

/** Warps per block the detectors' per-warp tables allow for: the simulator's largest block. */
export const WARPS_PER_BLOCK = MAX_BLOCK_THREADS / 32;

/** A warp's key in the detectors' per-warp tables: unique within a launch. */
export function warpKey(block: number, warp: number): number {
  return block * WARPS_PER_BLOCK + warp;
}

/** Two accesses (or an access and a record) of one thread. */
export function sameThread(a: { block: number; warp: number; lane: number }, b: { block: number; warp: number; lane: number }): boolean {
  return a.block === b.block && a.warp === b.warp && a.lane === b.lane;
}
