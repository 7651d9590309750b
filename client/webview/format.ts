// How the inspector words and converts the detector's data.
import type { RevealTarget } from './messages';
import type { Location, Accessor, Range } from '../../server/wire';

const CATEGORIES: Record<string, string> = {
  'missing-block-fence': 'Missing block fence',
  'missing-device-fence': 'Missing device fence',
  'non-strong-access': 'Non-strong access',
  'scoped-atomic': 'Scoped atomic',
  'missing-lock': 'Missing lock',
  'lock-scope': 'Lock scope',
  'lock-fence-scope': 'Lock acquire fence',
  'lock-release-fence': 'Lock release fence',
  'shared-memory': 'Shared memory',
};

export function categoryLabel(category: string): string {
  return CATEGORIES[category] ?? category.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

export function threadLabel(a: Accessor): string {
  return `block ${a.block} · warp ${a.warp} · lane ${a.lane}`;
}

/** A finding's 1-based location as the 0-based place to reveal. */
export function locationTarget(l: Location): RevealTarget {
  return { file: l.file, line: l.line - 1, character: l.column - 1 };
}

/** A detector range (0-based) as the place to reveal. */
export function rangeTarget(r: Range): RevealTarget {
  return { file: r.file, line: r.start.line, character: r.start.character };
}

/** `line 26, col 9` from a 1-based location. */
export function locationLabel(l: Location): string {
  return `line ${l.line}, col ${l.column}`;
}

/** `line 26, col 9` from a 0-based range. */
export function rangeLabel(r: Range): string {
  return `line ${r.start.line + 1}, col ${r.start.character + 1}`;
}

export function basename(file: string): string {
  return file.split(/[\\/]/).pop() || file;
}

/** `read`, `write` or `atomic`: the colour class of an access (`atomicAdd_block` is atomic). */
export function accessKind(access: string): 'read' | 'write' | 'atomic' {
  return access === 'read' ? 'read' : access === 'write' ? 'write' : 'atomic';
}

export const yesNo = (b: boolean): string => (b ? 'yes' : 'no');

/** A moment as a 24-hour clock time in the reader's time zone: 21:04:13. */
export function clockTime(epochMs: number): string {
  const d = new Date(epochMs);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}
