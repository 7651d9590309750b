// Where the program's files sit inside clang's file system, and back.
//
// clang in WebAssembly sees only the file tree it is given, with its own sysroot mounted at
// /usr. A real file is mounted at its own absolute path, so clang's messages and the IR's
// !DIFile names already read as the real paths; the few paths that cannot be mounted as they
// are (under /usr, which the sysroot hides, and Windows drive or UNC paths) go under a reserved
// folder and are translated back. Files the toolchain makes itself (the precompiled header,
// the GPU-binary placeholder, objects to link) live in the reserved folder too. The project's
// own CUDA headers are mounted at one fixed folder wherever they are installed, so that what
// clang makes of them (a precompiled header) does not depend on where the extension sits.

/** The reserved folder: nothing of the user's is mounted here as itself. */
const RESERVED = '/.scord';
/** Real POSIX paths that clang cannot see at their own place. */
const MOVED = `${RESERVED}/host`;
const DRIVE = `${RESERVED}/drive`;
const UNC = `${RESERVED}/unc`;
/** Files the toolchain generates. */
export const GENERATED = `${RESERVED}/gen`;
/** Where the project's CUDA headers are mounted. */
export const PROJECT_HEADERS = `${RESERVED}/include`;

/** The real folder of the project's CUDA headers, once the toolchain has named it (mountProjectHeaders). */
let projectHeaders: string | undefined;

/** Mounts the project's header folder (a real absolute path) at PROJECT_HEADERS from now on. */
export function mountProjectHeaders(real: string): void {
  projectHeaders = real.replace(/[\\/]+$/, '');
}

/** A real absolute path (POSIX or Windows) as clang sees it. */
export function toVirtual(real: string): string {
  if (projectHeaders !== undefined && (real === projectHeaders || real.startsWith(projectHeaders + '/') || real.startsWith(projectHeaders + '\\'))) {
    return PROJECT_HEADERS + slashes(real.slice(projectHeaders.length));
  }
  if (real.startsWith('/')) {
    const first = real.split('/')[1] ?? '';
    return first === 'usr' || first.startsWith('.scord') ? `${MOVED}${real}` : real;
  }
  const drive = /^([A-Za-z]):[\\/]?(.*)$/s.exec(real);
  if (drive) return `${DRIVE}/${drive[1]}/${slashes(drive[2])}`.replace(/\/+$/, '');
  const unc = /^[\\/]{2}([^\\/]+)[\\/]+(.*)$/s.exec(real);
  if (unc) return `${UNC}/${unc[1]}/${slashes(unc[2])}`.replace(/\/+$/, '');
  // Not absolute: callers resolve paths first; keep it recognisable rather than guess.
  return `${RESERVED}/relative/${slashes(real)}`;
}

/** A path clang printed, as the real path it stands for (paths outside the mapping stay). */
export function toReal(virtual: string): string {
  if (projectHeaders !== undefined && (virtual === PROJECT_HEADERS || virtual.startsWith(`${PROJECT_HEADERS}/`))) {
    const rest = virtual.slice(PROJECT_HEADERS.length);
    return projectHeaders + (/^[A-Za-z]:/.test(projectHeaders) ? rest.replace(/\//g, '\\') : rest);
  }
  if (virtual.startsWith(`${MOVED}/`)) return virtual.slice(MOVED.length);
  if (virtual.startsWith(`${DRIVE}/`)) {
    const [letter, ...rest] = virtual.slice(DRIVE.length + 1).split('/');
    return `${letter}:\\${rest.join('\\')}`;
  }
  if (virtual.startsWith(`${UNC}/`)) return `\\\\${virtual.slice(UNC.length + 1).split('/').join('\\')}`;
  return virtual;
}

/** Every mapped path inside a message (`'/.scord/host/usr/x.h' file not found`), made real. */
export function realizeText(text: string): string {
  if (!text.includes(RESERVED)) return text;
  return text.replace(/\/\.scord\/(?:host|drive|unc|include)\/[^\s'"`:,;()<>]*/g, (p) => toReal(p));
}

function slashes(p: string): string {
  return p.replace(/\\/g, '/');
}

/** A file tree as @yowasp/clang takes it: folders are objects, files are bytes. */
export interface FileTree {
  [name: string]: FileTree | Uint8Array;
}

/** Puts `bytes` at the virtual absolute path `at` of `tree`, creating folders on the way. */
export function mount(tree: FileTree, at: string, bytes: Uint8Array): void {
  const parts = at.split('/').filter((p) => p !== '');
  let folder = tree;
  for (const part of parts.slice(0, -1)) {
    const next = folder[part];
    if (next instanceof Uint8Array) return; // a file where a folder is needed: clang cannot see this path either
    folder = (folder[part] ??= {}) as FileTree;
  }
  const name = parts[parts.length - 1];
  if (name !== undefined && !(folder[name] && !(folder[name] instanceof Uint8Array))) folder[name] = bytes;
}

/** The file at the virtual absolute path `at` of a tree clang returned, if it is one. */
export function fileAt(tree: unknown, at: string): Uint8Array | undefined {
  let node = tree;
  for (const part of at.split('/').filter((p) => p !== '')) {
    if (!node || typeof node !== 'object' || node instanceof Uint8Array) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  if (node instanceof Uint8Array) return node;
  if (typeof node === 'string') return new TextEncoder().encode(node);
  return undefined;
}
