/** What every editor tool runs with. */
import type { ActionAsker, EditorActions } from './action-ports';
import type { EditorLanguage } from './ports';
import type { WorkspaceScope } from './workspace-scope';

export interface ToolDeps {
  readonly language: EditorLanguage;
  readonly scope: WorkspaceScope;
  /** How long any tool may take before it answers with an error. */
  readonly deadlineMs: number;
  /** When the agent's current turn began (ms since the epoch): "changed in this turn" means since then. */
  readonly turnStartedAt: () => number;
  /** The actions behind the user's permission (rename, task, quick fix); read-only tools only without them. */
  readonly actions?: { readonly editor: EditorActions; readonly asker: ActionAsker };
}
