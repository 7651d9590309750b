// What the runner needs to know about a host program's .wasm before running it, read from the
// binary itself: the signature of each import (a JavaScript import must return a BigInt for an
// i64 result, nothing for a void one), the names of functions (the `name` section), where the
// code section starts (DWARF addresses count from there) and the custom sections holding DWARF.

export type ValueType = 'i32' | 'i64' | 'f32' | 'f64' | 'v128' | 'funcref' | 'externref';

export interface FunctionType {
  params: ValueType[];
  results: ValueType[];
}

export interface WasmImport {
  module: string;
  name: string;
  kind: 'function' | 'table' | 'memory' | 'global';
  /** The size an imported memory must start with, in 64 KB pages. */
  minimumPages?: number;
  /** The signature of an imported function. */
  type?: FunctionType;
}

export interface WasmInfo {
  imports: WasmImport[];
  /** Function index → name, from the `name` section (imports first, as the index space is). */
  functionNames: Map<number, string>;
  /** Byte offset of the code section's contents in the module (DWARF code addresses start there). */
  codeOffset: number;
  /** Custom sections by name (`.debug_line`, `.debug_line_str`, …), as views into the module. */
  custom: Map<string, Uint8Array>;
}

const VALUE_TYPES: Record<number, ValueType> = { 0x7f: 'i32', 0x7e: 'i64', 0x7d: 'f32', 0x7c: 'f64', 0x7b: 'v128', 0x70: 'funcref', 0x6f: 'externref' };

export class WasmFormatError extends Error {}

/** Reads the sections of a module; throws WasmFormatError on a malformed one. */
export function readWasm(bytes: Uint8Array): WasmInfo {
  const r = new ByteReader(bytes);
  if (r.u32le() !== 0x6d736100) throw new WasmFormatError('not a WebAssembly module (bad magic number)');
  if (r.u32le() !== 1) throw new WasmFormatError('unsupported WebAssembly version');
  const types: FunctionType[] = [];
  const imports: WasmImport[] = [];
  const functionNames = new Map<number, string>();
  const custom = new Map<string, Uint8Array>();
  let codeOffset = -1;
  while (!r.done()) {
    const id = r.byte();
    const size = r.uleb();
    const start = r.pos;
    const end = start + size;
    if (end > bytes.length) throw new WasmFormatError('a section runs past the end of the module');
    const s = new ByteReader(bytes.subarray(0, end), start);
    if (id === 0) {
      const name = s.name();
      if (name === 'name') readNames(s, end, functionNames);
      else custom.set(name, bytes.subarray(s.pos, end));
    } else if (id === 1) {
      for (let n = s.uleb(); n > 0; n--) {
        if (s.byte() !== 0x60) throw new WasmFormatError('unsupported type in the type section');
        const params = s.vec(() => valueType(s.byte()));
        const results = s.vec(() => valueType(s.byte()));
        types.push({ params, results });
      }
    } else if (id === 2) {
      for (let n = s.uleb(); n > 0; n--) {
        const module = s.name();
        const name = s.name();
        const kind = s.byte();
        if (kind === 0) {
          imports.push({ module, name, kind: 'function', type: types[s.uleb()] ?? { params: [], results: [] } });
        } else if (kind === 1) {
          s.byte();
          s.limits();
          imports.push({ module, name, kind: 'table' });
        } else if (kind === 2) {
          imports.push({ module, name, kind: 'memory', minimumPages: s.limits() });
        } else if (kind === 3) {
          s.byte();
          s.byte();
          imports.push({ module, name, kind: 'global' });
        } else throw new WasmFormatError(`unknown import kind ${kind}`);
      }
    } else if (id === 10) {
      codeOffset = start;
    }
    r.pos = end;
  }
  return { imports, functionNames, codeOffset, custom };
}

function valueType(b: number): ValueType {
  const t = VALUE_TYPES[b];
  if (!t) throw new WasmFormatError(`unknown value type 0x${b.toString(16)}`);
  return t;
}

/** The function-names subsection (1) of the `name` section. */
function readNames(s: ByteReader, end: number, out: Map<number, string>): void {
  while (s.pos < end) {
    const sub = s.byte();
    const size = s.uleb();
    const next = s.pos + size;
    if (sub === 1) {
      for (let n = s.uleb(); n > 0; n--) {
        const index = s.uleb();
        out.set(index, s.name());
      }
    }
    s.pos = next;
  }
}

const utf8 = new TextDecoder();

/** A cursor over little-endian bytes with LEB128 integers. */
export class ByteReader {
  constructor(
    readonly bytes: Uint8Array,
    public pos = 0,
  ) {}

  done(): boolean {
    return this.pos >= this.bytes.length;
  }

  byte(): number {
    if (this.pos >= this.bytes.length) throw new WasmFormatError('unexpected end of data');
    return this.bytes[this.pos++];
  }

  u16le(): number {
    return this.byte() | (this.byte() << 8);
  }

  u32le(): number {
    return (this.byte() | (this.byte() << 8) | (this.byte() << 16) | (this.byte() << 24)) >>> 0;
  }

  u64le(): number {
    const lo = this.u32le();
    const hi = this.u32le();
    return hi * 2 ** 32 + lo;
  }

  uleb(): number {
    let result = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      result += (b & 0x7f) * scale;
      scale *= 128;
      if (!(b & 0x80)) return result;
    }
  }

  sleb(): number {
    let result = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      result += (b & 0x7f) * scale;
      scale *= 128;
      if (!(b & 0x80)) return b & 0x40 ? result - scale : result;
    }
  }

  /** A length-prefixed UTF-8 name. */
  name(): string {
    const n = this.uleb();
    if (this.pos + n > this.bytes.length) throw new WasmFormatError('a name runs past the end of its section');
    const s = utf8.decode(this.bytes.subarray(this.pos, this.pos + n));
    this.pos += n;
    return s;
  }

  /** A NUL-terminated UTF-8 string. */
  cstring(): string {
    const start = this.pos;
    while (this.byte() !== 0);
    return utf8.decode(this.bytes.subarray(start, this.pos - 1));
  }

  vec<T>(item: () => T): T[] {
    const out: T[] = [];
    for (let n = this.uleb(); n > 0; n--) out.push(item());
    return out;
  }

  /** A limits record; returns its minimum. */
  limits(): number {
    const flags = this.byte();
    const minimum = this.uleb();
    if (flags & 1) this.uleb();
    return minimum;
  }
}
