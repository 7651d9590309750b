// What is on screen, per document, and the one place that sends it: a document's own
// diagnostics (front end, then its last run), a run's problem said once, and the findings it
// contributes to the headers it includes. A header shows the union over the files that include
// it, and a finding two files of one program both report is shown once.
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver/node';
import type { DiagnosticsByUri } from './diagnostics';
import type { Misreadings } from './shownDiagnostics';

interface Shown {
  own: Diagnostic[];
  headers: Map<string, Diagnostic[]>;
  /** A run that could not finish, said once. */
  problem?: Diagnostic;
  /**
   * The hand-written front end's complaints about a text clang compiled without error: its
   * misreadings of C++ it does not know, not shown again while the file is edited.
   */
  misreadings?: Misreadings;
}

export class DiagnosticsPublisher {
  private readonly shown = new Map<string, Shown>();
  /** Diagnostics a header shows because of the files that include it: header → includer → list. */
  private readonly headerFindings = new Map<string, Map<string, Diagnostic[]>>();

  constructor(
    private readonly send: (params: PublishDiagnosticsParams) => void,
    /** The open document's version, if it is open. */
    private readonly versionOf: (uri: string) => number | undefined,
  ) {}

  /** Shows what a document contributes: its own diagnostics, and those for its headers. */
  show(uri: string, byUri: DiagnosticsByUri): void {
    const state = this.stateOf(uri);
    state.own = byUri.get(uri) ?? [];
    const touched = new Set<string>(state.headers.keys());
    for (const h of touched) this.headerFindings.get(h)?.delete(uri);
    state.headers = new Map([...byUri].filter(([u]) => u !== uri));
    for (const [h, list] of state.headers) {
      if (!this.headerFindings.has(h)) this.headerFindings.set(h, new Map());
      this.headerFindings.get(h)!.set(uri, list);
      touched.add(h);
    }
    this.publish(uri);
    for (const h of touched) if (h !== uri) this.publish(h);
  }

  /** A run's report replaces what is shown: the last problem goes, and its misreadings are kept. */
  showReport(uri: string, shownNow: { diagnostics: DiagnosticsByUri; misreadings?: Misreadings }): void {
    const state = this.stateOf(uri);
    state.problem = undefined;
    state.misreadings = shownNow.misreadings;
    this.show(uri, shownNow.diagnostics);
  }

  /** A run could not finish: said once, at the top of the file, beside what is shown. */
  showProblem(uri: string, message: string): void {
    this.stateOf(uri).problem = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity: 3, source: 'scord', code: 'analysis-stopped', message };
    this.publish(uri);
  }

  misreadings(uri: string): Misreadings | undefined {
    return this.shown.get(uri)?.misreadings;
  }

  /** A closed document leaves nothing behind: its own list, and what it put in headers. */
  forget(uri: string): void {
    const state = this.shown.get(uri);
    this.shown.delete(uri);
    this.send({ uri, diagnostics: [] });
    for (const h of state?.headers.keys() ?? []) {
      this.headerFindings.get(h)?.delete(uri);
      this.publish(h);
    }
  }

  private stateOf(uri: string): Shown {
    const state: Shown = this.shown.get(uri) ?? { own: [], headers: new Map() };
    this.shown.set(uri, state);
    return state;
  }

  private publish(uri: string): void {
    const own = this.shown.get(uri);
    const fromIncluders = [...(this.headerFindings.get(uri)?.values() ?? [])].flat();
    // Files of one program analysed each on its own find the same race (or error) in each other:
    // shown once, the file's own first.
    const seen = new Set<string>();
    const once = (d: Diagnostic): boolean => {
      const key = `${d.range.start.line}:${d.range.start.character}:${d.range.end.line}:${d.range.end.character}:${String(d.code)}:${d.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    };
    const list = [...(own?.own ?? []), ...(own?.problem ? [own.problem] : []), ...fromIncluders].filter(once);
    const version = this.versionOf(uri);
    this.send({ uri, ...(version !== undefined ? { version } : {}), diagnostics: list });
  }
}
