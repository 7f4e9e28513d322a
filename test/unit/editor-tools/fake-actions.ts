/** An in-memory EditorActions: the rename, fixes and tasks a test sets, and a record of what was applied or run. */
import type { EditorActions, FileEdits, PlannedEdit, QuickFix, TaskCommand } from '../../../src/editor-tools/action-ports';
import type { Position } from '../../../src/editor-tools/ports';

export class FakeActions implements EditorActions {
  renameFiles: FileEdits[] = [];
  fixes: QuickFix[] = [];
  tasks = new Map<string, number | 'never'>();
  /** What each task runs (taskCommand); a task not here runs `npm run <name>` from tasks.json. */
  taskCommands = new Map<string, TaskCommand>();
  /** What was applied, in order: `rename:<newName>` or `fix:<title>`. */
  readonly applied: string[] = [];
  readonly ran: string[] = [];
  /** Tasks stopped by the wait's end. */
  readonly stopped: string[] = [];
  renameAsked: { path: string; position: Position; newName: string } | undefined;

  planRename(path: string, position: Position, newName: string): Promise<PlannedEdit> {
    this.renameAsked = { path, position, newName };
    return Promise.resolve(this.plan(this.renameFiles, `rename:${newName}`));
  }

  plan(files: FileEdits[], label: string): PlannedEdit {
    return { files, apply: () => Promise.resolve(void this.applied.push(label)) };
  }

  quickFixes(): Promise<readonly QuickFix[]> {
    return Promise.resolve(this.fixes);
  }

  taskNames(): Promise<readonly string[]> {
    return Promise.resolve([...this.tasks.keys()]);
  }

  taskCommand(name: string): Promise<TaskCommand | undefined> {
    if (!this.tasks.has(name)) return Promise.resolve(undefined);
    return Promise.resolve(this.taskCommands.get(name) ?? { commandLine: `npm run ${name}`, source: 'Workspace' });
  }

  runTask(name: string, signal: AbortSignal): Promise<number | undefined> {
    this.ran.push(name);
    const code = this.tasks.get(name);
    if (code === 'never')
      return new Promise((_, reject) =>
        signal.addEventListener('abort', () => {
          this.stopped.push(name);
          reject(new Error('stopped'));
        }),
      );
    return Promise.resolve(code);
  }
}
