// The rest of the CUDA runtime a host program calls: errors, the (one) device and its
// properties, streams and events, versions and limits. Launches are synchronous, so a stream is
// only a handle and synchronising is immediate; an event records the simulated clock, so
// cudaEventElapsedTime measures the simulated work between two records (reproducibly).
import { cudaErrorName, cudaErrorString } from '../../runtime/cudaErrors';
import { deviceAttribute, writeDeviceProp, devicePropLayout } from '../../runtime/deviceProperties';
import { callHostFunction, type HostContext } from './hostContext';

type Fn = (...args: number[]) => number;

/** cudaRuntimeGetVersion and cudaDriverGetVersion (the headers present CUDA 12.8). */
const CUDA_VERSION = 12080;
/** cudaDeviceGetStreamPriorityRange: least and greatest priority. */
const STREAM_PRIORITIES = [0, -5];

export function deviceCalls(ctx: HostContext): Record<string, Fn> {
  const { runtime, linear, device, clock } = ctx;
  const ok = (): number => runtime.status('cudaSuccess');
  const invalid = (): number => runtime.status('cudaErrorInvalidValue');
  const badHandle = (): number => runtime.status('cudaErrorInvalidResourceHandle');
  const writeInt = (out: number, value: number): number => {
    if (!linear.contains(out, 4)) return invalid();
    linear.setU32(out, value);
    return ok();
  };

  const strings = new Map<string, number>();
  const stringOf = (text: string): number => {
    let at = strings.get(text);
    if (at === undefined) {
      at = linear.string(text);
      strings.set(text, at);
    }
    return at;
  };

  // Handles are small distinct numbers; 0 is the default stream.
  let nextHandle = 0x100;
  const streams = new Map<number, { flags: number; priority: number }>();
  const events = new Map<number, { time?: bigint }>();
  let deviceFlags = 0;

  const createStream = (out: number, flags: number, priority: number): number => {
    if (!linear.contains(out, 4)) return invalid();
    const h = nextHandle++;
    streams.set(h, { flags, priority });
    linear.setU32(out, h);
    return ok();
  };
  const createEvent = (out: number): number => {
    if (!linear.contains(out, 4)) return invalid();
    const h = nextHandle++;
    events.set(h, {});
    linear.setU32(out, h);
    return ok();
  };
  const knownStream = (s: number): boolean => s === 0 || s === 1 || s === 2 || streams.has(s);
  const recordEvent = (e: number, s: number): number => {
    const ev = events.get(e);
    if (!ev || !knownStream(s)) return badHandle();
    ev.time = clock.monotonic();
    return ok();
  };
  const callHost = (index: number, ...args: number[]): void => callHostFunction(ctx, index, ...args);

  return {
    cudaGetLastError: () => runtime.getLastError(),
    cudaPeekAtLastError: () => runtime.peekAtLastError(),
    cudaGetErrorString: (code) => stringOf(cudaErrorString(code)),
    cudaGetErrorName: (code) => stringOf(cudaErrorName(code)),

    cudaGetDeviceCount: (out) => writeInt(out, 1),
    cudaGetDevice: (out) => writeInt(out, 0),
    cudaSetDevice: (d) => (d === 0 ? ok() : runtime.status('cudaErrorInvalidDevice')),
    cudaInitDevice: (d) => (d === 0 ? ok() : runtime.status('cudaErrorInvalidDevice')),
    cudaChooseDevice: (out) => writeInt(out, 0),
    cudaSetValidDevices: () => ok(),
    cudaSetDeviceFlags: (flags) => {
      deviceFlags = flags;
      return ok();
    },
    cudaGetDeviceFlags: (out) => writeInt(out, deviceFlags),
    cudaGetDeviceProperties: (out, d) => {
      if (d !== 0) return runtime.status('cudaErrorInvalidDevice');
      if (!linear.contains(out, devicePropLayout().size)) return invalid();
      writeDeviceProp(linear.view(), out, device, runtime.memoryLimit);
      return ok();
    },
    cudaGetDeviceProperties_v2: (out, d) => {
      if (d !== 0) return runtime.status('cudaErrorInvalidDevice');
      if (!linear.contains(out, devicePropLayout().size)) return invalid();
      writeDeviceProp(linear.view(), out, device, runtime.memoryLimit);
      return ok();
    },
    cudaDeviceGetAttribute: (out, attr, d) => {
      if (d !== 0) return runtime.status('cudaErrorInvalidDevice');
      const v = deviceAttribute(device, runtime.memoryLimit, attr);
      if (v === undefined) return invalid();
      return writeInt(out, v);
    },
    cudaDeviceGetPCIBusId: (out, len) => {
      const text = new TextEncoder().encode('0000:00:00.0\0');
      if (len < text.length || !linear.contains(out, text.length)) return invalid();
      linear.bytes(out, text.length).set(text);
      return ok();
    },
    cudaDeviceCanAccessPeer: (out) => writeInt(out, 0),
    cudaDeviceGetStreamPriorityRange: (least, greatest) => {
      if (least && linear.contains(least, 4)) linear.setU32(least, STREAM_PRIORITIES[0]);
      if (greatest && linear.contains(greatest, 4)) linear.setU32(greatest, STREAM_PRIORITIES[1]);
      return ok();
    },
    cudaDeviceSetLimit: (limit, value) => (runtime.setLimit(limit, value) ? ok() : invalid()),
    cudaDeviceGetLimit: (out, limit) => {
      const value = runtime.limit(limit);
      return value === undefined ? invalid() : writeInt(out, value);
    },
    // The deprecated forms do not check the limit.
    cudaThreadSetLimit: (limit, value) => (runtime.setLimit(limit, value), ok()),
    cudaThreadGetLimit: (out, limit) => writeInt(out, runtime.limit(limit) ?? 0),
    cudaDeviceSetCacheConfig: ok,
    cudaDeviceGetCacheConfig: (out) => writeInt(out, 0),
    cudaDeviceSetSharedMemConfig: ok,
    cudaDeviceGetSharedMemConfig: (out) => writeInt(out, 1),
    cudaThreadSetCacheConfig: ok,
    cudaThreadGetCacheConfig: (out) => writeInt(out, 0),
    cudaDeviceSynchronize: ok,
    cudaThreadSynchronize: ok,
    cudaDeviceReset: ok,
    cudaThreadExit: ok,
    cudaProfilerStart: ok,
    cudaProfilerStop: ok,
    cudaRuntimeGetVersion: (out) => writeInt(out, CUDA_VERSION),
    cudaDriverGetVersion: (out) => writeInt(out, CUDA_VERSION),

    cudaStreamCreate: (out) => createStream(out, 0, 0),
    cudaStreamCreateWithFlags: (out, flags) => createStream(out, flags, 0),
    cudaStreamCreateWithPriority: (out, flags, priority) => createStream(out, flags, priority),
    cudaStreamDestroy: (s) => (streams.delete(s) ? ok() : badHandle()),
    cudaStreamSynchronize: (s) => (knownStream(s) ? ok() : badHandle()),
    cudaStreamQuery: (s) => (knownStream(s) ? ok() : badHandle()),
    cudaStreamWaitEvent: (s, e) => (knownStream(s) && events.has(e) ? ok() : badHandle()),
    cudaStreamGetFlags: (s, out) => (knownStream(s) ? writeInt(out, streams.get(s)?.flags ?? 0) : badHandle()),
    cudaStreamGetPriority: (s, out) => (knownStream(s) ? writeInt(out, streams.get(s)?.priority ?? 0) : badHandle()),
    cudaStreamGetDevice: (s, out) => (knownStream(s) ? writeInt(out, 0) : badHandle()),
    cudaStreamIsCapturing: (s, out) => (knownStream(s) ? writeInt(out, 0) : badHandle()),
    // Work before it is done (launches are synchronous): the callback runs now.
    cudaStreamAddCallback: (s, callback, userData) => {
      if (!knownStream(s)) return badHandle();
      callHost(callback, s, 0, userData);
      return ok();
    },
    cudaLaunchHostFunc: (s, fn, userData) => {
      if (!knownStream(s)) return badHandle();
      callHost(fn, userData);
      return ok();
    },

    cudaEventCreate: (out) => createEvent(out),
    cudaEventCreateWithFlags: (out) => createEvent(out),
    cudaEventRecord: (e, s) => recordEvent(e, s),
    cudaEventRecordWithFlags: (e, s) => recordEvent(e, s),
    cudaEventQuery: (e) => (events.has(e) ? ok() : badHandle()),
    cudaEventSynchronize: (e) => (events.has(e) ? ok() : badHandle()),
    cudaEventDestroy: (e) => (events.delete(e) ? ok() : badHandle()),
    cudaEventElapsedTime: (out, start, end) => {
      const a = events.get(start);
      const b = events.get(end);
      if (!a || !b) return badHandle();
      if (a.time === undefined || b.time === undefined) return runtime.status('cudaErrorNotReady');
      if (!linear.contains(out, 4)) return invalid();
      linear.view().setFloat32(out, Number(b.time - a.time) / 1e6, true);
      return ok();
    },
  };
}
