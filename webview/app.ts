/**
 * The chat view: keeps the transcript in step with the host, renders header, transcript and composer at most
 * once per animation frame and only when something changed, and turns clicks into intents for the host.
 */
import type { Entry, TranscriptState } from '../src/shared/model';
import { toolKey } from '../src/shared/selectors';
import type { HostInfo, HostToWebviewMessage } from '../src/shared/webview-protocol';
import { Banner } from './header/banner';
import { Composer } from './composer/composer';
import { h } from './dom';
import { EmptyState } from './transcript/empty-state';
import { FrameScheduler } from './transcript/frame-scheduler';
import { Header } from './header/header';
import { liveNoticeKey } from './transcript/live-notice';
import { PinnedPlan } from './composer/pinned-plan';
import { QueuedPrompts } from './composer/queued-prompts';
import { ReviewCommentsBar } from './review/review-comments-bar';
import { messageText, userMessageOf } from '../src/shared/transcript-fork';
import { classifyLink } from '../src/shared/link-safety';
import { applyActions, applySnapshot, initialSync, type Reducer, type SyncState } from './host/sync';
import type { RenderContext } from './transcript/entry-view';
import { VirtualTranscript } from './transcript/virtual-transcript';
import { answerElicitation } from './transcript/elicitation-answer';
import { parseUiState, toggled, type UiState } from './host/ui-state';
import type { HostChannel } from './host/vscode-api';
import { pickerIsOpen } from './picker-focus';

/** Counters for benchmarks and end-to-end tests (see bench/ and test/e2e/). */
export interface ChatStats {
  renders: number;
  framesScheduled: number;
  /** Entries of the transcript last drawn (a long snapshot's preview holds only its newest). */
  drawnEntries?: number;
  /** The conversation shown. */
  conversationId?: string;
}

const SCROLL_SAVE_DELAY_MS = 250;

/** Buttons that ask the host for one thing and carry nothing else: the button's action names it. */
const PLAIN_INTENTS = new Map<
  string,
  | 'restart_agent'
  | 'stop_agent'
  | 'retry_start'
  | 'select_agent'
  | 'add_agent'
  | 'configure_agents'
  | 'manage_trust'
  | 'sign_in'
  | 'cancel_install'
>([
  ['restart-agent', 'restart_agent'],
  ['sign-in', 'sign_in'],
  ['stop-agent', 'stop_agent'],
  ['retry-start', 'retry_start'],
  ['select-agent', 'select_agent'],
  ['add-agent', 'add_agent'],
  ['cancel-install', 'cancel_install'],
  ['configure-agents', 'configure_agents'],
  ['manage-trust', 'manage_trust'],
]);

/** What the page's first content hands the chat that replaces it (webview/chat-main.ts). */
export interface BootContent {
  /** The page's prompt, with what was typed into it. */
  readonly prompt: HTMLTextAreaElement;
  /** Enter was pressed in it before the chat loaded. */
  readonly sendRequested: boolean;
  /** The conversation's preview in the page's HTML (after Reload Window), if any. */
  readonly preview: Element | undefined;
}

export class ChatApp {
  // The webview's one main landmark: every part of the chat is inside it.
  readonly element = h('main', { className: 'chat' });
  /** Removes the listeners this chat put on the window and document when another conversation replaces it. */
  private readonly lifetime = new AbortController();
  private sync: SyncState = initialSync();
  private host: HostInfo | undefined;
  private ui: UiState;
  private readonly answering = new Map<string, string>();
  private streamingKey: string | undefined;
  /** The host's backlog of the streaming entry's text, as its last post said (RenderContext.streamHeldChars). */
  private streamHeld = 0;
  private terminals: TranscriptState['terminals'] = {};
  private readonly frames = new FrameScheduler(
    () => this.frame(),
    () => this.stats.framesScheduled++,
    {
      requestFrame: (callback) => {
        const id = requestAnimationFrame(callback);
        return () => cancelAnimationFrame(id);
      },
      afterTimers: (callback, delayMs = 1) => setTimeout(callback, Math.max(1, delayMs)),
      now: () => performance.now(),
    },
  );
  private chromeDirty = true;
  private scrollSaveTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly header: Header;
  private readonly banner: Banner;
  private readonly pinnedPlan = new PinnedPlan();
  private readonly queuedPrompts = new QueuedPrompts();
  private readonly reviewComments = new ReviewCommentsBar();
  private liveNotice: string | undefined;
  private readonly emptyState = new EmptyState();
  private readonly transcript: VirtualTranscript;
  private readonly composer: Composer;
  /**
   * The chat that replaces the page's first content draws its chrome in its first frame and its transcript in the
   * next. It is built in the task of the first snapshot's message (lit's first render of its elements included), and
   * that task with a frame drawing and laying out the transcript held the thread 69-89 ms with the CPU throttled 2x
   * (issue 31, the webview bench's 10,000-entry snapshot: a task of ~35 ms, drawing ~20, layout ~17). Split, the
   * transcript's frame is one of its own, and the task with the chrome's frame (6 ms drawing, 5-14 layout) stays
   * under 50 ms in about half the runs (the task itself varies, 32-48 ms). The page's own preview stays over the
   * transcript until then, so nothing blinks.
   */
  private transcriptWaits: boolean;
  private bootPreview: Element | undefined;

