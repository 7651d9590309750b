// The LLVM IR text reader: hand-written IR for each construct clang prints, then IR that clang
// itself produced from CUDA, checked against the source it came from.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LlvmParseError, parseLlvmModule } from '../../sims/clang/llvm/parse';
import type { LFunction, LInstruction, LModule, LType, LValue } from '../../sims/clang/llvm/module';
import { cudaToDeviceIr } from '../support/clangIr';

function fn(m: LModule, name: string): LFunction {
  const f = m.functions.find((x) => x.name === name);
  assert.ok(f, `function @${name}`);
  return f;
}

/** The instructions of a one-function module, in order. */
function body(ir: string): LInstruction[] {
  const m = parseLlvmModule(ir);
  return m.functions[m.functions.length - 1].blocks.flatMap((b) => b.instructions);
}

/** A compact spelling of a type, for assertions. */
function ty(t: LType): string {
  switch (t.kind) {
    case 'int': return `i${t.bits}`;
    case 'float': return t.name;
    case 'ptr': return t.addrspace === 0 ? 'ptr' : `ptr addrspace(${t.addrspace})`;
    case 'array': return `[${t.length} x ${ty(t.of)}]`;
    case 'vector': return `<${t.length} x ${ty(t.of)}>`;
    case 'struct':
      if (t.name !== undefined) return `%${t.name}`;
      return `${t.packed ? '<' : ''}{ ${t.fields.map(ty).join(', ')} }${t.packed ? '>' : ''}`;
    case 'function': return `${ty(t.ret)} (${[...t.params.map(ty), ...(t.varargs ? ['...'] : [])].join(', ')})`;
    default: return t.kind;
  }
}

/** A compact spelling of a value. */
function val(v: LValue): string {
  switch (v.kind) {
    case 'local': return `%${v.name}`;
    case 'global': return `@${v.name}`;
    case 'int': return String(v.value);
    case 'float': return String(v.value);
    case 'aggregate': return `{${v.elements.map(val).join(',')}}`;
    case 'bytes': return `c[${[...v.bytes].join(',')}]`;
    case 'expr': return `${v.inst.opcode}(${v.inst.operands.map(val).join(',')})`;
    case 'asm': return `asm(${v.text})`;
    case 'label': return `label %${v.name}`;
    default: return v.kind;
  }
}

describe('types', () => {
  test('named structs are one object per name, forward references and recursion included', () => {
    const m = parseLlvmModule(`
%struct.Node = type { i32, ptr, %struct.Pair }
%struct.Pair = type { float, double }
%struct.Opaque = type opaque
%struct.Packed = type <{ i8, i32 }>
%"class.std::__2::basic_string" = type { [12 x i8] }
@n = global %struct.Node zeroinitializer
@p = global %struct.Pair zeroinitializer
`);
    const node = m.types.get('struct.Node')!;
    const pair = m.types.get('struct.Pair')!;
    assert.equal(node.kind === 'struct' && node.fields[2], pair);
    assert.equal(m.globals[1].valueType, pair);
    assert.equal(ty(pair.kind === 'struct' ? { ...pair, name: undefined } : pair), '{ float, double }');
    const opaque = m.types.get('struct.Opaque')!;
    assert.equal(opaque.kind === 'struct' && opaque.opaque, true);
    assert.equal(pair.kind === 'struct' && pair.opaque, undefined);
    const packed = m.types.get('struct.Packed')!;
    assert.equal(packed.kind === 'struct' && packed.packed, true);
    assert.ok(m.types.has('class.std::__2::basic_string'));
  });

  test('ints, floats, pointers in address spaces, arrays, vectors, literal structs, function types', () => {
    const m = parseLlvmModule(`
@a = global { i1, i64, half, bfloat, fp128, x86_fp80, <4 x float>, [2 x [3 x i16]], <{ i8, ptr addrspace(3) }> } zeroinitializer
@f = global ptr null
declare i32 @printf(ptr, ...)
declare void @g(ptr addrspace(1), { i32, i32 }, label, metadata)
`);
    assert.equal(ty(m.globals[0].valueType),
      '{ i1, i64, half, bfloat, fp128, x86_fp80, <4 x float>, [2 x [3 x i16]], <{ i8, ptr addrspace(3) }> }');
    const printf = fn(m, 'printf');
    assert.equal(printf.varargs, true);
    assert.equal(printf.declaration, true);
    assert.deepEqual(fn(m, 'g').params.map((p) => ty(p.type)), ['ptr addrspace(1)', '{ i32, i32 }', 'label', 'metadata']);
  });
});

