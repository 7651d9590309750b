// Loops of register arithmetic, run lane by lane. A loop whose blocks only compute registers
// (pure steps, jumps and branches) reads no memory, writes none and emits nothing: in which
// order its lanes run it cannot be seen. So each lane can run its iterations back to back
// with its registers in locals, instead of the warp running each block for every lane and
// going through the register file between blocks.
//
// What must stay as the executor has it is the warp's schedule: a converged warp's turn is a
// number of blocks, and the warp splits where its lanes branch apart. The lane-by-lane run is
// therefore a speculation that the warp stays converged: lane 0 records the blocks it runs,
// every other lane must run the very same blocks, and only then are the lanes' registers
// written back — exactly what the warp, running those blocks together, would have left. A lane
// that goes elsewhere ends the attempt with nothing written, and the warp runs the loop block
// by block, where it splits as before. The interpreter (the reference) never takes this path;
// the differential test holds both to the same events, steps and results.
import { registerOnly, successors, WARP, type Block, type CompiledFunction } from './ir';

/** A loop of pure blocks: the blocks of one strongly connected part of the pure blocks' graph. */
export interface PureLoop {
  blocks: readonly Block[];
  /** Register offsets the loop reads or writes (loaded into locals per lane). */
  used: readonly number[];
  /** Register offsets it writes (kept aside per lane, written back once every lane agreed). */
  written: readonly number[];
}

/**
 * The loops of pure blocks (strongly connected parts with a cycle), by Tarjan's algorithm on
 * the graph of pure blocks, iteratively (a generated kernel may have thousands of blocks).
 */
export function pureLoops(f: CompiledFunction): PureLoop[] {
  const blocks = f.blocks;
  const pure = blocks.map(registerOnly);
  const next = blocks.map((b, i) => (pure[i] ? successors(b.term).filter((s) => pure[s]) : []));
  const index = new Int32Array(blocks.length).fill(-1);
  const low = new Int32Array(blocks.length);
  const onStack = new Uint8Array(blocks.length);
  const stack: number[] = [];
  const loops: PureLoop[] = [];
  let counter = 0;
  for (let root = 0; root < blocks.length; root++) {
    if (!pure[root] || index[root] >= 0) continue;
    // Frames of the depth-first walk: a block and how many of its successors were visited.
    const walk: [number, number][] = [[root, 0]];
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (walk.length) {
      const frame = walk[walk.length - 1];
      const [v, k] = frame;
      if (k < next[v].length) {
        frame[1]++;
        const s = next[v][k];
        if (index[s] < 0) {
          index[s] = low[s] = counter++;
          stack.push(s);
          onStack[s] = 1;
          walk.push([s, 0]);
        } else if (onStack[s]) low[v] = Math.min(low[v], index[s]);
        continue;
      }
      walk.pop();
      if (walk.length) {
        const parent = walk[walk.length - 1][0];
        low[parent] = Math.min(low[parent], low[v]);
      }
      if (low[v] !== index[v]) continue;
      const part: number[] = [];
      let s: number;
      do {
        s = stack.pop()!;
        onStack[s] = 0;
        part.push(s);
      } while (s !== v);
      if (part.length > 1 || next[v].includes(v)) loops.push(loopOf(part.sort((a, b) => a - b).map((i) => blocks[i])));
    }
  }
  return loops;
}

function loopOf(blocks: Block[]): PureLoop {
  const used = new Set<number>();
  const written = new Set<number>();
  for (const b of blocks) {
    for (const s of b.steps) {
      for (const r of s.pure!.srcs) used.add(r);
      used.add(s.pure!.dst);
      written.add(s.pure!.dst);
    }
    if (b.term.kind === 'branch') used.add(b.term.cond * WARP);
  }
  return { blocks, used: [...used].sort((a, b) => a - b), written: [...written].sort((a, b) => a - b) };
}

