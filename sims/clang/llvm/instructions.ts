// Instructions of a function body: one `[%result =] opcode …` at a time, with its trailing
// `, align N` and `, !name !N` attachments (only `!dbg` is kept, as a metadata id to resolve
// once the metadata section has been read).

import type { LInstruction, LType, LValue } from './module';
import { TOKENS } from './lexer';
import * as reader from './reader';
import { isCallingConvWord, ptrType } from './reader';
import { ValueReader, elementOf, gepResultType } from './values';

const {
  T_ATTR_GROUP, T_COMMA, T_ELLIPSIS, T_EQUAL, T_IDENT, T_LBRACKET, T_LOCAL, T_LPAREN, T_META_NAME,
  T_RBRACKET, T_RPAREN, T_STRING,
} = TOKENS;
// Local copies, like the token kinds (see TOKENS).
const { BINARY_OPS, CAST_OPS, FAST_MATH_FLAGS, I1, OP_FLAGS, PTR, TOKEN, VOID } = reader;

export const TERMINATORS = new Set([
  'ret', 'br', 'switch', 'indirectbr', 'invoke', 'resume', 'unreachable', 'cleanupret', 'catchret',
  'catchswitch', 'callbr',
]);

/** Every opcode word: what may start the next instruction (so a call's attribute list stops there). */
const OPCODES = new Set([
  ...TERMINATORS, ...BINARY_OPS, ...CAST_OPS, 'fneg', 'icmp', 'fcmp', 'phi', 'select', 'freeze', 'va_arg',
  'call', 'tail', 'musttail', 'notail', 'alloca', 'load', 'store', 'fence', 'cmpxchg', 'atomicrmw',
  'getelementptr', 'extractvalue', 'insertvalue', 'extractelement', 'insertelement', 'shufflevector',
  'landingpad', 'catchpad', 'cleanuppad', 'uselistorder', 'uselistorder_bb',
]);

const ORDERINGS = new Set(['unordered', 'monotonic', 'acquire', 'release', 'acq_rel', 'seq_cst']);

export class InstructionReader extends ValueReader {
  /** The `!dbg !N` id of the instruction just read, or -1. */
  dbg = -1;

