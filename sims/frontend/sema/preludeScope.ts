// The prelude is parsed and analysed once per process; every file's scope is a child of it.
import { lex } from '../lexer';
import { parseTokens } from '../parser';
import { analyze, defineBuiltinVariables } from './analyzer';
import { PRELUDE_FILE, PRELUDE_TEXT } from './prelude';
import { Scope } from './scope';

let cached: Scope | undefined;

export function preludeScope(): Scope {
  if (cached) return cached;
  const { tokens } = lex(PRELUDE_TEXT, PRELUDE_FILE);
  const { ast, diagnostics } = parseTokens(tokens, PRELUDE_FILE);
  if (diagnostics.length) {
    // The prelude is our own code: a problem here is a bug, not a user error.
    throw new Error(`internal error: the CUDA prelude does not parse: ${diagnostics[0].message}`);
  }
  const root = new Scope(undefined, 'prelude');
  defineBuiltinVariables(root);
  const { fileScope } = analyze(ast, { preludeScope: root, quiet: true });
  cached = fileScope;
  return fileScope;
}
