// Expected stdout of every functional test program in test/fixtures/sim/, computed independently
// of the simulator: each entry rebuilds the program's deterministic input and derives its printed
// results the plain sequential way (sums, sorted arrays, histogram counts, ...), then formats them
// exactly the way the program's host printf calls do.
//
// The programs are designed so that the printed values do not depend on thread scheduling or on
// floating-point summation order (integers, or floats that stay exact: small dyadic values).

export interface SimProgram {
  /** File name inside test/fixtures/sim/. */
  file: string;
  description: string;
  /** The program's complete expected stdout. */
  expectedStdout: () => string;
}

// ---------------------------------------------------------------------------------------------
// printf helpers

/**
 * C's `%.<digits>f` for a double, exactly as glibc prints it: the exact binary value is rounded
 * to `digits` decimals with ties to even, and the sign of negative values (and of -0) is kept.
 */
export function formatFixed(x: number, digits: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x < 0 ? '-inf' : 'inf';
  const negative = x < 0 || Object.is(x, -0);
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const expBits = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exponent: number;
  if (expBits === 0) {
    exponent = -1074;
  } else {
    mantissa |= 1n << 52n;
    exponent = expBits - 1075;
  }
  // |x| * 10^digits = mantissa * 2^exponent * 10^digits = num / den, exactly
  let num = mantissa * 10n ** BigInt(digits);
  let den = 1n;
  if (exponent >= 0) num <<= BigInt(exponent);
  else den <<= BigInt(-exponent);
  let q = num / den;
  const twice = 2n * (num - q * den);
  if (twice > den || (twice === den && (q & 1n) === 1n)) q += 1n;
  let s = q.toString();
  if (digits > 0) {
    s = s.padStart(digits + 1, '0');
    s = `${s.slice(0, s.length - digits)}.${s.slice(s.length - digits)}`;
  }
  return (negative ? '-' : '') + s;
}

/** `%f` (six decimals). */
const f6 = (x: number): string => formatFixed(x, 6);
/** `%<width>d` / `%<width>u`. */
const pad = (n: number, width: number): string => String(n).padStart(width, ' ');
/** `%08x`. */
const hex8 = (u: number): string => (u >>> 0).toString(16).padStart(8, '0');
/** The values joined the way `printf(" %d", v)` in a loop prints them. */
const spaced = (xs: readonly number[]): string => xs.map((v) => ` ${v}`).join('');
const lines = (ls: readonly string[]): string => ls.map((l) => `${l}\n`).join('');

// ---------------------------------------------------------------------------------------------
// shared helpers

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
const f32 = Math.fround;
/** A C `int` value from the common input pattern `(i * 37 + 11) % 101`. */
const pattern101 = (i: number): number => (i * 37 + 11) % 101;

/** `state = state * mul + add` on a 32-bit unsigned, as the programs' LCGs do. */
function lcg(seed: number, mul: number, add: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, mul) + add) >>> 0;
    return state;
  };
}

/** Partial sums of `values` over consecutive chunks of `size` elements. */
function chunkSums(values: readonly number[], size: number): number[] {
  const out: number[] = [];
  for (let start = 0; start < values.length; start += size) out.push(sum(values.slice(start, start + size)));
  return out;
}

function inclusiveScan(values: readonly number[]): number[] {
  let running = 0;
  return values.map((v) => (running += v));
}

const ascending = (a: number, b: number): number => a - b;

// ---------------------------------------------------------------------------------------------
// the programs

function reduceShared(): string {
  const input = range(4000).map(pattern101);
  const partials = chunkSums(input, 256);
  return lines([...partials.map((p, b) => `block ${b}: ${p}`), `sum = ${sum(input)}`]);
}

function reduceWarpShuffle(): string {
  const n = 3000;
  const input = range(n).map((i) => ((i * i) % 97) - 48);
  // shuffleSum<<<8, 128>>> with a grid-stride loop: element i belongs to block (i % 1024) / 128
  const blockSums = new Array<number>(8).fill(0);
  input.forEach((v, i) => (blockSums[Math.floor((i % 1024) / 128)] += v));
  // warpMax<<<12, 256>>>: one warp per 32 consecutive elements, -1000000 for lanes past the end
  const nwarps = (Math.ceil(n / 256) * 256) / 32;
  const maxima = range(nwarps).map((w) => {
    let m = -1000000;
    for (let i = w * 32; i < w * 32 + 32; i++) if (i < n) m = Math.max(m, input[i]);
    return m;
  });
  return lines([
    ...blockSums.map((s, b) => `block ${b}: ${s}`),
    `sum = ${sum(input)}`,
    `warp max[0..3] = ${maxima.slice(0, 4).join(' ')}`,
    `warp max[${nwarps - 1}] = ${maxima[nwarps - 1]}`,
    `warp max sum = ${sum(maxima)} over ${nwarps} warps, ${nwarps} agreeing`,
  ]);
}

