/**
 * What every part of a conversation's controller shares: its editor ports, the agent session it has open, and where
 * the agent is in its lifecycle. The phase is moved only through the table in shared/lifecycle.ts (`advance`), and
 * every part reads it back from here (`phase`, `lifecycle`), never from fields of its own.
 */
import type { AgentConfig } from '../agents/agent-config';
import type { FileSystemHandler } from '../client/fs-handler';
import type { ElicitationBroker } from '../client/elicitation-broker';
import type { PermissionBroker } from '../client/permission-broker';
import { advance, inTurnState, lifecycleOf, type LifecycleEvent, type LifecycleState } from '../shared/lifecycle';
import type { LogSink } from '../acp/log-sink';
import type { AgentSession } from './agent-session';
import type { AgentPool } from './agent-pool';
import type { AgentSecrets, SignInPrompts } from './sign-in-ports';
import type { LaunchApproval, McpServerSource, SessionEnvironment, UserNotifier } from './ports';
import type { TranscriptStore } from './transcript-store';
import type { AttachmentText } from './prompt-content';
import type { EditorToolsLauncher } from '../editor-tools/editor-tools-offer';
import { OneShotTimer } from './one-shot-timer';
import { errorMessage } from '../shared/error-text';

/** How long a cancelled turn may go unanswered before we offer to stop the agent (seeds: the agent SHOULD stop). */
export const CANCEL_GRACE_MS = 10_000;

export interface SessionControllerDeps {
  readonly store: TranscriptStore;
  readonly files: FileSystemHandler;
  readonly permissions: PermissionBroker;
  readonly elicitations: ElicitationBroker;
  readonly notifier: UserNotifier;
  readonly log: LogSink;
  readonly env: SessionEnvironment;
  /** Reads attached files for embedding in prompts. */
  readonly attachmentText: AttachmentText;
  /** MCP servers passed to agents; none without it. */
  readonly mcpServers?: McpServerSource;
  /** How long a cancelled turn may go unanswered before we offer to stop the agent. */
  readonly cancelGraceMs?: number;
  readonly signInPrompts: SignInPrompts;
  readonly secrets: AgentSecrets;
  /** The running agents, shared by every conversation: sessions of one agent share its process. Own pool without. */
  readonly pool?: AgentPool;
  /** Asks before a workspace's own agent definition starts; without it every definition starts. */
  readonly launchApproval?: LaunchApproval;
  /** The editor's own MCP server, offered to every agent process; none without it. */
  readonly editorTools?: EditorToolsLauncher;
}

export class ControllerState {
  session: AgentSession | undefined;
  agent: AgentConfig | undefined;
  /** The start under way, if any: settles once it opened a session, failed, or was superseded. */
  starting: Promise<void> | undefined;
  /**
   * Counts lifecycle steps: a newer start or a stop supersedes an older start at once, and a step that awaited
   * something compares its own number with this one to know whether it is still wanted.
   */
  generation = 0;
  disposed = false;
  readonly startupTimer = new OneShotTimer();
  readonly cancelTimer = new OneShotTimer();
  readonly idleTimer = new OneShotTimer();
  /** Where the agent's process is in its lifecycle (the table in shared/lifecycle.ts); a turn is read from the store. */
  private processPhase: LifecycleState = 'no_agent';

  constructor(readonly deps: SessionControllerDeps) {}

  /** The process's lifecycle state, as the table last moved it. */
  get phase(): LifecycleState {
    return this.processPhase;
  }

  /**
   * The conversation's lifecycle state: the process's, from the table, and while a session is open the turn's from
   * the transcript (working, cancelling, or waiting on the user's answer). Commands decide from this alone.
   */
  get lifecycle(): LifecycleState {
    if (this.processPhase !== 'ready') return this.processPhase;
    const openQuestions = this.deps.permissions.pendingCount + this.deps.elicitations.pendingCount;
    const shown = lifecycleOf(this.deps.store.state, openQuestions);
    return inTurnState(shown) ? shown : 'ready';
  }

  /** Moves the process along the lifecycle table; an event the table refuses is logged and changes nothing. */
  advance(event: LifecycleEvent): void {
    const transition = advance(this.processPhase, event);
    if (transition.ok) this.processPhase = transition.state;
    else this.deps.log.warn(`Lifecycle: ${transition.reason}`);
  }

  /** The step numbered `generation` is still wanted: nothing newer superseded it and the controller lives. */
  stillWanted(generation: number): boolean {
    return !this.disposed && generation === this.generation;
  }

  /** Questions the agent asked and the user has not answered are moot (the turn or the process is over). */
  withdrawQuestions(): void {
    this.deps.permissions.cancelAll();
    this.deps.elicitations.cancelAll();
  }

  reportRequestFailure(what: string, error: unknown): void {
    const { message } = describeError(error);
    this.deps.store.dispatch({ type: 'notice_added', severity: 'error', title: what, detail: message });
  }
}

/** An error's message, and its JSON-RPC code when it has one (a refusal from the agent). */
export function describeError(error: unknown): { message: string; code?: number } {
  const message = errorMessage(error);
  return error instanceof Error && 'code' in error && typeof error.code === 'number' ? { message, code: error.code } : { message };
}
