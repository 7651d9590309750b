// The ground floor of the IR reader: token helpers, types (named structs shared by name),
// attribute lists, and the word sets that tell types, values, flags and calling conventions apart.

import { Lexer, TOKENS, tokenName } from './lexer';
import type { FloatKind, LType } from './module';

const {
  T_ATTR_GROUP, T_COMMA, T_ELLIPSIS, T_EQUAL, T_FLOAT, T_GLOBAL, T_GREATER, T_HEX_FLOAT, T_IDENT,
  T_INT, T_LABEL, T_LBRACE, T_LBRACKET, T_LESS, T_LOCAL, T_LPAREN, T_META_ID, T_META_NAME, T_RBRACE,
  T_RBRACKET, T_RPAREN, T_STAR, T_STRING, T_EOF,
} = TOKENS;

export const VOID: LType = { kind: 'void' };
export const LABEL: LType = { kind: 'label' };
export const METADATA: LType = { kind: 'metadata' };
export const TOKEN: LType = { kind: 'token' };

const intTypes: LType[] = [];
const ptrTypes: LType[] = [];
const floatTypes = new Map<string, LType>();
for (const name of ['half', 'bfloat', 'float', 'double', 'x86_fp80', 'fp128', 'ppc_fp128'] as FloatKind[]) {
  floatTypes.set(name, { kind: 'float', name });
}

export function intType(bits: number): LType {
  if (bits < 256) return (intTypes[bits] ??= { kind: 'int', bits });
  return { kind: 'int', bits };
}

export function ptrType(addrspace: number): LType {
  if (addrspace < 64) return (ptrTypes[addrspace] ??= { kind: 'ptr', addrspace });
  return { kind: 'ptr', addrspace };
}

export const I1 = intType(1);
export const I32 = intType(32);
export const PTR = ptrType(0);

export const CAST_OPS = new Set([
  'trunc', 'zext', 'sext', 'fptrunc', 'fpext', 'fptoui', 'fptosi', 'uitofp', 'sitofp', 'ptrtoint',
  'ptrtoaddr', 'inttoptr', 'bitcast', 'addrspacecast',
]);
export const BINARY_OPS = new Set([
  'add', 'fadd', 'sub', 'fsub', 'mul', 'fmul', 'udiv', 'sdiv', 'fdiv', 'urem', 'srem', 'frem', 'shl',
  'lshr', 'ashr', 'and', 'or', 'xor',
]);
/** Flags that may follow a binary, cast, compare or call opcode. */
export const OP_FLAGS = new Set([
  'nuw', 'nsw', 'exact', 'disjoint', 'nneg', 'samesign', 'nnan', 'ninf', 'nsz', 'arcp', 'contract',
  'afn', 'reassoc', 'fast',
]);
export const FAST_MATH_FLAGS = new Set(['nnan', 'ninf', 'nsz', 'arcp', 'contract', 'afn', 'reassoc', 'fast']);

/** Words that start a value, so that an attribute list before a value knows where to stop. */
const VALUE_WORDS = new Set([
  'null', 'undef', 'poison', 'true', 'false', 'zeroinitializer', 'none', 'splat', 'blockaddress',
  'dso_local_equivalent', 'no_cfi', 'asm', 'ptrauth', 'getelementptr', 'icmp', 'fcmp', 'select',
  'extractelement', 'insertelement', 'shufflevector', 'extractvalue', 'insertvalue', 'c',
  ...CAST_OPS, ...BINARY_OPS,
]);

const TYPE_WORDS = new Set([
  'void', 'half', 'bfloat', 'float', 'double', 'x86_fp80', 'fp128', 'ppc_fp128', 'ptr', 'label',
  'metadata', 'token', 'x86_amx', 'x86_mmx', 'target', 'opaque',
]);

