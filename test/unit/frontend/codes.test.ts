// The list of diagnostic codes is the contract between the engine, docs/diagnostic-codes.md (which editors
// link to) and the tests: each code is documented, and nothing else is ever reported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DIAGNOSTIC_CODES } from '../../../sims/frontend/codes';

const ROOT = path.resolve(__dirname, '..', '..', '..');

test('docs/diagnostic-codes.md documents every code, with an anchor, and no other', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'docs', 'diagnostic-codes.md'), 'utf8');
  const anchors = [...readme.matchAll(/<a id="([a-z-]+)"><\/a>`([a-z-]+)`/g)].map((m) => {
    assert.equal(m[1], m[2], 'the anchor names its code');
    return m[1];
  });
  assert.deepEqual([...anchors].sort(), Object.keys(DIAGNOSTIC_CODES).sort());
});

test('every code the engine source reports is in the list', () => {
  const dir = path.join(ROOT, 'sims', 'frontend');
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name));
      else if (e.name.endsWith('.ts') && e.name !== 'codes.ts') files.push(path.join(d, e.name));
    }
  };
  walk(dir);
  const used = new Set<string>();
  for (const f of files) {
    const text = fs.readFileSync(f, 'utf8');
    // error('code', …), warning('code', …), report/diag helpers and `code: '…'` object fields.
    for (const m of text.matchAll(/(?:error|warning|report)\(\s*'([a-z]+(?:-[a-z]+)+)'/g)) used.add(m[1]);
    for (const m of text.matchAll(/code: '([a-z]+(?:-[a-z]+)+)'/g)) used.add(m[1]);
    for (const m of text.matchAll(/\?\? '([a-z]+(?:-[a-z]+)+)'/g)) used.add(m[1]);
  }
  assert.ok(used.size > 40, `found only ${used.size} codes: the scan is broken`);
  const unknown = [...used].filter((c) => !(c in DIAGNOSTIC_CODES));
  assert.deepEqual(unknown, []);
});
