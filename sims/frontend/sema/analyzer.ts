// The semantic pass: resolves every name, gives every expression a type, chooses overloads and
// template arguments, and reports what nvcc would reject (and a few things it only warns
// about) with the exact range of the offending code. It annotates the tree in place:
// `Identifier.ref`, `Expr.type`, `*.resolvedType`, `Call.instantiation`, enumerator values.
import type * as A from '../ast';
import { cloneUnannotated } from '../ast';
import { DiagnosticSink, type Diagnostic } from '../diagnostics';
import { builtinNamedType, vectorType } from '../builtinTypes';
import type { Range } from '../source';
import * as T from '../types';
import { closestName, Scope, type Storage, type Symbol } from './scope';
import { evalConst, type ConstEnv } from './constEval';
import { conversionRank, describeConversionError, isNullPointerConstant, NOT_VIABLE } from './conversions';
import { BUILTIN_VARIABLES, PRELUDE_FILE } from './prelude';
import { argumentClass, parseFormat, type ArgumentClass } from '../../printf/format';
import {
  ATOMIC_COMPOUND_OPS, ATOMIC_METHODS, constantArgument, invalidOrder, isLibcuNamespace, isLibcuTypeName, isMemoryOrderType,
  isThreadScopeType, LIBCU_CONSTANT_NAMES, LIBCU_FUNCTIONS, LIBCU_NAME_HINTS, libcuConstant, MEMORY_ORDER_TYPE, methodShape, THREAD_SCOPE_TYPE,
  threadScopeOf,
} from '../libcu';
import { decodePtx } from '../ptx';

type Space = A.ExecutionSpace;

interface FunctionContext {
  decl: A.FunctionDecl;
  space: Space;
  returnType: T.Type;
  loops: number;
  switches: { values: Map<number, Range>; hasDefault: boolean }[];
  sawReturnValue: boolean;
}

/** Template arguments bound while checking a call against a template's signature. */
type Bindings = Map<string, T.Type | number>;

export interface AnalyzeOptions {
  /** The scope holding the prelude's declarations; the file's scope is its child. */
  preludeScope: Scope;
  /** Skip reporting (used while analysing the prelude itself, whose code we trust). */
  quiet?: boolean;
  /**
   * Which compilation this tree comes from: nvcc's host pass, its device pass (`__CUDA_ARCH__`
   * defined), or 'both' for a file that never tests `__CUDA_ARCH__`. It decides what a
   * `__host__ __device__` function may call.
   */
  side?: 'host' | 'device' | 'both';
}

/** A template instantiation checked with its arguments: a concretely typed copy of the body. */
export interface InstantiatedFunction {
  key: string;
  label: string;
  decl: A.FunctionDecl;
  body: A.CompoundStmt;
  paramTypes: T.Type[];
  returnType: T.Type;
  /** Template parameter → bound type or value. */
  bindings: Map<string, T.Type | number>;
}

export interface AnalyzeResult {
  diagnostics: Diagnostic[];
  fileScope: Scope;
  instantiations: Map<string, InstantiatedFunction>;
}

export function analyze(unit: A.TranslationUnit, options: AnalyzeOptions): AnalyzeResult {
  const a = new Analyzer(options.preludeScope, options.quiet ?? false, options.side ?? 'both');
  a.translationUnit(unit);
  return { diagnostics: a.sink.items, fileScope: a.fileScope, instantiations: a.instantiated };
}

/** Defines the built-in variables (threadIdx, …) in the prelude scope. */
export function defineBuiltinVariables(scope: Scope): void {
  for (const [name, info] of Object.entries(BUILTIN_VARIABLES)) {
    const base = info.type === 'int' ? T.INT : vectorType(info.type === 'uint3' ? 'uint3' : 'dim3')!;
    scope.define({ kind: 'var', name, decl: undefined, type: T.qualified(base, { const: true }), storage: 'builtin' });
  }
}

const SPACE_NAMES: Record<Space, string> = {
  host: '__host__',
  device: '__device__',
  global: '__global__',
  'host device': '__host__ __device__',
};

class Analyzer {
  readonly sink = new DiagnosticSink();
  readonly fileScope: Scope;
  private scope: Scope;
  private fn: FunctionContext | undefined;
  /** Template parameter values while evaluating inside an instantiation context. */
  private bindings: Bindings | undefined;
  /** The type each struct/union/enum definition denotes (a definition is visited twice:
   *  as a declaration of its own and as the type of the declarators that follow it). */
  private readonly tagTypes = new WeakMap<A.StructDecl | A.EnumDecl, T.Type>();

  constructor(
    preludeScope: Scope,
    private readonly quiet: boolean,
    private readonly side: 'host' | 'device' | 'both',
  ) {
    this.fileScope = new Scope(preludeScope, 'file');
    this.scope = this.fileScope;
  }

  // -------------------------------------------------------------------------------------------
  // Reporting

  private error(code: string, message: string, range: Range, related?: { message: string; range: Range }[]): void {
    if (!this.quiet) this.sink.error(code, message, range, related);
  }
  private warning(code: string, message: string, range: Range, related?: { message: string; range: Range }[]): void {
    if (!this.quiet) this.sink.warning(code, message, range, related);
  }

  // -------------------------------------------------------------------------------------------
  // Declarations

  translationUnit(unit: A.TranslationUnit): void {
    for (const d of unit.decls) this.declaration(d, true);
    this.checkInstantiations();
  }

  // -------------------------------------------------------------------------------------------
  // Template instantiations
  //
  // A template body is first checked generically, where anything that depends on a parameter
  // is given the benefit of the doubt. Like nvcc, we then check each instantiation the program
  // uses with its arguments substituted, so `atomicAdd_block(p, 1)` with T = short is caught.
  // Each instantiation is checked on an unannotated copy of the body, so the tree keeps the
  // generic annotations.

  private readonly templateScopes = new WeakMap<A.FunctionDecl, Scope>();
  private readonly pendingInstantiations = new Map<string, { inst: A.TemplateInstantiation; label: string }>();
  private readonly checkedInstantiations = new Set<string>();

  private noteInstantiation(inst: A.TemplateInstantiation): void {
    const params = inst.template.template?.params ?? [];
    if (this.quiet || !inst.template.body || inst.args.length !== params.length) return;
    if (inst.args.some((a) => a.kind === 'type' && mentionsTemplateParam(a.type))) return;
    const args = inst.args.map((a, i) => (a.kind === 'type' ? T.typeToString(a.type) : params[i].valueType?.kind === 'NamedType' && params[i].valueType.name === 'bool' ? String(a.value !== 0) : String(a.value)));
    const label = `${inst.template.name}<${args.join(', ')}>`;
    const key = `${inst.template.nameRange.file}:${inst.template.nameRange.start.offset}:${label}`;
    inst.key = key;
    if (!this.checkedInstantiations.has(key)) this.pendingInstantiations.set(key, { inst, label });
  }

  private checkInstantiations(): void {
    // Instantiations found while checking others join the queue; a bound stops runaway recursion.
    for (let n = 0; this.pendingInstantiations.size > 0 && n < 200; n++) {
      const [key, { inst, label }] = this.pendingInstantiations.entries().next().value!;
      this.pendingInstantiations.delete(key);
      this.checkedInstantiations.add(key);
      this.checkInstantiation(inst, label, key);
    }
  }

  readonly instantiated = new Map<string, InstantiatedFunction>();

  private checkInstantiation(inst: A.TemplateInstantiation, label: string, key: string): void {
    const d = inst.template;
    const templateScope = this.templateScopes.get(d);
    if (!d.body || !templateScope) return;
    const body = cloneUnannotated(d.body);
    const bindings: Bindings = new Map();
    d.template!.params.forEach((p, i) => {
      const a = inst.args[i];
      bindings.set(p.name, a.kind === 'type' ? a.type : a.value);
    });
    const saved = { scope: this.scope, fn: this.fn, bindings: this.bindings, breakables: this.breakables };
    const before = this.sink.items.length;
    this.bindings = bindings;
    try {
      const fnScope = new Scope(templateScope, 'function');
      const paramTypes: T.Type[] = [];
      for (const p of d.params) {
        let pt = this.resolveType(p.type);
        if (pt.kind === 'array') pt = T.pointerTo(pt.of);
        paramTypes.push(pt);
        if (p.name) fnScope.define({ kind: 'var', name: p.name, decl: p, type: pt, storage: 'param' });
      }
      this.scope = fnScope;
      const returnType = this.resolveType(d.returnType);
      this.fn = { decl: d, space: d.space, returnType, loops: 0, switches: [], sawReturnValue: false };
      this.breakables = 0;
      for (const st of body.body) this.stmt(st);
      this.instantiated.set(key, { key, label, decl: d, body, paramTypes, returnType, bindings });
    } finally {
      Object.assign(this, saved);
    }
    // Problems that only the substituted types reveal say which instantiation they are from.
    for (const diag of this.sink.items.slice(before)) diag.message += ` (in instantiation of '${label}')`;
  }

  private declaration(d: A.Decl, global: boolean): void {
    switch (d.kind) {
      case 'FunctionDecl':
        if (!global) this.declareFunction(d);
        else this.functionDecl(d);
        return;
      case 'VarDecl':
        this.varDecl(d);
        return;
      case 'TypedefDecl': {
        const type = this.resolveType(d.type);
        d.resolvedType = type;
        const prev = this.scope.own(d.name);
        // `typedef struct Node {…} Node;` names the same type twice, which is fine.
        if (prev && !((prev.kind === 'typedef' || prev.kind === 'tag') && T.sameType(prev.type, type))) this.redeclared(d.name, d.nameRange, prev);
        this.scope.define({ kind: 'typedef', name: d.name, type, decl: d });
        return;
      }
      case 'StructDecl':
      case 'EnumDecl':
        this.defineTag(d);
        return;
      case 'StaticAssert': {
        this.expr(d.condition);
        const v = evalConst(d.condition, this.constEnv);
        if (v === undefined) this.error('not-constant', 'static_assert needs a constant expression', d.condition.range);
        else if (!v) this.error('static-assert', `static assertion failed${d.message ? `: ${d.message}` : ''}`, d.condition.range);
        return;
      }
      case 'LinkageDecl':
        for (const inner of d.decls) this.declaration(inner, global);
        return;
      case 'UnsupportedDecl':
        if (d.what === 'class template') {
          // Already reported; uses of the name get an error type that reports nothing more.
          for (const inner of d.decls) {
            if (inner.kind === 'StructDecl' && inner.name) {
              const alias: A.TypedefDecl = { kind: 'TypedefDecl', range: inner.range, name: inner.name, nameRange: inner.nameRange ?? inner.range, type: { kind: 'NamedType', range: inner.range, name: inner.name, qualifiers: [] }, alias: true };
              this.scope.define({ kind: 'typedef', name: inner.name, type: T.ERROR, decl: alias });
            }
          }
          return;
        }
        for (const inner of d.decls) this.declaration(inner, global);
        return;
      case 'FieldDecl':
        return;
    }
  }

  private redeclared(name: string, at: Range, prev: Symbol): void {
    const prevRange = symbolRange(prev);
    this.error('redeclaration', `'${name}' is already declared in this scope`, at, prevRange ? [{ message: `'${name}' was declared here`, range: prevRange }] : undefined);
  }

  private defineTag(d: A.StructDecl | A.EnumDecl): T.Type {
    const done = this.tagTypes.get(d);
    if (done) return done;
    const existing = d.name ? this.scope.own(`tag:${d.name}`) : undefined;
    if (d.kind === 'EnumDecl') {
      const type: T.Type = { kind: 'enum', name: d.name ?? '(anonymous enum)', decl: d };
      this.tagTypes.set(d, type);
      if (d.name) {
        if (existing && existing.kind === 'tag' && existing.decl !== d) this.redeclared(d.name, d.nameRange!, existing);
        this.scope.define({ kind: 'tag', name: d.name, type, decl: d }, `tag:${d.name}`);
        if (!this.scope.own(d.name)) this.scope.define({ kind: 'tag', name: d.name, type, decl: d });
      }
      let next = 0;
      for (const e of d.enumerators) {
        if (e.value) {
          this.expr(e.value);
          const v = evalConst(e.value, this.constEnv);
          if (v === undefined) this.error('not-constant', `the value of enumerator '${e.name}' must be a constant expression`, e.value.range);
          else next = v;
        }
        e.constValue = next++;
        if (!d.scoped) {
          const prev = this.scope.own(e.name);
          if (prev) this.redeclared(e.name, e.range, prev);
          this.scope.define({ kind: 'enumerator', name: e.name, decl: e, type });
        }
      }
      return type;
    }
    const prior = existing?.kind === 'tag' && existing.type.kind === 'struct' ? existing.type : undefined;
    let type: T.Type;
    if (prior && (!d.fields || !prior.decl.fields)) {
      // `struct S;` before or after the definition, or the definition completing a forward
      // declaration: all of them denote one type, which ends up pointing at the definition.
      if (d.fields) (prior as { decl: A.StructDecl }).decl = d;
      type = prior;
    } else {
      if (prior && d.fields) {
        this.error('redefinition', `${d.tag} '${d.name}' is defined twice`, d.nameRange!, [{ message: 'first definition', range: prior.decl.nameRange ?? prior.decl.range }]);
      }
      type = { kind: 'struct', name: d.name ?? `(anonymous ${d.tag})`, decl: d };
      if (d.name) {
        this.scope.define({ kind: 'tag', name: d.name, type, decl: d }, `tag:${d.name}`);
        const own = this.scope.own(d.name);
        if (!own || own.kind === 'tag') this.scope.define({ kind: 'tag', name: d.name, type, decl: d });
      }
    }
    this.tagTypes.set(d, type);
    if (d.fields) {
      const seen = new Map<string, A.FieldDecl>();
      for (const f of d.fields) {
        f.resolvedType = this.resolveType(f.type);
        if (f.bitWidth) this.expr(f.bitWidth);
        if (f.name) {
          const prev = seen.get(f.name);
          if (prev) this.error('redeclaration', `${d.tag} member '${f.name}' is declared twice`, f.nameRange!, [{ message: 'first declaration', range: prev.nameRange! }]);
          seen.set(f.name, f);
        }
        if (f.resolvedType.kind === 'struct' && f.resolvedType.decl === d) {
          this.error('incomplete-type', `${d.tag} '${d.name}' cannot contain itself; use a pointer`, f.range);
          f.resolvedType = T.ERROR;
        }
      }
    }
    return type;
  }