describe('globals', () => {
  test('linkage, address space, constant, externally_initialized, align, section, comdat', () => {
    const m = parseLlvmModule(`
$comdat.g = comdat any
@g = addrspace(1) externally_initialized global i32 0, align 4
@sh = internal addrspace(3) global [32 x i32] undef, align 4
@c = dso_local local_unnamed_addr addrspace(4) constant float 1.500000e+00, section ".nv.constant", align 8
@w = extern_weak addrspace(1) global %struct.T, align 1
@x = external global i32
@h = linkonce_odr hidden unnamed_addr constant [3 x i8] c"hi\\00", comdat($comdat.g), align 1
@t = thread_local(initialexec) global i32 7
%struct.T = type { i8 }
`);
    const [g, sh, c, w, x, h, t] = m.globals;
    assert.deepEqual([g.addrspace, g.externallyInitialized, g.constant, g.align, val(g.init!)], [1, true, false, 4, '0']);
    assert.deepEqual([sh.linkage, sh.addrspace, sh.init?.kind], ['internal', 3, 'undef']);
    assert.deepEqual([c.addrspace, c.constant, val(c.init!), c.align], [4, true, '1.5', 8]);
    assert.deepEqual([w.linkage, w.init, ty(w.valueType)], ['extern_weak', undefined, '%struct.T']);
    assert.deepEqual([x.linkage, x.init], ['external', undefined]);
    assert.deepEqual([h.linkage, h.constant, val(h.init!)], ['linkonce_odr', true, 'c[104,105,0]']);
    assert.equal(val(t.init!), '7');
  });

  test('constants: floats in every encoding, aggregates, null/undef/poison/zero, strings with escapes', () => {
    const m = parseLlvmModule(`
@d = global double 0x3FF8000000000000
@f = global float 0x3FB99999A0000000
@h = global half 0xH3C00
@b = global bfloat 0xRBF80
@q = global fp128 0xL00000000000000003FFF000000000000
@k = global x86_fp80 0xK3FFF8000000000000000
@neg = global i64 -9223372036854775808
@bool = global i1 true
@hex = global i32 -0x1F
@s = global { i32, ptr, [2 x i8], <2 x float> } { i32 -1, ptr null, [2 x i8] c"\\0A\\\\", <2 x float> <float 0.000000e+00, float 2.500000e-01> }
@z = global [4 x i32] zeroinitializer
@u = global i32 poison
@arr = global [2 x ptr] [ptr @d, ptr @f]
@sp = global <4 x i32> splat (i32 3)
`);
    const init = (name: string): LValue => m.globals.find((g) => g.name === name)!.init!;
    assert.equal(val(init('d')), '1.5');
    assert.equal(val(init('f')), String(Math.fround(0.1)));
    assert.equal(val(init('h')), '1');
    assert.equal(val(init('b')), '-1');
    assert.equal(val(init('q')), '1');
    assert.equal(val(init('k')), '1');
    assert.equal(val(init('neg')), '-9223372036854775808');
    assert.equal(val(init('bool')), '1');
    assert.equal(val(init('hex')), '-31');
    assert.equal(val(init('s')), '{-1,null,c[10,92],{0,0.25}}');
    assert.equal(init('z').kind, 'zero');
    assert.equal(init('u').kind, 'poison');
    assert.equal(val(init('arr')), '{@d,@f}');
    assert.equal(val(init('sp')), '{3,3,3,3}');
  });

  test('constant expressions keep their operands, types and flags', () => {
    const m = parseLlvmModule(`
%struct.S = type { i32, [4 x i32] }
@s = addrspace(1) global %struct.S zeroinitializer
@p = global ptr getelementptr inbounds nuw (%struct.S, ptr addrspacecast (ptr addrspace(1) @s to ptr), i32 0, i32 1, i32 2)
@i = global i32 ptrtoint (ptr @p to i32)
@sum = global i64 add (i64 ptrtoint (ptr @p to i64), i64 8)
@back = global ptr inttoptr (i32 4096 to ptr)
@v = global ptr getelementptr inbounds inrange(-8, 16) ({ [4 x ptr] }, ptr @p, i32 0, i32 0, i32 2)
@misc = global { i8, i32, ptr } { i8 trunc (i32 ptrtoint (ptr @s to i32) to i8), i32 sub nuw (i32 8, i32 ptrtoint (ptr @p to i32)), ptr bitcast (ptr @i to ptr) }
`);
    const p = m.globals[1].init!;
    assert.equal(val(p), 'getelementptr(addrspacecast(@s),0,1,2)');
    assert.ok(p.kind === 'expr');
    if (p.kind !== 'expr') return;
    assert.deepEqual(p.inst.flags, ['inbounds', 'nuw']);
    assert.equal(ty(p.inst.elementType!), '%struct.S');
    assert.equal(ty(p.type), 'ptr');
    const cast = p.inst.operands[0];
    assert.equal(cast.kind === 'expr' && ty(cast.inst.operands[0].type), 'ptr addrspace(1)');
    assert.equal(val(m.globals[2].init!), 'ptrtoint(@p)');
    assert.equal(ty(m.globals[2].init!.type), 'i32');
    assert.equal(val(m.globals[3].init!), 'add(ptrtoint(@p),8)');
    assert.equal(val(m.globals[4].init!), 'inttoptr(4096)');
    assert.deepEqual(m.globals[5].init!.kind === 'expr' && m.globals[5].init!.inst.flags, ['inbounds', 'inrange']);
    assert.equal(val(m.globals[6].init!), '{trunc(ptrtoint(@s)),sub(8,ptrtoint(@p)),bitcast(@i)}');
    const misc = m.globals[6].init!;
    assert.deepEqual(misc.kind === 'aggregate' && misc.elements.map((e) => ty(e.type)), ['i8', 'i32', 'ptr']);
  });

  test('a !dbg attachment resolves to the DIGlobalVariable name, file and line', () => {
    const m = parseLlvmModule(`
@counter = dso_local addrspace(1) externally_initialized global i32 0, align 4, !dbg !0
!llvm.dbg.cu = !{!2}
!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "counter", linkageName: "_Z7counter", scope: !2, file: !3, line: 12, type: !5, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !3, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, globals: !4, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "kernels/count.cu", directory: "/home/u/proj")
!4 = !{!0}
!5 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
`);
    assert.deepEqual(m.globals[0].debug, { name: 'counter', file: '/home/u/proj/kernels/count.cu', line: 12 });
  });

  test('aliases are kept', () => {
    const m = parseLlvmModule(`
@impl = global i32 1
@alias = weak_odr dso_local alias i32, ptr @impl
`);
    assert.deepEqual(m.aliases?.map((a) => [a.name, ty(a.valueType), val(a.aliasee), a.linkage]), [['alias', 'i32', '@impl', 'weak_odr']]);
  });
});