function reduceThreadfence(): string {
  const input = range(4000).map((i) => (i * 7919) % 997);
  const run = (label: number, n: number): string => {
    const blocks = Math.ceil(n / 128);
    return `run ${label}: blocks = ${blocks}, sum = ${sum(input.slice(0, n))}, tickets = ${blocks}`;
  };
  return lines([run(1, 4000), run(2, 1000)]);
}

function reduceSyncwarp(): string {
  const input = range(5000).map((i) => (i * 13 + 7) % 251);
  const partials = chunkSums(input, 256);
  return lines([...partials.map((p, b) => `block ${b}: ${p}`), `total = ${sum(input)}`]);
}

function scanBlelloch(): string {
  const n = 2048;
  const input = range(n).map(pattern101);
  const exclusive = new Array<number>(n).fill(0);
  for (let i = 1; i < n; i++) exclusive[i] = exclusive[i - 1] + input[i - 1];
  let checksum = 0;
  exclusive.forEach((v, i) => (checksum += v * ((i % 7) + 1)));
  return lines([
    `block offsets:${spaced([0, 512, 1024, 1536].map((i) => exclusive[i]))}`,
    `out[0..7]:${spaced(exclusive.slice(0, 8))}`,
    `out[510..514]:${spaced(exclusive.slice(510, 515))}`,
    `out[${n - 1}] = ${exclusive[n - 1]}`,
    `total = ${sum(input)}`,
    `checksum = ${checksum}`,
    'mismatches = 0',
  ]);
}

function scanHillisSteele(): string {
  const n = 1536;
  const seg = 512;
  const input = range(n).map((i) => ((i * 5 + 3) % 17) - 8);
  const out: number[] = [];
  for (let s = 0; s < n; s += seg) out.push(...inclusiveScan(input.slice(s, s + seg)));
  let checksum = 0;
  out.forEach((v, i) => (checksum += v * ((i % 5) + 1)));
  const segLines = range(n / seg).map((b) => {
    const f = b * seg;
    return `segment ${b}: first ${out[f]}, [100] ${out[f + 100]}, [255] ${out[f + 255]}, last ${out[f + seg - 1]}`;
  });
  return lines([...segLines, `checksum = ${checksum}`]);
}

function warpScanShfl(): string {
  const n = 1000;
  const input = range(n).map((i) => (i % 11) * (i % 3) + 1);
  const out: number[] = [];
  for (let s = 0; s < n; s += 256) out.push(...inclusiveScan(input.slice(s, s + 256)));
  const totals = chunkSums(input, 256);
  return lines([
    ...totals.map((t, b) => `block ${b} total = ${t}`),
    `out[0..9]:${spaced(out.slice(0, 10))}`,
    `out[31] = ${out[31]}, out[32] = ${out[32]}, out[255] = ${out[255]}, out[256] = ${out[256]}, out[999] = ${out[999]}`,
    `checksum = ${sum(out)}`,
  ]);
}

function matmulTiled(): string {
  const M = 48;
  const K = 64;
  const N = 32;
  const A = (r: number, c: number): number => ((r * 3 + c * 5) % 7) - 3;
  const B = (r: number, c: number): number => ((r * 2 + c * 7) % 5) - 2;
  const C = range(M).map((r) => range(N).map((c) => sum(range(K).map((e) => A(r, e) * B(e, c)))));
  let checksum = 0;
  C.forEach((row, r) => row.forEach((v, c) => (checksum += v * (((r * N + c) % 11) + 1))));
  return lines([
    `C[0][0] = ${formatFixed(C[0][0], 1)}`,
    `C[0][31] = ${formatFixed(C[0][31], 1)}`,
    `C[17][5] = ${formatFixed(C[17][5], 1)}`,
    `C[47][31] = ${formatFixed(C[47][31], 1)}`,
    `row 20:${C[20].map((v) => ` ${formatFixed(v, 0)}`).join('')}`,
    `checksum = ${checksum}`,
    'mismatches = 0',
  ]);
}

