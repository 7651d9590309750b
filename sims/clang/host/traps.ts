// A host program that traps (an access outside its linear memory, abort(), a failed assert,
// an integer division by zero, a runaway recursion) ends its run with one finding at the place
// it happened, never with an exception out of the simulator. Device memory lies above the
// linear memory (sims/gpu/flat.ts), so host code dereferencing a device pointer traps with an
// out-of-bounds access — the most common cause of that trap in a CUDA program.
import type { Range } from '../../frontend/source';
import type { DebugLocation } from '../llvm/module';
import type { Finding } from './hostContext';
import type { HostSite, HostSites } from './hostSites';

export interface TrapOutcome {
  finding: Finding;
  exitCode: number;
}

/** Exit statuses of a native program killed by the matching signal (128 + SIGABRT, SIGFPE, SIGSEGV). */
const EXIT_ABORT = 134;
const EXIT_FPE = 136;
const EXIT_SEGV = 139;

/** The memory access at module offset `offset`, decoded from its opcode: `a 4-byte read`. */
function accessAt(module: Uint8Array, offset: number): string | undefined {
  const op = module[offset];
  const loads: Record<number, number> = { 0x28: 4, 0x29: 8, 0x2a: 4, 0x2b: 8, 0x2c: 1, 0x2d: 1, 0x2e: 2, 0x2f: 2, 0x30: 1, 0x31: 1, 0x32: 2, 0x33: 2, 0x34: 4, 0x35: 4 };
  const stores: Record<number, number> = { 0x36: 4, 0x37: 8, 0x38: 4, 0x39: 8, 0x3a: 1, 0x3b: 2, 0x3c: 1, 0x3d: 2, 0x3e: 4 };
  const article = (n: number): string => (n === 8 ? 'an' : 'a');
  if (op in loads) return `${article(loads[op])} ${loads[op]}-byte read`;
  if (op in stores) return `${article(stores[op])} ${stores[op]}-byte write`;
  if (op === 0xfc && (module[offset + 1] === 10 || module[offset + 1] === 11)) return module[offset + 1] === 10 ? 'a block copy' : 'a block fill';
  return undefined;
}

/**
 * The finding for an error thrown out of the program, or undefined when it is not the
 * program's (an error of the simulator itself, to be rethrown).
 */
export function trapFinding(
  e: unknown,
  o: { module: Uint8Array; sites: HostSites; rangeOf: (loc: DebugLocation | undefined) => Range; stderr: () => string; hasDeviceMemory: boolean },
): TrapOutcome | undefined {
  const stackOverflow = e instanceof RangeError && /call stack/i.test(e.message);
  if (!(e instanceof WebAssembly.RuntimeError) && !stackOverflow) return undefined;
  const error = e as Error;
  const site = o.sites.site(error.stack);
  const at = (s: HostSite): { range?: Range } => (s.location ? { range: o.rangeOf(s.location) } : {});
  const where = site.location ? (site.inside ? ` (in ${site.inside})` : '') : site.function ? ` (in function '${site.function}')` : '';
  if (stackOverflow) {
    return { finding: { kind: 'stack-overflow', message: `host code: the call stack overflowed (unbounded recursion?)${where}`, ...at(site) }, exitCode: EXIT_SEGV };
  }
  const message = error.message;
  if (/out of bounds/.test(message) && /memory/.test(message)) {
    const top = o.sites.frames(error.stack)[0];
    const access = top ? accessAt(o.module, top.offset) : undefined;
    const what = access ? `${access} outside the host program's memory` : `an access outside the host program's memory`;
    const kind = o.hasDeviceMemory ? 'host-dereferences-device' : 'out-of-bounds';
    const why = o.hasDeviceMemory
      ? ': the address is most likely a device pointer, which host code cannot dereference (copy the data with cudaMemcpy, or allocate it with cudaMallocManaged)'
      : ': a stray or uninitialised pointer';
    return { finding: { kind, message: `host code: ${what}${why}${where}`, ...at(site) }, exitCode: EXIT_SEGV };
  }
  if (/unreachable/.test(message)) {
    // abort() and __assert_fail are the C library's: the place is the program's call.
    const where = site.location ? '' : site.function ? ` (in function '${site.function}')` : '';
    const assertion = /Assertion failed[^\n]*/.exec(o.stderr());
    if (assertion) return { finding: { kind: 'assertion-failed', message: `host code: ${assertion[0].trim()}${where}`, ...at(site) }, exitCode: EXIT_ABORT };
    // libc++ built without exceptions aborts where it would throw, and says what it threw.
    const thrown = /(\S+) was thrown in -fno-exceptions mode(?: with error \d+)?(?: and message "([^"]*)")?/.exec(o.stderr());
    if (thrown) {
      const what = thrown[2] !== undefined ? `${thrown[1]} ("${thrown[2]}")` : thrown[1];
      const feature = /^thread /.test(thrown[2] ?? '') ? 'std::thread (the host program runs on one thread)' : `C++ exceptions (the standard library threw ${what}, and the host program runs with a C++ library built without them)`;
      return { finding: { kind: 'not-supported', message: `not supported: ${feature}${where}`, ...at(site) }, exitCode: 2 };
    }
    return { finding: { kind: 'host-abort', message: `host code called abort() or reached unreachable code${where}`, ...at(site) }, exitCode: EXIT_ABORT };
  }
  if (/divide by zero|remainder by zero/.test(message)) {
    return { finding: { kind: 'host-trap', message: `host code: integer division by zero${where}`, ...at(site) }, exitCode: EXIT_FPE };
  }
  if (/integer overflow/.test(message)) {
    return { finding: { kind: 'host-trap', message: `host code: integer division overflow (the most negative value divided by -1)${where}`, ...at(site) }, exitCode: EXIT_FPE };
  }
  return { finding: { kind: 'host-trap', message: `host code trapped: ${message}${where}`, ...at(site) }, exitCode: EXIT_SEGV };
}
