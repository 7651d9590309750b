// Program arguments through the command: --args split as a shell splits them, then
// --program-arg and everything after --, behind argv[0] (slow: program arguments go through clang).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');

test('--args and -- reach main after its name', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scord-args-'));
  try {
    const file = path.join(dir, 'show-args.cu');
    fs.writeFileSync(file, '#include <cstdio>\nint main(int argc, char **argv) {\n  printf("%d", argc);\n  for (int i = 0; argv[i]; i++) printf(" [%s]", argv[i]);\n  printf("\\n");\n  return 0;\n}\n');
    const r = spawnSync(process.execPath, [CLI, 'run', file, '--args', `a 'b c' d\\ e "f\\"g"`, '--', 'h'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '6 [show-args] [a] [b c] [d e] [f"g] [h]\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
