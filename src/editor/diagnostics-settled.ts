/**
 * Waits until the diagnostics of some files have not changed for `quietMs`: language services publish in bursts
 * (syntax first, then semantics) after an edit. Ends early, without error, when `signal` aborts; the tool's
 * deadline bounds it.
 */
import * as vscode from 'vscode';

export function diagnosticsSettled(
  uris: readonly vscode.Uri[],
  quietMs: number,
  signal: AbortSignal,
  options: { readonly firstChange?: boolean } = {},
): Promise<void> {
  const watched = new Set(uris.map((uri) => uri.toString()));
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = (): void => {
      if (timer) clearTimeout(timer);
      subscription.dispose();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const quiet = (): void => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(done, quietMs);
    };
    const subscription = vscode.languages.onDidChangeDiagnostics((event) => {
      if (event.uris.some((uri) => watched.has(uri.toString()))) quiet();
    });
    signal.addEventListener('abort', done);
    if (signal.aborted) return done();
    // Waiting for a first publication: no quiet timer until one came (the signal bounds the wait).
    if (!options.firstChange) quiet();
  });
}