  /** One instruction at its opcode word; `result` is the register it defines, if any. */
  parseInstruction(result: string | undefined): LInstruction {
    const lx = this.lx;
    this.dbg = -1;
    if (lx.kind !== T_IDENT) this.fail(`expected an instruction, found ${this.describe()}`);
    const op = lx.text;
    const opStart = lx.start;
    lx.next();
    const inst: LInstruction = { opcode: op, type: VOID, operands: [] };
    if (result !== undefined) inst.result = result;
    if (BINARY_OPS.has(op)) {
      this.opFlags(inst);
      const a = this.parseTypedValue();
      this.expect(T_COMMA);
      const b = this.parseValue(a.type);
      inst.operands.push(a, b);
      inst.type = a.type;
    } else if (CAST_OPS.has(op)) {
      this.opFlags(inst);
      inst.operands.push(this.parseTypedValue());
      this.expectWord('to');
      inst.type = this.parseType();
    } else {
      switch (op) {
        case 'load': this.parseLoad(inst); break;
        case 'store': this.parseStore(inst); break;
        case 'alloca': this.parseAlloca(inst); break;
        case 'getelementptr': this.parseGep(inst); break;
        case 'call': this.parseCall(inst); break;
        case 'tail': case 'musttail': case 'notail':
          inst.opcode = 'call';
          (inst.flags ??= []).push(op);
          this.expectWord('call');
          this.parseCall(inst);
          break;
        case 'icmp': case 'fcmp': this.parseCompare(inst); break;
        case 'br': this.parseBr(inst); break;
        case 'ret':
          if (!this.eatWord('void')) inst.operands.push(this.parseTypedValue());
          break;
        case 'phi': this.parsePhi(inst); break;
        case 'select': {
          this.opFlags(inst);
          const c = this.parseTypedValue();
          this.expect(T_COMMA);
          const a = this.parseTypedValue();
          this.expect(T_COMMA);
          const b = this.parseTypedValue();
          inst.operands.push(c, a, b);
          inst.type = a.type;
          break;
        }
        case 'switch': this.parseSwitch(inst); break;
        case 'unreachable': break;
        case 'fneg': {
          this.opFlags(inst);
          const a = this.parseTypedValue();
          inst.operands.push(a);
          inst.type = a.type;
          break;
        }
        case 'freeze': {
          const a = this.parseTypedValue();
          inst.operands.push(a);
          inst.type = a.type;
          break;
        }
        case 'atomicrmw': this.parseAtomicRmw(inst); break;
        case 'cmpxchg': this.parseCmpxchg(inst); break;
        case 'fence':
          this.parseScopeAndOrdering(inst);
          break;
        case 'extractvalue': case 'insertvalue': this.parseAggregateOp(inst, op === 'insertvalue'); break;
        case 'extractelement': {
          const v = this.parseTypedValue();
          this.expect(T_COMMA);
          inst.operands.push(v, this.parseTypedValue());
          inst.type = elementOf(v.type) ?? VOID;
          break;
        }
        case 'insertelement': {
          const v = this.parseTypedValue();
          this.expect(T_COMMA);
          const e = this.parseTypedValue();
          this.expect(T_COMMA);
          inst.operands.push(v, e, this.parseTypedValue());
          inst.type = v.type;
          break;
        }
        case 'shufflevector': {
          const a = this.parseTypedValue();
          this.expect(T_COMMA);
          const b = this.parseTypedValue();
          this.expect(T_COMMA);
          const mask = this.parseTypedValue();
          inst.operands.push(a, b, mask);
          const of = elementOf(a.type) ?? VOID;
          inst.type = mask.type.kind === 'vector' ? { kind: 'vector', length: mask.type.length, of } : a.type;
          break;
        }
        case 'va_arg': {
          inst.operands.push(this.parseTypedValue());
          this.expect(T_COMMA);
          inst.type = this.parseType();
          break;
        }
        case 'invoke': this.parseCall(inst); this.parseInvokeTargets(inst); break;
        case 'callbr': this.parseCall(inst); this.parseCallbrTargets(inst); break;
        case 'resume': inst.operands.push(this.parseTypedValue()); break;
        case 'landingpad': this.parseLandingpad(inst); break;
        case 'cleanuppad': case 'catchpad': this.parsePad(inst); break;
        case 'cleanupret': this.parseCleanupret(inst); break;
        case 'catchret': {
          this.expectWord('from');
          inst.operands.push(this.parseValue(TOKEN));
          this.expectWord('to');
          inst.targets = [this.labelRef()];
          break;
        }
        case 'catchswitch': this.parseCatchswitch(inst); break;
        case 'indirectbr': {
          inst.operands.push(this.parseTypedValue());
          this.expect(T_COMMA);
          this.expect(T_LBRACKET);
          const targets: string[] = [];
          while (lx.kind !== T_RBRACKET) {
            targets.push(this.labelRef());
            if (!this.eat(T_COMMA)) break;
          }
          this.expect(T_RBRACKET);
          inst.targets = targets;
          break;
        }
        default:
          this.fail(`unknown instruction '${op}'`, opStart);
      }
    }
    this.parseTrailing(inst);
    return inst;
  }

  /** `nsw`, `nuw`, `exact`, `disjoint`, `nneg`, `samesign` and fast-math flags. */
  private opFlags(inst: LInstruction): void {
    const lx = this.lx;
    while (lx.kind === T_IDENT && OP_FLAGS.has(lx.text)) {
      (inst.flags ??= []).push(lx.text);
      lx.next();
    }
  }

  /** `, align N` and `, !kind !N` after the operands. */
  parseTrailing(inst: LInstruction): void {
    const lx = this.lx;
    while (lx.kind === T_COMMA) {
      lx.next();
      if (lx.kind === T_META_NAME) {
        this.attachment();
      } else if (this.eatWord('align')) {
        inst.align = this.uint('an alignment');
      } else {
        this.fail(`expected '!' metadata or 'align', found ${this.describe()}`);
      }
    }
  }

