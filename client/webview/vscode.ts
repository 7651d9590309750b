// The one handle on the extension host: acquireVsCodeApi() may be called only once per page.
import type { FromWebview } from './messages';

export interface HostApi<S> {
  postMessage(message: FromWebview): void;
  getState(): S | undefined;
  setState(state: S): void;
}

declare function acquireVsCodeApi(): { postMessage(message: unknown): void; getState(): unknown; setState(state: unknown): unknown };

export function hostApi<S>(): HostApi<S> {
  if (typeof acquireVsCodeApi === 'function') {
    const api = acquireVsCodeApi();
    return {
      postMessage: (m) => api.postMessage(m),
      getState: () => (api.getState() ?? undefined) as S | undefined,
      setState: (s) => void api.setState(s),
    };
  }
  // Opened outside VS Code (a plain browser while developing): keep state in memory.
  let state: S | undefined;
  return {
    postMessage: (m) => console.info('[inspector → host]', m),
    getState: () => state,
    setState: (s) => void (state = s),
  };
}
