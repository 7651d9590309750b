// Calls of functions device code declares but does not define: printf (`vprintf` in NVVM),
// assert (`__assertfail`), the device heap (malloc, free, new, delete), texture and surface
// hooks (./textureHooks.ts) and libdevice's math (`__nv_*`, including the ones that answer
// through pointers: sincosf, modff, frexpf).
import { DeviceFault, load, readCString } from '../../gpu/access';
import { pointerAllocation } from '../../gpu/memory';
import { WARP, type Lanes } from '../../ir/ir';
import { plain, unbox } from '../../values/wide';
import { formatPrintf, parseFormat, type PrintfArg } from '../../printf/format';
import type { LInstruction, LType, LValue } from '../llvm/module';
import { pointerFlat } from './arith';
import { libdeviceFunction } from './libdevice';
import { structLayout } from './layout';
import type { Lowering } from './lowering';
import { emitStore } from './memory';
import { lowerDeviceCopy, lowerDeviceErrorText, lowerDeviceLaunch, lowerDeviceStream, lowerDeviceSynchronize, lowerParameterBuffer } from './deviceRuntime';
import { lowerSurfaceAccess, lowerTextureFetch } from './textureHooks';
import { normalizerOf, unsignedView } from './numbers';

/** Lowers a call of a declared function; false when the simulator does not know it. */
export function lowerExternalCall(L: Lowering, i: LInstruction, name: string): boolean {
  const ops = i.operands;
  switch (name) {
    case '__scord_grid_sync': {
      // grid.sync(): a barrier of every thread of the launch (see the executor).
      const next = L.newBlock();
      L.terminate({ kind: 'barrier', to: next.id, range: L.range, grid: true }, next);
      return true;
    }
    case '__scord_tex_fetch':
    case '__scord_tex1Dfetch':
      lowerTextureFetch(L, i, name === '__scord_tex1Dfetch');
      return true;
    case '__scord_surf_access':
      lowerSurfaceAccess(L, i);
      return true;
    case 'cudaGetLastError':
    case 'cudaPeekAtLastError':
    case 'cudaStreamDestroy': {
      // A device-side launch that fails faults at the launch: there is no error left to report.
      L.copy(L.result(i), { reg: L.constReg(0), n: 1 });
      return true;
    }
    case 'cudaDeviceSynchronize':
      lowerDeviceSynchronize(L, i);
      return true;
    case 'cudaGetParameterBuffer':
      lowerParameterBuffer(L, i);
      return true;
    case 'cudaLaunchDevice':
      lowerDeviceLaunch(L, i);
      return true;
    case 'cudaStreamCreateWithFlags':
      lowerDeviceStream(L, i);
      return true;
    case 'cudaGraphSetConditional': {
      // A conditional graph node's value, for the node that runs after this kernel (sims/clang/host/graphCalls.ts).
      const handle = L.reg(ops[0]) * WARP;
      const value = L.reg(ops[1]) * WARP;
      L.emit((w, l) => {
        const h = Number(unbox(w.regs[handle + l]));
        if (w.ctx.runtime.graphConditions.has(h)) w.ctx.runtime.graphConditions.set(h, w.regs[value + l] >>> 0);
      });
      return true;
    }
    case 'cudaGetErrorString':
    case 'cudaGetErrorName':
      lowerDeviceErrorText(L, i, name === 'cudaGetErrorName');
      return true;
    case 'cudaMemcpyAsync':
    case 'cudaMemsetAsync':
      lowerDeviceCopy(L, i, name === 'cudaMemsetAsync');
      return true;
    case 'cudaGetDeviceCount':
    case 'cudaGetDevice':
    case 'cudaRuntimeGetVersion': {
      const value = L.constReg(name === 'cudaGetDeviceCount' ? 1 : name === 'cudaGetDevice' ? 0 : 12080);
      emitStore(L, value, L.reg(ops[0]), 0, { kind: 'int', bits: 32 }, false, undefined, L.isLocal(ops[0]));
      L.copy(L.result(i), { reg: L.constReg(0), n: 1 });
      return true;
    }
    case 'vprintf':
      printf(L, i);
      return true;
    case '__scord_unmet_precondition': {
      // GPUVerify's __requires, false for this thread: the run is outside what the kernel
      // accepts; the thread stops, as if it returned.
      const text = L.reg(ops[0]) * WARP;
      const range = L.range;
      L.emit((w, l) => {
        const condition = readCString(w.ctx, w.regs[text + l], range, 512);
        w.ctx.runtime.undefinedOperation('unmet-precondition', `the kernel's precondition \`${condition}\` does not hold for the arguments this run made up (scalars not given are what the kernel's other preconditions ask, else 0, and 1 in a second run): the threads it fails for stop here; give the arguments it needs with --arg NAME=VALUE`, range);
      });
      L.terminate({ kind: 'exit' });
      return true;
    }
    case '__assertfail':
    case '__assert_fail': {
      const msg = L.reg(ops[0]) * WARP;
      const range = L.range;
      L.emit((w, l) => {
        const text = readCString(w.ctx, w.regs[msg + l], range, 512);
        throw new DeviceFault({ kind: 'assertion-failed', message: `assertion \`${text}\` failed` }, range);
      });
      return true;
    }
    case 'cudaMalloc': {
      // cudaMalloc in device code: memory of the device heap, as malloc's.
      const n = L.reg(ops[1]) * WARP;
      const p = L.regs(1);
      const range = L.range;
      L.emit((w, l) => {
        const size = w.regs[n + l] >>> 0;
        w.regs[p * WARP + l] = w.ctx.memory.allocate('global', size, { label: `cudaMalloc(${size}) in device code`, origin: range });
      });
      emitStore(L, p, L.reg(ops[0]), 0, { kind: 'ptr', addrspace: 0 }, false, undefined, L.isLocal(ops[0]));
      L.copy(L.result(i), { reg: L.constReg(0), n: 1 });
      return true;
    }
    case 'cudaFree':
      emitDeviceFree(L, ops[0]);
      L.copy(L.result(i), { reg: L.constReg(0), n: 1 });
      return true;
    case 'malloc':
    case '_Znwj':
    case '_Znaj':
    case '_Znwm':
    case '_Znam': {
      const t = ops[0].type;
      const u = unsignedView(t.kind === 'int' ? t.bits : 32);
      const n = L.reg(ops[0]) * WARP;
      const ro = L.result(i).reg * WARP;
      const range = L.range;
      const label = name === 'malloc' ? 'malloc' : 'new';
      L.emit((w, l) => {
        const size = Number(unbox(u(w.regs[n + l])));
        w.regs[ro + l] = w.ctx.memory.allocate('global', size, { label: `${label}(${size}) in device code`, origin: range });
      });
      return true;
    }
    case 'free':
    case '_ZdlPv':
    case '_ZdaPv':
    case '_ZdlPvj':
    case '_ZdaPvj':
    case '_ZdlPvm':
    case '_ZdaPvm':
      emitDeviceFree(L, ops[0]);
      return true;
    case '__nv_sincosf':
    case '__nv_sincos':
    case '__nv_fast_sincosf':
    case '__nv_sincospif':
    case '__nv_sincospi': {
      const pi = name.includes('pi') ? Math.PI : 1;
      const x = L.reg(ops[0]) * WARP;
      const t = ops[0].type;
      const round = normalizerOf(t);
      const s = L.regs(1);
      const c = L.regs(1);
      L.emit((w, l) => {
        const v = w.regs[x + l] * pi;
        w.regs[s * WARP + l] = round(Math.sin(v));
        w.regs[c * WARP + l] = round(Math.cos(v));
      });
      emitStore(L, s, L.reg(ops[1]), 0, t, false, undefined, L.isLocal(ops[1]));
      emitStore(L, c, L.reg(ops[2]), 0, t, false, undefined, L.isLocal(ops[2]));
      return true;
    }
    case '__nv_modff':
    case '__nv_modf': {
      const x = L.reg(ops[0]) * WARP;
      const t = ops[0].type;
      const whole = L.regs(1);
      const ro = L.result(i).reg * WARP;
      L.emit((w, l) => {
        const v = w.regs[x + l];
        const int = Math.trunc(v);
        w.regs[whole * WARP + l] = int;
        w.regs[ro + l] = Number.isFinite(v) ? v - int : Number.isNaN(v) ? v : 0;
      });
      emitStore(L, whole, L.reg(ops[1]), 0, t, false, undefined, L.isLocal(ops[1]));
      return true;
    }
    case '__nv_frexpf':
    case '__nv_frexp': {
      const x = L.reg(ops[0]) * WARP;
      const e = L.regs(1);
      const ro = L.result(i).reg * WARP;
      L.emit((w, l) => {
        const v = w.regs[x + l];
        if (v === 0 || !Number.isFinite(v)) {
          w.regs[e * WARP + l] = 0;
          w.regs[ro + l] = v;
          return;
        }
        let exp = Math.floor(Math.log2(Math.abs(v))) + 1;
        let m = v / 2 ** exp;
        if (Math.abs(m) >= 1) {
          m /= 2;
          exp++;
        } else if (Math.abs(m) < 0.5) {
          m *= 2;
          exp--;
        }
        w.regs[e * WARP + l] = exp;
        w.regs[ro + l] = m;
      });
      emitStore(L, e, L.reg(ops[1]), 0, { kind: 'int', bits: 32 }, false, undefined, L.isLocal(ops[1]));
      return true;
    }
  }
  if (/^cuda[A-Z]/.test(name)) return L.fail(`not supported: dynamic parallelism (${name} in device code)`);
  if (name.startsWith('__nv_')) {
    const f = libdeviceFunction(name.slice(5));
    if (!f) return false;
    const args = ops.map((o) => L.reg(o) * WARP);
    const r = L.result(i);
    const ro = r.reg * WARP;
    const norm = normalizerOf(i.type);
    if (args.length === 1) {
      const a = args[0];
      L.emit((w, l) => {
        w.regs[ro + l] = norm(f(w.regs[a + l]));
      });
    } else if (args.length === 2) {
      const [a, b] = args;
      L.emit((w, l) => {
        w.regs[ro + l] = norm(f(w.regs[a + l], w.regs[b + l]));
      });
    } else {
      const xs = new Array<number>(args.length);
      L.emit((w, l) => {
        for (let k = 0; k < args.length; k++) xs[k] = w.regs[args[k] + l];
        w.regs[ro + l] = norm(f(...xs));
      });
    }
    return true;
  }
  return false;
}