  private storageOf(d: A.VarDecl): Storage {
    const words = new Set(d.specifiers.map((s) => s.text));
    if (words.has('__shared__')) return 'shared';
    if (words.has('__constant__')) return 'constant';
    if (words.has('__managed__')) return 'managed';
    if (words.has('__device__')) return d.global || words.has('static') ? 'device' : 'local';
    if (d.global) return 'host-global';
    return words.has('static') ? 'static-local' : 'local';
  }

  private varDecl(d: A.VarDecl): void {
    let type = this.resolveType(d.type);
    if (d.specifiers.some((x) => x.text === 'constexpr')) type = T.qualified(type, { const: true });
    const storage = this.storageOf(d);
    const words = new Set(d.specifiers.map((s) => s.text));
    const spec = (w: string) => d.specifiers.find((s) => s.text === w)!.range;
    if (storage === 'shared') {
      if (this.fn && this.fn.space === 'host') this.error('wrong-execution-space', `__shared__ variable '${d.name}' cannot be declared in host function '${this.fn.decl.name}'`, spec('__shared__'));
      if (d.init) this.error('shared-initializer', `__shared__ variable '${d.name}' cannot have an initializer; assign it in the kernel (one thread), then __syncthreads()`, d.init.range);
      if (words.has('extern') && type.kind === 'array' && type.size !== undefined) {
        this.warning('extern-shared', `extern __shared__ array '${d.name}' should be declared without a size; its size comes from the launch`, d.type.range);
      }
    }
    if ((storage === 'constant' || (words.has('__device__') && storage === 'device')) && this.fn && !words.has('static')) {
      this.error('invalid-storage', `${storage === 'constant' ? '__constant__' : '__device__'} variable '${d.name}' must be declared at file scope`, spec(storage === 'constant' ? '__constant__' : '__device__'));
    }
    if (type.kind === 'reference' && !d.init) this.error('uninitialized-reference', `reference '${d.name}' must be initialized`, d.nameRange);
    if (type.kind === 'atomic' && type.ref && !d.init && !d.global) this.error('uninitialized-reference', `cuda::atomic_ref '${d.name}' must be initialized with the variable it refers to: ${d.name}(x)`, d.nameRange);
    if (type.const && !d.init && !words.has('extern') && type.kind !== 'array' && storage !== 'shared') {
      this.error('uninitialized-const', `const variable '${d.name}' must be initialized`, d.nameRange);
    }
    if (type.kind === 'void') this.error('invalid-type', `variable '${d.name}' cannot have type 'void'`, d.nameRange);
    // Define before the initializer (C++ point of declaration), except that `auto` needs the init.
    const sym: Symbol = { kind: 'var', name: d.name, decl: d, type, storage };
    const prev = this.scope.own(d.name);
    if (prev && !(prev.kind === 'var' && prev.decl?.kind === 'VarDecl' && (prev.decl.specifiers.some((s) => s.text === 'extern') || words.has('extern')))) {
      this.redeclared(d.name, d.nameRange, prev);
    }
    if (type.kind === 'array' && type.size === undefined && d.init) {
      if (d.init.kind === 'InitList') type = { ...type, size: d.init.elements.length };
      else if (d.init.kind === 'StringLiteral') type = { ...type, size: d.init.value.length + 1 };
    }
    if (!(d.type.kind === 'NamedType' && d.type.name === 'auto')) {
      sym.type = type;
      this.scope.define(sym);
    }
    if (d.init) {
      const isAuto = d.type.kind === 'NamedType' && d.type.name === 'auto';
      if (isAuto) {
        const t = this.expr(d.init);
        type = T.qualified(T.unqualified(T.decay(t)), { const: type.const ?? false, volatile: type.volatile ?? false });
        sym.type = type;
        this.scope.define(sym);
      } else {
        this.initializer(type, d.init, `initializing '${d.name}'`);
      }
    } else if (d.type.kind === 'NamedType' && d.type.name === 'auto') {
      this.error('auto-without-initializer', `'auto' variable '${d.name}' needs an initializer`, d.nameRange);
      this.scope.define(sym);
    }
    if (type.kind === 'array' && type.size === undefined && !words.has('extern') && !(d.type.kind === 'ArrayType' && d.type.size) && d.init === undefined) {
      this.error('array-size', `array '${d.name}' needs a size or an initializer`, d.type.range);
    }
    d.resolvedType = type;
  }

  /** Checks an initializer (`= x`, `(x)`, `{…}`) against the type it initialises. */
  private initializer(type: T.Type, init: A.Expr, what: string): void {
    if (type.kind === 'atomic') {
      this.atomicInitializer(type, init, what);
      return;
    }
    if (init.kind !== 'InitList') {
      if (type.kind === 'array' && init.kind === 'StringLiteral') {
        this.expr(init);
        if (type.size !== undefined && init.value.length >= type.size + 1) this.error('too-many-initializers', `the string is longer than the array (${type.size} elements)`, init.range);
        return;
      }
      if (type.kind === 'vector' && init.kind === 'Construct') {
        this.expr(init);
        return;
      }
      const t = this.expr(init);
      this.checkConvertible(type, t, init, what);
      return;
    }
    init.type = type;
    const u = T.stripReference(type);
    if (u.kind === 'array') {
      if (u.size !== undefined && init.elements.length > u.size) {
        this.error('too-many-initializers', `too many initializers for '${T.typeToString(u)}' (${init.elements.length} given)`, init.elements[u.size].value.range);
      }
      for (const el of init.elements) {
        for (const d of el.designators) if (d.kind === 'index') this.expr(d.index);
        this.initializer(u.of, el.value, what);
      }
      return;
    }
    if (u.kind === 'struct') {
      const fields = u.decl.fields ?? [];
      let i = 0;
      for (const el of init.elements) {
        const fd = el.designators[0];
        if (fd?.kind === 'field') {
          const idx = fields.findIndex((f) => f.name === fd.name);
          if (idx < 0) {
            this.error('no-member', `'${u.name}' has no member named '${fd.name}'`, fd.range);
            this.expr(el.value);
            continue;
          }
          i = idx;
        }
        const f = fields[i];
        if (!f) {
          this.error('too-many-initializers', `too many initializers for '${u.name}' (it has ${fields.length} members)`, el.value.range);
          this.expr(el.value);
        } else {
          this.initializer(f.resolvedType ?? T.ERROR, el.value, what);
          if (u.decl.tag === 'union') i = fields.length;
        }
        i++;
      }
      return;
    }
    if (u.kind === 'vector') {
      if (init.elements.length > u.count) this.error('too-many-initializers', `too many initializers for '${u.name}' (it has ${u.count} components)`, init.elements[u.count].value.range);
      for (const el of init.elements) this.initializer(u.elem, el.value, what);
      return;
    }
    // A scalar in braces: `int x{5}` / `int x = {5}`.
    if (init.elements.length > 1) this.error('too-many-initializers', `too many initializers for '${T.typeToString(u)}'`, init.elements[1].value.range);
    for (const el of init.elements) this.initializer(u, el.value, what);
  }

  private checkConvertible(to: T.Type, from: T.Type, expr: A.Expr, what: string): void {
    if (conversionRank(to, from, expr) !== NOT_VIABLE) return;
    this.error('type-mismatch', describeConversionError(to, from, what), expr.range);
  }

  private declareFunction(d: A.FunctionDecl): void {
    const prev = this.scope.own(d.name);
    if (prev && prev.kind !== 'functions') {
      this.redeclared(d.name, d.nameRange, prev);
      return;
    }
    if (prev?.kind === 'functions') {
      if (d.body) {
        const twin = prev.decls.find((o) => o.body && o !== d && sameSignature(o, d) && !!o.template === !!d.template);
        if (twin) this.error('redefinition', `function '${d.name}' is defined twice`, d.nameRange, [{ message: 'first definition', range: twin.nameRange }]);
      }
      const sibling = prev.decls.find((o) => sameSignature(o, d) && o !== d);
      if (sibling && spaceOf(sibling) !== spaceOf(d) && !sibling.template && !d.template) {
        this.error('redeclaration', `'${d.name}' was declared ${SPACE_NAMES[spaceOf(sibling)]} but is now ${SPACE_NAMES[spaceOf(d)]}`, d.nameRange, [{ message: 'earlier declaration', range: sibling.nameRange }]);
      }
      prev.decls.push(d);
    } else {
      this.scope.define({ kind: 'functions', name: d.name, decls: [d] });
    }
  }

  private functionDecl(d: A.FunctionDecl): void {
    const outer = this.scope;
    if (d.template) {
      this.scope = new Scope(outer, 'template');
      this.templateScopes.set(d, this.scope);
      for (const p of d.template.params) {
        if (p.paramKind === 'type') this.scope.define({ kind: 'templateType', name: p.name, param: p });
        else this.scope.define({ kind: 'templateValue', name: p.name, param: p, type: p.valueType ? this.resolveType(p.valueType) : T.INT });
      }
    }
    const returnType = this.resolveType(d.returnType);
    for (const p of d.params) {
      let pt = this.resolveType(p.type);
      if (pt.kind === 'array') pt = T.qualified(T.pointerTo(pt.of), {});
      if (pt.kind === 'void' && p.name) this.error('invalid-type', `parameter '${p.name}' cannot have type 'void'`, p.range);
      p.resolvedType = pt;
      if (p.defaultValue) this.expr(p.defaultValue);
    }
    // Declared in the enclosing (file) scope, visible in its own body for recursion.
    const saved = this.scope;
    this.scope = outer;
    this.declareFunction(d);
    this.scope = saved;
    if (d.space === 'global') {
      if (returnType.kind !== 'void') this.error('kernel-return-type', `__global__ function '${d.name}' must return void`, d.returnType.range);
      for (const p of d.params) {
        if (p.resolvedType?.kind === 'reference') this.error('kernel-parameter', `__global__ function parameter '${p.name ?? ''}' cannot be a reference; the kernel runs on the device and cannot see host variables`, p.range);
      }
    }
    if (d.name === 'main' && d.space !== 'host') this.error('wrong-execution-space', "'main' must be a host function", d.nameRange);
    if (d.body) {
      const fnScope = new Scope(this.scope, 'function');
      for (const p of d.params) {
        if (!p.name) continue;
        if (fnScope.own(p.name)) this.error('redeclaration', `parameter '${p.name}' is declared twice`, p.nameRange!);
        fnScope.define({ kind: 'var', name: p.name, decl: p, type: p.resolvedType!, storage: 'param' });
      }
      const prevFn = this.fn;
      this.fn = { decl: d, space: d.space, returnType, loops: 0, switches: [], sawReturnValue: false };
      const prevScope = this.scope;
      this.scope = fnScope;
      for (const s of d.body.body) this.stmt(s);
      this.scope = prevScope;
      if (returnType.kind !== 'void' && !T.isDependentOrError(returnType) && d.name !== 'main' && !this.fn.sawReturnValue && !endsInTrap(d.body)) {
        this.warning('missing-return', `non-void function '${d.name}' never returns a value`, d.nameRange);
      }
      this.fn = prevFn;
    }
    this.scope = outer;
  }

  // -------------------------------------------------------------------------------------------
  // Types

  private resolveType(n: A.TypeNode): T.Type {
    switch (n.kind) {
      case 'NamedType': {
        const q = qualifierFlags(n.qualifiers);
        return T.qualified(this.resolveNamed(n), q);
      }
      case 'TagType': {
        let t: T.Type;
        if (n.definition) t = this.defineTag(n.definition);
        else {
          const sym = n.name ? this.scope.lookupTag(n.name) : undefined;
          if (sym?.kind === 'tag') t = sym.type;
          else if (n.tag === 'enum') {
            this.error('unknown-type', `unknown enum '${n.name ?? ''}'`, n.range);
            t = T.ERROR;
          } else {
            // `struct S *p` with S not yet declared declares an incomplete struct (C rules).
            const decl: A.StructDecl = { kind: 'StructDecl', range: n.range, tag: n.tag, name: n.name ?? '' };
            t = { kind: 'struct', name: n.name ?? '', decl };
            if (n.name) this.fileScope.define({ kind: 'tag', name: n.name, type: t, decl }, `tag:${n.name}`);
          }
        }
        return T.qualified(t, qualifierFlags(n.qualifiers));
      }
      case 'PointerType':
        return T.qualified(T.pointerTo(this.resolveType(n.to)), qualifierFlags(n.qualifiers));
      case 'ReferenceType': {
        const to = this.resolveType(n.to);
        return { kind: 'reference', to };
      }
      case 'ArrayType': {
        const of = this.resolveType(n.of);
        if (!n.size) return { kind: 'array', of };
        const st = this.expr(n.size);
        const size = evalConst(n.size, this.constEnv);
        if (size === undefined) {
          if (!this.dependsOnTemplate(n.size)) {
            if (T.isInteger(T.stripReference(st)) || T.isDependentOrError(st)) {
              this.error('array-size', 'the array size must be a constant expression (variable-length arrays are not allowed in CUDA C++); use a constant or dynamic shared memory', n.size.range);
            } else this.error('type-mismatch', `the array size must be an integer, not '${T.typeToString(st)}'`, n.size.range);
          }
          return { kind: 'array', of };
        }
        if (!Number.isInteger(size) || size <= 0) {
          this.error('array-size', `the array size must be a positive integer (it is ${size})`, n.size.range);
          return { kind: 'array', of };
        }
        return { kind: 'array', of, size };
      }
      case 'FunctionType':
        return {
          kind: 'function',
          returns: this.resolveType(n.returns),
          params: n.params.map((p) => (p.resolvedType = this.resolveType(p.type))),
          variadic: n.variadic,
        };
    }
  }

