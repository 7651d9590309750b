// clang's and wasm-ld's messages, read back into data.
//
// The compiler runs with -fno-caret-diagnostics and -fdiagnostics-print-source-range-info, so
// each message is one line: `file:line:col:{l:c-l:c}…: error: text [-Wflag]`, preceded by
// `In file included from file:line:` lines when it sits in a header.
import { realizeText, toReal } from './paths';

export type ClangSeverity = 'error' | 'warning' | 'note' | 'remark';

/** One message of the compiler or linker. Lines and columns are 1-based. */
export interface ClangDiagnostic {
  severity: ClangSeverity;
  message: string;
  /** Real absolute path. Messages clang gives without a place are put at the unit's start. */
  file: string;
  line: number;
  column: number;
  /** End of the first source range clang printed (exclusive column), when it printed one. */
  endLine?: number;
  endColumn?: number;
  /** The warning flag that controls it (`-Wunused-variable`), without the brackets. */
  flag?: string;
  /** For a message inside a header: the chain of includes, innermost first. */
  includedFrom?: { file: string; line: number }[];
  /** True when clang gave no place and file/line/column are the unit's start. */
  unlocated?: boolean;
}

const LOCATED = /^(.+?):(\d+):(\d+):((?:\{\d+:\d+-\d+:\d+\})*):? (fatal error|error|warning|note|remark): (.*)$/;
const UNLOCATED = /^(?:clang|wasm-ld|yowasp-llvm)?:? ?(fatal error|error|warning|note|remark): (.*)$/;
const INCLUDED = /^(?:In file included from|\s+from) (.+?):(\d+)[:,]$/;
const RANGE = /^\{(\d+):(\d+)-(\d+):(\d+)\}/;
const FLAG = / \[(-W[^\]]+|-R[^\]]+)\]$/;

/** Reads clang's output; `unit` is where unlocated messages are put. */
export function parseClangOutput(output: string, unit: string): ClangDiagnostic[] {
  const out: ClangDiagnostic[] = [];
  let includes: { file: string; line: number }[] = [];
  for (const raw of output.split(/\r?\n/)) {
    const line = raw.trimEnd();
    if (!line) continue;
    const inc = INCLUDED.exec(line);
    if (inc) {
      if (!inc[1].startsWith('<')) includes.push({ file: toReal(inc[1]), line: Number(inc[2]) });
      continue;
    }
    const m = LOCATED.exec(line);
    if (m) {
      const d: ClangDiagnostic = { severity: severity(m[5]), ...splitFlag(realizeText(m[6])), file: toReal(m[1]), line: Number(m[2]), column: Number(m[3]) };
      const r = RANGE.exec(m[4]);
      if (r && Number(r[1]) === d.line) {
        d.endLine = Number(r[3]);
        d.endColumn = Number(r[4]);
      }
      if (includes.length) d.includedFrom = includes.reverse();
      includes = [];
      out.push(d);
      continue;
    }
    const u = UNLOCATED.exec(line);
    if (u) {
      out.push({ severity: severity(u[1]), ...splitFlag(realizeText(u[2])), file: unit, line: 1, column: 1, unlocated: true });
      includes = [];
    }
    // Anything else (`2 errors generated.`, a crash's backtrace) is not a message.
  }
  return out;
}

/**
 * wasm-ld's output: `wasm-ld: error: duplicate symbol: main` followed by `>>> defined in X`
 * lines. Object paths are replaced by the unit each object came from.
 */
export function parseLinkerOutput(output: string, objectUnits: Map<string, string>, fallback: string): ClangDiagnostic[] {
  const out: ClangDiagnostic[] = [];
  const name = (text: string): string => {
    let t = text;
    for (const [object, unit] of objectUnits) t = t.split(object).join(unit);
    return realizeText(t);
  };
  for (const raw of output.split(/\r?\n/)) {
    const line = raw.trimEnd();
    const m = /^(?:wasm-ld|yowasp-llvm|ld)?:? ?(error|warning): (.*)$/.exec(line);
    if (m) {
      const mentioned = [...objectUnits.keys()].find((o) => m[2].includes(o));
      out.push({ severity: m[1] as ClangSeverity, message: name(m[2]), file: mentioned ? objectUnits.get(mentioned)! : fallback, line: 1, column: 1, unlocated: true });
      continue;
    }
    const more = /^>>> (.*)$/.exec(line);
    const last = out[out.length - 1];
    if (more && last) {
      last.message += `; ${name(more[1])}`;
      if (last.file === fallback) {
        const mentioned = [...objectUnits.keys()].find((o) => more[1].includes(o));
        if (mentioned) last.file = objectUnits.get(mentioned)!;
      }
    }
  }
  return out;
}

function severity(text: string): ClangSeverity {
  return text === 'fatal error' ? 'error' : (text as ClangSeverity);
}

function splitFlag(message: string): { message: string; flag?: string } {
  const f = FLAG.exec(message);
  return f ? { message: message.slice(0, f.index), flag: f[1] } : { message };
}
