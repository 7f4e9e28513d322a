/**
 * The prompt box. Enter sends, Shift+Enter is a newline; Stop shows while a turn runs; `/` at the start lists
 * the agent's slash commands (sent as plain prompt text, as the spec says); `@` completes workspace files and
 * attaches them; pasted or dropped images and audio are attached when the agent takes them, and refused with
 * the reason when it does not. The draft (text and attachments) is the user's: it is cleared only when a prompt
 * is sent, and put back if the host rejects that prompt.
 */
import type { Attachment } from '../../src/shared/attachments';
import type { AvailableCommand, TranscriptState } from '../../src/shared/model';
import type { FileMatch, HostInfo, WebviewToHostMessage } from '../../src/shared/webview-protocol';
import { AttachmentTray } from './attachment-tray';
import { CompletionMenu } from './completion-menu';
import { h, icon, iconOnlyButton, setDisabled } from '../dom';
import { droppedAttachments, isAttachableDrag } from './dropped-attachments';
import { acceptMention, mentionQuery, type MentionQuery } from './file-mentions';
import { InputHint } from './input-hint';
import { MessageEdit } from './message-edit';
import { acceptCommand, commandBeingUsed, matchCommands, slashQuery } from './slash-commands';

type Post = (message: WebviewToHostMessage) => void;

export interface Draft {
  readonly text: string;
  readonly attachments: readonly Attachment[];
}

const MAX_HEIGHT = 240;
const FIELD_SIZING = typeof CSS !== 'undefined' && CSS.supports('field-sizing', 'content');

export class Composer {
  readonly element = h('div', { className: 'composer' });
  private readonly textarea: HTMLTextAreaElement;
  private readonly field: HTMLElement;
  private readonly sendButton = iconOnlyButton('send', 'Send', { title: 'Send (Enter)' });
  private readonly stopButton = iconOnlyButton('debug-stop', 'Stop', { title: 'Stop (Escape)', secondary: true });
  private readonly reason = h('div', { className: 'composer-reason', attrs: { 'aria-live': 'polite' } });
  private readonly slashMenu: CompletionMenu<AvailableCommand>;
  private readonly fileMenu: CompletionMenu<FileMatch>;
  private readonly tray: AttachmentTray;
  private readonly hint: InputHint;
  /** A sent message being edited (its next Send runs it again from there). */
  readonly messageEdit = new MessageEdit();
  private commands: readonly AvailableCommand[] = [];
  /** Escape closed a list for this text: do not reopen it until the text changes. */
  private menuDismissedFor: string | undefined;
  /** The `@` word being completed and the number of the file search asked for it. */
  private mention: MentionQuery | undefined;
  private fileRequest = 0;
  private canSend = false;
  private running = false;
  private queuedCount = 0;
  /** The last prompt sent, until the host takes it (a new turn starts) or rejects it. */
  private inFlight: Draft | undefined;
  /** Enter was pressed before the chat loaded: send once the host's state says whether it can be sent. */
  private sendWhenKnown: boolean;

