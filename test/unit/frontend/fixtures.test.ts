// Every fixture program (each one compiles with nvcc) must read with no diagnostics, and the
// front end must find exactly the kernels, functions, templates and launches its manifest lists.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatDiagnostic } from '../../../sims/frontend/diagnostics';
import { summarize } from '../../../sims/frontend/summary';
import { FIXTURES, parseFixture } from '../../support/parseFile';
import { SIM_PROGRAMS } from '../../support/simReference';

interface Entry {
  file: string;
  kernels: string[];
  deviceFunctions: string[];
  hostFunctions: string[];
  templates: string[];
  launches: number;
  defines: string[][];
  description: string;
}

const manifest: Entry[] = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'programs', 'manifest.json'), 'utf8'));
const sorted = (xs: string[]) => [...xs].sort();

describe('fixture programs', () => {
  test('the manifest covers at least 30 programs', () => {
    assert.ok(manifest.length >= 30, `only ${manifest.length} fixtures`);
  });

  for (const entry of manifest) {
    test(`${entry.file}: ${entry.description}`, () => {
      const launchOffsets = new Set<number>();
      for (const defines of entry.defines) {
        const result = parseFixture(path.join('programs', entry.file), { defines });
        const label = defines.length ? ` with -D${defines.join(' -D')}` : '';
        assert.deepEqual(result.diagnostics.map(formatDiagnostic), [], `diagnostics for ${entry.file}${label}`);
        const s = summarize(result);
        assert.deepEqual(sorted(s.kernels.map((k) => k.name)), sorted(entry.kernels), `kernels${label}`);
        assert.deepEqual(sorted(s.deviceFunctions), sorted(entry.deviceFunctions), `device functions${label}`);
        assert.deepEqual(sorted(s.hostFunctions), sorted(entry.hostFunctions), `host functions${label}`);
        assert.deepEqual(sorted(s.templates), sorted(entry.templates), `templates${label}`);
        for (const l of s.launches) launchOffsets.add(l.range.start.offset);
      }
      // The manifest counts launches in the text, so both sides of `#ifdef RACEY` count.
      assert.equal(launchOffsets.size, entry.launches, 'launches across all define sets');
    });
  }
});

describe('simulator programs', () => {
  // Programs whose output the simulator must reproduce (test/support/simReference.ts holds the
  // independently computed expectations). The front end must read each one cleanly.
  const dir = path.join(FIXTURES, 'sim');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cu')).sort();

  test('each program has an independently computed expected output', () => {
    assert.deepEqual(SIM_PROGRAMS.map((p) => p.file).sort(), files);
    for (const p of SIM_PROGRAMS) assert.ok(p.expectedStdout().length > 0, p.file);
  });

  for (const file of files) {
    test(`${file} reads cleanly and launches kernels`, () => {
      const result = parseFixture(path.join('sim', file));
      assert.deepEqual(result.diagnostics.map(formatDiagnostic), []);
      const s = summarize(result);
      assert.ok(s.kernels.length > 0 && s.launches.length > 0, 'a kernel and a launch');
      assert.ok(s.hostFunctions.includes('main'));
    });
  }
});
