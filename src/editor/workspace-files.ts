/** WorkspaceFiles on VS Code's APIs: open documents first, edits as WorkspaceEdits so they can be undone. */
import { createReadStream } from 'node:fs';
import * as vscode from 'vscode';
import type { WorkspaceFiles } from '../client/ports';

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

  readFileChunks(absolutePath: string): AsyncIterable<Uint8Array> {
    // roots() serves file: folders only, and workspace.fs cannot read part of a file: the disk stream can stop early.
    return createReadStream(absolutePath, { highWaterMark: READ_CHUNK_BYTES });
  }

  async fileSize(absolutePath: string): Promise<number> {
    return (await vscode.workspace.fs.stat(vscode.Uri.file(absolutePath))).size;
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
    // Agents read back what they wrote from disk (or run tools on it), so the write must land there too. save() also
    // answers false when there was nothing left to save: auto save (on by default in the browser workbench) may have
    // written the document between the edit and this call, and the extension host's isDirty can lag behind the
    // workbench's. So a false is judged by what is on disk, the thing the agent will read.
    if (!(await document.save()) && !(await this.landsOnDisk(document, content))) {
      throw new Error('the file could not be saved');
    }
  }

  /** After a save that answered false: another save (auto save) may still be writing; wait for it, bounded. */
  private async landsOnDisk(document: vscode.TextDocument, content: string): Promise<boolean> {
    const deadline = Date.now() + CONCURRENT_SAVE_WAIT_MS;
    for (;;) {
      if (!document.isDirty && (await this.readFileText(document.uri.fsPath)) === content) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private findOpen(absolutePath: string): vscode.TextDocument | undefined {
    return vscode.workspace.textDocuments.find((doc) => doc.uri.scheme === 'file' && doc.uri.fsPath === absolutePath);
  }
}

/** How long a write waits for a save already under way (auto save) to land before it reports a failure. */
const CONCURRENT_SAVE_WAIT_MS = 3000;

/** Large enough that scanning a big file takes few turns of the loop, small enough that each turn is short. */
const READ_CHUNK_BYTES = 1024 * 1024;

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
