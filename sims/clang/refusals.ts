// clang errors that are not mistakes in the program but features the simulated machine does not
// have: a header of a library or an operating-system facility that neither the WASI sysroot nor
// the project's CUDA headers provide (Boost, cuFFT, OpenGL, fork and wait, Windows), and nvcc's
// leniency that clang does not share. They are reported as one located `not supported: …`
// naming the feature, with clang's own words after it, so a user (and the corpus tables) can
// tell "the simulator cannot run this" from "this does not compile".
import type { ClangDiagnostic } from './toolchain/diagnostics';

/** A header path (as the #include wrote it) and the feature it belongs to. */
const MISSING_HEADERS: readonly [RegExp, string][] = [
  [/^boost\//, 'the Boost C++ libraries'],
  [/^thrust\//, 'this part of Thrust (the project ships its containers, device pointers and common algorithms)'],
  [/^cub\//, 'the CUB library'],
  [/^cufftw?(?:XT)?\.h$/i, 'the cuFFT library'],
  [/^cusparse/, 'the cuSPARSE library'],
  [/^cusolver/, 'the cuSOLVER library'],
  [/^cudnn/, 'the cuDNN library'],
  [/^npp/, 'the NPP library'],
  [/^nvjpeg/, 'the nvJPEG library'],
  [/^nvrtc\.h$/, 'runtime compilation (NVRTC)'],
  [/^(?:GL|GLES\d*|GLUT|OpenGL|EGL|GLFW|X11|vulkan)\//, 'graphics interoperability (OpenGL, EGL, X11, Vulkan)'],
  [/^(?:d3d\d*|dxgi|d3dx\d*)/i, 'graphics interoperability (Direct3D)'],
  [/^sys\/(?:wait|ipc|shm|sem|msg)\.h$/, 'several host processes (fork, wait, System V IPC; the simulated host program is one process)'],
  [/^mpi\.h$/, 'MPI (several host processes)'],
  [/^(?:windows|winternl|tchar|strsafe|shlobj|shellapi|sddl|aclapi|mmsystem|commctrl|initguid|crtdbg|xinput|_mingw)\.h$/i, 'the Windows API'],
];

const HEADER_NOT_FOUND = /^'([^']+)' file not found$/;

/** The feature a clang error stands for, or undefined when it is the program's own error. */
export function refusedFeature(d: Pick<ClangDiagnostic, 'severity' | 'message'>): string | undefined {
  if (d.severity !== 'error') return undefined;
  const header = HEADER_NOT_FOUND.exec(d.message)?.[1];
  if (header !== undefined) {
    const known = MISSING_HEADERS.find(([path]) => path.test(header));
    return known ? `${known[1]} (<${header}>)` : undefined;
  }
  // nvcc passes inline PTX such as "mov.u64 %0, %globaltimer;" through as written; clang wants
  // a register name's % written %% and refuses the string. The sources are mended before clang
  // reads them (../toolchain/inlineAsm.ts); what is left is an escape that mending cannot read.
  if (d.message === 'invalid % escape in inline assembly string') return "a PTX register named with a single '%' in inline assembly (nvcc accepts it; write '%%')";
  return undefined;
}
