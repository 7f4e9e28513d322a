/**
 * Settings that may weaken a safety choice or a limit (review, limits, timeouts, history, trace, the registry URL,
 * reading `.vscode/mcp.json`): only the user's (or remote machine's) value counts. Their `application` scope already
 * makes VS Code drop a workspace's value; reading `inspect()` keeps that true wherever a VS Code would not.
 */
import * as vscode from 'vscode';
import { userValueOf } from '../agents/definition-scopes';

/** `key` under `acpClient.`, e.g. `limits.maxReadMB`. */
export function userSetting(key: string): unknown {
  return userValueOf(vscode.workspace.getConfiguration('acpClient').inspect(key));
}
