// Lanes of one store instruction in lockstep warps (--warp-sync, lockstep scheduling).
//
// A lockstep warp is one accessor to the detector: its lanes are ordered instruction by
// instruction. They are not ordered within one instruction: when several lanes of a store write
// one location, "which thread performs the final write is undefined" (CUDA C++ Programming
// Guide, compute capabilities, global and shared memory), on every GPU, lockstep or not. This
// keeps, for each warp, the words its current store instruction wrote and which lane wrote each,
// so the second lane to write a word is found.
//
// An instruction is told from the next by its accesses: the same site, the same kind (load or
// store), and lanes not seen yet in it, each lane's accesses together (a copy is several). A lane seen again, another site or kind, or the warp
// diverging or meeting at a barrier starts the next one; each event of the warp tells which.
import type { Range } from '../frontend/source';
import type { SimEvent } from '../ir/ir';
import { warpKey, WARPS_PER_BLOCK } from './lanes';

type Access = Extract<SimEvent, { kind: 'access' }>;

/** The lane of the current instruction that wrote a word first, and the value it left. */
export interface EarlierLane {
  lane: number;
  value: number;
}

interface Instruction {
  range: Range;
  write: boolean;
  /** Bit l: lane l has made its access. */
  lanes: number;
  /** The lane of the last access: a lane's accesses of one instruction come together (a copy's bytes). */
  last: number;
  /** Word address → the lane that wrote it, with the bytes (bits 0-3) it wrote, and its value. */
  words: Map<number, { lane: number; bytes: number; value: number }>;
}

export class LockstepStores {
  private readonly warps = new Map<number, Instruction>();
  /** The instruction of the last access, while it is a plain store. */
  private store: Instruction | undefined;

  /**
   * An access of a lockstep warp: places it in its warp's instruction. True for a plain store,
   * whose words `written` then checks one by one.
   */
  access(e: Access): boolean {
    const key = warpKey(e.block, e.warp);
    const write = e.write && e.atomic === undefined;
    let at = this.warps.get(key);
    const bit = 1 << e.lane;
    if (!at || at.range !== e.range || at.write !== write || ((at.lanes & bit) !== 0 && at.last !== e.lane)) {
      if (at) {
        at.range = e.range;
        at.write = write;
        at.lanes = 0;
        at.words.clear();
      } else this.warps.set(key, (at = { range: e.range, write, lanes: 0, last: e.lane, words: new Map() }));
    }
    at.lanes |= bit;
    at.last = e.lane;
    this.store = write ? at : undefined;
    return write;
  }

  /**
   * A word (4-byte address) the last access, a plain store by `lane`, wrote: the earlier lane
   * of the same instruction that wrote one of the same bytes, if one did. `value`: the word after it.
   */
  written(lane: number, word: number, bytes: number, value: number): EarlierLane | undefined {
    const words = this.store?.words;
    if (!words) return undefined;
    const earlier = words.get(word);
    if (!earlier) {
      words.set(word, { lane, bytes, value });
      return undefined;
    }
    if (earlier.lane !== lane && (earlier.bytes & bytes) !== 0) return { lane: earlier.lane, value: earlier.value };
    return undefined;
  }

  /** The warp's lanes went separate ways, met again, or met at a barrier: its instruction is over. */
  end(block: number, warp: number): void {
    this.warps.delete(warpKey(block, warp));
  }

  /** A barrier: every warp of the block is at a new instruction. */
  endBlock(block: number): void {
    for (let w = 0; w < WARPS_PER_BLOCK; w++) this.warps.delete(warpKey(block, w));
  }
}
