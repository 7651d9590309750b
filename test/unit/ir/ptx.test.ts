// Inline PTX: the loads, stores, atomics, reductions, fences and membars of `asm("…" : … : …)`
// run on the simulator with their operands bound to the constraint list, emit the events
// their memory order and scope say, and what the simulator cannot run is reported at the
// template string.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDiagnostic } from '../../../sims/frontend/diagnostics';
import { decodePtx } from '../../../sims/frontend/ptx';
import { DOUBLE, FLOAT, INT, UINT, ULLONG } from '../../../sims/frontend/types';
import { runProgram } from '../../../sims/host/run';
import type { SimEvent } from '../../../sims/ir/ir';
import { parseVirtual } from '../../support/parseFile';

function run(source: string): { stdout: string; events: SimEvent[] } {
  const parsed = parseVirtual({ 'main.cu': source });
  assert.deepEqual(parsed.diagnostics.map(formatDiagnostic), []);
  const events: SimEvent[] = [];
  const r = runProgram(parsed, { events: (e) => events.push({ ...e }) });
  assert.deepEqual(r.findings, []);
  return { stdout: r.stdout, events };
}

function describeEvent(e: SimEvent): string | undefined {
  if (e.kind === 'fence') return `${e.range.start.line + 1}:fence ${e.scope} ${e.order}`;
  if (e.kind !== 'access' || e.space !== 'device') return undefined;
  const atomic = e.atomic ? ` ${e.atomic.op}/${e.atomic.scope}${e.atomic.changed ? '' : ' unchanged'}` : '';
  const order = e.order ? ` ${e.order}@${e.orderScope}` : '';
  return `${e.range.start.line + 1}:${e.write ? 'W' : 'R'}${e.strong ? ' strong' : ''}${atomic}${order}`;
}

function diagnostics(source: string): string[] {
  return parseVirtual({ 'main.cu': source }).diagnostics.map((d) => `${d.severity === 'error' ? '' : 'warning:'}${d.code}@${d.range.start.line + 1}:${d.range.start.character + 1}`);
}
function messages(source: string): string[] {
  return parseVirtual({ 'main.cu': source }).diagnostics.map((d) => d.message);
}

describe('decoding templates', () => {
  test('qualifiers, operands, offsets and immediates', () => {
    const d = decodePtx('ld.acquire.gpu.global.u32 %0, [%1+8];\n\tatom.cas.b64 %0, [%1], %2, 0x10;  red.release.sys.add.f32 [%1], -2; fence.sc.cta; membar.gl;', 1, 3);
    assert.deepEqual(d.errors, []);
    assert.deepEqual(d.instructions, [
      { kind: 'ld', text: 'ld.acquire.gpu.global.u32', type: UINT, volatile: false, order: 'acquire', scope: 'device', dst: 0, addr: { operand: 1, offset: 8 } },
      { kind: 'atom', text: 'atom.cas.b64', type: ULLONG, op: 'CAS', scope: 'device', addr: { operand: 1, offset: 0 }, a: { kind: 'operand', index: 2 }, dst: 0, b: { kind: 'immediate', value: 16 } },
      { kind: 'atom', text: 'red.release.sys.add.f32', type: FLOAT, op: 'Add', scope: 'system', addr: { operand: 1, offset: 0 }, a: { kind: 'immediate', value: -2 }, order: 'release' },
      { kind: 'fence', text: 'fence.sc.cta', order: 'seq_cst', scope: 'block' },
      { kind: 'fence', text: 'membar.gl', order: 'seq_cst', scope: 'device' },
    ]);
  });

  test('volatile, weak and signed forms; an empty template is a compiler barrier', () => {
    const d = decodePtx('ld.volatile.global.s32 %0, [%1]; st.global.f64 [%1], %0; ld.relaxed.sys.shared.b32 %0, [%1];', 1, 2);
    assert.deepEqual(d.instructions.map((i) => [i.kind, i.kind === 'fence' ? undefined : i.type, 'volatile' in i ? i.volatile : undefined, i.order, i.scope]), [
      ['ld', INT, true, undefined, undefined],
      ['st', DOUBLE, false, undefined, undefined],
      ['ld', UINT, false, 'relaxed', 'system'],
    ]);
    assert.deepEqual(decodePtx('', 0, 0), { instructions: [], errors: [] });
  });

  test('each problem is one sentence', () => {
    assert.deepEqual(decodePtx('mov.u32 %0, %%laneid; ld.release.gpu.u32 %0, [%1]; ld.acquire.gpu.u32 %1, [%0]; st.relaxed.gpu.u32 [%0], %r1; atom.add.u32 %0, [%1]; fence.sc; fence.acq_rel.cluster; ld.acquire.gpu.bogus.u32 %0, [%1]; red.exch.b32 [%1], 1; atom.add.u32 %0, [%5], 1;', 1, 2).errors, [
      "the simulator does not know the PTX instruction 'mov.u32'",
      "'ld.release.gpu.u32': a load cannot be .release (use .relaxed, .acquire or .volatile)",
      "'ld.acquire.gpu.u32': %1 is an input; the result must go to an output operand (\"=r\"(x))",
      "'st.relaxed.gpu.u32': operand '%r1' is not %0..%1 (registers declared in the template are not supported)",
      "'atom.add.u32' takes 3 operands, but 2 were given",
      "the simulator does not know the PTX instruction 'fence.sc' (a fence names one scope: .cta, .gpu or .sys)",
      "the simulator does not know the PTX instruction 'fence.acq_rel.cluster' (the '.cluster' scope is not modelled)",
      "the simulator does not know the PTX instruction 'ld.acquire.gpu.bogus.u32' (unknown qualifier '.bogus')",
      "the simulator does not know the PTX instruction 'red.exch.b32' (red has no .exch; use atom)",
      "'atom.add.u32': %5 does not exist: the asm statement has 2 operands",
    ]);
  });
});

