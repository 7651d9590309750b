// The texture unit and surfaces without a compiler: sampling a CUDA array the runtime laid out
// (address modes, filtering weights, cubemap faces, normalised reads, layers, gathers), linear
// fetches, surface boundary modes, and the layouts the host calls read the descriptors with.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DeviceFault, type AccessContext } from '../../../sims/gpu/access';
import { Memory, pointerAllocation, pointerOffset } from '../../../sims/gpu/memory';
import type { Range } from '../../../sims/frontend/source';
import { accessSurface, fetchLinear, fetchTexture } from '../../../sims/clang/device/textures';
import { TEXTURE_LAYOUTS } from '../../../sims/clang/host/textureCalls';
import { GRAPH_LAYOUTS } from '../../../sims/clang/host/graphCalls';
import { ADDRESS_BORDER, ADDRESS_CLAMP, ADDRESS_MIRROR, ADDRESS_WRAP, elementSizeOf, type ChannelFormat, type CudaArray, type TextureObject } from '../../../sims/runtime/textures';

const RANGE = { file: 'k.cu', start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 2, offset: 1 } } as unknown as Range;
const FLOAT: ChannelFormat = { bits: [32, 0, 0, 0], kind: 'float' };
const TEX_1D = 0x01;
const TEX_2D = 0x02;
const TEX_3D = 0x03;
const CUBEMAP = 0x0c;
const LAYERED = 0xf0;
const GATHER = 0x200;

function context(): AccessContext {
  return { memory: new Memory(), accessor: 'device', runtime: { undefinedOperation: () => undefined } };
}

/** An array of `format` filled with `values` (one number per channel, element after element). */
function arrayOf(ctx: AccessContext, format: ChannelFormat, width: number, rows: number, slices: number, values: number[]): CudaArray {
  const es = elementSizeOf(format) as number;
  const pointer = ctx.memory.allocate('global', es * width * rows * slices, { label: 'img' });
  const view = ctx.memory.allocation(pointerAllocation(pointer))!.view;
  const channels = format.bits.filter((b) => b > 0);
  values.forEach((v, i) => {
    const bits = channels[i % channels.length];
    const at = Math.floor(i / channels.length) * es + channels.slice(0, i % channels.length).reduce((n, b) => n + b / 8, 0);
    if (format.kind === 'float') view.setFloat32(at, v, true);
    else if (bits === 8) view.setUint8(at, v & 0xff);
    else if (bits === 16) view.setUint16(at, v & 0xffff, true);
    else view.setUint32(at, v >>> 0, true);
  });
  return { pointer, format, elementSize: es, width, height: rows, depth: slices > 1 ? slices : 0, flags: 0, rows, slices };
}

function texture(array: CudaArray, options: Partial<TextureObject> = {}): TextureObject {
  return {
    resource: { kind: 'array', array }, addressModes: [ADDRESS_CLAMP, ADDRESS_CLAMP, ADDRESS_CLAMP], linearFilter: false, normalizedRead: false,
    normalizedCoords: false, borderColor: [7, 8, 9, 10], resourceDesc: new Uint8Array(40), textureDesc: new Uint8Array(72), viewDesc: undefined, ...options,
  };
}

const OUT = new Uint32Array(4);
const F = new Float32Array(OUT.buffer);

function fetchFloat(ctx: AccessContext, t: TextureObject, kind: number, x: number, y = 0, z = 0, layer = 0): number[] {
  fetchTexture(ctx, t, kind, x, y, z, layer, OUT, RANGE);
  return [...F];
}

/** 4 × 3 floats, v(x, y) = 10 y + x. */
function image(ctx: AccessContext): CudaArray {
  const values: number[] = [];
  for (let y = 0; y < 3; y++) for (let x = 0; x < 4; x++) values.push(10 * y + x);
  return arrayOf(ctx, FLOAT, 4, 3, 1, values);
}