  private resolveNamed(n: A.NamedTypeNode): T.Type {
    const name = n.name;
    if (name === 'void') return T.VOID;
    if (name === 'bool') return T.BOOL;
    if (name === 'float') return T.FLOAT;
    if (name === 'double') return T.DOUBLE;
    if (name === 'auto') return T.ERROR;
    if (T.isIntName(name)) return T.intType(name);
    if (n.qualifier && isLibcuTypeName(n.qualifier, name)) return this.libcuType(n);
    if (n.qualifier) return builtinNamedType(name) ?? T.ERROR;
    // Inside a template instantiation its parameters mean their arguments.
    const bound = this.bindings?.get(name);
    if (bound !== undefined && typeof bound !== 'number') return bound;
    const sym = this.scope.lookup(name);
    if (sym) {
      if (sym.kind === 'typedef' || sym.kind === 'tag') return sym.type;
      if (sym.kind === 'templateType') return { kind: 'typeParam', name, param: sym.param };
      this.error('not-a-type', `'${name}' is not a type`, n.range, symbolRange(sym) ? [{ message: `'${name}' is declared here`, range: symbolRange(sym)! }] : undefined);
      return T.ERROR;
    }
    const builtin = builtinNamedType(name);
    if (builtin) return builtin;
    if (UNSUPPORTED_LIBRARY.has(name)) {
      this.error('not-supported', `not supported yet: ${UNSUPPORTED_LIBRARY.get(name)} ('${name}')`, n.range);
      return T.ERROR;
    }
    const hint = closestName(name, this.typeNames());
    this.error('unknown-type', `unknown type name '${name}'${hint ? `; did you mean '${hint}'?` : ''}`, n.range);
    return T.ERROR;
  }

  private *typeNames(): Iterable<string> {
    for (const name of this.scope.visibleNames()) {
      const s = this.scope.lookup(name);
      if (s && (s.kind === 'typedef' || s.kind === 'tag' || s.kind === 'templateType')) yield name;
    }
    yield* ['int', 'float', 'double', 'char', 'unsigned', 'size_t', 'float4', 'int2', 'dim3', 'uint3'];
  }

  private dependsOnTemplate(e: A.Expr): boolean {
    let found = false;
    const visit = (x: unknown): void => {
      if (found || !x || typeof x !== 'object') return;
      const n = x as A.Expr;
      if (n.kind === 'Identifier' && n.ref?.kind === 'templateValue') found = true;
      if (n.kind === 'Sizeof' && n.resolvedTarget && T.isDependentOrError(n.resolvedTarget)) found = true;
      for (const [k, v] of Object.entries(n)) if (k !== 'type' && k !== 'ref' && k !== 'range' && k !== 'resolvedTarget') Array.isArray(v) ? v.forEach(visit) : visit(v);
    };
    visit(e);
    return found;
  }

  private readonly constEnv: ConstEnv = {
    identifier: (e) => {
      const ref = e.ref;
      if (!ref) return undefined;
      if (ref.kind === 'enumerator') return ref.decl.constValue;
      if (ref.kind === 'templateValue') {
        const b = this.bindings?.get(ref.param.name);
        return typeof b === 'number' ? b : undefined;
      }
      if (ref.kind === 'var' && ref.decl.kind === 'VarDecl') {
        const d = ref.decl;
        const isConst = d.resolvedType?.const || d.specifiers.some((s) => s.text === 'constexpr');
        if (!isConst || !d.init || d.init.kind === 'InitList' || constEvalGuard.has(d)) return undefined;
        constEvalGuard.add(d);
        try {
          return evalConst(d.init, this.constEnv);
        } finally {
          constEvalGuard.delete(d);
        }
      }
      return undefined;
    },
    sizeOf: (e) => {
      const t = e.resolvedTarget;
      if (!t) return undefined;
      return e.align ? T.alignOf(t) : T.sizeOf(t);
    },
    castsToInteger: (e) => {
      const t = e.resolvedTarget;
      return !!t && T.isInteger(t);
    },
  };

  // -------------------------------------------------------------------------------------------
  // Statements

  private withScope(f: () => void): void {
    const prev = this.scope;
    this.scope = new Scope(prev, 'block');
    try {
      f();
    } finally {
      this.scope = prev;
    }
  }

  private stmt(s: A.Stmt): void {
    switch (s.kind) {
      case 'CompoundStmt':
        this.withScope(() => s.body.forEach((x) => this.stmt(x)));
        return;
      case 'DeclStmt':
        for (const d of s.decls) this.declaration(d, false);
        return;
      case 'ExprStmt':
        this.expr(s.expr);
        return;
      case 'IfStmt':
        this.withScope(() => {
          if (s.conditionDecl) this.varDecl(s.conditionDecl);
          this.condition(s.condition, 'if');
          this.withScope(() => this.stmt(s.then));
          if (s.else) this.withScope(() => this.stmt(s.else!));
        });
        return;
      case 'ForStmt':
        this.withScope(() => {
          if (s.init) this.stmt(s.init);
          if (s.condition) this.condition(s.condition, 'for');
          if (s.step) this.expr(s.step);
          this.loopBody(s.body);
        });
        return;
      case 'WhileStmt':
        this.condition(s.condition, 'while');
        this.loopBody(s.body);
        return;
      case 'DoStmt':
        this.loopBody(s.body);
        this.condition(s.condition, 'do-while');
        return;
      case 'SwitchStmt': {
        const t = this.expr(s.condition);
        if (!T.isInteger(T.stripReference(t)) && !T.isDependentOrError(t)) this.error('type-mismatch', `switch needs an integer or enum, not '${T.typeToString(t)}'`, s.condition.range);
        if (!this.fn) return;
        this.fn.switches.push({ values: new Map(), hasDefault: false });
        const breakable = this.breakables;
        this.breakables++;
        this.withScope(() => this.stmt(s.body));
        this.breakables = breakable;
        this.fn.switches.pop();
        return;
      }
      case 'CaseStmt': {
        this.expr(s.value);
        const sw = this.fn?.switches[this.fn.switches.length - 1];
        if (!sw) {
          this.error('misplaced-case', "'case' label outside a switch", s.range);
          return;
        }
        const v = evalConst(s.value, this.constEnv);
        if (v === undefined) {
          if (!this.dependsOnTemplate(s.value)) this.error('not-constant', 'a case label must be a constant expression', s.value.range);
          return;
        }
        s.constValue = v;
        const prev = sw.values.get(v);
        if (prev) this.error('duplicate-case', `duplicate case value ${v}`, s.value.range, [{ message: 'previous case', range: prev }]);
        else sw.values.set(v, s.value.range);
        return;
      }
      case 'DefaultStmt': {
        const sw = this.fn?.switches[this.fn.switches.length - 1];
        if (!sw) this.error('misplaced-case', "'default' label outside a switch", s.range);
        else if (sw.hasDefault) this.error('duplicate-case', "a switch has only one 'default' label", s.range);
        else sw.hasDefault = true;
        return;
      }
      case 'BreakStmt':
        if (this.breakables === 0) this.error('misplaced-jump', "'break' outside a loop or switch", s.range);
        return;
      case 'ContinueStmt':
        if (!this.fn || this.fn.loops === 0) this.error('misplaced-jump', "'continue' outside a loop", s.range);
        return;
      case 'ReturnStmt':
        this.returnStmt(s);
        return;
      case 'AsmStmt':
        this.asmStmt(s);
        return;
      case 'NullStmt':
      case 'UnsupportedStmt':
        return;
    }
  }

  /** Loops and switches that a `break` may leave. */
  private breakables = 0;

  private loopBody(body: A.Stmt): void {
    if (!this.fn) return;
    this.fn.loops++;
    this.breakables++;
    this.withScope(() => this.stmt(body));
    this.fn.loops--;
    this.breakables--;
  }

  private condition(e: A.Expr, what: string): void {
    let t = T.stripReference(this.expr(e));
    if (t.kind === 'atomic') t = T.decay(t);
    if (!T.isScalar(t) && !T.isDependentOrError(t)) this.error('type-mismatch', `the ${what} condition must be a number or a pointer, not '${T.typeToString(t)}'`, e.range);
  }

  private returnStmt(s: A.ReturnStmt): void {
    const fn = this.fn;
    if (!fn) return;
    const rt = fn.returnType;
    if (!s.value) {
      if (rt.kind !== 'void' && !T.isDependentOrError(rt)) this.error('return-type', `function '${fn.decl.name}' must return a value of type '${T.typeToString(rt)}'`, s.range);
      return;
    }
    fn.sawReturnValue = true;
    if (rt.kind === 'void') {
      const t = this.expr(s.value);
      if (t.kind !== 'void') this.error('return-type', `void function '${fn.decl.name}' cannot return a value`, s.value.range);
      return;
    }
    this.initializer(rt, s.value, `returning from '${fn.decl.name}'`);
  }

  // -------------------------------------------------------------------------------------------
  // Expressions

  /** Types `e` (and its children), records the type on the node, and returns it. */
  expr(e: A.Expr): T.Type {
    const t = this.exprInner(e);
    e.type = t;
    return t;
  }

  private exprInner(e: A.Expr): T.Type {
    switch (e.kind) {
      case 'IntLiteral': {
        const name: T.IntName = `${e.unsigned ? 'unsigned ' : ''}${e.longness === 2 ? 'long long' : e.longness === 1 ? 'long' : 'int'}` as T.IntName;
        return T.intType(name);
      }
      case 'FloatLiteral':
        return e.single ? T.FLOAT : T.DOUBLE;
      case 'CharLiteral':
        return T.CHAR;
      case 'StringLiteral':
        return { kind: 'array', of: T.qualified(T.CHAR, { const: true }), size: e.value.length + 1 };
      case 'BoolLiteral':
        return T.BOOL;
      case 'NullptrLiteral':
        return T.NULLPTR;
      case 'Error':
        return T.ERROR;
      case 'Paren':
        return this.expr(e.inner);
      case 'Identifier':
        return this.identifier(e);
      case 'Unary':
        return this.unary(e);
      case 'Postfix': {
        const t = this.expr(e.operand);
        this.checkModifiable(e.operand, `'${e.op}'`);
        const u = T.stripReference(t);
        if (u.kind === 'atomic') return this.atomicIncDec(e.op, u, e.operand);
        if (!T.isScalar(u) && !T.isDependentOrError(u)) this.error('invalid-operand', `'${e.op}' needs a number or a pointer, not '${T.typeToString(u)}'`, e.operand.range);
        return T.unqualified(u);
      }
      case 'Binary':
        return this.binary(e);
      case 'Assign':
        return this.assign(e);
      case 'Conditional': {
        this.condition(e.condition, 'conditional');
        const a = T.decay(this.expr(e.then));
        const b = T.decay(this.expr(e.else));
        // Two values of one enumeration keep its type (`o = c ? memory_order_acquire : memory_order_relaxed`).
        if (a.kind === 'enum' && T.sameType(a, b)) return T.unqualified(a);
        if (T.isArithmetic(a) && T.isArithmetic(b)) return T.usualArithmetic(a, b);
        if (a.kind === 'pointer' && (b.kind === 'nullptr' || isNullPointerConstant(e.else))) return a;
        if (b.kind === 'pointer' && (a.kind === 'nullptr' || isNullPointerConstant(e.then))) return b;
        if (T.isDependentOrError(a) || T.isDependentOrError(b)) return T.isDependentOrError(a) ? a : b;
        if (conversionRank(a, b, e.else) === NOT_VIABLE && conversionRank(b, a, e.then) === NOT_VIABLE) {
          this.error('type-mismatch', `the two results of '?:' have incompatible types '${T.typeToString(a)}' and '${T.typeToString(b)}'`, e.range);
        }
        return a;
      }
      case 'Call':
        return this.call(e);
      case 'Launch':
        return this.launch(e);
      case 'Index': {
        const b = T.decay(this.expr(e.base));
        const i = T.decay(this.expr(e.index));
        if (T.isDependentOrError(b)) return T.ERROR;
        let ptr = b;
        let idx = i;
        if (b.kind !== 'pointer' && i.kind === 'pointer') {
          ptr = i;
          idx = b;
        }
        if (ptr.kind !== 'pointer') {
          this.error('not-subscriptable', `'${T.typeToString(b)}' is not an array or pointer, so it cannot be subscripted`, e.base.range);
          return T.ERROR;
        }
        if (!T.isInteger(idx) && !T.isDependentOrError(idx)) this.error('type-mismatch', `an array index must be an integer, not '${T.typeToString(idx)}'`, e.index.range);
        if (ptr.to.kind === 'void') this.error('invalid-operand', "cannot subscript a 'void *'; cast it to a typed pointer first", e.base.range);
        return ptr.to;
      }
      case 'Member':
        return this.member(e);
      case 'Cast': {
        const to = this.resolveType(e.target);
        e.resolvedTarget = to;
        const from = T.decay(this.expr(e.operand));
        if (e.style === 'static' || e.style === 'c') {
          const ok =
            T.isDependentOrError(to) || T.isDependentOrError(from) || to.kind === 'void' ||
            (T.isScalar(to) && T.isScalar(from)) || conversionRank(to, from, e.operand) !== NOT_VIABLE ||
            (to.kind === 'reference');
          if (!ok) this.error('invalid-cast', `cannot cast '${T.typeToString(from)}' to '${T.typeToString(to)}'`, e.range);
        }
        return to;
      }
      case 'Construct':
        return this.construct(e);
      case 'Sizeof': {
        if ('kind' in e.target && A_isTypeNode(e.target)) e.resolvedTarget = this.resolveType(e.target);
        else e.resolvedTarget = T.stripReference(this.expr(e.target as A.Expr));
        const t = e.resolvedTarget;
        if ((t.kind === 'void' || t.kind === 'function') && !T.isDependentOrError(t)) this.error('invalid-operand', `sizeof cannot be applied to '${T.typeToString(t)}'`, e.range);
        return T.SIZE_T;
      }
      case 'InitList':
        for (const el of e.elements) this.expr(el.value);
        return T.ERROR;
    }
  }