describe('functions', () => {
  test('header: linkage, calling convention, parameters with attributes, groups, comdat, personality, !dbg', () => {
    const m = parseLlvmModule(`
%struct.S = type { i32, float }
$_Z1fv = comdat any
define dso_local ptx_kernel void @_Z1kPi1S(ptr noundef %p, ptr noundef byval(%struct.S) align 4 %s) #0 !dbg !6 {
entry:
  ret void, !dbg !9
}
define linkonce_odr hidden noundef nonnull align 4 dereferenceable(8) ptr @_Z1fv(ptr dead_on_unwind noalias writable sret(%struct.S) align 4 %agg.result, i32 noundef signext range(i32 0, 10) %n) unnamed_addr #1 comdat section ".text.f" align 2 personality ptr @__gxx_personality_v0 {
  ret ptr null
}
declare !dbg !10 i32 @__gxx_personality_v0(...)
declare fastcc void @internal_cc(i32 inreg) #2
declare cc 42 void @numbered_cc()
attributes #0 = { convergent mustprogress noinline norecurse nounwind optnone "target-cpu"="sm_70" }
attributes #1 = { "frame-pointer"="all" }
!6 = distinct !DISubprogram(name: "k", linkageName: "_Z1kPi1S", scope: !7, file: !7, line: 4, type: !8, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !11)
!7 = !DIFile(filename: "k.cu", directory: "/src")
!8 = !DISubroutineType(types: !12)
!9 = !DILocation(line: 5, column: 1, scope: !6)
!10 = !DISubprogram(name: "__gxx_personality_v0", scope: !7, file: !7, line: 1, spFlags: 0)
!11 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !7, emissionKind: LineTablesOnly)
!12 = !{}
`);
    const k = fn(m, '_Z1kPi1S');
    assert.equal(k.callingConv, 'ptx_kernel');
    assert.equal(k.declaration, false);
    assert.deepEqual(k.params.map((p) => [p.name, ty(p.type), p.attrs, p.byval && ty(p.byval)]), [
      ['p', 'ptr', ['noundef'], undefined],
      ['s', 'ptr', ['noundef', 'byval(%struct.S)', 'align 4'], '%struct.S'],
    ]);
    assert.deepEqual(k.debug, { name: 'k', linkageName: '_Z1kPi1S', file: '/src/k.cu', line: 4 });
    const f = fn(m, '_Z1fv');
    assert.equal(f.linkage, 'linkonce_odr');
    assert.equal(ty(f.ret), 'ptr');
    assert.equal(f.params[0].sret && ty(f.params[0].sret), '%struct.S');
    assert.deepEqual(f.params[1].attrs, ['noundef', 'signext', 'range(i32 0, 10)']);
    const personality = fn(m, '__gxx_personality_v0');
    assert.equal(personality.varargs, true);
    assert.equal(personality.debug?.name, '__gxx_personality_v0');
    assert.equal(fn(m, 'internal_cc').callingConv, 'fastcc');
    assert.equal(fn(m, 'numbered_cc').callingConv, 'cc 42');
  });

  test('explicit labels, and unnamed blocks numbered after unnamed parameters', () => {
    const m = parseLlvmModule(`
define i32 @f(i32 %0, i32 %1) {
  %3 = icmp slt i32 %0, %1
  br i1 %3, label %4, label %6

4:                                                ; preds = %2
  %5 = add nsw i32 %0, 1
  br label %6

6:
  %7 = phi i32 [ %5, %4 ], [ %1, %2 ]
  ret i32 %7
}
define void @g() {
entry:
  br label %loop
loop:                                             ; preds = %loop, %entry
  br label %loop
}
`);
    assert.deepEqual(fn(m, 'f').blocks.map((b) => b.label), ['2', '4', '6']);
    assert.deepEqual(fn(m, 'f').params.map((p) => p.name), ['0', '1']);
    assert.deepEqual(fn(m, 'g').blocks.map((b) => b.label), ['entry', 'loop']);
    const phi = fn(m, 'f').blocks[2].instructions[0];
    assert.deepEqual(phi.incoming?.map((i) => [val(i.value), i.block]), [['%5', '4'], ['%1', '2']]);
  });

  test('old-style unnamed blocks (`; <label>:N` comments) are numbered too', () => {
    const m = parseLlvmModule(`
define void @f(i1 %c) {
  br i1 %c, label %1, label %2
; <label>:1
  br label %2
; <label>:2
  ret void
}
`);
    assert.deepEqual(fn(m, 'f').blocks.map((b) => b.label), ['0', '1', '2']);
  });
});

