// Inline PTX: the instructions of an `asm("…" : outputs : inputs : clobbers)` template that the
// simulator runs — ordered and relaxed loads and stores, atomics and reductions, fences and
// membars. The semantic pass decodes each template to report what it cannot run (at the
// template string); the lowering decodes it again to run it. `%N` names the N-th operand,
// outputs first (as GCC numbers them).
import { DOUBLE, FLOAT, intType, type Type } from './types';
import type { Order } from './libcu';

/** cta → block, gpu → device, sys → system. */
export type PtxScope = 'block' | 'device' | 'system';

/** A value operand: `%N` or an immediate number. */
export type PtxValue = { kind: 'operand'; index: number } | { kind: 'immediate'; value: number };

/** `[%N]` or `[%N+8]`. */
export interface PtxAddress {
  operand: number;
  offset: number;
}

export type PtxInstruction =
  | { kind: 'ld'; text: string; type: Type; order?: Order; scope?: PtxScope; volatile: boolean; dst: number; addr: PtxAddress }
  | { kind: 'st'; text: string; type: Type; order?: Order; scope?: PtxScope; volatile: boolean; addr: PtxAddress; src: PtxValue }
  /** atom (with a destination) and red (without): `b` is the new value of a cas. */
  | { kind: 'atom'; text: string; type: Type; op: string; order?: Order; scope: PtxScope; dst?: number; addr: PtxAddress; a: PtxValue; b?: PtxValue }
  | { kind: 'fence'; text: string; order: Order; scope: PtxScope };

export interface PtxDecoded {
  instructions: PtxInstruction[];
  /** What the simulator cannot run, one sentence each. */
  errors: string[];
}

const SCOPES: Record<string, PtxScope> = { cta: 'block', gpu: 'device', sys: 'system' };
const SPACES = new Set(['global', 'shared', 'shared::cta']);

const TYPES: Record<string, Type> = {
  b8: intType('unsigned char'), u8: intType('unsigned char'), s8: intType('signed char'),
  b16: intType('unsigned short'), u16: intType('unsigned short'), s16: intType('short'),
  b32: intType('unsigned int'), u32: intType('unsigned int'), s32: intType('int'),
  b64: intType('unsigned long long'), u64: intType('unsigned long long'), s64: intType('long long'),
  f32: FLOAT, f64: DOUBLE,
};

const ATOM_OPS: Record<string, string> = {
  add: 'Add', exch: 'Exch', cas: 'CAS', and: 'And', or: 'Or', xor: 'Xor', min: 'Min', max: 'Max', inc: 'Inc', dec: 'Dec',
};

/** Cache operators and the non-coherent path change nothing the simulator models. */
const LOAD_CACHE = new Set(['ca', 'cg', 'cs', 'lu', 'cv', 'nc']);
const STORE_CACHE = new Set(['wb', 'cg', 'cs', 'wt']);

/**
 * Decodes a template. `outputs` and `operands` are the numbers of output and of all operands
 * (a `+` operand is an output that is also read).
 */
export function decodePtx(template: string, outputs: number, operands: number): PtxDecoded {
  const instructions: PtxInstruction[] = [];
  const errors: string[] = [];
  // `%%` is a literal `%` in a GCC asm template; PTX statements end with `;`. An empty template
  // (`asm volatile("" ::: "memory")`) is a compiler barrier and runs nothing.
  for (const raw of template.replace(/\/\/[^\n]*/g, '').split(';')) {
    const text = raw.replace(/\s+/g, ' ').trim();
    if (text === '') continue;
    const r = decodeOne(text.replace(/%%/g, '%'), outputs, operands);
    if ('error' in r) errors.push(r.error);
    else instructions.push(r);
  }
  return { instructions, errors };
}

type One = PtxInstruction | { error: string };

function decodeOne(text: string, outputs: number, operands: number): One {
  const space = text.indexOf(' ');
  const opcode = space < 0 ? text : text.slice(0, space);
  const args = space < 0 ? [] : splitOperands(text.slice(space + 1));
  const unknown = (why?: string): { error: string } => ({ error: `the simulator does not know the PTX instruction '${opcode}'${why ? ` (${why})` : ''}` });
  if (!/^[a-z]/.test(opcode)) return unknown();
  const [head, ...quals] = opcode.split('.');
  switch (head) {
    case 'ld':
    case 'st':
      return loadStore(head, opcode, quals, args, outputs, operands, unknown);
    case 'atom':
    case 'red':
      return atomic(head, opcode, quals, args, outputs, operands, unknown);
    case 'fence':
    case 'membar':
      return fence(head, opcode, quals, args, unknown);
    default:
      return unknown();
  }
}

