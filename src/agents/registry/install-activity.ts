/**
 * The registry install under way, if any, shared by whoever shows it (the progress notification, the chat's
 * header and empty state) and whoever may stop it (the notification's Cancel, the chat's Cancel). Editor-free.
 * Downloads report every chunk; listeners hear at most one change per interval, plus the start and the end.
 */
import type { InstallProgress } from '../../shared/install-status';

const REPORT_INTERVAL_MS = 150;

export interface InstallHandle {
  readonly signal: AbortSignal;
  report(receivedBytes: number, totalBytes: number | undefined): void;
  /** The install ended (done, failed or cancelled): the chat stops showing it. */
  end(): void;
}

export class InstallActivity {
  private active: { progress: InstallProgress; abort: AbortController } | undefined;
  private readonly listeners = new Set<() => void>();
  private lastReport = 0;
  private pendingReport: ReturnType<typeof setTimeout> | undefined;

  get current(): InstallProgress | undefined {
    return this.active?.progress;
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** `cancelled`: an outer signal (the notification's Cancel) that stops it too. */
  begin(agentName: string, version: string, cancelled?: AbortSignal): InstallHandle {
    const abort = new AbortController();
    const onOuterCancel = (): void => abort.abort();
    cancelled?.addEventListener('abort', onOuterCancel, { once: true });
    const entry: { progress: InstallProgress; abort: AbortController } = { progress: { agentName, version, receivedBytes: 0 }, abort };
    this.active = entry;
    this.changedNow();
    return {
      signal: abort.signal,
      report: (receivedBytes, totalBytes) => {
        if (this.active !== entry) return;
        entry.progress = { agentName, version, receivedBytes, ...(totalBytes === undefined ? {} : { totalBytes }) };
        this.changedSoon();
      },
      end: () => {
        cancelled?.removeEventListener('abort', onOuterCancel);
        if (this.active !== entry) return;
        this.active = undefined;
        this.changedNow();
      },
    };
  }

  /** The chat's Cancel: stops the download, which then ends the install with "Download cancelled.". */
  cancel(): void {
    this.active?.abort.abort();
  }

  dispose(): void {
    this.cancel();
    if (this.pendingReport) clearTimeout(this.pendingReport);
    this.listeners.clear();
  }

  private changedSoon(): void {
    if (this.pendingReport) return;
    const wait = Math.max(0, this.lastReport + REPORT_INTERVAL_MS - Date.now());
    this.pendingReport = setTimeout(() => {
      this.pendingReport = undefined;
      this.changedNow();
    }, wait);
  }

  private changedNow(): void {
    if (this.pendingReport) clearTimeout(this.pendingReport);
    this.pendingReport = undefined;
    this.lastReport = Date.now();
    for (const listener of [...this.listeners]) listener();
  }
}