describe('instructions', () => {
  test('memory: alloca, load, store (volatile, atomic, syncscope), getelementptr flags', () => {
    const insts = body(`
define void @f(ptr %p, i32 %n) {
  %a = alloca [4 x i32], align 16
  %b = alloca i32, i32 %n, align 4, addrspace(5)
  %v = load volatile i32, ptr %p, align 4, !tbaa !3
  store volatile i32 %v, ptr %p, align 4
  %x = load atomic i32, ptr %p syncscope("block") acquire, align 4
  store atomic i32 1, ptr %p release, align 4
  %g = getelementptr inbounds nuw [4 x i32], ptr %a, i32 0, i32 %n
  %h = getelementptr i8, ptr %p, i64 -4, !dbg !9
  ret void
}
!3 = !{!4, !4, i64 0}
!4 = !{!"int", !5, i64 0}
!5 = !{!"omnipotent char"}
`);
    const [a, b, v, st, x, sa, g, h] = insts;
    assert.deepEqual([a.opcode, ty(a.elementType!), a.align, ty(a.type), a.result], ['alloca', '[4 x i32]', 16, 'ptr', 'a']);
    assert.deepEqual([val(b.count!), ty(b.type)], ['%n', 'ptr addrspace(5)']);
    assert.deepEqual([v.volatile, ty(v.type), val(v.operands[0]), v.align], [true, 'i32', '%p', 4]);
    assert.deepEqual([st.volatile, st.operands.map(val), ty(st.type)], [true, ['%v', '%p'], 'void']);
    assert.deepEqual([x.ordering, x.syncScope], ['acquire', 'block']);
    assert.deepEqual([sa.ordering, sa.syncScope, sa.operands.map(val)], ['release', undefined, ['1', '%p']]);
    assert.deepEqual([g.flags, ty(g.elementType!), g.operands.map(val), ty(g.type)], [['inbounds', 'nuw'], '[4 x i32]', ['%a', '0', '%n'], 'ptr']);
    assert.deepEqual([h.flags, h.operands.map(val)], [undefined, ['%p', '-4']]);
  });

  test('arithmetic, comparisons, casts, select, freeze with their flags', () => {
    const insts = body(`
define void @f(i32 %a, i32 %b, float %x, <2 x i32> %v) {
  %1 = add nuw nsw i32 %a, %b
  %2 = sdiv exact i32 %a, 4
  %3 = or disjoint i32 %a, 1
  %4 = fmul fast float %x, 2.000000e+00
  %5 = fadd nnan ninf float %x, 0x3FF0000000000000
  %6 = fneg float %x
  %7 = icmp samesign ult i32 %a, %b
  %8 = fcmp ord float %x, %x
  %9 = icmp eq <2 x i32> %v, zeroinitializer
  %10 = zext nneg i32 %a to i64
  %11 = trunc nuw i64 %10 to i8
  %12 = uitofp nneg i32 %a to double
  %13 = addrspacecast ptr addrspace(3) null to ptr
  %14 = select nsz i1 %7, float %x, float 1.000000e+00
  %15 = freeze i32 %a
  ret void
}
`);
    const spell = (i: LInstruction): string =>
      [i.opcode, ...(i.flags ?? []), i.predicate ?? '', ty(i.type), ...i.operands.map(val)].filter((s) => s !== '').join(' ');
    assert.deepEqual(insts.slice(0, 15).map(spell), [
      'add nuw nsw i32 %a %b',
      'sdiv exact i32 %a 4',
      'or disjoint i32 %a 1',
      'fmul fast float %x 2',
      'fadd nnan ninf float %x 1',
      'fneg float %x',
      'icmp samesign ult i1 %a %b',
      'fcmp ord i1 %x %x',
      'icmp eq <2 x i1> %v zero',
      'zext nneg i64 %a',
      'trunc nuw i8 %10',
      'uitofp nneg double %a',
      'addrspacecast ptr null',
      'select nsz float %7 %x 1',
      'freeze i32 %a',
    ]);
  });

  test('control flow: br, switch, indirectbr, unreachable', () => {
    const m = parseLlvmModule(`
define void @f(i32 %x, ptr %addr) {
entry:
  switch i32 %x, label %def [
    i32 0, label %a
    i32 -7, label %b
  ]
a:
  br label %b
b:
  indirectbr ptr %addr, [label %a, label %def]
def:
  unreachable
}
`);
    const [sw, br, ind, un] = fn(m, 'f').blocks.map((b) => b.instructions[0]);
    assert.deepEqual([sw.opcode, sw.operands.map(val), sw.targets, sw.cases?.map((c) => [val(c.value), c.block])],
      ['switch', ['%x'], ['def'], [['0', 'a'], ['-7', 'b']]]);
    assert.deepEqual([br.opcode, br.operands, br.targets], ['br', [], ['b']]);
    assert.deepEqual([ind.operands.map(val), ind.targets], [['%addr'], ['a', 'def']]);
    assert.equal(un.opcode, 'unreachable');
  });

  test('calls: tail/musttail, fast-math, calling convention, attributes, bundles, inline asm, varargs', () => {
    const m = parseLlvmModule(`
declare i32 @printf(ptr, ...)
declare float @llvm.fma.f32(float, float, float)
define void @f(ptr %s, float %x) {
  %1 = call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !7
  %2 = tail call fast float @llvm.fma.f32(float %x, float %x, float 1.0) #3
  %3 = call i32 (ptr, ...) @printf(ptr noundef @.str, i32 noundef %1, double noundef 0x4000000000000000)
  call void asm sideeffect "membar.gl;", "~{memory}"() #4, !srcloc !8
  %4 = call i32 asm "mov.u32 $0, %laneid;", "=r"()
  call fastcc void @g(ptr noundef byval(%struct.S) align 4 %s) [ "deopt"(i32 1), "funclet"(token none) ]
  %5 = call addrspace(0) ptr %s(i32 0)
  ret void
}
define i32 @forward(ptr %fmt, ...) {
  %r = musttail call i32 (ptr, ...) @printf(ptr %fmt, ...)
  ret i32 %r
}
%struct.S = type { i32 }
@.str = private unnamed_addr constant [3 x i8] c"%d\\00"
`);
    const [tid, fma, pf, membar, lane, g, indirect] = fn(m, 'f').blocks[0].instructions;
    const forward = fn(m, 'forward').blocks[0].instructions[0];
    assert.deepEqual([forward.flags, ty(forward.calleeType!), forward.operands.map(val)], [['musttail'], 'i32 (ptr, ...)', ['%fmt']]);
    assert.deepEqual([tid.opcode, val(tid.callee!), ty(tid.type), tid.operands], ['call', '@llvm.nvvm.read.ptx.sreg.tid.x', 'i32', []]);
    assert.deepEqual([fma.flags, ty(fma.calleeType!), fma.operands.map(val)], [['tail', 'fast'], 'float (float, float, float)', ['%x', '%x', '1']]);
    assert.deepEqual([ty(pf.calleeType!), pf.operands.map(val)], ['i32 (ptr, ...)', ['@.str', '%1', '2']]);
    assert.ok(membar.callee?.kind === 'asm');
    if (membar.callee?.kind === 'asm') {
      assert.deepEqual([membar.callee.text, membar.callee.constraints, membar.callee.sideEffect], ['membar.gl;', '~{memory}', true]);
    }
    assert.equal(lane.callee?.kind === 'asm' && lane.callee.sideEffect, false);
    assert.equal(lane.callee?.kind === 'asm' && lane.callee.text, 'mov.u32 $0, %laneid;');
    assert.deepEqual([g.callingConv, g.operands.map(val)], ['fastcc', ['%s']]);
    assert.deepEqual([val(indirect.callee!), ty(indirect.type)], ['%s', 'ptr']);
  });

  test('atomics: atomicrmw (every operation), cmpxchg weak/volatile with two orderings, fence', () => {
    const insts = body(`
define void @f(ptr %p, ptr addrspace(3) %s, float %x) {
  %1 = atomicrmw add ptr %p, i32 1 seq_cst, align 4
  %2 = atomicrmw volatile fadd ptr addrspace(3) %s, float %x syncscope("block") monotonic, align 4
  %3 = atomicrmw fmax ptr %p, float %x syncscope("device") acq_rel
  %4 = atomicrmw uinc_wrap ptr %p, i32 5 monotonic, align 4
  %5 = atomicrmw xchg ptr %p, ptr null acquire
  %6 = cmpxchg ptr %p, i32 0, i32 1 seq_cst seq_cst, align 4
  %7 = cmpxchg weak volatile ptr %p, i64 0, i64 1 syncscope("block") acq_rel monotonic, align 8
  %8 = extractvalue { i32, i1 } %6, 0
  %9 = extractvalue { i64, i1 } %7, 1
  fence syncscope("block") seq_cst
  fence acq_rel
  ret void
}
`);
    const rmw = insts.slice(0, 5).map((i) => [i.atomicOp, ty(i.type), i.ordering, i.syncScope ?? '-', i.volatile ?? false]);
    assert.deepEqual(rmw, [
      ['add', 'i32', 'seq_cst', '-', false],
      ['fadd', 'float', 'monotonic', 'block', true],
      ['fmax', 'float', 'acq_rel', 'device', false],
      ['uinc_wrap', 'i32', 'monotonic', '-', false],
      ['xchg', 'ptr', 'acquire', '-', false],
    ]);
    const [c1, c2, e1, e2, f1, f2] = insts.slice(5);
    assert.deepEqual([ty(c1.type), c1.ordering, c1.failureOrdering, c1.weak ?? false, c1.operands.map(val)],
      ['{ i32, i1 }', 'seq_cst', 'seq_cst', false, ['%p', '0', '1']]);
    assert.deepEqual([c2.weak, c2.volatile, c2.syncScope, c2.ordering, c2.failureOrdering, c2.align], [true, true, 'block', 'acq_rel', 'monotonic', 8]);
    assert.deepEqual([ty(e1.type), e1.indices, ty(e2.type)], ['i32', [0], 'i1']);
    assert.deepEqual([f1.opcode, f1.syncScope, f1.ordering, f2.syncScope, f2.ordering], ['fence', 'block', 'seq_cst', undefined, 'acq_rel']);
  });

  test('aggregates and vectors: insertvalue, extract/insertelement, shufflevector, va_arg', () => {
    const insts = body(`
define void @f(<4 x float> %v, ptr %ap, { i32, [2 x float] } %s) {
  %1 = extractvalue { i32, [2 x float] } %s, 1, 0
  %2 = insertvalue { i32, [2 x float] } %s, float 1.0, 1, 1
  %3 = extractelement <4 x float> %v, i32 2
  %4 = insertelement <4 x float> %v, float %3, i64 0
  %5 = shufflevector <4 x float> %v, <4 x float> poison, <2 x i32> <i32 3, i32 0>
  %6 = va_arg ptr %ap, i32
  ret void
}
`);
    const [ev, iv, ee, ie, sv, va] = insts;
    assert.deepEqual([ty(ev.type), ev.indices], ['float', [1, 0]]);
    assert.deepEqual([ty(iv.type), iv.indices, iv.operands.map(val)], ['{ i32, [2 x float] }', [1, 1], ['%s', '1']]);
    assert.deepEqual([ty(ee.type), ee.operands.map(val)], ['float', ['%v', '2']]);
    assert.deepEqual([ty(ie.type), ie.operands.map(val)], ['<4 x float>', ['%v', '%3', '0']]);
    assert.deepEqual([ty(sv.type), sv.operands.map(val)], ['<2 x float>', ['%v', 'poison', '{3,0}']]);
    assert.deepEqual([ty(va.type), va.operands.map(val)], ['i32', ['%ap']]);
  });

  test('exceptions: invoke, landingpad, resume, cleanuppad/cleanupret, catchswitch/catchpad/catchret', () => {
    const m = parseLlvmModule(`
define void @f() personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke noundef i32 @g(i32 1) #2
          to label %ok unwind label %lpad
ok:
  ret void
lpad:
  %lp = landingpad { ptr, i32 }
          cleanup
          catch ptr @_ZTIi
          filter [1 x ptr] [ptr @_ZTIi]
  resume { ptr, i32 } %lp
}
define void @w() personality ptr @__CxxFrameHandler3 {
entry:
  invoke void @g(i32 0) to label %done unwind label %dispatch
dispatch:
  %cs = catchswitch within none [label %handler] unwind to caller
handler:
  %cp = catchpad within %cs [ptr null, i32 64, ptr null]
  catchret from %cp to label %done
clean:
  %c = cleanuppad within none []
  cleanupret from %c unwind to caller
done:
  ret void
}
declare i32 @g(i32)
declare i32 @__gxx_personality_v0(...)
declare i32 @__CxxFrameHandler3(...)
@_ZTIi = external constant ptr
`);
    const [inv, , lp, res] = fn(m, 'f').blocks.flatMap((b) => b.instructions);
    assert.deepEqual([inv.opcode, val(inv.callee!), inv.targets, inv.operands.map(val), ty(inv.type)], ['invoke', '@g', ['ok', 'lpad'], ['1'], 'i32']);
    assert.deepEqual([lp.opcode, lp.flags, lp.clauses?.map((c) => [c.kind, val(c.value)]), ty(lp.type)],
      ['landingpad', ['cleanup'], [['catch', '@_ZTIi'], ['filter', '{@_ZTIi}']], '{ ptr, i32 }']);
    assert.deepEqual([res.opcode, res.operands.map(val)], ['resume', ['%lp']]);
    const w = fn(m, 'w').blocks.map((b) => b.instructions.map((i) => i.opcode).join(','));
    assert.deepEqual(w, ['invoke', 'catchswitch', 'catchpad,catchret', 'cleanuppad,cleanupret', 'ret']);
    const cs = fn(m, 'w').blocks[1].instructions[0];
    assert.deepEqual(cs.targets, ['handler']);
  });

  test('debug records (#dbg_declare, #dbg_value) and uselistorder are skipped', () => {
    const insts = body(`
define void @f(i32 %x) !dbg !4 {
entry:
  %x.addr = alloca i32, align 4
    #dbg_declare(ptr %x.addr, !10, !DIExpression(), !11)
  store i32 %x, ptr %x.addr, align 4
    #dbg_value(!DIArgList(i32 %x, i32 1), !10, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value), !11)
  uselistorder ptr %x.addr, { 1, 0 }
  ret void
}
!4 = distinct !DISubprogram(name: "f", file: !5, line: 1)
!5 = !DIFile(filename: "a.cu", directory: "")
!10 = !DILocalVariable(name: "x", arg: 1, scope: !4, file: !5, line: 1, type: !12)
!11 = !DILocation(line: 1, scope: !4)
!12 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
`);
    assert.deepEqual(insts.map((i) => i.opcode), ['alloca', 'store', 'ret']);
  });
});

