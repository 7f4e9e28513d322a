/**
 * An agent being installed from the ACP registry, as the chat shows it. The install is a fact about the host (it
 * happens before the agent has a session or a transcript), so it travels in HostInfo, and this one rule decides
 * where the chat shows it: the header and the empty state both ask `showsInstall`, so they cannot disagree.
 */
import type { AgentStatus } from './model';

export interface InstallProgress {
  /** The name the agent will have in Select Agent once installed. */
  readonly agentName: string;
  readonly version: string;
  readonly receivedBytes: number;
  /** Undefined while nothing is known yet, or when the server does not say the size. */
  readonly totalBytes?: number;
}

/**
 * The install takes the chat's header only where it would start in place: a chat with no transcript and no agent
 * of its own at work. A conversation that is going on keeps saying how its own agent is (the notification
 * still shows the install's progress).
 */
export function showsInstall(
  agent: AgentStatus,
  install: InstallProgress | undefined,
  transcriptEmpty: boolean,
): install is InstallProgress {
  if (!install || !transcriptEmpty) return false;
  return agent.phase === 'none' || agent.phase === 'stopped' || agent.phase === 'exited';
}

const megabytes = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** "1.2 MB of 4.0 MB", "1.2 MB" when the size is not known, undefined before the first byte. */
export function downloadedText(install: InstallProgress): string | undefined {
  if (install.receivedBytes === 0 && install.totalBytes === undefined) return undefined;
  const received = megabytes(install.receivedBytes);
  return install.totalBytes === undefined ? received : `${received} of ${megabytes(install.totalBytes)}`;
}

/** The header's words: "Installing… 1.2 MB of 4.0 MB", or only "Installing…" before the download starts. */
export function installStatusText(install: InstallProgress): string {
  const downloaded = downloadedText(install);
  return downloaded ? `Installing… ${downloaded}` : 'Installing…';
}
