/** Keeps the `acpClient.turnRunning` context key true while a turn runs, for Cancel Turn's enablement and Escape. */
import * as vscode from 'vscode';
import type { TranscriptStore } from '../session/transcript-store';

export class TurnContextKey implements vscode.Disposable {
  private running = false;
  private readonly subscription: { dispose(): void };

  constructor(store: TranscriptStore) {
    void vscode.commands.executeCommand('setContext', 'acpClient.turnRunning', false);
    this.subscription = store.subscribe((_action, state) => {
      const running = state.turn.phase === 'running';
      if (running === this.running) return;
      this.running = running;
      void vscode.commands.executeCommand('setContext', 'acpClient.turnRunning', running);
    });
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