test('point sampling under each address mode: clamp, border, and wrap and mirror with normalised coordinates', () => {
  const ctx = context();
  const img = image(ctx);
  assert.equal(fetchFloat(ctx, texture(img), TEX_2D, 2.9, 1.1)[0], 12, 'the texel under the point');
  assert.equal(fetchFloat(ctx, texture(img), TEX_2D, -5, 9)[0], 20, 'clamped into the image');
  assert.deepEqual(fetchFloat(ctx, texture(img, { addressModes: [ADDRESS_BORDER, ADDRESS_BORDER, ADDRESS_BORDER] }), TEX_2D, -0.5, 0.5), [7, 8, 9, 10], 'the border colour outside');
  const normalized = (mode: number) => texture(img, { addressModes: [mode, mode, mode], normalizedCoords: true });
  assert.equal(fetchFloat(ctx, normalized(ADDRESS_WRAP), TEX_2D, 1.125, 0.5)[0], 10, 'x = 4.5 texels wraps to texel 0');
  assert.equal(fetchFloat(ctx, normalized(ADDRESS_MIRROR), TEX_2D, 1.125, 0.5)[0], 13, 'and mirrors to texel 3');
  assert.equal(fetchFloat(ctx, normalized(ADDRESS_MIRROR), TEX_2D, -0.125, 0.5)[0], 10, 'a negative coordinate mirrors to texel 0');
  // Unnormalised coordinates cannot wrap: the guide says wrap and mirror clamp then.
  assert.equal(fetchFloat(ctx, texture(img, { addressModes: [ADDRESS_WRAP, ADDRESS_WRAP, ADDRESS_WRAP] }), TEX_2D, 5.5, 0.5)[0], 3);
  assert.equal(fetchFloat(ctx, texture(img), TEX_2D, NaN, 1.5)[0], 10, 'a NaN coordinate reads texel 0, never throws');
});

test('linear filtering weighs texels with the hardware’s 8-bit fractions', () => {
  const ctx = context();
  const t = texture(image(ctx), { linearFilter: true });
  assert.equal(fetchFloat(ctx, t, TEX_2D, 1.5, 1.5)[0], 11, 'at a texel centre: that texel');
  // x = 1.8: 1.3 texels from the first centre, weight 0.3 → 77/256; y = 1.0 halfway between rows.
  const a = 77 / 256;
  assert.ok(Math.abs(fetchFloat(ctx, t, TEX_2D, 1.8, 1.0)[0] - ((1 - a) * 6 + a * 7)) < 1e-5);
  // An integer texture read as integers is never filtered.
  const ints = arrayOf(ctx, { bits: [32, 0, 0, 0], kind: 'signed' }, 2, 1, 1, [5, -9]);
  fetchTexture(ctx, texture(ints, { linearFilter: true }), TEX_1D, 1.9, 0, 0, 0, OUT, RANGE);
  assert.equal(OUT[0] | 0, -9);
});

test('integer channels read as normalised floats; missing channels read 0, alpha 1', () => {
  const ctx = context();
  const bytes = arrayOf(ctx, { bits: [8, 8, 0, 0], kind: 'unsigned' }, 1, 1, 1, [51, 255]);
  assert.deepEqual(fetchFloat(ctx, texture(bytes, { normalizedRead: true }), TEX_1D, 0.5).map((v) => +v.toFixed(6)), [0.2, 1, 0, 1]);
  const signed = arrayOf(ctx, { bits: [8, 0, 0, 0], kind: 'signed' }, 2, 1, 1, [-128, 127]);
  assert.equal(fetchFloat(ctx, texture(signed, { normalizedRead: true }), TEX_1D, 0.5)[0], -1, '-128 reads -1, not below');
  fetchTexture(ctx, texture(bytes), TEX_1D, 0.5, 0, 0, 0, OUT, RANGE);
  assert.deepEqual([...OUT], [51, 255, 0, 0], 'read as elements: the integers');
});