  /** `!name <metadata>` at the name; remembers `!dbg`. */
  attachment(): number {
    const name = this.lx.text;
    this.lx.next();
    const md = this.parseMetadata();
    if (name === 'dbg' && md !== null && typeof md === 'object' && md.k === 'ref') {
      this.dbg = md.id;
      return md.id;
    }
    return -1;
  }

  /** Consumes a comma when another operand (not `align`, `addrspace` or metadata) follows. */
  private moreOperands(): boolean {
    const lx = this.lx;
    if (lx.kind !== T_COMMA) return false;
    const next = lx.peek();
    if (next === T_META_NAME) return false;
    if (next === T_IDENT && (lx.peekText === 'align' || lx.peekText === 'addrspace')) return false;
    lx.next();
    return true;
  }

  /** `label %bb` → `bb`. */
  labelRef(): string {
    this.expectWord('label');
    const lx = this.lx;
    if (lx.kind !== T_LOCAL) this.fail(`expected a block label, found ${this.describe()}`);
    const name = lx.text;
    lx.next();
    return name;
  }

  private parseScopeAndOrdering(inst: LInstruction): void {
    const lx = this.lx;
    if (this.eatWord('syncscope')) {
      this.expect(T_LPAREN);
      inst.syncScope = this.string('a synchronization scope');
      this.expect(T_RPAREN);
    }
    if (lx.kind !== T_IDENT || !ORDERINGS.has(lx.text)) this.fail(`expected an atomic ordering, found ${this.describe()}`);
    inst.ordering = lx.text;
    lx.next();
  }

  private parseLoad(inst: LInstruction): void {
    const atomic = this.eatWord('atomic');
    if (this.eatWord('volatile')) inst.volatile = true;
    const t = this.parseType();
    this.expect(T_COMMA);
    inst.operands.push(this.parseTypedValue());
    inst.type = t;
    inst.elementType = t;
    if (atomic) this.parseScopeAndOrdering(inst);
  }

  private parseStore(inst: LInstruction): void {
    const atomic = this.eatWord('atomic');
    if (this.eatWord('volatile')) inst.volatile = true;
    const value = this.parseTypedValue();
    this.expect(T_COMMA);
    inst.operands.push(value, this.parseTypedValue());
    if (atomic) this.parseScopeAndOrdering(inst);
  }

  private parseAlloca(inst: LInstruction): void {
    while (this.eatWord('inalloca') || this.eatWord('swifterror')) { /* flags only */ }
    inst.elementType = this.parseType();
    let space = 0;
    while (this.lx.kind === T_COMMA) {
      if (this.lx.peek() === T_META_NAME) break;
      this.lx.next();
      if (this.eatWord('align')) inst.align = this.uint('an alignment');
      else if (this.isWord('addrspace')) space = this.addrspace();
      else inst.count = this.parseTypedValue();
    }
    inst.type = ptrType(space);
  }

  private parseGep(inst: LInstruction): void {
    const flags: string[] = [];
    this.parseGepFlags(flags);
    if (flags.length > 0) inst.flags = flags;
    inst.elementType = this.parseType();
    this.expect(T_COMMA);
    inst.operands.push(this.parseTypedValue());
    while (this.moreOperands()) inst.operands.push(this.parseTypedValue());
    inst.type = gepResultType(inst.operands);
  }

  private parseCompare(inst: LInstruction): void {
    const lx = this.lx;
    this.opFlags(inst);
    if (lx.kind !== T_IDENT) this.fail(`expected a comparison predicate, found ${this.describe()}`);
    inst.predicate = lx.text;
    lx.next();
    const a = this.parseTypedValue();
    this.expect(T_COMMA);
    inst.operands.push(a, this.parseValue(a.type));
    inst.type = a.type.kind === 'vector' ? { kind: 'vector', length: a.type.length, of: I1 } : I1;
  }

  private parseBr(inst: LInstruction): void {
    if (this.isWord('label')) {
      inst.targets = [this.labelRef()];
      return;
    }
    inst.operands.push(this.parseTypedValue());
    this.expect(T_COMMA);
    const a = this.labelRef();
    this.expect(T_COMMA);
    inst.targets = [a, this.labelRef()];
  }