describe('debug locations', () => {
  test('DILocation scopes lead to a file through lexical blocks, namespaces and block files; inlinedAt is kept', () => {
    const insts = body(`
define void @f() !dbg !4 {
  ret void, !dbg !20
}
define void @g() {
  call void @f(), !dbg !21
  call void @f(), !dbg !22
  call void @f(), !dbg !23
  call void @f(), !dbg !24
  call void @f(), !dbg !25
  call void @f(), !dbg !26
  ret void
}
!1 = !DIFile(filename: "src/main.cu", directory: "/work/p")
!2 = !DIFile(filename: "/usr/include/__clang_cuda_device_functions.h", directory: "/work/p")
!3 = !DIFile(filename: "inc/h.cuh", directory: "/work/p/")
!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 3, spFlags: DISPFlagDefinition)
!5 = distinct !DILexicalBlock(scope: !4, file: !1, line: 4, column: 3)
!6 = !DILexicalBlockFile(scope: !5, file: !3, discriminator: 0)
!7 = !DINamespace(name: "ns", scope: null)
!8 = distinct !DISubprogram(name: "h", scope: !7, file: !2, line: 528, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition)
!9 = distinct !DILexicalBlock(scope: !10, line: 9, column: 1)
!10 = distinct !DISubprogram(name: "noFile", scope: !7, line: 1)
!20 = !DILocation(line: 6, column: 1, scope: !4)
!21 = !DILocation(line: 5, column: 7, scope: !5)
!22 = !DILocation(line: 2, column: 9, scope: !6)
!23 = !DILocation(line: 528, column: 39, scope: !8, inlinedAt: !24)
!24 = distinct !DILocation(line: 11, column: 3, scope: !5)
!25 = !DILocation(line: 9, scope: !9)
!26 = !{!"not a location"}
`);
    const where = (i: LInstruction): string | undefined => i.loc && `${i.loc.file}:${i.loc.line}:${i.loc.column}${i.loc.inlinedAt ? ` inlined at ${i.loc.inlinedAt.file}:${i.loc.inlinedAt.line}:${i.loc.inlinedAt.column}` : ''}`;
    assert.deepEqual(insts.map(where), [
      '/work/p/src/main.cu:5:7',
      '/work/p/inc/h.cuh:2:9',
      '/usr/include/__clang_cuda_device_functions.h:528:39 inlined at /work/p/src/main.cu:11:3',
      '/work/p/src/main.cu:11:3',
      ':9:0',
      undefined,
      undefined,
    ]);
    const first = parseLlvmModule(`define void @f() !dbg !4 {\n  ret void, !dbg !20\n}\n!1 = !DIFile(filename: "a.cu", directory: "/d")\n!4 = distinct !DISubprogram(name: "f", file: !1, line: 3)\n!20 = !DILocation(line: 6, column: 1, scope: !4)\n`);
    assert.deepEqual(first.functions[0].blocks[0].instructions[0].loc, { line: 6, column: 1, file: '/d/a.cu' });
  });

  test('unknown metadata records, strings with escapes and named metadata are read or skipped', () => {
    const m = parseLlvmModule(`
define void @f() {
  ret void, !dbg !11
}
!11 = !DILocation(line: 3, column: 2, scope: !4)
!llvm.module.flags = !{!0, !1}
!llvm.ident = !{!2}
!nvvmir.version = !{!3}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!2 = !{!"clang version 22 \\22quoted\\22"}
!3 = !{i32 2, i32 0}
!4 = !DIFutureRecord(kind: Unheard, values: !{!5, null, i64 -3}, flag: A | B, f: 1.5, v: i32 7, t: true, file: !10)
!5 = distinct !{!5, !6}
!6 = !{!"llvm.loop.mustprogress"}
!7 = !DIExpression(DW_OP_constu, 4, DW_OP_minus, DW_OP_stack_value)
!8 = !DITemplateValueParameter(name: "N", type: !9, value: i32 4)
!9 = !DICompositeType(tag: DW_TAG_structure_type, name: "S", file: !10, line: 2, size: 64, flags: DIFlagTypePassByValue, elements: !{}, identifier: "_ZTS1S")
!10 = !DIFile(filename: "a\\5Cb.cu", directory: "/d", checksumkind: CSK_MD5, checksum: "0123")
!12 = !DIFutureRecord(text: "unbalanced ( in a string", other: !{!"]"})
`);
    assert.deepEqual(m.functions[0].blocks[0].instructions[0].loc, { line: 3, column: 2, file: '/d/a\\b.cu' });
  });
});

