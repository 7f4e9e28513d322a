/**
 * What the client handlers need from the editor, as narrow ports. The VS Code implementations live in
 * vscode-*.ts files; tests and benchmarks can provide others.
 */
import type { PermissionOption } from '../shared/model';
import type { CancellationSignal } from '../acp/rpc-boundary';

export interface WorkspaceFiles {
  /** Absolute paths of the workspace folders (file system paths). */
  roots(): readonly string[];
  /** The editor's current text when the file is open (unsaved edits included), else undefined. */
  openDocumentText(absolutePath: string): string | undefined;
  /** The file's text on disk. Rejects when missing. */
  readFileText(absolutePath: string): Promise<string>;
  /** The file's size on disk in bytes. Rejects when missing. */
  fileSize(absolutePath: string): Promise<number>;
  /**
   * Whether the file is open in the editor with edits the user has not saved: an agent's write would save them as
   * its own (or discard them), so it is refused.
   */
  hasUnsavedEdits(absolutePath: string): boolean;
  /** Replace or create the file through the editor (undoable), then save it. */
  writeFileText(absolutePath: string, content: string): Promise<void>;
}

/**
 * Told about the agent's file access through us (change tracking). `beforeWrite` runs before a write lands and may
 * refuse it (review before write): the agent then gets an error with the reason, and nothing is written.
 */
export interface FileAccessObserver {
  /** `sessionId`: the ACP session that asked, so an observer tracking many conversations knows whose write it is. */
  beforeWrite(
    absolutePath: string,
    content: string,
    sessionId: string | undefined,
  ): Promise<{ readonly allowed: true } | { readonly allowed: false; readonly reason: string }>;
  /** A whole file the agent read (no line/limit): a known "before" for a change it makes later. */
  afterRead(absolutePath: string, content: string, sessionId: string | undefined): void;
  /** The editor is about to change this file for the agent (an action the user allowed): the turn's change, not the user's save. */
  claimWrite?(absolutePath: string): Promise<void>;
}

export interface PermissionRequestView {
  readonly agentName: string;
  readonly toolTitle: string;
  /** Files the tool call names (locations, diffs), absolute: the dialog shows them whole, not by look-alike names. */
  readonly paths: readonly string[];
  readonly options: readonly PermissionOption[];
}

export interface PermissionPrompt {
  /**
   * Shows the request and resolves with the chosen option id, or undefined if the user closed it without a
   * choice. Closes itself when the token is cancelled.
   */
  ask(request: PermissionRequestView, token: CancellationSignal): Promise<string | undefined>;
}

export interface ElicitationPorts {
  /**
   * Tells the user an agent waits for an answer when the chat is not on screen (a notification that reveals the
   * chat). Disposed once the question is answered, so a stale notification can be withdrawn.
   */
  announce(question: { readonly agentName: string; readonly message: string }): { dispose(): void };
  /** Opens a URL outside VS Code (the user clicked Open; the broker checked it is http(s)). */
  openExternal(url: string): Promise<void>;
}