  private parseSwitch(inst: LInstruction): void {
    const lx = this.lx;
    const cond = this.parseTypedValue();
    inst.operands.push(cond);
    this.expect(T_COMMA);
    inst.targets = [this.labelRef()];
    this.expect(T_LBRACKET);
    const cases: { value: LValue; block: string }[] = [];
    while (lx.kind !== T_RBRACKET) {
      const value = this.parseTypedValue();
      this.expect(T_COMMA);
      cases.push({ value, block: this.labelRef() });
    }
    this.expect(T_RBRACKET);
    inst.cases = cases;
  }

  private parsePhi(inst: LInstruction): void {
    const lx = this.lx;
    this.opFlags(inst);
    const t = this.parseType();
    inst.type = t;
    const incoming: { value: LValue; block: string }[] = [];
    do {
      this.expect(T_LBRACKET);
      const value = this.parseValue(t);
      this.expect(T_COMMA);
      if (lx.kind !== T_LOCAL) this.fail(`expected a block label, found ${this.describe()}`);
      incoming.push({ value, block: lx.text });
      lx.next();
      this.expect(T_RBRACKET);
    } while (this.moreOperands());
    inst.incoming = incoming;
  }

  private parseAtomicRmw(inst: LInstruction): void {
    const lx = this.lx;
    if (this.eatWord('volatile')) inst.volatile = true;
    if (lx.kind !== T_IDENT) this.fail(`expected an atomicrmw operation, found ${this.describe()}`);
    inst.atomicOp = lx.text;
    lx.next();
    const ptr = this.parseTypedValue();
    this.expect(T_COMMA);
    const value = this.parseTypedValue();
    inst.operands.push(ptr, value);
    inst.type = value.type;
    this.parseScopeAndOrdering(inst);
  }

  private parseCmpxchg(inst: LInstruction): void {
    const lx = this.lx;
    if (this.eatWord('weak')) inst.weak = true;
    if (this.eatWord('volatile')) inst.volatile = true;
    const ptr = this.parseTypedValue();
    this.expect(T_COMMA);
    const expected = this.parseTypedValue();
    this.expect(T_COMMA);
    const replacement = this.parseTypedValue();
    inst.operands.push(ptr, expected, replacement);
    inst.type = { kind: 'struct', fields: [expected.type, I1], packed: false };
    this.parseScopeAndOrdering(inst);
    if (lx.kind !== T_IDENT || !ORDERINGS.has(lx.text)) this.fail(`expected a failure ordering, found ${this.describe()}`);
    inst.failureOrdering = lx.text;
    lx.next();
  }

  private parseAggregateOp(inst: LInstruction, insert: boolean): void {
    const agg = this.parseTypedValue();
    inst.operands.push(agg);
    if (insert) {
      this.expect(T_COMMA);
      inst.operands.push(this.parseTypedValue());
    }
    const indices: number[] = [];
    while (this.moreOperands()) indices.push(this.uint('an aggregate index'));
    if (indices.length === 0) this.fail('expected an aggregate index');
    inst.indices = indices;
    if (insert) {
      inst.type = agg.type;
      return;
    }
    let t: LType | undefined = agg.type;
    for (const i of indices) {
      if (t === undefined) break;
      t = t.kind === 'struct' ? t.fields[i] : elementOf(t);
    }
    inst.type = t ?? VOID;
  }

