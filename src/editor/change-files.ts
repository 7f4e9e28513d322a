/** The change engine's file port on VS Code: workspace folders, `files.watcherExclude`, open documents, the disk. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChangeFiles, SnapshotRead } from '../changes/change-ports';
import { globToRegExp, isExcluded } from '../changes/exclude-globs';
import { bornAt, filesInFolder, modifiedAt, readForSnapshot, statusChangedAt } from '../changes/snapshot-read';

/** A workspace larger than this is seeded only this far; later files' first change shows "before unknown". */
const MAX_SEEDED_FILES = 50_000;
/** A new folder's files read at once (see ChangeTracker.diskCreated); later ones wait for their own events. */
const MAX_FOLDER_FILES = 1_000;

export class VscodeChangeFiles implements ChangeFiles {
  private patterns: RegExp[] | undefined;

  /** Patterns are read again after a settings change. */
  invalidate(): void {
    this.patterns = undefined;
  }

  async list(): Promise<readonly string[]> {
    // Nothing is copied into storage in Restricted Mode (no agent can run there, so there is nothing to undo): the
    // walk waits until the user trusts the workspace.
    await untilTrusted();
    const exclude = this.globs();
    const uris = await vscode.workspace.findFiles('**/*', exclude.length ? `{${exclude.join(',')}}` : undefined, MAX_SEEDED_FILES);
    return uris.filter((uri) => uri.scheme === 'file' && !this.excluded(uri.fsPath)).map((uri) => uri.fsPath);
  }

  read(absolutePath: string, maxBytes: number): Promise<SnapshotRead> {
    // roots() serves file: folders only: the disk is read directly, as the fs handler's streamed reads are.
    return readForSnapshot(absolutePath, maxBytes);
  }

  modifiedAt(absolutePath: string): Promise<number | undefined> {
    return modifiedAt(absolutePath);
  }

  statusChangedAt(absolutePath: string): Promise<number | undefined> {
    return statusChangedAt(absolutePath);
  }

  bornAt(absolutePath: string): Promise<number | undefined> {
    return bornAt(absolutePath);
  }

  filesIn(absolutePath: string): Promise<readonly string[]> {
    return filesInFolder(absolutePath, MAX_FOLDER_FILES, (full) => this.excluded(full));
  }

  filesDirectlyIn(absolutePath: string): Promise<readonly string[]> {
    return filesInFolder(absolutePath, MAX_FOLDER_FILES, (full) => this.excluded(full), false);
  }

  openTexts(): ReadonlyMap<string, string> {
    const texts = new Map<string, string>();
    // Only clean documents: a dirty one holds the user's unsaved words, not what is on disk before the agent.
    for (const doc of vscode.workspace.textDocuments)
      if (doc.uri.scheme === 'file' && !doc.isDirty) texts.set(doc.uri.fsPath, doc.getText());
    return texts;
  }

  roots(): readonly string[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  }

  unsaved(absolutePath: string): boolean {
    return vscode.workspace.textDocuments.some((doc) => doc.isDirty && doc.uri.scheme === 'file' && doc.uri.fsPath === absolutePath);
  }

  excluded(absolutePath: string): boolean {
    const folder = (vscode.workspace.workspaceFolders ?? []).find((f) => f.uri.scheme === 'file' && isInside(f.uri.fsPath, absolutePath));
    if (!folder) return true;
    const relative = path.relative(folder.uri.fsPath, absolutePath).split(path.sep).join('/');
    this.patterns ??= this.globs().map(globToRegExp);
    return isExcluded(relative, this.patterns);
  }

  private globs(): string[] {
    const settings = vscode.workspace.getConfiguration().get<Record<string, unknown>>('files.watcherExclude') ?? {};
    const globs = Object.entries(settings).flatMap(([glob, on]) => (on === true && !/[{}]/.test(glob) ? [glob] : []));
    return [...globs, '**/.git/**'];
  }
}

function untilTrusted(): Promise<void> {
  if (vscode.workspace.isTrusted) return Promise.resolve();
  return new Promise((resolve) => {
    const granted = vscode.workspace.onDidGrantWorkspaceTrust(() => {
      granted.dispose();
      resolve();
    });
  });
}

function isInside(folder: string, target: string): boolean {
  const relative = path.relative(folder, target);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
