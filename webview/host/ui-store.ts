/**
 * The webview's saved state (`vscode.setState`) holds one UI state per conversation it has shown, so switching
 * back finds the draft, expansions and scroll position as they were. `current` names the conversation on screen
 * (an editor panel restored after a reload reopens that one). Bounded: the least recently shown go first.
 */
import { parsePreview, previewOnScreen, type TranscriptPreview } from '../../src/shared/saved-preview';
import { parseUiState, type UiState } from './ui-state';
import type { HostChannel } from './vscode-api';

const MAX_CONVERSATIONS = 20;
/** How long typing may pause before the host hears the draft (it keeps it across reloads and views). */
const DRAFT_POST_DELAY_MS = 300;

interface StoredUi {
  readonly current?: string;
  /** Most recently shown last. */
  readonly conversations: readonly { readonly id: string; readonly ui: unknown }[];
  /** The newest entries of the conversation on screen (transcript-preview.ts). */
  readonly preview?: TranscriptPreview;
}

function parseStored(raw: unknown): StoredUi {
  if (typeof raw !== 'object' || raw === null) return { conversations: [] };
  const record: Record<string, unknown> = { ...raw };
  const list = Array.isArray(record.conversations) ? record.conversations : [];
  const conversations = list.flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const entry: Record<string, unknown> = { ...item };
    return typeof entry.id === 'string' ? [{ id: entry.id, ui: entry.ui }] : [];
  });
  const preview = parsePreview(record.preview);
  return { ...(typeof record.current === 'string' ? { current: record.current } : {}), conversations, ...(preview ? { preview } : {}) };
}

export class UiStore {
  private stored: StoredUi;
  /** Each channel's "post the draft now, if it changed". */
  private readonly pendingDrafts = new Set<() => void>();

  constructor(private readonly channel: HostChannel) {
    this.stored = parseStored(channel.loadUiState());
  }

  /**
   * The channel a chat for `conversationId` uses: its UI state in its slot. `hostDraft` is the host's copy of the
   * draft, and it wins: VS Code saves a webview's state when it likes (after a reload the slot can be older than
   * the last keystrokes the host heard). Only an empty host copy defers to the slot's. `typed` is what the user
   * typed into the page's prompt before the chat had loaded: newer than either, it wins, and the host hears it.
   */
  channelFor(conversationId: string, hostDraft: string, typed = ''): HostChannel {
    const slot = this.stored.conversations.find((item) => item.id === conversationId);
    let ui: UiState = parseUiState(slot?.ui);
    if (hostDraft !== '' || slot === undefined) ui = { ...ui, draft: hostDraft };
    let postedDraft = ui.draft;
    if (typed !== '') ui = { ...ui, draft: typed };
    this.save(conversationId, ui);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const channel = this.channel;
    const postDraftNow = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      if (ui.draft === postedDraft) return;
      postedDraft = ui.draft;
      channel.post({ type: 'draft_changed', conversationId, text: ui.draft });
    };
    const postDraftSoon = (): void => {
      if (ui.draft === postedDraft) return;
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(postDraftNow, DRAFT_POST_DELAY_MS);
    };
    this.pendingDrafts.add(postDraftNow);
    postDraftSoon();
    return {
      post: (message) => channel.post(message),
      loadUiState: () => ui,
      saveUiState: (next) => {
        ui = parseUiState(next);
        this.save(conversationId, ui);
        postDraftSoon();
      },
    };
  }

  /**
   * Tells the host every draft now, without the typing pause: a view being hidden goes with its page, and a draft
   * changed in its last 300 ms (a prompt just cleared) never reached the host, whose older copy came back.
   */
  postDraftsNow(): void {
    this.pendingDrafts.forEach((postNow) => postNow());
  }

  /**
   * The preview saved for the conversation that was on screen, to draw before the host's snapshot comes: only where
   * that conversation was followed at its newest entries (a view scrolled up reopens where it was, which the
   * preview does not hold).
   */
  restoredPreview(): { readonly preview: TranscriptPreview; readonly ui: UiState } | undefined {
    // The host decides the same way whether to put it in the page's HTML (src/views/preview-html.ts).
    const preview = previewOnScreen(this.stored);
    if (!preview) return undefined;
    return { preview, ui: parseUiState(this.stored.conversations.find((item) => item.id === preview.conversationId)?.ui) };
  }

  /** Keeps `preview` (or none) for the next load of this page. */
  keepPreview(preview: TranscriptPreview | undefined): void {
    const { preview: _dropped, ...rest } = this.stored;
    this.stored = preview ? { ...rest, preview } : rest;
    this.channel.saveUiState(this.stored);
  }

  private save(conversationId: string, ui: UiState): void {
    const others = this.stored.conversations.filter((item) => item.id !== conversationId);
    // A preview of another conversation no longer describes the screen.
    const preview = this.stored.preview?.conversationId === conversationId ? this.stored.preview : undefined;
    this.stored = {
      current: conversationId,
      conversations: [...others, { id: conversationId, ui }].slice(-MAX_CONVERSATIONS),
      ...(preview ? { preview } : {}),
    };
    this.channel.saveUiState(this.stored);
  }
}
