// The host program's `env` imports: the CUDA runtime, implemented on the simulator (memory,
// arrays and textures, launches, devices, streams and events, graphs, registration). Every
// function the module imports is provided, so instantiation never fails: one the simulator does
// not implement (the driver API, graphics interop, what of graphs is not simulated, or a function
// no file of the program defines) ends the run, when called, with one `not supported: …` finding
// at the call.
import type { FunctionType, WasmImport } from './wasmBinary';
import { deviceCalls } from './deviceCalls';
import { callSite, HostStop, locateRuntimeFindings, placeText, type HostContext } from './hostContext';
import { graphCalls } from './graphCalls';
import { launchCalls } from './launchCalls';
import { memoryCalls } from './memoryCalls';
import { textureCalls } from './textureCalls';
import { Registrations } from './registration';

type Implementation = (...args: number[]) => number | void;
type Fn = (...args: number[]) => number;

/** Registration of a unit compiled as relocatable device code: the name ends with the unit's module id. */
const LINKED_BINARY = /^__cudaRegisterLinkedBinary_/;

/** The `env` imports of a module, and the registration tables they fill. */
export function cudaImports(ctx: HostContext, imports: WasmImport[]): { env: Record<string, unknown>; registrations: Registrations } {
  const registrations = new Registrations(ctx);
  const launches = launchCalls(ctx, registrations);
  const textures = textureCalls(ctx);
  const calls = {
    ...registrations.imports(),
    ...memoryCalls(ctx, registrations),
    ...textures.calls,
    ...launches.calls,
    ...deviceCalls(ctx),
  };
  // Graphs come last: they record the stream-ordered calls above while a stream is captured.
  const known: Record<string, Implementation> = { ...calls, ...graphCalls(ctx, { prepareLaunch: launches.prepare, prepareCopy3D: textures.prepareCopy3D, dim3: launches.dim3, calls: calls as Record<string, Fn> }) };
  const env: Record<string, unknown> = {};
  for (const imp of imports) {
    if (imp.module !== 'env' || imp.kind !== 'function') continue;
    const impl = Object.prototype.hasOwnProperty.call(known, imp.name) ? known[imp.name] : LINKED_BINARY.test(imp.name) ? registrations.linkedBinary : undefined;
    env[imp.name] = impl ? adapt(ctx, impl, imp.type) : refuse(ctx, imp.name);
  }
  return { env, registrations };
}

/**
 * An implementation as the module calls it: 64-bit arguments arrive as BigInt and are passed
 * on as numbers, the result is given the import's declared type, and findings the runtime
 * recorded during the call are located at the call.
 */
function adapt(ctx: HostContext, impl: Implementation, type: FunctionType | undefined): (...args: unknown[]) => unknown {
  const result = type?.results[0];
  return (...args: unknown[]) => {
    // The program may have grown its memory since the last call (a new buffer).
    ctx.linear.refresh();
    const before = ctx.runtime.findings.length;
    const r = impl(...args.map((a) => (typeof a === 'bigint' ? Number(a) : (a as number))));
    if (ctx.runtime.findings.length !== before) locateRuntimeFindings(ctx, before);
    if (result === undefined) return undefined;
    const n = typeof r === 'number' ? r : 0;
    if (result === 'i64') return BigInt(Math.trunc(n));
    return result === 'i32' ? n | 0 : n;
  };
}

function refuse(ctx: HostContext, name: string): () => never {
  return () => {
    const { range, site } = callSite(ctx);
    throw new HostStop({ kind: 'not-supported', message: `not supported: ${unsupportedFeature(name)}${placeText(site)}`, ...(range ? { range } : {}) }, 2);
  };
}

/** What a function the simulator does not provide is, for the `not supported: …` message. */
export function unsupportedFeature(name: string): string {
  const groups: [RegExp, string][] = [
    [/^cuda(Graphics|GL|D3D|EGL|VDPAU|NvSci)/, 'graphics interoperability'],
    [/^cudaIpc/, 'interprocess memory sharing'],
    [/^cuda(DeviceEnablePeerAccess|DeviceDisablePeerAccess|MemcpyPeer|Memcpy3DPeer|LaunchCooperativeKernelMultiDevice)/, 'access between several GPUs'],
    [/^cuda(ImportExternal|ExternalMemory|SignalExternal|WaitExternal|DestroyExternal)/, 'external resources'],
    [/^cuda(Graph|StreamBeginCapture|StreamEndCapture|UserObject|DeviceGraphMem|StreamGetCaptureInfo|StreamUpdateCaptureDependencies|ThreadExchangeStreamCaptureMode)/, 'CUDA graphs'],
    [/^cuda(MemPool|DeviceGetDefaultMemPool|DeviceSetMemPool|DeviceGetMemPool)/, 'memory pools'],
    [/^cuda(MallocMipmappedArray|FreeMipmappedArray|GetMipmappedArrayLevel|MipmappedArray)/, 'mipmapped arrays'],
    [/^cuda(BindTexture|UnbindTexture|GetTextureReference|GetTextureAlignmentOffset|BindSurface|GetSurfaceReference)/, 'texture and surface references'],
    [/^cuda(GetDriverEntryPoint|GetExportTable|GetFuncBySymbol|GetKernel)/, 'the CUDA driver API'],
    [/^cu[A-Z]/, 'the CUDA driver API'],
    [/^__cudaRegister(Texture|Surface)/, 'texture and surface references'],
    [/^cublas/, 'the cuBLAS library'],
    [/^cufft/, 'the cuFFT library'],
    [/^cusparse/, 'the cuSPARSE library'],
    [/^cusolver/, 'the cuSOLVER library'],
    [/^curand/, 'the cuRAND host library'],
    [/^nvrtc/, 'runtime compilation (NVRTC)'],
    [/^nvtx/, 'NVTX annotations'],
    [/^(fork|vfork|wait|waitpid|waitid|execl|execlp|execle|execv|execve|execvp|posix_spawn|posix_spawnp|kill|pipe|pipe2|socket|socketpair|shm_open|shm_unlink|sem_open|popen|system)$/, 'processes and interprocess communication'],
    [/^(cuda|__cuda)/, 'a CUDA runtime function the simulator does not provide'],
    [/^(__cxa_(allocate_exception|free_exception|throw|rethrow|begin_catch|end_catch|current_exception_type|get_exception_ptr|call_unexpected)|_Unwind_\w+|__gxx_personality_v0)$/, 'C++ exceptions: the host program runs with a C++ library built without them'],
  ];
  for (const [re, what] of groups) if (re.test(name)) return `${name} (${what})`;
  return `${name} (a function that no file of the program defines)`;
}
