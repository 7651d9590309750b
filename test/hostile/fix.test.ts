// `scord fix` never loses a byte: a file changed since it was read, a read-only file, a
// symbolic link and a disk that fills up half-way all leave the original exactly as it was.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { replaceIfUnchanged } from '../../sims/files/replace';
import { cli, scratch, write } from './support';

const ROOT = path.resolve(__dirname, '..', '..');
const dir = scratch('fix');
after(() => fs.rmSync(dir, { recursive: true, force: true }));

// Every block counts into one word with a block-scope atomic: `scord fix` widens it.
const RACY = `#include <cstdio>
__global__ void count(int *c) { atomicAdd_block(c, 1); }
int main() {
  int *c;
  cudaMalloc(&c, sizeof(int));
  count<<<2, 32>>>(c);
  cudaDeviceSynchronize();
  return 0;
}
`;

/** Files in `dir` besides those named: a temporary file left behind would show here. */
function others(folder: string, ...names: string[]): string[] {
  return fs.readdirSync(folder).filter((n) => !names.includes(n));
}

test('fix applies its edit through a temporary file and keeps the permissions', async () => {
  const file = write(dir, 'plain.cu', RACY);
  fs.chmodSync(file, 0o640);
  const r = await cli(['fix', '--frontend', 'builtin', file]);
  assert.match(r.stdout, /1 fix applied/);
  assert.match(fs.readFileSync(file, 'utf8'), /atomicAdd\(c, 1\)/);
  assert.equal(fs.statSync(file).mode & 0o777, 0o640);
  assert.deepEqual(others(dir, 'plain.cu'), []);
});

test('a file changed since it was read is left as it is now', () => {
  const file = write(dir, 'changed.cu', RACY);
  const read = fs.readFileSync(file);
  const saved = `${RACY}// saved in the editor meanwhile\n`;
  fs.writeFileSync(file, saved);
  const r = replaceIfUnchanged(file, read, RACY.replace('atomicAdd_block', 'atomicAdd'));
  assert.deepEqual(r, { ok: false, changed: true, reason: 'changed since it was read; run again' });
  assert.equal(fs.readFileSync(file, 'utf8'), saved);
  // Deleted meanwhile: it does not come back.
  fs.rmSync(file);
  assert.equal(replaceIfUnchanged(file, read, RACY).ok, false);
  assert.equal(fs.existsSync(file), false);
  assert.deepEqual(others(dir, 'plain.cu'), []);
});

test('scord fix exits 2 when the file is saved while it is being analysed', async (t) => {
  // A program whose analysis takes a while: the file is changed after scord has read it
  // (its access time moves) and before it writes.
  const slow = RACY.replace('  int *c;', '  long s = 0;\n  for (long i = 0; i < 4000000; i++) s += i;\n  int *c;');
  const file = write(dir, 'busy.cu', slow);
  const past = new Date(Date.now() - 3_600_000);
  fs.utimesSync(file, past, new Date());
  const before = fs.statSync(file).atimeMs;
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), 'fix', '--frontend', 'builtin', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
  const t0 = Date.now();
  while (fs.statSync(file).atimeMs === before) {
    if (Date.now() - t0 > 15_000) {
      child.kill();
      t.skip('this file system does not record reads (noatime)');
      return;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const appended = `${slow}// appended while scord fix ran\n`;
  fs.writeFileSync(file, appended);
  const status = await exited;
  assert.equal(status, 2, out);
  assert.match(out, /busy\.cu changed since it was read; run again/);
  assert.doesNotMatch(out, /fix applied/);
  assert.equal(fs.readFileSync(file, 'utf8'), appended);
});

test('a read-only file is not fixed', async () => {
  const file = write(dir, 'readonly.cu', RACY);
  fs.chmodSync(file, 0o444);
  const r = await cli(['fix', '--frontend', 'builtin', file]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /readonly\.cu was not fixed: the file is read-only/);
  assert.equal(fs.readFileSync(file, 'utf8'), RACY);
  assert.equal(fs.statSync(file).mode & 0o777, 0o444);
});

test('a symbolic link stays a link; its target is fixed', async (t) => {
  const target = write(dir, 'target.cu', RACY);
  const link = path.join(dir, 'link.cu');
  try {
    fs.symlinkSync(target, link);
  } catch {
    t.skip('symbolic links cannot be made here');
    return;
  }
  const r = await cli(['fix', '--frontend', 'builtin', link]);
  assert.match(r.stdout, /1 fix applied/, r.stdout + r.stderr);
  assert.ok(fs.lstatSync(link).isSymbolicLink());
  assert.equal(fs.readlinkSync(link), target);
  assert.match(fs.readFileSync(target, 'utf8'), /atomicAdd\(c, 1\)/);
});

test('a disk that fills up half-way leaves the original byte-identical and no temporary file', () => {
  const sub = scratch('full');
  try {
    const original = Buffer.from(RACY.repeat(50));
    const file = write(sub, 'full.cu', original);
    let written = 0;
    const half = Math.floor(original.length / 2);
    const failing = {
      writeSync(fd: number, buffer: Uint8Array, offset: number, length: number): number {
        if (written >= half) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        const n = fs.writeSync(fd, buffer, offset, Math.min(length, half - written));
        written += n;
        return n;
      },
    };
    const r = replaceIfUnchanged(file, original, original.toString().replaceAll('atomicAdd_block', 'atomicAdd'), failing);
    assert.deepEqual(r, { ok: false, changed: false, reason: 'it could not be written (the disk is full); the file is unchanged' });
    assert.ok(written > 0, 'the write failed half-way, not at once');
    assert.ok(Buffer.compare(fs.readFileSync(file), original) === 0);
    assert.deepEqual(others(sub, 'full.cu'), []);
  } finally {
    fs.rmSync(sub, { recursive: true, force: true });
  }
});

test('the inserted fence goes after the comment that ends the line, with the file\'s own line ending', async () => {
  const fixture = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'races', 'fence_none_interblock.cu'), 'utf8');
  for (const [name, nl] of [['lf', '\n'], ['crlf', '\r\n']]) {
    const file = write(dir, `fence-${name}.cu`, fixture.replace(/\n/g, nl));
    const r = await cli(['fix', '--frontend', 'builtin', file]);
    assert.match(r.stdout, /1 fix applied/, r.stdout + r.stderr);
    const lines = fs.readFileSync(file, 'utf8').split(nl);
    const at = lines.findIndex((l) => l.includes('data = 42;'));
    assert.equal(lines[at], '        data = 42;                       // (W) payload write');
    assert.equal(lines[at + 1], '        __threadfence();');
    assert.doesNotMatch(fs.readFileSync(file, 'utf8'), nl === '\r\n' ? /[^\r]\n/ : /\r/);
  }
});
