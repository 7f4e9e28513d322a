/**
 * What the extension exports (`vscode.extensions.getExtension(...).exports`): a read-only view of the chat and a
 * way to send a prompt, for other extensions and for this extension's own integration tests.
 */
import type { Attachment } from './shared/attachments';
import type { TranscriptState } from './shared/model';
import type { PromptVerdict } from './session/session-controller';
import type { WebviewToHostMessage } from './shared/webview-protocol';
import type { ConversationInfo } from './session/conversations/conversations';

export interface AcpClientApi {
  /** The transcript as the chat view shows it. */
  transcript(): TranscriptState;
  /** Called after every change of the transcript. */
  onDidChangeTranscript(listener: (state: TranscriptState) => void): { dispose(): void };
  /** Settles once the chat view has loaded and its script has asked for the transcript. */
  chatViewReady(): Promise<void>;
  /** Sends a prompt as if typed in the chat (with the draft's attachments), starting the configured agent if needed. */
  sendPrompt(text: string, attachments?: readonly Attachment[]): Promise<PromptVerdict>;
  /** Answers an agent's question as the chat's buttons do (the same message, the same checks). */
  answerElicitation(answer: Omit<Extract<WebviewToHostMessage, { type: 'elicitation_answer' }>, 'type'>): void;
  /** Every conversation of this workspace, newest first (what the Sessions view lists). */
  conversations(): readonly ConversationInfo[];
  /** The id of the conversation the chat shows. */
  shownConversation(): string | undefined;
  /** Shows a conversation in the chat (loading it from history if needed). */
  showConversation(id: string): Promise<void>;
  /** The transcript of any loaded conversation, shown or not. */
  transcriptOf(id: string): TranscriptState | undefined;
  /** Sends a prompt to a conversation that need not be the one shown. */
  sendPromptTo(id: string, text: string): Promise<PromptVerdict>;
  /** Stops every conversation's agent (their transcripts stay): test hygiene between suites. */
  stopAgents(): Promise<void>;
  /** Writes everything recorded so far to disk (tests that reload or kill the host call it first, or not). */
  flushHistory(): Promise<void>;
}