  constructor(
    private readonly post: Post,
    draft: Draft,
    private readonly onDraftChanged: (draft: Draft) => void,
    private readonly onSent: () => void,
    boot?: { readonly prompt: HTMLTextAreaElement; readonly sendRequested: boolean },
  ) {
    // The page's HTML has the same prompt (src/views/chat-html.ts), on screen before this script ran: taken over.
    this.textarea =
      boot?.prompt ??
      h('textarea', { className: 'prompt-input', attrs: { 'aria-label': 'Prompt', rows: '1', placeholder: 'Ask the agent…' } });
    this.sendWhenKnown = boot?.sendRequested ?? false;
    this.textarea.value = draft.text;
    this.tray = new AttachmentTray(draft.attachments, () => this.draftChanged());
    this.slashMenu = new CompletionMenu(
      this.textarea,
      { id: 'slash-command-list', label: 'Slash commands', render: renderCommand },
      (command) => this.pickCommand(command),
    );
    this.fileMenu = new CompletionMenu(this.textarea, { id: 'file-mention-list', label: 'Workspace files', render: renderFile }, (file) =>
      this.pickFile(file),
    );
    this.hint = new InputHint(this.textarea);
    // The page's prompt stays where it is, focused and typed into, until placeBootPrompt moves it in.
    const field = h('div', { className: 'prompt-field' }, boot ? undefined : this.textarea, this.hint.element);
    this.field = field;
    this.element.append(
      this.messageEdit.element,
      this.reason,
      this.slashMenu.element,
      this.fileMenu.element,
      h(
        'div',
        { className: 'composer-box' },
        this.tray.element,
        h('div', { className: 'composer-row' }, field, h('div', { className: 'composer-actions' }, this.stopButton, this.sendButton)),
      ),
    );
    this.textarea.addEventListener('input', () => {
      this.autosize();
      this.showRejection(undefined);
      this.draftChanged();
      this.refreshMenus();
    });
    // Caret moves change which word is being completed.
    this.textarea.addEventListener('click', () => this.refreshMenus());
    this.textarea.addEventListener('blur', () => this.closeMenus());
    this.textarea.addEventListener('keydown', (event) => this.onKey(event));
    this.textarea.addEventListener('paste', (event) => {
      const files = [...(event.clipboardData?.files ?? [])];
      if (files.length === 0) return;
      event.preventDefault();
      void this.attachDropped({ files, uris: [] });
    });
    this.element.addEventListener('dragover', (event) => {
      if (!isAttachableDrag(event.dataTransfer)) return;
      event.preventDefault();
      this.element.classList.add('drop-target');
    });
    this.element.addEventListener('dragleave', () => this.element.classList.remove('drop-target'));
    this.element.addEventListener('drop', (event) => {
      this.element.classList.remove('drop-target');
      if (!event.dataTransfer || !isAttachableDrag(event.dataTransfer)) return;
      event.preventDefault();
      void this.attachDropped(readDrop(event.dataTransfer));
    });
    this.sendButton.addEventListener('click', () => this.send());
    this.stopButton.addEventListener('click', () => this.post({ type: 'cancel_turn' }));
    this.autosize();
  }

  update(state: TranscriptState | undefined, host: HostInfo | undefined): void {
    const blocked = blockedReason(state, host);
    if (state && state.commands !== this.commands) {
      this.commands = state.commands;
      this.refreshMenus();
    }
    if (state) this.tray.setAgent(state.promptCapabilities, agentNameOf(state));
    this.running = state !== undefined && state.turn.phase !== 'idle';
    this.canSend = blocked === undefined;
    // Taken: a turn started, or the prompt joined the queue.
    const queued = state?.queued?.length ?? 0;
    if (this.running || queued > this.queuedCount) this.inFlight = undefined;
    this.queuedCount = queued;
    this.textarea.disabled = !this.canSend;
    // While a turn runs, Send queues the prompt for the next turn; Stop sits beside it.
    setDisabled(this.sendButton, !this.canSend);
    this.stopButton.hidden = !this.running;
    setDisabled(this.stopButton, state?.turn.phase === 'cancelling');
    this.element.classList.toggle('blocked', !this.canSend);
    this.autosize();
    // While blocked, why it is blocked is what matters; an earlier rejection is stale.
    if (blocked !== undefined) this.rejection = undefined;
    if (!this.rejection) this.setReason(blocked ?? waitingNote(state), false);
    if (this.sendWhenKnown && state && host) {
      this.sendWhenKnown = false;
      // Blocked, the draft stays, and the reason above says why.
      this.send();
    }
  }

  /**
   * Moves the page's prompt (the one from its HTML, given to the constructor) into this composer, once the composer
   * is in the page: moveBefore keeps the focus, the caret and an IME's composition where they are. Moved by
   * insertBefore (a browser without moveBefore, or a composer not in the page), the prompt loses the focus, and
   * focusing it again laid out the whole new chat in the snapshot's task (10 ms of a CPU profile at 0.5 of the
   * CPU's speed) before its frame laid it out again. Returns whether a focused prompt is still focused.
   */
  placeBootPrompt(): boolean {
    const focused = document.activeElement === this.textarea;
    if (this.textarea.parentElement === this.field) return focused;
    if (focused && this.field.isConnected && this.textarea.isConnected && typeof this.field.moveBefore === 'function') {
      this.field.moveBefore(this.textarea, this.hint.element);
      return document.activeElement === this.textarea;
    }
    this.field.insertBefore(this.textarea, this.hint.element);
    return false;
  }

