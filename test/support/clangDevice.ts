// Test helper: device code compiled by clang (the toolchain's device pass), read, lowered by
// sims/clang/device and launched directly with runGrid, as the clang host runtime launches it.
import * as path from 'node:path';
import { compileDevice } from '../../sims/clang/toolchain';
import { parseLlvmModule } from '../../sims/clang/llvm/parse';
import { loadDeviceProgram, type DeviceProgram } from '../../sims/clang/device/program';
import { SourceRanges } from '../../sims/clang/ranges';
import { FlatAddresses } from '../../sims/gpu/flat';
import { Memory, pointerAllocation, pointerOffset, type ScalarKind } from '../../sims/gpu/memory';
import { runGrid, type GridOutcome, type GridOptions } from '../../sims/machine/executor';
import { DEFAULT_DEVICE, devicePreset } from '../../sims/gpu/devices';
import { CudaRuntime } from '../../sims/runtime/runtime';
import type { EventListener } from '../../sims/ir/ir';
import { readOrUndefined } from './parseFile';

export const CLANG_FIXTURES = path.resolve(__dirname, '..', 'fixtures', 'clang');

export interface LoadedDevice {
  program: DeviceProgram;
  memory: Memory;
  flat: FlatAddresses;
  runtime: CudaRuntime;
  file: string;
}

export interface DeviceLoad {
  /** Compile events in (default true). */
  events?: boolean;
  switchAtMemory?: boolean;
}

/** Compiles `source` (or the file at `file` when no source is given) and loads its device code. */
export async function loadDevice(file: string, source?: string, options: DeviceLoad = {}): Promise<LoadedDevice> {
  const r = await compileDevice({ file, ...(source !== undefined ? { text: source } : {}), defines: [], includeDirs: [] });
  if (!r.ok) throw new Error(`clang: ${r.diagnostics.map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`).join('\n')}`);
  const memory = new Memory();
  const flat = new FlatAddresses(memory);
  const ranges = new SourceRanges((p) => (p === file && source !== undefined ? source : readOrUndefined(p)));
  const program = loadDeviceProgram([parseLlvmModule(r.ll, file)], {
    memory,
    flat,
    events: options.events ?? true,
    switchAtMemory: options.switchAtMemory ?? false,
    rangeOf: (loc) => (loc ? ranges.rangeAt(loc.file, loc.line, loc.column) : ranges.rangeAt(file, 1, 1)),
  });
  return { program, memory, flat, runtime: new CudaRuntime(memory), file };
}

/** The kernel whose display name is `name` (mangled names differ by signature). */
export function kernelNamed(d: LoadedDevice, name: string) {
  const mangled = [...d.program.kernels.keys()].find((k) => k === name || new RegExp(`^_Z${name.length}${name}`).test(k));
  if (!mangled) throw new Error(`no kernel ${name} among ${[...d.program.kernels.keys()].join(', ')}`);
  return d.program.kernels.get(mangled)!;
}

export function launch(
  d: LoadedDevice,
  name: string,
  grid: number | [number, number, number],
  block: number | [number, number, number],
  args: number[],
  options: { events?: EventListener; dynamicShared?: number; grid?: Partial<GridOptions> } = {},
): GridOutcome {
  const device = devicePreset(DEFAULT_DEVICE)!;
  const k = kernelNamed(d, name);
  const dim = (x: number | [number, number, number]): [number, number, number] => (typeof x === 'number' ? [x, 1, 1] : x);
  return runGrid(
    { kernel: k.compiled, grid: dim(grid), block: dim(block), dynamicShared: options.dynamicShared ?? 0, args, range: k.compiled.decl.range },
    { device, memory: d.memory, runtime: d.runtime, globals: new Map(), ...(options.events ? { events: options.events } : {}) },
    { device, stepBudget: 50_000_000, ...options.grid },
  );
}

/** A zeroed device allocation of `count` elements of 4 bytes. */
export function deviceArray(d: LoadedDevice, count: number, label = 'array'): number {
  return d.memory.allocate('global', count * 4, { label });
}

export function read(d: LoadedDevice, p: number, count: number, kind: ScalarKind = 'i32'): number[] {
  const a = d.memory.allocation(pointerAllocation(p))!;
  const size = kind === 'f64' || kind === 'i64' || kind === 'u64' ? 8 : kind === 'i8' || kind === 'u8' ? 1 : kind === 'i16' || kind === 'u16' ? 2 : 4;
  return Array.from({ length: count }, (_, i) => Number(Memory.read(a, pointerOffset(p) + i * size, kind)));
}

/** The storage of a device global by its (unmangled) name. */
export function globalPointer(d: LoadedDevice, name: string): number {
  const g = d.program.globals.get(name);
  if (!g) throw new Error(`no global ${name} among ${[...d.program.globals.keys()].join(', ')}`);
  return g.pointer;
}
