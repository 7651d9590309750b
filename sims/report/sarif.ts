// A check report as SARIF 2.1.0 (OASIS), the format code-scanning services and editors read:
// one run of the tool "scord", one rule per category found, one result per finding, with
// the other access as a related location and each fix as a SARIF fix.
//
// The report's diagnostics (the file could not be read, parsed or run: syntax and semantic
// errors, unsupported constructs, a malformed launch header) go into the invocation's
// toolExecutionNotifications, not the results. They say whether scord could analyse the
// file, not what is wrong with its synchronisation: SARIF keeps "the tool could not analyse
// this" in notifications (§3.20.21), with executionSuccessful false; a code-scanning service
// shows them as the tool's status instead of opening alerts that it would track and then
// close as "fixed" the moment the file parses again.
import { pathToFileURL } from 'node:url';
import * as path from 'node:path';
import type * as Sarif from 'sarif';
import type { CheckDiagnostic, CheckReport, Location } from '../check';
import { location as toLocation } from '../check';
import { DIAGNOSTIC_CODES } from '../frontend/codes';

/** What each category of finding means: the rule's short description. */
const CATEGORY_DESCRIPTIONS: Readonly<Record<string, string>> = {
  'missing-block-fence': 'Two warps of one block access the same data with no __threadfence_block() or barrier ordering them',
  'missing-device-fence': 'Two blocks access the same data with no device-scope fence (__threadfence()) ordering them',
  'non-strong-access': 'A fence orders only strong (volatile or atomic) accesses, and one of the racing accesses is neither',
  'scoped-atomic': 'A block-scope atomic (atomic*_block) used on data that other blocks also access',
  'missing-lock': 'Accesses that hold no common lock',
  'lock-scope': 'Accesses under a lock taken with atomicCAS_block, which is a different lock in each block',
  'lock-fence-scope': 'A lock taken with atomicCAS with no fence of the lock\'s scope after it (none, or a narrower one): the lock is not held',
  'lock-release-fence': 'A lock released with atomicExch with no fence of the lock\'s scope before it: the critical section may become visible after the unlock',
  'shared-memory': 'Two threads access a __shared__ word in one barrier interval, one of them writing',
  'intra-warp': 'Two lanes of one warp that has not diverged access a word, one of them writing, with no __syncwarp() between them',
  'benign-same-value': 'A race whose writes leave the word holding the same value whichever runs first (benign on today\'s GPUs)',
  'out-of-bounds': 'A memory access outside its allocation',
  'null-dereference': 'A dereference of a null pointer',
  'use-after-free': 'An access to, or a free of, memory that was already freed',
  misaligned: 'A memory access at an address not aligned to its size',
  'host-dereferences-device': 'Host code dereferences a device pointer',
  'device-dereferences-host': 'Device code dereferences a host pointer',
  'write-to-constant': 'A write to __constant__ memory from device code',
  'invalid-pointer': 'An access through a pointer that points into no allocation',
  'invalid-free': 'A free of a pointer that did not come from the matching allocation call',
  'memcpy-out-of-bounds': 'A cudaMemcpy that overruns one of its buffers',
  'memcpy-direction': 'A cudaMemcpy or cudaMemset whose kind does not match where the memory is',
  'assertion-failed': 'A failed assert() in device or host code',
  deadlock: 'Threads that can never move again: waiting at a barrier or warp operation, or spinning on memory that nothing changes',
  'barrier-divergence': 'A __syncthreads() that not every thread of the block reaches',
  'launch-configuration': 'A kernel launch the device refuses: too many threads, too much shared memory, a zero dimension',
  'step-budget': 'A run that did not finish within the step budget (an endless loop, or too much work for the simulator)',
  'division-by-zero': 'An integer division by zero',
  'invalid-shift': 'A shift by the width of the type or more, or by a negative amount',
  'memory-limit': 'A launch, variable or run that needs more memory than the run may hold (--memory-limit, scord.analysis.memoryLimitMb)',
  'uninitialized-read': 'A device read of cudaMalloc\'d memory that nothing has written (with --initcheck)',
  'undefined-function': 'A call of a device function that is declared but defined nowhere in the program (the run treats it as doing nothing)',
  'unmet-precondition': "A GPUVerify precondition (__requires) that does not hold for the arguments a run made up for a kernel launched on its own (the thread stops there)",
};

/** The codes `scord check` itself gives to files it cannot analyse (besides the front end's). */
const CHECK_CODES: Readonly<Record<string, string>> = {
  launch: 'No launch to analyse: no main and no kernel, several kernels and no --kernel, no grid or block size, or a launch beyond the limits',
  'launch-header': 'A malformed //--blockDim, --gridDim or -D in the launch header of a kernel-only file',
};

/** What docs/diagnostic-codes.md documents under its own anchor (besides the diagnostic codes). */
const DOCUMENTED_ANCHORS: ReadonlySet<string> = new Set(['missing-block-fence', 'missing-device-fence', 'non-strong-access', 'scoped-atomic', 'missing-lock', 'lock-scope', 'lock-fence-scope', 'lock-release-fence', 'shared-memory', ...Object.keys(CHECK_CODES)]);