describe('inline PTX runs', () => {
  test('loads, stores, every atomic operation, reductions, "+r" operands and several instructions in one template', () => {
    const { stdout } = run(`#include <stdio.h>
__device__ unsigned int u[8];
__device__ unsigned long long w;
__device__ float f;
__global__ void k(int *out) {
  unsigned int r;
  int s;
  u[0] = 5; u[1] = 6;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(r) : "l"(u)); out[0] = r;
  asm volatile("ld.relaxed.sys.u32 %0, [%1+4];" : "=r"(r) : "l"(u)); out[1] = r;
  asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(r) : "l"(u + 1)); out[2] = r;
  asm volatile("ld.global.nc.u32 %0, [%1];" : "=r"(r) : "l"(u)); out[3] = r;
  asm volatile("st.release.cta.global.u32 [%0], %1;" :: "l"(u + 2), "r"(7) : "memory");
  asm volatile("st.relaxed.gpu.u32 [%0], 8;" :: "l"(u + 3));
  asm volatile("st.volatile.global.s32 [%0], %1;" :: "l"(u + 4), "r"(-1));
  out[4] = u[2] * 100 + u[3]; out[5] = u[4] == 0xffffffffu;
  asm volatile("atom.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(u), "r"(10)); out[6] = r;
  asm volatile("atom.exch.b32 %0, [%1], 1;" : "=r"(r) : "l"(u)); out[7] = r;
  asm volatile("atom.cas.b32 %0, [%1], 1, 9;" : "=r"(r) : "l"(u)); out[8] = r;
  asm volatile("atom.cas.b32 %0, [%1], 1, 3;" : "=r"(r) : "l"(u)); out[9] = r;
  asm volatile("atom.and.b32 %0, [%1], 12;" : "=r"(r) : "l"(u)); out[10] = r;
  asm volatile("atom.or.b32 %0, [%1], 1;" : "=r"(r) : "l"(u)); out[11] = r;
  asm volatile("atom.xor.b32 %0, [%1], 3;" : "=r"(r) : "l"(u)); out[12] = u[0];
  asm volatile("atom.min.s32 %0, [%1], 2;" : "=r"(s) : "l"(u + 4)); out[13] = s; out[14] = u[4] == 0xffffffffu;
  asm volatile("atom.max.u32 %0, [%1], 2;" : "=r"(r) : "l"(u + 4)); out[15] = r == 0xffffffffu;
  for (int i = 0; i < 3; i++) asm volatile("atom.inc.u32 %0, [%1], 2;" : "=r"(r) : "l"(u + 5));
  out[16] = r * 10 + u[5];
  asm volatile("atom.dec.u32 %0, [%1], 3;" : "=r"(r) : "l"(u + 6)); out[17] = r * 10 + u[6];
  asm volatile("red.release.gpu.add.u32 [%0], 4;" :: "l"(u + 7)); out[18] = u[7];
  unsigned long long old;
  asm volatile("atom.add.u64 %0, [%1], %2;" : "=l"(old) : "l"(&w), "l"(1ull << 40)); out[19] = (int)(w >> 40) + (int)old;
  float g;
  asm volatile("atom.add.f32 %0, [%1], %2;" : "=f"(g) : "l"(&f), "f"(1.5f));
  asm volatile("atom.add.f32 %0, [%1], %2;" : "=f"(g) : "l"(&f), "f"(2.25f)); out[20] = (int)(g * 10 + f * 100);
  unsigned int x = 100;
  asm volatile("atom.add.u32 %0, [%1], %0;" : "+r"(x) : "l"(u + 5)); out[21] = x * 1000 + u[5];
  unsigned int a, b;
  asm volatile("ld.relaxed.gpu.u32 %0, [%2];\\n\\tst.relaxed.gpu.u32 [%3], %0;\\n\\tld.relaxed.gpu.u32 %1, [%3];" : "=r"(a), "=r"(b) : "l"(u + 2), "l"(u + 1));
  out[22] = a * 10 + b;
  asm volatile("fence.sc.cta; fence.acq_rel.sys; membar.cta; membar.sys;" ::: "memory");
}
int main() {
  int *d, h[23];
  cudaMalloc(&d, sizeof(h));
  k<<<1, 1>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 23; i++) printf("%d ", h[i]);
  printf("\\n");
  return 0;
}`);
    // u[0]: 5 +10 → 15, exch → 1, cas(1→9) hits, cas(1→3) misses (9), and 12 → 8, or 1 → 9,
    // xor 3 → 10. u[4] = -1: min.s32 keeps -1, max.u32 keeps 0xffffffff. inc wraps at 2 (0,1,2→0;
    // last old value 2), dec from 0 gives 3. The f32 atomics leave 3.75 (the old 1.5 returned).
    // The "+r" operand adds 100 to u[5] (0 → 100) and receives the old 0. The three-instruction
    // template copies u[2] (7) to u[1] and reads it back.
    assert.equal(stdout, '5 6 6 5 708 1 5 15 1 9 9 8 10 -1 1 1 20 3 4 1 390 100 77 \n');
  });

  test('a lock taken with atom.acquire.gpu.cas and released with st.release.gpu protects plain data', () => {
    const { stdout } = run(`#include <stdio.h>
__device__ int L, data;
__global__ void k() {
  int old;
  do {
    asm volatile("atom.acquire.gpu.global.cas.b32 %0, [%1], 0, 1;" : "=r"(old) : "l"(&L) : "memory");
  } while (old != 0);
  data = data + 1;
  asm volatile("st.release.gpu.global.b32 [%0], 0;" :: "l"(&L) : "memory");
}
int main() { int h; k<<<4, 1>>>(); cudaMemcpyFromSymbol(&h, data, sizeof(int)); printf("%d\\n", h); return 0; }`);
    assert.equal(stdout, '4\n');
  });
});

