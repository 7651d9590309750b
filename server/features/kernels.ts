// The kernels of a document and the launch its header gives, for the client's Run Kernel flow.
import { functionsOf, type ParseResult } from '../../sims/frontend/index';
import { summarize } from '../../sims/frontend/summary';
import { readKernelHeader } from '../../sims/host/kernelHeader';
import type { LaunchDescription } from '../../sims/host/launchDescription';
import type { KernelsResult } from '../protocol';

/** The kernels of a document; `launched`: the launches of its last program run, each kernel's first one offered to Run Kernel. */
export function kernelsOf(parsed: ParseResult, text: string, fileName: string, launched: LaunchDescription[] = []): KernelsResult {
  const summary = summarize(parsed, (f) => (f === fileName ? text : undefined));
  const { header } = readKernelHeader(text);
  const headerLaunch = header.grid || header.block ? { ...(header.grid ? { grid: header.grid } : {}), ...(header.block ? { block: header.block } : {}) } : undefined;
  return {
    hasMain: functionsOf(parsed.ast).some((f) => f.name === 'main' && !!f.body),
    kernels: summary.kernels
      .filter((k) => !k.template && k.range.file === fileName)
      .map((k) => {
        const launch = launched.find((l) => l.kernel === k.name);
        const launchedInProgram = summary.launches.some((l) => l.kernel === k.name);
        return { name: k.name, params: k.params, line: k.range.start.line, launchedInProgram, ...(launch ? { launch } : {}) };
      }),
    ...(headerLaunch ? { headerLaunch } : {}),
  };
}
