/**
 * Follow the agent (`acpClient.followAgent`, off by default): while a turn of the conversation shown in the chat
 * runs, the editor reveals the file and line each tool call says it reads or edits (its `locations`), as the call
 * arrives. The editor is shown in the preview tab without taking the focus: the user keeps typing in the composer.
 * Only a file inside the workspace folders is revealed (after `..` and symlinks), and a burst of calls costs one
 * reveal at a time, the latest waiting: an agent naming a thousand files does not make the editor open a thousand.
 */
import * as vscode from 'vscode';
import { confinePath } from '../client/path-confinement';
import type { TranscriptAction } from '../shared/actions';
import type { ToolCallLocation } from '../shared/content';
import type { TranscriptState } from '../shared/model';
import { activeTurnId } from '../shared/selectors';
import type { TranscriptStore } from '../session/transcript-store';

const REVEAL_WAIT_MS = 5_000;

export const followAgentEnabled = (): boolean => vscode.workspace.getConfiguration('acpClient').get<boolean>('followAgent') === true;

/** Shows a file at a range in the preview tab, the focus staying where it is (the composer). */
export async function revealWithoutFocus(file: string, range: vscode.Range): Promise<void> {
  await vscode.window.showTextDocument(vscode.Uri.file(file), { preserveFocus: true, preview: true, selection: range });
}

/** The location a tool call update names while a turn runs (not when a loaded session replays its history). */
export function followedLocation(action: TranscriptAction, state: TranscriptState): ToolCallLocation | undefined {
  if (action.type !== 'session_update' || activeTurnId(state) === undefined) return undefined;
  const { update } = action;
  if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return undefined;
  return update.locations?.[0];
}

export class FollowAgent implements vscode.Disposable {
  private readonly subscription: { dispose(): void };
  private waiting: ToolCallLocation | undefined;
  private revealing = false;

  constructor(
    store: TranscriptStore,
    /** Whether this conversation is the one shown in the chat (a background one is not followed). */
    private readonly shown: () => boolean,
    private readonly enabled: () => boolean = followAgentEnabled,
  ) {
    this.subscription = store.subscribe((action, state) => {
      const location = followedLocation(action, state);
      if (location && this.shown() && this.enabled()) this.follow(location);
    });
  }

  dispose(): void {
    this.subscription.dispose();
    this.waiting = undefined;
  }

  private follow(location: ToolCallLocation): void {
    this.waiting = location;
    if (this.revealing) return;
    this.revealing = true;
    void this.revealWaiting().finally(() => (this.revealing = false));
  }

  private async revealWaiting(): Promise<void> {
    for (let next = this.waiting; next; next = this.waiting) {
      this.waiting = undefined;
      const roots = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
      const verdict = await confinePath(next.path, roots).catch(() => undefined);
      if (!verdict?.allowed) continue;
      // The wire's line is 1-based (ToolCallLocation); a missing one shows the file's top.
      const line = Math.max(0, (next.line ?? 1) - 1);
      // Bounded: a reveal the workbench never answers must not stop the following ones.
      await within(REVEAL_WAIT_MS, revealWithoutFocus(verdict.realPath, new vscode.Range(line, 0, line, 0)));
    }
  }
}

/** Waits for `work` at most `ms`; its failure or lateness is ignored (it goes on in the background). */
function within(ms: number, work: Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([
    work.then(
      () => undefined,
      () => undefined,
    ),
    late,
  ]).finally(() => clearTimeout(timer));
}
