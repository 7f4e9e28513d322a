/**
 * Review before write (`acpClient.review.writes: before`): an agent's fs/write_text_file waits while the user looks
 * at the proposed diff and accepts or rejects it (the notification's buttons, or the commands
 * `acpClient.acceptProposedWrite` / `acpClient.rejectProposedWrite`). Closing the notification rejects.
 */
import * as vscode from 'vscode';
import type { ChangeDiffs } from './change-diffs';
import { visibleText } from '../shared/visible-text';
import { shownText } from '../shared/shown-text';

export type WritesReviewMode = 'after' | 'before';

/**
 * A workspace may ask for more review, never for less: `before` from the user's or the workspace's settings wins,
 * so a cloned repository cannot turn off the review its user chose.
 */
export function writesReviewMode(): WritesReviewMode {
  const inspected = vscode.workspace.getConfiguration('acpClient').inspect('review.writes');
  const values: unknown[] = [inspected?.globalValue, inspected?.workspaceValue, inspected?.workspaceFolderValue];
  return values.includes('before') ? 'before' : 'after';
}

export class WriteReview implements vscode.Disposable {
  /** The oldest question first: the commands answer it. */
  private readonly waiting: ((accepted: boolean) => void)[] = [];
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly diffs: ChangeDiffs) {
    this.disposables = [
      vscode.commands.registerCommand('acpClient.acceptProposedWrite', () => this.answerOldest(true)),
      vscode.commands.registerCommand('acpClient.rejectProposedWrite', () => this.answerOldest(false)),
    ];
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
    while (this.waiting.length > 0) this.answerOldest(false);
  }

  async confirm(absolutePath: string, proposed: string, exists: boolean): Promise<boolean> {
    // The path in the workspace, not the name alone: `.github/workflows/ci.yml` and `docs/ci.yml` must not look alike
    // when the user decides (a plain notification shows no detail).
    const name = visibleText(vscode.workspace.asRelativePath(absolutePath));
    const proposal = this.diffs.propose(absolutePath, proposed);
    try {
      const left = exists ? vscode.Uri.file(absolutePath) : this.diffs.emptyUri(absolutePath);
      void vscode.commands.executeCommand('vscode.diff', left, proposal.uri, `${name} (proposed by the agent)`, { preview: true });
      return await new Promise<boolean>((resolve) => {
        let settled = false;
        const answer = (accepted: boolean): void => {
          if (settled) return;
          settled = true;
          const index = this.waiting.indexOf(answer);
          if (index >= 0) this.waiting.splice(index, 1);
          resolve(accepted);
        };
        this.waiting.push(answer);
        void vscode.window
          .showInformationMessage(
            shownText(`The agent wants to write ${name}.`, 'notification'),
            { detail: visibleText(absolutePath) },
            'Accept',
            'Reject',
          )
          .then((choice) => answer(choice === 'Accept'));
      });
    } finally {
      proposal.withdraw();
    }
  }

  private answerOldest(accepted: boolean): void {
    this.waiting[0]?.(accepted);
  }
}
