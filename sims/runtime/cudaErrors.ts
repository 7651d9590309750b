// The CUDA runtime's error codes the simulator returns, with the strings cudaGetErrorString
// gives for them (CUDA 12), and which of them are sticky: after a device fault the context
// is unusable and every later call reports the fault.

export const CUDA_ERRORS = {
  cudaSuccess: { code: 0, text: 'no error', sticky: false },
  cudaErrorInvalidValue: { code: 1, text: 'invalid argument', sticky: false },
  cudaErrorMemoryAllocation: { code: 2, text: 'out of memory', sticky: false },
  cudaErrorInvalidConfiguration: { code: 9, text: 'invalid configuration argument', sticky: false },
  cudaErrorInvalidSymbol: { code: 13, text: 'invalid device symbol', sticky: false },
  cudaErrorInvalidDevicePointer: { code: 17, text: 'invalid device pointer', sticky: false },
  cudaErrorInvalidMemcpyDirection: { code: 21, text: 'invalid copy direction for memcpy', sticky: false },
  cudaErrorMissingConfiguration: { code: 52, text: '__global__ function call is not configured', sticky: false },
  cudaErrorInvalidDeviceFunction: { code: 98, text: 'invalid device function', sticky: false },
  cudaErrorInvalidDevice: { code: 101, text: 'invalid device ordinal', sticky: false },
  cudaErrorInvalidResourceHandle: { code: 400, text: 'invalid resource handle', sticky: false },
  cudaErrorIllegalState: { code: 401, text: 'the operation is not allowed in the present state', sticky: false },
  cudaErrorNotReady: { code: 600, text: 'device not ready', sticky: false },
  cudaErrorIllegalAddress: { code: 700, text: 'an illegal memory access was encountered', sticky: true },
  cudaErrorAssert: { code: 710, text: 'device-side assert triggered', sticky: true },
  cudaErrorHostMemoryAlreadyRegistered: { code: 712, text: 'part or all of the requested memory range is already mapped', sticky: false },
  cudaErrorHostMemoryNotRegistered: { code: 713, text: 'pointer does not correspond to a registered memory region', sticky: false },
  cudaErrorMisalignedAddress: { code: 716, text: 'misaligned address', sticky: true },
  cudaErrorLaunchFailure: { code: 719, text: 'unspecified launch failure', sticky: true },
  cudaErrorNotSupported: { code: 801, text: 'operation not supported', sticky: false },
  cudaErrorStreamCaptureUnsupported: { code: 900, text: 'operation not supported on a stream being captured', sticky: false },
  cudaErrorStreamCaptureUnmatched: { code: 903, text: 'the capture was not begun in this stream', sticky: false },
  cudaErrorStreamCaptureIsolation: { code: 905, text: 'the operation would merge two separate captures', sticky: false },
} as const;

export type CudaErrorName = keyof typeof CUDA_ERRORS;

export function cudaErrorString(code: number): string {
  for (const e of Object.values(CUDA_ERRORS)) if (e.code === code) return e.text;
  return 'unrecognized error code';
}

export function cudaErrorName(code: number): string {
  for (const [name, e] of Object.entries(CUDA_ERRORS)) if (e.code === code) return name;
  return 'cudaErrorUnknown';
}
