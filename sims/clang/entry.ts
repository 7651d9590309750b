// What a program without `main` runs on the clang path: one kernel launched directly, named on
// the command line or the only one the device code defines, shaped by the command line over
// the file's GPUVerify-style header — the same rules as the hand-written path
// (sims/host/entry.ts), read from the device IR instead of the syntax tree.
import { launchLimitProblem, type EntryChoice, type EntryRequest } from '../host/entry';
import type { KernelHeader } from '../host/kernelHeader';
import { functionName } from './device/demangle';
import type { LModule } from './llvm/module';

/** The kernels the modules define, by the name a program calls them (`reduce`, `ns::scan`). */
export function definedKernels(modules: LModule[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of modules) {
    for (const f of m.functions) {
      if (f.declaration || f.callingConv !== 'ptx_kernel') continue;
      const name = f.debug?.name ?? functionName(f.name);
      out.set(name, [...(out.get(name) ?? []), f.name]);
    }
  }
  return out;
}

/**
 * The names of a kernel's integer scalar parameters, as clang compiled it (a kernel-only file's
 * scalars nobody gave run at 0 and at 1: sims/check.ts otherValuation).
 */
export function clangIntegerParams(modules: LModule[], kernel: string): string[] {
  const name = definedKernels(modules).get(kernel)?.[0];
  const fn = modules.flatMap((m) => m.functions).find((f) => f.name === name && !f.declaration);
  return (fn?.params ?? []).filter((p) => p.type.kind === 'int' && !p.attrs.some((a) => a.startsWith('byval'))).map((p) => p.name);
}

export function chooseClangEntry(modules: LModule[], request: EntryRequest, header: KernelHeader): EntryChoice {
  const kernels = definedKernels(modules);
  let name = request.kernel;
  if (name === undefined) {
    const names = [...kernels.keys()];
    if (names.length === 0) return { kind: 'problem', message: 'the program has neither a main function nor a kernel to run' };
    if (names.length > 1) return { kind: 'problem', message: `the program has ${names.length} kernels (${names.join(', ')}); choose one with --kernel` };
    name = names[0];
  } else if (!kernels.has(name)) {
    // A template kernel named without its arguments (`fill` for `fill<int>`): its one instance.
    const instances = [...kernels.keys()].filter((k) => k.startsWith(`${name}<`));
    if (instances.length === 1) name = instances[0];
  }
  if (!kernels.has(name)) {
    const known = kernels.size ? ` (its kernels: ${[...kernels.keys()].join(', ')})` : '';
    return { kind: 'problem', message: `the program has no kernel named '${name}'${known}` };
  }
  const grid = request.grid ?? header.grid;
  const block = request.block ?? header.block;
  if (!grid || !block) {
    const missing = [!grid ? 'grid' : '', !block ? 'block' : ''].filter(Boolean).join(' and ');
    return { kind: 'problem', message: `no ${missing} size to launch kernel '${name}' with: give ${!grid ? '--grid' : ''}${!grid && !block ? ' and ' : ''}${!block ? '--block' : ''}, or a header line such as //--blockDim=64 --gridDim=2 at the top of the file` };
  }
  const refused = launchLimitProblem(grid, block);
  if (refused) return { kind: 'problem', message: refused };
  return { kind: 'entry', entry: { kernel: name, grid, block, args: request.args } };
}
