// The built-in litmus library (examples/litmus/*.cu) against the memory models: every file's
// declared outcome must be allowed or forbidden under each model exactly as the file's verdict
// lines say, found by exhaustive exploration that finished; random runs must stay inside what
// exhaustive exploration allows; and the verdicts in the files must be Table 4.2 of Sorensen's
// thesis (seed 003), so that neither the files nor the models can drift from it unnoticed.
import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from '../../sims/frontend/index';
import { runProgram } from '../../sims/host/run';
import { declaredOutcomes, runLitmus } from '../../sims/litmus/run';
import { type LitmusReport } from '../../sims/litmus/types';
import { MEMORY_MODELS, type MemoryModelName } from '../../sims/gpu/memoryModels';

const DIR = path.resolve(__dirname, '../../examples/litmus');
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.cu')).sort();

type Verdict = 'allowed' | 'forbidden';

interface Header {
  title: string;
  outcomes: string[];
  verdicts: Partial<Record<MemoryModelName, Verdict>>;
}

/** The comment lines a library file starts with (up to its first line of code). */
function header(text: string): Header {
  const h: Header = { title: '', outcomes: [], verdicts: {} };
  for (const line of text.split('\n')) {
    if (!line.startsWith('//')) break;
    const title = /^\/\/ litmus: (.+)$/.exec(line);
    if (title) h.title = title[1]!;
    const outcome = /^\/\/ outcome: (.+)$/.exec(line);
    if (outcome) h.outcomes.push(outcome[1]!);
    const verdict = /^\/\/ verdict ([\w-]+): (\w+)$/.exec(line);
    if (verdict) {
      assert.ok((MEMORY_MODELS as readonly string[]).includes(verdict[1]!), `unknown model in "${line}"`);
      assert.ok(verdict[2] === 'allowed' || verdict[2] === 'forbidden', `a verdict is allowed or forbidden: "${line}"`);
      h.verdicts[verdict[1] as MemoryModelName] = verdict[2] as Verdict;
    }
  }
  return h;
}

/**
 * Table 4.2 of the thesis ("The results of the litmus tests when ran on the models"), row by
 * row: ✓ guaranteed, × not allowed, ? allowed but not guaranteed; and the library files that
 * test each row. A violation that is not allowed (×), or whose absence is guaranteed (✓),
 * is a forbidden outcome; ? is an allowed one.
 */
type Mark = '✓' | '×' | '?';
const TABLE_4_2: { row: string; weak: Mark; strong: Mark; files: string[] }[] = [
  { row: 'Classical Coherence Violation (inter and intra block)', weak: '?', strong: '×', files: ['coherence-classic-intra.cu', 'coherence-classic-inter.cu'] },
  { row: 'Relaxed Coherence Violation (inter and intra block)', weak: '×', strong: '×', files: ['coherence-relaxed-intra.cu', 'coherence-relaxed-inter.cu'] },
  { row: 'Simple Visibility Across Shared Memory With No Fence', weak: '?', strong: '?', files: ['visibility-shared-nofence.cu'] },
  { row: 'Simple Visibility Across Shared Memory With TFB', weak: '✓', strong: '✓', files: ['visibility-shared-tfb.cu'] },
  { row: 'Simple Visibility Across Shared Memory With TF', weak: '✓', strong: '✓', files: ['visibility-shared-tf.cu'] },
  { row: 'Simple Visibility Across Global Memory With No Fence (inter and intra block)', weak: '?', strong: '?', files: ['visibility-global-intra-nofence.cu', 'visibility-global-inter-nofence.cu'] },
  { row: 'Simple Visibility Across Global Memory With TFB (intra block)', weak: '✓', strong: '✓', files: ['visibility-global-intra-tfb.cu'] },
  { row: 'Simple Visibility Across Global Memory With TFB (inter block)', weak: '?', strong: '?', files: ['visibility-global-inter-tfb.cu'] },
  { row: 'Simple Visibility Across Global Memory With TF (inter and intra block)', weak: '✓', strong: '✓', files: ['visibility-global-intra-tf.cu', 'visibility-global-inter-tf.cu'] },
  { row: 'Write Atomicity Violation IRIW (inter and intra block)', weak: '?', strong: '×', files: ['iriw-intra.cu', 'iriw-inter.cu'] },
];

/** Library files beyond the table, and where their verdicts come from. */
const EXTRAS: Record<string, string> = {
  'atomic-block-lost-update.cu': 'ScoRD: a block-scope atomic is atomic only within its block (scoped atomic race)',
  'atomic-device-add.cu': 'ScoRD: the device-scope fix of atomic-block-lost-update.cu',
  'mp-volatile-tfb.cu': 'message passing: global visibility across blocks with TFB (a table row, with a spin loop)',
  'mp-volatile-tf.cu': 'message passing: global visibility with TF (a table row, with a spin loop)',
};

const toVerdict = (m: Mark): Verdict => (m === '?' ? 'allowed' : 'forbidden');

const texts = new Map(FILES.map((f) => [f, readFileSync(path.join(DIR, f), 'utf8')]));