function splitOperands(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '[') depth++;
    if (ch === ']') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim() !== '') out.push(cur.trim());
  return out;
}

interface Qualifiers {
  sem?: string;
  scope?: PtxScope;
  type?: { name: string; type: Type };
  op?: string;
  rest: string[];
}

function classify(quals: string[], sems: ReadonlySet<string>, cache: ReadonlySet<string>, ops: boolean): Qualifiers | string {
  const q: Qualifiers = { rest: [] };
  for (const x of quals) {
    if (sems.has(x)) {
      if (q.sem) return `it names both '.${q.sem}' and '.${x}'`;
      q.sem = x;
    } else if (x in SCOPES) {
      if (q.scope) return 'it names two scopes';
      q.scope = SCOPES[x];
    } else if (x === 'cluster') {
      return "the '.cluster' scope is not modelled";
    } else if (x in TYPES) {
      if (q.type) return 'it names two types';
      q.type = { name: x, type: TYPES[x] };
    } else if (ops && x in ATOM_OPS) {
      if (q.op) return 'it names two operations';
      q.op = x;
    } else if (!SPACES.has(x) && !cache.has(x)) {
      return `unknown qualifier '.${x}'`;
    }
  }
  return q;
}

function operandIndex(s: string, operands: number): number | string {
  const m = /^%(\d+)$/.exec(s);
  if (!m) return `operand '${s}' is not %0..%${Math.max(0, operands - 1)} (registers declared in the template are not supported)`;
  const n = Number(m[1]);
  if (n >= operands) return `%${n} does not exist: the asm statement has ${operands} operand${operands === 1 ? '' : 's'}`;
  return n;
}

function valueOperand(s: string, operands: number): PtxValue | string {
  const m = /^(-?)(0[xX][0-9a-fA-F]+|\d+)[uU]?$/.exec(s);
  if (m) return { kind: 'immediate', value: (m[1] ? -1 : 1) * Number(m[2]) };
  const i = operandIndex(s, operands);
  return typeof i === 'string' ? i : { kind: 'operand', index: i };
}

function addressOperand(s: string, operands: number): PtxAddress | string {
  const m = /^\[\s*(%\d+)\s*(?:\+\s*(-?\d+)\s*)?\]$/.exec(s);
  if (!m) return `'${s}' is not an address of the form [%N] or [%N+offset]`;
  const i = operandIndex(m[1], operands);
  if (typeof i === 'string') return i;
  return { operand: i, offset: m[2] ? Number(m[2]) : 0 };
}

function destination(s: string, outputs: number, operands: number): number | string {
  const i = operandIndex(s, operands);
  if (typeof i === 'string') return i;
  if (i >= outputs) return `%${i} is an input; the result must go to an output operand ("=r"(x))`;
  return i;
}

function loadStore(head: 'ld' | 'st', opcode: string, quals: string[], args: string[], outputs: number, operands: number, unknown: (why?: string) => { error: string }): One {
  const load = head === 'ld';
  const q = classify(quals, new Set(['weak', 'relaxed', 'acquire', 'release', 'volatile', 'acq_rel']), load ? LOAD_CACHE : STORE_CACHE, false);
  if (typeof q === 'string') return unknown(q);
  if (!q.type) return unknown('it names no type such as .u32');
  if (load && (q.sem === 'release' || q.sem === 'acq_rel')) return { error: `'${opcode}': a load cannot be .${q.sem} (use .relaxed, .acquire or .volatile)` };
  if (!load && (q.sem === 'acquire' || q.sem === 'acq_rel')) return { error: `'${opcode}': a store cannot be .${q.sem} (use .relaxed, .release or .volatile)` };
  if (q.sem === 'volatile' && q.scope) return { error: `'${opcode}': .volatile takes no scope` };
  if (args.length !== 2) return { error: `'${opcode}' takes 2 operands, but ${args.length} ${args.length === 1 ? 'was' : 'were'} given` };
  const volatile = q.sem === 'volatile';
  const ordered = q.sem === 'relaxed' || q.sem === 'acquire' || q.sem === 'release';
  const order = ordered ? (q.sem as Order) : undefined;
  // A relaxed or ordered access without a scope is a gpu-scope one, as for atom.
  const scope = ordered ? q.scope ?? 'device' : undefined;
  const common = { text: opcode, type: q.type.type, volatile, ...(order ? { order } : {}), ...(scope ? { scope } : {}) };
  if (load) {
    const dst = destination(args[0], outputs, operands);
    if (typeof dst === 'string') return { error: `'${opcode}': ${dst}` };
    const addr = addressOperand(args[1], operands);
    if (typeof addr === 'string') return { error: `'${opcode}': ${addr}` };
    return { kind: 'ld', ...common, dst, addr };
  }
  const addr = addressOperand(args[0], operands);
  if (typeof addr === 'string') return { error: `'${opcode}': ${addr}` };
  const src = valueOperand(args[1], operands);
  if (typeof src === 'string') return { error: `'${opcode}': ${src}` };
  return { kind: 'st', ...common, addr, src };
}

