/**
 * Permission requests as a VS Code quick pick: it offers exactly the agent's options, and unlike a message box it
 * can be closed from code, which cancel needs. Requests are shown one at a time, in arrival order; closing one
 * without a choice leaves the choice to the card in the chat.
 */
import * as vscode from 'vscode';
import type { PermissionOptionKind } from '../shared/model';
import { visibleText } from '../shared/visible-text';
import { shownText } from '../shared/shown-text';
import type { CancellationSignal } from '../acp/rpc-boundary';
import type { PermissionPrompt, PermissionRequestView } from '../client/ports';

interface OptionItem extends vscode.QuickPickItem {
  readonly optionId: string;
}

const KIND_LABEL: Record<PermissionOptionKind, { icon: string; text: string }> = {
  allow_once: { icon: 'check', text: 'allow once' },
  allow_always: { icon: 'check-all', text: 'allow always' },
  reject_once: { icon: 'close', text: 'reject once' },
  reject_always: { icon: 'circle-slash', text: 'reject always' },
};

export class VscodePermissionPrompt implements PermissionPrompt {
  private queue: Promise<unknown> = Promise.resolve();

  ask(request: PermissionRequestView, token: CancellationSignal): Promise<string | undefined> {
    const shown = this.queue.then(() => (token.isCancellationRequested ? undefined : this.show(request, token)));
    this.queue = shown.catch(() => undefined);
    return shown;
  }

  private show(request: PermissionRequestView, token: CancellationSignal): Promise<string | undefined> {
    return new Promise((resolve) => {
      const pick = vscode.window.createQuickPick<OptionItem>();
      // Everything here is named by the agent: shown with hidden and reordering characters made visible, and the
      // files in full (workspace-relative), so neither a spoofed title nor a look-alike name can pass for another.
      pick.title = `${visibleText(request.agentName)} asks permission: ${visibleText(request.toolTitle)}`;
      const files = request.paths.map((file) => visibleText(vscode.workspace.asRelativePath(file, true)));
      pick.placeholder = `${files.length > 0 ? `Files: ${files.join(', ')}. ` : ''}Choose an answer (Escape leaves it to the card in the chat)`;
      pick.ignoreFocusOut = true;
      pick.items = request.options.map((option) => ({
        optionId: option.optionId,
        label: `$(${KIND_LABEL[option.kind].icon}) ${shownText(option.name, 'quick-pick')}`,
        description: KIND_LABEL[option.kind].text,
      }));
      let settled = false;
      const finish = (value: string | undefined): void => {
        if (settled) return;
        settled = true;
        cancelListener.dispose();
        pick.dispose();
        resolve(value);
      };
      const cancelListener = token.onCancellationRequested(() => finish(undefined));
      pick.onDidAccept(() => finish(pick.selectedItems[0]?.optionId));
      pick.onDidHide(() => finish(undefined));
      pick.show();
    });
  }
}
