// The engine's floors (docs/architecture.md): a module imports only from its own floor or the
// floors below it, and nothing imports round a loop, type-only imports included.
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { cycles, importGraph, type Import } from '../../support/imports';

/**
 * Bottom to top. A path names a folder (all files under it) or one file; the longest matching
 * path decides. The clang path is a vertical slice: its parts sit on the floors of the work
 * they do.
 */
export const FLOORS: { name: string; paths: string[] }[] = [
  { name: 'support', paths: ['sims/values', 'sims/files', 'sims/printf', 'sims/largeStack.ts', 'sims/workerPool.ts'] },
  { name: 'front end', paths: ['sims/frontend', 'sims/clang/toolchain', 'sims/clang/toolchain.ts', 'sims/clang/compileCommands.ts', 'sims/clang/program.ts', 'sims/clang/ranges.ts', 'sims/clang/refusals.ts', 'sims/clang/llvm'] },
  { name: 'gpu memory and models', paths: ['sims/gpu'] },
  { name: 'runtime API', paths: ['sims/runtime'] },
  { name: 'IR', paths: ['sims/ir', 'sims/clang/device'] },
  { name: 'machine', paths: ['sims/machine'] },
  { name: 'host programs', paths: ['sims/host', 'sims/clang/host', 'sims/clang/entry.ts'] },
  { name: 'analyses', paths: ['sims/detect', 'sims/idioms', 'sims/litmus', 'sims/fairness'] },
  { name: 'check', paths: ['sims/check.ts', 'sims/checkSchedules.ts', 'sims/clang/check.ts', 'sims/fixes', 'sims/report'] },
  { name: 'cli and server', paths: ['sims/cli.ts', 'server'] },
  { name: 'client', paths: ['client'] },
];

export function floorOf(file: string): number {
  let best = -1;
  let bestLength = -1;
  FLOORS.forEach((floor, i) => {
    for (const p of floor.paths) {
      if ((file === p || file.startsWith(`${p}/`)) && p.length > bestLength) {
        best = i;
        bestLength = p.length;
      }
    }
  });
  return best;
}

const describe = (i: Import): string => `${i.from}:${i.line} imports ${i.to}`;

test('every checked module sits on a floor, and every relative import names a file', () => {
  const { files, unresolved } = importGraph();
  assert.ok(files.length > 100, `read ${files.length} files`);
  assert.deepEqual(files.filter((f) => floorOf(f) < 0), [], 'files on no floor');
  assert.deepEqual(unresolved.map(describe), []);
});

test('no import climbs to a higher floor', () => {
  const { imports } = importGraph();
  const climbing = imports.filter((i) => floorOf(i.to) > floorOf(i.from)).map((i) => `${describe(i)} (${FLOORS[floorOf(i.from)].name} → ${FLOORS[floorOf(i.to)].name})`);
  assert.deepEqual(climbing, []);
});

test('the client reaches the engine only through the protocol, and the webview only through its wire types', () => {
  const { imports } = importGraph();
  const door = (i: Import): boolean => (i.from.startsWith('client/webview/') ? i.to === 'server/wire.ts' : i.to === 'server/protocol.ts' || i.to === 'server/wire.ts');
  const reaching = imports.filter((i) => i.from.startsWith('client/') && (i.to.startsWith('sims/') || i.to.startsWith('server/')) && !door(i));
  assert.deepEqual(reaching.map(describe), []);
});

test('no module imports round a loop, type-only imports included', () => {
  const { files, imports } = importGraph();
  assert.deepEqual(cycles(files, imports), []);
});

test('the floor check sees a climbing import and a loop', () => {
  // The checks above must be able to fail: a made-up import from the front end to the
  // detector climbs, and two files that import each other are one loop.
  const climbing: Import = { from: 'sims/frontend/parser.ts', to: 'sims/detect/scord.ts', line: 1 };
  assert.ok(floorOf(climbing.to) > floorOf(climbing.from));
  assert.deepEqual(cycles(['a.ts', 'b.ts', 'c.ts'], [{ from: 'a.ts', to: 'b.ts', line: 1 }, { from: 'b.ts', to: 'a.ts', line: 1 }, { from: 'b.ts', to: 'c.ts', line: 2 }]), [['a.ts', 'b.ts']]);
});
