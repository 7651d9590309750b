// Applying fixes to a file, as `scord fix` does: the preferred fix of every finding, edits
// that several findings share applied once, and an edit that overlaps one already taken left
// out (its finding stays and is reported, like `eslint --fix` does for conflicting fixes).
import type { Fix, TextEdit } from './fixes';

export interface AppliedFixes {
  text: string;
  /** The edits applied, in no particular order (an editor applies them as one change). */
  edits: TextEdit[];
  applied: Fix[];
  /** Preferred fixes left out because their edits overlapped others. */
  skipped: Fix[];
}

export function applyPreferredFixes(text: string, file: string, fixes: Fix[][]): AppliedFixes {
  const taken: TextEdit[] = [];
  const applied: Fix[] = [];
  const skipped: Fix[] = [];
  for (const list of fixes) {
    const fix = list.find((f) => f.preferred);
    if (!fix) continue;
    if (fix.edits.some((e) => e.range.file !== file)) {
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
  return { text: applyEdits(text, taken), edits: taken, applied, skipped };
}

/** Applies non-overlapping edits; insertions at one offset keep their order. */
export function applyEdits(text: string, edits: TextEdit[]): string {
  const ordered = edits.map((e, i) => ({ e, i })).sort((a, b) => b.e.range.start.offset - a.e.range.start.offset || b.i - a.i);
  let out = text;
  for (const { e } of ordered) out = out.slice(0, e.range.start.offset) + e.newText + out.slice(e.range.end.offset);
  return out;
}

function sameEdit(a: TextEdit, b: TextEdit): boolean {
  return a.range.start.offset === b.range.start.offset && a.range.end.offset === b.range.end.offset && a.newText === b.newText;
}

/** Replacements that share text, or an insertion strictly inside a replaced span. */
function overlaps(a: TextEdit, b: TextEdit): boolean {
  const [as, ae, bs, be] = [a.range.start.offset, a.range.end.offset, b.range.start.offset, b.range.end.offset];
  if (as === ae && bs === be) return false;
  if (as === ae) return as > bs && as < be;
  if (bs === be) return bs > as && bs < ae;
  return as < be && bs < ae;
}
