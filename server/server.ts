// The language server. It adapts the engine (sims/) to LSP and holds no engine logic.
// Today it publishes the front end's diagnostics (syntax and semantic errors) for every open
// CUDA document; race analysis plugs into the same pipeline.
import * as fs from 'node:fs';
import {
  createConnection,
  DiagnosticSeverity,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  type Diagnostic as LspDiagnostic,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { parse, type Diagnostic } from '../sims/frontend/index';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);

connection.onInitialize(() => ({
  capabilities: {
    textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
  },
  serverInfo: { name: 'scord-language-server' },
}));

/** A runaway macro stops here instead of holding the server for seconds (real files expand
 *  to far fewer tokens: 5,000 lines are about 50,000). */
const MAX_EXPANDED_TOKENS = 1_000_000;

/** Open documents win over the disk, so unsaved edits to a header are seen at once. */
function readFile(filePath: string): string | undefined {
  const uri = URI.file(filePath).toString();
  const open = documents.get(uri);
  if (open) return open.getText();
  try {
    return fs.readFileSync(filePath, 'utf8');
  } catch {
    return undefined;
  }
}

function toLsp(d: Diagnostic, mainFile: string): LspDiagnostic {
  return {
    range: { start: { line: d.range.start.line, character: d.range.start.character }, end: { line: d.range.end.line, character: d.range.end.character } },
    severity: d.severity === 'error' ? DiagnosticSeverity.Error : d.severity === 'warning' ? DiagnosticSeverity.Warning : DiagnosticSeverity.Information,
    code: d.code,
    source: 'scord',
    message: d.range.file === mainFile ? d.message : `${d.message} (in ${d.range.file}:${d.range.start.line + 1})`,
    ...(d.related?.length
      ? {
          relatedInformation: d.related
            .filter((r) => r.range.file.startsWith('/'))
            .map((r) => ({
              message: r.message,
              location: { uri: URI.file(r.range.file).toString(), range: { start: { line: r.range.start.line, character: r.range.start.character }, end: { line: r.range.end.line, character: r.range.end.character } } },
            })),
        }
      : {}),
  };
}

function analyseDocument(doc: TextDocument): void {
  const uri = URI.parse(doc.uri);
  const fileName = uri.scheme === 'file' ? uri.fsPath : doc.uri;
  try {
    const result = parse(doc.getText(), { fileName, readFile, maxOutputTokens: MAX_EXPANDED_TOKENS });
    // Problems in included headers are shown at the #include line of this file.
    const diagnostics = result.diagnostics.map((d) => {
      if (d.range.file === fileName) return toLsp(d, fileName);
      const edge = result.includes.find((e) => e.from === fileName && (e.to === d.range.file || result.files.includes(d.range.file)));
      return toLsp(edge ? { ...d, range: edge.range } : d, fileName);
    });
    void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics });
  } catch (e) {
    // The server must survive any input; report the failure instead of dying.
    connection.console.error(`scord: analysis of ${doc.uri} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  }
}

documents.onDidChangeContent((change) => analyseDocument(change.document));
documents.onDidClose((e) => void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] }));

documents.listen(connection);
connection.listen();
