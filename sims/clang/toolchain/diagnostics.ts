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

/** Where the sysroot's libc++ headers live (inside clang's file tree). */
const LIBCXX_HEADERS = /\/c\+\+\/v1\/(.+)$/;

/**
 * An ambiguity between the program's own name and one of libc++'s, explained. Host code is
 * built against libc++ here, whose headers include one another more widely than libstdc++'s
 * (nvcc's usual library on Linux): <iostream> brings in <array>, so under `using namespace std`
 * a global `array` that compiles with nvcc is ambiguous here. The error (followed by clang's
 * candidate notes) gets the reason and the way out.
 */
export function explainLibraryAmbiguities(diagnostics: ClangDiagnostic[]): void {
  diagnostics.forEach((d, i) => {
    const m = /^reference to '([^']+)' is ambiguous$/.exec(d.message);
    if (!m || d.severity !== 'error') return;
    for (let j = i + 1; j < diagnostics.length && diagnostics[j].severity === 'note'; j++) {
      const note = diagnostics[j];
      const header = LIBCXX_HEADERS.exec(note.file)?.[1];
      if (!header || !/^candidate found by name lookup is 'std::/.test(note.message)) continue;
      d.message += ` with \`std::${m[1]}\` of libc++'s <${header}>: host code is built against libc++, whose headers include <${header}> where libstdc++ (nvcc's usual library) does not, so under \`using namespace std\` the program's own \`${m[1]}\` collides with it; write \`::${m[1]}\` or rename it`;
      return;
    }
  });
}
