// A kernel of the built-in front end lowered to the simulator's IR, without running anything:
// for tests of what the block compiler makes of its blocks.
import assert from 'node:assert/strict';
import { functionsOf } from '../../sims/frontend/index';
import { VOID } from '../../sims/frontend/types';
import { Memory } from '../../sims/gpu/memory';
import type { CompiledFunction } from '../../sims/ir/ir';
import { FunctionLowerer } from '../../sims/ir/lower';
import { parseVirtual } from './parseFile';

/** The kernel `name` of `source` (a file without main is given one), lowered with or without access events. */
export function lowerKernel(source: string, name = 'k', events = false): CompiledFunction {
  const parsed = parseVirtual({ 'main.cu': /\bmain\s*\(/.test(source) ? source : `${source}\nint main() { return 0; }` });
  const decl = functionsOf(parsed.deviceAst).find((f) => f.name === name);
  assert.ok(decl?.body, `no kernel ${name}`);
  return new FunctionLowerer({ memory: new Memory(), instantiations: parsed.instantiations, kernel: () => assert.fail('no launches'), stringLiteral: () => 0, events }, decl, 'device').compile(
    decl.body,
    decl.params.map((p) => p.resolvedType!),
    undefined,
    VOID,
  );
}
