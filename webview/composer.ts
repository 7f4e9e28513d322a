/**
 * The prompt box. Enter sends, Shift+Enter is a newline; Stop shows while a turn runs; `/` at the start lists
 * the agent's slash commands (sent as plain prompt text, as the spec says). The draft is the user's:
 * it is cleared only when a prompt is sent, and put back if the host rejects that prompt.
 */
import type { AvailableCommand, TranscriptState } from '../src/shared/model';
import type { HostInfo, WebviewToHostMessage } from '../src/shared/webview-protocol';
import { h, icon } from './dom';
import { InputHint } from './input-hint';
import { acceptCommand, commandBeingUsed, matchCommands, slashQuery } from './slash-commands';
import { SlashMenu } from './slash-menu';

type Post = (message: WebviewToHostMessage) => void;

const MAX_HEIGHT = 240;
const FIELD_SIZING = typeof CSS !== 'undefined' && CSS.supports('field-sizing', 'content');

export class Composer {
  readonly element = h('div', { className: 'composer' });
  private readonly textarea = h('textarea', { className: 'prompt-input', attrs: { 'aria-label': 'Prompt', rows: '1', placeholder: 'Ask the agent…' } });
  private readonly sendButton = h('button', { className: 'icon-button send', attrs: { type: 'button', 'aria-label': 'Send', title: 'Send (Enter)' } }, icon('send'));
  private readonly stopButton = h('button', { className: 'icon-button stop', attrs: { type: 'button', 'aria-label': 'Stop', title: 'Stop (Escape)' } }, icon('debug-stop'));
  private readonly reason = h('div', { className: 'composer-reason', attrs: { 'aria-live': 'polite' } });
  private readonly menu: SlashMenu;
  private readonly hint: InputHint;
  private commands: readonly AvailableCommand[] = [];
  /** Escape closed the menu for this word: do not reopen it until the text changes. */
  private menuDismissedFor: string | undefined;
  private canSend = false;
  private running = false;
  /** The last prompt sent, until the host takes it (a new turn starts) or rejects it. */
  private inFlight: string | undefined;