describe('events carry the order and scope PTX names', () => {
  test('ld, st, atom, red, fence and membar', () => {
    const { events } = run(`__device__ unsigned int x;
__global__ void k() {
  unsigned int r;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(r) : "l"(&x));
  asm volatile("ld.relaxed.sys.global.u32 %0, [%1];" : "=r"(r) : "l"(&x));
  asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(r) : "l"(&x));
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(r) : "l"(&x));
  asm volatile("st.release.cta.global.u32 [%0], %1;" :: "l"(&x), "r"(r));
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" :: "l"(&x), "r"(r));
  asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], 1;" : "=r"(r) : "l"(&x));
  asm volatile("atom.global.exch.b32 %0, [%1], 0;" : "=r"(r) : "l"(&x));
  asm volatile("atom.acquire.sys.cas.b32 %0, [%1], 5, 6;" : "=r"(r) : "l"(&x));
  asm volatile("red.release.cta.global.add.u32 [%0], 2;" :: "l"(&x));
  asm volatile("fence.acq_rel.gpu;");
  asm volatile("fence.sc.cta;");
  asm volatile("membar.cta;");
  asm volatile("membar.gl;");
  asm volatile("membar.sys;");
}
int main() { k<<<1, 1>>>(); cudaDeviceSynchronize(); return 0; }`);
    assert.deepEqual(events.flatMap((e) => describeEvent(e) ?? []), [
      '4:R strong acquire@device',
      '5:R strong relaxed@system',
      // ld.volatile is what a C volatile read compiles to: strong, no order.
      '6:R strong',
      '7:R',
      '8:W strong release@block',
      '9:W strong relaxed@device',
      '10:W strong Add/device acq_rel@device',
      // atom without .sem names no order, as atomicExch; its scope defaults to gpu.
      '11:W strong Exch/device',
      '12:W strong CAS/system unchanged acquire@system',
      '13:W strong Add/block release@block',
      '14:fence device acq_rel',
      '15:fence block seq_cst',
      '16:fence block seq_cst',
      '17:fence device seq_cst',
      '18:fence system seq_cst',
    ]);
  });
});

