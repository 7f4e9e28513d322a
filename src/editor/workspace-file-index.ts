/**
 * The workspace's files for `@` completion: listed once with VS Code's file search (honouring `files.exclude`
 * and `search.exclude`, so node_modules and build output stay out), kept until files are created or deleted,
 * then ranked per keystroke in memory. Listing on every keystroke would be a disk walk per letter.
 */
import * as vscode from 'vscode';
import type { FileMatch } from '../shared/webview-protocol';
import { rankFiles, type RankedFile } from '../shared/file-ranking';

/** Enough for large monorepos; past it, completion covers the first files found. */
const MAX_FILES = 50_000;
const MAX_MATCHES = 30;

export class WorkspaceFileIndex implements vscode.Disposable {
  private files: Promise<RankedFile[]> | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private watching = false;

  async search(query: string): Promise<FileMatch[]> {
    this.watch();
    const files = await (this.files ??= this.list().catch((error: unknown) => {
      this.files = undefined;
      throw error;
    }));
    return rankFiles(files, query, openEditorUris(), MAX_MATCHES);
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }

  /** Started on the first `@`, not at activation: most sessions never complete a file name. */
  private watch(): void {
    if (this.watching) return;
    this.watching = true;
    const watcher = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
    const invalidate = (): void => {
      this.files = undefined;
    };
    this.disposables.push(
      watcher,
      watcher.onDidCreate(invalidate),
      watcher.onDidDelete(invalidate),
      vscode.workspace.onDidChangeWorkspaceFolders(invalidate),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('files.exclude') || event.affectsConfiguration('search.exclude')) invalidate();
      }),
    );
  }

  private async list(): Promise<RankedFile[]> {
    const uris = await vscode.workspace.findFiles('**/*', excludeGlob(), MAX_FILES);
    return uris.map((uri) => ({ uri: uri.toString(), label: vscode.workspace.asRelativePath(uri) }));
  }
}

/**
 * `files.exclude` and `search.exclude` together: passing any exclude to findFiles replaces the default one.
 * Patterns with their own braces are left out (glob groups do not nest) and conditional ones (`when`) too.
 */
function excludeGlob(): string | undefined {
  const patterns = new Set<string>();
  for (const section of ['files.exclude', 'search.exclude']) {
    const settings = vscode.workspace.getConfiguration().get<Record<string, unknown>>(section) ?? {};
    for (const [pattern, enabled] of Object.entries(settings)) if (enabled === true && !/[{}]/.test(pattern)) patterns.add(pattern);
  }
  return patterns.size === 0 ? undefined : `{${[...patterns].join(',')}}`;
}

function openEditorUris(): Set<string> {
  const uris = new Set<string>();
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) if (tab.input instanceof vscode.TabInputText) uris.add(tab.input.uri.toString());
  }
  return uris;
}
