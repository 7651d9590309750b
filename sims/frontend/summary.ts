// A plain-data overview of a parsed file: what the CLI lists and the editor's outline-like
// features need (kernels, functions by execution space, launches with their configuration).
import type * as A from './ast';
import { functionsOf, type ParseResult } from './index';
import { typeToString } from './types';

export interface KernelInfo {
  name: string;
  params: string[];
  template: boolean;
  range: A.Node['range'];
}

export interface LaunchInfo {
  kernel: string;
  /** Parameter types of the kernel overload the launch calls. */
  kernelParams?: string[];
  config: string[];
  line: number;
  range: A.Node['range'];
  templateArgs?: string[];
}

export interface FileSummary {
  files: string[];
  lines: number;
  kernels: KernelInfo[];
  deviceFunctions: string[];
  hostFunctions: string[];
  templates: string[];
  launches: LaunchInfo[];
}

/**
 * `readText` gives a file's text so launch configurations are shown as written
 * (`NBLOCKS, TPERBLK` rather than `2, 33`); without it they are rendered from the tree.
 */
export function summarize(result: ParseResult, readText?: (file: string) => string | undefined): FileSummary {
  const host = functionsOf(result.ast);
  const device = result.deviceAst === result.ast ? [] : functionsOf(result.deviceAst);
  // A function defined in both views (the usual case) counts once, each overload separately;
  // prototypes do not count.
  const bySignature = new Map<string, A.FunctionDecl>();
  for (const f of [...host, ...device]) {
    const key = `${f.name}(${paramTypes(f).join(', ')})`;
    if (f.body && !bySignature.has(key)) bySignature.set(key, f);
  }
  const defined = [...bySignature.values()];
  const names = (fs: A.FunctionDecl[]) => [...new Set(fs.map((f) => f.name))];
  const kernels = defined.filter((f) => f.space === 'global').map((f) => ({
    name: f.name,
    params: f.params.map((p) => `${p.resolvedType ? typeToString(p.resolvedType) : '?'}${p.name ? ` ${p.name}` : ''}`.replace('* ', '*')),
    template: !!f.template,
    range: f.nameRange,
  }));
  return {
    files: result.files,
    lines: countLines(result),
    kernels,
    deviceFunctions: names(defined.filter((f) => f.space === 'device' || f.space === 'host device')),
    hostFunctions: names(defined.filter((f) => f.space === 'host')),
    templates: names(defined.filter((f) => f.template)),
    launches: collectLaunches(result.ast, readText),
  };
}

function paramTypes(f: A.FunctionDecl): string[] {
  return f.params.map((p) => (p.resolvedType ? typeToString(p.resolvedType) : '?'));
}

function countLines(result: ParseResult): number {
  return result.ast.range.end.line + 1;
}

/** Every `<<<…>>>` launch in the tree, in source order. */
export function collectLaunches(unit: A.TranslationUnit, readText?: (file: string) => string | undefined): LaunchInfo[] {
  const texts = new Map<string, string | undefined>();
  const written = (e: A.Expr): string => {
    const r = e.range;
    if (!readText) return renderExpr(e);
    if (!texts.has(r.file)) texts.set(r.file, readText(r.file));
    const t = texts.get(r.file);
    return t === undefined ? renderExpr(e) : t.slice(r.start.offset, r.end.offset).replace(/\s+/g, ' ');
  };
  const out: LaunchInfo[] = [];
  const visit = (x: unknown): void => {
    if (!x || typeof x !== 'object') return;
    if (Array.isArray(x)) {
      x.forEach(visit);
      return;
    }
    const n = x as A.Expr;
    if (n.kind === 'Launch') {
      const k = n.kernel.kind === 'Identifier' ? n.kernel.name : '(expression)';
      const ref = n.kernel.kind === 'Identifier' && n.kernel.ref?.kind === 'function' ? n.kernel.ref.decl : undefined;
      out.push({
        kernel: k,
        ...(ref ? { kernelParams: paramTypes(ref) } : {}),
        config: n.config.map(written),
        line: n.range.start.line + 1,
        range: n.range,
        ...(n.instantiation?.args.length
          ? { templateArgs: templateArgText(n.instantiation) }
          : n.kernel.kind === 'Identifier' && n.kernel.templateArgs
            ? { templateArgs: n.kernel.templateArgs.map((a) => written(a.kind === 'ExprArg' ? a.expr : { kind: 'Error', range: a.range })) }
            : {}),
      });
    }
    for (const [key, v] of Object.entries(n)) {
      if (key === 'type' || key === 'ref' || key === 'range' || key === 'instantiation' || key === 'resolvedType' || key === 'resolvedTarget') continue;
      if (v && typeof v === 'object') visit(v);
    }
  };
  visit(unit.decls);
  return out.sort((a, b) => a.range.start.offset - b.range.start.offset);
}

function renderExpr(e: A.Expr): string {
  switch (e.kind) {
    case 'IntLiteral':
      return e.exact;
    case 'Identifier':
      return e.name;
    case 'Binary':
      return `${renderExpr(e.left)} ${e.op} ${renderExpr(e.right)}`;
    case 'Paren':
      return `(${renderExpr(e.inner)})`;
    case 'Construct':
      return `${e.target.kind === 'NamedType' ? e.target.name : 'T'}(${e.args.map(renderExpr).join(', ')})`;
    case 'Call':
      return `${renderExpr(e.callee)}(${e.args.map(renderExpr).join(', ')})`;
    case 'Member':
      return `${renderExpr(e.object)}${e.arrow ? '->' : '.'}${e.member}`;
    case 'Sizeof':
      return 'sizeof(…)';
    case 'Cast':
      return renderExpr(e.operand);
    default:
      return '…';
  }
}

/** `512, true` for reduce<512, true>: values of bool parameters are shown as bools. */
function templateArgText(inst: A.TemplateInstantiation): string[] {
  const params = inst.template.template?.params ?? [];
  return inst.args.map((a, i) => {
    if (a.kind === 'type') return typeToString(a.type);
    const vt = params[i]?.valueType;
    return vt?.kind === 'NamedType' && vt.name === 'bool' ? String(a.value !== 0) : String(a.value);
  });
}
