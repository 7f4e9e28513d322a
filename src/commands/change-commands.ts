/**
 * The change card's intents (open, review, keep, undo, restore to here) and their commands. Undo and restore never
 * overwrite a file the user edited after the agent without asking; the question is a quick pick, like the
 * permission prompt, so it can be answered from the keyboard.
 */
import * as vscode from 'vscode';
import type { ChangeTracking } from '../editor/change-tracking';
import type { ChangeTracker } from '../changes/change-tracker';
import type { ApplyOutcome } from '../changes/plan-application';
import type { TranscriptStore } from '../session/transcript-store';
import { entriesOf } from '../shared/selectors';
import { shownText } from '../shared/shown-text';
import { errorMessage } from '../shared/error-text';
import { explainInChat } from './explain-in-chat';
import { blockedPickItem, shownName, shownPath, warnSkipped } from './shown-files';

/** A path the agent chose, as the user reads it: relative to the workspace, bidi and invisible characters shown. */

/** "Restore and fork": continue a conversation, in a new one, from before a message (fork-from-message.ts). */
export interface ForkFromTurn {
  offered(conversationId: string): boolean;
  fork(conversationId: string, turnId: string): Promise<unknown>;
}

/** The conversation an intent or command acts on: its tracker and its transcript. */
export interface Target {
  readonly conversationId: string;
  readonly tracker: ChangeTracker;
  readonly transcript: TranscriptStore;
}

