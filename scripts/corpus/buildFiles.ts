// Just enough of CMakeLists.txt and Makefile to learn how a corpus program is built: its
// source files, include folders, -D definitions and (Makefiles) the GPU architecture. Nothing is
// executed; variables the files set from outside (`${CUDAToolkit_INCLUDE_DIRS}`, generator
// expressions) are left out.
import { flagsOf } from '../../sims/clang/compileCommands';

export interface CmakeTarget {
  name: string;
  sources: string[];
}

export interface CmakeInfo {
  targets: CmakeTarget[];
  /** Relative include folders of `include_directories` and `target_include_directories`. */
  includeDirs: string[];
}

const CMAKE_KEYWORDS = new Set(['WIN32', 'MACOSX_BUNDLE', 'EXCLUDE_FROM_ALL', 'PRIVATE', 'PUBLIC', 'INTERFACE', 'SYSTEM', 'BEFORE', 'AFTER']);

/** The commands `name( … )` of a CMake file with their plain arguments (no variables, no keywords). */
function cmakeCommands(text: string, name: string): string[][] {
  const code = text.replace(/#[^\n]*/g, '');
  const out: string[][] = [];
  const re = new RegExp(`\\b${name}\\s*\\(([^)]*)\\)`, 'g');
  for (const m of code.matchAll(re)) {
    const words = m[1].split(/\s+/).map((w) => w.replace(/^"|"$/g, '')).filter((w) => w && !CMAKE_KEYWORDS.has(w) && !w.includes('${') && !w.includes('$<'));
    out.push(words);
  }
  return out;
}

export function readCmake(text: string): CmakeInfo {
  const targets = cmakeCommands(text, 'add_executable').filter((w) => w.length >= 2).map(([name, ...sources]) => ({ name, sources }));
  const includeDirs = [...cmakeCommands(text, 'include_directories').flat(), ...cmakeCommands(text, 'target_include_directories').flatMap((w) => w.slice(1))];
  return { targets, includeDirs: [...new Set(includeDirs)] };
}

/** A Makefile's variables, with `ifeq`/`ifneq` blocks decided by the variables given. */
export function readMakeVariables(text: string, given: Record<string, string>): Record<string, string> {
  const vars: Record<string, string> = { ...given };
  // Each entry: is this branch taken, and was an earlier branch of the block taken.
  const stack: { active: boolean; taken: boolean }[] = [];
  const active = (): boolean => stack.every((s) => s.active);
  for (const raw of text.replace(/\\\n/g, ' ').split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    const cond = /^(ifeq|ifneq)\s*\(([^,]*),([^)]*)\)$/.exec(line);
    if (cond) {
      const equal = expandMake(cond[2].trim(), vars) === expandMake(cond[3].trim(), vars);
      const holds = cond[1] === 'ifeq' ? equal : !equal;
      stack.push({ active: holds, taken: holds });
      continue;
    }
    const defined = /^(ifdef|ifndef)\s+(\S+)$/.exec(line);
    if (defined) {
      const holds = (defined[1] === 'ifdef') === !!vars[defined[2]];
      stack.push({ active: holds, taken: holds });
      continue;
    }
    if (line === 'else' && stack.length) {
      const top = stack[stack.length - 1];
      top.active = !top.taken;
      top.taken = true;
      continue;
    }
    if (line === 'endif') {
      stack.pop();
      continue;
    }
    if (!active()) continue;
    const assign = /^([A-Za-z_][\w]*)\s*(\?=|:=|::=|=|\+=)\s*(.*)$/.exec(line);
    if (!assign) continue;
    const [, name, op, value] = assign;
    if (op === '?=' && name in vars) continue;
    if (op === '+=') vars[name] = `${vars[name] ?? ''} ${expandMake(value, vars)}`.trim();
    else vars[name] = op === '=' ? value : expandMake(value, vars);
  }
  return vars;
}

/** Expands `$(NAME)` and `${NAME}` (recursively, as `=` variables are). */
export function expandMake(text: string, vars: Record<string, string>, depth = 0): string {
  if (depth > 10) return text;
  return text.replace(/\$[({]([A-Za-z_]\w*)[)}]/g, (_, name: string) => expandMake(vars[name] ?? '', vars, depth + 1));
}

export interface MakeBuild {
  sources: string[];
  defines: string[];
  includeDirs: string[];
  /** The architecture the recipe builds for (`-arch=compute_60`), when it names one. */
  arch?: number;
}

/**
 * The compile line of a one-executable CUDA Makefile: its sources (`$^` is the target's
 * prerequisites), and the `-D`, `-I` and `-arch` flags of the recipe with its variables expanded.
 */
export function readMakeBuild(text: string, given: Record<string, string>): MakeBuild | undefined {
  const vars = readMakeVariables(text, given);
  const lines = text.replace(/\\\n/g, ' ').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const rule = /^([^\s:#=][^:=]*):(?!=)\s*(.*)$/.exec(lines[i]);
    if (!rule) continue;
    const recipe = lines[i + 1];
    if (!recipe?.startsWith('\t') || !/\$\(NVCC\)|\bnvcc\b/.test(recipe)) continue;
    const prerequisites = expandMake(rule[2], vars).split(/\s+/).filter(Boolean);
    const command = expandMake(recipe.replace(/\$\^/g, prerequisites.join(' ')).replace(/\$@/g, ''), vars);
    const words = command.split(/\s+/).filter(Boolean);
    const defines: string[] = [];
    const includeDirs: string[] = [];
    const sources: string[] = [];
    for (let w = 0; w < words.length; w++) {
      const word = words[w];
      if (word === '-D' || word === '-I') {
        const value = words[++w];
        if (value !== undefined) (word === '-D' ? defines : includeDirs).push(value);
      } else if (word.startsWith('-D')) defines.push(word.slice(2));
      else if (word.startsWith('-I')) includeDirs.push(word.slice(2));
      else if (/\.(cu|cpp|cc|cxx|c)$/.test(word)) sources.push(word);
    }
    const arch = flagsOf(['nvcc', ...words], '/').arch;
    return { sources, defines, includeDirs, ...(arch ? { arch } : {}) };
  }
  return undefined;
}