  private identifier(e: A.IdentifierExpr): T.Type {
    if (e.qualifier) return this.qualifiedIdentifier(e);
    const sym = this.scope.lookup(e.name);
    if (!sym && (e.name === '__func__' || e.name === '__FUNCTION__' || e.name === '__PRETTY_FUNCTION__') && this.fn) {
      // The predefined `static const char __func__[]` of the enclosing function.
      e.ref = { kind: 'builtin', name: e.name };
      return { kind: 'array', of: T.qualified(T.CHAR, { const: true }), size: this.fn.decl.name.length + 1 };
    }
    if (!sym && UNSUPPORTED_LIBRARY.has(e.name)) {
      this.error('not-supported', `not supported yet: ${UNSUPPORTED_LIBRARY.get(e.name)} ('${e.name}')`, e.range);
      return T.ERROR;
    }
    if (!sym && (libcuConstant('cuda', e.name) || LIBCU_FUNCTIONS.has(e.name) || isLibcuTypeName('cuda', e.name))) {
      this.error('not-supported', `not supported yet: '${e.name}' without its namespace; write cuda::${e.name} (the simulator does not look into namespaces opened with 'using namespace')`, e.range);
      return T.ERROR;
    }
    if (!sym) {
      const hint = closestName(e.name, this.scope.visibleNames());
      this.error('undeclared-identifier', `use of undeclared identifier '${e.name}'${hint ? `; did you mean '${hint}'?` : ''}`, e.range);
      return T.ERROR;
    }
    switch (sym.kind) {
      case 'var': {
        e.ref = sym.decl ? { kind: 'var', decl: sym.decl } : { kind: 'builtin', name: sym.name };
        this.checkVariableSpace(e, sym);
        return sym.type;
      }
      case 'functions': {
        const d = sym.decls.find((x) => x.body) ?? sym.decls[0];
        e.ref = { kind: 'function', decl: d };
        if (sym.decls.length > 1 || d.template) return T.ERROR; // which one depends on the use
        return { kind: 'function', returns: this.resolveType(d.returnType), params: d.params.map((p) => p.resolvedType ?? T.ERROR), variadic: d.variadic };
      }
      case 'enumerator':
        e.ref = { kind: 'enumerator', decl: sym.decl };
        return sym.type;
      case 'templateValue':
        e.ref = { kind: 'templateValue', param: sym.param };
        return sym.type;
      case 'typedef':
      case 'tag':
      case 'templateType':
        this.error('type-as-value', `'${e.name}' is a type, not a value`, e.range);
        return T.ERROR;
    }
  }

  private qualifiedIdentifier(e: A.IdentifierExpr): T.Type {
    const constant = libcuConstant(e.qualifier, e.name);
    if (constant) {
      e.ref = { kind: 'enumerator', decl: constant.enumerator };
      return constant.type;
    }
    if (isLibcuNamespace(e.qualifier) || e.qualifier?.startsWith('cuda::')) {
      if (LIBCU_FUNCTIONS.has(e.name)) this.error('not-callable', `'${e.qualifier}::${e.name}' is a function; call it: ${e.qualifier}::${e.name}(order, scope)`, e.range);
      else {
        const hint = LIBCU_NAME_HINTS.get(e.name) ?? closestName(e.name, [...LIBCU_CONSTANT_NAMES, ...LIBCU_FUNCTIONS]);
        this.error('not-supported', `not supported yet: '${e.qualifier}::${e.name}' (of libcu++ the simulator knows cuda::atomic, cuda::atomic_ref, the memory orders, the thread scopes and atomic_thread_fence)${hint ? `; did you mean '${hint}'?` : ''}`, e.range);
      }
      return T.ERROR;
    }
    // A scoped enumerator: `Color::Red`.
    const tag = this.scope.lookupTag(e.qualifier!);
    if (tag?.kind === 'tag' && tag.decl.kind === 'EnumDecl') {
      const en = tag.decl.enumerators.find((x) => x.name === e.name);
      if (!en) {
        this.error('no-member', `enum '${e.qualifier}' has no enumerator '${e.name}'`, e.range);
        return T.ERROR;
      }
      e.ref = { kind: 'enumerator', decl: en };
      return tag.type;
    }
    if (e.qualifier === 'std') {
      const sym = this.scope.lookup(e.name);
      if (sym?.kind === 'functions' && sym.decls.every((d) => d.range.file === PRELUDE_FILE)) {
        e.ref = { kind: 'function', decl: sym.decls[0] };
        return { kind: 'function', returns: T.ERROR, params: [], variadic: false };
      }
      this.error('not-supported', `not supported yet: std::${e.name}${e.name === 'cout' || e.name === 'cerr' || e.name === 'endl' ? ' (iostream streaming; use printf)' : ''}`, e.range);
      return T.ERROR;
    }
    this.error('not-supported', `not supported yet: qualified name '${e.qualifier}::${e.name}'`, e.range);
    return T.ERROR;
  }

  /** Device-only variables used in host code and vice versa. */
  private checkVariableSpace(e: A.IdentifierExpr, sym: Extract<Symbol, { kind: 'var' }>): void {
    const space = this.fn?.space ?? 'host';
    if (sym.storage === 'builtin' && space === 'host') {
      this.error('wrong-execution-space', `'${sym.name}' exists only in device code, but '${this.fn?.decl.name ?? 'this code'}' is a host function`, e.range);
    } else if ((sym.storage === 'device' || sym.storage === 'constant' || sym.storage === 'shared') && space === 'host' && this.fn && !this.inSymbolArgument) {
      this.warning('device-variable-in-host', `'${sym.name}' is a ${sym.storage === 'device' ? '__device__' : sym.storage === 'constant' ? '__constant__' : '__shared__'} variable; host function '${this.fn.decl.name}' sees only a host shadow copy (use cudaMemcpyToSymbol/FromSymbol)`, e.range);
    } else if (sym.storage === 'host-global' && (space === 'device' || space === 'global') && !sym.type.const) {
      this.error('wrong-execution-space', `'${sym.name}' is a host variable; device code cannot access it (declare it __device__ or __managed__)`, e.range);
    }
  }

  /** Set while checking the symbol argument of cudaMemcpyToSymbol/FromSymbol. */
  private inSymbolArgument = false;

  private unary(e: A.UnaryExpr): T.Type {
    const t = T.stripReference(this.expr(e.operand));
    const d = T.decay(t);
    switch (e.op) {
      case '&':
        if (!isLvalue(e.operand) && !T.isDependentOrError(t) && t.kind !== 'function') this.error('not-lvalue', 'cannot take the address of a temporary value', e.operand.range);
        return T.pointerTo(t);
      case '*':
        if (T.isDependentOrError(d)) return T.ERROR;
        if (d.kind !== 'pointer') {
          this.error('invalid-operand', `cannot dereference '${T.typeToString(t)}': it is not a pointer`, e.operand.range);
          return T.ERROR;
        }
        if (d.to.kind === 'void') this.error('invalid-operand', "cannot dereference a 'void *'; cast it to a typed pointer first", e.operand.range);
        return d.to;
      case '++':
      case '--':
        this.checkModifiable(e.operand, `'${e.op}'`);
        if (t.kind === 'atomic') return this.atomicIncDec(e.op, t, e.operand);
        if (!T.isScalar(t) && !T.isDependentOrError(t)) this.error('invalid-operand', `'${e.op}' needs a number or a pointer, not '${T.typeToString(t)}'`, e.operand.range);
        return t;
      case '!':
        if (!T.isScalar(d) && !T.isDependentOrError(d)) this.error('invalid-operand', `'!' needs a number or a pointer, not '${T.typeToString(t)}'`, e.operand.range);
        return T.BOOL;
      case '~':
        if (!T.isInteger(d) && !T.isDependentOrError(d)) {
          this.error('invalid-operand', `'~' needs an integer, not '${T.typeToString(t)}'`, e.operand.range);
          return T.ERROR;
        }
        return T.integerPromotion(d);
      case '+':
      case '-':
        if (!T.isArithmetic(d) && !T.isDependentOrError(d)) {
          this.error('invalid-operand', `unary '${e.op}' needs a number, not '${T.typeToString(t)}'`, e.operand.range);
          return T.ERROR;
        }
        return T.isDependentOrError(d) ? d : T.integerPromotion(d);
    }
  }

  private binary(e: A.BinaryExpr): T.Type {
    const l = T.decay(this.expr(e.left));
    const r = T.decay(this.expr(e.right));
    const op = e.op;
    if (op === ',') return r;
    if (T.isDependentOrError(l) || T.isDependentOrError(r)) {
      return ['<', '>', '<=', '>=', '==', '!=', '&&', '||'].includes(op) ? T.BOOL : T.isDependentOrError(l) ? l : r;
    }
    const bad = (why?: string): T.Type => {
      this.error('invalid-operands', why ?? `invalid operands to '${op}': '${T.typeToString(l)}' and '${T.typeToString(r)}'`, e.opRange, [
        { message: `left operand has type '${T.typeToString(l)}'`, range: e.left.range },
        { message: `right operand has type '${T.typeToString(r)}'`, range: e.right.range },
      ]);
      return T.ERROR;
    };
    switch (op) {
      case '&&':
      case '||':
        if (!T.isScalar(l) || !T.isScalar(r)) return bad();
        return T.BOOL;
      case '==':
      case '!=':
      case '<':
      case '>':
      case '<=':
      case '>=':
        if (T.isArithmetic(l) && T.isArithmetic(r)) return T.BOOL;
        if (l.kind === 'pointer' && r.kind === 'pointer') return T.BOOL;
        if ((l.kind === 'pointer' && (r.kind === 'nullptr' || isNullPointerConstant(e.right))) || (r.kind === 'pointer' && (l.kind === 'nullptr' || isNullPointerConstant(e.left)))) return T.BOOL;
        if (l.kind === 'pointer' || r.kind === 'pointer') return bad(`comparison between a pointer and an integer ('${T.typeToString(l)}' and '${T.typeToString(r)}')`);
        return bad();
      case '+':
        if (l.kind === 'pointer' && T.isInteger(r)) return this.pointerArith(l, e.left);
        if (r.kind === 'pointer' && T.isInteger(l)) return this.pointerArith(r, e.right);
        if (l.kind === 'pointer' && r.kind === 'pointer') return bad(`cannot add two pointers ('${T.typeToString(l)}' and '${T.typeToString(r)}')`);
        break;
      case '-':
        if (l.kind === 'pointer' && T.isInteger(r)) return this.pointerArith(l, e.left);
        if (l.kind === 'pointer' && r.kind === 'pointer') {
          if (!T.sameType(T.unqualified(l.to), T.unqualified(r.to))) return bad(`cannot subtract pointers to different types ('${T.typeToString(l)}' and '${T.typeToString(r)}')`);
          return T.LONG;
        }
        break;
      case '%':
      case '&':
      case '|':
      case '^':
      case '<<':
      case '>>':
        if (T.isInteger(l) && T.isInteger(r)) return op === '<<' || op === '>>' ? T.integerPromotion(l) : T.usualArithmetic(l, r);
        return bad(T.isArithmetic(l) && T.isArithmetic(r) ? `'${op}' needs integer operands, not '${T.typeToString(l)}' and '${T.typeToString(r)}'` : undefined);
    }
    if (T.isArithmetic(l) && T.isArithmetic(r)) {
      if (op === '/' && isZeroConstant(e.right, this.constEnv) && T.isInteger(l) && T.isInteger(r)) this.warning('division-by-zero', 'integer division by zero', e.right.range);
      return T.usualArithmetic(l, r);
    }
    return bad();
  }

  private pointerArith(p: Extract<T.Type, { kind: 'pointer' }>, at: A.Expr): T.Type {
    if (p.to.kind === 'void') this.error('invalid-operand', "arithmetic on a 'void *'; cast it to a typed pointer first", at.range);
    return p;
  }

  private assign(e: A.AssignExpr): T.Type {
    const target = this.expr(e.target);
    const t = T.stripReference(target);
    if (!this.checkModifiable(e.target, 'assignment')) {
      this.expr(e.value);
      return t;
    }
    if (t.kind === 'atomic') return this.atomicAssign(e, t);
    if (e.op === '=') {
      if (t.kind === 'array' && !T.isDependentOrError(t)) {
        this.error('not-assignable', 'arrays cannot be assigned; copy the elements (memcpy or a loop)', e.target.range);
        this.expr(e.value);
        return t;
      }
      this.initializer(T.unqualified(t), e.value, 'assignment');
      return t;
    }
    // Compound assignment: `a op= b` is `a = a op b` for typing purposes.
    const v = T.decay(this.expr(e.value));
    const d = T.decay(t);
    if (T.isDependentOrError(d) || T.isDependentOrError(v)) return t;
    const op = e.op.slice(0, -1);
    if (d.kind === 'pointer' && (op === '+' || op === '-') && T.isInteger(v)) return t;
    const intOnly = ['%', '&', '|', '^', '<<', '>>'].includes(op);
    if (!T.isArithmetic(d) || !T.isArithmetic(v) || (intOnly && (!T.isInteger(d) || !T.isInteger(v)))) {
      this.error('invalid-operands', `invalid operands to '${e.op}': '${T.typeToString(d)}' and '${T.typeToString(v)}'`, e.opRange);
    }
    return t;
  }

