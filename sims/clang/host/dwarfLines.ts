// The line table of a host program (DWARF `.debug_line`, versions 2–5, as clang writes it with
// -debug-info-kind=line-tables-only and wasm-ld keeps it): code address → file, line, column. In
// WebAssembly a code address is a byte offset into the code section's contents, so a trap's or
// a call's position in the module maps to the source line that made it.
import { ByteReader } from './wasmBinary';

export interface LineLocation {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based; 0 when none was recorded. */
  column: number;
}

interface Row {
  address: number;
  file: string;
  line: number;
  column: number;
}

/** One contiguous run of code (a function, usually): rows by increasing address, and its end. */
interface Sequence {
  start: number;
  end: number;
  rows: Row[];
}

const DW_LNCT_path = 1;
const DW_LNCT_directory_index = 2;

const DW_FORM = { block: 0x09, block1: 0x0a, block2: 0x03, block4: 0x04, data1: 0x0b, data2: 0x05, data4: 0x06, data8: 0x07, data16: 0x1e, string: 0x08, strp: 0x0e, line_strp: 0x1f, udata: 0x0f, sdata: 0x0d, strx: 0x1a, strx1: 0x25, strx2: 0x26, strx3: 0x27, strx4: 0x28 } as const;

export class LineTable {
  private readonly sequences: Sequence[] = [];

  /**
   * Parses `.debug_line`; `lineStr` and `str` are `.debug_line_str` and `.debug_str` (DWARF 5
   * keeps file names there). A unit the reader does not understand is skipped, never fatal.
   */
  constructor(debugLine: Uint8Array | undefined, lineStr?: Uint8Array, str?: Uint8Array) {
    if (!debugLine) return;
    let offset = 0;
    while (offset + 4 <= debugLine.length) {
      const r = new ByteReader(debugLine, offset);
      let length = r.u32le();
      let offsetSize = 4;
      if (length === 0xffffffff) {
        length = r.u64le();
        offsetSize = 8;
      }
      const end = r.pos + length;
      if (length === 0 || end > debugLine.length) break;
      try {
        this.readUnit(new ByteReader(debugLine.subarray(0, end), r.pos), offsetSize, lineStr, str);
      } catch {
        // A malformed or unknown unit: its functions stay without lines.
      }
      offset = end;
    }
    this.sequences.sort((a, b) => a.start - b.start);
  }

  get empty(): boolean {
    return this.sequences.length === 0;
  }

  /** The source location of the instruction at code address `address`, if the table covers it. */
  lookup(address: number): LineLocation | undefined {
    const seqs = this.sequences;
    let lo = 0;
    let hi = seqs.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (seqs[mid].start <= address) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    // Sequences may overlap (one per function; dead ones were moved to address 0 by the linker).
    for (let i = found; i >= 0 && i > found - 8; i--) {
      const s = seqs[i];
      if (address >= s.end) continue;
      const row = lastAtOrBefore(s.rows, address);
      if (row && row.line > 0) return { file: row.file, line: row.line, column: row.column };
    }
    return undefined;
  }

