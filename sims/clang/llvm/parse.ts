// Reads the textual LLVM IR that clang prints (`-emit-llvm -S`) into the plain data of
// ./module.ts. Module-level entities are read here; instructions in ./instructions.ts, types,
// values and metadata syntax in ./reader.ts, tokens in ./lexer.ts. Source locations (`!dbg`) are
// resolved after the whole text is read, since the metadata section comes last.

import { InstructionReader, TERMINATORS } from './instructions';
import { MetadataTable, type MdValue } from './metadata';
import type { LAlias, LBasicBlock, LFunction, LGlobal, LInstruction, LModule, LParam } from './module';
import { TOKENS } from './lexer';
import { VOID, isCallingConvWord } from './reader';

const {
  T_ATTR_GROUP, T_CARET, T_COMDAT, T_COMMA, T_ELLIPSIS, T_EOF, T_EQUAL, T_GLOBAL, T_GREATER,
  T_HASH_NAME, T_IDENT, T_LABEL, T_LBRACE, T_LESS, T_LOCAL, T_LPAREN, T_META_ID, T_META_NAME,
  T_RBRACE, T_RPAREN, T_STRING,
} = TOKENS;

export { LlvmParseError } from './lexer';

/**
 * Parses one module of textual IR. Throws LlvmParseError (with the IR's line and column) on
 * malformed input.
 */
export function parseLlvmModule(text: string, fileName = '<llvm-ir>'): LModule {
  const reader = new ModuleReader(text, fileName);
  try {
    return reader.parseModule();
  } catch (e) {
    // Absurdly deep nesting (types, constants, metadata) exhausts the stack: say where.
    if (e instanceof RangeError) throw reader.lx.error('nesting too deep to read');
    throw e;
  }
}

const LINKAGES = new Set([
  'private', 'internal', 'available_externally', 'linkonce', 'weak', 'common', 'appending',
  'extern_weak', 'linkonce_odr', 'weak_odr', 'external',
]);

/** Words before `global`/`define`'s type that the simulator has no use for. */
const IGNORED_PREFIX_WORDS = new Set([
  'dso_local', 'dso_preemptable', 'default', 'hidden', 'protected', 'dllimport', 'dllexport',
  'unnamed_addr', 'local_unnamed_addr',
]);

/** Words that start a top-level entity: a declaration's attribute list stops before them. */
const TOP_LEVEL_WORDS = new Set([
  'define', 'declare', 'attributes', 'target', 'source_filename', 'module', 'uselistorder',
  'uselistorder_bb', 'deplibs',
]);

