/**
 * Undo and restore land as one WorkspaceEdit: open documents get a text edit (so Ctrl+Z in the editor takes it back
 * and the editor shows it at once), other files are recreated or deleted; edited documents are then saved, and a save
 * that does not land is written to the disk directly: Undo is done when the disk holds the content again.
 */
import * as vscode from 'vscode';
import type { ChangeApplier, RestoreStep } from '../changes/change-ports';
import { looksBinary } from '../changes/file-state';
import { saveLands } from './document-save';

export class WorkspaceEditApplier implements ChangeApplier {
  async apply(steps: readonly RestoreStep[]): Promise<boolean> {
    const edit = new vscode.WorkspaceEdit();
    const toSave: { document: vscode.TextDocument; text: string; bytes: Uint8Array }[] = [];
    for (const step of steps) {
      const uri = vscode.Uri.file(step.path);
      if (step.action === 'delete') {
        edit.deleteFile(uri, { ignoreIfNotExists: true });
        continue;
      }
      // The editor's own model for the URI (openTextDocument returns it when loaded): the one its editors show.
      // A model whose file is gone from disk (the agent deleted it) cannot be saved back: the file is recreated instead.
      const loaded = vscode.workspace.textDocuments.some((doc) => doc.uri.scheme === 'file' && doc.uri.fsPath === step.path);
      const open = loaded && !looksBinary(step.bytes) && (await onDisk(uri)) ? await vscode.workspace.openTextDocument(uri) : undefined;
      if (open) {
        const whole = new vscode.Range(open.positionAt(0), open.positionAt(open.getText().length));
        const text = new TextDecoder('utf-8').decode(step.bytes);
        edit.replace(uri, whole, text);
        toSave.push({ document: open, text, bytes: step.bytes });
      } else {
        edit.createFile(uri, { overwrite: true, contents: step.bytes });
      }
    }
    if (!(await vscode.workspace.applyEdit(edit))) return false;
    for (const { document, text, bytes } of toSave)
      if (!(await saveLands(document, text))) await vscode.workspace.fs.writeFile(document.uri, bytes);
    return true;
  }
}

async function onDisk(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
