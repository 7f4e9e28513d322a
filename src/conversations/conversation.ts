/**
 * One conversation: its transcript store, the controller that runs its agent and turns, its draft, and the
 * questions (permissions, elicitations) it has open. Everything a session owns lives here, so two conversations
 * never share a turn, a pending question or a draft.
 */
import type { TranscriptStore } from '../session/transcript-store';
import type { SessionController } from '../session/session-controller';
import type { SessionRecorder } from '../history/session-recorder';
import { entriesOf } from '../shared/selectors';
import { LastActivity } from '../shared/last-activity';
import { conversationStatus, type ConversationStatus } from './conversation-status';

export interface ConversationParts {
  readonly id: string;
  readonly store: TranscriptStore;
  readonly controller: SessionController;
  /** Stores what the store applies; absent when history is off or could not be opened. */
  readonly recorder?: SessionRecorder;
  readonly draft: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** The agent this conversation is with (also before it first started). */
  readonly agentName: string | undefined;
  /** Editor adapters that follow this conversation (terminal mirrors...), disposed with it. */
  readonly extras?: readonly { dispose(): void }[];
}

export class Conversation {
  readonly id: string;
  readonly store: TranscriptStore;
  readonly controller: SessionController;
  readonly createdAt: number;
  /** When anything last happened in it (a list sorts by this). */
  updatedAt: number;
  draft: string;
  private chosenAgent: string | undefined;
  private readonly questions = new Set<string>();
  private readonly disposables: { dispose(): void }[] = [];
  private recorder: SessionRecorder | undefined;

  constructor(parts: ConversationParts, onChange: (conversation: Conversation, statusChanged: boolean) => void) {
    this.id = parts.id;
    this.store = parts.store;
    this.controller = parts.controller;
    this.draft = parts.draft;
    this.createdAt = parts.createdAt;
    this.updatedAt = parts.updatedAt;
    this.chosenAgent = parts.agentName;
    this.recorder = parts.recorder;
    let status = this.status;
    let title = this.title;
    const activity = new LastActivity(parts.updatedAt, parts.store.state.agentUpdatedAt);
    this.disposables.push(
      ...(parts.extras ?? []),
      parts.store.subscribe((action, state) => {
        this.recorder?.record(action, state);
        const reported = activity.reportedUpdatedAt;
        activity.apply(action, state, Date.now());
        const reportedChanged = activity.reportedUpdatedAt !== reported;
        this.updatedAt = activity.at;
        if (action.type === 'permission_requested' || action.type === 'elicitation_requested') this.questions.add(action.requestId);
        if (action.type === 'permission_resolved' || action.type === 'elicitation_resolved') this.questions.delete(action.requestId);
        if (action.type === 'turn_ended' || action.type === 'turn_failed') this.questions.clear();
        // Streaming changes neither: the tree is told only when what it shows changed.
        const nextStatus = this.status;
        const nextTitle = this.title;
        if (nextStatus !== status || nextTitle !== title || reportedChanged || action.type === 'prompt_sent') {
          const statusChanged = nextStatus !== status;
          status = nextStatus;
          title = nextTitle;
          onChange(this, statusChanged);
        }
      }),
    );
  }

  get status(): ConversationStatus {
    return conversationStatus(this.store.state, this.questions.size);
  }

  get agentName(): string | undefined {
    const agent = this.store.state.agent;
    return agent.phase === 'none' ? this.chosenAgent : agent.agentName;
  }

  set agentName(name: string | undefined) {
    this.chosenAgent = name;
  }

  /**
   * Something was said in it: a prompt was sent (or replayed from the agent's history), or it has a title. Until
   * then it is a blank page: New Session shows it rather than another, and Select Agent changes its agent in place.
   */
  get prompted(): boolean {
    const state = this.store.state;
    return (
      state.title !== undefined ||
      state.turn.phase !== 'idle' ||
      entriesOf(state).some((entry) => entry.kind === 'message' && entry.role === 'user')
    );
  }

  /** The agent's title for the session, or the user's, if either was given. */
  get title(): string | undefined {
    return this.store.state.title;
  }

  flushSync(): void {
    this.recorder?.flushSync();
  }

  /** Stops recording and its agent; the stored history stays. */
  dispose(): void {
    this.controller.dispose();
    this.disposables.forEach((disposable) => disposable.dispose());
    this.recorder = undefined;
  }
}