function isNumber(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

class ModuleReader extends InstructionReader {
  private readonly md = new MetadataTable((id) => this.loadMetadata(id));
  /** Offset of each `!N = …` definition's value, read when something needs it. */
  private readonly mdOffsets: number[] = [];
  private readonly globals: LGlobal[] = [];
  private readonly functions: LFunction[] = [];
  private readonly aliases: LAlias[] = [];
  private triple: string | undefined;
  private dataLayout: string | undefined;
  // `!dbg` ids to resolve once the metadata is known.
  private readonly instDbg: LInstruction[] = [];
  private readonly instDbgId: number[] = [];
  private readonly fnDbg: LFunction[] = [];
  private readonly fnDbgId: number[] = [];
  private readonly globalDbg: LGlobal[] = [];
  private readonly globalDbgId: number[] = [];

  parseModule(): LModule {
    const lx = this.lx;
    while (lx.kind !== T_EOF) {
      switch (lx.kind) {
        case T_IDENT: this.parseTopLevelWord(); break;
        case T_LOCAL: this.parseTypeDefinition(); break;
        case T_GLOBAL: this.parseGlobal(); break;
        case T_COMDAT:
          lx.next();
          this.expect(T_EQUAL);
          this.expectWord('comdat');
          this.expect(T_IDENT, 'a comdat selection kind');
          break;
        case T_META_ID: {
          const id = lx.num;
          lx.next();
          this.expect(T_EQUAL);
          this.eatWord('distinct');
          this.mdOffsets[id] = lx.start;
          lx.skipLine();
          break;
        }
        case T_META_NAME:
          // Named metadata (`!llvm.module.flags = !{…}`): nothing the simulator uses.
          lx.next();
          this.expect(T_EQUAL);
          lx.skipLine();
          break;
        case T_CARET:
          // Summary entries (`^0 = module: (…)`): not needed.
          lx.next();
          this.expect(T_EQUAL);
          while (lx.kind !== T_LPAREN && lx.kind !== T_EOF) lx.next();
          this.skipGroup();
          break;
        default:
          this.fail(`expected a top-level entity, found ${this.describe()}`);
      }
    }
    this.resolveDebug();
    const module: LModule = {
      types: this.types,
      globals: this.globals,
      functions: this.functions,
    };
    if (this.aliases.length > 0) module.aliases = this.aliases;
    if (this.triple !== undefined) module.triple = this.triple;
    if (this.dataLayout !== undefined) module.dataLayout = this.dataLayout;
    return module;
  }

  private loadMetadata(id: number): MdValue | undefined {
    const offset = this.mdOffsets[id];
    if (offset === undefined) return undefined;
    this.lx = this.lx.at(offset);
    return this.parseMetadata();
  }

  private resolveDebug(): void {
    const md = this.md;
    for (let i = 0; i < this.instDbg.length; i++) {
      const loc = md.location(this.instDbgId[i]);
      if (loc !== undefined) this.instDbg[i].loc = loc;
    }
    for (let i = 0; i < this.fnDbg.length; i++) {
      const info = md.subprogram(this.fnDbgId[i]);
      if (info !== undefined) this.fnDbg[i].debug = info;
    }
    for (let i = 0; i < this.globalDbg.length; i++) {
      const info = md.globalVariable(this.globalDbgId[i]);
      if (info !== undefined) this.globalDbg[i].debug = info;
    }
  }

  private parseTopLevelWord(): void {
    const lx = this.lx;
    const w = lx.text;
    switch (w) {
      case 'define': lx.next(); this.parseFunction(true); return;
      case 'declare': lx.next(); this.parseFunction(false); return;
      case 'target': {
        lx.next();
        const which = lx.text;
        this.expect(T_IDENT, "'triple' or 'datalayout'");
        this.expect(T_EQUAL);
        const value = this.string();
        if (which === 'triple') this.triple = value;
        else if (which === 'datalayout') this.dataLayout = value;
        return;
      }
      case 'source_filename':
        lx.next();
        this.expect(T_EQUAL);
        this.string();
        return;
      case 'attributes':
        lx.next();
        this.expect(T_ATTR_GROUP, 'an attribute group number');
        this.expect(T_EQUAL);
        if (lx.kind !== T_LBRACE) this.fail(`expected '{', found ${this.describe()}`);
        this.skipGroup();
        return;
      case 'module':
        lx.next();
        this.expectWord('asm');
        this.string();
        return;
      case 'deplibs':
        lx.next();
        this.expect(T_EQUAL);
        this.skipGroup();
        return;
      case 'uselistorder': case 'uselistorder_bb':
        this.skipUseListOrder();
        return;
      default:
        this.fail(`expected a top-level entity, found '${w}'`);
    }
  }

  /** `uselistorder <ty> <value>, { 1, 0 }` / `uselistorder_bb @f, %bb, { … }` */
  private skipUseListOrder(): void {
    const lx = this.lx;
    lx.next();
    while (lx.kind !== T_LBRACE && lx.kind !== T_EOF) lx.next();
    this.skipGroup();
  }

  /** `%name = type { … }` / `type <{ … }>` / `type opaque` */
  private parseTypeDefinition(): void {
    const lx = this.lx;
    const name = lx.text;
    lx.next();
    this.expect(T_EQUAL);
    this.expectWord('type');
    const t = this.namedType(name);
    if (t.kind !== 'struct') this.fail(`type '%${name}' is defined twice`);
    if (this.eatWord('opaque')) return;
    let body;
    if (lx.kind === T_LBRACE) {
      body = this.parseStructBody(false);
    } else if (lx.kind === T_LESS && lx.peek() === T_LBRACE) {
      lx.next();
      body = this.parseStructBody(true);
      this.expect(T_GREATER, "'>' closing a packed struct type");
    } else {
      // A named alias of a non-struct type: later mentions see the aliased type.
      this.types.set(name, this.parseType());
      return;
    }
    if (body.kind === 'struct') {
      t.fields = body.fields;
      t.packed = body.packed;
      delete t.opaque;
    }
  }

  private parseGlobal(): void {
    const lx = this.lx;
    const name = lx.text;
    lx.next();
    this.expect(T_EQUAL);
    const g: LGlobal = { name, valueType: VOID, addrspace: 0, constant: false, externallyInitialized: false };
    for (;;) {
      if (lx.kind !== T_IDENT) this.fail(`expected 'global' or 'constant', found ${this.describe()}`);
      const w = lx.text;
      if (w === 'global') {
        lx.next();
        break;
      }
      if (w === 'constant') {
        lx.next();
        g.constant = true;
        break;
      }
      if (w === 'alias' || w === 'ifunc') {
        lx.next();
        this.parseAlias(name, g.linkage);
        return;
      }
      if (LINKAGES.has(w)) {
        g.linkage = w;
        lx.next();
      } else if (IGNORED_PREFIX_WORDS.has(w)) {
        lx.next();
      } else if (w === 'thread_local') {
        lx.next();
        if (lx.kind === T_LPAREN) this.skipGroup();
      } else if (w === 'addrspace') {
        g.addrspace = this.addrspace();
      } else if (w === 'externally_initialized') {
        g.externallyInitialized = true;
        lx.next();
      } else {
        this.fail(`expected 'global' or 'constant', found '${w}'`);
      }
    }
    g.valueType = this.parseType();
    if (g.linkage !== 'external' && g.linkage !== 'extern_weak') g.init = this.parseValue(g.valueType);
    let dbg = -1;
    while (this.eat(T_COMMA)) {
      if (lx.kind === T_META_NAME) {
        const id = this.attachment();
        if (dbg < 0) dbg = id;
        continue;
      }
      if (lx.kind !== T_IDENT) this.fail(`expected a global variable attribute, found ${this.describe()}`);
      const w = lx.text;
      lx.next();
      if (w === 'align') {
        g.align = this.uint('an alignment');
      } else if (w === 'section' || w === 'partition' || w === 'code_model') {
        this.string();
      } else if (w === 'comdat') {
        if (lx.kind === T_LPAREN) this.skipGroup();
      } else if (w.startsWith('no_sanitize') || w.startsWith('sanitize')) {
        // Sanitizer markers carry no operand.
      } else {
        this.fail(`unknown global variable attribute '${w}'`);
      }
    }
    while (lx.kind === T_ATTR_GROUP) lx.next();
    if (dbg >= 0) {
      this.globalDbg.push(g);
      this.globalDbgId.push(dbg);
    }
    this.globals.push(g);
  }

  /** After `alias`/`ifunc`: `<type>, <typed aliasee>` and optional `, partition "…"`. */
  private parseAlias(name: string, linkage: string | undefined): void {
    const valueType = this.parseType();
    this.expect(T_COMMA);
    const aliasee = this.parseTypedValue();
    const alias: LAlias = { name, valueType, aliasee };
    if (linkage !== undefined) alias.linkage = linkage;
    while (this.eat(T_COMMA)) {
      if (this.lx.kind === T_META_NAME) {
        this.attachment();
      } else {
        this.expect(T_IDENT, 'an alias attribute');
        if (this.lx.kind === T_STRING) this.lx.next();
      }
    }
    this.aliases.push(alias);
  }

  private parseFunction(isDefine: boolean): void {
    const lx = this.lx;
    const fn: LFunction = { name: '', ret: VOID, params: [], varargs: false, declaration: !isDefine, blocks: [] };
    let dbg = -1;
    // Linkage, visibility, calling convention (and a declaration's metadata, printed first).
    for (;;) {
      if (lx.kind === T_META_NAME) {
        const id = this.attachment();
        if (id >= 0) dbg = id;
        continue;
      }
      if (lx.kind !== T_IDENT) break;
      const w = lx.text;
      if (LINKAGES.has(w)) {
        fn.linkage = w;
        lx.next();
      } else if (IGNORED_PREFIX_WORDS.has(w)) {
        lx.next();
      } else if (w === 'cc') {
        lx.next();
        fn.callingConv = 'cc ' + this.uint('a calling convention number');
      } else if (isCallingConvWord(w)) {
        fn.callingConv = w;
        lx.next();
      } else {
        break;
      }
    }
    this.parseAttrs(false, false); // return attributes
    fn.ret = this.parseType();
    if (lx.kind !== T_GLOBAL) this.fail(`expected a function name, found ${this.describe()}`);
    fn.name = lx.text;
    lx.next();
    const firstNumber = this.parseParams(fn);
    this.parseFunctionAttrs(isDefine, (id) => {
      if (dbg < 0) dbg = id;
    });
    if (dbg >= 0) {
      this.fnDbg.push(fn);
      this.fnDbgId.push(dbg);
    }
    if (isDefine) this.parseBody(fn, firstNumber);
    this.functions.push(fn);
  }

  /** `(ty attrs %name, …, ...)`; returns the next implicit value number. */
  private parseParams(fn: LFunction): number {
    const lx = this.lx;
    let nextNumber = 0;
    this.expect(T_LPAREN);
    while (lx.kind !== T_RPAREN) {
      if (lx.kind === T_ELLIPSIS) {
        lx.next();
        fn.varargs = true;
        break;
      }
      const type = this.parseType();
      const list = this.parseAttrs(false);
      let name: string;
      if (lx.kind === T_LOCAL) {
        name = lx.text;
        lx.next();
        if (isNumber(name)) nextNumber = Number(name) + 1;
      } else {
        name = String(nextNumber++);
      }
      const param: LParam = { name, type, attrs: list?.attrs ?? [] };
      if (list?.byval !== undefined) param.byval = list.byval;
      if (list?.sret !== undefined) param.sret = list.sret;
      fn.params.push(param);
      if (!this.eat(T_COMMA)) break;
    }
    this.expect(T_RPAREN);
    return nextNumber;
  }

  /** After the parameters: `unnamed_addr`, `#0`, `section`, `comdat`, `personality`, `!dbg !N`, … */
  private parseFunctionAttrs(isDefine: boolean, onDbg: (id: number) => void): void {
    const lx = this.lx;
    for (;;) {
      const k = lx.kind;
      if (k === T_ATTR_GROUP) {
        lx.next();
      } else if (k === T_STRING) {
        lx.next();
        if (this.eat(T_EQUAL)) this.string();
      } else if (k === T_META_NAME && isDefine) {
        const id = this.attachment();
        if (id >= 0) onDbg(id);
      } else if (k === T_IDENT) {
        const w = lx.text;
        if (TOP_LEVEL_WORDS.has(w)) return;
        if (w === 'addrspace') {
          this.addrspace();
          continue;
        }
        if (IGNORED_PREFIX_WORDS.has(w)) {
          lx.next();
          continue;
        }
        switch (w) {
          case 'section': case 'partition': case 'gc':
            lx.next();
            this.string();
            break;
          case 'comdat':
            lx.next();
            if (lx.kind === T_LPAREN) this.skipGroup();
            break;
          case 'align':
            lx.next();
            this.uint('an alignment');
            break;
          case 'prefix': case 'prologue': case 'personality':
            lx.next();
            this.parseTypedValue();
            break;
          default:
            this.parseOneAttr(undefined);
        }
      } else {
        return;
      }
    }
  }

  /** `{ blocks }`; `firstNumber` is the number an unnamed entry block takes. */
  private parseBody(fn: LFunction, firstNumber: number): void {
    const lx = this.lx;
    let nextNumber = firstNumber;
    this.expect(T_LBRACE, "'{' starting the function body");
    while (lx.kind !== T_RBRACE) {
      let label: string;
      const blockStart = lx.start;
      if (lx.kind === T_LABEL) {
        label = lx.text;
        lx.next();
        if (isNumber(label)) nextNumber = Number(label) + 1;
      } else {
        label = String(nextNumber++);
      }
      const block: LBasicBlock = { label, instructions: [] };
      for (;;) {
        const k = lx.kind;
        let inst: LInstruction;
        if (k === T_LOCAL) {
          const result = lx.text;
          lx.next();
          this.expect(T_EQUAL);
          if (isNumber(result)) nextNumber = Number(result) + 1;
          inst = this.parseInstruction(result);
        } else if (k === T_IDENT) {
          if (lx.text === 'uselistorder') {
            lx.next();
            this.parseTypedValue();
            this.expect(T_COMMA);
            this.skipGroup();
            continue;
          }
          inst = this.parseInstruction(undefined);
        } else if (k === T_HASH_NAME) {
          // Debug records (`#dbg_declare(…)`, `#dbg_value(…)`): variable locations, not code.
          lx.next();
          if (lx.kind !== T_LPAREN) this.fail(`expected '(' after '#${lx.text}'`);
          this.skipGroup();
          continue;
        } else {
          if (k === T_LABEL || k === T_RBRACE) {
            this.fail(`block '${label}' of @${fn.name} does not end with a terminator`, blockStart);
          }
          this.fail(`expected an instruction, found ${this.describe()}`);
        }
        block.instructions.push(inst);
        if (this.dbg >= 0) {
          this.instDbg.push(inst);
          this.instDbgId.push(this.dbg);
        }
        if (TERMINATORS.has(inst.opcode)) break;
      }
      fn.blocks.push(block);
    }
    lx.next();
  }
}
