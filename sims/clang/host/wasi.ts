// WASI preview 1 for a simulated host program, with the capabilities chosen here rather than
// by Node's `node:wasi`: argv and environment as given, stdout and stderr captured into the
// run's output (in order with device printf), stdin from bytes given up front, a simulated
// clock and a seeded random source (a run is reproducible), and the sandbox's files
// (./sandboxFiles). There is no network, no process, and no path of the machine outside the
// sandbox. Every call not implemented here answers ENOSYS.
import { seededRandom } from '../../values/random';
import { truncate, writeAt, type FileData, type SandboxFiles } from './sandboxFiles';
import { CLOCK_READ_NS, type SimClock } from './simClock';

/** The program called exit() (or returned from main): the run ends with this status. */
export class ProcExit extends Error {
  constructor(readonly status: number) {
    super(`exit(${status})`);
  }
}

export const ERRNO = { success: 0, badf: 8, exist: 20, inval: 28, io: 29, isdir: 31, noent: 44, nosys: 52, notdir: 54, notempty: 55, spipe: 70, notcapable: 76 } as const;

const FILETYPE = { characterDevice: 2, directory: 3, regularFile: 4 } as const;

const RIGHT = {
  fdRead: 1n << 1n,
  fdSeek: 1n << 2n,
  fdTell: 1n << 5n,
  fdWrite: 1n << 6n,
  pathCreateDirectory: 1n << 9n,
  pathCreateFile: 1n << 10n,
  pathOpen: 1n << 13n,
  fdReaddir: 1n << 14n,
  pathFilestatGet: 1n << 18n,
  fdFilestatGet: 1n << 21n,
  fdFilestatSetSize: 1n << 22n,
  pathUnlinkFile: 1n << 26n,
} as const;
const FILE_RIGHTS = RIGHT.fdRead | RIGHT.fdSeek | RIGHT.fdTell | RIGHT.fdWrite | RIGHT.fdFilestatGet | RIGHT.fdFilestatSetSize;
const DIR_RIGHTS = RIGHT.pathCreateDirectory | RIGHT.pathCreateFile | RIGHT.pathOpen | RIGHT.fdReaddir | RIGHT.pathFilestatGet | RIGHT.fdFilestatGet | RIGHT.pathUnlinkFile;

const OFLAG = { creat: 1, directory: 2, excl: 4, trunc: 8 } as const;
const FDFLAG_APPEND = 1;

type Stream = 'stdout' | 'stderr';

type Descriptor =
  | { kind: 'stdin'; pos: number }
  | { kind: 'output'; stream: Stream }
  | { kind: 'dir'; path: string; preopen?: string }
  | { kind: 'file'; path: string; file: FileData; pos: number; read: boolean; write: boolean; append: boolean };

export interface WasiOptions {
  /** argv; argv[0] is the program's name. */
  args: string[];
  env?: Record<string, string>;
  stdin?: Uint8Array;
  files: SandboxFiles;
  clock: SimClock;
  /** Seed of random_get. */
  seed: number;
  /** Receives what the program writes to stdout and stderr, decoded, as it flushes it. */
  write: (stream: Stream, text: string) => void;
  /** The program's linear memory (its buffer may be replaced when the memory grows). */
  memory: () => WebAssembly.Memory;
}

type Fn = (...args: never[]) => number | void;

export class Wasi {
  private readonly fds: (Descriptor | undefined)[];
  private readonly random: () => number;
  private readonly decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
  private readonly encoder = new TextEncoder();

  constructor(private readonly o: WasiOptions) {
    this.fds = [{ kind: 'stdin', pos: 0 }, { kind: 'output', stream: 'stdout' }, { kind: 'output', stream: 'stderr' }];
    for (const name of o.files.preopens()) this.fds.push({ kind: 'dir', path: '', preopen: name });
    this.random = seededRandom((o.seed * 2654435761) >>> 0);
  }