  /** @param boot the page's first content, for the first chat of the page to take (see webview/chat-main.ts) */
  constructor(
    private readonly channel: HostChannel,
    private readonly reduce: Reducer,
    readonly stats: ChatStats = { renders: 0, framesScheduled: 0 },
    boot?: BootContent,
  ) {
    this.transcriptWaits = boot !== undefined;
    this.bootPreview = boot?.preview;
    this.ui = parseUiState(channel.loadUiState());
    const requestFrame = (): void => this.requestFrame();
    this.header = new Header((message) => channel.post(message));
    this.banner = new Banner((key) =>
      this.saveUi({ ...this.ui, dismissedBanners: [...(this.ui.dismissedBanners ?? []).filter((seen) => seen !== key), key].slice(-50) }),
    );
    this.transcript = new VirtualTranscript(
      requestFrame,
      this.context(),
      this.ui.scroll,
      (scroll) => this.saveScrollSoon(scroll),
      () => this.frames.laidOut(),
    );
    this.composer = new Composer(
      (message) => channel.post(message),
      { text: this.ui.draft, attachments: this.ui.attachments },
      (draft) => this.saveUi({ ...this.ui, draft: draft.text, attachments: draft.attachments }),
      () => this.transcript.scrollToBottom(),
      boot,
    );
    this.element.append(
      this.header.element,
      this.banner.element,
      // The preview after the transcript: both fill the area, and the later one is drawn over the other.
      h('div', { className: 'transcript-area' }, this.transcript.element, this.emptyState.element, this.bootPreview),
      // The session's options sit by the composer, as chips that wrap, so the header stays one line.
      h(
        'div',
        { className: 'composer-chrome' },
        this.pinnedPlan.element,
        this.queuedPrompts.element,
        this.reviewComments.element,
        this.header.pickers,
      ),
      this.composer.element,
    );
    this.element.addEventListener('click', (event) => this.onClick(event));
    this.element.addEventListener('dragstart', (event) => onLinkDragStart(event));
    // "Focus on Chat View" focuses the webview's frame, which leaves the page body focused: what the user types next
    // belongs in the prompt.
    const signal = this.lifetime.signal;
    window.addEventListener(
      'focus',
      () => {
        if (document.activeElement === document.body || document.activeElement === null) this.composer.focus();
      },
      { signal },
    );
    // The workbench gives the focus to the webview's outer frame. When that frame's focused element is already this
    // page's frame (the chat had the focus before), VS Code does not pass it on, and keys would go to the outer frame,
    // nowhere. The outer frame is this page's same-origin parent: when it gains the focus, the prompt takes it.
    focusFollowsOuterFrame(() => this.composer.focus(), signal);
    // Opened by a focus command or a click: VS Code focused this frame as it loaded, and the prompt is where typing goes.
    if (document.hasFocus()) this.composer.focus();
    document.addEventListener(
      'keydown',
      (event) => {
        if (event.key === 'Escape' && this.composer.isRunning && !event.defaultPrevented) this.channel.post({ type: 'cancel_turn' });
        // A character typed while the page itself has the focus (the frame was focused, the prompt not yet): the
        // prompt takes it. Moved during keydown, the focus carries the character into the textarea.
        const typing = event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey;
        if (typing && (document.activeElement === document.body || document.activeElement === null)) this.composer.focus();
      },
      { signal },
    );
    this.requestFrame();
  }

