/**
 * "Add to ACP Chat": attaches files and selections to the chat's draft. From the explorer it gets the clicked file
 * (and the multi-selection); from an editor, its file, and the selected lines when the command acts on the active
 * editor; from the palette, the active editor.
 */
import * as vscode from 'vscode';
import type { FileAttachment } from '../shared/attachments';

export const ADD_TO_CHAT_COMMAND = 'acpClient.addToChat';

export function registerAddToChat(attach: (attachments: FileAttachment[]) => Promise<void>): vscode.Disposable {
  return vscode.commands.registerCommand(ADD_TO_CHAT_COMMAND, async (clicked?: unknown, selected?: unknown) => {
    const attachments = attachmentsFor(clicked, selected);
    if (attachments.length === 0) {
      void vscode.window.showInformationMessage('Open a file or select one in the Explorer to add it to the chat.');
      return;
    }
    await attach(attachments);
  });
}

function attachmentsFor(clicked: unknown, selected: unknown): FileAttachment[] {
  const many = Array.isArray(selected) ? selected.filter((item): item is vscode.Uri => item instanceof vscode.Uri) : [];
  if (many.length > 1) return many.filter(isFile).map((uri) => fileAttachment(uri));
  const editor = vscode.window.activeTextEditor;
  const uri = clicked instanceof vscode.Uri ? clicked : editor?.document.uri;
  if (!uri || !isFile(uri)) return [];
  // The selection counts only when the command acts on the editor that holds it.
  if (editor && editor.document.uri.toString() === uri.toString()) {
    const ranges = editor.selections.filter((selection) => !selection.isEmpty).map((selection) => lineRangeOf(selection));
    if (ranges.length > 0) return ranges.map((range) => fileAttachment(uri, range));
  }
  return [fileAttachment(uri)];
}

function isFile(uri: vscode.Uri): boolean {
  return uri.scheme === 'file';
}

function fileAttachment(uri: vscode.Uri, range?: FileAttachment['range']): FileAttachment {
  return { kind: 'file', uri: uri.toString(), label: vscode.workspace.asRelativePath(uri), ...(range ? { range } : {}) };
}

/** 1-based lines; a selection ending at column 0 of a line does not include that line (as the editor shows it). */
function lineRangeOf(selection: vscode.Selection): { startLine: number; endLine: number } {
  const lastLine = selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line - 1 : selection.end.line;
  return { startLine: selection.start.line + 1, endLine: lastLine + 1 };
}