function matmulNaive(): string {
  const M = 20;
  const K = 30;
  const N = 25;
  const A = (i: number, e: number): number => ((i + 2 * e) % 9) - 4;
  const B = (e: number, j: number): number => ((3 * e + j) % 7) - 3;
  const C = range(M).map((i) => range(N).map((j) => sum(range(K).map((e) => A(i, e) * B(e, j)))));
  const flat = C.flat();
  let checksum = 0;
  flat.forEach((v, i) => (checksum += v * ((i % 13) + 1)));
  return lines([
    ...C.map((row, i) => `row ${pad(i, 2)}: sum ${pad(sum(row), 5)}, first ${pad(row[0], 4)}, last ${pad(row[N - 1], 4)}`),
    `checksum = ${checksum}`,
  ]);
}

function transposeShared(): string {
  const ROWS = 64;
  const COLS = 96;
  // input[r][c] = r * 1000 + c, so transposed out[r][c] = input[c][r] = c * 1000 + r
  const out = (r: number, c: number): number => c * 1000 + r;
  let checksum = 0;
  for (let r = 0; r < COLS; r++) for (let c = 0; c < ROWS; c++) checksum += out(r, c) * (((r * ROWS + c) % 7) + 1);
  return lines([
    `out[0][0] = ${out(0, 0)}`,
    `out[0][63] = ${out(0, 63)}`,
    `out[95][0] = ${out(95, 0)}`,
    `out[40][33] = ${out(40, 33)}`,
    `out[95][63] = ${out(95, 63)}`,
    `checksum = ${checksum}`,
    'mismatches = 0',
  ]);
}

function histogramShared(): string {
  const next = lcg(99, 1664525, 1013904223);
  const hist = new Array<number>(64).fill(0);
  for (let i = 0; i < 8192; i++) {
    const s = next();
    const byte = ((s >>> 24) & (s >>> 13)) & 0xff;
    hist[byte >> 2]++;
  }
  const out: string[] = [];
  for (let b = 0; b < 64; b += 8) out.push(`bins ${pad(b, 2)}-${pad(b + 7, 2)}:${spaced(hist.slice(b, b + 8))}`);
  out.push(`total = ${sum(hist)}`);
  return lines(out);
}

function histogramGlobal(): string {
  const next = lcg(12345, 1103515245, 12345);
  const values = range(6000).map(() => (next() >>> 16) % 1000);
  const hist = new Array<number>(32).fill(0);
  for (const v of values) hist[Math.floor(v / 32)]++;
  return lines([
    ...hist.map((h, b) => `bin ${pad(b, 2)} [${pad(b * 32, 3)}..${pad(b * 32 + 31, 3)}]: ${h}`),
    `count = ${sum(hist)}`,
    `sum = ${sum(values)}`,
  ]);
}

function bitonicSort(): string {
  const next = lcg(2024, 1664525, 1013904223);
  const data = range(1024).map(() => ((next() >>> 8) % 2001) - 1000);
  const out: string[] = [];
  for (let b = 0; b < 2; b++) {
    const seg = data.slice(b * 512, b * 512 + 512).sort(ascending);
    let checksum = 0;
    seg.forEach((v, i) => (checksum += v * (i + 1)));
    out.push(`block ${b} first:${spaced(seg.slice(0, 8))}`);
    out.push(`block ${b} last:${spaced(seg.slice(504))}`);
    out.push(`block ${b} median pair: ${seg[255]} ${seg[256]}`);
    out.push(`block ${b} sorted = yes, checksum = ${checksum}`);
  }
  return lines(out);
}

function oddEvenSort(): string {
  const next = lcg(7, 1103515245, 12345);
  const data = range(512).map(() => (next() >>> 16) % 500);
  const out: string[] = [];
  for (let b = 0; b < 2; b++) {
    const seg = data.slice(b * 256, b * 256 + 256).sort(ascending);
    out.push(`segment ${b}:`);
    for (let r = 0; r < 16; r++) out.push(seg.slice(r * 16, r * 16 + 16).map((v) => ` ${pad(v, 3)}`).join(''));
  }
  return lines(out);
}

function stencil1d(): string {
  const n = 2048;
  const input = range(n).map(pattern101);
  const at = (i: number): number => (i >= 0 && i < n ? input[i] : 0);
  const out = range(n).map((i) => {
    let r = 0;
    for (let off = -3; off <= 3; off++) r += (off + 4) * at(i + off);
    return r;
  });
  let checksum = 0;
  out.forEach((v, i) => (checksum += v * ((i % 7) + 1)));
  return lines([
    `out[0..3]: ${out.slice(0, 4).join(' ')}`,
    `out[253..258]: ${out.slice(253, 259).join(' ')}`,
    `out[2044..2047]: ${out.slice(2044, 2048).join(' ')}`,
    `checksum = ${checksum}`,
  ]);
}

