// npm test's reporter: a dot per passing test, each failure in full (file, test, error with its
// stack and diff, and the end of what the test file wrote to stderr), and the runner's totals
// on one line. The spec reporter printed about 1,500
// lines for a green run, which buried what failed.
import * as path from 'node:path';
import { inspect } from 'node:util';

const WIDTH = 100;

export default async function* quietReporter(source) {
  let column = 0;
  const totals = [];
  const failures = [];
  const stderr = new Map();
  for await (const event of source) {
    const { data } = event;
    if (event.type === 'test:stderr' && data.file) stderr.set(data.file, `${stderr.get(data.file) ?? ''}${data.message}`.slice(-8192));
    if (event.type === 'test:pass' && data.details?.type !== 'suite' && !data.skip && !data.todo) {
      yield column++ % WIDTH === WIDTH - 1 ? '.\n' : '.';
    } else if (event.type === 'test:fail' && data.details?.type !== 'suite') {
      yield column++ % WIDTH === WIDTH - 1 ? 'X\n' : 'X';
      const where = data.file ? path.relative(process.cwd(), data.file) : '';
      const written = data.file ? stderr.get(data.file)?.trim() : undefined;
      failures.push(`✖ ${where}${where ? ' › ' : ''}${data.name}\n${indent(inspect(data.details?.error, { depth: 6, colors: false }))}\n${written ? `  its file's stderr (end):\n${indent(written.split('\n').slice(-40).join('\n'))}\n` : ''}`);
    } else if (event.type === 'test:diagnostic' && !data.file) {
      totals.push(data.message);
    }
  }
  yield '\n';
  if (failures.length) yield `\nFailed tests:\n\n${failures.join('\n')}\n`;
  yield `${totals.join(' · ')}\n`;
}

function indent(text) {
  return text.replace(/^/gm, '  ');
}
