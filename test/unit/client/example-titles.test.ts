// Every bundled example has a description in the Open Example picker, from its first lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { litmusTitle, programTitle } from '../../../client/commands/exampleTitles';

const EXAMPLES = path.resolve(__dirname, '..', '..', '..', 'examples');

test('each program and each litmus test of examples/ has a title for the picker', () => {
  const programs = fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.cu'));
  assert.ok(programs.length >= 2);
  for (const f of programs) assert.ok(programTitle(fs.readFileSync(path.join(EXAMPLES, f), 'utf8')), f);
  assert.equal(programTitle(fs.readFileSync(path.join(EXAMPLES, 'scoped-counter.cu'), 'utf8')), 'a scoped race on a global event counter');
  for (const f of fs.readdirSync(path.join(EXAMPLES, 'litmus')).filter((x) => x.endsWith('.cu'))) assert.ok(litmusTitle(fs.readFileSync(path.join(EXAMPLES, 'litmus', f), 'utf8')), f);
  assert.equal(programTitle('int main() {}\n'), undefined);
});