/** free, delete and device-side cudaFree: the device heap's allocation at the pointer, freed (a bad pointer faults). */
function emitDeviceFree(L: Lowering, pointer: LValue): void {
  const p = L.reg(pointer) * WARP;
  const range = L.range;
  L.emit((w, l) => {
    const fault = w.ctx.memory.free(w.regs[p + l], 'device');
    if (fault) throw new DeviceFault(fault, range);
  });
}

/** How printf reads one argument from vprintf's buffer: its offset and LLVM type. */
interface BufferField {
  offset: number;
  type: LType;
}

/**
 * printf: clang packs the arguments into a local struct (each at its natural alignment) and
 * calls `vprintf(format, buffer)`. The struct's type says where each argument is; the format
 * says what it is (a %s argument is a pointer to a string).
 */
function printf(L: Lowering, i: LInstruction): void {
  const range = L.range;
  const fmt = L.reg(i.operands[0]) * WARP;
  const buf = L.reg(i.operands[1]) * WARP;
  const ro = L.result(i).reg * WARP;
  const known = bufferFields(L, i.operands[1]);
  const flat = L.flat;
  const formats = new Map<number, { text: string; classes: string[] }>();
  L.emit((w: Lanes, l: number) => {
    const fp = w.regs[fmt + l];
    let f = formats.get(fp);
    if (!f) {
      const text = readCString(w.ctx, fp, range, 4096);
      f = { text, classes: argumentClasses(text) };
      formats.set(fp, f);
    }
    const fields = known ?? sequentialFields(f.classes);
    const base = w.regs[buf + l];
    const args: PrintfArg[] = [];
    for (let k = 0; k < f.classes.length && k < fields.length; k++) {
      const field = fields[k];
      const at = base + field.offset;
      const cls = f.classes[k];
      const t = field.type;
      if (t.kind === 'ptr') {
        const p = flat.pointerOf(load(w.ctx, at, 'u32', range));
        args.push(cls === 'string' ? { kind: 'string', value: p === 0 || pointerAllocation(p) === 0 ? '(null)' : readCString(w.ctx, p, range) } : { kind: 'pointer', value: pointerFlat(p, flat) });
      } else if (t.kind === 'float') {
        args.push({ kind: 'float', value: plain(load(w.ctx, at, t.name === 'float' ? 'f32' : 'f64', range)) });
      } else {
        const bits = t.kind === 'int' ? t.bits : 32;
        const v = load(w.ctx, at, bits > 32 ? 'i64' : bits > 16 ? 'i32' : bits > 8 ? 'i16' : 'i8', range);
        args.push(cls === 'float' ? { kind: 'float', value: plain(v) } : { kind: 'int', value: unbox(v) });
      }
    }
    const text = formatPrintf(f.text, args);
    w.regs[ro + l] = text.length;
    w.ctx.runtime.print('stdout', text, { block: w.ctx.blockIdx, thread: [w.tid[0][l], w.tid[1][l], w.tid[2][l]] });
  });
}