describe('malformed input', () => {
  function errorOf(ir: string): string {
    try {
      parseLlvmModule(ir, 'bad.ll');
    } catch (e) {
      assert.ok(e instanceof LlvmParseError);
      return `${e.line}:${e.column} ${e.detail}`;
    }
    assert.fail('expected an LlvmParseError');
  }

  test('errors name the line and column of the IR text', () => {
    assert.equal(errorOf('define void @f() {\n  %1 = frobnicate i32 0\n  ret void\n}'), "2:8 unknown instruction 'frobnicate'");
    assert.equal(errorOf('define void @f() {\nentry:\n  %1 = add i32 1, 2\n}\n'), "2:1 block 'entry' of @f does not end with a terminator");
    assert.equal(errorOf('@g = global i32 0, align'), '1:25 expected an alignment, found end of file');
    assert.equal(errorOf('@s = global [2 x i8] c"ab'), '1:23 unterminated string');
    assert.equal(errorOf('@g = global i33x 0'), "1:13 expected a type, found 'i33x'");
    assert.equal(errorOf('@g = global i32 0xK3FFF8000000000000000'), "1:17 '0xK3FFF8000000000000000' is not an integer");
    assert.equal(errorOf('define void @f() {\n  store i32 1, ptr %p, align 4\n  ret void\n'), '4:1 expected an instruction, found end of file');
    assert.equal(errorOf('define void @f() {\n  ret void, !dbg !1\n}\n!0 = !{}\n!1 = !DILocation(line: 3, column: , scope: !0)\n'), "5:35 expected metadata, found ','");
    assert.equal(errorOf('!0 = !{!1\n!1 = !{}\n'), '1:6 unbalanced brackets in this metadata definition');
    assert.match(new LlvmParseError('k.ll', 3, 4, 'oops').message, /^k\.ll:3:4: oops$/);
  });

  test('no input shape hangs or crashes with anything but LlvmParseError', () => {
    const samples = ['@g = global ' + '[1 x '.repeat(100000), 'define', '@', '%x = type {', '!0 = !{', 'attributes #0 = { "a"', '$c = comdat', 'declare void @f(', '\u00e9', 'define void @f() { ret void'];
    for (const s of samples) {
      assert.throws(() => parseLlvmModule(s), LlvmParseError, JSON.stringify(s));
    }
  });
});

