// Values: registers, globals, constants (aggregates, strings, floats in every encoding) and
// constant expressions; and the metadata syntax (`!N`, `!{…}`, `!"…"`, `!DIThing(key: value)`).

import { TOKENS } from './lexer';
import { hexFloatValue } from './floats';
import type { MdValue } from './metadata';
import type { LInstruction, LType, LValue } from './module';
import { BINARY_OPS, CAST_OPS, I1, LABEL, OP_FLAGS, PTR, Reader, isTypeWord } from './reader';

const {
  T_BAR, T_COMMA, T_CSTRING, T_EXCLAIM, T_FLOAT, T_GLOBAL, T_GREATER, T_HEX_FLOAT, T_HEX_INT, T_IDENT,
  T_INT, T_LABEL, T_LBRACE, T_LBRACKET, T_LESS, T_LOCAL, T_LPAREN, T_META_ID, T_META_NAME, T_RBRACE,
  T_RBRACKET, T_RPAREN, T_STRING,
} = TOKENS;

/** BigInts of -1 … 1023, shared (BigInts are immutable values). */
const SMALL_INTS: bigint[] = [];
for (let i = -1; i < 1024; i++) SMALL_INTS.push(BigInt(i));

export class ValueReader extends Reader {
  // ---- values --------------------------------------------------------------------------------

  /** `<type> <value>` */
  parseTypedValue(): LValue {
    const t = this.parseType();
    return this.parseValue(t);
  }

  /** A value of a known type: a register, a global, a constant or a constant expression. */
  parseValue(type: LType): LValue {
    const lx = this.lx;
    switch (lx.kind) {
      case T_LOCAL: {
        const name = lx.text;
        lx.next();
        if (type.kind === 'label') return { kind: 'label', name, type };
        return { kind: 'local', name, type };
      }
      case T_GLOBAL: {
        const name = lx.text;
        lx.next();
        return { kind: 'global', name, type };
      }
      case T_INT: {
        const num = lx.num;
        const text = lx.text;
        lx.next();
        if (type.kind === 'float') return { kind: 'float', value: num, type };
        return { kind: 'int', value: num >= -1 && num < SMALL_INTS.length - 1 ? SMALL_INTS[num + 1] : BigInt(text), type };
      }
      case T_FLOAT: {
        const text = lx.text;
        lx.next();
        return { kind: 'float', value: Number(text), type };
      }
      case T_HEX_FLOAT: {
        const text = lx.text;
        if (type.kind === 'int') {
          // Hexadecimal digits for an integer type: `0x1F`, `-0x1F`.
          const negative = text.charCodeAt(0) === 45;
          const digits = text.slice(negative ? 3 : text.charCodeAt(0) === 43 ? 3 : 2);
          if (!/^[0-9A-Fa-f]+$/.test(digits)) this.fail(`'${text}' is not an integer`);
          lx.next();
          const value = BigInt('0x' + digits);
          return { kind: 'int', value: negative ? -value : value, type };
        }
        lx.next();
        return { kind: 'float', value: hexFloatValue(text), type };
      }
      case T_HEX_INT: {
        const text = lx.text;
        lx.next();
        let value = BigInt('0x' + text.slice(3));
        if (text.charCodeAt(0) === 115 /* s */ && type.kind === 'int') value = BigInt.asIntN(type.bits, value);
        return { kind: 'int', value, type };
      }
      case T_CSTRING: {
        const bytes = lx.bytes();
        lx.next();
        return { kind: 'bytes', bytes, type };
      }
      case T_LBRACE: {
        lx.next();
        const elements = this.parseTypedList(T_RBRACE);
        return { kind: 'aggregate', elements, type };
      }
      case T_LBRACKET: {
        lx.next();
        const elements = this.parseTypedList(T_RBRACKET);
        return { kind: 'aggregate', elements, type };
      }
      case T_LESS: {
        lx.next();
        if (lx.kind === T_LBRACE) {
          lx.next();
          const elements = this.parseTypedList(T_RBRACE);
          this.expect(T_GREATER);
          return { kind: 'aggregate', elements, type };
        }
        const elements = this.parseTypedList(T_GREATER);
        return { kind: 'aggregate', elements, type };
      }
      case T_META_ID: case T_META_NAME: case T_EXCLAIM: {
        this.parseMetadata();
        return { kind: 'metadata', type };
      }
      case T_IDENT:
        return this.parseWordValue(type);
      default:
        return this.fail(`expected a value, found ${this.describe()}`);
    }
  }

  /** `t1 v1, t2 v2, …` up to (and consuming) `close`. */
  private parseTypedList(close: number): LValue[] {
    const out: LValue[] = [];
    const lx = this.lx;
    if (lx.kind !== close) {
      for (;;) {
        out.push(this.parseTypedValue());
        if (!this.eat(T_COMMA)) break;
      }
    }
    this.expect(close);
    return out;
  }

