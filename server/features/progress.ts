// Work-done progress for the custom requests (LSP attaches it only to its own requests): a
// begin and an end on the token the client sent, and the client's Cancel button stops the run.
import { WorkDoneProgress, WorkDoneProgressCancelNotification, type Connection, type ProgressToken } from 'vscode-languageserver/node';

const cancellers = new Map<ProgressToken, () => void>();

export function listenForProgressCancel(connection: Connection): void {
  connection.onNotification(WorkDoneProgressCancelNotification.type, (p) => cancellers.get(p.token)?.());
}

export interface Progress {
  done(): void;
}

export function beginProgress(connection: Connection, token: ProgressToken | undefined, title: string, cancel: () => void): Progress {
  if (token === undefined) return { done: () => undefined };
  // vscode-languageserver registers its own handler for window/workDoneProgress/cancel when
  // the client supports work-done progress (at initialize, so after ours), for progress the
  // server creates — which this server does not. One handler per method: take it back.
  listenForProgressCancel(connection);
  cancellers.set(token, cancel);
  void connection.sendProgress(WorkDoneProgress.type, token, { kind: 'begin', title, cancellable: true });
  return {
    done: () => {
      cancellers.delete(token);
      void connection.sendProgress(WorkDoneProgress.type, token, { kind: 'end' });
    },
  };
}
