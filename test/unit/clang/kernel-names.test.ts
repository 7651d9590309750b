// The host and device passes name a kernel instantiated with something local to main apart:
// WebAssembly's main(int, char **) carries its parameter types, the device pass's main none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deviceSpelling } from '../../../sims/clang/host/registration';

test("a kernel of a lambda local to main(int, char **) is found by the device pass's name", () => {
  assert.equal(deviceSpelling('_Z1kIZ4mainiPPcEUliE_EvPfT_'), '_Z1kIZ4mainEUliE_EvPfT_');
  assert.equal(deviceSpelling('_Z1kIZ4mainiPPKcEUliE_EvPfT_'), '_Z1kIZ4mainEUliE_EvPfT_');
  assert.equal(deviceSpelling('_Z1kIZ4mainvEUliE_EvPfT_'), '_Z1kIZ4mainEUliE_EvPfT_');
  // Names with nothing local to main, or to a function that is not main, stay as they are.
  assert.equal(deviceSpelling('_Z6reducePfi'), '_Z6reducePfi');
  assert.equal(deviceSpelling('_Z1kIZ7computeiPPcEUliE_EvPfT_'), '_Z1kIZ7computeiPPcEUliE_EvPfT_');
  assert.equal(deviceSpelling('_Z1kIZ8mainloopiEUliE_EvPfT_'), '_Z1kIZ8mainloopiEUliE_EvPfT_');
});
