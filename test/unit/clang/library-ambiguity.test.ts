// A name of the program that collides with one libc++ declares (where libstdc++, nvcc's usual
// library, does not) is explained at clang's error, from clang's own candidate notes, and a
// global of the program is read as the program's own (`::name`) so that the unit compiles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { explainLibraryAmbiguities, type ClangDiagnostic } from '../../../sims/clang/toolchain/diagnostics';
import { qualifyProgramNames } from '../../../sims/clang/toolchain/programNames';
import { SourceSet } from '../../../sims/clang/toolchain/sources';

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

test("the program's own global is read as `::name` in the unit's copy of the file, with a warning; other ambiguities stand", () => {
  const text = 'using namespace std;\nfloat *array;\nint main() {\n    array = 0;\n  return array == 0 ? count : 1;\n}\n';
  const sources = new SourceSet({ includeDirs: [], systemDirs: [] });
  sources.addRoot('/p/main.cu', text);
  const diagnostics = [
    { ...at('error', "reference to 'array' is ambiguous", '/p/main.cu', 4), column: 5 },
    at('note', "candidate found by name lookup is 'array'", '/p/main.cu', 2),
    at('note', "candidate found by name lookup is 'std::array'", '/usr/include/c++/v1/__fwd/array.h', 20),
    { ...at('error', "reference to 'array' is ambiguous", '/p/main.cu', 5), column: 10 },
    at('note', "candidate found by name lookup is 'array'", '/p/main.cu', 2),
    at('note', "candidate found by name lookup is 'std::array'", '/usr/include/c++/v1/__fwd/array.h', 20),
    // Between two of the program's namespaces: the program's to resolve.
    { ...at('error', "reference to 'count' is ambiguous", '/p/main.cu', 5), column: 28 },
    at('note', "candidate found by name lookup is 'a::count'", '/p/main.cu', 1),
    at('note', "candidate found by name lookup is 'b::count'", '/p/main.cu', 1),
  ];
  const warnings = qualifyProgramNames(diagnostics, sources);
  assert.equal(new TextDecoder().decode(sources.files.get('/p/main.cu')), text.replace('    array = 0', '    ::array = 0').replace('return array', 'return ::array'));
  assert.equal(warnings.length, 1, 'one warning per name and file');
  assert.equal(warnings[0].severity, 'warning');
  assert.deepEqual([warnings[0].line, warnings[0].column], [4, 5]);
  assert.match(warnings[0].message, /^`array` is read as the program's own `::array`: libc\+\+ .* `std::array` .*libstdc\+\+/);
});

test('a reported place that does not spell the name (a macro expansion) is left alone, and nothing is compiled again', () => {
  const sources = new SourceSet({ includeDirs: [], systemDirs: [] });
  sources.addRoot('/p/main.cu', '#define A array\nfloat *array;\nint f() { return A == 0; }\n');
  const before = sources.files.get('/p/main.cu');
  const warnings = qualifyProgramNames([
    { ...at('error', "reference to 'array' is ambiguous", '/p/main.cu', 3), column: 18 },
    at('note', "candidate found by name lookup is 'array'", '/p/main.cu', 2),
    at('note', "candidate found by name lookup is 'std::array'", '/usr/include/c++/v1/array', 20),
  ], sources);
  assert.deepEqual(warnings, []);
  assert.equal(sources.files.get('/p/main.cu'), before);
});