  constructor(
    private readonly post: Post,
    draft: string,
    private readonly onDraftChanged: (draft: string) => void,
    private readonly onSent: () => void,
  ) {
    this.textarea.value = draft;
    this.menu = new SlashMenu(this.textarea, (command) => this.pickCommand(command));
    this.hint = new InputHint(this.textarea);
    const field = h('div', { className: 'prompt-field' }, this.textarea, this.hint.element);
    this.element.append(this.reason, this.menu.element, h('div', { className: 'composer-box' }, field, h('div', { className: 'composer-actions' }, this.stopButton, this.sendButton)));
    this.textarea.addEventListener('input', () => {
      this.autosize();
      this.showRejection(undefined);
      this.onDraftChanged(this.textarea.value);
      this.refreshMenu();
    });
    // Caret moves change which word is being completed.
    this.textarea.addEventListener('click', () => this.refreshMenu());
    this.textarea.addEventListener('blur', () => this.menu.show([]));
    this.textarea.addEventListener('keydown', (event) => {
      if (!event.isComposing && this.menu.handleKey(event)) {
        // The menu's keys are not the chat's: Escape closes the list and does not also cancel the turn.
        event.preventDefault();
        event.stopPropagation();
        if (event.key === 'Escape') this.menuDismissedFor = this.textarea.value;
        return;
      }
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.send();
      }
    });
    this.sendButton.addEventListener('click', () => this.send());
    this.stopButton.addEventListener('click', () => this.post({ type: 'cancel_turn' }));
    this.autosize();
  }

  update(state: TranscriptState | undefined, host: HostInfo | undefined): void {
    const blocked = blockedReason(state, host);
    if (state && state.commands !== this.commands) {
      this.commands = state.commands;
      this.refreshMenu();
    }
    this.running = state !== undefined && state.turn.phase !== 'idle';
    this.canSend = blocked === undefined;
    if (this.running) this.inFlight = undefined;
    this.textarea.disabled = !this.canSend;
    this.sendButton.disabled = !this.canSend || this.running;
    this.sendButton.hidden = this.running;
    this.stopButton.hidden = !this.running;
    this.stopButton.disabled = state?.turn.phase === 'cancelling';
    this.element.classList.toggle('blocked', !this.canSend);
    this.autosize();
    // While blocked, why it is blocked is what matters; an earlier rejection is stale.
    if (blocked !== undefined) this.rejection = undefined;
    if (!this.rejection) this.setReason(blocked, false);
  }

  focus(): void {
    this.textarea.focus();
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Opens, filters or closes the slash command list for the word at the caret; shows a picked command's hint. */
  private refreshMenu(): void {
    const text = this.textarea.value;
    if (this.menuDismissedFor !== undefined && this.menuDismissedFor !== text) this.menuDismissedFor = undefined;
    const query = this.textarea.selectionStart === this.textarea.selectionEnd ? slashQuery(text, this.textarea.selectionStart) : undefined;
    const open = query !== undefined && this.menuDismissedFor === undefined && document.activeElement === this.textarea;
    this.menu.show(open ? matchCommands(this.commands, query) : []);
    this.hint.show(commandBeingUsed(text, this.commands)?.inputHint, text);
    this.textarea.placeholder = this.commands.length > 0 ? 'Ask the agent… (/ for commands)' : 'Ask the agent…';
  }

  private pickCommand(command: AvailableCommand): void {
    const next = acceptCommand(this.textarea.value, command);
    this.textarea.value = next.text;
    this.textarea.setSelectionRange(next.caret, next.caret);
    this.textarea.focus();
    this.autosize();
    this.onDraftChanged(next.text);
    this.refreshMenu();
  }

  /** The host refused the prompt: put it back (before anything typed since) and say why. */
  rejected(reason: string): void {
    if (this.inFlight !== undefined) {
      const typedSince = this.textarea.value;
      this.textarea.value = typedSince ? `${this.inFlight}\n${typedSince}` : this.inFlight;
      this.inFlight = undefined;
      this.autosize();
      this.onDraftChanged(this.textarea.value);
    }
    this.showRejection(reason);
  }

  private rejection: string | undefined;

  private showRejection(reason: string | undefined): void {
    if (reason === this.rejection) return;
    this.rejection = reason;
    this.setReason(reason, reason !== undefined);
  }

  private setReason(text: string | undefined, isError: boolean): void {
    this.reason.textContent = text ?? '';
    this.reason.hidden = !text;
    this.reason.classList.toggle('error', isError);
    this.reason.setAttribute('role', isError ? 'alert' : 'status');
  }

  private send(): void {
    const text = this.textarea.value;
    if (!this.canSend || this.running || text.trim() === '') return;
    this.post({ type: 'send_prompt', text });
    this.inFlight = text;
    this.textarea.value = '';
    this.autosize();
    this.showRejection(undefined);
    this.onDraftChanged('');
    this.refreshMenu();
    this.onSent();
  }

  private autosize(): void {
    // Where CSS sizes the box to its content (field-sizing), nothing to do; and a detached box has no size yet.
    if (FIELD_SIZING || !this.textarea.isConnected) return;
    this.textarea.style.height = 'auto';
    this.textarea.style.height = `${Math.min(this.textarea.scrollHeight, MAX_HEIGHT)}px`;
  }
}

/** Why the composer cannot send now, if it cannot. */
export function blockedReason(state: TranscriptState | undefined, host: HostInfo | undefined): string | undefined {
  if (host?.blockedReason) return host.blockedReason;
  const agent = state?.agent;
  if (!agent || agent.phase === 'none') return 'No agent is running. Select an agent to start.';
  if (agent.phase === 'starting') return `Starting ${agent.agentName}…`;
  if (agent.phase === 'exited') return `${agent.agentName} has exited. Restart it to continue.`;
  return undefined;
}