  /**
   * `call`/`invoke`/`callbr` after the opcode: fast-math flags, calling convention, return
   * attributes, the (return or function) type, callee, arguments, function attributes and
   * operand bundles.
   */
  private parseCall(inst: LInstruction): void {
    const lx = this.lx;
    for (;;) {
      if (lx.kind !== T_IDENT) break;
      const w = lx.text;
      if (FAST_MATH_FLAGS.has(w)) {
        (inst.flags ??= []).push(w);
        lx.next();
      } else if (w === 'cc') {
        lx.next();
        inst.callingConv = 'cc ' + this.uint('a calling convention number');
      } else if (isCallingConvWord(w)) {
        inst.callingConv = w;
        lx.next();
      } else {
        break;
      }
    }
    this.parseAttrs(false, false);
    const t = this.parseType();
    const fnType = t.kind === 'function' ? t : undefined;
    const ret = fnType !== undefined ? fnType.ret : t;
    inst.callee = this.isWord('asm') ? this.parseInlineAsm(fnType ?? PTR) : this.parseValue(PTR);
    this.expect(T_LPAREN);
    const args = inst.operands;
    let varargs = false;
    while (lx.kind !== T_RPAREN) {
      if (lx.kind === T_ELLIPSIS) {
        // musttail forwarding of the caller's variadic arguments.
        lx.next();
        varargs = true;
        break;
      }
      const argType = this.parseType();
      this.parseAttrs(true, false);
      args.push(this.parseValue(argType));
      if (!this.eat(T_COMMA)) break;
    }
    this.expect(T_RPAREN);
    inst.type = ret;
    inst.calleeType = fnType ?? { kind: 'function', ret, params: args.map((a) => a.type), varargs };
    if (inst.callee.kind === 'asm') inst.callee.type = inst.calleeType;
    // Function attributes (`#3`, inline words) and operand bundles.
    for (;;) {
      const k = lx.kind;
      if (k === T_ATTR_GROUP) {
        lx.next();
      } else if (k === T_LBRACKET) {
        this.skipGroup();
      } else if (k === T_STRING) {
        lx.next();
        if (this.eat(T_EQUAL)) this.string();
      } else if (k === T_IDENT && !OPCODES.has(lx.text) && lx.text !== 'to' && lx.text !== 'unwind') {
        this.parseOneAttr(undefined);
      } else {
        break;
      }
    }
  }

  private parseInvokeTargets(inst: LInstruction): void {
    this.expectWord('to');
    const normal = this.labelRef();
    this.expectWord('unwind');
    inst.targets = [normal, this.labelRef()];
  }

  private parseCallbrTargets(inst: LInstruction): void {
    this.expectWord('to');
    const targets = [this.labelRef()];
    this.expect(T_LBRACKET);
    while (this.lx.kind !== T_RBRACKET) {
      targets.push(this.labelRef());
      if (!this.eat(T_COMMA)) break;
    }
    this.expect(T_RBRACKET);
    inst.targets = targets;
  }

  private parseLandingpad(inst: LInstruction): void {
    inst.type = this.parseType();
    if (this.eatWord('cleanup')) (inst.flags ??= []).push('cleanup');
    const clauses: { kind: 'catch' | 'filter'; value: LValue }[] = [];
    for (;;) {
      if (this.eatWord('catch')) clauses.push({ kind: 'catch', value: this.parseTypedValue() });
      else if (this.eatWord('filter')) clauses.push({ kind: 'filter', value: this.parseTypedValue() });
      else break;
    }
    for (const c of clauses) inst.operands.push(c.value);
    inst.clauses = clauses;
  }

  /** `cleanuppad`/`catchpad within <parent> [args]`. */
  private parsePad(inst: LInstruction): void {
    this.expectWord('within');
    inst.operands.push(this.parseValue(TOKEN));
    this.expect(T_LBRACKET);
    while (this.lx.kind !== T_RBRACKET) {
      inst.operands.push(this.parseTypedValue());
      if (!this.eat(T_COMMA)) break;
    }
    this.expect(T_RBRACKET);
    inst.type = TOKEN;
  }

  private parseCleanupret(inst: LInstruction): void {
    this.expectWord('from');
    inst.operands.push(this.parseValue(TOKEN));
    this.expectWord('unwind');
    if (this.eatWord('to')) {
      this.expectWord('caller');
      inst.targets = [];
    } else {
      inst.targets = [this.labelRef()];
    }
  }

  private parseCatchswitch(inst: LInstruction): void {
    this.expectWord('within');
    inst.operands.push(this.parseValue(TOKEN));
    this.expect(T_LBRACKET);
    const handlers: string[] = [];
    while (this.lx.kind !== T_RBRACKET) {
      handlers.push(this.labelRef());
      if (!this.eat(T_COMMA)) break;
    }
    this.expect(T_RBRACKET);
    this.expectWord('unwind');
    if (this.eatWord('to')) {
      this.expectWord('caller');
      inst.targets = handlers;
    } else {
      const unwind = this.labelRef();
      inst.targets = [...handlers, unwind];
      inst.flags = ['unwind-label'];
    }
    inst.type = TOKEN;
  }
}