export class ChangeCommands implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly changes: ChangeTracking,
    /** "Restore and fork" is offered where the conversation's agent offers `session/fork`. */
    private readonly forks?: ForkFromTurn,
  ) {
    // The palette's commands act on the conversation on screen; the card's intents on the card's own conversation.
    const shown = (): Target | undefined => this.target(undefined);
    this.disposables = [
      vscode.commands.registerCommand('acpClient.reviewChanges', (turnId?: unknown) => {
        const target = shown();
        return target && this.review(target, typeof turnId === 'string' ? turnId : latestChangeSet(target.transcript));
      }),
      // Not in the palette: the card's buttons, also for keybindings and tests. They resolve with what happened.
      vscode.commands.registerCommand('acpClient.keepChanges', (turnId: unknown, file?: unknown) => {
        const target = shown();
        return target && this.keep(target, String(turnId), typeof file === 'string' ? file : undefined);
      }),
      vscode.commands.registerCommand('acpClient.undoChanges', (turnId: unknown, file?: unknown) => {
        const target = shown();
        return target && this.undo(target, String(turnId), typeof file === 'string' ? file : undefined);
      }),
      vscode.commands.registerCommand('acpClient.restoreCheckpoint', (turnId: unknown) => {
        const target = shown();
        return target && this.restore(target, String(turnId));
      }),
    ];
  }

  /** A change card's intent for conversation `conversationId` (absent: the one shown), run on its tracked changes. */
  withTarget(conversationId: string | undefined, run: (target: Target) => Promise<unknown>): void {
    const target = this.target(conversationId);
    if (target) void run(target);
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }

  private target(conversationId: string | undefined): Target | undefined {
    const target = conversationId === undefined ? this.changes.current : this.changes.tracked(conversationId);
    if (!target) void vscode.window.showWarningMessage('No conversation is tracking changes.');
    return target;
  }

  async openFile({ tracker }: Target, turnId: string, file: string): Promise<void> {
    const record = tracker.record(turnId);
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

  async review({ tracker, transcript }: Target, turnId: string | undefined): Promise<void> {
    const record = turnId === undefined ? undefined : tracker.record(turnId);
    if (!record || record.files.length === 0)
      // In the chat, where the cards are: a toast would be gone before the user looked for the reason.
      return explainInChat(
        { store: transcript },
        'No agent changes to review yet',
        transcript.state.turn.phase === 'idle'
          ? 'The agent has changed no file in this conversation. A turn that changes files ends with a card listing them.'
          : 'Files the agent changes in the running turn are listed when the turn ends: run ACP: Review Changes again then.',
      );
    await this.changes.diffs.openAll(record.files);
  }

  async keep({ tracker }: Target, turnId: string, file: string | undefined): Promise<void> {
    await tracker.keep(turnId, file === undefined ? undefined : [file]);
  }

  async undo(target: Target, turnId: string, file: string | undefined): Promise<ApplyOutcome> {
    const { tracker } = target;
    const paths = file === undefined ? undefined : [file];
    const outcome = await tracker.undo(turnId, paths);
    if (outcome.kind !== 'conflict') return this.report(outcome, 'undo');
    const choice = await this.askOverConflicts(outcome.paths, outcome.unsaved, 'Undo Anyway');
    if (choice === 'diff') {
      for (const conflict of outcome.paths) await this.openFile(target, turnId, conflict);
      return outcome;
    }
    if (choice !== 'force') return outcome;
    return this.report(await tracker.undo(turnId, paths, true), 'undo');
  }

  async restore({ conversationId, tracker, transcript }: Target, turnId: string): Promise<ApplyOutcome | undefined> {
    if (transcript.state.turn.phase !== 'idle') {
      // The agent is still writing: a rewind now would race it. The moment comes back when the turn ends.
      explainInChat(
        { store: transcript },
        'The turn is still running',
        'Restoring files while the agent may still write them would race it: wait for the turn to end (or Stop it), then Restore to here again.',
      );
      return { kind: 'nothing' };
    }
    const preview = await tracker.previewRestore(turnId);
    const forkable = this.forks?.offered(conversationId) === true;
    const nothing = !preview || (preview.files.length === 0 && preview.unrestorable.length === 0 && preview.blocked.length === 0);
    if (!preview || (nothing && !forkable)) {
      explainInChat({ store: transcript }, 'Nothing to restore', 'The agent changed no files after this message.');
      return { kind: 'nothing' };
    }
    type Choice = 'restore' | 'overwrite' | 'fork';
    type Item = vscode.QuickPickItem & { choice?: Choice };
    const conflicts = new Set(preview.conflicts);
    const files = (n: number): string => `${n} file${n === 1 ? '' : 's'}`;
    // The safe choice comes first: files the user edited after the agent are left alone unless they say otherwise.
    const actions: Item[] = [
      ...(nothing
        ? []
        : [
            {
              label: `$(history) Restore ${files(preview.files.length - conflicts.size)}`,
              choice: 'restore' as const,
              ...(conflicts.size ? { detail: `Keeps your edits to ${files(conflicts.size)} changed after the agent` } : {}),
            },
          ]),
      ...(conflicts.size
        ? [{ label: `$(warning) Restore ${files(preview.files.length)}, overwriting your edits`, choice: 'overwrite' as const }]
        : []),
      ...(forkable
        ? [
            {
              label: nothing
                ? '$(repo-forked) Fork the conversation from here'
                : '$(repo-forked) Restore and fork the conversation from here',
              detail: 'A new conversation, up to this message; the agent’s own memory still includes the later turns',
              choice: 'fork' as const,
            },
          ]
        : []),
    ];
    const items: Item[] = [
      ...actions,
      { label: 'Files', kind: vscode.QuickPickItemKind.Separator },
      ...preview.files.map((f) => ({
        label: shownText(shownPath(f.path), 'quick-pick'),
        description: conflicts.has(f.path) ? 'edited after the agent' : f.target.kind === 'absent' ? 'will be deleted' : 'will be restored',
      })),
      ...preview.unrestorable.map((p) => ({
        label: shownText(shownPath(p), 'quick-pick'),
        description: 'cannot be restored (content not kept)',
      })),
      ...preview.blocked.map(blockedPickItem),
    ];
    const picked = await vscode.window.showQuickPick(items, { title: 'Restore to here: workspace files as they were before this message' });
    if (picked?.choice === undefined) return undefined;
    const except = picked.choice === 'overwrite' ? [] : [...conflicts];
    const outcome = nothing ? { kind: 'nothing' as const } : this.report(await tracker.restore(turnId, true, except), 'restore');
    if (picked.choice === 'fork' && (outcome.kind === 'applied' || outcome.kind === 'nothing'))
      await this.forks?.fork(conversationId, turnId).catch((error: unknown) => {
        void vscode.window.showErrorMessage(shownText(`Could not fork the conversation: ${errorMessage(error)}`, 'notification'));
      });
    return outcome;
  }

  private async askOverConflicts(
    paths: readonly string[],
    unsaved: readonly string[],
    force: string,
  ): Promise<'diff' | 'force' | undefined> {
    const names = paths.map(shownName).join(', ');
    const pending = unsaved.length > 0 ? ` (unsaved edits in the editor: ${unsaved.map(shownName).join(', ')})` : '';
    const picked = await vscode.window.showQuickPick(
      [
        { label: '$(diff) Show Diff', choice: 'diff' as const },
        { label: `$(warning) ${force}`, description: 'overwrites your edits', choice: 'force' as const },
      ],
      { title: `${names} changed after the agent${pending}: undo would overwrite those edits` },
    );
    return picked?.choice;
  }

  private report(outcome: ApplyOutcome, what: 'undo' | 'restore'): ApplyOutcome {
    // Files that could not be written safely (a link, a damaged copy): each named, with why, whatever else happened.
    const skipped = outcome.kind === 'applied' || outcome.kind === 'refused' ? outcome.skipped : [];
    warnSkipped(what, skipped);
    if (outcome.kind === 'refused' && skipped.length === 0)
      void vscode.window.showWarningMessage(
        `Could not ${what}: the earlier content was not kept (too large, binary over the budget, or never seen).`,
      );
    else if (outcome.kind === 'applied' && outcome.unrestorable.length > 0)
      void vscode.window.showWarningMessage(
        shownText(`Left as they are (earlier content not kept): ${outcome.unrestorable.map(shownName).join(', ')}`, 'notification'),
      );
    return outcome;
  }
}

/** The latest change set still under review, else the latest. */
function latestChangeSet(transcript: TranscriptStore): string | undefined {
  const sets = entriesOf(transcript.state)
    .filter((e) => e.kind === 'changes')
    .reverse();
  return (sets.find((e) => e.files.some((f) => f.review === 'pending')) ?? sets[0])?.turnId;
}
