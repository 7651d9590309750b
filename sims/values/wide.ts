// Exact 64-bit integers in a register file of doubles. A value whose magnitude is below 2^53
// is stored as itself; a larger one is stored as a "box": a double at or above 2^62 that
// indexes an interned table of BigInts. Boxes copy like any number, never collide with a
// plain value (plain values stay below 2^53), and 64-bit operations unbox, compute in BigInt
// and box again, so a 64-bit hash or LCG gives exactly the GPU's result.

const BOX_BASE = 2 ** 62;
/** Doubles near 2^62 are 1024 apart, so boxes are spaced by that. */
const BOX_STEP = 1024;
const SAFE = 2 ** 53;

const table: bigint[] = [];
const interned = new Map<bigint, number>();

export function isBoxed(x: number): boolean {
  return x >= BOX_BASE;
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
  }
  return BOX_BASE + i * BOX_STEP;
}

/** A register number as the exact integer it stands for (plain numbers are truncated). */
export function unbox(x: number): bigint {
  if (x >= BOX_BASE) return table[(x - BOX_BASE) / BOX_STEP];
  return BigInt(Number.isFinite(x) ? Math.trunc(x) : 0);
}

/** The value as a JS number (rounded beyond 2^53): for floats and printf's %f. */
export function plain(x: number): number {
  return x >= BOX_BASE ? Number(table[(x - BOX_BASE) / BOX_STEP]) : x;
}

/** Forgets the boxes of a finished run. */
export function resetWide(): void {
  table.length = 0;
  interned.clear();
}
