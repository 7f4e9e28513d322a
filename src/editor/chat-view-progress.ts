/**
 * VS Code's own progress bar along the top of the chat view while the shown chat's agent starts or an agent is
 * being installed from the registry: the chat says which in its header; the bar says "busy" where VS Code users
 * look for it, also when the chat is scrolled or collapsed.
 */
import * as vscode from 'vscode';
import type { InstallActivity } from '../agents/registry/install-activity';
import type { ShownTranscript } from '../conversations/shown-transcript';
import { lifecycleOf } from '../shared/lifecycle';

export class ChatViewProgress implements vscode.Disposable {
  private finish: (() => void) | undefined;
  private readonly subscriptions: { dispose(): void }[];

  constructor(
    private readonly viewId: string,
    private readonly shown: ShownTranscript,
    private readonly installs: InstallActivity,
  ) {
    const update = (): void => this.update();
    this.subscriptions = [shown.subscribe(update), shown.onDidSwitch(update), installs.onDidChange(update)];
    this.update();
  }

  dispose(): void {
    this.subscriptions.forEach((subscription) => subscription.dispose());
    this.finish?.();
  }

  private update(): void {
    const busy = lifecycleOf(this.shown.state) === 'starting' || this.installs.current !== undefined;
    if (busy && !this.finish) {
      const done = new Promise<void>((resolve) => (this.finish = resolve));
      void vscode.window.withProgress({ location: { viewId: this.viewId } }, () => done);
    } else if (!busy && this.finish) {
      this.finish();
      this.finish = undefined;
    }
  }
}
