/**
 * A file the agent named (a link in its text, a diff's path), before the editor opens it: a workspace file is
 * opened; one outside every workspace folder (after `..` and symlinks) only once the user said so in a dialog naming
 * it; one on another machine or with a NUL never (link-target.ts decides which).
 */
import * as vscode from 'vscode';
import { linkDestination } from '../session/link-target';
import { errorMessage } from '../shared/error-text';
import { shownText } from '../shared/shown-text';
import { visibleText } from '../shared/visible-text';

/** The file's URI once it may be opened; undefined when refused (the user is told why) or the user said no. */
export async function agentFileToOpen(requested: string): Promise<vscode.Uri | undefined> {
  const roots = (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === 'file')
    .map((folder) => folder.uri.fsPath);
  const destination = await linkDestination(requested, roots).catch((error: unknown) => ({
    kind: 'refused' as const,
    reason: errorMessage(error),
  }));
  if (destination.kind === 'refused') {
    void vscode.window.showWarningMessage(shownText(`Not opened: ${requested}: ${destination.reason}.`, 'notification'));
    return undefined;
  }
  if (destination.kind === 'outside') {
    const open = 'Open';
    const detail = `The agent's link leads to ${visibleText(destination.path)}, which is not in this workspace.`;
    const choice = await vscode.window.showWarningMessage('Open a file outside the workspace?', { modal: true, detail }, open);
    if (choice !== open) return undefined;
  }
  return vscode.Uri.file(destination.path);
}
