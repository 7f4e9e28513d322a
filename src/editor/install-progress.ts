/**
 * Runs an install under a cancellable progress notification that counts the downloaded bytes, and tells the
 * install activity (which the chat shows, with its own Cancel) how far it is.
 */
import * as vscode from 'vscode';
import type { InstallOptions } from '../agents/registry/agent-installer';
import type { InstallActivity } from '../agents/registry/install-activity';
import { downloadedText } from '../shared/install-status';
import { shownText } from '../shared/shown-text';

export interface InstallTarget {
  readonly agentName: string;
  readonly version: string;
}

export function withInstallProgress<T>(
  title: string,
  target: InstallTarget,
  activity: InstallActivity,
  work: (options: InstallOptions) => Promise<T>,
): Thenable<T> {
  // The title and message name a registry's agent: a notification (and the status bar when toasts are hidden).
  const notification = { location: vscode.ProgressLocation.Notification, title: shownText(title, 'progress'), cancellable: true };
  return vscode.window.withProgress(notification, (progress, token) => {
    const notificationCancel = new AbortController();
    const subscription = token.onCancellationRequested(() => notificationCancel.abort());
    const handle = activity.begin(target.agentName, target.version, notificationCancel.signal);
    let reportedPercent = 0;
    const run = work({
      signal: handle.signal,
      onProgress: ({ receivedBytes, totalBytes }) => {
        handle.report(receivedBytes, totalBytes);
        const message = downloadedText({ ...target, receivedBytes, ...(totalBytes === undefined ? {} : { totalBytes }) });
        if (totalBytes === undefined) return progress.report({ message });
        // VS Code adds increments up; report only the growth since the last call.
        const percent = Math.min(100, (receivedBytes / totalBytes) * 100);
        progress.report({ message, increment: percent - reportedPercent });
        reportedPercent = percent;
      },
    });
    return run.finally(() => {
      subscription.dispose();
      handle.end();
    });
  });
}
