/**
 * What the extension exports (`vscode.extensions.getExtension(...).exports`). To every extension: a read-only view
 * of the chat and a way to send a prompt as if typed (the agent's permission requests still go to the user). Only
 * when the extension runs in test mode (its own integration tests), `AcpClientTestApi`'s controls as well: they act
 * as the user would (answer a permission or an agent's question, delete a conversation, stop agents), which no
 * other extension may do in the user's name.
 */
import type { Attachment } from './shared/attachments';
import type { TranscriptState } from './shared/model';
import type { PromptVerdict } from './session/session-controller';
import type { WebviewToHostMessage } from './shared/webview-protocol';
import type { ConversationInfo } from './conversations/conversations';
import type { AgentSessionInfo } from './conversations/agent-sessions';
import type { ApprovalRequest } from './agents/definition-approval';

export interface AcpClientApi {
  /** The transcript as the chat view shows it. */
  transcript(): TranscriptState;
  /** Called after every change of the transcript. */
  onDidChangeTranscript(listener: (state: TranscriptState) => void): { dispose(): void };
  /** Settles once the chat view has loaded and its script has asked for the transcript. */
  chatViewReady(): Promise<void>;
  /** Sends a prompt as if typed in the chat (with the draft's attachments), starting the configured agent if needed. */
  sendPrompt(text: string, attachments?: readonly Attachment[]): Promise<PromptVerdict>;
  /** The unsent draft of a conversation as the host keeps it (what the composer shows when it loads). */
  draftOf(id: string): string | undefined;
  /** Every conversation of this workspace, newest first (what the Sessions view lists). */
  conversations(): readonly ConversationInfo[];
  /** The id of the conversation the chat shows. */
  shownConversation(): string | undefined;
  /** Shows a conversation in the chat (loading it from history if needed). */
  showConversation(id: string): Promise<void>;
  /** The transcript of any loaded conversation, shown or not. */
  transcriptOf(id: string): TranscriptState | undefined;
}

/** The exports in test mode only (see the top of this file): the public API and the user's controls. */
export interface AcpClientTestApi extends AcpClientApi {
  /** Answers an agent's question as the chat's buttons do (the same message, the same checks). */
  answerElicitation(answer: Omit<Extract<WebviewToHostMessage, { type: 'elicitation_answer' }>, 'type'>): void;
  /**
   * Handles a message as if the sidebar chat's webview had posted it (same parsing, same routing): a button
   * (`stop_agent`, `retry_start`, `restart_agent`, `permission_answer`...) or typing (`draft_changed`).
   */
  postFromChat(message: WebviewToHostMessage): void;
  /** Sends a prompt to a conversation that need not be the one shown. */
  sendPromptTo(id: string, text: string): Promise<PromptVerdict>;
  /** The agents' own sessions (`session/list`) no conversation here holds, listed afresh. */
  agentSessions(): Promise<readonly AgentSessionInfo[]>;
  /** Deletes a conversation as "Delete" in the Sessions view does, without asking. */
  removeConversation(id: string): Promise<void>;
  /** Stops every conversation's agent (their transcripts stay): test hygiene between suites. */
  stopAgents(): Promise<void>;
  /** Writes everything recorded so far to disk (tests that reload or kill the host call it first, or not). */
  flushHistory(): Promise<void>;
  /**
   * `answerer` receives the text the approval modal for a workspace's definition would show and answers it (true:
   * approve); undefined restores the modal.
   */
  answerApprovalsForTests(answerer: ((request: ApprovalRequest) => Promise<boolean>) | undefined): void;
}

/** The controls only the test mode's exports carry: every member of AcpClientTestApi not in AcpClientApi. */
export type AcpClientTestControls = Omit<AcpClientTestApi, keyof AcpClientApi>;
