/**
 * Saving a document we edited, judged by the disk. `save()` answers false both when the save failed and when there
 * was nothing left to save: auto save (on by default in the browser workbench) may have written the document between
 * our edit and the call, and the extension host's `isDirty` can lag the workbench's. A save can also be cut short on
 * a loaded machine (a save participant aborted after its time limit). So a false is followed by a bounded wait, a
 * second save while the document is still dirty, and the verdict is what the disk holds: the thing agents read back.
 */
import * as vscode from 'vscode';

/** How long a save may take to land after `save()` answered false. */
const SAVE_LANDING_WAIT_MS = 3000;
/** A still-dirty document is saved again this often while waiting. */
const SAVE_RETRY_MS = 500;

export async function saveLands(document: vscode.TextDocument, content: string): Promise<boolean> {
  if (await document.save()) return true;
  const deadline = Date.now() + SAVE_LANDING_WAIT_MS;
  let retryAt = Date.now() + SAVE_RETRY_MS;
  for (;;) {
    if (!document.isDirty && (await diskText(document.uri)) === content) return true;
    if (Date.now() >= deadline) return false;
    if (document.isDirty && Date.now() >= retryAt) {
      retryAt = Date.now() + SAVE_RETRY_MS;
      if (await document.save()) return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function diskText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}
