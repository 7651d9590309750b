// A name of the program that collides with one libc++ declares (where libstdc++, nvcc's usual
// library, does not) is explained at clang's error, from clang's own candidate notes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { explainLibraryAmbiguities, type ClangDiagnostic } from '../../../sims/clang/toolchain/diagnostics';

const at = (severity: ClangDiagnostic['severity'], message: string, file: string, line: number): ClangDiagnostic => ({ severity, message, file, line, column: 5 });

test("an ambiguity with a libc++ declaration names the header and the way out; others are left alone", () => {
  const diagnostics = [
    at('error', "reference to 'array' is ambiguous", '/p/main.cu', 70),
    at('note', "candidate found by name lookup is 'array'", '/p/main.cu', 50),
    at('note', "candidate found by name lookup is 'std::array'", '/usr/include/c++/v1/array', 175),
    // Two of the program's own namespaces: nothing to do with the library.
    at('error', "reference to 'count' is ambiguous", '/p/main.cu', 80),
    at('note', "candidate found by name lookup is 'a::count'", '/p/main.cu', 10),
    at('note', "candidate found by name lookup is 'b::count'", '/p/main.cu', 20),
  ];
  explainLibraryAmbiguities(diagnostics);
  assert.match(diagnostics[0].message, /^reference to 'array' is ambiguous with `std::array` of libc\+\+'s <array>: .*libstdc\+\+.* write `::array` or rename it$/);
  assert.equal(diagnostics[3].message, "reference to 'count' is ambiguous");
  assert.equal(diagnostics[2].message, "candidate found by name lookup is 'std::array'");
});
