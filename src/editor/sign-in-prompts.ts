/** The sign-in ports on VS Code: a quick pick of the agent's methods, a cancellable progress, a real terminal. */
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import type { AuthMethod } from '../acp/schemas/auth-methods';
import { argsOutsideWorkspace } from '../agents/launcher-prefix';
import type { AgentSecrets, SignInChoice, SignInPrompts, TerminalSignInCommand } from '../session/sign-in-ports';
import { shownText } from '../shared/shown-text';

interface MethodItem extends vscode.QuickPickItem {
  readonly method: SignInChoice;
}

export const vscodeSignInPrompts: SignInPrompts = {
  async pickMethod(agentName, methods, apiKeyEnv) {
    const items: MethodItem[] = methods.map((method: AuthMethod) => ({
      // Names and descriptions are the agent's words: no icon or link in them is drawn, hidden characters are shown.
      label: shownText(method.name, 'quick-pick'),
      ...(method.description ? { detail: shownText(method.description, 'quick-pick') } : {}),
      description: method.type === 'terminal' ? 'in a terminal' : '',
      method,
    }));
    if (apiKeyEnv !== undefined)
      items.push({
        label: 'Enter API key…',
        detail: `Kept in VS Code's secret storage and given to ${shownText(agentName, 'quick-pick')} as ${shownText(apiKeyEnv, 'quick-pick')} when it starts`,
        method: { type: 'api_key', envName: apiKeyEnv },
      });
    const picked = await vscode.window.showQuickPick(items, {
      title: `Sign in to ${shownText(agentName, 'plain')}`,
      placeHolder: 'Choose how to sign in',
      matchOnDetail: true,
    });
    return picked?.method;
  },

  async askApiKey(agentName, envName) {
    const key = await vscode.window.showInputBox({
      title: `API key for ${shownText(agentName, 'plain')}`,
      prompt: `Given to ${shownText(agentName, 'input-prompt')} as ${shownText(envName, 'input-prompt')}; kept in VS Code's secret storage, never in settings.`,
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() === '' ? 'Enter a key, or press Escape' : undefined),
    });
    return key?.trim();
  },

  withProgress(title, task) {
    return Promise.resolve(
      // The title names the agent and its method: a notification (and the status bar when toasts are hidden).
      vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: shownText(title, 'progress'), cancellable: true },
        (_progress, token) => task(token),
      ),
    );
  },

  runInTerminal(command) {
    return new Promise((resolve) => {
      const terminal = vscode.window.createTerminal(terminalOptions(command));
      // VS Code closes a terminal whose process exits with 0 by itself; a failed one stays until the user closes it.
      const subscription = vscode.window.onDidCloseTerminal((closed) => {
        if (closed !== terminal) return;
        subscription.dispose();
        resolve(closed.exitStatus?.code);
      });
      terminal.show();
    });
  },
};

/** The agent's own command run directly (no shell in between), its env on top of the editor's. */
export function terminalOptions(command: TerminalSignInCommand): vscode.TerminalOptions {
  return {
    name: shownText(command.name, 'terminal-name'),
    shellPath: command.command,
    // Like the agent itself, a launcher in it (npx) does not take the agent from the workspace: launcher-prefix.ts.
    shellArgs: [...argsOutsideWorkspace(command.command, command.args, homedir())],
    env: { ...command.env },
    cwd: command.cwd,
    isTransient: true,
  };
}

/** Keys per agent name in VS Code's SecretStorage (the OS keychain where there is one). */
export function vscodeAgentSecrets(secrets: vscode.SecretStorage): AgentSecrets {
  const keyOf = (agentName: string): string => `acpClient.apiKey.${agentName}`;
  return {
    apiKey: async (agentName) => (await secrets.get(keyOf(agentName))) ?? undefined,
    storeApiKey: (agentName, key) => Promise.resolve(secrets.store(keyOf(agentName), key)),
  };
}
