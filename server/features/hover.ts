// Hovers: on a racing access, the race and the detector's metadata entry as it was when the
// race was found; on an atomic or a fence, its scope — which threads it is atomic with or
// orders accesses for — and the races of the last run it takes part in; on the header of a
// wait loop between blocks (spin lock, producer-consumer, grid barrier), the idiom and the
// GPU schedulers under which it terminates.
import type { Hover, Position } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { CheckFinding } from '../../sims/check';
import type { ParseResult } from '../../sims/frontend/index';
import type { Range } from '../../sims/frontend/source';
import { SyntaxIndex } from '../../sims/fixes/syntaxIndex';
import { idiomsAt, recogniseIdioms, type Idiom } from '../../sims/idioms/recognise';
import { verdictSets } from '../../sims/idioms/schedulers';
import type { LastRun } from '../analysis/scheduler';
import { lspRange } from './diagnostics';

const within = (r: Range | undefined, fileName: string, offset: number): boolean => !!r && r.file === fileName && r.start.offset <= offset && offset <= r.end.offset;

/**
 * The detector's metadata entry for the raced word when the race was found, as a compact table
 * (VS Code shows the diagnostic's sentence above the hover, so it is not repeated here).
 */
function metadataTable(f: CheckFinding): string {
  const m = f.metadata;
  if (!m) return '';
  const id = (then: number, now: number): string => (then === now ? `${then} (no fence since)` : `${then} → ${now}`);
  const rows: [string, string][] = [
    ['last access', `${m.atomic ?? (m.write ? 'write' : 'read')}, block ${m.accessor.block} warp ${m.accessor.warp} lane ${m.accessor.lane}${m.strong ? ', strong' : ''}`],
    ['barrier ID', m.barrierId === m.barrierIdNow ? `${m.barrierId} (same interval)` : `${m.barrierId} → ${m.barrierIdNow}`],
    ['block / device fence ID', `${id(m.blockFenceId, m.fenceFileNow.blockFenceId)} / ${id(m.deviceFenceId, m.fenceFileNow.deviceFenceId)}`],
    ['locks held', m.locks.length ? m.locks.join(', ') : 'none'],
  ];
  return `\n\n| \`${f.address ?? 'the word'}\` | |\n|---|---|\n${rows.map(([k, v]) => `| ${k} | ${v} |`).join('\n')}`;
}

const SCOPES: [RegExp, string][] = [
  [/^atomic\w+_block$/, '**block scope**: atomic only with respect to threads of the same thread block. Another block updating the same word is not synchronised with it — a scoped race.'],
  [/^atomic\w+_system$/, '**system scope**: atomic with respect to every thread of the GPU, other GPUs and the host (for managed or mapped memory).'],
  [/^atomic\w+$/, '**device scope**: atomic with respect to every thread of the GPU, in every block.'],
  [/^__threadfence_block$/, '**block-scope fence**: the writes before it are seen before the writes after it by threads of the *same block* only. A consumer in another block needs `__threadfence()`.'],
  [/^__threadfence_system$/, '**system-scope fence**: orders this thread\'s accesses for every thread of the device and for the host.'],
  [/^__threadfence$/, '**device-scope fence**: the writes before it are seen before the writes after it by every thread of the device, in every block.'],
  [/^__syncthreads(_count|_and|_or)?$/, '**barrier**: waits for every thread of the block; accesses before it are ordered before accesses after it, for threads of the same block.'],
  [/^__syncwarp$/, '**warp barrier**: the lanes of the mask meet; their accesses before it are ordered before their accesses after it.'],
];

export function hover(doc: TextDocument, position: Position, fileName: string, parsed: ParseResult | undefined, run: LastRun | undefined): Hover | null {
  const offset = doc.offsetAt(position);
  const fresh = run && run.version === doc.version ? run : undefined;
  const race = fresh?.report.findings.find((f) => f.kind === 'race' && within(f.range, fileName, offset));
  if (race) return { contents: { kind: 'markdown', value: `**${race.category}** race ${race.scope === 'device' ? 'between blocks' : 'within a block'}: the detector's metadata when it was found${metadataTable(race)}` }, range: lspRange(race.range!) };
  if (!parsed) return null;
  const idioms = idiomsAt(recogniseIdioms(parsed.deviceAst, parsed.ast), fileName, offset);
  const idiomText = idioms.length ? `\n\n---\n\n${idioms.map(idiomMarkdown).join('\n\n')}` : '';
  const call = SyntaxIndex.of(parsed.deviceAst).calls().find((c) => c.callee.kind === 'Identifier' && within(c.callee.range, fileName, offset));
  const name = call?.callee.kind === 'Identifier' ? call.callee.name : undefined;
  const scope = name ? SCOPES.find(([re]) => re.test(name)) : undefined;
  if (!call || !name || !scope) return idioms.length ? { contents: { kind: 'markdown', value: idioms.map(idiomMarkdown).join('\n\n') }, range: lspRange(idioms[0].hover!) } : null;
  const inCall = (r: Range | undefined): boolean => !!r && r.file === fileName && r.start.offset >= call.range.start.offset && r.end.offset <= call.range.end.offset;
  // Its accesses, its lock acquire, or the instruction its fixes rewrite (a fence or an
  // unlock at too narrow a scope takes part in the race without being one of its accesses).
  const rewritten = (f: CheckFinding): Range[] => f.fixes.flatMap((x) => x.edits.map((e) => e.range)).filter((r) => r.end.offset > r.start.offset);
  const involved = fresh?.report.findings.filter((f) => f.kind === 'race' && [f.range, ...(f.relatedRanges ?? []), ...rewritten(f)].some(inCall)) ?? [];
  const races = involved.length ? `\n\nIn the last run it takes part in ${involved.length} race${involved.length === 1 ? '' : 's'}:\n${involved.map((f) => `- ${f.message}`).join('\n')}` : fresh ? '\n\nIn the last run it takes part in no race.' : '';
  return { contents: { kind: 'markdown', value: `\`${name}\` — ${scope[1]}${races}${idiomText}` }, range: lspRange(call.callee.range) };
}

/** The idiom, where it terminates and why, and how to see it starve. */
function idiomMarkdown(i: Idiom): string {
  const verdict = i.verdict.startsWith(`${i.title} — `) ? i.verdict.slice(i.title.length + 3) : i.verdict;
  // The fairest scheduler that can still starve it makes the most convincing demonstration.
  const starves = verdictSets(i.weakest).starves.filter((s) => s !== 'unfair');
  const strongest = starves[starves.length - 1];
  const tryIt = strongest ? `\n\nTo see it starve, set \`scord.fairness\` to \`${strongest}\` (or run \`scord check --fairness ${strongest}\`).` : '';
  return `**${i.title}** — ${verdict}\n\n${i.explanation}${tryIt}`;
}