test('the library has the thesis’s tests and the extras, each with a complete header', () => {
  assert.ok(FILES.length >= 15, `examples/litmus holds ${FILES.length} files`);
  for (const f of FILES) {
    const h = header(texts.get(f)!);
    assert.match(h.title, /\((Sorensen, fig [13]\.\d|ScoRD, [\w ,-]+)\)$/, `${f}: the first line is "// litmus: <title> (Sorensen, fig 3.x)" or "(ScoRD, …)"`);
    assert.equal(h.outcomes.length, 1, `${f}: one // outcome: line`);
    assert.deepEqual(declaredOutcomes(texts.get(f)!), h.outcomes, `${f}: the runner reads the same outcome`);
    assert.deepEqual(Object.keys(h.verdicts).sort(), [...MEMORY_MODELS].sort(), `${f}: a verdict for every model`);
    assert.equal(h.verdicts.sc, 'forbidden', `${f}: every violation is forbidden under sc`);
    assert.ok(f in EXTRAS || TABLE_4_2.some((r) => r.files.includes(f)), `${f} is neither a Table 4.2 row nor a listed extra`);
  }
});

test('the files’ verdicts are Table 4.2’s, row by row', () => {
  for (const row of TABLE_4_2) {
    assert.ok(row.files.length > 0, `${row.row}: no file tests it`);
    for (const f of row.files) {
      assert.ok(texts.has(f), `${row.row}: ${f} is missing from examples/litmus`);
      const h = header(texts.get(f)!);
      assert.deepEqual(
        { weak: h.verdicts['gpu-weak'], strong: h.verdicts['gpu-strong'] },
        { weak: toVerdict(row.weak), strong: toVerdict(row.strong) },
        `${f}: Table 4.2 says ${row.weak} (weak) and ${row.strong} (strong) for "${row.row}"`,
      );
    }
  }
  // The table's own shape, so a mistyped copy shows: the weak model is never stronger than
  // the strong one (a × or ✓ in the weak column is the same in the strong one).
  for (const row of TABLE_4_2) if (row.weak !== '?') assert.equal(row.strong, row.weak, row.row);
});

/** What the test needs of a report, checked the same way for every run. */
function checkHistogram(report: LitmusReport, label: string): void {
  assert.deepEqual(report.errors, [], `${label}: the program ran`);
  const sum = report.outcomes.reduce((n, o) => n + o.count, 0);
  assert.equal(sum, report.runs, `${label}: the histogram's counts sum to the runs`);
  for (const o of report.outcomes) {
    if (o.count > 0) {
      assert.equal(o.allowed, true, `${label}: "${o.outcome}" was reached, so it is allowed`);
      assert.ok(o.witness.length > 0, `${label}: "${o.outcome}" has a witness`);
    }
  }
}

for (const f of FILES) {
  describe(`examples/litmus/${f}`, () => {
    const text = texts.get(f)!;
    const h = header(text);
    const declared = h.outcomes[0]!;
    const parsed = parse(text, { fileName: path.join(DIR, f) });
    for (const model of MEMORY_MODELS) {
      const verdict = h.verdicts[model];
      it(`${model}: "${declared}" is ${verdict}; 300 random runs stay within it`, () => {
        const exhaustive = runLitmus(parsed, { model, exhaustive: true, declared: h.outcomes });
        checkHistogram(exhaustive, `${f} ${model} exhaustive`);
        assert.equal(exhaustive.exhaustive, true);
        assert.equal(exhaustive.complete, true, `${f} ${model}: the exploration was cut short at the runner's execution limit (${exhaustive.runs} executions reached the end)`);
        const d = exhaustive.outcomes.find((o) => o.outcome === declared);
        assert.ok(d?.declared, `${f} ${model}: the declared outcome is listed`);
        assert.equal(d.allowed, verdict === 'allowed', `${f} ${model}: "${declared}" should be ${verdict}; outcomes: ${exhaustive.outcomes.map((o) => `${o.outcome} ×${o.count}`).join(', ')}`);
        assert.equal(d.count > 0, verdict === 'allowed');
        const possible = new Set(exhaustive.outcomes.filter((o) => o.count > 0).map((o) => o.outcome));
        // Every model keeps the sequentially consistent executions: the simulator's usual run is one.
        const usual = runProgram(parsed).stdout.trim();
        assert.ok(possible.has(usual), `${f} ${model}: the usual run's "${usual}" is among ${[...possible].join(', ')}`);

        const random = runLitmus(parsed, { model, runs: 300, seed: 20240601, declared: h.outcomes });
        checkHistogram(random, `${f} ${model} random`);
        assert.equal(random.exhaustive, false);
        assert.equal(random.runs, 300);
        for (const o of random.outcomes) if (o.count > 0) assert.ok(possible.has(o.outcome), `${f} ${model}: random run reached "${o.outcome}", which exhaustive exploration does not allow`);
        if (verdict === 'forbidden') assert.equal(random.outcomes.find((o) => o.outcome === declared)?.count, 0, `${f} ${model}: a random run reached the forbidden outcome`);
      });
    }
  });
}
