/**
 * What the real-agent suites check of a turn's change set (issue 13), whoever wrote the files: the card lists
 * exactly the files with their +/− counts, the "after" is what is on disk, and Undo of one file puts back its
 * "before" exactly (deletes a file the turn created).
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { AcpClientApi } from '../../src/api';
import type { ChangeSetEntry, ChangedFileView, TranscriptState } from '../../src/shared/model';
import { entriesOf } from '../../src/shared/selectors';
import { waitFor } from './helpers';

export const changeSetOf = (state: TranscriptState, turnId: string): ChangeSetEntry | undefined =>
  entriesOf(state).find((entry): entry is ChangeSetEntry => entry.kind === 'changes' && entry.turnId === turnId);

/** The change card of `turnId` once the turn has ended (disk writes are seen by a watcher, so it may come a little later). */
export async function shownChanges(client: AcpClientApi, turnId: string): Promise<readonly ChangedFileView[]> {
  const state = await waitFor(client, (s) => s.turn.phase === 'idle' && changeSetOf(s, turnId) !== undefined, 20_000);
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
export async function assertChangeShown(client: AcpClientApi, turnId: string, expected: ExpectedChange): Promise<void> {
  const files = await shownChanges(client, turnId);
  assert.deepEqual(
    files.map((f) => ({ path: f.path, change: f.change, added: f.added, removed: f.removed, review: f.review })),
    [{ path: expected.path, change: expected.change, added: expected.added, removed: expected.removed, review: 'pending' }],
    `the turn's change card: ${JSON.stringify(files)}`,
  );
  assert.equal(files[0]?.note, undefined, 'what the agent reported agrees with the disk');
  assert.equal(readFileSync(expected.path, 'utf8'), expected.after);
}

/** Undo of that one file restores its "before" (removes a created file) and the card marks it undone. */
export async function assertUndoRestores(client: AcpClientApi, turnId: string, expected: ExpectedChange): Promise<void> {
  const outcome = await vscode.commands.executeCommand<{ kind: string }>('acpClient.undoChanges', turnId, expected.path);
  assert.equal(outcome?.kind, 'applied', `undo: ${JSON.stringify(outcome)}`);
  if (expected.before === undefined) assert.equal(existsSync(expected.path), false, 'the file the turn created is gone');
  else assert.equal(readFileSync(expected.path, 'utf8'), expected.before, 'the file is back as it was before the turn');
  await waitFor(client, (s) => changeSetOf(s, turnId)?.files.find((f) => f.path === expected.path)?.review === 'undone');
}
