// Implicit conversions, as C++ defines them for the types we model. `conversionRank` is what
// overload resolution compares; `describeConversionError` says, in the programmer's terms, why
// a value cannot be used where it was written.
import type * as A from '../ast';
import { decay, isArithmetic, isDependentOrError, isInteger, sameType, stripReference, typeToString, unqualified, type Type } from '../types';

export const EXACT = 3;
export const PROMOTION = 2;
export const CONVERSION = 1;
export const NOT_VIABLE = 0;

/** A literal `0` (possibly in parentheses or cast to an integer), `nullptr` or `NULL`'s expansion. */
export function isNullPointerConstant(e: A.Expr): boolean {
  switch (e.kind) {
    case 'IntLiteral':
      return e.value === 0;
    case 'NullptrLiteral':
      return true;
    case 'Paren':
      return isNullPointerConstant(e.inner);
    case 'Cast':
      return e.target.kind === 'NamedType' && e.target.name !== 'bool' && isNullPointerConstant(e.operand);
    default:
      return false;
  }
}

function qualsContain(target: Type, source: Type): boolean {
  return (!source.const || !!target.const) && (!source.volatile || !!target.volatile);
}

/** How well a value of type `from` (the expression `expr`) converts to `to`; 0 if it cannot. */
export function conversionRank(to: Type, from: Type, expr?: A.Expr): number {
  if (isDependentOrError(to) || isDependentOrError(from)) return EXACT;
  if (to.kind === 'reference') {
    const target = to.to;
    const src = stripReference(from);
    if (isDependentOrError(target) || isDependentOrError(src)) return EXACT;
    if (sameType(unqualified(target), unqualified(src)) && qualsContain(target, src)) return EXACT;
    // A const reference binds to anything convertible (through a temporary).
    if (target.const && !target.volatile) return Math.min(CONVERSION, conversionRank(unqualified(target), src, expr));
    return NOT_VIABLE;
  }
  if (to.kind === 'atomic') {
    // Atomic objects are not copyable; an atomic_ref copies, but binds a T only explicitly.
    const src = stripReference(from);
    if (src.kind === 'atomic') return to.ref && sameType(unqualified(src), unqualified(to)) ? EXACT : NOT_VIABLE;
    return to.ref ? NOT_VIABLE : Math.min(CONVERSION, conversionRank(to.value, from, expr));
  }
  from = decay(from);
  const t = unqualified(to);
  const f = unqualified(from);
  if (isArithmetic(t) && isArithmetic(f)) {
    if (t.kind === 'enum') return f.kind === 'enum' && f.decl === t.decl ? EXACT : NOT_VIABLE;
    if (sameType(t, f)) return EXACT;
    if (f.kind === 'enum') return t.kind === 'int' && t.name === 'int' ? PROMOTION : CONVERSION;
    if (t.kind === 'int' && t.name === 'int' && ((f.kind === 'int' && f.bits < 32) || f.kind === 'bool')) return PROMOTION;
    if (t.kind === 'float' && f.kind === 'float' && t.bits > f.bits) return PROMOTION;
    return CONVERSION;
  }
  if (t.kind === 'bool' && (f.kind === 'pointer' || f.kind === 'nullptr')) return CONVERSION;
  if (t.kind === 'pointer') {
    if (f.kind === 'nullptr') return CONVERSION;
    if (isInteger(f)) return expr && isNullPointerConstant(expr) ? CONVERSION : NOT_VIABLE;
    if (f.kind !== 'pointer') return NOT_VIABLE;
    const tp = t.to;
    const fp = f.to;
    if (isDependentOrError(tp) || isDependentOrError(fp)) return EXACT;
    if (!qualsContain(tp, fp)) return NOT_VIABLE;
    if (sameType(unqualified(tp), unqualified(fp))) return tp.const === fp.const && tp.volatile === fp.volatile ? EXACT : PROMOTION;
    if (tp.kind === 'void' && fp.kind !== 'function') return CONVERSION;
    return NOT_VIABLE;
  }
  if (t.kind === 'nullptr') return f.kind === 'nullptr' ? EXACT : NOT_VIABLE;
  // dim3 has a non-explicit constructor dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1).
  if (t.kind === 'vector' && t.name === 'dim3' && isInteger(f)) return CONVERSION;
  if (t.kind === 'vector' && t.name === 'dim3' && f.kind === 'vector' && f.name === 'uint3') return CONVERSION;
  if (t.kind === 'struct' || t.kind === 'vector') return sameType(t, f) ? EXACT : NOT_VIABLE;
  if (t.kind === 'array') return NOT_VIABLE;
  return NOT_VIABLE;
}

/** Why `from` does not convert to `to`: a sentence for an error message. */
export function describeConversionError(to: Type, from: Type, what: string): string {
  const f = decay(from);
  const t = stripReference(to);
  const fs = typeToString(f);
  const ts = typeToString(t);
  if (t.kind === 'pointer' && isInteger(f)) return `${what}: an integer ('${fs}') is not a pointer ('${ts}')`;
  if (isInteger(t) && f.kind === 'pointer') return `${what}: a pointer ('${fs}') is not an integer ('${ts}')`;
  if (t.kind === 'pointer' && f.kind === 'pointer') {
    if (!qualsContain(t.to, f.to)) {
      const lost = f.to.volatile && !t.to.volatile ? 'volatile' : 'const';
      return `${what}: '${fs}' cannot become '${ts}' because that drops the '${lost}' qualifier`;
    }
    if (f.to.kind === 'void') return `${what}: 'void *' does not convert to '${ts}' implicitly in C++; add a cast`;
    return `${what}: '${fs}' is not compatible with '${ts}'`;
  }
  if (t.kind === 'enum' && isInteger(f)) return `${what}: an integer does not convert to the enum '${ts}' implicitly in C++; add a cast`;
  return `${what}: cannot convert '${fs}' to '${ts}'`;
}
