/**
 * The Sessions view's data provider while the rest of the extension loads (issue 31). The rest now loads only once
 * the chat's page has said it is there (src/extension.ts), which on a cold start can be 3 s after activation, and a
 * tree view that has no provider by then tells the user there is none. This one is registered by the first bundle:
 * until the real tree (src/editor/sessions-tree.ts) is handed over, its root's children are a promise, which VS Code
 * shows as the view's progress bar; after that every call goes to the real tree, and so do its change events.
 */
import * as vscode from 'vscode';

export class DeferredTree<T> implements vscode.TreeDataProvider<T>, vscode.Disposable {
  private real: vscode.TreeDataProvider<T> | undefined;
  private readonly changed = new vscode.EventEmitter<T | T[] | null | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private forwarding: vscode.Disposable | undefined;
  private readonly waiting: (() => void)[] = [];

  /** From now on the real tree answers; the roots asked for meanwhile are its roots. */
  handOver(real: vscode.TreeDataProvider<T>): void {
    this.real = real;
    this.forwarding = real.onDidChangeTreeData?.((nodes) => this.changed.fire(nodes ?? undefined));
    this.waiting.splice(0).forEach((resume) => resume());
  }

  getTreeItem(node: T): vscode.TreeItem | Thenable<vscode.TreeItem> {
    // Only a node the real tree gave is ever asked about.
    if (!this.real) throw new Error('the Sessions view asked about a node before it had any');
    return this.real.getTreeItem(node);
  }

  getChildren(node?: T): vscode.ProviderResult<T[]> {
    const real = this.real;
    if (real) return real.getChildren(node);
    return new Promise<void>((resume) => this.waiting.push(resume)).then(() => this.real?.getChildren(node));
  }

  getParent(node: T): vscode.ProviderResult<T> {
    return this.real?.getParent?.(node);
  }

  dispose(): void {
    this.forwarding?.dispose();
    this.changed.dispose();
  }
}