  /** Moves the page's prompt into this chat once the chat is in the page (Composer.placeBootPrompt). */
  placeBootPrompt(): boolean {
    return this.composer.placeBootPrompt();
  }

  /** The conversation as the host last said it is; undefined until its snapshot has come (and after a gap). */
  get transcriptState(): TranscriptState | undefined {
    return this.sync.awaitingSnapshot ? undefined : this.sync.state;
  }

  /** A frame is asked for and not drawn yet. */
  get framePending(): boolean {
    return this.frames.pending;
  }

  handle(message: HostToWebviewMessage): void {
    switch (message.type) {
      case 'snapshot':
        // The newest pages of a long snapshot still arriving: worth drawing only where the view opens at the
        // bottom; a view kept scrolled up waits for the page it was on.
        if (message.partsToFollow && !this.transcript.position().atBottom) return;
        this.answering.clear();
        this.streamHeld = 0;
        this.sync = applySnapshot(this.sync, message.seq, message.state);
        this.stateChanged();
        return;
      case 'actions': {
        const before = this.sync.state;
        const wasHeld = this.streamHeld;
        this.streamHeld = message.heldChars ?? 0;
        const step = applyActions(this.sync, message.firstSeq, message.actions, this.reduce);
        this.sync = step.sync;
        if (step.resync) this.channel.post({ type: 'resync' });
        if (this.sync.state !== before) this.stateChanged();
        // The backlog is in: the entry drawn behind while it waited is drawn again (laid out), whatever this post held.
        if (wasHeld > 0 && this.streamHeld === 0 && this.streamingKey) this.transcript.setContext(this.context(), [this.streamingKey]);
        return;
      }
      case 'host_info':
        this.host = message.info;
        this.chromeDirty = true;
        this.requestFrame();
        return;
      case 'focus_composer':
        if (message.ifFocused && !focusIsInFrame()) return;
        if (message.unlessPickerOpen && pickerIsOpen()) return;
        // The frame first: a textarea focused in a frame without the focus does not get the keys.
        window.focus();
        this.composer.focus();
        return;
      case 'prompt_rejected':
        this.composer.rejected(message.reason);
        return;
      case 'add_attachments':
        this.composer.addAttachments(message.attachments);
        // Saved with the draft by now (setState is synchronous), so the host may forget them.
        this.channel.post({ type: 'attachments_taken', batch: message.batch });
        return;
      case 'file_matches':
        this.composer.fileMatches(message.requestId, message.matches);
        return;
    }
  }

  dispose(): void {
    this.frames.dispose();
    this.transcript.dispose();
    this.lifetime.abort();
    if (this.scrollSaveTimer !== undefined) clearTimeout(this.scrollSaveTimer);
    this.element.remove();
  }

  private stateChanged(): void {
    const state = this.sync.state;
    if (!state) return;
    this.transcript.setState(state);
    this.chromeDirty = true;
    const streamingKey = state.turn.phase === 'idle' ? undefined : lastEntry(state)?.key;
    const changed = terminalCards(this.terminals, state.terminals);
    this.terminals = state.terminals;
    const liveNotice = liveNoticeKey(state);
    if (liveNotice !== this.liveNotice) {
      changed.push(...[this.liveNotice, liveNotice].filter((key): key is string => key !== undefined));
      this.liveNotice = liveNotice;
    }
    if (streamingKey !== this.streamingKey) {
      changed.push(...[this.streamingKey, streamingKey].filter((key): key is string => key !== undefined));
      this.streamingKey = streamingKey;
    }
    if (changed.length > 0) this.transcript.setContext(this.context(), changed);
    this.requestFrame();
  }

  private requestFrame(): void {
    this.frames.request();
  }

  private frame(): void {
    this.stats.renders++;
    const state = this.sync.state;
    if (this.chromeDirty) {
      this.chromeDirty = false;
      this.header.update(state, this.host);
      this.banner.update(state?.banner, `${state?.sessionId ?? ''}#${state?.banner?.id ?? ''}`, this.ui.dismissedBanners ?? []);
      this.pinnedPlan.update(state);
      this.queuedPrompts.update(state);
      this.reviewComments.update(this.host, this.stats.conversationId);
      this.composer.update(state, this.host);
      this.emptyState.update(state, this.host, (state?.entryCount ?? 0) === 0);
    }
    if (this.transcriptWaits) {
      this.transcriptWaits = false;
      this.requestFrame();
      return;
    }
    this.transcript.render();
    this.stats.drawnEntries = this.transcript.entryCount;
    if (state && this.bootPreview) {
      this.bootPreview.remove();
      this.bootPreview = undefined;
    }
  }

