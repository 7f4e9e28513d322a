/**
 * VS Code's side of the editor's actions: the rename provider's WorkspaceEdit, the quick fixes offered at a
 * position, and tasks. An edit is applied as one WorkspaceEdit (one undo step in each editor) and its files are
 * saved, so the change tracking sees them written during the turn and lists them on the turn's change card.
 */
import * as vscode from 'vscode';
import type { EditorActions, FileEdits, PlannedEdit, QuickFix, TaskCommand } from '../editor-tools/action-ports';
import type { Position } from '../editor-tools/ports';
import { saveLands } from './document-save';

export class VscodeEditorActions implements EditorActions {
  /** `opened`: the file in a tab first, so its language service answers from the whole project (editor-language.ts). */
  constructor(private readonly opened: (path: string) => Promise<void>) {}

  async planRename(path: string, position: Position, newName: string): Promise<PlannedEdit> {
    await this.opened(path);
    const uri = vscode.Uri.file(path);
    const at = new vscode.Position(position.line, position.character);
    let edit: vscode.WorkspaceEdit | undefined;
    try {
      edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit | undefined>(
        'vscode.executeDocumentRenameProvider',
        uri,
        at,
        newName,
      );
    } catch (error) {
      // The provider's own refusal ("You cannot rename this element") is the clearest answer.
      throw new Error(
        `Cannot rename at ${path}:${position.line + 1}:${position.character + 1}: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    if (!edit) throw new Error(`No rename provider answered for ${path}:${position.line + 1}:${position.character + 1}`);
    const planned = plannedEdit(edit);
    refuseUnsaved(planned.files);
    return planned;
  }

  async quickFixes(path: string, position: Position): Promise<readonly QuickFix[]> {
    await this.opened(path);
    const uri = vscode.Uri.file(path);
    const at = new vscode.Position(position.line, position.character);
    const diagnostics = vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.range.contains(at));
    const range = diagnostics.reduce((union, diagnostic) => union.union(diagnostic.range), new vscode.Range(at, at));
    const actions =
      (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[] | undefined>(
        'vscode.executeCodeActionProvider',
        uri,
        range,
        vscode.CodeActionKind.QuickFix.value,
      )) ?? [];
    return actions
      .filter(isCodeAction)
      .filter((action) => action.disabled === undefined)
      .map((action) => ({
        title: action.title,
        preferred: action.isPreferred === true,
        ...(action.diagnostics?.[0] ? { diagnostic: action.diagnostics[0].message } : {}),
        ...(action.edit ? { edit: plannedEdit(action.edit) } : {}),
        ...(action.command ? { runCommand: commandRunner(action.command) } : {}),
      }));
  }

  async taskNames(): Promise<readonly string[]> {
    return [...new Set((await vscode.tasks.fetchTasks()).map((task) => task.name))];
  }

  async taskCommand(name: string): Promise<TaskCommand | undefined> {
    const task = (await vscode.tasks.fetchTasks()).find((candidate) => candidate.name === name);
    if (!task) return undefined;
    const commandLine = taskCommandLine(task.execution);
    return { source: task.source, ...(commandLine === undefined ? {} : { commandLine }) };
  }

  async runTask(name: string, signal: AbortSignal): Promise<number | undefined> {
    const task = (await vscode.tasks.fetchTasks()).find((candidate) => candidate.name === name);
    if (!task) throw new Error(`No task named "${name}"`);
    // Listening before the start: a quick task may end before executeTask's answer arrives.
    const ends: { execution: vscode.TaskExecution; exitCode: number | undefined }[] = [];
    let settle: ((exitCode: number | undefined) => void) | undefined;
    let execution: vscode.TaskExecution | undefined;
    const ended = (event: { execution: vscode.TaskExecution; exitCode: number | undefined }): void => {
      if (execution === undefined) ends.push(event);
      else if (event.execution === execution) settle?.(event.exitCode);
    };
    const subscriptions = [
      // A shell or process task reports its exit code; others (a custom execution) end without one.
      vscode.tasks.onDidEndTaskProcess((event) => ended({ execution: event.execution, exitCode: event.exitCode })),
      // The process event comes first when there is one: the task's own end waits a moment for it.
      vscode.tasks.onDidEndTask((event) => void setTimeout(() => ended({ execution: event.execution, exitCode: undefined }), 200)),
    ];
    try {
      execution = await vscode.tasks.executeTask(task);
      const started = execution;
      return await new Promise<number | undefined>((resolve, reject) => {
        const onAbort = (): void => {
          started.terminate();
          reject(new Error('stopped'));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        settle = (exitCode) => {
          signal.removeEventListener('abort', onAbort);
          resolve(exitCode);
        };
        const early = ends.find((end) => end.execution === started);
        if (early) settle(early.exitCode);
      });
    } finally {
      subscriptions.forEach((subscription) => subscription.dispose());
    }
  }
}

/** The command line a shell or process task runs, as written in its definition; undefined for a custom execution. */
function taskCommandLine(execution: vscode.Task['execution']): string | undefined {
  const word = (part: string | vscode.ShellQuotedString): string => (typeof part === 'string' ? part : part.value);
  if (execution instanceof vscode.ShellExecution)
    return (
      execution.commandLine ??
      [execution.command, ...(execution.args ?? [])]
        .filter((part) => part !== undefined)
        .map(word)
        .join(' ')
    );
  if (execution instanceof vscode.ProcessExecution) return [execution.process, ...execution.args].join(' ');
  return undefined;
}

/** A provider may answer bare Commands (whose `command` is its id): those are no quick fixes with an edit to show. */
function isCodeAction(action: vscode.CodeAction | vscode.Command): action is vscode.CodeAction {
  return typeof action.command !== 'string';
}

function commandRunner(command: vscode.Command): () => Promise<void> {
  return async () => {
    await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
  };
}

/**
 * The files are saved after the edit, so the change card captures them: a file with the user's own unsaved changes
 * would have those saved too, and counted as the agent's. Such a file is left alone, and the agent told why.
 */
function refuseUnsaved(files: readonly FileEdits[]): void {
  const unsaved = files.filter((file) =>
    vscode.workspace.textDocuments.some((document) => document.uri.fsPath === file.path && document.isDirty),
  );
  if (unsaved.length > 0)
    throw new Error(
      `Refused: ${unsaved.map((file) => file.path).join(', ')} ${unsaved.length === 1 ? 'has' : 'have'} unsaved changes in the editor; the user must save or revert them first. Nothing was changed.`,
    );
}

/** The edit's text edits counted per file (file creations, renames and deletions count as one edit each). */
function plannedEdit(edit: vscode.WorkspaceEdit): PlannedEdit {
  const counts = new Map<string, number>();
  for (const [uri, edits] of edit.entries())
    if (uri.scheme === 'file') counts.set(uri.fsPath, (counts.get(uri.fsPath) ?? 0) + edits.length);
  const files: FileEdits[] = [...counts].map(([path, edits]) => ({ path, edits }));
  return {
    files,
    apply: async () => {
      refuseUnsaved(files);
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code did not apply the edit (a file changed meanwhile?)');
      for (const file of files) {
        // The edit's document as the workbench now holds it. A file in no tab reaches the extension host's
        // `textDocuments` only some time after applyEdit answers (on a loaded machine, after this loop ran): looked
        // up there, it was skipped and left unsaved until the workbench's auto save, after the agent was told it was
        // applied. Opened here, it is the edited model; saveLands then waits for the disk (auto save may be writing).
        const document = await editedDocument(file.path);
        if (document && !(await saveLands(document, document.getText())))
          throw new Error(`${file.path} was changed but could not be saved`);
      }
    },
  };
}

/** The document an applied edit changed, or none when the edit deleted or moved the file away. */
async function editedDocument(path: string): Promise<vscode.TextDocument | undefined> {
  const loaded = vscode.workspace.textDocuments.find((candidate) => candidate.uri.fsPath === path);
  if (loaded) return loaded;
  try {
    return await vscode.workspace.openTextDocument(vscode.Uri.file(path));
  } catch {
    return undefined;
  }
}
