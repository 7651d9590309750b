// Run-local registers: which registers the block compiler may keep in locals only, and that
// the code it generates then leaves them out of the register file while every other register
// ends as the interpreter leaves it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileBlock } from '../../../sims/ir/compile';
import { plainAccessStep } from '../../../sims/ir/plainAccess';
import { pureStep, readingStep, WARP, type CompiledFunction, type Lanes, type Step, type Terminator } from '../../../sims/ir/ir';
import { keepEveryRegister, runLocal } from '../../../sims/ir/runLocal';
import { lowerKernel } from '../../support/lowerKernel';

const R = (r: number): number => r * WARP;

function functionOf(blocks: { steps: Step[]; term: Terminator }[], numRegs = 8, returnReg?: number): CompiledFunction {
  return {
    name: 'f',
    decl: undefined as never,
    blocks: blocks.map((b, id) => ({ id, ranges: [], ...b })),
    numRegs,
    paramRegs: [],
    paramTypes: [],
    frameSize: 0,
    sharedSize: 0,
    sharedLayout: [],
    ...(returnReg === undefined ? {} : { returnReg }),
  };
}

const localOf = (f: CompiledFunction): number[] => [...runLocal(f).local].flatMap((x, r) => (x ? [r] : []));

/** r0 = input; r1 = r0 + 1 (a temporary); r2 = r1 * 2; r3 = r3 + r2 (an accumulator); r4 = r2 - 1. */
const arithmetic = (): Step[] => [
  pureStep(R(1), [R(0)], ([x]) => `${x} + 1`),
  pureStep(R(2), [R(1)], ([x]) => `${x} * 2`),
  pureStep(R(3), [R(3), R(2)], ([a, b]) => `${a} + ${b}`),
  pureStep(R(4), [R(2)], ([x]) => `${x} - 1`),
];

