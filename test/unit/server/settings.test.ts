// The settings the extension declares (package.json) are the ones the server reads: same
// names, same defaults, same choices; and a wrong value falls back to the default.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEVICE_PRESETS } from '../../../sims/gpu/devices';
import { DEFAULT_SETTINGS } from '../../../server/protocol';
import { normalizeSettings } from '../../../server/settings';
import { programRequest, workspaceTrust } from '../../../server/analysis/scheduler';

const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
const declared: Record<string, { default: unknown; enum?: string[]; description?: string; scope?: string }> = pkg.contributes.configuration.properties;

/** DEFAULT_SETTINGS flattened to `scord.section.key`. */
function flatten(o: Record<string, unknown>, prefix = 'scord'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v && typeof v === 'object' && !Array.isArray(v)) Object.assign(out, flatten(v as Record<string, unknown>, `${prefix}.${k}`));
    else out[`${prefix}.${k}`] = v;
  }
  return out;
}

test('package.json declares exactly the settings the server reads, with its defaults', () => {
  const defaults = flatten(DEFAULT_SETTINGS as unknown as Record<string, unknown>);
  assert.deepEqual(Object.keys(declared).sort(), Object.keys(defaults).sort());
  for (const [key, value] of Object.entries(defaults)) assert.deepEqual(declared[key].default, value, key);
});

test('every setting says what it does and has a scope', () => {
  for (const [key, s] of Object.entries(declared)) {
    assert.ok(s.description && s.description.length > 20, `${key} needs a description`);
    assert.ok(['resource', 'window', 'machine-overridable', 'application', 'machine', 'language-overridable'].includes(s.scope ?? ''), `${key} needs a scope`);
  }
  assert.deepEqual(declared['scord.simulator.device'].enum, Object.keys(DEVICE_PRESETS));
});

test('values are read from the nested section VS Code returns; wrong ones fall back', () => {
  const s = normalizeSettings({ analysis: { trigger: 'onSave', debounceMs: -5 }, simulator: { device: 'ampere', scheduling: 'sideways' }, preprocessor: { defines: ['RACEY', 3] }, diagnostics: { raceSeverity: 'error' } });
  assert.equal(s.analysis.trigger, 'onSave');
  assert.equal(s.analysis.debounceMs, DEFAULT_SETTINGS.analysis.debounceMs);
  assert.equal(s.simulator.device, 'ampere');
  assert.equal(s.simulator.scheduling, 'independent');
  assert.deepEqual(s.preprocessor.defines, []);
  assert.equal(s.diagnostics.raceSeverity, 'error');
  assert.deepEqual(normalizeSettings(undefined), DEFAULT_SETTINGS);
});

test('Restricted Mode: the manifest declares limited support and restricts the settings that name files; the program reads no file there', () => {
  const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
  const untrusted = pkg.capabilities.untrustedWorkspaces;
  assert.equal(untrusted.supported, 'limited');
  const declared = Object.keys(pkg.contributes.configuration.properties ?? {});
  for (const s of ['scord.preprocessor.includePaths', 'scord.program.compileCommands', 'scord.program.sources', 'scord.program.stdin', 'scord.program.allowRead']) {
    assert.ok(untrusted.restrictedConfigurations.includes(s), s);
    assert.ok(declared.includes(s), `${s} is a setting`);
  }
  const settings = normalizeSettings({ program: { allowRead: true } });
  assert.equal(programRequest('/w/a.cu', settings).allowRead, true);
  workspaceTrust.trusted = false;
  try {
    assert.equal(programRequest('/w/a.cu', settings).allowRead, undefined);
  } finally {
    workspaceTrust.trusted = true;
  }
});
