// The README is the front door and docs/ holds the rest: every relative link between them
// resolves to a file that exists, and every #anchor to a heading or an <a id> of that file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const pages = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/^#{1,6} (.*)$/gm)) out.add(m[1].toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-'));
  for (const m of text.matchAll(/<a id="([^"]+)"><\/a>/g)) out.add(m[1]);
  return out;
}

test('links between the README and docs/ resolve, anchors included', () => {
  let checked = 0;
  for (const page of pages) {
    const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1];
      if (/^[a-z]+:/.test(target)) continue;
      const [file, anchor] = target.split('#');
      const resolved = file ? path.resolve(path.dirname(path.join(ROOT, page)), file) : path.join(ROOT, page);
      assert.ok(fs.existsSync(resolved), `${page}: ${target} does not exist`);
      if (anchor) assert.ok(anchorsOf(fs.readFileSync(resolved, 'utf8')).has(anchor), `${page}: ${target} has no such anchor`);
      checked++;
    }
  }
  assert.ok(checked >= 10, `only ${checked} links`);
});

test('the README is a front door: short, with the quick start, install steps, a picture and the way into docs/', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  assert.ok(readme.length < 8000, `${readme.length} characters`);
  for (const heading of ['## Quick start', '## Install the extension', '## The first five minutes in VS Code', '## The command line in three lines', '## Documentation']) assert.ok(readme.includes(heading), heading);
  assert.match(readme, /!\[[^\]]+\]\(docs\/images\/[\w-]+\.png\)/);
  assert.match(readme, /npm install && npm run demo/);
  assert.match(readme, /^npm test\b/m);
});