function stencil2d(): string {
  const W = 40;
  const H = 24;
  let grid = range(W * H).map((idx) => {
    const x = idx % W;
    const y = Math.floor(idx / W);
    return ((x * x + 3 * y) % 50) * 16;
  });
  for (let it = 0; it < 4; it++) {
    const prev = grid;
    grid = prev.map((v, idx) => {
      const x = idx % W;
      const y = Math.floor(idx / W);
      if (x === 0 || y === 0 || x === W - 1 || y === H - 1) return v;
      return Math.floor((4 * v + prev[idx - 1] + prev[idx + 1] + prev[idx - W] + prev[idx + W]) / 8);
    });
  }
  let checksum = 0;
  grid.forEach((v, idx) => (checksum += v * (((idx % W) + 2 * Math.floor(idx / W)) % 5 + 1)));
  return lines([
    `row 12:${spaced(grid.slice(12 * W, 13 * W))}`,
    `column 17:${spaced(range(H).map((y) => grid[y * W + 17]))}`,
    `checksum = ${checksum}`,
  ]);
}

function workQueue(): string {
  const total = 8 * 128 * 2;
  const checksum = sum(range(total).map((id) => pattern101(id) * ((id % 7) + 1)));
  return lines([
    `items = ${total}`,
    `head = ${total}, tail = ${total}`,
    `processed = ${total}`,
    `exactly once = ${total}, missing = 0, duplicated = 0`,
    `checksum = ${checksum}`,
  ]);
}

function dynamicShared(): string {
  const n = 512;
  const reverseSegments = (xs: number[], size: number): number[] =>
    xs.map((_, i) => {
      const base = i - (i % size);
      return xs[base + size - 1 - (i - base)];
    });
  const a = reverseSegments(reverseSegments(range(n), 64), 128);
  const vals = range(n).map((i) => f32(((i * 3) % 19) * 0.25));
  const segLines = range(n / 64).map((b) => {
    const keys = sum(range(64).map((t) => b * 64 + t));
    const v = sum(vals.slice(b * 64, b * 64 + 64));
    return `segment ${b}: keys ${keys}, vals ${formatFixed(v, 2)}`;
  });
  return lines([`a[0..7]:${spaced(a.slice(0, 8))}`, `a[60..67]:${spaced(a.slice(60, 68))}`, `a[511] = ${a[511]}`, ...segLines]);
}

function templateKernel(): string {
  const n = 1000;
  const hi = range(n).map((i) => pattern101(i) - 50);
  const hf = range(n).map((i) => f32(((i * 13) % 41) * 0.5));
  const intSq = (v: number): number => Math.trunc((v * v) / 2);
  const floatSq = (v: number): number => f32(f32(v * v) / 2);
  const intLine = (block: number): string => {
    const blocks = chunkSums(hi, block);
    return `int/${block}:${spaced(blocks)} | total ${sum(blocks)}`;
  };
  const floatLine = (block: number): string => {
    const blocks = chunkSums(hf, block);
    return `float/${block}:${blocks.map((v) => ` ${formatFixed(v, 1)}`).join('')} | total ${formatFixed(sum(blocks), 1)}`;
  };
  return lines([
    `${intLine(128)} | sq[7] ${intSq(hi[7])} sq[999] ${intSq(hi[999])}`,
    intLine(256),
    `${floatLine(128)} | sq[7] ${formatFixed(floatSq(hf[7]), 3)} sq[999] ${formatFixed(floatSq(hf[999]), 3)}`,
    floatLine(256),
  ]);
}

