// The `scord` settings of a document, read from the client (per resource, so a folder can
// differ) and checked: a wrong value falls back to the default instead of breaking analysis.
import * as path from 'node:path';
import type { Connection } from 'vscode-languageserver/node';
import { DEFAULT_DEVICE, devicePreset } from '../sims/gpu/devices';
import { isFairness } from '../sims/idioms/schedulers';
import { DEFAULT_SETTINGS, type ScordSettings } from './protocol';

type Raw = Record<string, unknown> | null | undefined;

function pick<T>(value: unknown, ok: (v: unknown) => v is T, fallback: T): T {
  return ok(value) ? value : fallback;
}

const isNumberIn = (min: number, max: number) => (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isOneOf = <T extends string>(...values: T[]) => (v: unknown): v is T => typeof v === 'string' && (values as string[]).includes(v);
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
const isString = (v: unknown): v is string => typeof v === 'string';

/** Settings from the client's `scord` section (nested objects, as VS Code returns them). */
export function normalizeSettings(raw: Raw): ScordSettings {
  const section = (k: string): Record<string, unknown> => ((raw?.[k] as Record<string, unknown> | undefined) ?? {});
  const a = section('analysis');
  const p = section('preprocessor');
  const s = section('simulator');
  const d = section('detector');
  const g = section('diagnostics');
  const pr = section('program');
  const D = DEFAULT_SETTINGS;
  return {
    analysis: {
      trigger: pick(a.trigger, isOneOf('onType', 'onSave', 'off'), D.analysis.trigger),
      debounceMs: pick(a.debounceMs, isNumberIn(0, 60_000), D.analysis.debounceMs),
      timeBudgetMs: pick(a.timeBudgetMs, isNumberIn(50, 600_000), D.analysis.timeBudgetMs),
      memoryLimitMb: pick(a.memoryLimitMb, isNumberIn(16, 16_384), D.analysis.memoryLimitMb),
      maxParallelRuns: pick(a.maxParallelRuns, isNumberIn(0, 256), D.analysis.maxParallelRuns),
      schedules: pick(a.schedules, isNumberIn(1, 1000), D.analysis.schedules),
    },
    limits: { maxFileMb: pick(section('limits').maxFileMb, isNumberIn(1, 1024), D.limits.maxFileMb) },
    preprocessor: {
      defines: pick(p.defines, isStrings, D.preprocessor.defines),
      includePaths: pick(p.includePaths, isStrings, D.preprocessor.includePaths),
    },
    simulator: {
      device: pick(s.device, (v): v is string => typeof v === 'string' && !!devicePreset(v), DEFAULT_DEVICE),
      scheduling: pick(s.scheduling, isOneOf('independent', 'lockstep'), D.simulator.scheduling),
      schedules: pick(s.schedules, isNumberIn(1, 1000), D.simulator.schedules),
      seed: pick(s.seed, isNumberIn(0, 2 ** 31), D.simulator.seed),
      stepBudget: pick(s.stepBudget, isNumberIn(1000, 2_000_000_000), D.simulator.stepBudget),
      sampleBlocks: pick(s.sampleBlocks, (v): v is number => v === 0 || (isNumberIn(2, 65_536)(v) && Number.isInteger(v)), D.simulator.sampleBlocks),
      memoryModel: pick(s.memoryModel, isOneOf('sc', 'gpu-weak', 'gpu-strong'), D.simulator.memoryModel),
    },
    detector: {
      hardwareFaithful: pick(d.hardwareFaithful, isBool, D.detector.hardwareFaithful),
      initCheck: pick(d.initCheck, isBool, D.detector.initCheck),
      warpSync: pick(d.warpSync, isBool, D.detector.warpSync),
      reportBenign: pick(d.reportBenign, isBool, D.detector.reportBenign),
    },
    engine: pick(raw?.engine, isOneOf('scord', 'precise', 'both'), D.engine),
    fairness: pick(raw?.fairness, isFairness, D.fairness),
    diagnostics: { raceSeverity: pick(g.raceSeverity, isOneOf('error', 'warning', 'information', 'hint'), D.diagnostics.raceSeverity) },
    frontend: pick(raw?.frontend, isOneOf('auto', 'builtin', 'clang'), D.frontend),
    program: {
      compileCommands: pick(pr.compileCommands, isString, D.program.compileCommands),
      sources: pick(pr.sources, isStrings, D.program.sources),
      args: pick(pr.args, isStrings, D.program.args),
      stdin: pick(pr.stdin, isString, D.program.stdin),
      allowRead: pick(pr.allowRead, isBool, D.program.allowRead),
    },
  };
}

/** Reads and caches settings per document; a configuration change empties the cache. */
export class SettingsStore {
  private readonly cache = new Map<string, Promise<ScordSettings>>();
  /** Settings pushed with workspace/didChangeConfiguration, for clients that cannot be asked. */
  private pushed: ScordSettings = DEFAULT_SETTINGS;
  canAsk = false;

  constructor(private readonly connection: Connection) {}

  get(uri: string): Promise<ScordSettings> {
    if (!this.canAsk) return Promise.resolve(this.pushed);
    let s = this.cache.get(uri);
    if (!s) {
      s = this.connection.workspace.getConfiguration({ scopeUri: uri, section: 'scord' }).then(
        (raw: Raw) => normalizeSettings(raw),
        () => DEFAULT_SETTINGS,
      );
      this.cache.set(uri, s);
    }
    return s;
  }

  changed(pushed: Raw): void {
    this.cache.clear();
    if (pushed) this.pushed = normalizeSettings(pushed);
  }

  forget(uri: string): void {
    this.cache.delete(uri);
  }
}

/** Include paths as the engine needs them: relative ones from the checked file's directory. */
export function resolveIncludePaths(paths: string[], fileName: string): string[] {
  const dir = path.isAbsolute(fileName) ? path.dirname(fileName) : process.cwd();
  return paths.map((p) => (path.isAbsolute(p) ? p : path.resolve(dir, p)));
}