  private readUnit(r: ByteReader, offsetSize: number, lineStr: Uint8Array | undefined, str: Uint8Array | undefined): void {
    const version = r.u16le();
    if (version < 2 || version > 5) return;
    let addressSize = 4;
    if (version >= 5) {
      addressSize = r.byte();
      r.byte(); // segment selector size
    }
    const headerLength = offsetSize === 8 ? r.u64le() : r.u32le();
    const programStart = r.pos + headerLength;
    const minInstLength = r.byte();
    if (version >= 4) r.byte(); // maximum operations per instruction (VLIW only)
    r.byte(); // default is_stmt: every row is kept, statement or not
    const lineBase = (r.byte() << 24) >> 24;
    const lineRange = r.byte();
    const opcodeBase = r.byte();
    const opcodeLengths: number[] = [0];
    for (let i = 1; i < opcodeBase; i++) opcodeLengths.push(r.byte());

    const dirs: string[] = [];
    const files: string[] = [];
    const readString = (form: number): string => {
      switch (form) {
        case DW_FORM.string:
          return r.cstring();
        case DW_FORM.line_strp:
        case DW_FORM.strp: {
          const off = offsetSize === 8 ? r.u64le() : r.u32le();
          const table = form === DW_FORM.line_strp ? lineStr : str;
          return table ? new ByteReader(table, off).cstring() : '';
        }
        default:
          skipForm(r, form, offsetSize);
          return '';
      }
    };
    const readNumber = (form: number): number => {
      switch (form) {
        case DW_FORM.data1:
          return r.byte();
        case DW_FORM.data2:
          return r.u16le();
        case DW_FORM.data4:
          return r.u32le();
        case DW_FORM.data8:
          return r.u64le();
        case DW_FORM.udata:
          return r.uleb();
        default:
          skipForm(r, form, offsetSize);
          return 0;
      }
    };
    if (version >= 5) {
      const entries = (): { path: string; dir: number }[] => {
        const formats: [number, number][] = [];
        for (let n = r.byte(); n > 0; n--) formats.push([r.uleb(), r.uleb()]);
        const out: { path: string; dir: number }[] = [];
        for (let n = r.uleb(); n > 0; n--) {
          const e = { path: '', dir: 0 };
          for (const [type, form] of formats) {
            if (type === DW_LNCT_path) e.path = readString(form);
            else if (type === DW_LNCT_directory_index) e.dir = readNumber(form);
            else skipForm(r, form, offsetSize);
          }
          out.push(e);
        }
        return out;
      };
      for (const d of entries()) dirs.push(d.path);
      for (const f of entries()) files.push(joinPath(dirs[f.dir] ?? '', f.path));
    } else {
      // Directory 0 is the compilation directory, which DWARF 4 does not list; file 0 is unused.
      dirs.push('');
      for (let d = r.cstring(); d !== ''; d = r.cstring()) dirs.push(d);
      files.push('');
      for (let f = r.cstring(); f !== ''; f = r.cstring()) {
        const dir = r.uleb();
        r.uleb();
        r.uleb();
        files.push(joinPath(dirs[dir] ?? '', f));
      }
    }

    r.pos = programStart;
    let address = 0;
    let file = 1;
    let line = 1;
    let column = 0;
    let rows: Row[] = [];
    const emit = (): void => {
      rows.push({ address, file: files[file] ?? '', line, column });
    };
    const reset = (): void => {
      address = 0;
      file = 1;
      line = 1;
      column = 0;
    };
    while (!r.done()) {
      const op = r.byte();
      if (op >= opcodeBase) {
        const adjusted = op - opcodeBase;
        address += Math.floor(adjusted / lineRange) * minInstLength;
        line += lineBase + (adjusted % lineRange);
        emit();
      } else if (op === 0) {
        const len = r.uleb();
        const next = r.pos + len;
        const sub = r.byte();
        if (sub === 1) {
          // end_sequence: the address is one past the sequence's last instruction.
          if (rows.length > 0) this.addSequence(rows, address);
          rows = [];
          reset();
        } else if (sub === 2) {
          address = addressSize === 8 ? r.u64le() : r.u32le();
        }
        r.pos = next;
      } else if (op === 1) emit();
      else if (op === 2) address += r.uleb() * minInstLength;
      else if (op === 3) line += r.sleb();
      else if (op === 4) file = r.uleb();
      else if (op === 5) column = r.uleb();
      else if (op === 8) address += Math.floor((255 - opcodeBase) / lineRange) * minInstLength;
      else if (op === 9) address += r.u16le();
      else for (let i = 0; i < opcodeLengths[op]; i++) r.uleb();
    }
  }

  private addSequence(rows: Row[], end: number): void {
    // wasm-ld moves the code of discarded functions to a tombstone address; skip them.
    const start = rows[0].address;
    if (start >= 0xfffffffe || end <= start) return;
    rows.sort((a, b) => a.address - b.address);
    this.sequences.push({ start, end, rows });
  }
}

function lastAtOrBefore(rows: Row[], address: number): Row | undefined {
  let lo = 0;
  let hi = rows.length - 1;
  let found: Row | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid].address <= address) {
      found = rows[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

function joinPath(dir: string, file: string): string {
  if (!dir || file.startsWith('/')) return file;
  return dir.endsWith('/') ? dir + file : `${dir}/${file}`;
}

function skipForm(r: ByteReader, form: number, offsetSize: number): void {
  switch (form) {
    case DW_FORM.data1:
    case DW_FORM.strx1:
      r.pos += 1;
      return;
    case DW_FORM.data2:
    case DW_FORM.strx2:
      r.pos += 2;
      return;
    case DW_FORM.strx3:
      r.pos += 3;
      return;
    case DW_FORM.data4:
    case DW_FORM.strx4:
      r.pos += 4;
      return;
    case DW_FORM.data8:
      r.pos += 8;
      return;
    case DW_FORM.data16:
      r.pos += 16;
      return;
    case DW_FORM.strp:
    case DW_FORM.line_strp:
      r.pos += offsetSize;
      return;
    case DW_FORM.string:
      r.cstring();
      return;
    case DW_FORM.udata:
    case DW_FORM.strx:
      r.uleb();
      return;
    case DW_FORM.sdata:
      r.sleb();
      return;
    case DW_FORM.block:
      r.pos += r.uleb();
      return;
    case DW_FORM.block1:
      r.pos += r.byte();
      return;
    case DW_FORM.block2:
      r.pos += r.u16le();
      return;
    case DW_FORM.block4:
      r.pos += r.u32le();
      return;
    default:
      throw new Error(`unknown DWARF form 0x${form.toString(16)}`);
  }
}
