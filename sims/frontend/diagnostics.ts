// Diagnostics produced by the front end. The engine returns them as data; only the CLI prints
// and only the language server converts them to LSP.
import { formatLocation, type Range } from './source';

export type Severity = 'error' | 'warning' | 'information';

export interface RelatedInformation {
  message: string;
  range: Range;
}

export interface Diagnostic {
  severity: Severity;
  /** Stable machine-readable kind, e.g. `undeclared-identifier`. Tests and code actions key on it. */
  code: string;
  message: string;
  range: Range;
  related?: RelatedInformation[];
}

/** Collects diagnostics and drops exact repeats (same code, message and start). */
export class DiagnosticSink {
  readonly items: Diagnostic[] = [];
  private readonly seen = new Set<string>();

  report(d: Diagnostic): void {
    const key = `${d.code}|${d.range.file}|${d.range.start.offset}|${d.message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.items.push(d);
  }

  error(code: string, message: string, range: Range, related?: RelatedInformation[]): void {
    this.report({ severity: 'error', code, message, range, ...(related ? { related } : {}) });
  }

  warning(code: string, message: string, range: Range, related?: RelatedInformation[]): void {
    this.report({ severity: 'warning', code, message, range, ...(related ? { related } : {}) });
  }

  get errorCount(): number {
    return this.items.filter((d) => d.severity === 'error').length;
  }
}

export function formatDiagnostic(d: Diagnostic): string {
  const lines = [`${formatLocation(d.range)}: ${d.severity}: ${d.message} [${d.code}]`];
  for (const r of d.related ?? []) lines.push(`  ${formatLocation(r.range)}: note: ${r.message}`);
  return lines.join('\n');
}

export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  if (a.range.file !== b.range.file) return a.range.file < b.range.file ? -1 : 1;
  return a.range.start.offset - b.range.start.offset;
}
