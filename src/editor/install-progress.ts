/** Runs an install under a cancellable progress notification that counts the downloaded bytes. */
import * as vscode from 'vscode';
import type { InstallOptions } from '../agents/registry/agent-installer';

const megabytes = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

export function withInstallProgress<T>(title: string, work: (options: InstallOptions) => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
    const abort = new AbortController();
    const subscription = token.onCancellationRequested(() => abort.abort());
    let reportedPercent = 0;
    const run = work({
      signal: abort.signal,
      onProgress: ({ receivedBytes, totalBytes }) => {
        if (totalBytes === undefined) return progress.report({ message: megabytes(receivedBytes) });
        // VS Code adds increments up; report only the growth since the last call.
        const percent = Math.min(100, (receivedBytes / totalBytes) * 100);
        progress.report({ message: `${megabytes(receivedBytes)} of ${megabytes(totalBytes)}`, increment: percent - reportedPercent });
        reportedPercent = percent;
      },
    });
    return run.finally(() => subscription.dispose());
  });
}
