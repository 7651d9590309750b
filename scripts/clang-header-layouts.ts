// Writes sims/clang/include/layouts.json: the offset and size of every field of the runtime
// structures the simulator's host runtime reads or fills (cudaDeviceProp, cudaFuncAttributes,
// ...), as clang lays them out for the wasm32 host program, and the enumerators of the runtime's
// enumerations (cudaError names for cudaGetErrorName, cudaDeviceAttr, ...). It compiles a probe
// of offsetof() and sizeof() with the headers of sims/clang/include and reads the numbers back
// from the IR; the enumerators are read from driver_types.h.
//
//   node --import tsx scripts/clang-header-layouts.ts [--check]
//
// --check compares with the file instead of writing it (exit 1 when they differ).
import * as fs from 'node:fs';
import * as path from 'node:path';

const HEADERS = path.resolve(__dirname, '../sims/clang/include');
const OUT = path.join(HEADERS, 'layouts.json');

/** Structures with plain fields: their fields are read from driver_types.h. */
const PLAIN = [
  'cudaDeviceProp', 'cudaFuncAttributes', 'cudaPointerAttributes', 'cudaChannelFormatDesc', 'cudaPitchedPtr',
  'cudaExtent', 'cudaPos', 'cudaMemcpy3DParms', 'cudaMemcpy3DPeerParms', 'cudaMemsetParams', 'cudaKernelNodeParams',
  'cudaHostNodeParams', 'cudaMemLocation', 'cudaMemAccessDesc', 'cudaMemPoolProps', 'cudaMemAllocNodeParams',
  'cudaLaunchConfig_st', 'cudaLaunchAttribute', 'cudaTextureDesc', 'cudaAccessPolicyWindow',
  'cudaConditionalNodeParams', 'cudaResourceViewDesc',
];
/** Structures with unions inside: their fields are named here. */
const NESTED: Record<string, string[]> = {
  cudaResourceDesc: ['resType', 'res.array.array', 'res.mipmap.mipmap', 'res.linear.devPtr', 'res.linear.desc',
    'res.linear.sizeInBytes', 'res.pitch2D.devPtr', 'res.pitch2D.desc', 'res.pitch2D.width', 'res.pitch2D.height',
    'res.pitch2D.pitchInBytes'],
  cudaGraphNodeParams: ['type', 'kernel', 'memcpy', 'memset', 'host', 'graph', 'eventWait', 'eventRecord', 'alloc',
    'free', 'conditional'],
};

/** Enumerations whose enumerators the runtime needs, by name and value. */
const ENUMS = ['cudaError', 'cudaMemcpyKind', 'cudaDeviceAttr', 'cudaFuncAttribute', 'cudaFuncCache', 'cudaLimit',
  'cudaMemoryType', 'cudaComputeMode', 'cudaChannelFormatKind', 'cudaMemoryAdvise', 'cudaMemRangeAttribute',
  'cudaStreamCaptureStatus', 'cudaStreamCaptureMode', 'cudaGraphNodeType', 'cudaMemPoolAttr', 'cudaMemLocationType',
  'cudaMemAllocationType', 'cudaLaunchAttributeID', 'cudaResourceType', 'cudaTextureAddressMode',
  'cudaTextureFilterMode', 'cudaTextureReadMode', 'cudaGraphConditionalNodeType'];

/** `enum name { A = 1, B, ... };` of the header text, with each value (implicit ones counted on). */
function enumerators(header: string, name: string): Record<string, number> {
  const m = new RegExp(`enum ${name} \\{([\\s\\S]*?)\\};`).exec(header);
  if (!m) throw new Error(`enum ${name} not found in driver_types.h`);
  const values: Record<string, number> = {};
  let next = 0;
  for (const item of m[1].replace(/\/\*[\s\S]*?\*\//g, '').split(',')) {
    const e = /^\s*([A-Za-z_]\w*)\s*(?:=\s*(-?(?:0x[0-9a-fA-F]+|\d+)))?\s*$/.exec(item);
    if (!e) continue;
    const value = e[2] !== undefined ? Number(e[2]) : next;
    values[e[1]] = value;
    next = value + 1;
  }
  return values;
}

/** Field names of `struct name { ... };` in the header text (one level, no unions). */
function plainFields(header: string, name: string): string[] {
  const m = new RegExp(`struct ${name} \\{([\\s\\S]*?)\\n\\};`).exec(header);
  if (!m) throw new Error(`struct ${name} not found in driver_types.h`);
  const fields: string[] = [];
  for (const raw of m[1].split('\n')) {
    const line = raw.trim();
    if (!line.endsWith(';') || line.startsWith('/*')) continue;
    const decl = line.slice(0, -1).replace(/\[[^\]]*\]/g, '');
    const declarators = decl.split(',');
    const first = /([A-Za-z_]\w*)\s*$/.exec(declarators[0]);
    if (first) fields.push(first[1]);
    for (const more of declarators.slice(1)) {
      const id = /([A-Za-z_]\w*)\s*$/.exec(more);
      if (id) fields.push(id[1]);
    }
  }
  return fields;
}

