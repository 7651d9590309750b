// Small, deterministic inputs for ScoR's seven applications, in the format each one's main reads
// from standard input (`cin >>` or `scanf`). Sizes are a few thousand elements or edges: enough
// for every block to have work, small enough for a simulated run.
import { seededRandom } from '../../sims/values/random';


function ints(count: number, below: number, random: () => number): number[] {
  return Array.from({ length: count }, () => Math.floor(random() * below));
}

/** `V E` then E lines `u v`: distinct undirected edges between distinct vertices 0..V-1. */
function graph(vertices: number, edges: number, random: () => number): string {
  const seen = new Set<number>();
  const lines: string[] = [`${vertices} ${edges}`];
  while (lines.length <= edges) {
    const u = Math.floor(random() * vertices);
    const v = Math.floor(random() * vertices);
    if (u === v) continue;
    const key = Math.min(u, v) * vertices + Math.max(u, v);
    if (seen.has(key)) continue;
    seen.add(key);
    lines.push(`${u} ${v}`);
  }
  return lines.join('\n') + '\n';
}

/** Each application (by its folder's name) and the input its reader expects. */
export const SCOR_INPUTS: Record<string, { describe: string; make: () => string }> = {
  '1dconv': {
    describe: 'filterSize arraySize, then the filter and the array (floats): 9 and 4096',
    make: () => {
      const r = seededRandom(1);
      const filter = Array.from({ length: 9 }, () => (r() * 2 - 1).toFixed(2));
      const array = Array.from({ length: 4096 }, () => (r() * 10).toFixed(2));
      return `9 4096\n${filter.join(' ')}\n${array.join(' ')}\n`;
    },
  },
  'graph-coloring': {
    describe: 'V E, then E edges u v: 1024 vertices, 4096 edges',
    make: () => graph(1024, 4096, seededRandom(2)),
  },
  'graph-connectivity': {
    describe: 'V E, then E edges u v: 1024 vertices, 3072 edges',
    make: () => graph(1024, 3072, seededRandom(3)),
  },
  'matrix-multiplication': {
    // A row of A longer than a block (NTHREADS = 128) is shared by two blocks, which then add
    // into the same elements of C under the global locks (where the RACEY lines are); a 32-wide
    // row never is. 16 rows keep the work of 32×32 times 32×32.
    describe: 'rA cA cB, then A (rA×cA) and B (cA×cB) as integers: 16×256 times 256×32 (two blocks per row of C)',
    make: () => {
      const r = seededRandom(4);
      return `16 256 32\n${ints(16 * 256, 10, r).join(' ')}\n${ints(256 * 32, 10, r).join(' ')}\n`;
    },
  },
  reduction: {
    describe: 'size, then size integers: 4096',
    make: () => `4096\n${ints(4096, 100, seededRandom(5)).join(' ')}\n`,
  },
  'rule-110': {
    describe: 'size steps, then size cells of 0 or 1: 4096 cells, 4 steps',
    make: () => `4096 4\n${ints(4096, 2, seededRandom(6)).join(' ')}\n`,
  },
  uts: {
    // The steal stacks (where the RACEY lines are) fill only when a block's pending nodes overflow
    // its local stack (NTHREADS * 4 entries): a tree of height 5 never does, one of height 8 does.
    describe: 'maxHeight avgChildren, then the seed: per block a tree of height 8 with 3 children on average (about 3,300 nodes: more than a local stack holds, so blocks steal)',
    make: () => '8 3\n42\n',
  },
};
