// The metadata section (`!N = …`) as read, and what the module needs from it: source locations of
// instructions (`!DILocation` through its scope chain to a `!DIFile`), of functions
// (`!DISubprogram`) and of globals (`!DIGlobalVariableExpression` → `!DIGlobalVariable`).
// Every other record is kept as generic data and never interpreted.

import type { DebugLocation, LValue } from './module';

/** `!12` */
export interface MdRef { k: 'ref'; id: number }
/** `!DILocation(line: 3, scope: !7)`: named fields, and positional ones (`!DIExpression(DW_OP_deref)`). */
export interface MdRecord { k: 'record'; name: string; fields: Record<string, MdValue>; args: MdValue[] }
/** `!{…}` */
export interface MdTuple { k: 'tuple'; items: MdValue[] }
/** `i32 1`, `ptr @g` inside metadata. */
export interface MdConstant { k: 'value'; value: LValue }

/**
 * A metadata value: a number (`line: 4`), a string (`!"text"`, `name: "k"`, an enumerator such
 * as `DW_TAG_member` or flags `DIFlagA | DIFlagB`), `null`, or one of the node shapes above.
 */
export type MdValue = number | string | null | MdRef | MdRecord | MdTuple | MdConstant;

export interface DebugFunctionInfo { name: string; linkageName?: string; file: string; line: number }
export interface DebugGlobalInfo { name: string; file: string; line: number }

/**
 * Numbered metadata of one module, read on demand (a module with full debug information has
 * megabytes of type descriptions that nothing here needs), and cached answers about it.
 */
export class MetadataTable {
  private readonly nodes: (MdValue | undefined)[] = [];
  private readonly loaded: boolean[] = [];

  /** `load(id)` reads the definition of `!id`, or gives undefined when there is none. */
  constructor(private readonly load: (id: number) => MdValue | undefined) {}

  node(id: number): MdValue | undefined {
    if (!this.loaded[id]) {
      this.loaded[id] = true;
      this.nodes[id] = this.load(id);
    }
    return this.nodes[id];
  }
  private readonly locations = new Map<number, DebugLocation | undefined>();
  private readonly scopeFiles = new Map<object, string>();

  /** The node a value stands for, references followed. */
  deref(value: MdValue | undefined): MdValue | undefined {
    let v = value;
    for (let hops = 0; hops < 64 && v !== null && typeof v === 'object' && v.k === 'ref'; hops++) {
      v = this.node(v.id);
    }
    return v;
  }

  record(value: MdValue | undefined, name?: string): MdRecord | undefined {
    const v = this.deref(value);
    if (v === null || typeof v !== 'object' || v.k !== 'record') return undefined;
    if (name !== undefined && v.name !== name) return undefined;
    return v;
  }

  /** `!dbg !N` of an instruction, resolved; undefined when N is not a DILocation. */
  location(id: number): DebugLocation | undefined {
    if (this.locations.has(id)) return this.locations.get(id);
    // Mark first so that a malformed cycle through inlinedAt cannot recurse forever.
    this.locations.set(id, undefined);
    const loc = this.locationOf(this.node(id));
    this.locations.set(id, loc);
    return loc;
  }

  private locationOf(value: MdValue | undefined): DebugLocation | undefined {
    const rec = this.record(value, 'DILocation');
    if (rec === undefined) return undefined;
    const f = rec.fields;
    const loc: DebugLocation = {
      line: numberField(f.line),
      column: numberField(f.column),
      file: this.fileOfScope(f.scope),
    };
    const at = f.inlinedAt;
    if (at !== undefined && at !== null) {
      const inlined = typeof at === 'object' && at.k === 'ref' ? this.location(at.id) : this.locationOf(at);
      if (inlined !== undefined) loc.inlinedAt = inlined;
    }
    return loc;
  }

  /** The file of a scope: its own `file:`, else its parent's (`scope:`), else '' when none. */
  fileOfScope(scope: MdValue | undefined): string {
    const start = this.deref(scope);
    if (start === undefined || start === null || typeof start !== 'object') return '';
    const cached = this.scopeFiles.get(start);
    if (cached !== undefined) return cached;
    let node: MdValue | undefined = start;
    let file = '';
    for (let hops = 0; hops < 256 && node !== undefined; hops++) {
      const rec = this.record(node);
      if (rec === undefined) break;
      if (rec.name === 'DIFile') {
        file = this.filePath(rec);
        break;
      }
      const fileField = this.record(rec.fields.file, 'DIFile');
      if (fileField !== undefined) {
        file = this.filePath(fileField);
        break;
      }
      node = this.deref(rec.fields.scope);
    }
    this.scopeFiles.set(start, file);
    return file;
  }

  private filePath(rec: MdRecord): string {
    const name = stringField(rec.fields.filename);
    const dir = stringField(rec.fields.directory);
    return joinPath(dir, name);
  }

  /** `!dbg !N` of a function definition. */
  subprogram(id: number): DebugFunctionInfo | undefined {
    const rec = this.record(this.node(id), 'DISubprogram');
    if (rec === undefined) return undefined;
    const f = rec.fields;
    const info: DebugFunctionInfo = {
      name: stringField(f.name),
      file: f.file !== undefined ? this.fileOfScope(f.file) : this.fileOfScope(f.scope),
      line: numberField(f.line),
    };
    const linkage = f.linkageName;
    if (typeof linkage === 'string') info.linkageName = linkage;
    return info;
  }

  /** `!dbg !N` of a global: a DIGlobalVariableExpression (or the DIGlobalVariable itself). */
  globalVariable(id: number): DebugGlobalInfo | undefined {
    let rec = this.record(this.node(id));
    if (rec !== undefined && rec.name === 'DIGlobalVariableExpression') rec = this.record(rec.fields.var);
    if (rec === undefined || rec.name !== 'DIGlobalVariable') return undefined;
    const f = rec.fields;
    return {
      name: stringField(f.name),
      file: f.file !== undefined ? this.fileOfScope(f.file) : this.fileOfScope(f.scope),
      line: numberField(f.line),
    };
  }
}

function numberField(v: MdValue | undefined): number {
  return typeof v === 'number' ? v : 0;
}

function stringField(v: MdValue | undefined): string {
  return typeof v === 'string' ? v : '';
}

/** DIFile's directory joined with its filename; an absolute filename stands alone. */
export function joinPath(directory: string, filename: string): string {
  if (directory === '' || filename.startsWith('/') || /^[A-Za-z]:[\\/]/.test(filename)) return filename;
  if (filename === '') return directory;
  const sep = directory.endsWith('/') || directory.endsWith('\\') ? '' : '/';
  return directory + sep + filename;
}
