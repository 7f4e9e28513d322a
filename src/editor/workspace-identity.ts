/** Which workspace this window holds, as a short hash: secrets of a workspace's definitions are keyed by it. */
import * as vscode from 'vscode';
import { workspaceKeyOf } from '../agents/definition-scopes';

export function currentWorkspaceKey(): string {
  const file = vscode.workspace.workspaceFile;
  const identity = file ? [file.toString()] : (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.toString());
  return workspaceKeyOf(identity);
}