test('layers, 3D slices and cubemap faces', () => {
  const ctx = context();
  const values: number[] = [];
  for (let s = 0; s < 6; s++) for (let i = 0; i < 4; i++) values.push(s);
  const cube = arrayOf(ctx, FLOAT, 2, 2, 6, values);
  const dirs: [number, number, number][] = [[1, 0.2, -0.3], [-1, 0.1, 0.1], [0.3, 2, -0.1], [0, -1, 0], [0.2, 0.2, 1], [0, 0, -3]];
  dirs.forEach((d, face) => assert.equal(fetchFloat(ctx, texture(cube, { linearFilter: true }), CUBEMAP, ...d)[0], face, `direction ${d} reads face ${face}`));
  assert.equal(fetchFloat(ctx, texture(cube), CUBEMAP, 0, 0, 0)[0], 0, 'the zero direction reads face 0');
  assert.equal(fetchFloat(ctx, texture(cube), TEX_2D | LAYERED, 0.5, 0.5, 0, 4)[0], 4, 'layer 4');
  assert.equal(fetchFloat(ctx, texture(cube), TEX_2D | LAYERED, 0.5, 0.5, 0, 99)[0], 5, 'a layer past the last reads the last');
  assert.equal(fetchFloat(ctx, texture(cube, { linearFilter: true }), TEX_3D, 1, 1, 2.5)[0], 2, 'slice 2 of a 3D texture');
  assert.equal(fetchFloat(ctx, texture(cube, { linearFilter: true }), TEX_3D, 1, 1, 3)[0], 2.5, 'halfway between slices 2 and 3');
});

test('a gather returns one component of the four texels bilinear filtering would read', () => {
  const ctx = context();
  assert.deepEqual(fetchFloat(ctx, texture(image(ctx)), TEX_2D | GATHER, 1, 1, 0, 0), [10, 11, 1, 0]);
});

test('tex1Dfetch reads linear memory by index, zeros outside it; the wrong kind of fetch is a fault', () => {
  const ctx = context();
  const pointer = ctx.memory.allocate('global', 16, { label: 'values' });
  new DataView(ctx.memory.allocation(pointerAllocation(pointer))!.bytes.buffer).setInt32(8, 42, true);
  const linear: TextureObject = { ...texture(image(ctx)), resource: { kind: 'linear', pointer, format: { bits: [32, 0, 0, 0], kind: 'signed' }, elementSize: 4, bytes: 16 } };
  const seen: number[] = [];
  fetchLinear(ctx, linear, 2, OUT, RANGE, (p) => seen.push(pointerOffset(p)));
  assert.equal(OUT[0], 42);
  assert.deepEqual(seen, [8], 'the element read is reported');
  fetchLinear(ctx, linear, 4, OUT, RANGE);
  assert.deepEqual([...OUT], [0, 0, 0, 0]);
  fetchLinear(ctx, linear, -1, OUT, RANGE);
  assert.deepEqual([...OUT], [0, 0, 0, 0]);
  assert.throws(() => fetchTexture(ctx, linear, TEX_2D, 0, 0, 0, 0, OUT, RANGE), (e: unknown) => e instanceof DeviceFault && /tex1Dfetch/.test(e.message));
  assert.throws(() => fetchLinear(ctx, texture(image(ctx)), 0, OUT, RANGE), (e: unknown) => e instanceof DeviceFault && /tex1D or tex2D/.test(e.message));
});

test('a texture over freed memory faults as a use after free', () => {
  const ctx = context();
  const img = image(ctx);
  ctx.memory.free(img.pointer, 'device');
  assert.throws(() => fetchFloat(ctx, texture(img), TEX_2D, 0.5, 0.5), (e: unknown) => e instanceof DeviceFault && e.fault.kind === 'use-after-free');
});

