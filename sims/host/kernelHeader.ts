// The launch of a kernel-only file, as GPUVerify's test files give it in their first comment
// lines:
//
//   //pass
//   //--blockDim=64 --gridDim=2 -DWIDTH=256
//   //--blockDim=[8,8] --gridDim=[2,2,1]
//
// Only `//` lines before any code count, and of those only the ones whose text starts with
// a `-` (so `//pass`, `//xfail:…` and prose are skipped). `--blockDim`, `--gridDim`,
// `--warp-sync=N` and `-DNAME[=VALUE]` are read; every other flag is ignored, as GPUVerify has
// many that mean nothing here. A value that does not parse is an error at its line and column.

export type Dim3 = [number, number, number];

export interface KernelHeader {
  grid?: Dim3;
  block?: Dim3;
  /** `-D` definitions, as the command line's `-D` takes them (`NAME` or `NAME=VALUE`). */
  defines: string[];
  /**
   * `--warp-sync=N`: the kernel is written for warps of N threads that run in lockstep
   * (GPUVerify's assumption for warp-synchronous code, as before Volta).
   */
  warpSync?: number;
}

/**
 * Whether a header's `--warp-sync=N` makes the simulator's warps run in lockstep: its warps
 * have 32 lanes, so when N is 32 or more, or a block has no more than N threads (one warp of
 * either size holds the whole block). A smaller N with bigger blocks would put threads of
 * different N-warps in one lockstep warp, hiding their races: then it is not honoured.
 */
export function headerLockstep(header: KernelHeader): boolean {
  if (header.warpSync === undefined) return false;
  const threads = header.block ? header.block[0] * header.block[1] * header.block[2] : 1;
  return header.warpSync >= 32 || threads <= header.warpSync;
}

/** A malformed header, 1-based. */
export interface HeaderProblem {
  message: string;
  line: number;
  column: number;
  endColumn: number;
}

/** Largest dimension accepted (CUDA's gridDim.x limit); devices bound them further. */
const MAX_DIM = 2 ** 31 - 1;

/**
 * `64`, `8,8`, `[8,8]` or `[2,2,1]`: one to three positive integers; missing ones are 1.
 * Returns the message of what is wrong instead when it is not such a list.
 */
export function parseDim3(text: string): Dim3 | string {
  const inner = /^\[(.*)\]$/s.exec(text)?.[1] ?? text;
  const parts = inner.split(',').map((p) => p.trim());
  const expected = 'expected a positive integer or [x,y,z] with one to three of them';
  if (parts.length > 3) return `too many dimensions in '${text}': ${expected}`;
  const dims: number[] = [];
  for (const p of parts) {
    if (!/^\d+$/.test(p)) return `'${text}' is not a dimension: ${expected}`;
    const v = Number(p);
    if (v < 1) return `'${text}' has a zero dimension: every dimension must be at least 1`;
    if (v > MAX_DIM) return `'${text}' has a dimension larger than ${MAX_DIM}`;
    dims.push(v);
  }
  while (dims.length < 3) dims.push(1);
  return dims as Dim3;
}

/** Reads the header of a CUDA file's text; a problem-free file without one gives `{ defines: [] }`. */
export function readKernelHeader(text: string): { header: KernelHeader; problems: HeaderProblem[] } {
  const header: KernelHeader = { defines: [] };
  const problems: HeaderProblem[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    const trimmed = line.trimStart();
    if (trimmed === '') continue;
    if (!trimmed.startsWith('//')) break;
    let i = line.length - trimmed.length + 2;
    while (i < line.length && /\s/.test(line[i])) i++;
    if (line[i] !== '-') continue;
    const list = words(line, i);
    for (let w = 0; w < list.length; w++) {
      let word = list[w];
      // `-D NAME` as two words, as compilers also take it.
      if (word.text === '-D' && w + 1 < list.length) {
        const name = list[++w];
        word = { text: `-D${name.text}`, column: word.column, end: name.end };
      }
      const problem = (message: string, column = word.column, endColumn = word.end): void => {
        problems.push({ message, line: n + 1, column, endColumn });
      };
      const m = /^--(blockDim|gridDim)(?:=(.*))?$/s.exec(word.text);
      if (m) {
        const flag = `--${m[1]}`;
        if (m[2] === undefined || m[2] === '') {
          problem(`${flag} needs a value: ${flag}=N or ${flag}=[x,y,z]`);
          continue;
        }
        const dims = parseDim3(m[2]);
        if (typeof dims === 'string') problem(`malformed ${flag}: ${dims}`, word.column + flag.length + 1);
        else if (m[1] === 'blockDim') header.block = dims;
        else header.grid = dims;
      } else if (/^--warp-sync(=|$)/.test(word.text)) {
        const v = word.text.slice('--warp-sync='.length);
        if (!/^[1-9]\d{0,3}$/.test(v)) problem(`--warp-sync needs the warp's size in threads: --warp-sync=32`);
        else header.warpSync = Number(v);
      } else if (word.text.startsWith('-D')) {
        const def = word.text.slice(2);
        if (!/^[A-Za-z_]\w*(=.*)?$/s.test(def)) problem(`malformed -D '${word.text}': expected -DNAME or -DNAME=VALUE`);
        else header.defines.push(def);
      }
    }
  }
  return { header, problems };
}

/** A word of a header line: its 1-based column and the column just past it. */
interface Word {
  text: string;
  column: number;
  end: number;
}

/** The whitespace-separated words of a line from `start`, a `[…]` kept whole (`[8, 8]`). */
function words(line: string, start: number): Word[] {
  const out: Word[] = [];
  let i = start;
  while (i < line.length) {
    while (i < line.length && /\s/.test(line[i])) i++;
    if (i >= line.length) break;
    const begin = i;
    let depth = 0;
    while (i < line.length && (depth > 0 || !/\s/.test(line[i]))) {
      if (line[i] === '[') depth++;
      else if (line[i] === ']') depth = Math.max(0, depth - 1);
      i++;
    }
    out.push({ text: line.slice(begin, i), column: begin + 1, end: i + 1 });
  }
  return out;
}

/**
 * The header's -D lines that the command line or settings do not define or undefine
 * themselves (their own flags win), to join every unit's flags.
 */
export function headerDefines(header: KernelHeader, defines: readonly string[], undefines: readonly string[]): string[] {
  const name = (d: string): string => d.split('=')[0];
  const own = new Set([...defines.map(name), ...undefines]);
  return header.defines.filter((d) => !own.has(name(d)));
}
