// Where in the host program something happened: the WebAssembly frames of a JavaScript stack
// (V8 writes each as `wasm-function[index]:0x<module offset>`) mapped through the program's
// DWARF line table to file, line and column. A trap's top frame is the faulting instruction; a
// runtime call's first program frame is the call. Frames without line information (the C
// library, clang's kernel stubs) are passed over to the user code that called them.
import type { DebugLocation } from '../llvm/module';
import { toReal } from '../toolchain/paths';
import { LineTable } from './dwarfLines';
import type { WasmInfo } from './wasmBinary';

export interface HostFrame {
  /** Function index in the module. */
  index: number;
  /** Byte offset of the instruction in the module. */
  offset: number;
  name?: string;
  location?: DebugLocation;
  /** Its code is in a header of the toolchain's sysroot or of the project's CUDA headers. */
  library?: boolean;
}

export interface HostSite {
  /** The innermost frame that maps to a source line, and where it maps. */
  location?: DebugLocation;
  /** The function that frame (or, without line information, the innermost program frame) is in. */
  function?: string;
  /** The innermost program frame's function, when it has no line information (`memcpy`). */
  inside?: string;
}

const FRAME = /wasm-function\[(\d+)\]:0x([0-9a-fA-F]+)/g;

export class HostSites {
  private lines: LineTable | undefined;

  constructor(private readonly info: WasmInfo) {}

  /** The program has line information (its host code was compiled with line tables). */
  get hasLines(): boolean {
    return !this.table().empty;
  }

  frames(stack: string | undefined): HostFrame[] {
    if (!stack) return [];
    const out: HostFrame[] = [];
    for (const m of stack.matchAll(FRAME)) {
      const index = Number(m[1]);
      const offset = parseInt(m[2], 16);
      const name = this.info.functionNames.get(index);
      const location = this.info.codeOffset >= 0 ? this.table().lookup(offset - this.info.codeOffset) : undefined;
      const library = location ? isLibraryFile(location.file) : false;
      out.push({
        index,
        offset,
        ...(name !== undefined ? { name } : {}),
        ...(location ? { location: { line: location.line, column: location.column, file: toReal(location.file) } } : {}),
        ...(library ? { library } : {}),
      });
    }
    return out;
  }

  /**
   * The source site of a stack: the innermost frame in the program's own code. Kernel stubs and
   * the CUDA headers' inline wrappers (`cudaMalloc<T>`) are passed over to their caller.
   */
  site(stack: string | undefined): HostSite {
    const frames = this.frames(stack);
    const first = frames[0];
    for (const f of frames) {
      if (!f.location || f.library || isKernelStub(f.name)) continue;
      const inside = first && first !== f && !first.location && !isKernelStub(first.name) ? first.name : undefined;
      return { location: f.location, ...(f.name ? { function: f.name } : {}), ...(inside ? { inside } : {}) };
    }
    const named = frames.find((f) => f.name && !isKernelStub(f.name));
    return named?.name ? { function: named.name } : {};
  }

  private table(): LineTable {
    this.lines ??= new LineTable(this.info.custom.get('.debug_line'), this.info.custom.get('.debug_line_str'), this.info.custom.get('.debug_str'));
    return this.lines;
  }
}

/**
 * Headers of the toolchain's sysroot (mounted at /usr/include, as clang sees it) and the
 * project's CUDA headers, as the device side counts them.
 */
function isLibraryFile(virtual: string): boolean {
  if (virtual.startsWith('/usr/include/')) return true;
  const file = toReal(virtual);
  return /[\\/]sims[\\/]clang[\\/]include[\\/]/.test(file) || /[\\/]dist[\\/]include[\\/]/.test(file);
}

/** clang's host stub of a kernel (`__device_stub__name`), which calls cudaLaunchKernel. */
function isKernelStub(name: string | undefined): boolean {
  return !!name && name.includes('__device_stub__');
}

/**
 * The current JavaScript stack, deep enough to reach the program's frames below the runtime
 * call being served (V8 keeps 10 frames by default).
 */
export function currentStack(): string | undefined {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 64;
  try {
    return new Error().stack;
  } finally {
    Error.stackTraceLimit = limit;
  }
}
