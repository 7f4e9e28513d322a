/** The change engine's file port on VS Code: workspace folders, `files.watcherExclude`, open documents, the disk. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChangeFiles } from '../changes/change-ports';
import { DiskReads } from '../changes/disk-reads';
import { globToRegExp, isExcluded } from '../changes/exclude-globs';
import { pathInside } from '../client/path-inside';

/** A workspace larger than this is seeded only this far; later files' first change shows "before unknown". */
const MAX_SEEDED_FILES = 50_000;

export class VscodeChangeFiles extends DiskReads implements ChangeFiles {
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
    // The first folder it lies under (not the folder itself), and its path there.
    let relative: string | undefined;
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      relative = folder.uri.scheme === 'file' ? pathInside(folder.uri.fsPath, absolutePath) : undefined;
      if (relative) break;
    }
    if (!relative) return true;
    this.patterns ??= this.globs().map(globToRegExp);
    return isExcluded(relative.split(path.sep).join('/'), this.patterns);
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
