// Integer constant expressions: array bounds, case labels, enumerator values, template
// arguments, static_assert. Values are JS numbers (exact up to 2^53, which covers every bound
// and label a kernel uses).
import type * as A from '../ast';

export interface ConstEnv {
  /** The value of a named constant (enumerator, const variable, template value), if known. */
  identifier(e: A.IdentifierExpr): number | undefined;
  /** sizeof/alignof of a type or expression, if known. */
  sizeOf(e: A.SizeofExpr): number | undefined;
  /** Is the cast's target an integer type (so the value truncates)? */
  castsToInteger(e: A.CastExpr | A.ConstructExpr): boolean;
}

export function evalConst(e: A.Expr, env: ConstEnv): number | undefined {
  switch (e.kind) {
    case 'IntLiteral':
      return e.value;
    case 'CharLiteral':
      return e.value;
    case 'BoolLiteral':
      return e.value ? 1 : 0;
    case 'FloatLiteral':
      return e.value;
    case 'Paren':
      return evalConst(e.inner, env);
    case 'Identifier':
      return env.identifier(e);
    case 'Sizeof':
      return env.sizeOf(e);
    case 'Cast': {
      const v = evalConst(e.operand, env);
      return v === undefined ? undefined : env.castsToInteger(e) ? Math.trunc(v) : v;
    }
    case 'Construct': {
      if (e.args.length !== 1) return undefined;
      const v = evalConst(e.args[0], env);
      return v === undefined ? undefined : env.castsToInteger(e) ? Math.trunc(v) : v;
    }
    case 'Unary': {
      const v = evalConst(e.operand, env);
      if (v === undefined) return undefined;
      switch (e.op) {
        case '+':
          return v;
        case '-':
          return -v;
        case '!':
          return v ? 0 : 1;
        case '~':
          return Number.isInteger(v) ? Number(~BigInt(v)) : undefined;
        default:
          return undefined;
      }
    }
    case 'Conditional': {
      const c = evalConst(e.condition, env);
      if (c === undefined) return undefined;
      return evalConst(c ? e.then : e.else, env);
    }
    case 'Binary': {
      if (e.op === ',') return undefined;
      const l = evalConst(e.left, env);
      if (l === undefined) return undefined;
      if (e.op === '&&' && !l) return 0;
      if (e.op === '||' && l) return 1;
      const r = evalConst(e.right, env);
      if (r === undefined) return undefined;
      const integral = Number.isInteger(l) && Number.isInteger(r);
      switch (e.op) {
        case '+':
          return l + r;
        case '-':
          return l - r;
        case '*':
          return l * r;
        case '/':
          if (r === 0) return undefined;
          return integral ? Math.trunc(l / r) : l / r;
        case '%':
          return r === 0 ? undefined : l % r;
        case '<<':
          return integral && r >= 0 && r < 64 ? l * 2 ** r : undefined;
        case '>>':
          return integral && r >= 0 && r < 64 ? Math.floor(l / 2 ** r) : undefined;
        case '<':
          return +(l < r);
        case '>':
          return +(l > r);
        case '<=':
          return +(l <= r);
        case '>=':
          return +(l >= r);
        case '==':
          return +(l === r);
        case '!=':
          return +(l !== r);
        case '&':
          if (!integral) return undefined;
          return Number(BigInt.asIntN(64, BigInt(l) & BigInt(r)));
        case '|':
          if (!integral) return undefined;
          return Number(BigInt.asIntN(64, BigInt(l) | BigInt(r)));
        case '^':
          if (!integral) return undefined;
          return Number(BigInt.asIntN(64, BigInt(l) ^ BigInt(r)));
        case '&&':
          return +!!r;
        case '||':
          return +!!r;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}
