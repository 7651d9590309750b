// A kernel run with no host program (a kernel-only file, or a kernel named on the command
// line): the launch main would have made, with arguments made up here as the hand-written path
// makes them (sims/host/run.ts entryLaunch) — pointers get fresh zeroed allocations sized by
// entryAllocationSize, structs passed by value zeroed copies whose pointers point to fresh
// allocations too, scalars the values given by parameter name (0 otherwise), and function
// pointers the kernel calls through a device function of the right arity.
import { Memory, pointerAllocation } from '../../gpu/memory';
import type { FlatAddresses } from '../../gpu/flat';
import type { LaunchRequest } from '../../ir/ir';
import { ENTRY_DATA_ELEMENTS, entryAllocationSize, entryDynamicShared, fillElements, type KernelEntry } from '../../host/run';
import type { DeviceProgram } from '../device/program';
import { leavesOf, namingType, sizeOf } from '../device/layout';
import { functionName } from '../device/demangle';
import { normalizerOf } from '../device/numbers';
import type { LModule } from '../llvm/module';
import type { Finding } from './hostContext';
import { calledWith, pointeeOf } from './pointee';
import { definedKernels } from '../entry';

/** The launch of `entry`, or the finding that says why there is none. */
export function entryLaunch(entry: KernelEntry, program: DeviceProgram, modules: LModule[], memory: Memory, flat: FlatAddresses): LaunchRequest | Finding {
  // By the name the entry was chosen by (sims/clang/entry.ts: a template's instance is `fill<int>`), else by its mangled or plain name.
  const defined = definedKernels(modules);
  const chosen = defined.get(entry.kernel) ?? [];
  const names = [...program.kernels.keys()].filter((k) => chosen.includes(k) || k === entry.kernel || functionName(k) === entry.kernel);
  if (names.length === 0) {
    const known = [...defined.keys()];
    return { kind: 'no-kernel', message: `the program has no kernel named '${entry.kernel}'${known.length ? ` (its kernels: ${[...new Set(known)].join(', ')})` : ''}` };
  }
  const kernel = program.kernels.get(names[0])!;
  if (names.length > 1) return { kind: 'not-supported', message: `kernel '${entry.kernel}' is overloaded or a template with ${names.length} instances; the simulator cannot tell which one to run (launch it from main instead)`, range: kernel.compiled.decl.nameRange };
  const fn = modules.flatMap((m) => m.functions).find((f) => f.name === names[0] && !f.declaration);
  const threads = entry.grid.reduce((a, b) => a * b, 1) * entry.block.reduce((a, b) => a * b, 1);
  const args = kernel.params.map((param, i) => {
    const name = fn?.params[i]?.name ?? `argument ${i + 1}`;
    if (param.byval) {
      const copy = memory.allocate('global', Math.max(1, sizeOf(param.byval)), { label: `argument ${name} of ${kernel.displayName}` });
      // Each pointer it holds points to a fresh zeroed allocation, as a pointer parameter does
      // (element types are not in the IR: sized for 8-byte elements).
      const a = memory.allocation(pointerAllocation(copy))!;
      const pointers = leavesOf(param.byval).filter((leaf) => leaf.type.kind === 'ptr');
      for (const leaf of pointers) {
        const p = memory.allocate('global', entryAllocationSize(threads, 8, pointers.length), { label: `${name} (pointer at byte ${leaf.offset})` });
        Memory.write(a, leaf.offset, 'u32', flat.flatOf(p));
      }
      return copy;
    }
    // A function pointer the kernel calls through: a device function it can reach, as the
    // caller would have passed: the one its __requires names (GPUVerify's way), else the first.
    // A pointer the kernel only compares (`__requires(f == g)`) is the function named too.
    const called = param.pointer && fn ? calledWith(fn, i) : undefined;
    const targets = called !== undefined ? program.indirectTargets(called) : [];
    const wanted = param.pointer ? entry.functions?.[name] : undefined;
    const target = targets.find((t) => t.name === wanted)?.address ?? (wanted !== undefined ? program.deviceFunction(wanted) : undefined) ?? targets[0]?.address;
    if (target !== undefined) return target;
    if (param.pointer) {
      const element = fn ? pointeeOf(fn, i, modules) : undefined;
      const size = entryAllocationSize(threads, element ? Math.max(1, sizeOf(element)) : 4);
      const type = element && namingType(element);
      const p = memory.allocate('global', size, { label: name, ...(type ? { layout: [{ name, offset: 0, type, unbounded: true }] } : {}) });
      if (type && entry.arbitraryData !== undefined) fillElements(memory, p, type, Math.min(Math.floor(size / Math.max(1, sizeOf(element!))), ENTRY_DATA_ELEMENTS), { fill: 'arbitrary', seed: entry.arbitraryData + i });
      return p;
    }
    return normalizerOf(param.type)(entry.args[name] ?? 0);
  });
  return { kernel: kernel.compiled, grid: entry.grid, block: entry.block, dynamicShared: entryDynamicShared(kernel.compiled), args, range: kernel.compiled.decl.nameRange, entry: true };
}
