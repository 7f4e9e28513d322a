/**
 * Change tracking on VS Code: the snapshot store in workspace storage, one ChangeTracker per conversation, fed by
 * a file system watcher, the editor's saves (the user's, never attributed to the agent) and the fs handler's
 * observer (our own writes, with review before write when the setting asks for it).
 */
import { userSetting } from './user-settings';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FileAccessObserver } from '../client/ports';
import { Baseline } from '../changes/baseline';
import { filesOfFolderEvent, type DiskEventKind } from '../changes/event-paths';
import { ChangeLog } from '../changes/change-log';
import { errorMessage } from '../shared/error-text';
import { ChangeTracker } from '../changes/change-tracker';
import { ConcurrentTurns } from '../changes/concurrent-turns';
import { ContentStore, DEFAULT_MAX_FILE_BYTES } from '../changes/content-store';
import type { TranscriptStore } from '../session/transcript-store';
import { WorkspaceEditApplier } from './change-applier';
import { CHANGE_SCHEME, ChangeDiffs } from './change-diffs';
import { VscodeChangeFiles } from './change-files';
import { WriteReview, writesReviewMode } from './write-review';

const DEFAULT_MAX_SNAPSHOT_MB = 200;

export interface TrackedConversation {
  readonly conversationId: string;
  readonly tracker: ChangeTracker;
  readonly transcript: TranscriptStore;
}

export class ChangeTracking implements vscode.Disposable {
  readonly content: ContentStore;
  readonly diffs: ChangeDiffs;
  private readonly files = new VscodeChangeFiles();
  private readonly review: WriteReview;
  private readonly disposables: vscode.Disposable[] = [];
  private storageDir: string;
  private readonly trackers = new Map<string, TrackedConversation>();
  private currentId: string | undefined;
  private readonly baseline: Baseline;
  /** Conversations whose turns run at once: each disk change is attributed to the right one (concurrent-turns.ts). */
  private readonly turns = new ConcurrentTurns();

