/**
 * Every command the extension contributes, registered by the small first bundle while the rest has not loaded
 * (src/extension.ts): VS Code runs a command right after activating the extension for it, and the command must
 * exist by then. Each one loads the rest, which registers the real commands in place of these (they are disposed
 * first, in the same synchronous step), and runs the real one with the same arguments.
 */
import * as vscode from 'vscode';

export function forwardCommands(ids: readonly string[], load: (command: string) => void): vscode.Disposable {
  return vscode.Disposable.from(
    ...ids.map((id) =>
      vscode.commands.registerCommand(id, (...args: unknown[]) => {
        load(id);
        return vscode.commands.executeCommand(id, ...args);
      }),
    ),
  );
}
