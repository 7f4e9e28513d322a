/**
 * Workspace files named in VS Code's own UI (notifications, pickers) by the commands that undo, restore or review an
 * agent's changes. A file's name is the agent's or the repository's choice, and so is the reason a write was refused
 * (it quotes names found on disk), so both are foreign text: a name such as `[Show details](command:…)` would be a
 * link in a notification whose click runs the command. Every such string goes through here.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { shownText } from '../shared/shown-text';
import { visibleText } from '../shared/visible-text';

/** The file's path relative to its workspace folder, its hidden characters shown (for plain-text surfaces). */
export const shownPath = (absolute: string): string => visibleText(vscode.workspace.asRelativePath(absolute));

/** The file's name alone, its hidden characters shown (for plain-text surfaces). */
export const shownName = (absolute: string): string => visibleText(path.basename(absolute));

/** A file the tracker would not write, with why (WriteTarget's reason). */
export interface SkippedFile {
  readonly path: string;
  readonly reason: string;
}

/** One warning per file left alone by an undo or restore, naming it and why, with nothing in it live. */
export function warnSkipped(what: 'undo' | 'restore', skipped: readonly SkippedFile[]): void {
  for (const file of skipped)
    void vscode.window.showWarningMessage(shownText(`Did not ${what} ${shownPath(file.path)}: ${file.reason}.`, 'notification'));
}

/** A restore preview's row for a file that will be left alone. */
export function blockedPickItem(file: SkippedFile): vscode.QuickPickItem {
  return {
    label: shownText(shownPath(file.path), 'quick-pick'),
    description: shownText(`will not be restored: ${file.reason}`, 'quick-pick'),
  };
}