  private parseWordValue(type: LType): LValue {
    const lx = this.lx;
    const w = lx.text;
    switch (w) {
      case 'true': lx.next(); return { kind: 'int', value: 1n, type };
      case 'false': lx.next(); return { kind: 'int', value: 0n, type };
      case 'null': lx.next(); return { kind: 'null', type };
      case 'none': lx.next(); return { kind: 'null', type };
      case 'undef': lx.next(); return { kind: 'undef', type };
      case 'poison': lx.next(); return { kind: 'poison', type };
      case 'zeroinitializer': lx.next(); return { kind: 'zero', type };
      case 'splat': {
        lx.next();
        this.expect(T_LPAREN);
        const element = this.parseTypedValue();
        this.expect(T_RPAREN);
        const length = type.kind === 'vector' ? type.length : 1;
        return { kind: 'aggregate', elements: new Array<LValue>(length).fill(element), type };
      }
      case 'asm':
        return this.parseInlineAsm(type);
      default:
        break;
    }
    if (type.kind === 'metadata') {
      // `metadata i32 %x`: a value wrapped as metadata.
      this.parseTypedValue();
      return { kind: 'metadata', type };
    }
    return this.parseConstantExpr(type);
  }

  /** `asm [sideeffect] [alignstack] [inteldialect] [unwind] "text", "constraints"` */
  parseInlineAsm(type: LType): LValue {
    this.expectWord('asm');
    let sideEffect = false;
    for (;;) {
      if (this.eatWord('sideeffect')) sideEffect = true;
      else if (!(this.eatWord('alignstack') || this.eatWord('inteldialect') || this.eatWord('unwind'))) break;
    }
    const text = this.string('the inline assembly text');
    this.expect(T_COMMA);
    const constraints = this.string('the inline assembly constraints');
    return { kind: 'asm', text, constraints, sideEffect, type };
  }

  /** A constant expression at its opcode word; `type` is the type the context expects. */
  private parseConstantExpr(type: LType): LValue {
    const lx = this.lx;
    const start = lx.start;
    const op = lx.text;
    lx.next();
    const inst: LInstruction = { opcode: op, type, operands: [] };
    const flags: string[] = [];
    if (CAST_OPS.has(op)) {
      while (lx.kind === T_IDENT && OP_FLAGS.has(lx.text)) {
        flags.push(lx.text);
        lx.next();
      }
      this.expect(T_LPAREN);
      inst.operands.push(this.parseTypedValue());
      this.expectWord('to');
      inst.type = this.parseType();
      this.expect(T_RPAREN);
    } else if (BINARY_OPS.has(op)) {
      while (lx.kind === T_IDENT && OP_FLAGS.has(lx.text)) {
        flags.push(lx.text);
        lx.next();
      }
      this.expect(T_LPAREN);
      const a = this.parseTypedValue();
      this.expect(T_COMMA);
      const b = this.parseTypedValue();
      this.expect(T_RPAREN);
      inst.operands.push(a, b);
      inst.type = a.type;
    } else if (op === 'getelementptr') {
      this.parseGepFlags(flags);
      this.expect(T_LPAREN);
      inst.elementType = this.parseType();
      this.expect(T_COMMA);
      const base = this.parseTypedValue();
      inst.operands.push(base);
      while (this.eat(T_COMMA)) {
        if (this.isWord('inrange')) {
          flags.push('inrange');
          lx.next();
        }
        inst.operands.push(this.parseTypedValue());
      }
      this.expect(T_RPAREN);
      inst.type = gepResultType(inst.operands);
    } else if (op === 'icmp' || op === 'fcmp') {
      if (lx.kind !== T_IDENT) this.fail(`expected a comparison predicate, found ${this.describe()}`);
      inst.predicate = lx.text;
      lx.next();
      this.expect(T_LPAREN);
      const a = this.parseTypedValue();
      this.expect(T_COMMA);
      const b = this.parseTypedValue();
      this.expect(T_RPAREN);
      inst.operands.push(a, b);
      inst.type = a.type.kind === 'vector' ? { kind: 'vector', length: a.type.length, of: I1 } : I1;
    } else if (op === 'select' || op === 'extractelement' || op === 'insertelement' || op === 'shufflevector') {
      this.expect(T_LPAREN);
      const ops = this.parseTypedList(T_RPAREN);
      inst.operands.push(...ops);
      if (op === 'select') inst.type = ops[1]?.type ?? type;
      else if (op === 'extractelement') inst.type = elementOf(ops[0]?.type) ?? type;
      else if (op === 'insertelement') inst.type = ops[0]?.type ?? type;
      else {
        const a = ops[0]?.type;
        const mask = ops[2]?.type;
        inst.type = a?.kind === 'vector' && mask?.kind === 'vector' ? { kind: 'vector', length: mask.length, of: a.of } : type;
      }
    } else if (op === 'blockaddress') {
      this.expect(T_LPAREN);
      const fn = this.parseValue(PTR);
      this.expect(T_COMMA);
      const block = this.parseValue(LABEL);
      this.expect(T_RPAREN);
      inst.operands.push(fn, block);
    } else if (op === 'dso_local_equivalent' || op === 'no_cfi') {
      inst.operands.push(this.parseValue(type));
    } else if (op === 'ptrauth') {
      this.expect(T_LPAREN);
      inst.operands.push(...this.parseTypedList(T_RPAREN));
    } else {
      this.fail(`expected a value, found '${op}'`, start);
    }
    if (flags.length > 0) inst.flags = flags;
    return { kind: 'expr', inst, type: inst.type };
  }