  focus(): void {
    this.textarea.focus();
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** "Add to ACP Chat" from the editor or explorer. */
  addAttachments(attachments: readonly Attachment[]): void {
    this.tray.add(attachments);
    this.showRejection(undefined);
  }

  /** The host's answer to a file search; only the latest one counts. */
  fileMatches(requestId: number, matches: readonly FileMatch[]): void {
    if (requestId !== this.fileRequest || !this.mention) return;
    this.fileMenu.show(document.activeElement === this.textarea ? matches : []);
  }

  /** A queued prompt the user wants to edit: back into the draft, before anything typed since. */
  takeBack(text: string, attachments: readonly Attachment[]): void {
    const typedSince = this.textarea.value;
    this.textarea.value = typedSince ? `${text}\n${typedSince}` : text;
    this.tray.set([...attachments, ...this.tray.attachments]);
    this.autosize();
    this.draftChanged();
    this.focus();
  }

  /** Edit on a sent message: its text replaces the draft, and the next Send runs it again from there. */
  editSent(turnId: string, text: string): void {
    this.textarea.value = text;
    this.messageEdit.start(turnId);
    this.autosize();
    this.draftChanged();
    this.focus();
  }

  /** The host refused the prompt: put it back (before anything typed since) and say why. */
  rejected(reason: string): void {
    if (this.inFlight !== undefined) {
      const typedSince = this.textarea.value;
      this.textarea.value = typedSince ? `${this.inFlight.text}\n${typedSince}` : this.inFlight.text;
      this.tray.set([...this.inFlight.attachments, ...this.tray.attachments]);
      this.inFlight = undefined;
      this.autosize();
      this.draftChanged();
    }
    this.showRejection(reason);
  }

  private onKey(event: KeyboardEvent): void {
    const menu = this.slashMenu.isOpen ? this.slashMenu : this.fileMenu;
    if (!event.isComposing && menu.handleKey(event)) {
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
  }

  /** Opens, filters or closes the completion list for the word at the caret; shows a picked command's hint. */
  private refreshMenus(): void {
    const text = this.textarea.value;
    if (this.menuDismissedFor !== undefined && this.menuDismissedFor !== text) this.menuDismissedFor = undefined;
    const caretOnly = this.textarea.selectionStart === this.textarea.selectionEnd;
    const active = this.menuDismissedFor === undefined && document.activeElement === this.textarea && caretOnly;
    const slash = active ? slashQuery(text, this.textarea.selectionStart) : undefined;
    this.slashMenu.show(slash !== undefined ? matchCommands(this.commands, slash) : []);
    const mention = active && slash === undefined ? mentionQuery(text, this.textarea.selectionStart) : undefined;
    if (mention && (mention.query !== this.mention?.query || mention.start !== this.mention.start)) {
      this.post({ type: 'find_files', requestId: ++this.fileRequest, query: mention.query });
    }
    this.mention = mention;
    if (!mention) this.fileMenu.show([]);
    this.hint.show(commandBeingUsed(text, this.commands)?.inputHint, text);
    this.textarea.placeholder = this.commands.length > 0 ? 'Ask the agent… (/ for commands, @ for files)' : 'Ask the agent… (@ for files)';
  }

  private closeMenus(): void {
    this.slashMenu.show([]);
    this.fileMenu.show([]);
    this.mention = undefined;
  }

  private pickCommand(command: AvailableCommand): void {
    this.replaceText(acceptCommand(this.textarea.value, command));
  }

  private pickFile(file: FileMatch): void {
    if (!this.mention) return;
    this.tray.add([{ kind: 'file', uri: file.uri, label: file.label }]);
    this.replaceText(acceptMention(this.textarea.value, this.mention, file.label));
  }

  private replaceText(next: { text: string; caret: number }): void {
    this.textarea.value = next.text;
    this.textarea.setSelectionRange(next.caret, next.caret);
    this.textarea.focus();
    this.autosize();
    this.draftChanged();
    this.refreshMenus();
  }

  private async attachDropped(dropped: { files: readonly File[]; uris: readonly string[] }): Promise<void> {
    const result = await droppedAttachments(dropped, this.tray.capabilities, this.tray.agentName);
    if (result.attachments.length > 0) this.tray.add(result.attachments);
    this.showRejection(result.refusals.length > 0 ? result.refusals.join(' ') : undefined);
  }

  private rejection: string | undefined;

  private showRejection(reason: string | undefined): void {
    if (reason === this.rejection) return;
    this.rejection = reason;
    this.setReason(reason, reason !== undefined);
  }

  /**
   * Written only when it changes: `update` runs every frame a stream draws, and writing the same text, `hidden` and
   * role again still restyled the line each frame (a trace of a stream into the real VS Code).
   */
  private setReason(text: string | undefined, isError: boolean): void {
    const shown = text ?? '';
    const role = isError ? 'alert' : 'status';
    if (this.reason.textContent === shown && this.reason.getAttribute('role') === role) return;
    this.reason.textContent = shown;
    this.reason.hidden = !text;
    this.reason.classList.toggle('error', isError);
    this.reason.setAttribute('role', role);
  }

  private draftChanged(): void {
    this.onDraftChanged({ text: this.textarea.value, attachments: this.tray.attachments });
  }

  /** Sends the draft: as a prompt, or (`send_review_comments`) after the conversation's review comments, which may go alone. */
  send(type: 'send_prompt' | 'send_review_comments' = 'send_prompt'): void {
    const draft: Draft = { text: this.textarea.value, attachments: this.tray.attachments };
    if (!this.canSend || (type === 'send_prompt' && draft.text.trim() === '' && draft.attachments.length === 0)) return;
    const edited = type === 'send_prompt' ? this.messageEdit.turnId : undefined;
    if (edited !== undefined) {
      this.post({ type: 'resend_message', turnId: edited, text: draft.text, attachments: draft.attachments });
      this.messageEdit.stop();
    } else this.post({ type, text: draft.text, attachments: draft.attachments });
    this.inFlight = draft;
    this.textarea.value = '';
    this.tray.set([]);
    this.autosize();
    this.showRejection(undefined);
    this.draftChanged();
    this.refreshMenus();
    this.onSent();
  }

  private autosize(): void {
    // Where CSS sizes the box to its content (field-sizing), nothing to do; and a detached box has no size yet.
    if (FIELD_SIZING || !this.textarea.isConnected) return;
    this.textarea.style.height = 'auto';
    this.textarea.style.height = `${Math.min(this.textarea.scrollHeight, MAX_HEIGHT)}px`;
  }
}

function renderCommand(command: AvailableCommand): Node[] {
  return [
    h('span', { className: 'completion-name', text: `/${command.name}` }),
    h('span', { className: 'completion-description', text: command.description }),
    ...(command.inputHint ? [h('span', { className: 'completion-hint', text: command.inputHint })] : []),
  ];
}

function renderFile(file: FileMatch): Node[] {
  const slash = file.label.lastIndexOf('/');
  return [
    icon('file'),
    h('span', { className: 'completion-name', text: file.label.slice(slash + 1) }),
    h('span', { className: 'completion-description', text: slash === -1 ? '' : file.label.slice(0, slash) }),
  ];
}

function readDrop(transfer: DataTransfer): { files: File[]; uris: string[] } {
  const uriList = transfer.getData('application/vnd.code.uri-list') || transfer.getData('text/uri-list');
  const uris = uriList
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  return { files: [...transfer.files], uris };
}

function agentNameOf(state: TranscriptState): string {
  return state.agent.phase === 'none' ? 'The agent' : state.agent.agentName;
}

/** What the composer says while it can send, if anything: a prompt sent now waits for the agent. */
export function waitingNote(state: TranscriptState | undefined): string | undefined {
  if (state?.agent.phase === 'starting') return `Starting ${state.agent.agentName}… You can send now: the prompt goes when it is ready.`;
  return undefined;
}

/** Why the composer cannot send now, if it cannot. */
export function blockedReason(state: TranscriptState | undefined, host: HostInfo | undefined): string | undefined {
  if (host?.blockedReason) return host.blockedReason;
  const agent = state?.agent;
  // Not started yet: sending starts the chosen agent (the prompt waits in the queue meanwhile).
  if (!agent || agent.phase === 'none') return host?.selectedAgent ? undefined : 'No agent is running. Select an agent to start.';
  if (agent.phase === 'needs_auth') return `Sign in to ${agent.agentName} to continue.`;
  if (agent.phase === 'exited') return `${agent.agentName} has exited. Restart it to continue.`;
  return undefined;
}
