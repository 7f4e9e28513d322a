/** The session layer's ports on VS Code: log channel, notifications, workspace facts. */
import * as vscode from 'vscode';
import type { AgentSettings } from './agent-settings';
import type { LogSink } from '../acp/log-sink';
import type { SessionEnvironment, UserNotifier } from '../session/ports';
import { shownText } from '../shared/shown-text';

export function logChannelSink(channel: vscode.LogOutputChannel): LogSink {
  return {
    info: (message) => channel.info(message),
    warn: (message) => channel.warn(message),
    error: (message) => channel.error(message),
    // The channel's own level filter is not used for the wire: acpClient.trace decides, like LSP clients.
    trace: (message) => channel.info(message),
  };
}

/** Its messages name agents (a workspace can name one): shown as text, never as a link. */
export const vscodeNotifier: UserNotifier = {
  warn: (message, ...actions) => Promise.resolve(vscode.window.showWarningMessage(shownText(message, 'notification'), ...actions)),
  info: (message) => void vscode.window.showInformationMessage(shownText(message, 'notification')),
};

export function vscodeSessionEnvironment(settings: AgentSettings, extensionVersion: string): SessionEnvironment {
  return {
    cwd: () => vscode.workspace.workspaceFolders?.find((folder) => folder.uri.scheme === 'file')?.uri.fsPath,
    roots: () =>
      (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath),
    isTrusted: () => vscode.workspace.isTrusted,
    trace: () => settings.trace(),
    startupTimeoutMs: () => settings.startupTimeoutMs(),
    idleTimeoutMs: () => settings.idleTimeoutMs(),
    extensionVersion,
  };
}