function probe(structs: Record<string, string[]>): string {
  const lines = ['struct __probe_entry { const char *name; unsigned offset, size; };'];
  for (const [name, fields] of Object.entries(structs)) {
    const entries = [`{"", 0, sizeof(struct ${name})}`, ...fields.map((f) => `{"${f}", __builtin_offsetof(struct ${name}, ${f}), sizeof(((struct ${name} *)0)->${f})}`)];
    lines.push(`__probe_entry __probe_${name}[] = {${entries.join(', ')}};`);
  }
  return lines.join('\n') + '\n';
}

type Tree = { [name: string]: Tree | Uint8Array };
type YowaspClang = typeof import('@yowasp/clang', { with: { 'resolution-mode': 'import' } });
let clang: Promise<YowaspClang> | undefined;
async function runLLVM(...args: Parameters<YowaspClang['runLLVM']>): Promise<unknown> {
  clang ??= import('@yowasp/clang');
  const { runLLVM: run } = await clang;
  return run(args[0], args[1], { ...args[2], fetchProgress: () => undefined });
}
function load(dir: string): Tree {
  const t: Tree = {};
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t[e.name] = e.isDirectory() ? load(p) : new Uint8Array(fs.readFileSync(p));
  }
  return t;
}

async function main(): Promise<void> {
  const header = fs.readFileSync(path.join(HEADERS, 'driver_types.h'), 'utf8');
  const structs: Record<string, string[]> = {};
  for (const name of PLAIN) structs[name] = plainFields(header, name);
  Object.assign(structs, NESTED);
  const tree: Tree = { include: load(HEADERS), 'probe.cu': new TextEncoder().encode(probe(structs)) };
  let stderr = '';
  const out = (await runLLVM(['clang', '-cc1', '-triple', 'wasm32-unknown-wasip1', '-aux-triple', 'nvptx-nvidia-cuda',
    '-x', 'cuda', '-std=c++17', '-fgnuc-version=4.2.1', '-target-sdk-version=12.8', '-emit-llvm', '-I', '/include',
    '-internal-isystem', '/usr/include/cuda_wrappers', '-internal-isystem', '/usr/include/wasm32-wasip1/c++/v1',
    '-internal-isystem', '/usr/include/c++/v1', '-internal-isystem', '/usr/include/wasm32-wasip1',
    '-internal-isystem', '/usr/include', '-include', 'cuda_runtime.h', 'probe.cu', '-o', 'probe.ll'], tree,
  { stderr: (b: Uint8Array | null) => { if (b) stderr += new TextDecoder().decode(b); } }).catch(() => {
    throw new Error(`the layout probe did not compile:\n${stderr}`);
  })) as Tree;
  const output = out['probe.ll'] as unknown;
  const ll = typeof output === 'string' ? output : new TextDecoder().decode(output as Uint8Array);
  const strings = new Map<string, string>();
  for (const m of ll.matchAll(/^(@\.str(?:\.\d+)?) = [^\n]*?c"([^"]*)\\00"/gm)) strings.set(m[1], m[2]);
  const layouts: Record<string, { size: number; fields: Record<string, { offset: number; size: number }> }> = {};
  for (const m of ll.matchAll(/^@__probe_(\w+) = [^\n]*?\[(.*)\], align/gm)) {
    const entries = [...m[2].matchAll(/\{ ptr (@\.str(?:\.\d+)?|@\.str), i32 (\d+), i32 (\d+) \}/g)];
    const fields: Record<string, { offset: number; size: number }> = {};
    let size = 0;
    for (const [, str, offset, bytes] of entries) {
      const name = strings.get(str) ?? '';
      if (name === '') size = Number(bytes);
      else fields[name] = { offset: Number(offset), size: Number(bytes) };
    }
    layouts[m[1]] = { size, fields };
  }
  const enums: Record<string, Record<string, number>> = {};
  for (const name of ENUMS) enums[name] = enumerators(header, name);
  const text = JSON.stringify({ target: 'wasm32-unknown-wasip1', structs: layouts, enums }, null, 1) + '\n';
  if (process.argv.includes('--check')) {
    const same = fs.existsSync(OUT) && fs.readFileSync(OUT, 'utf8') === text;
    process.stdout.write(same ? 'layouts.json is up to date\n' : 'layouts.json differs from the headers; run without --check\n');
    process.exit(same ? 0 : 1);
  }
  fs.writeFileSync(OUT, text);
  process.stdout.write(`wrote ${path.relative(process.cwd(), OUT)}: ${Object.keys(layouts).length} structures, ${ENUMS.length} enumerations\n`);
}

void main();
