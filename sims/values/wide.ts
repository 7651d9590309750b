// Exact 64-bit integers in a register file of doubles. A value whose magnitude is below 2^53
// is stored as itself; a larger one is stored as a "box": a double just above 2^62 that
// indexes an interned table of BigInts. Boxes copy like any number and 64-bit operations unbox,
// compute in BigInt and box again, so a 64-bit hash or LCG gives exactly the GPU's result.
//
// Registers hold floats too, and a float may be as large as a box (FLT_MAX, 1e30f, infinity):
// only the doubles of boxes made in this run are boxes, and they start one step above 2^62, so
// no float value is one (a float near 2^62 is a multiple of 2^39; the first box that is one
// is the 2^29-th) and a double is one only if it is exactly one of the few made so far.

/** Doubles near 2^62 are 1024 apart, so boxes are spaced by that. */
const BOX_STEP = 1024;
const BOX_BASE = 2 ** 62 + BOX_STEP;
const SAFE = 2 ** 53;

const table: bigint[] = [];
const interned = new Map<bigint, number>();
/** One step past the last box made. */
let boxEnd = BOX_BASE;

export function isBoxed(x: number): boolean {
  return x >= BOX_BASE && x < boxEnd;
}

/** A 64-bit value as a register number. */
export function box(v: bigint): number {
  const n = Number(v);
  if (n > -SAFE && n < SAFE) return n;
  let i = interned.get(v);
  if (i === undefined) {
    i = table.length;
    table.push(v);
    interned.set(v, i);
    boxEnd = BOX_BASE + table.length * BOX_STEP;
  }
  return BOX_BASE + i * BOX_STEP;
}

/** A register number as the exact integer it stands for (plain numbers are truncated; NaN and infinities give 0). */
export function unbox(x: number): bigint {
  if (isBoxed(x)) return table[(x - BOX_BASE) / BOX_STEP];
  return BigInt(Number.isFinite(x) ? Math.trunc(x) : 0);
}

/** The value as a JS number (rounded beyond 2^53): for floats and printf's %f. */
export function plain(x: number): number {
  return isBoxed(x) ? Number(table[(x - BOX_BASE) / BOX_STEP]) : x;
}

/** Forgets the boxes of a finished run. */
export function resetWide(): void {
  table.length = 0;
  interned.clear();
  boxEnd = BOX_BASE;
}