  /** Text still held by a decoder (an incomplete UTF-8 sequence at the end of the run). */
  flush(): void {
    for (const stream of ['stdout', 'stderr'] as const) {
      const rest = this.decoders[stream].decode();
      if (rest) this.o.write(stream, rest);
    }
  }

  /** The `wasi_snapshot_preview1` imports for `names` (the module's own list): unknown ones answer ENOSYS. */
  imports(names: string[]): Record<string, Fn> {
    const known = this.calls();
    const out: Record<string, Fn> = {};
    for (const name of names) out[name] = Object.prototype.hasOwnProperty.call(known, name) ? known[name] : () => ERRNO.nosys;
    return out;
  }

  private view(): DataView {
    return new DataView(this.o.memory().buffer);
  }

  private bytes(ptr: number, len: number): Uint8Array {
    return new Uint8Array(this.o.memory().buffer, ptr, len);
  }

  private string(ptr: number, len: number): string {
    return new TextDecoder().decode(this.bytes(ptr, len));
  }

  private calls(): Record<string, Fn> {
    const args = this.o.args.map((a) => this.encoder.encode(`${a}\0`));
    const env = Object.entries(this.o.env ?? {}).map(([k, v]) => this.encoder.encode(`${k}=${v}\0`));
    const listSizes = (list: Uint8Array[]) => (countPtr: number, sizePtr: number): number => {
      const v = this.view();
      v.setUint32(countPtr, list.length, true);
      v.setUint32(sizePtr, list.reduce((n, a) => n + a.length, 0), true);
      return ERRNO.success;
    };
    const listGet = (list: Uint8Array[]) => (ptrs: number, buf: number): number => {
      const v = this.view();
      let at = buf;
      list.forEach((a, i) => {
        v.setUint32(ptrs + i * 4, at, true);
        this.bytes(at, a.length).set(a);
        at += a.length;
      });
      return ERRNO.success;
    };
    return {
      args_sizes_get: listSizes(args),
      args_get: listGet(args),
      environ_sizes_get: listSizes(env),
      environ_get: listGet(env),
      clock_res_get: (_id: number, out: number): number => {
        this.view().setBigUint64(out, 1000n, true);
        return ERRNO.success;
      },
      clock_time_get: (id: number, _precision: bigint, out: number): number => {
        if (id < 0 || id > 3) return ERRNO.inval;
        this.o.clock.advance(CLOCK_READ_NS);
        this.view().setBigUint64(out, id === 0 ? this.o.clock.realtime() : this.o.clock.monotonic(), true);
        return ERRNO.success;
      },
      random_get: (buf: number, len: number): number => {
        const b = this.bytes(buf, len);
        for (let i = 0; i < len; i++) b[i] = Math.floor(this.random() * 256);
        return ERRNO.success;
      },
      proc_exit: (status: number): void => {
        throw new ProcExit(status);
      },
      sched_yield: (): number => ERRNO.success,
      poll_oneoff: (inPtr: number, outPtr: number, count: number, eventsPtr: number): number => this.pollOneoff(inPtr, outPtr, count, eventsPtr),
      fd_write: (fd: number, iovs: number, n: number, written: number): number => this.readWrite(fd, iovs, n, written, 'write'),
      fd_read: (fd: number, iovs: number, n: number, read: number): number => this.readWrite(fd, iovs, n, read, 'read'),
      fd_pwrite: (fd: number, iovs: number, n: number, offset: bigint, written: number): number => this.readWrite(fd, iovs, n, written, 'write', Number(offset)),
      fd_pread: (fd: number, iovs: number, n: number, offset: bigint, read: number): number => this.readWrite(fd, iovs, n, read, 'read', Number(offset)),
      fd_seek: (fd: number, offset: bigint, whence: number, out: number): number => {
        const d = this.fds[fd];
        if (!d) return ERRNO.badf;
        if (d.kind !== 'file') return d.kind === 'dir' ? ERRNO.isdir : ERRNO.spipe;
        const base = whence === 0 ? 0 : whence === 1 ? d.pos : whence === 2 ? d.file.size : NaN;
        const pos = base + Number(offset);
        if (!(pos >= 0)) return ERRNO.inval;
        d.pos = pos;
        this.view().setBigUint64(out, BigInt(pos), true);
        return ERRNO.success;
      },
      fd_tell: (fd: number, out: number): number => {
        const d = this.fds[fd];
        if (!d) return ERRNO.badf;
        if (d.kind !== 'file') return ERRNO.spipe;
        this.view().setBigUint64(out, BigInt(d.pos), true);
        return ERRNO.success;
      },
      fd_close: (fd: number): number => {
        const d = this.fds[fd];
        if (!d) return ERRNO.badf;
        // The standard streams and the preopened directories stay (closing them is harmless).
        if (d.kind === 'file' || (d.kind === 'dir' && d.preopen === undefined)) this.fds[fd] = undefined;
        return ERRNO.success;
      },
      fd_fdstat_get: (fd: number, out: number): number => {
        const d = this.fds[fd];
        if (!d) return ERRNO.badf;
        const v = this.view();
        // The standard streams are character devices without seek: libc treats them as a
        // terminal, so stdout is line-buffered and its lines interleave with device printf.
        const [type, rights, inheriting] =
          d.kind === 'stdin' ? [FILETYPE.characterDevice, RIGHT.fdRead, 0n]
          : d.kind === 'output' ? [FILETYPE.characterDevice, RIGHT.fdWrite, 0n]
          : d.kind === 'dir' ? [FILETYPE.directory, DIR_RIGHTS, DIR_RIGHTS | FILE_RIGHTS]
          : [FILETYPE.regularFile, FILE_RIGHTS, 0n];
        v.setUint8(out, type);
        v.setUint16(out + 2, d.kind === 'file' && d.append ? FDFLAG_APPEND : 0, true);
        v.setBigUint64(out + 8, rights, true);
        v.setBigUint64(out + 16, inheriting, true);
        return ERRNO.success;
      },
      fd_fdstat_set_flags: (fd: number): number => (this.fds[fd] ? ERRNO.success : ERRNO.badf),
      fd_sync: (fd: number): number => (this.fds[fd] ? ERRNO.success : ERRNO.badf),
      fd_datasync: (fd: number): number => (this.fds[fd] ? ERRNO.success : ERRNO.badf),
      fd_advise: (fd: number): number => (this.fds[fd] ? ERRNO.success : ERRNO.badf),
      fd_prestat_get: (fd: number, out: number): number => {
        const d = this.fds[fd];
        if (!d || d.kind !== 'dir' || d.preopen === undefined) return ERRNO.badf;
        const v = this.view();
        v.setUint8(out, 0);
        v.setUint32(out + 4, this.encoder.encode(d.preopen).length, true);
        return ERRNO.success;
      },
      fd_prestat_dir_name: (fd: number, buf: number, len: number): number => {
        const d = this.fds[fd];
        if (!d || d.kind !== 'dir' || d.preopen === undefined) return ERRNO.badf;
        const name = this.encoder.encode(d.preopen);
        this.bytes(buf, Math.min(len, name.length)).set(name.subarray(0, len));
        return ERRNO.success;
      },
      fd_filestat_get: (fd: number, out: number): number => {
        const d = this.fds[fd];
        if (!d) return ERRNO.badf;
        const type = d.kind === 'file' ? FILETYPE.regularFile : d.kind === 'dir' ? FILETYPE.directory : FILETYPE.characterDevice;
        this.writeFilestat(out, type, d.kind === 'file' ? d.file.size : 0, fd);
        return ERRNO.success;
      },
      fd_filestat_set_size: (fd: number, size: bigint): number => {
        const d = this.fds[fd];
        if (!d) return ERRNO.badf;
        if (d.kind !== 'file' || !d.write) return ERRNO.inval;
        truncate(d.file, Number(size));
        return ERRNO.success;
      },
      path_filestat_get: (fd: number, _flags: number, pathPtr: number, pathLen: number, out: number): number => {
        const rel = this.pathAt(fd, pathPtr, pathLen);
        if (typeof rel === 'number') return rel;
        const found = this.o.files.lookup(rel);
        if (found.kind === 'escapes') return ERRNO.notcapable;
        if (found.kind === 'missing') return ERRNO.noent;
        this.writeFilestat(out, found.kind === 'file' ? FILETYPE.regularFile : FILETYPE.directory, found.kind === 'file' ? found.file.size : 0, 0);
        return ERRNO.success;
      },
      path_open: (fd: number, _dirflags: number, pathPtr: number, pathLen: number, oflags: number, rightsBase: bigint, _rightsInheriting: bigint, fdflags: number, out: number): number =>
        this.pathOpen(fd, pathPtr, pathLen, oflags, rightsBase, fdflags, out),
      path_create_directory: (fd: number, pathPtr: number, pathLen: number): number => {
        const rel = this.pathAt(fd, pathPtr, pathLen);
        if (typeof rel === 'number') return rel;
        return this.o.files.createDirectory(rel) ? ERRNO.success : ERRNO.exist;
      },
      path_unlink_file: (fd: number, pathPtr: number, pathLen: number): number => {
        const rel = this.pathAt(fd, pathPtr, pathLen);
        if (typeof rel === 'number') return rel;
        return this.o.files.unlink(rel) ? ERRNO.success : ERRNO.noent;
      },
    };
  }

