/** WorkspaceFiles on VS Code's APIs: open documents first, edits as WorkspaceEdits so they can be undone. */
import * as vscode from 'vscode';
import type { WorkspaceFiles } from '../client/ports';
import { saveLands } from './document-save';

export class VscodeWorkspaceFiles implements WorkspaceFiles {
  roots(): readonly string[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  }

  openDocumentText(absolutePath: string): string | undefined {
    return this.findOpen(absolutePath)?.getText();
  }

  async readFileText(absolutePath: string): Promise<string> {
    const bytes = await vscode.workspace.fs.readFile(vscode.Uri.file(absolutePath));
    return new TextDecoder('utf-8').decode(bytes);
  }

  async fileSize(absolutePath: string): Promise<number> {
    return (await vscode.workspace.fs.stat(vscode.Uri.file(absolutePath))).size;
  }

  hasUnsavedEdits(absolutePath: string): boolean {
    return this.findOpen(absolutePath)?.isDirty === true;
  }

  async writeFileText(absolutePath: string, content: string): Promise<void> {
    const uri = vscode.Uri.file(absolutePath);
    const edit = new vscode.WorkspaceEdit();
    if (!(await exists(uri))) {
      edit.createFile(uri, { ignoreIfExists: true, contents: new TextEncoder().encode(content) });
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error('the editor refused to create the file');
      return;
    }
    const document = this.findOpen(absolutePath) ?? (await vscode.workspace.openTextDocument(uri));
    const whole = new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length));
    edit.replace(uri, whole, content);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error('the editor refused the edit');
    // Agents read back what they wrote from disk (or run tools on it), so the write must land there too.
    if (!(await saveLands(document, content))) throw new Error('the file could not be saved');
  }

  private findOpen(absolutePath: string): vscode.TextDocument | undefined {
    return vscode.workspace.textDocuments.find((doc) => doc.uri.scheme === 'file' && doc.uri.fsPath === absolutePath);
  }
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