describe('run-local registers', () => {
  test('a register every read of which follows its write in the same run is run-local; one read before, or elsewhere, is not', () => {
    // r3 is read before it is written (it accumulates); r4 is read by the branch.
    const f = functionOf([{ steps: arithmetic(), term: { kind: 'branch', cond: 4, then: 1, else: 1 } }, { steps: [], term: { kind: 'exit' } }]);
    assert.deepEqual(localOf(f), [1, 2]);
    assert.deepEqual([...runLocal(f).kept], [0, 3, 4, 5, 6, 7]);
  });

  test('a read in a later run of the block (after another step) or in another block is a read elsewhere', () => {
    const store = plainAccessStep(() => undefined, { write: true, reg: R(2), ptr: R(5), offset: 0, kind: 'i32' });
    const steps = [...arithmetic(), store, pureStep(R(6), [R(1)], ([x]) => `${x} + 3`)];
    const f = functionOf([{ steps, term: { kind: 'jump', to: 1 } }, { steps: [pureStep(R(7), [R(4)], ([x]) => x)], term: { kind: 'exit' } }]);
    // r1 is read after the store (a new run), r2 by the store, r4 by the second block.
    assert.deepEqual(localOf(f), [6, 7]);
  });

  test("an atomic's old value is written, its operand read; a load's destination is written", () => {
    const atomic = plainAccessStep(() => undefined, { write: true, reg: R(1), ptr: R(5), offset: 0, kind: 'i32', rmw: { op: 'add', operand: R(2) } });
    const load = plainAccessStep(() => undefined, { write: false, reg: R(3), ptr: R(5), offset: 0, kind: 'i32' });
    const f = functionOf([{ steps: [pureStep(R(2), [], () => '1'), atomic, load, pureStep(R(4), [R(1), R(3)], ([a, b]) => `${a} + ${b}`)], term: { kind: 'exit' } }]);
    assert.deepEqual(localOf(f), [4]);
  });

  test('a step of unknown reads (or a warp operation) leaves the function none; a step that declares its reads does not', () => {
    const unknown = (): void => undefined;
    assert.deepEqual(localOf(functionOf([{ steps: [...arithmetic(), unknown], term: { kind: 'exit' } }])), []);
    const declared = readingStep(() => undefined, [R(1)]);
    assert.deepEqual(localOf(functionOf([{ steps: [...arithmetic(), declared], term: { kind: 'exit' } }])), [2, 4]);
    const shuffle: Terminator = { kind: 'collective', to: 1, range: undefined as never, run: () => undefined };
    assert.deepEqual(localOf(functionOf([{ steps: arithmetic(), term: shuffle }, { steps: [], term: { kind: 'exit' } }])), []);
  });

  test("the function's return value and a barrier's predicate are read elsewhere", () => {
    const steps = [...arithmetic(), pureStep(R(5), [R(4)], ([x]) => x)];
    assert.deepEqual(localOf(functionOf([{ steps, term: { kind: 'barrier', to: 1, range: undefined as never, reduce: 'count', pred: 4, dst: 6 } }, { steps: [], term: { kind: 'exit' } }], 8, 5)), [1, 2]);
  });

  test('the generated block writes back every register but the run-local ones, with the values the interpreter computes', () => {
    const f = functionOf([{ steps: arithmetic(), term: { kind: 'branch', cond: 4, then: 1, else: 1 } }, { steps: [], term: { kind: 'exit' } }]);
    const make = (): Lanes => {
      const w: Lanes = { regs: new Float64Array(8 * WARP), frame: new Float64Array(WARP), tid: [new Int32Array(WARP), new Int32Array(WARP), new Int32Array(WARP)], warp: 0, ctx: {} as Lanes['ctx'] };
      for (let l = 0; l < WARP; l++) {
        w.regs[R(0) + l] = l;
        w.regs[R(3) + l] = 100 * l;
      }
      return w;
    };
    const compiled = make();
    const interpreted = make();
    const group = Int32Array.from({ length: WARP }, (_, i) => i);
    compileBlock(f.blocks[0], runLocal(f).local)(compiled, group, WARP);
    for (const s of f.blocks[0].steps) for (let l = 0; l < WARP; l++) s(interpreted, l);
    const lane = (w: Lanes, r: number): number[] => [...w.regs.subarray(R(r), R(r) + WARP)];
    for (const r of [0, 3, 4]) assert.deepEqual(lane(compiled, r), lane(interpreted, r), `register ${r}`);
    for (const r of [1, 2]) assert.ok(lane(compiled, r).every((x) => x === 0), `run-local register ${r} stays unwritten`);
    assert.ok(lane(interpreted, 2).some((x) => x !== 0), 'the interpreter writes it');
  });

  test('a function made to keep every register has none run-local; one whose registers were decided keeps them', () => {
    const f = functionOf([{ steps: arithmetic(), term: { kind: 'exit' } }]);
    keepEveryRegister(f);
    assert.deepEqual(localOf(f), []);
    assert.deepEqual([...runLocal(f).kept], [0, 1, 2, 3, 4, 5, 6, 7]);
    const decided = functionOf([{ steps: arithmetic(), term: { kind: 'exit' } }]);
    const before = localOf(decided);
    keepEveryRegister(decided);
    assert.deepEqual(localOf(decided), before);
    assert.ok(before.length > 0);
  });

  test('in a lowered kernel the temporaries of an expression are run-local and its variables are not', () => {
    const f = lowerKernel(`__global__ void k(int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int a = t;
  for (int i = 0; i < 10; i++) a = a * 3 + (a >> 2);
  out[t] = a;
}`);
    const { local, kept } = runLocal(f);
    const count = local.reduce((n, x) => n + x, 0);
    assert.ok(count >= 4, `${count} run-local registers`);
    assert.equal(count + kept.length, f.numRegs);
    // Every register a branch, a store or the parameter reads is kept.
    for (const b of f.blocks) {
      if (b.term.kind === 'branch') assert.equal(local[b.term.cond], 0);
      for (const s of b.steps) if (s.plain) assert.equal(local[s.plain.ptr / WARP], 0);
    }
    for (const p of f.paramRegs) assert.equal(local[p], 0);
  });
});