  /** The sandbox path `path` names relative to directory descriptor `fd`, or an errno. */
  private pathAt(fd: number, pathPtr: number, pathLen: number): string | number {
    const d = this.fds[fd];
    if (!d) return ERRNO.badf;
    if (d.kind !== 'dir') return ERRNO.notdir;
    const rel = this.o.files.resolve(d.path, this.string(pathPtr, pathLen));
    return rel === undefined ? ERRNO.notcapable : rel;
  }

  private pathOpen(fd: number, pathPtr: number, pathLen: number, oflags: number, rightsBase: bigint, fdflags: number, out: number): number {
    const rel = this.pathAt(fd, pathPtr, pathLen);
    if (typeof rel === 'number') return rel;
    const write = (rightsBase & RIGHT.fdWrite) !== 0n;
    const read = (rightsBase & RIGHT.fdRead) !== 0n;
    const found = this.o.files.lookup(rel);
    if (found.kind === 'escapes') return ERRNO.notcapable;
    let descriptor: Descriptor;
    if (found.kind === 'directory') {
      if (write || oflags & OFLAG.trunc) return ERRNO.isdir;
      if (oflags & OFLAG.creat && oflags & OFLAG.excl) return ERRNO.exist;
      descriptor = { kind: 'dir', path: rel };
    } else if (oflags & OFLAG.directory) {
      return found.kind === 'missing' ? ERRNO.noent : ERRNO.notdir;
    } else {
      let file: FileData;
      if (found.kind === 'missing') {
        if (!(oflags & OFLAG.creat)) return ERRNO.noent;
        file = this.o.files.create(rel);
      } else {
        if (oflags & OFLAG.creat && oflags & OFLAG.excl) return ERRNO.exist;
        file = found.file;
        if (oflags & OFLAG.trunc) truncate(file, 0);
      }
      descriptor = { kind: 'file', path: rel, file, pos: 0, read, write, append: (fdflags & FDFLAG_APPEND) !== 0 };
    }
    let slot = this.fds.indexOf(undefined, 3);
    if (slot < 0) slot = this.fds.length;
    this.fds[slot] = descriptor;
    this.view().setUint32(out, slot, true);
    return ERRNO.success;
  }

