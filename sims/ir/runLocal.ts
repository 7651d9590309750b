// Run-local registers. The front ends give every intermediate value a register of its own,
// and most of them are read only by the next steps of the same expression: in the block
// compiler's runs of pure steps (one loop over the lanes with the registers in locals), such a
// register's value never needs to reach the register file. A register is run-local when every
// read of it, anywhere in the function, follows a write of it in the same run of pure steps;
// then no step, terminator or later run ever reads the register file for it.
//
// That needs every reader known: pure steps and plain accesses name their registers, other
// steps where their emitter declared them (readingStep). A function with a step or terminator
// whose reads are unknown (a warp operation's closure, a call into the runtime that did not
// say) has none. The interpreter still writes these registers; nothing reads them, and the
// digests of a warp's state leave them out, so both ways of running see the same states —
// except in litmus exhaustion, which keeps every register (keepEveryRegister).
import { WARP, type CompiledFunction, type RunLocal, type Step, type Terminator } from './ir';

/** The function's run-local registers (found once, kept on the function). */
export function runLocal(f: CompiledFunction): RunLocal {
  return (f.runLocal ??= findRunLocal(f));
}

/**
 * Makes every register of `f` kept (none run-local) for the rest of its life, unless its
 * registers were already decided. A run that prunes schedules by their states' digests
 * (litmus exhaustion: each execution lowers its kernels afresh) does this before anything is
 * compiled: its digests then see every register, as generated code writes them all, which is
 * how its exploration was designed and measured (see docs/architecture.md).
 */
export function keepEveryRegister(f: CompiledFunction): void {
  f.runLocal ??= withKept(new Uint8Array(f.numRegs));
}

/** `local` with the indices of the other registers. */
function withKept(local: Uint8Array): RunLocal {
  const kept: number[] = [];
  for (let r = 0; r < local.length; r++) if (!local[r]) kept.push(r);
  return { local, kept: Int32Array.from(kept) };
}

function findRunLocal(f: CompiledFunction): RunLocal {
  const n = f.numRegs;
  const local = new Uint8Array(n);
  const written = new Uint8Array(n);
  const readElsewhere = new Uint8Array(n);
  let known = true;
  for (const b of f.blocks) {
    // Registers written so far in the current run of pure steps.
    const fresh = new Set<number>();
    for (const s of b.steps) {
      if (s.pure) {
        for (const r of s.pure.srcs) if (!fresh.has(r)) readElsewhere[r / WARP] = 1;
        fresh.add(s.pure.dst);
        written[s.pure.dst / WARP] = 1;
        continue;
      }
      fresh.clear();
      const reads = readsOf(s);
      if (!reads) known = false;
      else for (const r of reads) readElsewhere[r / WARP] = 1;
    }
    const reads = terminatorReads(b.term);
    if (!reads) known = false;
    else for (const r of reads) readElsewhere[r] = 1;
    if (!known) break;
  }
  if (f.returnReg !== undefined) readElsewhere[f.returnReg] = 1;
  if (known) for (let r = 0; r < n; r++) local[r] = written[r] & (readElsewhere[r] ^ 1);
  return withKept(local);
}

/** Offsets of the registers a step other than a pure one reads; undefined when unknown. */
function readsOf(s: Step): readonly number[] | undefined {
  const a = s.plain;
  if (!a) return s.reads;
  const reads = [a.ptr];
  // A load or an atomic writes `reg` (an atomic's old value); a store reads it.
  if (a.write && !a.rmw) reads.push(a.reg);
  if (a.rmw) reads.push(a.rmw.operand);
  if (a.rmw?.compare !== undefined) reads.push(a.rmw.compare);
  return reads;
}

/** Indices of the registers a terminator reads; undefined when unknown (a warp operation's closure). */
function terminatorReads(t: Terminator): readonly number[] | undefined {
  switch (t.kind) {
    case 'jump':
    case 'exit':
      return [];
    case 'branch':
      return [t.cond];
    case 'barrier':
      return t.pred === undefined ? [] : [t.pred];
    case 'collective':
      return undefined;
  }
}