/**
 * The anchor of docs/diagnostic-codes.md that documents `id`, if it has one. The page ships
 * with the extension and the CLI, so the editor links the copy beside them; SARIF carries no help address, as the
 * project has no public one that would resolve for a reader of the log.
 */
export function documentedAnchor(id: string): string | undefined {
  return id in DIAGNOSTIC_CODES || DOCUMENTED_ANCHORS.has(id) ? id : undefined;
}

export interface SarifOptions {
  /** Relative file names are made relative URIs against this folder (%SRCROOT%); default: the process's. */
  cwd?: string;
  /** The command's exit status, recorded in the invocation. */
  exitCode?: number;
}

const SRCROOT = '%SRCROOT%';

export function toSarif(report: CheckReport, options: SarifOptions = {}): Sarif.Log {
  const cwd = options.cwd ?? process.cwd();
  const artifact = (file: string): Sarif.ArtifactLocation => {
    if (path.isAbsolute(file)) return { uri: pathToFileURL(file).href };
    return { uri: file.split(/[\\/]/).map(encodeURIComponent).join('/'), uriBaseId: SRCROOT };
  };
  const region = (l: Location): Sarif.Region => ({ startLine: l.line, startColumn: l.column, endLine: l.endLine, endColumn: l.endColumn });
  const physical = (l: Location): Sarif.PhysicalLocation => ({ artifactLocation: artifact(l.file), region: region(l) });

  const rules: Sarif.ReportingDescriptor[] = [];
  const ruleIndex = new Map<string, number>();
  const ruleFor = (category: string, severity: 'error' | 'warning' | 'note'): number => {
    let i = ruleIndex.get(category);
    if (i === undefined) {
      i = rules.length;
      ruleIndex.set(category, i);
      rules.push({
        id: category,
        shortDescription: { text: CATEGORY_DESCRIPTIONS[category] ?? `scord finding: ${category}` },
        defaultConfiguration: { level: severity },
      });
    }
    return i;
  };

  const results: Sarif.Result[] = report.findings.map((f) => {
    // SARIF calls information a note (benign same-value races).
    const level = f.severity === 'information' ? 'note' : f.severity;
    const index = ruleFor(f.category, level);
    const properties: Sarif.PropertyBag = { kind: f.kind, scope: f.scope, count: f.count };
    if (f.address !== undefined) properties.address = f.address;
    if (f.accessor) properties.accessor = f.accessor;
    if (f.previousAccessor) properties.previousAccessor = f.previousAccessor;
    const result: Sarif.Result = {
      ruleId: f.category,
      ruleIndex: index,
      level,
      message: { text: f.message },
      locations: [{ physicalLocation: physical(f.location) }],
      properties,
    };
    if (f.related.length) result.relatedLocations = f.related.map((r, i) => ({ id: i + 1, physicalLocation: physical(r.location), message: { text: r.message } }));
    if (f.fixes.length) {
      result.fixes = f.fixes.map((fix): Sarif.Fix => {
        // One artifactChange per file the fix edits, its replacements in the order given.
        const byFile = new Map<string, Sarif.Replacement[]>();
        for (const e of fix.edits) {
          const l = toLocation(e.range);
          const list = byFile.get(l.file) ?? [];
          byFile.set(l.file, list);
          list.push({ deletedRegion: region(l), insertedContent: { text: e.newText } });
        }
        return {
          description: { text: fix.title },
          artifactChanges: [...byFile].map(([file, replacements]) => ({ artifactLocation: artifact(file), replacements })),
          ...(fix.preferred ? { properties: { preferred: true } } : {}),
        };
      });
    }
    return result;
  });

  // Diagnostics: see the comment at the top. Codes get descriptors of their own.
  const notificationDescriptors: Sarif.ReportingDescriptor[] = [];
  const notificationIndex = new Map<string, number>();
  const descriptorFor = (code: string): number => {
    let i = notificationIndex.get(code);
    if (i === undefined) {
      i = notificationDescriptors.length;
      notificationIndex.set(code, i);
      const summary = DIAGNOSTIC_CODES[code]?.summary ?? CHECK_CODES[code];
      notificationDescriptors.push({ id: code, ...(summary ? { shortDescription: { text: summary } } : {}) });
    }
    return i;
  };
  const notifications = report.diagnostics.map((d: CheckDiagnostic): Sarif.Notification => ({
    level: d.severity === 'information' ? 'note' : d.severity,
    message: { text: d.message },
    ...(d.location ? { locations: [{ physicalLocation: physical(d.location) }] } : {}),
    ...(d.code ? { descriptor: { id: d.code, index: descriptorFor(d.code) } } : {}),
  }));

  const driver: Sarif.ToolComponent = { name: 'scord', rules };
  if (notificationDescriptors.length) driver.notifications = notificationDescriptors;
  const invocation: Sarif.Invocation = { executionSuccessful: report.analysed };
  if (options.exitCode !== undefined) invocation.exitCode = options.exitCode;
  if (notifications.length) invocation.toolExecutionNotifications = notifications;
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver },
        originalUriBaseIds: { [SRCROOT]: { uri: pathToFileURL(cwd.endsWith(path.sep) ? cwd : cwd + path.sep).href } },
        invocations: [invocation],
        columnKind: 'utf16CodeUnits',
        results,
        properties: { stats: report.stats },
      },
    ],
  };
}