function atomic(head: 'atom' | 'red', opcode: string, quals: string[], args: string[], outputs: number, operands: number, unknown: (why?: string) => { error: string }): One {
  const red = head === 'red';
  const q = classify(quals, new Set(['relaxed', 'acquire', 'release', 'acq_rel']), new Set(), true);
  if (typeof q === 'string') return unknown(q);
  if (!q.op) return unknown('it names no operation such as .add');
  if (!q.type) return unknown('it names no type such as .u32');
  if (red && (q.op === 'cas' || q.op === 'exch')) return unknown(`red has no .${q.op}; use atom`);
  if (red && (q.sem === 'acquire' || q.sem === 'acq_rel')) return { error: `'${opcode}': a reduction cannot be .${q.sem} (it returns nothing to acquire)` };
  const t = q.type.type;
  if (t.kind === 'int' && t.bits < 32) return unknown('atomics work on 32- and 64-bit values');
  if (t.kind === 'float' && !['add', 'exch', 'cas', 'min', 'max'].includes(q.op)) return unknown(`.${q.op} does not work on .${q.type.name}`);
  const wanted = (red ? 1 : 2) + (q.op === 'cas' ? 2 : 1);
  if (args.length !== wanted) return { error: `'${opcode}' takes ${wanted} operands, but ${args.length} ${args.length === 1 ? 'was' : 'were'} given` };
  let k = 0;
  let dst: number | undefined;
  if (!red) {
    const d = destination(args[k++], outputs, operands);
    if (typeof d === 'string') return { error: `'${opcode}': ${d}` };
    dst = d;
  }
  const addr = addressOperand(args[k++], operands);
  if (typeof addr === 'string') return { error: `'${opcode}': ${addr}` };
  const a = valueOperand(args[k++], operands);
  if (typeof a === 'string') return { error: `'${opcode}': ${a}` };
  let b: PtxValue | undefined;
  if (q.op === 'cas') {
    const v = valueOperand(args[k++], operands);
    if (typeof v === 'string') return { error: `'${opcode}': ${v}` };
    b = v;
  }
  return {
    kind: 'atom', text: opcode, type: t, op: ATOM_OPS[q.op], scope: q.scope ?? 'device', addr, a,
    ...(q.sem ? { order: q.sem as Order } : {}), ...(dst !== undefined ? { dst } : {}), ...(b ? { b } : {}),
  };
}

function fence(head: 'fence' | 'membar', opcode: string, quals: string[], args: string[], unknown: (why?: string) => { error: string }): One {
  if (args.length > 0) return { error: `'${opcode}' takes no operands` };
  if (head === 'membar') {
    // membar is fence.sc of the same scope; `gl` is the device.
    const scope = quals.length === 1 ? ({ cta: 'block', gl: 'device', sys: 'system' } as Record<string, PtxScope>)[quals[0]] : undefined;
    if (!scope) return unknown('membar takes one of .cta, .gl, .sys');
    return { kind: 'fence', text: opcode, order: 'seq_cst', scope };
  }
  const [sem, scopeName, ...rest] = quals;
  if (sem !== 'sc' && sem !== 'acq_rel') return unknown('the simulator runs fence.sc and fence.acq_rel');
  if (scopeName === 'cluster') return unknown("the '.cluster' scope is not modelled");
  const scope = scopeName === undefined ? undefined : SCOPES[scopeName];
  if (!scope || rest.length > 0) return unknown('a fence names one scope: .cta, .gpu or .sys');
  return { kind: 'fence', text: opcode, order: sem === 'sc' ? 'seq_cst' : 'acq_rel', scope };
}