function aosUpdate(): string {
  const BOX = 20;
  interface P {
    x: number;
    y: number;
    vx: number;
    vy: number;
    fast: boolean;
    hits: number;
  }
  const ps: P[] = range(500).map((i) => ({
    x: (i % 41) * 0.5,
    y: ((i * 7) % 41) * 0.5,
    vx: (i % 7) - 3,
    vy: ((i * 3) % 5) - 2,
    fast: i % 4 === 0,
    hits: 0,
  }));
  // returns [position, velocity, hit]
  const reflect = (pos: number, vel: number): [number, number, number] => {
    if (pos < 0) return [-pos, -vel, 1];
    if (pos > BOX) return [f32(2 * BOX - pos), -vel, 1];
    return [pos, vel, 0];
  };
  for (let step = 0; step < 10; step++) {
    for (const p of ps) {
      for (let s = 0; s < (p.fast ? 2 : 1); s++) {
        p.x = f32(p.x + f32(p.vx * 0.5));
        p.y = f32(p.y + f32(p.vy * 0.5));
        let h: number;
        [p.x, p.vx, h] = reflect(p.x, p.vx);
        p.hits += h;
        [p.y, p.vy, h] = reflect(p.y, p.vy);
        p.hits += h;
      }
    }
  }
  const f1 = (v: number): string => formatFixed(v, 1);
  const sampleLines = [0, 1, 123, 499].map((i) => {
    const p = ps[i];
    return `p[${i}] = (${f1(p.x)}, ${f1(p.y)}) v = (${f1(p.vx)}, ${f1(p.vy)}) hits ${p.hits}`;
  });
  const sx = sum(ps.map((p) => p.x));
  const sy = sum(ps.map((p) => p.y));
  return lines([...sampleLines, `sum x = ${f1(sx)}, sum y = ${f1(sy)}, hits = ${sum(ps.map((p) => p.hits))}`]);
}

function soaUpdate(): string {
  const n = 1200;
  const pos = range(n).map((i) => (i % 17) - 8);
  const vel = range(n).map((i) => ((i * 7) % 5) - 2);
  const positive = new Array<number>(n).fill(0);
  let tally = 0;
  for (let step = 0; step < 8; step++) {
    for (let i = 0; i < n; i++) {
      const v = vel[i];
      pos[i] = f32(pos[i] + f32(v * 1.25));
      if (v !== 0 && (pos[i] > 6 || pos[i] < -6)) vel[i] = -v;
    }
    for (let i = 0; i < n; i++) {
      if (pos[i] > 0) {
        positive[i]++;
        tally++;
      }
    }
  }
  const f2 = (v: number): string => formatFixed(v, 2);
  const elem = (i: number): string => `elem ${i}: pos ${f2(pos[i])} vel ${f2(vel[i])} positive ${positive[i]}`;
  return lines([
    ...range(5).map(elem),
    elem(n - 1),
    `sum pos = ${f2(sum(pos))}`,
    `positive steps = ${sum(positive)}, tally = ${tally}`,
  ]);
}

function pipelineMultikernel(): string {
  const n = 1024;
  const a = range(n).map((i) => (i * 29 + 3) % 211);
  const b = a.map((v) => (v * v) % 1000);
  const c = b.map((v, i) => v + i);
  const d = c.map((v, i) => (i === 0 ? v : v - c[i - 1]));
  const show = (xs: number[]): string => `${xs.slice(0, 4).join(' ')} ... ${xs[n - 1]}`;
  const blockLines = range(n / 128).map((blk) => {
    const seg = d.slice(blk * 128, blk * 128 + 128);
    return `stage 3 block ${blk}: max ${Math.max(...seg)} sum ${sum(seg)}`;
  });
  return lines([`stage 1: ${show(b)}`, `stage 2: ${show(d)}`, ...blockLines, `total = ${sum(d)}`]);
}

function spinlockBlocks(): string {
  const input = range(16 * 64).map(pattern101);
  const blockSums = chunkSums(input, 64);
  return lines([
    `counter = ${sum(input)}`,
    'acquisitions = 16',
    `largest block sum = ${Math.max(...blockSums)}`,
    `tickets distinct = yes, ticket sum = ${sum(range(16))}`,
  ]);
}

function vectorAddFloat4(): string {
  const n = 4099;
  const c = range(n).map((i) => f32(f32((i % 100) * 0.25) + ((i % 7) - 3)));
  const f2 = (v: number): string => formatFixed(v, 2);
  return lines([
    `c[0..3] = ${c.slice(0, 4).map(f2).join(' ')}`,
    `c[1001] = ${f2(c[1001])}`,
    `c[4095..4098] = ${c.slice(4095, 4099).map(f2).join(' ')}`,
    `sum = ${f2(sum(c))}`,
    'mismatches = 0',
  ]);
}

function constantPoly(): string {
  const p = (x: number): number => 11 - 7 * x + 5 * x ** 2 - 2 * x ** 3 + 3 * x ** 4;
  const q = (x: number): number => 1.5 - 0.5 * x + 0.25 * x ** 2 + 0.125 * x ** 3;
  const out: string[] = [];
  for (let i = 0; i < 64; i += 9) out.push(`p(${i - 16}) = ${p(i - 16)}, q(${formatFixed((i - 32) * 0.5, 1)}) = ${f6(q((i - 32) * 0.5))}`);
  out.push(`sum p = ${sum(range(64).map((i) => p(i - 16)))}`);
  out.push(`sum q = ${f6(sum(range(64).map((i) => q((i - 32) * 0.5))))}`);
  return lines(out);
}

