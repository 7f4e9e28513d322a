/**
 * The VS Code side of elicitations: a notification when an agent waits on the user while the chat is hidden
 * (its button reveals the chat, where the form is), and `env.openExternal` for a URL the user chose to open.
 */
import * as vscode from 'vscode';
import type { ElicitationPorts } from '../client/ports';
import { shownText } from '../shared/shown-text';

export function vscodeElicitationPorts(chat: { readonly visible: boolean; reveal(): Promise<void> }): ElicitationPorts {
  return {
    announce({ agentName, message }) {
      if (chat.visible) return { dispose: () => undefined };
      let answered = false;
      const show = 'Show';
      void vscode.window
        .showInformationMessage(shownText(`${agentName} is waiting for your answer: ${message}`, 'notification'), show)
        .then((choice) => {
          if (choice === show && !answered) void chat.reveal();
        });
      // VS Code cannot withdraw a notification; once answered, its button does nothing.
      return { dispose: () => void (answered = true) };
    },
    async openExternal(url) {
      await vscode.env.openExternal(vscode.Uri.parse(url, true));
    },
  };
}