const CALLING_CONVS = new Set([
  'ptx_kernel', 'ptx_device', 'spir_func', 'spir_kernel', 'aarch64_vector_pcs', 'aarch64_sve_vector_pcs',
  'aarch64_sme_preservemost_from_x0', 'aarch64_sme_preservemost_from_x1', 'aarch64_sme_preservemost_from_x2',
  'win64cc', 'swiftcc', 'swifttailcc', 'tailcc', 'cfguard_checkcc', 'm68k_rtdcc', 'graalcc',
]);

/** `ccc`, `fastcc`, `ptx_kernel`, `x86_stdcallcc`, `amdgpu_kernel`, … (not `cc N`). */
export function isCallingConvWord(word: string): boolean {
  return CALLING_CONVS.has(word) || word.endsWith('cc') || word.startsWith('amdgpu_') ||
    word.startsWith('ptx_') || word.startsWith('spir_') || word.startsWith('riscv_vls_cc');
}

function isIntTypeWord(word: string): boolean {
  if (word.length < 2 || word.charCodeAt(0) !== 105 /* i */) return false;
  for (let i = 1; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

export function isTypeWord(word: string): boolean {
  return TYPE_WORDS.has(word) || isIntTypeWord(word);
}

/** The result of parsing one attribute list: attributes as written, and the typed ones. */
export interface AttrList {
  attrs: string[];
  byval?: LType;
  sret?: LType;
}

const TYPED_ATTRS = new Set(['byval', 'sret', 'byref', 'preallocated', 'inalloca', 'elementtype']);

export class Reader {
  /** The token stream; replaced to read a metadata node on demand from its offset. */
  lx: Lexer;
  /** Named struct types by name: one object per name, created on first mention. */
  readonly types = new Map<string, LType>();

  constructor(text: string, fileName: string) {
    this.lx = new Lexer(text, fileName);
  }

  // ---- token helpers -------------------------------------------------------------------------

  fail(detail: string, offset?: number): never {
    throw this.lx.error(detail, offset);
  }

  /** What the current token is, for messages. */
  describe(): string {
    const lx = this.lx;
    switch (lx.kind) {
      case T_IDENT: return `'${lx.text}'`;
      case T_LOCAL: return `'%${lx.text}'`;
      case T_GLOBAL: return `'@${lx.text}'`;
      case T_INT: case T_FLOAT: case T_HEX_FLOAT: return `'${lx.text}'`;
      case T_META_ID: return `'!${lx.num}'`;
      case T_META_NAME: return `'!${lx.text}'`;
      case T_LABEL: return `label '${lx.text}:'`;
      default: return tokenName(lx.kind);
    }
  }

  expect(kind: number, what?: string): void {
    if (this.lx.kind !== kind) this.fail(`expected ${what ?? tokenName(kind)}, found ${this.describe()}`);
    this.lx.next();
  }

  expectWord(word: string): void {
    const lx = this.lx;
    if (lx.kind !== T_IDENT || lx.text !== word) this.fail(`expected '${word}', found ${this.describe()}`);
    lx.next();
  }

  isWord(word: string): boolean {
    return this.lx.kind === T_IDENT && this.lx.text === word;
  }

  /** Consumes `word` when it is the current token. */
  eatWord(word: string): boolean {
    if (this.lx.kind === T_IDENT && this.lx.text === word) {
      this.lx.next();
      return true;
    }
    return false;
  }

  eat(kind: number): boolean {
    if (this.lx.kind === kind) {
      this.lx.next();
      return true;
    }
    return false;
  }

  /** An unsigned decimal integer token as a number. */
  uint(what = 'an integer'): number {
    const lx = this.lx;
    if (lx.kind !== T_INT) this.fail(`expected ${what}, found ${this.describe()}`);
    const v = lx.num;
    lx.next();
    return v;
  }

  string(what = 'a string'): string {
    const lx = this.lx;
    if (lx.kind !== T_STRING) this.fail(`expected ${what}, found ${this.describe()}`);
    const s = lx.text;
    lx.next();
    return s;
  }

  /** Skips a balanced `(…)`, `[…]`, `{…}` or `<…>` group starting at the current opener. */
  skipGroup(): void {
    const lx = this.lx;
    const open = lx.kind;
    const close = open === T_LPAREN ? T_RPAREN : open === T_LBRACKET ? T_RBRACKET : open === T_LBRACE ? T_RBRACE : T_GREATER;
    const start = lx.start;
    let depth = 0;
    for (;;) {
      const k = lx.kind;
      if (k === T_EOF) this.fail(`unbalanced ${tokenName(open)}`, start);
      if (k === open) depth++;
      else if (k === close && --depth === 0) {
        lx.next();
        return;
      }
      lx.next();
    }
  }

  /** `addrspace(N)` after the word `addrspace` (current token is `addrspace`). */
  addrspace(): number {
    this.expectWord('addrspace');
    this.expect(T_LPAREN);
    let n = 0;
    if (this.lx.kind === T_STRING) {
      // Symbolic address spaces ("A", "G", "P") as the data layout names them.
      this.lx.next();
    } else {
      n = this.uint('an address space number');
    }
    this.expect(T_RPAREN);
    return n;
  }

  // ---- types ---------------------------------------------------------------------------------

  namedType(name: string): LType {
    let t = this.types.get(name);
    if (t === undefined) {
      t = { kind: 'struct', name, fields: [], packed: false, opaque: true };
      this.types.set(name, t);
    }
    return t;
  }

  isTypeStart(): boolean {
    const k = this.lx.kind;
    if (k === T_IDENT) return isTypeWord(this.lx.text);
    return k === T_LOCAL || k === T_LBRACKET || k === T_LESS || k === T_LBRACE;
  }

  parseType(): LType {
    let t = this.parseBaseType();
    // Suffixes: a function type's parameter list, and (old IR) `*` pointers.
    for (;;) {
      const k = this.lx.kind;
      if (k === T_LPAREN) {
        t = this.parseFunctionTypeParams(t);
      } else if (k === T_STAR) {
        this.lx.next();
        t = PTR;
      } else if (k === T_IDENT && this.lx.text === 'addrspace' && t.kind !== 'ptr') {
        // `i8 addrspace(1)*` (typed pointers).
        const save = this.lx.start;
        const space = this.addrspace();
        if (this.lx.kind !== T_STAR) this.fail("expected '*' after addrspace in a pointer type", save);
        this.lx.next();
        t = ptrType(space);
      } else {
        return t;
      }
    }
  }

  private parseFunctionTypeParams(ret: LType): LType {
    this.expect(T_LPAREN);
    const params: LType[] = [];
    let varargs = false;
    const lx = this.lx;
    while (lx.kind !== T_RPAREN) {
      if (lx.kind === T_ELLIPSIS) {
        lx.next();
        varargs = true;
        break;
      }
      params.push(this.parseType());
      // Attributes are allowed (and ignored) on function type parameters.
      this.parseAttrs(false, false);
      if (!this.eat(T_COMMA)) break;
    }
    this.expect(T_RPAREN);
    return { kind: 'function', ret, params, varargs };
  }

  private parseBaseType(): LType {
    const lx = this.lx;
    switch (lx.kind) {
      case T_IDENT: {
        const w = lx.text;
        if (isIntTypeWord(w)) {
          lx.next();
          return intType(Number(w.slice(1)));
        }
        const f = floatTypes.get(w);
        if (f !== undefined) {
          lx.next();
          return f;
        }
        switch (w) {
          case 'ptr':
            lx.next();
            return this.isWord('addrspace') ? ptrType(this.addrspace()) : PTR;
          case 'void': lx.next(); return VOID;
          case 'label': lx.next(); return LABEL;
          case 'metadata': lx.next(); return METADATA;
          case 'token': lx.next(); return TOKEN;
          case 'x86_amx': case 'x86_mmx': lx.next(); return intType(w === 'x86_mmx' ? 64 : 8192);
          case 'target': {
            // Target extension types are opaque to the simulator.
            const start = lx.start;
            lx.next();
            if (lx.kind === T_LPAREN) this.skipGroup();
            return { kind: 'struct', name: lx.src.slice(start, lx.start).trim(), fields: [], packed: false, opaque: true };
          }
          default:
            break;
        }
        return this.fail(`expected a type, found ${this.describe()}`);
      }
      case T_LOCAL: {
        const t = this.namedType(lx.text);
        lx.next();
        return t;
      }
      case T_LBRACKET: {
        lx.next();
        const length = this.uint('an array length');
        this.expectWord('x');
        const of = this.parseType();
        this.expect(T_RBRACKET);
        return { kind: 'array', length, of };
      }
      case T_LESS: {
        lx.next();
        if (lx.kind === T_LBRACE) {
          const t = this.parseStructBody(true);
          this.expect(T_GREATER, "'>' closing a packed struct type");
          return t;
        }
        this.eatWord('vscale') && this.expectWord('x');
        const length = this.uint('a vector length');
        this.expectWord('x');
        const of = this.parseType();
        this.expect(T_GREATER);
        return { kind: 'vector', length, of };
      }
      case T_LBRACE:
        return this.parseStructBody(false);
      default:
        return this.fail(`expected a type, found ${this.describe()}`);
    }
  }

  /** `{ t1, t2 }` at the `{`. */
  parseStructBody(packed: boolean): LType {
    this.expect(T_LBRACE);
    const fields: LType[] = [];
    const lx = this.lx;
    if (lx.kind !== T_RBRACE) {
      for (;;) {
        fields.push(this.parseType());
        if (!this.eat(T_COMMA)) break;
      }
    }
    this.expect(T_RBRACE);
    return { kind: 'struct', fields, packed };
  }

  // ---- attributes ----------------------------------------------------------------------------

  /**
   * Attributes at the current position: `noundef`, `align 4`, `byval(%struct.S)`,
   * `dereferenceable(8)`, `"key"="value"`, `#3`. With `beforeValue`, value words (`null`,
   * `getelementptr`, …) end the list; otherwise type words do. With `keep` false they are only
   * stepped over (a call's argument attributes: the callee's parameters carry the same).
   */
  parseAttrs(beforeValue: boolean, keep = true): AttrList | undefined {
    const lx = this.lx;
    let list: AttrList | undefined;
    for (;;) {
      const k = lx.kind;
      if (k === T_IDENT) {
        const w = lx.text;
        if (beforeValue ? VALUE_WORDS.has(w) : isTypeWord(w)) return list;
        if (keep) list ??= { attrs: [] };
        this.parseOneAttr(list);
      } else if (k === T_STRING && !beforeValue) {
        const start = lx.start;
        lx.next();
        if (this.eat(T_EQUAL)) this.string();
        if (keep) (list ??= { attrs: [] }).attrs.push(lx.src.slice(start, lx.prevEnd));
      } else if (k === T_ATTR_GROUP && !beforeValue) {
        if (keep) (list ??= { attrs: [] }).attrs.push('#' + lx.text);
        lx.next();
      } else {
        return list;
      }
    }
  }

  /** One attribute word with its argument, at an identifier; recorded in `list` when given. */
  parseOneAttr(list: AttrList | undefined): void {
    const lx = this.lx;
    const start = lx.start;
    const w = lx.text;
    lx.next();
    if (lx.kind === T_INT && (w === 'align' || w === 'alignstack')) {
      lx.next();
    } else if (lx.kind === T_LPAREN) {
      if (TYPED_ATTRS.has(w)) {
        lx.next();
        const t = this.parseType();
        this.expect(T_RPAREN);
        if (list !== undefined) {
          if (w === 'byval') list.byval = t;
          else if (w === 'sret') list.sret = t;
        }
      } else {
        this.skipGroup();
      }
    }
    if (list !== undefined) list.attrs.push(lx.prevEnd === start + w.length ? w : lx.src.slice(start, lx.prevEnd));
  }
}