function managedAccumulate(): string {
  const n = 1500;
  const buf = range(n).map((i) => (i * 17 + 5) % 23);
  const pass = (scale: number): [number, number] => {
    const vs = buf.map((v) => v * scale);
    return [sum(vs), vs.filter((v) => v % 2 === 0).length];
  };
  const [t1, e1] = pass(1);
  for (let i = 0; i < n; i++) buf[i] += 5 * (i % 3);
  for (let i = 0; i < n; i += 500) buf[i] = -buf[i];
  const [t2, e2] = pass(3);
  return lines([
    `pass 1: total = ${t1}, evens = ${e1}`,
    `pass 2: total = ${t2}, evens = ${e2}`,
    `buf[0..4] = ${buf.slice(0, 5).join(' ')}, buf[1000] = ${buf[1000]}`,
  ]);
}

function ballotPopc(): string {
  const input = range(512).map(pattern101);
  const out: string[] = [];
  let count = 0;
  let csum = 0;
  for (let w = 0; w < 16; w++) {
    const lanes = input.slice(w * 32, w * 32 + 32);
    let mask = 0;
    lanes.forEach((v, lane) => {
      if (v % 3 === 0) {
        mask |= 1 << lane;
        count++;
        csum += v;
      }
    });
    const votes = lanes.filter((v) => v % 3 === 0).length;
    const anyBig = lanes.some((v) => v > 95) ? 1 : 0;
    const allPos = lanes.every((v) => v > 0) ? 1 : 0;
    out.push(`warp ${pad(w, 2)}: ballot ${hex8(mask)} count ${pad(votes, 2)} any>95 ${anyBig} all>0 ${allPos}`);
  }
  out.push(`compacted ${count} values, sum ${csum}`);
  out.push('lanes in own activemask = 512 of 512');
  return lines(out);
}

function saxpyGridStride(): string {
  const n = 8000;
  const threads = 4 * 256;
  const x = range(n).map((i) => f32((i % 50) * 0.5));
  let y = range(n).map((i) => (i % 9) - 4);
  for (const a of [2.5, -0.75]) y = y.map((v, i) => f32(a * x[i] + v));
  const iterations = range(threads).map((t) => 2 * Math.ceil((n - t) / threads));
  const f3 = (v: number): string => formatFixed(v, 3);
  return lines([
    `y[0] = ${f3(y[0])}, y[1] = ${f3(y[1])}, y[49] = ${f3(y[49])}, y[7999] = ${f3(y[n - 1])}`,
    `sum y = ${f3(sum(y))}`,
    `threads with 14 iterations = ${iterations.filter((k) => k === 14).length}, with 16 = ${iterations.filter((k) => k === 16).length}, total = ${sum(iterations)}`,
  ]);
}

function atomicMinMax(): string {
  const v = range(3000).map((i) => ((i * 7919) % 6007) - 3000);
  v[0] = v[2500] = -3100;
  v[10] = v[2990] = 3100;
  const mn = Math.min(...v);
  const mx = Math.max(...v);
  return lines([
    `min = ${mn} at first index ${v.indexOf(mn)}`,
    `max = ${mx} at last index ${v.lastIndexOf(mx)}`,
    `max |v| = ${Math.max(...v.map(Math.abs))}`,
  ]);
}

function syncthreadsCount(): string {
  const n = 1100;
  const threads = 192;
  const input = range(n).map((i) => pattern101(i) + (i >= 500 ? 1 : 0));
  const blocks = Math.ceil(n / threads);
  const out: string[] = [];
  let total = 0;
  for (let b = 0; b < blocks; b++) {
    const vs = range(threads).map((t) => (b * threads + t < n ? input[b * threads + t] : 1));
    const above = vs.filter((v) => v > 60).length;
    total += above;
    const allNonZero = vs.every((v) => v !== 0) ? 1 : 0;
    const anyHundred = vs.some((v) => v === 100) ? 1 : 0;
    out.push(`block ${b}: above 60 = ${above}, all nonzero = ${allNonZero}, any 100 = ${anyHundred}`);
  }
  out.push(`total above = ${total}`);
  return lines(out);
}

