// libcu++'s atomics (`<cuda/atomic>`, `<cuda/std/atomic>`) as the front end knows them. The
// parser cannot read the real headers (namespaces, classes with member functions), so the
// class templates `cuda::atomic<T, Scope>` and `cuda::atomic_ref<T, Scope>`, the enumerations
// `memory_order` and `thread_scope`, and `atomic_thread_fence` are built in: the semantic pass
// types their uses from the tables here and the lowering turns them into the simulator's
// ordered loads, stores, read-modify-writes and fences.
import type * as A from './ast';
import { evalConst, type ConstEnv } from './sema/constEval';
import type { Range } from './source';
import type { ThreadScope, Type } from './types';

/** A C++ memory order as the simulator keeps it (`consume` is read as `acquire`, as compilers do). */
export type Order = 'relaxed' | 'acquire' | 'release' | 'acq_rel' | 'seq_cst';

/** The namespaces the library's names live in. */
const NAMESPACES: ReadonlySet<string> = new Set(['cuda', 'cuda::std']);

const TYPE_NAMES: ReadonlySet<string> = new Set(['atomic', 'atomic_ref', 'memory_order', 'thread_scope']);

/** Free functions: `cuda::atomic_thread_fence(order, scope)`, `cuda::std::atomic_signal_fence(order)`. */
export const LIBCU_FUNCTIONS: ReadonlySet<string> = new Set(['atomic_thread_fence', 'atomic_signal_fence']);

export function isLibcuNamespace(qualifier: string | undefined): boolean {
  return qualifier !== undefined && NAMESPACES.has(qualifier);
}

/** `cuda::atomic`, `cuda::std::atomic_ref`, `cuda::memory_order`, …: a type name of the library. */
export function isLibcuTypeName(qualifier: string | undefined, name: string): boolean {
  return isLibcuNamespace(qualifier) && TYPE_NAMES.has(name);
}

// ---------------------------------------------------------------------------------------------
// The enumerations. Values follow libcu++ (and std::memory_order).

const MEMORY_ORDERS = ['relaxed', 'consume', 'acquire', 'release', 'acq_rel', 'seq_cst'] as const;
const THREAD_SCOPES: readonly ThreadScope[] = ['system', 'device', 'block', 'thread'];

const HEADER = '<cuda/atomic>';
const AT: Range = { file: HEADER, start: { line: 0, character: 0, offset: 0 }, end: { line: 0, character: 0, offset: 0 } };

function enumDecl(name: string, enumerators: readonly string[]): A.EnumDecl {
  return {
    kind: 'EnumDecl', range: AT, name, nameRange: AT, scoped: true,
    enumerators: enumerators.map((e, i) => ({ kind: 'Enumerator', range: AT, name: e, constValue: i })),
  };
}

const MEMORY_ORDER_DECL = enumDecl('memory_order', MEMORY_ORDERS.map((o) => `memory_order_${o}`));
const THREAD_SCOPE_DECL = enumDecl('thread_scope', THREAD_SCOPES.map((s) => `thread_scope_${s}`));

export const MEMORY_ORDER_TYPE: Type = { kind: 'enum', name: 'cuda::memory_order', decl: MEMORY_ORDER_DECL };
export const THREAD_SCOPE_TYPE: Type = { kind: 'enum', name: 'cuda::thread_scope', decl: THREAD_SCOPE_DECL };

/**
 * A named constant of the library: `cuda::memory_order_acquire`, `cuda::std::memory_order::release`,
 * `cuda::thread_scope_device`. Undefined for any other name.
 */
export function libcuConstant(qualifier: string | undefined, name: string): { enumerator: A.Enumerator; type: Type } | undefined {
  if (qualifier === undefined) return undefined;
  if (isLibcuNamespace(qualifier)) {
    const order = MEMORY_ORDER_DECL.enumerators.find((e) => e.name === name);
    if (order) return { enumerator: order, type: MEMORY_ORDER_TYPE };
    const scope = THREAD_SCOPE_DECL.enumerators.find((e) => e.name === name);
    if (scope) return { enumerator: scope, type: THREAD_SCOPE_TYPE };
    return undefined;
  }
  // The scoped spelling of C++20: memory_order::acquire.
  const m = /^(cuda(?:::std)?)::memory_order$/.exec(qualifier);
  if (m) {
    const i = MEMORY_ORDERS.indexOf(name as (typeof MEMORY_ORDERS)[number]);
    if (i >= 0) return { enumerator: MEMORY_ORDER_DECL.enumerators[i], type: MEMORY_ORDER_TYPE };
  }
  return undefined;
}

/** PTX spellings that programmers carry over: `gpu` is libcu++'s device scope, `cta` its block. */
export const LIBCU_NAME_HINTS: ReadonlyMap<string, string> = new Map([
  ['thread_scope_gpu', 'thread_scope_device'],
  ['thread_scope_cta', 'thread_scope_block'],
  ['thread_scope_sys', 'thread_scope_system'],
  ['thread_scope_grid', 'thread_scope_device'],
  ['memory_order_sc', 'memory_order_seq_cst'],
]);

/** Every constant name, for "did you mean" hints. */
export const LIBCU_CONSTANT_NAMES: readonly string[] = [...MEMORY_ORDER_DECL.enumerators, ...THREAD_SCOPE_DECL.enumerators].map((e) => e.name);

export function isMemoryOrderType(t: Type): boolean {
  return t.kind === 'enum' && t.decl === MEMORY_ORDER_DECL;
}
export function isThreadScopeType(t: Type): boolean {
  return t.kind === 'enum' && t.decl === THREAD_SCOPE_DECL;
}

