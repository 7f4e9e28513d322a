/**
 * The editor's optional actions (rename, run a task, apply a quick fix): what they ask of VS Code, and how they ask
 * the user first. The question goes to the conversation whose turn is running on the agent's process, through the
 * same permission card and dialog as `session/request_permission` (src/session/editor-action-asker.ts).
 */
import type { Position } from './ports';

export interface FileEdits {
  readonly path: string;
  /** How many text edits the change makes in this file. */
  readonly edits: number;
}

/** A change computed and not yet made: the files it would touch, and how to make it. */
export interface PlannedEdit {
  readonly files: readonly FileEdits[];
  /** Makes it as one WorkspaceEdit and saves the files it touched (the change tracking sees them written). */
  apply(): Promise<void>;
}

export interface QuickFix {
  readonly title: string;
  /** The diagnostic's message the fix is offered for. */
  readonly diagnostic?: string;
  readonly preferred: boolean;
  /** The edit it makes; none when the fix only runs a command of its extension. */
  readonly edit?: PlannedEdit;
  /** Runs the fix's command after its edit, if it has one. */
  readonly runCommand?: () => Promise<void>;
}

export interface TaskCommand {
  /** Undefined: the task runs an extension's own code, not a command line. */
  readonly commandLine?: string;
  readonly source: string;
}

export interface EditorActions {
  /** The rename provider's edit for the symbol at `position`; throws a clear error when the symbol cannot be renamed. */
  planRename(path: string, position: Position, newName: string): Promise<PlannedEdit>;
  /** The quick fixes (code actions of kind quickfix) offered for the diagnostics at `position`. */
  quickFixes(path: string, position: Position): Promise<readonly QuickFix[]>;
  /** The names of the tasks VS Code knows (tasks.json and the task providers). */
  taskNames(): Promise<readonly string[]>;
  /**
   * What the task named so runs, as the user should read it before allowing it: its command line (a shell or process
   * task; none for an extension's own code) and where it is defined (`Workspace` for tasks.json, else the provider).
   */
  taskCommand(name: string): Promise<TaskCommand | undefined>;
  /** Runs the task named so and resolves with its exit code when it ends (undefined: it gave none). */
  runTask(name: string, signal: AbortSignal): Promise<number | undefined>;
}

export interface ActionQuestion {
  /** The tool asking: the card's id is made from it. */
  readonly tool: string;
  /** The card's and dialog's title: what will happen, with the counts. */
  readonly title: string;
  /** The card's text: the files and their edit counts, the task, the fix. */
  readonly detail: string;
  readonly paths: readonly string[];
  readonly kind: 'edit' | 'execute';
}

export interface ActionOutcome {
  readonly ok: boolean;
  readonly text: string;
}

export type ActionVerdict =
  | {
      readonly allowed: true;
      /** Before changing these files: the conversation's change tracking claims them for the turn (Undo on its card). */
      claim(paths: readonly string[]): Promise<void>;
      finished(outcome: ActionOutcome): void;
    }
  | { readonly allowed: false; readonly reason: string };

/** Asks the user, in the conversation that is running a turn on this agent's process, whether an action may run. */
export interface ActionAsker {
  /** `conversation`: the key of the conversation whose token the call came with, if it named one. */
  ask(question: ActionQuestion, signal: AbortSignal, conversation?: string): Promise<ActionVerdict>;
}
