/**
 * Every conversation of this workspace: the ones loaded (a store and a controller each, streaming whether shown
 * or not) and the ones only stored (a summary in the history index until opened). One is shown in the chat.
 * Editor-free: the composition root supplies how a conversation's controller and adapters are made.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { LogSink } from '../acp/log-sink';
import type { HistoryStore } from '../history/history-store';
import type { SessionSummary } from '../history/format';
import type { SessionRecorder } from '../history/session-recorder';
import { firstPromptText } from '../history/summary-from-state';
import type { SessionController } from '../session/session-controller';
import type { TranscriptAction } from '../shared/actions';
import { TranscriptStore } from '../session/transcript-store';
import { Conversation } from './conversation';
import type { ConversationStatus } from './conversation-status';
import { restoredActions } from './restored-actions';
import { errorMessage } from '../shared/error-text';

/** A conversation as lists show it: loaded or only stored. */
export interface ConversationInfo {
  readonly id: string;
  readonly title: string | undefined;
  readonly firstPrompt: string | undefined;
  readonly agentName: string | undefined;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly status: ConversationStatus;
  /** Its store is in memory (its agent may be running). */
  readonly loaded: boolean;
  /** Someone said something in it (a prompt, or a title it was opened or renamed with): lists show only these. */
  readonly prompted: boolean;
}

export interface ConversationFactory {
  controller(store: TranscriptStore, id: string): SessionController;
  /** Editor adapters that follow one conversation (terminal mirrors...); disposed with it. */
  extras?(store: TranscriptStore): readonly { dispose(): void }[];
}

export interface ConversationsOptions {
  readonly factory: ConversationFactory;
  readonly log: LogSink;
  readonly now?: () => number;
}

export class Conversations {
  private readonly loaded = new Map<string, Conversation>();
  /** Opening a stored conversation reads its files once, however many callers ask at the same time. */
  private readonly opening = new Map<string, Promise<Conversation>>();
  private shownId: string | undefined;
  // One listener per chat view and editor panel: no cap, so no leak warning for a user with many panels open.
  private readonly events = new EventEmitter<{ changed: []; switched: [conversation: Conversation] }>().setMaxListeners(0);
  private readonly now: () => number;
  private history: HistoryStore | undefined;

