// The labelled race suite in test/fixtures/races: every program states in its first comment
// lines what `scord check` must find.
//
//   // expect: <category> <line> <related line>     one line per race (or `// expect: none`)
//   // expect-racey: <category> <line> <related line>   the same program built with -DRACEY
//   // scord-options: --scheduling lockstep          options for both runs (optional; also
//                                                 --granularity N, --hardware-faithful, --warp-sync, --no-benign)
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkSource, type CheckOptions } from '../../sims/check';

export const RACES_DIR = path.resolve(__dirname, '..', 'fixtures', 'races');

export interface RaceCase {
  file: string;
  text: string;
  expect: string[];
  expectRacey?: string[];
  options: Partial<CheckOptions>;
}

export function loadRaceCases(): RaceCase[] {
  return fs
    .readdirSync(RACES_DIR)
    .filter((f) => f.endsWith('.cu'))
    .sort()
    .map((file) => {
      const text = fs.readFileSync(path.join(RACES_DIR, file), 'utf8');
      const expect: string[] = [];
      const racey: string[] = [];
      let options: Partial<CheckOptions> = {};
      for (const line of text.split('\n')) {
        const m = /^\/\/ (expect|expect-racey|scord-options): *(.*)$/.exec(line.trim());
        if (!m) continue;
        const value = m[2].trim();
        if (m[1] === 'scord-options') options = parseOptions(value);
        else if (value !== 'none') (m[1] === 'expect' ? expect : racey).push(value.split(/\s+/).join(' '));
        else if (m[1] === 'expect-racey') racey.length = 0;
      }
      const hasRacey = /^\/\/ expect-racey:/m.test(text);
      return { file, text, expect: expect.sort(), ...(hasRacey ? { expectRacey: racey.sort() } : {}), options };
    });
}

function parseOptions(value: string): Partial<CheckOptions> {
  const words = value.split(/\s+/);
  const out: Partial<CheckOptions> = {};
  for (let i = 0; i < words.length; i++) {
    if (words[i] === '--scheduling') out.model = words[++i] as 'independent' | 'lockstep';
    else if (words[i] === '--granularity') out.granularity = Number(words[++i]);
    else if (words[i] === '--hardware-faithful') out.hardwareFaithful = true;
    else if (words[i] === '--warp-sync') out.warpSync = true;
    else if (words[i] === '--no-benign') out.benign = false;
    else throw new Error(`unknown scord-options word '${words[i]}'`);
  }
  return out;
}

/** `category line related` for each race the check finds; other findings fail the case. */
export function observedRaces(c: RaceCase, defines: string[]): string[] {
  const report = checkSource({ fileName: c.file, text: c.text, defines, ...c.options });
  assert.deepEqual(report.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.location?.line}: ${d.message}`), [], `${c.file} must be analysable`);
  assert.deepEqual(report.findings.filter((f) => f.kind !== 'race').map((f) => `${f.kind}: ${f.message}`), [], `${c.file} must run without faults`);
  return report.findings.map((f) => `${f.category} ${f.location.line} ${f.related[0]?.location.line}`).sort();
}