  /** Reports assignment to const / non-lvalues; true if the target may be written. */
  private checkModifiable(target: A.Expr, what: string): boolean {
    const t = target.type ?? T.ERROR;
    if (T.isDependentOrError(t)) return true;
    // An atomic_ref's operators write the object it refers to, so a temporary one will do.
    if (t.kind === 'atomic' && t.ref && !t.const) return true;
    if (!isLvalue(target)) {
      this.error('not-lvalue', `the target of ${what} is not a variable or memory location`, target.range);
      return false;
    }
    const u = t.kind === 'reference' ? t.to : t;
    if (u.const) {
      const name = rootName(target);
      const sym = name ? this.scope.lookup(name) : undefined;
      const builtin = sym?.kind === 'var' && sym.storage === 'builtin';
      const related = sym && symbolRange(sym) ? [{ message: `'${name}' is declared here`, range: symbolRange(sym)! }] : undefined;
      this.error(
        'assign-to-const',
        builtin ? `'${name}' is read-only` : `cannot modify ${describeTarget(target)}: it is const`,
        target.range,
        related,
      );
      return false;
    }
    const name = rootName(target);
    const sym = name ? this.scope.lookup(name) : undefined;
    if (sym?.kind === 'var' && sym.storage === 'constant' && this.fn && this.fn.space !== 'host' && target.kind !== 'Unary') {
      this.error('assign-to-const', `__constant__ variable '${name}' is read-only in device code; write it from the host with cudaMemcpyToSymbol`, target.range);
      return false;
    }
    return true;
  }

  private member(e: A.MemberExpr, objectType?: T.Type): T.Type {
    let t = T.stripReference(objectType ?? this.expr(e.object));
    if (T.isDependentOrError(t)) return T.ERROR;
    if (e.arrow) {
      const d = T.decay(t);
      if (d.kind !== 'pointer') {
        this.error('member-access', `'->' needs a pointer, but '${T.typeToString(t)}' is not one${t.kind === 'struct' || t.kind === 'vector' ? "; use '.'" : ''}`, e.object.range);
        return T.ERROR;
      }
      t = d.to;
    } else if (t.kind === 'pointer' && (t.to.kind === 'struct' || t.to.kind === 'vector' || t.to.kind === 'atomic')) {
      this.error('member-access', `'${T.typeToString(t)}' is a pointer; use '->' to reach '${e.member}'`, e.object.range);
      return T.ERROR;
    }
    if (T.isDependentOrError(t)) return T.ERROR;
    const q = { const: !!t.const, volatile: !!t.volatile };
    if (t.kind === 'atomic') {
      if (ATOMIC_METHODS.has(e.member)) this.error('member-access', `'${e.member}' is a member function of '${T.typeToString(t)}'; call it: ${e.member}(…)`, e.memberRange);
      else this.noAtomicMember(e, t);
      return T.ERROR;
    }
    if (t.kind === 'vector') {
      const idx = ['x', 'y', 'z', 'w'].indexOf(e.member);
      if (idx < 0 || idx >= t.count) {
        this.error('no-member', `'${t.name}' has no member '${e.member}' (it has ${['x', 'y', 'z', 'w'].slice(0, t.count).join(', ')})`, e.memberRange);
        return T.ERROR;
      }
      return T.qualified(t.elem, q);
    }
    if (t.kind !== 'struct') {
      this.error('member-access', `'${T.typeToString(t)}' has no members (it is not a struct, union or vector type)`, e.object.range);
      return T.ERROR;
    }
    if (!t.decl.fields) {
      this.error('incomplete-type', `'${t.name}' is declared but not defined, so its member '${e.member}' is unknown`, e.object.range);
      return T.ERROR;
    }
    const f = findField(t.decl, e.member);
    if (!f) {
      const hint = closestName(e.member, (t.decl.fields ?? []).flatMap((x) => (x.name ? [x.name] : [])));
      this.error('no-member', `'${t.name}' has no member named '${e.member}'${hint ? `; did you mean '${hint}'?` : ''}`, e.memberRange);
      return T.ERROR;
    }
    return T.qualified(f.resolvedType ?? T.ERROR, q);
  }

  private construct(e: A.ConstructExpr): T.Type {
    const to = this.resolveType(e.target);
    e.resolvedTarget = to;
    if (to.kind === 'atomic') {
      this.atomicInitializer(to, e.args.length === 1 ? e.args[0] : { kind: 'InitList', range: e.range, elements: e.args.map((value) => ({ designators: [], value })) }, `constructing '${T.typeToString(to)}'`);
      if (!to.ref) this.error('not-supported', `not supported yet: a temporary '${T.typeToString(to)}' (declare the atomic object as a variable)`, e.range);
      return to;
    }
    const argTypes = e.args.map((a) => this.expr(a));
    if (T.isDependentOrError(to)) return to;
    if (to.kind === 'vector') {
      if (e.args.length > to.count) this.error('argument-count', `'${to.name}' has ${to.count} components but ${e.args.length} values were given`, e.args[to.count].range);
      e.args.forEach((a, i) => {
        if (i < to.count && !T.isArithmetic(T.decay(argTypes[i])) && !T.isDependentOrError(argTypes[i])) this.error('type-mismatch', `a '${to.name}' component must be a number, not '${T.typeToString(argTypes[i])}'`, a.range);
      });
      return to;
    }
    if (T.isScalar(to)) {
      if (e.args.length > 1) this.error('argument-count', `'${T.typeToString(to)}(…)' takes one value`, e.args[1].range);
      if (e.args.length === 1 && !T.isScalar(T.decay(argTypes[0])) && !T.isDependentOrError(argTypes[0])) this.error('invalid-cast', `cannot convert '${T.typeToString(argTypes[0])}' to '${T.typeToString(to)}'`, e.args[0].range);
      return to;
    }
    if (to.kind === 'struct') {
      if (!e.braces) this.error('not-supported', `not supported yet: constructor call '${to.name}(…)' (structs have no constructors here; use '${to.name}{…}')`, e.range);
      return to;
    }
    return to;
  }

  // -------------------------------------------------------------------------------------------
  // libcu++ atomics (cuda::atomic, cuda::atomic_ref, atomic_thread_fence) and inline PTX

  /** `cuda::atomic<T, Scope>`, `cuda::std::atomic_ref<T>`, `cuda::memory_order`, `cuda::thread_scope`. */
  private libcuType(n: A.NamedTypeNode): T.Type {
    const full = `${n.qualifier}::${n.name}`;
    const args = n.templateArgs ?? [];
    if (n.name === 'memory_order' || n.name === 'thread_scope') {
      if (args.length) this.error('template-arguments', `'${full}' is not a template`, n.range);
      return n.name === 'memory_order' ? MEMORY_ORDER_TYPE : THREAD_SCOPE_TYPE;
    }
    const ref = n.name === 'atomic_ref';
    // cuda::std::atomic<T> has no scope parameter and system scope; cuda::atomic<T, S> has one.
    const maxArgs = n.qualifier === 'cuda' ? 2 : 1;
    const usage = maxArgs === 2 ? `${full}<int, cuda::thread_scope_device>` : `${full}<int>`;
    if (args.length === 0 || args.length > maxArgs) {
      this.error('template-arguments', `'${full}' takes ${maxArgs === 2 ? 'a value type and an optional thread scope' : 'a value type'}: ${usage}`, n.range);
      return T.ERROR;
    }
    const [valueArg, scopeArg] = args;
    if (valueArg.kind !== 'TypeArg') {
      this.error('template-arguments', `the first template argument of '${full}' is the type of the value it holds: ${usage}`, valueArg.range);
      return T.ERROR;
    }
    const value = this.resolveType(valueArg.type);
    if (!T.isDependentOrError(value)) {
      const u = T.unqualified(value);
      const fits = (u.kind === 'int' && u.bits >= 32) || u.kind === 'float';
      if (!fits) {
        this.error('not-supported', `not supported yet: '${full}' of '${T.typeToString(value)}' (the simulator's atomics hold 32- or 64-bit integers, float or double)`, valueArg.range);
        return T.ERROR;
      }
    }
    let scope: T.ThreadScope = 'system';
    if (scopeArg) {
      if (scopeArg.kind !== 'ExprArg') {
        this.error('template-arguments', `the second template argument of '${full}' is a thread scope such as cuda::thread_scope_device`, scopeArg.range);
        return T.ERROR;
      }
      const st = this.expr(scopeArg.expr);
      const v = constantArgument(scopeArg.expr);
      const named = v === undefined ? undefined : threadScopeOf(v);
      if (!T.isDependentOrError(st) && (!isThreadScopeType(st) || !named)) {
        this.error('template-arguments', `the scope of '${full}' must be cuda::thread_scope_thread, _block, _device or _system`, scopeArg.range);
        return T.ERROR;
      }
      if (named) scope = named;
    }
    return { kind: 'atomic', ref, value: T.unqualified(value), scope };
  }

  /** Initialising an atomic object (from a value) or an atomic_ref (from the object it names). */
  private atomicInitializer(type: Extract<T.Type, { kind: 'atomic' }>, init: A.Expr, what: string): void {
    let value = init;
    if (init.kind === 'InitList') {
      if (init.elements.length !== 1) {
        for (const el of init.elements) this.expr(el.value);
        if (init.elements.length > 1) this.error('too-many-initializers', `too many initializers for '${T.typeToString(type)}'`, init.elements[1].value.range);
        else if (type.ref) this.error('type-mismatch', `${what}: a cuda::atomic_ref must be given the variable it refers to`, init.range);
        return;
      }
      init.type = type;
      value = init.elements[0].value;
    }
    const t = this.expr(value);
    const src = T.stripReference(t);
    if (T.isDependentOrError(src) || T.isDependentOrError(type.value)) return;
    if (type.ref) {
      if (src.kind === 'atomic' && src.ref && T.sameType(T.unqualified(src), type)) return;
      if (!isLvalue(value) || !T.sameType(T.unqualified(src), type.value) || src.const) {
        this.error('type-mismatch', `${what}: a '${T.typeToString(type)}' refers to a variable or memory location of type '${T.typeToString(type.value)}', not to ${isLvalue(value) ? `a '${T.typeToString(src)}'` : 'a temporary value'}`, value.range);
      }
      return;
    }
    if (src.kind === 'atomic') {
      this.error('type-mismatch', `${what}: atomic objects cannot be copied; initialise it with a value (.load() reads one)`, value.range);
      return;
    }
    this.checkConvertible(type.value, t, value, what);
  }

  /** `++a`, `a--`: fetch_add/fetch_sub of 1, on integer atomics. */
  private atomicIncDec(op: '++' | '--', t: Extract<T.Type, { kind: 'atomic' }>, operand: A.Expr): T.Type {
    if (!T.isInteger(t.value) && !T.isDependentOrError(t.value)) this.error('invalid-operand', `'${op}' needs an integer atomic, not '${T.typeToString(t)}'; use fetch_add`, operand.range);
    return t.value;
  }

  /** `a = v` (a seq_cst store) and `a += v`, `a &= v`, … (read-modify-writes); they yield the new value. */
  private atomicAssign(e: A.AssignExpr, t: Extract<T.Type, { kind: 'atomic' }>): T.Type {
    const v = this.expr(e.value);
    if (T.isDependentOrError(t.value)) return t.value;
    if (e.op !== '=' && !ATOMIC_COMPOUND_OPS.has(e.op)) {
      this.error('invalid-operands', `'${T.typeToString(t)}' has no operator '${e.op}'; use a compare_exchange loop`, e.opRange);
      return t.value;
    }
    if ((e.op === '&=' || e.op === '|=' || e.op === '^=') && !T.isInteger(t.value)) {
      this.error('invalid-operands', `'${e.op}' needs an integer atomic, not '${T.typeToString(t)}'`, e.opRange);
      return t.value;
    }
    if (T.stripReference(v).kind === 'atomic' && e.op === '=') {
      this.error('type-mismatch', `atomic objects cannot be copied; assign a value (${exprText(e.value)}.load())`, e.value.range);
      return t.value;
    }
    this.checkConvertible(t.value, v, e.value, e.op === '=' ? 'assignment' : `'${e.op}'`);
    return t.value;
  }

  private noAtomicMember(e: A.MemberExpr, t: T.Type): void {
    const hint = closestName(e.member, [...ATOMIC_METHODS.keys()]);
    this.error('no-member', `'${T.typeToString(t)}' has no member function '${e.member}'${hint ? `; did you mean '${hint}'?` : ''}`, e.memberRange);
  }

  /** Checks memory-order arguments: each must be a constant `cuda::memory_order` valid for its use (`uses[i]`). */
  private checkOrders(args: A.Expr[], types: T.Type[], uses: ('load' | 'store' | 'cas-failure' | 'any')[], what: string): void {
    args.forEach((a, i) => {
      const t = T.stripReference(types[i]);
      if (T.isDependentOrError(t)) return;
      if (!isMemoryOrderType(t)) {
        this.error('type-mismatch', `${what}: the memory order must be a cuda::memory_order such as cuda::memory_order_acquire, not '${T.typeToString(t)}'`, a.range);
        return;
      }
      const v = constantArgument(a);
      if (v === undefined) {
        this.error('memory-order', `${what}: the simulator needs the memory order to be a constant such as cuda::memory_order_acquire`, a.range);
        return;
      }
      const use = uses[i];
      const problem = use === 'any' ? undefined : invalidOrder(use, v);
      if (problem) this.error('memory-order', `${what}: ${problem}`, a.range);
    });
  }