  private context(): RenderContext {
    return {
      expandedThoughts: new Set(this.ui.expandedThoughts),
      expandedRaw: new Set(this.ui.expandedRaw),
      streamingKey: this.streamingKey,
      answering: this.answering,
      terminals: this.terminals,
      liveNoticeKey: this.liveNotice,
      streamHeldChars: () => this.streamHeld,
    };
  }

  private onClick(event: MouseEvent): void {
    if (!(event.target instanceof Element)) return;
    const link = event.target.closest('a[href]');
    if (link) return this.onLinkClick(event, link.getAttribute('href') ?? '');
    const control = event.target.closest<HTMLElement>('[data-action]');
    if (!control || control.hasAttribute('disabled')) return;
    const data = control.dataset;
    const entryKey = control.closest<HTMLElement>('[data-entry-key]')?.dataset.entryKey;
    switch (data.action) {
      case 'permission':
        if (data.requestId === undefined || data.optionId === undefined || this.answering.has(data.requestId)) return;
        this.answering.set(data.requestId, data.optionId);
        this.channel.post({ type: 'permission_answer', requestId: data.requestId, optionId: data.optionId });
        if (entryKey) this.transcript.setContext(this.context(), [entryKey]);
        return;
      case 'elicitation': {
        const message = answerElicitation(control, this.sync.state, entryKey);
        if (message) this.channel.post(message);
        return;
      }
      case 'open-diff':
        if (data.toolCallId === undefined) return;
        this.channel.post({
          type: 'open_diff',
          toolCallId: data.toolCallId,
          contentIndex: Number(data.contentIndex ?? 0),
          fileIndex: Number(data.fileIndex ?? 0),
        });
        return;
      case 'open-location':
        if (data.path === undefined) return;
        this.channel.post(
          data.line === undefined
            ? { type: 'open_location', path: data.path }
            : { type: 'open_location', path: data.path, line: Number(data.line) },
        );
        return;
      case 'open-change':
        if (data.turnId !== undefined && data.path !== undefined)
          this.channel.post({ type: 'open_change', turnId: data.turnId, path: data.path });
        return;
      case 'review-changes':
        if (data.turnId !== undefined) this.channel.post({ type: 'review_changes', turnId: data.turnId });
        return;
      case 'keep-changes':
      case 'undo-changes':
        if (data.turnId === undefined) return;
        this.channel.post({
          type: data.action === 'keep-changes' ? 'keep_changes' : 'undo_changes',
          turnId: data.turnId,
          ...(data.path === undefined ? {} : { path: data.path }),
        });
        return;
      case 'edit-message': {
        const message = data.turnId === undefined || !this.sync.state ? undefined : userMessageOf(this.sync.state, data.turnId);
        if (message?.turnId !== undefined) this.composer.editSent(message.turnId, messageText(message.content));
        return;
      }
      case 'cancel-message-edit':
        this.composer.messageEdit.stop();
        return;
      case 'send-review-comments':
        this.composer.send('send_review_comments');
        return;
      case 'restore-checkpoint':
        if (data.turnId !== undefined) this.channel.post({ type: 'restore_checkpoint', turnId: data.turnId });
        return;
      case 'open-terminal':
        if (data.terminalId !== undefined) this.channel.post({ type: 'open_terminal', terminalId: data.terminalId });
        return;
      case 'cancel-terminal':
        if (data.terminalId !== undefined) this.channel.post({ type: 'cancel_terminal', terminalId: data.terminalId });
        return;
      case 'steer-queued':
        if (data.queuedId !== undefined) this.channel.post({ type: 'steer_queued_prompt', id: data.queuedId });
        return;
      case 'remove-queued':
        if (data.queuedId !== undefined) this.channel.post({ type: 'remove_queued_prompt', id: data.queuedId });
        return;
      case 'edit-queued': {
        const prompt = this.sync.state?.queued?.find((queued) => queued.id === data.queuedId);
        if (!prompt) return;
        this.channel.post({ type: 'remove_queued_prompt', id: prompt.id });
        this.composer.takeBack(prompt.text, prompt.attachments);
        return;
      }
      case 'toggle-thought':
        if (!entryKey) return;
        this.saveUi({ ...this.ui, expandedThoughts: toggled(this.ui.expandedThoughts, entryKey) });
        this.transcript.setContext(this.context(), [entryKey]);
        return;
      case 'toggle-raw':
        if (!entryKey) return;
        this.saveUi({ ...this.ui, expandedRaw: toggled(this.ui.expandedRaw, entryKey) });
        this.transcript.setContext(this.context(), [entryKey]);
        return;
      default: {
        const intent = data.action === undefined ? undefined : PLAIN_INTENTS.get(data.action);
        if (intent) this.channel.post({ type: intent });
      }
    }
  }