/** The scope a `thread_scope` value names. */
export function threadScopeOf(value: number): ThreadScope | undefined {
  return THREAD_SCOPES[value];
}

/** The order a `memory_order` value names, `consume` strengthened to `acquire`. */
export function orderOf(value: number): Order | undefined {
  const name = MEMORY_ORDERS[value];
  if (name === undefined) return undefined;
  return name === 'consume' ? 'acquire' : name;
}

/** The spelling of a `memory_order` value, for messages. */
export function orderName(value: number): string {
  return `memory_order_${MEMORY_ORDERS[value] ?? '?'}`;
}

/** The order of a compare-exchange's failure (a load) when only the success order is given. */
export function casFailureOrder(success: Order): Order {
  return success === 'acq_rel' ? 'acquire' : success === 'release' ? 'relaxed' : success;
}

// ---------------------------------------------------------------------------------------------
// Member functions of cuda::atomic and cuda::atomic_ref

export type AtomicMethod =
  | { kind: 'load' }
  | { kind: 'store' }
  /** A read-modify-write; `op` is the simulator's atomic operation (Add, Exch, …). */
  | { kind: 'rmw'; op: string; values: 'any' | 'arithmetic' | 'integer' }
  | { kind: 'cas' }
  /** wait(old, order): blocks until the value differs from `old`. */
  | { kind: 'wait' }
  | { kind: 'notify' }
  | { kind: 'lock-free' };

export const ATOMIC_METHODS: ReadonlyMap<string, AtomicMethod> = new Map<string, AtomicMethod>([
  ['load', { kind: 'load' }],
  ['store', { kind: 'store' }],
  ['exchange', { kind: 'rmw', op: 'Exch', values: 'any' }],
  ['compare_exchange_weak', { kind: 'cas' }],
  ['compare_exchange_strong', { kind: 'cas' }],
  ['fetch_add', { kind: 'rmw', op: 'Add', values: 'arithmetic' }],
  ['fetch_sub', { kind: 'rmw', op: 'Sub', values: 'arithmetic' }],
  ['fetch_and', { kind: 'rmw', op: 'And', values: 'integer' }],
  ['fetch_or', { kind: 'rmw', op: 'Or', values: 'integer' }],
  ['fetch_xor', { kind: 'rmw', op: 'Xor', values: 'integer' }],
  ['fetch_min', { kind: 'rmw', op: 'Min', values: 'arithmetic' }],
  ['fetch_max', { kind: 'rmw', op: 'Max', values: 'arithmetic' }],
  ['wait', { kind: 'wait' }],
  ['notify_one', { kind: 'notify' }],
  ['notify_all', { kind: 'notify' }],
  ['is_lock_free', { kind: 'lock-free' }],
]);

/** How many value arguments a method takes before its memory order(s), and how many orders. */
export function methodShape(m: AtomicMethod): { values: number; orders: number } {
  switch (m.kind) {
    case 'load':
      return { values: 0, orders: 1 };
    case 'store':
    case 'rmw':
    case 'wait':
      return { values: 1, orders: 1 };
    case 'cas':
      return { values: 2, orders: 2 };
    case 'notify':
    case 'lock-free':
      return { values: 0, orders: 0 };
  }
}

/** Why `order` may not be used for this use, or undefined when it may. */
export function invalidOrder(use: 'load' | 'store' | 'cas-failure', value: number): string | undefined {
  const name = MEMORY_ORDERS[value];
  if (use === 'store' && (name === 'consume' || name === 'acquire' || name === 'acq_rel')) return `${orderName(value)} is not a valid order for a store (use relaxed, release or seq_cst)`;
  if (use === 'load' && (name === 'release' || name === 'acq_rel')) return `${orderName(value)} is not a valid order for a load (use relaxed, acquire or seq_cst)`;
  if (use === 'cas-failure' && (name === 'release' || name === 'acq_rel')) return `${orderName(value)} is not a valid failure order for a compare-exchange (a failure only loads)`;
  return undefined;
}

/** Compound assignments an atomic object has (`a += v` is `a.fetch_add(v) + v`). */
export const ATOMIC_COMPOUND_OPS: ReadonlyMap<string, string> = new Map([
  ['+=', 'Add'],
  ['-=', 'Sub'],
  ['&=', 'And'],
  ['|=', 'Or'],
  ['^=', 'Xor'],
]);

// ---------------------------------------------------------------------------------------------
// Constant orders and scopes

const guard = new Set<A.VarDecl>();

const ENV: ConstEnv = {
  identifier: (e) => {
    const ref = e.ref;
    if (ref?.kind === 'enumerator') return ref.decl.constValue;
    // `const cuda::memory_order o = cuda::memory_order_acquire;`
    if (ref?.kind === 'var' && ref.decl.kind === 'VarDecl') {
      const d = ref.decl;
      const isConst = d.resolvedType?.const || d.specifiers.some((s) => s.text === 'constexpr');
      if (!isConst || !d.init || d.init.kind === 'InitList' || guard.has(d)) return undefined;
      guard.add(d);
      try {
        return evalConst(d.init, ENV);
      } finally {
        guard.delete(d);
      }
    }
    return undefined;
  },
  sizeOf: () => undefined,
  castsToInteger: () => true,
};

/**
 * The value of a memory-order or scope argument once the semantic pass has resolved its names;
 * undefined when it is not a constant (the simulator needs to know the order when it compiles).
 */
export function constantArgument(e: A.Expr): number | undefined {
  return evalConst(e, ENV);
}
