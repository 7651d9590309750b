// A program's own global names that collide with libc++'s, read as the program meant them.
//
// Host code is built against libc++ here, nvcc's host compiler against libstdc++ on Linux, and
// libc++'s headers declare more of namespace std than the ones a program included would with
// libstdc++ (<iostream> forward-declares std::array). Under `using namespace std`, a program's
// global `float *array;` that nvcc compiles is then an ambiguous reference. Which one the
// program means is not in doubt (libstdc++ would not have declared the other), so each
// ambiguous reference to such a global is qualified (`::array`, in the unit's copy of the file,
// never on disk) and the unit compiled again, with a warning that says so.
import type { ClangDiagnostic } from './diagnostics';
import type { SourceSet } from './sources';

/** Where the sysroot's libc++ headers live (inside clang's file tree). */
const LIBCXX_HEADERS = /\/c\+\+\/v1\/(.+)$/;
const AMBIGUOUS = /^reference to '([^']+)' is ambiguous$/;
const CANDIDATE = /^candidate found by name lookup is '([^']+)'$/;

/**
 * Qualifies each ambiguous reference between the program's global name and a libc++ one in
 * `sources` (the unit's copy of its files). Returns a warning per name and file qualified, none
 * when nothing could be (the errors then stand, explained by explainLibraryAmbiguities).
 */
export function qualifyProgramNames(diagnostics: readonly ClangDiagnostic[], sources: SourceSet): ClangDiagnostic[] {
  const edits = new Map<string, { name: string; line: number; column: number }[]>();
  diagnostics.forEach((d, i) => {
    const name = AMBIGUOUS.exec(d.message)?.[1];
    if (!name || d.severity !== 'error' || LIBCXX_HEADERS.test(d.file) || !sources.files.has(d.file)) return;
    let library: string | undefined;
    let global = false;
    for (let j = i + 1; j < diagnostics.length && diagnostics[j].severity === 'note'; j++) {
      const note = diagnostics[j];
      const candidate = CANDIDATE.exec(note.message)?.[1];
      if (candidate === name && !LIBCXX_HEADERS.test(note.file)) global = true;
      else if (candidate === `std::${name}`) library = LIBCXX_HEADERS.exec(note.file)?.[1] ?? library;
    }
    if (!global || library === undefined) return;
    const list = edits.get(d.file) ?? [];
    list.push({ name, line: d.line, column: d.column });
    edits.set(d.file, list);
  });
  const warnings: ClangDiagnostic[] = [];
  for (const [file, list] of edits) {
    const bytes = sources.files.get(file)!;
    const done = qualify(bytes, list);
    if (!done.bytes) continue;
    sources.files.set(file, done.bytes);
    for (const [name, first] of done.names) {
      warnings.push({
        severity: 'warning',
        message: `\`${name}\` is read as the program's own \`::${name}\`: libc++ (the host library here) declares \`std::${name}\` in headers that libstdc++ (nvcc's usual library) leaves out, so under \`using namespace std\` the name was ambiguous`,
        file,
        line: first.line,
        column: first.column,
      });
    }
  }
  return warnings;
}

/** `::` inserted before each listed reference that spells its name (bytes at clang's 1-based byte column). */
function qualify(bytes: Uint8Array, list: { name: string; line: number; column: number }[]): { bytes?: Uint8Array; names: Map<string, { line: number; column: number }> } {
  const lineStarts = [0];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) lineStarts.push(i + 1);
  const at: number[] = [];
  const names = new Map<string, { line: number; column: number }>();
  const encoder = new TextEncoder();
  for (const e of list) {
    const start = lineStarts[e.line - 1];
    if (start === undefined) continue;
    const offset = start + e.column - 1;
    const spelled = encoder.encode(e.name);
    const before = offset > 0 ? bytes[offset - 1] : 0x20;
    if (!spelled.every((b, k) => bytes[offset + k] === b) || before === 0x3a /* already `:` */ || at.includes(offset)) continue;
    at.push(offset);
    if (!names.has(e.name)) names.set(e.name, { line: e.line, column: e.column });
  }
  if (!at.length) return { names };
  at.sort((a, b) => a - b);
  const out = new Uint8Array(bytes.length + 2 * at.length);
  let from = 0;
  let to = 0;
  for (const offset of at) {
    out.set(bytes.subarray(from, offset), to);
    to += offset - from;
    out[to++] = 0x3a;
    out[to++] = 0x3a;
    from = offset;
  }
  out.set(bytes.subarray(from), to);
  return { bytes: out, names };
}