/**
 * The JS text of loop `k`'s lane-by-lane run, as a function `loop<k>(w, g, n, pc, limit)` in
 * the converged run's scope (which declares `T`, the trajectory, and `K`, the constants):
 * returns the number of blocks the warp ran together (their ids, after the first, and the
 * block it goes to, are in `T`), or 0 when a lane left lane 0's path (nothing written).
 *
 * Lane 0 runs first and records every block it goes to. The other lanes check only at
 * branches: after a jump the next block is the same for every lane that stood at the same one.
 * A lane whose registers all hold 32-bit integers (most loops count and index) runs a copy of
 * the loop that reads them with `| 0`: the same numbers, but V8 then keeps the loop's values
 * as machine integers instead of doubles, several times faster. Any other lane (a float, an
 * unsigned above 2^31, -0) runs the copy that reads them as they are.
 */
export function loopSource(loop: PureLoop, k: number, lit: (value: unknown) => string, local?: Uint8Array): string {
  const v = (offset: number): string => `v${offset}`;
  // Run-local registers (runLocal.ts) live only in the lane's locals: each is written before it
  // is read, and nothing reads it afterwards, so it is neither loaded nor written back.
  const isLocal = (r: number): boolean => !!local?.[r / WARP];
  const written = loop.written.filter((d) => !isLocal(d));
  const loaded = loop.used.filter((r) => !isLocal(r));
  // A block whose successor is the next case falls through into it (one dispatch per trip
  // round a loop, not one per block); any other successor goes back through the switch.
  const cases = (after: (branch: boolean) => string): string =>
    loop.blocks
      .map((b, j) => {
        const body = b.steps.map((s) => `${v(s.pure!.dst)} = ${s.pure!.expr(s.pure!.srcs.map(v), lit)};`);
        const t = b.term;
        const go = t.kind === 'jump' ? `pc = ${t.to};` : t.kind === 'branch' ? `pc = ${v(t.cond * WARP)} ? ${t.then} : ${t.else};` : '';
        const next = loop.blocks[j + 1]?.id;
        const falls = next !== undefined && (t.kind === 'jump' ? t.to === next : t.kind === 'branch' && (t.then === next || t.else === next));
        const leave = !falls ? 'continue run;' : t.kind === 'jump' ? 'if (k >= limit) continue run;' : `if (pc !== ${next} || k >= limit) continue run;`;
        return `case ${b.id}: {\n${body.join('\n')}\n${go}\n${after(t.kind === 'branch')}k++;\n${leave}\n}`;
      })
      .join('\n');
  const lane = (load: (r: number) => string, after: (branch: boolean) => string, end: string): string => `{
  ${loop.used.map((r) => `let ${v(r)} = ${isLocal(r) ? '0' : load(r)};`).join('\n  ')}
  let pc = pc0, k = 0;
  run: while (k < limit) {
    switch (pc) {
${cases(after)}
      default: break run;
    }
  }
  ${end}
  ${written.map((d, j) => `D[${j * WARP} + l] = ${v(d)};`).join('\n  ')}
}`;
  const plain = (r: number): string => `R[${r} + l]`;
  const record = (): string => 'Tr[k] = pc;\n';
  const check = (branch: boolean): string => (branch ? 'if (Tr[k] !== pc) return 0;\n' : '');
  const int32 = loaded.map((r) => `(x = R[${r} + l], (x | 0) === x && (x !== 0 || 1 / x > 0))`).join(' && ') || 'true';
  const checked = 'if (k !== blocks) return 0;';
  return `const D${k} = new Float64Array(${Math.max(1, written.length) * WARP});
function loop${k}(w, g, n, pc0, limit) {
const R = w.regs;
const D = D${k};
if (T.length < limit) T = new Int32Array(limit);
const Tr = T;
let blocks = 0, x = 0, l = g[0];
${lane(plain, record, 'blocks = k;')}
for (let i = 1; i < n; i++) {
  l = g[i];
  if (${int32}) ${lane((r) => `R[${r} + l] | 0`, check, checked)}
  else ${lane(plain, check, checked)}
}
for (let i = 0; i < n; i++) {
  l = g[i];
  ${written.map((d, j) => `R[${d} + l] = D[${j * WARP} + l];`).join('\n  ')}
}
return blocks;
}`;
}
