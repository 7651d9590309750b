// Code actions for races: a quick fix for every fix the engine offers (the preferred one
// marked, and only when the server has checked that it removes its race), "Show in metadata
// inspector", and `source.fixAll.scord` for all preferred fixes at once. Fixes are offered
// only for the document version they were computed on.
import { CodeActionKind, type CodeAction, type CodeActionParams, type Diagnostic, type TextEdit as LspTextEdit } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Fix } from '../../sims/fixes/fixes';
import { applyPreferredFixes } from '../../sims/fixes/apply';
import type { LastRun } from '../analysis/scheduler';
import { ClientCommands, type RaceDiagnosticData } from '../protocol';
import { lspRange } from './diagnostics';

export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.scord`;

function edits(fix: Fix, fileName: string): LspTextEdit[] | undefined {
  if (fix.edits.some((e) => e.range.file !== fileName)) return undefined;
  return fix.edits.map((e) => ({ range: lspRange(e.range), newText: e.newText }));
}

function isRaceData(d: unknown): d is RaceDiagnosticData {
  return !!d && typeof d === 'object' && typeof (d as RaceDiagnosticData).finding === 'number' && typeof (d as RaceDiagnosticData).version === 'number';
}

export function codeActions(params: CodeActionParams, doc: TextDocument, fileName: string, run: LastRun | undefined): CodeAction[] {
  const only = params.context.only;
  const wants = (kind: string): boolean => !only || only.some((o) => kind === o || kind.startsWith(`${o}.`));
  const fresh = run && run.version === doc.version ? run : undefined;
  const out: CodeAction[] = [];
  if (fresh && wants(CodeActionKind.QuickFix)) {
    for (const diagnostic of params.context.diagnostics) {
      if (diagnostic.source !== 'scord' || !isRaceData(diagnostic.data) || diagnostic.data.version !== doc.version) continue;
      const finding = fresh.report.findings[diagnostic.data.finding];
      if (!finding) continue;
      for (const fix of finding.fixes) {
        const e = edits(fix, fileName);
        if (!e) continue;
        out.push({ title: fix.title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic as Diagnostic], isPreferred: fix.preferred, edit: { changes: { [doc.uri]: e } } });
      }
      if (finding.kind === 'race') {
        out.push({
          title: 'Show in inspector',
          kind: CodeActionKind.QuickFix,
          diagnostics: [diagnostic as Diagnostic],
          command: { title: 'Show in metadata inspector', command: ClientCommands.showInspector, arguments: [{ uri: doc.uri, finding: diagnostic.data.finding, ...(finding.address ? { address: finding.address } : {}) }] },
        });
      }
    }
  }
  if (fresh && only && wants(FIX_ALL_KIND)) {
    const all = applyPreferredFixes(doc.getText(), fileName, fresh.report.findings.map((f) => f.fixes));
    if (all.edits.length) {
      out.push({
        title: `Fix all scoped races (${all.applied.length} fix${all.applied.length === 1 ? '' : 'es'})`,
        kind: FIX_ALL_KIND,
        edit: { changes: { [doc.uri]: all.edits.map((e) => ({ range: lspRange(e.range), newText: e.newText })) } },
      });
    }
  }
  return out;
}
