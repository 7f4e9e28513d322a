/** "ACP: Sign In…" and "ACP: Sign Out": the session layer decides what they mean for the running agent. */
import * as vscode from 'vscode';
import type { SessionController } from '../session/session-controller';

/** `controller`: the shown conversation's (its agent is the one the user is looking at). */
export function registerAuthCommands(controller: () => SessionController | undefined): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand('acpClient.signIn', () => controller()?.signIn()),
    vscode.commands.registerCommand('acpClient.signOut', () => controller()?.signOut()),
  );
}