function atomicsVariants(): string {
  const blocks = 3;
  const threads = 259;
  const ts = range(blocks * threads);
  let andBits = 0xffffffff;
  let orBits = 0;
  let xorBits = 0x12345678;
  let inc = 0;
  let dec = 0;
  for (const t of ts) {
    andBits &= ~(1 << (t % 29)) | (t % 2 === 0 ? 0x10000000 : 0);
    orBits |= 1 << (t % 23);
    xorBits ^= Math.imul(t, 2654435761);
    inc = inc >= 9 ? 0 : inc + 1;
    dec = dec === 0 || dec > 9 ? 9 : dec - 1;
  }
  const big = ts.reduce((acc, t) => acc + BigInt(t) * 1000000n, 0n);
  return lines([
    `add = ${sum(ts.map((t) => t % 10))}`,
    `sub = ${1000 - sum(ts.map((t) => t % 4))}`,
    `and = ${hex8(andBits)}`,
    `or = ${hex8(orBits)}`,
    `xor = ${hex8(xorBits)}`,
    `inc = ${inc}`,
    `dec = ${dec}`,
    `cas sum = ${sum(ts.map((t) => t % 5))}`,
    `exch returned + final = ${-5 + sum(ts)}`,
    `big = ${big}`,
    `fsum = ${formatFixed(sum(ts.map((t) => t % 8)), 1)}`,
    `block totals = ${sum(range(blocks).map((b) => threads * (b + 1)))}`,
    `system add = ${2 * ts.length}`,
  ]);
}

function constantStructProgram(): string {
  const program: [string, number][] = [
    ['mul', 13],
    ['add', 7],
    ['xor', 0x5a],
    ['shr', 1],
    ['min', 1500],
    ['negIfOdd', 0],
    ['add', -3],
  ];
  const run = (start: number): number => {
    let x = start;
    for (const [op, k] of program) {
      if (op === 'mul') x = Math.imul(x, k);
      else if (op === 'add') x = (x + k) | 0;
      else if (op === 'xor') x ^= k;
      else if (op === 'shr') x >>= k;
      else if (op === 'min') x = Math.min(x, k);
      else if (op === 'negIfOdd' && x & 1) x = -x;
    }
    return x;
  };
  const out = range(96).map((i) => run(i * 3 + (i % 5)));
  return lines(range(8).map((r) => `out[${pad(r * 12, 2)}..${pad(r * 12 + 11, 2)}]:${spaced(out.slice(r * 12, r * 12 + 12))}`));
}

function grid3dIndex(): string {
  const NX = 16;
  const NY = 12;
  const NZ = 8;
  const vol = new Array<number>(NX * NY * NZ).fill(0);
  for (let z = 0; z < NZ; z++)
    for (let y = 0; y < NY; y++)
      for (let x = 0; x < NX; x++) {
        // block (8, 4, 2), grid (2, 3, 4)
        const linearThread = (x % 8) + 8 * ((y % 4) + 4 * (z % 2));
        const linearBlock = Math.floor(x / 8) + 2 * (Math.floor(y / 4) + 3 * Math.floor(z / 2));
        vol[(z * NY + y) * NX + x] = x * 100000 + y * 1000 + z * 100 + (linearThread % 10) * 10 + (linearBlock % 10);
      }
  const last = vol.length - 1;
  return lines([
    'grid = 2 x 3 x 4, threads per block = 64',
    `vol[0] = ${vol[0]}, vol[1] = ${vol[1]}, vol[16] = ${vol[16]}, vol[192] = ${vol[192]}, vol[${last}] = ${vol[last]}`,
    ...chunkSums(vol, NX * NY).map((s, z) => `slice ${z} sum = ${s}`),
  ]);
}

// ---------------------------------------------------------------------------------------------

