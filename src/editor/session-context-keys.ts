/**
 * Context keys from the transcript, for `when` clauses: `acpClient.turnRunning` (Cancel Turn's enablement and
 * Escape), `acpClient.hasModePicker` and `acpClient.hasSessionOptions` (the mode and option palette commands);
 * for the walkthrough's steps, `acpClient.agentReady` (an agent opened a session: signed in, or no sign-in was
 * needed) and `acpClient.promptSent` (a turn ran; it stays true).
 * Each key is set only when its value changes: the store changes on every streamed chunk.
 */
import * as vscode from 'vscode';
import type { ShownTranscript } from '../conversations/shown-transcript';
import type { TranscriptState } from '../shared/model';
import { modePicker, sessionPickers } from '../shared/session-pickers';
import { inTurnState, lifecycleOf } from '../shared/lifecycle';

export class SessionContextKeys implements vscode.Disposable {
  private readonly values = new Map<string, boolean>();
  private pickersOf: Pick<TranscriptState, 'modes' | 'configOptions'> | undefined;
  private readonly subscriptions: { dispose(): void }[];

  constructor(shown: ShownTranscript) {
    this.publish(shown.state);
    this.subscriptions = [shown.subscribe((_action, state) => this.publish(state)), shown.onDidSwitch((state) => this.publish(state))];
  }

  dispose(): void {
    this.subscriptions.forEach((subscription) => subscription.dispose());
  }

  private publish(state: TranscriptState): void {
    const lifecycle = lifecycleOf(state);
    // Cancelling is past Cancel Turn's moment: the key is for a turn that can still be cancelled.
    const cancellable = lifecycle === 'turn_running' || lifecycle === 'waiting_for_user';
    this.set('acpClient.turnRunning', cancellable);
    this.set('acpClient.agentReady', lifecycle === 'ready' || inTurnState(lifecycle));
    if (cancellable) this.set('acpClient.promptSent', true);
    const seen = this.pickersOf;
    if (seen && seen.modes === state.modes && seen.configOptions === state.configOptions) return;
    this.pickersOf = { modes: state.modes, configOptions: state.configOptions };
    this.set('acpClient.hasModePicker', modePicker(state) !== undefined);
    this.set('acpClient.hasSessionOptions', sessionPickers(state).length > 0);
  }

  private set(key: string, value: boolean): void {
    if (this.values.get(key) === value) return;
    this.values.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  }
}