  constructor(
    storage: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.storageDir = path.join(storage.fsPath, 'changes');
    this.content = new ContentStore(path.join(this.storageDir, 'blobs'), {
      maxTotalBytes: () => snapshotMegabytes(userSetting('review.maxSnapshotMB')) * 1024 * 1024,
      maxFileBytes: DEFAULT_MAX_FILE_BYTES,
    });
    this.diffs = new ChangeDiffs(this.content);
    this.baseline = new Baseline(this.files, this.content);
    this.review = new WriteReview(this.diffs);
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    // In Restricted Mode no agent runs: changes on disk are nobody's turn, and nothing is copied into storage.
    const heard = (uri: vscode.Uri, kind: DiskEventKind): void => {
      if (uri.scheme !== 'file' || !vscode.workspace.isTrusted) return;
      const recipients = this.recipients();
      if (recipients.length === 0) return this.unattended(uri.fsPath, kind);
      // A folder's re-creation can come as a change: its files are looked up either way (a file's event costs an lstat).
      for (const tracker of recipients)
        if (kind === 'deleted') tracker.diskDeleted(uri.fsPath);
        else tracker.diskCreated(uri.fsPath);
    };
    const changed = (uri: vscode.Uri): void => heard(uri, 'changed');
    const created = (uri: vscode.Uri): void => heard(uri, 'created');
    const deleted = (uri: vscode.Uri): void => heard(uri, 'deleted');
    this.disposables.push(
      this.review,
      watcher,
      watcher.onDidCreate(created),
      watcher.onDidChange(changed),
      watcher.onDidDelete(deleted),
      vscode.workspace.onDidSaveTextDocument((doc) => {
        // Our own writes save through the editor too; the tracker already holds those paths for the turn.
        if (doc.uri.scheme === 'file' && vscode.workspace.isTrusted)
          for (const tracker of this.recipients()) tracker.userSaved(doc.uri.fsPath);
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('files.watcherExclude')) this.files.invalidate();
      }),
      vscode.workspace.registerTextDocumentContentProvider(CHANGE_SCHEME, this.diffs),
    );
  }

  /**
   * Tracks the conversation `conversationId` (any stable string: its change sets and checkpoints are stored under
   * it and come back when the same id is opened again, e.g. after Reload Window) on its transcript store. Many
   * conversations can be tracked at once; the one focused (else the first opened) is `current`, which the palette uses.
   */
  /**
   * Stores change sets under another storage folder: the one the window's history uses once it is chosen
   * (history/storage-folder.ts), which a fast reload may make differ from VS Code's. Only before any conversation
   * is tracked.
   */
  relocate(storage: string): void {
    if (this.trackers.size > 0) throw new Error('change tracking is in use: it cannot move');
    this.storageDir = path.join(storage, 'changes');
    this.content.relocate(path.join(this.storageDir, 'blobs'));
  }

  open(conversationId: string, transcript: TranscriptStore): ChangeTracker {
    this.close(conversationId);
    const tracker = new ChangeTracker({
      conversationId,
      transcript,
      files: this.files,
      content: this.content,
      log: new ChangeLog(this.storageDir, conversationId),
      applier: new WorkspaceEditApplier(),
      onError: (message) => this.log.warn(`Change tracking: ${message}`),
      onNotice: (message) => void vscode.window.showWarningMessage(message),
      baseline: this.baseline,
      turns: this.turns,
    });
    this.trackers.set(conversationId, { conversationId, tracker, transcript });
    this.currentId ??= conversationId;
    return tracker;
  }

  /** Stops tracking a conversation (its stored change sets stay for when it is opened again). */
  close(conversationId: string): void {
    this.trackers.get(conversationId)?.tracker.dispose();
    this.trackers.delete(conversationId);
    if (this.currentId === conversationId) this.currentId = undefined;
  }

  /**
   * Who hears of a change on disk (or a user's save), which cannot say who made it: every conversation with a turn
   * running captures it; with none, one tracker brings the shared baseline up to date. (An idle tracker must never
   * refresh the baseline while another captures: the capture would take the agent's result for the "before".)
   */
  /**
   * No conversation is open: the workspace's baseline still follows the disk (else a file made now, later rewritten
   * by an agent in a new conversation, would look like the agent's creation, and Undo would delete it).
   */
  private unattended(path: string, kind: DiskEventKind): void {
    if (this.files.excluded(path)) return;
    const report = (error: unknown): void => this.log.warn(`Change tracking: ${errorMessage(error)}`);
    const refresh = (target: string): void => void this.baseline.refresh(target).catch(report);
    refresh(path);
    filesOfFolderEvent(kind, path, this.files, this.baseline, refresh).catch(report);
  }

  private recipients(): ChangeTracker[] {
    const all = [...this.trackers.values()].map((entry) => entry.tracker);
    const capturing = all.filter((tracker) => tracker.capturing);
    if (capturing.length > 0) return capturing;
    // Just after a turn its conversation hears the events: one may be the turn's change, reported late.
    const settling = all.filter((tracker) => tracker.awaitingLateEvents);
    return settling.length > 0 ? settling : all.slice(0, 1);
  }

  /** The conversation on screen: the one ACP: Review Changes and the palette's change commands act on. */
  focus(conversationId: string): void {
    if (this.trackers.has(conversationId)) this.currentId = conversationId;
  }

  get current(): TrackedConversation | undefined {
    return this.currentId === undefined ? undefined : this.trackers.get(this.currentId);
  }

  tracked(conversationId: string): TrackedConversation | undefined {
    return this.trackers.get(conversationId);
  }

  /**
   * For a conversation's own file handler: opens its tracker, and sees that conversation's reads and writes (with
   * review before write when the setting asks for it).
   */
  observerFor(conversationId: string, transcript: TranscriptStore): FileAccessObserver {
    this.open(conversationId, transcript);
    return {
      beforeWrite: async (absolutePath, content) => {
        if (writesReviewMode() === 'before') {
          const exists = await vscode.workspace.fs.stat(vscode.Uri.file(absolutePath)).then(
            () => true,
            () => false,
          );
          if (!(await this.review.confirm(absolutePath, content, exists)))
            return {
              allowed: false,
              reason: 'the user rejected this change. Do not retry it unchanged; ask the user what they want instead.',
            };
        }
        await this.trackers.get(conversationId)?.tracker.beforeClientWrite(absolutePath, content);
        return { allowed: true };
      },
      afterRead: (absolutePath, content) => this.trackers.get(conversationId)?.tracker.clientRead(absolutePath, content),
      claimWrite: async (absolutePath) => {
        await this.trackers.get(conversationId)?.tracker.beforeClientWrite(absolutePath);
      },
    };
  }

  /** Disposed with the conversation whose store this is: its tracker stops (its stored change sets stay). */
  trackedUntilDisposed(transcript: TranscriptStore): vscode.Disposable {
    return {
      dispose: () => {
        for (const [id, entry] of this.trackers) if (entry.transcript === transcript) this.close(id);
      },
    };
  }

  dispose(): void {
    for (const { tracker } of this.trackers.values()) tracker.dispose();
    this.trackers.clear();
    this.disposables.forEach((d) => d.dispose());
  }
}

/** The user's `acpClient.review.maxSnapshotMB` (a workspace's is ignored: it could evict the user's undo data). */
function snapshotMegabytes(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : DEFAULT_MAX_SNAPSHOT_MB;
}