  /** `inbounds`, `nusw`, `nuw`, `inrange(a, b)` after `getelementptr`. */
  parseGepFlags(flags: string[]): void {
    const lx = this.lx;
    for (;;) {
      if (lx.kind !== T_IDENT) return;
      const w = lx.text;
      if (w === 'inbounds' || w === 'nusw' || w === 'nuw') {
        flags.push(w);
        lx.next();
      } else if (w === 'inrange') {
        flags.push('inrange');
        lx.next();
        if (lx.kind === T_LPAREN) this.skipGroup();
      } else {
        return;
      }
    }
  }

  // ---- metadata syntax -----------------------------------------------------------------------

  /** A metadata operand: `!12`, `!{…}`, `!"text"`, `!DIThing(…)`, or a typed value (in tuples). */
  parseMetadata(): MdValue {
    const lx = this.lx;
    switch (lx.kind) {
      case T_META_ID: {
        const id = lx.num;
        lx.next();
        return { k: 'ref', id };
      }
      case T_EXCLAIM: {
        lx.next();
        if (lx.kind === T_STRING) {
          const s = lx.text;
          lx.next();
          return s;
        }
        if (lx.kind === T_LBRACE) {
          lx.next();
          const items: MdValue[] = [];
          if (lx.kind !== T_RBRACE) {
            for (;;) {
              items.push(this.isWord('null') ? (lx.next(), null) : this.parseMetadata());
              if (!this.eat(T_COMMA)) break;
            }
          }
          this.expect(T_RBRACE);
          return { k: 'tuple', items };
        }
        return this.fail(`expected metadata after '!', found ${this.describe()}`);
      }
      case T_META_NAME: {
        const name = lx.text;
        lx.next();
        if (lx.kind !== T_LPAREN) this.fail(`expected '(' after '!${name}'`);
        lx.next();
        const fields: Record<string, MdValue> = {};
        const args: MdValue[] = [];
        if (lx.kind !== T_RPAREN) {
          for (;;) {
            if (lx.kind === T_LABEL) {
              const key = lx.text;
              lx.next();
              fields[key] = this.parseMetadataField();
            } else {
              args.push(this.parseMetadataField());
            }
            if (!this.eat(T_COMMA)) break;
          }
        }
        this.expect(T_RPAREN);
        return { k: 'record', name, fields, args };
      }
      default: {
        if (this.isTypeStart()) {
          const t = this.parseType();
          if (t.kind === 'metadata') return this.parseMetadata();
          return { k: 'value', value: this.parseValue(t) };
        }
        return this.fail(`expected metadata, found ${this.describe()}`);
      }
    }
  }

  /** The value of `key:` in a specialized record, or a positional argument. */
  private parseMetadataField(): MdValue {
    const lx = this.lx;
    switch (lx.kind) {
      case T_INT: {
        const v = lx.num;
        lx.next();
        return v;
      }
      case T_FLOAT: case T_HEX_FLOAT: {
        const v = lx.kind === T_FLOAT ? Number(lx.text) : hexFloatValue(lx.text);
        lx.next();
        return v;
      }
      case T_STRING: {
        const s = lx.text;
        lx.next();
        return s;
      }
      case T_IDENT: {
        const w = lx.text;
        if (w === 'null') {
          lx.next();
          return null;
        }
        if (isTypeWord(w) && w !== 'opaque') {
          const t = this.parseType();
          return { k: 'value', value: this.parseValue(t) };
        }
        lx.next();
        // Flag sets: `DIFlagPrototyped | DIFlagArtificial`.
        if (lx.kind !== T_BAR) return w;
        let joined = w;
        while (this.eat(T_BAR)) {
          if (lx.kind !== T_IDENT && lx.kind !== T_INT) this.fail(`expected a flag after '|', found ${this.describe()}`);
          joined += ' | ' + lx.text;
          lx.next();
        }
        return joined;
      }
      case T_LOCAL: case T_LBRACE: case T_LBRACKET: case T_LESS: {
        const t = this.parseType();
        return { k: 'value', value: this.parseValue(t) };
      }
      default:
        return this.parseMetadata();
    }
  }
}

export function elementOf(t: LType | undefined): LType | undefined {
  if (t === undefined) return undefined;
  if (t.kind === 'vector' || t.kind === 'array') return t.of;
  return undefined;
}

/** A getelementptr's result: the base's pointer type, or a vector of pointers for vector operands. */
export function gepResultType(operands: LValue[]): LType {
  const base = operands[0]?.type ?? PTR;
  if (base.kind === 'vector') return base;
  for (let i = 1; i < operands.length; i++) {
    const t = operands[i].type;
    if (t.kind === 'vector') return { kind: 'vector', length: t.length, of: base };
  }
  return base;
}
