// Code actions for races: a quick fix for every fix the engine offers (the preferred one
// marked, and only when the server has checked that it removes its race), "Show in metadata
// inspector", and `source.fixAll.scord` for all preferred fixes at once. Fixes are offered
// only for the document version they were computed on. A race in a header is shown in the
// header too; its fixes come from the run of the document that includes it, and may edit the
// header (a workspace edit over both files).
import { CodeActionKind, type CodeAction, type CodeActionParams, type Diagnostic, type TextEdit as LspTextEdit, type WorkspaceEdit } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextEdit } from '../../sims/fixes/fixes';
import { applyPreferredFixes } from '../../sims/fixes/apply';
import type { LastRun } from '../analysis/scheduler';
import { ClientCommands, type RaceDiagnosticData } from '../protocol';
import { lspRange, uriOf } from './diagnostics';

export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.scord`;

/** The edits by document: the run's own file is its document, any other file (a header) its file URI. */
function workspaceEdit(edits: TextEdit[], fileName: string, uri: string): WorkspaceEdit {
  const changes: Record<string, LspTextEdit[]> = {};
  for (const e of edits) (changes[e.range.file === fileName ? uri : uriOf(e.range.file)] ??= []).push({ range: lspRange(e.range), newText: e.newText });
  return { changes };
}

/** The run a diagnostic's finding belongs to: the document's own, or its includer's for a header. */
export interface OwnerRun {
  uri: string;
  fileName: string;
  version: number | undefined;
  run: LastRun | undefined;
}

function isRaceData(d: unknown): d is RaceDiagnosticData {
  return !!d && typeof d === 'object' && typeof (d as RaceDiagnosticData).finding === 'number' && typeof (d as RaceDiagnosticData).version === 'number';
}

/**
 * `runOf` gives the run of a document (and its current version): `doc`'s own, or the including
 * document's that a header's diagnostic names; `header` the text of a header a fix edits.
 */
export function codeActions(params: CodeActionParams, doc: TextDocument, runOf: (uri: string) => OwnerRun, header: (file: string) => string | undefined): CodeAction[] {
  const only = params.context.only;
  const wants = (kind: string): boolean => !only || only.some((o) => kind === o || kind.startsWith(`${o}.`));
  const fresh = (o: OwnerRun) => (o.run && o.run.version === o.version ? o.run : undefined);
  const own = runOf(doc.uri);
  const out: CodeAction[] = [];
  if (wants(CodeActionKind.QuickFix)) {
    for (const diagnostic of params.context.diagnostics) {
      if (diagnostic.source !== 'scord' || !isRaceData(diagnostic.data)) continue;
      const owner = diagnostic.data.owner ? runOf(diagnostic.data.owner) : own;
      const run = fresh(owner);
      if (!run || diagnostic.data.version !== owner.version) continue;
      const finding = run.report.findings[diagnostic.data.finding];
      if (!finding) continue;
      for (const fix of finding.fixes) {
        out.push({ title: fix.title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic as Diagnostic], isPreferred: fix.preferred, edit: workspaceEdit(fix.edits, owner.fileName, owner.uri) });
      }
      if (finding.kind === 'race') {
        out.push({
          title: 'Show in inspector',
          kind: CodeActionKind.QuickFix,
          diagnostics: [diagnostic as Diagnostic],
          command: { title: 'Show in metadata inspector', command: ClientCommands.showInspector, arguments: [{ uri: owner.uri, finding: diagnostic.data.finding, ...(finding.address ? { address: finding.address } : {}) }] },
        });
      }
    }
  }
  const run = fresh(own);
  if (run && only && wants(FIX_ALL_KIND)) {
    const all = applyPreferredFixes(doc.getText(), own.fileName, run.report.findings.map((f) => f.fixes), header);
    if (all.edits.length) {
      out.push({
        title: `Fix all scoped races (${all.applied.length} fix${all.applied.length === 1 ? '' : 'es'})`,
        kind: FIX_ALL_KIND,
        edit: workspaceEdit(all.edits, own.fileName, own.uri),
      });
    }
  }
  return out;
}
