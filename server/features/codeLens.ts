// A lens above each kernel and `main`: "▶ Run · 2 races · 3.1 ms" from the last run. It runs
// the program (or the kernel, for a kernel-only file) through the client's Run command.
// Above each blocking idiom between blocks (spin lock, producer-consumer, grid barrier, …), a
// lens that says under which GPU schedulers it terminates.
import type { CodeLens } from 'vscode-languageserver/node';
import { functionsOf, type ParseResult } from '../../sims/frontend/index';
import { recogniseIdioms } from '../../sims/idioms/recognise';
import type { LastRun } from '../analysis/scheduler';
import { ClientCommands } from '../protocol';
import { lspRange } from './diagnostics';

export function codeLenses(uri: string, fileName: string, parsed: ParseResult, run: LastRun | undefined): CodeLens[] {
  const fns = functionsOf(parsed.ast).filter((f) => f.body && f.nameRange.file === fileName && (f.space === 'global' || f.name === 'main'));
  const races = run?.report.findings.filter((f) => f.kind === 'race') ?? [];
  const problems = run?.report.findings.filter((f) => f.kind !== 'race') ?? [];
  const runs = fns.map((f): CodeLens => {
    const inside = (r: { start: { offset: number }; file: string } | undefined): boolean => !!r && r.file === fileName && r.start.offset >= f.range.start.offset && r.start.offset <= f.range.end.offset;
    // `main` runs everything; a kernel's count is the races at its own instructions.
    const mine = f.name === 'main' ? races : races.filter((r) => inside(r.range));
    const other = f.name === 'main' ? problems : problems.filter((p) => inside(p.range));
    const parts = ['▶ Run'];
    if (run) {
      parts.push(mine.length ? `${mine.length} race${mine.length === 1 ? '' : 's'}` : 'no races');
      if (other.length) parts.push(`${other.length} other finding${other.length === 1 ? '' : 's'}`);
      parts.push(`${run.elapsedMs.toFixed(1)} ms`);
    }
    return {
      range: lspRange(f.nameRange),
      command: { title: parts.join(' · '), command: ClientCommands.runKernel, arguments: [{ uri, entry: f.name === 'main' ? 'main' : f.name }] },
    };
  });
  // A lens with no command is a line of text: the verdict is to read, not to run.
  const idioms = recogniseIdioms(parsed.deviceAst, parsed.ast).filter((i) => i.range.file === fileName);
  return [...runs, ...idioms.map((i): CodeLens => ({ range: lspRange(i.range), command: { title: i.verdict, command: '' } }))];
}
