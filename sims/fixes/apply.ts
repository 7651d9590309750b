// Applying fixes to a file, as `scord fix` does: the preferred fix of every finding, edits
// that several findings share applied once, and an edit that overlaps one already taken left
// out (its finding stays and is reported, like `eslint --fix` does for conflicting fixes). A fix
// may edit a header of the program as well (a race inside it); such edits apply to that file.
import type { Fix, TextEdit } from './fixes';

export interface AppliedFixes {
  text: string;
  /** The new texts of the other files (headers) the applied fixes edit. */
  others: Map<string, string>;
  /** The edits applied, in no particular order (an editor applies them as one change). */
  edits: TextEdit[];
  applied: Fix[];
  /** Preferred fixes left out because their edits overlapped others. */
  skipped: Fix[];
}

/**
 * `readOther` gives the text of another file a fix edits, or undefined when it may not be
 * edited (then the fix is skipped).
 */
export function applyPreferredFixes(text: string, file: string, fixes: Fix[][], readOther: (file: string) => string | undefined = () => undefined): AppliedFixes {
  const taken: TextEdit[] = [];
  const applied: Fix[] = [];
  const skipped: Fix[] = [];
  const originals = new Map<string, string | undefined>([[file, text]]);
  const original = (f: string) => {
    if (!originals.has(f)) originals.set(f, readOther(f));
    return originals.get(f);
  };
  for (const list of fixes) {
    const fix = list.find((f) => f.preferred);
    if (!fix) continue;
    if (fix.edits.some((e) => original(e.range.file) === undefined)) {
      skipped.push(fix);
      continue;
    }
    const fresh = fix.edits.filter((e) => !taken.some((t) => sameEdit(t, e)));
    if (fresh.some((e) => taken.some((t) => overlaps(t, e)))) {
      skipped.push(fix);
      continue;
    }
    taken.push(...fresh);
    applied.push(fix);
  }
  const others = new Map<string, string>();
  for (const [f, list] of editsByFile(taken)) if (f !== file) others.set(f, applyEdits(original(f)!, list));
  return { text: applyEdits(text, taken.filter((e) => e.range.file === file)), others, edits: taken, applied, skipped };
}

/** Edits grouped by the file they change. */
export function editsByFile(edits: TextEdit[]): Map<string, TextEdit[]> {
  const out = new Map<string, TextEdit[]>();
  for (const e of edits) out.set(e.range.file, [...(out.get(e.range.file) ?? []), e]);
  return out;
}

/** Applies non-overlapping edits; insertions at one offset keep their order. */
export function applyEdits(text: string, edits: TextEdit[]): string {
  const ordered = edits.map((e, i) => ({ e, i })).sort((a, b) => b.e.range.start.offset - a.e.range.start.offset || b.i - a.i);
  let out = text;
  for (const { e } of ordered) out = out.slice(0, e.range.start.offset) + e.newText + out.slice(e.range.end.offset);
  return out;
}

function sameEdit(a: TextEdit, b: TextEdit): boolean {
  return a.range.file === b.range.file && a.range.start.offset === b.range.start.offset && a.range.end.offset === b.range.end.offset && a.newText === b.newText;
}

/** Replacements that share text, or an insertion strictly inside a replaced span. */
function overlaps(a: TextEdit, b: TextEdit): boolean {
  if (a.range.file !== b.range.file) return false;
  const [as, ae, bs, be] = [a.range.start.offset, a.range.end.offset, b.range.start.offset, b.range.end.offset];
  if (as === ae && bs === be) return false;
  if (as === ae) return as > bs && as < be;
  if (bs === be) return bs > as && bs < ae;
  return as < be && bs < ae;
}