describe('IR that clang produced', () => {
  test('a kernel with a barrier, atomics, a volatile store and a struct parameter', async () => {
    const source = [
      'struct Pair { int a; float b; };', // 1
      '__device__ int total;', // 2
      '__shared__ int tile[32];', // 3
      '__global__ void kernel(int *data, Pair pair, volatile int *flag) {', // 4
      '  int i = threadIdx.x + blockIdx.x * blockDim.x;', // 5
      '  tile[i % 32] = data[i];', // 6
      '  __syncthreads();', // 7
      '  atomicAdd(&total, pair.a);', // 8
      '  atomicAdd_block(data, 1);', // 9
      '  *flag = (int)pair.b;', // 10
      '  __threadfence();', // 11
      '}', // 12
    ].join('\n');
    const m = parseLlvmModule(await cudaToDeviceIr(source), 'k.ll');
    assert.equal(m.triple, 'nvptx-nvidia-cuda');
    const k = m.functions.find((f) => f.callingConv === 'ptx_kernel');
    assert.ok(k);
    assert.equal(k.debug?.name, 'kernel');
    assert.equal(k.debug?.line, 4);
    assert.deepEqual(k.params.map((p) => p.byval && ty(p.byval)), [undefined, '%struct.Pair', undefined]);
    const pair = m.types.get('struct.Pair');
    assert.equal(pair && ty({ ...pair, name: undefined } as LType), '{ i32, float }');
    assert.deepEqual(m.globals.filter((g) => g.name === 'total' || g.name === 'tile').map((g) => [g.name, g.addrspace]), [['total', 1], ['tile', 3]]);

    const insts = k.blocks.flatMap((b) => b.instructions);
    // Every instruction clang gave a location points into k.cu (or through an inlined call into it).
    const sourceLine = (i: LInstruction): number | undefined => {
      let loc = i.loc;
      while (loc?.inlinedAt) loc = loc.inlinedAt;
      return loc?.file === 'k.cu' ? loc.line : undefined;
    };
    const callLine = (name: RegExp): number | undefined =>
      sourceLine(insts.find((i) => i.opcode === 'call' && i.callee?.kind === 'global' && name.test(i.callee.name))!);
    assert.equal(callLine(/barrier/), 7);
    assert.equal(callLine(/atomicAdd(?!_block)/), 8);
    assert.equal(callLine(/atomicAdd_block/), 9);
    assert.equal(callLine(/membar\.gl/), 11);
    assert.equal(callLine(/sreg\.tid\.x/), 5);
    const volatileStore = insts.filter((i) => i.opcode === 'store' && i.volatile);
    assert.deepEqual(volatileStore.map(sourceLine), [10]);
    const atomicAdd = m.functions.find((f) => f.name === '_Z9atomicAddPii')!;
    const rmw = atomicAdd.blocks.flatMap((b) => b.instructions).find((i) => i.opcode === 'atomicrmw');
    assert.deepEqual([rmw?.atomicOp, rmw?.ordering], ['add', 'seq_cst']);
    for (const i of insts) assert.ok(i.loc === undefined || sourceLine(i) !== undefined || i.loc.file.startsWith('/usr/include'), `${i.opcode} at ${JSON.stringify(i.loc)}`);
  });

  test('-O1 with full debug info: phis, selects, local variables, and lexical blocks', async () => {
    const source = [
      '__global__ void scan(int *a, int n) {', // 1
      '  int sum = 0;', // 2
      '  for (int i = 0; i < n; i++) {', // 3
      '    int v = a[i];', // 4
      '    sum += v > 0 ? v : -v;', // 5
      '  }', // 6
      '  a[threadIdx.x] = sum;', // 7
      '}', // 8
    ].join('\n');
    const m = parseLlvmModule(await cudaToDeviceIr(source, { optimize: '-O1', debugInfo: 'constructor' }), 'k.ll');
    const k = m.functions.find((f) => f.callingConv === 'ptx_kernel')!;
    const insts = k.blocks.flatMap((b) => b.instructions);
    assert.ok(insts.some((i) => i.opcode === 'phi'));
    const loadLine = insts.find((i) => i.opcode === 'load')?.loc;
    assert.deepEqual([loadLine?.file, loadLine?.line], ['k.cu', 4]);
    const store = insts.find((i) => i.opcode === 'store')?.loc;
    assert.deepEqual([store?.file, store?.line], ['k.cu', 7]);
    // Every branch target names a block of the function.
    const labels = new Set(k.blocks.map((b) => b.label));
    for (const i of insts) for (const t of i.targets ?? []) assert.ok(labels.has(t), `target ${t}`);
    for (const i of insts) for (const inc of i.incoming ?? []) assert.ok(labels.has(inc.block), `phi block ${inc.block}`);
  });
});