  private onLinkClick(event: MouseEvent, href: string): void {
    const target = classifyLink(href);
    // Web links are left to VS Code, which opens them outside; files open in the editor through the host.
    if (target.type === 'external') return;
    event.preventDefault();
    // VS Code's own click handler in the webview's frame (on its window, after this one) sends every a[href] to the
    // workbench, resolved against the webview's address whatever this handler did: in the browser-hosted workbench a
    // relative file link also opened https://<the webview's host>/…/src/hello.ts in a new tab. Only web links are its.
    event.stopPropagation();
    if (target.type === 'file')
      this.channel.post(
        target.line === undefined
          ? { type: 'open_location', path: target.path }
          : { type: 'open_location', path: target.path, line: target.line },
      );
  }

  private saveUi(ui: UiState): void {
    this.ui = ui;
    this.channel.saveUiState(ui);
  }

  private saveScrollSoon(scroll: UiState['scroll']): void {
    if (this.scrollSaveTimer !== undefined) clearTimeout(this.scrollSaveTimer);
    this.scrollSaveTimer = setTimeout(() => {
      this.scrollSaveTimer = undefined;
      this.saveUi({ ...this.ui, scroll });
    }, SCROLL_SAVE_DELAY_MS);
  }
}

/** Keys of the tool call cards showing a terminal that changed: their entries did not change, the terminal did. */
function terminalCards(before: TranscriptState['terminals'], after: TranscriptState['terminals']): string[] {
  if (before === after) return [];
  const keys: string[] = [];
  for (const [terminalId, record] of Object.entries(after)) {
    if (before[terminalId] !== record) keys.push(...record.toolCallIds.map(toolKey));
  }
  return keys;
}

function lastEntry(state: TranscriptState): Entry | undefined {
  const page = state.pages[state.pages.length - 1];
  return page?.[page.length - 1];
}

/** The focus is in this page or its outer frame (VS Code's webview host), not elsewhere in the workbench. */
function focusIsInFrame(): boolean {
  if (document.hasFocus()) return true;
  try {
    return window.parent !== window && window.parent.document.hasFocus();
  } catch {
    // A parent of another origin: where the focus is cannot be told, so the host's word goes.
    return true;
  }
}

/**
 * Runs `focus` when the webview's outer frame gains the focus and this page does not have it. Checked again when it
 * runs: the palette opened meanwhile keeps the focus (a textarea focused in a frame without the focus takes it).
 */
function focusFollowsOuterFrame(focus: () => void, signal: AbortSignal): void {
  let outer: Window;
  try {
    outer = window.parent;
    if (outer === window) return;
    outer.addEventListener(
      'focus',
      () =>
        setTimeout(() => {
          if (outer.document.hasFocus() && !document.hasFocus() && !pickerIsOpen()) focus();
        }, 0),
      { signal },
    );
  } catch {
    // A parent of another origin (not how VS Code hosts webviews): its focus is VS Code's to pass on.
  }
}

/**
 * A link of the agent's dragged anywhere carries its words, not its target, unless it is a web link. Its target is
 * the agent's choice: `[README.md](file:///home/me/.ssh/id_rsa)` dropped on the prompt was taken for a file the user
 * attached (the composer attaches every file: URI a drop brings, as it must for the Explorer's), and the key would have
 * gone with the next message. The browser-hosted workbench's Chromium happens to blank a file: target in a drop from
 * this page; a runtime that passes it through must not decide this.
 */
function onLinkDragStart(event: DragEvent): void {
  if (!(event.target instanceof Element) || !event.dataTransfer) return;
  const link = event.target.closest('a[href]');
  if (!link || classifyLink(link.getAttribute('href') ?? '').type === 'external') return;
  event.dataTransfer.clearData();
  event.dataTransfer.setData('text/plain', link.textContent ?? '');
}