describe('what the simulator cannot run is reported at the template', () => {
  const kernel = (body: string) => `__global__ void k(unsigned int *p, int n) {\n  unsigned int x = 0;\n${body}\n}\n`;

  test('an unknown instruction, at the asm string', () => {
    const src = kernel('  asm volatile("mov.u32 %0, %%laneid;" : "=r"(x));');
    assert.deepEqual(diagnostics(src), ['inline-ptx@3:16']);
    assert.deepEqual(messages(src), ["the simulator does not know the PTX instruction 'mov.u32'"]);
    // Each unknown instruction of a template is named; the known ones are not.
    assert.deepEqual(messages(kernel('  asm("ld.relaxed.gpu.u32 %0, [%1];\\n  bar.sync 0;\\n  vote.all.pred %0, 1;" : "=r"(x) : "l"(p));')), [
      "the simulator does not know the PTX instruction 'bar.sync'",
      "the simulator does not know the PTX instruction 'vote.all.pred'",
    ]);
  });

  test('operands that do not fit', () => {
    assert.deepEqual(diagnostics(kernel('  asm("ld.acquire.gpu.u32 %0, [%2];" : "=r"(x) : "l"(p));')), ['inline-ptx@3:7']);
    assert.deepEqual(diagnostics(kernel('  asm("ld.acquire.gpu.u32 %0, [%1];" : "=r"(x) : "r"(n));')), ['inline-ptx@3:50']);
    assert.deepEqual(diagnostics(kernel('  asm("ld.relaxed.gpu.u32 %0, [%1];" : "r"(x) : "l"(p));')), ['inline-ptx@3:40']);
    assert.deepEqual(diagnostics(kernel('  asm("st.relaxed.gpu.u32 [%0], %1;" :: "r"(p), "r"(x));')), ['warning:inline-ptx@3:41']);
    assert.deepEqual(diagnostics(kernel('  asm("st.relaxed.gpu.u32 [%0], %1;" :: "l"(p), "c"(x));')), ['warning:inline-ptx@3:49']);
    assert.deepEqual(diagnostics(kernel('  asm("ld.acquire.gpu.u32 %0, [%1];" : "=r"(x + 1) : "l"(p));')), ['not-lvalue@3:45']);
  });

  test('orders an instruction cannot take, scopes it must name, and PTX in host code', () => {
    assert.match(messages(kernel('  asm("st.acquire.gpu.u32 [%0], 1;" :: "l"(p));'))[0], /a store cannot be \.acquire/);
    assert.match(messages(kernel('  asm("red.acquire.gpu.add.u32 [%0], 1;" :: "l"(p));'))[0], /a reduction cannot be \.acquire/);
    assert.match(messages(kernel('  asm("fence.acq_rel;");'))[0], /a fence names one scope/);
    assert.match(messages(kernel('  asm("ld.acquire.cluster.u32 %0, [%1];" : "=r"(x) : "l"(p));'))[0], /'\.cluster' scope is not modelled/);
    assert.deepEqual(diagnostics('int main() { int x; asm("membar.gl;"); return 0; }'), ['wrong-execution-space@1:21']);
  });
});