  /** A member function of cuda::atomic / cuda::atomic_ref: load, store, fetch_add, wait, … */
  private atomicMethodCall(e: A.CallExpr, callee: A.MemberExpr, at: Extract<T.Type, { kind: 'atomic' }>): T.Type {
    callee.type = { kind: 'function', returns: T.ERROR, params: [], variadic: false };
    const argTypes = e.args.map((a) => this.expr(a));
    const method = ATOMIC_METHODS.get(callee.member);
    if (!method) {
      this.noAtomicMember(callee, at);
      return T.ERROR;
    }
    const name = callee.member;
    const value = at.value;
    const dependent = T.isDependentOrError(value);
    const shape = methodShape(method);
    const max = shape.values + shape.orders;
    if (e.args.length < shape.values || e.args.length > max) {
      const expected = shape.values === max ? `${max}` : `${shape.values} to ${max}`;
      const at2 = e.args.length > max ? e.args[max].range : closingParen(e.argsRange);
      this.error('argument-count', `'${name}' takes ${expected} argument${max === 1 ? '' : 's'}, but ${e.args.length} ${e.args.length === 1 ? 'was' : 'were'} given`, at2);
      return T.ERROR;
    }
    if (method.kind === 'rmw' && !dependent) {
      const ok = method.values === 'integer' ? T.isInteger(value) : method.values === 'arithmetic' ? T.isArithmetic(value) : true;
      if (!ok) this.error('invalid-operand', `'${name}' needs an integer atomic, not '${T.typeToString(at)}'`, callee.memberRange);
    }
    const mutates = method.kind === 'store' || method.kind === 'rmw' || method.kind === 'cas';
    if (mutates && at.const) this.error('assign-to-const', `cannot call '${name}' on a const '${T.typeToString(at)}': it writes the value`, callee.object.range);
    // Value arguments.
    if (method.kind === 'cas') {
      const expected = e.args[0];
      const et = T.stripReference(argTypes[0]);
      if (!dependent && !T.isDependentOrError(et) && (!isLvalue(expected) || et.const || !T.sameType(T.unqualified(et), value))) {
        this.error('type-mismatch', `the first argument of '${name}' is the expected value, which is updated when the exchange fails: it must be a variable of type '${T.typeToString(value)}'`, expected.range);
      }
      if (!dependent) this.checkConvertible(value, argTypes[1], e.args[1], `argument 2 of '${name}'`);
    } else if (shape.values === 1 && !dependent) {
      this.checkConvertible(value, argTypes[0], e.args[0], `argument 1 of '${name}'`);
    }
    // Order arguments.
    const orderArgs = e.args.slice(shape.values);
    const uses = method.kind === 'load' || method.kind === 'wait' ? (['load'] as const) : method.kind === 'store' ? (['store'] as const) : method.kind === 'cas' ? (orderArgs.length === 2 ? (['any', 'cas-failure'] as const) : (['any'] as const)) : (['any'] as const);
    this.checkOrders(orderArgs, argTypes.slice(shape.values), [...uses], `'${name}'`);
    switch (method.kind) {
      case 'load':
      case 'rmw':
        return value;
      case 'cas':
      case 'lock-free':
        return T.BOOL;
      default:
        return T.VOID;
    }
  }

  /** `cuda::atomic_thread_fence(order, scope)`, `cuda::std::atomic_thread_fence(order)`, signal fences. */
  private libcuFunctionCall(e: A.CallExpr, callee: A.IdentifierExpr): T.Type {
    const full = `${callee.qualifier}::${callee.name}`;
    callee.ref = { kind: 'builtin', name: full };
    callee.type = { kind: 'function', returns: T.VOID, params: [], variadic: false };
    const argTypes = e.args.map((a) => this.expr(a));
    // Only cuda::atomic_thread_fence takes a scope; the std one is a system-scope fence.
    const maxArgs = callee.qualifier === 'cuda' && callee.name === 'atomic_thread_fence' ? 2 : 1;
    if (e.args.length < 1 || e.args.length > maxArgs) {
      const at = e.args.length > maxArgs ? e.args[maxArgs].range : closingParen(e.argsRange);
      this.error('argument-count', `'${full}' takes ${maxArgs === 2 ? 'a memory order and an optional thread scope' : 'a memory order'}, but ${e.args.length} argument${e.args.length === 1 ? ' was' : 's were'} given`, at);
      return T.VOID;
    }
    this.checkOrders(e.args.slice(0, 1), argTypes, ['any'], `'${full}'`);
    if (e.args[1]) {
      const st = T.stripReference(argTypes[1]);
      const v = constantArgument(e.args[1]);
      if (!T.isDependentOrError(st) && (!isThreadScopeType(st) || v === undefined || !threadScopeOf(v))) {
        this.error('type-mismatch', `the scope of '${full}' must be a constant cuda::thread_scope_block, _device, _system or _thread`, e.args[1].range);
      }
    }
    return T.VOID;
  }