test('surfaces: byte columns, and the trap, clamp and zero boundary modes', () => {
  const ctx = context();
  const img = image(ctx);
  const surface = { array: img, resourceDesc: new Uint8Array(40) };
  const data = ctx.memory.allocate('local', 4, { label: 'value' });
  const dataView = ctx.memory.allocation(pointerAllocation(data))!.view;
  const imgView = ctx.memory.allocation(pointerAllocation(img.pointer))!.view;
  dataView.setFloat32(0, 99, true);
  const writes: number[] = [];
  accessSurface(ctx, surface, TEX_2D, 8, 1, 0, 0, data, 4, true, 2, RANGE, (p, size, write) => write && writes.push(pointerOffset(p), size));
  assert.equal(imgView.getFloat32((1 * 4 + 2) * 4, true), 99, 'byte 8 of row 1 is element 2');
  assert.deepEqual(writes, [24, 4]);
  accessSurface(ctx, surface, TEX_2D, 0, 2, 0, 0, data, 4, false, 2, RANGE);
  assert.equal(dataView.getFloat32(0, true), 20, 'a read copies the element out');
  assert.throws(() => accessSurface(ctx, surface, TEX_2D, 16, 0, 0, 0, data, 4, false, 2, RANGE), (e: unknown) => e instanceof DeviceFault && e.fault.kind === 'out-of-bounds' && /outside the 4×3 array/.test(e.message));
  assert.throws(() => accessSurface(ctx, surface, TEX_2D, 2, 0, 0, 0, data, 4, false, 2, RANGE), (e: unknown) => e instanceof DeviceFault && e.fault.kind === 'misaligned');
  accessSurface(ctx, surface, TEX_2D, 400, -3, 0, 0, data, 4, false, 1, RANGE);
  assert.equal(dataView.getFloat32(0, true), 3, 'clamp: the nearest element, (3, 0)');
  accessSurface(ctx, surface, TEX_2D, 0, 7, 0, 0, data, 4, false, 0, RANGE);
  assert.equal(dataView.getFloat32(0, true), 0, 'zero: a read outside gives zeros');
  dataView.setFloat32(0, 5, true);
  accessSurface(ctx, surface, TEX_2D, 0, 7, 0, 0, data, 4, true, 0, RANGE);
  assert.equal(imgView.getFloat32(0, true), 0, 'and a write outside changes nothing');
});

test('channel formats: element sizes, and the formats a GPU cannot have', () => {
  assert.equal(elementSizeOf({ bits: [8, 8, 8, 8], kind: 'unsigned' }), 4);
  assert.equal(elementSizeOf({ bits: [32, 32, 0, 0], kind: 'float' }), 8);
  assert.equal(elementSizeOf({ bits: [16, 0, 0, 0], kind: 'float' }), 2, 'half');
  assert.match(String(elementSizeOf({ bits: [8, 0, 8, 0], kind: 'unsigned' })), /gap/);
  assert.match(String(elementSizeOf({ bits: [12, 0, 0, 0], kind: 'signed' })), /12-bit/);
  assert.match(String(elementSizeOf({ bits: [0, 0, 0, 0], kind: 'signed' })), /no channels/);
});

test('the host calls (textures, graphs) read descriptors with the layouts clang gives the project’s headers', () => {
  const file = path.resolve(__dirname, '../../../sims/clang/include/layouts.json');
  const structs = JSON.parse(fs.readFileSync(file, 'utf8')).structs as Record<string, { size: number; fields: Record<string, { offset: number }> }>;
  for (const [name, fields] of Object.entries({ ...TEXTURE_LAYOUTS, ...GRAPH_LAYOUTS })) {
    const s = structs[name];
    assert.ok(s, `layouts.json has ${name}`);
    for (const [field, offset] of Object.entries(fields)) {
      if (field === 'size') assert.equal(s.size, offset, `sizeof(${name})`);
      // A field named `size` is written `size_` beside the struct's own size.
      else assert.equal(s.fields[field.replace(/_$/, '')]?.offset, offset, `offsetof(${name}, ${field})`);
    }
  }
});