  constructor(private readonly options: ConversationsOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The list changed (a conversation added, removed, renamed, or its status changed). */
  onDidChange(listener: () => void): { dispose(): void } {
    this.events.on('changed', listener);
    return { dispose: () => this.events.off('changed', listener) };
  }

  /** Another conversation is shown. */
  onDidSwitch(listener: (conversation: Conversation) => void): { dispose(): void } {
    this.events.on('switched', listener);
    return { dispose: () => this.events.off('switched', listener) };
  }

  /** Stored history, once it is open (none without a workspace folder, or when it cannot be read). */
  useHistory(history: HistoryStore): void {
    this.history = history;
  }

  /** The conversation in the chat. `restore` or `create` makes one before anything asks. */
  get shown(): Conversation | undefined {
    return this.shownId === undefined ? undefined : this.loaded.get(this.shownId);
  }

  get(id: string): Conversation | undefined {
    return this.loaded.get(id);
  }

  /** Shows the conversation shown last time (`preferredId`), else the newest stored one, else a new one. */
  async restore(preferredId: string | undefined): Promise<Conversation> {
    const stored = this.history?.list() ?? [];
    const pick = stored.find((summary) => summary.id === preferredId) ?? stored[0];
    if (pick) {
      try {
        return await this.show(pick.id);
      } catch (error) {
        this.options.log.error(`Could not restore the last conversation: ${errorMessage(error)}`);
      }
    }
    return this.create(undefined);
  }

  /**
   * A new conversation, shown at once; its agent starts when the caller says. `start`: what it holds before it is
   * shown (a fork's copied history, recorded like any action, and a draft for the composer).
   */
  async create(
    agentName: string | undefined,
    start?: { readonly actions: readonly TranscriptAction[]; readonly draft: string },
  ): Promise<Conversation> {
    const history = this.history;
    let id: string = randomUUID();
    let recorder: SessionRecorder | undefined;
    if (history) {
      try {
        ({ id, recorder } = await history.create({ agentName: agentName ?? '' }));
      } catch (error) {
        this.options.log.error(`History is off for this conversation: ${errorMessage(error)}`);
      }
    }
    const at = this.now();
    const conversation = this.adopt(id, new TranscriptStore(), recorder, '', { createdAt: at, updatedAt: at }, agentName);
    if (start) {
      for (const action of start.actions) conversation.store.dispatch(action);
      this.setDraft(id, start.draft);
    }
    this.showLoaded(conversation);
    return conversation;
  }

  /** Shows a conversation, loading it from history first if it is only stored. */
  async show(id: string): Promise<Conversation> {
    const conversation = await this.open(id);
    this.showLoaded(conversation);
    return conversation;
  }

  loadedConversations(): readonly Conversation[] {
    return [...this.loaded.values()];
  }

  /** The agents' session ids some conversation here holds (loaded or stored). */
  heldAgentSessions(): ReadonlySet<string> {
    const held = new Set<string>();
    for (const summary of this.history?.list() ?? []) if (summary.agentSessionId) held.add(summary.agentSessionId);
    for (const conversation of this.loaded.values()) {
      const sessionId = conversation.store.state.sessionId;
      if (sessionId) held.add(sessionId);
    }
    return held;
  }

  /** Newest first: loaded ones from their live state, stored ones from the index. */
  list(): ConversationInfo[] {
    const infos = new Map<string, ConversationInfo>();
    for (const summary of this.history?.list() ?? []) infos.set(summary.id, this.infoOf(summary));
    for (const conversation of this.loaded.values()) infos.set(conversation.id, this.liveInfo(conversation, infos.get(conversation.id)));
    return [...infos.values()].sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /**
   * What the Sessions view and Switch Session list: conversations in which something was said. One that never had
   * a prompt is not history (VS Code's own chat lists none either); New Session shows it again instead of another.
   */
  listed(): ConversationInfo[] {
    return this.list().filter((info) => info.prompted);
  }

  setDraft(id: string, draft: string): void {
    const conversation = this.loaded.get(id);
    if (conversation) conversation.draft = draft;
    this.history?.setDraft(id, draft);
  }

  /** Renames a conversation (with `session/set_title` when its agent runs and offers it). */
  async rename(id: string, title: string): Promise<void> {
    const conversation = await this.open(id);
    // The agent's own title where it offers session/set_title (its answer is the title kept), else only here.
    await conversation.controller.rename(title);
    this.events.emit('changed');
  }

  /** Stops its agent and forgets it, stored history included. Another conversation is shown if it was. */
  async remove(id: string): Promise<void> {
    const conversation = this.loaded.get(id);
    const agentSessionId = conversation?.store.state.sessionId;
    // The agent forgets it too where it offers session/delete (only possible while it runs).
    if (conversation && agentSessionId)
      await conversation.controller
        .deleteAgentSession(agentSessionId)
        .catch((error: unknown) => this.options.log.warn(`session/delete ${agentSessionId} failed: ${errorMessage(error)}`));
    this.loaded.delete(id);
    if (conversation) {
      await conversation.controller.stop().catch(() => undefined);
      conversation.dispose();
    }
    await this.history?.remove(id);
    if (this.shownId === id) {
      this.shownId = undefined;
      const next = this.list()[0];
      if (next) await this.show(next.id);
      else await this.create(conversation?.agentName);
    }
    this.events.emit('changed');
  }

  /** Stops the agent of every loaded conversation; transcripts and history stay. */
  async stopAgents(): Promise<void> {
    await Promise.all([...this.loaded.values()].map((conversation) => conversation.controller.stop().catch(() => undefined)));
  }

  async flush(): Promise<void> {
    await this.history?.flush();
  }

  /** Deactivation: every loaded conversation's last actions reach the disk before the host goes. */
  flushSync(): void {
    for (const conversation of this.loaded.values()) conversation.flushSync();
    this.history?.flushSync();
  }

  dispose(): void {
    this.flushSync();
    for (const conversation of this.loaded.values()) conversation.dispose();
    this.loaded.clear();
    this.events.removeAllListeners();
  }

  private showLoaded(conversation: Conversation): void {
    if (this.shownId === conversation.id) return;
    this.shownId = conversation.id;
    this.events.emit('switched', conversation);
    this.events.emit('changed');
  }

  /** Loads a stored conversation without showing it (an editor panel restored after a reload). */
  open(id: string): Promise<Conversation> {
    const loaded = this.loaded.get(id);
    if (loaded) return Promise.resolve(loaded);
    const pending = this.opening.get(id);
    if (pending) return pending;
    const opening = this.load(id).finally(() => this.opening.delete(id));
    this.opening.set(id, opening);
    return opening;
  }

  private async load(id: string): Promise<Conversation> {
    const history = this.history;
    const summary = history?.get(id);
    if (!history || !summary) throw new Error(`There is no stored conversation ${id}.`);
    const stored = await history.load(id);
    if (stored.tornBytes > 0) this.options.log.warn(`Conversation ${id}: dropped ${stored.tornBytes} bytes of a torn last write`);
    const already = this.loaded.get(id);
    if (already) return already;
    const recorder = await history.resume(id, stored);
    const agentName = summary.agentName || undefined;
    const conversation = this.adopt(id, new TranscriptStore(stored.state), recorder, summary.draft ?? '', summary, agentName);
    // What was live when it was stored is not live now: no agent runs for it, an open turn was interrupted.
    for (const action of restoredActions(stored.state)) conversation.store.dispatch(action);
    return conversation;
  }

  private adopt(
    id: string,
    store: TranscriptStore,
    recorder: SessionRecorder | undefined,
    draft: string,
    times: { readonly createdAt: number; readonly updatedAt: number },
    agentName: string | undefined,
  ): Conversation {
    const { factory } = this.options;
    const conversation = new Conversation(
      {
        id,
        store,
        controller: factory.controller(store, id),
        ...(recorder ? { recorder } : {}),
        draft,
        createdAt: times.createdAt,
        updatedAt: times.updatedAt,
        agentName,
        extras: factory.extras?.(store) ?? [],
      },
      () => this.events.emit('changed'),
    );
    this.loaded.set(id, conversation);
    this.events.emit('changed');
    return conversation;
  }

  private infoOf(summary: SessionSummary): ConversationInfo {
    return {
      id: summary.id,
      title: summary.title,
      firstPrompt: summary.firstPrompt,
      agentName: summary.agentName || undefined,
      createdAt: summary.createdAt,
      updatedAt: summary.updatedAt,
      status: 'stopped',
      loaded: false,
      prompted: summary.firstPrompt !== undefined || summary.title !== undefined,
    };
  }

  private liveInfo(conversation: Conversation, stored: ConversationInfo | undefined): ConversationInfo {
    const state = conversation.store.state;
    return {
      id: conversation.id,
      title: conversation.title,
      firstPrompt: stored?.firstPrompt ?? firstPromptText(state),
      agentName: conversation.agentName,
      createdAt: conversation.createdAt,
      updatedAt: conversation.updatedAt,
      status: conversation.status,
      loaded: true,
      prompted: stored?.prompted === true || conversation.prompted,
    };
  }
}