  /** `asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory")` */
  private asmStmt(s: A.AsmStmt): void {
    const types: T.Type[] = [];
    for (const op of s.outputs) {
      types.push(this.expr(op.expr));
      if (!/^[=+]/.test(op.constraint)) this.error('inline-ptx', `the output constraint "${op.constraint}" must start with '=' (written) or '+' (read and written)`, op.range);
      else this.checkModifiable(op.expr, 'an asm output');
    }
    for (const op of s.inputs) types.push(this.expr(op.expr));
    if (this.fn && this.fn.space === 'host') {
      this.error('wrong-execution-space', `inline PTX runs on the device, but '${this.fn.decl.name}' is a host function`, s.range);
      return;
    }
    const operands = [...s.outputs, ...s.inputs];
    operands.forEach((op, i) => {
      const problem = constraintProblem(op.constraint, T.decay(types[i]));
      if (problem) this.warning('inline-ptx', `operand %${i} ("${op.constraint}"): ${problem}`, op.range);
    });
    const decoded = decodePtx(s.template, s.outputs.length, operands.length);
    const at = s.templateRange ?? s.range;
    for (const message of decoded.errors) this.error('inline-ptx', message, at);
    for (const ins of decoded.instructions) {
      if (ins.kind === 'fence') continue;
      const t = T.decay(types[ins.addr.operand]);
      if (!T.isDependentOrError(t) && t.kind !== 'pointer' && !(t.kind === 'int' && t.bits === 64)) {
        this.error('inline-ptx', `'${ins.text}': its address operand %${ins.addr.operand} must be a pointer ("l"(p)), not '${T.typeToString(t)}'`, operands[ins.addr.operand].range);
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // Calls, launches, overloads and templates

  private calleeSymbol(callee: A.Expr): { sym: Extract<Symbol, { kind: 'functions' }>; id: A.IdentifierExpr } | undefined {
    const inner = callee.kind === 'Paren' ? callee.inner : callee;
    if (inner.kind !== 'Identifier') return undefined;
    const sym = inner.qualifier === 'std' || !inner.qualifier ? this.scope.lookup(inner.name) : undefined;
    return sym?.kind === 'functions' ? { sym, id: inner } : undefined;
  }

  private call(e: A.CallExpr): T.Type {
    const callee = e.callee;
    if (callee.kind === 'Identifier' && isLibcuNamespace(callee.qualifier) && LIBCU_FUNCTIONS.has(callee.name)) return this.libcuFunctionCall(e, callee);
    let memberType: T.Type | undefined;
    if (callee.kind === 'Member') {
      // `a.load()`, `p->fetch_add(1)`: a member function of an atomic object.
      const objectType = this.expr(callee.object);
      const object = T.stripReference(callee.arrow ? T.decay(objectType) : objectType);
      const at = callee.arrow ? (object.kind === 'pointer' ? object.to : undefined) : object;
      if (at?.kind === 'atomic') return this.atomicMethodCall(e, callee, at);
      memberType = callee.type = this.member(callee, objectType);
    }
    const target = memberType ? undefined : this.calleeSymbol(e.callee);
    if (!target) {
      const ct = memberType ?? this.expr(e.callee);
      for (const a of e.args) this.expr(a);
      if (T.isDependentOrError(ct)) return T.ERROR;
      const fnType = ct.kind === 'pointer' && ct.to.kind === 'function' ? ct.to : ct.kind === 'function' ? ct : undefined;
      if (!fnType) {
        const what = exprText(e.callee);
        this.error('not-callable', `${what === '…' ? 'this expression' : `'${what}'`} is not a function (its type is '${T.typeToString(ct)}')`, e.callee.range);
        return T.ERROR;
      }
      return fnType.returns;
    }
    const { sym, id } = target;
    const symbolIndex = SYMBOL_ARGUMENT.get(sym.name);
    const argTypes = e.args.map((a, i) => {
      const symbolArg = i === symbolIndex;
      const saved = this.inSymbolArgument;
      this.inSymbolArgument = symbolArg;
      const t = this.expr(a);
      this.inSymbolArgument = saved;
      return t;
    });
    if (symbolIndex !== undefined) this.checkSymbolArgument(sym.name, e.args[symbolIndex]);
    const chosen = this.resolveOverload(sym, id, e.args, argTypes, e.argsRange, e.callee.range);
    id.type = { kind: 'function', returns: T.ERROR, params: [], variadic: false };
    if (!chosen) return T.ERROR;
    id.ref = { kind: 'function', decl: chosen.decl };
    if (chosen.instantiation) {
      e.instantiation = chosen.instantiation;
      this.noteInstantiation(chosen.instantiation);
    }
    this.checkCallSpace(chosen.decl, id, 'call');
    const formatIndex = FORMAT_ARGUMENT.get(sym.name);
    if (formatIndex !== undefined && chosen.decl.range.file === PRELUDE_FILE) this.checkFormat(sym.name, e, formatIndex, argTypes);
    return chosen.returns;
  }

  /** printf-style calls: the arguments must match the conversions, as GCC's -Wformat checks. */
  private checkFormat(fn: string, e: A.CallExpr, formatIndex: number, argTypes: T.Type[]): void {
    let f = e.args[formatIndex];
    while (f?.kind === 'Paren') f = f.inner;
    if (f?.kind !== 'StringLiteral') return;
    const { specs, problems } = parseFormat(f.value);
    for (const p of problems) this.warning('format-mismatch', `${fn}: ${p.message}`, f.range);
    const rest = e.args.slice(formatIndex + 1);
    const restTypes = argTypes.slice(formatIndex + 1);
    let next = 0;
    const check = (what: string, want: ArgumentClass, length: string): void => {
      const i = next++;
      if (i >= rest.length) return;
      const t = T.decay(restTypes[i]);
      if (T.isDependentOrError(t)) return;
      const problem = formatProblem(want, length, t);
      if (problem) this.warning('format-mismatch', `${fn}: '${what}' ${problem}, but argument ${formatIndex + i + 2} has type '${T.typeToString(t)}'`, rest[i].range);
    };
    let needed = 0;
    for (const s of specs) {
      const text = f.value.slice(s.start, s.end);
      if (s.width === '*') {
        check(text, 'int', '');
        needed++;
      }
      if (s.precision === '*') {
        check(text, 'int', '');
        needed++;
      }
      const want = argumentClass(s);
      if (want) {
        check(text, want, s.length);
        needed++;
      }
    }
    if (rest.length < needed) {
      this.warning('format-mismatch', `${fn}: the format has ${needed} conversion${needed === 1 ? '' : 's'} but ${rest.length} argument${rest.length === 1 ? ' follows' : 's follow'} it`, f.range);
    } else if (rest.length > needed) {
      this.warning('format-mismatch', `${fn}: argument ${formatIndex + needed + 2} is not used by the format (it has ${needed} conversion${needed === 1 ? '' : 's'})`, rest[needed].range);
    }
  }

  private checkSymbolArgument(fn: string, arg: A.Expr | undefined): void {
    if (!arg) return;
    const inner = arg.kind === 'Paren' ? arg.inner : arg;
    const name = inner.kind === 'Identifier' ? inner.name : undefined;
    const sym = name ? this.scope.lookup(name) : undefined;
    if (sym?.kind === 'var' && (sym.storage === 'device' || sym.storage === 'constant' || sym.storage === 'managed')) return;
    if (sym?.kind === 'var' || inner.kind !== 'Identifier') {
      this.error('invalid-symbol', `${fn} needs a __device__ or __constant__ variable as its symbol, not ${name ? `'${name}'` : 'an expression'}`, arg.range);
    }
  }

  private launch(e: A.LaunchExpr): T.Type {
    const target = this.calleeSymbol(e.kernel);
    e.config.forEach((c, i) => {
      const t = T.decay(this.expr(c));
      if (T.isDependentOrError(t)) return;
      if (i < 2) {
        const ok = T.isInteger(t) || (t.kind === 'vector' && (t.name === 'dim3' || t.name === 'uint3' || t.name === 'int3'));
        if (!ok) this.error('type-mismatch', `the ${i === 0 ? 'grid' : 'block'} size must be an integer or a dim3, not '${T.typeToString(t)}'`, c.range);
      } else if (i === 2) {
        if (!T.isInteger(t)) this.error('type-mismatch', `the dynamic shared memory size must be an integer (bytes), not '${T.typeToString(t)}'`, c.range);
      } else if (i === 3) {
        const stream = this.scope.lookup('cudaStream_t');
        if (stream?.kind === 'typedef' && conversionRank(stream.type, t, c) === NOT_VIABLE) this.error('type-mismatch', `the launch stream must be a cudaStream_t, not '${T.typeToString(t)}'`, c.range);
      }
    });
    const argTypes = e.args.map((a) => this.expr(a));
    if (!target) {
      const t = this.expr(e.kernel);
      if (!T.isDependentOrError(t)) this.error('launch-non-kernel', `'${exprText(e.kernel)}' is not a __global__ function, so it cannot be launched with <<<…>>>`, e.kernel.range);
      return T.VOID;
    }
    const { sym, id } = target;
    const chosen = this.resolveOverload(sym, id, e.args, argTypes, e.argsRange, e.kernel.range);
    id.type = { kind: 'function', returns: T.VOID, params: [], variadic: false };
    if (!chosen) return T.VOID;
    id.ref = { kind: 'function', decl: chosen.decl };
    if (chosen.instantiation) {
      e.instantiation = chosen.instantiation;
      this.noteInstantiation(chosen.instantiation);
    }
    if (spaceOf(chosen.decl) !== 'global') {
      this.error('launch-non-kernel', `'${sym.name}' is a ${SPACE_NAMES[spaceOf(chosen.decl)]} function, not a __global__ kernel, so it cannot be launched with <<<…>>>`, e.kernel.range, [
        { message: `'${sym.name}' is declared here`, range: chosen.decl.nameRange },
      ]);
    }
    this.checkCallSpace(chosen.decl, id, 'launch');
    return T.VOID;
  }

  /** Who may call whom: host ↔ device, and __global__ only through a launch. */
  private checkCallSpace(callee: A.FunctionDecl, id: A.IdentifierExpr, how: 'call' | 'launch'): void {
    const calleeSpace = spaceOf(callee);
    const caller = this.fn;
    const callerSpace: Space = caller?.space ?? 'host';
    const callerName = caller ? `function '${caller.decl.name}'` : 'code (a file-scope initializer)';
    const related = callee.range.file === PRELUDE_FILE ? undefined : [{ message: `'${callee.name}' is declared here`, range: callee.nameRange }];
    if (how === 'call' && calleeSpace === 'global') {
      this.error('global-call-without-launch', `'${callee.name}' is a __global__ kernel; launch it with ${callee.name}<<<grid, block>>>(…) instead of calling it`, id.range, related);
      return;
    }
    if (how === 'launch') {
      if (callerSpace !== 'host') this.error('not-supported', `not supported yet: launching '${callee.name}' from device code (dynamic parallelism)`, id.range);
      return;
    }
    const deviceSide = callerSpace === 'device' || callerSpace === 'global';
    const calleeOnHost = calleeSpace === 'host' || calleeSpace === 'host device';
    const calleeOnDevice = calleeSpace === 'device' || calleeSpace === 'host device';
    const builtin = callee.range.file === PRELUDE_FILE;
    const what = builtin ? `${callee.name}()` : `'${callee.name}'`;
    if (callerSpace === 'host' && !calleeOnHost) {
      this.error('wrong-execution-space', `${what} is a __device__ function; it cannot be called from host ${callerName}`, id.range, related);
    } else if (deviceSide && !calleeOnDevice) {
      this.error('wrong-execution-space', `${what} is a host function; it cannot be called from ${SPACE_NAMES[callerSpace]} ${callerName}`, id.range, related);
    } else if (callerSpace === 'host device' && !(this.side === 'host' ? calleeOnHost : this.side === 'device' ? calleeOnDevice : calleeSpace === 'host device')) {
      this.warning('wrong-execution-space', `${what} is ${SPACE_NAMES[calleeSpace]} only, but ${callerName} is __host__ __device__; guard the call with #ifdef __CUDA_ARCH__`, id.range, related);
    }
  }

  /**
   * Picks the best candidate for a call, deducing template arguments. Reports why nothing
   * fits: a single candidate gets a precise message (argument count, the argument that does not
   * convert), an overload set gets the list of candidates.
   */
  private resolveOverload(
    sym: Extract<Symbol, { kind: 'functions' }>,
    id: A.IdentifierExpr,
    args: A.Expr[],
    argTypes: T.Type[],
    argsRange: Range,
    calleeRange: Range,
  ): { decl: A.FunctionDecl; returns: T.Type; instantiation?: A.TemplateInstantiation } | undefined {
    const explicit = id.templateArgs;
    const candidates = dedupe(sym.decls);
    let best: { decl: A.FunctionDecl; score: number; returns: T.Type; instantiation?: A.TemplateInstantiation } | undefined;
    const failures: { decl: A.FunctionDecl; report: () => void }[] = [];
    const dependentArgs = argTypes.some((t) => T.isDependentOrError(t));
    for (const decl of candidates) {
      const attempt = this.tryCandidate(decl, explicit, args, argTypes, argsRange, calleeRange);
      if ('failure' in attempt) {
        failures.push({ decl, report: attempt.failure });
        continue;
      }
      if (!best || attempt.score > best.score || (attempt.score === best.score && decl.body && !best.decl.body)) best = { decl, ...attempt };
    }
    if (best) return best;
    if (dependentArgs && this.fn?.decl.template) return undefined;
    const isAtomic = /^atomic[A-Z]/.test(sym.name);
    // One candidate: say exactly what is wrong with the call. Atomics always get the message
    // that lists the types they work on, whatever their number of overloads.
    if (failures.length === 1 && !(isAtomic && args.length === failures[0].decl.params.length)) {
      failures[0].report();
      return undefined;
    }
    const sig = (d: A.FunctionDecl): string => `${d.name}(${d.params.map((p) => (p.resolvedType ? T.typeToString(p.resolvedType) : '?')).join(', ')}${d.variadic ? ', ...' : ''})`;
    const given = `${sym.name}(${argTypes.map((t) => T.typeToString(T.decay(t))).join(', ')})`;
    const related = failures.slice(0, 8).map((f) => ({ message: `candidate: ${sig(f.decl)}`, range: f.decl.nameRange }));
    if (isAtomic) {
      const valueTypes = [...new Set(candidates.map((d) => (d.params[0]?.resolvedType?.kind === 'pointer' ? T.typeToString(d.params[0].resolvedType.to) : '?')))];
      const addr = argTypes[0] ? T.decay(argTypes[0]) : undefined;
      const ptr = addr ? T.typeToString(addr) : 'nothing';
      const qualifiedOk = addr?.kind === 'pointer' && (addr.to.volatile || addr.to.const) && valueTypes.includes(T.typeToString(T.unqualified(addr.to)));
      const why = qualifiedOk
        ? `${sym.name} takes a plain '${T.typeToString(T.unqualified((addr as { to: T.Type }).to))} *'; passing '${ptr}' would drop '${(addr as { to: T.Type }).to.volatile ? 'volatile' : 'const'}' (atomics are already strong accesses: cast the address)`
        : `the address is '${ptr}', but ${sym.name} works on ${valueTypes.join(', ')}`;
      this.error('atomic-overload', `${sym.name} has no overload for ${given}: ${why}`, calleeRange, related);
    } else {
      this.error('no-matching-overload', `no overload of '${sym.name}' matches ${given}`, calleeRange, related);
    }
    return undefined;
  }

  private tryCandidate(
    decl: A.FunctionDecl,
    explicit: A.TemplateArg[] | undefined,
    args: A.Expr[],
    argTypes: T.Type[],
    argsRange: Range,
    calleeRange: Range,
  ): { score: number; returns: T.Type; instantiation?: A.TemplateInstantiation } | { failure: () => void } {
    const params = decl.params;
    const required = params.filter((p) => !p.defaultValue).length;
    const name = decl.name;
    if (args.length < required || (args.length > params.length && !decl.variadic)) {
      return {
        failure: () => {
          const expected = required === params.length ? `${params.length}` : `${required} to ${params.length}`;
          const at = args.length > params.length ? args[params.length].range : { file: argsRange.file, start: argsRange.end, end: argsRange.end };
          const adjusted = args.length > params.length ? at : { ...at, start: { ...at.start, character: Math.max(0, at.start.character - 1), offset: Math.max(0, at.start.offset - 1) } };
          const related = decl.range.file === PRELUDE_FILE ? undefined : [{ message: `'${name}' is declared here`, range: decl.nameRange }];
          this.error('argument-count', `'${name}' takes ${expected}${decl.variadic ? ' or more' : ''} argument${params.length === 1 && required === 1 ? '' : 's'}, but ${args.length} ${args.length === 1 ? 'was' : 'were'} given`, adjusted, related);
        },
      };
    }
    let bindings: Bindings | undefined;
    let instantiation: A.TemplateInstantiation | undefined;
    if (decl.template) {
      const r = this.bindTemplate(decl, explicit, args, argTypes);
      if ('failure' in r) return { failure: () => this.error(r.code ?? 'template-arguments', r.failure, r.at ?? calleeRange) };
      bindings = r.bindings;
      instantiation = r.instantiation;
    } else if (explicit) {
      return { failure: () => this.error('template-arguments', `'${name}' is not a template, so it takes no <…> arguments`, calleeRange) };
    }
    let score = 0;
    for (let i = 0; i < args.length; i++) {
      if (i >= params.length) {
        score += 1;
        continue;
      }
      const pt = bindings ? this.withBindings(bindings, () => this.resolveType(params[i].type)) : params[i].resolvedType ?? T.ERROR;
      const paramType = pt.kind === 'array' ? T.pointerTo(pt.of) : pt;
      const rank = conversionRank(paramType, argTypes[i], args[i]);
      if (rank === NOT_VIABLE) {
        const arg = args[i];
        const idx = i;
        return {
          failure: () => {
            const msg = describeConversionError(paramType, argTypes[idx], `argument ${idx + 1} of '${name}'`);
            const related = decl.range.file === PRELUDE_FILE ? undefined : [{ message: `parameter '${params[idx].name ?? idx + 1}' is declared here`, range: params[idx].range }];
            this.error('type-mismatch', msg, arg.range, related);
          },
        };
      }
      score += rank;
    }
    const returns = bindings ? this.withBindings(bindings, () => this.resolveType(decl.returnType)) : this.resolveType(decl.returnType);
    return { score, returns, ...(instantiation ? { instantiation } : {}) };
  }

  private withBindings<R>(b: Bindings, f: () => R): R {
    const saved = this.bindings;
    this.bindings = b;
    const quietSink = this.sink.items.length;
    try {
      return f();
    } finally {
      this.bindings = saved;
      // Resolving a template's parameter types again must not repeat its diagnostics.
      this.sink.items.length = quietSink;
    }
  }

  private bindTemplate(
    decl: A.FunctionDecl,
    explicit: A.TemplateArg[] | undefined,
    args: A.Expr[],
    argTypes: T.Type[],
  ): { bindings: Bindings; instantiation: A.TemplateInstantiation } | { failure: string; at?: Range; code?: string } {
    const params = decl.template!.params;
    const bindings: Bindings = new Map();
    if (explicit && explicit.length > params.length) {
      return { failure: `'${decl.name}' has ${params.length} template parameter${params.length === 1 ? '' : 's'}, but ${explicit.length} template arguments were given`, at: explicit[params.length].range };
    }
    for (let i = 0; i < (explicit?.length ?? 0); i++) {
      const p = params[i];
      const a = explicit![i];
      if (p.paramKind === 'type') {
        if (a.kind !== 'TypeArg') return { failure: `template parameter '${p.name}' of '${decl.name}' is a type, but a value was given`, at: a.range };
        bindings.set(p.name, this.resolveType(a.type));
      } else {
        if (a.kind !== 'ExprArg') return { failure: `template parameter '${p.name}' of '${decl.name}' is a value, but a type was given`, at: a.range };
        this.expr(a.expr);
        const v = evalConst(a.expr, this.constEnv);
        if (v === undefined) {
          if (this.dependsOnTemplate(a.expr)) return { bindings, instantiation: { template: decl, args: [], deduced: false } };
          return { failure: `the template argument for '${p.name}' must be a constant expression`, at: a.range };
        }
        bindings.set(p.name, v);
      }
    }
    // Deduce what is left from the call's arguments.
    let deduced = false;
    for (let i = 0; i < Math.min(args.length, decl.params.length); i++) {
      const conflict = this.deduce(decl.params[i].type, argTypes[i], bindings, params);
      if (conflict && 'mismatch' in conflict) {
        return { code: 'type-mismatch', failure: `argument ${i + 1} of '${decl.name}': '${T.typeToString(T.decay(argTypes[i]))}' does not fit the parameter type '${typeNodeText(decl.params[i].type)}'`, at: args[i].range };
      }
      if (conflict) return { failure: `conflicting types for template parameter '${conflict.name}' of '${decl.name}': '${T.typeToString(conflict.a)}' and '${T.typeToString(conflict.b)}'`, at: args[i].range };
      deduced = true;
    }
    for (const p of params) {
      if (bindings.has(p.name)) continue;
      if (p.defaultArg) {
        if (p.defaultArg.kind === 'TypeArg') bindings.set(p.name, this.withBindingsKeep(bindings, () => this.resolveType((p.defaultArg as { type: A.TypeNode }).type)));
        else {
          const v = this.withBindingsKeep(bindings, () => evalConst((p.defaultArg as { expr: A.Expr }).expr, this.constEnv));
          if (v !== undefined) bindings.set(p.name, v);
        }
      }
      if (!bindings.has(p.name)) {
        if (argTypes.some((t) => T.isDependentOrError(t))) return { bindings, instantiation: { template: decl, args: [], deduced } };
        return { failure: `cannot deduce template argument '${p.name}' of '${decl.name}'; give it explicitly: ${decl.name}<…>(…)` };
      }
    }
    const instArgs = params.map((p) => {
      const b = bindings.get(p.name)!;
      return typeof b === 'number' ? { kind: 'value' as const, value: b } : { kind: 'type' as const, type: b };
    });
    return { bindings, instantiation: { template: decl, args: instArgs, deduced: deduced && !explicit?.length } };
  }

  private withBindingsKeep<R>(b: Bindings, f: () => R): R {
    const saved = this.bindings;
    this.bindings = b;
    try {
      return f();
    } finally {
      this.bindings = saved;
    }
  }

  private deduceAtomic(param: A.NamedTypeNode, arg: T.Type, b: Bindings, params: A.TemplateParam[]): ReturnType<Analyzer['deduce']> {
    const valueArg = param.templateArgs?.[0];
    if (!isLibcuTypeName(param.qualifier, param.name) || arg.kind !== 'atomic' || valueArg?.kind !== 'TypeArg') return undefined;
    return this.deduce(valueArg.type, arg.value, b, params);
  }

  /**
   * Matches a parameter's written type against an argument type, binding template parameters.
   * Returns a conflict (T bound to two types) or a mismatch (a pointer parameter given a
   * non-pointer), else undefined.
   */
  private deduce(param: A.TypeNode, arg: T.Type, b: Bindings, params: A.TemplateParam[]): { name: string; a: T.Type; b: T.Type } | { mismatch: true } | undefined {
    if (T.isDependentOrError(arg)) return undefined;
    const isParam = (n: A.TypeNode): n is A.NamedTypeNode => n.kind === 'NamedType' && params.some((p) => p.paramKind === 'type' && p.name === n.name);
    const bind = (name: string, t: T.Type): { name: string; a: T.Type; b: T.Type } | undefined => {
      const prev = b.get(name);
      if (prev === undefined) {
        b.set(name, t);
        return undefined;
      }
      if (typeof prev !== 'number' && !T.sameType(prev, t)) return { name, a: prev, b: t };
      return undefined;
    };
    switch (param.kind) {
      case 'NamedType':
        if (isParam(param)) return bind(param.name, T.unqualified(T.decay(arg)));
        // `cuda::atomic<T, S>` against `cuda::atomic<int, S>`: T is the value type.
        return this.deduceAtomic(param as A.NamedTypeNode, arg, b, params);
      case 'ReferenceType': {
        const a = T.stripReference(arg);
        if (isParam(param.to)) return bind(param.to.name, T.unqualified(a));
        return this.deduce(param.to, a, b, params);
      }
      case 'PointerType': {
        const a = T.decay(arg);
        // Only a parameter that involves T must have the argument's shape to deduce T; other
        // parameters are ordinary conversions, checked afterwards (a literal 0 is a null pointer).
        if (a.kind === 'nullptr' || !typeNodeMentions(param, params)) return undefined;
        if (a.kind !== 'pointer') return { mismatch: true };
        if (isParam(param.to)) return bind(param.to.name, T.unqualified(a.to));
        return this.deduce(param.to, a.to, b, params);
      }
      default:
        return undefined;
    }
  }
}

/** The `)` that ends an argument list: where missing arguments are reported. */
function closingParen(args: Range): Range {
  const end = args.end;
  return { file: args.file, start: { ...end, character: Math.max(0, end.character - 1), offset: Math.max(0, end.offset - 1) }, end };
}

/** Why an asm operand of type `t` does not fit its constraint's register ("r" 32-bit, "l" 64-bit, …). */
function constraintProblem(constraint: string, t: T.Type): string | undefined {
  const letter = constraint.replace(/[=+&]/g, '');
  if (T.isDependentOrError(t)) return undefined;
  const size = T.sizeOf(t);
  switch (letter) {
    case 'r':
      return size !== undefined && size > 4 ? `"r" is a 32-bit register, but '${T.typeToString(t)}' has ${size * 8} bits (use "l")` : undefined;
    case 'l':
      return size !== undefined && size < 8 && t.kind !== 'int' ? `"l" is a 64-bit register, but '${T.typeToString(t)}' has ${size * 8} bits` : undefined;
    case 'h':
    case 'f':
    case 'd':
    case 'n':
      return undefined;
    default:
      return `the simulator knows the constraints "r", "l", "h", "f", "d" and "n", not "${letter}"`;
  }
}

const constEvalGuard = new Set<A.VarDecl>();

/** printf-family functions and the index of their format argument. */
const FORMAT_ARGUMENT = new Map([
  ['printf', 0],
  ['fprintf', 1],
  ['sprintf', 1],
  ['snprintf', 2],
]);

/** Why an argument of type `t` does not suit a conversion, or undefined if it does. */
function formatProblem(want: ArgumentClass, length: string, t: T.Type): string | undefined {
  const wide = length === 'l' || length === 'll' || length === 'j' || length === 'z' || length === 't';
  switch (want) {
    case 'int':
    case 'char':
      if (!T.isInteger(t)) return `expects an integer`;
      if (want === 'int' && t.kind === 'int' && t.bits === 64 && !wide) return `expects a 32-bit int (use %l${'d'}, %ll${'d'} or %z${'u'} for 64-bit values)`;
      if (want === 'int' && wide && !(t.kind === 'int' && t.bits === 64)) return `expects a 64-bit integer`;
      return undefined;
    case 'float':
      return t.kind === 'float' ? undefined : 'expects a floating-point value';
    case 'string':
      return t.kind === 'pointer' && t.to.kind === 'int' && t.to.bits === 8 ? undefined : 'expects a string (char *)';
    case 'pointer':
      return t.kind === 'pointer' || t.kind === 'nullptr' ? undefined : 'expects a pointer';
    case 'count':
      return t.kind === 'pointer' ? undefined : 'expects a pointer to int';
  }
}

/** Runtime calls that take a device variable itself (its symbol), and at which argument. */
const SYMBOL_ARGUMENT = new Map([
  ['cudaMemcpyToSymbol', 0],
  ['cudaMemcpyToSymbolAsync', 0],
  ['cudaMemcpyFromSymbol', 1],
  ['cudaMemcpyFromSymbolAsync', 1],
]);

/** Library names outside the subset: said plainly instead of "undeclared identifier". */
const UNSUPPORTED_LIBRARY = new Map<string, string>([
  ...['fopen', 'fclose', 'fread', 'fwrite', 'fscanf', 'fgets', 'fputs', 'fseek', 'ftell', 'rewind', 'feof', 'remove', 'rename', 'ifstream', 'ofstream', 'fstream'].map((n): [string, string] => [n, 'file I/O']),
  ...['texture', 'tex1D', 'tex2D', 'tex3D', 'tex1Dfetch', 'cudaBindTexture', 'cudaUnbindTexture', 'cudaTextureObject_t', 'cudaCreateTextureObject', 'surface', 'surf2Dread', 'surf2Dwrite', 'cudaArray', 'cudaMallocArray'].map((n): [string, string] => [n, 'textures and surfaces']),
  ...['cudaLaunchCooperativeKernel', 'this_grid', 'this_thread_block', 'cooperative_groups'].map((n): [string, string] => [n, 'cooperative groups']),
  ...['cudaMemcpy2D', 'cudaMemcpy3D', 'cudaMallocPitch', 'cudaMalloc3D'].map((n): [string, string] => [n, 'pitched and 3-D copies']),
  ...['scanf', 'getchar', 'gets'].map((n): [string, string] => [n, 'reading standard input']),
]);

/** Does a written type name one of the template's type parameters? */
function typeNodeMentions(n: A.TypeNode, params: A.TemplateParam[]): boolean {
  switch (n.kind) {
    case 'NamedType':
      return params.some((p) => p.paramKind === 'type' && p.name === n.name) || (n.templateArgs ?? []).some((a) => a.kind === 'TypeArg' && typeNodeMentions(a.type, params));
    case 'PointerType':
    case 'ReferenceType':
      return typeNodeMentions(n.to, params);
    case 'ArrayType':
      return typeNodeMentions(n.of, params);
    default:
      return false;
  }
}

/** Does a type still contain a template parameter (an instantiation inside a template)? */
function mentionsTemplateParam(t: T.Type): boolean {
  switch (t.kind) {
    case 'typeParam':
    case 'error':
      return true;
    case 'pointer':
    case 'reference':
      return mentionsTemplateParam(t.to);
    case 'array':
      return mentionsTemplateParam(t.of);
    default:
      return false;
  }
}

function A_isTypeNode(n: A.TypeNode | A.Expr): n is A.TypeNode {
  return ['NamedType', 'TagType', 'PointerType', 'ReferenceType', 'ArrayType', 'FunctionType'].includes(n.kind);
}

/** The written form of a type, for messages about template parameters (`T **`). */
function typeNodeText(n: A.TypeNode): string {
  switch (n.kind) {
    case 'NamedType':
      return [...n.qualifiers.map((q) => q.text), n.name].join(' ');
    case 'TagType':
      return [...n.qualifiers.map((q) => q.text), n.tag, n.name ?? ''].join(' ').trim();
    case 'PointerType':
      return `${typeNodeText(n.to)} *${n.qualifiers.map((q) => ` ${q.text}`).join('')}`.replace('* *', '**');
    case 'ReferenceType':
      return `${typeNodeText(n.to)} &`;
    case 'ArrayType':
      return `${typeNodeText(n.of)}[]`;
    case 'FunctionType':
      return `${typeNodeText(n.returns)} (…)`;
  }
}

function qualifierFlags(qs: A.Specifier[]): { const: boolean; volatile: boolean; restrict: boolean } {
  return {
    const: qs.some((q) => q.text === 'const'),
    volatile: qs.some((q) => q.text === 'volatile'),
    restrict: qs.some((q) => q.text === '__restrict__'),
  };
}

function spaceOf(d: A.FunctionDecl): Space {
  return d.space;
}

function sameSignature(a: A.FunctionDecl, b: A.FunctionDecl): boolean {
  if (a.params.length !== b.params.length || a.variadic !== b.variadic) return false;
  return a.params.every((p, i) => {
    const x = p.resolvedType;
    const y = b.params[i].resolvedType;
    return !x || !y || T.sameType(T.unqualified(x), T.unqualified(y));
  });
}

/** Prototype + definition of the same function count once. */
function dedupe(decls: A.FunctionDecl[]): A.FunctionDecl[] {
  const out: A.FunctionDecl[] = [];
  for (const d of decls) {
    const i = out.findIndex((o) => sameSignature(o, d) && !!o.template === !!d.template);
    if (i < 0) out.push(d);
    else if (d.body && !out[i].body) out[i] = d;
  }
  return out;
}

function symbolRange(s: Symbol): Range | undefined {
  switch (s.kind) {
    case 'var':
      return s.decl?.kind === 'VarDecl' ? s.decl.nameRange : s.decl?.nameRange;
    case 'functions':
      return s.decls[0].nameRange;
    case 'typedef':
      return s.decl.nameRange;
    case 'tag':
      return s.decl.nameRange;
    case 'enumerator':
      return s.decl.range;
    case 'templateType':
    case 'templateValue':
      return s.param.nameRange;
  }
}

export function isLvalue(e: A.Expr): boolean {
  switch (e.kind) {
    case 'Identifier':
      return e.ref?.kind === 'var' || (e.ref?.kind === 'builtin') || e.ref?.kind === 'function';
    case 'Unary':
      return e.op === '*' || e.op === '++' || e.op === '--';
    case 'Index':
      return true;
    case 'Member':
      return e.arrow || isLvalue(e.object);
    case 'Paren':
      return isLvalue(e.inner);
    case 'Assign':
      return true;
    case 'Conditional':
      return isLvalue(e.then) && isLvalue(e.else);
    case 'Call':
      return e.type?.kind === 'reference';
    case 'Cast':
      return e.resolvedTarget?.kind === 'reference';
    case 'StringLiteral':
      return true;
    default:
      return false;
  }
}

/** The variable an lvalue expression is rooted in (`a` in `a.b[3]`, `p` in `*p`). */
function rootName(e: A.Expr): string | undefined {
  switch (e.kind) {
    case 'Identifier':
      return e.name;
    case 'Member':
      return e.arrow ? undefined : rootName(e.object);
    case 'Index':
      return e.base.type?.kind === 'array' ? rootName(e.base) : undefined;
    case 'Paren':
      return rootName(e.inner);
    default:
      return undefined;
  }
}

function describeTarget(e: A.Expr): string {
  const text = exprText(e);
  return text ? `'${text}'` : 'this value';
}

/** A short source-like rendering of simple expressions, for messages. */
export function exprText(e: A.Expr): string {
  switch (e.kind) {
    case 'Identifier':
      return (e.qualifier ? `${e.qualifier}::` : '') + e.name;
    case 'Member':
      return `${exprText(e.object)}${e.arrow ? '->' : '.'}${e.member}`;
    case 'Index':
      return `${exprText(e.base)}[${exprText(e.index)}]`;
    case 'IntLiteral':
      return e.exact;
    case 'Unary':
      return `${e.op}${exprText(e.operand)}`;
    case 'Paren':
      return `(${exprText(e.inner)})`;
    default:
      return '…';
  }
}

function findField(decl: A.StructDecl, name: string): A.FieldDecl | undefined {
  for (const f of decl.fields ?? []) {
    if (f.name === name) return f;
    // Members of anonymous structs/unions are members of the enclosing one.
    if (!f.name && f.resolvedType?.kind === 'struct') {
      const inner = findField(f.resolvedType.decl, name);
      if (inner) return inner;
    }
  }
  return undefined;
}

function isZeroConstant(e: A.Expr, env: ConstEnv): boolean {
  return evalConst(e, env) === 0;
}

/** A body that ends in a call that never returns (exit, abort) needs no return value. */
function endsInTrap(body: A.CompoundStmt): boolean {
  const last = body.body[body.body.length - 1];
  if (!last || last.kind !== 'ExprStmt' || last.expr.kind !== 'Call') return false;
  const c = last.expr.callee;
  return c.kind === 'Identifier' && (c.name === 'exit' || c.name === 'abort');
}