export const SIM_PROGRAMS: SimProgram[] = [
  { file: 'reduce_shared.cu', description: 'sum reduction with a shared-memory tree, two launches', expectedStdout: reduceShared },
  { file: 'reduce_warp_shuffle.cu', description: 'sum reduction with __shfl_down_sync/__shfl_xor_sync, warp max butterfly', expectedStdout: reduceWarpShuffle },
  { file: 'reduce_threadfence.cu', description: 'last-block-done reduction: __threadfence + atomicInc ticket, launched twice', expectedStdout: reduceThreadfence },
  { file: 'reduce_syncwarp.cu', description: 'shared-memory reduction with a __syncwarp()-separated warp tail', expectedStdout: reduceSyncwarp },
  { file: 'scan_blelloch.cu', description: 'Blelloch exclusive scan per block, then block offsets (three kernels)', expectedStdout: scanBlelloch },
  { file: 'scan_hillis_steele.cu', description: 'Hillis-Steele inclusive scan with a double-buffered shared array', expectedStdout: scanHillisSteele },
  { file: 'warp_scan_shfl.cu', description: 'block inclusive scan from __shfl_up_sync warp scans', expectedStdout: warpScanShfl },
  { file: 'matmul_tiled.cu', description: 'tiled matrix multiply with 16x16 shared tiles on a 2x3 dim3 grid', expectedStdout: matmulTiled },
  { file: 'matmul_naive.cu', description: 'naive integer matrix multiply with bounds checks (20x30 * 30x25)', expectedStdout: matmulNaive },
  { file: 'transpose_shared.cu', description: 'matrix transpose through a padded 32x33 shared tile', expectedStdout: transposeShared },
  { file: 'histogram_shared.cu', description: '64-bin histogram: shared-memory atomicAdd_block, merged with global atomicAdd', expectedStdout: histogramShared },
  { file: 'histogram_global.cu', description: '32-bin histogram with global atomics and a 64-bit atomicAdd sum', expectedStdout: histogramGlobal },
  { file: 'bitonic_sort.cu', description: 'bitonic sort of two 512-element segments in shared memory', expectedStdout: bitonicSort },
  { file: 'odd_even_sort.cu', description: 'odd-even transposition sort of two 256-element segments', expectedStdout: oddEvenSort },
  { file: 'stencil_1d.cu', description: 'radius-3 weighted 1D stencil with a shared-memory halo', expectedStdout: stencil1d },
  { file: 'stencil_2d.cu', description: '5-point integer Jacobi on a 40x24 grid, dim3 launch, shared tile with halo', expectedStdout: stencil2d },
  { file: 'work_queue.cu', description: 'producer/consumer queue in one kernel: atomicAdd tail, atomicCAS head, each item once', expectedStdout: workQueue },
  { file: 'dynamic_shared.cu', description: 'extern __shared__ sized at launch: segment reversal and an int/float split buffer', expectedStdout: dynamicShared },
  { file: 'template_kernel.cu', description: 'templated block sum for int/float x block size 128/256 via a host template', expectedStdout: templateKernel },
  { file: 'aos_update.cu', description: 'array of structs: particles bouncing in a box over 10 launches', expectedStdout: aosUpdate },
  { file: 'soa_update.cu', description: 'struct of device pointers passed by value; integrate and count per step', expectedStdout: soaUpdate },
  { file: 'pipeline_multikernel.cu', description: 'three kernels with host round trips and a device-to-device copy', expectedStdout: pipelineMultikernel },
  { file: 'spinlock_blocks.cu', description: 'cross-block spin lock (atomicCAS/__threadfence/atomicExch), one thread per block', expectedStdout: spinlockBlocks },
  { file: 'vector_add_float4.cu', description: 'vector add through float4 loads/stores plus a scalar tail kernel', expectedStdout: vectorAddFloat4 },
  { file: 'constant_poly.cu', description: '__constant__ polynomial coefficients via cudaMemcpyToSymbol (with offset)', expectedStdout: constantPoly },
  { file: 'managed_accumulate.cu', description: '__managed__ globals and cudaMallocManaged buffer touched by host and device', expectedStdout: managedAccumulate },
  { file: 'ballot_popc.cu', description: '__ballot_sync/__popc vote counting and compaction, __any_sync/__all_sync/__activemask', expectedStdout: ballotPopc },
  { file: 'saxpy_grid_stride.cu', description: 'grid-stride SAXPY, two launches, per-thread iteration counts', expectedStdout: saxpyGridStride },
  { file: 'atomic_minmax.cu', description: 'atomicMin/atomicMax on values, magnitudes and indices', expectedStdout: atomicMinMax },
  { file: 'syncthreads_count.cu', description: '__syncthreads_count/_and/_or per 192-thread block', expectedStdout: syncthreadsCount },
  { file: 'atomics_variants.cu', description: 'order-independent atomics: add/sub/and/or/xor/inc/dec/CAS/exch/64-bit/float/_block/_system', expectedStdout: atomicsVariants },
  { file: 'constant_struct_program.cu', description: 'interpreter over an enum/struct program in __constant__ memory', expectedStdout: constantStructProgram },
  { file: 'grid3d_index.cu', description: '3D grid and 3D blocks: coordinates, gridDim/blockDim, per-slice sums', expectedStdout: grid3dIndex },
];
