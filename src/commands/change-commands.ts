/**
 * The change card's intents (open, review, keep, undo, restore to here) and their commands. Undo and restore never
 * overwrite a file the user edited after the agent without asking; the question is a quick pick, like the
 * permission prompt, so it can be answered from the keyboard.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChangeTracking } from '../editor/change-tracking';
import type { ApplyOutcome, ChangeTracker } from '../session/changes/change-tracker';
import type { TranscriptStore } from '../session/transcript-store';
import type { UserIntent } from '../session/intents';
import { entriesOf } from '../shared/selectors';
import { visibleText } from '../shared/visible-text';

/** A path the agent chose, as the user reads it: relative to the workspace, bidi and invisible characters shown. */
const shownPath = (absolute: string): string => visibleText(vscode.workspace.asRelativePath(absolute));
const shownName = (absolute: string): string => visibleText(path.basename(absolute));

/** "Restore and fork": continue the conversation from the restored message (the session layer provides it). */
export type ForkFromTurn = (turnId: string) => Promise<void>;

export class ChangeCommands implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[];
  /** Set where the agent offers `session/fork`; "Restore and fork" is offered only then. */
  fork: ForkFromTurn | undefined;

  constructor(
    private readonly changes: ChangeTracking,
    private readonly store: TranscriptStore,
  ) {
    this.disposables = [
      vscode.commands.registerCommand('acpClient.reviewChanges', (turnId?: unknown) =>
        this.review(typeof turnId === 'string' ? turnId : this.latestChangeSet()),
      ),
      // Not in the palette: the card's buttons, also for keybindings and tests. They resolve with what happened.
      vscode.commands.registerCommand('acpClient.keepChanges', (turnId: unknown, file?: unknown) =>
        this.keep(String(turnId), typeof file === 'string' ? file : undefined),
      ),
      vscode.commands.registerCommand('acpClient.undoChanges', (turnId: unknown, file?: unknown) =>
        this.undo(String(turnId), typeof file === 'string' ? file : undefined),
      ),
      vscode.commands.registerCommand('acpClient.restoreCheckpoint', (turnId: unknown) => this.restore(String(turnId))),
    ];
  }

  /** The card's intents; false for any other intent (the chat commands handle those). */
  handle(intent: UserIntent): boolean {
    switch (intent.type) {
      case 'open_change':
        void this.openFile(intent.turnId, intent.path);
        return true;
      case 'review_changes':
        void this.review(intent.turnId);
        return true;
      case 'keep_changes':
        void this.keep(intent.turnId, intent.path);
        return true;
      case 'undo_changes':
        void this.undo(intent.turnId, intent.path);
        return true;
      case 'restore_checkpoint':
        void this.restore(intent.turnId);
        return true;
      default:
        return false;
    }
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }

  private tracker(): ChangeTracker | undefined {
    const tracker = this.changes.current;
    if (!tracker) void vscode.window.showWarningMessage('No conversation is tracking changes.');
    return tracker;
  }

  private latestChangeSet(): string | undefined {
    const sets = entriesOf(this.store.state)
      .filter((e) => e.kind === 'changes')
      .reverse();
    return (sets.find((e) => e.files.some((f) => f.review === 'pending')) ?? sets[0])?.turnId;
  }

  private async openFile(turnId: string, file: string): Promise<void> {
    const record = this.tracker()?.record(turnId);
    const changed = record?.files.find((f) => f.path === file);
    if (!record || !changed) return void vscode.window.showWarningMessage('That change is no longer recorded.');
    // A rename shows as its new path; its "before" is the old path's content.
    const from =
      changed.before.kind === 'absent' && changed.after.kind === 'file'
        ? record.files.find(
            (f) =>
              f.after.kind === 'absent' &&
              f.before.kind === 'file' &&
              changed.after.kind === 'file' &&
              f.before.hash === changed.after.hash,
          )
        : undefined;
    await this.changes.diffs.openFile(changed, from);
  }

  private async review(turnId: string | undefined): Promise<void> {
    const record = turnId === undefined ? undefined : this.tracker()?.record(turnId);
    if (!record || record.files.length === 0) return void vscode.window.showInformationMessage('No agent changes to review yet.');
    await this.changes.diffs.openAll(record.files);
  }

  private async keep(turnId: string, file: string | undefined): Promise<void> {
    await this.tracker()?.keep(turnId, file === undefined ? undefined : [file]);
  }

  async undo(turnId: string, file: string | undefined): Promise<ApplyOutcome | undefined> {
    const tracker = this.tracker();
    if (!tracker) return undefined;
    const paths = file === undefined ? undefined : [file];
    const outcome = await tracker.undo(turnId, paths);
    if (outcome.kind !== 'conflict') return this.report(outcome, 'undo');
    const choice = await this.askOverConflicts(outcome.paths, 'Undo Anyway');
    if (choice === 'diff') {
      for (const conflict of outcome.paths) await this.openFile(turnId, conflict);
      return outcome;
    }
    if (choice !== 'force') return outcome;
    return this.report(await tracker.undo(turnId, paths, true), 'undo');
  }

  async restore(turnId: string): Promise<ApplyOutcome | undefined> {
    const tracker = this.tracker();
    if (!tracker) return undefined;
    if (this.store.state.turn.phase !== 'idle') {
      // The agent is still writing: a rewind now would race it. The moment comes back when the turn ends.
      void vscode.window.showWarningMessage('Wait for the turn to end (or cancel it) before restoring files.');
      return { kind: 'nothing' };
    }
    const preview = await tracker.previewRestore(turnId);
    if (!preview || (preview.files.length === 0 && preview.unrestorable.length === 0)) {
      void vscode.window.showInformationMessage('Nothing to restore: the agent changed no files after this message.');
      return { kind: 'nothing' };
    }
    type Choice = 'restore' | 'overwrite' | 'fork';
    type Item = vscode.QuickPickItem & { choice?: Choice };
    const conflicts = new Set(preview.conflicts);
    const files = (n: number): string => `${n} file${n === 1 ? '' : 's'}`;
    // The safe choice comes first: files the user edited after the agent are left alone unless they say otherwise.
    const actions: Item[] = [
      {
        label: `$(history) Restore ${files(preview.files.length - conflicts.size)}`,
        choice: 'restore',
        ...(conflicts.size ? { detail: `Keeps your edits to ${files(conflicts.size)} changed after the agent` } : {}),
      },
      ...(conflicts.size
        ? [{ label: `$(warning) Restore ${files(preview.files.length)}, overwriting your edits`, choice: 'overwrite' as const }]
        : []),
      ...(this.fork ? [{ label: '$(repo-forked) Restore and fork the conversation from here', choice: 'fork' as const }] : []),
    ];
    const items: Item[] = [
      ...actions,
      { label: 'Files', kind: vscode.QuickPickItemKind.Separator },
      ...preview.files.map((f) => ({
        label: shownPath(f.path),
        description: conflicts.has(f.path) ? 'edited after the agent' : f.target.kind === 'absent' ? 'will be deleted' : 'will be restored',
      })),
      ...preview.unrestorable.map((p) => ({
        label: shownPath(p),
        description: 'cannot be restored (content not kept)',
      })),
    ];
    const picked = await vscode.window.showQuickPick(items, { title: 'Restore to here: workspace files as they were before this message' });
    if (picked?.choice === undefined) return undefined;
    const except = picked.choice === 'overwrite' ? [] : [...conflicts];
    const outcome = this.report(await tracker.restore(turnId, true, except), 'restore');
    if (picked.choice === 'fork' && outcome.kind === 'applied') await this.fork?.(turnId);
    return outcome;
  }

  private async askOverConflicts(paths: readonly string[], force: string): Promise<'diff' | 'force' | undefined> {
    const names = paths.map(shownName).join(', ');
    const picked = await vscode.window.showQuickPick(
      [
        { label: '$(diff) Show Diff', choice: 'diff' as const },
        { label: `$(warning) ${force}`, description: 'overwrites your edits', choice: 'force' as const },
      ],
      { title: `${names} changed after the agent: undo would overwrite those edits` },
    );
    return picked?.choice;
  }

  private report(outcome: ApplyOutcome, what: 'undo' | 'restore'): ApplyOutcome {
    if (outcome.kind === 'refused')
      void vscode.window.showWarningMessage(
        `Could not ${what}: the earlier content was not kept (too large, binary over the budget, or never seen).`,
      );
    else if (outcome.kind === 'applied' && outcome.unrestorable.length > 0)
      void vscode.window.showWarningMessage(
        `Left as they are (earlier content not kept): ${outcome.unrestorable.map(shownName).join(', ')}`,
      );
    return outcome;
  }
}
