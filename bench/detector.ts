// Race detection cost: each application-size program of the race suite (test/fixtures/races/
// app_*.cu, correct and -DRACEY builds) run with the ScoRD detector, with the happens-before
// engine (`--engine precise`) and without either (`--no-detect`), medians of several runs, the
// ratio per program and the median ratio for each engine. Also the metadata the ScoRD detector
// keeps per byte of global memory the program touched, exact against hardware-faithful (the
// paper's 8-byte entry per 16 words).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ScordDetector, type DetectorOptions } from '../sims/detect/scord';
import { PreciseDetector } from '../sims/detect/precise';
import { parse, type ParseResult } from '../sims/frontend/index';
import { runProgram } from '../sims/host/run';
import type { Metric } from './simulator';

const DIR = path.resolve(process.cwd(), 'test', 'fixtures', 'races');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function run(parsed: ParseResult, detector?: DetectorOptions): { ms: number; detector?: ScordDetector } {
  let d: ScordDetector | undefined;
  const t0 = performance.now();
  const result = runProgram(parsed, detector ? { listen: (m) => (d = new ScordDetector(m, detector)).listener } : {});
  // As the checker does: the run's findings are part of what detection costs.
  d?.findings();
  const ms = performance.now() - t0;
  if (result.findings.length) throw new Error(`bench: ${result.findings[0].message}`);
  return { ms, ...(d ? { detector: d } : {}) };
}

function runPrecise(parsed: ParseResult): number {
  const t0 = performance.now();
  let d: PreciseDetector | undefined;
  const result = runProgram(parsed, { listen: (m) => (d = new PreciseDetector(m)).listener });
  d?.findings();
  const ms = performance.now() - t0;
  if (result.findings.length) throw new Error(`bench: ${result.findings[0].message}`);
  return ms;
}

export function detectorMetrics(runs: number): Metric[] {
  const files = fs.existsSync(DIR) ? fs.readdirSync(DIR).filter((f) => /^app_.*\.cu$/.test(f)).sort() : [];
  if (!files.length) throw new Error(`bench: no application programs in ${DIR} (run from the repository root)`);
  const metrics: Metric[] = [];
  const ratios: number[] = [];
  const preciseRatios: number[] = [];
  const exactBytes: number[] = [];
  const faithfulBytes: number[] = [];
  for (const file of files) {
    const text = fs.readFileSync(path.join(DIR, file), 'utf8');
    for (const defines of [[], ['RACEY']]) {
      const name = `${file.replace(/\.cu$/, '')}${defines.length ? '-racey' : ''}`;
      const parsed = parse(text, { fileName: file, defines });
      run(parsed);
      run(parsed, {});
      runPrecise(parsed);
      const plain: number[] = [];
      const detected: number[] = [];
      const precise: number[] = [];
      // Interleaved, so drift in the machine's speed hits every side alike.
      for (let i = 0; i < runs; i++) {
        plain.push(run(parsed).ms);
        detected.push(run(parsed, {}).ms);
        precise.push(runPrecise(parsed));
      }
      const ratio = median(detected) / median(plain);
      ratios.push(ratio);
      metrics.push({ name: `detect.overhead_ratio.${name}`, value: +ratio.toFixed(3), unit: 'ratio' });
      const preciseRatio = median(precise) / median(plain);
      preciseRatios.push(preciseRatio);
      metrics.push({ name: `detect.overhead_ratio.precise.${name}`, value: +preciseRatio.toFixed(3), unit: 'ratio' });
      exactBytes.push(run(parsed, { measureMetadata: true }).detector!.metadataBytesPerTrackedByte());
      faithfulBytes.push(run(parsed, { measureMetadata: true, hardwareFaithful: true }).detector!.metadataBytesPerTrackedByte());
    }
  }
  metrics.push({ name: 'detect.overhead_ratio.median', value: +median(ratios).toFixed(3), unit: 'ratio' });
  metrics.push({ name: 'detect.overhead_ratio.median.precise', value: +median(preciseRatios).toFixed(3), unit: 'ratio' });
  metrics.push({ name: 'detect.overhead_target.ratio', value: 1.35, unit: 'ratio' });
  metrics.push({ name: 'detect.metadata_bytes_per_tracked_byte.exact.median', value: +median(exactBytes).toFixed(3), unit: 'bytes/byte' });
  metrics.push({ name: 'detect.metadata_bytes_per_tracked_byte.hardware_faithful.median', value: +median(faithfulBytes).toFixed(3), unit: 'bytes/byte' });
  return metrics;
}
