// A launch's arguments in words (./launchDescription.ts): each pointer as its element type and
// how many elements its allocation holds from there, each scalar with its value. Run Kernel
// starts from the launch a program made, and says which launch it ran.
import * as T from '../frontend/types';
import { pointerAllocation, pointerOffset, type Memory } from '../gpu/memory';
import type { LaunchRequest } from '../ir/ir';
import type { Dim3, LaunchDescription } from './launchDescription';

export function describeLaunch(req: LaunchRequest, memory: Memory): LaunchDescription {
  const args = req.args.map((value, i) => {
    const name = req.kernel.decl.params?.[i]?.name ?? `arg${i + 1}`;
    const t = T.unqualified(T.decay(req.kernel.paramTypes[i] ?? T.ERROR));
    if (t.kind === 'pointer') {
      if (!value) return `${name} = NULL`;
      const a = memory.allocation(pointerAllocation(value));
      const to = T.unqualified(t.to);
      const element = to.kind === 'void' || to.kind === 'function' ? T.UCHAR : to;
      const size = T.sizeOf(element) ?? 1;
      const offset = pointerOffset(value);
      if (!a) return `${name}: ${T.typeToString(element)} *`;
      const count = Math.max(0, Math.floor((a.size - offset) / size));
      return `${name}: ${T.typeToString(element)}[${count}]${offset ? ` (at element ${Math.floor(offset / size)} of ${a.label})` : ''}`;
    }
    if (t.kind === 'error') {
      // A type the launch does not carry (clang's kernels): a pointer into an allocation says which.
      const a = Number.isInteger(value) && pointerAllocation(value) > 0 ? memory.allocation(pointerAllocation(value)) : undefined;
      return a ? `${name}: ${a.label}` : `${name} = ${value}`;
    }
    if (t.kind === 'int' || t.kind === 'bool' || t.kind === 'enum') return `${name} = ${value}`;
    if (t.kind === 'float') return `${name} = ${Number.isInteger(value) ? value.toFixed(1) : String(value)}`;
    return `${name}: ${T.typeToString(t)}`;
  });
  return { kernel: req.kernel.decl.name ?? req.kernel.name, grid: req.grid, block: req.block, args };
}

/** RunOptions.untilLaunchOf: the kernel whose first launch ends the program, and the grid and block it runs with. */
export interface UntilLaunch {
  kernel: string;
  grid?: Dim3;
  block?: Dim3;
}

/** The first launches a run describes (RunResult.launched). */
const MAX_DESCRIBED_LAUNCHES = 32;

/**
 * What both runners (the built-in one and clang's) do as a launch starts: the launch to run —
 * `asked`, or the one `until` names with its grid and block — recorded in words in `launched`
 * while it has room, and whether the program ends after it.
 */
export function startLaunch(asked: LaunchRequest, until: UntilLaunch | undefined, launched: LaunchDescription[], memory: Memory): { req: LaunchRequest; last: boolean } {
  const last = until !== undefined && (asked.kernel.decl.name ?? asked.kernel.name) === until.kernel;
  const req = last ? { ...asked, grid: until.grid ?? asked.grid, block: until.block ?? asked.block } : asked;
  if (launched.length < MAX_DESCRIBED_LAUNCHES) launched.push(describeLaunch(req, memory));
  return { req, last };
}