  private readWrite(fd: number, iovs: number, count: number, resultPtr: number, op: 'read' | 'write', at?: number): number {
    const d = this.fds[fd];
    if (!d) return ERRNO.badf;
    const v = this.view();
    let total = 0;
    if (op === 'write') {
      if (d.kind === 'output') {
        for (let i = 0; i < count; i++) {
          const chunk = this.bytes(v.getUint32(iovs + i * 8, true), v.getUint32(iovs + i * 8 + 4, true));
          const text = this.decoders[d.stream].decode(chunk, { stream: true });
          if (text) this.o.write(d.stream, text);
          total += chunk.length;
        }
      } else if (d.kind === 'file' && d.write) {
        let pos = at ?? (d.append ? d.file.size : d.pos);
        for (let i = 0; i < count; i++) {
          const chunk = this.bytes(v.getUint32(iovs + i * 8, true), v.getUint32(iovs + i * 8 + 4, true));
          writeAt(d.file, pos, chunk);
          pos += chunk.length;
          total += chunk.length;
        }
        if (at === undefined) d.pos = pos;
      } else return d.kind === 'dir' ? ERRNO.isdir : ERRNO.badf;
    } else {
      let source: Uint8Array;
      let pos: number;
      if (d.kind === 'stdin') {
        source = this.o.stdin ?? new Uint8Array(0);
        pos = d.pos;
      } else if (d.kind === 'file' && d.read) {
        source = d.file.bytes.subarray(0, d.file.size);
        pos = at ?? d.pos;
      } else return d.kind === 'dir' ? ERRNO.isdir : ERRNO.badf;
      for (let i = 0; i < count && pos < source.length; i++) {
        const len = v.getUint32(iovs + i * 8 + 4, true);
        const n = Math.min(len, source.length - pos);
        this.bytes(v.getUint32(iovs + i * 8, true), n).set(source.subarray(pos, pos + n));
        pos += n;
        total += n;
      }
      if (at === undefined && (d.kind === 'stdin' || d.kind === 'file')) d.pos = pos;
    }
    v.setUint32(resultPtr, total, true);
    return ERRNO.success;
  }

