// Immediate post-dominators of a compiled function's blocks: where diverged lanes of a warp
// meet again under pre-Volta SIMT execution (the reconvergence point of the PDOM stack).
import { successors, type CompiledFunction } from './ir';

const cache = new WeakMap<CompiledFunction, Int32Array>();

/** ipdom[b] = the block that post-dominates b most closely, or -1 for the virtual exit. */
export function immediatePostDominators(fn: CompiledFunction): Int32Array {
  const cached = cache.get(fn);
  if (cached) return cached;
  const n = fn.blocks.length;
  const EXIT = n; // a virtual node every exiting block leads to
  const succ: number[][] = fn.blocks.map((b) => (b.term.kind === 'exit' ? [EXIT] : successors(b.term)));
  // Post-dominators are dominators of the reversed graph, rooted at the exit. Iterate in
  // reverse post-order of that graph (Cooper, Harvey and Kennedy's algorithm).
  const pred: number[][] = Array.from({ length: n + 1 }, () => []);
  succ.forEach((ss, b) => ss.forEach((s) => pred[s].push(b)));
  const order: number[] = [];
  const seen = new Uint8Array(n + 1);
  const stack: [number, number][] = [[EXIT, 0]];
  seen[EXIT] = 1;
  while (stack.length) {
    const top = stack[stack.length - 1];
    const ps = pred[top[0]];
    if (top[1] < ps.length) {
      const p = ps[top[1]++];
      if (!seen[p]) {
        seen[p] = 1;
        stack.push([p, 0]);
      }
    } else {
      order.push(top[0]);
      stack.pop();
    }
  }
  const rpo = order.reverse();
  const index = new Int32Array(n + 1).fill(-1);
  rpo.forEach((b, i) => (index[b] = i));
  const idom = new Int32Array(n + 1).fill(-1);
  idom[EXIT] = EXIT;
  const intersect = (a: number, b: number): number => {
    while (a !== b) {
      while (index[a] > index[b]) a = idom[a];
      while (index[b] > index[a]) b = idom[b];
    }
    return a;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (const b of rpo) {
      if (b === EXIT) continue;
      let best = -1;
      for (const s of succ[b]) {
        if (idom[s] === -1 || index[s] === -1) continue;
        best = best === -1 ? s : intersect(s, best);
      }
      if (best !== -1 && idom[b] !== best) {
        idom[b] = best;
        changed = true;
      }
    }
  }
  const result = new Int32Array(n);
  for (let b = 0; b < n; b++) result[b] = idom[b] === EXIT || idom[b] === -1 ? -1 : idom[b];
  cache.set(fn, result);
  return result;
}
