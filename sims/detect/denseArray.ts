// Arrays indexed by small integers that arrive with gaps: allocation ids (every block's shared
// memory takes one, so a program's ids climb into the tens of thousands) and the block indices
// of a sampled grid. V8 stores an array whose index jumps far past its end as a dictionary, and
// every lookup in it is then a hash probe. Growing the length in steps below the jump that
// makes it a dictionary keeps a flat array with holes: what forEach, map and flatMap skip is
// what they skipped before, at eight bytes an index.

/** Grows the length at most this much at a time (V8 turns an array into a dictionary at a jump of 1,024). */
const STEP = 512;

/** Sets `array[index] = value`, the gap before it left as holes in a flat array; returns `value`. */
export function setDense<T>(array: (T | undefined)[], index: number, value: T): T {
  while (array.length < index) array.length = Math.min(index, array.length + STEP);
  array[index] = value;
  return value;
}
