/**
 * What the real-agent suites check of a turn's change set (issue 13), whoever wrote the files: the card lists
 * exactly the files with their +/− counts, the "after" is what is on disk, and Undo of one file puts back its
 * "before" exactly (deletes a file the turn created).
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { AcpClientTestApi } from '../../src/api';
import type { ChangeSetEntry, ChangedFileView, TranscriptState } from '../../src/shared/model';
import { entriesOf } from '../../src/shared/selectors';
import { sleep, waitFor, within } from './helpers';

/** How long one editor step of these checks may take before it fails by name (a CI run once hung 120 s in them). */
const STEP_MS = 30_000;

export const changeSetOf = (state: TranscriptState, turnId: string): ChangeSetEntry | undefined =>
  entriesOf(state).find((entry): entry is ChangeSetEntry => entry.kind === 'changes' && entry.turnId === turnId);

/** The change card of `turnId` once the turn has ended (disk writes are seen by a watcher, so it may come a little later). */
export async function shownChanges(client: AcpClientTestApi, turnId: string): Promise<readonly ChangedFileView[]> {
  const state = await waitFor(client, (s) => s.turn.phase === 'idle' && changeSetOf(s, turnId) !== undefined, 20_000).catch(
    (error: unknown) => {
      throw new Error(`no change card for ${turnId}: ${String(error)}`);
    },
  );
  return changeSetOf(state, turnId)?.files ?? [];
}

export interface ExpectedChange {
  path: string;
  change: 'created' | 'modified';
  added: number;
  removed: number;
  before?: string;
  after: string;
}

/** The card lists exactly `expected` (pending review, no disagreement noted) and the disk holds its "after". */
export async function assertChangeShown(client: AcpClientTestApi, turnId: string, expected: ExpectedChange): Promise<void> {
  const files = await shownChanges(client, turnId);
  assert.deepEqual(
    files.map((f) => ({ path: f.path, change: f.change, added: f.added, removed: f.removed, review: f.review })),
    [{ path: expected.path, change: expected.change, added: expected.added, removed: expected.removed, review: 'pending' }],
    `the turn's change card: ${JSON.stringify(files)}`,
  );
  assert.equal(files[0]?.note, undefined, 'what the agent reported agrees with the disk');
  assert.equal(readFileSync(expected.path, 'utf8'), expected.after);
}

/** The sides of the multi-file diff tab (its input type is newer than the API types this extension builds against). */
function multiDiffSides(input: unknown): { original: vscode.Uri; modified: vscode.Uri }[] | undefined {
  if (typeof input !== 'object' || input === null || !('textDiffs' in input) || !Array.isArray(input.textDiffs)) return undefined;
  return input.textDiffs.flatMap((diff: unknown) => (diff instanceof vscode.TabInputTextDiff ? [diff] : []));
}

/** Review opens the turn in the multi-file diff editor: its one file, "before" on the left, the disk's text on the right. */
export async function assertReviewShows(turnId: string, expected: ExpectedChange): Promise<void> {
  await within(STEP_MS, 'Review Changes', vscode.commands.executeCommand('acpClient.reviewChanges', turnId));
  let sides: { original: vscode.Uri; modified: vscode.Uri }[] | undefined;
  for (let attempt = 0; attempt < 50 && !sides; attempt++) {
    sides = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .map((tab) => multiDiffSides(tab.input))
      .find((found) => found !== undefined);
    if (!sides) await sleep(100);
  }
  try {
    assert.equal(sides?.length, 1, 'the review lists the one file');
    const [side] = sides ?? [];
    assert.ok(side);
    const original = await within(STEP_MS, 'opening the before side', vscode.workspace.openTextDocument(side.original));
    assert.equal(original.getText(), expected.before ?? '', 'the before side');
    assert.equal(side.modified.fsPath, expected.path);
    const modified = await within(STEP_MS, 'opening the after side', vscode.workspace.openTextDocument(side.modified));
    assert.equal(modified.getText(), expected.after, 'the after side');
  } finally {
    await within(STEP_MS, 'closing the editors', vscode.commands.executeCommand('workbench.action.closeAllEditors'));
    // The diff editor's models are disposed after it closes; an undo through the editor right then could meet one.
    await sleep(300);
  }
}

/** Undo of that one file restores its "before" (removes a created file) and the card marks it undone. */
export async function assertUndoRestores(client: AcpClientTestApi, turnId: string, expected: ExpectedChange): Promise<void> {
  const outcome = await within(
    STEP_MS,
    'Undo of the file',
    vscode.commands.executeCommand<{ kind: string }>('acpClient.undoChanges', turnId, expected.path),
  );
  assert.equal(outcome?.kind, 'applied', `undo: ${JSON.stringify(outcome)}`);
  if (expected.before === undefined) assert.equal(existsSync(expected.path), false, 'the file the turn created is gone');
  else assert.equal(readFileSync(expected.path, 'utf8'), expected.before, 'the file is back as it was before the turn');
  await waitFor(client, (s) => changeSetOf(s, turnId)?.files.find((f) => f.path === expected.path)?.review === 'undone').catch(
    (error: unknown) => {
      throw new Error(
        `the card does not show ${expected.path} undone: ${JSON.stringify(changeSetOf(client.transcript(), turnId))} ${String(error)}`,
      );
    },
  );
}
