/**
 * Undo and restore land as one WorkspaceEdit: open documents get a text edit (so Ctrl+Z in the editor takes it back
 * and the editor shows it at once), other files are recreated or deleted; edited documents are then saved.
 */
import * as vscode from 'vscode';
import type { ChangeApplier, RestoreStep } from '../changes/change-ports';
import { looksBinary } from '../changes/file-state';

export class WorkspaceEditApplier implements ChangeApplier {
  async apply(steps: readonly RestoreStep[]): Promise<boolean> {
    const edit = new vscode.WorkspaceEdit();
    const toSave: vscode.TextDocument[] = [];
    for (const step of steps) {
      const uri = vscode.Uri.file(step.path);
      if (step.action === 'delete') {
        edit.deleteFile(uri, { ignoreIfNotExists: true });
        continue;
      }
      // The editor's own model for the URI (openTextDocument returns it when loaded): the one its editors show.
      const loaded = vscode.workspace.textDocuments.some((doc) => doc.uri.scheme === 'file' && doc.uri.fsPath === step.path);
      const open = loaded && !looksBinary(step.bytes) ? await vscode.workspace.openTextDocument(uri) : undefined;
      if (open) {
        const whole = new vscode.Range(open.positionAt(0), open.positionAt(open.getText().length));
        edit.replace(uri, whole, new TextDecoder('utf-8').decode(step.bytes));
        toSave.push(open);
      } else {
        edit.createFile(uri, { overwrite: true, contents: step.bytes });
      }
    }
    if (!(await vscode.workspace.applyEdit(edit))) return false;
    for (const doc of toSave) await doc.save();
    return true;
  }
}