/** The fields of the argument buffer, when it is a local struct whose type the IR gives. */
function bufferFields(L: Lowering, v: LValue): BufferField[] | undefined {
  if (v.kind === 'null' || v.kind === 'zero' || v.kind === 'undef' || v.kind === 'poison') return [];
  const def = v.kind === 'local' ? L.definition(v.name) : undefined;
  const t = def?.opcode === 'alloca' ? def.elementType : undefined;
  if (t?.kind !== 'struct') return undefined;
  const { offsets } = structLayout(t);
  return t.fields.map((type, k) => ({ offset: offsets[k], type }));
}

/** What each value a format consumes is: `*` widths are ints; %s a string; %p a pointer. */
function argumentClasses(format: string): string[] {
  const classes: string[] = [];
  for (const s of parseFormat(format).specs) {
    if (s.width === '*') classes.push('int');
    if (s.precision === '*') classes.push('int');
    if (s.conversion === '%') continue;
    classes.push(s.conversion === 's' ? 'string' : s.conversion === 'p' ? 'pointer' : 'diouxXc'.includes(s.conversion) ? (s.length === 'll' || s.length === 'j' ? 'long' : 'int') : 'float');
  }
  return classes;
}

/** Without the struct's type: each argument at its natural alignment, in format order. */
function sequentialFields(classes: string[]): BufferField[] {
  const out: BufferField[] = [];
  let at = 0;
  for (const c of classes) {
    const type: LType = c === 'string' || c === 'pointer' ? { kind: 'ptr', addrspace: 0 } : c === 'float' ? { kind: 'float', name: 'double' } : c === 'long' ? { kind: 'int', bits: 64 } : { kind: 'int', bits: 32 };
    const size = c === 'float' || c === 'long' ? 8 : 4;
    at = Math.ceil(at / size) * size;
    out.push({ offset: at, type });
    at += size;
  }
  return out;
}