  private writeFilestat(out: number, type: number, size: number, ino: number): void {
    const v = this.view();
    this.bytes(out, 64).fill(0);
    v.setBigUint64(out + 8, BigInt(ino), true);
    v.setUint8(out + 16, type);
    v.setBigUint64(out + 24, 1n, true);
    v.setBigUint64(out + 32, BigInt(size), true);
    const t = this.o.clock.realtime();
    v.setBigUint64(out + 40, t, true);
    v.setBigUint64(out + 48, t, true);
    v.setBigUint64(out + 56, t, true);
  }

  /** Clock subscriptions (sleep, nanosleep) move the simulated clock; nothing else is waited for. */
  private pollOneoff(inPtr: number, outPtr: number, count: number, eventsPtr: number): number {
    const v = this.view();
    let wait = 0n;
    let events = 0;
    for (let i = 0; i < count; i++) {
      const sub = inPtr + i * 48;
      const tag = v.getUint8(sub + 8);
      const ev = outPtr + events * 32;
      this.bytes(ev, 32).fill(0);
      v.setBigUint64(ev, v.getBigUint64(sub, true), true);
      v.setUint8(ev + 10, tag);
      if (tag === 0) {
        const timeout = v.getBigUint64(sub + 24, true);
        const absolute = (v.getUint16(sub + 40, true) & 1) !== 0;
        const id = v.getUint32(sub + 16, true);
        const now = id === 0 ? this.o.clock.realtime() : this.o.clock.monotonic();
        const d = absolute ? timeout - now : timeout;
        if (d > wait) wait = d;
      } else {
        v.setUint16(ev + 8, ERRNO.nosys, true);
      }
      events++;
    }
    this.o.clock.advance(wait);
    v.setUint32(eventsPtr, events, true);
    return ERRNO.success;
  }
}
